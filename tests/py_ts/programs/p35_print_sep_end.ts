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

let pyOutBuf = "";
function pyWrite(s: string): void {
  pyOutBuf += s;
  const i = pyOutBuf.lastIndexOf("\n");
  if (i >= 0) {
    console.log(pyOutBuf.slice(0, i));
    pyOutBuf = pyOutBuf.slice(i + 1);
  }
}
function pyFlush(): void {
  if (pyOutBuf !== "") console.log(pyOutBuf);
  pyOutBuf = "";
}
// ---- end of helpers ----

pyWrite("a-b-c\n");
pyWrite("no newline");
pyWrite(" continued\n");
for (let i = 0; i < 5; i++) {
  pyWrite(`${pyStrInt(i)} `);
}
pyWrite("\n");
pyWrite(`x, ${pyStrInt(1)}, ${pyStrFloat(2.5)}, ${pyStrBool(true)}, ${"None"}!
`);
pyFlush();

export {};
