// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyStrBool(b: boolean): string {
  return b ? "True" : "False";
}

let pyOutBuf = "";
function pyWrite(s: string): void {
  pyOutBuf += s;
  const i = pyOutBuf.lastIndexOf("\n");
  if (i >= 0) {
    console.log(pyOutBuf.slice(0, i));
    pyOutBuf = pyOutBuf.slice(i + 1);
  }
}
function pyFlush(): void {
  if (pyOutBuf !== "") console.log(pyOutBuf);
  pyOutBuf = "";
}

function pyPop<T>(xs: T[], i: number = -1): T {
  const j = i < 0 ? xs.length + i : i;
  if (j < 0 || j >= xs.length) throw new Error("IndexError: pop index out of range");
  return xs.splice(j, 1)[0];
}

function pySplit(s: string, sep: string | null = null): string[] {
  if (sep === null) {
    const t = s.trim();
    return t === "" ? [] : t.split(/\s+/);
  }
  if (sep === "") throw new Error("ValueError: empty separator");
  return s.split(sep);
}
// ---- end of helpers ----


class Counter {
  name: string;
  count: number;

  constructor(name: string) {
    this.name = name;
    this.count = 0;
  }

  increment(by: number = 1): number {
    this.count += by;
    return this.count;
  }

  reset(): void {
    this.count = 0;
  }
}


class Stack {
  items: string[];

  constructor() {
    this.items = [];
  }

  push(item: string): void {
    this.items.push(item);
  }

  pop(): string {
    return pyPop(this.items);
  }

  is_empty(): boolean {
    return this.items.length === 0;
  }

  __len__(): number {
    return this.items.length;
  }
}

const c: Counter = new Counter("clicks");
c.increment();
c.increment(5);
pyWrite(`${c.name}=${pyStrInt(c.count)}
`);
c.reset();
pyWrite(`${pyStrInt(c.count)}
`);
const s: Stack = new Stack();
for (const w of pySplit("to be or not")) {
  s.push(w);
}
pyWrite(`${pyStrInt(s.__len__())} ${pyStrBool(s.is_empty())}
`);
while (!s.is_empty()) {
  pyWrite(`${s.pop()} `);
}
pyWrite("\n");
pyWrite(`${pyStrInt(s.__len__())}
`);
pyFlush();

export {};
