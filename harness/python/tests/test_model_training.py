"""Independent models of the training data path (docs/datagen.md, docs/training.md).

Written from the docs: datagen records are FEN | score (White's view) | result (White's view) |
ply | quiet; a game starts where the ply does not follow the line before it; the trainer turns
labels to the side to move's view, holds whole games out, fits K on a grid; the export and the
recorder quantize what they are given and say so.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import math
from typing import Any

import chess
import numpy as np
import pytest
from conftest import board_after
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from stkref.checkpoint import generate_checkpoint, save_checkpoint
from stkref.floatmodel import FloatModel
from stkref.netfile import read as read_net
from stktrain import datafile, export, record_net, train

boards = st.lists(st.integers(0, 10**6), min_size=0, max_size=30).map(board_after)


@st.composite
def games(draw: Any, max_games: int = 6) -> list[dict[str, Any]]:
    """Whole games as datagen writes them: consecutive plies from the opening's ply, one result."""
    out = []
    for _ in range(draw(st.integers(1, max_games))):
        start = draw(st.integers(1, 16))
        n = draw(st.integers(1, 6))
        out.append(
            {
                "plies": list(range(start, start + n)),
                "result": draw(st.sampled_from(["1.0", "0.5", "0.0"])),
                "scores": [draw(st.integers(-3000, 3000)) for _ in range(n)],
                "quiet": [draw(st.booleans()) for _ in range(n)],
            }
        )
    return out


FEN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
NO_SHRINK = (Phase.explicit, Phase.reuse, Phase.generate)


def _text(gs: list[dict[str, Any]]) -> str:
    return "".join(
        f"{FEN} | {s} | {g['result']} | {p} | {int(q)}\n"
        for g in gs
        for s, p, q in zip(g["scores"], g["plies"], g["quiet"], strict=True)
    )


def _separable(gs: list[dict[str, Any]]) -> bool:
    """Games a reader can tell apart: a game's first ply never follows the last one's end."""
    return all(b["plies"][0] != a["plies"][-1] + 1 for a, b in itertools.pairwise(gs))


# MODEL datafile-games
# checks: harness/python/stktrain/datafile.py  (records and their games, as datagen wrote them)
# contract: docs/training.md#what-it-trains
# planted: ci/mutants/model-datafile-games.patch  (a new game only where the ply goes down)
@given(st.lists(games(), min_size=1, max_size=3), st.randoms(use_true_random=False))
@settings(max_examples=60)
def test_model_datafile_games(tmp_path_factory, files: list[list[dict[str, Any]]], rnd):
    files = [gs for gs in files if _separable(gs)] or [files[0][:1]]
    tmp = tmp_path_factory.mktemp("data")
    paths = []
    for i, gs in enumerate(files):
        p = tmp / f"f{i}.txt"
        p.write_text(_text(gs))
        paths.append(p)
    recs = datafile.read_records(paths)
    # The model: every game of every file, numbered from 0 in reading order; a file starts one.
    want = []
    n = 0
    for gs in files:
        for g in gs:
            for s, p, q in zip(g["scores"], g["plies"], g["quiet"], strict=True):
                want.append((n, s, float(g["result"]), p, q))
            n += 1
    assert [(r.game, r.score, r.result, r.ply, r.quiet) for r in recs] == want
    # Games reordered within a file: the same dataset statistics (records, quiet, games, results).
    shuffled = []
    for gs in files:
        order = list(gs)
        rnd.shuffle(order)
        shuffled.append(order if _separable(order) else gs)
    for p, gs in zip(paths, shuffled, strict=True):
        p.write_text(_text(gs))
    again = datafile.read_records(paths)

    def stats(rs: list[datafile.Record]) -> tuple[Any, ...]:
        per_game: dict[int, list[datafile.Record]] = {}
        for r in rs:
            per_game.setdefault(r.game, []).append(r)
        return (
            len(rs),
            sum(r.quiet for r in rs),
            len(per_game),
            sorted((len(g), g[0].result, sum(r.score for r in g)) for g in per_game.values()),
        )

    assert stats(again) == stats(recs)


