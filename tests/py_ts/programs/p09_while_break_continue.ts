// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyMod(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: modulo by zero");
  const r = a % b;
  if (r === 0) return b < 0 ? -0 : 0;
  return r < 0 !== b < 0 ? r + b : r;
}
// ---- end of helpers ----

let k!: number;
let n: number = 0;
let total: number = 0;
while (true) {
  n += 1;
  if (pyMod(n, 2) === 0) {
    continue;
  }
  if (n > 15) {
    break;
  }
  total += n;
}
console.log(`${pyStrInt(n)} ${pyStrInt(total)}`);
let i: number = 10;
while (i > 0) {
  i -= 3;
}
console.log(pyStrInt(i));
let broke_1 = false;
for (let k_2 = 0; k_2 < 5; k_2++) {
  k = k_2;
  if (k === 3) {
    broke_1 = true;
    break;
  }
}
if (!broke_1) {
  console.log("no break");
}
let broke_3 = false;
for (let k_4 = 0; k_4 < 3; k_4++) {
  k = k_4;
}
if (!broke_3) {
  console.log(`completed ${pyStrInt(k)}`);
}

export {};
