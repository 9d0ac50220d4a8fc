// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyStrBool(b: boolean): string {
  return b ? "True" : "False";
}
// ---- end of helpers ----

const name: string = "";
const display: string = name !== "" ? name : "guest";
console.log(display);
const a: number = 0;
const b: number = a !== 0 ? a : 10;
console.log(pyStrInt(b));
const c: number = 5;
const d: number = c !== 0 ? 7 : c;
console.log(pyStrInt(d));
const title: string = "Dr";
const label: string = title !== "" ? title + "." : title;
console.log(label);
console.log(`${pyStrBool(true && false)} ${pyStrBool(true || false)} ${pyStrBool(!true)}`);
const x: number = 3;
console.log(`${pyStrBool(x > 1 && x < 5)} ${pyStrBool(x < 1 || x > 2)}`);

export {};
