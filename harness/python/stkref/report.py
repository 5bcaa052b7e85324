"""Command-line pieces and output paths shared by the harness tools.

Default layout (HARNESS.md): reports/junit/<harness>-<config>.xml for JUnit, and
reports/<harness>/ for JSON + Markdown summaries and plots.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from . import inputs, options
from .junit import Outcome, TestCase, TestSuite, write_report
from .junit import write_text_atomic as write_text_atomic  # the one checked writer, re-exported
from .outputs import Output, report_tree
from .positions import Position, load_corpora


def add_corpus_args(ap: argparse.ArgumentParser, random_default: int) -> None:
    ap.add_argument(
        "--epd",
        action="append",
        type=inputs.input_file(),
        default=[],
        metavar="FILE",
        help="EPD/FEN file (first 4 fields per line); repeatable",
    )
    ap.add_argument(
        "--random",
        type=options.count,
        default=random_default,
        metavar="N",
        help=f"seeded random legal positions (default {random_default})",
    )
    ap.add_argument(
        "--seed", type=options.seed, default=1, help="seed of the random corpus (default 1)"
    )
    ap.add_argument("--no-curated", action="store_true", help="leave out the curated corpus")
    ap.add_argument("--no-spec", action="store_true", help="leave out the spec test vectors")


def add_report_args(ap: argparse.ArgumentParser) -> None:
    ap.add_argument(
        "--config",
        type=options.name,
        default="default",
        help="configuration name used in report names (default 'default')",
    )
    ap.add_argument("--reports-dir", default="reports", help="report root (default ./reports)")
    ap.add_argument(
        "--junit",
        default=None,
        metavar="OUT.xml",
        help="JUnit path (default <reports-dir>/junit/<harness>-<config>.xml)",
    )


def corpora_from_args(args: argparse.Namespace) -> dict[str, list[Position]]:
    return load_corpora(
        curated=not args.no_curated,
        random_count=args.random,
        seed=args.seed,
        epd_files=args.epd,
        spec=not args.no_spec,
    )


def echo_corpus_properties(
    suite: TestSuite, args: argparse.Namespace, corpora: dict[str, list[Position]]
) -> None:
    suite.property("seed", args.seed)
    suite.property("random_count", args.random)
    suite.property("curated", not args.no_curated)
    suite.property("spec_vectors", not args.no_spec)
    suite.property("epd_files", ";".join(os.path.abspath(f) for f in args.epd) or "none")
    for name, positions in corpora.items():
        suite.property(f"corpus.{name}.positions", len(positions))


def junit_path(args: argparse.Namespace, harness: str) -> Path:
    if args.junit:
        return Path(args.junit)
    return Path(args.reports_dir) / "junit" / f"{harness}-{args.config}.xml"


def summary_dir(args: argparse.Namespace, harness: str) -> Path:
    return Path(args.reports_dir) / harness


def gated_report(harness: str) -> Any:
    """The ToolParser `reports` of a tool with add_report_args: its one JUnit file."""
    return lambda a: [(junit_path(a, harness), f"{harness}.{a.config}")]


def gated_outputs(harness: str, stem: str = "{config}") -> Any:
    """The ToolParser `outputs` of write_gated_reports' summary: the folder, JSON and Markdown."""

    def outputs(a: argparse.Namespace) -> list[Output]:
        name = stem.format(config=a.config, harness=harness)
        return report_tree("--reports-dir", summary_dir(a, harness), [f"{name}.json", f"{name}.md"])

    return outputs


def empty_key_path(data: Any, at: str) -> str | None:
    """The path ("a.b[2]") of the first empty dict key in `data`, None when there is none."""
    if isinstance(data, dict):
        for k, v in data.items():
            if k == "":
                return at or "(top level)"
            if (found := empty_key_path(v, f"{at}.{k}" if at else str(k))) is not None:
                return found
    if isinstance(data, list | tuple):
        for i, v in enumerate(data):
            if (found := empty_key_path(v, f"{at}[{i}]")) is not None:
                return found
    return None


def write_json(path: Path, data: Any) -> None:
    write_text_atomic(path, json.dumps(data, indent=2, sort_keys=False) + "\n")


SCHEMA = "stk-report/1"


def envelope(
    harness: str,
    config: str,
    suites: list[TestSuite],
    junit: Path,
    summary: Path,
    plots: list[Path] | tuple[Path, ...] = (),
) -> dict[str, Any]:
    """The "report" object every summary JSON starts with (docs/report-schema.md), the
    same keys and order as the C++ writer: counts equal to the JUnit file's, paths relative to
    the summary."""

    def rel(p: Path) -> str:
        return os.path.relpath(os.path.abspath(p), os.path.abspath(summary.parent)).replace(
            os.sep, "/"
        )

    def count(o: Outcome) -> int:
        return sum(s.count(o) for s in suites)

    failures, errors = count(Outcome.FAILED), count(Outcome.ERROR)
    return {
        "schema": SCHEMA,
        "harness": harness,
        "config": config,
        "junit": rel(junit),
        "tests": sum(len(s.cases) for s in suites),
        "failures": failures,
        "errors": errors,
        "skipped": count(Outcome.SKIPPED),
        "passed": failures == 0 and errors == 0,
        "plots": [rel(p) for p in plots],
    }


def write_summary(
    path: Path,
    figures: dict[str, Any],
    *,
    harness: str,
    config: str,
    suites: list[TestSuite],
    junit: Path,
    plots: list[Path] | tuple[Path, ...] = (),
) -> None:
    """Writes {"report": envelope, **figures}; "report" is reserved for the envelope, and no key
    at any depth may be empty."""
    if "report" in figures:
        raise ValueError(f"{path}: the figure key 'report' is reserved for the envelope")
    if (at := empty_key_path(figures, "")) is not None:
        raise ValueError(f"{path}: a figure with no name under {at}")
    write_json(path, {"report": envelope(harness, config, suites, junit, path, plots), **figures})


def gate_testcases(classname: str, checks: list[tuple[str, bool, str]]) -> list[TestCase]:
    """One testcase per (name, passed, why): a failed gate carries `why` as its message."""
    cases = []
    for name, ok, why in checks:
        c = TestCase(classname, name, system_out=why)
        if not ok:
            c.outcome, c.message = Outcome.FAILED, why
        cases.append(c)
    return cases


def write_gated_reports(
    args: argparse.Namespace,
    harness: str,
    suite: TestSuite,
    figures: dict[str, Any],
    markdown: str,
) -> int:
    """The JUnit file, the summary JSON and its Markdown of a gated tool; prints each gate and
    returns the exit status (0 every gate passed, 1 one failed)."""
    path = write_report(junit_path(args, harness), [suite])
    out = summary_dir(args, harness)
    write_summary(
        out / f"{args.config}.json",
        figures,
        harness=harness,
        config=args.config,
        suites=[suite],
        junit=path,
    )
    write_text_atomic(out / f"{args.config}.md", markdown)
    for c in suite.cases:
        print(f"{harness}: {c.outcome.value:6} {c.name}: {c.message or c.system_out}")
    return 0 if suite.all_passed() else 1
