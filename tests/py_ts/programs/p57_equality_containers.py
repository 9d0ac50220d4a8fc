a = [1, 2, 3]
b = [1, 2, 3]
c = [3, 2, 1]
print(a == b, a == c, a != c, sorted(c) == a)
t1 = (1, "x")
t2 = (1, "x")
print(t1 == t2, (1, 2) < (1, 3), (2, 0) > (1, 9), [1, 2] < [1, 2, 0])
d1 = {"k": [1]}
d2 = {"k": [1]}
print(d1 == d2)
pairs = [(1, "a"), (2, "b")]
print((2, "b") in pairs, (3, "c") in pairs)
print("b" < "a", "apple" < "banana", min("pear", "fig"), max(["x", "yy", "z"]))
print(max(3, 7, 5), min(2.5, 1.5))
