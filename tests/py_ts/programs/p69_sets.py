seen = set()
dups = []
for n in [3, 1, 3, 2, 1, 5]:
    if n in seen:
        dups.append(n)
    else:
        seen.add(n)
print(dups, len(seen), sorted(seen), 4 in seen, 5 not in seen)
vowels = {"a", "e", "i", "o", "u"}
word = "education"
print(sum(1 for ch in word if ch in vowels))
print(sorted({c for c in word if c not in vowels}))
a = {1, 2, 3}
b = set([2, 3, 4])
print(sorted(a.union(b)), sorted(a.intersection(b)), sorted(a.difference(b)))
print(a.issubset({1, 2, 3, 9}), a == {3, 2, 1}, max(a), min(b), sum(a))
a.discard(1)
a.remove(2)
a.update([7, 8])
print(sorted(a), len(set("mississippi")))
if seen:
    print("non-empty")
