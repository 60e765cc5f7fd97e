# Regenerates call_arguments.jsonl: random calls of minijinja 2.24's builtin filters, tests and globals
# (positional and keyword arguments of every type), answered by mj-oracle (lenient: goose's validation
# render; strict: goose's run-time render with x=v).
#   python3 call_arguments_gen.py 1 400 ../../../../shared/tools/minijinja-oracle-2.24/mj-oracle > call_arguments.jsonl
import json, random, re, subprocess, sys

r = random.Random(int(sys.argv[1]))
filters = ("safe escape lower upper title capitalize replace length dictsort items reverse trim join split lines "
           "default d round abs int float attr first last min max sort list string bool batch slice sum indent select "
           "reject selectattr rejectattr map groupby unique chain zip pprint format").split()
tests = ("defined none odd even divisibleby number string sequence mapping startingwith endingwith lower upper sameas "
         "eq ne lt ge in true false filter test iterable").split()
vals = ["0", "1", "2", "-1", "3", "2.0", "2.5", "1e30", "true", "false", "none", "'a'", "','", "''", "'value'", "'odd'",
        "'upper'", "'a.b'", "'2'", "[1, 2]", "[]", "{'a': 1}", "('x',)", "y", "x", "[{'a': 1}, {'a': 0}]", "'a b\\nc'",
        "['b', 'A']", "{'b': 2, 'A': 1}", "range(3)"]
kws = "by reverse case_sensitive attribute default width first blank count d precision fill_with foo chars start a".split()


def args(lit=False):
    pool = vals if not lit else vals[:-6]
    p = [r.choice(pool) for _ in range(r.randrange(4))]
    k = [r.choice(kws) + "=" + r.choice(vals) for _ in range(max(0, r.randrange(3) - r.randrange(2)))]
    return "(" + ", ".join(p + k) + ")"


srcs = []
for _ in range(int(sys.argv[2])):
    k, v = r.randrange(5), r.choice(vals)
    if k < 3:
        srcs.append("{{ " + v + "|" + r.choice(filters) + (args() if r.random() < 0.8 else "") + " }}")
    elif k == 3:
        arg = args(True) if r.random() < 0.7 else " " + r.choice(vals[:-6])
        srcs.append("{{ " + v + " is " + r.choice(tests) + arg + " }}")
    else:
        srcs.append("{{ " + r.choice(["range", "dict", "namespace", "debug"]) + args() + " }}")
inp = "".join(json.dumps({"id": str(i), "text": s, "values": {"x": "v"}}) + "\n" for i, s in enumerate(srcs))
out = subprocess.run([sys.argv[3]], input=inp, capture_output=True, text=True, check=True).stdout


def msg(e):
    return re.sub(r" \(in recipe:\d+\)$", "", e["display"]) if e else ""


for s, line in zip(srcs, out.splitlines()):
    a = json.loads(line)
    if a.get("syntax") or a.get("panic"):
        continue
    print(json.dumps({"src": s, "lenient": a.get("lenient_output") or "", "lenient_err": msg(a.get("lenient_error")),
                      "strict": a.get("strict_output") or "", "strict_err": msg(a.get("strict_error"))},
                     ensure_ascii=False))
