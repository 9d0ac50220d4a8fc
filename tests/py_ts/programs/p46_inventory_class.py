class Item:
    def __init__(self, name: str, price: float, qty: int):
        self.name = name
        self.price = price
        self.qty = qty

    def total(self) -> float:
        return self.price * self.qty


class Inventory:
    def __init__(self):
        self.items = []

    def add(self, item: Item) -> None:
        self.items.append(item)

    def value(self) -> float:
        return sum(i.total() for i in self.items)

    def names(self) -> list[str]:
        return sorted(i.name for i in self.items)

    def cheapest(self) -> Item:
        return min(self.items, key=lambda i: i.price)


inv = Inventory()
inv.add(Item("bolt", 0.25, 100))
inv.add(Item("nut", 0.1, 250))
inv.add(Item("gear", 4.75, 3))
print(f"{inv.value():.2f}")
print(inv.names())
print(inv.cheapest().name)
for it in inv.items:
    print(f"{it.name:<6}{it.qty:>5}{it.total():>8.2f}")
