name = "Ada"
age = 36
pi = 3.14159
print("%s is %d years old" % (name, age))
print("%.2f|%8.3f|%-8.1f|%08.2f|%+d|% d" % (pi, pi, pi, pi, age, age))
print("%5s|%-5s|%x|%X|%o|%e|%g|%%|%r" % ("ab", "cd", 255, 255, 8, 12345.678, 0.0001, "q"))
print("%d%%" % 50)
print("%d" % 3.99, "%s" % 2.0, "%s" % [1, 2], "%05d" % -42, "%i" % 7)
print("%.3s|%10.4f" % ("abcdef", 2.5))
