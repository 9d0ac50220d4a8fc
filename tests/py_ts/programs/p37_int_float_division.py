a = 7
b = 2
print(a / b, a // b, a % b, a ** b, b ** -1)
print(6 / 3, 2 ** 10, 2.0 ** 3, 10 ** 0)
c = a / b
print(c)
print(int(c), int(-3.7), float(a), int("42") + 1, float("2.5") * 2)
print(abs(-5), abs(-2.5), abs(3))
print(-7 // 2 * 2 + -7 % 2)
total = 0
for v in [1, 2, 3]:
    total += v
print(total / len([1, 2, 3]))
print(10 // 3 + 10 % 3 / 2)
