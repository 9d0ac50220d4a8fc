class Library:
    def __init__(self):
        self.books: dict[str, int] = {}
        self.log: list[str] = []

    def add(self, title: str, copies: int = 1) -> None:
        self.books[title] = self.books.get(title, 0) + copies
        self.log.append(f"add {title}")

    def lend(self, title: str) -> bool:
        if self.books.get(title, 0) > 0:
            self.books[title] -= 1
            self.log.append(f"lend {title}")
            return True
        return False

    def report(self) -> str:
        parts = [f"{t}={n}" for t, n in sorted(self.books.items())]
        return "; ".join(parts)


lib = Library()
lib.add("Dune", 2)
lib.add("Emma")
print(lib.lend("Dune"), lib.lend("Emma"), lib.lend("Emma"), lib.lend("Zed"))
print(lib.report())
print(lib.books)
print(len(lib.log), lib.log[-1])
