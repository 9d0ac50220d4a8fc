counter = 0
total = 0.0
log = []


def tick(amount: float) -> None:
    global counter, total
    counter += 1
    total += amount
    log.append(counter)


for a in [1.5, 2.5]:
    tick(a)
print(counter, total, log)
