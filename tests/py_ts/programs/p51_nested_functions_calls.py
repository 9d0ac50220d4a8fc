def square(x: int) -> int:
    return x * x


def sum_of_squares(xs: list[int]) -> int:
    return sum(square(x) for x in xs)


def apply_twice(x: int) -> int:
    return square(square(x))


def mean_and_spread(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    return m, max(xs) - min(xs)


print(sum_of_squares([1, 2, 3]), apply_twice(3))
m, spread = mean_and_spread([2.0, 4.0, 9.0])
print(m, spread)
print(mean_and_spread([1.5, 2.5]))
