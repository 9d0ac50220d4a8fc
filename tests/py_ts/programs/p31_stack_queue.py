def balanced(expr: str) -> bool:
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for ch in expr:
        if ch in "([{":
            stack.append(ch)
        elif ch in pairs:
            if not stack or stack.pop() != pairs[ch]:
                return False
    return len(stack) == 0


for e in ["(a[b]{c})", "(]", "((", "", "{[()()]}"]:
    print(f"{e!r:12} {balanced(e)}")

queue = [1, 2, 3]
queue.append(4)
first = queue.pop(0)
print(first, queue)
