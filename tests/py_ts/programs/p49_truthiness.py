def describe(xs: list[int]) -> str:
    if xs:
        return f"{len(xs)} items"
    return "empty"


print(describe([]), describe([0]))
name = ""
print("anon" if not name else name)
count = 0
while not count:
    count += 2
print(count)
d = {}
print("empty dict" if not d else "has items")
s = "x"
if s and count:
    print("both")
nums = [0, 1, 2]
print([n for n in nums if n])
opt = None
print("none" if not opt else "set")
