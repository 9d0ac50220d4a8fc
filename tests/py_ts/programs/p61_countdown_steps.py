for i in range(10, 0, -3):
    print(i, end=",")
print()
for i in range(0, 20, 5):
    print(i, end=" ")
print()
print(list(range(5, -5, -2)), list(range(3)), list(range(2, 4)))
n = 4
for i in range(n):
    n -= 1
    print(i, n)
total = 0
for i in range(1, 101):
    total += i
print(total, i)