def _mirror_fen(board: chess.Board) -> str:
    return board.mirror().fen()


# MODEL train-labels-side-to-move
# checks: harness/python/stktrain/train.py  (labels turned to the side to move's view)
# contract: docs/training.md#what-it-trains
# planted: ci/mutants/model-train-labels-side-to-move.patch  (the result left in White's view)
@given(
    st.lists(
        st.tuples(boards, st.integers(-2000, 2000), st.sampled_from(["1.0", "0.5", "0.0"])),
        min_size=1,
        max_size=6,
    )
)
@settings(max_examples=40)
def test_model_train_labels_mirror(tmp_path_factory, rows):
    tmp = tmp_path_factory.mktemp("labels")
    a, m = tmp / "a.txt", tmp / "m.txt"
    a.write_text(
        "".join(f"{b.fen()} | {s} | {r} | {i + 1} | 1\n" for i, (b, s, r) in enumerate(rows))
    )
    # The colour mirror: the same position with the colours swapped, labels from White's view
    # mirrored (score negated, result 1 - result).
    m.write_text(
        "".join(
            f"{_mirror_fen(b)} | {-s} | {1.0 - float(r)} | {i + 1} | 1\n"
            for i, (b, s, r) in enumerate(rows)
        )
    )
    d, dm = train.read_data([a], True, 0), train.read_data([m], True, 0)
    for i, (b, s, r) in enumerate(rows):
        sign = 1 if b.turn == chess.WHITE else -1
        assert d.score[i] == sign * s
        assert d.result[i] == (float(r) if sign == 1 else 1.0 - float(r))
    for f in ("stm", "opp", "bucket", "score", "result"):
        assert np.array_equal(getattr(d, f), getattr(dm, f)), f


def _model_k(score: np.ndarray, result: np.ndarray) -> float:
    best, best_err = 0.0, math.inf
    for k in range(50, 1001, 10):
        err = sum(
            (1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, s / k)))) - r) ** 2
            for s, r in zip(score.tolist(), result.tolist(), strict=True)
        )
        if err < best_err - 1e-12 * max(1.0, err):
            best, best_err = float(k), err
    return best


# MODEL train-k-fit
# checks: harness/python/stktrain/train.py  (K: the grid value whose sigmoid predicts results best)
# contract: docs/training.md#what-it-trains
# planted: ci/mutants/model-train-k-fit.patch  (the grid stops short of 1000 cp)
@given(
    st.lists(st.integers(-3000, 3000), min_size=1, max_size=20),
    st.integers(5, 100).map(lambda k: 10 * k),
)
def test_model_train_k_fit(scores: list[int], k0: int):
    score = np.asarray(scores, np.float64)
    # Results exactly on a sigmoid of K0: K0 (on the grid, 50..1000 cp) is the best fit.
    result = 1.0 / (1.0 + np.exp(-score / k0))
    if np.any(score != 0):
        assert train.fit_scale(score, result) == k0
    # Game results 0 / 0.5 / 1: the grid search the docs describe, done by hand.
    wdl = np.where(score > 200, 1.0, np.where(score < -200, 0.0, 0.5))
    assert train.fit_scale(score, wdl) == _model_k(score, wdl)


