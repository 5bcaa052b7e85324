"""python -m stkref.drift --checkpoint CKPT.npz [--net NET.nnue] [--engine STK] [gates] ...

Float checkpoint vs its quantized export, evaluated by the float reference and the integer
oracle on the same positions: mean/median/p95/p99/max |delta cp| overall and per output bucket,
clipped values per tensor, int16 accumulator overflows. These are statistics about quantization
quality, not evidence of integer parity; that claim is the separate engine-vs-oracle gate (exact,
0 cp) run when --engine is given, together with colour-mirror symmetry.
Outputs: reports/drift/drift-<config>.{json,md,png} and reports/junit/drift-<config>.xml.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np

from . import inputs, options
from .checkpoint import checkpoint_digest, load_checkpoint
from .cli import ToolParser, run_tool
from .engine import EngineError, check_engine, engine_evals
from .floatmodel import FloatModel
from .junit import Outcome, TestCase, TestSuite, add_build_properties, write_report
from .model import TENSOR_LAYOUT, QuantizedModel
from .netfile import read as read_net
from .netfile import sha256_file
from .netfile import write as write_net
from .oracle import EvalParts, evaluate
from .outputs import Output, write_figure
from .parity import compare_evals
from .positions import Position, colour_mirror
from .quantize import quantize_model
from .report import (
    add_corpus_args,
    add_report_args,
    corpora_from_args,
    echo_corpus_properties,
    gated_outputs,
    gated_report,
    junit_path,
    summary_dir,
    write_summary,
    write_text_atomic,
)
from .spec import NUM_OUTPUT_BUCKETS

GATES: tuple[tuple[str, str], ...] = (
    ("mean", "max_mean_cp"),
    ("median", "max_median_cp"),
    ("p95", "max_p95_cp"),
    ("p99", "max_p99_cp"),
    ("max", "max_max_cp"),
)


def abs_delta_stats(deltas: Sequence[float] | np.ndarray) -> dict[str, float]:
    """|delta| statistics (percentiles by linear interpolation) plus the signed mean (bias)."""
    d = np.asarray(deltas, dtype=np.float64)
    if d.size == 0:
        return {"count": 0}
    a = np.abs(d)
    return {
        "count": int(d.size),
        "mean": float(a.mean()),
        "median": float(np.median(a)),
        "p95": float(np.percentile(a, 95)),
        "p99": float(np.percentile(a, 99)),
        "max": float(a.max()),
        "signed_mean": float(d.mean()),
    }


def _gate(suite: TestSuite, name: str, value: float, limit: float, detail: str = "") -> None:
    case = suite.add(TestCase("drift.quantization", name))
    case.system_out = f"value {value:.4f}\nlimit {limit}\n{detail}"
    if value > limit:
        case.outcome = Outcome.FAILED
        case.message = f"{name} = {value:.3f} exceeds {limit}"
        case.detail = detail


def _plot(
    path: Path, deltas: np.ndarray, buckets: np.ndarray, title: str, gates: dict[str, float]
) -> Any:
    """The signed deltas' histogram and |delta| per output bucket, with the p99 and max gates
    (which apply to all positions together) drawn where they are given. Returns the (closed)
    figure, whose axes a test can read."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    ax1.hist(deltas, bins=60, color="#4477aa")
    ax1.set_xlabel("oracle - float (cp)")
    ax1.set_ylabel("positions")
    ax1.set_title("signed delta")
    present = [b for b in range(NUM_OUTPUT_BUCKETS) if np.any(buckets == b)]
    ax2.boxplot([np.abs(deltas[buckets == b]) for b in present], positions=present)
    for stat, style in (("p99", "--"), ("max", ":")):
        limit = gates.get(stat)
        if limit is not None:
            ax2.axhline(
                limit, color="#a4161a", lw=1, ls=style, label=f"gate: {stat} <= {limit:g} cp"
            )
    ax2.set_xlabel("output bucket")
    ax2.set_ylabel("|delta| (cp)")
    ax2.set_title("|delta| per output bucket (box: quartiles, whiskers 1.5 IQR)")
    if ax2.get_legend_handles_labels()[0]:
        ax2.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    write_figure(fig, path)
    plt.close(fig)
    return fig


