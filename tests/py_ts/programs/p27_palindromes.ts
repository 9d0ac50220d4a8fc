// ---- Python runtime helpers (generated) ----
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
// ---- end of helpers ----


function is_palindrome(s: string): boolean {
  const cleaned: string = Array.from(s).filter((ch: string) => /^[\p{L}\p{N}]+$/u.test(ch)).map((ch: string): string => ch.toLowerCase()).join("");
  return cleaned === Array.from(cleaned).reverse().join("");
}

for (const phrase of ["A man, a plan, a canal: Panama", "hello", "Was it a car or a cat I saw?", ""]) {
  console.log(`${pyReprStr(phrase)} ${pyStrBool(is_palindrome(phrase))}`);
}

export {};
