data = [4, 8, 15, 16, 23, 42]
n = len(data)
mean = sum(data) / n
var = sum((x - mean) ** 2 for x in data) / n
print(f"n={n} mean={mean:.3f} var={var:.3f} std={var ** 0.5:.4f}")
running = []
acc = 0
for x in data:
    acc += x
    running.append(acc)
print(running)
print([round(x / acc * 100, 1) for x in data])
median = (data[n // 2 - 1] + data[n // 2]) / 2
print(median)
