"""The engine's own HalfKA features (`stk features --batch`, engine/src/nnue/features.cpp) against
the model written from ../shared/SPEC-NNUE.md in test_model_features.py, on generated legal
positions. The Python reference is checked against the same model there; this is the C++ side.
Runs when STK_ENGINE names the stk binary (ci/test.sh sets it)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import chess
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from test_model_features import BLACK, WHITE, model_features, positions, to_board

ENGINE = os.environ.get("STK_ENGINE", "")
pytestmark = pytest.mark.skipif(not ENGINE, reason="set STK_ENGINE=/path/to/stk to run")


def legal_for_fen(pos: dict[int, tuple[int, int]]) -> dict[int, tuple[int, int]]:
    """Pawns drawn on the first or last rank become knights (a FEN cannot hold them there)."""
    return {s: (c, 1 if t == 0 and s // 8 in (0, 7) else t) for s, (c, t) in pos.items()}


@st.composite
def legal_positions(draw: st.DrawFn) -> tuple[dict[int, tuple[int, int]], bool]:
    pos = legal_for_fen(draw(positions(max_pieces=24)))
    white_to_move = draw(st.booleans())
    board = to_board(pos, white_to_move)
    assume(board.is_valid())
    return pos, white_to_move


def engine_features(fens: list[str], tmp: Path) -> list[dict]:
    batch = tmp / "positions.txt"
    batch.write_text("".join(f + "\n" for f in fens))
    r = subprocess.run(
        [ENGINE, "features", "--batch", str(batch)], capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


# MODEL engine-nnue-features
# checks: engine/src/nnue/features.cpp  (the engine's HalfKA feature indices of both perspectives)
# contract: ../shared/SPEC-NNUE.md#features-halfka-with-32-king-buckets-and-11-piece-kinds-22528-per-perspective
# planted: ci/mutants/model-engine-nnue-features.patch  (the black perspective's board not flipped)
@settings(max_examples=30, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(legal_positions(), min_size=1, max_size=40))
def test_engine_features_equal_spec_model(
    tmp_path_factory: pytest.TempPathFactory, drawn: list[tuple[dict, bool]]
) -> None:
    fens = [to_board(pos, stm).fen() for pos, stm in drawn]
    got = engine_features(fens, tmp_path_factory.mktemp("features"))
    assert len(got) == len(fens)
    for (pos, _), fen, line in zip(drawn, fens, got):
        assert line["fen"] == fen
        assert line["white"] == model_features(pos, WHITE), fen
        assert line["black"] == model_features(pos, BLACK), fen


def test_engine_features_start_position_vectors(tmp_path: Path) -> None:
    """SPEC-NNUE's test vectors for the start position, through the engine."""
    (line,) = engine_features([chess.STARTING_FEN], tmp_path)
    assert len(line["white"]) == 31 and {2127, 2120, 2811} <= set(line["white"])
    assert line["black"] == line["white"]
