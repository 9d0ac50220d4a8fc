def collatz_steps(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


best = max(range(1, 30), key=collatz_steps)
print(best, collatz_steps(best))
print([collatz_steps(n) for n in range(1, 11)])
