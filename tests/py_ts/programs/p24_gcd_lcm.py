def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def lcm(a, b):
    return a * b // gcd(a, b)


print(gcd(48, 18), gcd(17, 5), gcd(0, 9))
print(lcm(4, 6), lcm(21, 6))
result = 1
for k in range(1, 11):
    result = lcm(result, k)
print(result)
