"""The C++ model tests draw element values at the property's size (harness/tests/rc_support.h).

rc::gen::resize(n, g) lowers the size of everything g draws, not only a container's length: the
.fhr layout model drew its 32-bit ids inside resize(6, ...), every id was below 7, and a writer
that shifted the id's bytes by 7 bits instead of 8 passed it (the closing mutation draw at
ca1c60b). Every C++ test source is read here; rc::gen::resize and rc::gen::scale are refused,
stk::test::up_to / length_between bound a length alone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TEST_DIRS = ("engine/tests", "harness/tests", "harness/fuzz")
SIZE_CHANGERS = re.compile(r"\brc::gen::(resize|scale)\s*\(")


def code_of(text: str) -> str:
    """The text without // comments (a comment may name what it refuses)."""
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())


def sources() -> list[Path]:
    return sorted(
        p for d in TEST_DIRS for p in (ROOT / d).rglob("*") if p.suffix in (".cpp", ".h", ".hpp")
    )


def test_the_scan_reads_the_model_tests():
    names = {p.name for p in sources()}
    assert {"fail_high_model_test.cpp", "report_model_test.cpp", "rc_support.h"} <= names


def test_no_test_source_shrinks_what_its_generators_draw():
    found = [
        f"{p.relative_to(ROOT)}:{code_of(p.read_text()).count(chr(10), 0, m.start()) + 1}: "
        f"rc::gen::{m.group(1)}"
        for p in sources()
        for m in SIZE_CHANGERS.finditer(code_of(p.read_text()))
    ]
    assert not found, "use stk::test::up_to or length_between (harness/tests/rc_support.h):\n" + (
        "\n".join(found)
    )
