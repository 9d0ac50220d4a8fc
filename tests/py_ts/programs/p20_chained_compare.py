def classify(x):
    if 0 <= x < 10:
        return "small"
    elif 10 <= x < 100:
        return "medium"
    return "large"

for v in [5, 10, 99, 100, -1]:
    print(v, classify(v))
a, b, c = 1, 2, 3
print(a < b < c, a < b > c, a == 1 == a)
print(1 < 2 <= 2 < 3)
