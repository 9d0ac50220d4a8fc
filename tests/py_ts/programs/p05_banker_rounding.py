for v in [0.5, 1.5, 2.5, 3.5, -0.5, -1.5, 2.675, 0.125, 1.005]:
    print(v, round(v), round(v, 2), round(v, 1))
print(round(7), round(7, 2))
print(round(2.5) + 1)
