// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}

function pyIntPow(a: number, b: number): number {
  if (b < 0) throw new Error("negative integer exponent gives a float in Python");
  return a ** b;
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

function pyInt(s: string): number {
  const t = s.trim().replace(/_/g, "");
  if (!/^[+-]?[0-9]+$/.test(t)) throw new Error("ValueError: invalid literal for int(): " + s);
  return parseInt(t, 10);
}
// ---- end of helpers ----


function digit_sum(n: number): number {
  return pySum(Array.from(pyStrInt(Math.abs(n))).map((d: string): number => pyInt(d)));
}


function is_armstrong(n: number): boolean {
  const s: string = pyStrInt(n);
  return n === pySum(Array.from(s).map((d: string): number => pyIntPow(pyInt(d), s.length)));
}


function reverse_number(n: number): number {
  const sign: number = n < 0 ? -1 : 1;
  return sign * pyInt(Array.from(pyStrInt(Math.abs(n))).reverse().join(""));
}

console.log(pyFmtList<number>(pyStrInt)([0, 9, 123, -456, 99999].map((n: number): number => digit_sum(n))));
console.log(pyFmtList<number>(pyStrInt)(pyRange(1, 1000).filter((n: number) => is_armstrong(n))));
console.log(`${pyStrInt(reverse_number(1234))} ${pyStrInt(reverse_number(-560))} ${pyStrInt(reverse_number(7))}`);
console.log(`${pyStrInt(2 ** 50)} ${pyStrInt(pyStrInt(2 ** 50).length)}`);

export {};
