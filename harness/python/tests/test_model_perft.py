"""Independent model of stkref.perft: perft counts from python-chess's pseudo-legal generator
filtered by "the mover's king is not attacked after the move" (not its legal generator), the
published counts of chessprogramming.org, and the tool's verdicts on a golden perft EPD."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import chess
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from stkref import perft


def model_perft(board: chess.Board, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for move in list(board.generate_pseudo_legal_moves()):
        mover = board.turn
        if board.is_castling(move):
            # castling out of or through check is illegal: every square the king crosses
            step = (
                1 if chess.square_file(move.to_square) > chess.square_file(move.from_square) else -1
            )
            path = [move.from_square + i * step for i in range(3)]
            if any(board.is_attacked_by(not mover, sq) for sq in path):
                continue
        board.push(move)
        king = board.king(mover)
        if king is not None and not board.is_attacked_by(board.turn, king):
            total += model_perft(board, depth - 1)
        board.pop()
    return total


@st.composite
def random_positions(draw: st.DrawFn) -> chess.Board:
    board = chess.Board(
        draw(
            st.sampled_from(
                [
                    chess.STARTING_FEN,
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                ]
            )
        )
    )
    for _ in range(draw(st.integers(0, 12))):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    return chess.Board(board.fen())


# MODEL perft-counts
# checks: harness/python/stkref/perft.py  (perft counts of a position to depth 1..3)
# contract: docs/harnesses/perft.md#what-it-proves
# planted: ci/mutants/model-perft-counts.patch  (interior nodes walk the pseudo-legal moves)
@settings(max_examples=30)
@given(random_positions(), st.integers(1, 2))
def test_perft_equals_model(board: chess.Board, depth: int) -> None:
    assert perft.perft(board, depth) == model_perft(board, depth)


@pytest.mark.parametrize(
    ("fen", "counts"),
    [
        (chess.STARTING_FEN, [20, 400, 8902]),
        ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [48, 2039]),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812]),
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467]),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486]),
    ],
)
def test_perft_published_counts(fen: str, counts: list[int]) -> None:
    for depth, n in enumerate(counts, 1):
        assert perft.perft(chess.Board(fen), depth) == n


def run(tmp_path: Path, lines: list[str], max_nodes: int, capsys: pytest.CaptureFixture) -> tuple:
    epd = tmp_path / "p.epd"
    epd.write_text("\n".join(lines) + "\n")
    rc = perft.main(["--epd", str(epd), "--max-nodes", str(max_nodes)])
    return rc, capsys.readouterr().out


KIWI = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


# MODEL perft-verdicts
# checks: harness/python/stkref/perft.py  (exit 0/1 on golden counts; --max-nodes boundary)
# contract: docs/harnesses/perft.md#what-it-proves
# planted: ci/mutants/model-perft-verdicts.patch  (a count equal to --max-nodes is left unchecked)
def test_perft_verdicts_both_ways(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    good = [f"{KIWI} ;D1 48 ;D2 2039", f"{chess.STARTING_FEN} ;D1 20 ;D2 400"]
    rc, out = run(tmp_path, good, 2039, capsys)
    assert rc == 0 and "4 counts recomputed" in out and "0 differ" in out
    rc, out = run(tmp_path, [f"{KIWI} ;D1 48 ;D2 2040"], 2040, capsys)  # off by one: breaks
    assert rc == 1 and "1 differ" in out and "D2 golden 2040, python-chess 2039" in out
    rc, out = run(tmp_path, [f"{KIWI} ;D1 48 ;D2 2040"], 2039, capsys)  # above the budget
    assert rc == 0 and "1 counts recomputed" in out and "1 above 2039" in out
    # reordering the lines changes nothing but the order
    rc, out = run(tmp_path, good[::-1], 2039, capsys)
    assert rc == 0 and "4 counts recomputed" in out


def model_field(field: str) -> tuple[int, int] | None:
    """'D<depth> <count>', depth 1 to 15, count 0 to 2^64 - 1, each ASCII digits only:
    (depth, count); anything else None."""
    parts = field.split()
    if len(parts) != 2 or not parts[0].startswith("D"):
        return None
    depth, count = parts[0][1:], parts[1]
    if not (depth.isascii() and depth.isdigit() and count.isascii() and count.isdigit()):
        return None
    return (int(depth), int(count)) if 1 <= int(depth) <= 15 and int(count) < 2**64 else None


def model_line(fields: list[str]) -> list[tuple[int, int]] | None:
    """The fields of one line (empty ones are no field): all valid, depths increasing, or None."""
    parsed = [model_field(f) for f in fields if f.strip()]
    if not parsed or any(p is None for p in parsed):
        return None
    depths = [p[0] for p in parsed if p]
    return [p for p in parsed if p] if all(a < b for a, b in zip(depths, depths[1:])) else None


# The field shapes both readers' models draw beside well-formed ones: one list, so that the C++
# reader meets every shape the Python one does (the closing draw: `dtok[0] >= 'D'` took "E1 20" and
# "d1 20" for depths in the C++ reader, whose list had neither). The letters on both sides of 'D'.
MALFORMED_FIELDS = [
    *["", " ", "D1", "D 1 2", "d1 20", "C1 20", "E1 20", "D1 20 3", "D1 x", "Dx 1", "D٣ 1"],
    *["D16 1", "D1 -20", "D1 +20", "D+1 20", "D1 0x14", "D1 20"],
    *["D1 18446744073709551616", "D1 18446744073709551615"],
]


def each_shape_alone(test):  # noqa: ANN001, ANN201 (a decorator of Hypothesis tests)
    """Every malformed shape also alone on its line, where nothing else refuses the line first."""
    for shape in MALFORMED_FIELDS:
        test = example(fields=[shape])(test)
    return test


# MODEL perft-epd-fields
# checks: harness/python/stkref/perft.py  (the depth fields of a perft EPD line: read or refused by name)
# contract: docs/harnesses/perft.md#the-perft-epd
# planted: ci/mutants/model-perft-epd-fields.patch  (depth 0 read as a field)
@each_shape_alone
@settings(max_examples=60)
@given(
    fields=st.lists(
        st.one_of(
            st.tuples(st.integers(0, 3), st.integers(-2, 30)).map(lambda t: f"D{t[0]} {t[1]}"),
            st.sampled_from(MALFORMED_FIELDS),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_perft_epd_fields_equal_model(
    tmp_path_factory: pytest.TempPathFactory, fields: list[str]
) -> None:
    epd = tmp_path_factory.mktemp("epd") / "p.epd"
    epd.write_text(chess.STARTING_FEN + " ;" + ";".join(fields) + "\n")
    present = [f for f in fields if f.strip()]
    parsed = [model_field(f) for f in present]
    line = model_line(fields)
    if line is not None:
        assert perft.read_perft_epd(epd) == [(1, chess.STARTING_FEN, line)]
    else:
        bad = next((f for f, p in zip(present, parsed, strict=True) if p is None), None)
        with pytest.raises(perft.InputError, match=rf"{epd}:1: ") as e:
            perft.read_perft_epd(epd)
        if bad is not None:
            assert repr(bad.strip()) in str(e.value)


HARNESS = os.environ.get("STK_HARNESS") or str(
    Path(__file__).resolve().parents[3] / "build/release/harness/stk-harness"
)


# MODEL perft-epd-fields-cpp
# checks: harness/src/commands/perft/perft_epd.cpp  (the depth fields of a perft EPD line, as stk-harness perft reads them)
# contract: docs/harnesses/perft.md#the-perft-epd
# planted: ci/mutants/model-perft-epd-fields-cpp.patch  (a count read with std::stoull: "-20" taken as 2^64 - 20)
@pytest.mark.skipif(not Path(HARNESS).exists(), reason=f"no stk-harness at {HARNESS}")
@each_shape_alone
@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    fields=st.lists(
        st.one_of(
            st.tuples(st.integers(0, 2), st.integers(-30, 30)).map(lambda t: f"D{t[0]} {t[1]}"),
            st.sampled_from(MALFORMED_FIELDS),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_perft_epd_fields_cpp_equal_model(
    tmp_path_factory: pytest.TempPathFactory, fields: list[str]
) -> None:
    # The same model as the Python reader's, for the C++ one: a file it accepts is run (exit 0
    # or 1 by the counts), a file the model refuses is exit 2 naming the file and line 1.
    out = tmp_path_factory.mktemp("perft")
    epd = out / "p.epd"
    epd.write_text(chess.STARTING_FEN + " ;" + ";".join(fields) + "\n")
    line = model_line(fields)
    r = subprocess.run(
        [HARNESS, "perft", "--epd", str(epd), "--out-dir", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if line is not None:
        assert r.returncode in (0, 1), r.stdout + r.stderr
        want = {1: 20, 2: 400}
        assert r.returncode == (0 if all(want[d] == n for d, n in line) else 1)
    else:
        assert r.returncode == 2, r.stdout + r.stderr
        assert f"{epd}:1: " in r.stdout + r.stderr


def model_accepts(board: chess.Board) -> bool:
    """docs/harnesses/perft.md#the-perft-epd, rule by rule (no castling or en-passant drawn)."""
    for colour in chess.COLORS:
        if len(board.pieces(chess.KING, colour)) != 1:
            return False
        if len(board.pieces(chess.PAWN, colour)) > 8 or board.occupied_co[colour].bit_count() > 16:
            return False
    if board.pawns & (chess.BB_RANK_1 | chess.BB_RANK_8):
        return False
    them = not board.turn
    if board.attackers(board.turn, board.king(them)):
        return False
    return len(board.attackers(them, board.king(board.turn))) <= 2


