class Counter:
    def __init__(self, name):
        self.name = name
        self.count = 0

    def increment(self, by=1):
        self.count += by
        return self.count

    def reset(self):
        self.count = 0


class Stack:
    def __init__(self):
        self.items: list[str] = []

    def push(self, item: str) -> None:
        self.items.append(item)

    def pop(self) -> str:
        return self.items.pop()

    def is_empty(self) -> bool:
        return len(self.items) == 0

    def __len__(self) -> int:
        return len(self.items)


c = Counter("clicks")
c.increment()
c.increment(5)
print(f"{c.name}={c.count}")
c.reset()
print(c.count)
s = Stack()
for w in "to be or not".split():
    s.push(w)
print(len(s), s.is_empty())
while not s.is_empty():
    print(s.pop(), end=" ")
print()
print(len(s))
