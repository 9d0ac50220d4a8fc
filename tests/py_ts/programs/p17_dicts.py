ages = {"bob": 31, "alice": 27}
ages["carol"] = 45
ages["bob"] += 1
print(ages)
print(len(ages), "alice" in ages, "dave" in ages)
for name in ages:
    print(name, ages[name])
for name, age in ages.items():
    print(f"{name:>6} {age:3d}")
print(list(ages.keys()), list(ages.values()))
print(ages.get("dave", 0), ages.get("bob", 0))
print(ages.pop("alice"), ages)
del ages["carol"]
print(ages)
inverted = {v: k for k, v in ages.items()}
print(inverted)
num_keys = {3: "c", 1: "a", 2: "b"}
print(num_keys, sorted(num_keys))
empty = {}
print({}, [], len(empty))