@st.composite
def placements(draw: st.DrawFn) -> chess.Board:
    """Kings and a few pieces anywhere, sliders most often: double checks along one line, checks
    no last move could give, pawns on the back rank, now and then a king missing or doubled."""
    board = chess.Board(None)
    squares = draw(st.lists(st.integers(0, 63), min_size=2, max_size=8, unique=True))
    kings = [chess.Piece(chess.KING, chess.WHITE), chess.Piece(chess.KING, chess.BLACK)]
    if draw(st.integers(0, 5)) == 0:
        kings[draw(st.sampled_from([0, 1]))] = draw(st.sampled_from(kings))
    kinds = [
        chess.BISHOP,
        chess.ROOK,
        chess.QUEEN,
        chess.BISHOP,
        chess.ROOK,
        chess.KNIGHT,
        chess.PAWN,
    ]
    others = [chess.Piece(draw(st.sampled_from(kinds)), draw(st.booleans())) for _ in squares[2:]]
    for sq, piece in zip(squares, kings + others, strict=True):
        board.set_piece_at(sq, piece)
    board.turn = draw(st.booleans())
    return board


@st.composite
def double_checks(draw: st.DrawFn) -> chess.Board:
    """The side to move checked by two sliders (often on one line: no last move gives that)."""
    board = chess.Board(None)
    turn = draw(st.booleans())
    king = draw(st.integers(0, 63))
    board.set_piece_at(king, chess.Piece(chess.KING, turn))
    lines = chess.SquareSet(chess.BB_RANK_ATTACKS[king][0] | chess.BB_FILE_ATTACKS[king][0])
    diagonals = chess.SquareSet(chess.BB_DIAG_ATTACKS[king][0])
    for _ in range(2):
        free = [sq for sq in list(lines) + list(diagonals) if board.piece_at(sq) is None]
        sq = draw(st.sampled_from(free))
        board.set_piece_at(sq, chess.Piece(chess.ROOK if sq in lines else chess.BISHOP, not turn))
    free = [sq for sq in chess.SQUARES if board.piece_at(sq) is None]
    board.set_piece_at(draw(st.sampled_from(free)), chess.Piece(chess.KING, not turn))
    board.turn = turn
    return board


