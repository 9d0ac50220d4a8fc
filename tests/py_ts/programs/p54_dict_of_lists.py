students = [("math", "ann"), ("art", "bob"), ("math", "cy"), ("bio", "dee"), ("art", "eve")]
by_subject = {}
for subject, student in students:
    if subject not in by_subject:
        by_subject[subject] = []
    by_subject[subject].append(student)
print(by_subject)
for subject in sorted(by_subject):
    print(subject, len(by_subject[subject]), ", ".join(by_subject[subject]))
sizes = {k: len(v) for k, v in by_subject.items()}
print(sizes)
