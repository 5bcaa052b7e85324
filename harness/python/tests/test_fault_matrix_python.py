"""Every `python -m` entry point against hostile conditions (docs/faults.md "Python tools").

One row per entry point (the table is checked complete against the modules with a main guard:
a new tool without a row fails test_the_table_names_every_entry_point), one cell per condition:
its output (or report) path a FIFO, a character device, a directory, a symbolic link to a file
outside, a dangling link, a link loop, or inside a read-only folder; a full disk (the fault
injector: ENOSPC on every write from the first); stdout a pipe whose reader is gone; SIGTERM
mid-run (the tools that run long enough); paths with a quote, spaces, `$()` and a leading '-';
a NaN numeric option; given as the row's input (`reads`) a FIFO, /dev/zero, /dev/urandom, a
directory (a regular file where a folder is read), a dangling link or a link loop: refused
within seconds while the command line is read, naming the option and the path. Each cell asserts
the contract: exit 2 where the run cannot do its work (else the row's normal status), never a
signal, never a traceback, every declared JUnit report an <error> report valid against the
schema or absent, nothing outside the out folder touched (a sentinel and the links' targets byte
for byte), no temporary file left.

The default run takes the cheap cells (NaN, a FIFO output, a FIFO input and a closed stdout of
every row, SIGTERM of the trainer and netquality, every condition of three representative rows);
the rest are `slow` (STK_FULL=1 or -m slow), as are the sweep of the full disk over every write of
every row and the SIGTERM sweep (a stop before each of up to 12 evenly spread writes of every row:
exit 2 or the run's own status, no 0-byte, torn or temporary file, reports <error> after exit 2).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import material_games, validate_junit, zero_checkpoint
from hostile import wrong_modes
from tool_contract import (
    ENGINE,
    FAULT_LIB,
    HARNESS,
    PACKAGES,
    REPO,
    SEEDED_CKPT,
    SEEDED_NET,
    Ran,
    closed_stdout,
    fault_env,
    injected_calls,
    junit_state,
    leftover_temporaries,
    run_module,
    tool_env,
)

SENTINEL = b"outside the out folder: never written\n"


class Ctx:
    """The folders of one cell: inputs, the out folder, and `outside` (a sentinel and the link
    targets). With `weird`, every path holds a quote, spaces and `$()`, the input and out folders
    start with '-', and the command line names them relative to the working folder."""

    def __init__(self, root: Path, shared: Path, weird: bool = False) -> None:
        self.root, self.shared, self.weird = root, shared, weird
        self.inp = root / ("-in put" if weird else "in")
        self.out = root / ("-out dir" if weird else "out")
        self.outside = root / "outside"
        for d in (self.inp, self.out, self.outside):
            d.mkdir(parents=True)
        (self.outside / "sentinel.txt").write_bytes(SENTINEL)

    def p(self, path: Path) -> str:
        return os.path.relpath(path, self.root) if self.weird else str(path)

    def opt(self, name: str, path: Path) -> str:
        return f"{name}={self.p(path)}"

    def pos(self, *paths: Path) -> list[str]:
        return (["--"] if self.weird else []) + [self.p(x) for x in paths]

    def copy(self, *names: str) -> None:
        for name in names:
            src = self.shared / name
            if src.is_dir():
                shutil.copytree(src, self.inp / name)
            else:
                shutil.copy2(src, self.inp / name)


@dataclass
class Row:
    """One entry point: a normal run with its outputs under ctx.out (`argv`), the output hostile
    objects are planted at (`target`), its declared JUnit reports, its exit status here (None:
    it cannot run to the end here, only the cells refused before any work apply)."""

    module: str
    argv: Callable[[Ctx], list[str]]
    inputs: tuple[str, ...] = ()
    target: Callable[[Ctx], Path] | None = None
    reports: Callable[[Ctx], list[Path]] = lambda _: []
    status: int | None = 0
    prints: bool = True
    nan: str | None = None  # an option that takes a number
    sigterm: Callable[[Ctx], list[str]] | None = None  # a long run, and what it prints first
    # An input of the normal run, as (the option argparse names, its path): the input cells put
    # something that is not a file there (a folder where `reads_folder`).
    reads: tuple[str, Callable[[Ctx], Path]] | None = None
    reads_folder: bool = False
    needs: Path | None = None  # a binary the row needs
    # A run that resumes from what an earlier run left in its out folder (a journal) does other
    # writes the second time: the full-disk sweep starts each of its runs from an empty folder.
    resumes: bool = False
    why: str = ""  # why the status is what it is
    name: str = ""

    def __post_init__(self) -> None:
        self.name = self.name or self.module


def junit(c: Ctx, harness: str, config: str = "t") -> Path:
    return c.out / "junit" / f"{harness}-{config}.xml"


def corpus() -> list[str]:
    return ["--random", "5", "--no-curated", "--no-spec", "--config", "t"]


def netquality_argv(c: Ctx, big: bool = False) -> list[str]:
    data = "big-data.txt" if big else "data.txt"
    sizes = ["--pairs", "200000", "--decided", "2000"] if big else ["--pairs", "200"]
    return [
        c.opt("--net", c.inp / "net.nnue"),
        c.opt("--data", c.inp / data),
        c.opt("--engine", ENGINE),
        "--val-fraction",
        "0.5",
        "--decided-cp",
        "300",
        "--decided",
        "10",
        *sizes,
        "--config",
        "t",
        c.opt("--reports-dir", c.out),
    ]


def train_argv(c: Ctx, epochs: int = 1) -> list[str]:
    return [
        c.opt("--data", c.inp / "data.txt"),
        c.opt("--out", c.out / "net.npz"),
        "--epochs",
        str(epochs),
        "--batch",
        "256",
        "--lambda",
        "1",
    ]


MUTATION = ["--diff", "HEAD", "--files", "harness/python/stkref/spec.py", "--config", "t"]


def mutation_row(module: str) -> Row:
    """ci/mutation.sh (python -m stkmutation, or its tool module): an empty --diff run."""
    return Row(
        module,
        lambda c: [*MUTATION, c.opt("--out-dir", c.out)],
        target=lambda c: junit(c, "mutation"),
        reports=lambda c: [junit(c, "mutation")],
        nan="--fail-under",
    )


def stkdist_argv(c: Ctx) -> list[str]:
    """A one-pair match on a local cluster of one worker, stk at 50 nodes a move."""
    coordinator = ["match", "--pairs", "1", "--workers", "1", "--config", "t"]
    coordinator += [c.opt("--out-dir", c.out), c.opt("--harness", Path(HARNESS))]
    engines = ["--engine", f"cmd={ENGINE}", "--engine", f"cmd={ENGINE}", "--nodes", "50"]
    return [*coordinator, *engines, "--gate", "non-regression", "--min-elo-lower95", "-1000"]


def stkdist_datagen_argv(c: Ctx) -> list[str]:
    """Two games at 50 nodes a move on a local cluster of one worker, the data file --out."""
    coordinator = ["datagen", "--games", "2", "--workers", "1", "--config", "t"]
    coordinator += [c.opt("--out-dir", c.out), c.opt("--harness", Path(HARNESS))]
    return [*coordinator, c.opt("--out", c.out / "data.txt"), "--nodes", "50"]


def stkdist_epd_argv(c: Ctx) -> list[str]:
    """A two-position suite at depth 2 in two chunks on a local cluster of one worker."""
    coordinator = ["epd", "--chunks", "2", "--workers", "1", "--config", "t"]
    coordinator += [c.opt("--out-dir", c.out), c.opt("--harness", Path(HARNESS))]
    return [*coordinator, c.opt("--epd", c.inp / "suite.epd"), "--depth", "2"]


def stkdist_mutation_argv(c: Ctx) -> list[str]:
    """An empty draw (ci/mutation.sh --diff HEAD) in two chunks on a local cluster of one worker."""
    coordinator = ["mutation", "--chunks", "2", "--workers", "1", "--config", "t"]
    return [*coordinator, c.opt("--out-dir", c.out), *MUTATION[:4]]


ROWS = [
    Row("stkref", lambda _: []),
    Row(
        "stkdist",
        stkdist_argv,
        target=lambda c: junit(c, "match"),
        reports=lambda c: [junit(c, "match")],
        nan="--chunk-timeout-s",
        needs=Path(HARNESS),
        resumes=True,
    ),
    Row(
        "stkdist",
        stkdist_datagen_argv,
        target=lambda c: c.out / "data.txt",
        reports=lambda c: [junit(c, "datagen")],
        nan="--chunk-timeout-s",
        needs=Path(HARNESS),
        resumes=True,
        name="stkdist-datagen",
    ),
    Row(
        "stkdist",
        stkdist_epd_argv,
        ("suite.epd",),
        target=lambda c: junit(c, "epd"),
        reports=lambda c: [junit(c, "epd")],
        nan="--chunk-timeout-s",
        needs=Path(HARNESS),
        resumes=True,
        name="stkdist-epd",
    ),
    Row(
        "stkdist",
        stkdist_mutation_argv,
        target=lambda c: junit(c, "mutation"),
        reports=lambda c: [junit(c, "mutation")],
        nan="--chunk-timeout-s",
        resumes=True,
        name="stkdist-mutation",
    ),
    Row("stktrain", lambda _: []),
    Row(
        "stkref.checknet",
        lambda c: c.pos(c.inp / "net.nnue"),
        ("net.nnue",),
        reads=("file", lambda c: c.inp / "net.nnue"),
    ),
    Row(
        "stkref.checkpoint",
        lambda c: ["--seed", "3", *c.pos(c.out / "c.npz")],
        target=lambda c: c.out / "c.npz",
        nan="--seed",
    ),
    Row(
        "stkref.drift",
        lambda c: [
            c.opt("--checkpoint", c.inp / "ckpt.npz"),
            *corpus(),
            c.opt("--reports-dir", c.out),
        ],
        ("ckpt.npz",),
        target=lambda c: junit(c, "drift"),
        reports=lambda c: [junit(c, "drift")],
        nan="--timeout",
        reads=("--checkpoint", lambda c: c.inp / "ckpt.npz"),
    ),
    Row(
        "stkref.fhrecords",
        lambda c: ["summary", *c.pos(c.inp / "r.fhr")],
        ("r.fhr",),
        reads=("files", lambda c: c.inp / "r.fhr"),
    ),
    Row(
        "stkref.fhsynth",
        lambda c: ["--nodes", "2000", *c.pos(c.out / "s.fhr")],
        target=lambda c: c.out / "s.fhr",
        nan="--nodes",
    ),
    Row(
        "stkref.golden",
        lambda c: ["--update-golden", c.opt("--out", c.out / "g")],
        target=lambda c: c.out / "g" / "manifest.json",
    ),
    Row(
        "stkref.golden",
        lambda c: [c.opt("--check", c.inp / "golden"), c.opt("--junit", junit(c, "golden"))],
        ("golden",),
        target=lambda c: junit(c, "golden"),
        reports=lambda c: [junit(c, "golden")],
        name="stkref.golden --check",
        reads=("--check", lambda c: c.inp / "golden"),
        reads_folder=True,
    ),
    Row(
        "stkref.parity",
        lambda c: [
            "features",
            c.opt("--engine", c.shared / "fake-stk"),
            *corpus(),
            c.opt("--reports-dir", c.out),
        ],
        target=lambda c: junit(c, "features"),
        reports=lambda c: [junit(c, "features")],
        nan="--timeout",
        reads=("--engine", lambda c: c.shared / "fake-stk"),
    ),
    Row(
        "stkref.perft",
        lambda c: [c.opt("--epd", c.inp / "perft.epd"), "--max-nodes", "1000"],
        ("perft.epd",),
        nan="--max-nodes",
        reads=("--epd", lambda c: c.inp / "perft.epd"),
    ),
    Row(
        "stkref.shadowplot",
        lambda c: c.pos(c.inp / "shadow.json", c.out / "s.png"),
        ("shadow.json",),
        target=lambda c: c.out / "s.png",
        reads=("summary", lambda c: c.inp / "shadow.json"),
    ),
    Row("stkref.sprt", lambda _: ["--wdl", "10,5,8", "--elo0", "0", "--elo1", "5"], nan="--alpha"),
    Row(
        "stktrain.calibration",
        lambda c: [
            c.opt("--records", c.inp / "r.fhr"),
            c.opt("--model", c.inp / "m.txt"),
            c.opt("--out-dir", c.out / "calibration"),
        ],
        ("r.fhr", "m.txt"),
        target=lambda c: junit(c, "calibration", "quick"),
        reports=lambda c: [junit(c, "calibration", "quick")],
        nan="--tolerance",
        reads=("--records", lambda c: c.inp / "r.fhr"),
    ),
    Row(
        "stktrain.export",
        lambda c: c.pos(c.inp / "ckpt.npz", c.out / "n.nnue"),
        ("ckpt.npz",),
        target=lambda c: c.out / "n.nnue",
        reads=("checkpoint", lambda c: c.inp / "ckpt.npz"),
    ),
    Row(
        "stktrain.fhfit",
        lambda c: [c.opt("--records", c.inp / "r.fhr"), c.opt("--out", c.out / "m.txt")],
        ("r.fhr",),
        target=lambda c: c.out / "m.txt",
        nan="--l2",
        reads=("--records", lambda c: c.inp / "r.fhr"),
    ),
    Row(
        "stktrain.move_times",
        lambda c: [c.opt("--json", c.out / "times.json"), *c.pos(c.inp / "match.pgn")],
        ("match.pgn",),
        target=lambda c: c.out / "times.json",
        reads=("pgn", lambda c: c.inp / "match.pgn"),
    ),
    Row(
        "stktrain.teacher_budget",
        lambda c: [
            c.opt("--json", c.out / "tb.json"),
            c.opt("--data", c.inp / "data.txt"),
            c.opt("--teacher", ENGINE),
            "--budgets=100",
            "--reference-nodes=200",
            "--positions=2",
        ],
        ("data.txt",),
        target=lambda c: c.out / "tb.json",
        needs=ENGINE,
        reads=("--data", lambda c: c.inp / "data.txt"),
    ),
    Row(
        "stktrain.netlint",
        lambda c: [c.opt("--net", c.inp / "net.nnue"), *corpus(), c.opt("--reports-dir", c.out)],
        ("net.nnue",),
        target=lambda c: junit(c, "netlint"),
        reports=lambda c: [junit(c, "netlint")],
        nan="--min-int16-headroom",
        reads=("--net", lambda c: c.inp / "net.nnue"),
    ),
    Row(
        "stktrain.netquality",
        netquality_argv,
        ("net.nnue", "data.txt", "big-data.txt"),
        target=lambda c: junit(c, "netquality"),
        reports=lambda c: [junit(c, "netquality")],
        nan="--pair-margin",
        sigterm=lambda c: netquality_argv(c, big=True),
        needs=ENGINE,
        reads=("--data", lambda c: c.inp / "data.txt"),
    ),
    Row(
        "stktrain.record_net",
        lambda c: [
            c.opt("--checkpoint", c.inp / "zero.npz"),
            c.opt("--summary", c.inp / "train.json"),
            c.opt("--data", c.inp / "data.txt"),
            "--datagen-command",
            "stk-harness datagen x",
            c.opt("--out-dir", c.out / "trained"),
        ],
        ("zero.npz", "train.json", "data.txt"),
        target=lambda c: c.out / "trained" / "manifest.json",
        nan="--output-scale",
        reads=("--data", lambda c: c.inp / "data.txt"),
    ),
    Row(
        "stktrain.strength_report",
        lambda c: [c.opt("--out", c.out / "trained-net.md"), *c.pos(c.inp)],
        target=lambda c: c.out / "trained-net.md",
        status=2,
        why="needs ci/net-strength.sh's reports: without them the run ends on input (exit 2)",
        reads=("work", lambda c: c.inp),
        reads_folder=True,
    ),
    Row(
        "stktrain.train",
        train_argv,
        ("data.txt",),
        target=lambda c: c.out / "net.npz",
        nan="--lr",
        sigterm=lambda c: train_argv(c, epochs=500),
        reads=("--data", lambda c: c.inp / "data.txt"),
    ),
    mutation_row("stkmutation"),
    Row(
        "stkmutation",
        lambda c: [
            "campaign",
            c.opt("--report", c.inp / "mutation.json"),
            "--config",
            "c",
            c.opt("--out-dir", c.out),
            c.opt("--doc", c.out / "campaign.md"),
        ],
        ("mutation.json",),
        target=lambda c: c.out / "campaign.md",
        reports=lambda c: [junit(c, "mutation", "c")],
        nan="--engine-target",
        name="stkmutation campaign",
        reads=("--report", lambda c: c.inp / "mutation.json"),
    ),
    mutation_row("stkmutation.tool"),
    Row(
        "stkmutation.models",
        lambda c: [
            c.opt("--detection", c.inp / "planted.json"),
            c.opt("--out", c.out / "models.md"),
        ],
        ("planted.json",),
        target=lambda c: c.out / "models.md",
        reads=("--detection", lambda c: c.inp / "planted.json"),
    ),
    Row(
        "stkmutation.planted",
        lambda c: [
            c.opt("--merge", c.inp / "planted.json"),
            "--config",
            "m",
            c.opt("--out-dir", c.out),
        ],
        ("planted.json",),
        target=lambda c: junit(c, "mutants", "m"),
        reports=lambda c: [junit(c, "mutants", "m")],
        nan="--timeout",
        reads=("--merge", lambda c: c.inp / "planted.json"),
    ),
    Row(
        "stkdev.build_profile",
        lambda c: [
            "--preset",
            "no-such-preset",
            "--headers",
            "0",
            c.opt("--doc", c.out / "build-profile.md"),
        ],
        target=lambda c: c.out / "build-profile.md",
        status=None,
        nan="--jobs",
        why="builds a CMake preset from nothing: only the cells refused before any work run",
    ),
    Row(
        "stktrain.sweep",
        lambda c: [
            "--run",
            "a",
            c.p(c.inp / "sweep-summary.json"),
            c.p(c.inp / "sweep-quality.json"),
            c.opt("--out", c.out / "sweep.json"),
        ],
        ("sweep-summary.json", "sweep-quality.json"),
        target=lambda c: c.out / "sweep.json",
    ),
    Row(
        "stkdev.checks_junit",
        lambda c: [
            "--suite",
            "nnue-build.t",
            c.opt("--out", junit(c, "nnue-build")),
            *c.pos(c.inp / "checks.tsv"),
        ],
        ("checks.tsv",),
        target=lambda c: junit(c, "nnue-build"),
        reports=lambda c: [junit(c, "nnue-build")],
        reads=("results", lambda c: c.inp / "checks.tsv"),
    ),
    Row(
        "stkdev.cli_docs",
        lambda c: [c.opt("--harness", HARNESS), c.opt("--out", c.out / "cli.md")],
        target=lambda c: c.out / "cli.md",
        needs=HARNESS,
        reads=("--harness", lambda _: HARNESS),
    ),
    Row(
        "stkdev.fuzz_runner",
        lambda c: [
            "1",
            "--no-ecm",
            c.opt("--bin-dir", c.inp / "no-fuzz-build"),
            c.opt("--work-dir", c.out / "work"),
            c.opt("--regressions", c.out / "reg"),
            "--config",
            "t",
            c.opt("--out-dir", c.out),
        ],
        target=lambda c: junit(c, "fuzz"),
        reports=lambda c: [junit(c, "fuzz")],
        status=2,
        nan="--seed",
        why="no fuzz build (ci/fuzz.sh builds it): every target is an <error> (exit 2)",
    ),
    Row(
        "stkdev.import_cycles",
        lambda c: c.pos(PACKAGES),
        reads=("roots", lambda _: PACKAGES),
        reads_folder=True,
    ),
    Row(
        "stkdev.standalone",
        lambda c: [
            c.opt("--build", c.inp / "standalone-build"),
            c.opt("--junit", junit(c, "standalone")),
        ],
        ("standalone-build",),
        target=lambda c: junit(c, "standalone"),
        reports=lambda c: [junit(c, "standalone")],
        nan="--jobs",
        reads=("--build", lambda c: c.inp / "standalone-build"),
        reads_folder=True,
        needs=Path(shutil.which("c++") or "/nonexistent/c++"),
    ),
    Row(
        "stkdev.report_digests",
        lambda c: c.pos(c.inp / "reports" / "junit"),
        ("reports",),
        reads=("dir", lambda c: c.inp / "reports" / "junit"),
        reads_folder=True,
    ),
    Row(
        "stkdev.measurements",
        lambda c: [c.opt("--reports", c.inp / "reports"), c.opt("--out", c.out / "m.md")],
        ("reports",),
        target=lambda c: c.out / "m.md",
        reads=("--reports", lambda c: c.inp / "reports"),
        reads_folder=True,
    ),
]


def entry_points() -> set[str]:
    """Every module run as `python -m X` (a main guard in its source), found in the sources."""
    found = set()
    for pkg in ("stkref", "stktrain", "stkmutation", "stkdev", "stkdist"):
        for path in (PACKAGES / pkg).glob("*.py"):
            if 'if __name__ == "__main__":' in path.read_text():
                found.add(pkg if path.stem == "__main__" else f"{pkg}.{path.stem}")
    return found


def test_the_table_names_every_entry_point():
    """A new entry point without a row fails here (and a row of a removed one)."""
    assert {r.module for r in ROWS} == entry_points()
    assert len({r.name for r in ROWS}) == len(ROWS)
    for script in (REPO / "ci").glob("*.py"):  # the ci/ scripts run those modules (runpy)
        text = script.read_text()
        assert 'runpy.run_module("' in text, script
        assert text.split('runpy.run_module("')[1].split('"')[0] in entry_points(), script


# ---- the shared inputs ------------------------------------------------------------------------


@pytest.fixture(scope="session")
def shared(tmp_path_factory: pytest.TempPathFactory, fake_engine: Path) -> Path:
    """The inputs of every row, made once (each cell copies the ones it names)."""
    d = tmp_path_factory.mktemp("matrix-inputs")
    shutil.copy(fake_engine, d / "fake-stk")
    shutil.copy(SEEDED_NET, d / "net.nnue")
    shutil.copy(SEEDED_CKPT, d / "ckpt.npz")
    shutil.copy(REPO / "golden" / "perft.epd", d / "perft.epd")
    (d / "suite.epd").write_text(  # two mates in one
        '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "t.1";\n'
        '6K1/5PPP/8/8/8/8/8/r5k1 b - - bm Ra8#; id "t.2";\n'
    )
    (d / "sweep-summary.json").write_text(json.dumps(SWEEP_SUMMARY))
    (d / "sweep-quality.json").write_text(json.dumps(SWEEP_QUALITY))
    (d / "checks.tsv").write_text("pass\tbench\t1 node\nfail\tplay\t2 nodes, want 3\n")
    standalone_build(d / "standalone-build")
    material_games(d / "data.txt", 20, 1, plies=(30, 80))
    material_games(d / "big-data.txt", 300, 2, plies=(60, 120))
    import numpy as np

    np.savez(d / "zero.npz", **zero_checkpoint())
    (d / "train.json").write_text(json.dumps(TRAIN_SUMMARY))
    (d / "match.pgn").write_text(  # a match's PGN: engine moves carry score/depth time, nodes
        '[Round "1.1"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n'
        "1. e4 {+0.10/5 0.010s, n=100} e5 {-0.20/6 0.020s, n=300} {adjudication} *\n\n"
    )
    (d / "shadow.json").write_text(json.dumps(SHADOW_SUMMARY))
    for argv in (
        ["stkref.fhsynth", str(d / "r.fhr"), "--nodes", "3000"],
        ["stktrain.fhfit", "--records", str(d / "r.fhr"), "--out", str(d / "m.txt")],
        ["stkref.golden", "--out", str(d / "golden")],
        ["stkmutation", *MUTATION, "--out-dir", str(d / "mut")],
        [
            "stktrain.netlint",
            "--net",
            str(d / "net.nnue"),
            "--random",
            "3",
            "--config",
            "t",
            "--reports-dir",
            str(d / "reports"),
        ],
    ):
        p = subprocess.run(
            [sys.executable, "-m", *argv], cwd=d, env=tool_env(), capture_output=True
        )
        assert p.returncode == 0, (argv, p.stderr.decode())
    shutil.copy(d / "mut" / "mutation" / "t.json", d / "mutation.json")
    (d / "planted.json").write_text(json.dumps({"head": "0" * 40, "mutants": [PLANTED]}))
    return d


def standalone_build(build: Path) -> None:
    """A build folder of one unity batch whose two members compile alone (stkdev.standalone):
    the paths in its compile_commands.json name this folder, so each cell's copy reads it."""
    batch = build / "unity" / "t" / "src_0.cpp"
    batch.parent.mkdir(parents=True)
    for name in ("a", "b"):
        (build / f"{name}.cpp").write_text(f"int {name}() {{ return 1; }}\n")
    batch.write_text(
        "// Generated by harness/cmake/BuildSpeed.cmake (stk_unity).\n"
        '#include "../../a.cpp"\n#include "../../b.cpp"\n'
    )
    command = f"c++ -std=c++20 -o obj.o -c {batch}"
    entry = {"directory": str(build), "command": command, "file": str(batch)}
    (build / "compile_commands.json").write_text(json.dumps([entry]))


