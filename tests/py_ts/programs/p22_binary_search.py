def binary_search(items, target):
    lo = 0
    hi = len(items) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        if items[mid] == target:
            return mid
        elif items[mid] < target:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


data = [1, 3, 5, 7, 9, 11, 13]
for t in [7, 1, 13, 4, 100]:
    print(t, binary_search(data, t))
