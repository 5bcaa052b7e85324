"""A pytest plugin for the coverage refresh (tool.pytest_lines, `-p stkmutation.pytest_gcov`):
each test runs with a GCOV_PREFIX of its own, so the C++ processes it starts write their counts
apart from every other test's, and the map can name the tests of a file that executed a line,
not only the file (docs/mutation.md, "The coverage map": test_fault_matrix.py is 732 tests and
4 minutes, of which a mutant's line is run by a few).

Off unless STK_GCOV_NODES names a folder: each test's prefix is a folder below it named by the
hash of its node id, holding the node id in `nodeid`. A process started outside any test (at
collection) keeps the run's own GCOV_PREFIX; one started by a fixture counts for the test whose
setup started it."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

NODES_VAR = "STK_GCOV_NODES"
NODE_ID_FILE = "nodeid"


def node_prefix(root: Path, nodeid: str) -> Path:
    return root / hashlib.sha1(nodeid.encode()).hexdigest()[:16]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    root = os.environ.get(NODES_VAR)
    if not root:
        yield
        return
    prefix = node_prefix(Path(root), item.nodeid)
    prefix.mkdir(parents=True, exist_ok=True)
    (prefix / NODE_ID_FILE).write_text(item.nodeid)
    before = os.environ.get("GCOV_PREFIX")
    os.environ["GCOV_PREFIX"] = str(prefix)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("GCOV_PREFIX", None)
        else:
            os.environ["GCOV_PREFIX"] = before
