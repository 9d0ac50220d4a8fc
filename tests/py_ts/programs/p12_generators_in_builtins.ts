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

function pyStrBool(b: boolean): string {
  return b ? "True" : "False";
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

const nums: number[] = [3, -1, 4, -1, 5, -9, 2, 6];
console.log(pyStrInt(pySum(nums)));
console.log(pyStrInt(pySum(nums.filter((n: number) => n > 0).map((n: number): number => n * n))));
console.log(pyStrInt(nums.filter((n: number) => n < 0).length));
console.log(`${pyStrBool(nums.some((n: number) => n > 5))} ${pyStrBool(nums.every((n: number) => n > -10))}`);
console.log(`${pyStrBool(nums.some((n: number) => n > 100))} ${pyStrBool(nums.every((n: number) => n > 0))}`);
console.log(nums.filter((n: number) => n > 0).map((n: number): string => pyStrInt(n)).join(", "));
console.log(`${pyStrInt(pyMinMax(nums, -1))} ${pyStrInt(pyMinMax(nums, 1))}`);
console.log(pyStrInt(pyMinMax(nums.map((n: number): number => Math.abs(n)), -1)));
console.log(pyStrFloat(pySum([0.1, 0.2, 0.3])));
console.log(pyStrInt(pySum(nums, 100)));

export {};
