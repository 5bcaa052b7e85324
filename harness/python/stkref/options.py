"""Checked option types for every tool's command line (docs/faults.md "Python tools").

argparse's `type=float` takes "nan", "inf" and "1e400", and `type=int` any size: a NaN learning
rate trains a NaN net, a NaN gate threshold is one no comparison fails. These types refuse a
non-finite number or one outside the option's range while the command line is read, so the
tool stops with exit 2 and argparse's "argument --lr: ..." naming the option, before any work.
"""

from __future__ import annotations

import argparse
import math
import re
import shlex
from collections.abc import Callable

UINT64_MAX = 2**64 - 1


def _bound(x: float | None, infinite: str) -> str:
    return infinite if x is None else f"{x:g}"


def interval(lo: float | None, hi: float | None, open_lo: bool, open_hi: bool) -> str:
    """'[0, 1]', '(0, inf)': the range as the error message spells it."""
    return (
        f"{'(' if open_lo or lo is None else '['}{_bound(lo, '-inf')}, "
        f"{_bound(hi, 'inf')}{')' if open_hi or hi is None else ']'}"
    )


def real(
    lo: float | None = None,
    hi: float | None = None,
    *,
    open_lo: bool = False,
    open_hi: bool = False,
) -> Callable[[str], float]:
    """A finite float in [lo, hi] (open ends with open_lo/open_hi; None: unbounded)."""
    where = interval(lo, hi, open_lo, open_hi)

    def parse(text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
        if not math.isfinite(x):
            raise argparse.ArgumentTypeError(f"'{text}' is not a finite number")
        below = lo is not None and (x <= lo if open_lo else x < lo)
        above = hi is not None and (x >= hi if open_hi else x > hi)
        if below or above:
            raise argparse.ArgumentTypeError(f"{text} is outside {where}")
        return x

    parse.__name__ = f"number in {where}"
    return parse


def integer(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """A whole number in [lo, hi] (None: unbounded on that side)."""
    where = interval(lo, hi, False, False)

    def parse(text: str) -> int:
        try:
            n = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if (lo is not None and n < lo) or (hi is not None and n > hi):
            raise argparse.ArgumentTypeError(f"{text} is outside {where}")
        return n

    parse.__name__ = f"whole number in {where}"
    return parse


# The ranges most options share.
seed = integer(0, UINT64_MAX)  # numpy's and the engine's seeds: unsigned 64-bit
count = integer(0, 10**9)  # positions, pairs, nodes: 0 where the help says "0: all"/"none"
positive_count = integer(1, 10**9)
jobs = integer(1, 1024)
share = real(0.0, 1.0)  # a proportion (gates: share of lanes, of positions)
fraction = real(0.0, 1.0, open_lo=True, open_hi=True)  # a split: neither empty nor everything
percent = real(0.0, 100.0)
seconds = real(0.0, 10.0**7, open_lo=True)  # a time limit: positive, under four months
centipawns = real(0.0, 10.0**5)


def shell_words(text: str) -> str:
    """Extra arguments for a program, split as a shell would (shlex) but never run by one."""
    try:
        shlex.split(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"'{text}' cannot be split into arguments: {e}") from None
    return text


_NAME = re.compile(r"[A-Za-z0-9._-]{1,200}")


def name(text: str) -> str:
    """A report name (--config): it becomes part of file names, so it is 1 to 200 of
    [A-Za-z0-9._-], holds no '..' and starts with neither '.' nor '-' (cli/file_names.h)."""
    if not _NAME.fullmatch(text) or ".." in text or text[0] in ".-":
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a report name (1 to 200 of A-Z a-z 0-9 . _ -, no '..', not "
            "starting with '.' or '-')"
        )
    return text


def name_or_empty(text: str) -> str:
    """A report name, or '' where the tool derives the name from its other options."""
    return text and name(text)


# Checked even when a command line that failed to parse still names its error reports.
name.names_a_file = True  # type: ignore[attr-defined]
name_or_empty.names_a_file = True  # type: ignore[attr-defined]
