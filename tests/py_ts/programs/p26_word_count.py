text = """the cat sat on the mat
the dog sat on the log"""
counts = {}
for line in text.split("\n"):
    for word in line.split():
        counts[word] = counts.get(word, 0) + 1
ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
for word, n in ranked:
    print(f"{word:<4}{n:>3}")
print(counts)
print(max(counts, key=lambda w: counts[w]))
