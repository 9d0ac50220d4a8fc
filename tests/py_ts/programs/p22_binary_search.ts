// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyIndex<T>(xs: T[], i: number): T {
  const j = i < 0 ? xs.length + i : i;
  if (j < 0 || j >= xs.length) throw new Error("IndexError: list index out of range");
  return xs[j];
}
// ---- end of helpers ----


function binary_search(items: number[], target: number): number {
  let lo: number = 0;
  let hi: number = items.length - 1;
  while (lo <= hi) {
    const mid: number = Math.floor((lo + hi) / 2);
    if (pyIndex(items, mid) === target) {
      return mid;
    } else if (pyIndex(items, mid) < target) {
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return -1;
}

const data: number[] = [1, 3, 5, 7, 9, 11, 13];
for (const t of [7, 1, 13, 4, 100]) {
  console.log(`${pyStrInt(t)} ${pyStrInt(binary_search(data, t))}`);
}

export {};
