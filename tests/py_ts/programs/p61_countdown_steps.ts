// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}

let pyOutBuf = "";
function pyWrite(s: string): void {
  pyOutBuf += s;
  const i = pyOutBuf.lastIndexOf("\n");
  if (i >= 0) {
    console.log(pyOutBuf.slice(0, i));
    pyOutBuf = pyOutBuf.slice(i + 1);
  }
}
function pyFlush(): void {
  if (pyOutBuf !== "") console.log(pyOutBuf);
  pyOutBuf = "";
}

function pyRange(start: number, stop: number, step: number = 1): number[] {
  if (step === 0) throw new Error("ValueError: range() arg 3 must not be zero");
  const out: number[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
  else for (let i = start; i > stop; i += step) out.push(i);
  return out;
}
// ---- end of helpers ----

let i!: number;
for (let i_1 = 10; i_1 > 0; i_1 -= 3) {
  i = i_1;
  pyWrite(`${pyStrInt(i)},`);
}
pyWrite("\n");
for (let i_2 = 0; i_2 < 20; i_2 += 5) {
  i = i_2;
  pyWrite(`${pyStrInt(i)} `);
}
pyWrite("\n");
pyWrite(`${pyFmtList<number>(pyStrInt)(Array.from(pyRange(5, -5, -2)))} ${pyFmtList<number>(pyStrInt)(Array.from(pyRange(0, 3)))} ${pyFmtList<number>(pyStrInt)(Array.from(pyRange(2, 4)))}
`);
let n: number = 4;
for (let i_3 = 0, end_4 = n; i_3 < end_4; i_3++) {
  i = i_3;
  n -= 1;
  pyWrite(`${pyStrInt(i)} ${pyStrInt(n)}
`);
}
let total: number = 0;
for (let i_5 = 1; i_5 < 101; i_5++) {
  i = i_5;
  total += i;
}
pyWrite(`${pyStrInt(total)} ${pyStrInt(i)}
`);
pyFlush();

export {};
