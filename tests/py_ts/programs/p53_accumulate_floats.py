prices = [19.99, 5.49, 3.5, 12.0]
subtotal = 0.0
for p in prices:
    subtotal += p
tax = subtotal * 0.08
total = subtotal + tax
print(subtotal)
print(f"Subtotal: {subtotal:.2f}")
print(f"Tax: {tax:.2f}")
print(f"Total: {total:.2f}")
print(round(total, 2))
discounts = [p * 0.9 for p in prices]
print([round(d, 2) for d in discounts])
