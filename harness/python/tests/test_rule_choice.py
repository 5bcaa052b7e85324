"""rule_choice.every_rule (rule_choice.py): a rule a property never drew is named; one that
drew every rule passes. Planted: never_drawn() returning [] always (every property would pass
with a rule unchecked, as the engine batch and .fhr reader models did before it)."""

from __future__ import annotations

import rule_choice
from hypothesis import given, settings


def test_a_rule_never_drawn_is_named() -> None:
    rules = [f"rule-{i}" for i in range(200)]

    @settings(max_examples=5)
    @given(rule_choice.every_rule(rules))
    def five_draws(rule: str) -> None:
        assert rule in rules

    rule_choice.start()
    five_draws()
    missed = rule_choice.never_drawn()
    assert len(missed) >= 195 and set(missed) <= {repr(r) for r in rules}
    rule_choice.start()  # this test's own fixture check starts clean


def test_every_rule_drawn_passes_and_draws_only_the_rules() -> None:
    seen: set[str] = set()

    @settings(max_examples=40)
    @given(rule_choice.every_rule(["a", "b", "c"]))
    def draws(rule: str) -> None:
        seen.add(rule)

    rule_choice.start()
    draws()
    assert rule_choice.never_drawn() == [] and seen == {"a", "b", "c"}
    rule_choice.start()
