"""Independent model of stkref.perft: perft counts from python-chess's pseudo-legal generator
filtered by "the mover's king is not attacked after the move" (not its legal generator), the
published counts of chessprogramming.org, and the tool's verdicts on a golden perft EPD."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest
from hypothesis import given, settings
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
    """'D<depth> <count>', depth >= 1, count >= 0: (depth, count); anything else None."""
    parts = field.split()
    if len(parts) != 2 or not parts[0].startswith("D"):
        return None
    depth, count = parts[0][1:], parts[1]
    if not (depth.isascii() and depth.isdigit() and count.isascii() and count.isdigit()):
        return None
    return (int(depth), int(count)) if int(depth) >= 1 else None


# MODEL perft-epd-fields
# checks: harness/python/stkref/perft.py  (the depth fields of a perft EPD line: read or refused by name)
# contract: docs/harnesses/perft.md#the-perft-epd
# planted: ci/mutants/model-perft-epd-fields.patch  (depth 0 read as a field)
@settings(max_examples=60)
@given(
    fields=st.lists(
        st.one_of(
            st.tuples(st.integers(0, 3), st.integers(-2, 30)).map(lambda t: f"D{t[0]} {t[1]}"),
            st.sampled_from(["", " ", "D1", "D 1 2", "d1 20", "D1 20 3", "D1 x", "Dx 1", "D٣ 1"]),
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
    if present and all(p is not None for p in parsed):
        assert perft.read_perft_epd(epd) == [(1, chess.STARTING_FEN, parsed)]
    else:
        bad = next((f for f, p in zip(present, parsed, strict=True) if p is None), None)
        with pytest.raises(perft.InputError, match=rf"{epd}:1: ") as e:
            perft.read_perft_epd(epd)
        if bad is not None:
            assert repr(bad.strip()) in str(e.value)
