// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
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

let [a, b]: [number, number] = [1, 2];
[a, b] = [b, a];
console.log(`${pyStrInt(a)} ${pyStrInt(b)}`);
const [x, y, z]: [string, string, string] = ["x", "y", "z"];
console.log(`${x} ${y} ${z}`);
const point: [number, number] = [3, 4];
const [px, py_]: [number, number] = point;
console.log(pyStrInt(px * py_));
const nums: number[] = [5, 3, 8];
const tmp_1: [number, number] = [nums[2], nums[0]];
nums[0] = tmp_1[0];
nums[2] = tmp_1[1];
console.log(pyFmtList<number>(pyStrInt)(nums));
const [first, second]: number[] = [10, 20];
console.log(pyStrInt(first + second));

function divmod2(a: number, b: number): [number, number] {
  return [pyFloorDiv(a, b), pyMod(a, b)];
}

const [q, r]: [number, number] = divmod2(17, 5);
console.log(`${pyStrInt(q)} ${pyStrInt(r)}`);

export {};
