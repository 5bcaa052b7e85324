"""Independent model of the Python coverage map (stkmutation.pytest_contexts and
tool.python_map; docs/mutation.md, "The coverage map"): a generated module of functions and a
generated test file whose tests call chosen ones; per the contract each function's body line is
run by exactly the tests that call it, and a line run at import by no test but OUTSIDE_TESTS."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[3]
tool = importlib.import_module("stkmutation.tool")


@st.composite
def suites(draw: Any) -> tuple[int, list[tuple[str, list[int]]], list[int]]:
    """(functions in the module, tests as (name, the functions each calls), the functions the
    module calls at import)."""
    n = draw(st.integers(1, 4))
    calls = st.lists(st.integers(0, n - 1), unique=True)
    kinds = st.sampled_from(["plain", "class", "param"])
    tests = [(f"{draw(kinds)}_{i}", draw(calls)) for i in range(draw(st.integers(1, 4)))]
    return n, tests, draw(calls)


# MODEL mutation-python-contexts
# checks: harness/python/stkmutation/pytest_contexts.py  (each test's Python lines under its name)
# contract: docs/mutation.md#the-coverage-map
# planted: ci/mutants/model-mutation-python-contexts.patch  (a test's lines left in the empty context)
@given(suites())
@settings(max_examples=6, deadline=None)
def test_model_python_coverage_map(tmp_path_factory: Any, drawn: Any):
    n, tests, at_import = drawn
    root = tmp_path_factory.mktemp("pc").resolve()
    pkg = root / "harness" / "python" / "stkref"
    tdir = root / "harness" / "python" / "tests"
    pkg.mkdir(parents=True)
    tdir.mkdir()
    (pkg / "__init__.py").write_text("")
    body = [f"def f{i}():\n    return {i}\n" for i in range(n)]  # f<i>'s body: line 2i + 2
    calls = "".join(f"f{i}()\n" for i in at_import)
    (pkg / "gen.py").write_text("".join(body) + calls)
    lines, want = ["from stkref import gen", "import pytest"], {}
    file = "harness/python/tests/test_gen.py"
    for name, called in tests:

        def use(indent: str, called: list[int] = called) -> str:
            return "".join(f"{indent}gen.f{i}()\n" for i in called) or f"{indent}pass\n"

        if name.startswith("class"):
            lines.append(f"class TestK_{name}:\n    def test_{name}(self):\n{use(' ' * 8)}")
            ids = [f"{file}::TestK_{name}::test_{name}"]
        elif name.startswith("param"):
            lines.append(
                f"@pytest.mark.parametrize('v', [1, 2])\ndef test_{name}(v):\n{use('    ')}"
            )
            ids = [f"{file}::test_{name}[1]", f"{file}::test_{name}[2]"]
        else:
            lines.append(f"def test_{name}():\n{use('    ')}")
            ids = [f"{file}::test_{name}"]
        for i in called:
            want.setdefault(2 * i + 2, set()).update(tool.PYTEST_PREFIX + t for t in ids)
    (tdir / "test_gen.py").write_text("\n".join(lines) + "\n")
    data = root / "cov.sqlite"
    env = dict(
        os.environ,
        PYTHONPATH=f"{root / 'harness' / 'python'}{os.pathsep}{ROOT / 'harness' / 'python'}",
    )
    cmd = [sys.executable, "-m", "coverage", "run", f"--data-file={data}"]
    cmd += [f"--source={pkg}", "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    cmd += ["-p", "stkmutation.pytest_contexts", "harness/python/tests/test_gen.py"]
    r = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    cov = tool.python_map(data, root, "abc", set())
    for i in range(n):
        got = set(cov.covering("harness/python/stkref/gen.py", 2 * i + 2) or [])
        expected = set(want.get(2 * i + 2, set()))
        if i in at_import:
            expected.add(tool.OUTSIDE_TESTS)
        assert got == expected, (i, tests, at_import)
    # a `def` line runs at import only: no test is named for it
    assert cov.covering("harness/python/stkref/gen.py", 1) == [tool.OUTSIDE_TESTS]
