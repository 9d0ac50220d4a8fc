// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
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

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}

function pyFmtTuple(fs: ((v: any) => string)[]): (t: any[]) => string {
  return (t: any[]) =>
    fs.length === 1 ? "(" + fs[0](t[0]) + ",)" : "(" + fs.map((f, i) => f(t[i])).join(", ") + ")";
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

function pyMinMax<T>(xs: Iterable<T>, sign: number, key: ((v: T) => any) | null = null): T {
  let best: T | undefined = undefined;
  let bestKey: any = undefined;
  let seen = false;
  for (const v of xs) {
    const kv = key === null ? v : key(v);
    if (!seen || sign * pyCmp(kv, bestKey) < 0) {
      best = v;
      bestKey = kv;
      seen = true;
    }
  }
  if (!seen) throw new Error("ValueError: min()/max() arg is an empty sequence");
  return best as T;
}
// ---- end of helpers ----

const words: string[] = ["banana", "Apple", "cherry", "date", "fig"];
pyWrite(`${pyFmtList<string>(pyReprStr)(pySorted(words))}
`);
pyWrite(`${pyFmtList<string>(pyReprStr)(pySorted(words, (v: string) => v.length))}
`);
pyWrite(`${pyFmtList<string>(pyReprStr)(pySorted(words, (w: string) => w.toLowerCase()))}
`);
pyWrite(`${pyFmtList<string>(pyReprStr)(pySorted(words, (v: string) => v.length, true))}
`);
pyWrite(`${pyFmtList<number>(pyStrInt)(pySorted([3, 1, 2], null, true))}
`);
pyWrite(`${pyFmtList<string>(pyReprStr)(Array.from(words.slice().reverse()))}
`);
for (const w of words.slice().reverse()) {
  pyWrite(`${w} `);
}
pyWrite("\n");
const people: [string, number][] = [["amy", 30], ["bob", 25], ["cat", 30], ["dan", 25]];
pyWrite(`${pyFmtList<[string, number]>(pyFmtTuple([pyReprStr, pyStrInt]))(pySorted(people, (p: [string, number]) => p[1]))}
`);
pyWrite(`${pyFmtList<[string, number]>(pyFmtTuple([pyReprStr, pyStrInt]))(pySorted(people, (p: [string, number]) => [-p[1], p[0]]))}
`);
pyWrite(`${pyFmtList<[string, number]>(pyFmtTuple([pyReprStr, pyStrInt]))(pySorted(people))}
`);
pyWrite(`${pyFmtTuple([pyReprStr, pyStrInt])(pyMinMax(people, -1, (p: [string, number]) => p[1]))} ${pyFmtTuple([pyReprStr, pyStrInt])(pyMinMax(people, 1, (p: [string, number]) => p[1]))}
`);
pyWrite(`${pyFmtList<string>(pyReprStr)(pySorted("hello"))}
`);
pyFlush();

export {};
