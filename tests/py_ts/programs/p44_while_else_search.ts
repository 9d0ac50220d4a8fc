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
// ---- end of helpers ----


function first_divisor(n: number): number {
  let d: number = 2;
  let broke_1 = false;
  while (d * d <= n) {
    if (pyMod(n, d) === 0) {
      broke_1 = true;
      break;
    }
    d += 1;
  }
  if (!broke_1) {
    return n;
  }
  return d;
}

console.log(pyFmtList<number>(pyStrInt)([15, 17, 49, 2, 91].map((n: number): number => first_divisor(n))));
for (const n of [4, 7]) {
  let broke_2 = false;
  for (let d = 2; d < n; d++) {
    if (pyMod(n, d) === 0) {
      console.log(`${pyStrInt(n)} composite`);
      broke_2 = true;
      break;
    }
  }
  if (!broke_2) {
    console.log(`${pyStrInt(n)} prime`);
  }
}

export {};
