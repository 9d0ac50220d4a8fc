from typing import Optional


def find_first_negative(nums: list[int]) -> Optional[int]:
    for n in nums:
        if n < 0:
            return n
    return None


def lookup(d: dict[str, int], key: str) -> int | None:
    if key in d:
        return d[key]
    return None


print(find_first_negative([3, 4, -2, -7]))
print(find_first_negative([1, 2]))
r = lookup({"a": 1}, "a")
print(r, lookup({"a": 1}, "b"))
if r is not None:
    print(r + 1)
x = find_first_negative([5])
print("none" if x is None else str(x))
