"""The independent Python reference (stkref.sprt) against published values, and against
`stk-harness sprt --json` on seeded random counts (runs when STK_HARNESS names the binary)."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess

import pytest

from stkref import sprt

HARNESS = os.environ.get("STK_HARNESS", "")


def test_published_fishtest_values() -> None:
    # Stockfish commit 5c0388310731ba4bf7989210cb69be67b53bb43d, tests.stockfishchess.org/tests/view/65cb6aed1d8e83c78bfd0802:
    # "Elo: -1.46 ± 1.8 (95%) LOS: 5.5% ... Ptnml(0-2): 200, 4860, 10023, 4742, 175 nElo: -2.77 ± 3.4 (95%)"
    e = sprt.estimate([200, 4860, 10023, 4742, 175])
    assert round(e.elo, 2) == -1.46 and round(e.elo_error, 1) == 1.8
    assert round(100 * e.los, 1) == 5.5
    assert round(e.nelo, 2) == -2.77 and round(e.nelo_error, 1) == 3.4
    # Same commit, VVLTC: "LLR: 2.94 (-2.94,2.94) <0.00,2.00> ... Ptnml(0-2): 1, 1941, 6275, 2194, 2"
    assert round(sprt.llr([1, 1941, 6275, 2194, 2], 0.0, 2.0), 2) == 2.94
    assert [round(b, 2) for b in sprt.bounds(0.05, 0.05)] == [-2.94, 2.94]


def test_published_fastchess_values() -> None:
    # fastchess app/tests/sprt_test.cpp: LL, LD, WL+DD, WD, WW; trinomial as L, D, W here.
    assert round(sprt.llr([365, 16618, 36029 + 200, 16974, 390], 0, 2), 2) == 2.25
    assert round(sprt.llr([223, 9863, 20279 + 1000, 10037, 246], 0.5, 2.5, "logistic"), 2) == -3.07
    assert round(sprt.llr([36027, 68692, 36433], 0, 2), 2) == 0.92
    assert round(sprt.llr([57030, 106593, 57433], 0, 2, "logistic"), 2) == -2.59


def test_all_draws_cannot_favour_h1() -> None:
    # The observed law has mean 1/2: it is the H0 (nElo 0) fit itself, so LLR = -N KL(obs || H1 fit) <= 0.
    assert sprt.llr([0, 16700, 0], 0, 5) < 0


def random_counts(rng: random.Random, n: int) -> list[int]:
    scale = rng.choice([3, 30, 300, 30000])
    counts = [rng.randrange(0, scale) for _ in range(n)]
    if rng.random() < 0.2:
        counts[rng.randrange(n)] = 0  # regularized outcomes
    if sum(counts) == 0:
        counts[n // 2] = 1
    return counts


@pytest.mark.skipif(not HARNESS, reason="set STK_HARNESS=/path/to/stk-harness to run")
def test_stk_harness_sprt_agrees_with_the_reference() -> None:
    rng = random.Random(20240601)
    checked = 0
    # First a case where the t-value fit sits at its rounding floor (found by stk-harness sprt-sim).
    fixed = [([0, 0, 6, 12, 1], "normalized", -3.0, 1.0)]
    for i in range(60):
        if i < len(fixed):
            penta, model, elo0, elo1 = fixed[i]
        else:
            penta = random_counts(rng, 5)
            model = rng.choice(["normalized", "logistic"])
            elo0 = rng.uniform(-5, 3)
            elo1 = elo0 + rng.uniform(0.5, 8)
        args = [
            HARNESS,
            "sprt",
            "--pentanomial",
            ",".join(map(str, penta)),
            "--elo0",
            repr(elo0),
            "--elo1",
            repr(elo1),
            "--model",
            model,
            "--json",
        ]
        wdl = None
        if rng.random() < 0.5:
            games = 2 * sum(penta)
            w = rng.randrange(0, games + 1)
            d = rng.randrange(0, games - w + 1)
            wdl = [w, d, games - w - d]
            if sum(wdl) == 0 or wdl == [0, 0, 0]:
                wdl = None
            else:
                args += ["--wdl", ",".join(map(str, wdl))]
        proc = subprocess.run(args, capture_output=True, text=True, check=False)
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        ref = sprt.estimate(penta)
        got = out["pentanomial_estimate"]
        for key in ("score", "elo", "elo_lower", "elo_upper", "nelo", "nelo_error", "los"):
            assert math.isclose(got[key], getattr(ref, key), rel_tol=1e-9, abs_tol=1e-9), (
                penta,
                key,
            )
        assert math.isclose(
            out["sprt"]["llr"], sprt.llr(penta, elo0, elo1, model), rel_tol=1e-7, abs_tol=1e-7
        ), (penta, elo0, elo1, model)
        if wdl:
            tri = sprt.estimate([wdl[2], wdl[1], wdl[0]])
            for key in ("elo", "nelo", "los"):
                assert math.isclose(
                    out["trinomial_estimate"][key], getattr(tri, key), rel_tol=1e-9, abs_tol=1e-9
                )
        checked += 1
    assert checked == 60
