"""stktrain.netquality: the offline gates pass an evaluation that orders and separates positions as
the labels do, and fail the defects they exist for: an evaluation that flattens decided
positions (the seed post's net), one that orders pairs at random, and labels read from the wrong
side, through the engine. Bad data is named by file and line."""

from __future__ import annotations

import os
import random
from pathlib import Path

import chess
import numpy as np
import pytest
from conftest import material, material_games, validate_junit

from stkref.cli import run_tool
from stktrain import netquality

ROOT = Path(__file__).resolve().parents[3]
ENGINE = Path(os.environ.get("STK_ENGINE") or ROOT / "build/release/engine/stk")
SEEDED_NET = ROOT / "golden/nets/stk-h128-seed1.nnue"


def stm_material(board: chess.Board) -> float:
    m = material(board)
    return float(m if board.turn == chess.WHITE else -m)


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("netquality") / "data.txt"
    material_games(path, 60, 1, plies=(30, 80))
    return path


def args_for(data: Path, tmp: Path, *extra: str):
    """The evaluations are faked: the net and the engine are stand-ins (the options name
    existing files: an input that is not one is refused while the command line is read)."""
    net, engine = tmp / "n.nnue", tmp / "stk"
    net.touch()
    engine.touch(0o755)
    return netquality.build_parser().parse_args(
        [
            "--net", str(net), "--data", str(data), "--engine", str(engine),
            "--val-fraction", "0.5", "--decided-cp", "300", "--decided", "40",
            "--pairs", "2000", "--reports-dir", str(tmp), *extra,
        ]
    )  # fmt: skip


def fake(net_of) -> netquality.Evaluate:
    """The net's evals from net_of(board); the classical evaluation is material."""

    def evaluate(boards):
        return (
            np.asarray([net_of(b) for b in boards], np.float64),
            np.asarray([stm_material(b) for b in boards], np.float64),
        )

    return evaluate


def gates(summary, args) -> dict[str, bool]:
    return {c.name: c.outcome.value == "passed" for c in netquality.gate_cases(summary, args, "t")}


def test_an_evaluation_that_matches_the_labels_passes(data: Path, tmp_path: Path):
    args = args_for(data, tmp_path)
    s = netquality.measure(args, fake(stm_material))
    assert s["pairs"] == 2000  # as many pairs as asked when enough labels differ
    assert s["net"]["pair_accuracy"] == 1.0 and s["net"]["mae_cp"] == 0.0
    assert s["decided_positions"] > 10 and abs(s["spread_ratio"] - 1.0) < 1e-9
    assert abs(s["scale_net_per_classical"] - 1.0) < 1e-9
    assert all(gates(s, args).values()), gates(s, args)


def test_a_net_that_flattens_decided_positions_fails(data: Path, tmp_path: Path):
    """Planted: the seed post's defect, every child squeezed into a narrow band."""
    args = args_for(data, tmp_path)
    s = netquality.measure(args, fake(lambda b: stm_material(b) / 100.0))
    g = gates(s, args)
    assert g["pair accuracy"]  # the order is kept: only the spread gates can see it
    assert not g["decided spread"] and not g["collapsed decided positions"], s
    assert abs(s["scale_net_per_classical"] - 0.01) < 1e-9


def test_positions_samples_the_holdout(data: Path, tmp_path: Path):
    every = netquality.measure(args_for(data, tmp_path, "--positions", "0"), fake(stm_material))
    some = netquality.measure(args_for(data, tmp_path, "--positions", "50"), fake(stm_material))
    assert some["positions"] == 50 < every["positions"]


def test_a_net_that_orders_at_random_fails(data: Path, tmp_path: Path):
    rng = random.Random(7)
    args = args_for(data, tmp_path)
    s = netquality.measure(args, fake(lambda b: rng.uniform(-2000, 2000)))
    assert 0.4 < s["net"]["pair_accuracy"] < 0.6
    assert not gates(s, args)["pair accuracy"]


