xs = list(range(10))
print(xs[2:5], xs[:3], xs[7:], xs[-3:], xs[:-7], xs[::3], xs[1::2], xs[::-1], xs[8:2:-2])
print(xs[100:], xs[-100:2], xs[5:1])
s = "abcdefghij"
print(s[2:5], s[:3], s[7:], s[-3:], s[::3], s[::-1], s[8:2:-2], s[-1], s[-10])
i = 3
print(xs[i], xs[-i], s[i - 5])
words = ["one", "two", "three"]
print(words[-1][::-1], words[0][1:])
