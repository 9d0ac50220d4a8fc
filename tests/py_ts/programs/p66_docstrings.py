class Account:
    """A bank account.

    Keeps a running balance.
    """

    def __init__(self, owner: str, balance: float = 0.0):
        self.owner = owner
        self.balance = balance

    def deposit(self, amount: float) -> float:
        """Add money to the account.

        Args:
            amount (float): How much to add. Must be
                positive.

        Returns:
            float: The new balance.
        """
        self.balance += amount
        return self.balance


def scale(values: list[float], factor: float = 2.0) -> list[float]:
    """Multiply each value.

    :param values: the numbers
    :param factor: the multiplier
    :returns: scaled numbers
    """
    return [v * factor for v in values]


def shout(s):
    return s.upper() + "!"


print(scale([1.0, 2.5]), shout("hi"), Account("x").deposit(2.5))
