"""A test's lines three ways on CTest tests of the coverage build in build/mutation/coverage:
the blocks that ran (block_lines_by_prefix), gcov's own (gcov_lines_by_prefix) and the functions
that ran (function_lines_by_prefix), with the lines where blocks and gcov differ.
Usage: python THIS "CTest name"..."""
import os, sys, subprocess, shutil, tempfile, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "harness" / "python"))
from stkmutation import tool
tree = Path(__file__).resolve().parents[2] / "build" / "mutation" / "coverage"
bdir = tree / "build" / "coverage"
tests = sys.argv[1:]
prefixes = []
for i, t in enumerate(tests):
    pre = Path(tempfile.mkdtemp()) / f"t{i}"; shutil.rmtree(pre, ignore_errors=True); pre.mkdir(parents=True)
    env = dict(os.environ, GCOV_PREFIX=str(pre), GCOV_PREFIX_STRIP="0", STK_TEST_TIME_SCALE="10")
    r = subprocess.run(["ctest", "--test-dir", str(bdir), "-R", tool.ctest_regex([t])], env=env, capture_output=True, text=True)
    print(t, "rc", r.returncode, flush=True)
    prefixes.append(pre)
t0 = time.monotonic(); ex = tool.block_lines_by_prefix(prefixes, tree); t1 = time.monotonic()
gv = tool.gcov_lines_by_prefix(prefixes, tree); t2 = time.monotonic()
fl = tool.function_lines_by_prefix(prefixes, tree)
print(f"blocks {t1-t0:.1f} s, gcov {t2-t1:.1f} s")
for p, t in zip(prefixes, tests):
    a, b = ex[p], gv[p]
    na, nb, nf = (sum(len(v) for v in d.values()) for d in (a, b, fl[p]))
    diff = {f: (sorted(a.get(f, set()) - b.get(f, set()))[:8], sorted(b.get(f, set()) - a.get(f, set()))[:8]) for f in set(a) | set(b) if a.get(f) != b.get(f)}
    print(t, "blocks", na, "gcov", nb, "function-level", nf, "differ in", len(diff), "files", list(diff.items())[:4])
