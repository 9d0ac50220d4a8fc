memo = {0: 0, 1: 1}


def fib(n: int) -> int:
    if n in memo:
        return memo[n]
    value = fib(n - 1) + fib(n - 2)
    memo[n] = value
    return value


print([fib(i) for i in range(15)])
print(fib(70))
print(len(memo))
