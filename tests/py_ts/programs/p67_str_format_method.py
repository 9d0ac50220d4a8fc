name = "Ada"
age = 36
pi = 3.14159
print("{} is {} years old".format(name, age))
print("{0} {1} {0}".format("a", "b"))
print("{name}: {val:.2f}".format(name="pi", val=pi))
print("{:>8}|{:<6}|{:^7}|{:05d}|{!r}".format(name, age, "mid", 42, name))
print("{{braces}} {}".format([1, 2]))
print("Total: {:,.2f}".format(1234567.891))
