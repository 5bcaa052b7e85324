"""The lint configuration stays in place: pyproject.toml keeps strict mypy and the ruff rule set,
and ci/lint.sh exists, is executable and runs each check (a dropped setting would pass silently)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

PYDIR = Path(__file__).resolve().parents[1]
REPO = PYDIR.parents[1]
LINT = REPO / "ci" / "lint.sh"


def pyproject() -> dict[str, Any]:
    with open(PYDIR / "pyproject.toml", "rb") as f:
        data: dict[str, Any] = tomllib.load(f)
    return data


def test_mypy_is_strict_over_stkref() -> None:
    mypy = pyproject()["tool"]["mypy"]
    assert mypy["strict"] is True
    assert "stkref" in mypy["files"]
    # Nothing may switch an error class of --strict back off.
    loosened = {
        "disallow_untyped_defs",
        "disallow_any_generics",
        "disallow_untyped_calls",
        "disallow_incomplete_defs",
        "warn_return_any",
        "no_implicit_reexport",
        "check_untyped_defs",
    }
    assert not [k for k in loosened if mypy.get(k) is False]
    assert not mypy.get("ignore_errors")
    assert not mypy.get("overrides")


def test_ruff_selects_the_agreed_rules() -> None:
    ruff = pyproject()["tool"]["ruff"]
    assert ruff["line-length"] == 100
    select = set(ruff["lint"]["select"])
    assert {"E", "F", "W", "I", "B", "UP"} <= select
    assert not ruff["lint"].get("ignore"), "ignore rules case by case with noqa, not globally"
    assert ruff.get("format", {}).get("quote-style", "double") == "double"


def test_lint_script_is_there_and_runs_every_check() -> None:
    assert LINT.is_file(), f"{LINT} is missing"
    assert os.access(LINT, os.X_OK), f"{LINT} is not executable"
    text = LINT.read_text(encoding="utf-8")
    for check in (
        "ruff check",
        "ruff format",
        "--check",
        "mypy --strict",
        "clang-format",
        "--dry-run -Werror",
    ):
        assert check in text, f"ci/lint.sh no longer runs {check!r}"


def test_clang_format_config_is_at_the_root() -> None:
    assert (REPO / ".clang-format").is_file()
    assert (REPO / ".clang-tidy").is_file()
