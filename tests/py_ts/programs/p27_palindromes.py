def is_palindrome(s: str) -> bool:
    cleaned = "".join(ch.lower() for ch in s if ch.isalnum())
    return cleaned == cleaned[::-1]


for phrase in ["A man, a plan, a canal: Panama", "hello", "Was it a car or a cat I saw?", ""]:
    print(repr(phrase), is_palindrome(phrase))
