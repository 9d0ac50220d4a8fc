// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
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


function collatz_steps(n: number): number {
  let steps: number = 0;
  while (n !== 1) {
    if (pyMod(n, 2) === 0) {
      n = Math.floor(n / 2);
    } else {
      n = 3 * n + 1;
    }
    steps += 1;
  }
  return steps;
}

const best: number = pyMinMax(pyRange(1, 30), -1, (v: number) => collatz_steps(v));
console.log(`${pyStrInt(best)} ${pyStrInt(collatz_steps(best))}`);
console.log(pyFmtList<number>(pyStrInt)(pyRange(1, 11).map((n: number): number => collatz_steps(n))));

export {};
