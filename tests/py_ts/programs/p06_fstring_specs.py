price = 3.14159
count = 42
name = "widget"
print(f"{price:.2f}|{price:.0f}|{price:8.3f}|{price:<8.1f}|")
print(f"{count:4}|{count:<5}|{count:>5}|{count:^7}|{count:05d}|")
print(f"{name:>10}|{name:<10}|{name:^10}|{name:*^11}|")
print(f"{1234567:,}|{1234567.891:,.2f}|{-42:+d}|{42:+d}|")
print(f"{0.25:.1%}|{255:x}|{255:X}|{8:b}|{8:o}|{255:#x}|")
print(f"{12345.6789:e}|{12345.6789:.2e}|{0.000123:g}|{1234567.0:g}|")
print(f"{count!r} {name!r} {price!s}")
print(f"{'left':<6}{'right':>7}")
print(f"{-5:05d}|{-3.5:08.2f}|{7:03}|")
print(f"{True}|{None}|{[1, 2]}")
print(f"{2.5:.0f} {3.5:.0f} {0.125:.2f} {2.675:.2f}")
print(f"{1e20:.2f}")
print(f"{3.0:.3} {1234567.0:.3} {0.5:10.3}")
