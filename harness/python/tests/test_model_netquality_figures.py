"""An independent model of netquality's figures (docs/harnesses/netquality.md "What it proves"),
computed here in plain Python from the contract and compared with stktrain.netquality.measure on
one data file under generated evaluations and options: the holdout errors, the pair accuracy over
the pairs the run drew (each checked against the margin), the decided spreads with their median,
ratio and collapsed share, and the scale (a slope through the origin over evals within 1000 cp).
The held-out split and K are taken as given: the trainer's split and K fit have their own models
(netquality-holdout-is-the-trainers, train-k-fit)."""

from __future__ import annotations

import hashlib
import math
import statistics
from pathlib import Path

import chess
import numpy as np
import pytest
from conftest import material, material_games
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from stktrain import netquality
from stktrain.datafile import read_records
from stktrain.train import fit_scale


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("nq-figures") / "data.txt"
    material_games(path, 16, 3, plies=(30, 90))
    return path


def args_for(data: Path, tmp: Path, decided_cp: int, collapse: int, margin: int, seed: int):
    net, engine = tmp / "n.nnue", tmp / "stk"
    net.touch()
    engine.touch(0o755)
    return netquality.build_parser().parse_args(
        [
            "--net", str(net), "--data", str(data), "--engine", str(engine),
            "--val-fraction", "0.5", "--seed", str(seed), "--positions", "0",
            "--decided-cp", str(decided_cp), "--decided", "100000", "--collapse-cp", str(collapse),
            "--pair-margin", str(margin), "--pairs", "300", "--reports-dir", str(tmp),
        ]
    )  # fmt: skip