# MODEL perft-positions
# checks: harness/python/stkref/perft.py  (which FENs a perft EPD may hold, here and in stk-harness perft; depth-1 counts of unreachable positions)
# contract: docs/harnesses/perft.md#the-perft-epd
# planted: ci/mutants/model-perft-positions.patch  (the Python reader refuses what python-chess calls an impossible check)
@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.one_of(placements(), double_checks()))
def test_perft_positions_equal_model(
    tmp_path_factory: pytest.TempPathFactory, board: chess.Board
) -> None:
    out = tmp_path_factory.mktemp("perft")
    epd = out / "p.epd"
    accepted = model_accepts(board)
    count = board.legal_moves.count() if accepted else 1
    epd.write_text(f"{board.fen()} ;D1 {count}\n")
    if accepted:
        assert perft.read_perft_epd(epd) == [(1, board.fen(), [(1, count)])]
    else:
        with pytest.raises(perft.InputError, match=rf"{epd}:1: "):
            perft.read_perft_epd(epd)
    if not Path(HARNESS).exists():
        return
    r = subprocess.run(
        [HARNESS, "perft", "--epd", str(epd), "--out-dir", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == (0 if accepted else 2), (board.fen(), r.stdout + r.stderr)


@pytest.mark.parametrize(
    "fen",
    ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "8/8/9/8/8/8/8/8 w - - 0 1", "x"],
)
def test_a_fen_that_does_not_parse_is_refused_by_file_and_line(tmp_path: Path, fen: str) -> None:
    """A perft EPD line whose FEN does not parse is an input error naming the file and line (exit
    2, as docs/input-rules.md's perft EPD rows for its other fields), never a traceback."""
    from stkref.errors import InputError

    epd = tmp_path / "p.epd"
    epd.write_text(f"{chess.STARTING_FEN} ;D1 20\n{fen} ;D1 20\n")
    with pytest.raises(InputError, match=rf"{epd}:2: "):
        perft.read_perft_epd(epd)
