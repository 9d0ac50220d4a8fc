// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyStrFloat(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mant, expText] = x.toExponential().split("e");
  const exp = Number(expText);
  const neg = mant.startsWith("-");
  const digits = mant.replace("-", "").replace(".", "");
  let out: string;
  if (exp >= -5 + 1 && exp < 16) {
    if (exp < 0) {
      out = "0." + "0".repeat(-exp - 1) + digits;
    } else if (digits.length <= exp + 1) {
      out = digits + "0".repeat(exp + 1 - digits.length) + ".0";
    } else {
      out = digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
    }
  } else {
    const m = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
    const sign = exp < 0 ? "-" : "+";
    const e = String(Math.abs(exp));
    out = m + "e" + sign + (e.length < 2 ? "0" + e : e);
  }
  return (neg ? "-" : "") + out;
}

function pyFmtTuple(fs: ((v: any) => string)[]): (t: any[]) => string {
  return (t: any[]) =>
    fs.length === 1 ? "(" + fs[0](t[0]) + ",)" : "(" + fs.map((f, i) => f(t[i])).join(", ") + ")";
}

function pyDiv(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: division by zero");
  return a / b;
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

function pySum(xs: Iterable<number>, start: number = 0): number {
  let total = start;
  for (const v of xs) total += v;
  return total;
}
// ---- end of helpers ----


function square(x: number): number {
  return x * x;
}


function sum_of_squares(xs: number[]): number {
  return pySum(xs.map((x: number): number => square(x)));
}


function apply_twice(x: number): number {
  return square(square(x));
}


function mean_and_spread(xs: number[]): [number, number] {
  const m: number = pyDiv(pySum(xs), xs.length);
  return [m, pyMinMax(xs, -1) - pyMinMax(xs, 1)];
}

console.log(`${pyStrInt(sum_of_squares([1, 2, 3]))} ${pyStrInt(apply_twice(3))}`);
const [m, spread]: [number, number] = mean_and_spread([2.0, 4.0, 9.0]);
console.log(`${pyStrFloat(m)} ${pyStrFloat(spread)}`);
console.log(pyFmtTuple([pyStrFloat, pyStrFloat])(mean_and_spread([1.5, 2.5])));

export {};
