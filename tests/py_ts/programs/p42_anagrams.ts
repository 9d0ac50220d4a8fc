// ---- Python runtime helpers (generated) ----
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

function pyCmp(a: any, b: any): number {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = pyCmp(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length - b.length < 0 ? -1 : a.length > b.length ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

function pySorted<T>(xs: Iterable<T>, key: ((v: T) => any) | null = null, reverse: boolean = false): T[] {
  const arr = Array.from(xs);
  const k = key === null ? (v: T): any => v : key;
  const sign = reverse ? -1 : 1;
  return arr.sort((a, b) => sign * pyCmp(k(a), k(b)));
}

function pyDictGet<K, V>(d: Map<K, V>, k: K): V {
  if (!d.has(k)) throw new Error("KeyError: " + String(k));
  return d.get(k) as V;
}
// ---- end of helpers ----

let key!: string;
const words: string[] = ["listen", "silent", "enlist", "google", "gooegl", "cat", "act", "tac", "dog"];
const groups: Map<string, string[]> = new Map<string, string[]>();
for (const w of words) {
  key = pySorted(w).join("");
  if (!groups.has(key)) {
    groups.set(key, []);
  }
  pyDictGet(groups, key).push(w);
}
for (const [key_1, group] of groups.entries()) {
  key = key_1;
  console.log(`${key} ${pyFmtList<string>(pyReprStr)(group)}`);
}
console.log(pyFmtList<string>(pyReprStr)(pySorted(groups.values(), (v: string[]) => v.length, true)[0]));

export {};
