"""Offline quality of a trained net before any game: held-out error, pair accuracy, decided spread.

python -m stktrain.netquality --net NET.nnue --data FILE --engine stk [--config C]

On the validation games of the datagen data (the games `stktrain.train` held out: the same
--val-fraction and --seed), the engine's quantized evaluation of the net and, beside it as the
reference, the engine's classical evaluation:
- holdout error against the labels: MAE in cp against the search score, and in win probability
  (sigmoid(eval / K), K fitted on the training games as the trainer fits it) against the score's
  win probability and against the game result;
- pair accuracy: of seeded random pairs of held-out positions whose labels differ by at least
  --pair-margin cp, the share the evaluation orders as the label does;
- decided spread: in held-out positions the label calls decided (|score| > --decided-cp), the
  evaluations of the children of every legal move, from the mover's view; the median spread
  (max - min) beside the classical evaluation's, and the share of positions collapsed into a
  band under --collapse-cp (the seed post's net: "71 legal moves in a band of 15 cp");
- scale: the least-squares slope of the net's eval on the classical eval where both are within
  +-1000 cp. The search's margins (futility, razoring, null move) were tuned on the classical
  scale; a slope far from 1 means they need calibrating for the net.
Gates (JUnit): pair accuracy >= --min-pair-accuracy, decided spread ratio (net / classical) >=
--min-spread-ratio, collapsed share <= --max-collapsed-share. The seeded random net fails them
(tests/test_netquality.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import chess
import numpy as np

from stkref import inputs, options
from stkref.cli import ToolParser, run_tool
from stkref.engine import check_engine, engine_classical_evals, engine_evals
from stkref.errors import InputError
from stkref.junit import TestCase, TestSuite, add_build_properties
from stkref.positions import Position, normalized_fen
from stkref.report import (
    add_report_args,
    gate_testcases,
    gated_outputs,
    gated_report,
    write_gated_reports,
)
from stktrain.datafile import Record, held_out_games, read_records
from stktrain.train import fit_scale

# boards -> (the net's evals, the classical evals), side to move, cp
Evaluate = Callable[[list[chess.Board]], tuple[np.ndarray, np.ndarray]]


def _sigmoid(x: np.ndarray, k: float) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x / k, -50, 50)))


def holdout(records: list[Record], fraction: float, seed: int) -> tuple[list[Record], list[Record]]:
    """(training, held-out) quiet records, split by game exactly as stktrain.train splits them."""
    quiet = [r for r in records if r.quiet]
    if not quiet:
        raise InputError("the data holds no quiet positions")
    held = set(held_out_games(np.asarray([r.game for r in quiet]), fraction, seed).tolist())
    return [r for r in quiet if r.game not in held], [r for r in quiet if r.game in held]


def _board(r: Record) -> chess.Board:
    try:
        return chess.Board(r.fen)
    except ValueError as e:
        raise InputError(f"{r.path}:{r.line}: {e}") from e


def _stm(r: Record, board: chess.Board) -> tuple[float, float]:
    """(score, result) from the side to move's view, as the net sees the position."""
    white = board.turn == chess.WHITE
    return (r.score if white else -r.score), (r.result if white else 1.0 - r.result)


class Evaluators:
    """The net's and the classical evaluation of FEN lists, through the engine's batch commands."""

    def __init__(self, engine: str, net: str) -> None:
        self.engine, self.net = engine, net

    def __call__(self, boards: list[chess.Board]) -> tuple[np.ndarray, np.ndarray]:
        pos = [Position("q", str(i), normalized_fen(b)) for i, b in enumerate(boards)]
        net = [e["eval"] for e in engine_evals(self.engine, self.net, pos)]
        return np.asarray(net, np.float64), np.asarray(
            engine_classical_evals(self.engine, pos), np.float64
        )


def label_errors(
    ev: np.ndarray, score: np.ndarray, result: np.ndarray, k: float
) -> dict[str, float]:
    return {
        "mae_cp": float(np.mean(np.abs(ev - score))),
        "mae_wdl_score": float(np.mean(np.abs(_sigmoid(ev, k) - _sigmoid(score, k)))),
        "mae_wdl_result": float(np.mean(np.abs(_sigmoid(ev, k) - result))),
    }


def pair_accuracy(ev: np.ndarray, score: np.ndarray, pairs: np.ndarray) -> float:
    i, j = pairs[:, 0], pairs[:, 1]
    return float(np.mean(np.sign(ev[i] - ev[j]) == np.sign(score[i] - score[j])))


