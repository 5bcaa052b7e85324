"""Independent models of the net gates and figures (docs/harnesses/netlint.md, netquality.md,
docs/trained-net.md, docs/fail-high-calibration.md).

Each gate is checked both ways: the input that breaks it by the smallest margin fails exactly that
gate, the one that keeps it by the smallest margin passes; the figures are computed again from
their definitions (weighted AUC by pairs, Wilson interval, logistic optimum) and compared.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import chess
import numpy as np
import pytest
from conftest import board_after
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from stkref.junit import Outcome
from stktrain import calibration, datafile, fhfit, netlint, netquality, strength_report

Z95 = 1.96  # docs/fail-high-calibration.md#figures


def _failed(cases: list[Any]) -> set[str]:
    return {c.name for c in cases if c.outcome == Outcome.FAILED}


# MODEL netlint-gates
# checks: harness/python/stktrain/netlint.py  (the four gates of a net's integer ranges)
# contract: docs/harnesses/netlint.md#what-it-proves
# planted: ci/mutants/model-netlint-gates.patch  (exactly half the lanes dead fails the gate)
@given(
    st.sampled_from([128, 1024]),
    st.sampled_from([0.25, 0.5, 0.75]),
    st.sampled_from([0.25, 0.5]),
    st.integers(1, 32767),
    st.sampled_from([1.0, 2.0, 4.0]),
    st.integers(1, 2**31 - 1),
    st.sampled_from([8.0, 16.0]),
    st.sampled_from(["dead", "saturated", "int16", "int32"]),
    st.booleans(),
)
def test_model_netlint_gates_both_ways(
    lanes, dead_share, sat_share, max_abs, min16, max32, min32, which, breaking
):
    args = argparse.Namespace(
        min_int16_headroom=min16,
        min_int32_headroom=min32,
        max_dead_ft_share=dead_share,
        max_saturated_ft_share=sat_share,
    )
    # The passing edge of every gate: at most the share of lanes (integer lanes), headroom >= the
    # minimum (32767 / largest |accumulator|, 2^31-1 / largest |dense sum|).
    dead = math.floor(dead_share * lanes)
    sat = math.floor(sat_share * lanes)
    abs16 = min(max_abs, math.floor(32767 / min16))
    abs32 = min(max32, math.floor((2**31 - 1) / min32))
    if breaking:
        if which == "dead":
            dead += 1
        elif which == "saturated":
            sat += 1
        elif which == "int16":
            abs16 = math.floor(32767 / min16) + 1
        else:
            abs32 = math.floor((2**31 - 1) / min32) + 1
    s = {
        "ft": {
            "lanes": lanes,
            "dead_lanes": dead,
            "saturated_lanes": sat,
            "max_abs": abs16,
            "int16_headroom": 32767 / max(abs16, 1),
            "overflow_lanes": 0,
        },
        "int32_max_abs_sum": abs32,
        "int32_headroom": (2**31 - 1) / max(abs32, 1),
    }
    names = {
        "int16": "int16 accumulator headroom",
        "int32": "int32 dense-sum headroom",
        "dead": "dead feature-transformer lanes",
        "saturated": "saturated feature-transformer lanes",
    }
    cases = netlint.gate_cases(s, args, "netlint")
    assert {c.name for c in cases} == set(names.values())
    assert _failed(cases) == ({names[which]} if breaking else set())


def _ns(**kw: Any) -> argparse.Namespace:
    return argparse.Namespace(
        min_pair_accuracy=0.7, min_spread_ratio=0.5, max_collapsed_share=0.1, collapse_cp=15, **kw
    )


# MODEL netquality-gates
# checks: harness/python/stktrain/netquality.py  (pair accuracy, decided spread, collapsed share)
# contract: docs/harnesses/netquality.md#what-it-proves
# planted: ci/mutants/model-netquality-gates.patch  (a pair accuracy of exactly 70% fails)
@given(
    st.integers(1, 400),
    st.integers(1, 200),
    st.sampled_from(["pair", "spread", "collapsed"]),
    st.booleans(),
    st.integers(20, 400),
)
def test_model_netquality_gates_both_ways(pairs, decided, which, breaking, classical_spread):
    # The keeping edge by counts: the fewest correct pairs with accuracy >= 70%, the most
    # collapsed positions with a share <= 10%, a net spread of exactly half the classical one.
    correct = math.ceil(0.7 * pairs - 1e-9)
    collapsed = math.floor(0.1 * decided + 1e-9)
    net_spread = classical_spread * 0.5
    if breaking:
        if which == "pair":
            assume(correct >= 1)
            correct -= 1
        elif which == "collapsed":
            assume(collapsed + 1 <= decided)
            collapsed += 1
        else:
            net_spread = np.nextafter(net_spread, 0.0)
    s = {
        "pairs": pairs,
        "decided_positions": decided,
        "spread_ratio": net_spread / classical_spread,
        "net": {
            "pair_accuracy": float(np.mean([1] * correct + [0] * (pairs - correct))),
            "decided_median_spread_cp": net_spread,
            "decided_collapsed_share": float(
                np.mean([1] * collapsed + [0] * (decided - collapsed))
            ),
        },
        "classical": {
            "pair_accuracy": 0.9,
            "decided_median_spread_cp": float(classical_spread),
            "decided_collapsed_share": 0.0,
        },
    }
    names = {
        "pair": "pair accuracy",
        "spread": "decided spread",
        "collapsed": "collapsed decided positions",
    }
    assert _failed(netquality.gate_cases(s, _ns(), "q")) == ({names[which]} if breaking else set())
    # Nothing measured is never a pass.
    empty = dict(s, pairs=0, decided_positions=0)
    assert _failed(netquality.gate_cases(empty, _ns(), "q")) == set(names.values())


def _material(board: chess.Board) -> float:
    v = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 320, chess.ROOK: 500, chess.QUEEN: 900}
    own = sum(v.get(p.piece_type, 0) for p in board.piece_map().values() if p.color == board.turn)
    opp = sum(v.get(p.piece_type, 0) for p in board.piece_map().values() if p.color != board.turn)
    return float(own - opp + 7 * board.legal_moves.count())


def _evaluate(boards: list[chess.Board]) -> tuple[np.ndarray, np.ndarray]:
    classical = np.asarray([_material(b) for b in boards])
    return 0.8 * classical + 3.0, classical


def _random_board(rng: np.random.Generator, plies: int) -> chess.Board:
    b = chess.Board()
    for _ in range(plies):
        legal = list(b.legal_moves)
        if not legal:
            break
        b.push(legal[int(rng.integers(len(legal)))])
    return b


# MODEL netquality-colour-mirror
# checks: harness/python/stktrain/netquality.py  (labels in the side to move's view)
# contract: docs/harnesses/netquality.md#what-it-proves
# planted: ci/mutants/model-netquality-colour-mirror.patch  (the result left in White's view)
@given(st.integers(0, 10**6), st.integers(4, 9))
@settings(max_examples=12)
def test_model_netquality_colour_mirror(tmp_path_factory, seed: int, n_games: int):
    rng = np.random.default_rng(seed)
    tmp = tmp_path_factory.mktemp("nq")
    rows, mirrored = [], []
    for _ in range(n_games):
        result = ["1.0", "0.5", "0.0"][int(rng.integers(3))]
        start = int(rng.integers(2, 12))
        for ply in range(start, start + int(rng.integers(2, 6))):
            b = _random_board(rng, ply)
            if b.is_game_over():
                continue
            score = int(rng.integers(-2500, 2500))
            rows.append(f"{b.fen()} | {score} | {result} | {ply} | 1\n")
            mirrored.append(f"{b.mirror().fen()} | {-score} | {1.0 - float(result)} | {ply} | 1\n")
    a, m = tmp / "a.txt", tmp / "m.txt"
    a.write_text("".join(rows))
    m.write_text("".join(mirrored))

    def args(path: Path) -> argparse.Namespace:
        return _ns(
            data=[str(path)],
            seed=1,
            val_fraction=0.3,
            positions=0,
            pairs=200,
            pair_margin=50.0,
            decided_cp=1000.0,
            decided=5,
        )

    try:
        s = netquality.measure(args(a), _evaluate)
    except Exception as e:
        assert "too few" in str(e)
        return
    sm = netquality.measure(args(m), _evaluate)
    # The colour mirror of every position, labels mirrored: every figure the same.
    assert s == sm
    # The labels the figures use, by the docs: the side to move's view of White's score/result.
    held = netquality.holdout(datafile.read_records([a]), 0.3, 1)[1]
    boards = [chess.Board(r.fen) for r in held]
    sign = np.asarray([1.0 if b.turn == chess.WHITE else -1.0 for b in boards])
    score = sign * np.asarray([r.score for r in held], float)
    result = np.asarray(
        [
            r.result if b.turn == chess.WHITE else 1 - r.result
            for r, b in zip(held, boards, strict=False)
        ]
    )
    net = 0.8 * np.asarray([_material(b) for b in boards]) + 3.0
    assert math.isclose(s["net"]["mae_cp"], float(np.mean(np.abs(net - score))), rel_tol=1e-12)
    k = s["k_cp"]
    want = float(np.mean(np.abs(1 / (1 + np.exp(-net / k)) - result)))
    assert math.isclose(s["net"]["mae_wdl_result"], want, rel_tol=1e-9)


def _match(reasons_a: list[str], sprt: str | None, elo: float) -> dict[str, Any]:
    games = [{"reason": r} for r in reasons_a]
    pairs = [{"games": games[i : i + 2]} for i in range(0, len(games), 2)]
    summary: dict[str, Any] = {
        "games": len(games),
        "wdl": {"w": 1, "d": 2, "l": 3},
        "pentanomial_estimate": {"elo": elo, "elo_lower": elo - 10, "elo_upper": elo + 10},
    }
    if sprt:
        summary["sprt"] = {"llr": 0.5, "lower_bound": -2.94, "upper_bound": 2.94, "verdict": sprt}
    return {
        "summary": summary,
        "pairs": pairs,
        "definition": {
            "engines": [{"name": "nnue"}, {"name": "classical"}],
            "time_control": "1+0.01",
        },
    }


REASONS = [
    "checkmate",
    "stalemate",
    "threefold repetition",
    "adjudication: resign",
    "crash (exit 139)",
    "timeout: no bestmove within 10 s",
    "time forfeit",
    "illegal move e2e5",
    "fifty moves",
]
FAULT_KINDS = ("crash", "timeout", "time forfeit", "illegal move")


# MODEL strength-report-verdict
# checks: harness/python/stktrain/strength_report.py  (the verdict and the games lost by a fault)
# contract: docs/trained-net.md#games
# planted: ci/mutants/model-strength-report-verdict.patch  (a reason matched whole, not by kind)
@given(
    st.lists(st.sampled_from(REASONS), max_size=12),
    st.sampled_from(["H1 accepted", "H0 accepted", "continue"]),
    st.floats(-300, 300, allow_nan=False).map(lambda x: round(x, 1)),
)
def test_model_strength_report_verdict(reasons: list[str], sprt: str, elo: float):
    m = _match(reasons, sprt, elo)
    # A game lost by a fault: its reason is one of the four fault kinds (with its detail).
    lost = sum(
        any(r == k or r.startswith((k + " ", k + ":")) for k in FAULT_KINDS) for r in reasons
    )
    assert strength_report.faults(m) == lost
    row = strength_report.match_row("equal-time", m)
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[5] == str(lost)
    assert cells[6] == f"{elo:+.1f} [{elo - 10:+.1f}, {elo + 10:+.1f}]"
    assert cells[8] == sprt
    v = strength_report.verdict(m)
    # Only an accepted H1 makes the net the stronger; anything else keeps the classical eval.
    assert v.startswith("The net is stronger") == (sprt == "H1 accepted")
    if sprt != "H1 accepted":
        assert f"SPRT: {sprt}; Elo {elo:+.1f}, 95% [{elo - 10:+.1f}, {elo + 10:+.1f}]" in v
        # An undecided SPRT whose interval lies above 0 is "ahead", never "falls short".
        ahead = sprt == "continue" and elo - 10 > 0
        assert ("is ahead" in v) == ahead and ("falls short" in v) == (not ahead)


def _model_auc(score: np.ndarray, y: np.ndarray, w: np.ndarray) -> float | None:
    num = den = 0.0
    for i in range(len(score)):
        for j in range(len(score)):
            wp, wn = w[i] * y[i], w[j] * (1 - y[j])
            if wp == 0 or wn == 0:
                continue
            den += wp * wn
            if score[i] > score[j]:
                num += wp * wn
            elif score[i] == score[j]:
                num += 0.5 * wp * wn
    return None if den == 0 else num / den


# MODEL calibration-weighted-auc
# checks: harness/python/stktrain/calibration.py  (AUC by weight, ties counted half)
# contract: docs/fail-high-calibration.md#figures
# planted: ci/mutants/model-calibration-weighted-auc.patch  (a tie counted whole)
@given(
    st.lists(
        st.tuples(st.integers(0, 6), st.integers(0, 1), st.sampled_from([1.0, 2.0, 4.0, 0.5])),
        min_size=1,
        max_size=25,
    )
)
def test_model_calibration_weighted_auc(rows):
    score = np.asarray([r[0] for r in rows], np.float64)
    y = np.asarray([r[1] for r in rows], np.float64)
    w = np.asarray([r[2] for r in rows], np.float64)
    got, want = calibration.weighted_auc(score, y, w), _model_auc(score, y, w)
    if want is None:
        assert got is None
    else:
        assert got is not None and math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12)


def _logit(p: float) -> float:
    p = min(max(p, 1e-7), 1 - 1e-7)
    return math.log(p / (1 - p))


def _model_wilson(rate: float, n: float) -> tuple[float, float]:
    z2 = Z95 * Z95
    centre = (rate + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 / (1 + z2 / n) * math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


# MODEL calibration-flagged-gate
# checks: harness/python/stktrain/calibration.py  (a flagged population against its Wilson interval)
# contract: docs/fail-high-calibration.md#figures
# planted: ci/mutants/model-calibration-flagged-gate.patch  (n_eff taken as the sum of the weights)
@given(
    st.integers(300, 1500),
    st.integers(1, 10**6),
    st.sampled_from(["quick", "full"]),
    st.booleans(),
    st.booleans(),
)
@settings(max_examples=40)
def test_model_calibration_flagged_gate_both_ways(n, seed, tier_name, breaking, above):
    tier = calibration.TIERS[tier_name]
    rng = np.random.default_rng(seed)
    w = rng.choice([0.5, 1.0, 2.0, 4.0], size=n)
    y = (rng.random(len(w)) < rng.uniform(0.05, 0.95)).astype(np.float64)
    n_eff = w.sum() ** 2 / (w * w).sum()
    assume(n_eff >= tier.min_neff)
    realized = float((w * y).sum() / w.sum())
    lo, hi = _model_wilson(realized, n_eff)
    # A mean prediction the tolerance (in log-odds) beyond the interval, just inside or outside.
    margin = tier.tolerance + (1e-6 if breaking else -1e-6)
    edge = _logit(hi) + margin if above else _logit(lo) - margin
    p = np.full(len(w), 1 / (1 + math.exp(-edge)))
    flagged = np.ones(len(w), bool)
    d = calibration.decision_stats(p, y, w, "rule", flagged, flagged)
    cell = d["flagged"]
    assert math.isclose(cell["n_eff"], n_eff, rel_tol=1e-12)
    assert math.isclose(cell["wilson_lo"], lo, rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(cell["wilson_hi"], hi, rel_tol=1e-9, abs_tol=1e-12)
    case = calibration.decision_case("rule", d, tier)
    assert case.outcome == (Outcome.FAILED if breaking else Outcome.PASSED), case.message


def _objective(x, y, w, l2, t):
    z = t[0] + x @ t[1:]
    ws = w / w.sum()
    return float(ws @ (np.logaddexp(0.0, z) - y * z) + 0.5 * l2 * float(t[1:] @ t[1:]))


# MODEL fhfit-logistic-optimum
# checks: harness/python/stktrain/fhfit.py  (weighted log-loss + l2/2 |coef|^2, intercept free)
# contract: docs/fail-high-calibration.md#figures
# planted: ci/mutants/model-fhfit-logistic-optimum.patch  (the intercept penalized too)
@given(
    st.integers(0, 10**6),
    st.integers(20, 120),
    st.integers(1, 4),
    st.sampled_from([0.01, 0.1, 1.0]),
)
@settings(max_examples=30)
def test_model_fhfit_logistic_optimum(seed, n, k, l2):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, k))
    w = rng.choice([0.5, 1.0, 2.0, 8.0], size=n)
    y = (rng.random(n) < 1 / (1 + np.exp(-(1.5 + x @ rng.normal(size=k))))).astype(float)
    assume(0 < (w * y).sum() < w.sum())
    fit = fhfit.fit_logistic(x, y, w, l2)
    t = np.r_[fit.intercept, fit.coef]
    here = _objective(x, y, w, l2, t)
    assert fit.converged
    assert math.isclose(fit.loss, here, rel_tol=1e-9, abs_tol=1e-12)
    # The minimum of the stated objective: no coordinate step lowers it.
    for j in range(k + 1):
        for step in (1e-3, -1e-3):
            e = np.zeros(k + 1)
            e[j] = step
            assert _objective(x, y, w, l2, t + e) >= here - 1e-12, (j, step)
    # Weights are relative: scaling them all changes nothing; a record of weight 2 is two of 1.
    fit2 = fhfit.fit_logistic(x, y, 3.0 * w, l2)
    assert np.allclose(np.r_[fit2.intercept, fit2.coef], t, atol=1e-7)


def _write(path: Path, doc: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))


def _work(tmp: Path, elos: dict[str, float], verdicts: dict[str, str | None]) -> Path:
    for name, elo in elos.items():
        _write(tmp / "match" / f"{name}.json", _match(["checkmate"] * 2, verdicts[name], elo))
    for n in strength_report.GAP_MATCHES:
        figures = {"moves": 3, "mean_ms": 20.0, "mean_depth": 12.0, "mean_nodes": 4e4,
                   "nodes_per_second": 2e6, "branching_factor": 2.2}  # fmt: skip
        per_phase = dict.fromkeys(strength_report.PHASES, figures)
        _write(tmp / "move-times" / f"{n}.json", {"engines": {"a": per_phase, "b": per_phase}})
    for n in ("classical", "nnue"):
        _write(
            tmp / "search-speed" / f"{n}.json",
            {
                "stk": {"nodes_per_second": 1000},
                "reference_run": {"nodes_per_second": 900},
                "reference_options": [],
                "speed_ratio": 1.1,
            },
        )
    _write(
        tmp / "drift" / "drift-trained.json",
        {
            "abs_delta_cp": {"p99": 1.0, "max": 2.0, "mean": 0.5},
            "positions": 10,
            "engine": {
                "engine-vs-oracle": {"mismatches": 0},
                "engine-vs-oracle-mirror": {"mismatches": 0},
            },
        },
    )
    ft = {
        "clipped_low_share": 0.1,
        "clipped_high_share": 0.01,
        "dead_lanes": 0,
        "saturated_lanes": 0,
        "lanes": 128,
        "int16_headroom": 100.0,
    }
    _write(tmp / "netlint" / "trained.json", {"ft": ft, "positions": 5, "int32_headroom": 1e4})
    side = {
        "mae_cp": 1.0,
        "mae_wdl_score": 0.1,
        "mae_wdl_result": 0.2,
        "pair_accuracy": 0.9,
        "decided_median_spread_cp": 100.0,
        "decided_collapsed_share": 0.01,
    }
    _write(
        tmp / "netquality" / "trained.json",
        {
            "positions": 10,
            "validation_games": 2,
            "pairs": 5,
            "decided_positions": 3,
            "scale_net_per_classical": 1.0,
            "net": side,
            "classical": side,
        },
    )
    return tmp


elo_figure = st.floats(-400, 400, allow_nan=False).map(lambda x: round(x, 1))


# MODEL strength-report-gauntlet
# checks: harness/python/stktrain/strength_report.py  (the page's Elo rows and the gauntlet gap)
# contract: docs/trained-net.md#games
# planted: ci/mutants/model-strength-report-gauntlet.patch  (the gap taken the wrong way round)
@given(
    st.fixed_dictionaries(dict.fromkeys(strength_report.MATCHES, elo_figure)),
    st.sampled_from(["H1 accepted", "H0 accepted", "continue"]),
)
@settings(max_examples=25)
def test_model_strength_report_page(tmp_path_factory, elos: dict[str, float], sprt: str):
    verdicts: dict[str, str | None] = dict.fromkeys(strength_report.MATCHES, sprt)
    verdicts["gauntlet-nnue"] = verdicts["gauntlet-classical"] = None
    page = strength_report.render(_work(tmp_path_factory.mktemp("work"), elos, verdicts))
    for n, e in elos.items():  # every match row carries its own Elo and interval
        row = next(line for line in page.splitlines() if line.startswith(f"| {n} |"))
        assert f"| {e:+.1f} [{e - 10:+.1f}, {e + 10:+.1f}] |" in row
        assert row.rstrip().endswith("| measurement |" if n.startswith("gaunt") else f"| {sprt} |")
    gap = elos["gauntlet-nnue"] - elos["gauntlet-classical"]
    assert f"the difference {gap:+.1f} Elo is the net against the classical evaluation" in page
    # Swapping the two gauntlets (the net's and the classical one's) negates the difference.
    swapped = dict(
        elos,
        **{
            "gauntlet-nnue": elos["gauntlet-classical"],
            "gauntlet-classical": elos["gauntlet-nnue"],
        },
    )
    page2 = strength_report.render(_work(tmp_path_factory.mktemp("work"), swapped, verdicts))
    assert f"the difference {-gap + 0.0:+.1f} Elo" in page2
    assert ("The net is stronger at equal time" in page) == (sprt == "H1 accepted")


# MODEL netquality-holdout-is-the-trainers
# checks: harness/python/stktrain/netquality.py  (the held-out games are the trainer's)
# contract: docs/harnesses/netquality.md#what-it-proves
# planted: ci/mutants/model-netquality-holdout-is-the-trainers.patch  (games drawn from all records)
@given(
    st.lists(st.tuples(st.integers(1, 5), st.integers(0, 3)), min_size=3, max_size=14),
    st.integers(0, 50),
    st.sampled_from([0.1, 0.2, 0.3, 0.5]),
)
@settings(max_examples=40)
def test_model_netquality_holdout_is_the_trainers(tmp_path_factory, games, seed, fraction):
    from stktrain import train

    fen = chess.Board().fen()
    lines = []
    for quiet_n, loud_n in games:  # a game's first ply is 1: each one starts a new game
        flags = [0] * loud_n + [1] * (quiet_n if quiet_n % 2 else 0)  # some games all loud
        for ply, q in enumerate(flags or [1], 1):
            lines.append(f"{fen} | 10 | 0.5 | {ply} | {q}\n")
    data = tmp_path_factory.mktemp("hold") / "d.txt"
    data.write_text("".join(lines))
    recs = datafile.read_records([data])
    try:
        _, held = netquality.holdout(recs, fraction, seed)
    except Exception as e:
        assert "too few" in str(e) or "no quiet" in str(e)
        return
    d = train.read_data([data], True, 0)  # the trainer's default: quiet records only
    _, val = train.split_by_game(d, fraction, seed)
    assert sorted({r.game for r in held}) == sorted(set(val.game.tolist()))
    assert len(held) == len(val)


# MODEL netlint-ft-figures
# checks: harness/python/stktrain/netlint.py  (the feature transformer's clipping and headroom)
# contract: docs/harnesses/netlint.md#what-it-proves
# planted: ci/mutants/model-netlint-ft-figures.patch  (a lane dead when it is at 0 once)
@given(st.lists(st.lists(st.integers(0, 10**6), max_size=40), min_size=1, max_size=6))
@settings(max_examples=15)
def test_model_netlint_ft_figures(model128, games):
    from stkref.features import active_features

    boards = [board_after(moves) for moves in games]
    # Every perspective's accumulator, in wide integers: bias + the active features' rows.
    accs = []
    for b in boards:
        for colour in (b.turn, not b.turn):
            acc = [int(x) for x in model128.ft_bias]
            for f in active_features(b, colour):
                row = model128.ft_weight[f]
                acc = [a + int(w) for a, w in zip(acc, row, strict=True)]
            accs.append(acc)
    lanes = len(accs[0])
    cells = [v for acc in accs for v in acc]
    ft = netlint.lint(model128, boards)["ft"]
    assert ft["lanes"] == lanes
    assert ft["clipped_low_share"] == pytest.approx(sum(v <= 0 for v in cells) / len(cells))
    assert ft["clipped_high_share"] == pytest.approx(sum(v >= 127 for v in cells) / len(cells))
    assert ft["dead_lanes"] == sum(all(acc[i] <= 0 for acc in accs) for i in range(lanes))
    assert ft["saturated_lanes"] == sum(all(acc[i] >= 127 for acc in accs) for i in range(lanes))
    biggest = max(abs(v) for v in cells)
    assert ft["max_abs"] == biggest
    assert ft["int16_headroom"] == pytest.approx(32767 / max(biggest, 1))


# MODEL calibration-deciles
# checks: harness/python/stktrain/calibration.py  (equal-weight bins of predicted probability)
# contract: docs/fail-high-calibration.md#figures
# planted: ci/mutants/model-calibration-deciles.patch  (a record binned by its weight's end)
@given(
    st.lists(
        st.tuples(st.integers(0, 30), st.integers(0, 1), st.sampled_from([0.5, 1.0, 2.0, 16.0])),
        min_size=1,
        max_size=40,
    )
)
def test_model_calibration_deciles(rows):
    p = np.asarray([r[0] / 30 for r in rows])
    y = np.asarray([r[1] for r in rows], np.float64)
    w = np.asarray([r[2] for r in rows])
    total = float(w.sum())
    # Sorted by p (ties in input order), a record goes to the bin holding the midpoint of its
    # weight on the cumulative axis: bin = floor(10 * midpoint / total), at most 9.
    members: dict[int, list[int]] = {}
    before = 0.0
    for i in sorted(range(len(rows)), key=lambda i: (p[i], i)):
        mid = before + w[i] / 2
        members.setdefault(min(int(10 * mid / total), 9), []).append(i)
        before += w[i]
    got = calibration.deciles(p, y, w)
    assert [d["bin"] for d in got] == sorted(members)
    for d in got:
        idx = members[d["bin"]]
        assert d["records"] == len(idx)
        assert d["weight"] == pytest.approx(float(w[idx].sum()))
        assert d["mean_prediction"] == pytest.approx(float((p[idx] * w[idx]).sum() / w[idx].sum()))
        assert d["realized_rate"] == pytest.approx(float((y[idx] * w[idx]).sum() / w[idx].sum()))


_figure = st.floats(0.5, 5e6, allow_nan=False)
figure_or_none = st.one_of(_figure, _figure, _figure, st.none())  # null one time in four


# MODEL strength-report-gap
# checks: harness/python/stktrain/strength_report.py  (the equal-time gap table and its ratios)
# contract: docs/training.md#where-the-clock-goes-python--m-stktrainmove_times
# planted: ci/mutants/model-strength-report-gap.patch  (the ratio line's engines taken in reverse)
@given(
    st.lists(
        st.fixed_dictionaries(
            dict.fromkeys(("mean_ms", "mean_depth", "mean_nodes"), figure_or_none)
            | {"nodes_per_second": figure_or_none, "branching_factor": figure_or_none}
        ),
        min_size=8,
        max_size=8,
    ),
    st.integers(0, 10**6),
)
@settings(max_examples=40)
def test_model_strength_report_gap(tmp_path_factory, figures: list[dict], moves: int):
    # Two engines x four phases, in the tool's order; every figure may be missing (null).
    phases = strength_report.PHASES
    engines = {
        e: {p: dict(figures[i * 4 + j], moves=moves) for j, p in enumerate(phases)}
        for i, e in enumerate(("x", "y"))
    }
    path = tmp_path_factory.mktemp("gap") / "t.json"
    _write(path, {"engines": engines})
    lines = strength_report.gap_lines({"equal-time": strength_report.load(path)})

    def cell(v: float | None, fmt: str) -> str:
        return "-" if v is None else format(v, fmt)

    rows = [
        f"| equal-time | {p} | {e} | {moves} | {cell(f['mean_ms'], '.1f')} | "
        f"{cell(f['mean_depth'], '.2f')} | {cell(f['mean_nodes'], '.0f')} | "
        f"{cell(f['nodes_per_second'], '.0f')} | {cell(f['branching_factor'], '.3f')} |"
        for p in phases
        for e, per in engines.items()
        for f in [per[p]]
    ]
    assert lines[2:10] == rows
    a, b = engines["x"]["all"], engines["y"]["all"]
    ratio = [line for line in lines if line.startswith("- equal-time:")]
    if all(
        v is not None
        for v in (a["nodes_per_second"], b["nodes_per_second"], a["mean_ms"], b["mean_ms"])
    ):
        nps = a["nodes_per_second"] / b["nodes_per_second"]
        ms = a["mean_ms"] / b["mean_ms"]
        depth = (
            ""
            if a["mean_depth"] is None or b["mean_depth"] is None
            else f", depth {a['mean_depth'] - b['mean_depth']:+.2f} plies"
        )
        assert ratio == [f"- equal-time: x over y nodes/s {nps:.3f}, time per move {ms:.3f}{depth}"]
    else:
        assert ratio == []


def test_strength_report_writes_the_page_and_exits_0(tmp_path: Path) -> None:
    elos = dict.fromkeys(strength_report.MATCHES, 1.0)
    work = _work(tmp_path / "work", elos, dict.fromkeys(strength_report.MATCHES, "H0 accepted"))
    page = tmp_path / "page.md"
    assert strength_report.main([str(work), "--out", str(page)]) == 0
    assert page.read_text() == strength_report.render(work)
