"""Position corpora for the parity and drift harnesses.

- spec: the SPEC-NNUE.md test vectors;
- curated: positions that separate the two perspectives (LESSONS.md: the symmetric start
  position alone cannot catch a perspective or mirroring bug);
- random: seeded random legal games (python-chess), one position per game;
- file: any EPD/FEN file (first 4 fields of each line).
Every position is legal (python-chess `is_valid()`); an illegal or malformed line is an error
naming the file and line, never skipped.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import chess

from .errors import InputError
from .inputs import UnreadableInputError, read_input_text


@dataclass(frozen=True)
class Position:
    corpus: str  # "spec", "curated", "random", or the file's stem
    id: str
    fen: str  # normalized 6-field FEN, en-passant square kept as given
    source: str = ""  # "file:line" for file positions

    def board(self) -> chess.Board:
        return chess.Board(self.fen)


def normalized_fen(board: chess.Board) -> str:
    return board.fen(en_passant="fen")


def _make(corpus: str, pid: str, fen: str, source: str = "") -> Position:
    board = chess.Board(fen)
    if not board.is_valid():
        raise InputError(
            f"{source or corpus + ':' + pid}: illegal position {fen!r}: {_status_text(board)}"
        )
    return Position(corpus, pid, normalized_fen(board), source)


def _status_text(board: chess.Board) -> str:
    status = board.status()
    names = [s.name for s in chess.Status if s and status & s and s.name]
    return ", ".join(n.lower() for n in names) or "invalid"


# Spec test vectors: (id, fen, perspective, expected bucket, indices that must be present, count)
SPEC_VECTORS: tuple[tuple[str, str, chess.Color, int, tuple[int, ...], int], ...] = (
    ("startpos-white", chess.STARTING_FEN, chess.WHITE, 3, (2127, 2120, 2811), 31),
    ("startpos-black", chess.STARTING_FEN, chess.BLACK, 3, (2127, 2120, 2811), 31),
)


def spec_positions() -> list[Position]:
    return [_make("spec", "startpos", chess.STARTING_FEN)]


# (id, fen): each chosen for what it separates; see the comment on each group.
CURATED: tuple[tuple[str, str], ...] = (
    # Kings on both halves, in all four combinations (mirroring is per perspective).
    ("kings-both-queenside", "2kr3r/ppp2ppp/2n5/3q4/3P4/2N5/PPPQ1PPP/2KR3R w - - 0 1"),
    ("kings-both-kingside", "r4rk1/ppp2ppp/2n5/3q4/3P4/2N5/PPPQ1PPP/5RK1 w - - 0 1"),
    ("white-queenside-black-kingside", "5rk1/pp3ppp/8/8/8/8/PP3PPP/2KR4 w - - 0 1"),
    ("white-kingside-black-queenside", "2kr4/ppp2ppp/8/8/8/8/PPP2PPP/6K1 b - - 0 1"),
    # The d/e boundary of the horizontal mirror, both colours, both sides to move.
    ("kings-d1-e8", "4k3/8/8/8/8/8/8/3K4 w - - 0 1"),
    ("kings-e1-d8", "3k4/8/8/8/8/8/8/4K2R w K - 0 1"),
    ("kings-d4-e5-black", "8/8/8/4k3/8/3K4/8/8 b - - 0 1"),
    # Corner kings: buckets 0, 3, 28, 31 and their mirrors.
    ("kings-a1-h8", "7k/8/8/8/8/8/8/K7 w - - 0 1"),
    ("kings-h1-a8", "k7/8/8/8/8/8/8/7K b - - 0 1"),
    ("kings-a8-h1-pieces", "k7/1q6/8/8/8/8/6Q1/7K w - - 0 1"),
    ("kings-advanced", "8/2K5/8/8/8/8/5k2/8 w - - 0 1"),
    # Dense middlegames (32 and 30 pieces: output bucket 7).
    ("dense-italian", "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
    ("dense-qgd", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"),
    (
        "dense-opposite-castling",
        "2kr1b1r/pppq1ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPPQ1PPP/R3KB1R w KQ - 6 8",
    ),
    # Bare king-and-pawn endings (output buckets 0 and 1 at the 4/5-piece boundary).
    ("kp-centre", "8/8/4k3/8/3P4/8/4K3/8 w - - 0 1"),
    ("kp-kingside-black", "8/3k4/8/8/8/8/5PK1/8 b - - 0 1"),
    ("kpp-vs-kp", "8/5k2/8/2p5/8/8/1PP5/4K3 w - - 0 1"),
    ("kppp-vs-kp", "8/5k2/8/2p5/8/8/1PPP4/4K3 b - - 0 1"),
    # Several queens (promoted material: more than one of a kind).
    ("three-queens", "3QQ3/8/8/2k5/8/8/1K6/4q3 w - - 0 1"),
    ("queens-each-side", "q3k2q/8/8/8/8/8/8/Q3K2Q b - - 0 1"),
    ("underpromoted-minors", "4k3/8/8/8/8/8/8/NNNBBK2 w - - 0 1"),
    # Promotions pending for both sides.
    ("promotions-pending", "8/1P4kP/8/8/8/8/p5K1/8 w - - 0 1"),
    ("promotion-capture", "1n2k3/P7/8/8/8/8/7p/4K1N1 b - - 0 1"),
    # Castling rights in various combinations.
    ("castling-all", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    ("castling-partial", "r3k2r/pppq1ppp/2n2n2/2bpp1B1/2BPP1b1/2N2N2/PPPQ1PPP/R3K2R b Kq - 0 1"),
    # En-passant squares for both sides to move.
    ("ep-white-to-move", "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"),
    ("ep-black-to-move", "rnbqkbnr/pppp1ppp/8/8/3Pp3/2N2N2/PPP1PPPP/R1BQKB1R b KQkq d3 0 3"),
    # Side to move in check.
    ("white-in-check", "4k3/8/8/8/8/8/4q3/4K3 w - - 0 1"),
    ("black-in-check", "r3k3/8/8/1B6/8/8/8/4K3 b q - 0 1"),
    # Lopsided material (large PSQT differences, either side).
    ("white-up-a-rook", "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1"),
    ("black-up-a-queen", "3q2k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1"),
)


def curated_positions() -> list[Position]:
    return [_make("curated", pid, fen) for pid, fen in CURATED]


def random_positions(
    count: int, seed: int, min_plies: int = 1, max_plies: int = 140
) -> list[Position]:
    """One position per seeded random game, after a random number of random legal moves.

    Deterministic for a given seed and python-chess version (legal move order is stable).
    """
    rng = random.Random(seed)
    out: list[Position] = []
    for i in range(count):
        board = chess.Board()
        for _ in range(rng.randint(min_plies, max_plies)):
            moves = list(board.legal_moves)
            if not moves:
                break  # mate or stalemate: still a legal position to encode
            board.push(rng.choice(moves))
        out.append(
            Position("random", f"random-s{seed}-{i}", normalized_fen(board.copy(stack=False)))
        )
    return out


_ID_RE = re.compile(r'\bid\s+"([^"]*)"')


def parse_position_line(line: str, path: str, lineno: int, corpus: str) -> Position:
    fields = line.split()
    where = f"{path}:{lineno}"
    if len(fields) < 4:
        raise InputError(f"{where}: expected at least 4 FEN fields, got {len(fields)}: {line!r}")
    counters = "0 1"
    if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
        counters = f"{fields[4]} {fields[5]}"
    fen = " ".join(fields[:4]) + " " + counters
    try:
        board = chess.Board(fen)
    except ValueError as e:
        raise InputError(f"{where}: malformed FEN {' '.join(fields[:4])!r}: {e}") from e
    # A check that no legal last move could give (perft suites hold such positions) is still a
    # well-defined position for encoding and evaluation; every other defect is an error.
    if board.status() & ~chess.STATUS_IMPOSSIBLE_CHECK:
        raise InputError(
            f"{where}: illegal position {' '.join(fields[:4])!r}: {_status_text(board)}"
        )
    m = _ID_RE.search(line)
    pid = m.group(1) if m else f"{corpus}:{lineno}"
    return Position(corpus, pid, normalized_fen(board), where)


def read_positions(path: str | os.PathLike[str], corpus: str | None = None) -> list[Position]:
    """Reads an EPD/FEN file; blank lines and lines starting with '#' are not positions."""
    name = os.fspath(path)
    corpus = corpus or Path(name).stem
    try:
        text = read_input_text(name)
    except UnreadableInputError as e:
        raise InputError(f"{name}: cannot read position file: {e.why}") from e
    out = [
        parse_position_line(line, name, n, corpus)
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not out:
        raise InputError(f"{name}: no positions in file")
    return out


def colour_mirror(pos: Position) -> Position:
    """Swap colours, flip ranks, flip side to move (castling and en passant follow)."""
    return Position(
        pos.corpus + "-mirror", pos.id + "-mirror", normalized_fen(pos.board().mirror()), pos.source
    )


def shared_dir() -> Path:
    """STK_SHARED, default ../shared relative to the repository root."""
    env = os.environ.get("STK_SHARED")
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / ".git").exists():
            return parent.parent / "shared"
    return Path("../shared").resolve()


def load_corpora(
    curated: bool,
    random_count: int,
    seed: int,
    epd_files: Iterable[str | os.PathLike[str]],
    spec: bool = True,
) -> dict[str, list[Position]]:
    """Corpus name -> positions, in a fixed order: spec, curated, random, files as given."""
    corpora: dict[str, list[Position]] = {}
    if spec:
        corpora["spec"] = spec_positions()
    if curated:
        corpora["curated"] = curated_positions()
    if random_count > 0:
        corpora["random"] = random_positions(random_count, seed)
    for f in epd_files:
        positions = read_positions(f)
        name = positions[0].corpus
        while name in corpora:
            name += "_"
        corpora[name] = [Position(name, p.id, p.fen, p.source) for p in positions]
    return corpora
