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

function pyFloorDiv(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: integer division or modulo by zero");
  return Math.floor(a / b);
}

function pyMod(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: modulo by zero");
  const r = a % b;
  if (r === 0) return b < 0 ? -0 : 0;
  return r < 0 !== b < 0 ? r + b : r;
}

function pyDiv(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: division by zero");
  return a / b;
}

function pyIntPow(a: number, b: number): number {
  if (b < 0) throw new Error("negative integer exponent gives a float in Python");
  return a ** b;
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

const a: number = 7;
const b: number = 2;
console.log(`${pyStrFloat(pyDiv(a, b))} ${pyStrInt(pyFloorDiv(a, b))} ${pyStrInt(pyMod(a, b))} ${pyStrInt(pyIntPow(a, b))} ${pyStrFloat(b ** -1)}`);
console.log(`${pyStrFloat(6 / 3)} ${pyStrInt(2 ** 10)} ${pyStrFloat(2.0 ** 3)} ${pyStrInt(10 ** 0)}`);
const c: number = pyDiv(a, b);
console.log(pyStrFloat(c));
console.log(`${pyStrInt(Math.trunc(c))} ${pyStrInt(Math.trunc(-3.7))} ${pyStrFloat(a)} ${pyStrInt(pyInt("42") + 1)} ${pyStrFloat(pyFloat("2.5") * 2)}`);
console.log(`${pyStrInt(Math.abs(-5))} ${pyStrFloat(Math.abs(-2.5))} ${pyStrInt(Math.abs(3))}`);
console.log(pyStrInt(Math.floor(-7 / 2) * 2 + pyMod(-7, 2)));
let total: number = 0;
for (const v of [1, 2, 3]) {
  total += v;
}
console.log(pyStrFloat(pyDiv(total, [1, 2, 3].length)));
console.log(pyStrFloat(Math.floor(10 / 3) + 10 % 3 / 2));

export {};
