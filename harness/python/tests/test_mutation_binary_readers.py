"""Which pytest files a C++ survivor's second stage runs: those that run its binary, by the
contract of docs/mutation.md#binary-readers (a file reads the variable naming the binary, or uses
a name of a helper beside it that carries one). The model below composes test files and helpers
from snippets whose answer is known by that contract, not from the tool's code: a snippet that
reads, one that only names the variable, one that derives a path from it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stkmutation import binary_readers
from stkmutation import tool as mutation_tool

ROOT = Path(__file__).resolve().parents[3]

# Each snippet a statement of a test file, and whether by the contract it runs stk-harness.
READS_HARNESS = [
    'H = os.environ["STK_HARNESS"]',
    'H = os.environ.get("STK_HARNESS", "stk-harness")',
    'H = os.getenv("STK_HARNESS")',
    "def harness(name):\n    return os.environ[name]",  # a key the parser cannot evaluate
]
NAMES_ONLY = [
    "# STK_HARNESS is set by CTest",
    'DOC = "set STK_HARNESS=/path/to/stk-harness"',
    'env = dict(os.environ, STK_HARNESS="/bin/false")',
    'env = {"STK_HARNESS": "/main/stk-harness"}',
    'os.environ["STK_HARNESS"] = "/bin/false"',
    "def check(env):\n    return env['STK_HARNESS']",  # a mapping of the test's own, not os.environ
    'H = os.environ.get("STK_ENGINE")',  # the engine's variable: no harness binary
]
# Helper modules beside the tests: (source, names a test may import from it, which carry).
HELPER = (
    "import os\n"
    'HARNESS = os.environ.get("STK_HARNESS") or "build/stk-harness"\n'
    'INJECTOR = HARNESS + ".so"\n'
    "def run(args):\n    return [HARNESS, *args]\n"
    "def runner():\n    return run\n"
    "def tmp_name():\n    return 'x'\n"
)
HELPER_USES = {"HARNESS": True, "run": True, "runner": True, "INJECTOR": False, "tmp_name": False}


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    tests = tmp_path / mutation_tool.PY_TESTS
    tests.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (tests / name).write_text(text)
    return tmp_path


def _chosen(tree: Path, cpp: str = "harness/src/report/junit.cpp") -> list[str]:
    return [Path(t).name for t in mutation_tool.binary_tests_for(tree, cpp)]


def _generated_test(
    reads: list[str], names: list[str], imported: list[str], whole: bool, order
) -> tuple[str, bool]:
    """A test file of the drawn snippets, and whether by the contract it runs stk-harness."""
    statements = [*reads, *names]
    order.shuffle(statements)
    if imported and whole:
        head = "import os\nimport helper as h\n"
        statements += [f"X{i} = h.{n}" for i, n in enumerate(imported)]
    elif imported:
        head = f"import os\nfrom helper import {', '.join(imported)}\n"
    else:
        head = "import os\n"
    expected = bool(reads) or any(HELPER_USES[n] for n in imported)
    return head + "\n".join(statements) + "\n", expected


SNIPPETS = dict(
    reads=st.lists(st.sampled_from(READS_HARNESS), max_size=2),
    names=st.lists(st.sampled_from(NAMES_ONLY), max_size=3),
    imported=st.lists(st.sampled_from(sorted(HELPER_USES)), max_size=2, unique=True),
    whole=st.booleans(),
    order=st.randoms(use_true_random=False),
)


# MODEL mutation-binary-readers
# checks: harness/python/stkmutation/tool.py  (files_reading_binaries: the pytest files that run a binary)
# contract: docs/mutation.md#binary-readers
# planted: ci/mutants/mutation-binary-tests-by-text.patch  (files chosen by naming the variable)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(**SNIPPETS)
def test_a_file_runs_the_binary_exactly_when_the_contract_says(
    tmp_path_factory: pytest.TempPathFactory,
    reads: list[str],
    names: list[str],
    imported: list[str],
    whole: bool,
    order,
) -> None:
    test, expected = _generated_test(reads, names, imported, whole, order)
    tree = _tree(tmp_path_factory.mktemp("t"), {"helper.py": HELPER, "test_x.py": test})
    assert _chosen(tree) == (["test_x.py"] if expected else []), test


# MODEL mutation-binary-readers-ast
# checks: harness/python/stkmutation/binary_readers.py  (files_reading: reads, carrying helpers, derived names)
# contract: docs/mutation.md#binary-readers
# planted: ci/mutants/mutation-binary-getenv-not-read.patch  (os.getenv not counted as a read)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(**SNIPPETS)
def test_files_reading_judges_each_file_by_the_contract(
    tmp_path_factory: pytest.TempPathFactory,
    reads: list[str],
    names: list[str],
    imported: list[str],
    whole: bool,
    order,
) -> None:
    """The reader itself, on the folder of tests alone (no tool, no binary): the helper is read
    too but is no test file, so only test_x.py can be found."""
    test, expected = _generated_test(reads, names, imported, whole, order)
    tree = _tree(tmp_path_factory.mktemp("t"), {"helper.py": HELPER, "test_x.py": test})
    found = binary_readers.files_reading(
        tree / mutation_tool.PY_TESTS, {"STK_HARNESS"}, Path.read_text
    )
    tests = [f.name for f in found if f.name.startswith("test_")]
    assert tests == (["test_x.py"] if expected else []), test


def test_chains_of_helpers_and_files_that_do_not_parse(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "helper.py": HELPER,
            # a second helper whose function uses the first's carrying name carries it on
            "driver.py": "from helper import run\ndef go():\n    return run(['perft'])\n",
            "test_via_driver.py": "from driver import go\n",
            "test_via_star.py": "from helper import *\n",
            "test_derived_only.py": "from helper import INJECTOR, tmp_name\n",
            # the parser cannot read it: judged by its text, as before the parser
            "test_broken.py": 'H = os.environ["STK_HARNESS"\n',
            "test_broken_silent.py": "def (:\n",
        },
    )
    assert _chosen(tree) == ["test_broken.py", "test_via_driver.py", "test_via_star.py"]
    # the coverage refresh measures the same files
    assert [Path(f).name for f in mutation_tool.binary_test_files(tree)] == _chosen(tree)


def test_an_engine_file_meets_the_readers_of_either_variable(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "test_e.py": 'import os\nE = os.environ["STK_ENGINE"]\n',
            "test_h.py": 'import os\nH = os.environ["STK_HARNESS"]\n',
            "test_n.py": '"""STK_ENGINE and STK_HARNESS are read by the others."""\n',
        },
    )
    assert _chosen(tree, "engine/src/search/search.cpp") == ["test_e.py", "test_h.py"]
    assert _chosen(tree, "harness/src/report/junit.cpp") == ["test_h.py"]


def test_this_repository_s_fixture_only_files_are_not_binary_tests() -> None:
    # The two files that ran whole for most survivors of the 97d7a93 draw name the variables
    # only for children and fixtures; the fault matrices and the review page's tests run them.
    chosen = set(mutation_tool.binary_test_files(ROOT))
    tests = "harness/python/tests/"
    assert tests + "test_mutation_tool.py" not in chosen
    assert tests + "test_ctest_own_binaries.py" not in chosen
    for f in ("test_fault_matrix.py", "test_fault_matrix_python.py", "test_review_verdict.py"):
        assert tests + f in chosen, f
