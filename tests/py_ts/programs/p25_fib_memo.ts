// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}

function pyRange(start: number, stop: number, step: number = 1): number[] {
  if (step === 0) throw new Error("ValueError: range() arg 3 must not be zero");
  const out: number[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
  else for (let i = start; i > stop; i += step) out.push(i);
  return out;
}

function pyDictGet<K, V>(d: Map<K, V>, k: K): V {
  if (!d.has(k)) throw new Error("KeyError: " + String(k));
  return d.get(k) as V;
}
// ---- end of helpers ----

const memo: Map<number, number> = new Map<number, number>([[0, 0], [1, 1]]);

function fib(n: number): number {
  if (memo.has(n)) {
    return pyDictGet(memo, n);
  }
  const value: number = fib(n - 1) + fib(n - 2);
  memo.set(n, value);
  return value;
}

console.log(pyFmtList<number>(pyStrInt)(pyRange(0, 15).map((i: number): number => fib(i))));
console.log(pyStrInt(fib(70)));
console.log(pyStrInt(memo.size));

export {};
