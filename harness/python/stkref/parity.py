"""Parity of the C++ engine with the Python reference.

python -m stkref.parity features --engine STK [--epd FILE ...] [--random N] [--seed S] ...
python -m stkref.parity eval --engine STK --net NET.nnue [--tolerance-cp 0] ...

features: per position and perspective, the engine's index list must equal the reference's
sorted list bit for bit. eval: the engine's integer eval must equal the oracle's on every
corpus and on its colour mirror (tolerance 0 by default: the only claim of parity); colour-mirror
symmetry of the oracle and of the engine are separate checks, independent of parity.
Exit status: 0 all gates pass, 1 a gate failed or could not run, 2 usage or input error.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import chess

from . import inputs, options
from .cli import ToolParser, run_tool
from .engine import EngineError, check_engine, engine_evals, engine_features
from .features import active_features, decode
from .junit import Outcome, TestCase, TestSuite, add_build_properties, write_report
from .netfile import read as read_net
from .netfile import sha256_file
from .oracle import EvalParts, evaluate
from .positions import SPEC_VECTORS, Position, colour_mirror
from .report import (
    add_corpus_args,
    add_report_args,
    corpora_from_args,
    echo_corpus_properties,
    gated_outputs,
    junit_path,
    summary_dir,
    write_summary,
    write_text_atomic,
)

MAX_DETAILS = 50  # mismatches spelled out per testcase; the count is always complete


def _describe_indices(indices: Sequence[int]) -> str:
    parts = []
    for i in indices:
        try:
            parts.append(f"{i} {decode(i).describe()}")
        except ValueError:
            parts.append(f"{i} (out of range)")
    return "; ".join(parts) if parts else "none"


@dataclass
class FeatureMismatch:
    position: Position
    perspective: chess.Color
    engine: list[int]
    reference: list[int]

    def describe(self) -> str:
        eng, ref = set(self.engine), set(self.reference)
        lines = [
            f"[{self.position.corpus}:{self.position.id}] {self.position.fen}",
            f"  perspective {chess.COLOR_NAMES[self.perspective]}: engine {len(self.engine)} "
            f"indices, reference {len(self.reference)}",
            f"    only in engine:    {_describe_indices(sorted(eng - ref))}",
            f"    only in reference: {_describe_indices(sorted(ref - eng))}",
        ]
        if self.engine != sorted(self.engine):
            lines.append("    engine list is not sorted")
        if len(eng) != len(self.engine):
            lines.append("    engine list has duplicates")
        return "\n".join(lines)


def compare_features(
    positions: Sequence[Position], engine_out: Sequence[tuple[list[int], list[int]]]
) -> list[FeatureMismatch]:
    out = []
    for pos, (white, black) in zip(positions, engine_out, strict=True):
        board = pos.board()
        for color, eng in ((chess.WHITE, white), (chess.BLACK, black)):
            ref = active_features(board, color)
            if eng != ref:
                out.append(FeatureMismatch(pos, color, list(eng), ref))
    return out


def spec_vector_problems(engine_out: tuple[list[int], list[int]]) -> list[str]:
    """Checks the engine's start-position lists against the literal numbers of the spec."""
    problems = []
    for vid, _fen, color, bucket, required, count in SPEC_VECTORS:
        got = engine_out[0] if color == chess.WHITE else engine_out[1]
        if len(got) != count:
            problems.append(f"{vid}: {len(got)} indices, spec says {count}")
        for r in required:
            if r not in got:
                problems.append(f"{vid}: index {r} {decode(r).describe()} missing")
        buckets = sorted({decode(i).bucket for i in got if 0 <= i < 22528})
        if buckets != [bucket]:
            problems.append(f"{vid}: buckets {buckets}, spec says [{bucket}]")
    if sorted(engine_out[0]) != sorted(engine_out[1]):
        problems.append("start position: white and black index sets differ (colour symmetry)")
    return problems


def _failed(case: TestCase, message: str, details: Sequence[str], total: int) -> None:
    case.outcome = Outcome.FAILED
    case.message = message
    shown = list(details[:MAX_DETAILS])
    if total > len(shown):
        shown.append(f"... and {total - len(shown)} more")
    case.detail = "\n".join(shown)