# MODEL train-split-by-game
# checks: harness/python/stktrain/datafile.py  (--val-fraction of the games held out, by --seed)
# contract: docs/training.md#what-it-trains
# planted: ci/mutants/model-train-split-by-game.patch  (the held-out count floored, not rounded)
@given(
    st.lists(st.integers(0, 40), min_size=2, max_size=80),
    st.sampled_from([0.05, 0.1, 0.25, 0.3, 0.5]),
    st.integers(0, 100),
    st.randoms(use_true_random=False),
)
def test_model_split_by_game(game_ids: list[int], fraction: float, seed: int, rnd):
    games_arr = np.asarray(game_ids, np.int64)
    distinct = sorted(set(game_ids))
    # The fraction of the games, rounded half to even (docs/training.md), at least 1.
    x = fraction * len(distinct)
    low = math.floor(x)
    nearest = low + (1 if x - low > 0.5 or (x - low == 0.5 and low % 2) else 0)
    want = max(1, nearest)
    if want >= len(distinct):
        try:
            datafile.held_out_games(games_arr, fraction, seed)
        except Exception as e:
            assert "too few" in str(e)
            return
        raise AssertionError("holding out every game must be refused")
    held = datafile.held_out_games(games_arr, fraction, seed)
    assert len(set(held.tolist())) == len(held) == want
    assert set(held.tolist()) <= set(distinct)
    # Reordering the records (not the game numbers) holds the same games out.
    shuffled = list(game_ids)
    rnd.shuffle(shuffled)
    again = datafile.held_out_games(np.asarray(shuffled, np.int64), fraction, seed)
    assert sorted(again.tolist()) == sorted(held.tolist())


# MODEL export-clipped-count
# checks: harness/python/stktrain/export.py  (every clipped value reported, never silent)
# contract: docs/training.md#what-it-trains
# planted: ci/mutants/model-export-clipped-count.patch  (the total is the largest tensor's count)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["ft.weight", "l1.weight", "out.weight", "psqt.weight"]),
            st.integers(0, 10**6),
            st.sampled_from([1.0, -1.0]),
        ),
        max_size=6,
    )
)
# No shrinking: each example writes a 12 MB checkpoint; a failure prints its example as drawn.
@settings(max_examples=5, phases=NO_SHRINK)
def test_model_export_reports_every_clip(tmp_path_factory, planted_values):
    tmp = tmp_path_factory.mktemp("export")
    # Every value within [-1.5, 1.5]: inside every integer range of SPEC-NNUE at its scale (int8
    # at x64 holds 127/64), so the only clipped values are the planted ones.
    ckpt = {
        k: np.clip(np.array(v, np.float32), -1.5, 1.5)
        for k, v in generate_checkpoint(128, 1).items()
    }
    where: dict[str, set[int]] = {}
    for key, pos, sign in planted_values:
        flat = ckpt[key].reshape(-1)
        i = pos % flat.size
        if key in ("ft.weight", "psqt.weight"):  # row 0 is the padding row, dropped
            i = max(i, ckpt[key].shape[1])
        flat[i] = sign * 1e9  # beyond every integer range of SPEC-NNUE (int32 too, at x16)
        where.setdefault(key, set()).add(i)
    src = tmp / "c.npz"
    save_checkpoint(ckpt, src)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert export.main([str(src), str(tmp / "n.nnue")]) == 0
    out = buf.getvalue()
    total = sum(len(v) for v in where.values())
    assert f"total clipped {total}\n" in out
    for key, idx in where.items():
        assert f"clipped {key:12s} {len(idx)}\n" in out
    read_net(tmp / "n.nnue")  # what was written loads


