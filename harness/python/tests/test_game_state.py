"""Game state that perft counts cannot see, engine vs python-chess: FEN (clocks, castling, en
passant), key consistency and unmake after every ply, check/mate/stalemate, the legal move set and
the draw verdicts (fifty-move rule vs mate, repetitions), over seeded random games biased toward
reversible moves (so clocks pass 100 and positions repeat) and over known-outcome sequences.
The engine is driven through `stk game --batch` (JSON lines); runs only when STK_ENGINE is set.

The engine's contract, as compared here:
- FEN output writes the en-passant square after every double push, capturable or not, like
  python-chess's `fen(en_passant="fen")` (python-chess's default writes it only when legal).
- Repetition: `draw_at_root` (Position::is_draw(0)) is the fifty-move rule (unless the 100th
  half-move mates) or a third occurrence; `draw_in_tree` (the whole game inside the search tree)
  takes a second occurrence. Occurrences are counted since the last capture or pawn move, with the
  engine's key: an en-passant square counts when a capture is pseudo-legal. FIDE (python-chess)
  counts it only when the capture is legal; the two differ only for a pinned capturer, where the
  engine sees a new position (test_known_pinned_ep_repetition pins that down, so a change is
  deliberate); everywhere else the engine must agree with python-chess's is_repetition.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from collections import Counter
from collections.abc import Hashable
from pathlib import Path

import chess
import pytest

ENGINE = os.environ.get("STK_ENGINE", "")
pytestmark = pytest.mark.skipif(not ENGINE, reason="set STK_ENGINE=/path/to/stk to run")

SEED = int(os.environ.get("STK_GAME_SEED", "20261201"))
GAMES_PER_START = 5
MAX_PLIES = 240

# Sparse positions (shuffling reaches 100-ply clocks and repetitions), castling with rooks that can
# be captured on their corners, en-passant chances, black to move first (the fullmove number), and
# clocks close to 100 (mate or no mate on the 100th half-move).
START_FENS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 17",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/1B6/8/8/8/8/6b1/R3K2R w KQkq - 0 1",
    "r3k2r/6N1/8/8/8/8/1n6/R3K2R b KQkq - 0 1",
    "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    "4k3/1p1p1p1p/8/2P1P1P1/8/8/8/4K3 b - - 0 30",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/4k3/8/2r5/8/3RK3/8 w - - 60 70",
    "6k1/8/8/8/8/8/1Q6/K7 w - - 80 90",
    "1n2k1n1/8/8/8/8/8/8/1N2K1N1 b - - 0 1",
    "4k3/8/8/3q4/8/8/8/R3K2R w KQ - 95 120",
    "r3k3/8/8/8/8/8/8/4K2R b Kq - 40 40",
    "8/8/8/2k5/3Pp3/8/8/4K2Q b - d3 0 1",
]


def engine_game(lines: list[str], tmp_path: Path) -> dict[int, list[dict]]:
    """Runs `stk game --batch` on the given game lines; returns the plies of each game (by index)."""
    batch = tmp_path / "games.txt"
    batch.write_text("".join(line + "\n" for line in lines))
    proc = subprocess.run([ENGINE, "game", "--batch", str(batch)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    games: dict[int, list[dict]] = {}
    for text in proc.stdout.splitlines():
        rec = json.loads(text)
        games.setdefault(rec["game"] - 1, []).append(rec)
    return games


def game_line(fen: str, moves: list[str]) -> str:
    return f"fen {fen} moves {' '.join(moves)}".rstrip()


def repro(fen: str, moves: list[str], ply: int) -> str:
    return f'{ENGINE} game "{fen}" {" ".join(moves[:ply])}'


# ---- the random walk -----------------------------------------------------------------------------


def random_game(board: chess.Board, rng: random.Random) -> list[str]:
    """Random legal moves biased toward reversible ones: a third of the time the side to move takes
    back its previous move when it can (repetitions), otherwise mostly a quiet non-pawn move (long
    clocks); now and then a mate in one when there is one, or a capture, check or castling (mates,
    rooks captured on their corners). Stops at mate or stalemate."""
    moves: list[str] = []
    for _ in range(MAX_PLIES):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = None
        r = rng.random()
        if len(board.move_stack) >= 2 and r < 0.35:
            prev = board.move_stack[-2]
            back = chess.Move(prev.to_square, prev.from_square)
            if prev.promotion is None and back in legal and not board.is_zeroing(back):
                move = back
        elif r < 0.40:
            move = next((m for m in legal if mates(board, m)), None)
        elif r < 0.50:
            sharp = [
                m
                for m in legal
                if board.is_capture(m) or board.gives_check(m) or board.is_castling(m)
            ]
            move = rng.choice(sharp) if sharp else None
        if move is None:
            quiet = [m for m in legal if not board.is_zeroing(m)]
            pool = quiet if quiet and rng.random() < 0.85 else legal
            move = rng.choice(pool)
        board.push(move)
        moves.append(move.uci())
    return moves


def mates(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    try:
        return board.is_checkmate()
    finally:
        board.pop()


def engine_key(board: chess.Board) -> Hashable:
    """The position as the engine's Zobrist key sees it (en passant when pseudo-legal)."""
    ep = board.ep_square if board.has_pseudo_legal_en_passant() else None
    return (board.board_fen(), board.turn, board.clean_castling_rights(), ep)


