class Node:
    def __init__(self, value: int):
        self.value = value
        self.next: Node | None = None


class LinkedList:
    def __init__(self):
        self.head: Node | None = None
        self.size = 0

    def push(self, value: int) -> None:
        node = Node(value)
        node.next = self.head
        self.head = node
        self.size += 1

    def to_list(self) -> list[int]:
        out = []
        cur = self.head
        while cur is not None:
            out.append(cur.value)
            cur = cur.next
        return out


ll = LinkedList()
for v in [3, 1, 4]:
    ll.push(v)
print(ll.to_list(), ll.size)
