from dataclasses import dataclass


@dataclass
class Point:
    """A point."""

    x: int
    y: int = 0

    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)


@dataclass
class Item:
    name: str
    price: float
    tags: tuple[str, str] = ("a", "b")


p = Point(3, -4)
print(p, p.norm1(), Point(1))
items = [Item("pen", 1.5), Item("ink", 2.25, ("x", "y"))]
print(items)
print(sorted(items, key=lambda i: -i.price)[0].name, repr(items[0]))
q = Point(x=1, y=2)
q.x += 10
print(q)
