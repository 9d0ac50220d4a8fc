name = ""
display = name or "guest"
print(display)
a = 0
b = a or 10
print(b)
c = 5
d = c and 7
print(d)
title = "Dr"
label = title and title + "."
print(label)
print(True and False, True or False, not True)
x = 3
print(x > 1 and x < 5, x < 1 or x > 2)