SWEEP_SUMMARY = {
    "settings": {"lam": 0.75, "lr": 5e-4, "lr_drop": 3, "factorizer": True, "epochs": 3}
    | {"val_fraction": 0.1},
    "kept_epoch": 2,
    "kept_val_loss": 0.02,
    "data": ["d.txt"],
    "seed": 1,
    "validation_positions": 1000,
}
SWEEP_QUALITY = {
    "net": {"pair_accuracy": 0.92, "mae_cp": 160.0, "mae_wdl_result": 0.25},
    "positions": 20000,
    "validation_games": 50,
    "classical": {"mae_cp": 177.2, "mae_wdl_result": 0.27, "pair_accuracy": 0.9},
}
TRAIN_SUMMARY = {
    "settings": {"hidden": 128},
    "scale_cp": 340.0,
    "train_positions": 10,
    "validation_positions": 2,
    "kept_epoch": 1,
    "kept_val_loss": 0.01,
    "seconds": 1.0,
    "history": [{"val_loss": 0.02}, {"val_loss": 0.01, "positions_per_second": 100.0}],
    "revision": "0" * 40,
}
SHADOW_SUMMARY = {
    "config": "t",
    "positions": 10,
    "budget": "depth 7",
    "cells": [
        {
            "mechanism": "lmp",
            "depth": 2,
            "rate": 0.05,
            "audited": 200,
            "wilson_lo": 0.02,
            "wilson_hi": 0.1,
            "control": "move-pruning",
            "control_audited": 50,
            "control_rate": 0.01,
        }
    ],
}
PLANTED = {
    "id": "x.patch",
    "file": "ci/mutants/x.patch",
    "line": None,
    "module": "engine",
    "operator": "planted",
    "outcome": "killed",
    "triaged": "",
    "message": "",
    "tests": ["true"],
    "seconds": 1.0,
    "build_seconds": 0.0,
    "diff": "",
    "checks": [
        {"command": "true", "exit_code": 1, "caught": True, "timed_out": False, "seconds": 1.0}
    ],
}


