"""stktrain.datafile: datagen records read back as written; games numbered from 0 in file order,
a new game where the ply does not follow the line before; a bad line named by FILE:LINE."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from stkref.errors import InputError
from stktrain.datafile import held_out_games, read_records

FEN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def lines(*rows: tuple[int, str, int, str]) -> str:
    return "".join(f"{FEN} | {s} | {r} | {p} | {q}\n" for s, r, p, q in rows)


def test_records_and_games_as_written(tmp_path: Path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    # game 0: plies 1, 2; game 1 starts at ply 1 again; game 2: a jump (ply 5 after 2)
    a.write_text(lines((10, "1.0", 1, "1"), (-20, "1.0", 2, "0"), (5, "0.5", 1, "1")))
    b.write_text(lines((7, "0.0", 5, "1"), (8, "0.0", 6, "1"), (9, "0.0", 8, "0")))
    recs = read_records([a, b])
    assert [r.game for r in recs] == [0, 0, 1, 2, 2, 3]  # files read together, one count
    assert [r.score for r in recs] == [10, -20, 5, 7, 8, 9]
    assert [r.quiet for r in recs] == [True, False, True, True, True, False]
    assert [r.result for r in recs] == [1.0, 1.0, 0.5, 0.0, 0.0, 0.0]
    assert (recs[4].path, recs[4].line, recs[4].ply) == (b, 2, 6)
    assert recs[0].fen == FEN


@pytest.mark.parametrize(
    "bad, why",
    [
        (f"{FEN} | 10 | 1.0 | 1\n", "4 fields, not 5"),
        (f"{FEN} | x | 1.0 | 1 | 1\n", "invalid literal"),
        (f"{FEN} | 10 | 2.0 | 1 | 1\n", "result must be"),
        (f"{FEN} | 10 | 1.0 | 1 | 2\n", "quiet 0 or 1"),
    ],
)
def test_a_bad_line_is_named(tmp_path: Path, bad: str, why: str):
    p = tmp_path / "d.txt"
    p.write_text(lines((1, "1.0", 1, "1")) + bad)
    with pytest.raises(InputError, match=f"{p}:2: .*{why}"):
        read_records([p])


def test_the_held_out_games_are_a_seeded_share():
    games = np.repeat(np.arange(20), 3)
    held = held_out_games(games, 0.25, 1)
    assert len(held) == 5 and set(held.tolist()) <= set(range(20))
    assert held.tolist() == held_out_games(games, 0.25, 1).tolist()
    assert held.tolist() != held_out_games(games, 0.25, 2).tolist()
    with pytest.raises(InputError, match="too few"):
        held_out_games(np.zeros(3, np.int64), 0.5, 1)
