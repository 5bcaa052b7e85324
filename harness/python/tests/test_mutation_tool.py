"""stkmutation.tool (ci/mutation.sh) without a C++ build: generation of C++ and Python
mutants, deterministic sampling, shards, triage, --diff line filtering and the report shape."""

from __future__ import annotations

import errno as errno_module
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import types
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType
from typing import Any

import hypothesis
import pytest
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[3]

CPP = """\
// == in a comment is no mutant
int pick(int a, int b) {
  /* nor in a block comment: a < b */
  if (a < b) return a + 1;
    // an indented comment line: x < y
  return b * 2;
}
const char* kHelp =
    "usage: pick --a N --b N (the smaller one plus one)\\n"
    "  --verbose  says more\\n";
"""

PY = """\
from __future__ import annotations


def pick(a: int, b: int) -> int:
    # a comment: a < b
    if a < b:
        return a + 1
    return b * 2
"""


@pytest.fixture(scope="module")
def mt() -> ModuleType:
    mod = importlib.import_module("stkmutation.tool")
    return mod


def _all(mt: ModuleType, path: str, text: str) -> list:
    found = mt.cpp_mutants(path, text) if path.endswith(".cpp") else mt.py_candidates(path, text)
    return mt.choose({"m": found}, lambda m: m.lang == "cpp" or mt.materialize_py(m, text))


def test_cpp_mutants_skip_comments_and_help_text(mt: ModuleType):
    ms = _all(mt, "engine/src/pick.cpp", CPP)
    assert ms
    assert {m.line for m in ms} <= {2, 4, 6, 7, 8}
    assert any(m.line == 4 and "a >= b" in m.mutated for m in ms)
    assert any(m.operator == "< ==> >" for m in ms)
    assert all(m.mutated != m.original and m.lang == "cpp" for m in ms)
    assert all(
        m.diff.startswith("--- a/engine/src/pick.cpp\n+++ b/engine/src/pick.cpp") for m in ms
    )
    assert len({(m.line, m.mutated) for m in ms}) == len(ms)  # identical texts are one mutant


def test_python_mutants_come_from_cosmic_ray(mt: ModuleType):
    ms = _all(mt, "harness/python/stkref/pick.py", PY)
    assert ms
    assert all(m.lang == "py" and m.operator.startswith("core/") for m in ms)
    assert all(m.line != 5 for m in ms)  # the comment line
    lt = [m for m in ms if m.operator == "core/ReplaceComparisonOperator_Lt_Gt"]
    assert [(m.line, m.original.strip(), m.mutated.strip()) for m in lt] == [
        (6, "if a < b:", "if a > b:")
    ]
    assert lt[0].diff.startswith("--- a/harness/python/stkref/pick.py")


def test_no_python_mutant_on_the_main_guard(mt: ModuleType):
    # `__name__ == "__main__"` made `<=`, `>=` or `is` behaves the same for every module name
    # (lowercase first letter): 33 tools, each such mutant a survivor to triage one by one
    # (planted: the guard filter removed, and the guard's comparison mutants come back).
    text = PY + '\n\nif __name__ == "__main__":\n    raise SystemExit(pick(1, 2))\n'
    ms = _all(mt, "harness/python/stkref/pick.py", text)
    guard = text.splitlines().index('if __name__ == "__main__":') + 1
    assert ms and all(m.line != guard for m in ms)
    assert any(m.line == guard + 1 for m in ms)  # the body is still mutated
    assert mt.MAIN_GUARD.match("if __name__ == '__main__':")
    assert not mt.MAIN_GUARD.match('if name == "__main__":')


def test_python_annotation_mutants_are_equivalent(mt: ModuleType):
    assert mt.py_equivalent(PY, PY.replace("a: int, b: int", "a: int | None, b: int"))
    assert not mt.py_equivalent(PY, PY.replace("a + 1", "a - 1"))
    no_future = PY.replace("from __future__ import annotations\n", "")
    assert not mt.py_equivalent(no_future, no_future.replace("a: int", "a: str"))
    # A local variable's annotation is never evaluated, whatever the module imports (PEP 526):
    # drift.py's `got: dict[...] | None = {}` made `*` survived 8 test files in the 256ca3a draw.
    # A module's or a class body's annotation is evaluated without the future import.
    for head in ("", "from __future__ import annotations\n"):
        local = head + "def f():\n    got: dict[str, int] | None = {}\n    return got\n"
        assert mt.py_equivalent(local, local.replace("| None", "* None"))
        assert not mt.py_equivalent(local, local.replace("= {}", "= None"))
    for body in ("got: int | None = 1\n", "def f():\n    class C:\n        x: int | None = 1\n"):
        assert not mt.py_equivalent(body, body.replace("| None", "* None"))
        assert mt.py_equivalent(
            "from __future__ import annotations\n" + body,
            "from __future__ import annotations\n" + body.replace("| None", "* None"),
        )


def test_sampling_is_deterministic_per_seed(mt: ModuleType):
    by_module = {"a": mt.cpp_mutants("engine/src/pick.cpp", CPP), "b": mt.py_candidates("p.py", PY)}

    def draw(seed: int) -> list[str]:
        made = lambda m: m.lang == "cpp" or mt.materialize_py(m, PY)  # noqa: E731
        return [m.ident for m in mt.choose(by_module, made, 3, seed)]

    assert draw(1) == draw(1)
    assert len(draw(1)) == 3  # in all, not per module
    assert any(draw(s) != draw(1) for s in range(2, 6))


def test_a_sample_is_spread_over_the_modules(mt: ModuleType):
    # One big module beside four small ones: the modules take turns, so no module holds more
    # than one mutant over another until it runs out (planted: 8 drawn from the big one).
    big = mt.cpp_mutants("engine/src/big.cpp", CPP)
    assert len(big) > 8
    by_module = {"big": big} | {f"s{i}": mt.cpp_mutants(f"s{i}.cpp", CPP)[:2] for i in range(4)}

    def per_module(n: int, seed: int) -> dict[str, int]:
        chosen = mt.choose(by_module, lambda m: True, n, seed)
        assert len(chosen) == (n or len(chosen))
        return {k: sum(m in ms for m in chosen) for k, ms in by_module.items()}

    for seed in range(1, 6):
        assert set(per_module(5, seed).values()) == {1}
        assert sorted(per_module(8, seed).values()) == [1, 1, 2, 2, 2]
        assert per_module(12, seed) == {"big": 4, "s0": 2, "s1": 2, "s2": 2, "s3": 2}

    def capped(n: int, cap: int) -> dict[str, int]:
        chosen = mt.choose(by_module, lambda m: True, n, 1, cap)
        return {k: sum(m in ms for m in chosen) for k, ms in by_module.items()}

    assert capped(0, 3) == {"big": 3, "s0": 2, "s1": 2, "s2": 2, "s3": 2}  # the diff mode's cap
    assert capped(6, 1) == dict.fromkeys(by_module, 1)  # 5 in all: the cap wins over 6
    distinct = {(m.line, m.mutated) for m in big}
    assert per_module(0, 1)["big"] == len(distinct)  # 0: every distinct mutant


def test_shards_partition_the_mutants(mt: ModuleType):
    ms = _all(mt, "engine/src/pick.cpp", CPP)
    shards = [mt.shard(ms, k, 3) for k in (1, 2, 3)]
    assert sorted(m.ident for s in shards for m in s) == sorted(m.ident for m in ms)
    assert sum(len(s) for s in shards) == len(ms)
    with pytest.raises(mt.SetupError, match="K/N"):
        mt.parse_shard("4/3")


def test_globs_and_modules(mt: ModuleType):
    paths = ["engine/src/a.cpp", "engine/src/eval/b.cpp", "engine/src/a.h", "harness/src/x/y.cpp"]
    assert mt.select_files(paths, ["engine/src/*.cpp"]) == ["engine/src/a.cpp"]
    assert mt.select_files(paths, ["engine/src/**/*.cpp"]) == paths[:2]
    # A glob that reaches the tests' trees mutates none of their files (planted: a Python
    # draw over harness/python/**/*.py drew a module of test files).
    tests = ["harness/python/tests/test_x.py", "harness/tests/t.cpp", "engine/tests/e.cpp"]
    assert mt.select_files([*tests, "harness/python/stkref/a.py"], ["**/*.py", "**/*.cpp"]) == [
        "harness/python/stkref/a.py"
    ]
    assert mt.module_of("engine/src/uci.cpp") == "engine/src"
    assert mt.module_of("engine/src/search/search.cpp") == "engine/src/search"
    assert mt.module_of("harness/src/commands/perft/perft.cpp") == "harness/src/commands/perft"
    assert mt.module_of("harness/src/report/junit.cpp") == "harness/src/report"
    assert mt.module_of("harness/python/stkref/sprt.py") == "stkref/sprt"


def _triage(tmp_path: Path, text: str) -> Path:
    (tmp_path / "engine").mkdir(exist_ok=True)
    (tmp_path / "engine" / "a.cpp").write_text("")
    p = tmp_path / "triage.txt"
    p.write_text(text)
    return p


def test_triage_matches_a_survivor_by_file_operator_and_line(mt: ModuleType, tmp_path: Path):
    p = _triage(
        tmp_path,
        "# comment\n\nengine/a.cpp | < ==> <= | if (a | b < c) { | c is never reached\n",
    )
    entries = mt.read_triage(p, tmp_path)
    assert [(e.text, e.reason) for e in entries] == [("if (a | b < c) {", "c is never reached")]
    hit = mt.Mutant("engine/a.cpp", 3, "< ==> <=", "   if (a | b < c) {", "x", "cpp")
    other = mt.Mutant("engine/a.cpp", 3, "< ==> >", "   if (a | b < c) {", "x", "cpp")
    killed = mt.Mutant("engine/a.cpp", 3, "< ==> <=", "   if (a | b < c) {", "x", "cpp")
    hit.outcome, other.outcome, killed.outcome = "survived", "survived", "killed"
    mt.apply_triage([hit, other, killed], entries)
    assert (hit.triage, other.triage, killed.triage) == ("c is never reached", "", "")


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("engine/a.cpp | < ==> <= | x", "expected 'path | operator"),
        ("engine/a.cpp | < ==> <= | x |  ", "empty reason"),
        ("engine/nope.cpp | < ==> <= | x | why", "no such file"),
        ("engine/a.cpp |  | x | why", "empty operator"),
    ],
)
def test_triage_parse_errors_name_file_and_line(
    mt: ModuleType, tmp_path: Path, line: str, why: str
):
    p = _triage(tmp_path, "# header\n" + line + "\n")
    with pytest.raises(mt.SetupError, match=why) as e:
        mt.read_triage(p, tmp_path)
    assert f"{p}:2:" in str(e.value)


def test_triage_repeated_entry_is_an_error(mt: ModuleType, tmp_path: Path):
    p = _triage(tmp_path, "engine/a.cpp | op | x | a\nengine/a.cpp | op | x | b\n")
    with pytest.raises(mt.SetupError, match=r"triage.txt:2: repeats the entry of .*:1"):
        mt.read_triage(p, tmp_path)


def test_diff_mode_takes_the_changed_lines_only(mt: ModuleType, tmp_path: Path):
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
            cwd=tmp_path,
            check=True,
            capture_output=True,
            text=True,
        ).stdout

    git("init", "-q")
    (tmp_path / "a.cpp").write_text("".join(f"int x{i} = {i};\n" for i in range(1, 9)))
    (tmp_path / "gone.cpp").write_text("int g;\n")
    git("add", ".")
    git("commit", "-qm", "base")
    base = git("rev-parse", "HEAD").strip()
    lines = (tmp_path / "a.cpp").read_text().splitlines(keepends=True)
    lines[1] = "int x2 = 20;\n"
    lines[5:7] = ["int x6 = 60;\n", "int x7 = 70;\n", "int extra = 0;\n"]
    del lines[2]  # a deletion adds no line
    (tmp_path / "a.cpp").write_text("".join(lines))
    (tmp_path / "gone.cpp").unlink()
    (tmp_path / "new.cpp").write_text("int n;\nint m;\n")
    git("add", "-A")
    git("commit", "-qm", "change")
    assert mt.changed_lines(tmp_path, base) == {"a.cpp": {2, 5, 6, 7}, "new.cpp": {1, 2}}
    ms = mt.cpp_mutants("a.cpp", (tmp_path / "a.cpp").read_text())
    kept = [m for m in ms if m.line in mt.changed_lines(tmp_path, base)["a.cpp"]]
    assert kept and {m.line for m in kept} <= {2, 5, 6, 7}


@pytest.mark.parametrize("errno", ["ENOSPC", "EIO"])
def test_a_coverage_map_written_on_a_failing_disk_keeps_the_earlier_map(tmp_path: Path, errno: str):
    # Both refreshes (--refresh-coverage, --refresh-python-coverage) end in CoverageMap.write:
    # every write under the folder fails (the fault injector). Exit 2 naming the cause, the
    # committed map byte for byte as it was, no temporary left. Planted: a map written in place
    # (open, write) would leave it torn or empty.
    from tool_contract import (
        FAULT_LIB,
        PACKAGES,
        fault_env,
        injected_calls,
        leftover_temporaries,
    )

    if not FAULT_LIB.exists():
        pytest.skip(f"no fault injector ({FAULT_LIB}): build the release tree first")
    folder = tmp_path / "ci"
    folder.mkdir()
    earlier = b'{"commit": "earlier"}\n'
    (folder / "map.json").write_bytes(earlier)
    script = (
        "import sys; from pathlib import Path\n"
        "from stkref.cli import run_tool\n"
        "from stkmutation.tool import CoverageMap\n"
        "cov = CoverageMap('abc', [('t1', 'stk-tests')])\n"
        "cov.lines = {'engine/src/a.cpp': {3: [0]}}\n"
        "sys.exit(run_tool(lambda: cov.write(Path(sys.argv[1])) or 0))\n"
    )
    report = tmp_path / "injected.txt"
    env = os.environ | fault_env(folder, 1, True, report, errno) | {"PYTHONPATH": str(PACKAGES)}
    r = subprocess.run(
        [sys.executable, "-c", script, str(folder / "map.json")],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert injected_calls(report) >= 1
    assert r.returncode == 2, r.stderr
    # The output and the first cause (EIO on the close after ENOSPC had hidden it, unnamed).
    cause = os.strerror(getattr(errno_module, errno))
    assert r.stderr.strip() == f"error: {folder / 'map.json'}: {cause}"
    assert (folder / "map.json").read_bytes() == earlier
    assert leftover_temporaries(folder) == []


def test_coverage_map_round_trip(mt: ModuleType, tmp_path: Path):
    cov = mt.CoverageMap("abc", [("t1", "stk-engine-tests"), ("t2", "stk-tests")])
    cov.lines = {"engine/src/a.cpp": {3: [0, 1], 4: [0, 1], 9: [1]}}
    cov.write(tmp_path / "cov.json")
    doc = json.loads((tmp_path / "cov.json").read_text())
    assert doc["sets"] == [[0, 1], [1]]  # lines run by the same tests share a set
    back = mt.CoverageMap.load(tmp_path / "cov.json")
    assert back.covering("engine/src/a.cpp", 3) == ["t1", "t2"]
    assert back.covering("engine/src/a.cpp", 5) == []
    assert back.covering("engine/src/b.cpp", 1) == []  # in no test's lines: none ran it
    assert back.covering("engine/src/b.h", 1) is None
    back.stale = {"engine/src/a.cpp"}
    assert back.covering("engine/src/a.cpp", 3) is None
    assert mt.fallback_binaries("engine/src/a.cpp", back) == {"stk-engine-tests", "stk-tests"}
    back.lines["engine/src/a.cpp"] = {9: [1]}
    assert mt.fallback_binaries("engine/src/a.cpp", back) == {"stk-tests"}  # from the map
    assert mt.fallback_binaries("harness/src/io/x.cpp", back) == {"stk-tests"}  # by place


def test_ctest_regex_escapes_names(mt: ModuleType):
    import re

    names = ["SEE: values (P 100, N 320)", "names: --config [x]* ok?"]
    rx = re.compile(mt.ctest_regex(names))
    assert all(rx.match(n) for n in names)
    assert not rx.match("SEE: values (P 100, N 320) and more")


def test_ctest_failures_and_timeouts_read_from_a_real_ctest_run(mt: ModuleType, tmp_path: Path):
    """CTest's own output of a passing, a failing and a hanging test under --timeout: the
    killers_first bookkeeping reads the failed names from it, and a hang stopped by --timeout is
    a timeout, not a plain kill (planted: the timeout regex on "Timed out" reads none)."""
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.19)\nproject(t NONE)\nenable_testing()\n"
        'add_test(NAME "a: passes" COMMAND true)\n'
        'add_test(NAME "b (fails) x.y, z" COMMAND false)\n'
        'add_test(NAME "c hangs" COMMAND sleep 30)\n'
    )
    build = tmp_path / "b"
    subprocess.run(["cmake", "-S", tmp_path, "-B", build], check=True, capture_output=True)
    out = subprocess.run(
        ["ctest", "--test-dir", build, "--timeout", "1"], capture_output=True, text=True
    ).stdout
    assert mt.failed_tests(out) == ["b (fails) x.y, z", "c hangs"]
    assert mt.CTEST_TIMEOUT.search(out)
    out = subprocess.run(
        ["ctest", "--test-dir", build, "-R", "^a"], capture_output=True, text=True
    ).stdout
    assert mt.failed_tests(out) == [] and not mt.CTEST_TIMEOUT.search(out)


