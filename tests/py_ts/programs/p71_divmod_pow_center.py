print(divmod(17, 5), divmod(-17, 5), pow(2, 10), pow(2.0, 3), pow(2, -1))
q, r = divmod(100, 7)
print(q, r)
print("hello".index("l"), "ab".center(7), "ab".center(6, "*"), "abc".center(6), "abc".center(8, "-"), "x".center(4))
for w in range(1, 9):
    print(repr("ab".center(w)), repr("abc".center(w, ".")))
