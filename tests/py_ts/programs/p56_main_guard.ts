// A small script with a main() function.
const GREETING: string = "Hi";
const LIMIT: number = 3;

// Greet everyone up to LIMIT.
function greet_all(names: string[]): string[] {
  return names.slice(0, LIMIT).map((n: string): string => `${GREETING}, ${n}!`);
}


function main(): void {
  for (const line of greet_all(["a", "b", "c", "d"])) {
    console.log(line);
  }
  if (!(greet_all([]).length === 0)) throw new Error("AssertionError: " + "empty");
  console.log("done");
}

main();

export {};