def test_killers_first_only_reorders(mt: ModuleType):
    """A model of the documented order: every test kept once; more kills first; equal kills in
    the given order (Hypothesis-free: every subset of kill counts over four tests)."""
    import itertools

    tests = ["t0", "t1", "t2", "t3"]
    for counts in itertools.product(range(3), repeat=4):
        kills = {t: c for t, c in zip(tests, counts, strict=True) if c}
        got = mt.killers_first(tests, kills)
        want = [t for c in sorted(set(counts), reverse=True) for t in tests if kills.get(t, 0) == c]
        assert got == want, (kills, got)


def test_second_stage_files_that_killed_before_run_first(
    mt: ModuleType, tmp_path: Path, monkeypatch
):
    """A second stage stops at its first failing file: the files that killed the file's earlier
    survivors of CTest run first, read from pytest's own output (planted: the kill recorded
    from CTest's regex, which reads no pytest failure, so fastest-first stays)."""
    tests = tmp_path / "t"
    tests.mkdir()
    (tests / "test_fast.py").write_text("def test_a():\n    pass\n")
    (tests / "test_slow.py").write_text("def test_b():\n    assert 0\n")
    (tests / "test_err.py").write_text("import no_such_module_here\n")

    def failed(*files: str) -> list[str]:
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files]
        out = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True).stdout
        return mt.failed_test_files(out)

    assert failed("t/test_fast.py", "t/test_slow.py") == ["t/test_slow.py"]
    assert failed("t") == ["t/test_err.py"]  # a collection error stops the run before any test
    assert mt.failed_test_files("1 passed in 0.1s\n") == []

    files = ["t/test_fast.py", "t/test_slow.py", "t/test_err.py"]
    monkeypatch.setattr(mt, "binary_tests_for", lambda _tree, _file: list(files))
    runner = mt.Runner(None, mt.CoverageMap(), [types.SimpleNamespace(tree=tmp_path)], {})
    runner.py_base = {"t/test_fast.py": (True, 1.0), "t/test_slow.py": (True, 90.0)}
    runner.py_base["t/test_err.py"] = (True, 5.0)
    m = mt.Mutant("harness/src/a.cpp", 3, "< ==> >", "if (a < b)", "if (a > b)", "cpp")
    assert runner.binary_tests(m) == ["t/test_fast.py", "t/test_err.py", "t/test_slow.py"]
    runner.record_kill(m, "FAILED t/test_slow.py::test_b - assert 0\n", pytest=True)
    assert runner.binary_tests(m) == ["t/test_slow.py", "t/test_fast.py", "t/test_err.py"]
    other = mt.Mutant("harness/src/b.cpp", 3, "< ==> >", "if (a < b)", "if (a > b)", "cpp")
    assert runner.binary_tests(other)[0] == "t/test_fast.py"  # per file: b.cpp's order is its own


def test_the_page_says_where_the_time_went(mt: ModuleType):
    """The run's page splits the mutants' time by what decided them (docs/mutation.md "What it
    costs"): a C++ mutant whose tests include a pytest file met the second stage, one with CTest
    names only was decided by CTest, one with no test run (equivalent, uncompilable, not covered
    by the map) ran none; skipped mutants count nowhere (planted: the second stage told by any
    test name containing "py", which a CTest name such as "python parity" has)."""
    recs = [
        {"file": "engine/src/a.cpp", "outcome": "killed", "tests": ["t1"], "seconds": 2.0},
        {"file": "engine/src/a.cpp", "outcome": "killed", "tests": ["python parity"], "seconds": 4},
        # A second stage narrowed to the tests that ran the line names pytest node ids (seen
        # in the ca1c60b shards: every such survivor counted as "CTest alone").
        {"file": "harness/src/b.cpp", "outcome": "survived", "tests": ["t1", "x/test_a.py::t[1]"]},
        {"file": "harness/src/b.cpp", "outcome": "killed", "tests": ["x/test_b.py"], "seconds": 90},
        {"file": "engine/src/a.cpp", "outcome": "uncompilable", "tests": [], "seconds": 30.0},
        {"file": "engine/src/a.cpp", "outcome": "not-covered", "tests": [], "seconds": 0.5},
        {"file": "stkref/c.py", "outcome": "survived", "tests": ["x/test_c.py"], "seconds": 8.0},
        {"file": "stkref/c.py", "outcome": "skipped", "tests": ["x/test_c.py"], "seconds": 99.0},
    ]
    recs[2]["seconds"] = 30.0
    meta = {"jobs": 2, "phases": {"candidates": 10.0, "draw": 1.0, "clones": 4.0}}
    meta["schema"] = {"build_seconds": 600.0, "baseline_seconds": 300.0}
    lines = mt.time_spent(recs, meta)
    assert lines[0] == "## Where the time went"
    assert "| before the mutants (candidates, draw, clones) | - | 15 | - |" in lines
    assert "| schema build | - | 600 | - |" in lines
    assert "| baseline (the selected tests unmutated) | - | 300 | - |" in lines
    assert "| C++: CTest alone | 2 | 6 | 3.0 |" in lines
    assert "| C++: second stage (pytest files) | 2 | 120 | 60.0 |" in lines
    assert (
        "| no test run (equivalent, uncompilable, not covered by the map) | 2 | 30 | 15.2 |"
        in lines
    )
    assert "| Python: pytest files | 1 | 8 | 8.0 |" in lines
    assert sum(line.startswith("| ") for line in lines) == 8  # header + 7 parts, skipped nowhere


def _mutant(mt: ModuleType, outcome: str, line: int, triage: str = "") -> object:
    m = mt.Mutant("engine/src/a.cpp", line, "< ==> >", "if (a < b)", "if (a > b)", "cpp")
    m.outcome, m.triage, m.tests = outcome, triage, ["t1"]
    m.diff = "--- a/engine/src/a.cpp\n+++ b/engine/src/a.cpp\n@@ -1 +1 @@\n-x\n+y\n"
    return m


def test_report_shape(mt: ModuleType, tmp_path: Path, junit_xsd: Path):
    outcomes = ["killed", "killed", "timeout", "survived", "survived", "not-covered"]
    ms = [_mutant(mt, o, i + 1) for i, o in enumerate(outcomes)]
    ms[4].triage = "accepted"
    ms += [_mutant(mt, "equivalent", 10), _mutant(mt, "uncompilable", 11)]
    meta = {
        "head": "0" * 40,
        "seconds": 12.0,
        "jobs": 1,
        "mutants_per_hour": 100.0,
        "run_per_hour": 50.0,
        "sample": 3,
        "seed": 1,
    }
    md, _rows = mt.write_reports(ms, "t", tmp_path, meta)
    doc = json.loads((tmp_path / "mutation" / "t.json").read_text())
    assert list(doc)[:2] == ["report", "head"]
    assert doc["report"]["harness"] == "mutation"
    assert doc["report"]["tests"] == 6  # one testcase per run mutant
    assert doc["report"]["failures"] == 2  # the untriaged survivor and the uncovered one
    total = doc["modules"]["total"]
    assert total["generated"] == 8 and total["compiled"] == 7
    assert (total["killed"], total["timeout"], total["survived"]) == (2, 1, 2)
    assert (total["not-covered"], total["triaged"], total["equivalent"]) == (1, 1, 1)
    assert total["score"] == 60.0  # (2 + 1) / (3 + 2 untriaged survivors)
    assert set(doc["mutants"][0]) >= {"id", "file", "line", "operator", "outcome", "diff", "tests"}
    assert (
        "| `engine/src` | 8 | 7 | 2 | 2 | 1 | 1 | 1 | 1 | 1 | 0 | 0 | 60.0% [23.1, 88.2] of 5 |"
        in md
    )
    assert total["scored"] == 5 and total["interval"] == [23.1, 88.2]  # Wilson, 3 of 5
    assert "triaged: accepted" in md and "**gap**" in md
    xml = tmp_path / "junit" / "mutation-t.xml"
    failures = ET.parse(xml).getroot().findall(".//failure")
    assert len(failures) == 2 and "+++ b/engine/src/a.cpp" in (failures[0].text or "")
    r = subprocess.run(["xmllint", "--noout", "--schema", str(junit_xsd), str(xml)], check=False)
    assert r.returncode == 0


@pytest.mark.skipif(shutil.which("g++") is None or shutil.which("gcov") is None, reason="no gcc")
def test_gcov_lines_reads_the_executed_lines(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # As under the coverage refresh, which runs this file with a GCOV_PREFIX of its own.
    monkeypatch.setenv("GCOV_PREFIX", str(tmp_path / "the-refresh's-prefix"))
    tree = tmp_path.resolve()
    (tree / "engine" / "src").mkdir(parents=True)
    (tree / "engine" / "src" / "a.cpp").write_text(
        "int f(int x) {\n  if (x > 1)\n    return 2;\n  return 3;\n}\nint main() { return f(0); }\n"
    )
    build = tree / "build"
    build.mkdir()
    cc = ["g++", "--coverage", "-O0", "../engine/src/a.cpp", "-o", "a"]
    subprocess.run(cc, cwd=build, check=True)
    # Its counts beside its object: not under a GCOV_PREFIX this run inherited (the coverage
    # refresh runs this file under one; the binary's .gcda then went there and no line was read).
    own_env = {k: v for k, v in os.environ.items() if not k.startswith("GCOV_PREFIX")}
    subprocess.run([str(build / "a")], cwd=build, check=False, env=own_env)
    assert mt.gcov_lines(build, tree) == {"engine/src/a.cpp": {1, 2, 4, 6}}


@pytest.mark.skipif(shutil.which("g++") is None or shutil.which("gcov") is None, reason="no gcc")
def test_a_refresh_stopped_while_gcov_reads_ends_as_stopped(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # SIGTERM kills the runs under way, gcov among them: its JSON is cut mid-line. Seen: the
    # refresh ended in "internal error: JSONDecodeError" instead of "refresh stopped". Planted:
    # the cut output parsed.
    tree = tmp_path.resolve()
    (tree / "engine" / "src").mkdir(parents=True)
    (tree / "engine" / "src" / "a.cpp").write_text("int main() {\n  return 0;\n}\n")
    build = tree / "build"
    build.mkdir()
    subprocess.run(["g++", "--coverage", "-O0", "../engine/src/a.cpp", "-o", "a"], cwd=build)
    prefix = tmp_path / "prefix"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GCOV_PREFIX")}
    subprocess.run([str(build / "a")], env=env | {"GCOV_PREFIX": str(prefix)}, check=True)
    cut = mt.Ran(-9, '{"format_version": "1", "files": [{"file": "../engine/src/a.c', 0.1)
    monkeypatch.setattr(mt, "run", lambda *a, **k: cut)
    monkeypatch.setattr(mt, "_GCOV_READ", {})
    mt.STOPPING.set()
    try:
        assert mt.gcov_lines_by_prefix([prefix], tree) == {prefix: {}}
    finally:
        mt.STOPPING.clear()


def test_baseline_times_from_junit(mt: ModuleType, tmp_path: Path):
    ctest = tmp_path / "ctest.xml"
    ctest.write_text(
        '<testsuite><testcase name="a b" classname="a b" time="1.5" status="run"/>'
        '<testcase name="c" classname="c" time="0" status="fail"><failure message="x"/></testcase>'
        '<testcase name="d" classname="d" time="0" status="notrun"><skipped/></testcase>'
        "</testsuite>"
    )
    assert mt.junit_times(ctest) == {"a b": (True, 1.5), "c": (False, 0.0), "d": (False, 0.0)}
    pytest_xml = tmp_path / "pytest.xml"
    pytest_xml.write_text(
        '<testsuites><testsuite><testcase classname="tests.test_x" name="t1" time="2"/>'
        '<testcase classname="tests.test_x" name="t2" time="1"><skipped message="s"/></testcase>'
        '<testcase classname="tests.test_y" name="t" time="1"><failure message="f"/></testcase>'
        "</testsuite></testsuites>"
    )
    assert mt.junit_times(pytest_xml) == {
        "tests.test_x::t1": (True, 2.0),
        "tests.test_x::t2": (True, 1.0),  # a skip is no failure
        "tests.test_y::t": (False, 1.0),
    }


def test_python_tests_are_found_through_stkref_imports(mt: ModuleType, tmp_path: Path):
    """A mutant of a module the tests reach only through another stkref module (spec.py through
    quantize.py) is run against those tests, not reported as seen by none (a survivor that was
    never tested); conftest.py's imports count for the tests that import from it."""
    pkg, tests = tmp_path / "harness/python/stkref", tmp_path / "harness/python/tests"
    pkg.mkdir(parents=True)
    tests.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "spec.py").write_text("SCALE = 16\n")
    (pkg / "quantize.py").write_text("from .spec import SCALE\n")
    (pkg / "alone.py").write_text("X = 1\n")
    (pkg / "plot.py").write_text("Y = 2\n")
    (tests / "conftest.py").write_text("from stkref import plot\n")
    (tests / "test_quantize.py").write_text("from stkref.quantize import SCALE\n")
    (tests / "test_other.py").write_text("import json\n")
    (tests / "test_fixture.py").write_text("from conftest import thing\n")
    rel = "harness/python/tests/"
    assert mt.python_tests_for(tmp_path, "harness/python/stkref/spec.py") == (
        [rel + "test_quantize.py"],
        True,
    )
    assert mt.python_tests_for(tmp_path, "harness/python/stkref/plot.py") == (
        [rel + "test_fixture.py"],
        True,
    )
    # No test reaches it: every test file runs, and the mutant is marked not covered.
    files, covered = mt.python_tests_for(tmp_path, "harness/python/stkref/alone.py")
    assert covered is False and len(files) == 3


def test_every_python_package_is_mutated_and_mapped(mt: ModuleType):
    """Each package of harness/python (a folder with __init__.py) is in the default draw and in
    the Python coverage map, so no module is left out of the score by being new (planted:
    stkdist, the Dask runner, was in neither until the twenty-fifth session)."""
    pkg_root = mt.ROOT / "harness" / "python"
    packages = sorted(d.name for d in pkg_root.iterdir() if (d / "__init__.py").is_file())
    assert packages and sorted(mt.PY_PACKAGES) == [p for p in packages if p != "tests"]
    assert sorted(
        g.split("/")[2] for g in mt.DEFAULT_GLOBS if g.startswith("harness/python/")
    ) == sorted(mt.PY_PACKAGES)


def test_python_tests_are_found_through_any_package_s_imports(mt: ModuleType, tmp_path: Path):
    """A module of a later package seen by a test only through a sibling's relative import
    (stkdist's runner through its worker) selects that test (planted: PY_PACKAGES without
    stkdist, whose modules were then read by nobody); a relative import is read in its own
    package only."""
    for path, text in {
        "stkdist/__init__.py": "",
        "stkdist/worker.py": "X = 1\n",
        "stkdist/runner.py": "from .worker import X\n",
        "stkdist/cli.py": "Y = 1\n",
        "stkdist/__main__.py": "from stkdist.cli import Y\n",
        "tests/test_main.py": 'ARGV = ["python", "-m", "stkdist", "match"]\n',
        "stkref/__init__.py": "",
        "stkref/cli.py": "Z = 1\n",
        "stkref/tool.py": "from .cli import Z\nfrom . import worker\n",
        "tests/test_tool.py": "from stkref.tool import Z\n",
        "tests/test_runner.py": "from stkdist.runner import X\n",
        "tests/test_other.py": "import json\n",
    }.items():
        (tmp_path / "harness/python" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "harness/python" / path).write_text(text)
    assert mt.python_tests_for(tmp_path, "harness/python/stkdist/worker.py") == (
        ["harness/python/tests/test_runner.py"],
        True,
    )
    # stkref's relative imports name stkref's modules, never stkdist's of the same short name
    # (planted: read in any module, every test importing stkref chose stkdist/cli.py).
    assert mt.python_tests_for(tmp_path, "harness/python/stkref/cli.py") == (
        ["harness/python/tests/test_tool.py"],
        True,
    )
    # A module reached only by `python -m PACKAGE` (its __main__) selects the tests that run it.
    assert mt.python_tests_for(tmp_path, "harness/python/stkdist/cli.py") == (
        ["harness/python/tests/test_main.py"],
        True,
    )


def test_an_import_is_read_where_python_reads_one_not_in_prose(mt: ModuleType):
    """imports_any: a module named in a comment imports nothing (stkref.inputs' comment naming
    stktrain.train made every stkref importer a test of train.py: 82 files for a mutant that
    11 can see); a name listed in an import's parentheses, quoted (importlib, an argv list) or
    after -m is an import (planted: the bare dotted name anywhere, the old rule)."""
    mods = {"stktrain.train"}
    assert not mt.imports_any("# datagen text read by stktrain.train\n", mods, "stkref.inputs")
    assert not mt.imports_any('"""Written for stktrain.train to read."""\n', mods)
    for text in (
        "import stktrain.train\n",
        "from stktrain.train import main\n",
        "from stktrain import (\n    export,\n    train,\n)\n",
        'importlib.import_module("stktrain.train")\n',
        'cmd = [sys.executable, "-m", "stktrain.train", "--help"]\n',
        "python -m stktrain.train --epochs 1\n",
    ):
        assert mt.imports_any(text, mods), text
    assert not mt.imports_any("from stktrain import (\n    export,\n)\n", mods)


def test_a_test_that_runs_a_ci_script_sees_the_module_the_script_runs(
    mt: ModuleType, tmp_path: Path
):
    """docs/mutation.md step 3: a test that runs a script of ci/ which runs or imports the module
    (runpy.run_module, `-m`) sees it though it imports nothing of it: ci/make-cli-docs.py's test
    ran no stkdev.cli_docs mutant, whose exit-code check then survived. A script named in prose,
    or one that runs another module, selects nothing."""
    pkg = tmp_path / "harness" / "python"
    for d in mt.PY_PACKAGES:
        (pkg / d).mkdir(parents=True)
    (pkg / "stkdev" / "pages.py").write_text("def main():\n    return 0\n")
    (pkg / "stkdev" / "other.py").write_text("")
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "make-pages.py").write_text(
        'import runpy\nrunpy.run_module("stkdev.pages", run_name="__main__")\n'
    )
    (tmp_path / "ci" / "pages.sh").write_text('exec python3 -m stkdev.pages "$@"\n')
    (tmp_path / "ci" / "other.sh").write_text("exec python3 -m stkdev.other\n")
    tests = tmp_path / mt.PY_TESTS
    tests.mkdir(parents=True)
    cases = {
        "test_by_path.py": 'SCRIPT = ROOT / "ci" / "make-pages.py"\n',
        "test_by_string.py": 'subprocess.run(["bash", "ci/pages.sh", "--check"])\n',
        "test_in_prose.py": '"""Checks what ci/make-pages.py writes."""\n',
        "test_other_script.py": 'subprocess.run(["bash", "ci/other.sh"])\n',
    }
    for name, text in cases.items():
        (tests / name).write_text(text)
    found, covered = mt.python_tests_for(tmp_path, "harness/python/stkdev/pages.py")
    assert covered is True
    assert sorted(Path(f).name for f in found) == ["test_by_path.py", "test_by_string.py"]