def _tensor_differences(a: QuantizedModel, b: QuantizedModel) -> list[str]:
    if a.hidden != b.hidden:
        return [f"hidden {a.hidden} vs {b.hidden}"]
    return [
        f"{n}: {int(np.count_nonzero(getattr(a, n) != getattr(b, n)))} values differ"
        for n, _ in TENSOR_LAYOUT
        if not np.array_equal(getattr(a, n), getattr(b, n))
    ]


def run(args: argparse.Namespace) -> int:
    t_all = time.monotonic()
    ckpt = load_checkpoint(args.checkpoint)
    quantized = quantize_model(ckpt)
    engine = check_engine(args.engine) if args.engine else None
    model = read_net(args.net, allow_trailing=args.allow_trailing) if args.net else quantized
    corpora = corpora_from_args(args)
    positions = [p for plist in corpora.values() for p in plist]

    suite = TestSuite(f"drift.{args.config}")
    suite.property("checkpoint", os.path.abspath(args.checkpoint))
    suite.property("checkpoint_digest", checkpoint_digest(ckpt))
    suite.property("net", os.path.abspath(args.net) if args.net else "in-memory export")
    if args.net:
        suite.property("net_sha256", sha256_file(args.net))
    suite.property("hidden", quantized.hidden)
    suite.property("engine", engine or "none")
    suite.property("engine_args", args.engine_args or "none")
    if engine:
        suite.property("engine_sha256", sha256_file(engine))
    for _stat, opt in GATES:
        suite.property(opt, getattr(args, opt) if getattr(args, opt) is not None else "none")
    suite.property(
        "max_overflows", args.max_overflows if args.max_overflows is not None else "none"
    )
    suite.property("max_clipped", args.max_clipped if args.max_clipped is not None else "none")
    echo_corpus_properties(suite, args, corpora)
    add_build_properties(suite)
    print(f"seed {args.seed}")

    if args.net:
        case = suite.add(TestCase("drift.export", "net-matches-checkpoint"))
        diffs = _tensor_differences(quantized, model)
        if diffs:
            case.outcome, case.message = (
                Outcome.FAILED,
                "net is not the quantization of the checkpoint",
            )
            case.detail = "\n".join(diffs)

    floats = FloatModel(ckpt)
    oracle: list[EvalParts] = []
    deltas: list[float] = []
    for p in positions:
        board = p.board()
        o = evaluate(model, board)
        oracle.append(o)
        deltas.append(o.eval - floats.evaluate(board).eval)
    d = np.asarray(deltas)
    buckets = np.asarray([o.bucket for o in oracle])
    overall = abs_delta_stats(d)
    per_bucket = {
        str(b): abs_delta_stats(d[buckets == b])
        for b in range(NUM_OUTPUT_BUCKETS)
        if np.any(buckets == b)
    }
    per_corpus = {
        name: abs_delta_stats(
            [x for x, p in zip(deltas, positions, strict=True) if p.corpus == name]
        )
        for name in corpora
    }
    overflow_lanes = sum(o.overflows for o in oracle)
    overflow_positions = sum(1 for o in oracle if o.overflows)
    worst = sorted(range(len(positions)), key=lambda i: -abs(deltas[i]))[:10]

    stats_case = suite.add(TestCase("drift.quantization", "statistics"))
    stats_lines = [f"overall {overall}"] + [f"bucket {b} {s}" for b, s in per_bucket.items()]
    stats_lines += [f"clipped {k} {v}" for k, v in quantized.clipped.items()]
    stats_lines += [f"int16 overflow lanes {overflow_lanes} in {overflow_positions} positions"]
    stats_case.system_out = "\n".join(stats_lines) + "\n"
    for stat, opt in GATES:
        limit = getattr(args, opt)
        if limit is not None:
            _gate(
                suite,
                f"{stat}-abs-delta-cp",
                overall[stat],
                limit,
                "\n".join(f"bucket {b}: {s.get(stat)}" for b, s in per_bucket.items()),
            )
    if args.max_overflows is not None:
        _gate(suite, "int16-overflow-lanes", overflow_lanes, args.max_overflows)
    if args.max_clipped is not None:
        _gate(
            suite,
            "clipped-values",
            sum(quantized.clipped.values()),
            args.max_clipped,
            "\n".join(f"{k}: {v}" for k, v in quantized.clipped.items()),
        )

    mirrors = [colour_mirror(p) for p in positions]
    oracle_m = [evaluate(model, m.board()) for m in mirrors]
    sym = suite.add(TestCase("drift.symmetry", "oracle-mirror-symmetry"))
    asym = [
        f"{p.fen}: {a.eval} vs mirror {b.eval}"
        for p, a, b in zip(positions, oracle, oracle_m, strict=True)
        if a.eval != b.eval
    ]
    if asym:
        sym.outcome, sym.message = Outcome.FAILED, f"{len(asym)} positions asymmetric (oracle)"
        sym.detail = "\n".join(asym[:50])

    engine_result: dict[str, object] = {}
    if engine:
        engine_result = _engine_gates(
            suite, engine, args, model, positions, mirrors, oracle, oracle_m
        )

    suite.time_s = time.monotonic() - t_all
    out_dir = summary_dir(args, "drift")
    png = out_dir / f"drift-{args.config}.png"
    gates = {stat: getattr(args, dest) for stat, dest in GATES if getattr(args, dest) is not None}
    _plot(png, d, buckets, f"{suite.name}: {len(positions)} positions, H={quantized.hidden}", gates)
    summary: dict[str, object] = {
        "harness": "drift",
        "config": args.config,
        "seed": args.seed,
        "checkpoint": os.path.abspath(args.checkpoint),
        "hidden": quantized.hidden,
        "net": os.path.abspath(args.net) if args.net else None,
        "positions": len(positions),
        "abs_delta_cp": overall,
        "per_bucket": per_bucket,
        "per_corpus": per_corpus,
        "clipped": quantized.clipped,
        "int16_overflow_lanes": overflow_lanes,
        "int16_overflow_positions": overflow_positions,
        "worst": [
            {
                "fen": positions[i].fen,
                "oracle": oracle[i].eval,
                "float": round(oracle[i].eval - deltas[i], 3),
            }
            for i in worst
        ],
        "engine": engine_result,
        "passed": suite.all_passed(),
        "testcases": [
            {"name": c.name, "outcome": c.outcome.value, "message": c.message} for c in suite.cases
        ],
    }
    path = write_report(junit_path(args, "drift"), [suite])
    write_summary(
        out_dir / f"drift-{args.config}.json",
        summary,
        harness="drift",
        config=args.config,
        suites=[suite],
        junit=path,
        plots=[png],
    )
    write_text_atomic(out_dir / f"drift-{args.config}.md", _markdown(suite, summary, png.name))
    print(
        f"positions {len(positions)}; |delta| cp: "
        + ", ".join(f"{k} {overall[k]:.2f}" for k in ("mean", "median", "p95", "p99", "max"))
    )
    print(f"clipped {quantized.clipped}")
    print(f"int16 overflow lanes {overflow_lanes}")
    for c in suite.cases:
        if c.outcome != Outcome.PASSED:
            print(f"{c.classname}/{c.name}: {c.outcome.value}: {c.message}")
    print(f"junit {path}\nsummary {out_dir}")
    print("PASS" if suite.all_passed() else "FAIL")
    return 0 if suite.all_passed() else 1


