def power(base, exp=2):
    if exp == 0:
        return 1
    return base * power(base, exp - 1)


def join_words(words, sep=", ", end="."):
    return sep.join(words) + end


def hanoi(n, src="A", dst="C", via="B"):
    if n == 0:
        return 0
    moves = hanoi(n - 1, src, via, dst)
    moves += 1
    moves += hanoi(n - 1, via, dst, src)
    return moves


print(power(3), power(2, 10), power(5, exp=3))
print(join_words(["a", "b"]), join_words(["x"], end="!"), join_words(["p", "q"], " & "))
print(hanoi(5), hanoi(10))
