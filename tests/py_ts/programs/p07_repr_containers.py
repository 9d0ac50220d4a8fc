items = ["apple", "it's", 'say "hi"', "tab\there"]
print(items)
nested = [[1, 2], [3], []]
print(nested)
pairs = [(1, "one"), (2, "two")]
print(pairs)
single = (5,)
print(single)
d = {"b": 2, "a": 1, "10": 3}
print(d)
print({"x": [1.5, 2.0], "y": []})
print({1: "a", 2: "b"})
print((1, 2.0, "three", True, None))
print(str([True, False]))
print(repr("quote'and\"both"))
print(repr("back\\slash"))
