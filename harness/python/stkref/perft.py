"""Perft counts of a golden perft EPD ('FEN ;D1 n ;D2 n ...') recomputed with python-chess: the
second, independent reference beside the UCI engine that generated them (ci/make-golden-perft.sh).
Depths whose count is above --max-nodes are left to the engine reference (python-chess is slow).
Exit status: 0 all recomputed counts agree, 1 a count differs, 2 bad input."""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Sequence
from pathlib import Path

import chess

from . import options
from .cli import ToolParser, run_tool
from .errors import InputError
from .inputs import UnreadableInputError, input_file, read_input_text


def perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += perft(board, depth - 1)
        board.pop()
    return total


# python-chess flags positions no game reaches; the engine (and so the golden suite) counts them.
_UNREACHABLE_BUT_COUNTED = chess.STATUS_IMPOSSIBLE_CHECK

_FIELD = re.compile(r"D([0-9]+) +([0-9]+)")


def _depth_field(field: str, path: Path, n: int) -> tuple[int, int]:
    """'D<depth> <count>' with depth 1 to 15 and a count below 2^64, as the C++ reader (perft at
    depth 0 is not a count of moves); anything else names the line and the field."""
    m = _FIELD.fullmatch(field.strip())
    if m is None or not 1 <= int(m.group(1)) <= 15 or int(m.group(2)) >= 2**64:
        raise InputError(
            f"{path}:{n}: malformed depth field {field.strip()!r} (expected 'D<depth> <count>')"
        )
    return int(m.group(1)), int(m.group(2))


def read_perft_epd(path: Path) -> list[tuple[int, str, list[tuple[int, int]]]]:
    """(line number, FEN, [(depth, count)]) per position; comment and blank lines skipped."""
    try:
        lines = read_input_text(path).splitlines()
    except UnreadableInputError as e:
        raise InputError(str(e)) from e
    out = []
    for n, text in enumerate(lines, 1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        fen, *fields = text.split(";")
        try:
            board = chess.Board(fen.strip())
        except ValueError as e:
            raise InputError(f"{path}:{n}: {e}") from e
        counts = [_depth_field(d, path, n) for d in fields if d.strip()]
        for (before, _), (depth, _) in itertools.pairwise(counts):
            if depth <= before:
                raise InputError(f"{path}:{n}: depth D{depth} repeated or out of order")
        if board.status() & ~_UNREACHABLE_BUT_COUNTED or not counts:
            raise InputError(f"{path}:{n}: invalid position or no ';D<depth> <count>' fields")
        out.append((n, fen.strip(), counts))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = ToolParser(prog="python -m stkref.perft", description=__doc__)
    ap.add_argument("--epd", type=input_file(), required=True, help="perft EPD with golden counts")
    ap.add_argument(
        "--max-nodes",
        type=options.integer(0, 2**62),
        default=200_000,
        help="recompute counts up to this many nodes",
    )
    args = ap.parse_args(argv)
    checked = skipped = failed = 0
    for n, fen, counts in read_perft_epd(args.epd):
        for depth, expected in counts:
            if expected > args.max_nodes:
                skipped += 1
                continue
            actual = perft(chess.Board(fen), depth)
            checked += 1
            if actual != expected:
                failed += 1
                print(f"{args.epd}:{n}: D{depth} golden {expected}, python-chess {actual}: {fen}")
    print(
        f"perft {args.epd}: {checked} counts recomputed with python-chess, {failed} differ, "
        f"{skipped} above {args.max_nodes} nodes left to the engine reference"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