def draw_pairs(
    score: np.ndarray, count: int, margin: float, rng: np.random.Generator
) -> np.ndarray:
    """Up to `count` seeded pairs whose labels differ by at least `margin` cp."""
    cand = rng.integers(0, len(score), size=(count * 4, 2))
    keep = cand[np.abs(score[cand[:, 0]] - score[cand[:, 1]]) >= margin]
    return np.asarray(keep[:count])


def child_spreads(boards: list[chess.Board], evaluate: Evaluate) -> dict[str, np.ndarray]:
    """Per decided position: max - min over its legal moves of the child's eval (mover's view)."""
    children, owner = [], []
    for n, b in enumerate(boards):
        for m in b.legal_moves:
            b.push(m)
            children.append(b.copy(stack=False))
            b.pop()
            owner.append(n)
    net, classical = evaluate(children) if children else (np.zeros(0), np.zeros(0))
    own = np.asarray(owner)
    spreads: dict[str, list[float]] = {"net": [], "classical": []}
    for n in range(len(boards)):
        sel = own == n
        if np.count_nonzero(sel) < 2:  # one legal move: no spread to measure
            continue
        for name, ev in (("net", -net[sel]), ("classical", -classical[sel])):
            spreads[name].append(float(ev.max() - ev.min()))
    return {k: np.asarray(v) for k, v in spreads.items()}


def scale_slope(net: np.ndarray, classical: np.ndarray) -> float:
    """Least-squares slope through 0 of the net's eval on the classical one, both within 1000 cp."""
    sel = (np.abs(net) <= 1000) & (np.abs(classical) <= 1000)
    c, n = classical[sel], net[sel]
    return float((n * c).sum() / max((c * c).sum(), 1.0))


def measure(args: argparse.Namespace, evaluate: Evaluate) -> dict[str, Any]:
    records = read_records([Path(p) for p in args.data])
    train_set, held = holdout(records, args.val_fraction, args.seed)
    rng = np.random.default_rng(args.seed)
    if args.positions and len(held) > args.positions:
        held = [held[i] for i in sorted(rng.choice(len(held), args.positions, replace=False))]
    tb = [(_stm(r, _board(r))) for r in train_set]
    k = fit_scale(np.asarray([s for s, _ in tb]), np.asarray([w for _, w in tb]))
    boards = [_board(r) for r in held]
    labels = np.asarray([_stm(r, b) for r, b in zip(held, boards, strict=True)], np.float64)
    score, result = labels[:, 0], labels[:, 1]
    net, classical = evaluate(boards)
    pairs = draw_pairs(score, args.pairs, args.pair_margin, rng)
    decided = [b for b, s in zip(boards, score, strict=True) if abs(s) > args.decided_cp]
    if len(decided) > args.decided:
        decided = [
            decided[i] for i in sorted(rng.choice(len(decided), args.decided, replace=False))
        ]
    spreads = child_spreads(decided, evaluate)
    out: dict[str, Any] = {
        "positions": len(held),
        "validation_games": len({r.game for r in held}),
        "k_cp": k,
        "pairs": len(pairs),
        "decided_positions": len(spreads["net"]),
        "scale_net_per_classical": scale_slope(net, classical),
    }
    for name, ev in (("net", net), ("classical", classical)):
        sp = spreads[name]
        out[name] = {
            **label_errors(ev, score, result, k),
            "pair_accuracy": pair_accuracy(ev, score, pairs) if len(pairs) else 0.0,
            "decided_median_spread_cp": float(np.median(sp)) if len(sp) else 0.0,
            "decided_collapsed_share": float(np.mean(sp < args.collapse_cp)) if len(sp) else 0.0,
        }
    c_spread = out["classical"]["decided_median_spread_cp"]
    out["spread_ratio"] = out["net"]["decided_median_spread_cp"] / max(c_spread, 1.0)
    return out


def gate_cases(s: dict[str, Any], args: argparse.Namespace, cls: str) -> list[TestCase]:
    net = s["net"]
    checks = [
        (
            "pair accuracy",
            s["pairs"] > 0 and net["pair_accuracy"] >= args.min_pair_accuracy,
            f"{net['pair_accuracy']:.1%} of {s['pairs']} pairs ordered as the labels "
            f"(classical {s['classical']['pair_accuracy']:.1%}), gate {args.min_pair_accuracy:.0%}",
        ),
        (
            "decided spread",
            s["decided_positions"] > 0 and s["spread_ratio"] >= args.min_spread_ratio,
            f"median child-eval spread {net['decided_median_spread_cp']:.0f} cp in "
            f"{s['decided_positions']} decided positions, classical "
            f"{s['classical']['decided_median_spread_cp']:.0f} cp: ratio {s['spread_ratio']:.2f}, "
            f"gate {args.min_spread_ratio}",
        ),
        (
            "collapsed decided positions",
            s["decided_positions"] > 0
            and net["decided_collapsed_share"] <= args.max_collapsed_share,
            f"{net['decided_collapsed_share']:.1%} of decided positions have all children within "
            f"{args.collapse_cp} cp (classical {s['classical']['decided_collapsed_share']:.1%}), "
            f"gate {args.max_collapsed_share:.0%}",
        ),
    ]
    return gate_testcases(cls, checks)


