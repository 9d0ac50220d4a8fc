class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __repr__(self):
        return f"Point({self.x}, {self.y})"

    def __str__(self):
        return f"({self.x}, {self.y})"

    def dist2(self, other):
        dx = self.x - other.x
        dy = self.y - other.y
        return dx * dx + dy * dy


p = Point(1, 2)
q = Point(4, 6)
print(p)
print(str(q), repr(q))
print([p, q])
print(p.dist2(q))
print(f"{p} and {q!r}")
