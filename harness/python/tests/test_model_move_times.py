"""Independent model of stktrain.move_times (its docstring and docs/harnesses/match.md "PGN"): match
PGNs are written here from the documented comment format, not by the match's writer, with known
figures per move; the model tallies them plainly per engine and phase. A metamorphic relation
(games in another order give the same figures), a malformed comment refused by game and ply, and
a real match's PGN read back move for move."""

from __future__ import annotations

import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkref.errors import InputError
from stktrain import move_times

ROOT = Path(__file__).resolve().parents[3]
PHASE_BOUNDS = {"opening": (0, 30), "middlegame": (30, 80), "endgame": (80, 10**9)}


def game_text(rng: random.Random, game_no: int, names: tuple[str, str]) -> tuple[str, list[tuple]]:
    """One game as the match writes it: a FEN start sometimes, book plies without comments, engine
    plies with `{SCORE/DEPTH[ Ts][, n=N]}`, the reason after the last move. Also its engine moves
    as (engine, ply from the standard start, depth, seconds or None, nodes or None)."""
    board = chess.Board()
    for _ in range(rng.choice([0, 0, 7, 40])):  # a FEN start after these plies
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    start = board.copy(stack=False)
    first_ply = 2 * (start.fullmove_number - 1) + (start.turn == chess.BLACK)
    played = []
    for _ in range(rng.randint(1, 140)):
        moves = list(board.legal_moves)
        if not moves:
            break
        played.append(rng.choice(moves))
        board.push(played[-1])
    board = start.copy(stack=False)
    book = rng.randint(0, min(6, len(played) - 1)) if played else 0  # an engine plays last
    words, expected = [], []
    for i, move in enumerate(played):
        ply = first_ply + i
        number = (
            f"{board.fullmove_number}."
            if board.turn == chess.WHITE
            else f"{board.fullmove_number}..."
        )
        words += [number, board.san(move)]
        if i >= book:
            mover = names[0] if ply % 2 == 0 else names[1]
            depth = rng.randint(1, 30)
            secs = rng.choice([None, rng.randint(0, 300) / 1000])
            nodes = rng.choice([None, rng.randint(1, 10**6)])
            score = rng.choice([f"{rng.randint(-900, 900) / 100:+.2f}", "+M3", "-M12", "?"])
            comment = f"{score}/{depth}" + (f" {secs:.3f}s" if secs is not None else "")
            comment += f", n={nodes}" if nodes is not None else ""
            words.append("{" + comment + "}")
            expected.append((mover, ply, depth, secs, nodes))
        board.push(move)
    words += ["{" + rng.choice(["White mates", "adjudication: draw", "time forfeit"]) + "}", "*"]
    tags = [f'[Event "m"]', f'[Round "{game_no}.1"]', f'[White "{names[0]}"]',
            f'[Black "{names[1]}"]', '[Result "*"]']  # fmt: skip
    if start.fen() != chess.STARTING_FEN:
        tags += ['[SetUp "1"]', f'[FEN "{start.fen()}"]']
    return "\n".join(tags) + "\n\n" + " ".join(words) + "\n\n", expected


def model(expected: list[tuple]) -> dict:
    """Per engine and phase, the figures tallied plainly from the generated moves."""
    out: dict = {}
    for engine in dict.fromkeys(m[0] for m in expected):
        out[engine] = {}
        for phase, (lo, hi) in [*PHASE_BOUNDS.items(), ("all", (0, 10**9))]:
            ms = [m for m in expected if m[0] == engine and lo <= m[1] < hi]
            millis = [1000 * m[3] for m in ms if m[3] is not None]
            nodes = [m[4] for m in ms if m[4] is not None]
            timed = [m for m in ms if m[3] is not None and m[4] is not None]
            t_secs = sum(m[3] for m in timed)
            ebf = [math.log(m[4]) / m[2] for m in ms if m[4] is not None and m[4] > 0]
            out[engine][phase] = {
                "moves": len(ms),
                "mean_ms": sum(millis) / len(millis) if millis else None,
                "median_ms": statistics.median(millis) if millis else None,
                "mean_depth": sum(m[2] for m in ms) / len(ms) if ms else None,
                "mean_nodes": sum(nodes) / len(nodes) if nodes else None,
                "nodes_per_second": sum(m[4] for m in timed) / t_secs if t_secs > 0 else None,
                "branching_factor": math.exp(sum(ebf) / len(ebf)) if ebf else None,
            }
    return out


