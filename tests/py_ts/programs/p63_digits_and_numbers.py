def digit_sum(n: int) -> int:
    return sum(int(d) for d in str(abs(n)))


def is_armstrong(n: int) -> bool:
    s = str(n)
    return n == sum(int(d) ** len(s) for d in s)


def reverse_number(n: int) -> int:
    sign = -1 if n < 0 else 1
    return sign * int(str(abs(n))[::-1])


print([digit_sum(n) for n in [0, 9, 123, -456, 99999]])
print([n for n in range(1, 1000) if is_armstrong(n)])
print(reverse_number(1234), reverse_number(-560), reverse_number(7))
print(str(2 ** 50), len(str(2 ** 50)))
