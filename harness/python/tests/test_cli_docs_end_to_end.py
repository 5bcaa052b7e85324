"""ci/make-cli-docs.py (stkdev.cli_docs) end to end against a stand-in binary, every verdict both
ways (its docstring): the page holds each command the binary's --help lists, in its order, a
command with a page under docs/harnesses/ linked to it and one without not; --check exits 0 on the
page it wrote and 1 with a diff on any other; a command whose --help fails (any nonzero exit) or
no binary is exit 2 naming it; the shared folder is $STK_SHARED, else ../shared beside the
repository, masked as $STK_SHARED either way."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from stkdev import cli_docs

SCRIPT = cli_docs.ROOT / "ci" / "make-cli-docs.py"


def stand_in(tmp: Path, failing: str = "", code: int = 1) -> Path:
    """An stk-harness whose --help lists `perft` (which has a page) and `zz-none` (which has
    none); `<failing> --help` exits `code`. Its help names the shared folder it was given."""
    exe = tmp / "stk-harness"
    exe.write_text(
        "#!/bin/sh\n"
        'if [ "$1" = --help ]; then printf "usage: stk-harness COMMAND\\n\\n'
        '  perft\\tCount leaf nodes\\n  zz-none\\tNo page\\n"; exit 0; fi\n'
        f'if [ "$1" = "{failing}" ]; then echo "broken help" >&2; exit {code}; fi\n'
        'echo "usage: stk-harness $1 [--epd FILE (default $STK_SHARED/suites/x.epd)]"\n'
    )
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe


def make(*argv: str, shared: str | None = "/nowhere/shared") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("STK_SHARED", "STK_HARNESS")}
    if shared is not None:
        env["STK_SHARED"] = shared
    return subprocess.run(
        [sys.executable, str(SCRIPT), *argv], capture_output=True, text=True, env=env, timeout=60
    )


def test_the_page_lists_each_command_linking_only_those_with_a_page(tmp_path: Path):
    page = tmp_path / "cli.md"
    r = make("--harness", str(stand_in(tmp_path)), "--out", str(page))
    assert r.returncode == 0, r.stderr
    text = page.read_text()
    assert text.index("## stk-harness perft") < text.index("## stk-harness zz-none")
    assert "Count leaf nodes ([page](harnesses/perft.md))" in text
    assert "No page\n" in text and "harnesses/zz-none.md" not in text
    assert "(default $STK_SHARED/suites/x.epd)" in text and "/nowhere/shared" not in text
    assert make("--harness", str(stand_in(tmp_path)), "--out", str(page), "--check").returncode == 0
    page.write_text(text.replace("Count leaf nodes", "Count nodes"))
    r = make("--harness", str(stand_in(tmp_path)), "--out", str(page), "--check")
    assert r.returncode == 1 and "differs from the binary" in r.stdout
    assert any(x.startswith("+") and "Count leaf nodes" in x for x in r.stdout.splitlines())
    assert page.read_text() != text  # --check writes nothing


@pytest.mark.parametrize("code", [1, 2, 255])
def test_a_command_whose_help_fails_is_exit_2_naming_it(tmp_path: Path, code: int):
    page = tmp_path / "cli.md"
    r = make("--harness", str(stand_in(tmp_path, "zz-none", code)), "--out", str(page))
    assert r.returncode == 2
    assert f"zz-none --help: exit {code}" in r.stderr and "broken help" in r.stderr
    assert not page.exists()


def test_no_binary_is_exit_2():
    r = make()
    assert r.returncode == 2 and "no stk-harness binary" in r.stderr


def test_the_shared_folder_defaults_to_the_one_beside_the_repository(monkeypatch):
    monkeypatch.delenv("STK_SHARED", raising=False)
    assert cli_docs.shared_dir() == str(cli_docs.ROOT.parent / "shared")
    monkeypatch.setenv("STK_SHARED", "/x/y")
    assert cli_docs.shared_dir() == "/x/y"
