words = ["banana", "Apple", "cherry", "apple", "Banana"]
print(sorted(words), sorted(words, key=lambda w: w.lower()))
print(max(words), min(words), max(words, key=len), min(words, key=len))
print(sorted([(1, "b"), (1, "a"), (0, "z")], reverse=True))
print([1.5, 2.0] == [1.5, 2.0], 2.0 in [1, 2], 3 in [1.5, 3.0])
print(round(2.5), round(3.5), round(-2.5), round(0.49999999999999994))
print(17 // -5, 17 % -5, -17 // -5, -17 % -5)
pairs = [(1, "a"), (2, "b"), (3, "c")]
print(pairs[::-1], pairs[-1][1], [p[0] for p in pairs if p[1] != "b"])
print([[i * j for j in range(i)] for i in range(4)])
print([(i, j) for i in range(3) for j in range(i)])
s = "  Mixed Case  "
print(s.strip().lower().replace(" ", "_"), s.split(), s.strip().split(" "))
print("abc" < "abd", "Z" < "a", "10" < "9", [2] > [1, 5])
print(f"{-0.0}", f"{-0.001:.2f}", f"{0.0:+.1f}", -0.0 == 0.0)
n = 10
while n > 0 and n % 7 != 0:
    n -= 1
print(n)
print(str(3) + str(4.0) + str(False) + str(None) + str([1]) + str((1,)) + str({"a": 1}))
print(len("tab\t"), "a\tb".split("\t"), "x\ny".split("\n"), "a b\tc\nd".split())
print(abs(-3) == 3, abs(-3.5), -abs(2), +5)
print(1e3, 1.5e3, 2e-3, 1.0e10, 12345678.9, 0.1 ** 5)
print(100 * 1.1, 3 * 0.1, 0.5 + 0.25, 2 ** 0.5 * 2 ** 0.5)
print(sum([1, 2, 3]) / 3, sum([1.1, 2.2, 3.3]), max(1.5, 2.5), min(-1, -5))
