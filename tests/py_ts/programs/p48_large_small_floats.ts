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

console.log(`${pyStrFloat(1000000000000000.0)} ${pyStrFloat(1e+16)} ${pyStrFloat(1.2345678901234568e+17)}`);
console.log(`${pyStrFloat(0.001)} ${pyStrFloat(0.0001)} ${pyStrFloat(1e-05)} ${pyStrFloat(1.5e-08)}`);
console.log(`${pyStrFloat(2.0 ** 60)} ${pyStrFloat(2.0 ** -20)}`);
console.log(`${pyStrFloat(1 / 7)} ${pyStrFloat(22 / 7)} ${pyStrFloat(1e+300 * 10)}`);
console.log(`${pyStrFloat(-1e-320)} ${pyStrFloat(5e-324)}`);
console.log(`${pyStrFloat(pyFloat("inf"))} ${pyStrFloat(-pyFloat("inf"))}`);
console.log(`${pyStrFloat(0.1 * 3)} ${pyStrFloat(0.3)}`);
console.log(pyStrFloat(100.0 / 3.0));
console.log(pyStrFloat(3.0 * 1.1));

export {};