# ---- running a cell ---------------------------------------------------------------------------


def run_row(
    row: Row,
    c: Ctx,
    argv: list[str] | None = None,
    env: dict | None = None,
    stdout: int | None = None,
    timeout: float = 120,
    max_memory: int | None = None,
) -> Ran:
    return run_module(
        row.module, row.argv(c) if argv is None else argv, c.root, env, timeout, stdout, max_memory
    )


def snapshot(d: Path) -> dict[str, bytes | str]:
    """Every entry under d: a file's bytes, else what it is (a link's target, 'fifo', ...)."""
    out: dict[str, bytes | str] = {}
    for p in sorted(d.rglob("*")):
        st = p.lstat()
        rel = str(p.relative_to(d))
        if stat.S_ISLNK(st.st_mode):
            out[rel] = "link -> " + os.readlink(p)
        elif stat.S_ISREG(st.st_mode):
            out[rel] = p.read_bytes()
        else:
            out[rel] = f"mode {stat.S_IFMT(st.st_mode):o}"
    return out


def complete(path: Path) -> bool:
    """A whole file of its kind (the atomic writer's promise: never a torn one)."""
    data = path.read_bytes()
    if path.suffix == ".json":
        json.loads(data)
    elif path.suffix == ".xml":
        import xml.etree.ElementTree as ET

        ET.fromstring(data)
    return len(data) > 0