def expected_states(fen: str, moves: list[str]) -> tuple[list[dict], Counter]:
    """What python-chess says after every ply, in the engine's JSON fields; and coverage counts."""
    board = chess.Board(fen)
    window: list[Hashable] = []  # keys since the last capture or pawn move
    seen = Counter()
    out = []
    for ply in range(len(moves) + 1):
        if ply:
            move = chess.Move.from_uci(moves[ply - 1])
            if board.is_zeroing(move):
                window.clear()
            seen["castling_move"] += board.is_castling(move)
            seen["corner_rook_captured"] += bool(
                board.is_capture(move) and board.castling_rights & chess.BB_SQUARES[move.to_square]
            )
            board.push(move)
        key = engine_key(board)
        window.append(key)
        occurrences = window.count(key)
        legal = sorted(m.uci() for m in board.legal_moves)
        check = board.is_check()
        mate = check and not legal
        fifty = board.halfmove_clock >= 100 and not mate
        exp = {
            "ply": ply,
            "fen": board.fen(en_passant="fen"),
            "rule50": board.halfmove_clock,
            "fullmove": board.fullmove_number,
            "key_ok": True,
            "is_ok": True,
            "unmake": "ok" if ply else None,
            "in_check": check,
            "checkers": len(board.checkers()),
            "legal": legal,
            "checkmate": mate,
            "stalemate": not check and not legal,
            "repeated": occurrences >= 2,
            "draw_at_root": fifty or occurrences >= 3,
            "draw_in_tree": fifty or occurrences >= 2,
        }
        # The model against python-chess's own rules, where they must agree.
        assert mate == board.is_checkmate() and exp["stalemate"] == board.is_stalemate()
        assert fifty == (
            board.is_fifty_moves() or (board.halfmove_clock >= 100 and exp["stalemate"])
        )
        pinned_ep = board.has_pseudo_legal_en_passant() and not board.has_legal_en_passant()
        seen["pinned_ep"] += pinned_ep
        if not pinned_ep and occurrences >= 2:  # (is_repetition is slow: only where it matters)
            assert board.is_repetition(occurrences) and not board.is_repetition(occurrences + 1)
        seen["clock>=100"] += board.halfmove_clock >= 100
        seen["twofold"] += occurrences == 2
        seen["threefold+"] += occurrences >= 3
        seen["checkmate"] += mate
        seen["stalemate"] += exp["stalemate"]
        seen["ep_square"] += board.ep_square is not None
        seen["ep_capture"] += board.has_legal_en_passant()
        out.append(exp)
    return out, seen


def compare(fen: str, moves: list[str], got: list[dict], where: str) -> Counter:
    """Asserts the engine's plies equal python-chess's; returns the coverage counts."""
    want, seen = expected_states(fen, moves)
    assert len(got) == len(want), f"{where}: engine printed {len(got)} plies, expected {len(want)}"
    for g, w in zip(got, want):
        for field, value in w.items():
            assert g[field] == value, (
                f"{where}, ply {w['ply']}: {field} = {g[field]!r}, python-chess says {value!r}\n"
                f"  reproduce: {repro(fen, moves, w['ply'])}"
            )
    return seen


