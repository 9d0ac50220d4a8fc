print("a", "b", "c", sep="-")
print("no newline", end="")
print(" continued")
for i in range(5):
    print(i, end=" ")
print()
print("x", 1, 2.5, True, None, sep=", ", end="!\n")
