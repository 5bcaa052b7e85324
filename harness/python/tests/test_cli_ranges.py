"""Every numeric option's range, as `stk-harness <command> --help` prints it, holds both ways at
its smallest margin: each printed bound is accepted and the first value past it is refused,
naming the option (docs/cli.md is generated from the same help text: the range a user reads is
the contract). An input rule whose bound moved by one, or whose printed range is not the one
it enforces, fails here without a test written for that option.

A value is judged at parse time only: `--help` follows it, and CLI11 checks option values
before it answers help, so a value the option accepts ends in the help text (exit 0, nothing
run) and one it refuses in an error naming the option (exit 2). Past a bound: one for INT and UINT; for FLOAT, one part in 10^5 of
the bound (the help prints six significant digits, so a bound the print rounds shows here).
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
# Absolute: the runs below start in a scratch folder (a relative $STK_HARNESS is the checkout's).
HARNESS = str(
    Path(os.environ.get("STK_HARNESS") or REPO / "build/release/harness/stk-harness").absolute()
)
pytestmark = pytest.mark.skipif(
    not os.environ.get("STK_HARNESS") and not Path(HARNESS).exists(),
    reason=f"STK_HARNESS unset and stk-harness not built ({HARNESS})",
)
COMMAND_LINE = re.compile(r"^  ([a-z][a-z-]*)\t", re.M)
RANGED = re.compile(
    r"^\s+(?:-\w,)?(--[\w-]+)(?:,[^\s]+)? (INT|UINT|FLOAT):(?:INT|UINT|FLOAT) in \[(\S+) - (\S+)\]",
    re.M,
)
# A validator's own interval, open or closed at either end: `FLOAT:[0, 1)`.
INTERVAL = re.compile(
    r"^\s+(?:-\w,)?(--[\w-]+)(?:,[^\s]+)? (INT|UINT|FLOAT):([\[(])([^,\s]+), ([^\])\s]+)([\])])",
    re.M,
)


@dataclass(frozen=True)
class Ranged:
    command: str
    option: str
    kind: str
    lo: str
    hi: str
    lo_open: bool = False
    hi_open: bool = False

    def __str__(self) -> str:
        left, right = "(" if self.lo_open else "[", ")" if self.hi_open else "]"
        return f"{self.command} {self.option} {left}{self.lo} - {self.hi}{right}"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """A refused value is a usage error, and a command answers one with its <error> report under
    its default --out-dir (reports/, relative): `cwd` keeps it out of the checkout, where the
    quick tier's review page found one without its summary."""
    return subprocess.run(
        [HARNESS, *args],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
    )


# Every FLOAT option, ranged or not: `--elo0 FLOAT`, `--alpha FLOAT:FLOAT`, `--heldout FLOAT:[0, 1]`.
FLOAT_OPTION = re.compile(r"^\s+(?:-\w,)?(--[\w-]+)(?:,[^\s]+)? FLOAT\b", re.M)


def float_options() -> list[tuple[str, str]]:
    if not Path(HARNESS).exists():
        return []
    out: list[tuple[str, str]] = []
    for command in COMMAND_LINE.findall(run("--help").stdout):
        text = run(command, "--help")
        out += [(command, o) for o in FLOAT_OPTION.findall(text.stdout + text.stderr)]
    return out


def ranged_options() -> list[Ranged]:
    if not Path(HARNESS).exists():
        return []
    out: list[Ranged] = []
    for command in COMMAND_LINE.findall(run("--help").stdout):
        text = run(command, "--help")
        said = text.stdout + text.stderr
        for option, kind, lo, hi in RANGED.findall(said):
            out.append(Ranged(command, option, kind, lo, hi))
        for option, kind, left, lo, hi, right in INTERVAL.findall(said):
            out.append(Ranged(command, option, kind, lo, hi, left == "(", right == ")"))
    return out


