"""A pytest plugin for the Python coverage refresh (tool.refresh_python_coverage, `-p
stkmutation.pytest_contexts` under `coverage run`): each test's lines are recorded under a
coverage.py context named after the test, `<file>::<test>` with the file as a path from the
folder pytest runs in, so a Python mutant can run the tests that executed its line rather than
every test file that imports its module (docs/mutation.md, "The coverage map").

A line run outside any test (an import, a module-level constant, a `def`) is recorded in the
empty context: no test is named for it. A fixture's lines count for the test whose setup ran it.
A test that fails (setup, call or teardown) is appended, by the same name, to the file that
STK_FAILED_TESTS names: its lines may be too few, and the map does not narrow its file."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

FAILED_VAR = "STK_FAILED_TESTS"


def context_of(item: pytest.Item) -> str:
    """The test's name as the second stage passes it to pytest from the same folder."""
    return f"{os.path.relpath(item.path)}::{item.nodeid.split('::', 1)[1]}"


_NAMES: dict[str, str] = {}  # node id -> context_of (a report knows its node id, not its path)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    import coverage  # only under `coverage run`

    _NAMES[item.nodeid] = context_of(item)
    cov = coverage.Coverage.current()
    if cov is None:
        yield
        return
    cov.switch_context(context_of(item))
    try:
        yield
    finally:
        cov.switch_context("")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    where = os.environ.get(FAILED_VAR)
    if where and report.failed and report.nodeid in _NAMES:
        with open(where, "a", encoding="utf-8") as f:
            f.write(_NAMES[report.nodeid] + "\n")
