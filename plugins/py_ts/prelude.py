"""The TypeScript runtime prelude: small helpers with exact Python semantics.

Each helper is a named TS snippet with the helpers it depends on; :func:`render_prelude`
emits only the helpers a translated program uses (plus their dependencies), in a stable order.
"""

from __future__ import annotations

import sys

_HELPERS: dict[str, tuple[tuple[str, ...], str]] = {}


def _helper(name: str, deps: tuple[str, ...], code: str) -> None:
    _HELPERS[name] = (deps, code.strip("\n"))


_helper(
    "pyStrInt",
    (),
    """
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}""",
)
_helper(
    "pyStrFloat",
    (),
    """
function pyStrFloat(x: number): string {
  // Python's repr: the shortest digits that read back as x (as JS finds them), in exponent
  // form below 1e-4 and from 1e16 on.
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [digits, expText] = x.toExponential().split("e");
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    return digits + "e" + (exp < 0 ? "-" : "+") + String(Math.abs(exp)).padStart(2, "0");
  }
  const s = String(x);
  return s.includes(".") ? s : s + ".0";
}""",
)
_helper(
    "pyStrBool",
    (),
    """
function pyStrBool(b: boolean): string {
  return b ? "True" : "False";
}""",
)
_helper(
    "pyReprStr",
    (),
    """
function pyReprStr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === quote || ch === "\\\\") out += "\\\\" + ch;
    else if (ch === "\\n") out += "\\\\n";
    else if (ch === "\\r") out += "\\\\r";
    else if (ch === "\\t") out += "\\\\t";
    else if (c < 0x20 || (c >= 0x7f && c <= 0xa0) || c === 0xad) {
      out += "\\\\x" + c.toString(16).padStart(2, "0");
    } else out += ch;
  }
  return out + quote;
}""",
)
_helper(
    "pyFmtList",
    (),
    """
function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}""",
)
_helper(
    "pyFmtTuple",
    (),
    """
function pyFmtTuple(fs: ((v: any) => string)[]): (t: any[]) => string {
  return (t: any[]) =>
    fs.length === 1 ? "(" + fs[0](t[0]) + ",)" : "(" + fs.map((f, i) => f(t[i])).join(", ") + ")";
}""",
)
_helper(
    "pyFmtDict",
    (),
    """
function pyFmtDict<K, V>(kf: (k: K) => string, vf: (v: V) => string): (d: Map<K, V>) => string {
  return (d: Map<K, V>) => {
    const parts: string[] = [];
    for (const [k, v] of d) parts.push(kf(k) + ": " + vf(v));
    return "{" + parts.join(", ") + "}";
  };
}""",
)
_helper(
    "pyFmtRecord",
    ("pyReprStr",),
    """
function pyFmtRecord(fs: [string, (v: any) => string][]): (r: Map<string, any>) => string {
  const byKey = new Map<string, (v: any) => string>(fs);
  return (r: Map<string, any>) => {
    const parts: string[] = [];
    for (const [k, v] of r) {
      const f = byKey.get(k) as (v: any) => string;
      parts.push(pyReprStr(k) + ": " + f(v));
    }
    return "{" + parts.join(", ") + "}";
  };
}""",
)
_helper(
    "pyFmtOpt",
    (),
    """
function pyFmtOpt<T>(f: (v: T) => string): (v: T | null) => string {
  return (v: T | null) => (v === null ? "None" : f(v));
}""",
)
_helper(
    "pyWrite",
    (),
    """
let pyOutBuf = "";
function pyWrite(s: string): void {
  pyOutBuf += s;
  const i = pyOutBuf.lastIndexOf("\\n");
  if (i >= 0) {
    console.log(pyOutBuf.slice(0, i));
    pyOutBuf = pyOutBuf.slice(i + 1);
  }
}
function pyFlush(): void {
  if (pyOutBuf !== "") console.log(pyOutBuf);
  pyOutBuf = "";
}""",
)
_helper(
    "pyFloorDiv",
    (),
    """
function pyFloorDiv(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: integer division or modulo by zero");
  return Math.floor(a / b);
}""",
)
_helper(
    "pyMod",
    (),
    """
function pyMod(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: modulo by zero");
  const r = a % b;
  if (r === 0) return b < 0 ? -0 : 0;
  return r < 0 !== b < 0 ? r + b : r;
}""",
)
_helper(
    "pyDiv",
    (),
    """
function pyDiv(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: division by zero");
  return a / b;
}""",
)
_helper(
    "pyFloorDivFloat",
    (),
    """
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
}""",
)
_helper(
    "pyZfill",
    (),
    """
function pyZfill(s: string, width: number): string {
  if (s.length >= width) return s;
  const sign = s.startsWith("-") || s.startsWith("+") ? s[0] : "";
  return sign + "0".repeat(width - s.length) + s.slice(sign.length);
}""",
)
_helper(
    "pyIntPow",
    (),
    """
function pyIntPow(a: number, b: number): number {
  if (b < 0) throw new Error("negative integer exponent gives a float in Python");
  return a ** b;
}""",
)
_helper(
    "pyIndex",
    (),
    """
function pyIndex<T>(xs: T[], i: number): T {
  const j = i < 0 ? xs.length + i : i;
  if (j < 0 || j >= xs.length) throw new Error("IndexError: list index out of range");
  return xs[j];
}""",
)
_helper(
    "pyIndexOf",
    (),
    """
function pyIndexOf(xs: unknown[], i: number): number {
  const j = i < 0 ? xs.length + i : i;
  if (j < 0 || j >= xs.length) throw new Error("IndexError: list assignment index out of range");
  return j;
}""",
)
_helper(
    "pyCharAt",
    (),
    """
function pyCharAt(s: string, i: number): string {
  const j = i < 0 ? s.length + i : i;
  if (j < 0 || j >= s.length) throw new Error("IndexError: string index out of range");
  return s[j];
}""",
)
_helper(
    "pySliceStep",
    (),
    """
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
}""",
)
_helper(
    "pyStrSliceStep",
    ("pySliceStep",),
    """
function pyStrSliceStep(
  s: string,
  start: number | null,
  stop: number | null,
  step: number,
): string {
  return pySliceStep(s.split(""), start, stop, step).join("");
}""",
)
_helper(
    "pyRepeat",
    (),
    """
function pyRepeat<T>(xs: T[], n: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(...xs);
  return out;
}""",
)
_helper(
    "pyRange",
    (),
    """
function pyRange(start: number, stop: number, step: number = 1): number[] {
  if (step === 0) throw new Error("ValueError: range() arg 3 must not be zero");
  const out: number[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
  else for (let i = start; i > stop; i += step) out.push(i);
  return out;
}""",
)
_helper(
    "pyCmp",
    (),
    """
function pyCmp(a: any, b: any): number {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = pyCmp(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}""",
)
_helper(
    "pyEq",
    (),
    """
function pyEq(a: any, b: any): boolean {
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => pyEq(v, b[i]));
  }
  if (a instanceof Set && b instanceof Set) {
    if (a.size !== b.size) return false;
    for (const v of a) if (!b.has(v)) return false;
    return true;
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !pyEq(v, b.get(k))) return false;
    return true;
  }
  return a === b;
}""",
)
_helper(
    "pyIn",
    ("pyEq",),
    """
function pyIn<T>(x: T, xs: Iterable<T>): boolean {
  for (const v of xs) if (pyEq(v, x)) return true;
  return false;
}""",
)
_helper(
    "pySorted",
    ("pyCmp",),
    """
function pySorted<T>(
  xs: Iterable<T>,
  key: ((v: T) => any) | null = null,
  reverse: boolean = false,
): T[] {
  const arr = Array.from(xs);
  const k = key === null ? (v: T): any => v : key;
  const sign = reverse ? -1 : 1;
  return arr.sort((a, b) => sign * pyCmp(k(a), k(b)));
}""",
)
_helper(
    "pySortInPlace",
    ("pySorted",),
    """
function pySortInPlace<T>(
  xs: T[],
  key: ((v: T) => any) | null = null,
  reverse: boolean = false,
): void {
  const sorted = pySorted(xs, key, reverse);
  for (let i = 0; i < sorted.length; i++) xs[i] = sorted[i];
}""",
)
_helper(
    "pyMinMax",
    ("pyCmp",),
    """
function pyMinMax<T>(xs: Iterable<T>, sign: number, key: ((v: T) => any) | null = null): T {
  let best: T | undefined = undefined;
  let bestKey: any = undefined;
  let seen = false;
  for (const v of xs) {
    const kv = key === null ? v : key(v);
    if (!seen || sign * pyCmp(kv, bestKey) < 0) {
      best = v;
      bestKey = kv;
      seen = true;
    }
  }
  if (!seen) throw new Error("ValueError: min()/max() arg is an empty sequence");
  return best as T;
}""",
)
_helper(
    "pySum",
    (),
    """
function pySum(xs: Iterable<number>, start: number = 0): number {
  let total = start;
  for (const v of xs) total += v;
  return total;
}""",
)
_helper(
    "pySumFloat",
    (),
    """
function pySumFloat(xs: Iterable<number>, start: number = 0): number {
  let total = start;
  let c = 0;
  for (const x of xs) {
    const t = total + x;
    if (Math.abs(total) >= Math.abs(x)) c += total - t + x;
    else c += x - t + total;
    total = t;
  }
  return c !== 0 && Number.isFinite(c) ? total + c : total;
}""",
)
_helper(
    "pyEnumerate",
    (),
    """
function pyEnumerate<T>(xs: Iterable<T>, start: number = 0): [number, T][] {
  const out: [number, T][] = [];
  let i = start;
  for (const v of xs) out.push([i++, v]);
  return out;
}""",
)
_helper(
    "pyZip",
    (),
    """
function pyZip<A, B>(a: Iterable<A>, b: Iterable<B>): [A, B][] {
  const xs = Array.from(a);
  const ys = Array.from(b);
  const out: [A, B][] = [];
  for (let i = 0; i < Math.min(xs.length, ys.length); i++) out.push([xs[i], ys[i]]);
  return out;
}""",
)
_helper(
    "pyZip3",
    (),
    """
function pyZip3<A, B, C>(a: Iterable<A>, b: Iterable<B>, c: Iterable<C>): [A, B, C][] {
  const xs = Array.from(a);
  const ys = Array.from(b);
  const zs = Array.from(c);
  const out: [A, B, C][] = [];
  const n = Math.min(xs.length, ys.length, zs.length);
  for (let i = 0; i < n; i++) out.push([xs[i], ys[i], zs[i]]);
  return out;
}""",
)
_helper(
    "pyListIndex",
    ("pyEq",),
    """
function pyListIndex<T>(xs: T[], x: T): number {
  for (let i = 0; i < xs.length; i++) if (pyEq(xs[i], x)) return i;
  throw new Error("ValueError: value is not in list");
}""",
)
_helper(
    "pyListCount",
    ("pyEq",),
    """
function pyListCount<T>(xs: T[], x: T): number {
  let n = 0;
  for (const v of xs) if (pyEq(v, x)) n++;
  return n;
}""",
)
_helper(
    "pyPop",
    (),
    """
function pyPop<T>(xs: T[], i: number = -1): T {
  const j = i < 0 ? xs.length + i : i;
  if (j < 0 || j >= xs.length) throw new Error("IndexError: pop index out of range");
  return xs.splice(j, 1)[0];
}""",
)
_helper(
    "pyInsert",
    (),
    """
function pyInsert<T>(xs: T[], i: number, x: T): void {
  const j = i < 0 ? Math.max(0, xs.length + i) : Math.min(i, xs.length);
  xs.splice(j, 0, x);
}""",
)
_helper(
    "pyRemove",
    ("pyListIndex",),
    """
function pyRemove<T>(xs: T[], x: T): void {
  xs.splice(pyListIndex(xs, x), 1);
}""",
)
_helper(
    "pyDictGet",
    (),
    """
function pyDictGet<K, V>(d: Map<K, V>, k: K): V {
  if (!d.has(k)) throw new Error("KeyError: " + String(k));
  return d.get(k) as V;
}""",
)
_helper(
    "pyDictPop",
    ("pyDictGet",),
    """
function pyDictPop<K, V>(d: Map<K, V>, k: K): V {
  const v = pyDictGet(d, k);
  d.delete(k);
  return v;
}""",
)
_helper(
    "pySplit",
    (),
    """
function pySplit(s: string, sep: string | null = null): string[] {
  if (sep === null) {
    const t = s.trim();
    return t === "" ? [] : t.split(/\\s+/);
  }
  if (sep === "") throw new Error("ValueError: empty separator");
  return s.split(sep);
}""",
)
_helper(
    "pyStrCount",
    (),
    """
function pyStrCount(s: string, sub: string): number {
  if (sub === "") return s.length + 1;
  let n = 0;
  let i = s.indexOf(sub);
  while (i >= 0) {
    n++;
    i = s.indexOf(sub, i + sub.length);
  }
  return n;
}""",
)
_helper(
    "pyIsDigit",
    (),
    """
function pyIsDigit(s: string): boolean {
  return /^[0-9]+$/.test(s);
}""",
)
_helper(
    "pyIsAlpha",
    (),
    """
function pyIsAlpha(s: string): boolean {
  return /^[A-Za-z]+$/.test(s);
}""",
)
_helper(
    "pyTitle",
    (),
    """
function pyTitle(s: string): string {
  let out = "";
  let prevCased = false;
  for (const ch of s) {
    const cased = ch.toLowerCase() !== ch.toUpperCase();
    out += cased ? (prevCased ? ch.toLowerCase() : ch.toUpperCase()) : ch;
    prevCased = cased;
  }
  return out;
}""",
)
_helper(
    "pyCapitalize",
    (),
    """
function pyCapitalize(s: string): string {
  return s.length === 0 ? s : s[0].toUpperCase() + s.slice(1).toLowerCase();
}""",
)
_helper(
    "pyInt",
    (),
    """
function pyInt(s: string): number {
  const t = s.trim().replace(/_/g, "");
  if (!/^[+-]?[0-9]+$/.test(t)) throw new Error("ValueError: invalid literal for int(): " + s);
  return parseInt(t, 10);
}""",
)
_helper(
    "pyFloat",
    (),
    """
function pyFloat(s: string): number {
  const t = s.trim().toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(t)) return NaN;
  if (!/^[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)(e[+-]?[0-9]+)?$/.test(t)) {
    throw new Error("ValueError: could not convert string to float: " + s);
  }
  return Number(t);
}""",
)
_helper(
    "pyExact",
    (),
    """
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
}""",
)
_helper(
    "pyRoundDigits",
    (),
    """
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
}""",
)
_helper(
    "pyFixed",
    (),
    """
function pyFixed(x: number, prec: number): string {
  // Python's '%.<prec>f' of |x| (finite, prec <= 99). toFixed rounds the exact value but takes
  // a tie up, where Python takes it to even. A tie has exactly prec + 1 fraction bits (so
  // exactly prec + 1 decimals, the last a 5): toFixed(prec + 1) is then exact.
  const a = Math.abs(x);
  if (a >= 1e21) return BigInt(a).toString() + (prec > 0 ? "." + "0".repeat(prec) : "");
  if (!Number.isInteger(a * 2 ** (prec + 1)) || Number.isInteger(a * 2 ** prec)) {
    return a.toFixed(prec);
  }
  const kept = a.toFixed(prec + 1).slice(0, prec > 0 ? -1 : -2); // the digits before the 5
  return Number(kept[kept.length - 1]) % 2 === 0 ? kept : a.toFixed(prec);
}""",
)
_helper(
    "pyExpo",
    ("pyExact", "pyRoundDigits"),
    """
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
}""",
)
_helper(
    "pyGroup",
    (),
    """
function pyGroup(intDigits: string, sep: string): string {
  let out = "";
  for (let i = 0; i < intDigits.length; i++) {
    if (i > 0 && (intDigits.length - i) % 3 === 0) out += sep;
    out += intDigits[i];
  }
  return out;
}""",
)
_helper(
    "pyPad",
    (),
    """
function pyPad(body: string, width: number, align: string, fill: string): string {
  // Python's padding of a formatted value to `width` code points ("=": after the sign).
  const pad = width - Array.from(body).length;
  if (pad <= 0) return body;
  if (align === "<") return body + fill.repeat(pad);
  if (align === ">") return fill.repeat(pad) + body;
  if (align === "=") {
    const sign = body !== "" && "+- ".includes(body[0]) ? body[0] : "";
    return sign + fill.repeat(pad) + body.slice(sign.length);
  }
  const left = Math.floor(pad / 2);
  return fill.repeat(left) + body + fill.repeat(pad - left);
}""",
)
_helper(
    "pyFmtInt",
    ("pyGroup", "pyStrInt"),
    """
function pyFmtInt(n: number, sign: string, group: string): string {
  // An int with a sign option ("+", " ") and digit grouping ("," or "_", or none).
  const digits = pyStrInt(Math.abs(n));
  const signText = n < 0 ? "-" : sign === "-" ? "" : sign;
  return signText + (group === "" ? digits : pyGroup(digits, group));
}""",
)
_helper(
    "pyFmtFixed",
    ("pyFixed",),
    """
function pyFmtFixed(x: number, prec: number, sign: string, upper: boolean): string {
  // Python's format(x, "<sign>.<prec>f") (or "F" when upper).
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  let body = Number.isFinite(a) ? pyFixed(a, prec) : Number.isNaN(a) ? "nan" : "inf";
  if (upper) body = body.toUpperCase();
  return (neg ? "-" : sign === "-" ? "" : sign) + body;
}""",
)
_helper(
    "pyGroupLead",
    ("pyGroup",),
    """
function pyGroupLead(s: string, sep: string): string {
  // The digits before the point of a formatted number (after its sign), grouped in threes.
  const lead = /^([-+ ]?)([0-9]+)/;
  return s.replace(lead, (_m: string, sg: string, d: string) => sg + pyGroup(d, sep));
}""",
)
_helper(
    "pyFmtBase",
    (),
    """
function pyFmtBase(n: number, base: number, sign: string, prefix: string, upper: boolean): string {
  // An int in base 2, 8 or 16 ("b", "o", "x", "X"), with "#" giving the prefix.
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  const digits = Math.abs(n).toString(base);
  const signText = n < 0 ? "-" : sign === "-" ? "" : sign;
  return signText + prefix + (upper ? digits.toUpperCase() : digits);
}""",
)
_helper(
    "pyFmtExp",
    ("pyExpo",),
    """
function pyFmtExp(x: number, prec: number, sign: string, upper: boolean): string {
  // Python's format(x, "<sign>.<prec>e") (or "E" when upper).
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  let body: string;
  if (!Number.isFinite(a)) {
    body = Number.isNaN(a) ? "nan" : "inf";
  } else {
    const [d, e] = pyExpo(a, prec);
    const expText = String(Math.abs(e)).padStart(2, "0");
    body = d[0] + (prec > 0 ? "." : "") + d.slice(1) + "e" + (e < 0 ? "-" : "+") + expText;
  }
  if (upper) body = body.toUpperCase();
  return (neg ? "-" : sign === "-" ? "" : sign) + body;
}""",
)
_helper(
    "pyFormat",
    ("pyFixed", "pyExpo", "pyGroup", "pyStrFloat", "pyStrInt"),
    """
function pyFormat(value: number | string | boolean, spec: string, kind: string): string {
  const m = new RegExp(
    "^(?:(.)?([<>=^]))?([-+ ])?(#)?(0)?([0-9]+)?([,_])?(?:\\\\.([0-9]+))?([bcdeEfFgGnosxX%])?$",
  ).exec(spec);
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
        const expText = String(Math.abs(e)).padStart(2, "0");
        body += (type === "E" ? "E" : "e") + (e < 0 ? "-" : "+") + expText;
      } else {
        // 'g', 'G' and the empty type with a precision
        if (prec === 0) prec = 1;
        const [d, e] = pyExpo(a, prec - 1);
        const lim = type === "" ? prec - 1 : prec;
        if (e >= -4 && e < lim) {
          body = pyFixed(a, Math.max(prec - 1 - e, 0));
          if (!alt && body.includes(".")) body = body.replace(/0+$/, "").replace(/\\.$/, "");
          if (type === "" && !body.includes(".")) body += ".0";
        } else {
          let mant = d[0] + "." + d.slice(1);
          if (!alt) mant = mant.replace(/0+$/, "").replace(/\\.$/, "");
          const big = type === "G";
          const expText = String(Math.abs(e)).padStart(2, "0");
          body = mant + (big ? "E" : "e") + (e < 0 ? "-" : "+") + expText;
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
    if (fill === "0" && group !== undefined && kind !== "str" && /^[0-9]/.test(body)) {
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
}""",
)
_helper(
    "pyRound",
    (),
    """
function pyRound(x: number): number {
  // Python's round(x): the nearest integer, ties to even.
  if (!Number.isFinite(x)) throw new Error("cannot convert float to integer");
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}""",
)
_helper(
    "pyRoundTo",
    ("pyFixed",),
    """
function pyRoundTo(x: number, ndigits: number): number {
  // Python's round(x, n) for n >= 0: the exact value rounded half to even.
  if (!Number.isFinite(x) || x === 0) return x;
  const r = Number(pyFixed(x, ndigits));
  return x < 0 ? -r : r;
}""",
)


