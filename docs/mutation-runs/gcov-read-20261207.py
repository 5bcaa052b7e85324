"""How long the coverage refresh takes to read a pytest file's per-test counts, at two commits of
stkmutation. Runs `test_fault_matrix.py -k report` (23 tests) on the coverage build in
build/mutation/coverage with the per-test prefixes of stkmutation.pytest_gcov, then, for the
package of OLD (a commit) and of the working tree, each in its own process: node_lines (the
functions each test ran; the first reads of every .gcno included), merge_counts (every test's
counts summed into one folder) and gcov on the merge. Usage: python THIS OLD"""

import os, shutil, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TREE = ROOT / "build" / "mutation" / "coverage"
BDIR = TREE / "build" / "coverage"
TIMED = """
import shutil, sys, time
from pathlib import Path
from stkmutation import tool
tree, nodes_root, into = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
nodes = sorted(p for p in nodes_root.iterdir() if p.is_dir())
shutil.rmtree(into, ignore_errors=True); into.mkdir()
t = time.monotonic(); tool.node_lines(nodes_root, tree, "f.py"); a = time.monotonic() - t
t = time.monotonic(); tool.merge_counts(into, nodes, tree); b = time.monotonic() - t
t = time.monotonic(); tool.gcov_lines(into, tree); c = time.monotonic() - t
print(f"{len(nodes)} tests: node_lines {a:.1f} s, merge {b:.1f} s, gcov on the merge {c:.1f} s")
"""

with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    nodes, prefix = tmp / "nodes", tmp / "prefix"
    nodes.mkdir(); prefix.mkdir()
    env = dict(os.environ, PYTHONPATH=f"{TREE}/harness/python:{ROOT}/harness/python",
               STK_ENGINE=str(BDIR / "engine/stk"), STK_HARNESS=str(BDIR / "harness/stk-harness"),
               STK_TEST_TIME_SCALE="10", STK_GCOV_NODES=str(nodes), GCOV_PREFIX=str(prefix),
               GCOV_PREFIX_STRIP="0")
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                    "stkmutation.pytest_gcov", "harness/python/tests/test_fault_matrix.py",
                    "-k", "report"], cwd=TREE, env=env, check=True, stdout=subprocess.DEVNULL)
    old = tmp / "old"
    old.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", sys.argv[1], "harness/python/stkmutation"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
    for label, pkg in ((sys.argv[1], old / "harness/python"), ("working tree", ROOT / "harness/python")):
        print(label, end=": ", flush=True)
        subprocess.run([sys.executable, "-c", TIMED, str(TREE), str(nodes), str(tmp / "into")],
                       env=dict(os.environ, PYTHONPATH=str(pkg)), check=True)
