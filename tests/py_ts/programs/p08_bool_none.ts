// ---- Python runtime helpers (generated) ----
function pyStrBool(b: boolean): string {
  return b ? "True" : "False";
}
// ---- end of helpers ----

const flag: boolean = true;
console.log(`${pyStrBool(flag)} ${pyStrBool(!flag)}`);
console.log(`${pyStrBool(3 > 2)} ${pyStrBool(2 > 3)}`);
const value: null = null;
console.log("None");
console.log(pyStrBool(value === null));
const x: number = 5;
console.log(pyStrBool(x === 5 && x < 10));
console.log(`${pyStrBool(false)} ${pyStrBool(true)} ${pyStrBool(false)} ${pyStrBool(true)} ${pyStrBool([].length > 0)} ${pyStrBool([0].length > 0)}`);
console.log((pyStrBool(true) + "!"));

export {};