_helper(
    "pySetRemove",
    (),
    """
function pySetRemove<T>(s: Set<T>, v: T): void {
  if (!s.delete(v)) throw new Error("KeyError: " + String(v));
}""",
)
_helper(
    "pySetUpdate",
    (),
    """
function pySetUpdate<T>(s: Set<T>, items: Iterable<T>): void {
  for (const v of items) s.add(v);
}""",
)
_helper(
    "pySetUnion",
    (),
    """
function pySetUnion<T>(s: Set<T>, items: T[]): Set<T> {
  return new Set<T>([...s, ...items]);
}""",
)
_helper(
    "pySetIntersection",
    (),
    """
function pySetIntersection<T>(s: Set<T>, items: T[]): Set<T> {
  const other = new Set<T>(items);
  return new Set<T>([...s].filter((v) => other.has(v)));
}""",
)
_helper(
    "pySetDifference",
    (),
    """
function pySetDifference<T>(s: Set<T>, items: T[]): Set<T> {
  const other = new Set<T>(items);
  return new Set<T>([...s].filter((v) => !other.has(v)));
}""",
)
_helper(
    "pySetIssubset",
    (),
    """
function pySetIssubset<T>(s: Set<T>, items: T[]): boolean {
  const other = new Set<T>(items);
  return [...s].every((v) => other.has(v));
}""",
)
_helper(
    "pySetIssuperset",
    (),
    """
function pySetIssuperset<T>(s: Set<T>, items: T[]): boolean {
  return items.every((v) => s.has(v));
}""",
)
_helper(
    "pySetIsdisjoint",
    (),
    """
function pySetIsdisjoint<T>(s: Set<T>, items: T[]): boolean {
  return !items.some((v) => s.has(v));
}""",
)


