// ---- Python runtime helpers (generated) ----
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
// ---- end of helpers ----

console.log(pyStrFloat(1.0));
console.log(pyStrFloat(0.1 + 0.2));
console.log(pyStrFloat(1 / 3));
console.log(pyStrFloat(10 / 2));
console.log(pyStrFloat(2.5 * 4));
console.log(pyStrFloat(1e+16));
console.log(pyStrFloat(1e-05));
console.log(pyStrFloat(0.0001));
console.log(pyStrFloat(123456789.125));
console.log(pyStrFloat(-0.5));
console.log(pyStrFloat(1e+22));
console.log(pyStrFloat(3.14159e-10));
console.log(pyStrFloat(7));
console.log(`${pyStrFloat(7 / 7)} ${pyStrFloat(9 / 4)}`);
console.log(pyFmtList<number>(pyStrFloat)([0.5, 1.0, 2.25]));
let x: number = 1.5;
x *= 2;
console.log(pyStrFloat(x));

export {};
