"""The count lists of `stk-harness sprt` and its reference `python -m stkref.sprt` (--pentanomial,
--wdl) against one model written from docs/faults.md#counts: exactly the layout's number of
comma-separated counts, each ASCII digits alone, each and their running sum at most 2^53, not all
0; a refusal is exit 2 naming the option, and a count past the limit is named by the layout's
name. Both readers are judged on the same generated texts, so neither can drift from the other."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from stkref import sprt
from stkref.cli import run_tool

REPO = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS", str(REPO / "build/release/harness/stk-harness"))
LIMIT = 2**53
LAYOUTS = {"--pentanomial": ("LL", "LD", "DD", "DW", "WW"), "--wdl": ("W", "D", "L")}

COUNTS = st.one_of(
    st.integers(0, 5).map(str),
    st.integers(0, 10**6).map(str),
    st.integers(LIMIT // 2 - 2, LIMIT // 2 + 2).map(str),
    st.integers(LIMIT - 3, LIMIT + 3).map(str),
    st.integers(2**64 - 2, 2**70).map(str),
    st.sampled_from(["07", "00", "0"]),
)
NOT_COUNT_TEXTS = [
    "",
    "+3",
    "-1",
    "-0",
    " 4",
    "4 ",
    "1_0",
    "0x1",
    "\u0663",
    "1e3",
    "2.0",
    "3,",
    "\t5",
]
NOT_COUNTS = st.sampled_from(NOT_COUNT_TEXTS)


def each_not_count_alone(test):  # noqa: ANN001, ANN201 (a decorator of Hypothesis tests)
    """Every text that is no count, as the only fault of a list of each layout: drawn, "-1" and
    " 4" went unchecked (rule_choice.py)."""
    for bad in NOT_COUNT_TEXTS:
        for option, names in LAYOUTS.items():
            fields = ["1"] * len(names)
            fields[len(names) // 2] = bad
            test = example(case=(option, ",".join(fields)))(test)
    return test


@st.composite
def count_texts(draw: st.DrawFn) -> tuple[str, str]:
    """(option, text): mostly the layout's number of counts, at most one field not a count, so
    that each rule is what decides (a list wrong in three ways tells no rule apart)."""
    option = draw(st.sampled_from(sorted(LAYOUTS)))
    n = len(LAYOUTS[option]) + draw(st.sampled_from([0, 0, 0, 0, -1, 1, -2]))
    fields = draw(st.lists(COUNTS, min_size=max(n, 1), max_size=max(n, 1)))
    if draw(st.booleans()):
        fields[draw(st.integers(0, len(fields) - 1))] = draw(NOT_COUNTS)
    return option, ",".join(fields)


def model(text: str, names: tuple[str, ...]) -> tuple[bool, str | None]:
    """(accepted, the count named when the only fault is the 2^53 limit)."""
    parts = text.split(",")
    if len(parts) != len(names) or not all(re.fullmatch(r"[0-9]+", p) for p in parts):
        return False, None
    total = 0
    for name, value in zip(names, map(int, parts), strict=True):
        total += value
        if value > LIMIT or total > LIMIT:
            return False, name
    return total > 0, None


def judge(option: str, text: str, status: int, said: str) -> None:
    accepted, named = model(text, LAYOUTS[option])
    assert status == (0 if accepted else 2), (option, text, status, said)
    if not accepted:
        assert option in said, (option, text, said)
    if named is not None:
        assert f"count {named} (" in said and "2^53" in said, (option, text, said)


# MODEL sprt-count-lists
# checks: harness/src/commands/sprt/sprt_command.cpp  (which --pentanomial and --wdl texts are counts, and the count a refusal names)
# contract: docs/faults.md#counts
# planted: ci/mutants/sprt-count-sign-accepted.patch  (a count's leading '+' taken by the C++ reader)
@pytest.mark.skipif(not Path(HARNESS).exists(), reason=f"stk-harness not built ({HARNESS})")
@each_not_count_alone
@settings(max_examples=150)
@given(case=count_texts())
def test_stk_harness_sprt_reads_counts_as_documented(case: tuple[str, str]) -> None:
    option, text = case
    r = subprocess.run([HARNESS, "sprt", option, text], capture_output=True, text=True)
    judge(option, text, r.returncode, r.stderr)


# MODEL sprt-count-lists-python
# checks: harness/python/stkref/sprt.py  (which --pentanomial and --wdl texts are counts, and the count a refusal names)
# contract: docs/faults.md#counts
# planted: ci/mutants/python-sprt-count-int-parse.patch  (counts read with int(): a sign, blanks and '_' taken)
@each_not_count_alone
@settings(max_examples=300)
@given(case=count_texts())
def test_stkref_sprt_reads_counts_as_documented(case: tuple[str, str]) -> None:
    option, text = case
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = run_tool(lambda: sprt.main([option, text]))
    judge(option, text, status, err.getvalue())