# MODEL record-net-output-scale
# checks: harness/python/stktrain/record_net.py  (--output-scale F multiplies the evaluation by F)
# contract: docs/training.md#the-golden-trained-net
# planted: ci/mutants/model-record-net-output-scale.patch  (the output bias left unscaled)
@given(st.sampled_from([0.5, 0.8, 1.2, 2.0]), st.lists(boards, min_size=1, max_size=3), games())
@settings(max_examples=4, phases=NO_SHRINK)
def test_model_record_net_output_scale(tmp_path_factory, scale: float, bs, gs):
    tmp = tmp_path_factory.mktemp("record")
    # Inside every integer range even at x2 (the seeded net clips one l1 weight on purpose).
    ckpt = {
        k: np.clip(np.array(v, np.float32), -0.9, 0.9)
        for k, v in generate_checkpoint(128, 1).items()
    }
    src = tmp / "c.npz"
    save_checkpoint(ckpt, src)
    summary = {
        "settings": {"hidden": 128},
        "scale_cp": 150.0,
        "train_positions": 10,
        "validation_positions": 2,
        "kept_epoch": 1,
        "kept_val_loss": 0.03,
        "history": [{"val_loss": 0.06, "positions_per_second": 10.0}],
        "seconds": 1.0,
        "revision": "abc",
    }
    (tmp / "s.json").write_text(json.dumps(summary))
    gs = gs if _separable(gs) else gs[:1]
    (tmp / "d.txt").write_text(_text(gs))
    rc = record_net.main(
        [
            "--checkpoint",
            str(src),
            "--summary",
            str(tmp / "s.json"),
            "--data",
            str(tmp / "d.txt"),
            "--datagen-command",
            "stk-harness datagen",
            "--out-dir",
            str(tmp / "out"),
            "--output-scale",
            str(scale),
        ]
    )
    assert rc == 0
    recorded = dict(np.load(tmp / "out" / f"{record_net.NAME}.npz"))
    before, after = FloatModel(ckpt), FloatModel(recorded)
    for b in bs:
        e0, e1 = before.evaluate(b).eval, after.evaluate(b).eval
        assert math.isclose(e1, scale * e0, rel_tol=1e-4, abs_tol=1e-2), (e0, e1, scale)
    man = json.loads((tmp / "out" / "manifest.json").read_text())
    assert man["datagen"]["records"] == sum(len(g["plies"]) for g in gs)
    assert man["datagen"]["quiet_records"] == sum(sum(g["quiet"]) for g in gs)
    assert man["datagen"]["games"] == len(gs)
    assert man["output_scale"] == scale


GOOD_FIELDS = {"result": ["1.0", "0.5", "0.0", "1", "0"], "quiet": ["0", "1"]}
BAD_FIELDS = {"result": ["0.25", "2.0", "-1", "x"], "quiet": ["2", "yes", ""]}


# MODEL datafile-line-verdicts
# checks: harness/python/stktrain/datafile.py  (a bad line refused, naming FILE:LINE)
# contract: docs/training.md#what-it-trains
# planted: ci/mutants/model-datafile-line-verdicts.patch  (the line counted from 0)
# Every value of every field, good and bad, a case of its own (rule_choice.py: drawn, "2.0", "-1"
# and "x" for result and "2" for quiet went unchecked).
LINE_CASES = [
    (field, value, bad)
    for bad, table in ((False, GOOD_FIELDS), (True, BAD_FIELDS))
    for field, values in table.items()
    for value in values
] + [("fields", "", False), ("fields", "", True)]


@pytest.mark.parametrize(("field", "value", "bad"), LINE_CASES)
@given(st.integers(0, 8), st.integers(0, 8))
@settings(max_examples=4)
def test_model_datafile_line_verdicts(tmp_path_factory, field, value, bad, before, after):
    def line(ply: int, result: str = "0.5", quiet: str = "1", extra: bool = False) -> str:
        tail = " | 7" if extra else ""
        return f"{FEN} | 10 | {result} | {ply} | {quiet}{tail}\n"

    if field == "fields":
        odd = line(before + 1, extra=True) if bad else line(before + 1)
    else:
        odd = line(before + 1, **{field: value})
    text = "".join(line(i + 1) for i in range(before)) + odd
    text += "".join(line(before + 2 + i) for i in range(after))
    path = tmp_path_factory.mktemp("lines") / "d.txt"
    path.write_text(text)
    try:
        recs = datafile.read_records([path])
    except Exception as e:
        assert bad, str(e)
        assert str(e).startswith(f"{path}:{before + 1}: "), str(e)
        return
    assert not bad
    assert len(recs) == before + 1 + after
