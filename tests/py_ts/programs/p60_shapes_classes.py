import math


class Circle:
    """A circle with a radius."""

    def __init__(self, r: float):
        self.r = r

    def area(self) -> float:
        return math.pi * self.r ** 2

    def describe(self) -> str:
        return f"Circle(r={self.r}) area={self.area():.3f}"


class Rect:
    def __init__(self, w: float, h: float):
        self.w = w
        self.h = h

    def area(self) -> float:
        return self.w * self.h

    def is_square(self) -> bool:
        return self.w == self.h


circles = [Circle(1.0), Circle(2.5)]
for c in circles:
    print(c.describe())
rects = [Rect(2.0, 3.0), Rect(4.0, 4.0)]
print([r.area() for r in rects], [r.is_square() for r in rects])
print(f"{math.sqrt(2):.6f} {math.floor(3.7)} {math.ceil(3.2)} {math.pi:.4f}")
total = sum(c.area() for c in circles) + sum(r.area() for r in rects)
print(round(total, 3))
