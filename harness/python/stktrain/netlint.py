"""Net lint: how a quantized net's integer activations use their ranges over a position corpus.

python -m stktrain.netlint --net NET.nnue|CKPT.npz [--random N] [--epd FILE] [--config C]

In the engine's own integer arithmetic (the oracle's, exact to 0 cp against the engine), both
perspectives of every position, per layer and output bucket:
- feature transformer: the share of accumulator lanes clipped at 0 and at 127 (the transform's
  clamp), lanes never above 0 (dead) and always at 127 or above (saturated), and the int16
  headroom: the largest |accumulator| against 32,767 (a wide sum past it wraps in the engine);
- l1, l2: per bucket, the share of outputs clipped at 0 and at 127, dead and always-saturated
  neurons, and the int32 headroom of the dense sums; the output layer's int32 headroom.
Gates (JUnit): int16 headroom (`--min-int16-headroom`, default 2: the largest |accumulator| at
most half of 32,767), int32 headroom (`--min-int32-headroom`, default 16), dead and saturated
feature-transformer lanes (`--max-dead-ft-share`, `--max-saturated-ft-share`, default 0.5).
A net with one feature row scaled up fails the int16 gate (tests/test_netlint.py plants it).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from stkref import inputs, options
from stkref.cli import ToolParser, run_tool
from stkref.features import active_features
from stkref.junit import TestCase, TestSuite, add_build_properties
from stkref.model import QuantizedModel
from stkref.oracle import load_model, output_bucket, transform, wrap
from stkref.report import (
    add_corpus_args,
    add_report_args,
    corpora_from_args,
    echo_corpus_properties,
    gate_testcases,
    gated_outputs,
    gated_report,
    write_gated_reports,
)

INT16_MAX = 32767
INT32_MAX = 2**31 - 1


def _share(mask: np.ndarray) -> float:
    return float(mask.mean()) if mask.size else 0.0


def activations(model: QuantizedModel, boards: list[Any]) -> dict[str, Any]:
    """Wide (int64) accumulators of both perspectives [2N, H], and per bucket the dense sums."""
    accs, inputs, buckets = [], [], []
    for board in boards:
        pair = []
        for color in (board.turn, not board.turn):
            idx = np.asarray(active_features(board, color), dtype=np.int64)
            acc = model.ft_bias.astype(np.int64) + model.ft_weight[idx].astype(np.int64).sum(axis=0)
            accs.append(acc)
            pair.append(transform(wrap(acc, 16)))  # what the engine's int16 lanes hold
        inputs.append(np.concatenate(pair))
        buckets.append(output_bucket(board))
    layers: dict[int, dict[str, np.ndarray]] = {}
    inp, bk = np.stack(inputs), np.asarray(buckets)
    for b in sorted(set(buckets)):
        x = inp[bk == b]
        l1 = model.l1_bias[b].astype(np.int64) + x @ model.l1_weight[b].astype(np.int64).T
        h1 = np.clip(l1 >> 6, 0, 127)
        l2 = model.l2_bias[b].astype(np.int64) + h1 @ model.l2_weight[b].astype(np.int64).T
        h2 = np.clip(l2 >> 6, 0, 127)
        out = int(model.out_bias[b]) + h2 @ model.out_weight[b].astype(np.int64)
        layers[b] = {"l1": l1, "l2": l2, "out": out}
    return {"acc": np.stack(accs), "layers": layers}


def lint(model: QuantizedModel, boards: list[Any]) -> dict[str, Any]:
    a = activations(model, boards)
    acc = a["acc"]
    ft = {
        "lanes": int(acc.shape[1]),
        "clipped_low_share": _share(acc <= 0),
        "clipped_high_share": _share(acc >= 127),
        "dead_lanes": int(np.count_nonzero((acc <= 0).all(axis=0))),
        "saturated_lanes": int(np.count_nonzero((acc >= 127).all(axis=0))),
        "max_abs": int(np.abs(acc).max()),
        "overflow_lanes": int(np.count_nonzero(np.abs(acc) > INT16_MAX)),
    }
    ft["int16_headroom"] = INT16_MAX / max(ft["max_abs"], 1)
    per_bucket: dict[str, Any] = {}
    worst32 = 0
    for b, lay in a["layers"].items():
        row: dict[str, Any] = {"positions": int(lay["l1"].shape[0])}
        for name in ("l1", "l2"):
            s = lay[name]
            h = np.clip(s >> 6, 0, 127)
            row[name] = {
                "clipped_low_share": _share(h == 0),
                "clipped_high_share": _share(h == 127),
                "dead": int(np.count_nonzero((h == 0).all(axis=0))),
                "saturated": int(np.count_nonzero((h == 127).all(axis=0))),
                "max_abs_sum": int(np.abs(s).max()),
            }
            worst32 = max(worst32, row[name]["max_abs_sum"])
        row["out_max_abs_sum"] = int(np.abs(lay["out"]).max())
        worst32 = max(worst32, row["out_max_abs_sum"])
        per_bucket[str(b)] = row
    return {
        "positions": len(boards),
        "ft": ft,
        "per_bucket": per_bucket,
        "int32_max_abs_sum": worst32,
        "int32_headroom": INT32_MAX / max(worst32, 1),
    }


def gate_cases(s: dict[str, Any], args: argparse.Namespace, cls: str) -> list[TestCase]:
    ft = s["ft"]
    checks = [
        (
            "int16 accumulator headroom",
            ft["int16_headroom"] >= args.min_int16_headroom,
            f"largest abs accumulator {ft['max_abs']} of {INT16_MAX}: headroom "
            f"{ft['int16_headroom']:.2f}x, gate {args.min_int16_headroom}x ({ft['overflow_lanes']} "
            "lanes past int16)",
        ),
        (
            "int32 dense-sum headroom",
            s["int32_headroom"] >= args.min_int32_headroom,
            f"largest abs dense sum {s['int32_max_abs_sum']}: headroom {s['int32_headroom']:.1f}x, "
            f"gate {args.min_int32_headroom}x",
        ),
        (
            "dead feature-transformer lanes",
            ft["dead_lanes"] <= args.max_dead_ft_share * ft["lanes"],
            f"{ft['dead_lanes']} of {ft['lanes']} lanes never above 0"
            f" (gate {args.max_dead_ft_share:.0%})",
        ),
        (
            "saturated feature-transformer lanes",
            ft["saturated_lanes"] <= args.max_saturated_ft_share * ft["lanes"],
            f"{ft['saturated_lanes']} of {ft['lanes']} lanes always at 127 "
            f"(gate {args.max_saturated_ft_share:.0%})",
        ),
    ]
    return gate_testcases(cls, checks)


def markdown(suite: TestSuite, s: dict[str, Any]) -> str:
    ft = s["ft"]
    lines = [
        f"# {suite.name}",
        "",
        f"Result: **{'PASS' if suite.all_passed() else 'FAIL'}**",
        "",
        f"{s['positions']} positions, both perspectives, in the engine's integer arithmetic.",
        "",
        "| feature transformer | value |",
        "|---|---|",
        f"| lanes clipped at 0 | {ft['clipped_low_share']:.1%} |",
        f"| lanes clipped at 127 | {ft['clipped_high_share']:.1%} |",
        f"| dead lanes (never > 0) | {ft['dead_lanes']} of {ft['lanes']} |",
        f"| saturated lanes (always >= 127) | {ft['saturated_lanes']} of {ft['lanes']} |",
        f"| largest abs accumulator | {ft['max_abs']}"
        f" (int16 headroom {ft['int16_headroom']:.2f}x) |",
        "",
        "| bucket | positions | l1 at 0 | l1 at 127 | l1 dead | l1 saturated | l2 at 0 | "
        "l2 at 127 | l2 dead | l2 saturated | largest abs int32 sum |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for b, r in s["per_bucket"].items():
        l1, l2 = r["l1"], r["l2"]
        big = max(l1["max_abs_sum"], l2["max_abs_sum"], r["out_max_abs_sum"])
        lines.append(
            f"| {b} | {r['positions']} | {l1['clipped_low_share']:.1%} |"
            f" {l1['clipped_high_share']:.1%}"
            f" | {l1['dead']} | {l1['saturated']} | {l2['clipped_low_share']:.1%} |"
            f" {l2['clipped_high_share']:.1%} | {l2['dead']} | {l2['saturated']} | {big} |"
        )
    lines += ["", "| check | outcome | message |", "|---|---|---|"]
    lines += [
        f"| {c.name} | {c.outcome.value} | {c.message or c.system_out} |" for c in suite.cases
    ]
    return "\n".join(lines) + "\n"


def build_parser() -> argparse.ArgumentParser:
    ap = ToolParser(
        prog="python -m stktrain.netlint",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=gated_report("netlint"),
        outputs=gated_outputs("netlint"),
    )
    ap.add_argument(
        "--net",
        type=inputs.input_file(),
        required=True,
        help=".nnue net, or a float checkpoint (quantized)",
    )
    headroom = options.real(0.0, 1e9)
    ap.add_argument("--min-int16-headroom", type=headroom, default=2.0)
    ap.add_argument("--min-int32-headroom", type=headroom, default=16.0)
    ap.add_argument("--max-dead-ft-share", type=options.share, default=0.5)
    ap.add_argument("--max-saturated-ft-share", type=options.share, default=0.5)
    add_corpus_args(ap, random_default=200)
    add_report_args(ap)
    return ap


def run(args: argparse.Namespace) -> int:
    model = load_model(args.net)
    corpora = corpora_from_args(args)
    boards = [p.board() for positions in corpora.values() for p in positions]
    s = lint(model, boards)
    suite = TestSuite(f"netlint.{args.config}")
    suite.property("net", str(Path(args.net).resolve()))
    echo_corpus_properties(suite, args, corpora)
    add_build_properties(suite)
    for c in gate_cases(s, args, f"netlint.{args.config}"):
        suite.add(c)
    gates = {
        k: getattr(args, k)
        for k in (
            "min_int16_headroom",
            "min_int32_headroom",
            "max_dead_ft_share",
            "max_saturated_ft_share",
        )
    }
    return write_gated_reports(
        args, "netlint", suite, {"net": str(args.net), "gates": gates, **s}, markdown(suite, s)
    )


def main(argv: list[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(run_tool(main))
