text = "Hello World"
vowels = 0
for ch in text:
    if ch.lower() in "aeiou":
        vowels += 1
print(vowels)
print([c for c in "abc"])
print(list("xyz"), len("hello"))
freq = {}
for ch in "mississippi":
    freq[ch] = freq.get(ch, 0) + 1
print(freq)
print(sorted(freq.items(), key=lambda kv: kv[1], reverse=True))
print("".join(reversed("stressed")))
caps = "".join(c.upper() if i % 2 == 0 else c for i, c in enumerate("alternate"))
print(caps)
