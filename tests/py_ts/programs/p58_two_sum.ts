// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtTuple(fs: ((v: any) => string)[]): (t: any[]) => string {
  return (t: any[]) =>
    fs.length === 1 ? "(" + fs[0](t[0]) + ",)" : "(" + fs.map((f, i) => f(t[i])).join(", ") + ")";
}

function pyDictGet<K, V>(d: Map<K, V>, k: K): V {
  if (!d.has(k)) throw new Error("KeyError: " + String(k));
  return d.get(k) as V;
}
// ---- end of helpers ----


function two_sum(nums: number[], target: number): [number, number] {
  const seen: Map<number, number> = new Map<number, number>();
  for (const [i, n] of Array.from(nums.entries())) {
    const need: number = target - n;
    if (seen.has(need)) {
      return [pyDictGet(seen, need), i];
    }
    seen.set(n, i);
  }
  return [-1, -1];
}

console.log(pyFmtTuple([pyStrInt, pyStrInt])(two_sum([2, 7, 11, 15], 9)));
console.log(pyFmtTuple([pyStrInt, pyStrInt])(two_sum([3, 2, 4], 6)));
console.log(pyFmtTuple([pyStrInt, pyStrInt])(two_sum([1, 2], 10)));
const [i, j]: [number, number] = two_sum([5, 5], 10);
console.log(pyStrInt(i + j));

export {};
