"""python -m stkdist match [coordinator options] [--] <stk-harness match options>

Without --scheduler a local cluster of --workers processes on 127.0.0.1 runs the chunks, so the
same command works on a laptop; with --scheduler tcp://HOST:8786 the chunks go to that cluster's
workers (docs/distributed.md says how to start and secure one). Exit: the merged match's (0 gate
passed, 1 failed), 2 on bad input or a chunk that failed twice."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from stkdist import cluster, match
from stkref import options
from stkref.cli import ToolParser, run_tool

ROOT = Path(__file__).resolve().parents[3]


def match_report(a: argparse.Namespace) -> list[tuple[Path, str]]:
    """The merged match's JUnit report: an <error> report there when the run cannot finish."""
    return [(Path(a.out_dir) / "junit" / f"match-{a.config}.xml", f"match.{a.config}")]


def parser() -> ToolParser:
    p = ToolParser(
        prog="python -m stkdist",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=match_report,
        allow_abbrev=False,
    )
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser(
        "match", help="a match in chunks, stopping when the SPRT decides", allow_abbrev=False
    )
    m.add_argument("--scheduler", help="tcp://HOST:PORT of a running Dask scheduler")
    m.add_argument("--workers", type=options.integer(1, 256), default=2, help="local cluster size")
    m.add_argument(
        "--chunk-pairs", type=options.integer(1, 10**6), default=4, help="pairs per chunk (about)"
    )
    m.add_argument(
        "--pairs", type=options.integer(1, 10**7), required=True, help="pairs of the match"
    )
    m.add_argument("--config", type=options.name, default="match", help="the match's name")
    m.add_argument("--out-dir", default="reports", help="reports folder (journal under dist/)")
    m.add_argument("--sprt", nargs="+", default=[], help="elo0= elo1= [alpha= beta= model=]")
    m.add_argument(
        "--harness",
        default=str(ROOT / "build/release/harness/stk-harness"),
        help="the stk-harness every worker runs (the same file on each: verified by SHA-256)",
    )
    m.add_argument(
        "--chunk-timeout-s",
        type=options.real(1, 7 * 86400),
        default=3600.0,
        help="one chunk's time limit",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    # The coordinator's options anywhere; every other word (after an optional `--`) is the
    # match's, passed to each chunk as given.
    p = parser()
    args, passthrough = p.parse_known_args(argv)
    p.declare_reports(args)
    if passthrough[:1] == ["--"]:
        passthrough = passthrough[1:]
    plan = match.make_plan(
        args.harness,
        passthrough,
        args.config,
        args.pairs,
        args.chunk_pairs,
        args.sprt,
        Path(args.out_dir),
    )
    with ExitStack() as stack:
        client = cluster.connect(args.scheduler, args.workers, stack)
        return match.run(plan, client, args.chunk_timeout_s)


def entry() -> int:
    return run_tool(lambda: main(sys.argv[1:]))