def past(r: Ranged, bound: str, step: int) -> str:
    """The first value next to `bound`: step -1 below it, +1 above it."""
    if r.kind == "FLOAT":
        x = float(bound)
        return repr(x + step * max(abs(x) * 1e-5, 1e-12))
    return str(int(bound) + step)


def verdict(r: Ranged, value: str, cwd: Path) -> str:
    """'accepted' (the parse went on to answer --help), 'refused' (an error naming the option,
    exit 2), else what happened."""
    ran = run(r.command, f"{r.option}={value}", "--help", cwd=cwd)
    said = ran.stdout + ran.stderr
    first = next((line for line in said.splitlines() if line.strip()), "")
    if ran.returncode == 0 and "Usage: stk-harness" in said:
        return "accepted"
    if ran.returncode == 2 and f"{r.option}:" in first:
        return "refused"
    return f"exit {ran.returncode}: {first[:200]}"


RANGES = ranged_options()
FLOATS = float_options()


def test_the_help_texts_print_ranges():
    """The parse of the help text found what docs/cli.md shows (a format change would empty the
    list and pass every case vacuously)."""
    assert len(RANGES) >= 60, [str(r) for r in RANGES]
    assert any(r.kind == "FLOAT" for r in RANGES) and any(r.kind == "UINT" for r in RANGES)
    assert any(r.hi_open for r in RANGES), "no validator interval parsed (fhgen --ecm-fraction)"


# MODEL cli-option-ranges
# checks: harness/src/commands/homogeneity-sim/homogeneity_sim_command.cpp  (each numeric option's accepted range, every command, against the range its help prints)
# contract: docs/cli.md#commands
# planted: ci/mutants/model-cli-option-ranges.patch  (--alpha open at 1 - 1e-9, printed as 1)
@pytest.mark.parametrize("r", RANGES, ids=str)
def test_each_printed_bound_holds_both_ways(r: Ranged, tmp_path: Path):
    # An open end refuses its bound and keeps the first value inside it; a closed end keeps
    # its bound and refuses the first value past it.
    got = {
        "low bound": verdict(r, r.lo, tmp_path),
        "high bound": verdict(r, r.hi, tmp_path),
        "past the low end": verdict(r, past(r, r.lo, +1 if r.lo_open else -1), tmp_path),
        "past the high end": verdict(r, past(r, r.hi, -1 if r.hi_open else +1), tmp_path),
    }
    want = {
        "low bound": "refused" if r.lo_open else "accepted",
        "high bound": "refused" if r.hi_open else "accepted",
        "past the low end": "accepted" if r.lo_open else "refused",
        "past the high end": "accepted" if r.hi_open else "refused",
    }
    assert got == want, f"{r}: {got}"


# MODEL cli-finite-floats
# checks: harness/src/cli/cli_app.cpp  (every FLOAT option of every command refuses nan and +-inf)
# contract: docs/cli.md#commands
# planted: ci/mutants/model-cli-finite-floats.patch  (the finite check on --elo0 and --elo1 of sprt only)
@pytest.mark.parametrize(("command", "option"), FLOATS, ids=lambda x: x)
def test_each_float_option_refuses_what_is_not_a_finite_number(
    command: str, option: str, tmp_path: Path
):
    """A number that is not finite has no meaning as a rate, a bound, a ratio or a tolerance, and a
    range check written as `x < lo || x > hi` keeps nan; each is refused as it parses, naming the
    option, as is a literal that overflows a double."""
    r = Ranged(command, option, "FLOAT", "0", "0")
    got = {v: verdict(r, v, tmp_path) for v in ("nan", "inf", "-inf", "1e400")}
    assert got == dict.fromkeys(got, "refused"), got


def test_the_help_texts_name_float_options():
    """The parse found the FLOAT options of sprt, sprt-sim, fhgen and the rest (a help format
    change would empty the list)."""
    assert len(FLOATS) >= 15 and ("sprt", "--elo0") in FLOATS, FLOATS
