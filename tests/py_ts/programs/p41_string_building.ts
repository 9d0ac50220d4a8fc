// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
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

function pyMod(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: modulo by zero");
  const r = a % b;
  if (r === 0) return b < 0 ? -0 : 0;
  return r < 0 !== b < 0 ? r + b : r;
}
// ---- end of helpers ----


function rle(s: string): string {
  if (!(s !== "")) {
    return "";
  }
  const out: string[] = [];
  let prev: string = s[0];
  let count: number = 1;
  for (const ch of s.slice(1)) {
    if (ch === prev) {
      count += 1;
    } else {
      out.push(`${pyStrInt(count)}${prev}`);
      prev = ch;
      count = 1;
    }
  }
  out.push(`${pyStrInt(count)}${prev}`);
  return out.join("");
}


function to_roman(n: number): string {
  const values: [number, string][] = [[1000, "M"], [900, "CM"], [500, "D"], [400, "CD"], [100, "C"], [90, "XC"], [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];
  let result: string = "";
  for (const [value, numeral] of values) {
    while (n >= value) {
      result += numeral;
      n -= value;
    }
  }
  return result;
}


function to_binary(n: number): string {
  if (n === 0) {
    return "0";
  }
  let digits: string = "";
  while (n > 0) {
    digits = pyStrInt(pyMod(n, 2)) + digits;
    n = Math.floor(n / 2);
  }
  return digits;
}

console.log(`${rle("aaabccdddd")} ${rle("")} ${rle("x")}`);
console.log(pyFmtList<string>(pyReprStr)([1, 4, 9, 14, 40, 90, 400, 1994, 2024].map((n: number): string => to_roman(n))));
console.log(`${to_binary(10)} ${to_binary(255)} ${to_binary(0)}`);

export {};