def test_a_file_s_test_files_are_worked_out_once_a_run(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The importers of a Python file and the binary readers of a C++ file are read from the
    tree once a run, not for every mutant (planted: py_tests back on python_tests_for each
    time, 1.3 s a mutant, 27 minutes before a 1,255-mutant draw's first mutant); the answer
    handed out is a copy, so a caller's edit leaves the next mutant's selection whole."""
    calls: list[tuple[str, str]] = []

    def importers(tree: Path, file: str) -> tuple[list[str], bool]:
        calls.append(("py", file))
        return [f"test_{Path(file).stem}.py"], True

    def readers(tree: Path, file: str) -> list[str]:
        calls.append(("cpp", file))
        return [f"test_{Path(file).stem}_run.py"]

    monkeypatch.setattr(mt, "python_tests_for", importers)
    monkeypatch.setattr(mt, "binary_tests_for", readers)
    runner = mt.Runner(None, mt.CoverageMap(), [types.SimpleNamespace(tree=tmp_path)], {})

    def py(file: str, line: int) -> object:
        return mt.Mutant(f"harness/python/stkref/{file}", line, "op", "x = 1", "x = 2", "py")

    first = runner.py_tests(py("a.py", 1))
    first[0].clear()
    assert runner.py_tests(py("a.py", 7)) == (["test_a.py"], True)
    assert runner.py_tests(py("b.py", 1)) == (["test_b.py"], True)
    assert runner.binary_readers("harness/src/x.cpp") == ["test_x_run.py"]
    runner.binary_readers("harness/src/x.cpp").append("more")
    assert runner.binary_readers("harness/src/x.cpp") == ["test_x_run.py"]
    assert calls == [
        ("py", "harness/python/stkref/a.py"),
        ("py", "harness/python/stkref/b.py"),
        ("cpp", "harness/src/x.cpp"),
    ]


def test_a_setup_error_leaves_an_error_report_not_an_older_pass(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, junit_xsd: Path
):
    """A bad triage line ends the run with exit 2 and a JUnit <error> in place of the earlier
    run's passing report (planted: without write_error_report the old pass stayed)."""
    bad = tmp_path / "triage.txt"
    bad.write_text("only | two\n")
    monkeypatch.setattr(mt, "TRIAGE_FILE", bad)
    report = tmp_path / "out" / "junit" / "mutation-t.xml"
    report.parent.mkdir(parents=True)
    report.write_text('<testsuites tests="1"><testsuite name="mutation.t" tests="1"/></testsuites>')
    assert mt.main(["--config", "t", "--out-dir", str(tmp_path / "out")]) == 2
    text = report.read_text()
    assert "<error" in text and "triage.txt:1" in text, text
    if shutil.which("xmllint"):
        r = subprocess.run(
            ["xmllint", "--noout", "--schema", str(junit_xsd), str(report)],
            capture_output=True,
            text=True,
        )
        assert r.returncode == 0, r.stderr


@pytest.mark.skipif(not shutil.which("g++") or not shutil.which("gcov"), reason="needs g++, gcov")
def test_coverage_of_a_test_under_its_own_gcov_prefix(mt: ModuleType, tmp_path: Path):
    # Tests of a refresh run side by side, each writing counts under its own GCOV_PREFIX: the
    # lines must be read back from there (planted: the prefix dropped, so no line is found, or
    # counts of the other branch reported).
    src = tmp_path / "engine" / "src" / "a.cpp"
    src.parent.mkdir(parents=True)
    program = [
        "int main(int argc, char**) {",
        "  if (argc > 1)",
        "    return 1;",
        "  return 0;",
        "}",
    ]
    src.write_text("\n".join(program) + "\n")
    obj = tmp_path / "build"
    obj.mkdir()
    subprocess.run(
        ["g++", "-O0", "--coverage", "-o", str(obj / "a"), str(src)], cwd=obj, check=True
    )
    prefix = tmp_path / "prefix"
    env = os.environ | {"GCOV_PREFIX": str(prefix), "GCOV_PREFIX_STRIP": "0"}
    subprocess.run([str(obj / "a")], env=env, check=True)
    assert not list(obj.rglob("*.gcda"))  # written under the prefix, not beside the object
    lines = mt.gcov_lines(prefix, tmp_path)
    assert lines == {"engine/src/a.cpp": {1, 2, 4}}


def _report(tmp_path: Path, name: str, records: list[dict], **meta: object) -> Path:
    doc = {"report": {"config": name}, "head": "0" * 40, "seconds": 60.0, **meta}
    doc["mutants"] = records
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc))
    return path


def _rec(ident: str, outcome: str, module: str = "engine/src", triaged: str = "") -> dict:
    file = "engine/src/a.cpp" if module == "engine/src" else "harness/python/stkref/x.py"
    return {
        "id": f"{file}:{ident}",
        "file": file,
        "line": 1,
        "module": module,
        "operator": "< ==> >",
        "original": "if (a < b)",
        "mutated": f"if (a > b + {ident})",
        "outcome": outcome,
        "triaged": triaged,
        "tests": [],
        "diff": "",
    }


def test_rerun_takes_the_untriaged_survivors(mt: ModuleType, tmp_path: Path, capsys):
    recs = [_rec("1", "survived"), _rec("2", "not-covered"), _rec("3", "killed")]
    recs.append(_rec("4", "survived", triaged="accepted"))
    wanted = mt.survivors_of([str(_report(tmp_path, "run", recs))])
    assert set(wanted) == {"engine/src/a.cpp"}
    assert sorted(wanted["engine/src/a.cpp"].values()) == [
        "engine/src/a.cpp:1",
        "engine/src/a.cpp:2",
    ]
    # a survivor triaged since its run is not run again
    accepted = mt.TriageEntry("engine/src/a.cpp", "< ==> >", "if (a < b)", "ok", "t:1")
    assert mt.survivors_of([str(tmp_path / "run.json")], [accepted]) == {}
    # matched by text: a mutant whose line moved (an edit above it) is found again; one whose
    # line text HEAD no longer has is gone
    moved = _mutant(mt, "", 40)
    moved.mutated = "if (a > b + 1)"
    assert moved.ident != "engine/src/a.cpp:1"
    picked = mt.rerun_selection([moved, _mutant(mt, "", 41)], wanted)
    assert picked == [moved]
    assert "engine/src/a.cpp:2 is gone" in capsys.readouterr().out
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(mt.SetupError, match="bad.json: not a mutation report"):
        mt.survivors_of([str(tmp_path / "bad.json")])
    with pytest.raises(mt.SetupError, match="--rerun takes its mutants from the reports"):
        mt.parse_args(["--rerun", str(tmp_path / "bad.json"), "--sample", "3"])


def test_a_run_without_the_shared_folder_is_refused_before_any_build(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # Without STK_SHARED's schema and suites, 35 tests failed unmutated in a fresh clone, were
    # left out of every selection, and a mutant only they kill was reported as a survivor.
    monkeypatch.setenv("STK_SHARED", str(tmp_path / "no-shared"))
    out = tmp_path / "out"
    args = ["--files", "engine/src/bench.cpp", "--sample", "1", "--seed", "1", "--config", "t"]
    assert mt.main([*args, "--out-dir", str(out)]) == 2
    xml = (out / "junit" / "mutation-t.xml").read_text()
    assert "<error" in xml and "holds no schemas/junit.xsd" in xml
    with pytest.raises(mt.SetupError, match="STK_SHARED=''"):
        mt.require_shared({})
    schema = tmp_path / "shared" / "schemas" / "junit.xsd"
    schema.parent.mkdir(parents=True)
    schema.write_text("<xs:schema/>")
    mt.require_shared({"STK_SHARED": str(tmp_path / "shared")})


def test_a_run_with_nothing_to_run_still_writes_its_report(
    mt: ModuleType, tmp_path: Path, junit_xsd: Path
):
    # A rerun whose every mutant is gone (its fix rewrote the line) ran nothing and wrote no
    # report: the campaign could not mark the mutant gone, and a CI step would read an earlier
    # run's report as this one's (planted: the early return without a report).
    rec = dict(_rec("1", "survived"), file="engine/src/bench.cpp", id="engine/src/bench.cpp:1")
    rec["original"] = "if (no_such < line_in_bench)"
    first = _report(tmp_path, "first", [rec])
    out = tmp_path / "out"
    stale = out / "mutation" / "t.json"
    stale.parent.mkdir(parents=True)
    stale.write_text('{"mutants": [{"id": "from an earlier run"}]}')
    assert mt.main(["--rerun", str(first), "--config", "t", "--out-dir", str(out)]) == 0
    doc = json.loads(stale.read_text())
    assert doc["mutants"] == [] and doc["complete"] is True
    # every count the review page reads, zero (planted: no total row without records, and the
    # review page listed the report among its input problems)
    total = doc["modules"]["total"]
    assert [total[k] for k in ("killed", "survived", "not-covered", "triaged")] == [0, 0, 0, 0]
    assert total["score"] is None
    assert doc["asked"] == [mt.mutants_report.text_key(rec)]
    xml = out / "junit" / "mutation-t.xml"
    if shutil.which("xmllint"):
        r = subprocess.run(
            ["xmllint", "--noout", "--schema", str(junit_xsd), str(xml)], capture_output=True
        )
        assert r.returncode == 0, r.stderr


@pytest.fixture
def campaign() -> ModuleType:
    from stkmutation import campaign as mutation_campaign

    return mutation_campaign


def test_campaign_merges_reruns_over_first_runs(campaign: ModuleType, tmp_path: Path, capsys):
    # First run: engine 2 of 4 killed, stkref 1 of 2; a rerun after fixes kills one engine
    # survivor and no longer makes the other (its line changed): the engine reads 100% after
    # closing, but the verdict is the first run's (50%, short of 95%), as is stkref's. Planted:
    # the rerun's score deciding (the engine would meet its target).
    first = [_rec("1", "killed"), _rec("2", "killed"), _rec("3", "survived"), _rec("4", "survived")]
    first += [_rec("5", "killed", "stkref/x"), _rec("6", "survived", "stkref/x")]
    a = _report(tmp_path, "cpp", first, command="ci/mutation.sh --sample 6")
    b = _report(
        tmp_path,
        "rerun",
        [_rec("3", "killed")],
        asked=[campaign.mutants_report.text_key(_rec(i, "")) for i in ("3", "4")],
        command="ci/mutation.sh --rerun cpp.json",
    )
    doc = tmp_path / "campaign.md"
    out = tmp_path / "reports"
    rc = campaign.main(
        ["--report", str(a), "--report", str(b), "--out-dir", str(out), "--doc", str(doc)]
    )
    assert rc == 0
    page = doc.read_text()
    assert "| `engine/src` | 50.0% [15.0, 85.0] of 4 | 95% | **short** | 100.0% |" in page
    assert "| `stkref/x` | 50.0% [9.5, 90.5] of 2 | 85% | **short** | 50.0% |" in page
    assert "Modules short of their target: `engine/src`, `stkref/x`." in page
    assert "1 mutants are gone" in page
    assert "`ci/mutation.sh --rerun cpp.json`" in page
    merged = json.loads((out / "mutation" / "campaign.json").read_text())
    assert merged["missing_targets"] == ["engine/src", "stkref/x"]
    assert len(merged["mutants"]) == 5  # the gone one is out
    assert campaign.main(["--report", str(a), "--out-dir", str(out), "--fail-on-target"]) == 1
    # bad input: exit 2 (a SetupError, said in one line, no traceback) and the passing merged
    # JUnit replaced by an <error>
    xml = out / "junit" / "mutation-campaign.xml"
    assert "<error" not in xml.read_text()
    assert campaign.main(["--report", str(tmp_path / "nothing.json"), "--out-dir", str(out)]) == 2
    assert "--report: " in (err := capsys.readouterr().err) and "nothing.json: cannot open" in err
    assert "<error" in xml.read_text() and "nothing.json" in xml.read_text()


def test_campaign_shows_a_stopped_run_as_stopped(campaign: ModuleType, tmp_path: Path):
    # A run stopped by SIGTERM keeps its report (complete false) with the rest skipped: the page
    # says how many ran, and counts the rest as not run (planted: a stopped run of 3 of 4 shown
    # as 4 mutants, its skipped one among the campaign's mutants as if it had run).
    recs = [_rec("1", "killed"), _rec("2", "killed"), _rec("3", "survived", triaged="ok")]
    recs.append(_rec("4", "skipped"))
    a = _report(tmp_path, "seed2", recs, complete=False, done=3, command="ci/mutation.sh x")
    doc = tmp_path / "campaign.md"
    assert campaign.main(["--report", str(a), "--out-dir", str(tmp_path), "--doc", str(doc)]) == 0
    page = doc.read_text()
    assert "| `seed2` | `ci/mutation.sh x` | 0000000000 | 3 of 4 (stopped) |" in page
    assert "4 distinct mutants (1 of them not run: the rest of a stopped run)" in page


def test_two_runs_never_share_a_scratch_clone(mt: ModuleType, tmp_path: Path, monkeypatch):
    # A second run on one machine (a campaign beside a diff run) takes the next free clone
    # instead of building and testing in the first run's (planted: no lock, both get job0).
    monkeypatch.setattr(mt, "ROOT", tmp_path)
    first = mt.free_clones(1, "HEAD", 1, {})
    second = mt.free_clones(2, "HEAD", 1, {})
    assert [j.tree.name for j in first] == ["job0"]
    assert [j.tree.name for j in second] == ["job1", "job2"]
    assert mt.lock_clone("coverage") is not None
    for j in first:
        j.lock.close()  # the first run ends: its clone is free again
    assert [j.tree.name for j in mt.free_clones(1, "HEAD", 1, {})] == ["job0"]


def test_a_cpp_survivor_of_ctest_meets_the_end_to_end_tests(mt: ModuleType, tmp_path: Path):
    # CTest alone let harness defects through that only a pytest run of the binary sees (a fault
    # injected under stk-harness, a datagen run): those files are the second stage, chosen by
    # the binary they run and, for a command, by its name.
    tests = tmp_path / mt.PY_TESTS
    tests.mkdir(parents=True)
    (tests / "test_a.py").write_text('H = os.environ["STK_HARNESS"]  # runs datagen\n')
    (tests / "test_b.py").write_text('H = os.environ["STK_HARNESS"]\n')
    (tests / "test_c.py").write_text('E = os.environ["STK_ENGINE"]\n')
    (tests / "test_d.py").write_text("import stkref\n")
    names = lambda f: [Path(t).name for t in mt.binary_tests_for(tmp_path, f)]  # noqa: E731
    assert names("harness/src/commands/datagen/datagen.cpp") == ["test_a.py"]
    assert names("harness/src/commands/match/match.cpp") == ["test_a.py", "test_b.py"]
    assert names("harness/src/report/junit.cpp") == ["test_a.py", "test_b.py"]
    # a test of every command's help (docs/cli.md) meets every command's mutants (planted: an
    # emptied option description of checknet survived the 2026-12-03 campaign)
    (tests / "test_docs_cli.py").write_text('H = os.environ.get("STK_HARNESS")\n')
    assert names("harness/src/commands/datagen/datagen.cpp") == ["test_a.py", "test_docs_cli.py"]
    # a coverage refresh measures every file that names a binary (binary_test_files)
    assert [Path(f).name for f in mt.binary_test_files(tmp_path)] == [
        "test_a.py",
        "test_b.py",
        "test_c.py",
        "test_docs_cli.py",
    ]
    (tests / "test_docs_cli.py").unlink()
    # an engine file is built into stk-harness too (planted: only STK_ENGINE's files, and the
    # fhmodel feature mutant that fhdump's comparison with stkref kills survived)
    assert names("engine/src/search/search.cpp") == ["test_a.py", "test_b.py", "test_c.py"]
    # ... and run against the clone's binaries, not an STK_HARNESS the caller had set
    job = mt.Job("job0", "HEAD", 1, {})
    env = mt.Runner.py_env(types.SimpleNamespace(env={"STK_HARNESS": "/main/stk-harness"}), job)
    assert env["STK_HARNESS"] == str(job.build_dir / "harness" / "stk-harness")
    assert env["STK_ENGINE"] == str(job.build_dir / "engine" / "stk")


def test_ctest_calls_keep_the_fastest_first_order(mt: ModuleType):
    names = [f"t{i}" for i in range(70)]
    chunks = mt.growing_chunks(names)
    assert [len(c) for c in chunks] == [4, 8, 16, 30, 12]
    assert [n for c in chunks for n in c] == names


def test_a_signal_stops_the_run_gracefully(mt: ModuleType):
    # SIGTERM (a CI job cancelled, a campaign stopped for the night) must not lose the mutants
    # that ran: the handler only asks the run to stop; a second signal is not caught.
    import signal

    try:
        stop = mt.stop_on_signals()
        assert not stop.is_set()
        os.kill(os.getpid(), signal.SIGTERM)
        assert stop.is_set()
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
    finally:
        mt.STOPPING.clear()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)


