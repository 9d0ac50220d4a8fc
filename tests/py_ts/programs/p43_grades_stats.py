scores = {"ann": [90, 85, 77], "bob": [60, 70, 80], "cyd": [100, 95, 98]}


def mean(xs: list[int]) -> float:
    return sum(xs) / len(xs)


def letter(avg: float) -> str:
    if avg >= 90:
        return "A"
    elif avg >= 80:
        return "B"
    elif avg >= 70:
        return "C"
    return "F"


for name, marks in scores.items():
    avg = mean(marks)
    print(f"{name:<5}{avg:6.2f} {letter(avg)} best={max(marks)}")
overall = [m for marks in scores.values() for m in marks]
print(len(overall), mean(overall), sorted(overall)[len(overall) // 2])