def check_contract(
    row: Row,
    c: Ctx,
    ran: Ran,
    xsd: Path,
    expect: set[int | None],
    before_out: dict | None = None,
    before_inp: dict | None = None,
) -> None:
    """What every cell asserts (the module docstring)."""
    assert not ran.timed_out, f"{row.name}: hung\n{ran.says()}"
    assert ran.returncode >= 0, f"{row.name}: killed by a signal\n{ran.says()}"
    assert ran.returncode in expect, (
        f"{row.name}: exit {ran.returncode}, expected {expect}\n{ran.says()}"
    )
    assert "Traceback" not in ran.stderr, ran.says()
    assert (c.outside / "sentinel.txt").read_bytes() == SENTINEL
    assert not leftover_temporaries(c.root), leftover_temporaries(c.root)
    assert not list(c.root.rglob("pwned")), "a path was run by a shell"
    for report in row.reports(c):
        state = junit_state(report)
        if state == "not a file":
            continue  # the cell's own hostile object, which it checks was left as it was
        if ran.returncode == 2:
            assert state in ("absent", "error"), f"{report}: {state} after exit 2\n{ran.says()}"
        if state != "absent":
            validate_junit(xsd, report, measured=False)
            assert not wrong_modes([report]), wrong_modes([report])
    for rel, old in (before_out or {}).items():  # what an earlier run left: intact or whole
        p = c.out / rel
        if p in row.reports(c):
            continue  # declared: removed when the run began, then an <error> report or none
        assert os.path.lexists(p), f"{rel}: an earlier output was removed\n{ran.says()}"
        if isinstance(old, bytes) and p.read_bytes() != old:
            assert complete(p), f"{rel} torn\n{ran.says()}"

    for rel, old in (before_inp or {}).items():
        assert snapshot(c.inp).get(rel) == old, f"input {rel} changed"


