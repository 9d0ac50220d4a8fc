nums = list(range(1, 11))
squares = [n * n for n in nums]
evens = [n for n in nums if n % 2 == 0]
pairs = [(a, b) for a in range(3) for b in range(3) if a < b]
words = ["alpha", "beta", "gamma"]
lengths = [len(w) for w in words]
upper = [w.upper() for w in words if "a" in w]
print(squares)
print(evens)
print(pairs)
print(lengths, upper)
matrix = [[r * 3 + c for c in range(3)] for r in range(3)]
print(matrix)
flat = [x for row in matrix for x in row]
print(flat)
print(sum(x for x in flat if x % 2 == 1))