def test_a_signal_kills_the_tests_under_way_and_starts_no_more(mt: ModuleType, tmp_path: Path):
    # A mutant's second stage runs for minutes; a supervisor follows SIGTERM with SIGKILL after
    # a grace, and a run that waited for the mutants under way lost 3 finished ones (planted:
    # the handler only sets the flag). The test under way dies at once, its mutant has no
    # verdict (stopped_under_way: a killed test is not a killed mutant), none starts after it.
    import signal
    import threading

    out: dict[str, object] = {}

    def mutant_under_way() -> None:
        mt.clear_stopped()
        out["ran"] = mt.run(["sleep", "60"], tmp_path)
        out["stopped"] = mt.stopped_under_way()
        out["next"] = mt.run(["true"], tmp_path)

    try:
        mt.stop_on_signals()
        worker = threading.Thread(target=mutant_under_way)
        t0 = time.monotonic()
        worker.start()
        while not mt._RUNNING and time.monotonic() - t0 < 10:
            time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGTERM)
        worker.join(10)
        assert not worker.is_alive() and time.monotonic() - t0 < 10
        assert out["ran"].code != 0 and out["stopped"] is True
        assert out["next"].code != 0 and "not started" in out["next"].out
        assert not mt._RUNNING
        mt.STOPPING.clear()
        mt.clear_stopped()  # a run that ends by itself is not stopped, failing or not
        assert mt.run(["false"], tmp_path).code == 1 and not mt.stopped_under_way()
    finally:
        mt.STOPPING.clear()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)


def test_a_line_no_test_executes_runs_no_ctest(mt: ModuleType, tmp_path: Path):
    # The map says no CTest test executes the mutated line: the mutant is not-covered without
    # running the binary's every test (planted: the fallback ran 177 tests, 6 minutes).
    class FakeJob(mt.Job):
        def __init__(self) -> None:
            super().__init__("job0", "HEAD", 1, {})
            self.tree, self.build_dir = tmp_path, tmp_path / "build"
            self.build_dir.mkdir()
            (self.build_dir / "a.o").write_bytes(b"old")
            self.objects = {"engine/src/a.cpp": "a.o"}
            self.test_binary = {"t1": "stk-engine-tests", "t2": "stk-engine-tests"}
            self.ctest_calls: list[list[str]] = []

        def ninja(self, targets):
            (self.build_dir / "a.o").write_bytes(b"new")  # the mutant compiles to other code
            return mt.Ran(0, "", 0.0)

        def ctest(self, names, timeout, junit=None, per_test=None):
            self.ctest_calls.append(list(names))
            return mt.Ran(0, "", 0.0)

    cov = mt.CoverageMap("abc", [("t1", "stk-engine-tests"), ("t2", "stk-engine-tests")])
    cov.lines = {"engine/src/a.cpp": {3: [0]}}
    job = FakeJob()
    runner = mt.Runner(None, cov, [job], {})
    uncovered, covered = _mutant(mt, "", 9), _mutant(mt, "", 3)
    runner.baseline([uncovered])
    assert job.ctest_calls == []  # nothing to baseline: its line runs no test
    runner._cpp(job, uncovered)
    assert (uncovered.outcome, uncovered.tests, job.ctest_calls) == ("not-covered", [], [])
    runner._cpp(job, covered)
    assert covered.outcome == "survived" and job.ctest_calls == [["t1"]]


def test_a_source_file_the_fresh_map_lacks_ran_no_test(mt: ModuleType):
    """The map keeps executed lines only: a .cpp it does not hold, unchanged since its commit,
    is a file no CTest test executed, so its mutants run no CTest test (planted: such files
    treated as unknown, and each of compare/output_tail.cpp's mutants ran 304 tests, 450 s).
    The map cannot say for a header (inline code and constants count where included), for a
    file changed since, without a map, or for a constant in a file no test ran a line of (it
    may be read from another file)."""
    cov = mt.CoverageMap("abc", [("t1", "stk-tests"), ("t2", "stk-tests")])
    cov.lines = {"harness/src/a.cpp": {3: [0]}}
    assert cov.covering("harness/src/a.cpp", 3) == ["t1"]
    assert cov.covering("harness/src/a.cpp", 4) == []
    assert cov.covering("harness/src/b.cpp", 7) == []
    assert cov.covering("harness/src/b.h", 7) is None
    cov.stale = {"harness/src/b.cpp"}
    assert cov.covering("harness/src/b.cpp", 7) is None
    assert mt.CoverageMap().covering("harness/src/b.cpp", 7) is None

    cov.stale = set()
    job = types.SimpleNamespace(test_binary={"t1": "stk-tests", "t2": "stk-tests"})
    runner = mt.Runner(None, cov, [job], {})

    def mutant(file: str, original: str) -> object:
        return mt.Mutant(file, 7, "op", original, original + " ", "cpp")

    assert runner.cpp_tests(mutant("harness/src/b.cpp", "  x = f(y);")) == (["t1", "t2"], False)
    table = "  constexpr int kTable[3] = {1, 2, 3};"
    assert mt.DATA_LINE.match(table)
    assert runner.cpp_tests(mutant("harness/src/b.cpp", table)) == (["t1", "t2"], None)
    assert runner.cpp_tests(mutant("harness/src/a.cpp", table)) == (["t1"], None)


def test_tests_added_since_the_map_always_run(mt: ModuleType, tmp_path: Path):
    # A gap closed by a new test: the map (made before it) does not name it, yet it must run,
    # or the rerun reports the closed gap as a survivor again.
    cov = mt.CoverageMap("abc", [("t1", "stk-engine-tests"), ("t2", "stk-engine-tests")])
    cov.lines = {"engine/src/a.cpp": {3: [0]}}
    job = mt.Job("job0", "HEAD", 1, {})
    job.test_binary = {
        "t1": "stk-engine-tests",
        "t2": "stk-engine-tests",
        "new": "stk-engine-tests",
    }
    runner = mt.Runner(None, cov, [job], {})
    assert runner.cpp_tests(_mutant(mt, "", 3)) == (["t1", "new"], True)
    assert runner.cpp_tests(_mutant(mt, "", 9)) == (["new"], None)  # no mapped test: the new one
    job.test_binary.pop("new")
    assert runner.cpp_tests(_mutant(mt, "", 9)) == (["t1", "t2"], False)


def test_a_data_line_runs_the_tests_of_its_file(mt: ModuleType):
    # gcov instruments statements, not constant tables: `constexpr Score kMobility[6] = {...}`
    # is in no test's lines although the evaluation reads it on every call. The campaign called
    # its mutant not-covered without running a test (planted: the data-line rule removed).
    cov = mt.CoverageMap(
        "abc", [("t1", "stk-engine-tests"), ("t2", "stk-engine-tests"), ("t3", "stk-tests")]
    )
    cov.lines = {"engine/src/a.cpp": {3: [0], 8: [0, 2]}}
    job = mt.Job("job0", "HEAD", 1, {})
    job.test_binary = {"t1": "stk-engine-tests", "t2": "stk-engine-tests", "t3": "stk-tests"}
    runner = mt.Runner(None, cov, [job], {})

    def at(line: int, text: str) -> object:
        return mt.Mutant("engine/src/a.cpp", line, "4 ==> 5", text, text, "cpp")

    table = "constexpr Score kMobility[6] = {{0, 0}, {4, 4}, {5, 5}, {2, 4}, {1, 2}, {0, 0}};"
    assert runner.cpp_tests(at(20, table)) == (["t1", "t3"], None)  # the file's tests
    assert runner.cpp_tests(at(21, "  {30, 55}, {50, 90}, {80, 130}, {0, 0}};")) == (
        ["t1", "t3"],
        None,
    )
    assert runner.cpp_tests(at(22, "static const int kLimit = 40;")) == (["t1", "t3"], None)
    # a statement no test executed stays not covered
    assert runner.cpp_tests(at(23, "  if (a < b) return 4;")) == (["t1", "t2", "t3"], False)
    for text in (table, "constexpr int kTempo = 15;", "{1, 2},", "  {0, 0}};"):
        assert mt.DATA_LINE.match(text), text
    for text in ("  x = f(4);", "  return {a, b};", "  if (x) {", "int f(int a, int b) {"):
        assert not mt.DATA_LINE.match(text), text


def test_a_member_default_runs_the_tests_of_its_file(mt: ModuleType):
    # `int depth = 0;` in a struct runs in the compiler-made constructor, whose lines gcov never
    # reports: the map names no test for it although every construction runs it. Like a
    # constant's row, it takes the tests that ran its file, CTest and pytest alike; a local
    # declaration no test ran stays not covered. Planted: the member rule removed
    # (uncounted_data back to DATA_LINE alone).
    text = (
        "struct Signature {\n"  # 1
        "  int depth = 0;\n"  # 2
        "};\n"  # 3
        "int f(int a) {\n"  # 4
        "  int worst = 0;\n"  # 5
        "  return a;\n"  # 6
        "}\n"
    )
    py = "harness/python/tests/test_sig.py"
    tests = [("t1", "stk-tests"), ("t2", "stk-tests"), (mt.PYTEST_PREFIX + py, mt.PYTEST_BINARY)]
    cov = mt.CoverageMap("abc", tests)
    cov.lines = {"harness/src/sig.cpp": {6: [0, 2]}}
    job = types.SimpleNamespace(test_binary={"t1": "stk-tests", "t2": "stk-tests"}, tree=Path("/x"))
    sources = types.SimpleNamespace(text=lambda f: text)
    runner = mt.Runner(sources, cov, [job], {})

    def at(line: int) -> object:
        original = text.splitlines()[line - 1]
        return mt.Mutant("harness/src/sig.cpp", line, "op", original, original + " ", "cpp")

    assert runner.cpp_tests(at(2)) == (["t1"], None)
    assert runner.pytest_selection(at(2), [py]) == [py]
    assert runner.cpp_tests(at(5)) == (["t1", "t2"], False)  # every test, not covered
    assert runner.pytest_selection(at(5), [py]) == []


LOOPS = """\
int f(const std::vector<int>& v) {
  int s = 0;
  for (int x : v) {
    if (x < 0) {
      s -= x;
    }
    s += x;
  }
  while (s > 100)
  {
    s /= 2;
  }
  do {
    s += 1;
  } while (s < 3);
  for (int x : v) {
    const char* t = "}";
    s += t[0] + x;
  }
  for (int x : v) {
    s += x;  // a closing brace in a comment: }
  }
  return s;
}
"""


def test_a_continue_ending_a_loop_body_is_equivalent(mt: ModuleType):
    # universalmutator inserts `continue;` after any line; after the last statement of a loop
    # body the loop continues anyway, yet the object differs in layout, so the mutant survived
    # (review_svg.cpp) instead of being equivalent. Inside an inner if, or after the loop, it is
    # a real mutant (planted: the rule made true for every `}` that follows).
    def at(line: int, rule: str = "(^\\s*)(\\S+.*)\\n ==> \\1\\2\\n\\1continue;\\n") -> bool:
        m = mt.Mutant("engine/src/f.cpp", line, rule, "", "", "cpp")
        return mt.continue_ends_loop_body(LOOPS, m)

    assert at(7)  # s += x; closes the for body
    assert at(11)  # while with its brace on the next line
    assert at(14)  # do ... while
    assert at(18)  # braces inside a string literal are not counted
    assert at(21)  # nor inside a comment
    assert not at(5)  # the last statement of an if inside the loop: skips s += x
    assert not at(6)  # after the if block: s += x still follows
    assert not at(2)  # not in a loop
    assert not at(23)  # return s; closes the function
    assert not at(7, "(^\\s*)(\\S+.*)\\n ==> \\1\\2\\n\\1break;\\n")  # break ends the loop


BRANCHES = """\
int g(const std::vector<int>& v) {
  int s = 0;
  for (int x : v) {
    if (x > 0) {
      s += x;
    } else if (x < -5) {
      s -= x;
    } else {
      s = 0;
    }
  }
  for (int x : v) {
    if (x > 0) {
      s += x;
    }
    s *= 2;
  }
  for (int x : v) {
    {
      s += x;
    }
  }
  for (int x : v) {
    switch (x) {
      case 1:
        s += 1;
    }
  }
  for (int x : v) {
    if (x > 0)
      s += x;
    else
      s -= x;
  }
  return s;
}
"""


def test_a_continue_ending_a_branch_that_ends_a_loop_body_is_equivalent(mt: ModuleType):
    # show_bytes (network.cpp): `continue;` after the printable branch's last statement, the
    # if/else the last statement of the loop body: the loop continues there anyway, and the
    # mutant survived a campaign. The rest of an else chain is skipped on the way out, a plain
    # scope is left; a statement after the if or a switch (its cases fall through) keeps the
    # mutant real (planted: a branch's closing brace taken as the loop's, whatever follows).
    def at(line: int) -> bool:
        rule = "(^\\s*)(\\S+.*)\\n ==> \\1\\2\\n\\1continue;\\n"
        return mt.continue_ends_loop_body(
            BRANCHES, mt.Mutant("engine/src/g.cpp", line, rule, "", "", "cpp")
        )

    assert at(5) and at(7) and at(9)  # each branch of the chain
    assert at(20)  # a plain scope that ends the body
    assert not at(14)  # s *= 2 follows the if
    assert not at(26)  # a case of a switch: the next case would run
    assert not at(31)  # a braceless branch: `else` follows, not the loop's end
    assert at(33)  # after a braceless else: the continue follows the whole if, at the body's end


CAMPAIGN_PAGES = sorted(p.name for p in (ROOT / "docs").glob("mutation-campaign*.md"))


@pytest.mark.parametrize("name", CAMPAIGN_PAGES)
def test_the_committed_campaign_page_regenerates_from_committed_reports(
    campaign: ModuleType, tmp_path: Path, name: str
):
    # The campaign's page is generated: the reports it was made from are committed beside it
    # (docs/mutation-runs/), and the command on its first line, run again on them with today's
    # triage file, writes the same page. Found when the reports under the ignored reports/ were
    # gone with their checkout and the page could be neither checked nor extended.
    import re
    import shlex

    page = ROOT / "docs" / name
    text = page.read_text()
    found = re.search(r"Generated by `ci/mutation\.sh campaign (.+?)` from", text)
    assert found, "the page names the command that generated it"
    args = shlex.split(found.group(1))
    reports = [args[i + 1] for i, a in enumerate(args) if a == "--report"]
    assert reports and all(r.startswith("docs/mutation-runs/") for r in reports), reports
    tracked = subprocess.run(
        ["git", "ls-files", "--error-unmatch", *reports], cwd=ROOT, capture_output=True, text=True
    )
    assert tracked.returncode == 0, tracked.stderr
    doc_at = args.index("--doc") + 1
    assert args[doc_at] == f"docs/{name}"
    again = tmp_path / "page.md"
    args[doc_at] = str(again)
    if "--out-dir" not in args:
        args += ["--out-dir", ""]
    out_at = args.index("--out-dir") + 1
    out_was, args[out_at] = args[out_at], str(tmp_path / "out")
    cwd = Path.cwd()
    try:
        os.chdir(ROOT)
        assert campaign.main(args) in (0, 1)
    finally:
        os.chdir(cwd)
    regenerated = again.read_text().replace(f"--doc {again}", f"--doc docs/{name}")
    regenerated = regenerated.replace(
        f" --out-dir {tmp_path / 'out'}", f" --out-dir {out_was}" if out_was else ""
    )
    assert regenerated == text, f"docs/{name} is stale: run the command on its line 3"


