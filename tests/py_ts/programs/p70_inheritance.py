class Animal:
    """Base class."""

    def __init__(self, name: str, sound: str = "..."):
        self.name = name
        self.sound = sound

    def speak(self) -> str:
        return f"{self.name} says {self.sound}"

    def __str__(self):
        return f"Animal({self.name})"


class Dog(Animal):
    def __init__(self, name):
        super().__init__(name, "woof")
        self.tricks = []

    def add_trick(self, trick):
        self.tricks.append(trick)

    def speak(self):
        return super().speak() + "!"


class Cat(Animal):
    def speak(self):
        return f"{self.name} purrs"


pets = [Dog("Rex"), Cat("Tom", "meow"), Animal("Generic")]
for p in pets:
    print(p.speak())
d = Dog("Fido")
d.add_trick("sit")
print(d.tricks, d.sound, str(d), d)
print(pets[1])


class Base:
    def area(self):
        return 0.0
class Sq(Base):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s * self.s * 1.0
shapes = [Sq(2), Base()]
print([s.area() for s in shapes])
