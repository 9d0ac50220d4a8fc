def first_divisor(n: int) -> int:
    d = 2
    while d * d <= n:
        if n % d == 0:
            break
        d += 1
    else:
        return n
    return d


print([first_divisor(n) for n in [15, 17, 49, 2, 91]])
for n in [4, 7]:
    for d in range(2, n):
        if n % d == 0:
            print(n, "composite")
            break
    else:
        print(n, "prime")
