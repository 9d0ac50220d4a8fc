def shift_char(c: str, k: int) -> str:
    if "a" <= c <= "z":
        return chr((ord(c) - ord("a") + k) % 26 + ord("a"))
    if "A" <= c <= "Z":
        return chr((ord(c) - ord("A") + k) % 26 + ord("A"))
    return c


def caesar(text: str, k: int) -> str:
    return "".join(shift_char(c, k) for c in text)


secret = caesar("Hello, World!", 3)
print(secret)
print(caesar(secret, -3))
print(caesar("xyz", 29))
