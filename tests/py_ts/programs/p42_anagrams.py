words = ["listen", "silent", "enlist", "google", "gooegl", "cat", "act", "tac", "dog"]
groups = {}
for w in words:
    key = "".join(sorted(w))
    if key not in groups:
        groups[key] = []
    groups[key].append(w)
for key, group in groups.items():
    print(key, group)
print(sorted(groups.values(), key=len, reverse=True)[0])
