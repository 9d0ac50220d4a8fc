// ---- Python runtime helpers (generated) ----
function pyMod(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: modulo by zero");
  const r = a % b;
  if (r === 0) return b < 0 ? -0 : 0;
  return r < 0 !== b < 0 ? r + b : r;
}
// ---- end of helpers ----


function shift_char(c: string, k: number): string {
  if ("a" <= c && c <= "z") {
    return String.fromCodePoint(pyMod((c.codePointAt(0) as number) - ("a".codePointAt(0) as number) + k, 26) + ("a".codePointAt(0) as number));
  }
  if ("A" <= c && c <= "Z") {
    return String.fromCodePoint(pyMod((c.codePointAt(0) as number) - ("A".codePointAt(0) as number) + k, 26) + ("A".codePointAt(0) as number));
  }
  return c;
}


function caesar(text: string, k: number): string {
  return Array.from(text).map((c: string): string => shift_char(c, k)).join("");
}

const secret: string = caesar("Hello, World!", 3);
console.log(secret);
console.log(caesar(secret, -3));
console.log(caesar("xyz", 29));

export {};