# ---- the conditions ---------------------------------------------------------------------------


def plant(kind: str, target: Path, c: Ctx) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "device":
        try:
            os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # a /dev/full of our own
        except PermissionError:
            pytest.skip("mknod needs root (CAP_MKNOD): the FIFO and directory cells stand in")
    elif kind == "directory":
        target.mkdir()
        (target / "keep.txt").write_text("kept\n")
    elif kind == "link-outside":
        (c.outside / "victim.txt").write_bytes(SENTINEL)
        target.symlink_to(c.outside / "victim.txt")
    elif kind == "link-dangling":
        target.symlink_to(c.outside / "missing.txt")
    elif kind == "link-loop":
        target.symlink_to(target.name)
    elif kind == "file":
        target.write_bytes(SENTINEL)


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """`folder` read-only for this process: a read-only bind mount (root ignores modes), else
    chmod 555; the folder is left as it was."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    bind = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if bind.returncode != 0:
        pytest.skip(f"root, and no bind mount here ({bind.stderr.decode().strip()})")
    try:
        ro = subprocess.run(
            ["mount", "-o", "remount,bind,ro", str(folder)], capture_output=True, check=False
        )
        if ro.returncode != 0:
            pytest.skip(f"cannot remount read-only ({ro.stderr.decode().strip()})")
        yield
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True, check=False)


def hostile_target(kind: str) -> Callable[[Row, Ctx, Path], None]:
    """Something other than a regular file at the output: refused by name, left as it was."""

    def cell(row: Row, c: Ctx, xsd: Path) -> None:
        target = row.target(c)
        plant(kind, target, c)
        before, inputs = snapshot(c.out), snapshot(c.inp)
        ran = run_row(row, c, timeout=60)  # a FIFO opened for writing would hang: never opened
        check_contract(row, c, ran, xsd, {2}, before_inp=inputs)
        assert str(target) in ran.stderr, ran.says()
        rel = str(target.relative_to(c.out))
        assert snapshot(c.out).get(rel) == before[rel], f"{rel} was touched"
        if kind == "directory":
            assert (target / "keep.txt").read_text() == "kept\n"

    return cell


def link_target(kind: str) -> Callable[[Row, Ctx, Path], None]:
    """A link at the output is replaced as a name: its target is never written through."""

    def cell(row: Row, c: Ctx, xsd: Path) -> None:
        target = row.target(c)
        plant(kind, target, c)
        outside, inputs = snapshot(c.outside), snapshot(c.inp)
        ran = run_row(row, c)
        check_contract(row, c, ran, xsd, {row.status}, before_inp=inputs)
        assert snapshot(c.outside) == outside, "written through a link to outside the out folder"
        if row.status in (0, 1):
            assert target.is_file() and not target.is_symlink(), f"{target}: not replaced"

    return cell


def read_only_folder(row: Row, c: Ctx, xsd: Path) -> None:
    target = row.target(c)
    target.parent.mkdir(parents=True, exist_ok=True)
    before, inputs = snapshot(c.out), snapshot(c.inp)
    with read_only(target.parent):
        ran = run_row(row, c)
    check_contract(row, c, ran, xsd, {2}, before_inp=inputs)
    assert f"folder {target.parent} is not writable" in ran.stderr, ran.says()
    assert snapshot(c.out) == before


def full_disk(row: Row, c: Ctx, xsd: Path) -> None:
    """Every write under the out folder fails from the first (a disk that is full): exit 2,
    what an earlier run left intact or whole, the reports <error> or absent (and said so)."""
    if not FAULT_LIB.exists():
        pytest.skip(f"fault injector not built ({FAULT_LIB})")
    first = run_row(row, c)
    assert first.returncode == row.status, first.says()
    before, inputs = snapshot(c.out), snapshot(c.inp)
    count = c.root / "calls.txt"
    ran = run_row(row, c, env=fault_env(c.out, 1, True, count))
    wrote = injected_calls(count) > 0
    check_contract(row, c, ran, xsd, {2} if wrote else {row.status}, before, inputs)
    for report in row.reports(c):
        if junit_state(report) == "absent":
            assert f"no error report could be written: {report}" in ran.stderr, ran.says()


def clean_run_call_points(row: Row, c: Ctx, count: Path) -> tuple[int, list[int]]:
    """The row's clean run, counting its write/fsync/rename/close calls under the out folder:
    their number and at most 12 of them, evenly spread (the first and the last among them)."""
    if not FAULT_LIB.exists():
        pytest.skip(f"fault injector not built ({FAULT_LIB})")
    first = run_row(row, c, env=fault_env(c.out, 0, False, count))
    assert first.returncode == row.status, first.says()
    calls = injected_calls(count)
    if not calls and row.status == 2:  # it cannot run to its outputs here (row.why)
        pytest.skip(f"{row.name}: its clean run writes nothing here ({row.why})")
    # A row that runs to its outputs writes them: no counted call means no injector (a sweep
    # over no point would pass whatever the tool does).
    assert calls > 0, f"{row.name}: the fault injector counted no write ({FAULT_LIB} not loaded?)"
    return calls, sorted({1 + (calls - 1) * i // 11 for i in range(12)})


def full_disk_sweep(row: Row, c: Ctx, xsd: Path) -> None:
    """The n-th write/fsync/rename/close under the out folder fails (alone, then from there on),
    for n over the run's calls (at most 12, evenly spread): always exit 2, nothing torn."""
    count = c.root / "calls.txt"
    _, picks = clean_run_call_points(row, c, count)
    for n in picks:
        for sticky in (False, True):
            if row.resumes:
                shutil.rmtree(c.out)
                c.out.mkdir()
            before, inputs = snapshot(c.out), snapshot(c.inp)
            ran = run_row(
                row, c, env=fault_env(c.out, n, sticky, count, "EIO" if n % 2 else "ENOSPC")
            )
            injected_calls(count)
            check_contract(row, c, ran, xsd, {2}, before, inputs)


