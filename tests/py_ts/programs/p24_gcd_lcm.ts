// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFloorDiv(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: integer division or modulo by zero");
  return Math.floor(a / b);
}

function pyMod(a: number, b: number): number {
  if (b === 0) throw new Error("ZeroDivisionError: modulo by zero");
  const r = a % b;
  if (r === 0) return b < 0 ? -0 : 0;
  return r < 0 !== b < 0 ? r + b : r;
}
// ---- end of helpers ----


function gcd(a: number, b: number): number {
  while (b !== 0) {
    [a, b] = [b, pyMod(a, b)];
  }
  return a;
}


function lcm(a: number, b: number): number {
  return pyFloorDiv(a * b, gcd(a, b));
}

console.log(`${pyStrInt(gcd(48, 18))} ${pyStrInt(gcd(17, 5))} ${pyStrInt(gcd(0, 9))}`);
console.log(`${pyStrInt(lcm(4, 6))} ${pyStrInt(lcm(21, 6))}`);
let result: number = 1;
for (let k = 1; k < 11; k++) {
  result = lcm(result, k);
}
console.log(pyStrInt(result));

export {};