@pytest.mark.parametrize(
    ("module", "killed", "scored", "verdict"),
    [
        ("stkref/x", 17, 20, "meets"),  # 85.0% of 20: at the target, enough scored
        ("stkref/x", 16, 20, "**short**"),  # 80.0%: one survivor more
        ("stkref/x", 19, 19, "too few (need 20)"),  # 100%, one mutant short of meaning it
        ("engine/src", 19, 20, "meets"),  # 95.0% of 20: the engine's target exactly
        ("engine/src", 18, 19, "**short**"),  # 94.7%
    ],
)
def test_a_module_meets_its_target_on_the_first_run_with_20_scored(
    campaign: ModuleType, module: str, killed: int, scored: int, verdict: str
):
    recs = [_rec(str(i), "killed", module) for i in range(killed)]
    recs += [_rec(str(i), "survived", module) for i in range(killed, scored)]
    rows = campaign.scored(recs)
    # After closing every survivor the score would read 100%: it never decides.
    after = campaign.scored([dict(r, outcome="killed") for r in recs])
    lines, missing = campaign.target_table(rows, after, 95.0, 85.0)
    row = next(line for line in lines if line.startswith(f"| `{module}`"))
    assert f"| {verdict} |" in row and row.endswith("| 100.0% |")
    assert f" of {scored} |" in row
    assert missing == ([] if verdict == "meets" else [module])


# ---- hopeless C++ mutants: each shape refused, and its nearest compilable neighbour kept -------

LOOP = "void f(int n) {\n  for (int i = 0; i < n; ++i) {\n    g(i);\n  }\n  h();\n}\n"


@pytest.mark.parametrize(
    ("rule", "old", "new", "hopeless"),
    [
        # a binary operator: spaced is one, unspaced is a template bracket or a declarator
        ("< ==> <=", "if (a < b) f();", "if (a <= b) f();", False),
        ("< ==> <=", "std::vector<int> v;", "std::vector<=int> v;", True),
        (r"\* ==> +", "int x = a * b;", "int x = a + b;", False),
        (r"\* ==> +", "ExtMove* list = p;", "ExtMove+ list = p;", True),
        # part of a longer operator
        ("([^-])> ==> \\1==", "if (a > b) f();", "if (a == b) f();", False),
        ("([^-])> ==> \\1==", "if (a >= b) f();", "if (a === b) f();", True),
        (r"\+ ==> *", "x = a + b;", "x = a * b;", False),
        (r"\+ ==> *", "*list++ = m;", "*list*+ = m;", True),
        # strings joined with +
        (r"\+ ==> -", 'return "a" + name;', 'return "a" - name;', True),
        # numbers: inside a floating literal, after a sign, at the end of a name
        (r"(\D)(\d+)(\D) ==> \1(\2+1)\3", "double x = 1.5;", "double x = (1+1).5;", True),
        (r"(\D)(\d+)(\D) ==> \1(\2+1)\3", "int x = 1;", "int x = (1+1);", False),
        (r"(\D)(\d+)(\D) ==> \g<1>-1\3", "v = -1;", "v = --1;", True),
        (r"(\D)(\d+)(\D) ==> \g<1>-1\3", "f(elo1);", "f(elo-1);", True),
        (r"(\D)(\d+)(\D) ==> \g<1>-1\3", "f(1);", "f(-1);", False),
        # quotes and parentheses left unpaired
        ('".+" ==> ""', 'f("a");', 'f("");', False),
        ('".+" ==> ""', 'f("a" + x + "b");', 'f("");', True),
        (r"\s.*&& ==>  (1==1) &&", "if (f(a && b)) g();", "if (1==1) && b)) g();", True),
        # member at() only
        (r"at(\(.*\)) ==> at(0)", "x = v.at(i);", "x = v.at(0);", False),
        (r"at(\(.*\)) ==> at(0)", "fmt::format(s);", "fmt::format(0);", True),
    ],
)
def test_hopeless_cpp_refuses_shapes_that_cannot_compile(
    mt: ModuleType, rule: str, old: str, new: str, hopeless: bool
):
    assert mt.hopeless_cpp(rule, old, new, (False, False)) is hopeless


def test_break_and_continue_only_where_a_loop_is_open(mt: ModuleType):
    jumps = mt.jump_contexts(LOOP)
    # line 3 `g(i);` is in the loop (the `;` of the for header does not end it); line 5 is not
    assert jumps[2] == (True, True) and jumps[4] == (False, False)
    rule = r"(^\s*)(\S+.*)\n ==> \1\2\n\1continue;\n"
    assert not mt.hopeless_cpp(rule, "    g(i);", "    g(i);\n    continue;", jumps[2])
    assert mt.hopeless_cpp(rule, "  h();", "  h();\n  continue;", jumps[4])
    switch = mt.jump_contexts("void f(int k) {\n  switch (k) {\n    case 1:\n      g();\n  }\n}\n")
    assert switch[3] == (False, True)  # break, not continue


@pytest.mark.parametrize(
    ("old", "prev", "hopeless"),
    [
        ("  g(i);", "int x = 0;", False),
        ("  Square s = pop_lsb(b);", "{", True),  # declares a name used later
        ("  return x;", "{", False),
        ("  if (stop) {", ";", True),  # opens a block
        ("      b);", "f(a,", True),  # continues the statement above
    ],
)
def test_a_line_is_commented_out_only_when_it_is_a_whole_statement(
    mt: ModuleType, old: str, prev: str, hopeless: bool
):
    rule = r"(^\s*)(\S+[^{}]+.*)\n ==> \1/*\2*/\n"
    body = old.strip()
    new = old[: len(old) - len(old.lstrip())] + f"/*{body}*/"
    assert mt.hopeless_cpp(rule, old, new, (False, False), prev) is hopeless


def test_syntax_check_passes_over_a_mutant_that_does_not_compile(mt: ModuleType, tmp_path: Path):
    # A one-file compile database; the check must keep a compiling mutant, refuse one that does
    # not, and count both. Planted: a check that never refuses (every mutant compiles).
    if not shutil.which("c++"):
        pytest.skip("no C++ compiler")
    src = tmp_path / "src" / "a.cpp"
    src.parent.mkdir()
    src.write_text("int f(int a, int b) { return a < b; }\n")
    build = tmp_path / "build"
    build.mkdir()
    entry = {
        "directory": str(build),
        "file": str(src),
        "command": f"c++ -std=c++20 -o a.o -c {src}",
    }
    (build / "compile_commands.json").write_text(json.dumps([entry]))
    check = mt.SyntaxCheck(tmp_path, build)
    good = mt.Mutant("src/a.cpp", 1, "< ==> <=", "", "", "cpp")
    original = src.read_text()
    assert check.viable(good, original, original.replace("<", "<="))
    assert not check.viable(good, original, original.replace("return", "retrun"))
    assert (check.passed, check.rejected) == (1, 1)
    # no database: nothing is refused (the build decides)
    assert mt.SyntaxCheck(tmp_path, tmp_path / "none").viable(good, original, "junk")
    # The verdicts kept for the next shard of the same draw answer without a compiler, and a
    # verdict is never reused for another text.
    cache = tmp_path / "cache.json"
    first = mt.SyntaxCheck(tmp_path, build, cache=cache)
    assert not first.compiles("src/a.cpp", original.replace("return", "retrun"))
    first.save()
    again = mt.SyntaxCheck(tmp_path, build, cache=cache)
    assert not again.compiles("src/a.cpp", original.replace("return", "retrun"))
    assert again.seconds == 0.0  # answered from the cache: no compiler ran
    assert again.compiles("src/a.cpp", original.replace("<", ">"))
    assert again.seconds > 0.0


def test_campaign_runs_table_counts_uncompilable_cpp_builds_and_schema(campaign: ModuleType):
    # The throughput target's second half (at most 15% of C++ builds uncompilable) is read off
    # this column: only C++ mutants that reached a build count, Python ones and skipped never.
    def m(file: str, outcome: str, via: str = "") -> dict[str, str]:
        return {"file": file, "outcome": outcome, "via": via}

    doc = {
        "mutants": [
            m("a.cpp", "uncompilable", "alone"),
            m("a.cpp", "killed", "schema"),
            m("b.cpp", "survived", "schema"),
            m("b.cpp", "skipped"),
            m("p.py", "uncompilable"),
        ]
    }
    assert campaign.cpp_builds(doc) == "1 of 3 (33%); 2 on the schema build"
    assert campaign.cpp_builds({"mutants": [m("p.py", "killed")]}) == "-"


def test_resume_keeps_the_verdicts_of_a_stopped_run_of_the_same_selection(
    mt: ModuleType, tmp_path: Path
):
    # A campaign outlives a session: a stopped run goes on from its report. Only the same
    # selection on the same commit may resume (else the kept verdicts are another sample's).
    def mutants() -> list:
        return [
            mt.Mutant("engine/src/a.cpp", i, "< ==> <=", f"x{i}", f"y{i}", "cpp") for i in (3, 7, 9)
        ]

    ms = mutants()
    records = [dict(m.to_json(), outcome=o) for m, o in zip(ms, ("killed", "skipped", "survived"))]
    report = tmp_path / "stopped.json"
    doc = {
        "head": "abc",
        "chosen": [m.ident for m in ms],
        "mutants": records,
        "seconds": 600.0,
        "mutant_seconds": 500.0,
        "command": "ci/mutation.sh --per-module 3",
    }
    report.write_text(json.dumps(doc))
    a = types.SimpleNamespace(resume=str(report))
    fresh = mutants()
    done, earlier = mt.resumed_verdicts(a, "abc", fresh)
    assert done == {ms[0].ident, ms[2].ident}  # the skipped (stopped) one runs again
    assert [m.outcome for m in fresh] == ["killed", "", "survived"]
    assert earlier["mutant_seconds"] == 500.0 and earlier["report"] == str(report)
    with pytest.raises(mt.SetupError, match="HEAD is def"):
        mt.resumed_verdicts(a, "def", mutants())
    with pytest.raises(mt.SetupError, match="not this selection"):
        mt.resumed_verdicts(a, "abc", mutants()[:2])
    assert mt.resumed_verdicts(types.SimpleNamespace(resume=None), "abc", mutants()) == (set(), {})


def test_a_python_operator_that_fails_on_a_clause_makes_no_mutant(mt: ModuleType):
    # cosmic-ray's ExceptionReplacer raises on `except (a.A, b.B):` (found drawing the first
    # fresh campaign, which then stopped at its draw): that position makes no mutant.
    text = "def f():\n    try:\n        pass\n    except (os.error, ET.ParseError):\n        pass\n"
    found = [m for m in mt.py_candidates("x.py", text) if m.operator == "core/ExceptionReplacer"]
    assert found
    made = [mt.materialize_py(m, text) for m in found]  # none raises
    assert all(isinstance(ok, bool) for ok in made)


def test_the_report_records_the_run_state_and_leaves_the_options_as_given(mt: ModuleType):
    # The seed the draw used and where it came from, the resumed run's time, the phases: from
    # RunState; the options (a) are not rewritten (a seed given as 'head' stays 'head').
    a = mt.parse_args(["--per-module", "3"])
    assert a.seed == mt.HEAD_SEED
    state = mt.RunState(seed=42, seed_source="HEAD abc")
    t0 = state.phase("draw", 0.0) - 5.0
    state.phase("clones", t0)
    state.earlier = {"report": "r.json", "seconds": 100.0, "mutant_seconds": 40.0}
    meta = mt.run_meta(a, state, "abc", None, [], "", 1, [], False, t0, t0)
    assert (meta["seed"], meta["seed_from"], meta["resumed"]) == (42, "HEAD abc", "r.json")
    assert meta["phases"]["clones"] >= 5.0 and set(meta["phases"]) == {"draw", "clones"}
    assert meta["seconds"] >= 105.0 and meta["mutant_seconds"] >= 45.0
    assert a.seed == mt.HEAD_SEED and mt.default_config(a) == "per-module-3-seed-head"
    # --slots: recorded (J when not given) and named on the page only where it is not J
    assert meta["slots"] == 1 and mt.slots_note(meta) == ""
    more = mt.run_meta(a, state, "abc", None, [], "", 2, [], False, t0, t0, 4)
    assert more["slots"] == 4 and mt.slots_note(more) == ", 4 schema slots"
    assert mt.parse_args(["--slots", "3"]).slots == 3


