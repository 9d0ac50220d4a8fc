people = [{"name": "Ann", "age": 31, "tags": ["a"]}, {"name": "Bob", "age": 25, "tags": []}]
for p in people:
    print(p["name"], p["age"] + 1, len(p["tags"]))
print(people[0])
people[1]["age"] = 26
print(people[1], "name" in people[0], len(people[0]))
print(sorted(people, key=lambda p: p["age"])[0]["name"])
for k in people[0]:
    print(k)
print(people[0].get("name"), list(people[1].keys()))
