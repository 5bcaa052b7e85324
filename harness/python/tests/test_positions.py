from __future__ import annotations

from pathlib import Path

import chess
import pytest

from stkref.errors import InputError
from stkref.positions import (
    colour_mirror,
    curated_positions,
    load_corpora,
    random_positions,
    read_positions,
    shared_dir,
    spec_positions,
)


def test_curated_legal_unique_and_separating() -> None:
    cur = curated_positions()
    assert len({p.id for p in cur}) == len(cur)
    halves = set()
    for p in cur:
        board = p.board()
        assert board.is_valid(), p.id
        wk, bk = board.king(chess.WHITE), board.king(chess.BLACK)
        assert wk is not None and bk is not None
        halves.add((chess.square_file(wk) < 4, chess.square_file(bk) < 4))
    assert halves == {(True, True), (True, False), (False, True), (False, False)}
    boards = [p.board() for p in cur]
    assert any(chess.popcount(b.occupied) == 32 for b in boards)
    assert any(len(b.pieces(chess.QUEEN, chess.WHITE)) >= 2 for b in boards)
    assert any(b.ep_square is not None for b in boards)
    assert any(b.castling_rights for b in boards)
    assert any(b.is_check() for b in boards)
    assert {b.turn for b in boards} == {chess.WHITE, chess.BLACK}
    assert any(b.pawns & b.occupied_co[chess.WHITE] & chess.BB_RANK_7 for b in boards)
    assert any(b.pawns & b.occupied_co[chess.BLACK] & chess.BB_RANK_2 for b in boards)


def test_random_positions_seeded() -> None:
    a = random_positions(20, seed=4)
    assert [p.fen for p in a] == [p.fen for p in random_positions(20, seed=4)]
    assert [p.fen for p in a] != [p.fen for p in random_positions(20, seed=5)]
    assert all(p.board().is_valid() for p in a)
    assert len({p.fen for p in a}) > 15


def test_spec_positions() -> None:
    assert spec_positions()[0].fen == chess.STARTING_FEN


def test_read_epd(tmp_path: Path) -> None:
    f = tmp_path / "s.epd"
    f.write_text(
        "# comment\n\n2q1r1k1/1ppb4/r2p1Pp1/p4n1p/2P1n3/5NPP/PP3Q1K/2BRRB2 w - - "
        'bm f7+; id "ECM.001";\n'
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20\n"
    )
    ps = read_positions(f)
    assert [p.id for p in ps] == ["ECM.001", "s:4"]
    assert ps[0].source == f"{f}:3"
    assert ps[1].fen == chess.STARTING_FEN


@pytest.mark.parametrize(
    "line,needle",
    [
        ("8/8/8/8/8/8/8/8 w", "expected at least 4 FEN fields"),
        ("8/8/8/8/8/8/8/8 w - -", "illegal position"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq -", "malformed FEN"),
        ("4k3/8/8/8/8/8/4Q3/4K3 w - -", "illegal position"),  # side not to move in check
    ],
)
def test_bad_lines_name_file_and_line(tmp_path: Path, line: str, needle: str) -> None:
    f = tmp_path / "bad.epd"
    f.write_text(chess.STARTING_FEN + "\n" + line + "\n")
    with pytest.raises(InputError) as e:
        read_positions(f)
    assert f"{f}:2" in str(e.value) and needle in str(e.value)


def test_unreadable_and_empty(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        read_positions(tmp_path / "missing.epd")
    empty = tmp_path / "empty.epd"
    empty.write_text("\n# nothing\n")
    with pytest.raises(InputError, match="no positions"):
        read_positions(empty)


def test_colour_mirror() -> None:
    p = curated_positions()[0]
    m = colour_mirror(p)
    assert m.board().turn != p.board().turn
    assert colour_mirror(m).fen == p.fen


def test_shared_suites_if_present() -> None:
    ecm = shared_dir() / "suites" / "ECM.epd"
    if not ecm.exists():
        pytest.skip(f"{ecm} not present (set STK_SHARED)")
    corpora = load_corpora(curated=True, random_count=3, seed=1, epd_files=[str(ecm)])
    assert list(corpora) == ["spec", "curated", "random", "ECM"]
    assert len(corpora["ECM"]) == 879


def test_shared_dir_defaults_beside_the_checkout(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without STK_SHARED the suites are ../shared from the repository root (planted by the
    # mutation campaign: the search for the root broken, which only a run without the
    # variable sees).
    from stkref.positions import shared_dir

    root = Path(__file__).resolve().parents[3]
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    monkeypatch.delenv("STK_SHARED", raising=False)
    assert shared_dir() == root.parent / "shared"
    monkeypatch.setenv("STK_SHARED", "/elsewhere")
    assert shared_dir() == Path("/elsewhere")