def run_features(args: argparse.Namespace) -> int:
    engine = check_engine(args.engine)
    corpora = corpora_from_args(args)
    suite = TestSuite(f"features.{args.config}")
    suite.property("mode", "features")
    suite.property("engine", engine)
    suite.property("engine_sha256", sha256_file(engine))
    echo_corpus_properties(suite, args, corpora)
    add_build_properties(suite)
    print(f"seed {args.seed}")
    summary: dict[str, object] = {
        "harness": "features",
        "config": args.config,
        "engine": engine,
        "seed": args.seed,
        "corpora": {},
    }
    t_all = time.monotonic()
    for name, positions in corpora.items():
        t0 = time.monotonic()
        case = suite.add(TestCase(f"features.{name}", "index-sets"))
        entry: dict[str, object] = {"positions": len(positions)}
        try:
            out = engine_features(engine, positions, args.timeout)
        except EngineError as e:
            case.outcome, case.message, case.detail = Outcome.ERROR, "engine failed", str(e)
            entry["error"] = str(e)
            print(f"features.{name}: ERROR {e}", file=sys.stderr)
        else:
            mism = compare_features(positions, out)
            entry["mismatches"] = len(mism)
            checked = 2 * len(positions)
            case.system_out = f"positions {len(positions)}\nperspectives compared {checked}\n"
            if mism:
                text = [m.describe() for m in mism]
                _failed(case, f"{len(mism)} of {checked} index sets differ", text, len(mism))
                for t in text[:MAX_DETAILS]:
                    print(t)
            if name == "spec" and out:
                vcase = suite.add(TestCase("features.spec", "test-vectors"))
                problems = spec_vector_problems(out[0])
                if problems:
                    _failed(
                        vcase,
                        "engine output contradicts the spec test vectors",
                        problems,
                        len(problems),
                    )
        case.time_s = time.monotonic() - t0
        summary["corpora"][name] = entry  # type: ignore[index]
        print(f"features.{name}: {case.outcome.value} ({len(positions)} positions)")
    suite.time_s = time.monotonic() - t_all
    return _finish(args, "features", suite, summary)


@dataclass
class EvalDiff:
    position: Position
    engine: dict[str, int]
    oracle: EvalParts

    def describe(self) -> str:
        o = self.oracle
        return (
            f"[{self.position.corpus}:{self.position.id}] {self.position.fen}\n"
            f"  engine eval {self.engine['eval']} bucket {self.engine['bucket']} psqt "
            f"{self.engine['psqt']} positional {self.engine['positional']}\n"
            f"  oracle eval {o.eval} bucket {o.bucket} psqt {o.psqt} positional "
            f"{o.positional}  (delta {self.engine['eval'] - o.eval:+d} cp)"
        )


def compare_evals(
    positions: Sequence[Position],
    engine_out: Sequence[dict[str, int]],
    oracle_out: Sequence[EvalParts],
    tolerance: int,
) -> list[EvalDiff]:
    """Eval within tolerance and the same bucket; with tolerance 0, every part must match."""
    diffs = []
    for pos, e, o in zip(positions, engine_out, oracle_out, strict=True):
        bad = abs(e["eval"] - o.eval) > tolerance or e["bucket"] != o.bucket
        if tolerance == 0:
            bad = bad or e["psqt"] != o.psqt or e["positional"] != o.positional
        if bad:
            diffs.append(EvalDiff(pos, e, o))
    return diffs


def run_eval(args: argparse.Namespace) -> int:
    engine = check_engine(args.engine)
    model = read_net(args.net, allow_trailing=args.allow_trailing)
    net = os.path.abspath(args.net)
    corpora = corpora_from_args(args)
    suite = TestSuite(f"eval.{args.config}")
    suite.property("mode", "eval")
    suite.property("engine", engine)
    suite.property("engine_sha256", sha256_file(engine))
    suite.property("net", net)
    suite.property("net_sha256", sha256_file(net))
    suite.property("net_hidden", model.hidden)
    suite.property("tolerance_cp", args.tolerance_cp)
    suite.property("engine_args", args.engine_args or "none")
    echo_corpus_properties(suite, args, corpora)
    add_build_properties(suite)
    print(f"seed {args.seed}")
    summary: dict[str, object] = {
        "harness": "eval",
        "config": args.config,
        "engine": engine,
        "net": net,
        "seed": args.seed,
        "tolerance_cp": args.tolerance_cp,
        "corpora": {},
    }
    t_all = time.monotonic()
    for name, positions in corpora.items():
        mirrors = [colour_mirror(p) for p in positions]
        oracle = [evaluate(model, p.board()) for p in positions]
        oracle_m = [evaluate(model, p.board()) for p in mirrors]
        entry: dict[str, object] = {"positions": len(positions)}
        engine_sets: dict[str, list[dict[str, int]] | None] = {}
        for label, plist, olist in (
            ("engine-vs-oracle", positions, oracle),
            ("engine-vs-oracle-mirror", mirrors, oracle_m),
        ):
            t0 = time.monotonic()
            case = suite.add(TestCase(f"eval.{name}", label))
            try:
                got = engine_evals(engine, net, plist, args.timeout, shlex.split(args.engine_args))
            except EngineError as e:
                case.outcome, case.message, case.detail = Outcome.ERROR, "engine failed", str(e)
                engine_sets[label] = None
                entry[label] = {"error": str(e)}
            else:
                engine_sets[label] = got
                diffs = compare_evals(plist, got, olist, args.tolerance_cp)
                max_abs = max(
                    (abs(g["eval"] - o.eval) for g, o in zip(got, olist, strict=True)), default=0
                )
                entry[label] = {"mismatches": len(diffs), "max_abs_delta_cp": max_abs}
                case.system_out = (
                    f"positions {len(plist)}\nmax |delta| cp {max_abs}\n"
                    f"tolerance cp {args.tolerance_cp}\n"
                )
                if diffs:
                    text = [d.describe() for d in diffs]
                    _failed(
                        case,
                        f"{len(diffs)} of {len(plist)} evals differ from the oracle "
                        f"(tolerance {args.tolerance_cp} cp)",
                        text,
                        len(diffs),
                    )
                    for t in text[:MAX_DETAILS]:
                        print(t)
            case.time_s = time.monotonic() - t0
            print(f"eval.{name} {label}: {case.outcome.value}")
        # Symmetry checks: exact, whatever the tolerance (they follow from the construction).
        sym_case = suite.add(TestCase(f"eval.{name}", "oracle-mirror-symmetry"))
        asym = [
            f"[{name}:{p.id}] {p.fen}: eval {a.eval}, mirror {m.fen}: eval {b.eval}"
            for p, m, a, b in zip(positions, mirrors, oracle, oracle_m, strict=True)
            if a.eval != b.eval
        ]
        if asym:
            _failed(
                sym_case,
                f"{len(asym)} positions evaluate differently from their colour mirror (oracle)",
                asym,
                len(asym),
            )
        entry["oracle_asymmetric"] = len(asym)
        eng_case = suite.add(TestCase(f"eval.{name}", "engine-mirror-symmetry"))
        e1, e2 = engine_sets["engine-vs-oracle"], engine_sets["engine-vs-oracle-mirror"]
        if e1 is None or e2 is None:
            eng_case.outcome, eng_case.message = Outcome.ERROR, "engine failed (see above)"
        else:
            easym = [
                f"[{name}:{p.id}] {p.fen}: eval {a['eval']}, mirror {m.fen}: eval {b['eval']}"
                for p, m, a, b in zip(positions, mirrors, e1, e2, strict=True)
                if a["eval"] != b["eval"]
            ]
            if easym:
                _failed(
                    eng_case,
                    f"{len(easym)} positions evaluate differently from their "
                    "colour mirror (engine)",
                    easym,
                    len(easym),
                )
            entry["engine_asymmetric"] = len(easym)
        summary["corpora"][name] = entry  # type: ignore[index]
        print(
            f"eval.{name} symmetry: oracle {sym_case.outcome.value}, engine "
            f"{eng_case.outcome.value}"
        )
    suite.time_s = time.monotonic() - t_all
    return _finish(args, "eval", suite, summary)