LINE_FILES = (".jsonl", ".journal", ".pgn", ".txt", ".epd", ".md", ".csv", ".tsv")


def sigterm_sweep(row: Row, c: Ctx, xsd: Path) -> None:
    """A stop may land anywhere: SIGTERM before the n-th write/fsync/rename/close under the out
    folder (the injector's sigterm action), n over the run's calls (at most 12, evenly spread,
    the first and the last among them), each from the clean run's outputs: exit 2 or the run's
    own status, never a signal or a traceback, no temporary, no 0-byte file and no line file
    without its last newline left, reports <error> (exit 2) or the run's own."""
    count = c.root / "calls.txt"
    calls, picks = clean_run_call_points(row, c, count)
    # What the clean run itself leaves empty may be empty (a journal folder's flock file).
    empty_by_design = {
        f.relative_to(c.out) for f in c.out.rglob("*") if f.is_file() and not f.stat().st_size
    }
    for n in picks:
        if row.resumes:
            shutil.rmtree(c.out)
            c.out.mkdir()
        before, inputs = snapshot(c.out), snapshot(c.inp)
        env = fault_env(c.out, n, False, count) | {
            "STK_FAULT_ACTION": "sigterm",
            "STK_FAULT_PAUSE_MS": "100",
        }
        ran = run_row(row, c, env=env)
        injected_calls(count)
        where = f"SIGTERM before call {n} of {calls}"
        assert ran.returncode in (2, row.status), f"{where}: exit {ran.returncode}\n{ran.says()}"
        # The null control's opposite: a stop at the first write is taken (else the injector's
        # signal never reached the tool and every cell would pass vacuously).
        assert n != 1 or ran.returncode == 2, f"{where}: the stop was not taken\n{ran.says()}"
        check_contract(row, c, ran, xsd, {2, row.status}, before, inputs)
        for f in c.out.rglob("*"):
            if f.is_file() and not f.is_symlink():
                data = f.read_bytes()
                empty_ok = f.relative_to(c.out) in empty_by_design
                assert data or empty_ok, f"{where}: {f} left with 0 bytes\n{ran.says()}"
                assert empty_ok or complete(f), f"{where}: {f} torn"
                if f.suffix in LINE_FILES:
                    assert data.endswith(b"\n"), f"{where}: {f} torn (no last newline)"


