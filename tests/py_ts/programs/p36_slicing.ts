// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}

function pyIndex<T>(xs: T[], i: number): T {
  const j = i < 0 ? xs.length + i : i;
  if (j < 0 || j >= xs.length) throw new Error("IndexError: list index out of range");
  return xs[j];
}

function pyCharAt(s: string, i: number): string {
  const j = i < 0 ? s.length + i : i;
  if (j < 0 || j >= s.length) throw new Error("IndexError: string index out of range");
  return s[j];
}

function pySliceStep<T>(xs: T[], start: number | null, stop: number | null, step: number): T[] {
  if (step === 0) throw new Error("ValueError: slice step cannot be zero");
  const n = xs.length;
  const norm = (v: number, lo: number, hi: number): number =>
    v < 0 ? Math.max(v + n, lo) : Math.min(v, hi);
  const out: T[] = [];
  if (step > 0) {
    const a = start === null ? 0 : norm(start, 0, n);
    const b = stop === null ? n : norm(stop, 0, n);
    for (let i = a; i < b; i += step) out.push(xs[i]);
  } else {
    const a = start === null ? n - 1 : norm(start, -1, n - 1);
    const b = stop === null ? -1 : norm(stop, -1, n - 1);
    for (let i = a; i > b; i += step) out.push(xs[i]);
  }
  return out;
}

function pyStrSliceStep(s: string, start: number | null, stop: number | null, step: number): string {
  return pySliceStep(s.split(""), start, stop, step).join("");
}

function pyRange(start: number, stop: number, step: number = 1): number[] {
  if (step === 0) throw new Error("ValueError: range() arg 3 must not be zero");
  const out: number[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
  else for (let i = start; i > stop; i += step) out.push(i);
  return out;
}
// ---- end of helpers ----

const xs: number[] = Array.from(pyRange(0, 10));
console.log(`${pyFmtList<number>(pyStrInt)(xs.slice(2, 5))} ${pyFmtList<number>(pyStrInt)(xs.slice(0, 3))} ${pyFmtList<number>(pyStrInt)(xs.slice(7))} ${pyFmtList<number>(pyStrInt)(xs.slice(-3))} ${pyFmtList<number>(pyStrInt)(xs.slice(0, -7))} ${pyFmtList<number>(pyStrInt)(pySliceStep(xs, null, null, 3))} ${pyFmtList<number>(pyStrInt)(pySliceStep(xs, 1, null, 2))} ${pyFmtList<number>(pyStrInt)(xs.slice().reverse())} ${pyFmtList<number>(pyStrInt)(pySliceStep(xs, 8, 2, -2))}`);
console.log(`${pyFmtList<number>(pyStrInt)(xs.slice(100))} ${pyFmtList<number>(pyStrInt)(xs.slice(-100, 2))} ${pyFmtList<number>(pyStrInt)(xs.slice(5, 1))}`);
const s: string = "abcdefghij";
console.log(`${s.slice(2, 5)} ${s.slice(0, 3)} ${s.slice(7)} ${s.slice(-3)} ${pyStrSliceStep(s, null, null, 3)} ${Array.from(s).reverse().join("")} ${pyStrSliceStep(s, 8, 2, -2)} ${s[s.length - 1]} ${s[s.length - 10]}`);
const i: number = 3;
console.log(`${pyStrInt(pyIndex(xs, i))} ${pyStrInt(pyIndex(xs, -i))} ${pyCharAt(s, i - 5)}`);
const words: string[] = ["one", "two", "three"];
console.log(`${Array.from(words[words.length - 1]).reverse().join("")} ${words[0].slice(1)}`);

export {};
