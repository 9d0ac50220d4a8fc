// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}
// ---- end of helpers ----


class Point {
  x: number;
  y: number;

  constructor(x: number, y: number) {
    this.x = x;
    this.y = y;
  }

  __repr__(): string {
    return `Point(${pyStrInt(this.x)}, ${pyStrInt(this.y)})`;
  }

  __str__(): string {
    return `(${pyStrInt(this.x)}, ${pyStrInt(this.y)})`;
  }

  dist2(other: Point): number {
    const dx: number = this.x - other.x;
    const dy: number = this.y - other.y;
    return dx * dx + dy * dy;
  }
}

const p: Point = new Point(1, 2);
const q: Point = new Point(4, 6);
console.log(p.__str__());
console.log(`${q.__str__()} ${q.__repr__()}`);
console.log(pyFmtList<Point>(((o: Point) => o.__repr__()))([p, q]));
console.log(pyStrInt(p.dist2(q)));
console.log(`${p.__str__()} and ${q.__repr__()}`);

export {};
