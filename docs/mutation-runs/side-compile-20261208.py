"""What the side compile's control cost a shard: the survivors of the 9d8f787 shard 1/8 (survived,
not-covered, equivalent: the mutants a side compile judged), their objects, and one side compile
of each object's HEAD texts timed on build/release's flags, one at a time. Before fcfed89 that
control ran first for every object; since, only for a refusal. Usage: python THIS [REPORT.json]"""

import json, os, shlex, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
report = (
    sys.argv[1]
    if len(sys.argv) > 1
    else ROOT / "docs/mutation-runs/fresh-9d8f787-cpp-s1-slots4.json"
)
db = json.loads((ROOT / "build/release/compile_commands.json").read_text())
batch_of = {}  # source -> (its object's compile entry)
for e in db:
    src = Path(e["file"])
    if "unity" in src.parts:
        for line in src.read_text().splitlines():
            if line.startswith("#include"):
                inc = (src.parent / line.split('"')[1]).resolve()
                batch_of[str(inc.relative_to(ROOT))] = e
    elif src.is_relative_to(ROOT):
        batch_of[str(src.relative_to(ROOT))] = e
judged = [
    m
    for m in json.loads(Path(report).read_text())["mutants"]
    if m["outcome"] in ("survived", "not-covered", "equivalent")
]
objects = {}
for m in judged:
    e = batch_of.get(m["file"])
    if e is not None:
        objects.setdefault(e["output"] if "output" in e else e["file"], (e, []))[
            1
        ].append(m["file"])
total = 0.0
for key, (e, files) in sorted(objects.items()):
    args = shlex.split(e["command"]) if "command" in e else list(e["arguments"])
    with tempfile.TemporaryDirectory() as tmp:
        args[args.index("-o") + 1] = os.path.join(tmp, "side.o")
        if "-MF" in args:
            args[args.index("-MF") + 1] = os.path.join(tmp, "side.d")
        t0 = time.monotonic()
        r = subprocess.run(args, cwd=e["directory"], capture_output=True)
        dt = time.monotonic() - t0
    total += dt
    print(
        f"{dt:6.1f} s  {'ok' if r.returncode == 0 else 'FAILED'}  {Path(e['file']).name}  "
        f"({len(files)} judged: {', '.join(sorted(set(Path(f).name for f in files)))})"
    )
print(
    f"{len(judged)} judged mutants in {len(objects)} objects: the controls took {total:.0f} s"
    f" one at a time on {os.cpu_count()} cores, idle"
)
