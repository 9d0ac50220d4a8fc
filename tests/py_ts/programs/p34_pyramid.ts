const height: number = 5;
for (let i = 1, end_1 = height + 1; i < end_1; i++) {
  console.log((" ".repeat(Math.max(0, height - i)) + "*".repeat(Math.max(0, 2 * i - 1))));
}
for (let i = height; i > 0; i--) {
  console.log("#".repeat(Math.max(0, i)));
}
console.log("=".repeat(20));
console.log(`${("-".repeat(0) + "|")} ${("ab".repeat(Math.max(0, -2)) + "|")}`);

export {};
