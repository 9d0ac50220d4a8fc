def transpose(m: list[list[int]]) -> list[list[int]]:
    rows = len(m)
    cols = len(m[0])
    return [[m[r][c] for r in range(rows)] for c in range(cols)]


def matmul(a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
    n = len(a)
    p = len(b[0])
    out = [[0] * p for _ in range(n)]
    for i in range(n):
        for j in range(p):
            s = 0
            for k in range(len(b)):
                s += a[i][k] * b[k][j]
            out[i][j] = s
    return out


a = [[1, 2, 3], [4, 5, 6]]
print(transpose(a))
print(matmul(a, transpose(a)))
for row in matmul(transpose(a), a):
    print(" ".join(f"{v:3d}" for v in row))
