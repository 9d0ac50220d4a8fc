def area(width: float, height: float) -> float:
    """Area of a rectangle."""
    return width * height


def greet(name: str, excited: bool = False) -> str:
    suffix = "!" if excited else "."
    return "Hello, " + name + suffix


def count_up(n: int) -> list[int]:
    return [i for i in range(n)]


print(area(3.0, 4.5))
print(greet("Ada"))
print(greet("Linus", True))
print(greet("Grace", excited=True))
print(count_up(5))
