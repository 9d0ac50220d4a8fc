inventory = {"fruits": ["apple", "pear"], "veg": ["kale"], "empty": []}
inventory["veg"].append("leek")
for cat in sorted(inventory):
    items = inventory[cat]
    print(f"{cat}: {len(items)} -> {', '.join(items) if items else '(none)'}")
print(inventory)
grid = [[0, 1], [2, 3]]
grid[0].append(9)
print(grid, grid[1][-1])
records = [{"id": 1, "score": 90}, {"id": 2, "score": 75}]
best = max(records, key=lambda r: r["score"])
print(best, best["id"])
print(sum(r["score"] for r in records) / len(records))