def test_the_baseline_runs_ctest_on_every_core_and_a_mutant_on_one(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The baseline runs before any mutant, in one clone: CTest -j <all clones' cores> (CI runs
    CTest so); a mutant's tests run one at a time in its own clone (the other clones are busy).
    A real CTest project: with -j 2 both results still reach the JUnit file the times come from."""
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.19)\nproject(t NONE)\nenable_testing()\n"
        'add_test(NAME "a" COMMAND true)\nadd_test(NAME "b" COMMAND false)\n'
    )
    job = mt.Job("job0", "HEAD", 1, dict(os.environ))
    job.tree, job.build_dir = tmp_path, tmp_path / "b"  # no scratch clone in a fresh checkout
    subprocess.run(["cmake", "-S", tmp_path, "-B", job.build_dir], check=True, capture_output=True)
    seen: list[list[str]] = []
    real_run = mt.run

    def spy(cmd: list[str], *args, **kwargs):
        seen.append([str(c) for c in cmd])
        return real_run(cmd, *args, **kwargs)

    monkeypatch.setattr(mt, "run", spy)
    junit = tmp_path / "base.xml"
    job.ctest(["a", "b"], timeout=60, junit=junit, parallel=2)
    assert seen[-1][seen[-1].index("-j") + 1] == "2"
    parts = sorted(tmp_path.glob("base.*.xml"))
    times = {k: v for p in parts for k, v in mt.junit_times(p).items()}
    assert {k: ok for k, (ok, _) in times.items()} == {"a": True, "b": False}
    job.ctest(["a"], timeout=60)
    assert "-j" not in seen[-1]
    runner = mt.Runner.__new__(mt.Runner)
    mt.Runner.__init__(runner, None, mt.CoverageMap.load(tmp_path / "none.json"), [job, job], {})
    assert runner.baseline_parallelism() == 2


STATEMENTS = """int f(int a) {
  int x = a;  // one line
  std::cout << fmt::format("{} {}",
                           a,
                           // a comment inside
                           x)
            << "\\n";
  if (a)
    g(a);

  return x;
}
"""


def test_a_statement_over_lines_is_one_span(mt: ModuleType):
    lines = STATEMENTS.splitlines()
    assert mt.statement_span(lines, 2) == (2, 2)
    assert [mt.statement_span(lines, n) for n in (3, 4, 5, 6, 7)] == [(3, 7)] * 5
    assert mt.statement_span(lines, 9) == (8, 9)  # an if without braces and its statement
    assert mt.statement_span(lines, 11) == (10, 11)  # a blank line ends nothing
    assert mt.statement_span(lines, 1) == (1, 1) and mt.statement_span(lines, 12) == (12, 12)


def test_a_line_gcov_did_not_count_takes_its_statements_tests(mt: ModuleType):
    """gcov counts a statement spread over lines on some of them: a mutant on another of its
    lines runs the tests that executed the statement (planted: such a line ran no test, and
    epd-compare's table format mutants "survived" a model that reads the table). A statement
    no test executed still runs none."""
    cov = mt.CoverageMap("abc", [("t1", "stk-tests"), ("t2", "stk-tests")])
    cov.lines = {"harness/src/a.cpp": {1: [0, 1], 3: [1], 8: [0]}}
    text = STATEMENTS
    assert cov.covering_statement("harness/src/a.cpp", 5, text) == ["t2"]
    assert cov.covering_statement("harness/src/a.cpp", 6, text) == ["t2"]
    assert cov.covering_statement("harness/src/a.cpp", 9, text) == ["t1"]
    assert cov.covering_statement("harness/src/a.cpp", 11, text) == []
    assert cov.covering_statement("harness/src/a.cpp", 1, text) == ["t1", "t2"]
    assert cov.covering_statement("harness/src/b.h", 5, text) is None


def test_commit_measures_that_commit_with_its_seed(mt: ModuleType, capsys):
    # A campaign on one commit goes on over sessions while the work tree moves on: --commit REV
    # draws REV's mutants with REV's seed (planted: the option read but HEAD measured).
    root = Path(mt.__file__).resolve().parents[3]
    prev = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", "HEAD~1^{commit}"],
        cwd=root,
        capture_output=True,
        text=True,
    ).stdout.strip()
    if not prev:
        pytest.skip("a shallow clone: HEAD has no parent here")
    argv = ["--list", "--files", "harness/python/stkref/errors.py", "--per-module", "3"]
    assert mt.main([*argv, "--commit", prev]) == 0
    out = capsys.readouterr().out
    assert f"seed {mt.seed_of_commit(prev)} (from HEAD {prev[:12]})" in out
    assert f"HEAD {prev[:10]}" in out
    assert mt.main([*argv, "--commit=-no-such"]) == 2
    assert "--commit '-no-such': not a git revision" in capsys.readouterr().err
    assert mt.main([*argv, "--commit", "no-such-revision"]) == 2
    assert "--commit 'no-such-revision': names no commit" in capsys.readouterr().err


def test_the_second_stage_runs_the_pytest_files_that_executed_the_line(mt: ModuleType):
    """The map's pytest files (docs/mutation.md "The coverage map"): of the files that run the
    mutant's binary, the second stage keeps those that executed its line and those the map
    cannot speak for (measured after the map, changed since it, or untrusted: failed or counted
    nothing under coverage); where the map cannot say for the line, all of them. The pytest
    files never enter the CTest selection (planted: the new files dropped with the unexecuted)."""
    a, b, c, d = (f"harness/python/tests/test_{x}.py" for x in "abcd")
    tests = [("t1", "stk-tests"), *((mt.PYTEST_PREFIX + f, mt.PYTEST_BINARY) for f in (a, b, c))]
    cov = mt.CoverageMap("abc", tests)
    cov.lines = {"harness/src/x.cpp": {3: [0, 1], 4: [1], 6: [3]}, "harness/src/y.cpp": {5: [2]}}
    cov.untrusted = {mt.PYTEST_PREFIX + c}
    job = types.SimpleNamespace(test_binary={"t1": "stk-tests"}, tree=Path("/nowhere"))
    runner = mt.Runner(None, cov, [job], {})

    def at(line: int, text: str = "  x = f(y);", file: str = "harness/src/x.cpp") -> object:
        return mt.Mutant(file, line, "op", text, text + " ", "cpp")

    named = [a, b, c, d]
    assert runner.pytest_selection(at(3), named) == [a, c, d]  # c untrusted, d new
    assert runner.pytest_selection(at(4), named) == [a, c, d]
    assert runner.pytest_selection(at(9), named) == [c, d]  # no measured file ran the line
    assert runner.pytest_selection(at(3), [b]) == []  # never more than the files named
    cov.stale = {a}
    assert runner.pytest_selection(at(9), named) == [a, c, d]  # a changed since the map
    cov.stale = {"harness/python/tests/conftest.py"}  # may change what every file runs
    assert runner.pytest_selection(at(9), named) == named
    cov.stale = {"harness/python/stkref/engine.py"}
    assert runner.pytest_selection(at(9), named) == named
    cov.stale = {"harness/src/x.cpp"}
    assert runner.pytest_selection(at(9), named) == named  # the map cannot say for the line
    cov.stale = set()
    table = "  constexpr int kTable[3] = {1, 2, 3};"
    assert runner.pytest_selection(at(9, table), named) == [a, c, d]  # the files that ran x.cpp
    assert runner.cpp_tests(at(4)) == (["t1"], False)  # only pytest ran it: no CTest test
    assert runner.cpp_tests(at(3)) == (["t1"], True)
    assert cov.binaries_of("harness/src/x.cpp") == {"stk-tests"}


def test_the_baseline_runs_only_the_pytest_files_a_second_stage_can_choose(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The baseline times the files the second stage may run (pytest_selection of each C++
    mutant), not every file naming the binary: with the pytest map, the others cost minutes of
    baseline for no verdict (planted: the baseline back on binary_tests_for alone)."""
    tests_dir = tmp_path / mt.PY_TESTS
    tests_dir.mkdir(parents=True)
    for x in "abc":
        (tests_dir / f"test_{x}.py").write_text('import os\nos.environ["STK_HARNESS"]\n')
    a, b, c = (f"{mt.PY_TESTS}/test_{x}.py" for x in "abc")
    cov = mt.CoverageMap(
        "abc", [("t1", "stk-tests"), *((mt.PYTEST_PREFIX + f, mt.PYTEST_BINARY) for f in (a, b, c))]
    )
    cov.lines = {"harness/src/x.cpp": {3: [0, 1], 4: [2], 5: [0]}}
    job = types.SimpleNamespace(
        test_binary={"t1": "stk-tests"}, tree=tmp_path, build_dir=tmp_path, build_jobs=1
    )
    job.ctest = lambda *args, **kwargs: None
    runner = mt.Runner(None, cov, [job], {})
    ran: list[list[str]] = []
    monkeypatch.setattr(mt, "run", lambda cmd, *args, **kwargs: ran.append(list(map(str, cmd))))

    def at(line: int) -> object:
        return mt.Mutant("harness/src/x.cpp", line, "op", "  x = f(y);", "  x = f(z);", "cpp")

    def timed(mutants: list) -> list[str]:
        ran.clear()
        runner.baseline(mutants)
        return sorted({f for cmd in ran for f in cmd if f.endswith(".py")})  # a failure: twice

    assert timed([at(3), at(5)]) == [a]
    assert timed([at(3), at(4)]) == [a, b]
    cov.untrusted = {mt.PYTEST_PREFIX + c}  # the map cannot speak for c: it may be chosen
    assert timed([at(5)]) == [c]
    cov.untrusted = set()
    assert timed([at(5)]) == []  # t1 alone executed the line: no pytest file to time
    assert not [cmd for cmd in ran if "pytest" in cmd]


def test_the_pytest_baseline_times_only_the_tests_a_mutant_can_choose_on_every_core(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """The pytest baseline runs what the second stages can run: a file measured test by test
    only for its tests that ran a drawn line, whole where any mutant's selection keeps it whole;
    one pytest per file, as many at a time as cores, largest file first, each in its slot's
    scratch folder; a file's time is the sum of its cases, and a file that left no case (it never ran) is no pass. Planted: the
    baseline back on whole files (model: the union of tests_of_files over the mutants)."""
    tests_dir = tmp_path / mt.PY_TESTS
    tests_dir.mkdir(parents=True)
    for x, pad in zip("abc", (10, 0, 300), strict=True):
        (tests_dir / f"test_{x}.py").write_text(
            'import os\nos.environ["STK_HARNESS"]\n' + "#" * pad
        )
    a, b, c = (f"{mt.PY_TESTS}/test_{x}.py" for x in "abc")
    assert mt.largest_first(tmp_path, [a, b, c, "missing.py"]) == [c, a, b, "missing.py"]
    p = mt.PYTEST_PREFIX
    tests = [
        ("t1", "stk-tests"),
        *((p + f, mt.PYTEST_BINARY) for f in (a, b, c)),
        (p + a + "::test_1", mt.PYTEST_TEST_BINARY),
        (p + a + "::test_2", mt.PYTEST_TEST_BINARY),
        (p + b + "::test_3", mt.PYTEST_TEST_BINARY),
    ]
    cov = mt.CoverageMap("abc", tests)
    # line 3: a's test_1 and b's test_3; line 4: a's test_2 and c (measured whole);
    # line 5: b outside its tests (b stays whole)
    cov.lines = {"harness/src/x.cpp": {3: [0, 1, 2, 4, 6], 4: [0, 1, 3, 5], 5: [2]}}
    job = types.SimpleNamespace(
        test_binary={"t1": "stk-tests"}, tree=tmp_path, build_dir=tmp_path / "b", build_jobs=1
    )
    job.ctest = lambda *args, **kwargs: None
    (tmp_path / "build").mkdir()
    runner = mt.Runner(None, cov, [job, job], {})
    runs: list[tuple[list[str], dict]] = []

    def fake_run(cmd, cwd, env, *args, **kwargs):
        cmd = list(map(str, cmd))
        runs.append((cmd, env))
        xml = Path(next(x for x in cmd if x.startswith("--junitxml=")).split("=", 1)[1])
        cases = []
        for x in cmd:
            if x.endswith(".py") or "::" in x:
                f, _, name = x.partition("::")
                if f != c:  # c's process died before writing a case of it
                    stem = Path(f).stem
                    cases.append(
                        f'<testcase classname="tests.{stem}" name="{name or "t"}" time="2"/>'
                    )
        xml.write_text(f"<testsuites><testsuite>{''.join(cases)}</testsuite></testsuites>")

    monkeypatch.setattr(mt, "run", fake_run)

    def at(line: int) -> object:
        return mt.Mutant("harness/src/x.cpp", line, "op", "  x = f(y);", "  x = f(z);", "cpp")

    assert runner.pytest_baseline_selection([at(3)]) == [a + "::test_1", b + "::test_3"]
    assert runner.pytest_baseline_selection([at(3), at(4)]) == [
        a + "::test_1",
        a + "::test_2",
        b + "::test_3",
        c,
    ]
    assert runner.pytest_baseline_selection([at(3), at(5)]) == [a + "::test_1", b]
    runner.baseline([at(3), at(4)])
    ran = sorted(x for cmd, _ in runs for x in cmd if x.endswith(".py") or "::" in x)
    assert ran == [a + "::test_1", a + "::test_2", b + "::test_3", c, c]  # c again, alone
    files = [{x.split("::")[0] for x in cmd if ".py" in x} for cmd, _ in runs]
    assert sorted(len(f) for f in files) == [1, 1, 1, 1]  # one pytest a file, its tests together
    slots = {str(job.build_dir / "baseline-scratch" / s) for s in "01"}  # two cores: two slots
    assert {env["STK_TEST_SCRATCH"] for _, env in runs} <= slots
    # each slot its own TMPDIR (scratch_env)
    assert (
        len({(env["STK_TEST_SCRATCH"], env["TMPDIR"]) for _, env in runs})
        == len({env["STK_TEST_SCRATCH"] for _, env in runs})
        == len({env["TMPDIR"] for _, env in runs})
    )
    assert runner.py_base[a] == (True, 4.0) and runner.py_base[b] == (True, 2.0)
    assert runner.py_base[c] == (False, 0)  # no case: it never ran


def test_coverage_map_keeps_its_untrusted_files(mt: ModuleType, tmp_path: Path):
    tests = [("t1", "stk-tests"), ("pytest:harness/python/tests/test_a.py", mt.PYTEST_BINARY)]
    cov = mt.CoverageMap("abc", tests, untrusted={"pytest:harness/python/tests/test_a.py"})
    cov.lines = {"harness/src/x.cpp": {3: [0, 1]}}
    cov.write(tmp_path / "cov.json")
    back = mt.CoverageMap.load(tmp_path / "cov.json")
    assert (back.tests, back.lines, back.untrusted) == (cov.tests, cov.lines, cov.untrusted)
    assert back.pytest_mapped() == set()
    (tmp_path / "old.json").write_text(
        json.dumps({"commit": "x", "tests": [], "sets": [], "files": {}})
    )
    assert mt.CoverageMap.load(tmp_path / "old.json").untrusted == set()  # a map made before


def test_a_pytest_file_counts_the_lines_of_the_binaries_it_runs(mt: ModuleType, tmp_path: Path):
    """The refresh's pytest part for real: a --coverage binary that a pytest file starts through
    STK_HARNESS writes its counts under the file's own GCOV_PREFIX (at collection, outside any
    test) or its test's, and gcov reads back the lines they ran, not the others (planted: the
    file's prefix not passed down: the line only collection ran is not counted)."""
    if not shutil.which("g++") or not shutil.which("gcov"):
        pytest.skip("needs g++ and gcov")
    tree, bdir = tmp_path / "tree", tmp_path / "tree" / "build" / "coverage"
    src = tree / "harness" / "src" / "tool.cpp"
    src.parent.mkdir(parents=True)
    src.write_text(
        "int main(int argc, char**) {\n  if (argc > 2)\n    return 5;\n"
        "  if (argc > 1)\n    return 3;\n  return 0;\n}\n"
    )
    (bdir / "harness").mkdir(parents=True)
    obj = bdir / "obj" / "tool.o"
    obj.parent.mkdir()
    subprocess.run(["g++", "--coverage", "-O0", "-c", src, "-o", obj], check=True, cwd=tree)
    subprocess.run(
        ["g++", "--coverage", obj, "-o", bdir / "harness" / "stk-harness"], check=True, cwd=tree
    )
    tests = tree / mt.PY_TESTS
    tests.mkdir(parents=True)
    (tests / "test_runs_it.py").write_text(
        "import os, subprocess\n\n"
        "assert subprocess.run([os.environ['STK_HARNESS'], 'x', 'y']).returncode == 5\n\n"
        "def test_it():\n"
        "    assert subprocess.run([os.environ['STK_HARNESS'], 'x']).returncode == 3\n"
        # The -O0 build's bounds on time (tests/hostile.py): the fault matrix failed without it.
        f"    assert os.environ['STK_TEST_TIME_SCALE'] == '{mt.COVERAGE_TIME_SCALE}'\n"
    )
    file = f"{mt.PY_TESTS}/test_runs_it.py"
    lines, status, by_test = mt.pytest_lines(bdir, tree, file, dict(os.environ))
    assert status == "ok"
    # Not line 6: argc was 2 (the test) or 3 (at collection, the only run of line 3).
    assert lines == {"harness/src/tool.cpp": {1, 2, 3, 4, 5}}
    # The test's own: the blocks it ran (argc 2), not line 3, which only collection ran.
    assert by_test == {f"{file}::test_it": {"harness/src/tool.cpp": {1, 2, 4, 5}}}
    assert not (bdir / "gcov-prefix").exists() or not any((bdir / "gcov-prefix").iterdir())


def test_a_survivor_ci_would_refuse_or_that_changes_nothing_skips_the_second_stage(
    mt: ModuleType, tmp_path: Path
):
    # A survivor of CTest on the schema build is compiled alone as CI builds (-Werror) before its
    # minutes of pytest: a compile CI refuses is uncompilable, HEAD's object byte for byte is
    # equivalent, anything else meets the second stage. Planted: the side compile without
    # -Werror (a mutant that drops a return reaches the second stage as undefined behaviour).
    if not shutil.which("c++"):
        pytest.skip("no C++ compiler")
    from stkmutation import schema_run

    head = "int f(int n) {\n  if (n) return n;\n  return 0;\n}\n"
    tree = tmp_path / "tree"
    (tree / "src").mkdir(parents=True)
    (tree / "src" / "a.cpp").write_text(head)
    args = ["c++", "-std=c++20", "-O1", "-Wall", "-o", "a.o", "-c", str(tree / "src" / "a.cpp")]
    assert subprocess.run(args, cwd=tree).returncode == 0

    class FakeJob:
        objects = {"src/a.cpp": "a.o"}
        baseline_objects = {"a.o": mt.file_digest(tree / "a.o")}
        commands = {"a.o": (args, str(tree))}

        def write(self, path: str, text: str) -> None:
            (tree / path).write_text(text)

        ctest_runs = 0

        def ctest(self, *a: object, **k: object) -> object:
            FakeJob.ctest_runs += 1
            return mt.Ran(0, "", 0.1)

    class FakeRunner:
        env = dict(os.environ)
        second_stage_ran: list[str] = []

        limit = 10.0

        def planned(self, m: object) -> object:
            return mt.Plan(["t"], True, self.limit)

        def ctest_verdict(self, m: Any, ran: object, p: object) -> None:
            m.outcome = "survived"

        def confirm_kill(self, job: object, m: object, env: object) -> None:
            pass

        def binary_tests(self, m: object) -> list[str]:
            return ["test_x.py"]

        def second_stage(self, job: object, m: Any, p: object, env: object) -> None:
            self.second_stage_ran.append(m.mutated)

    class FakeSources:
        def text(self, f: str) -> str:
            return head

        def mutated_text(self, m: Any) -> str:
            return head.replace(m.original, m.mutated)

    runner = FakeRunner()
    run = schema_run.SchemaRun(runner, FakeJob(), FakeSources(), None)  # type: ignore[arg-type]
    cases = {
        "  return 0;": ("  ;", "uncompilable"),  # control reaches the end: -Wreturn-type
        "  if (n) return n;": ("  if (n != 0) return n;", "equivalent"),
        "  return 0;#": ("  return 1;", "survived"),
    }
    for original, (mutated, want) in cases.items():
        m = mt.Mutant("src/a.cpp", 3, "op", original.rstrip("#"), mutated, "cpp")
        run.env = lambda m, slot: {}  # type: ignore[method-assign]
        run._run(m, 0)
        assert m.outcome == want, (mutated, m.log)
        if want == "uncompilable":
            assert mt.CI_REFUSES in m.log and "return-type" in m.log
    assert runner.second_stage_ran == ["  return 1;"]
    assert FakeJob.ctest_runs == 3
    # A selection whose limit passes JUDGE_ALONE_FIRST_S is judged alone before any test runs:
    # the uncompilable and the equivalent mutant run none (planted: judged after the tests).
    runner.limit, FakeJob.ctest_runs = schema_run.JUDGE_ALONE_FIRST_S + 1, 0
    for original, (mutated, want) in cases.items():
        m = mt.Mutant("src/a.cpp", 3, "op", original.rstrip("#"), mutated, "cpp")
        run._run(m, 0)
        assert m.outcome == want, (mutated, m.log)
    assert FakeJob.ctest_runs == 1 and runner.second_stage_ran == ["  return 1;"] * 2
    assert (tree / "src" / "a.cpp").read_text() == head  # the clone's text is HEAD's again


FAKE_COMPILER = """\
import json, sys, time
args = sys.argv[1:]
src, out = args[args.index("-c") + 1], args[args.index("-o") + 1]
text = open(src).read()
start = time.monotonic()
time.sleep(float(args[args.index("--sleep") + 1]))
with open(args[args.index("--log") + 1], "a") as log:
    log.write(json.dumps([src, text, start, time.monotonic()]) + "\\n")
if "BAD" in text:
    sys.exit("a.cpp:1: error: BAD")
open(out, "w").write(text.replace(" ", ""))  # spaces change no object: an equivalent mutant
"""


def side_compile_run(
    mt: ModuleType, tmp_path: Path, files: list[str], sleep: float, bad_head=False
):
    """A SchemaRun whose side compiles run FAKE_COMPILER (one object per file, src/X.cpp ->
    X.o) and log each compile: [source, text, start, end]."""
    from stkmutation import schema_run

    tree = tmp_path / "tree"
    (tree / "src").mkdir(parents=True)
    compiler, log = tmp_path / "cc.py", tmp_path / "compiles.log"
    compiler.write_text(FAKE_COMPILER)
    head = "int f() { return 1; }\n"

    def command(f: str) -> list[str]:
        obj = f"{Path(f).stem}.o"
        return [sys.executable, str(compiler), "--sleep", str(sleep), "--log", str(log),
                "-o", obj, "-c", str(tree / f)]  # fmt: skip

    class FakeJob:
        objects = {f: f"{Path(f).stem}.o" for f in files}
        commands = {f"{Path(f).stem}.o": (command(f), str(tree)) for f in files}
        # HEAD's object; "not reproducible" when a side compile of HEAD's texts differs from it
        baseline_objects = {
            o: mt.hashlib.sha256(("x" if bad_head else head.replace(" ", "")).encode()).hexdigest()
            for o in commands
        }

        def write(self, path: str, text: str) -> None:
            (tree / path).write_text(text)

    class FakeSources:
        def text(self, f: str) -> str:
            return head

        def mutated_text(self, m: Any) -> str:
            return head.replace(m.original, m.mutated)

    class FakeRunner:
        env = dict(os.environ)

    for f in files:
        (tree / f).write_text(head)
    run = schema_run.SchemaRun(FakeRunner(), FakeJob(), FakeSources(), None)  # type: ignore[arg-type]

    def compiles() -> list[list[Any]]:
        return [json.loads(x) for x in log.read_text().splitlines()] if log.exists() else []

    return run, compiles


def test_a_side_compiles_control_runs_only_where_a_refusal_needs_it(mt: ModuleType, tmp_path: Path):
    # An object equal to HEAD's proves the side compile reproduces HEAD's: equivalent, one
    # compile. An object that differs decides nothing: one compile. A refusal is uncompilable
    # only where the control (HEAD's texts, once an object) compiles to HEAD's object.
    # Planted: the control first for every object (two compiles each); no control before a
    # refusal counts (an object whose side compile cannot reproduce HEAD's calls it uncompilable).
    run, compiles = side_compile_run(mt, tmp_path, ["src/a.cpp", "src/b.cpp"], 0)

    def judged(f: str, mutated: str) -> tuple[bool, str, int]:
        before = len(compiles())
        m = mt.Mutant(f, 1, "op", "return 1;", mutated, "cpp")
        m.outcome = "survived"
        decided = run.judged_alone(m)
        return decided, m.outcome, len(compiles()) - before

    assert judged("src/a.cpp", "return  1;") == (True, "equivalent", 1)
    assert judged("src/a.cpp", "return 2;") == (False, "survived", 1)
    assert judged("src/b.cpp", "return BAD;") == (True, "uncompilable", 2)  # its control
    assert judged("src/b.cpp", "return BAD2;") == (True, "uncompilable", 1)  # the control kept
    assert (tmp_path / "tree" / "src" / "b.cpp").read_text() == "int f() { return 1; }\n"

    bad, bad_compiles = side_compile_run(mt, tmp_path / "bad", ["src/a.cpp"], 0, bad_head=True)
    m = mt.Mutant("src/a.cpp", 1, "op", "return 1;", "return BAD;", "cpp")
    m.outcome = "survived"
    assert not bad.judged_alone(m) and m.outcome == "survived"  # a refusal without a control
    assert len(bad_compiles()) == 2
    m2 = mt.Mutant("src/a.cpp", 1, "op", "return 1;", "return 3;", "cpp")
    assert not bad.judged_alone(m2) and len(bad_compiles()) == 2  # none after a failed control


def test_side_compiles_of_two_objects_run_side_by_side(mt: ModuleType, tmp_path: Path):
    # Objects share no source: slots judging survivors of different objects compile at once,
    # two of one object one after the other (its batch's sources are rewritten for each).
    # Planted: one lock for every object's side compile (the second waits for the first).
    run, compiles = side_compile_run(mt, tmp_path, ["src/a.cpp", "src/b.cpp"], 1.0)
    ms = [mt.Mutant(f, 1, "op", "return 1;", f"return {i};", "cpp")
          for i, f in enumerate(["src/a.cpp", "src/b.cpp", "src/a.cpp"], 2)]  # fmt: skip
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(3) as ex:
        assert not any(ex.map(run.judged_alone, ms))
    spans = {}
    for src, text, start, end in compiles():
        spans.setdefault(Path(src).name, []).append((start, end))
    (a1, a2), (b,) = sorted(spans["a.cpp"]), spans["b.cpp"]
    assert a1[1] <= a2[0]  # one object: one compile at a time
    assert b[0] < a1[1] and a1[0] < b[1]  # two objects: side by side


@pytest.mark.parametrize(
    "output, warned",
    [
        ("[1/2] Building CXX object a.o\nsrc/a.cpp:3:1: warning: control reaches end [-Wreturn-type]",
         "src/a.cpp:3:1: warning: control reaches end [-Wreturn-type]"),
        ("/abs/b.h:10: warning: unused [-Wunused]\nnote: in x\n", "/abs/b.h:10: warning: unused [-Wunused]"),
        ("[2/2] Linking CXX executable stk\n", ""),
        ("src/a.cpp:3:1: error: expected ';'\n", ""),
        ("  warning: this is not a compiler's line\n", ""),
    ],
)  # fmt: skip
def test_compiler_warnings_are_read_off_a_builds_output(mt: ModuleType, output: str, warned: str):
    # The alone build's side of the same rule: its object compiled without -Werror, the warnings
    # are read from ninja's output (a planted regex that misses `file:line:` without a column, or
    # matches an indented line, fails here).
    assert mt.compiler_warnings(output) == warned


def test_a_pytest_files_lines_are_counted_test_by_test(mt: ModuleType, tmp_path: Path):
    # pytest_lines runs the file with stkmutation.pytest_gcov: each test's C++ processes count
    # under a prefix of their own. The file's lines are gcov's on all of them merged; a test's
    # are the lines of the blocks it ran that the file ran (docs/mutation.md, "Reading a
    # test's counts"). Planted: the hook leaves GCOV_PREFIX as it found it (every test's lines
    # land in the file's, none is a test's own).
    if not shutil.which("g++") or not shutil.which("gcov"):
        pytest.skip("no g++/gcov")
    tree = tmp_path.resolve()
    (tree / "engine" / "src").mkdir(parents=True)
    (tree / "engine" / "src" / "a.cpp").write_text(
        "int f(int x) {\n  return x + 1;\n}\n"  # 1-3
        "int g(int x) {\n  return x * 2;\n}\n"  # 4-6
        "int main(int argc, char**) {\n  if (argc > 1)\n    return g(argc);\n"  # 7-9
        "  return f(argc);\n}\n"  # 10-11
    )
    build = tree / "build"
    build.mkdir()
    subprocess.run(
        ["g++", "--coverage", "-O0", "../engine/src/a.cpp", "-o", "a"], cwd=build, check=True
    )
    tests = tree / "harness" / "python" / "tests"
    tests.mkdir(parents=True)
    (tests / "test_two.py").write_text(
        "import subprocess\n"
        f"A = {str(build / 'a')!r}\n"
        "def test_one():\n    subprocess.run([A])\n"
        "def test_two():\n    subprocess.run([A, 'x'])\n"
        "def test_none():\n    pass\n"
        "def test_one_again():\n    subprocess.run([A])\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GCOV_PREFIX", "STK_GCOV"))}
    file = "harness/python/tests/test_two.py"
    lines, status, nodes = mt.pytest_lines(build, tree, file, env)
    assert status == "ok"
    main = {7, 8}  # main's lines every run ran; line 9 by test_two only, 10 by the others
    assert nodes == {
        f"{file}::test_one": {"engine/src/a.cpp": {1, 2, 10} | main},  # not g's 4, 5
        f"{file}::test_two": {"engine/src/a.cpp": {4, 5, 9} | main},  # not f's 1, 2
        f"{file}::test_one_again": {"engine/src/a.cpp": {1, 2, 10} | main},
    }  # test_none started no process: not a test of the map
    assert lines == {"engine/src/a.cpp": {1, 2, 4, 5, 9, 10} | main}  # gcov's, every test's