def _finish(
    args: argparse.Namespace, harness: str, suite: TestSuite, summary: dict[str, object]
) -> int:
    path = write_report(junit_path(args, harness), [suite])
    summary["passed"] = suite.all_passed()
    summary["testcases"] = [
        {"classname": c.classname, "name": c.name, "outcome": c.outcome.value, "message": c.message}
        for c in suite.cases
    ]
    out_dir = summary_dir(args, harness)
    write_summary(
        out_dir / f"{harness}-{args.config}.json",
        summary,
        harness=harness,
        config=args.config,
        suites=[suite],
        junit=path,
    )
    md = [
        f"# {suite.name}",
        "",
        f"Result: **{'PASS' if suite.all_passed() else 'FAIL'}**",
        "",
        "| check | outcome | message |",
        "|---|---|---|",
    ]
    md += [f"| {c.classname} / {c.name} | {c.outcome.value} | {c.message} |" for c in suite.cases]
    md += ["", "## Inputs", ""] + [f"- {k}: `{v}`" for k, v in suite.properties]
    write_text_atomic(out_dir / f"{harness}-{args.config}.md", "\n".join(md) + "\n")
    print(f"junit {path}")
    print("PASS" if suite.all_passed() else "FAIL")
    return 0 if suite.all_passed() else 1


def build_parser() -> argparse.ArgumentParser:
    ap = ToolParser(
        prog="python -m stkref.parity",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=lambda a: [(junit_path(a, a.mode), f"{a.mode}.{a.config}")],
        outputs=lambda a: gated_outputs(a.mode, "{harness}-{config}")(a),
    )
    sub = ap.add_subparsers(dest="mode", required=True)
    for mode in ("features", "eval"):
        p = sub.add_parser(mode)
        p.add_argument("--engine", type=inputs.program, required=True, help="the stk binary")
        if mode == "eval":
            p.add_argument(
                "--net",
                type=inputs.input_file(),
                required=True,
                help=".nnue file given to engine and oracle",
            )
            p.add_argument(
                "--allow-trailing",
                action="store_true",
                help="accept trailing bytes in the net file",
            )
            p.add_argument(
                "--tolerance-cp",
                type=options.integer(0, 10**5),
                default=0,
                help="allowed |engine - oracle| in cp (default 0: exact parity)",
            )
            p.add_argument(
                "--engine-args",
                type=options.shell_words,
                default="",
                help="extra arguments for `stk eval`, e.g. --engine-args='--impl scalar'",
            )
        add_corpus_args(p, random_default=200)
        add_report_args(p)
        p.add_argument(
            "--timeout",
            type=options.seconds,
            default=600.0,
            help="seconds per engine batch (default 600)",
        )
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run_features(args) if args.mode == "features" else run_eval(args)


if __name__ == "__main__":
    sys.exit(run_tool(main))
