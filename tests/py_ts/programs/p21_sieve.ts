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

function pyRepeat<T>(xs: T[], n: number): T[] {
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(...xs);
  return out;
}

function pyRange(start: number, stop: number, step: number = 1): number[] {
  if (step === 0) throw new Error("ValueError: range() arg 3 must not be zero");
  const out: number[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
  else for (let i = start; i > stop; i += step) out.push(i);
  return out;
}

function pySum(xs: Iterable<number>, start: number = 0): number {
  let total = start;
  for (const v of xs) total += v;
  return total;
}
// ---- end of helpers ----


function sieve(limit: number): number[] {
  const is_prime: boolean[] = pyRepeat([true], limit + 1);
  is_prime[0] = false;
  is_prime[1] = false;
  let p: number = 2;
  while (p * p <= limit) {
    if (pyIndex(is_prime, p)) {
      for (const multiple of pyRange(p * p, limit + 1, p)) {
        is_prime[pyIndexOf(is_prime, multiple)] = false;
      }
    }
    p += 1;
  }
  return pyRange(0, limit + 1).filter((i: number) => pyIndex(is_prime, i));
}

const primes: number[] = sieve(50);
console.log(pyFmtList<number>(pyStrInt)(primes));
console.log(`${pyStrInt(primes.length)} ${pyStrInt(pySum(primes))} ${pyStrInt(primes[primes.length - 1])}`);

export {};