_helper(
    "pyStrIndex",
    (),
    """
function pyStrIndex(s: string, sub: string): number {
  const i = s.indexOf(sub);
  if (i < 0) throw new Error("ValueError: substring not found");
  return i;
}""",
)
_helper(
    "pyCenter",
    (),
    """
function pyCenter(s: string, width: number, fill: string = " "): string {
  // CPython: the extra space goes left when the padding and the width are both odd.
  const pad = width - s.length;
  if (pad <= 0) return s;
  const left = Math.floor(pad / 2) + (pad & width & 1);
  return fill.repeat(left) + s + fill.repeat(pad - left);
}""",
)


_helper(
    "pyStrip",
    (),
    """
function pyStrip(s: string, chars: string, mode: string): string {
  let a = 0;
  let b = s.length;
  if (mode !== "rstrip") while (a < b && chars.includes(s[a])) a++;
  if (mode !== "lstrip") while (b > a && chars.includes(s[b - 1])) b--;
  return s.slice(a, b);
}""",
)


def helper_names() -> list[str]:
    """Every helper name in definition order."""
    return list(_HELPERS)


def sum_float_helper() -> str:
    """The name of the float ``sum`` helper that matches the running Python.

    Python 3.12 switched ``sum()`` of floats to compensated (Neumaier) summation.
    """
    return "pySumFloat" if sys.version_info >= (3, 12) else "pySum"


def render_prelude(used: set[str]) -> str:
    """The TS source of the helpers in ``used`` and their dependencies, in a stable order."""
    need: set[str] = set()
    stack = list(used)
    while stack:
        name = stack.pop()
        if name in need:
            continue
        need.add(name)
        stack.extend(_HELPERS[name][0])
    return "\n\n".join(code for name, (_, code) in _HELPERS.items() if name in need)
