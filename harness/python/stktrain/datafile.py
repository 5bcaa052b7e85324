"""Reads `stk-harness datagen` files (docs/datagen.md): `FEN | score | result | ply | quiet`.

score is the search score in centipawns from White's view, result the game's result for White
(1.0, 0.5, 0.0), quiet 1 when the position passed datagen's quiet filter. Games are written whole
and in order, so a new game starts where the ply does not follow the line before it. A bad line
is an InputError naming FILE:LINE; nothing is skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from stkref.errors import InputError
from stkref.inputs import DATA_LIMIT, UnreadableInputError, read_input_text


@dataclass(frozen=True)
class Record:
    path: Path
    line: int
    fen: str
    score: int  # cp, White's view
    result: float  # for White
    ply: int
    quiet: bool
    game: int  # numbered from 0 across all files read together


def read_records(paths: list[Path]) -> list[Record]:
    records: list[Record] = []
    game = -1
    for path in paths:
        try:
            lines = read_input_text(path, DATA_LIMIT).splitlines()
        except UnreadableInputError as e:
            raise InputError(f"{path}: cannot be read ({e.why})") from e
        last_ply = None
        for n, line in enumerate(lines, 1):
            f = line.split(" | ")
            if len(f) != 5:
                raise InputError(
                    f"{path}:{n}: {len(f)} fields, not 5 (FEN | score | result | ply | quiet)"
                )
            try:
                cp, res, ply, quiet = int(f[1]), float(f[2]), int(f[3]), f[4]
            except ValueError as e:
                raise InputError(f"{path}:{n}: {e}") from e
            if res not in (0.0, 0.5, 1.0) or quiet not in ("0", "1"):
                raise InputError(f"{path}:{n}: result must be 1.0, 0.5 or 0.0 and quiet 0 or 1")
            if last_ply is None or ply != last_ply + 1:
                game += 1
            last_ply = ply
            records.append(Record(path, n, f[0], cp, res, ply, quiet == "1", game))
    return records


def held_out_games(games: np.ndarray, fraction: float, seed: int) -> np.ndarray:
    """The games held out for validation: `fraction` of the distinct games, drawn by seed."""
    distinct = np.unique(games)
    held = np.random.default_rng(seed).permutation(distinct)[
        : max(1, round(fraction * len(distinct)))
    ]
    if len(held) == len(distinct):
        raise InputError(f"{len(distinct)} game(s): too few to hold {fraction:.0%} of them out")
    return held
