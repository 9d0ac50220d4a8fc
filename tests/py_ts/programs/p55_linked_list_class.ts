// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}
// ---- end of helpers ----


class Node {
  value: number;
  next: Node | null;

  constructor(value: number) {
    this.value = value;
    this.next = null;
  }
}


class LinkedList {
  head: Node | null;
  size: number;

  constructor() {
    this.head = null;
    this.size = 0;
  }

  push(value: number): void {
    const node: Node = new Node(value);
    node.next = this.head;
    this.head = node;
    this.size += 1;
  }

  to_list(): number[] {
    const out: number[] = [];
    let cur: Node | null = this.head;
    while (cur !== null) {
      out.push(cur.value);
      cur = cur.next;
    }
    return out;
  }
}

const ll: LinkedList = new LinkedList();
for (const v of [3, 1, 4]) {
  ll.push(v);
}
console.log(`${pyFmtList<number>(pyStrInt)(ll.to_list())} ${pyStrInt(ll.size)}`);

export {};
