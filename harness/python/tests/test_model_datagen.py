"""Independent model of datagen's labels (docs/datagen.md, "Record format", "Labels from a
teacher", "Resuming"): a teacher written here scores every position by a colour-symmetric rule
from the side to move's view, so each record's White-view score, quiet flag and result are
predicted; a colour-mirrored opening must get the mirrored label; a resumed run must equal an
unbroken one byte for byte."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS") or str(ROOT / "build/release/harness/stk-harness")

# The teacher: score = 7 * (own pieces - opponent's) + (legal moves % 11), from the side to move's
# view (so a colour mirror gives the same number with the sides swapped), best move the first legal
# move in UCI order.
TEACHER = r"""
import sys
import chess

def score(board):
    own = sum(1 for p in board.piece_map().values() if p.color == board.turn)
    other = sum(1 for p in board.piece_map().values() if p.color != board.turn)
    return 7 * (own - other) + board.legal_moves.count() % 11

board = chess.Board()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name model-teacher")
        print("uciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "position":
        if words[1] == "startpos":
            board = chess.Board()
            rest = words[2:]
        else:
            board = chess.Board(" ".join(words[2:8]))
            rest = words[8:]
        if rest and rest[0] == "moves":
            for m in rest[1:]:
                board.push_uci(m)
    elif words[0] == "go":
        moves = sorted(m.uci() for m in board.legal_moves)
        best = moves[0] if moves else "0000"
        print(f"info depth 1 multipv 1 score cp {score(board)} nodes 1 pv {best}")
        print(f"bestmove {best}", flush=True)
    elif words[0] == "quit":
        break
"""


def model_score(board: chess.Board) -> int:
    own = sum(1 for p in board.piece_map().values() if p.color == board.turn)
    other = sum(1 for p in board.piece_map().values() if p.color != board.turn)
    return 7 * (own - other) + board.legal_moves.count() % 11


def model_best(board: chess.Board) -> chess.Move:
    return chess.Move.from_uci(sorted(m.uci() for m in board.legal_moves)[0])


WHITE_RESULT = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}


def datagen(tmp: Path, out: Path, *extra: str) -> None:
    teacher = tmp / "teacher.py"
    teacher.write_text(TEACHER)
    cmd = [
        HARNESS,
        "datagen",
        "--nodes",
        "150",
        "--max-plies",
        "10",
        "--random-plies",
        "6",
        "--balance-nodes",
        "150",
        "--balance",
        "5000",
        "--teacher",
        f"{shlex.quote(sys.executable)} {shlex.quote(str(teacher))}",
        "--out",
        str(out),
        "--out-dir",
        str(tmp / "reports"),
        *extra,
    ]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr


def records(path: Path) -> list[list[str]]:
    return [line.split(" | ") for line in path.read_text().splitlines()]


# MODEL datagen-labels
# checks: harness/src/commands/datagen/datagen_game.cpp  (each record's score, quiet, result)
# contract: docs/datagen.md#record-format
# planted: ci/mutants/model-datagen-labels.patch  (a teacher's score kept from the mover's view)
@settings(max_examples=3)
@given(seed=st.integers(min_value=1, max_value=10**6))
def test_datagen_labels_equal_a_model_teacher_from_whites_view(tmp_path_factory, seed: int):
    tmp = tmp_path_factory.mktemp("dg")
    out = tmp / "data.txt"
    datagen(tmp, out, "--games", "2", "--seed", str(seed))
    rows = records(out)
    assert rows
    games = (tmp / "data.txt.journal").read_text().splitlines()[1:]
    results = []
    for g in games:
        j = json.loads(g)
        results += [WHITE_RESULT[j["result"]]] * j["records"]
    assert len(results) == len(rows)
    for row, result in zip(rows, results, strict=True):
        fen, score, res, ply, quiet = row
        board = chess.Board(fen)
        x = model_score(board)
        assert int(score) == (x if board.turn == chess.WHITE else -x), row
        best = model_best(board)
        want_quiet = not board.is_check() and not board.is_capture(best) and best.promotion is None
        assert quiet == ("1" if want_quiet else "0"), row
        assert res == result, row
        assert int(ply) >= 6


def mover_mates_in_one(fen: str) -> bool:
    board = chess.Board(fen)
    for move in board.legal_moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return True
    return False


# MODEL datagen-result-label
# checks: harness/src/commands/datagen/datagen_game.cpp  (each record's result: a win for White, for Black, a draw)
# contract: docs/datagen.md#record-format
# planted: ci/mutants/model-datagen-result-label.patch  (a Black win labelled as White's)
@settings(max_examples=2, deadline=None)
@given(order=st.permutations(["black mates", "white mates", "quiet"]))
def test_each_record_carries_its_games_result_for_every_outcome(tmp_path_factory, order):
    """The label of a record is its game's result from White's view, for each of the three
    results: the expected result comes from python-chess (a side to move with a mate in one wins
    it at any search; a quiet opening runs to --max-plies, a draw), not from the journal. The
    examples of the labels test end at --max-plies, all draws: without a decisive game of each
    colour, a label that mistakes one colour's win for the other's passes."""
    fens = {
        "black mates": "r6k/8/8/8/8/8/6PP/7K b - - 0 1",
        "white mates": mirrored("r6k/8/8/8/8/8/6PP/7K b - - 0 1"),
        "quiet": "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    }
    tmp = tmp_path_factory.mktemp("dgx")
    book = tmp / "book.epd"
    book.write_text("".join(fens[k] + "\n" for k in order))
    out = tmp / "data.txt"
    datagen(tmp, out, "--games", "3", "--openings", str(book))
    rows = records(out)
    want = {}
    for fen in fens.values():
        board = chess.Board(fen)
        if mover_mates_in_one(fen):
            want[board.board_fen()] = "1.0" if board.turn == chess.WHITE else "0.0"
        else:
            want[board.board_fen()] = "0.5"
    games = [json.loads(x) for x in (tmp / "data.txt.journal").read_text().splitlines()[1:]]
    assert len(games) == 3
    at = 0
    seen = set()
    for g in games:
        mine = rows[at : at + g["records"]]
        at += g["records"]
        first = chess.Board(mine[0][0]).board_fen()
        assert first in want, mine[0]
        seen.add(first)
        assert {r[2] for r in mine} == {want[first]}, (g, mine)
    assert seen == set(want) and at == len(rows)
    assert sorted(want.values()) == ["0.0", "0.5", "1.0"]


def mirrored(fen: str) -> str:
    return chess.Board(fen).mirror().fen()


# MODEL datagen-mirror-label
# checks: harness/src/commands/datagen/datagen_game.cpp  (a colour-mirrored position's label)
# contract: docs/datagen.md#record-format
# planted: ci/mutants/model-datagen-mirror-label.patch  (a teacher's score from the mover's view)
@settings(max_examples=3)
@given(
    fen=st.sampled_from(
        [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
            "r2qkbnr/ppp2ppp/2np4/4p3/2B1P1b1/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 5",
        ]
    )
)
def test_a_colour_mirrored_opening_gets_the_mirrored_label(tmp_path_factory, fen: str):
    tmp = tmp_path_factory.mktemp("dgm")
    book = tmp / "book.epd"
    book.write_text(fen + "\n" + mirrored(fen) + "\n")
    out = tmp / "data.txt"
    datagen(tmp, out, "--games", "2", "--openings", str(book))
    rows = records(out)
    first = {chess.Board(r[0]).board_fen(): r for r in rows}
    a = first[chess.Board(fen).board_fen()]
    b = first[chess.Board(mirrored(fen)).board_fen()]
    assert int(a[1]) == -int(b[1])  # White's view: the mirror swaps the sides
    assert a[4] == b[4]


# MODEL datagen-resume
# checks: harness/src/commands/datagen/datagen_file.cpp  (a resumed run's bytes)
# contract: docs/datagen.md#resuming-shards-determinism
# planted: ci/mutants/model-datagen-resume.patch  (the data not cut back to its journal)
def test_a_resumed_run_equals_an_unbroken_one(tmp_path_factory):
    """Cut at every point a run can stop: after its header only, after each game's journal line,
    and inside each of those lines (torn); the data file keeps every game written, journaled or
    not. Each resumed run must end with the unbroken run's bytes, its journal with its journal."""
    tmp = tmp_path_factory.mktemp("dgr")
    whole = tmp / "whole.txt"
    datagen(tmp, whole, "--games", "3", "--seed", "5")
    lines = whole.with_name("whole.txt.journal").read_text().splitlines(keepends=True)
    assert lines[0].startswith("{") and len(lines) == 4  # the header, one line a game
    cuts = [(k, False) for k in range(1, len(lines))] + [(k, True) for k in range(1, len(lines))]
    for kept, torn in cuts:
        part = tmp / "part.txt"
        part.write_bytes(whole.read_bytes())
        journal = "".join(lines[:kept]) + (lines[kept][: len(lines[kept]) // 2] if torn else "")
        (tmp / "part.txt.journal").write_text(journal.replace("whole.txt", "part.txt"))
        datagen(tmp, part, "--games", "3", "--seed", "5")
        assert part.read_bytes() == whole.read_bytes(), (kept, torn)
        resumed = (tmp / "part.txt.journal").read_text()
        assert resumed == "".join(lines).replace("whole.txt", "part.txt"), (kept, torn)


def position_key(board: chess.Board) -> str:
    """Placement, side to move, castling rights, e.p. square: what a repetition compares."""
    return " ".join(board.fen().split()[:4])


def possible_endings(last_fen: str, earlier: list[str]) -> dict[str, set[str]]:
    """Each termination the rules allow after one legal move from the game's last record (the
    position before the final move), with the results it allows (docs/datagen.md "What a game
    is", "Report")."""
    out: dict[str, set[str]] = {}
    seen = [position_key(chess.Board(f)) for f in earlier]
    for move in chess.Board(last_fen).legal_moves:
        b = chess.Board(last_fen)
        mover = "1-0" if b.turn == chess.WHITE else "0-1"
        b.push(move)
        if b.is_checkmate():
            out.setdefault("checkmate", set()).add(mover)
        elif b.is_stalemate():
            out.setdefault("stalemate", set()).add("1/2-1/2")
        if b.is_insufficient_material():
            out.setdefault("insufficient-material", set()).add("1/2-1/2")
        if b.halfmove_clock >= 100:
            out.setdefault("fifty-moves", set()).add("1/2-1/2")
        if seen.count(position_key(b)) >= 2:
            out.setdefault("repetition", set()).add("1/2-1/2")
    return out


# MODEL datagen-terminations
# checks: harness/src/games/game_termination.cpp  (how each datagen game ended, and the report's counts per colour)
# contract: docs/datagen.md#report
# planted: ci/mutants/model-datagen-terminations.patch  (a threefold repetition recorded as fifty moves)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(min_value=1, max_value=10**6))
def test_datagen_terminations_are_what_the_rules_allow_and_counted(tmp_path_factory, seed: int):
    """Each journal line's termination is one the rules allow after a legal move from the game's
    last record, with a result it allows (checkmate: the side that moved won); a game stopped at
    --max-plies is adjudicated with exactly that many records; the report's counts per
    termination and colour are the journal's."""
    if not Path(HARNESS).exists():
        pytest.skip(f"stk-harness not found at {HARNESS}")
    # 30 nodes a move shuffles into repetitions; 400 ends by mates, adjudication and the rarer
    # rules: together every termination datagen can record.
    for nodes in (30, 400):
        check_terminations(tmp_path_factory.mktemp("dgt"), seed, nodes)


def check_terminations(tmp: Path, seed: int, nodes: int) -> None:
    out = tmp / "data.txt"
    max_plies = 300
    cmd = [
        HARNESS,
        "datagen",
        "--nodes",
        str(nodes),
        "--balance-nodes",
        "120",
        "--max-plies",
        str(max_plies),
        "--games",
        "16",
        "--seed",
        str(seed),
        "--config",
        "t",
        "--out",
        str(out),
        "--out-dir",
        str(tmp / "reports"),
    ]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = records(out)
    games = [json.loads(x) for x in (tmp / "data.txt.journal").read_text().splitlines()[1:]]
    want: dict[str, dict[str, int]] = {}
    at = 0
    for g in games:
        mine = [row[0] for row in rows[at : at + g["records"]]]
        kind, result = g["termination"], g["result"]
        # every record carries the result the rules allow its game, from White's view
        assert {row[2] for row in rows[at : at + g["records"]]} == {WHITE_RESULT[result]}, g
        at += g["records"]
        if kind == "adjudication":
            assert g["end"].startswith("adjudication: ") or (
                g["end"] == "max plies" and g["records"] == max_plies and result == "1/2-1/2"
            ), g
        else:
            allowed = possible_endings(mine[-1], mine[:-1])
            assert kind in allowed and result in allowed[kind], (g, sorted(allowed))
        c = want.setdefault(kind, {"games": 0, "white_wins": 0, "draws": 0, "black_wins": 0})
        c["games"] += 1
        c[{"1-0": "white_wins", "0-1": "black_wins", "1/2-1/2": "draws"}[result]] += 1
    summary = json.loads((tmp / "reports/datagen/t.json").read_text())
    assert summary["terminations"] == want
    assert at == len(rows)
    # The same counts on the Markdown page and in the printed line (docs/datagen.md#report).
    page = (tmp / "reports/datagen/t.md").read_text()
    table = {
        m[0]: {
            "games": int(m[1]),
            "white_wins": int(m[2]),
            "draws": int(m[3]),
            "black_wins": int(m[4]),
        }
        for m in re.findall(r"^\| ([a-z-]+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", page, re.M)
    }
    assert table == want, page
    printed = ", ".join(
        f"{k} {c['games']}"
        + (
            f" (white {c['white_wins']}, black {c['black_wins']})"
            if c["white_wins"] + c["black_wins"]
            else ""
        )
        for k, c in ((k, want[k]) for k in summary["terminations"])  # the report's order
    )
    assert f"datagen: ended: {printed}\n" in r.stdout, r.stdout
