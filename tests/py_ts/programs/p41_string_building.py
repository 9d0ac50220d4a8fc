def rle(s: str) -> str:
    if not s:
        return ""
    out = []
    prev = s[0]
    count = 1
    for ch in s[1:]:
        if ch == prev:
            count += 1
        else:
            out.append(f"{count}{prev}")
            prev = ch
            count = 1
    out.append(f"{count}{prev}")
    return "".join(out)


def to_roman(n: int) -> str:
    values = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
              (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    result = ""
    for value, numeral in values:
        while n >= value:
            result += numeral
            n -= value
    return result


def to_binary(n: int) -> str:
    if n == 0:
        return "0"
    digits = ""
    while n > 0:
        digits = str(n % 2) + digits
        n //= 2
    return digits


print(rle("aaabccdddd"), rle(""), rle("x"))
print([to_roman(n) for n in [1, 4, 9, 14, 40, 90, 400, 1994, 2024]])
print(to_binary(10), to_binary(255), to_binary(0))
