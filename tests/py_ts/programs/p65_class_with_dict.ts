// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyStrBool(b: boolean): string {
  return b ? "True" : "False";
}

function pyReprStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || (c >= 0x7f && c <= 0xa0) || c === 0xad) {
      out += "\\x" + c.toString(16).padStart(2, "0");
    } else out += ch;
  }
  return out + quote;
}

function pyFmtDict<K, V>(kf: (k: K) => string, vf: (v: V) => string): (d: Map<K, V>) => string {
  return (d: Map<K, V>) => {
    const parts: string[] = [];
    for (const [k, v] of d) parts.push(kf(k) + ": " + vf(v));
    return "{" + parts.join(", ") + "}";
  };
}

function pyCmp(a: any, b: any): number {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = pyCmp(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function pySorted<T>(xs: Iterable<T>, key: ((v: T) => any) | null = null, reverse: boolean = false): T[] {
  const arr = Array.from(xs);
  const k = key === null ? (v: T): any => v : key;
  const sign = reverse ? -1 : 1;
  return arr.sort((a, b) => sign * pyCmp(k(a), k(b)));
}

function pyDictGet<K, V>(d: Map<K, V>, k: K): V {
  if (!d.has(k)) throw new Error("KeyError: " + String(k));
  return d.get(k) as V;
}
// ---- end of helpers ----


class Library {
  books: Map<string, number>;
  log: string[];

  constructor() {
    this.books = new Map<string, number>();
    this.log = [];
  }

  add(title: string, copies: number = 1): void {
    this.books.set(title, (this.books.get(title) ?? 0) + copies);
    this.log.push(`add ${title}`);
  }

  lend(title: string): boolean {
    if ((this.books.get(title) ?? 0) > 0) {
      this.books.set(title, pyDictGet(this.books, title) - 1);
      this.log.push(`lend ${title}`);
      return true;
    }
    return false;
  }

  report(): string {
    const parts: string[] = pySorted(this.books.entries()).map(([t, n]: [string, number]): string => `${t}=${pyStrInt(n)}`);
    return parts.join("; ");
  }
}

const lib: Library = new Library();
lib.add("Dune", 2);
lib.add("Emma");
console.log(`${pyStrBool(lib.lend("Dune"))} ${pyStrBool(lib.lend("Emma"))} ${pyStrBool(lib.lend("Emma"))} ${pyStrBool(lib.lend("Zed"))}`);
console.log(lib.report());
console.log(pyFmtDict<string, number>(pyReprStr, pyStrInt)(lib.books));
console.log(`${pyStrInt(lib.log.length)} ${lib.log[lib.log.length - 1]}`);

export {};
