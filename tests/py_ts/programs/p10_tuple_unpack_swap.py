a, b = 1, 2
a, b = b, a
print(a, b)
x, y, z = "x", "y", "z"
print(x, y, z)
point = (3, 4)
px, py = point
print(px * py)
nums = [5, 3, 8]
nums[0], nums[2] = nums[2], nums[0]
print(nums)
first, second = [10, 20]
print(first + second)
def divmod2(a: int, b: int) -> tuple[int, int]:
    return a // b, a % b
q, r = divmod2(17, 5)
print(q, r)
