"""CTest runs the C++ tests side by side (ctest -j) and `stk::test::scratch_dir(NAME)` empties its
folder on each call, so two tests that name one folder delete each other's files mid-run: the
position-list and book models shared `positions-model` and failed one run in a few under -j2,
and two match tests shared `match-bad`. Each folder name a test gives literally, and each
literal part of a built name, is given at one place of the C++ tests only (planted:
ci/mutants/ctest-scratch-name-shared.patch gives a match runner test `match-bad` again). One
place called by two tests (the positions helper, now named by its file) is not seen here."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
# scratch_dir("name") or scratch_dir("prefix-" + ...): the literal part of the folder's name.
SCRATCH = re.compile(r'scratch_dir\(\s*"([^"]*)"\s*(\+)?')


def scratch_names(text: str) -> list[tuple[str, bool]]:
    """(the literal, whether a suffix is added to it) of each scratch_dir call in `text`."""
    return [(m[1], bool(m[2])) for m in SCRATCH.finditer(text)]


def clashes(places: dict[str, list[tuple[str, bool]]]) -> list[str]:
    """Names (or the literal parts of built names) given at two places. A built name that could
    equal another literal is not judged: its suffix is unknown here."""
    seen: dict[str, list[str]] = defaultdict(list)
    for where, names in places.items():
        for name, built in names:
            seen[name + ("+..." if built else "")].append(where)
    return [f"{name!r} at {', '.join(at)}" for name, at in seen.items() if len(at) > 1]


def test_each_scratch_folder_is_named_at_one_place():
    places = {}
    for path in sorted([*REPO.glob("harness/tests/*.cpp"), *REPO.glob("engine/tests/*.cpp")]):
        text = path.read_text()
        for n, (name, built) in enumerate(scratch_names(text)):
            places[f"{path.relative_to(REPO)}#{n}"] = [(name, built)]
    assert places, "no scratch_dir call found: the pattern no longer reads the tests"
    assert not clashes(places), clashes(places)


def test_a_clash_is_found_both_ways():
    assert clashes({"a.cpp#0": [("match-bad", False)], "b.cpp#0": [("match-bad", False)]})
    assert clashes({"a.cpp#0": [("uci-", True)], "b.cpp#0": [("uci-", True)]})
    assert not clashes({"a.cpp#0": [("uci-", True)], "b.cpp#0": [("uci-", False)]})
    assert not clashes({"a.cpp#0": [("match-bad", False)], "b.cpp#0": [("match-run-bad", False)]})
    assert scratch_names('scratch_dir("x-" + name); scratch_dir( "y" )') == [
        ("x-", True),
        ("y", False),
    ]
