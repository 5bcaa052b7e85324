"""docs/cli.md equals what the binary prints (`ci/make-cli-docs.py --check`).

Runs against $STK_HARNESS (ci/test.sh sets it), else build/release like the other binary tests;
skips only when STK_HARNESS is unset and no build exists. A changed option help text: rerun
ci/make-cli-docs.py --harness build/release/harness/stk-harness and commit docs/cli.md."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS") or str(REPO / "build/release/harness/stk-harness")
SCRIPT = REPO / "ci" / "make-cli-docs.py"
pytestmark = pytest.mark.skipif(
    not os.environ.get("STK_HARNESS") and not Path(HARNESS).exists(),
    reason=f"STK_HARNESS unset and stk-harness not built ({HARNESS})",
)


def test_cli_page_matches_the_binary():
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "--harness", HARNESS, "--check"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr


def test_check_reports_a_difference(tmp_path: Path):
    page = tmp_path / "cli.md"
    assert (
        subprocess.run(
            [sys.executable, str(SCRIPT), "--harness", HARNESS, "--out", str(page)],
            capture_output=True,
            text=True,
            timeout=300,
        ).returncode
        == 0
    )
    text = page.read_text()
    assert "## stk-harness perft" in text and "## stk-harness all" in text
    assert str(REPO) not in text, "the repository's path must be masked"
    page.write_text(text.replace("## stk-harness perft", "## stk-harness perft (edited)", 1))
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "--harness", HARNESS, "--out", str(page), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 1 and "(edited)" in r.stdout
