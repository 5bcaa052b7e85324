"""Independent model of stkref.sprt (GSPRT LLR, estimates, bounds), written from
docs/match-results.md: the constrained maximum-likelihood fits are found here by a general
optimizer (SLSQP) and by Brent's root finder, not by the module's bisection and refits."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq, minimize
from scipy.stats import norm

from stkref import sprt

NELO_PER_T = 800 / math.log(10)


def regularized(counts: list[int]) -> tuple[np.ndarray, np.ndarray, float]:
    c = np.array([x if x > 0 else 0.001 for x in counts], dtype=np.float64)
    a = np.arange(len(counts)) / (len(counts) - 1)
    return a, c / c.sum(), float(c.sum())


def fit_logistic(a: np.ndarray, p: np.ndarray, s: float) -> np.ndarray:
    phi = a - s
    g = lambda x: float(np.sum(p * phi / (1 + x * phi)))  # noqa: E731
    eps = 1e-12
    x = brentq(g, -1 / phi.max() + eps, -1 / phi.min() - eps, xtol=1e-15, rtol=1e-15)
    return p / (1 + x * phi)


def fit_normalized(a: np.ndarray, p: np.ndarray, t: float) -> np.ndarray:
    """argmax sum p log q over the simplex with (mean(q) - 1/2) / sd(q) = t, by SLSQP."""

    def q_of(z: np.ndarray) -> np.ndarray:
        e = np.exp(z - z.max())
        return e / e.sum()

    def cons(z: np.ndarray) -> float:
        q = q_of(z)
        m = float(q @ a)
        return m - 0.5 - t * math.sqrt(float(q @ (a - m) ** 2))

    res = minimize(
        lambda z: -float(p @ np.log(q_of(z))),
        np.log(p),
        method="SLSQP",
        constraints=[{"type": "eq", "fun": cons}],
        options={"ftol": 1e-15, "maxiter": 500},
    )
    return q_of(res.x)


def model_llr(counts: list[int], elo0: float, elo1: float, model: str) -> float:
    a, p, n = regularized(counts)
    if model == "logistic":
        q0 = fit_logistic(a, p, 1 / (1 + 10 ** (-elo0 / 400)))
        q1 = fit_logistic(a, p, 1 / (1 + 10 ** (-elo1 / 400)))
    else:
        g = 2 if len(counts) == 5 else 1
        q0 = fit_normalized(a, p, elo0 * math.sqrt(g) / NELO_PER_T)
        q1 = fit_normalized(a, p, elo1 * math.sqrt(g) / NELO_PER_T)
    return n * float(np.sum(p * (np.log(q1) - np.log(q0))))


pentas = st.lists(st.integers(1, 3000), min_size=5, max_size=5)
trinos = st.lists(st.integers(1, 3000), min_size=3, max_size=3)
elo_pairs = st.tuples(st.floats(-10, 10), st.floats(0.5, 10)).map(lambda t: (t[0], t[0] + t[1]))


# MODEL sprt-llr-logistic
# checks: harness/python/stkref/sprt.py  (the GSPRT LLR with the logistic Elo constraint)
# contract: docs/match-results.md#3-sprt-statssprth-statsconstrained_mleh
# planted: ci/mutants/model-sprt-llr-logistic.patch  (the logistic score uses 10^(-elo/200))
@given(st.one_of(pentas, trinos), elo_pairs)
def test_llr_logistic_equals_model(counts: list[int], elos: tuple[float, float]) -> None:
    try:
        got = sprt.llr(counts, *elos, model="logistic")
    except sprt.InputError:
        assume(False)
    want = model_llr(counts, *elos, "logistic")
    assert got == pytest.approx(want, rel=1e-6, abs=1e-6)


# MODEL sprt-llr-normalized
# checks: harness/python/stkref/sprt.py  (the GSPRT LLR with the normalized-Elo t-value constraint)
# contract: docs/match-results.md#3-sprt-statssprth-statsconstrained_mleh
# planted: ci/mutants/model-sprt-llr-normalized.patch  (the pair t-value scaled as if one game per sample)
@settings(max_examples=40)
@given(st.one_of(pentas, trinos), elo_pairs)
def test_llr_normalized_equals_model(counts: list[int], elos: tuple[float, float]) -> None:
    try:
        got = sprt.llr(counts, *elos, model="normalized")
    except sprt.InputError:
        assume(False)
    want = model_llr(counts, *elos, "normalized")
    assert got == pytest.approx(want, rel=1e-4, abs=1e-4)


def test_llr_published_values() -> None:
    """docs/harnesses/sprt.md's rechecks, to the printed digits."""
    assert round(sprt.llr([200, 4860, 10023, 4742, 175], 0, 2), 2) == -2.50
    assert round(sprt.llr([1, 1941, 6275, 2194, 2], 0, 2), 2) == 2.94
    assert round(model_llr([200, 4860, 10023, 4742, 175], 0, 2, "normalized"), 2) == -2.50


