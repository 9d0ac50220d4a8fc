"""A small script with a main() function."""

GREETING = "Hi"
LIMIT = 3


def greet_all(names: list[str]) -> list[str]:
    """Greet everyone up to LIMIT."""
    return [f"{GREETING}, {n}!" for n in names[:LIMIT]]


def main() -> None:
    for line in greet_all(["a", "b", "c", "d"]):
        print(line)
    assert len(greet_all([])) == 0, "empty"
    print("done")


if __name__ == "__main__":
    main()
