words = ["banana", "Apple", "cherry", "date", "fig"]
print(sorted(words))
print(sorted(words, key=len))
print(sorted(words, key=lambda w: w.lower()))
print(sorted(words, key=len, reverse=True))
print(sorted([3, 1, 2], reverse=True))
print(list(reversed(words)))
for w in reversed(words):
    print(w, end=" ")
print()
people = [("amy", 30), ("bob", 25), ("cat", 30), ("dan", 25)]
print(sorted(people, key=lambda p: p[1]))
print(sorted(people, key=lambda p: (-p[1], p[0])))
print(sorted(people))
print(max(people, key=lambda p: p[1]), min(people, key=lambda p: p[1]))
print(sorted("hello"))
