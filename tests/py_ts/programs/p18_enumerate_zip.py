names = ["ann", "ben", "cy"]
scores = [88, 92, 75]
for i, name in enumerate(names):
    print(i, name)
for i, name in enumerate(names, 1):
    print(f"{i}. {name}")
for name, score in zip(names, scores):
    print(name, score)
print(list(zip(names, scores)))
print(list(enumerate("ab")))
for a, b, c in zip([1, 2], "xy", [True, False]):
    print(a, b, c)
print(dict(zip(names, scores)) if False else {n: s for n, s in zip(names, scores)})
