"""Independent model of stkmutation.pytest_gcov (docs/mutation.md, "The coverage map"): a
generated test file whose tests (plain, parametrized, in a class, with a fixture that starts a
process) each start processes that write down the GCOV_PREFIX they inherited. Per the contract,
every process a test starts (its fixture's included) sees a folder of its own below
STK_GCOV_NODES holding its node id, and a process started outside any test sees the run's own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[3]
# A process that writes its tag (the expression `tag`, Python code) and its GCOV_PREFIX.
SPAWN = "subprocess.run(['sh', '-c', 'echo \"$0 $GCOV_PREFIX\" >> \"$LOG\"', {tag}])"


@st.composite
def generated_files(draw: Any) -> tuple[str, dict[str, str]]:
    """The file's text and, for each tag a process writes, the node id whose folder it must see
    ("" for the run's own prefix)."""
    lines = ["import subprocess", "import pytest", SPAWN.format(tag="'collection'")]
    want = {"collection": ""}
    for i in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["plain", "param", "class", "fixture", "none"]))
        name = f"test_{kind}_{i}"
        if kind == "param":
            values = draw(st.lists(st.sampled_from(["a", "b-c", "d e"]), min_size=1, unique=True))
            lines += [f"@pytest.mark.parametrize('v', {values!r})", f"def {name}(v):"]
            lines += ["    " + SPAWN.format(tag=f"'{name}-' + v")]
            for v in values:
                want[f"{name}-{v}"] = f"tests/gen/test_gen.py::{name}[{v}]"
        elif kind == "class":
            lines += [f"class TestK{i}:", f"    def {name}(self):"]
            lines += ["        " + SPAWN.format(tag=repr(name))]
            want[name] = f"tests/gen/test_gen.py::TestK{i}::{name}"
        elif kind == "fixture":  # started by the test's own setup: counts for the test
            lines += [
                "@pytest.fixture",
                f"def started_{i}():",
                "    " + SPAWN.format(tag=repr(name)),
            ]
            lines += [f"def {name}(started_{i}):", "    pass"]
            want[name] = f"tests/gen/test_gen.py::{name}"
        elif kind == "none":
            lines += [f"def {name}():", "    pass"]
        else:
            lines += [f"def {name}():", "    " + SPAWN.format(tag=repr(name))]
            want[name] = f"tests/gen/test_gen.py::{name}"
    return "\n".join(lines) + "\n", want


# MODEL mutation-pytest-gcov
# checks: harness/python/stkmutation/pytest_gcov.py  (each test's processes under a prefix of its own)
# contract: docs/mutation.md#the-coverage-map
# planted: ci/mutants/model-mutation-pytest-gcov.patch  (every test under the run's prefix)
@given(generated_files())
@settings(max_examples=8, deadline=None)
def test_model_pytest_gcov_prefixes(tmp_path_factory: Any, drawn: tuple[str, dict[str, str]]):
    text, want = drawn
    root = tmp_path_factory.mktemp("pg")
    (root / "tests" / "gen").mkdir(parents=True)
    (root / "tests" / "gen" / "test_gen.py").write_text(text)
    (root / "pytest.ini").write_text("[pytest]\n")  # the node ids' root
    log, nodes = root / "log", root / "nodes"
    env = dict(
        os.environ,
        PYTHONPATH=str(ROOT / "harness" / "python"),
        GCOV_PREFIX=str(root / "run-prefix"),
        STK_GCOV_NODES=str(nodes),
        LOG=str(log),
    )
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    cmd += ["-p", "stkmutation.pytest_gcov", "tests/gen/test_gen.py"]
    r = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    seen: dict[str, str] = {}
    for line in log.read_text().splitlines():
        tag, prefix = line.rsplit(" ", 1)
        seen[tag] = prefix
    assert sorted(seen) == sorted(want)
    by_node: dict[str, str] = {}
    for tag, node in want.items():
        if not node:
            assert seen[tag] == str(root / "run-prefix")
            continue
        folder = Path(seen[tag])
        assert folder.parent == nodes
        assert (folder / "nodeid").read_text() == node
        assert by_node.setdefault(node, str(folder)) == str(folder)
    assert len(set(by_node.values())) == len(by_node)  # one folder a test
