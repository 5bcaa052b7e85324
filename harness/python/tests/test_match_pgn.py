"""The PGN of `stk-harness match` loads in python-chess: every game replays legally from its tags,
the Result tag is the state file's result, and a game the rules ended ends that way on the board
(checkmate, stalemate, repetition, fifty moves, insufficient material, judged by python-chess).
Runs when STK_HARNESS names the binary (STK_ENGINE the engine, STK_FAKE_UCI the fake engine)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import chess
import chess.pgn
import pytest

HARNESS = os.environ.get("STK_HARNESS", "")
ENGINE = os.environ.get(
    "STK_ENGINE", str(Path(HARNESS).parent.parent / "engine" / "stk") if HARNESS else ""
)
FAKE = os.environ.get("STK_FAKE_UCI", str(Path(HARNESS).parent / "stk-fake-uci") if HARNESS else "")

pytestmark = pytest.mark.skipif(not HARNESS, reason="STK_HARNESS not set")


def play(tmp: Path, config: str, *args: str) -> tuple[list[chess.pgn.Game], dict]:
    cmd = [
        HARNESS,
        "match",
        "--config",
        config,
        "--out-dir",
        str(tmp),
        "--quiet",
        "--gate",
        "non-regression",
        "--min-elo-lower95",
        "-100000",
        *args,
    ]
    run = subprocess.run(cmd, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    games = []
    with open(tmp / "match" / f"{config}.pgn", encoding="utf-8") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            assert not g.errors, g.errors
            games.append(g)
    state = json.loads((tmp / "match" / f"{config}.json").read_text())  # the published result
    return games, state


def check_games(games: list[chess.pgn.Game], state: dict) -> None:
    recorded = [g for p in sorted(state["pairs"], key=lambda p: p["opening"]) for g in p["games"]]
    assert len(games) == len(recorded) == 2 * len(state["pairs"])
    for game, rec in zip(games, recorded):
        assert game.headers["Result"] == rec["result"]
        board = (
            game.end().board()
        )  # python-chess replays every move: an illegal one is an error above
        reason = rec["reason"]
        if reason == "checkmate":
            assert board.is_checkmate()
            assert rec["result"] == ("0-1" if board.turn == chess.WHITE else "1-0")
        elif reason == "stalemate":
            assert board.is_stalemate()
        elif reason == "threefold repetition":
            assert board.can_claim_threefold_repetition()
        elif reason == "fifty-move rule":
            assert board.can_claim_fifty_moves()
        elif reason == "insufficient material":
            assert board.is_insufficient_material()
        else:
            assert game.headers["Termination"] in (
                "adjudication",
                "time forfeit",
                "rules infraction",
                "abandoned",
            )
            assert not board.is_game_over(claim_draw=True)
        # Engine moves carry their score and depth: {+0.35/12}
        engine_moves = [n for n in game.mainline() if n.comment and "/" in n.comment]
        assert len(engine_moves) >= min(rec["plies"], 1)


def test_stk_games_load_with_the_right_results(tmp_path: Path) -> None:
    games, state = play(
        tmp_path,
        "py",
        "--engine",
        f"cmd={ENGINE}",
        "name=x",
        "--engine",
        f"cmd={ENGINE}",
        "name=y",
        "--nodes",
        "1500",
        "--pairs",
        "4",
        "--seed",
        "5",
        "--concurrency",
        "2",
        "--resign",
        "movecount=3",
        "score=600",
    )
    check_games(games, state)
    assert games[0].headers["White"] == "x" and games[1].headers["Black"] == "x"


def test_book_games_and_faults_load(tmp_path: Path) -> None:
    book = tmp_path / "book.pgn"
    book.write_text(
        '[Event "b"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n[Event "c"]\n\n1. d4 d5 2. c4 e6 *\n'
    )
    games, state = play(
        tmp_path,
        "pyf",
        "--engine",
        f"cmd={FAKE} --defect crash-after-5",
        "name=bad",
        "--engine",
        f"cmd={FAKE}",
        "name=good",
        "--nodes",
        "50",
        "--openings",
        str(book),
    )
    check_games(games, state)
    assert all(g.headers["Termination"] == "abandoned" for g in games)
    assert (
        games[0].board().fen() == chess.STARTING_FEN
    )  # a book from the start position: the moves are in the movetext
