"""python -m stkdist match|datagen|epd|mutation [coordinator options] [--] <stk-harness options>

Without --scheduler a local cluster of --workers processes on 127.0.0.1 runs the chunks, so the
same command works on a laptop; with --scheduler tcp://HOST:8786 the chunks go to that cluster's
workers (docs/distributed.md says how to start and secure one). Exit: the merged run's (match: 0
gate passed, 1 failed; datagen: 0 when the file reads back; epd: the merge's, 1 on a regression;
mutation: the campaign merge's), 2 on bad input or a chunk that
failed twice."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from stkdist import cluster, datagen, epd, match, mutation, runner
from stkref import options
from stkref.cli import ToolParser, run_tool

ROOT = Path(__file__).resolve().parents[3]


def run_report(a: argparse.Namespace) -> list[tuple[Path, str]]:
    """The run's JUnit report: an <error> report there when the run cannot finish."""
    config = a.config
    given = getattr(a, "passthrough", [])
    if a.command == "datagen" and not config:
        config = f"seed{runner.option_value(given, '--seed') or '1'}"
    if a.command == "epd" and not config:
        config = epd.default_config(given)
    return [(Path(a.out_dir) / "junit" / f"{a.command}-{config}.xml", f"{a.command}.{config}")]


def add_coordinator_options(p: argparse.ArgumentParser, harness: bool = True) -> None:
    p.add_argument("--scheduler", help="tcp://HOST:PORT (or tls://) of a running Dask scheduler")
    p.add_argument(
        "--tls",
        nargs=3,
        metavar=("CA", "CERT", "KEY"),
        help="a tls:// scheduler's CA file, this client's certificate and key (PEM files)",
    )
    p.add_argument("--workers", type=options.integer(1, 256), default=2, help="local cluster size")
    p.add_argument("--out-dir", default="reports", help="reports folder (journal under dist/)")
    if harness:
        p.add_argument(
            "--harness",
            default=str(ROOT / "build/release/harness/stk-harness"),
            help="the stk-harness every worker runs (the same file on each: verified by SHA-256)",
        )
        p.add_argument(
            "--ship",
            metavar="FOLDER",
            help="send the harness, engines, teacher, books and suites with the work: each to "
            "FOLDER/<SHA-256>/<name> on every worker (an absolute folder each worker may write)",
        )
    p.add_argument(
        "--chunk-timeout-s",
        type=options.real(1, 7 * 86400),
        default=3600.0,
        help="one chunk's time limit",
    )


def parser() -> ToolParser:
    p = ToolParser(
        prog="python -m stkdist",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=run_report,
        allow_abbrev=False,
    )
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser(
        "match", help="a match in chunks, stopping when the SPRT decides", allow_abbrev=False
    )
    add_coordinator_options(m)
    m.add_argument(
        "--chunk-pairs", type=options.integer(1, 10**6), default=4, help="pairs per chunk (about)"
    )
    m.add_argument(
        "--pairs", type=options.integer(1, 10**7), required=True, help="pairs of the match"
    )
    m.add_argument("--config", type=options.name, default="match", help="the match's name")
    m.add_argument("--sprt", nargs="+", default=[], help="elo0= elo1= [alpha= beta= model=]")
    d = sub.add_parser(
        "datagen", help="datagen in chunks, the file of a local run", allow_abbrev=False
    )
    add_coordinator_options(d)
    d.add_argument(
        "--chunk-games", type=options.integer(1, 10**6), default=16, help="games per chunk (about)"
    )
    d.add_argument(
        "--games", type=options.integer(1, 10**8), required=True, help="games of the run"
    )
    d.add_argument("--config", type=options.name, help="the run's name (default seed<S>)")
    d.add_argument("--out", help="data file (default build/datagen/<config>.txt), and .journal")
    e = sub.add_parser("epd", help="an EPD suite in chunks, merged", allow_abbrev=False)
    add_coordinator_options(e)
    e.add_argument(
        "--chunks", type=options.integer(1, 10**5), default=8, help="shards of the suite"
    )
    e.add_argument("--config", type=options.name, help="report name (default <suite>-<sd|sn><N>)")
    mu = sub.add_parser(
        "mutation", help="one draw of mutants in chunks, merged as a campaign", allow_abbrev=False
    )
    add_coordinator_options(mu, harness=False)
    mu.add_argument(
        "--script",
        default=str(ROOT / "ci/mutation.sh"),
        help="ci/mutation.sh of a checkout at the same path and commit on every worker",
    )
    mu.add_argument(
        "--chunks", type=options.integer(1, 10**5), default=8, help="shards of the draw"
    )
    mu.add_argument("--config", type=options.name, default="campaign", help="the campaign's name")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    # The coordinator's options anywhere; every other word (after an optional `--`) is the
    # command's, passed to each chunk as given.
    p = parser()
    args, passthrough = p.parse_known_args(argv)
    if passthrough[:1] == ["--"]:
        passthrough = passthrough[1:]
    args.passthrough = passthrough
    p.declare_reports(args)
    run: runner.ChunkedRun
    if args.command == "match":
        run = match.make_plan(
            args.harness,
            passthrough,
            args.config,
            args.pairs,
            args.chunk_pairs,
            args.sprt,
            Path(args.out_dir),
        )
    elif args.command == "mutation":
        run = mutation.make_run(
            args.script, passthrough, args.config, args.chunks, Path(args.out_dir)
        )
    elif args.command == "epd":
        run = epd.make_run(args.harness, passthrough, args.config, args.chunks, Path(args.out_dir))
    else:
        run = datagen.make_run(
            args.harness,
            passthrough,
            args.config,
            args.games,
            args.chunk_games,
            args.out,
            Path(args.out_dir),
        )
    if getattr(args, "ship", None):
        run.ship(Path(args.ship))
    if args.tls and not args.scheduler:
        raise runner.UsageError("--tls: only with --scheduler (a local cluster stays on loopback)")
    # Dask's own answer to either mismatch is a TypeError or a RuntimeError from inside the
    # connection, read as the tool's bug; the address says which side is wrong before it.
    speaks_tls = bool(args.scheduler) and args.scheduler.startswith("tls://")
    if speaks_tls and not args.tls:
        raise runner.UsageError(
            f"--scheduler {args.scheduler}: a tls:// scheduler needs --tls CA CERT KEY"
        )
    if args.tls and not speaks_tls:
        raise runner.UsageError(f"--tls: the scheduler {args.scheduler} is not a tls:// address")
    for path in args.tls or ():
        if not Path(path).is_file():
            raise runner.UsageError(f"--tls: {path}: no such file")
    with ExitStack() as stack:
        client = cluster.connect(
            args.scheduler, args.workers, stack, tuple(args.tls) if args.tls else None
        )
        return runner.execute(run, client, args.chunk_timeout_s)


def entry() -> int:
    return run_tool(lambda: main(sys.argv[1:]))
