flag = True
print(flag, not flag)
print(3 > 2, 2 > 3)
value = None
print(value)
print(value is None)
x = 5
print(x == 5 and x < 10)
print(bool(0), bool(3), bool(""), bool("a"), bool([]), bool([0]))
print(str(True) + "!")
