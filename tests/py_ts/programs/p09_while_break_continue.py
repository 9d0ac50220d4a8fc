n = 0
total = 0
while True:
    n += 1
    if n % 2 == 0:
        continue
    if n > 15:
        break
    total += n
print(n, total)
i = 10
while i > 0:
    i -= 3
print(i)
for k in range(5):
    if k == 3:
        break
else:
    print("no break")
for k in range(3):
    pass
else:
    print("completed", k)