def markdown(suite: TestSuite, s: dict[str, Any]) -> str:
    rows = [
        ("holdout MAE (cp, vs search score)", "mae_cp", "{:.1f}"),
        ("holdout MAE (win prob., vs score)", "mae_wdl_score", "{:.4f}"),
        ("holdout MAE (win prob., vs result)", "mae_wdl_result", "{:.4f}"),
        ("pair accuracy", "pair_accuracy", "{:.1%}"),
        ("decided: median child spread (cp)", "decided_median_spread_cp", "{:.0f}"),
        ("decided: collapsed share", "decided_collapsed_share", "{:.1%}"),
    ]
    lines = [
        f"# {suite.name}",
        "",
        f"Result: **{'PASS' if suite.all_passed() else 'FAIL'}**",
        "",
        f"{s['positions']} held-out positions from {s['validation_games']} validation games, "
        f"K {s['k_cp']:.0f} cp (fitted on the training games), {s['pairs']} pairs, "
        f"{s['decided_positions']} decided positions.",
        "",
        "| measure | net | classical |",
        "|---|---|---|",
    ]
    for label, key, fmt in rows:
        lines.append(
            f"| {label} | {fmt.format(s['net'][key])} | {fmt.format(s['classical'][key])} |"
        )
    lines += [
        "",
        f"Scale: net eval = {s['scale_net_per_classical']:.2f} x classical eval (least squares, "
        "both within 1000 cp); the search's margins were tuned on the classical scale.",
        "",
        "| check | outcome | message |",
        "|---|---|---|",
    ]
    lines += [
        f"| {c.name} | {c.outcome.value} | {c.message or c.system_out} |" for c in suite.cases
    ]
    return "\n".join(lines) + "\n"


def build_parser() -> argparse.ArgumentParser:
    ap = ToolParser(
        prog="python -m stktrain.netquality",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=gated_report("netquality"),
        outputs=gated_outputs("netquality"),
    )
    ap.add_argument(
        "--net", type=inputs.input_file(), required=True, help="the .nnue net the engine evaluates"
    )
    ap.add_argument(
        "--data",
        action="append",
        type=inputs.input_file(inputs.DATA_LIMIT),
        required=True,
        help="datagen file (repeatable)",
    )
    ap.add_argument("--engine", type=inputs.program, required=True, help="the stk binary")
    ap.add_argument(
        "--seed", type=options.seed, default=1, help="the trainer's seed: fixes the split"
    )
    ap.add_argument(
        "--val-fraction", type=options.fraction, default=0.1, help="the trainer's --val-fraction"
    )
    ap.add_argument(
        "--positions", type=options.count, default=20000, help="held-out positions (0: all)"
    )
    ap.add_argument("--pairs", type=options.count, default=20000)
    ap.add_argument(
        "--pair-margin", type=options.centipawns, default=50.0, help="cp between a pair's labels"
    )
    ap.add_argument("--decided-cp", type=options.centipawns, default=1000.0)
    ap.add_argument(
        "--decided", type=options.count, default=300, help="decided positions to expand"
    )
    ap.add_argument("--collapse-cp", type=options.centipawns, default=15.0)
    ap.add_argument("--min-pair-accuracy", type=options.share, default=0.7)
    ap.add_argument("--min-spread-ratio", type=options.real(0.0, 1e6), default=0.5)
    ap.add_argument("--max-collapsed-share", type=options.share, default=0.1)
    add_report_args(ap)
    return ap


def run(args: argparse.Namespace) -> int:
    evaluate = Evaluators(check_engine(args.engine), args.net)
    s = measure(args, evaluate)
    cls = f"netquality.{args.config}"
    suite = TestSuite(cls)
    for key in ("net", "seed", "val_fraction"):
        suite.property(key, getattr(args, key))
    suite.property("data", ";".join(str(Path(p).resolve()) for p in args.data))
    add_build_properties(suite)
    for c in gate_cases(s, args, cls):
        suite.add(c)
    gates = {
        k: getattr(args, k)
        for k in ("min_pair_accuracy", "min_spread_ratio", "max_collapsed_share")
    }
    return write_gated_reports(
        args,
        "netquality",
        suite,
        {"net": str(args.net), "data": [str(p) for p in args.data], "gates": gates, **s},
        markdown(suite, s),
    )


def main(argv: list[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(run_tool(main))