def close(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    for k in a:
        x, y = a[k], b[k]
        if isinstance(x, dict):
            if not isinstance(y, dict) or not close(x, y):
                return False
        elif (x is None) != (y is None) or (x is not None and not math.isclose(x, y, rel_tol=1e-9)):
            return False
    return True


def run_tool(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "harness/python"))
    return subprocess.run(
        [sys.executable, "-m", "stktrain.move_times", *args],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip


# MODEL move-times-figures
# checks: harness/python/stktrain/move_times.py  (time, depth, nodes, nodes/s and branching factor per engine and phase of a match PGN)
# contract: docs/training.md#where-the-clock-goes-python--m-stktrainmove_times
# planted: ci/mutants/model-move-times-figures.patch  (the phase taken from the ply within the game, not from the standard start)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), games=st.integers(1, 4))
def test_figures_of_generated_match_pgns(tmp_path_factory, seed: int, games: int) -> None:
    rng = random.Random(seed)
    texts, expected = [], []
    for g in range(games):
        text, moves = game_text(
            rng, g + 1, ("nnue", "classical") if g % 2 == 0 else ("classical", "nnue")
        )
        texts.append(text)
        expected += moves
    folder = tmp_path_factory.mktemp("mt")
    pgn = folder / "m.pgn"
    pgn.write_text("".join(texts))
    if not expected:
        with pytest.raises(InputError):
            move_times.main([str(pgn)])
        return
    assert close(move_times.tabulate(move_times.read_moves(pgn)), model(expected))
    # Reordering the games changes nothing.
    (folder / "r.pgn").write_text("".join(reversed(texts)))
    got = move_times.tabulate(move_times.read_moves(folder / "r.pgn"))
    assert close(got, model(expected))


def test_a_malformed_comment_is_refused_by_game_and_ply(tmp_path: Path) -> None:
    pgn = tmp_path / "bad.pgn"
    pgn.write_text(
        '[Round "3.2"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n'
        "1. e4 {+0.10/5 0.010s, n=100} e5 {+0.1/5} 2. Nf3 {+0.10/5} {done} *\n\n"
    )
    r = run_tool(str(pgn))
    assert r.returncode == 2, r.stderr
    assert "bad.pgn: game 3.2, ply 1: '+0.1/5'" in r.stderr


def test_the_json_and_the_table_say_the_same(tmp_path: Path) -> None:
    text, moves = game_text(random.Random(5), 1, ("x", "y"))
    (tmp_path / "g.pgn").write_text(text)
    r = run_tool(str(tmp_path / "g.pgn"), "--json", str(tmp_path / "g.json"))
    assert r.returncode == 0, r.stderr
    j = json.loads((tmp_path / "g.json").read_text())
    assert close(j["engines"], model(moves))
    for engine, phases in j["engines"].items():
        assert f"| all | {engine} | {phases['all']['moves']} |" in r.stdout


HARNESS = Path(os.environ.get("STK_HARNESS") or ROOT / "build/release/harness/stk-harness")
ENGINE = Path(os.environ.get("STK_ENGINE") or ROOT / "build/release/engine/stk")


@pytest.mark.skipif(not HARNESS.exists() or not ENGINE.exists(), reason="stk not built")
def test_a_real_match_pgn_reads_back_every_engine_move(tmp_path: Path) -> None:
    r = subprocess.run(
        [str(HARNESS), "match", "--engine", f"cmd={ENGINE}", "name=a", "--engine", f"cmd={ENGINE}", "name=b",
         "--nodes", "2000", "--pairs", "1", "--seed", "3", "--config", "mt", "--out-dir", str(tmp_path),
         "--min-elo-lower95", "-10000"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    pgn = tmp_path / "match/mt.pgn"
    moves = move_times.read_moves(pgn)
    table = move_times.tabulate(moves)
    assert set(table) == {"a", "b"}
    # Every engine move carries the nodes stk reported: at most the limit, never none.
    assert all(m.nodes is not None and 0 < m.nodes <= 2000 for m in moves)
    # The games start from the opening's FEN: every ply PlyCount counts is an engine's move.
    plies = sum(int(x) for x in re.findall(r'\[PlyCount "(\d+)"\]', pgn.read_text()))
    assert len(moves) == plies > 0
