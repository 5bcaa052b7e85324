"""What a teacher's label costs and how good it is, per search budget (docs/training.md "Choosing
the teacher's budget").

python -m stktrain.teacher_budget --data FILE [FILE ...] --teacher CMD --budgets 1000,5000,...
    [--reference-nodes N] [--positions P] [--seed S] [--engine STK --engine-nodes 5000]
    [--json OUT]

Draws P quiet positions (seeded, at most one per game) from datagen files and scores each with the
teacher (a UCI engine, one thread, 16 MB hash cleared before every position, `go nodes B`) at every
budget B, and once at --reference-nodes (the deep search the labels are judged against). Per
budget: labels/s on one core (positions over the wall-clock seconds of their searches), the mean
absolute error in centipawns against the reference (both clipped to +-1000 cp, mates at the
clip), the mean absolute error in win probability (1 / (1 + 10^(-cp/400)), White's view), and the
share of positions whose sign agrees with the reference's (positive, negative, or 0, which agrees
only with 0). The null control: the reference budget searched again (the teacher is
deterministic from a cleared hash, so its errors must be 0; anything else is the noise the other
rows sit on). With --engine, stk's own search at --engine-nodes is a row too: the labels the data
has today. Every figure is printed; nothing is chosen silently.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import chess.engine

from stkref import inputs, options
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.outputs import Output, write_text_atomic
from stktrain.datafile import read_records

CLIP_CP = 1000
WIN_SCALE = 400.0


def draw_positions(paths: list[Path], count: int, seed: int) -> list[str]:
    """`count` quiet FENs, at most one per game, drawn with random.Random(seed)."""
    by_game: dict[int, list[str]] = {}
    for r in read_records(paths):
        if r.quiet:
            by_game.setdefault(r.game, []).append(r.fen)
    rng = random.Random(seed)
    games = sorted(by_game)
    rng.shuffle(games)
    if len(games) < count:
        raise InputError(
            f"{', '.join(map(str, paths))}: {len(games)} games with a quiet position, "
            f"--positions {count} asks for one from each of {count}"
        )
    return [rng.choice(by_game[g]) for g in games[:count]]


def clipped_cp(score: chess.engine.PovScore) -> int:
    """White's view, clipped to +-CLIP_CP; a mate is the clip."""
    white = score.white()
    if white.is_mate():
        mate = white.mate()
        return CLIP_CP if mate is not None and mate > 0 else -CLIP_CP
    cp = white.score()
    assert cp is not None
    return max(-CLIP_CP, min(CLIP_CP, cp))


def win_probability(cp: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -cp / WIN_SCALE))


@dataclass
class Labels:
    name: str
    nodes: int
    scores: list[int]
    seconds: float


def label(command: list[str], fens: list[str], nodes: int, name: str) -> Labels:
    """Every position searched with a cleared hash (a new game each), one thread."""
    engine = chess.engine.SimpleEngine.popen_uci(command)
    try:
        options = {k: v for k, v in (("Threads", 1), ("Hash", 16)) if k in engine.options}
        engine.configure(options)
        scores, seconds = [], 0.0
        for fen in fens:
            t0 = time.perf_counter()
            info = engine.analyse(chess.Board(fen), chess.engine.Limit(nodes=nodes), game=object())
            seconds += time.perf_counter() - t0
            if "score" not in info:
                raise InputError(f"{name}: no score for {fen} at {nodes} nodes")
            scores.append(clipped_cp(info["score"]))
        return Labels(name, nodes, scores, seconds)
    finally:
        engine.quit()


def figures(labels: Labels, reference: Labels) -> dict[str, Any]:
    n = len(labels.scores)
    pairs = list(zip(labels.scores, reference.scores, strict=True))
    agree = sum((a > 0 and r > 0) or (a < 0 and r < 0) or (a == 0 and r == 0) for a, r in pairs)
    return {
        "teacher": labels.name,
        "nodes": labels.nodes,
        "positions": n,
        "labels_per_second": n / labels.seconds if labels.seconds > 0 else None,
        "mae_cp": sum(abs(a - r) for a, r in pairs) / n,
        "mae_win_probability": sum(abs(win_probability(a) - win_probability(r)) for a, r in pairs)
        / n,
        "sign_agreement": agree / n,
    }


def render(rows: list[dict[str, Any]], reference: dict[str, Any]) -> str:
    lines = [
        f"reference: {reference['teacher']} at {reference['nodes']} nodes, "
        f"{reference['positions']} positions, {reference['labels_per_second']:.2f} labels/s",
        "",
        "| teacher | nodes | labels/s (1 core) | MAE cp | MAE win prob | sign agrees |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        lps = "-" if r["labels_per_second"] is None else f"{r['labels_per_second']:.1f}"
        lines.append(
            f"| {r['teacher']} | {r['nodes']} | {lps} | {r['mae_cp']:.1f} | "
            f"{r['mae_win_probability']:.4f} | {r['sign_agreement']:.1%} |"
        )
    return "\n".join(lines) + "\n"


def budgets(text: str) -> list[int]:
    """A comma-separated list of node budgets, each 1 to 10^9."""
    return [options.positive_count(x) for x in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(
        prog="python -m stktrain.teacher_budget",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        outputs=lambda a: [Output("--json", a.json)] if a.json else [],
    )
    ap.add_argument("--data", nargs="+", type=inputs.input_file(inputs.DATA_LIMIT), required=True)
    ap.add_argument("--teacher", type=inputs.program, required=True)
    ap.add_argument("--budgets", type=budgets, default=[1000, 5000, 20000, 100000])
    ap.add_argument("--reference-nodes", type=options.positive_count, default=1000000)
    ap.add_argument("--positions", type=options.integer(1, 100000), default=100)
    ap.add_argument("--seed", type=options.seed, default=1)
    ap.add_argument("--engine", type=inputs.program, help="stk, for its own labels as a row")
    ap.add_argument("--engine-nodes", type=options.positive_count, default=5000)
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    a = ap.parse_args(argv)
    print(f"teacher_budget: seed {a.seed}, {a.positions} positions", flush=True)
    fens = draw_positions(a.data, a.positions, a.seed)
    teacher = [str(a.teacher)]
    reference = label(teacher, fens, a.reference_nodes, f"{a.teacher.name} (reference)")
    control = label(teacher, fens, a.reference_nodes, f"{a.teacher.name} (null control)")
    runs = [label(teacher, fens, b, a.teacher.name) for b in a.budgets]
    if a.engine:
        runs.append(label([str(a.engine)], fens, a.engine_nodes, f"{a.engine.name} (own search)"))
    rows = [figures(r, reference) for r in [control, *runs]]
    ref = figures(reference, reference)
    sys.stdout.write(render(rows, ref))
    if a.json:
        doc = {"seed": a.seed, "data": [str(p) for p in a.data], "reference": ref, "rows": rows}
        write_text_atomic(a.json, json.dumps(doc, indent=2) + "\n")
    if not math.isclose(rows[0]["mae_cp"], 0.0):
        print(
            "teacher_budget: the null control differs from the reference: the teacher is not "
            "deterministic here, and every row's error includes that noise",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