# MODEL tools-game-state
# checks: engine/src/tools/game_command.cpp  (stk game: FEN, clocks, legal moves, mate, stalemate and draws per ply)
# contract: docs/engine.md#game-state-that-perft-counts-cannot-see
# planted: ci/mutants/model-tools-game-state.patch  (a mate also reported as stalemate: the check not asked)
def test_random_games_agree_with_python_chess(tmp_path: Path) -> None:
    print(f"seed {SEED} (set STK_GAME_SEED to change)")
    rng = random.Random(SEED)
    games = []
    for fen in START_FENS:
        for _ in range(GAMES_PER_START):
            games.append((fen, random_game(chess.Board(fen), rng)))
    got = engine_game([game_line(f, m) for f, m in games], tmp_path)
    coverage = Counter()
    for i, (fen, moves) in enumerate(games):
        coverage += compare(fen, moves, got[i], f"seed {SEED} game {i}")
    print(f"{len(games)} games, {sum(len(m) for _, m in games)} plies, coverage {dict(coverage)}")
    # A walk that never reaches a situation cannot check it: the seed must cover each of them.
    for situation in (
        "clock>=100",
        "twofold",
        "threefold+",
        "checkmate",
        "ep_square",
        "ep_capture",
        "castling_move",
        "corner_rook_captured",
    ):
        assert coverage[situation] >= 3, (
            f"seed {SEED}: only {coverage[situation]} plies with {situation}"
        )


# ---- known outcomes ------------------------------------------------------------------------------


def play_known(tmp_path: Path, fen: str, moves: list[str]) -> list[dict]:
    got = engine_game([game_line(fen, moves)], tmp_path)[0]
    compare(fen, moves, got, f"known game {fen} {' '.join(moves)}")
    return got


def test_mate_on_the_hundredth_half_move_wins(tmp_path: Path) -> None:
    fen = "7k/8/6K1/8/8/8/8/R7 w - - 99 80"
    last = play_known(tmp_path, fen, ["a1a8"])[-1]
    assert last["rule50"] == 100 and last["checkmate"] and not last["draw_at_root"]
    board = chess.Board(fen)
    board.push_uci("a1a8")
    assert board.outcome().termination == chess.Termination.CHECKMATE
    # The same clock without mate is a draw, in check or not.
    assert play_known(tmp_path, fen, ["a1b1"])[-1]["draw_at_root"]
    check_no_mate = play_known(tmp_path, "7k/8/5K2/8/8/8/8/R7 w - - 99 80", ["a1a8"])[-1]
    assert (
        check_no_mate["in_check"]
        and not check_no_mate["checkmate"]
        and check_no_mate["draw_at_root"]
    )
    # One half-move short of 100: no draw yet.
    assert not play_known(tmp_path, "7k/8/6K1/8/8/8/8/R7 w - - 98 80", ["a1b1"])[-1]["draw_at_root"]


