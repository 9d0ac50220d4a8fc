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

function pyExact(x: number): [string, number] {
  // The exact decimal digits of |x| and the position of the decimal point within them.
  let v = Math.abs(x);
  let e = 0;
  while (!Number.isInteger(v)) {
    v *= 2;
    e++;
  }
  let big = BigInt(v);
  for (let i = 0; i < e; i++) big *= BigInt(5);
  const digits = big.toString();
  return [digits, digits.length - e];
}

function pyRoundDigits(digits: string, keep: number): [string, boolean] {
  // Round a digit string to `keep` digits, half to even; returns the digits and a carry flag.
  if (keep >= digits.length) return [digits + "0".repeat(keep - digits.length), false];
  if (keep < 0) return ["", false];
  const head = digits.slice(0, keep);
  const rest = digits.slice(keep);
  const first = rest.charCodeAt(0) - 48;
  const tail = /[1-9]/.test(rest.slice(1));
  const lastOdd = keep > 0 && (head.charCodeAt(keep - 1) - 48) % 2 === 1;
  const up = first > 5 || (first === 5 && (tail || lastOdd));
  if (!up) return [head, false];
  const arr = head.split("").map((c) => c.charCodeAt(0) - 48);
  let i = arr.length - 1;
  while (i >= 0 && arr[i] === 9) arr[i--] = 0;
  if (i < 0) return ["1" + arr.join(""), true];
  arr[i]++;
  return [arr.join(""), false];
}

function pyFixed(x: number, prec: number): string {
  // Python's '%.<prec>f' of a finite float: exact value, rounded half to even.
  let [digits, point] = pyExact(x);
  if (point < 1) {
    digits = "0".repeat(1 - point) + digits;
    point = 1;
  }
  const [r, carry] = pyRoundDigits(digits, point + prec);
  const p = point + (carry ? 1 : 0);
  const intPart = r.slice(0, p).replace(/^0+(?=[0-9])/, "");
  const frac = r.slice(p);
  return intPart + (prec > 0 ? "." + frac : "");
}

function pyRound(x: number): number {
  // Python's round(x): the nearest integer, ties to even.
  if (!Number.isFinite(x)) throw new Error("cannot convert float to integer");
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

function pyRoundTo(x: number, ndigits: number): number {
  // Python's round(x, n) for n >= 0: the exact value rounded half to even.
  if (!Number.isFinite(x) || x === 0) return x;
  const r = Number(pyFixed(x, ndigits));
  return x < 0 ? -r : r;
}
// ---- end of helpers ----

for (const v of [0.5, 1.5, 2.5, 3.5, -0.5, -1.5, 2.675, 0.125, 1.005]) {
  console.log(`${pyStrFloat(v)} ${pyStrInt(pyRound(v))} ${pyStrFloat(pyRoundTo(v, 2))} ${pyStrFloat(pyRoundTo(v, 1))}`);
}
console.log(`${pyStrInt(7)} ${pyStrInt(7)}`);
console.log(pyStrInt(pyRound(2.5) + 1));

export {};