def _engine_gates(
    suite: TestSuite,
    engine: str,
    args: argparse.Namespace,
    model: QuantizedModel,
    positions: list[Position],
    mirrors: list[Position],
    oracle: list[EvalParts],
    oracle_m: list[EvalParts],
) -> dict[str, object]:
    result: dict[str, object] = {}
    with tempfile.TemporaryDirectory(prefix="stkref-drift-") as tmp:
        net = args.net
        if not net:
            net = str(Path(tmp) / "export.nnue")
            write_net(model, net)
        got: dict[str, list[dict[str, int]] | None] = {}
        for label, plist, olist in (
            ("engine-vs-oracle", positions, oracle),
            ("engine-vs-oracle-mirror", mirrors, oracle_m),
        ):
            case = suite.add(TestCase("drift.parity", label))
            try:
                got[label] = engine_evals(
                    engine, os.path.abspath(net), plist, args.timeout, shlex.split(args.engine_args)
                )
            except EngineError as e:
                got[label] = None
                case.outcome, case.message, case.detail = Outcome.ERROR, "engine failed", str(e)
                result[label] = {"error": str(e)}
                continue
            diffs = compare_evals(plist, got[label] or [], olist, 0)
            result[label] = {"mismatches": len(diffs)}
            if diffs:
                case.outcome = Outcome.FAILED
                case.message = f"{len(diffs)} of {len(plist)} evals differ from the oracle (0 cp)"
                case.detail = "\n".join(x.describe() for x in diffs[:50])
    case = suite.add(TestCase("drift.symmetry", "engine-mirror-symmetry"))
    a, b = got.get("engine-vs-oracle"), got.get("engine-vs-oracle-mirror")
    if a is None or b is None:
        case.outcome, case.message = Outcome.ERROR, "engine failed (see parity cases)"
    else:
        asym = [
            f"{p.fen}: {x['eval']} vs mirror {y['eval']}"
            for p, x, y in zip(positions, a, b, strict=True)
            if x["eval"] != y["eval"]
        ]
        result["engine_asymmetric"] = len(asym)
        if asym:
            case.outcome, case.message = (
                Outcome.FAILED,
                f"{len(asym)} positions asymmetric (engine)",
            )
            case.detail = "\n".join(asym[:50])
    return result