# MODEL sprt-llr-mirror
# checks: harness/python/stkref/sprt.py  (mirrored counts with mirrored hypotheses, or swapped bounds: the LLR negated)
# contract: docs/match-results.md#3-sprt-statssprth-statsconstrained_mleh
# planted: ci/mutants/model-sprt-llr-mirror.patch  (outcomes k/n instead of k/(n-1): not centred on 1/2)
@given(
    st.lists(st.integers(0, 2000), min_size=5, max_size=5),
    elo_pairs,
    st.sampled_from(["normalized", "logistic"]),
)
def test_llr_mirror_and_swap(counts: list[int], elos: tuple[float, float], model: str) -> None:
    assume(sum(counts) > 0)
    e0, e1 = elos
    try:
        base = sprt.llr(counts, e0, e1, model)
    except sprt.InputError:
        assume(False)
    assert sprt.llr(counts[::-1], -e1, -e0, model) == pytest.approx(-base, rel=1e-7, abs=1e-7)
    assert sprt.llr(counts, e1, e0, model) == pytest.approx(-base, rel=1e-7, abs=1e-7)


def model_estimate(counts: list[int]) -> dict[str, float]:
    a, p, n = regularized(counts)
    m = float(p @ a)
    v = float(p @ (a - m) ** 2)
    z = norm.ppf(0.975)

    def elo(s: float) -> float:
        s = min(max(s, 0.001), 0.999)
        return -400 * math.log10(1 / s - 1)

    se = math.sqrt(v / n)
    g = 2 if len(counts) == 5 else 1
    t = (m - 0.5) / math.sqrt(v)
    skew = float(p @ (a - m) ** 3) / v**1.5
    exkurt = float(p @ (a - m) ** 4) / v**2 - 3
    var_t = max(1 - t * skew + t * t * (exkurt + 2) / 4, 0)
    return {
        "score": m,
        "elo": elo(m),
        "elo_lower": elo(m - z * se),
        "elo_upper": elo(m + z * se),
        "nelo": NELO_PER_T * t / math.sqrt(g),
        "nelo_error": NELO_PER_T / math.sqrt(g) * z * math.sqrt(var_t / n),
        "los": float(norm.cdf((m - 0.5) / se)),
    }


# MODEL sprt-estimates
# checks: harness/python/stkref/sprt.py  (score, Elo interval, nElo and its error, LOS)
# contract: docs/match-results.md#2-estimates-statseloh-statsscore_distributionh
# planted: ci/mutants/model-sprt-estimates.patch  (nElo divided by sqrt(2) for games as well as pairs)
@given(st.one_of(st.lists(st.integers(0, 5000), min_size=5, max_size=5), trinos))
def test_estimates_equal_model(counts: list[int]) -> None:
    assume(sum(1 for c in counts if c > 0) >= 2)
    got = sprt.estimate(counts)
    for k, v in model_estimate(counts).items():
        assert getattr(got, k) == pytest.approx(v, rel=1e-7, abs=1e-9), k


@given(st.floats(0.001, 0.499), st.floats(0.001, 0.499))
def test_bounds_are_walds(alpha: float, beta: float) -> None:
    lo, hi = sprt.bounds(alpha, beta)
    assert lo == pytest.approx(math.log(beta / (1 - alpha)))
    assert hi == pytest.approx(math.log((1 - beta) / alpha))
    if alpha == beta == 0.05:
        assert (round(lo, 2), round(hi, 2)) == (-2.94, 2.94)


LIMIT = 2**53


def model_refusal(counts: list[int]) -> str | None:
    """docs/faults.md "Counts": a count or a running sum above 2^53, or no sample, is refused."""
    total = 0
    for c in counts:
        total += c
        if c > LIMIT:
            return "is above the limit of 2^53"
        if total > LIMIT:
            return "brings the sum above the limit of 2^53"
    return "all counts are 0" if total == 0 else None


# MODEL sprt-count-limits
# checks: harness/python/stkref/sprt.py  (which counts the tool takes: 2^53 per count and in sum, not all 0)
# contract: docs/faults.md#counts
# planted: ci/mutants/model-sprt-count-limits.patch  (a count of exactly 2^53 refused)
@given(
    st.lists(
        st.one_of(
            st.integers(0, 50),
            st.sampled_from([LIMIT - 1, LIMIT, LIMIT + 1, LIMIT // 2, LIMIT // 2 + 1]),
        ),
        min_size=5,
        max_size=5,
    )
)
def test_sprt_counts_equal_model(counts: list[int]) -> None:
    from stkref.cli import run_tool

    said: list[str] = []
    with pytest.MonkeyPatch.context() as mp:
        from stkref import cli

        mp.setattr(cli, "_say", said.append)
        argv = ["--pentanomial", ",".join(map(str, counts)), "--elo0", "0", "--elo1", "2"]
        rc = run_tool(lambda: sprt.main(argv))
    want = model_refusal(counts)
    if want is None:
        # a bound the counts cannot express is refused by name, as stk-harness sprt does
        out_of_reach = ("out of reach", "did not converge", "outside what the observed")
        assert (rc, said) == (0, []) or (
            rc == 2 and len(said) == 1 and any(w in said[0] for w in out_of_reach)
        ), said
    else:
        assert rc == 2 and len(said) == 1 and want in said[0], said
