"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// ---- Python runtime helpers (generated) ----
function pyStrInt(n) {
    if (!Number.isSafeInteger(n))
        throw new Error("integer outside the exact range of a JS number");
    return String(n);
}
function pyStrBool(b) {
    return b ? "True" : "False";
}
// ---- end of helpers ----
function classify(x) {
    if (0 <= x && x < 10) {
        return "small";
    }
    else if (10 <= x && x < 100) {
        return "medium";
    }
    return "large";
}
for (const v of [5, 10, 99, 100, -1]) {
    console.log(`${pyStrInt(v)} ${classify(v)}`);
}
const [a, b, c] = [1, 2, 3];
console.log(`${pyStrBool(a < b && b < c)} ${pyStrBool(a < b && b > c)} ${pyStrBool(a === 1 && 1 === a)}`);
console.log(pyStrBool(1 < 2 && 2 <= 2 && 2 < 3));