def test_the_second_stage_runs_only_the_tests_of_a_file_that_executed_the_line(mt: ModuleType):
    """A file measured test by test (`pytest:<file>::<test>`, binary pytest-test) narrows to its
    tests that ran the line; a line it ran outside its tests, a file measured whole, untrusted or
    changed since the map stays whole. Planted: a file whose line ran outside its tests narrowed
    to none of them (the mutant would run nothing there)."""
    a, b = (f"harness/python/tests/test_{x}.py" for x in "ab")
    p = mt.PYTEST_PREFIX
    tests = [
        ("t1", "stk-tests"),
        (p + a, mt.PYTEST_BINARY),
        (p + b, mt.PYTEST_BINARY),
        (p + a + "::test_x[1]", mt.PYTEST_TEST_BINARY),
        (p + a + "::TestK::test_y", mt.PYTEST_TEST_BINARY),
    ]
    cov = mt.CoverageMap("abc", tests)
    # line 3: a's test_x[1] and b; line 4: a outside its tests; line 5: both of a's tests
    cov.lines = {"harness/src/x.cpp": {3: [1, 2, 3], 4: [1], 5: [1, 3, 4]}}
    job = types.SimpleNamespace(test_binary={"t1": "stk-tests"}, tree=Path("/nowhere"))
    runner = mt.Runner(None, cov, [job], {})

    def at(line: int) -> object:
        return mt.Mutant("harness/src/x.cpp", line, "op", "  x = f(y);", "  x = g(y);", "cpp")

    assert runner.tests_of_files(at(3), [a, b]) == [a + "::test_x[1]", b]
    assert runner.tests_of_files(at(4), [a, b]) == [a, b]
    assert runner.tests_of_files(at(5), [a]) == [a + "::test_x[1]", a + "::TestK::test_y"]
    assert mt.pytest_names(cov.covering("harness/src/x.cpp", 5)) == [a]  # files stay files
    assert cov.binaries_of("harness/src/x.cpp") == set()  # no CTest binary among them
    cov.untrusted = {p + a}
    assert runner.tests_of_files(at(3), [a, b]) == [a, b]
    cov.untrusted, cov.stale = set(), {a}
    assert runner.tests_of_files(at(3), [a, b]) == [a, b]
    cov.stale = {"harness/src/x.cpp"}  # the map cannot say for the line
    assert runner.tests_of_files(at(3), [a, b]) == [a, b]


def test_a_stopped_refresh_starts_no_further_test(mt: ModuleType):
    # SIGTERM sets the stop (stop_on_signals) while a test is measured: no test starts after it,
    # and the caller is told the refresh did not finish. Planted: the pool starts every test
    # left (a refresh went on for minutes after SIGTERM, its ctest runs still starting).
    import threading

    stop = threading.Event()
    started: list[str] = []

    def measure(name: str) -> None:
        started.append(name)
        if name == "b":
            stop.set()

    assert mt.measure_each(["a", "b", "c", "d"], 1, measure, stop) is False
    assert started == ["a", "b"]
    assert mt.measure_each(["e"], 1, measure, stop) is False and started == ["a", "b"]
    assert mt.measure_each(["x", "y"], 2, lambda n: started.append(n), threading.Event()) is True
    assert sorted(started[2:]) == ["x", "y"]


def test_a_python_change_since_the_map_stales_the_pytest_files_that_see_it(
    mt: ModuleType, tmp_path: Path
):
    # Only the test files that can see a changed module lose their map entries; a change no
    # import rule follows (a conftest, a shared test file, pyproject.toml, a module no test
    # sees) stales them all. Planted: the changed module's importers found directly only (a
    # test that sees it through another module keeps lines that may be wrong).
    py = tmp_path / "harness" / "python"
    (py / "stkref").mkdir(parents=True)
    (py / "tests").mkdir()
    (py / "stkref" / "a.py").write_text("X = 1\n")
    (py / "stkref" / "b.py").write_text("from stkref import a\n")
    (py / "stkref" / "lone.py").write_text("Y = 2\n")
    (py / "tests" / "test_x.py").write_text("from stkref import b\n")
    (py / "tests" / "test_y.py").write_text("import os\n")
    (py / "tests" / "conftest.py").write_text("import os\n")
    x, y = "harness/python/tests/test_x.py", "harness/python/tests/test_y.py"
    assert mt.stale_pytest_files(tmp_path, {"harness/python/stkref/a.py"}) == {x}
    assert mt.stale_pytest_files(tmp_path, {y, "engine/src/e.cpp"}) == {y}
    assert mt.stale_pytest_files(tmp_path, {"engine/src/e.cpp"}) == set()
    for everything in ("tests/conftest.py", "tests/hostile.py", "pyproject.toml", "stkref/lone.py"):
        assert mt.stale_pytest_files(tmp_path, {"harness/python/" + everything}) is None
    cov = mt.CoverageMap("abc", [(mt.PYTEST_PREFIX + f, mt.PYTEST_BINARY) for f in (x, y)])
    cov.stale = {"harness/python/stkref/a.py"}
    assert cov.pytest_mapped() == set()  # not worked out: every file
    cov.stale_tests = {x}
    assert cov.pytest_mapped() == {y}


def test_a_python_mutant_runs_only_the_tests_that_ran_its_line(mt: ModuleType):
    """The Python coverage map narrows a mutant's test files to their tests that executed its
    line; a line also run at import, a module changed since the map, a file not measured test by
    test or with a test that failed under coverage keeps the files whole; a measured file whose
    tests never ran the line is left out. Planted: a line run at import narrowed like any other
    (an importer that sees the module's constant would not run)."""
    a, b, c = (f"harness/python/tests/test_{x}.py" for x in "abc")
    p = mt.PYTEST_PREFIX
    tests = [
        (p + a + "::test_1", mt.PYTEST_TEST_BINARY),
        (p + a + "::test_2", mt.PYTEST_TEST_BINARY),
        (p + b + "::test_3", mt.PYTEST_TEST_BINARY),
        (mt.OUTSIDE_TESTS, "import"),
    ]
    pycov = mt.CoverageMap("abc", tests)
    mod = "harness/python/stkref/m.py"
    pycov.lines = {mod: {5: [0], 6: [0, 3], 7: [2], 8: [3]}}
    runner = mt.Runner(None, mt.CoverageMap(), [types.SimpleNamespace(tree=Path("/nowhere"))], {})
    runner.pycov = pycov

    def at(line: int) -> object:
        return mt.Mutant(mod, line, "op", "x = 1", "x = 2", "py")

    files = [a, b, c]  # c: not measured test by test (added since the map)
    assert runner.py_tests_of_files(at(5), files) == [a + "::test_1", c]  # b never ran it
    assert runner.py_tests_of_files(at(7), files) == [b + "::test_3", c]
    assert runner.py_tests_of_files(at(6), files) == files  # also run at import
    assert runner.py_tests_of_files(at(8), files) == files  # at import only
    assert runner.py_tests_of_files(at(9), files) == files  # no test ran it: cannot say
    pycov.untrusted = {p + a + "::test_2"}
    assert runner.py_tests_of_files(at(5), files) == [a, c]
    pycov.untrusted, pycov.stale = set(), {mod}
    assert runner.py_tests_of_files(at(5), files) == files
    pycov.stale, pycov.stale_tests = {"harness/python/stkref/other.py"}, {b}
    assert runner.py_tests_of_files(at(5), files) == [a + "::test_1", b, c]
    pycov.stale_tests = None  # not worked out: a Python change stales every file
    assert runner.py_tests_of_files(at(5), files) == files


def test_failed_pytest_tests_are_named_as_the_map_names_them(mt: ModuleType, tmp_path: Path):
    # pytest_contexts lists a failed test by the name its context has (the file from the folder
    # pytest runs in, whatever its rootdir: harness/python's pyproject.toml makes node ids start
    # at tests/). Planted: the node id written as pytest gives it (no failure would match).
    py = tmp_path / "harness" / "python"
    (py / "tests").mkdir(parents=True)
    (py / "pyproject.toml").write_text('[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    (py / "tests" / "test_a.py").write_text(
        "import pytest\n"
        "@pytest.mark.parametrize('v', [1, 2])\ndef test_x(v):\n    assert v == 1\n"
        "class TestK:\n    def test_y(self):\n        assert False\n"
        "def test_z():\n    pass\n"
    )
    listed = tmp_path / "failed.txt"
    env = dict(
        os.environ, PYTHONPATH=str(Path(mt.__file__).parents[1]), STK_FAILED_TESTS=str(listed)
    )
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    cmd += ["-p", "stkmutation.pytest_contexts", "harness/python/tests/test_a.py"]
    subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True)
    p = mt.PYTEST_PREFIX + "harness/python/tests/test_a.py::"
    assert mt.failed_pytest_tests(listed) == {p + "test_x[2]", p + "TestK::test_y"}
    assert mt.failed_pytest_tests(tmp_path / "none.txt") == set()


