// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtOpt<T>(f: (v: T) => string): (v: T | null) => string {
  return (v: T | null) => (v === null ? "None" : f(v));
}

function pyDictGet<K, V>(d: Map<K, V>, k: K): V {
  if (!d.has(k)) throw new Error("KeyError: " + String(k));
  return d.get(k) as V;
}
// ---- end of helpers ----


function find_first_negative(nums: number[]): number | null {
  for (const n of nums) {
    if (n < 0) {
      return n;
    }
  }
  return null;
}


function lookup(d: Map<string, number>, key: string): number | null {
  if (d.has(key)) {
    return pyDictGet(d, key);
  }
  return null;
}

console.log(pyFmtOpt<number>(pyStrInt)(find_first_negative([3, 4, -2, -7])));
console.log(pyFmtOpt<number>(pyStrInt)(find_first_negative([1, 2])));
const r: number | null = lookup(new Map<string, number>([["a", 1]]), "a");
console.log(`${pyFmtOpt<number>(pyStrInt)(r)} ${pyFmtOpt<number>(pyStrInt)(lookup(new Map<string, number>([["a", 1]]), "b"))}`);
if (r !== null) {
  console.log(pyStrInt(r + 1));
}
const x: number | null = find_first_negative([5]);
console.log((x === null ? "none" : pyFmtOpt<number>(pyStrInt)(x)));

export {};