def test_stalemate(tmp_path: Path) -> None:
    got = play_known(tmp_path, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", ["f1f7"])
    assert got[-1]["stalemate"] and not got[-1]["checkmate"] and got[-1]["legal"] == []


def test_threefold_by_knight_shuffle(tmp_path: Path) -> None:
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"]
    got = play_known(tmp_path, chess.STARTING_FEN, shuffle * 2)
    assert [g["repeated"] for g in got] == [False] * 4 + [True] * 5
    assert [g["draw_in_tree"] for g in got] == [False] * 4 + [True] * 5
    assert [g["draw_at_root"] for g in got] == [False] * 8 + [True]
    board = chess.Board()
    for m in (shuffle * 2)[:7]:
        board.push_uci(m)
    assert board.can_claim_threefold_repetition()  # the claim before the move that makes it


def test_lost_castling_rights_make_a_new_position(tmp_path: Path) -> None:
    # The same placement without castling rights is not a repetition of the one with them.
    walk = ["e1d1", "e8d8", "d1e1", "d8e8"]
    got = play_known(tmp_path, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", walk * 2)
    assert not got[4]["repeated"] and got[8]["repeated"]
    assert got[4]["fen"].split()[2] == "-"
    # A rook captured on its corner takes the right with it.
    got = play_known(tmp_path, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ["a1a8"])
    assert got[-1]["fen"].split()[2] == "Kk"


def test_en_passant_square_and_repetition(tmp_path: Path) -> None:
    # After e2e4 with a black pawn on d4 the capture is possible: coming back to the same placement
    # without the en-passant right is a new position. Without a capturer it is the same position.
    back = ["e8d8", "e1d1", "d8e8", "d1e1"]
    capturable = play_known(tmp_path, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", ["e2e4"] + back)
    assert "d4e3" in capturable[1]["legal"] and not capturable[-1]["repeated"]
    quiet = play_known(tmp_path, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", ["e2e4"] + back)
    assert quiet[1]["fen"].split()[3] == "e3" and quiet[-1]["repeated"]


def test_known_pinned_ep_repetition(tmp_path: Path) -> None:
    # d4 is pinned on the d-file, so d4xe3 is pseudo-legal but illegal. FIDE (python-chess):
    # the knights' round trip repeats the position; the engine hashes the en-passant square
    # (pseudo-legal capture) and sees a new position. Recorded so that a change is deliberate.
    fen = "3k3n/8/8/8/3p4/8/4P3/3RK2N w - - 0 1"
    moves = ["e2e4", "h8g6", "h1g3", "g6h8", "g3h1"]
    got = engine_game([game_line(fen, moves)], tmp_path)[0]
    assert "d4e3" not in got[1]["legal"] and got[1]["fen"].split()[3] == "e3"
    assert not got[-1]["repeated"]
    board = chess.Board(fen)
    for m in moves:
        board.push_uci(m)
    assert board.is_repetition(2)


def test_pinned_ep_capture_along_the_rank_is_not_legal(tmp_path: Path) -> None:
    # bxc6 e.p. would take both pawns off the fifth rank and expose the king to the rook.
    got = play_known(tmp_path, "8/2p5/8/KP5r/8/8/8/7k b - - 0 1", ["c7c5"])
    assert got[-1]["fen"].split()[3] == "c6" and "b5c6" not in got[-1]["legal"]


def test_ep_in_fen_is_kept_and_hashed_only_when_capturable(tmp_path: Path) -> None:
    lines = [
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1",
        "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1",
        "4k3/8/8/8/4P3/8/8/4K3 b - - 0 1",
    ]
    got = engine_game([game_line(f, []) for f in lines], tmp_path)
    for i, fen in enumerate(lines):
        compare(fen, [], got[i], f"FEN {fen}")
    assert got[0][0]["key"] != got[1][0]["key"]  # capturable: part of the position
    assert got[2][0]["key"] == got[3][0]["key"]  # not capturable: the same position


# ---- en passant validity in FEN input ------------------------------------------------------------


def fen_verdicts(fens: list[str], tmp_path: Path) -> list[dict]:
    path = tmp_path / "fens.txt"
    path.write_text("".join(f + "\n" for f in fens))
    proc = subprocess.run(
        [ENGINE, "game", "--fen-verdicts", str(path)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    return [json.loads(t) for t in proc.stdout.splitlines()]


def test_ep_square_validity_agrees_with_python_chess(tmp_path: Path) -> None:
    """Every square of the third and sixth ranks as the en-passant field of positions from seeded
    games (double pushes included): the engine accepts exactly what python-chess finds valid."""
    rng = random.Random(SEED + 1)
    positions = []
    for fen in (
        chess.STARTING_FEN,
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ):
        for _ in range(8):
            board = chess.Board(fen)
            for _ in range(rng.randrange(1, 30)):
                legal = list(board.legal_moves)
                if not legal:
                    break
                board.push(rng.choice(legal))
            positions.append(board)
    fens, valid = [], []
    for board in positions:
        for sq in list(chess.SquareSet(chess.BB_RANK_3 | chess.BB_RANK_6)) + [None]:
            b = board.copy(stack=False)
            b.ep_square = sq
            fens.append(b.fen(en_passant="fen"))
            valid.append(not b.status() & chess.STATUS_INVALID_EP_SQUARE)
    verdicts = fen_verdicts(fens, tmp_path)
    assert len(verdicts) == len(fens)
    for fen, ok, v in zip(fens, valid, verdicts):
        verdict = "accepts" if v["valid"] else f"rejects ({v['error']})"
        assert v["valid"] == ok, (
            f"{fen}: engine {verdict}, python-chess {'accepts' if ok else 'rejects'}"
        )
        if ok:
            assert v["fen"] == fen  # written back as read
    assert 0 < sum(valid) < len(valid)


def test_bad_game_input_is_an_error_naming_the_line(tmp_path: Path) -> None:
    batch = tmp_path / "bad.txt"
    batch.write_text("startpos moves e2e4\nstartpos moves e2e5\n")
    proc = subprocess.run([ENGINE, "game", "--batch", str(batch)], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"{batch}:2: move 1 'e2e5' is not legal" in proc.stderr
    batch.write_text("fen 4k3/8/8/8/8/8/8/4K3 w - e6 0 1\n")
    proc = subprocess.run([ENGINE, "game", "--batch", str(batch)], capture_output=True, text=True)
    assert proc.returncode == 2 and f"{batch}:1: bad FEN" in proc.stderr
