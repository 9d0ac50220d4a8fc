rows = [("Widget", 3, 2.5), ("Gadget", 10, 0.99), ("Doohickey", 1, 12.0)]
header = f"{'Item':<10}|{'Qty':>5}|{'Price':>8}|{'Total':>9}"
print(header)
print("-" * len(header))
grand = 0.0
for name, qty, price in rows:
    line_total = qty * price
    grand += line_total
    print(f"{name:<10}|{qty:>5}|{price:>8.2f}|{line_total:>9.2f}")
print("=" * len(header))
print(f"{'TOTAL':<10}|{'':>5}|{'':>8}|{grand:>9.2f}")
