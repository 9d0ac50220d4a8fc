size = 4
grid = []
for r in range(size):
    row = []
    for c in range(size):
        row.append((r + 1) * (c + 1))
    grid.append(row)
for row in grid:
    print(" ".join(f"{v:2d}" for v in row))
diag = [grid[i][i] for i in range(size)]
anti = [grid[i][size - 1 - i] for i in range(size)]
print(diag, anti, sum(diag) - sum(anti))
found = False
for r in range(size):
    for c in range(size):
        if grid[r][c] == 6:
            print("found 6 at", (r, c))
            found = True
            break
    if found:
        break
