// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
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

function pyZfill(s: string, width: number): string {
  if (s.length >= width) return s;
  const sign = s.startsWith("-") || s.startsWith("+") ? s[0] : "";
  return sign + "0".repeat(width - s.length) + s.slice(sign.length);
}

function pySliceStep<T>(xs: T[], start: number | null, stop: number | null, step: number): T[] {
  if (step === 0) throw new Error("ValueError: slice step cannot be zero");
  const n = xs.length;
  const norm = (v: number, lo: number, hi: number): number =>
    v < 0 ? Math.max(v + n, lo) : Math.min(v, hi);
  const out: T[] = [];
  if (step > 0) {
    const a = start === null ? 0 : norm(start, 0, n);
    const b = stop === null ? n : norm(stop, 0, n);
    for (let i = a; i < b; i += step) out.push(xs[i]);
  } else {
    const a = start === null ? n - 1 : norm(start, -1, n - 1);
    const b = stop === null ? -1 : norm(stop, -1, n - 1);
    for (let i = a; i > b; i += step) out.push(xs[i]);
  }
  return out;
}

function pyStrSliceStep(s: string, start: number | null, stop: number | null, step: number): string {
  return pySliceStep(s.split(""), start, stop, step).join("");
}

function pySplit(s: string, sep: string | null = null): string[] {
  if (sep === null) {
    const t = s.trim();
    return t === "" ? [] : t.split(/\s+/);
  }
  if (sep === "") throw new Error("ValueError: empty separator");
  return s.split(sep);
}

function pyStrCount(s: string, sub: string): number {
  if (sub === "") return s.length + 1;
  let n = 0;
  let i = s.indexOf(sub);
  while (i >= 0) {
    n++;
    i = s.indexOf(sub, i + sub.length);
  }
  return n;
}

function pyTitle(s: string): string {
  let out = "";
  let prevCased = false;
  for (const ch of s) {
    const cased = ch.toLowerCase() !== ch.toUpperCase();
    out += cased ? (prevCased ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    prevCased = cased;
  }
  return out;
}

function pyCapitalize(s: string): string {
  return s.length === 0 ? s : s[0].toUpperCase() + s.slice(1).toLowerCase();
}
// ---- end of helpers ----

const s: string = "  Hello, World  ";
console.log(`${(s.trim() + "|")} ${(s.trimStart() + "|")} ${(s.trimEnd() + "|")}`);
const t: string = s.trim();
console.log(`${t.toUpperCase()} ${t.toLowerCase()}`);
console.log(pyFmtList<string>(pyReprStr)(t.split(", ")));
console.log(pyFmtList<string>(pyReprStr)(pySplit("a b  c")));
console.log(pyFmtList<string>(pyReprStr)("a,b,,c".split(",")));
console.log(["x", "y", "z"].join("-"));
console.log(t.split("l").join("L"));
console.log(`${pyStrBool(t.startsWith("Hell"))} ${pyStrBool(t.endsWith("!"))} ${pyStrInt(t.indexOf("o"))} ${pyStrInt(t.indexOf("z"))} ${pyStrInt(t.lastIndexOf("o"))}`);
console.log(`${pyStrInt(pyStrCount(t, "l"))} ${pyStrInt(pyStrCount("banana", "an"))}`);
console.log(`${pyStrBool(/^\p{Nd}+$/u.test("123"))} ${pyStrBool(/^\p{Nd}+$/u.test("12a"))} ${pyStrBool(/^\p{L}+$/u.test("abc"))} ${pyStrBool(/^[\p{L}\p{N}]+$/u.test("ab1"))} ${pyStrBool(/^\s+$/.test("   "))}`);
console.log(`${pyTitle("hello world")} ${pyCapitalize("hELLO")}`);
console.log(`${("ab".padEnd(5, ".") + "|")} ${("ab".padStart(5, " ") + "|")} ${pyZfill("42", 5)} ${pyZfill("-42", 5)}`);
console.log(`${pyStrBool(("ABC".toUpperCase() === "ABC" && "ABC".toLowerCase() !== "ABC"))} ${pyStrBool(("abc".toLowerCase() === "abc" && "abc".toUpperCase() !== "abc"))}`);
console.log(`${pyStrInt(t.length)} ${t[0]} ${t[t.length - 1]} ${t.slice(1, 5)} ${t.slice(0, 3)} ${t.slice(-5)} ${pyStrSliceStep(t, null, null, 2)} ${Array.from(t).reverse().join("")}`);
console.log(`${"ha".repeat(3)} ${"-".repeat(2)}`);
console.log(`${pyStrBool(t.includes("World"))} ${pyStrBool(!t.includes("world"))}`);

export {};
