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

function pyFmtDict<K, V>(kf: (k: K) => string, vf: (v: V) => string): (d: Map<K, V>) => string {
  return (d: Map<K, V>) => {
    const parts: string[] = [];
    for (const [k, v] of d) parts.push(kf(k) + ": " + vf(v));
    return "{" + parts.join(", ") + "}";
  };
}

function pyMod(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: modulo by zero");
  const r = a % b;
  if (r === 0) return b < 0 ? -0 : 0;
  return r < 0 !== b < 0 ? r + b : r;
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

function pyEnumerate<T>(xs: Iterable<T>, start: number = 0): [number, T][] {
  const out: [number, T][] = [];
  let i = start;
  for (const v of xs) out.push([i++, v]);
  return out;
}
// ---- end of helpers ----

const text: string = "Hello World";
let vowels: number = 0;
for (const ch of text) {
  if ("aeiou".includes(ch.toLowerCase())) {
    vowels += 1;
  }
}
console.log(pyStrInt(vowels));
console.log(pyFmtList<string>(pyReprStr)(Array.from("abc")));
console.log(`${pyFmtList<string>(pyReprStr)(Array.from("xyz"))} ${pyStrInt("hello".length)}`);
const freq: Map<string, number> = new Map<string, number>();
for (const ch of "mississippi") {
  freq.set(ch, (freq.get(ch) ?? 0) + 1);
}
console.log(pyFmtDict<string, number>(pyReprStr, pyStrInt)(freq));
console.log(pyFmtList<[string, number]>(pyFmtTuple([pyReprStr, pyStrInt]))(pySorted(freq.entries(), (kv: [string, number]) => kv[1], true)));
console.log(Array.from("stressed").reverse().join(""));
const caps: string = pyEnumerate("alternate").map(([i, c]: [number, string]): string => pyMod(i, 2) === 0 ? c.toUpperCase() : c).join("");
console.log(caps);

export {};
