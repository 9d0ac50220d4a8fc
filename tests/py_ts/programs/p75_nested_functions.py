def main():
    rate = 0.1

    def with_tax(price: float) -> float:
        return price * (1 + rate)

    def fmt(x):
        return f"${x:.2f}"

    prices = [10.0, 5.5]
    for p in prices:
        print(fmt(with_tax(p)))
    print(list(map(fmt, prices)))


main()


def outer(n):
    def fact(k):
        return 1 if k <= 1 else k * fact(k - 1)
    return [fact(i) for i in range(n)]
print(outer(6))
