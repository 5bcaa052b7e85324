"""Options that take a comma-separated list of numbers (sprt's counts, homogeneity-sim's laws)
judged element by element, both ways: the list as documented is read (exit 0 or 1), and one
character more or less at any element (trailing text, a sign, a space, an empty or a missing or
an extra element) is refused with exit 2 naming the option and the text. A rule dropped for one
element, or for the last, passes every test that only gives well-formed lists."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS", str(REPO / "build/release/harness/stk-harness"))

# (command words before the option, option, a kept list, the words after)
LISTS = [
    (["sprt"], "--pentanomial", ["1", "2", "3", "4", "5"], []),
    (["sprt"], "--wdl", ["10", "20", "10"], []),
    (["homogeneity-sim"], "--law", ["0.1", "0.2", "0.4", "0.2", "0.1"], ["--merges", "1"]),
    (["homogeneity-sim"], "--bad-law", ["0.3", "0.3", "0.2", "0.1", "0.1"], ["--merges", "1"]),
]


def broken_lists(kept: list[str]) -> list[tuple[str, list[str]]]:
    """Each way a list breaks by the smallest margin, at every element."""
    out = [("one element missing", kept[:-1]), ("one element more", [*kept, kept[-1]])]
    for i, v in enumerate(kept):
        for how, bad in (
            ("trailing text", v + "x"),
            ("a leading sign", "-" + v),
            ("a leading space", " " + v),
            ("empty", ""),
        ):
            out.append((f"element {i + 1} {how}", [*kept[:i], bad, *kept[i + 1 :]]))
    return out


def run(words: list[str]) -> subprocess.CompletedProcess[str]:
    if not Path(HARNESS).exists():
        pytest.skip(f"stk-harness not found at {HARNESS}")
    return subprocess.run([HARNESS, *words], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("before", "option", "kept", "after"), LISTS, ids=[x[1] for x in LISTS])
def test_each_element_is_judged_both_ways(before, option, kept, after) -> None:  # type: ignore[no-untyped-def]
    ok = run([*before, option, ",".join(kept), *after])
    assert ok.returncode in (0, 1), ok.stderr  # the kept list: the command's own verdict
    for how, bad in broken_lists(kept):
        text = ",".join(bad)
        r = run([*before, option, text, *after])
        assert r.returncode == 2, (option, how, text, r.stdout)
        assert option in r.stderr, (option, how, r.stderr)
