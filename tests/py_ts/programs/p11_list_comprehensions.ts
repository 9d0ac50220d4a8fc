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

function pyMod(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: modulo by zero");
  const r = a % b;
  if (r === 0) return b < 0 ? -0 : 0;
  return r < 0 !== b < 0 ? r + b : r;
}

function pyRange(start: number, stop: number, step: number = 1): number[] {
  if (step === 0) throw new Error("ValueError: range() arg 3 must not be zero");
  const out: number[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
  else for (let i = start; i > stop; i += step) out.push(i);
  return out;
}

function pySum(xs: Iterable<number>, start: number = 0): number {
  let total = start;
  for (const v of xs) total += v;
  return total;
}
// ---- end of helpers ----

const nums: number[] = Array.from(pyRange(1, 11));
const squares: number[] = nums.map((n: number): number => n * n);
const evens: number[] = nums.filter((n: number) => pyMod(n, 2) === 0);
const pairs: [number, number][] = (() => { const out_1: [number, number][] = []; for (const a of pyRange(0, 3)) { for (const b of pyRange(0, 3)) { if (a < b) { out_1.push([a, b]); }}} return out_1; })();
const words: string[] = ["alpha", "beta", "gamma"];
const lengths: number[] = words.map((w: string): number => w.length);
const upper: string[] = words.filter((w: string) => w.includes("a")).map((w: string): string => w.toUpperCase());
console.log(pyFmtList<number>(pyStrInt)(squares));
console.log(pyFmtList<number>(pyStrInt)(evens));
console.log(pyFmtList<[number, number]>(pyFmtTuple([pyStrInt, pyStrInt]))(pairs));
console.log(`${pyFmtList<number>(pyStrInt)(lengths)} ${pyFmtList<string>(pyReprStr)(upper)}`);
const matrix: number[][] = pyRange(0, 3).map((r: number): number[] => pyRange(0, 3).map((c: number): number => r * 3 + c));
console.log(pyFmtList<number[]>(pyFmtList<number>(pyStrInt))(matrix));
const flat: number[] = (() => { const out_2: number[] = []; for (const row of matrix) { for (const x of row) { out_2.push(x); }} return out_2; })();
console.log(pyFmtList<number>(pyStrInt)(flat));
console.log(pyStrInt(pySum(flat.filter((x: number) => pyMod(x, 2) === 1))));

export {};
