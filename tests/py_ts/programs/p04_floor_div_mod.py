pairs = [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 3), (-1, 5)]
for a, b in pairs:
    print(a, b, a // b, a % b)
print(7.5 // 2, -7.5 // 2, 7.5 % 2, -7.5 % 2)
print(1 // 0.1, 1 % 0.1)
print(-3 % 5.0)
n = -17
print(n // 4, n % 4)