def test_the_holdout_is_the_trainers_validation_split(data: Path):
    """The games held out are the ones stktrain.train holds out for the same seed and fraction."""
    pytest.importorskip("jax")
    from stktrain import train

    records = netquality.read_records([data])
    _, held = netquality.holdout(records, 0.25, 3)
    d = train.read_data([data], quiet_only=True, max_positions=0)
    _, va = train.split_by_game(d, 0.25, 3)
    assert sorted({r.game for r in held}) == sorted(set(va.game.tolist()))
    assert len(held) == len(va)


def test_through_the_engine_the_labels_side_is_kept(
    data: Path, tmp_path: Path, capsys, junit_xsd: Path
):
    """The seeded net's PSQT carries material, so it orders material-labelled pairs; with every
    label's sign flipped (planted: a label read from the wrong side) the pair gate must fail."""
    if not ENGINE.exists():
        pytest.skip("needs the release build (stk)")
    import json

    flipped = tmp_path / "flipped.txt"
    rows = [line.split(" | ") for line in data.read_text().splitlines()]
    flipped.write_text("".join(f"{f} | {-int(s)} | {r} | {p} | {q}\n" for f, s, r, p, q in rows))
    for name, path, rc in (("right", data, 0), ("flipped", flipped, 1)):
        argv = [
            "--net", str(SEEDED_NET), "--data", str(path), "--engine", str(ENGINE),
            "--val-fraction", "0.5", "--decided-cp", "300", "--decided", "20",
            "--reports-dir", str(tmp_path), "--config", name,
        ]  # fmt: skip
        assert run_tool(lambda argv=argv: netquality.main(argv)) == rc, capsys.readouterr().out
        s = json.loads((tmp_path / f"netquality/{name}.json").read_text())
        validate_junit(junit_xsd, tmp_path / f"junit/netquality-{name}.xml")
        if name == "right":
            assert s["net"]["pair_accuracy"] > 0.9 and s["classical"]["pair_accuracy"] > 0.9, s
        else:
            assert s["net"]["pair_accuracy"] < 0.1 and s["report"]["failures"] >= 1, s


def test_bad_data_is_named_by_file_and_line(data: Path, tmp_path: Path, capsys):
    bad = tmp_path / "bad.txt"
    lines = data.read_text().splitlines()
    bad.write_text("\n".join([*lines[:9], lines[9].replace(" | ", " ; ", 1), *lines[10:]]) + "\n")
    net = tmp_path / "x.nnue"  # a stand-in: the data is read first
    net.touch()
    argv = ["--net", str(net), "--data", str(bad), "--engine", str(ENGINE)]
    argv += ["--reports-dir", str(tmp_path)]
    if not ENGINE.exists():
        pytest.skip("needs the release build (stk)")
    assert run_tool(lambda: netquality.main(argv)) == 2
    assert f"{bad}:10" in capsys.readouterr().err


def test_a_bad_classical_answer_names_its_output_line(tmp_path: Path):
    """The engine's classical eval is checked line by line: a non-integer is named by its line."""
    import sys

    from stkref.engine import EngineError, engine_classical_evals
    from stkref.positions import Position

    fake_engine = tmp_path / "stk"
    fake_engine.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        "fens = [l.strip() for l in open(sys.argv[-1]) if l.strip()]\n"
        "for n, f in enumerate(fens, 1):\n"
        "    print(json.dumps({'line': n, 'fen': f, 'eval': 5 if n == 1 else 'x'}))\n"
    )
    fake_engine.chmod(0o755)
    pos = [Position("t", str(i), chess.STARTING_FEN) for i in range(2)]
    with pytest.raises(EngineError, match="output line 2: 'eval' must be an integer"):
        engine_classical_evals(str(fake_engine), pos)


@pytest.mark.parametrize(("result", "black_view"), [(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)])
def test_labels_turn_to_the_side_to_move(result: float, black_view: float):
    # Records are White's view; the net sees the side to move: Black's score is -score and its
    # result 1 - result (planted by the mutation campaign: 0 - result, a loss below zero).
    from stktrain.datafile import Record

    black = chess.Board()
    black.push_san("e4")
    for board, want in ((chess.Board(), (120.0, result)), (black, (-120.0, black_view))):
        r = Record(Path("d.txt"), 1, board.fen(), 120, result, 1, True, 0)
        assert netquality._stm(r, board) == want
