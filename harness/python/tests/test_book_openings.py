"""A PGN book read as python-chess reads it: for generated books (games from the start or from a
FEN, with comments, NAGs, nested variations and results, as python-chess writes them), pair i of
a match plays book game i (file order, docs/harnesses/match.md#self-play) and both its games
begin with that game's mainline from its start position. Both ways at the end of the file: a
book whose last comment or variation is left open is refused, naming the file (exit 2).
"""

from __future__ import annotations

import io
import os
import random
import subprocess
from pathlib import Path

import chess
import chess.pgn
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

HARNESS = os.path.abspath(os.environ["STK_HARNESS"]) if os.environ.get("STK_HARNESS") else ""
pytestmark = pytest.mark.skipif(not HARNESS, reason="set STK_HARNESS=/path/to/stk-harness to run")
FAKE = str(Path(HARNESS).parent / "stk-fake-uci") if HARNESS else ""


def _playable(board: chess.Board) -> bool:
    return not board.is_game_over() and not board.is_insufficient_material()


def _random_line(board: chess.Board, rng: random.Random, plies: int) -> list[chess.Move]:
    """Up to `plies` random legal moves from `board` (left unchanged), never into a position
    where the game is over (such a book line is not an opening)."""
    b, line = board.copy(), []
    for _ in range(plies):
        moves = list(b.legal_moves)
        rng.shuffle(moves)
        move = next((m for m in moves if _after(b, m)), None)
        if move is None:
            break
        b.push(move)
        line.append(move)
    return line


def _after(board: chess.Board, move: chess.Move) -> bool:
    board.push(move)
    ok = _playable(board)
    board.pop()
    return ok


def _book_game(rng: random.Random, from_fen: bool, plies: int, decorate: bool) -> chess.pgn.Game:
    start = chess.Board()
    if from_fen:
        for m in _random_line(start, rng, rng.randint(2, 12)):
            start.push(m)
        start = chess.Board(start.fen())  # a FEN position, no history
    game = chess.pgn.Game()
    game.headers["Event"] = f"book {rng.randint(0, 999)}"
    if from_fen:
        game.setup(start)
    node = game
    board = start.copy()
    for move in _random_line(start, rng, plies):
        if decorate and rng.random() < 0.5:
            alternative = [m for m in board.legal_moves if m != move and _after(board, m)]
            if alternative:
                side = node.add_variation(rng.choice(alternative), comment="side line")
                board.push(side.move)
                deeper = _random_line(board, rng, 2)
                board.pop()
                for m in deeper:  # a variation inside the variation's line
                    side = side.add_variation(m)
        node = node.add_main_variation(move)
        if decorate and rng.random() < 0.4:
            node.comment = rng.choice(["a {", "plain", "x ) y", "[%eval 0.3]"]).replace("{", "")
        if decorate and rng.random() < 0.3:
            node.nags.add(rng.choice([1, 2, 3, 6, 14]))
        board.push(move)
    game.headers["Result"] = rng.choice(["*", "1-0", "0-1", "1/2-1/2"])
    return game


def _without_result(game: chess.pgn.Game) -> str:
    """The game as python-chess writes it, less the result token that ends its movetext."""
    text = str(game).rstrip()
    result = game.headers["Result"]
    assert text.endswith(result)
    return text[: -len(result)].rstrip()


def _match(tmp: Path, book: Path, pairs: int) -> subprocess.CompletedProcess:
    argv = [
        *(HARNESS, "match", "--config", "b", "--out-dir", str(tmp / "out")),
        *("--gate", "non-regression", "--min-elo-lower95", "-100000", "--quiet"),
        *("--engine", f"cmd={FAKE}", "name=a", "--engine", f"cmd={FAKE}", "name=b"),
        *("--nodes", "50", "--pairs", str(pairs), "--openings", str(book)),
    ]
    return subprocess.run(argv, cwd=tmp, capture_output=True, text=True, timeout=300)


# MODEL book-openings
# checks: harness/src/positions/openings.cpp  (a PGN book's games: start position and mainline)
# contract: docs/harnesses/match.md#self-play
# planted: ci/mutants/model-book-openings.patch  (a game's headers do not end the game before them)
# No shrinking: each example is a match run, and a failing one is printed whole (the book).
@settings(
    max_examples=25,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    seed=st.integers(0, 2**32),
    shapes=st.lists(
        st.tuples(st.booleans(), st.integers(1, 8), st.booleans(), st.booleans()),
        min_size=1,
        max_size=4,
    ),
)
def test_each_pair_plays_its_book_game_from_its_start(
    tmp_path_factory: pytest.TempPathFactory,
    seed: int,
    shapes: list[tuple[bool, int, bool, bool]],
) -> None:
    rng = random.Random(seed)
    games = [_book_game(rng, fen, plies, decorate) for fen, plies, decorate, _ in shapes]
    # A game without its result token ends where the next game's headers begin.
    texts = [
        _without_result(g) if bare else str(g) for g, (*_, bare) in zip(games, shapes, strict=True)
    ]
    tmp = tmp_path_factory.mktemp("book")
    book = tmp / "book.pgn"
    book.write_text("\n\n".join(texts) + "\n")
    r = _match(tmp, book, len(games))
    assert r.returncode == 0, f"{book.read_text()}\n{r.stdout}{r.stderr}"
    played = []
    with open(tmp / "out" / "match" / "b.pgn", encoding="utf-8") as f:
        while (g := chess.pgn.read_game(f)) is not None:
            played.append(g)
    assert len(played) == 2 * len(games)
    for i, g in enumerate(played):
        wanted = games[i // 2]
        assert g.board().fen() == wanted.board().fen(), (i, book.read_text())
        moves = list(g.mainline_moves())
        line = list(wanted.mainline_moves())
        assert moves[: len(line)] == line, (i, book.read_text(), str(g))


@pytest.mark.parametrize("tail", ["", " {an open comment", " (1... c5", " (1... c5 (1... d5)"])
def test_a_book_ending_inside_a_comment_or_variation_is_refused(tmp_path: Path, tail: str):
    book = tmp_path / "book.pgn"
    book.write_text('[Event "x"]\n\n1. e4 e5' + tail + "\n")
    r = _match(tmp_path, book, 1)
    if not tail:  # kept by the smallest margin: the same book, closed
        assert r.returncode == 0, r.stdout + r.stderr
        return
    assert r.returncode == 2, r.stdout + r.stderr
    assert "unterminated comment or variation" in r.stderr and str(book) in r.stderr


def test_the_generator_writes_what_python_chess_reads_back() -> None:
    # The model's own control: each generated game reads back with the same start and mainline.
    rng = random.Random(7)
    for fen in (False, True):
        g = _book_game(rng, fen, 6, True)
        back = chess.pgn.read_game(io.StringIO(str(g)))
        assert back is not None and back.board().fen() == g.board().fen()
        assert list(back.mainline_moves()) == list(g.mainline_moves())
