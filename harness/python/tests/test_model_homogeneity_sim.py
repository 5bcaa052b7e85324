"""Independent model of `stk-harness homogeneity-sim` (docs/match-results.md "Homogeneity across
shards", its last paragraphs, and the command's --help): the verdict is the honest merges'
false-flag rate against alpha, exit 1 exactly when its Wilson 95% lower bound exceeds alpha; every
rate is the count over the merges with its Wilson 95% interval; a law is five probabilities
LL,LD,DD+WL,DW,WW summing to 1; the honest run does not depend on --bad-law. The Wilson interval
is computed here from its textbook formula, not from the harness's statistics."""

from __future__ import annotations

import json
import math
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS") or str(ROOT / "build/release/harness/stk-harness")
Z95 = 1.959963984540054

pytestmark = pytest.mark.skipif(not Path(HARNESS).exists(), reason="stk-harness not built")


def sim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [HARNESS, "homogeneity-sim", *args], capture_output=True, text=True, timeout=120
    )


def wilson(k: int, n: int) -> tuple[float, float]:
    p, z2 = k / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return centre - half, centre + half


def small(
    seed: int, alpha: float, merges: int = 1, permutations: int = 9, *extra: str
) -> list[str]:
    return [
        "--shards", "3", "--pairs", "4", "--merges", str(merges), "--permutations",
        str(permutations), "--alpha", repr(alpha), "--seed", str(seed), *extra,
    ]  # fmt: skip


def law_text(weights: list[int]) -> str:
    total = sum(weights)
    return ",".join(repr(w / total) for w in weights)


# MODEL homogeneity-sim-verdict
# checks: harness/src/commands/homogeneity-sim/homogeneity_sim_command.cpp  (the false-flag rate, power and naming rate of simulated merges, and the verdict against alpha)
# contract: docs/match-results.md#homogeneity-across-shards
# planted: ci/mutants/model-homogeneity-sim-verdict.patch  (the false-flag rate itself compared with alpha, not its Wilson lower bound)
@settings(max_examples=25, deadline=None)
@given(
    shards=st.integers(2, 5),
    pairs=st.integers(1, 12),
    merges=st.integers(1, 30),
    permutations=st.integers(1, 30),
    alpha=st.sampled_from([0.01, 0.05, 0.1, 0.15, 0.3, 0.6, 0.9]),
    seed=st.integers(0, 2**64 - 1),
    law=st.lists(st.integers(0, 9), min_size=5, max_size=5).filter(lambda w: sum(w) > 0),
    bad=st.lists(st.integers(0, 9), min_size=5, max_size=5).filter(lambda w: sum(w) > 0),
)
def test_figures_and_verdict_of_generated_simulations(
    shards: int, pairs: int, merges: int, permutations: int, alpha: float, seed: int,
    law: list[int], bad: list[int],
) -> None:  # fmt: skip
    args = [
        "--shards", str(shards), "--pairs", str(pairs), "--merges", str(merges),
        "--permutations", str(permutations), "--alpha", repr(alpha), "--seed", str(seed),
        "--law", law_text(law), "--bad-law", law_text(bad),
    ]  # fmt: skip
    r = sim(*args, "--json")
    assert r.returncode in (0, 1), r.stderr
    j = json.loads(r.stdout)
    p = j["params"]
    assert (p["shards"], p["pairs_per_shard"], p["merges"], p["permutations"], p["seed"]) == (
        shards, pairs, merges, permutations, seed,
    )  # fmt: skip
    assert p["alpha"] == alpha
    honest, one_bad = j["honest"], j["one_bad"]
    for k, rate, interval in (
        (honest["flagged"], honest["flag_rate"], honest["flag_rate_wilson95"]),
        (one_bad["flagged"], one_bad["power"], one_bad["power_wilson95"]),
    ):
        assert 0 <= k <= merges
        assert rate == pytest.approx(k / merges, abs=1e-12)
        assert interval == pytest.approx(list(wilson(k, merges)), abs=1e-9)
    assert 0 <= one_bad["named_worst"] <= merges
    assert one_bad["named_rate"] == pytest.approx(one_bad["named_worst"] / merges, abs=1e-12)
    # The verdict: exit 1 exactly when the false-flag rate is above alpha beyond Monte Carlo error.
    above = wilson(honest["flagged"], merges)[0] > alpha
    assert honest["within_alpha"] is (not above)
    assert r.returncode == (1 if above else 0)
    # The text says the same, and the honest run does not depend on the bad shard's law.
    text = sim(*args)
    assert text.returncode == r.returncode
    assert f"flagged {honest['flagged']} of {merges} " in text.stdout
    assert ("ABOVE alpha" in text.stdout) is above
    other = sim(*args[:-1], law_text(list(reversed(bad))), "--json")
    assert json.loads(other.stdout)["honest"] == honest


def test_the_verdict_changes_at_the_wilson_lower_bound_both_ways() -> None:
    # One merge, 9 permutations: a flagged merge has p = 0.1 (its statistic above all nine), so any
    # alpha in (0.1, 0.2] flags it and no other; 1 of 1 has the Wilson lower bound 1 / (1 + z²).
    lower = wilson(1, 1)[0]
    assert 0.2 < lower < 0.21
    flagged_seed = None
    for seed in range(1, 400):
        j = json.loads(sim(*small(seed, 0.15), "--json").stdout)
        if j["honest"]["flagged"] == 1:
            flagged_seed = seed
            break
    assert flagged_seed is not None, "no flagged merge in 400 seeds: the test cannot judge"
    below = sim(*small(flagged_seed, lower - 1e-6))  # breaks the rule by the smallest margin
    assert below.returncode == 1, below.stdout
    assert "flagged 1 of 1" in below.stdout and "ABOVE alpha" in below.stdout
    at = sim(*small(flagged_seed, lower + 1e-6))  # keeps it by the smallest margin
    assert at.returncode == 0, at.stdout
    assert "flagged 1 of 1" in at.stdout and "within alpha" in at.stdout
    none = sim(*small(flagged_seed, 0.05))  # no p-value of 9 permutations is below 0.05
    assert none.returncode == 0 and "flagged 0 of 1" in none.stdout


@settings(max_examples=40, deadline=None)
@given(
    items=st.lists(
        st.one_of(
            st.integers(0, 4).map(lambda w: repr(w / 4)),
            st.sampled_from(["-0.1", "x", "", "0.2.1", "1e-1", " 0.2", "nan", "inf"]),
        ),
        min_size=0,
        max_size=7,
    )
)
def test_a_law_is_five_probabilities_summing_to_one(items: list[str]) -> None:
    text = ",".join(items)

    def probability(s: str) -> float | None:
        try:
            v = float(s)
        except ValueError:
            return None
        return v if v >= 0 and math.isfinite(v) else None  # leading blanks are read past

    values = [probability(s) for s in items]
    valid = (
        len(items) == 5
        and all(v is not None for v in values)
        and abs(sum(v for v in values if v is not None) - 1) <= 1e-9
    )
    r = sim(*small(1, 0.05), "--law", text)
    assert r.returncode == (0 if valid else 2), (text, r.stderr)
    if not valid:
        assert "--law" in r.stderr, r.stderr
