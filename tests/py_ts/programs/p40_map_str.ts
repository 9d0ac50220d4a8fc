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

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}

function pyMod(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: modulo by zero");
  const r = a % b;
  if (r === 0) return b < 0 ? -0 : 0;
  return r < 0 !== b < 0 ? r + b : r;
}

function pySum(xs: Iterable<number>, start: number = 0): number {
  let total = start;
  for (const v of xs) total += v;
  return total;
}

function pySplit(s: string, sep: string | null = null): string[] {
  if (sep === null) {
    const t = s.trim();
    return t === "" ? [] : t.split(/\s+/);
  }
  if (sep === "") throw new Error("ValueError: empty separator");
  return s.split(sep);
}

function pyInt(s: string): number {
  const t = s.trim().replace(/_/g, "");
  if (!/^[+-]?[0-9]+$/.test(t)) throw new Error("ValueError: invalid literal for int(): " + s);
  return parseInt(t, 10);
}

function pyFloat(s: string): number {
  const t = s.trim().toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(t)) return NaN;
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?$/.test(t)) {
    throw new Error("ValueError: could not convert string to float: " + s);
  }
  return Number(t);
}
// ---- end of helpers ----

const nums: number[] = [3, 1, 4, 1, 5];
console.log(nums.map((v: number) => pyStrInt(v)).join(","));
console.log([1.5, 2.0].map((v: number) => pyStrFloat(v)).join(" "));
const parsed: number[] = Array.from(pySplit("10 20 30").map((v: string) => pyInt(v)));
console.log(`${pyFmtList<number>(pyStrInt)(parsed)} ${pyStrInt(pySum(parsed))}`);
const floats: number[] = Array.from(["1.5", "2"].map((v: string) => pyFloat(v)));
console.log(pyFmtList<number>(pyStrFloat)(floats));
const doubled: number[] = Array.from(nums.map((n: number) => n * 2));
console.log(pyFmtList<number>(pyStrInt)(doubled));
const odd: number[] = Array.from(nums.filter((n: number) => pyMod(n, 2) === 1));
console.log(pyFmtList<number>(pyStrInt)(odd));
const lens: number[] = Array.from(["a", "bb", "ccc"].map((v: string) => v.length));
console.log(pyFmtList<number>(pyStrInt)(lens));

export {};