def _markdown(suite: TestSuite, s: dict[str, object], png: str) -> str:
    def row(name: str, st: dict[str, float]) -> str:
        if not st.get("count"):
            return f"| {name} | 0 | | | | | | |"
        return (
            f"| {name} | {st['count']} | {st['mean']:.2f} | {st['median']:.2f} | "
            f"{st['p95']:.2f} | {st['p99']:.2f} | {st['max']:.2f} | {st['signed_mean']:+.2f} |"
        )

    overall = cast("dict[str, float]", s["abs_delta_cp"])
    lines = [
        f"# {suite.name}",
        "",
        f"Result: **{'PASS' if suite.all_passed() else 'FAIL'}**",
        "",
        "Quantization drift (oracle - float, centipawns). Statistics, not parity evidence.",
        "",
        "| slice | n | mean | median | p95 | p99 | max | signed mean |",
        "|---|---|---|---|---|---|---|---|",
        row("all", overall),
    ]
    for b, st in s["per_bucket"].items():  # type: ignore[attr-defined]
        lines.append(row(f"bucket {b}", st))
    lines += ["", "| tensor | clipped |", "|---|---|"]
    lines += [f"| {k} | {v} |" for k, v in s["clipped"].items()]  # type: ignore[attr-defined]
    lines += [
        "",
        f"int16 accumulator overflow lanes: {s['int16_overflow_lanes']} "
        f"(in {s['int16_overflow_positions']} positions)",
        "",
        f"![histogram]({png})",
        "",
        "| check | outcome | message |",
        "|---|---|---|",
    ]
    lines += [
        f"| {c.classname} / {c.name} | {c.outcome.value} | {c.message} |" for c in suite.cases
    ]
    lines += ["", "## Inputs", ""] + [f"- {k}: `{v}`" for k, v in suite.properties]
    return "\n".join(lines) + "\n"


def build_parser() -> argparse.ArgumentParser:
    ap = ToolParser(
        prog="python -m stkref.drift",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=gated_report("drift"),
        outputs=lambda a: [
            *gated_outputs("drift", "drift-{config}")(a),
            Output("--reports-dir", summary_dir(a, "drift") / f"drift-{a.config}.png", "report"),
        ],
    )
    ap.add_argument(
        "--checkpoint",
        type=inputs.input_file(),
        required=True,
        help="float checkpoint (.npz or torch .pt)",
    )
    ap.add_argument(
        "--net",
        type=inputs.input_file(),
        help="exported .nnue (default: quantize the checkpoint in memory)",
    )
    ap.add_argument("--allow-trailing", action="store_true")
    ap.add_argument(
        "--engine", type=inputs.program, help="stk binary: adds the exact engine-vs-oracle gates"
    )
    ap.add_argument(
        "--engine-args",
        default="",
        help="extra arguments for `stk eval`, e.g. --engine-args='--impl scalar'",
    )
    ap.add_argument(
        "--timeout", type=options.seconds, default=600.0, help="seconds per engine batch"
    )
    for stat, opt in GATES:
        ap.add_argument(
            "--" + opt.replace("_", "-"),
            dest=opt,
            type=options.centipawns,
            default=None,
            help=f"gate: {stat} |delta| cp must not exceed this",
        )
    ap.add_argument(
        "--max-overflows",
        type=options.count,
        default=None,
        help="gate: int16 accumulator overflow lanes allowed",
    )
    ap.add_argument(
        "--max-clipped", type=options.count, default=None, help="gate: total clipped values allowed"
    )
    add_corpus_args(ap, random_default=500)
    add_report_args(ap)
    return ap


def main(argv: list[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(run_tool(main))
