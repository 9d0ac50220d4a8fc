def c_to_f(c: float) -> float:
    return c * 9 / 5 + 32


print(f"{'C':>6} {'F':>7}")
for c in range(-20, 41, 10):
    print(f"{c:>6} {c_to_f(c):>7.1f}")
readings = [21.5, 19.0, 23.25, 22.0]
avg = sum(readings) / len(readings)
print(f"avg={avg:.3f} max={max(readings)} min={min(readings)}")
print(round(avg, 1), round(avg))
