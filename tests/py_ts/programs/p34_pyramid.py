height = 5
for i in range(1, height + 1):
    print(" " * (height - i) + "*" * (2 * i - 1))
for i in range(height, 0, -1):
    print("#" * i)
print("=" * 20)
print("-" * 0 + "|", "ab" * -2 + "|")