# MODEL mutation-baseline-selection
# checks: harness/python/stkmutation/tool.py  (the pytest tests a run's baseline times: Runner.pytest_baseline_selection)
# contract: docs/mutation.md#how-a-mutant-is-made-and-run
# planted: ci/mutants/model-mutation-baseline-selection.patch  (the Python mutants' selections left out)
@hypothesis.settings(max_examples=300, deadline=None)
@hypothesis.given(
    st.lists(
        st.tuples(
            st.sampled_from(["cpp", "py"]),
            st.lists(
                st.tuples(st.sampled_from("abcd"), st.one_of(st.none(), st.sampled_from("xyz"))),
                max_size=6,
            ),
        ),
        max_size=6,
    )
)
def test_the_baseline_times_every_test_a_mutant_can_choose_and_no_other(
    mt: ModuleType, drawn: list[tuple[str, list[tuple[str, str | None]]]]
) -> None:
    # The documented contract (step 4): the baseline times what the drawn mutants' runs can
    # choose, each test once: a file whole where any selection holds it whole, else the tests
    # chosen of it. Generated selections (C++ second stages and Python mutants alike) stand for
    # what the map would give; the model is the contract's three sentences, not the code.
    sel: dict[int, list[str]] = {}
    mutants = []
    for i, (lang, picks) in enumerate(drawn):
        m = mt.Mutant(f"harness/src/x{i}.cpp", i + 1, "op", "a;", "b;", lang)
        sel[i + 1] = [f"t/{f}.py" + (f"::{t}" if t else "") for f, t in picks]
        mutants.append(m)
    runner = mt.Runner(None, mt.CoverageMap(), [types.SimpleNamespace(tree=Path("/x"))], {})
    runner.tests_of_files = lambda m, files: sel[m.line]  # type: ignore[method-assign]
    runner.py_tests_of_files = lambda m, files: sel[m.line]  # type: ignore[method-assign]
    runner.pytest_selection = lambda m, named: []  # type: ignore[method-assign]
    runner.py_tests = lambda m: ([], True)  # type: ignore[method-assign]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(mt, "binary_tests_for", lambda tree, file: [])
        out = runner.pytest_baseline_selection(mutants)
    chosen = {t for ts in sel.values() for t in ts}
    whole = {t for t in chosen if "::" not in t}
    assert out == sorted(set(out)), "sorted, each once"
    for t in chosen:  # every choice is timed, by itself or with its whole file
        assert t in out or t.split("::")[0] in out, t
    for t in out:  # nothing timed that no mutant chose, nor a test whose file is timed whole
        assert t in chosen and (t in whole or t.split("::")[0] not in whole), t


def test_a_scratch_tmpdir_holds_a_unix_socket_however_deep_the_clone(
    mt: ModuleType, tmp_path: Path
):
    # Chromium makes its singleton socket at $TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket,
    # and a Unix socket's path holds at most 107 bytes: under a clone's build folder it did not
    # fit, and the review page's browser test failed unmutated in every 97d7a93 shard (its
    # module's mutants left uncovered). Each folder its own TMPDIR, the scratch folder kept.
    # Planted: TMPDIR under the scratch folder again.
    deep = tmp_path / ("clone-" * 10) / "build" / "release" / "schema-scratch" / "0"
    env = mt.scratch_env({"KEEP": "1"}, deep)
    assert env["STK_TEST_SCRATCH"] == str(deep) and env["KEEP"] == "1"
    assert env["TMPDIR"] != mt.scratch_env({}, deep.parent / "1")["TMPDIR"]
    where = tempfile.mkdtemp(prefix="org.chromium.Chromium.", dir=env["TMPDIR"])
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(os.path.join(where, "SingletonSocket"))


def _pytest_baseline_rig(mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Two pytest files a and b that run x.cpp:3, a fake pytest whose files pass unless named in
    `fails`, and `ran`: the test files and node ids each call was given."""
    tests_dir = tmp_path / mt.PY_TESTS
    tests_dir.mkdir(parents=True)
    for x in "ab":
        (tests_dir / f"test_{x}.py").write_text('import os\nos.environ["STK_HARNESS"]\n')
    a, b = (f"{mt.PY_TESTS}/test_{x}.py" for x in "ab")
    cov = mt.CoverageMap("abc", [(mt.PYTEST_PREFIX + f, mt.PYTEST_BINARY) for f in (a, b)])
    cov.lines = {"harness/src/x.cpp": {3: [0, 1]}}
    job = types.SimpleNamespace(test_binary={}, tree=tmp_path, build_dir=tmp_path, build_jobs=1)
    ran: list[str] = []
    fails: set[str] = set()

    def fake_run(cmd: list[str], *args: object, **kwargs: object) -> None:
        given = [str(c) for c in cmd if ".py" in str(c) and not str(c).startswith("--")]
        ran.extend(given)
        xml = next(Path(c.split("=", 1)[1]) for c in map(str, cmd) if c.startswith("--junitxml="))
        cases = ""
        for f in dict.fromkeys(mt.file_of(t) for t in given):
            stem = Path(f).stem
            bad = "<failure/>" if f in fails else ""
            cases += f'<testcase classname="tests.{stem}" name="t" time="2">{bad}</testcase>'
        xml.parent.mkdir(parents=True, exist_ok=True)
        xml.write_text(f"<testsuites><testsuite>{cases}</testsuite></testsuites>")

    monkeypatch.setattr(mt, "run", fake_run)
    m = mt.Mutant("harness/src/x.cpp", 3, "op", "  x = f(y);", "  x = f(z);", "cpp")
    return a, b, cov, job, ran, fails, m


def test_a_resumed_run_on_the_same_build_keeps_the_baselines_passes(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # The baseline of one commit (the key) is kept: a resumed run or the next shard skips the
    # tests that passed (924 s in close-52b09a4-cpp) and runs again those that failed (the
    # machine may have been the cause) and those never run; another commit starts afresh.
    # Planted: a failure kept like a pass (the test would stay out of every selection for good).
    a, b, cov, job, ran, fails, m = _pytest_baseline_rig(mt, tmp_path, monkeypatch)
    fails.add(b)
    cache = mt.BaselineCache(tmp_path / "baseline.json", "commit", "schema")
    first = mt.Runner(None, cov, [job], {})
    first.baseline([m], cache)
    assert sorted(ran) == [a, b, b]  # b failed: run again, alone
    ran.clear()
    again = mt.Runner(None, cov, [job], {})
    again.baseline([m], cache)
    assert ran == [b, b]  # a passed on this commit: kept
    assert again.py_base[a] == (True, 2.0) and again.py_base[b][0] is False
    ran.clear()
    other = mt.Runner(None, cov, [job], {})
    other.baseline([m], mt.BaselineCache(tmp_path / "baseline.json", "another commit", "schema"))
    assert sorted(ran) == [a, b, b]


def test_a_later_shard_reuses_the_commits_timings_and_reruns_its_killers_unmutated(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # The baseline times depend on the commit, not on which mutants a schema build holds, so the
    # next shard (another schema build of the same commit) keeps them: 740 to 873 s a shard at
    # 97d7a93. Whether a test passes with every switch off is the null control of this build's
    # kills, so each test that killed one of its mutants and was only timed elsewhere runs
    # unmutated at the end; one that fails there kills nothing ("error"); one seen passing on
    # this very build is not rerun; a mutant built alone is not this build's. Planted: the
    # killers not rerun (a schema whose switch-off breaks a test would kill every mutant).
    a, b, cov, job, ran, fails, m = _pytest_baseline_rig(mt, tmp_path, monkeypatch)
    path = tmp_path / "baseline.json"
    mt.Runner(None, cov, [job], {}).baseline([m], mt.BaselineCache(path, "commit", "schema 1"))
    assert sorted(ran) == [a, b]
    ran.clear()
    later = mt.Runner(None, cov, [job], {})
    cache2 = mt.BaselineCache(path, "commit", "schema 2")
    later.baseline([m], cache2)
    assert ran == [] and later.py_base == {a: (True, 2.0), b: (True, 2.0)}

    def killed(by: list[str], via: str = "schema") -> object:
        k = mt.Mutant("harness/src/x.cpp", 3, "op", "  x = f(y);", f"  x = {by}{via};", "cpp")
        k.outcome, k.via, k.killers, k.tests = "killed", via, by, list(by)
        return k

    by_a, by_b, by_none, alone = killed([a]), killed([b]), killed([]), killed([b], "alone")
    fails.add(b)  # b fails with every switch of schema 2 off
    later.verify_killers(job, [by_a, by_b, by_none, alone], cache2)
    assert sorted(ran) == [a, b]
    assert [k.outcome for k in (by_a, by_b, by_none, alone)] == [
        "killed",
        "error",
        "killed",
        "killed",
    ]
    assert "fails unmutated on this build" in by_b.log
    # Verified on schema 2 now: a resumed run of it reruns neither a's kills nor b's pass.
    ran.clear()
    again = mt.Runner(None, cov, [job], {})
    again.baseline([m], mt.BaselineCache(path, "commit", "schema 2"))
    assert ran == [b, b]  # b failed: never kept (and alone again)
    ran.clear()
    again.verify_killers(job, [killed([a])], cache2)
    assert ran == []


def test_a_test_failing_beside_others_but_not_alone_is_kept_and_its_lone_kills_repeated(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # A baseline failure may be the load of the test beside it (the fault matrix, search-speed
    # and the review page's browser each failed once in the 97d7a93 shards and were left out of
    # every selection, their mutants left to survive). It runs once more alone; passing, it is
    # kept as flaky, and a mutant that it alone killed runs it again: a failure that does not
    # repeat is no kill. Planted: the failure left out without a second run; a flaky kill
    # trusted as it came.
    a, b, cov, job, ran, fails, m = _pytest_baseline_rig(mt, tmp_path, monkeypatch)
    rig_run = mt.run
    fails.add(b)

    def once(cmd: list[str], *args: object, **kwargs: object) -> object:
        out = rig_run(cmd, *args, **kwargs)
        if b in map(str, cmd):
            fails.discard(b)  # b failed beside a; alone it passes
        return out

    monkeypatch.setattr(mt, "run", once)
    r = mt.Runner(None, cov, [job], {})
    r.baseline([m], mt.BaselineCache(tmp_path / "baseline.json", "commit", "shard 1"))
    assert ran.count(b) == 2 and r.py_base[b][0] and r.flaky == {b}
    # The next shard of the commit keeps b's time and knows it flaky (its lone kills repeat).
    later = mt.Runner(None, cov, [job], {})
    later.baseline([m], mt.BaselineCache(tmp_path / "baseline.json", "commit", "shard 2"))
    assert later.flaky == {b} and later.py_base[b][0]

    def killed(by: list[str]) -> object:
        k = mt.Mutant("harness/src/x.cpp", 3, "op", "  x = f(y);", f"  x = {by};", "cpp")
        k.outcome, k.killers, k.tests = "killed", by, list(by)
        return k

    again: list[list[str]] = []
    limits: list[object] = []
    for repeats in (True, False):
        monkeypatch.setattr(
            mt,
            "run",
            lambda cmd, *a_, **k_: (
                again.append([str(c) for c in cmd])
                or limits.append(a_[-1])
                or types.SimpleNamespace(code=int(repeats), out="", timed_out=False)
            ),
        )
        by_b, by_a, by_both = killed([b]), killed([a]), killed([a, b])
        for k in (by_b, by_a, by_both):
            r.confirm_kill(job, k)
        assert [k.outcome for k in (by_a, by_both)] == ["killed", "killed"]
        assert by_b.outcome == ("killed" if repeats else "error")
        assert len(again) == 1 and again[0][-1] == b  # only the flaky test's lone kill
        assert limits == [60.0]  # under the mutant's own limit (at least a minute), not hours
        limits.clear()
        again.clear()
    assert "the failure did not repeat: no kill" in by_b.log
    # A flaky CTest test's lone kill repeats through CTest: any failing status (CTest's is 8) is
    # a kill, only 0 is not (the CTest branch survived the --diff run of 2026-12-06 unread).
    r.flaky.add("ctest case")
    # ... and never through pytest: given a CTest name, pytest fails (exit 4), and a CTest kill
    # that did not repeat was kept (a run stubbed to pass hid it until 2026-12-07).
    monkeypatch.setattr(
        mt, "run", lambda cmd, *a_, **k_: pytest.fail(f"pytest run for a CTest kill: {cmd}")
    )
    statuses: list[tuple[list[str], object]] = []
    for status, outcome in ((8, "killed"), (1, "killed"), (0, "error")):
        job.ctest = lambda tests, limit, env=None, code=status: (
            statuses.append((list(tests), limit)) or types.SimpleNamespace(code=code)
        )
        k = killed(["ctest case"])
        r.confirm_kill(job, k)
        assert k.outcome == outcome, status
    assert statuses == [(["ctest case"], 60.0)] * 3
    del job.ctest
    # The second stage's kill is repeated with the tests it ran (its pytest node ids).
    calls: list[list[str]] = []
    outs = iter([(1, f"FAILED {b}::t - assert 0\n"), (0, "")])

    def stage_run(cmd: list[str], *a_: object, **k_: object) -> object:
        calls.append([str(c) for c in cmd])
        code, out = next(outs)
        return types.SimpleNamespace(code=code, out=out, timed_out=False)

    monkeypatch.setattr(mt, "run", stage_run)
    r.binary_tests = lambda m: [f"{b}::t"]
    staged = killed([])
    staged.outcome, staged.covered = "survived", True
    r.second_stage(job, staged, mt.Plan(["ctest name"], True, 10.0), {})
    assert staged.killers == [b] and staged.outcome == "error"
    assert calls[1][-1] == f"{b}::t"


def test_a_pytest_file_timed_on_fewer_tests_than_asked_is_timed_again(
    mt: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # A file's kept time is the sum of the tests it was timed on; the next shard may ask for
    # more of them, and a limit from the smaller sum would end a slow survivor as a "timeout"
    # (a kill). Planted: the file kept whatever it was timed on.
    a, b, cov, job, ran, fails, m = _pytest_baseline_rig(mt, tmp_path, monkeypatch)
    path = tmp_path / "baseline.json"
    asked = {"one": [f"{a}::t1"], "more": [f"{a}::t1", f"{a}::t2"], "whole": [a]}

    def runner(which: str) -> object:
        r = mt.Runner(None, cov, [job], {})
        r.pytest_baseline_selection = lambda mutants: asked[which]
        r.baseline([m], mt.BaselineCache(path, "commit", which))
        return r

    runner("one")
    assert ran == [f"{a}::t1"]
    for which, runs in (("one", []), ("more", asked["more"]), ("more", []), ("whole", [a])):
        ran.clear()
        runner(which)
        assert ran == runs, which
    ran.clear()
    runner("one")  # timed on the whole file: any part of it is kept
    assert ran == []


def test_a_baseline_cache_that_cannot_be_written_says_so_and_the_run_goes_on(
    mt: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    # The cache costs time only, so its write failing must not stop the run, nor pass silently.
    # Planted: the failure swallowed without a word.
    (tmp_path / "baseline.json").mkdir()  # a folder where the file goes: refused by the writer
    mt.BaselineCache(tmp_path / "baseline.json", "key").save({"ctest": {"t": (True, 1.0)}})
    out = capsys.readouterr().out
    assert f"baseline not kept ({tmp_path / 'baseline.json'}" in out
    assert "a resumed run runs it again" in out
    assert mt.BaselineCache(tmp_path / "baseline.json", "key").passed("ctest") == {}


def test_a_stopped_refresh_keeps_its_ctest_lines_when_only_python_changed(mt: ModuleType):
    # The partial's key is the tree hashes of PARTIAL_KEY's paths: when only harness/python's
    # differs, the CTest tests' lines still hold (no CTest test runs Python) and the pytest files'
    # do not; any other change keeps nothing. Planted: the pytest files kept too.
    n = len(mt.PARTIAL_KEY)
    py = mt.PARTIAL_KEY.index("harness/python")
    words = [f"h{i}" for i in range(n)]
    tests = {"a ctest": {"x.cpp": [1]}, mt.PYTEST_PREFIX + "t.py": {"x.cpp": [2]}}
    doc = {"key": " ".join(words), "tests": tests}
    assert mt.kept_from_partial(doc, " ".join(words)) == tests
    python_changed = list(words)
    python_changed[py] = "other"
    assert mt.kept_from_partial(doc, " ".join(python_changed)) == {"a ctest": {"x.cpp": [1]}}
    engine_changed = list(words)
    engine_changed[0] = "other"
    assert mt.kept_from_partial(doc, " ".join(engine_changed)) == {}
    assert mt.kept_from_partial({"key": "short", "tests": tests}, " ".join(words)) == {}
