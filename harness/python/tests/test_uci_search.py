"""Search facts the bench signature cannot see, checked on the real engine over UCI with
python-chess as the independent oracle: mate distances with the table kept between searches, the
sign of `score mate`, every printed PV legal and consistent with its score, and the clock of the
side to move. Runs only when STK_ENGINE names the stk binary.

What a PV must satisfy (every `info` line that has a `pv`): each move legal in turn, no move
after checkmate or stalemate, and with `score mate N` (N > 0) the PV ends in checkmate after
exactly 2N-1 plies, with `mate -N` after exactly 2N plies. The engine gives full mate PVs (no
PV node takes a table cut-off), so a truncated mate PV is a failure too.
"""

from __future__ import annotations

import os
import random

import chess
import pytest
from uci_session import Info, UciSession

from stkref.positions import shared_dir

ENGINE = os.environ.get("STK_ENGINE", "")
pytestmark = pytest.mark.skipif(not ENGINE, reason="set STK_ENGINE=/path/to/stk to run")

SEED = 20261130  # the game test's seed (printed on failure in the assertion messages)

# Mate-in-N positions (distances confirmed with stockfish 15.1); both colours attack.
MATES = [
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2),
    ("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3),
    ("r1bqr3/ppp1B1kp/1b4p1/n2B4/3PQ1P1/2P5/P4P2/RN4K1 w - - 1 1", 4),
    ("2q1nk1r/4Rp2/1ppp1P2/6Pp/3p1B2/3P3P/PPP1Q3/6K1 w - - 0 1", 5),
    ("6k1/3b3r/1p1p4/p1n2p2/1PPNpP1q/P3Q1p1/1R1RB1P1/5K2 b - - 0 1", 5),
]

# The audit's reproducer: after the first search, the second printed "pv f8g8 g5f7 d8g8 g5e4 f5e4".
REPRO = [
    ("r2q1r1k/2p1b1pp/p1n5/1p1Q1bN1/4n3/1BP1B3/PP3PPP/R4RK1 w - - 0 1", "nodes 200000"),
    ("r2q1rQk/2p1b1pp/p1n5/1p3bN1/4n3/1BP1B3/PP3PPP/R4RK1 b - - 1 1", "nodes 200000"),
]


@pytest.fixture()
def uci():
    session = UciSession(ENGINE)
    yield session
    session.close()


def board_of(fen: str, moves: list[str]) -> chess.Board:
    board = chess.Board(fen)
    for m in moves:
        board.push_uci(m)
    return board


def pv_problem(board: chess.Board, info: Info) -> str:
    """'' when the PV of `info` is legal from `board` and consistent with its score."""
    b = board.copy()
    for ply, text in enumerate(info.pv):
        if b.is_checkmate() or b.is_stalemate():
            return f"move {text} at ply {ply + 1} after the game ended"
        try:
            move = chess.Move.from_uci(text)
        except ValueError:
            return f"'{text}' at ply {ply + 1} is not a move"
        if move not in b.legal_moves:
            return f"illegal move {text} at ply {ply + 1}"
        b.push(move)
    if info.score_kind == "mate":
        n = info.score
        plies = 2 * n - 1 if n > 0 else -2 * n
        if len(info.pv) != plies or not b.is_checkmate():
            return (
                f"score mate {n} but the PV has {len(info.pv)} plies and ends "
                f"{'in' if b.is_checkmate() else 'without'} checkmate"
            )
    return ""


def check_pvs(board: chess.Board, infos: list[Info], where: str) -> None:
    for info in infos:
        if info.pv:
            problem = pv_problem(board, info)
            assert not problem, f"{where}: {problem}\n  {board.fen()}\n  {info.line}"


def last_scored(infos: list[Info]) -> Info:
    with_pv = [i for i in infos if i.pv]
    assert with_pv, "no info line with a PV"
    return with_pv[-1]


@pytest.mark.parametrize("fen,n", MATES)
def test_mate_distance_drops_by_one_with_the_table_kept(uci: UciSession, fen: str, n: int) -> None:
    """Search, play the PV's move and the reply from the PV, search again (no ucinewgame): mate N,
    then -(N-1) for the defender, then N-1, ... down to mate in 1 and the mating move."""
    moves: list[str] = []
    for k in range(n, 0, -1):
        board = board_of(fen, moves)
        infos, best = uci.go(fen, moves, "nodes 300000")
        check_pvs(board, infos, f"attacker, mate in {k} expected")
        top = last_scored(infos)
        assert (top.score_kind, top.score) == ("mate", k), f"after {moves}: {top.line}"
        assert best == top.pv[0]
        if k == 1:
            board.push_uci(best)
            assert board.is_checkmate(), f"mate in 1 played {best}, not a checkmate"
            return
        # The defender, searched in turn with the same table: being mated is negative.
        defender = moves + [top.pv[0]]
        d_infos, _ = uci.go(fen, defender, "nodes 300000")
        check_pvs(board_of(fen, defender), d_infos, f"defender, mate -{k - 1} expected")
        d_top = last_scored(d_infos)
        assert (d_top.score_kind, d_top.score) == ("mate", -(k - 1)), (
            f"after {defender}: {d_top.line}"
        )
        moves += top.pv[:2]


