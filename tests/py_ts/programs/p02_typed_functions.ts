// ---- Python runtime helpers (generated) ----
function pyStrInt(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error("integer outside the exact range of a JS number");
  return String(n);
}

function pyStrFloat(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const [mant, expText] = x.toExponential().split("e");
  const exp = Number(expText);
  const neg = mant.startsWith("-");
  const digits = mant.replace("-", "").replace(".", "");
  let out: string;
  if (exp >= -5 + 1 && exp < 16) {
    if (exp < 0) {
      out = "0." + "0".repeat(-exp - 1) + digits;
    } else if (digits.length <= exp + 1) {
      out = digits + "0".repeat(exp + 1 - digits.length) + ".0";
    } else {
      out = digits.slice(0, exp + 1) + "." + digits.slice(exp + 1);
    }
  } else {
    const m = digits.length > 1 ? digits[0] + "." + digits.slice(1) : digits;
    const sign = exp < 0 ? "-" : "+";
    const e = String(Math.abs(exp));
    out = m + "e" + sign + (e.length < 2 ? "0" + e : e);
  }
  return (neg ? "-" : "") + out;
}

function pyFmtList<T>(f: (v: T) => string): (xs: T[]) => string {
  return (xs: T[]) => "[" + xs.map((v) => f(v)).join(", ") + "]";
}

function pyRange(start: number, stop: number, step: number = 1): number[] {
  if (step === 0) throw new Error("ValueError: range() arg 3 must not be zero");
  const out: number[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
  else for (let i = start; i > stop; i += step) out.push(i);
  return out;
}
// ---- end of helpers ----


//: Area of a rectangle.
function area(width: number, height: number): number {
  return width * height;
}


function greet(name: string, excited: boolean = false): string {
  const suffix: string = excited ? "!" : ".";
  return "Hello, " + name + suffix;
}


function count_up(n: number): number[] {
  return pyRange(0, n);
}

console.log(pyStrFloat(area(3.0, 4.5)));
console.log(greet("Ada"));
console.log(greet("Linus", true));
console.log(greet("Grace", true));
console.log(pyFmtList<number>(pyStrInt)(count_up(5)));

export {};
