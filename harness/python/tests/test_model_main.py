"""Independent model of stk-harness's dispatch (harness/src/main.cpp), from docs/cli.md: the
commands are the page's `## stk-harness NAME` sections; each answers --help, any other first word
is refused by name with exit 2. Runs when stk-harness is built (STK_HARNESS, else build/release)."""

from __future__ import annotations

import os
import re
import string
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[3]
# Absolute: a test below runs it from a scratch folder.
HARNESS = os.path.abspath(
    os.environ.get("STK_HARNESS") or str(ROOT / "build/release/harness/stk-harness")
)
DOCUMENTED = sorted(re.findall(r"^## stk-harness (\S+)$", (ROOT / "docs/cli.md").read_text(), re.M))

pytestmark = pytest.mark.skipif(not Path(HARNESS).exists(), reason="stk-harness not built")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([HARNESS, *args], capture_output=True, text=True, timeout=60)


# MODEL harness-dispatch
# checks: harness/src/main.cpp  (which first word runs which command, and what is refused)
# contract: docs/cli.md#commands
# planted: ci/mutants/model-harness-dispatch.patch  (fhdump left out of the command table)
@pytest.mark.parametrize("name", DOCUMENTED)
def test_every_documented_command_answers_help(name: str) -> None:
    r = run(name, "--help")
    assert r.returncode == 0, (name, r.stderr)
    assert r.stdout.strip(), name


@settings(max_examples=30)
@given(
    name=st.text(string.ascii_lowercase + "-", min_size=1, max_size=12).filter(
        lambda s: not s.startswith("-") and s not in DOCUMENTED
    )
)
def test_any_other_first_word_is_refused_by_name(name: str) -> None:
    r = run(name, "--help")
    assert r.returncode == 2, (name, r.returncode)
    assert f"unknown harness '{name}'" in r.stderr


def test_the_usage_lists_exactly_the_documented_commands() -> None:
    r = run()
    assert r.returncode == 2
    listed = sorted(re.findall(r"^  (\S+)\t", r.stderr, re.M))
    assert listed == DOCUMENTED


# MODEL harness-usage-error-line
# checks: harness/src/cli/cli.cpp  (the line a refused run prints, named by its command)
# contract: docs/reports.md#exit-status-and-report-files
# planted: ci/mutants/usage-error-line-unnamed.patch  (the line without the command's name)
@pytest.mark.parametrize("name", DOCUMENTED)
def test_every_command_names_itself_when_an_option_is_refused(name: str, tmp_path: Path) -> None:
    """An option no command has: exit 2 and the first line on stderr is `stk-harness NAME: ` with
    the reason (the fault matrix holds every input and output refusal to the same line)."""
    r = subprocess.run(
        [HARNESS, name, "--no-such-option-stk"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert r.returncode == 2, (name, r.returncode, r.stderr)
    first = r.stderr.splitlines()[0] if r.stderr else ""
    assert first.startswith(f"stk-harness {name}: "), (name, r.stderr[:300])
    # The reason: the unknown option, or CLI11's first complaint when a required one is missing.
    assert "--no-such-option-stk" in first or first.endswith(" is required"), (name, first)
