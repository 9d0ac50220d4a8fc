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

function pyEnumerate<T>(xs: Iterable<T>, start: number = 0): [number, T][] {
  const out: [number, T][] = [];
  let i = start;
  for (const v of xs) out.push([i++, v]);
  return out;
}

function pyZip<A, B>(a: Iterable<A>, b: Iterable<B>): [A, B][] {
  const xs = Array.from(a);
  const ys = Array.from(b);
  const out: [A, B][] = [];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) out.push([xs[i], ys[i]]);
  return out;
}

function pyZip3<A, B, C>(a: Iterable<A>, b: Iterable<B>, c: Iterable<C>): [A, B, C][] {
  const xs = Array.from(a);
  const ys = Array.from(b);
  const zs = Array.from(c);
  const out: [A, B, C][] = [];
  const n = Math.min(xs.length, ys.length, zs.length);
  for (let i = 0; i < n; i++) out.push([xs[i], ys[i], zs[i]]);
  return out;
}
// ---- end of helpers ----

const names: string[] = ["ann", "ben", "cy"];
const scores: number[] = [88, 92, 75];
for (const [i, name] of Array.from(names.entries())) {
  console.log(`${pyStrInt(i)} ${name}`);
}
for (const [i, name] of pyEnumerate(names, 1)) {
  console.log(`${pyStrInt(i)}. ${name}`);
}
for (const [name, score] of pyZip(names, scores)) {
  console.log(`${name} ${pyStrInt(score)}`);
}
console.log(pyFmtList<[string, number]>(pyFmtTuple([pyReprStr, pyStrInt]))(Array.from(pyZip(names, scores))));
console.log(pyFmtList<[number, string]>(pyFmtTuple([pyStrInt, pyReprStr]))(Array.from(pyEnumerate("ab"))));
for (const [a, b, c] of pyZip3([1, 2], "xy", [true, false])) {
  console.log(`${pyStrInt(a)} ${b} ${pyStrBool(c)}`);
}
console.log(pyFmtDict<string, number>(pyReprStr, pyStrInt)(false ? new Map<string, number>(pyZip(names, scores)) : new Map<string, number>(pyZip(names, scores).map(([n, s]: [string, number]): [string, number] => [n, s]))));

export {};
