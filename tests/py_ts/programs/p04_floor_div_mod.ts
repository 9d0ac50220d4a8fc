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

function pyFloorDivFloat(a: number, b: number): number {
  // CPython's float floor division (via fmod), exact where Math.floor(a / b) is not.
  if (b === 0) throw new Error("ZeroDivisionError: float floor division by zero");
  const mod = a % b;
  let div = (a - mod) / b;
  if (mod !== 0 && mod < 0 !== b < 0) div -= 1;
  if (div === 0) return 0 * (a / b);
  let floordiv = Math.floor(div);
  if (div - floordiv > 0.5) floordiv += 1;
  return floordiv;
}
// ---- end of helpers ----

const pairs: [number, number][] = [[7, 2], [-7, 2], [7, -2], [-7, -2], [0, 3], [-1, 5]];
for (const [a, b] of pairs) {
  console.log(`${pyStrInt(a)} ${pyStrInt(b)} ${pyStrInt(pyFloorDiv(a, b))} ${pyStrInt(pyMod(a, b))}`);
}
console.log(`${pyStrFloat(pyFloorDivFloat(7.5, 2))} ${pyStrFloat(pyFloorDivFloat(-7.5, 2))} ${pyStrFloat(pyMod(7.5, 2))} ${pyStrFloat(pyMod(-7.5, 2))}`);
console.log(`${pyStrFloat(pyFloorDivFloat(1, 0.1))} ${pyStrFloat(pyMod(1, 0.1))}`);
console.log(pyStrFloat(pyMod(-3, 5.0)));
const n: number = -17;
console.log(`${pyStrInt(Math.floor(n / 4))} ${pyStrInt(pyMod(n, 4))}`);

export {};
