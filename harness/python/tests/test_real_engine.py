"""Parity against the real C++ engine: runs only when STK_ENGINE names the stk binary
(the unit tests must not depend on the state of a C++ build)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import validate_junit

from stkref.cli import run_tool
from stkref.parity import main as parity_main

ENGINE = os.environ.get("STK_ENGINE", "")
pytestmark = pytest.mark.skipif(not ENGINE, reason="set STK_ENGINE=/path/to/stk to run")


def test_features_parity(tmp_path: Path, junit_xsd: Path) -> None:
    assert (
        run_tool(
            lambda: parity_main(
                ["features", "--engine", ENGINE, "--random", "100", "--reports-dir", str(tmp_path)]
            )
        )
        == 0
    )
    validate_junit(junit_xsd, tmp_path / "junit" / "features-default.xml")


def test_eval_parity(tmp_path: Path, net128: Path, junit_xsd: Path) -> None:
    assert (
        run_tool(
            lambda: parity_main(
                [
                    "eval",
                    "--engine",
                    ENGINE,
                    "--net",
                    str(net128),
                    "--random",
                    "100",
                    "--reports-dir",
                    str(tmp_path),
                ]
            )
        )
        == 0
    )
    validate_junit(junit_xsd, tmp_path / "junit" / "eval-default.xml")
