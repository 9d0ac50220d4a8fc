class Account:
    RATE = 0.05
    BANK = "ZeroBank"
    LIMITS = (100, 500)

    def __init__(self, owner):
        self.owner = owner

    def describe(self):
        return f"{self.owner}@{self.BANK} rate={self.RATE} max={self.LIMITS[1]}"


class Premium(Account):
    RATE = 0.08


print(Account.RATE, Account.BANK, Premium.RATE, Account.LIMITS)
print(Account("ann").describe())
print(Premium("bob").describe())