@pytest.mark.parametrize(
    "fen,first,n",
    [
        (MATES[0][0], "d5f6", 1),  # black to move, mated in 1
        (MATES[1][0], "g2g1", 1),  # white to move, mated in 1
        (MATES[2][0], "f8c5", 2),  # white to move, mated in 2
        (MATES[3][0], "f6a6", 2),  # black to move, mated in 2
    ],
)
def test_score_mate_is_negative_for_the_side_being_mated(
    uci: UciSession, fen: str, first: str, n: int
) -> None:
    board = board_of(fen, [first])
    infos, best = uci.go(fen, [first], "depth 8")
    top = last_scored(infos)
    side = "white" if board.turn == chess.WHITE else "black"
    assert (top.score_kind, top.score) == ("mate", -n), f"{side} to move: {top.line}"
    check_pvs(board, infos, f"{side} mated in {n}")
    assert chess.Move.from_uci(best) in board.legal_moves


def game_starts(rng: random.Random) -> list[str]:
    ecm = shared_dir() / "suites" / "ECM.epd"
    starts = [fen for fen, _ in MATES]
    if ecm.exists():
        epd = [
            line.split(" bm ")[0].split(" am ")[0]
            for line in ecm.read_text().splitlines()
            if line.strip()
        ]
        starts += [" ".join(e.split()[:4]) + " 0 1" for e in rng.sample(epd, 12)]
    return starts


def test_every_pv_is_legal_and_consistent_over_short_games(uci: UciSession) -> None:
    """Seeded short games with the table kept throughout (never ucinewgame): every info line's
    PV is checked by python-chess; the reproducer comes first."""
    for fen, go in REPRO:
        infos, _ = uci.go(fen, [], go)
        check_pvs(chess.Board(fen), infos, f"reproducer go {go}")
    rng = random.Random(SEED)
    mates = 0
    for start in game_starts(rng):
        moves: list[str] = []
        for _ in range(8):
            board = board_of(start, moves)
            if board.is_game_over():
                break
            infos, best = uci.go(start, moves, "nodes 30000")
            check_pvs(board, infos, f"seed {SEED}, game from {start} after {moves}")
            mates += sum(1 for i in infos if i.score_kind == "mate" and i.pv)
            # Mostly the engine's move, sometimes a random one (seeded) to leave the main line.
            legal = [m.uci() for m in board.legal_moves]
            moves.append(best if rng.random() < 0.75 else rng.choice(sorted(legal)))
    print(f"seed {SEED}: {mates} mate-scored PVs checked")
    assert mates >= 50, f"only {mates} mate-scored PVs checked: the set no longer exercises mates"


@pytest.mark.parametrize(
    "fen,go",
    [
        (chess.STARTING_FEN, "wtime 60000 btime 100"),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2",
            "btime 60000 wtime 100",
        ),
    ],
)
def test_a_long_own_clock_is_used_whatever_the_opponent_has(
    uci: UciSession, fen: str, go: str
) -> None:
    """A minute on the mover's clock must not be played like the opponent's 100 ms (the budget
    is about a second here: a lower bound on the time taken is safe on a loaded machine)."""
    infos, best = uci.go(fen, [], go, timeout=30)
    assert chess.Move.from_uci(best) in chess.Board(fen).legal_moves
    used = max(i.time_ms or 0 for i in infos)
    assert used >= 400, f"go {go}: searched only {used} ms"


@pytest.mark.parametrize(
    "fen,go",
    [
        (chess.STARTING_FEN, "wtime 100 btime 60000"),
        (
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 2",
            "btime 100 wtime 60000",
        ),
    ],
)
def test_a_short_own_clock_is_respected_whatever_the_opponent_has(
    uci: UciSession, fen: str, go: str
) -> None:
    infos, best = uci.go(fen, [], go)
    assert chess.Move.from_uci(best) in chess.Board(fen).legal_moves
    used = max((i.time_ms or 0 for i in infos), default=0)
    assert used < 1000, f"go {go}: searched {used} ms with 100 ms on the clock"