def noise(board: chess.Board, salt: int, size: int) -> int:
    digest = hashlib.sha256(f"{salt} {board.fen()}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % (2 * size + 1) - size


def evaluation(weight: float, salt: int, size: int, step: int):
    """A deterministic eval of a board from its side to move's view: weight x material plus
    noise, rounded to multiples of `step` (a coarse step makes ties)."""

    def of(board: chess.Board) -> float:
        m = material(board) if board.turn == chess.WHITE else -material(board)
        return float(step * round((weight * m + noise(board, salt, size)) / step))

    return of


def stm_label(fen: str, score: float, result: float) -> tuple[float, float]:
    white = chess.Board(fen).turn == chess.WHITE
    return (score, result) if white else (-score, 1.0 - result)


def sigmoid(x: float, k: float) -> float:
    z = max(-50.0, min(50.0, x / k))
    return 1.0 / (1.0 + math.exp(-z))


def spread_of(board: chess.Board, of) -> float | None:
    """max - min over the legal moves of the child's eval from the mover's view (None: fewer
    than two legal moves)."""
    seen = []
    for move in board.legal_moves:
        board.push(move)
        seen.append(-of(board))
        board.pop()
    return max(seen) - min(seen) if len(seen) >= 2 else None


def expected_figures(held, k, of, pairs, decided_cp, collapse) -> dict:
    labels = [stm_label(r.fen, r.score, r.result) for r in held]
    evals = [of(chess.Board(r.fen)) for r in held]
    n = len(held)
    out = {
        "mae_cp": sum(abs(e - s) for e, (s, _) in zip(evals, labels, strict=True)) / n,
        "mae_wdl_score": sum(
            abs(sigmoid(e, k) - sigmoid(s, k)) for e, (s, _) in zip(evals, labels, strict=True)
        )
        / n,
        "mae_wdl_result": sum(
            abs(sigmoid(e, k) - w) for e, (_, w) in zip(evals, labels, strict=True)
        )
        / n,
    }
    ordered = 0
    for i, j in pairs:
        de, ds = evals[i] - evals[j], labels[i][0] - labels[j][0]
        ordered += (de > 0 and ds > 0) or (de < 0 and ds < 0)
    out["pair_accuracy"] = ordered / len(pairs) if pairs else 0.0
    spreads = [
        sp
        for r, (s, _) in zip(held, labels, strict=True)
        if abs(s) > decided_cp and (sp := spread_of(chess.Board(r.fen), of)) is not None
    ]
    out["decided_median_spread_cp"] = statistics.median(spreads) if spreads else 0.0
    out["decided_collapsed_share"] = (
        sum(sp < collapse for sp in spreads) / len(spreads) if spreads else 0.0
    )
    out["decided"] = len(spreads)
    return out


def slope_through_origin(net: list[float], classical: list[float]) -> float:
    both = [
        (a, b) for a, b in zip(net, classical, strict=True) if abs(a) <= 1000 and abs(b) <= 1000
    ]
    den = sum(b * b for _, b in both)
    return sum(a * b for a, b in both) / den if den else 0.0


# MODEL netquality-figures
# checks: harness/python/stktrain/netquality.py  (holdout errors, pair accuracy, decided spreads, scale)
# contract: docs/harnesses/netquality.md#what-it-proves
# planted: ci/mutants/model-netquality-figures.patch  (the scale fitted over every position, the 1000 cp bound dropped)
@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    phases=(Phase.explicit, Phase.generate),  # each example runs a measure: no minutes of shrinking
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    net=st.tuples(st.sampled_from([0.5, 1.0, 1.6, 3.0]), st.integers(0, 99), st.integers(0, 400)),
    step=st.sampled_from([1, 10, 50]),
    decided_cp=st.sampled_from([100, 300, 600]),
    collapse=st.integers(1, 300),
    margin=st.sampled_from([1, 50, 200]),
    seed=st.integers(1, 5),
)
def test_netquality_figures_follow_the_contract(
    data: Path, tmp_path: Path, net, step, decided_cp, collapse, margin, seed
) -> None:
    weight, salt, size = net
    of_net = evaluation(weight, salt, size, step)
    of_classical = evaluation(1.0, 7, 30, 1)
    drawn: list[np.ndarray] = []
    real_draw = netquality.draw_pairs

    def spy(*a, **kw):
        drawn.append(real_draw(*a, **kw))
        return drawn[-1]

    def evaluate(boards):
        return (
            np.asarray([of_net(b) for b in boards], np.float64),
            np.asarray([of_classical(b) for b in boards], np.float64),
        )

    args = args_for(data, tmp_path, decided_cp, collapse, margin, seed)
    netquality.draw_pairs = spy
    try:
        got = netquality.measure(args, evaluate)
    finally:
        netquality.draw_pairs = real_draw
    train_set, held = netquality.holdout(read_records([data]), 0.5, seed)
    train_labels = [stm_label(r.fen, r.score, r.result) for r in train_set]
    k = fit_scale(
        np.asarray([s for s, _ in train_labels]), np.asarray([w for _, w in train_labels])
    )
    assert got["k_cp"] == k and got["positions"] == len(held)
    assert got["validation_games"] == len({r.game for r in held})
    pairs = [tuple(int(x) for x in p) for p in drawn[0]]
    labels = [stm_label(r.fen, r.score, r.result)[0] for r in held]
    assert len(pairs) <= 300 and got["pairs"] == len(pairs)
    assert all(abs(labels[i] - labels[j]) >= margin for i, j in pairs)
    for name, of in (("net", of_net), ("classical", of_classical)):
        want = expected_figures(held, k, of, pairs, decided_cp, collapse)
        assert got["decided_positions"] == want.pop("decided")
        for key, value in want.items():
            assert got[name][key] == pytest.approx(value, abs=1e-9), (name, key)
    net_median = got["net"]["decided_median_spread_cp"]
    classical_median = got["classical"]["decided_median_spread_cp"]
    assert got["spread_ratio"] == pytest.approx(net_median / max(classical_median, 1.0))
    boards = [chess.Board(r.fen) for r in held]
    want_scale = slope_through_origin(
        [of_net(b) for b in boards], [of_classical(b) for b in boards]
    )
    assert got["scale_net_per_classical"] == pytest.approx(want_scale, rel=1e-12, abs=1e-12)
