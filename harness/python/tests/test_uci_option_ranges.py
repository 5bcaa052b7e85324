"""Every option `stk` advertises holds its advertised domain both ways, at the smallest margin: a
`spin` accepts its `min` and `max` and refuses the integer past each and a non-number; a `check`
accepts `true` and `false` and refuses anything else. A refusal is an `info string error` line
naming the option (docs/uci.md#option-values); an accepted value prints nothing. The options and
their domains are read from the engine's own `uci` answer, so a rule whose bound moved by one, or
whose advertised range is not the one it enforces, fails here without a test written for that
option (the engine's side of test_cli_ranges.py).
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass

import pytest

ENGINE = os.environ.get("STK_ENGINE", "")
pytestmark = pytest.mark.skipif(not ENGINE, reason="set STK_ENGINE=/path/to/stk to run")
OPTION = re.compile(r"^option name (.+?) type (spin|check)\b(.*)$", re.M)
# Allocating the largest table is the machine's answer (out of memory keeps the old one), not the
# rule's: that one value is not sent.
NOT_SENT = {("Hash", "max")}


@dataclass(frozen=True)
class Advertised:
    name: str
    kind: str
    lo: int = 0
    hi: int = 0


def advertised() -> list[Advertised]:
    out = subprocess.run(
        [ENGINE], input="uci\nquit\n", capture_output=True, text=True, timeout=60
    ).stdout
    found = []
    for name, kind, rest in OPTION.findall(out):
        words = rest.split()
        if kind == "spin":
            lo, hi = int(words[words.index("min") + 1]), int(words[words.index("max") + 1])
            found.append(Advertised(name, kind, lo, hi))
        else:
            found.append(Advertised(name, kind))
    return found


def answers(name: str, values: list[str]) -> list[list[str]]:
    """The engine's lines after each `setoption name NAME value V`, one fresh engine for all."""
    script = "uci\nisready\n"
    script += "".join(f"setoption name {name} value {v}\nisready\n" for v in values)
    out = subprocess.run(
        [ENGINE], input=script + "quit\n", capture_output=True, text=True, timeout=60
    ).stdout
    chunks = out.split("readyok\n")
    assert len(chunks) == len(values) + 2, f"{name}: not one readyok per setoption:\n{out}"
    return [[x for x in c.splitlines() if x.strip()] for c in chunks[1:-1]]


def cases(o: Advertised) -> list[tuple[str, bool]]:
    """(value, accepted) at the smallest margins of the advertised domain."""
    # A value is every word after `value` (docs/uci.md#option-values): a second word, however
    # valid alone, makes a value outside the domain (the closing draw: only the first word read).
    if o.kind == "check":
        return [
            ("true", True),
            ("false", True),
            ("TRUE", False),
            ("yes", False),
            ("1", False),
            ("true true", False),
            ("false x", False),
        ]
    edge = [("min", str(o.lo), True), ("max", str(o.hi), True)]
    past = [("", str(o.lo - 1), False), ("", str(o.hi + 1), False), ("", "5x", False)]
    past += [("", f"{o.lo} {o.lo}", False), ("", f"{o.hi} 1", False)]
    return [(v, ok) for end, v, ok in [*edge, *past] if (o.name, end) not in NOT_SENT]


OPTIONS = advertised() if ENGINE else []


def test_the_engine_advertises_the_options_the_docs_name() -> None:
    # An empty list would pass every case below: the domains must have been read.
    names = {o.name for o in OPTIONS}
    assert {"Hash", "Threads", "Ponder", "Use NNUE", "FHPredictor", "FHLmrTier1"} <= names


# MODEL uci-option-domains
# checks: engine/src/uci/options.cpp  (each advertised spin and check option's refusal rule)
# contract: docs/uci.md#option-values
# planted: ci/mutants/model-uci-option-domains.patch  (Hash's lower bound moved by one: 0 MB taken)
@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name.replace(" ", "_"))
def test_each_option_accepts_its_domain_and_refuses_one_past_it(option: Advertised) -> None:
    wanted = cases(option)
    got = answers(option.name, [v for v, _ in wanted])
    for (value, accepted), lines in zip(wanted, got, strict=True):
        errors = [x for x in lines if x.startswith("info string error")]
        if accepted:
            assert not lines, f"{option.name} = {value!r} is in its domain, refused: {lines}"
        else:
            assert len(errors) == 1 and option.name in errors[0], (
                f"{option.name} = {value!r} is outside its domain, got: {lines}"
            )


def advertised_names() -> list[str]:
    out = subprocess.run(
        [ENGINE], input="uci\nquit\n", capture_output=True, text=True, timeout=60
    ).stdout
    return re.findall(r"^option name (.+?) type \w+", out, re.M)


def near_names(names: list[str]) -> list[str]:
    """Names the engine does not advertise, beside each one it does: a letter short, a letter
    more, the last letter one lower and one higher (so that they sort just before and just after
    it), a few far from all of them, and words sorting just before and after the keyword `value`
    that ends a name (the closing draw: `token != "value"` made `<` read a name up to its first
    word sorting after it). None equals an advertised name ignoring case (UCI names are not
    case-sensitive)."""
    near = {"A", "Zz", "Bogus Option", "valud", "valuf", "valuex", "values", "z", "Hash valuf"}
    for n in names:
        near |= {n[:-1], n + "x", n[:-1] + chr(ord(n[-1]) - 1), n[:-1] + chr(ord(n[-1]) + 1)}
    taken = {n.lower() for n in names}
    return sorted(x for x in near if x.strip() and x.lower() not in taken)


def test_a_name_the_engine_does_not_advertise_is_refused_as_unknown() -> None:
    """docs/uci.md#option-values: any other setoption is one `info string error` line naming it,
    and changes nothing (the closing draw: `name <= "EvalFile"` took every unknown name sorting
    before EvalFile for a net path, and no test sent one)."""
    names = near_names(advertised_names())
    assert len(names) > 30
    for name in names:
        assert answers(name, ["1"]) == [[f"info string error: unknown option '{name}'"]], name


def string_options() -> list[str]:
    out = subprocess.run(
        [ENGINE], input="uci\nquit\n", capture_output=True, text=True, timeout=60
    ).stdout
    return re.findall(r"^option name (.+?) type string\b", out, re.M)


# MODEL uci-option-value-words
# checks: engine/src/uci/options.cpp  (setoption's value: every word after `value`)
# contract: docs/uci.md#option-values
# planted: ci/mutants/uci-option-value-first-word.patch  (only the value's first word read)
@pytest.mark.parametrize("name", string_options() if ENGINE else [])
def test_a_string_value_keeps_every_word(name: str) -> None:
    """A path with spaces is one value: a file that does not exist is refused by its whole name
    (a value cut at its first space would name another file, or load one)."""
    path = "/nonexistent stk dir/no such net.nnue"
    (lines,) = answers(name, [path])
    assert len(lines) == 1 and lines[0].startswith("info string error"), (name, lines)
    assert path in lines[0], (name, lines)


def test_the_engine_advertises_a_string_option() -> None:
    assert {"EvalFile", "FHModel"} <= set(string_options())
