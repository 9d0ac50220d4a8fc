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

function pyFmtTuple(fs: ((v: any) => string)[]): (t: any[]) => string {
  return (t: any[]) =>
    fs.length === 1 ? "(" + fs[0](t[0]) + ",)" : "(" + fs.map((f, i) => f(t[i])).join(", ") + ")";
}

function pyFmtDict<K, V>(kf: (k: K) => string, vf: (v: V) => string): (d: Map<K, V>) => string {
  return (d: Map<K, V>) => {
    const parts: string[] = [];
    for (const [k, v] of d) parts.push(kf(k) + ": " + vf(v));
    return "{" + parts.join(", ") + "}";
  };
}
// ---- end of helpers ----

const items: string[] = ["apple", "it's", "say \"hi\"", "tab\there"];
console.log(pyFmtList<string>(pyReprStr)(items));
const nested: number[][] = [[1, 2], [3], []];
console.log(pyFmtList<number[]>(pyFmtList<number>(pyStrInt))(nested));
const pairs: [number, string][] = [[1, "one"], [2, "two"]];
console.log(pyFmtList<[number, string]>(pyFmtTuple([pyStrInt, pyReprStr]))(pairs));
const single: [number] = [5];
console.log(pyFmtTuple([pyStrInt])(single));
const d: Map<string, number> = new Map<string, number>([["b", 2], ["a", 1], ["10", 3]]);
console.log(pyFmtDict<string, number>(pyReprStr, pyStrInt)(d));
console.log(pyFmtDict<string, number[]>(pyReprStr, pyFmtList<number>(pyStrFloat))(new Map<string, number[]>([["x", [1.5, 2.0]], ["y", []]])));
console.log(pyFmtDict<number, string>(pyStrInt, pyReprStr)(new Map<number, string>([[1, "a"], [2, "b"]])));
console.log(pyFmtTuple([pyStrInt, pyStrFloat, pyReprStr, pyStrBool, ((_: null) => "None")])([1, 2.0, "three", true, null]));
console.log(pyFmtList<boolean>(pyStrBool)([true, false]));
console.log(pyReprStr("quote'and\"both"));
console.log(pyReprStr("back\\slash"));

export {};
