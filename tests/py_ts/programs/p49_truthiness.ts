// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}
// ---- end of helpers ----


function describe(xs: number[]): string {
  if (xs.length > 0) {
    return `${pyStrInt(xs.length)} items`;
  }
  return "empty";
}

console.log(`${describe([])} ${describe([0])}`);
const name: string = "";
console.log((!(name !== "") ? "anon" : name));
let count: number = 0;
while (!(count !== 0)) {
  count += 2;
}
console.log(pyStrInt(count));
const d: Map<any, any> = new Map<any, any>();
console.log((!(d.size > 0) ? "empty dict" : "has items"));
const s: string = "x";
if (s !== "" && count !== 0) {
  console.log("both");
}
const nums: number[] = [0, 1, 2];
console.log(pyFmtList<number>(pyStrInt)(nums.filter((n: number) => n !== 0)));
const opt: null = null;
console.log((!false ? "none" : "set"));

export {};
