// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}
// ---- end of helpers ----


function power(base: number, exp: number = 2): number {
  if (exp === 0) {
    return 1;
  }
  return base * power(base, exp - 1);
}


function join_words(words: string[], sep: string = ", ", end: string = "."): string {
  return words.join(sep) + end;
}


function hanoi(n: number, src: string = "A", dst: string = "C", via: string = "B"): number {
  if (n === 0) {
    return 0;
  }
  let moves: number = hanoi(n - 1, src, via, dst);
  moves += 1;
  moves += hanoi(n - 1, via, dst, src);
  return moves;
}

console.log(`${pyStrInt(power(3))} ${pyStrInt(power(2, 10))} ${pyStrInt(power(5, 3))}`);
console.log(`${join_words(["a", "b"])} ${join_words(["x"], undefined, "!")} ${join_words(["p", "q"], " & ")}`);
console.log(`${pyStrInt(hanoi(5))} ${pyStrInt(hanoi(10))}`);

export {};
