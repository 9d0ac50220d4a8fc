// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}

function pyIndex<T>(xs: T[], i: number): T {
  const j = i < 0 ? xs.length + i : i;
  if (j < 0 || j >= xs.length) throw new Error("IndexError: list index out of range");
  return xs[j];
}

function pyIndexOf(xs: unknown[], i: number): number {
  const j = i < 0 ? xs.length + i : i;
  if (j < 0 || j >= xs.length) throw new Error("IndexError: list assignment index out of range");
  return j;
}
// ---- end of helpers ----


function insertion_sort(arr: number[]): number[] {
  const a: number[] = arr.slice();
  for (let i = 1, end_1 = a.length; i < end_1; i++) {
    const key: number = a[i];
    let j: number = i - 1;
    while (j >= 0 && pyIndex(a, j) > key) {
      a[pyIndexOf(a, j + 1)] = pyIndex(a, j);
      j -= 1;
    }
    a[pyIndexOf(a, j + 1)] = key;
  }
  return a;
}


function bubble_sort(arr: number[]): number[] {
  const a: number[] = arr.slice();
  const n: number = a.length;
  for (let i = 0; i < n; i++) {
    let swapped: boolean = false;
    for (let j = 0, end_2 = n - i - 1; j < end_2; j++) {
      if (a[j] > a[j + 1]) {
        const tmp_3: [number, number] = [a[j + 1], a[j]];
        a[j] = tmp_3[0];
        a[j + 1] = tmp_3[1];
        swapped = true;
      }
    }
    if (!swapped) {
      break;
    }
  }
  return a;
}

const nums: number[] = [29, 10, 14, 37, 13, -5, 0];
console.log(pyFmtList<number>(pyStrInt)(insertion_sort(nums)));
console.log(pyFmtList<number>(pyStrInt)(bubble_sort(nums)));
console.log(pyFmtList<number>(pyStrInt)(nums));

export {};
