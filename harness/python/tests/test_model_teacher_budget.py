"""Independent model of stktrain.teacher_budget (its docstring and docs/training.md "Choosing the
teacher's budget"): the error figures of generated labels against generated references, computed
here plainly from the stated definitions; the positions drawn (quiet, one per game, seeded); and
an end-to-end run with stk as a deterministic teacher, whose null control must be exactly 0."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import chess
import chess.engine
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkref.errors import InputError
from stktrain import teacher_budget as tb

ROOT = Path(__file__).resolve().parents[3]
ENGINE = Path(os.environ.get("STK_ENGINE") or ROOT / "build/release/engine/stk")

cp = st.integers(-1000, 1000)


# MODEL teacher-budget-figures
# checks: harness/python/stktrain/teacher_budget.py  (a teacher budget's labels/s, MAE in cp and win probability and sign agreement against the reference)
# contract: docs/training.md#choosing-the-teachers-budget-python--m-stktrainteacher_budget
# planted: ci/mutants/model-teacher-budget-figures.patch  (a score of 0 counted as agreeing with any reference)
@settings(max_examples=60)
@given(
    pairs=st.lists(st.tuples(cp, cp), min_size=1, max_size=40),
    seconds=st.floats(0.001, 100, allow_nan=False),
)
def test_figures_of_generated_labels(pairs: list[tuple[int, int]], seconds: float) -> None:
    labels = tb.Labels("t", 7, [a for a, _ in pairs], seconds)
    reference = tb.Labels("r", 9, [r for _, r in pairs], 1.0)
    f = tb.figures(labels, reference)
    n = len(pairs)

    def p(x: float) -> float:  # the documented win probability, White's view
        return 1 / (1 + 10 ** (-x / 400))

    def sign(x: int) -> int:
        return (x > 0) - (x < 0)

    assert f["positions"] == n and f["nodes"] == 7 and f["teacher"] == "t"
    assert f["labels_per_second"] == pytest.approx(n / seconds)
    assert f["mae_cp"] == pytest.approx(sum(abs(a - r) for a, r in pairs) / n)
    assert f["mae_win_probability"] == pytest.approx(
        sum(abs(p(a) - p(r)) for a, r in pairs) / n, abs=1e-12
    )
    assert f["sign_agreement"] == pytest.approx(sum(sign(a) == sign(r) for a, r in pairs) / n)
    # The reference against itself: no error, full agreement (the null control's expectation).
    self_f = tb.figures(reference, reference)
    assert self_f["mae_cp"] == 0 and self_f["mae_win_probability"] == 0
    assert self_f["sign_agreement"] == 1


@given(st.integers(-5000, 5000), st.integers(1, 40), st.booleans())
def test_scores_are_clipped_and_mates_are_the_clip(value: int, mate: int, white: bool) -> None:
    colour = chess.WHITE if white else chess.BLACK
    # A score from the mover's view, read from White's view.
    cp_score = chess.engine.PovScore(chess.engine.Cp(value), colour)
    white_cp = value if white else -value
    assert tb.clipped_cp(cp_score) == max(-1000, min(1000, white_cp))
    mate_score = chess.engine.PovScore(chess.engine.Mate(mate), colour)
    assert tb.clipped_cp(mate_score) == (1000 if white else -1000)


def datagen_text(games: list[list[tuple[int, bool]]]) -> str:
    """Records whose FEN encodes (game, ply) in the fullmove counter of a fixed board."""
    lines = []
    for g, plies in enumerate(games):
        for ply, quiet in plies:
            fen = f"8/8/8/4k3/8/8/8/4K3 w - - {g} {ply + 1}"
            lines.append(f"{fen} | 0 | 0.5 | {ply} | {int(quiet)}")
    return "\n".join(lines) + "\n"


@settings(max_examples=40, deadline=None)
@given(
    games=st.lists(
        st.lists(st.booleans(), min_size=1, max_size=6).map(lambda q: list(enumerate(q))),
        min_size=1,
        max_size=12,
    ),
    count=st.integers(1, 12),
    seed=st.integers(0, 2**32),
)
def test_positions_are_quiet_one_per_game_and_seeded(tmp_path_factory, games, count, seed) -> None:
    path = tmp_path_factory.mktemp("tb") / "d.txt"
    path.write_text(datagen_text(games))
    # Consecutive games must not continue each other's plies (datagen's game boundary): every
    # generated game starts at ply 0, so a new game starts wherever the ply falls back.
    with_quiet = [g for g, plies in enumerate(games) if any(q for _, q in plies)]
    if len(with_quiet) < count:
        with pytest.raises(InputError):
            tb.draw_positions([path], count, seed)
        return
    fens = tb.draw_positions([path], count, seed)
    assert fens == tb.draw_positions([path], count, seed)  # seeded
    drawn_games = [int(f.split()[4]) for f in fens]
    assert len(set(drawn_games)) == count  # one per game
    for f in fens:
        g, ply = int(f.split()[4]), int(f.split()[5]) - 1
        assert dict(games[g])[ply] is True  # quiet


@pytest.mark.skipif(not ENGINE.exists(), reason="stk not built")
def test_stk_as_its_own_teacher_has_a_zero_null_control(tmp_path: Path) -> None:
    data = tmp_path / "d.txt"
    board, lines = chess.Board(), []
    for g in range(3):  # three short games of quiet positions
        board = chess.Board()
        for ply, mv in enumerate(["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]):
            lines.append(f"{board.fen()} | 0 | 0.5 | {ply + g * 0} | 1")
            board.push_uci(mv)
    data.write_text("\n".join(lines) + "\n")
    out = tmp_path / "tb.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "harness/python"))
    r = subprocess.run(
        [sys.executable, "-m", "stktrain.teacher_budget", "--data", str(data), "--teacher",
         str(ENGINE), "--budgets", "200,400", "--reference-nodes", "3000", "--positions", "3",
         "--json", str(out)],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    control, *rows = doc["rows"]
    assert "null control" in control["teacher"] and control["nodes"] == 3000
    assert control["mae_cp"] == 0 and control["sign_agreement"] == 1
    assert [x["nodes"] for x in rows] == [200, 400]
    assert "null control differs" not in r.stderr
    for x in rows:
        assert f"| {x['teacher']} | {x['nodes']} |" in r.stdout
