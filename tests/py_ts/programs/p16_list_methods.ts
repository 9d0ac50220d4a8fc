// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyStrBool(b: boolean): string {
  return b ? "True" : "False";
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}

function pyRepeat<T>(xs: T[], n: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(...xs);
  return out;
}

function pyRange(start: number, stop: number, step: number = 1): number[] {
  if (step === 0) throw new Error("ValueError: range() arg 3 must not be zero");
  const out: number[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
  else for (let i = start; i > stop; i += step) out.push(i);
  return out;
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

function pyEq(a: any, b: any): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => pyEq(v, b[i]));
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !pyEq(v, b.get(k))) return false;
    return true;
  }
  return a === b;
}

function pySorted<T>(xs: Iterable<T>, key: ((v: T) => any) | null = null, reverse: boolean = false): T[] {
  const arr = Array.from(xs);
  const k = key === null ? (v: T): any => v : key;
  const sign = reverse ? -1 : 1;
  return arr.sort((a, b) => sign * pyCmp(k(a), k(b)));
}

function pySortInPlace<T>(xs: T[], key: ((v: T) => any) | null = null, reverse: boolean = false): void {
  const sorted = pySorted(xs, key, reverse);
  for (let i = 0; i < sorted.length; i++) xs[i] = sorted[i];
}

function pyListIndex<T>(xs: T[], x: T): number {
  for (let i = 0; i < xs.length; i++) if (pyEq(xs[i], x)) return i;
  throw new Error("ValueError: value is not in list");
}

function pyListCount<T>(xs: T[], x: T): number {
  let n = 0;
  for (const v of xs) if (pyEq(v, x)) n++;
  return n;
}

function pyPop<T>(xs: T[], i: number = -1): T {
  const j = i < 0 ? xs.length + i : i;
  if (j < 0 || j >= xs.length) throw new Error("IndexError: pop index out of range");
  return xs.splice(j, 1)[0];
}

function pyInsert<T>(xs: T[], i: number, x: T): void {
  const j = i < 0 ? Math.max(0, xs.length + i) : Math.min(i, xs.length);
  xs.splice(j, 0, x);
}

function pyRemove<T>(xs: T[], x: T): void {
  xs.splice(pyListIndex(xs, x), 1);
}
// ---- end of helpers ----

const xs: number[] = [5, 1, 4];
xs.push(2);
xs.splice(0, 0, 9);
pyInsert(xs, -1, 7);
console.log(pyFmtList<number>(pyStrInt)(xs));
console.log(`${pyStrInt(pyPop(xs))} ${pyStrInt(pyPop(xs, 0))} ${pyFmtList<number>(pyStrInt)(xs)}`);
console.log(`${pyStrInt(pyListIndex(xs, 4))} ${pyStrInt(pyListCount(xs, 1))}`);
xs.push(...[1, 1]);
console.log(pyStrInt(pyListCount(xs, 1)));
pyRemove(xs, 1);
console.log(pyFmtList<number>(pyStrInt)(xs));
pySortInPlace(xs);
console.log(pyFmtList<number>(pyStrInt)(xs));
pySortInPlace(xs, null, true);
console.log(pyFmtList<number>(pyStrInt)(xs));
xs.reverse();
console.log(pyFmtList<number>(pyStrInt)(xs));
const ys: number[] = xs.slice();
ys.push(100);
console.log(`${pyStrInt(xs.length)} ${pyStrInt(ys.length)}`);
console.log(`${pyStrInt(xs[xs.length - 1])} ${pyStrInt(xs[xs.length - 2])} ${pyFmtList<number>(pyStrInt)(xs.slice(1, -1))}`);
console.log(`${pyStrBool(xs.includes(3))} ${pyStrBool(xs.includes(42))}`);
const zs: number[][] = pyRange(0, 2).map((__: number): number[] => pyRepeat([0], 3));
zs[1][2] = 5;
console.log(pyFmtList<number[]>(pyFmtList<number>(pyStrInt))(zs));
console.log(`${pyFmtList<number>(pyStrInt)([...[1, 2], ...[3]])} ${pyFmtList<number>(pyStrInt)(pyRepeat([0], 4))}`);
console.log(pyStrInt(xs.length));

export {};
