// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyStrBool(b: boolean): string {
  return b ? "True" : "False";
}
// ---- end of helpers ----


function classify(x: number): string {
  if (0 <= x && x < 10) {
    return "small";
  } else if (10 <= x && x < 100) {
    return "medium";
  }
  return "large";
}

for (const v of [5, 10, 99, 100, -1]) {
  console.log(`${pyStrInt(v)} ${classify(v)}`);
}
const [a, b, c]: [number, number, number] = [1, 2, 3];
console.log(`${pyStrBool(a < b && b < c)} ${pyStrBool(a < b && b > c)} ${pyStrBool(a === 1 && 1 === a)}`);
console.log(pyStrBool(1 < 2 && 2 <= 2 && 2 < 3));

export {};