# What an input refusal says the object is (after "PATH: "), as io::read_input_file words it.
INPUT_IS = {
    "fifo": "is a FIFO",
    "dev-zero": "is a character device",
    "dev-urandom": "is a character device",
    "directory": "is a directory",
    "file": "is a regular file, not a folder",
    "link-dangling": "is a dangling symbolic link",
    "link-loop": "is a symbolic link loop",
}


def given_instead(argv: list[str], old: str, new: str) -> list[str]:
    """argv with the argument `old` (alone or as --option=old) replaced by `new`."""

    def given(a: str) -> str:
        return new if a == old else a.removesuffix(old) + new if a.endswith("=" + old) else a

    out = [given(a) for a in argv]
    assert out != argv, f"{old} is not an argument of {argv}"
    return out


def hostile_input(kind: str) -> Callable[[Row, Ctx, Path], None]:
    """Something other than a regular file (a folder) given as an input: refused while the
    command line is read, within seconds, naming the option and the path; never opened (a FIFO
    would block the run, /dev/zero and /dev/urandom would be read until memory ran out: the run
    gets 4 GiB of address space here so that such a read fails instead of taking the machine)."""

    def cell(row: Row, c: Ctx, xsd: Path) -> None:
        assert row.reads is not None
        label, path_of = row.reads
        if kind.startswith("dev-"):
            bad = Path("/dev") / kind.removeprefix("dev-")
        else:
            bad = c.inp / f"hostile-{path_of(c).name}"
            plant(kind, bad, c)
        argv = given_instead(row.argv(c), c.p(path_of(c)), c.p(bad))
        out, inputs, outside = snapshot(c.out), snapshot(c.inp), snapshot(c.outside)
        start = time.monotonic()
        ran = run_row(row, c, argv=argv, timeout=30, max_memory=4 << 30)
        took = time.monotonic() - start
        check_contract(row, c, ran, xsd, {2}, before_inp=inputs)
        assert took < 10, f"{row.name}: refused after {took:.1f} s\n{ran.says()}"
        said = f"argument {label}: {c.p(bad)}: {INPUT_IS[kind]}"
        assert said in ran.stderr, f"expected {said!r}\n{ran.says()}"
        reports = {r.relative_to(c.out) for r in row.reports(c)}
        owed = {str(p) for r in reports for p in (r, *r.parents) if p != Path(".")}
        assert {k: v for k, v in snapshot(c.out).items() if k not in owed} == out, "out touched"
        assert snapshot(c.outside) == outside, "a link's target was touched"

    return cell


def unreadable_input(row: Row, c: Ctx, xsd: Path) -> None:
    """Every read of the input failing with EIO (the fault injector's read op, aimed at that file
    or folder alone): exit 2 naming the input and the reason, never a short read taken for the
    whole input. The fault must fire, else the cell proves nothing."""
    assert row.reads is not None
    given = row.reads[1](c)
    if given.is_file() and os.access(given, os.X_OK):
        pytest.skip(f"{given.name} is a program: run, not read")
    if PACKAGES.resolve().is_relative_to(given.resolve()):
        pytest.skip(f"{given} holds the tool's own code: it could not even start")
    count = c.root / "read-calls.txt"
    env = fault_env(given, 1, True, count, "EIO") | {"STK_FAULT_OP": "read"}
    ran = run_row(row, c, env=env, timeout=60)
    failed = injected_calls(count)
    named = c.p(given) in ran.stderr or str(given) in ran.stderr
    if failed == 0 and (row.status == 2 or (ran.returncode == 2 and not named)):  # ../shared
        pytest.skip(f"the run ended on another input (exit 2) before reading {given.name}")
    assert failed > 0, f"no read of {given} was failed\n{ran.says()}"
    check_contract(row, c, ran, xsd, {2})
    assert named, f"input not named\n{ran.says()}"
    assert re.search(r"Input/output error|I/O error", ran.stderr), f"no reason\n{ran.says()}"


