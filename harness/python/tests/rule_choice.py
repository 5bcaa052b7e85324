"""Which rule a property breaks, drawn so that every rule is drawn (docs/models-howto.md).

A derandomized property that draws "which rule to break" with `st.sampled_from(RULES)` may never
draw some of them: at 15 examples the engine batch model never drew 2 of its 10 faults, and at
30 the .fhr reader model never drew `depth`, so those rules were checked by nothing. `every_rule`
draws as `sampled_from` does and records each draw for the running test; the autouse fixture in
conftest.py fails a test in which some rule of a strategy that drew was never drawn, naming them.
The fix is more examples or one `parametrize` case per rule, never a narrower list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from hypothesis import strategies as st

T = TypeVar("T")

# The running test's draws: (the rules, as a tuple of their reprs) -> the indices drawn.
_drawn: dict[tuple[str, ...], set[int]] = {}
_running: list[bool] = [False]


def every_rule(rules: Sequence[T]) -> st.SearchStrategy[T]:
    """One of `rules`, as st.sampled_from(rules); the test fails unless each was drawn."""
    values = list(rules)
    if not values:
        raise ValueError("every_rule: no rules")
    key = tuple(repr(v) for v in values)

    def record(i: int) -> T:
        if _running[0]:
            _drawn.setdefault(key, set()).add(i)
        return values[i]

    return st.integers(0, len(values) - 1).map(record)


def start() -> None:
    _drawn.clear()
    _running[0] = True


def never_drawn() -> list[str]:
    """The rules of each strategy that drew in this test but never drew them, as reprs."""
    _running[0] = False
    return [key[i] for key, seen in _drawn.items() for i in range(len(key)) if i not in seen]
