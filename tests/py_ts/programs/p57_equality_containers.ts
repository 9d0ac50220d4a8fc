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

function pyIn<T>(x: T, xs: Iterable<T>): boolean {
  for (const v of xs) if (pyEq(v, x)) return true;
  return false;
}

function pySorted<T>(xs: Iterable<T>, key: ((v: T) => any) | null = null, reverse: boolean = false): T[] {
  const arr = Array.from(xs);
  const k = key === null ? (v: T): any => v : key;
  const sign = reverse ? -1 : 1;
  return arr.sort((a, b) => sign * pyCmp(k(a), k(b)));
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

const a: number[] = [1, 2, 3];
const b: number[] = [1, 2, 3];
const c: number[] = [3, 2, 1];
console.log(`${pyStrBool(pyEq(a, b))} ${pyStrBool(pyEq(a, c))} ${pyStrBool(!pyEq(a, c))} ${pyStrBool(pyEq(pySorted(c), a))}`);
const t1: [number, string] = [1, "x"];
const t2: [number, string] = [1, "x"];
console.log(`${pyStrBool(pyEq(t1, t2))} ${pyStrBool(pyCmp([1, 2], [1, 3]) < 0)} ${pyStrBool(pyCmp([2, 0], [1, 9]) > 0)} ${pyStrBool(pyCmp([1, 2], [1, 2, 0]) < 0)}`);
const d1: Map<string, number[]> = new Map<string, number[]>([["k", [1]]]);
const d2: Map<string, number[]> = new Map<string, number[]>([["k", [1]]]);
console.log(pyStrBool(pyEq(d1, d2)));
const pairs: [number, string][] = [[1, "a"], [2, "b"]];
console.log(`${pyStrBool(pyIn([2, "b"], pairs))} ${pyStrBool(pyIn([3, "c"], pairs))}`);
console.log(`${pyStrBool("b" < "a")} ${pyStrBool("apple" < "banana")} ${pyMinMax(["pear", "fig"], 1)} ${pyMinMax(["x", "yy", "z"], -1)}`);
console.log(`${pyStrInt(Math.max(3, 7, 5))} ${pyStrFloat(Math.min(2.5, 1.5))}`);

export {};