def stdout_closed(row: Row, c: Ctx, xsd: Path) -> None:
    """`tool | head` that ended: the output was not read, so the run failed (exit 2)."""
    inputs = snapshot(c.inp)
    fd = closed_stdout()
    try:
        ran = run_row(row, c, stdout=fd)
    finally:
        os.close(fd)
    check_contract(row, c, ran, xsd, {2} if row.prints else {row.status}, before_inp=inputs)


def stopped(row: Row, c: Ctx, xsd: Path) -> None:
    """SIGTERM mid-run: finally-blocks remove temporaries, the reports say <error>, exit 2."""
    assert row.sigterm is not None
    out_file = c.root / "stdout.txt"
    cmd = [sys.executable, "-m", row.module, *row.sigterm(c)]
    with open(out_file, "wb") as out:
        p = subprocess.Popen(cmd, cwd=c.root, env=tool_env(), stdout=out, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    marker = "epoch 1/" if row.module == "stktrain.train" else ""
    while time.monotonic() < deadline and p.poll() is None:
        if marker and marker in out_file.read_text(errors="replace"):
            break
        if not marker and time.monotonic() > deadline - 58:  # 2 s: well into its work
            break
        time.sleep(0.05)
    assert p.poll() is None, "the run ended before the signal: make it longer"
    p.send_signal(signal.SIGTERM)
    try:
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        raise
    ran = Ran(p.returncode, out_file.read_text(errors="replace"), err.decode(errors="replace"))
    check_contract(row, c, ran, xsd, {2})
    assert "SIGTERM" in ran.stderr, ran.says()


def weird_paths(row: Row, c: Ctx, xsd: Path) -> None:
    """A quote, spaces, `$()` and a leading '-' in every path: taken as names, never as shell
    words or options (a child process run on them would have made a file named pwned)."""
    inputs = snapshot(c.inp)
    ran = run_row(row, c)
    check_contract(row, c, ran, xsd, {row.status}, before_inp=inputs)
    if row.target is not None and row.status in (0, 1):
        assert row.target(c).is_file(), ran.says()


def nan_option(row: Row, c: Ctx, xsd: Path) -> None:
    assert row.nan is not None
    ran = run_row(row, c, argv=[*row.argv(c), row.nan, "nan"])
    check_contract(row, c, ran, xsd, {2})
    assert f"argument {row.nan}: 'nan' is not" in ran.stderr, ran.says()


CONDITIONS: dict[str, Callable[[Row, Ctx, Path], None]] = {
    "fifo": hostile_target("fifo"),
    "device": hostile_target("device"),
    "directory": hostile_target("directory"),
    "link-outside": link_target("link-outside"),
    "link-dangling": link_target("link-dangling"),
    "link-loop": link_target("link-loop"),
    "read-only": read_only_folder,
    "full-disk": full_disk,
    "full-disk-sweep": full_disk_sweep,
    "sigterm-sweep": sigterm_sweep,
    "closed-stdout": stdout_closed,
    "sigterm": stopped,
    "weird-paths": weird_paths,
    "nan": nan_option,
    **{f"input-{kind}": hostile_input(kind) for kind in INPUT_IS},
    "input-eio": unreadable_input,
}
NEEDS_TARGET = {
    "fifo",
    "device",
    "directory",
    "read-only",
    "link-outside",
    "link-dangling",
    "link-loop",
    "full-disk",
    "full-disk-sweep",
    "sigterm-sweep",
}
NEEDS_A_RUN = {
    "link-outside",
    "link-dangling",
    "link-loop",
    "full-disk",
    "full-disk-sweep",
    "sigterm-sweep",
    "closed-stdout",
    "weird-paths",
}
# The default run: the cheap cells of every row, every condition of three rows (a file output,
# a gated tool's reports, the mutation tool's git and report tree); the rest are slow.
DEFAULT = {"fifo", "nan", "closed-stdout", "sigterm", "input-fifo", "input-eio"}
REPRESENTATIVE = {"stkref.checkpoint", "stktrain.netlint", "stkmutation"}


def applies(row: Row, condition: str) -> bool:
    if condition in NEEDS_TARGET and row.target is None:
        return False
    if condition in NEEDS_A_RUN and row.status is None:
        return False
    if condition == "sigterm":
        return row.sigterm is not None
    if condition.startswith("input-"):  # a folder is no hostile input where a folder is read
        wrong = "input-file" if not row.reads_folder else "input-directory"
        return row.reads is not None and condition != wrong
    return condition != "nan" or row.nan is not None


def cells() -> list:
    out = []
    for row in ROWS:
        for condition in CONDITIONS:
            if not applies(row, condition):
                continue
            slow = condition in ("full-disk-sweep", "sigterm-sweep") or not (
                condition in DEFAULT or row.name in REPRESENTATIVE
            )
            marks = [pytest.mark.slow] if slow else []
            out.append(pytest.param(row, condition, marks=marks, id=f"{row.name}:{condition}"))
    return out


@pytest.mark.parametrize(("row", "condition"), cells())
def test_contract(row: Row, condition: str, tmp_path: Path, shared: Path, junit_xsd: Path):
    if row.needs is not None and not row.needs.exists():
        pytest.skip(f"{row.needs} not built")
    weird = condition == "weird-paths"
    c = Ctx(tmp_path / ("we'ird $(touch pwned) dir" if weird else "cell"), shared, weird)
    c.copy(*row.inputs)
    CONDITIONS[condition](row, c, junit_xsd)
