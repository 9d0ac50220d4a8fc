class BankAccount:
    """A simple bank account."""

    def __init__(self, owner: str, balance: float = 0.0):
        self.owner = owner
        self.balance = balance
        self.history = []

    def deposit(self, amount: float) -> None:
        """Add money."""
        self.balance += amount
        self.history.append(("deposit", amount))

    def withdraw(self, amount: float) -> bool:
        if amount > self.balance:
            return False
        self.balance -= amount
        self.history.append(("withdraw", amount))
        return True

    def summary(self) -> str:
        return f"{self.owner}: {self.balance:.2f} after {len(self.history)} operations"


acct = BankAccount("Ada", 100.0)
acct.deposit(50.5)
print(acct.withdraw(500.0))
print(acct.withdraw(20.25))
print(acct.summary())
print(acct.history)
for kind, amount in acct.history:
    print(kind, amount)
