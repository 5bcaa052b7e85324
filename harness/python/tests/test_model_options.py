"""Independent model of stkref.options (accepted and refused option values), written from
docs/faults.md "Python tools" (numbers) and "Names are not paths" (report names)."""

from __future__ import annotations

import argparse
import math
import string
from collections.abc import Callable

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from stkref import options

bounds = st.one_of(st.none(), st.floats(-1e6, 1e6, allow_nan=False))


def model_real(text: str, lo: float | None, hi: float | None, olo: bool, ohi: bool) -> bool:
    try:
        x = float(text)
    except ValueError:
        return False
    if not math.isfinite(x):
        return False
    if lo is not None and (x <= lo if olo else x < lo):
        return False
    return not (hi is not None and (x >= hi if ohi else x > hi))


def accepts(parse: Callable[[str], object], text: str) -> bool:
    try:
        parse(text)
    except argparse.ArgumentTypeError:
        return False
    return True


number_texts = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-(10**7), 10**7).map(str),
    st.sampled_from(["nan", "inf", "-inf", "1e400", "-1e400", "", "x", "1_0", " 3 ", "0x10"]),
)


# MODEL options-real-range
# checks: harness/python/stkref/options.py  (a real option: finite, inside its closed or open range)
# contract: docs/faults.md#python-tools-python--m-stkref-stktrain-stkmutation-stkdev
# planted: ci/mutants/model-options-real-range.patch  (an open upper end accepts its bound)
@given(bounds, bounds, st.booleans(), st.booleans(), st.data())
def test_real_accepts_what_the_model_accepts(
    lo: float | None, hi: float | None, olo: bool, ohi: bool, data: st.DataObject
) -> None:
    near = [repr(b) for b in (lo, hi) if b is not None]
    near += [repr(math.nextafter(b, d)) for b in (lo, hi) if b is not None for d in (-1e9, 1e9)]
    text = data.draw(st.one_of(number_texts, st.sampled_from(near or ["0"])))
    parse = options.real(lo, hi, open_lo=olo, open_hi=ohi)
    assert accepts(parse, text) == model_real(text, lo, hi, olo, ohi)
    if model_real(text, lo, hi, olo, ohi):
        assert parse(text) == float(text)


@given(bounds, bounds, st.booleans(), st.booleans())
def test_real_verdicts_at_the_bounds(
    lo: float | None, hi: float | None, olo: bool, ohi: bool
) -> None:
    """Smallest breaking and keeping inputs: the bound itself, and one ulp beyond it."""
    assume(lo is None or hi is None or lo < hi)
    parse = options.real(lo, hi, open_lo=olo, open_hi=ohi)
    for b, is_open, outward in ((lo, olo, -math.inf), (hi, ohi, math.inf)):
        if b is None:
            continue
        assert accepts(parse, repr(b)) == (not is_open and model_real(repr(b), lo, hi, olo, ohi))
        assert not accepts(parse, repr(math.nextafter(b, outward)))


def model_int(text: str, lo: int | None, hi: int | None) -> bool:
    t = text.strip()
    body = t[1:] if t[:1] in "+-" else t
    if not body or not all(c in string.digits or c == "_" for c in body):
        return False
    if body.startswith("_") or body.endswith("_") or "__" in body:
        return False
    n = int(t)
    return (lo is None or n >= lo) and (hi is None or n <= hi)


# MODEL options-integer-range
# checks: harness/python/stkref/options.py  (a whole-number option inside [lo, hi])
# contract: docs/faults.md#python-tools-python--m-stkref-stktrain-stkmutation-stkdev
# planted: ci/mutants/model-options-integer-range.patch  (the upper bound is exclusive)
@given(
    st.one_of(
        st.integers(-(2**70), 2**70).map(str),
        st.sampled_from(["1.0", "1e3", "", "-", "nan", "0x1f", "07", "+5"]),
    ),
    st.one_of(st.none(), st.integers(-(2**64), 2**64)),
    st.one_of(st.none(), st.integers(-(2**64), 2**64)),
)
def test_integer_accepts_what_the_model_accepts(text: str, lo: int | None, hi: int | None) -> None:
    parse = options.integer(lo, hi)
    assert accepts(parse, text) == model_int(text, lo, hi)
    for b, step in ((lo, -1), (hi, 1)):
        if b is not None and (lo is None or hi is None or lo <= hi):
            assert accepts(parse, str(b)) == model_int(str(b), lo, hi)
            assert not accepts(parse, str(b + step))


# The shared ranges as their comments in stkref/options.py state them: (parser, the last value
# kept at each end, the first refused past it; None: no such end).
SHARED_EDGES = [
    ("seed", ("0", "-1"), (str(2**64 - 1), str(2**64))),
    ("count", ("0", "-1"), ("1000000000", "1000000001")),
    ("positive_count", ("1", "0"), ("1000000000", "1000000001")),
    ("jobs", ("1", "0"), ("1024", "1025")),
    ("share", ("0", "-0.000001"), ("1", "1.000001")),
    ("fraction", ("0.000001", "0"), ("0.999999", "1")),
    ("percent", ("0", "-0.000001"), ("100", "100.000001")),
    ("seconds", ("0.000001", "0"), ("1e7", "10000000.000001")),
    ("centipawns", ("0", "-0.000001"), ("100000", "100000.000001")),
]


@pytest.mark.parametrize(("name", "low", "high"), SHARED_EDGES)
def test_every_shared_range_both_ways_at_both_ends(name: str, low, high) -> None:
    """Each shared range keeps its end value and refuses the nearest past it, at both ends (a
    positive count that refused 1 passed every test before)."""
    parse = getattr(options, name)
    for kept, refused in (low, high):
        assert accepts(parse, kept), (name, kept)
        assert not accepts(parse, refused), (name, refused)


def test_shared_ranges() -> None:
    assert accepts(options.seed, str(2**64 - 1)) and not accepts(options.seed, str(2**64))
    assert not accepts(options.seed, "-1")
    assert accepts(options.fraction, "0.5") and not accepts(options.fraction, "0")
    assert not accepts(options.fraction, "1") and accepts(options.share, "1")
    assert not accepts(options.seconds, "0") and accepts(options.seconds, "1e7")
    assert not accepts(options.seconds, "10000000.000001")


def model_name(text: str) -> bool:
    ok = set(string.ascii_letters + string.digits + "._-")
    return (
        1 <= len(text) <= 200
        and all(c in ok for c in text)
        and ".." not in text
        and text[0] not in ".-"
    )


# MODEL options-report-name
# checks: harness/python/stkref/options.py  (a report name: 1 to 200 of [A-Za-z0-9._-], no '..')
# contract: docs/faults.md#names-are-not-paths
# planted: ci/mutants/model-options-report-name.patch  (a name may start with '-')
@given(
    st.one_of(
        st.text(st.sampled_from("aZ09._-/ \x00é"), max_size=12),
        st.integers(195, 205).map(lambda n: "a" * n),
    )
)
def test_name_accepts_what_the_model_accepts(text: str) -> None:
    assert accepts(options.name, text) == model_name(text)
    assert accepts(options.name_or_empty, text) == (text == "" or model_name(text))


@pytest.mark.parametrize(("text", "ok"), [("a" * 200, True), ("a" * 201, False), ("a.b", True)])
def test_name_verdicts_both_ways(text: str, ok: bool) -> None:
    assert accepts(options.name, text) == ok
