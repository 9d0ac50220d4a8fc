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

function pyReprStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || (c >= 0x7f && c <= 0xa0) || c === 0xad) {
      out += "\\x" + c.toString(16).padStart(2, "0");
    } else out += ch;
  }
  return out + quote;
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
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

function pyExpo(x: number, prec: number): [string, number] {
  // The digits (prec + 1 of them) and decimal exponent of |x| rounded half to even.
  if (x === 0) return ["0".repeat(prec + 1), 0];
  const [digits, point] = pyExact(x);
  const lead = digits.search(/[1-9]/);
  const sig = digits.slice(lead);
  let exp = point - lead - 1;
  let [r, carry] = pyRoundDigits(sig, prec + 1);
  if (carry) {
    r = r.slice(0, prec + 1);
    exp++;
  }
  return [r, exp];
}

function pyGroup(intDigits: string, sep: string): string {
  let out = "";
  for (let i = 0; i < intDigits.length; i++) {
    if (i > 0 && (intDigits.length - i) % 3 === 0) out += sep;
    out += intDigits[i];
  }
  return out;
}

function pyFormat(value: number | string | boolean, spec: string, kind: string): string {
  const m = /^(?:(.)?([<>=^]))?([-+ ])?(#)?(0)?([0-9]+)?([,_])?(?:\.([0-9]+))?([bcdeEfFgGnosxX%])?$/.exec(spec);
  if (m === null) throw new Error("ValueError: Invalid format specifier " + spec);
  let fill = m[1] === undefined ? " " : m[1];
  let align = m[2];
  const sign = m[3] === undefined ? "-" : m[3];
  const alt = m[4] !== undefined;
  const width = m[6] === undefined ? 0 : Number(m[6]);
  const group = m[7];
  const precGiven = m[8] !== undefined;
  let prec = precGiven ? Number(m[8]) : 6;
  const type = m[9] === undefined ? "" : m[9];
  if (m[5] !== undefined && m[2] === undefined) {
    fill = "0";
    align = "=";
  }
  let body: string;
  let neg = false;
  let prefix = "";
  if (kind === "str") {
    if (type !== "" && type !== "s") throw new Error("ValueError: Unknown format code for str");
    body = String(value);
    if (precGiven) body = Array.from(body).slice(0, prec).join("");
    if (align === undefined) align = "<";
  } else {
    const x = typeof value === "boolean" ? (value ? 1 : 0) : (value as number);
    if (kind === "int" && (type === "" || type === "d" || type === "n")) {
      neg = x < 0;
      body = pyStrInt(Math.abs(x));
      if (group !== undefined) body = pyGroup(body, group);
    } else if (kind === "int" && "xXob".includes(type) && type !== "") {
      neg = x < 0;
      const base = type === "o" ? 8 : type === "b" ? 2 : 16;
      body = Math.abs(x).toString(base);
      if (type === "X") body = body.toUpperCase();
      if (alt) prefix = "0" + (type === "X" ? "X" : type);
      if (group !== undefined) throw new Error("grouping with a base is not supported");
    } else if (type !== "s") {
      neg = x < 0 || Object.is(x, -0);
      const a = Math.abs(x);
      if (type === "" && !precGiven) {
        body = kind === "int" ? pyStrInt(a) : pyStrFloat(a);
      } else if (!Number.isFinite(a)) {
        body = Number.isNaN(a) ? "nan" : "inf";
        if (type === "E" || type === "F" || type === "G") body = body.toUpperCase();
        if (type === "%") body += "%";
      } else if (type === "f" || type === "F" || type === "%") {
        body = pyFixed(type === "%" ? a * 100 : a, prec);
        if (alt && prec === 0) body += ".";
        if (type === "%") body += "%";
      } else if (type === "e" || type === "E") {
        const [d, e] = pyExpo(a, prec);
        body = d[0] + (prec > 0 || alt ? "." : "") + d.slice(1);
        body += (type === "E" ? "E" : "e") + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
      } else {
        // 'g', 'G' and the empty type with a precision
        if (prec === 0) prec = 1;
        const [d, e] = pyExpo(a, prec - 1);
        const lim = type === "" ? prec - 1 : prec;
        if (e >= -4 && e < lim) {
          body = pyFixed(a, Math.max(prec - 1 - e, 0));
          if (!alt && body.includes(".")) body = body.replace(/0+$/, "").replace(/\.$/, "");
          if (type === "" && !body.includes(".")) body += ".0";
        } else {
          let mant = d[0] + "." + d.slice(1);
          if (!alt) mant = mant.replace(/0+$/, "").replace(/\.$/, "");
          const big = type === "G";
          body = mant + (big ? "E" : "e") + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
        }
      }
      if (group !== undefined) {
        const dot = body.search(/[^0-9]/);
        const intPart = dot < 0 ? body : body.slice(0, dot);
        body = pyGroup(intPart, group) + (dot < 0 ? "" : body.slice(dot));
      }
    } else {
      body = String(value);
    }
    if (align === undefined) align = type === "s" ? "<" : ">";
  }
  const signText = neg ? "-" : sign === "+" ? "+" : sign === " " ? " " : "";
  const chars = Array.from(body).length + signText.length + prefix.length;
  const pad = Math.max(0, width - chars);
  if (align === "=") {
    if (fill === "0" && group !== undefined && kind !== "str") {
      let digitsOnly = body;
      const target = width - signText.length - prefix.length;
      while (Array.from(digitsOnly).length < target) {
        const dot = digitsOnly.search(/[^0-9,_]/);
        const intPart = (dot < 0 ? digitsOnly : digitsOnly.slice(0, dot)).replace(/[,_]/g, "");
        const rest = dot < 0 ? "" : digitsOnly.slice(dot);
        digitsOnly = pyGroup("0" + intPart, group) + rest;
      }
      return signText + prefix + digitsOnly;
    }
    return signText + prefix + fill.repeat(pad) + body;
  }
  const full = signText + prefix + body;
  if (align === "<") return full + fill.repeat(pad);
  if (align === ">") return fill.repeat(pad) + full;
  const left = Math.floor(pad / 2);
  return fill.repeat(left) + full + fill.repeat(pad - left);
}
// ---- end of helpers ----

const price: number = 3.14159;
const count: number = 42;
const name: string = "widget";
console.log(`${pyFormat(price, ".2f", "float")}|${pyFormat(price, ".0f", "float")}|${pyFormat(price, "8.3f", "float")}|${pyFormat(price, "<8.1f", "float")}|`);
console.log(`${pyFormat(count, "4", "int")}|${pyFormat(count, "<5", "int")}|${pyFormat(count, ">5", "int")}|${pyFormat(count, "^7", "int")}|${pyFormat(count, "05d", "int")}|`);
console.log(`${pyFormat(name, ">10", "str")}|${pyFormat(name, "<10", "str")}|${pyFormat(name, "^10", "str")}|${pyFormat(name, "*^11", "str")}|`);
console.log(`${pyFormat(1234567, ",", "int")}|${pyFormat(1234567.891, ",.2f", "float")}|${pyFormat(-42, "+d", "int")}|${pyFormat(42, "+d", "int")}|`);
console.log(`${pyFormat(0.25, ".1%", "float")}|${pyFormat(255, "x", "int")}|${pyFormat(255, "X", "int")}|${pyFormat(8, "b", "int")}|${pyFormat(8, "o", "int")}|${pyFormat(255, "#x", "int")}|`);
console.log(`${pyFormat(12345.6789, "e", "float")}|${pyFormat(12345.6789, ".2e", "float")}|${pyFormat(0.000123, "g", "float")}|${pyFormat(1234567.0, "g", "float")}|`);
console.log(`${pyStrInt(count)} ${pyReprStr(name)} ${pyStrFloat(price)}`);
console.log(`${pyFormat("left", "<6", "str")}${pyFormat("right", ">7", "str")}`);
console.log(`${pyFormat(-5, "05d", "int")}|${pyFormat(-3.5, "08.2f", "float")}|${pyFormat(7, "03", "int")}|`);
console.log(`${pyStrBool(true)}|${"None"}|${pyFmtList<number>(pyStrInt)([1, 2])}`);
console.log(`${pyFormat(2.5, ".0f", "float")} ${pyFormat(3.5, ".0f", "float")} ${pyFormat(0.125, ".2f", "float")} ${pyFormat(2.675, ".2f", "float")}`);
console.log(pyFormat(1e+20, ".2f", "float"));
console.log(`${pyFormat(3.0, ".3", "float")} ${pyFormat(1234567.0, ".3", "float")} ${pyFormat(0.5, "10.3", "float")}`);

export {};
