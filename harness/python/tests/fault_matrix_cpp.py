"""The fault matrix of `stk-harness`: one row per command (every command `stk-harness --help` lists;
test_fault_matrix.py fails when one has no row), each with its smallest valid invocation and the
paths it takes: output files and folders, input files and folders, the engine it drives. A cell
is a row under one hostile condition (hostile.py) applied to one of its paths, to its stdout, or to
the whole run; every cell keeps hostile.py's contract with the exit status written down here.

Expected status of a cell (docs/faults.md, docs/reports.md, each command's docs/harnesses page):
- an output path that is a FIFO, a character device, a folder, or lies in a read-only folder:
  exit 2, the object left as it is ("an existing target that is not a regular file is refused");
  an out dir that is a FIFO, a device, a symlink to a file or a dangling or looping symlink: exit 2.
- an output path that is a symlink (to a file outside, dangling, a loop): exit 2, or the row's
  normal status with the link itself replaced; the link's target never written or created.
- an input file whose every read fails with EIO (the fault injector's read op): exit 2 naming it
  and the reason, never a short read; the fault must fire (else the cell proves nothing).
- an input path that is a FIFO, /dev/zero, /dev/urandom, a folder, a dangling symlink or a loop:
  exit 2 naming it, promptly (io/input_file.h); a symlink to a good input, a good input in a
  read-only folder, any path under a folder named HOSTILE_NAME: the row's normal status.
  Every refusal costs at most QUICK_CPU seconds of CPU (not a read of /dev/zero first), and comes
  before the run's work: a row with a long invocation (Row.long) is refused in that one.
- a hostile engine (stalls, floods, a line without a newline, at its first `go`): the row's
  documented engine-fault status (Row.engine_status) within Row.engine_timeout.
- stdout a pipe whose reader has closed, or fd 1 closed: exit 2 (the output could not be written).
- SIGTERM during a longer run (Row.long): exit 2, reports valid or an <error>, no temporary or
  lock file left.
- SIGTERM just before each file-system call of the row's clean run under the out dir (the fault
  injector's sigterm action; test_sigterm_at_every_call_point): exit 2 with <error> reports, or
  the row's normal status when the run finished first; never a 0-byte file, a record torn (a
  line file not ending in its newline), a temporary or a lock file left.
- the Nth write or fsync under the out dir failing with ENOSPC (the fault injector; per row the
  first and the middle write and the last fsync): exit 2 when the fault fired, else the row's
  normal status.
- match: an existing PGN collection at --pgn keeps its games and gets the new ones appended; a
  symlink placed at a lock path never has its target written (exit 0 or 2); a journal reached
  through a symlink while another run holds it is refused (exit 2, "held by another run").

KNOWN_FAILURES lists the cells that fail on today's code, each with what happens; they run as
xfail(strict=True), so a fix that makes one pass fails the run until its line is removed here."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import hostile as h
import report_contract

# ---- cells failing on today's code (empty it as the fixes land) ----------------------------------
# Cell id (row/target/condition) -> what happens today. Each runs as xfail(strict=True): a fix that
# makes one pass fails the run until its line goes. Grouped by class of defect.
KNOWN_FAILURES: dict[str, str] = {}

REPO = Path(__file__).resolve().parents[3]
BUILD = REPO / "build/release"
# Absolute: every cell runs in its own sandbox folder, where a relative path given in the
# environment (./build/release/..., as ci/check-mutants.sh gives it) would name nothing.
HARNESS = os.path.abspath(os.environ.get("STK_HARNESS") or BUILD / "harness/stk-harness")
ENGINE = os.path.abspath(os.environ.get("STK_ENGINE") or BUILD / "engine/stk")
FAKE = os.path.abspath(os.environ.get("STK_FAKE_UCI") or Path(HARNESS).parent / "stk-fake-uci")
FAULT_LIB = os.path.abspath(
    os.environ.get("STK_FAULT_LIB") or Path(HARNESS).parent / "libstk-fault-inject.so"
)
SHARED = Path(os.environ.get("STK_SHARED") or REPO.parent / "shared")
ECM = str(SHARED / "suites/ECM.epd")

# Slot kinds.
OUT_FILE = "out-file"
OUT_DIR = "out-dir"
IN_FILE = "in-file"
IN_DIR = "in-dir"
ENGINE_SLOT = "engine"

# Conditions by slot kind (hostile.py names them).
OUT_FILE_CONDITIONS = (
    h.FIFO,
    h.DEV_FULL,
    h.DIRECTORY,
    h.SYMLINK_OUTSIDE,
    h.DANGLING_SYMLINK,
    h.SYMLINK_LOOP,
    h.READONLY_DIR,
    h.HOSTILE_PATH,
)
OUT_DIR_CONDITIONS = (
    h.FIFO,
    h.DEV_FULL,
    h.SYMLINK_OUTSIDE,
    h.DANGLING_SYMLINK,
    h.SYMLINK_LOOP,
    h.READONLY_DIR,
    h.HOSTILE_PATH,
)
# Every read(2) of an input failing with EIO (the fault injector's read op, under a folder that
# holds that input alone): a disk that cannot read it back.
EIO_READ = "eio-read"
IN_FILE_CONDITIONS = (
    EIO_READ,
    h.FIFO,
    h.DEV_ZERO,
    h.DEV_URANDOM,
    h.DIRECTORY,
    h.SYMLINK_OUTSIDE,
    h.DANGLING_SYMLINK,
    h.SYMLINK_LOOP,
    h.READONLY_DIR,
    h.HOSTILE_PATH,
)
IN_DIR_CONDITIONS = (
    h.FIFO,
    h.DEV_ZERO,
    h.SYMLINK_OUTSIDE,
    h.DANGLING_SYMLINK,
    h.SYMLINK_LOOP,
    h.READONLY_DIR,
    h.HOSTILE_PATH,
)
# Conditions whose refusal must name the path it refused (the hostile path's name is made to be
# hard to print, so it is left out).
NAMED_WHEN_REFUSED = frozenset(
    OUT_FILE_CONDITIONS + OUT_DIR_CONDITIONS + IN_FILE_CONDITIONS + IN_DIR_CONDITIONS
) - {h.HOSTILE_PATH}
ENGINE_CONDITIONS = (h.ENGINE_STALL, h.ENGINE_FLOOD, h.ENGINE_NO_NEWLINE, h.HOSTILE_PATH)
CONDITIONS = {
    OUT_FILE: OUT_FILE_CONDITIONS,
    OUT_DIR: OUT_DIR_CONDITIONS,
    IN_FILE: IN_FILE_CONDITIONS,
    IN_DIR: IN_DIR_CONDITIONS,
    ENGINE_SLOT: ENGINE_CONDITIONS,
}
REFUSED = {h.FIFO, h.DEV_FULL, h.DEV_ZERO, h.DEV_URANDOM, h.DIRECTORY, h.READONLY_DIR}
LINKS = {h.SYMLINK_OUTSIDE, h.DANGLING_SYMLINK, h.SYMLINK_LOOP}
HOSTILE_ENGINES = (h.ENGINE_STALL, h.ENGINE_FLOOD, h.ENGINE_NO_NEWLINE)
STDOUT_CONDITIONS = (h.STDOUT_CLOSED_PIPE, h.STDOUT_CLOSED_FD)
# The full disk, sampled: the first and the middle counted write, the last fsync. (A failed
# close is left to test_faults.py: SQLite ignores one on a file it has already synced.)
ENOSPC_SAMPLES = (("write", "first"), ("write", "middle"), ("fsync", "last"))
# SIGTERM arriving just before a file-system call under the out dir (the injector's sigterm
# action), at every counted call of the row's clean run (write, fsync, rename, close), at most
# this many evenly spaced: a stop right after a file's creation is where a 0-byte file is left,
# one between two writes of a record where it is torn, one at the last call where the run's
# outcome races the stop. test_fault_matrix.test_sigterm_at_every_call_point runs them.
SIGTERM_POINTS = 48
SIGTERM_PAUSE_MS = "100"  # how long the injector lets the watcher act before the call goes on

# Outputs a clean run writes empty: shadow's misses and control hits when there are none.
EMPTY_OK = ("*-misses.jsonl", "*-control-hits.jsonl")

CELL_TIMEOUT = 5.0  # seconds: the smallest invocations take well under one


@dataclass(frozen=True)
class Slot:
    """A path argument of a row: `name` is the option or positional, `default` the path relative
    to the sandbox root (engines: 'fake', 'stk', 'inprocess'), `source` the prepared input that
    stands there; an `optional` slot is passed only when a cell puts a condition on it."""

    name: str
    kind: str
    default: str = ""
    source: str = ""
    optional: bool = False
    extra: tuple[str, ...] = ()  # conditions beyond the kind's (match --pgn: /dev/zero)
    not_applicable: Mapping[str, str] = field(default_factory=dict)  # condition -> why


Args = Mapping[str, str | None]


def opt(a: Args, *names: str) -> list[str]:
    """['--name', value, ...] for each slot that has a value (an unused optional slot: nothing)."""
    return [x for n in names if (v := a.get(n)) is not None for x in (n, v)]


@dataclass(frozen=True)
class Failing:
    """A run of the row whose verdict is a failure (exit 1), judged by the reports it writes as
    the clean run is (test_a_failing_run_is_judged_by_the_reports_it_wrote): `spoil` edits the
    sandbox first (a golden count off by one), `args` replaces slot values, `extra` is appended to
    the row's command line, `argv` replaces it."""

    spoil: Callable[[Path], None] = lambda _root: None
    args: Mapping[str, str] = field(default_factory=dict)
    extra: tuple[str, ...] = ()
    argv: Callable[[Args], list[str]] | None = None


@dataclass(frozen=True)
class Row:
    id: str
    command: str
    argv: Callable[[Args], list[str]]
    slots: tuple[Slot, ...] = ()
    reports: Callable[[Args], list[str]] = lambda _: []  # JUnit files the run declares
    normal: frozenset[int] = frozenset({0})
    fresh: tuple[str, ...] = ()  # reference outputs not put back (journals: they would resume)
    engine_status: frozenset[int] = frozenset({2})
    engine_timeout: float = 30.0
    engine_slow: str = ""  # why the hostile-engine cells belong to the full tier
    long: Callable[[Args], list[str]] | None = None  # runs for seconds: SIGTERM lands mid-run
    long_stdout: str = h.STDOUT_PIPE
    no_long: str = ""  # why a row has no long invocation
    sigterm_after: float = 0.5
    sigterm_when: str = ""  # or as soon as this file (relative to the root, wildcards) appears
    env: Mapping[str, str] = field(default_factory=dict)
    overrides: Mapping[str, tuple[frozenset[int], str]] = field(default_factory=dict)
    locks: tuple[str, ...] = ()  # lock files the run takes, relative to the root
    timeout: float = CELL_TIMEOUT
    failing: Failing | None = None  # a run whose gate fails
    no_failing: str = ""  # why a row has none

    def slot(self, name: str) -> Slot:
        return next(s for s in self.slots if s.name == name)


def out_dir_reports(*names: str) -> Callable[[Args], list[str]]:
    return lambda a: [f"{a['--out-dir']}/junit/{n}" for n in names]


def slot_reports(*slots: str) -> Callable[[Args], list[str]]:
    return lambda a: [v for v in (a[s] for s in slots) if v is not None]


OUT = Slot("--out-dir", OUT_DIR, "out")
S0 = frozenset({0})
S01 = frozenset({0, 1})
S12 = frozenset({1, 2})
S2 = frozenset({2})
UCI_SH = (
    "the option is a command line split into words, never run by a shell (docs/uci.md, Engine "
    "commands): a path with spaces or a quote is given quoted, which this cell does not do"
)
SIXTY = "the documented engine deadline is 60 s (a cell takes a minute)"


def _engine_cmd(a: Args, name: str) -> str:
    v = a[name]
    assert v is not None
    return v


def _edit(name: str, edit: Callable[[str], str]) -> Callable[[Path], None]:
    """A spoil: the sandbox's in/NAME rewritten by `edit`, which must change it."""

    def spoil(root: Path) -> None:
        p = root / "in" / name
        text = p.read_text()
        p.write_text(edited := edit(text))
        assert edited != text, f"spoiling in/{name} changed nothing"

    return spoil


def _one_more(pattern: str) -> Callable[[str], str]:
    """The first number matched by `pattern`'s group 1 plus one (a golden count off by one)."""
    return lambda text: re.sub(pattern, lambda m: m[0].replace(m[1], str(int(m[1]) + 1)), text, 1)


def _flip_middle_byte(name: str) -> Callable[[Path], None]:
    def spoil(root: Path) -> None:
        p = root / "in" / name
        b = bytearray(p.read_bytes())
        b[len(b) // 2] ^= 1
        p.write_bytes(bytes(b))

    return spoil


def _first_junit_torn(root: Path) -> None:
    """One JUnit file of the review's reports cut to its first line's first half."""
    p = sorted((root / "in/reports/junit").glob("*.xml"))[0]
    p.write_text(p.read_text()[:10])


def _deeper_stk(root: Path) -> None:
    """in/deeper-stk: an stk whose bench searches one ply deeper than asked (another build)."""
    p = root / "in/deeper-stk"
    p.write_text(
        "#!/bin/sh\n"
        f'if [ "$1" = bench ]; then d=$2; shift 2; exec {ENGINE} bench $((d + 1)) "$@"; fi\n'
        f'exec {ENGINE} "$@"\n'
    )
    p.chmod(0o755)


def _golden_digest_off(root: Path) -> None:
    """cwd/golden as links to the repository's files, but for nets/manifest.json, whose first
    net_sha256 has one digit changed."""
    golden = root / "cwd/golden"
    golden.unlink()
    (golden / "nets").mkdir(parents=True)
    for p in (REPO / "golden").iterdir():
        if p.name != "nets":
            (golden / p.name).symlink_to(p)
    for p in (REPO / "golden/nets").iterdir():
        if p.name != "manifest.json":
            (golden / "nets" / p.name).symlink_to(p)
    text = (REPO / "golden/nets/manifest.json").read_text()
    digest = re.search(r'"net_sha256": "([0-9a-f])', text)
    assert digest
    other = "0" if digest[1] != "0" else "1"
    (golden / "nets/manifest.json").write_text(
        text[: digest.start(1)] + other + text[digest.end(1) :]
    )


NO_GATE = "no gate: it writes what it makes (exit 0) or refuses (exit 2)"


ROWS: tuple[Row, ...] = (
    Row(
        "perft",
        "perft",
        lambda a: [
            "perft",
            *opt(a, "--epd"),
            *["--depth", "1", "--invariants-depth", "0", "--config", "t"],
            *opt(a, "--junit", "--out-dir"),
        ],
        (
            Slot("--epd", IN_FILE, "in/perft.epd", "perft.epd"),
            Slot("--junit", OUT_FILE, "out/junit/perft-t.xml"),
            OUT,
        ),
        reports=slot_reports("--junit"),
        long=lambda a: [
            *["perft", "--epd", str(REPO / "golden/perft.epd"), "--depth", "5"],
            *["--config", "t", *opt(a, "--junit", "--out-dir")],
        ],
        failing=Failing(spoil=_edit("perft.epd", _one_more(r";D1 (\d+)"))),
    ),
    Row(
        "checknet",
        "checknet",
        lambda a: ["checknet", a["FILE"] or "", *opt(a, "--manifest", "--junit")],
        (
            Slot("FILE", IN_FILE, "in/net.nnue", "net.nnue"),
            Slot("--manifest", IN_FILE, "in/manifest.json", "manifest.json"),
            Slot("--junit", OUT_FILE, "out/junit/checknet-t.xml"),
        ),
        reports=slot_reports("--junit"),
        no_long="reads one small net: done in milliseconds",
        failing=Failing(spoil=_flip_middle_byte("net.nnue")),
    ),
    Row(
        "makenet",
        "makenet",
        lambda a: ["makenet", "--hidden", "128", a["OUT"] or ""],
        (Slot("OUT", OUT_FILE, "out/net.nnue"),),
        long=lambda a: ["makenet", "--hidden", "1024", a["OUT"] or ""],
        sigterm_after=5.0,
        sigterm_when="out/net.nnue.tmp.*",  # mid-write
        no_failing=NO_GATE,
    ),
    Row(
        "accumulator",
        "accumulator",
        lambda a: [
            *["accumulator", "--games", "24", "--plies", "300", "--positions", "20"],
            *["--search-depth", "1", *opt(a, "--net"), "--config", "t"],
            *opt(a, "--junit", "--out-dir"),
        ],
        (
            Slot("--net", IN_FILE, "in/net.nnue", "net.nnue", optional=True),
            Slot("--junit", OUT_FILE, "out/junit/accumulator-t.xml"),
            OUT,
        ),
        reports=slot_reports("--junit"),
        long=lambda a: [
            *["accumulator", "--games", "400", "--config", "t"],
            *opt(a, "--junit", "--out-dir"),
        ],
        no_failing="its checks fail only on a defective engine (ci/mutants/nnue-skip-king-refresh.patch)",
    ),
    Row(
        "nnue-bench",
        "nnue-bench",
        lambda a: [
            *["nnue-bench", "--positions", "1", "--config", "t"],
            *opt(a, "--junit", "--out-dir"),
        ],
        (Slot("--junit", OUT_FILE, "out/junit/nnue-bench-t.xml"), OUT),
        reports=slot_reports("--junit"),
        long=lambda a: ["nnue-bench", "--config", "t", *opt(a, "--junit", "--out-dir")],
        no_failing="its gate (equal evaluation sums) fails only on a defective engine",
    ),
    Row(
        "bench",
        "bench",
        lambda a: [
            *["bench", *opt(a, "--golden"), "--depth", "1", "--config", "t"],
            *opt(a, "--out-dir"),
        ],
        (Slot("--golden", IN_FILE, "in/bench.txt", "bench.txt"), OUT),
        reports=out_dir_reports("bench-t.xml"),
        long=lambda a: [
            *["bench", *opt(a, "--golden"), "--depth", "14", "--config", "t"],
            *opt(a, "--out-dir"),
        ],
        failing=Failing(spoil=_edit("bench.txt", _one_more(r"nodes (\d+)"))),
    ),
    Row(
        "search-speed",
        "search-speed",
        lambda a: [
            *["search-speed", *opt(a, "--reference"), "--nodes", "1000", *opt(a, "--net")],
            *["--config", "t", *opt(a, "--out-dir")],
        ],
        (
            Slot("--reference", ENGINE_SLOT, "stk"),
            Slot("--net", IN_FILE, "in/net.nnue", "net.nnue", optional=True),
            OUT,
        ),
        reports=out_dir_reports("search-speed-t.xml"),
        engine_slow=SIXTY,
        engine_timeout=90,
        long=lambda a: [
            *["search-speed", *opt(a, "--reference"), "--config", "t"],
            *opt(a, "--out-dir"),
        ],
        no_failing="a measurement beside the reference's, not gated (docs/harnesses/search-speed.md)",
    ),
    Row(
        "perft-speed",
        "perft-speed",
        lambda a: [
            *["perft-speed", *opt(a, "--reference"), "--repeat", "1", "--max-depth", "1"],
            *["--config", "t", *opt(a, "--out-dir")],
        ],
        (Slot("--reference", ENGINE_SLOT, "stk"), OUT),
        reports=out_dir_reports("perft-speed-t.xml"),
        engine_slow=SIXTY,
        engine_timeout=90,
        long=lambda a: [
            *["perft-speed", *opt(a, "--reference"), "--config", "t"],
            *opt(a, "--out-dir"),
        ],
        no_failing="its gate (equal perft counts) needs a reference that miscounts",
    ),
    Row(
        "epd",
        "epd",
        lambda a: [
            *["epd", *opt(a, "--epd"), "--depth", "1", *opt(a, "--baseline")],
            *["--config", "t", *opt(a, "--out-dir"), "--quiet", *opt(a, "--engine")],
        ],
        (
            Slot("--epd", IN_FILE, "in/suite.epd", "suite.epd"),
            Slot("--baseline", IN_FILE, "in/baseline.json", "baseline.json"),
            Slot("--engine", ENGINE_SLOT, "inprocess"),
            OUT,
        ),
        reports=out_dir_reports("epd-t.xml"),
        # A failed engine is the position's recorded `error` (docs/harnesses/epd.md): exit 1.
        engine_status=S12,
        engine_slow=SIXTY,
        engine_timeout=90,
        long=lambda a: [
            *["epd", "--epd", ECM, "--depth", "10", "--config", "t"],
            *[*opt(a, "--out-dir"), "--quiet"],
        ],
        failing=Failing(extra=("--min-solved", "2")),
    ),
    Row(
        "merge",
        "merge",
        lambda a: ["merge", "x", a["SHARD1"] or "", a["SHARD2"] or "", *opt(a, "--out-dir")],
        (
            Slot("SHARD1", IN_FILE, "in/shard1.json", "shard1.json"),
            Slot("SHARD2", IN_FILE, "in/shard2.json", "shard2.json"),
            OUT,
        ),
        reports=out_dir_reports("epd-x.xml"),
        no_long="adds two small files: done in milliseconds",
        failing=Failing(extra=("--min-solved", "3")),
    ),
    Row(
        "epd-compare",
        "epd-compare",
        lambda a: [
            *["epd-compare", *opt(a, "--epd"), "--depth", "1", *opt(a, "--reference")],
            *["--config", "t", *opt(a, "--out-dir"), "--quiet"],
        ],
        (
            Slot("--epd", IN_FILE, "in/suite.epd", "suite.epd"),
            Slot("--reference", ENGINE_SLOT, "fake"),
            OUT,
        ),
        reports=out_dir_reports("epd-t-stk.xml", "epd-t-reference.xml"),
        engine_status=S12,
        engine_slow=SIXTY,
        engine_timeout=90,
        long=lambda a: [
            *["epd-compare", "--epd", ECM, "--depth", "10", "--reference", ENGINE],
            *["--config", "t", *opt(a, "--out-dir"), "--quiet"],
        ],
        failing=Failing(args={"--reference": f"{FAKE} --defect illegal-move"}),
    ),
    Row(
        "shadow",
        "shadow",
        lambda a: [
            *["shadow", *opt(a, "--epd"), "--depth", "1", "--require-excess", "none"],
            *["--config", "t", *opt(a, "--out-dir"), "--quiet"],
        ],
        (Slot("--epd", IN_FILE, "in/suite.epd", "suite.epd"), OUT),
        reports=out_dir_reports("shadow-t.xml"),
        # The plot is drawn by $STK_PYTHON (an argument list, no shell): a stand-in that draws
        # nothing keeps the cells fast; the command line still carries every path.
        env={"STK_PYTHON": "/bin/true"},
        long=lambda a: [
            *["shadow", "--epd", ECM, "--depth", "7", "--stride", "20"],
            *["--config", "t", *opt(a, "--out-dir"), "--quiet"],
        ],
        failing=Failing(extra=("--require-excess", "lmr")),
    ),
    Row(
        "datagen",
        "datagen",
        lambda a: [
            *["datagen", "--games", "2", "--nodes", "200", "--balance-nodes", "200"],
            *["--max-plies", "8", "--config", "t", *opt(a, "--out", "--out-dir")],
            *opt(a, "--openings", "--teacher"),
        ],
        (
            Slot("--out", OUT_FILE, "out/data/d.txt"),
            Slot("--openings", IN_FILE, "in/openings.epd", "openings.epd", optional=True),
            Slot(
                "--teacher",
                ENGINE_SLOT,
                "fake",
                optional=True,
                not_applicable={h.HOSTILE_PATH: UCI_SH},
            ),
            OUT,
        ),
        reports=out_dir_reports("datagen-t.xml"),
        fresh=("data/*",),
        locks=("out/data/d.txt.lock",),
        # "A teacher that prints no exact score, an illegal best move, or nothing within 60 s
        # stops the run with exit 2 naming it" (docs/datagen.md).
        engine_slow=SIXTY,
        engine_timeout=90,
        long=lambda a: [
            *["datagen", "--games", "400", "--config", "t"],
            *opt(a, "--out", "--out-dir"),
        ],
        no_failing=NO_GATE,
    ),
    Row(
        "fhgen",
        "fhgen",
        lambda a: [
            *["fhgen", "--games", "1", "--seed", "1", *opt(a, "--out-dir", "--ecm")],
            *["--ecm-fraction", "0.5", "--nodes", "200", "--max-plies", "10"],
        ],
        (Slot("--ecm", IN_FILE, "in/ecm.epd", "suite2.epd"), OUT),
        long=lambda a: ["fhgen", "--games", "2000", "--seed", "1", *opt(a, "--out-dir")],
        no_failing=NO_GATE,
    ),
    Row(
        "fhcollect",
        "fhcollect",
        lambda a: [
            *["fhcollect", *opt(a, "--positions"), "--depth", "4", "--full-depth", "1"],
            *[*opt(a, "--out"), "--config", "t", *opt(a, "--out-dir", "--model")],
        ],
        (
            Slot("--positions", IN_FILE, "in/positions.epd", "positions.epd"),
            Slot("--out", OUT_FILE, "out/x.fhr"),
            Slot("--model", IN_FILE, "in/fhmodel.txt", "fhmodel.txt", optional=True),
            OUT,
        ),
        reports=out_dir_reports("fhcollect-t.xml"),
        long=lambda a: [
            *["fhcollect", "--positions", ECM, "--depth", "10", *opt(a, "--out")],
            *["--config", "t", *opt(a, "--out-dir")],
        ],
        no_failing="its read-back check fails only on a defective writer",
    ),
    Row(
        "fhdump",
        "fhdump",
        lambda a: ["fhdump", a["FILE"] or "", *opt(a, "--model")],
        (
            Slot("FILE", IN_FILE, "in/records.fhr", "records.fhr"),
            Slot("--model", IN_FILE, "in/fhmodel.txt", "fhmodel.txt", optional=True),
        ),
        # About a megabyte of JSON lines into a pipe nobody reads: the run blocks in a write.
        long=lambda a: ["fhdump", a["FILE"] or ""],
        long_stdout=h.STDOUT_STALLED_PIPE,
        no_failing="prints records: no gate",
    ),
    Row(
        "ctest-junit",
        "ctest-junit",
        lambda a: ["ctest-junit", a["CTEST_JUNIT"] or "", a["OUT"] or "", "--name", "t"],
        (
            Slot("CTEST_JUNIT", IN_FILE, "in/ctest.xml", "ctest.xml"),
            Slot("OUT", OUT_FILE, "out/junit/ctest-t.xml"),
        ),
        reports=slot_reports("OUT"),
        no_long="rewrites one small file: done in milliseconds",
        failing=Failing(
            spoil=_edit(
                "ctest.xml",
                lambda t: t.replace('failures="0"', 'failures="1"').replace('"run"', '"fail"'),
            )
        ),
    ),
    Row(
        "uci-check",
        "uci-check",
        lambda a: [
            *["uci-check", *opt(a, "--engine"), "--only", "limits.go-depth-1"],
            *["--config", "t", *opt(a, "--out-dir"), "--timeout-scale", "0.25"],
        ],
        (
            Slot("--engine", ENGINE_SLOT, "fake", not_applicable={h.HOSTILE_PATH: UCI_SH}),
            OUT,
        ),
        reports=out_dir_reports("uci-check-t.xml"),
        # A hang or a garbled answer fails its scenario (exit 1, docs/harnesses/uci-check.md).
        engine_status=S12,
        engine_timeout=30,
        long=lambda a: ["uci-check", "--engine", FAKE, "--config", "t", *opt(a, "--out-dir")],
        failing=Failing(args={"--engine": f"{FAKE} --defect illegal-move"}),
    ),
    Row(
        "replay",
        "replay",
        lambda a: [
            *["replay", a["BUNDLE"] or "", "--answer-ms", "1000"],
            *opt(a, "--engine", "--out-dir"),
        ],
        (
            Slot("BUNDLE", IN_DIR, "in/bundle", "bundle"),
            Slot(
                "--engine",
                ENGINE_SLOT,
                "fake",
                optional=True,
                not_applicable={h.HOSTILE_PATH: UCI_SH},
            ),
            OUT,
        ),
        reports=lambda a: [f"{a['--out-dir']}/junit/replay-b.xml"],
        # The bundle's failure (a crash) happens again: exit 1 (docs/reproducers.md); another
        # engine's stall or flood is not that failure: exit 0.
        normal=frozenset({1}),
        engine_status=S01,
        engine_timeout=30,
        no_long="replays two commands of a bundle: done in milliseconds",
        failing=Failing(),  # its normal status: the bundle's crash happens again
    ),
    Row(
        "sprt",
        "sprt",
        lambda _: ["sprt", "--wdl", "10,5,3"],
        no_long="computes from three counts: done in milliseconds",
        no_failing="statistics of given counts: no gate, no report",
    ),
    Row(
        "sprt-sim",
        "sprt-sim",
        lambda _: ["sprt-sim", "--runs", "1", "--max-pairs", "100"],
        long=lambda _: ["sprt-sim", "--runs", "1000000"],
        no_failing="exit 1 needs an SPRT whose error rates exceed their design",
    ),
    Row(
        "homogeneity-sim",
        "homogeneity-sim",
        lambda _: ["homogeneity-sim", "--merges", "2", "--permutations", "10"],
        # Two merges: the false-flag rate's interval is wide, never above alpha's: exit 0.
        long=lambda _: ["homogeneity-sim", "--merges", "1000000", "--permutations", "100000"],
        no_failing="exit 1 needs a test statistic that flags too often",
    ),
    Row(
        "match-merge",
        "match-merge",
        lambda a: ["match-merge", "mm", a["RESULT"] or "", *opt(a, "--out-dir"), "--quiet"],
        (Slot("RESULT", IN_FILE, "in/result.json", "result.json"), OUT),
        reports=out_dir_reports("match-mm.xml"),
        no_long="adds one small file: done in milliseconds",
        failing=Failing(
            spoil=_edit(
                "result.json",
                lambda t: t.replace('"min_elo_lower95": -100000', '"min_elo_lower95": 100000'),
            )
        ),
    ),
    Row(
        "review",
        "review",
        lambda a: ["review", *opt(a, "--reports", "--out", "--history-db", "--markdown")],
        (
            Slot("--reports", IN_DIR, "in/reports", "reports"),
            Slot("--out", OUT_FILE, "out/index.html"),
            Slot("--markdown", OUT_FILE, "out/summary.md"),
            Slot("--history-db", IN_FILE, "in/history.sqlite", "history.sqlite"),
        ),
        # "A missing or malformed JUnit/JSON file (or history database) is named on the page
        # with the reason and the command exits 1 (2: usage, or the page cannot be written)"
        # (docs/review.md); no history database at all is no history.
        overrides={
            **{
                f"{slot}/{c}": (S12, "an unreadable input is named on the page (exit 1) or refused")
                for slot in ("--reports", "--history-db")
                for c in (
                    EIO_READ,
                    h.FIFO,
                    h.DEV_ZERO,
                    h.DEV_URANDOM,
                    h.DIRECTORY,
                    *LINKS - {h.SYMLINK_OUTSIDE},
                )
            },
            "--history-db/dangling-symlink": (S0 | S12, "a missing history database: no history"),
        },
        no_long="reads a few small reports: done in milliseconds",
        failing=Failing(spoil=_first_junit_torn),
    ),
    Row(
        "history",
        "history",
        lambda a: ["history", *opt(a, "--db", "--append"), "--tier", "quick"],
        (
            Slot("--db", OUT_FILE, "out/history.sqlite"),
            Slot("--append", IN_DIR, "in/reports", "reports"),
        ),
        no_long="appends one row: done in milliseconds",
        no_failing=NO_GATE,
    ),
    Row(
        "history-csv",
        "history",
        lambda a: ["history", *opt(a, "--db"), "--csv"],
        (Slot("--db", IN_FILE, "in/history.sqlite", "history.sqlite"),),
        no_long="prints a few rows: done in milliseconds",
        no_failing="prints rows: no gate",
    ),
    Row(
        "match",
        "match",
        lambda a: [
            *["match", "--config", "m", *opt(a, "--out-dir"), "--gate", "non-regression"],
            *["--min-elo-lower95", "-100000", "--quiet", "--engine"],
            *[f"cmd={_engine_cmd(a, 'A')}", "name=a", "--engine", f"cmd={FAKE}", "name=b"],
            *["--nodes", "50", "--pairs", "1", "--seed", "3", "--timeout-ms", "1000"],
            *opt(a, "--state", "--pgn", "--openings"),
        ],
        (
            Slot("A", ENGINE_SLOT, "fake"),
            Slot("--state", OUT_FILE, "out/match/m-state.jsonl"),
            Slot("--pgn", OUT_FILE, "out/match/m.pgn", extra=(h.DEV_ZERO,)),
            Slot("--openings", IN_FILE, "in/openings.epd", "openings.epd", optional=True),
            OUT,
        ),
        reports=out_dir_reports("match-m.xml"),
        fresh=("match/m-state.jsonl", "match/m.pgn", "match/m-openings.epd"),
        locks=("out/match/m.lock", "out/match/m-state.jsonl.lock"),
        # A crash, a missed deadline or an illegal move loses the game and the engine is
        # restarted (docs/harnesses/match.md): the match ends normally.
        engine_status=S01,
        engine_timeout=30,
        long=lambda a: [
            *["match", "--config", "m", *opt(a, "--out-dir"), "--gate", "non-regression"],
            *["--min-elo-lower95", "-100000", "--quiet", "--engine", f"cmd={ENGINE}"],
            *["name=a", "--engine", f"cmd={ENGINE}", "name=b", "--nodes", "5000"],
            *["--pairs", "100", "--seed", "3", *opt(a, "--state", "--pgn")],
        ],
        sigterm_after=1.0,
        failing=Failing(
            argv=lambda a: [
                *(x if x != "-100000" else "100000" for x in ROW_BY_ID["match"].argv(a))
            ]
        ),
    ),
    Row(
        "compare",
        "compare",
        lambda a: [
            *["compare", *opt(a, "--base"), "--candidate", FAKE, *opt(a, "--epd")],
            *["--nodes", "100", "--depth", "0", "--speed-runs", "0", "--config", "c"],
            *opt(a, "--out-dir"),
        ],
        (
            Slot("--base", ENGINE_SLOT, "fake"),
            Slot("--epd", IN_FILE, "in/suite.epd", "suite.epd"),
            OUT,
        ),
        reports=out_dir_reports("compare-c.xml"),
        engine_status=S12,
        engine_slow=SIXTY,
        engine_timeout=90,
        long=lambda a: [
            *["compare", "--base", ENGINE, "--candidate", ENGINE, "--epd", ECM],
            *["--config", "c", *opt(a, "--out-dir")],
        ],
        sigterm_after=1.0,
        failing=Failing(
            argv=lambda a: [
                *["compare", *opt(a, "--base"), "--candidate", f"{FAKE} --defect illegal-move"],
                *[*opt(a, "--epd"), "--nodes", "100", "--depth", "0", "--speed-runs", "0"],
                *["--config", "c", "--max-regressions", "0", *opt(a, "--out-dir")],
            ]
        ),
    ),
    Row(
        "bench-diff",
        "bench-diff",
        lambda a: [
            *["bench-diff", ENGINE, ENGINE, "--depth", "3", "--config", "d"],
            *opt(a, "--out-dir"),
        ],
        (OUT,),
        reports=out_dir_reports("bench-diff-d.xml"),
        long=lambda a: [
            *["bench-diff", ENGINE, ENGINE, "--position", "2", "--config", "d"],
            *opt(a, "--out-dir"),
        ],
        sigterm_after=1.0,
        failing=Failing(
            spoil=_deeper_stk,
            argv=lambda a: [
                *["bench-diff", ENGINE, str(Path(a["--out-dir"] or "").parent / "in/deeper-stk")],
                *["--depth", "3", "--config", "d", *opt(a, "--out-dir")],
            ],
        ),
    ),
    Row(
        "all",
        "all",
        lambda a: ["all", "--only", "checknet-golden", *opt(a, "--out-dir")],
        (OUT,),
        # Its own report: each step's report is the step's (`all` runs the steps as commands).
        reports=out_dir_reports("all-quick.xml"),
        long=lambda a: ["all", "--only", "bench", "--only", "shadow", *opt(a, "--out-dir")],
        sigterm_after=1.0,
        failing=Failing(spoil=_golden_digest_off),
    ),
)
ROW_BY_ID = {r.id: r for r in ROWS}


# ---- cells ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    row: str
    target: str  # a slot name, "stdout", "run", or a special target
    condition: str
    slow: bool = False
    why_slow: str = ""
    na: str = ""  # why the condition does not apply to the row (the cell is skipped, saying so)

    @property
    def id(self) -> str:
        return f"{self.row}/{self.target}/{self.condition}"


def slot_cells(row: Row) -> list[Cell]:
    cells = []
    for s in row.slots:
        for cond in (*CONDITIONS[s.kind], *s.extra):
            engine = s.kind == ENGINE_SLOT and cond in HOSTILE_ENGINES
            slow = bool(engine and row.engine_slow)
            why_slow = row.engine_slow if slow else ""
            cells.append(Cell(row.id, s.name, cond, slow, why_slow, s.not_applicable.get(cond, "")))
    return cells


def run_cells(row: Row) -> list[Cell]:
    cells = [Cell(row.id, "stdout", c) for c in STDOUT_CONDITIONS]
    cells.append(Cell(row.id, "run", "sigterm", na=row.no_long))
    na = "" if writes_files(row) else "writes no file (stdout only)"
    cells += [Cell(row.id, "run", f"enospc-{op}-{at}", na=na) for op, at in ENOSPC_SAMPLES]
    return cells


def writes_files(row: Row) -> bool:
    return any(s.kind in (OUT_FILE, OUT_DIR) for s in row.slots)


def sigterm_points(ref: Reference) -> list[int]:
    """The counted calls before which a SIGTERM cell stops the row: all, or SIGTERM_POINTS of
    them evenly spaced (the first two and the last always among them)."""
    calls = ref.calls["any"]
    if calls <= SIGTERM_POINTS:
        return list(range(1, calls + 1))
    spaced = {1 + round(i * (calls - 1) / (SIGTERM_POINTS - 1)) for i in range(SIGTERM_POINTS)}
    return sorted(spaced | {1, 2, calls})


SPECIAL_CELLS = (
    Cell("match", "--pgn", "earlier-collection"),
    Cell("match", "lock", "m.lock-symlink"),
    Cell("match", "lock", "m-state.jsonl.lock-symlink"),
    Cell("match", "--state", "held-through-symlink"),
    Cell("datagen", "lock", "d.txt.lock-symlink"),
    Cell("datagen", "--out", "held-through-symlink"),
)


def all_cells() -> list[Cell]:
    cells = []
    for row in ROWS:
        cells += slot_cells(row) + run_cells(row)
    return cells + list(SPECIAL_CELLS)


@dataclass(frozen=True)
class Expectation:
    statuses: frozenset[int]
    why: str  # where it is written down
    quick: bool = False  # a refusal: it must cost next to no CPU (not read /dev/zero first)


QUICK_CPU = 1.0  # CPU seconds a refusal may take (load-independent: wait4's rusage)


def expected(row: Row, cell: Cell) -> Expectation:
    """What a cell must end with, and where that is written down."""
    key = f"{cell.target}/{cell.condition}"
    if key in row.overrides:
        statuses, why = row.overrides[key]
        return Expectation(statuses, why)
    if cell.target == "stdout":
        return Expectation(S2, "its output cannot be delivered: exit 2, never SIGPIPE")
    if cell.condition == "sigterm":
        return Expectation(S2, "stopped by SIGTERM: exit 2 with its <error> reports")
    if cell.condition.startswith("sigterm-"):
        return Expectation(
            S2 | row.normal,
            "stopped by SIGTERM at a write: exit 2 with its <error> reports, or the run's own "
            "status when it ended first; never a 0-byte, torn or temporary file",
        )
    if cell.condition.startswith("enospc"):
        return Expectation(S2, "a failed write ends the run with exit 2 (docs/faults.md)")
    if cell.condition in HOSTILE_ENGINES:
        return Expectation(row.engine_status, "the row's documented engine-fault status")
    if cell.condition == EIO_READ:
        return Expectation(S2, "an input that cannot be read: exit 2 naming it, never a short read")
    return _path_expectation(row, cell)


def _path_expectation(row: Row, cell: Cell) -> Expectation:
    slots = {s.name: s for s in row.slots}
    kind = slots[cell.target].kind if cell.target in slots else ""
    reader = kind in (IN_FILE, IN_DIR)
    c = cell.condition
    if c == h.READONLY_DIR and reader:
        return Expectation(row.normal, "a good input in a read-only folder reads as any other")
    if c in LINKS and kind == OUT_DIR:
        return Expectation(S2, "an out dir that is no folder is refused", quick=True)
    if c in REFUSED:
        return Expectation(S2, "refused by name (docs/faults.md, io/input_file.h)", quick=True)
    if c == h.SYMLINK_OUTSIDE and reader:
        return Expectation(row.normal, "a symlink to a good input reads as the input")
    if c in LINKS and reader:
        return Expectation(S2, "an input that cannot be opened: exit 2 naming it", quick=True)
    if c in LINKS:
        return Expectation(S2 | row.normal, "refused, or the link itself replaced (target kept)")
    if c == h.HOSTILE_PATH:
        return Expectation(row.normal, "a path is data: quotes, spaces, $(...), a leading '-'")
    if c == "earlier-collection":
        return Expectation(row.normal, "docs/harnesses/match.md: the PGN of every game, appended")
    if c.endswith("lock-symlink"):
        return Expectation(S2 | row.normal, "the lock taken over or refused; its target kept")
    if c == "held-through-symlink":
        return Expectation(S2, "docs/faults.md: a second run on one state is refused (exit 2)")
    raise AssertionError(f"no expectation for {cell.id}")


# ---- prepared inputs (once per session) ----------------------------------------------------------

PERFT_EPD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n"
MATE1 = 'r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id "mate1";\n'
MATE2 = '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "mate2";\n'
POSITIONS = (
    'rnbqkbnr/1ppppp1p/8/p7/5P1p/8/PPPPP1PP/RNBQKB1R w KQkq - id "g0-p6";\n'
    'rnbqkb1r/1ppppp1p/5n2/p7/4PP1p/2N5/PPPP2PP/R1BQKB1R b KQkq - id "g0-p9";\n'
)
CTEST_XML = """<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="Linux-c++" tests="1" failures="0" disabled="0" skipped="0" hostname="" time="0"
 timestamp="2024-01-01T00:00:00">
<testcase name="a" classname="a" time="0.1" status="run"/>
</testsuite>
"""


def _harness(argv: list[str], cwd: Path) -> None:
    proc = subprocess.run(
        [HARNESS, *argv], cwd=cwd, capture_output=True, text=True, timeout=120, env=base_env()
    )
    assert proc.returncode == 0, f"preparing inputs: {argv}: {proc.stdout}{proc.stderr}"


def match_argv(out: Path, seed: str) -> list[str]:
    return [
        *["match", "--config", "m", "--out-dir", str(out), "--gate", "non-regression"],
        *["--min-elo-lower95", "-100000", "--quiet", "--engine", f"cmd={FAKE}", "name=a"],
        *["--engine", f"cmd={FAKE}", "name=b", "--nodes", "50", "--pairs", "1", "--seed", seed],
    ]


def prepare_inputs(d: Path) -> None:
    """Every good input a row reads, in `d` (made once per session)."""
    (d / "perft.epd").write_text(PERFT_EPD)
    (d / "suite.epd").write_text(MATE1)
    (d / "suite2.epd").write_text(MATE1 + MATE2)
    (d / "positions.epd").write_text(POSITIONS)
    (d / "ctest.xml").write_text(CTEST_XML)
    (d / "bundle").mkdir()
    (d / "bundle/bundle.json").write_text(
        json.dumps(
            {
                "schema": "stk-repro/1",
                "id": "b",
                "engine": f"{FAKE} --defect crash-after-0",
                "symptom": {"kind": "crash", "detail": "killed by signal 6 (Aborted)"},
                "commands": ["uci", "isready", "position startpos", "go nodes 1"],
                "minimized": ["position startpos", "go nodes 1"],
            }
        )
    )
    (d / "bundle/commands.uci").write_text("uci\nisready\nposition startpos\ngo nodes 1\n")
    (d / "bundle/minimized.uci").write_text("position startpos\ngo nodes 1\n")
    shutil.copyfile(REPO / "engine/src/search/fhmodel_default.txt", d / "fhmodel.txt")
    work = d / "work"
    _harness(["makenet", "--hidden", "128", str(d / "net.nnue")], d)
    digest = hashlib.sha256((d / "net.nnue").read_bytes()).hexdigest()
    (d / "manifest.json").write_text(json.dumps({"net": "net.nnue", "net_sha256": digest}))
    _harness(
        [
            *["bench", "--golden", str(d / "bench.txt"), "--depth", "1", "--update-golden"],
            *["--config", "g", "--out-dir", str(work / "bench")],
        ],
        d,
    )
    epd = ["epd", "--epd", str(d / "suite.epd"), "--depth", "1", "--quiet"]
    _harness([*epd, "--config", "b", "--out-dir", str(work / "epd")], d)
    shutil.copyfile(work / "epd/epd/b.json", d / "baseline.json")
    shard = ["epd", "--epd", str(d / "suite2.epd"), "--depth", "1", "--quiet", "--config", "s"]
    for k in (1, 2):
        _harness([*shard, "--shard", f"{k}/2", "--out-dir", str(work / "shards")], d)
        shutil.copyfile(work / f"shards/epd/s-shard{k}.json", d / f"shard{k}.json")
    (work / "fh").mkdir(parents=True)
    _harness(
        [
            *["fhcollect", "--positions", str(d / "positions.epd"), "--depth", "4"],
            *["--full-depth", "1", "--out", str(work / "fh/r.fhr"), "--out-dir", str(work / "fh")],
        ],
        d,
    )
    shutil.copyfile(work / "fh/r.fhr", d / "records.fhr")
    _harness(match_argv(work / "match", "3"), d)
    shutil.copyfile(work / "match/match/m.json", d / "result.json")
    shutil.copyfile(work / "match/match/m-openings.epd", d / "openings.epd")
    shutil.copytree(work / "match", d / "reports")
    _harness(["history", "--db", str(d / "history.sqlite"), "--append", str(d / "reports")], d)
    _harness(match_argv(work / "earlier", "5"), d)
    shutil.copyfile(work / "earlier/match/m.pgn", d / "earlier.pgn")
    shutil.rmtree(work)


def base_env() -> dict[str, str]:
    env = dict(os.environ, STK_SHARED=str(SHARED))
    for k in ("LD_PRELOAD", "STK_FAULT_DIR", "STK_FAULT_N", "STK_FAULT_ACTION", "STK_PYTHON"):
        env.pop(k, None)
    return env


# ---- one cell ------------------------------------------------------------------------------------


@dataclass
class Reference:
    """A clean run of a row: its status, its output files (put back as the earlier outputs of
    every cell) and the number of calls the fault injector counted under the out dir."""

    status: int
    outputs: dict[str, bytes]
    calls: dict[str, int]  # per operation (write, fsync, any)


def layout(root: Path, inputs: Path, row: Row, skip: str = "") -> None:
    """The sandbox: in/ with the row's inputs (except slot `skip`'s), out/, cwd/ (with the
    repository's golden/ for `all`), outside/ (hostile.Sandbox)."""
    (root / "in").mkdir(parents=True)
    (root / "out").mkdir()
    (root / "cwd").mkdir()
    (root / "cwd/golden").symlink_to(REPO / "golden")
    for s in row.slots:
        if s.source and s.name != skip and not s.optional:
            dst = root / s.default
            src = inputs / s.source
            (shutil.copytree if src.is_dir() else shutil.copyfile)(src, dst)


def default_args(root: Path, row: Row) -> dict[str, str | None]:
    args: dict[str, str | None] = {}
    for s in row.slots:
        if s.optional:
            args[s.name] = None
        elif s.kind == ENGINE_SLOT:
            args[s.name] = {"fake": FAKE, "stk": ENGINE, "inprocess": "inprocess"}[s.default]
        else:
            args[s.name] = str(root / s.default)
    return args


def fault_env(root: Path, n: int, op: str = "any") -> dict[str, str]:
    return {
        "LD_PRELOAD": FAULT_LIB,
        "STK_FAULT_DIR": str(root / "out"),
        "STK_FAULT_OP": op,
        "STK_FAULT_N": str(n),
        "STK_FAULT_ERRNO": "ENOSPC",
        "STK_FAULT_REPORT": str(root / "fault-report.txt"),
    }


def read_fault_report(root: Path) -> tuple[int, int]:
    p = root / "fault-report.txt"
    if not p.exists():
        return 0, 0
    fields = dict(kv.split("=") for kv in p.read_text().split())
    p.unlink()
    return int(fields.get("calls", 0)), int(fields.get("failed", 0))


def reference_run(row: Row, inputs: Path, root: Path) -> Reference:
    """A clean run (its outputs kept), then one more per operation the ENOSPC cells fail and the
    SIGTERM cells stop before ("any": every counted call), in a
    fresh sandbox each, counting the calls under the out dir."""
    calls = {}
    for i, op in enumerate(("write", "fsync", "any")):
        r = root / str(i)
        layout(r, inputs, row)
        env = {**base_env(), **row.env, **fault_env(r, 0, op)}
        args = default_args(r, row)
        # The clean run under umask 007, not the usual 022: an output whose mode is a literal
        # (0644) or the temporary file's (0600) differs from 0666 less the umask (0660).
        with h.umask(0o007 if i == 0 else h.current_umask()):
            out = h.run_bounded([HARNESS, *row.argv(args)], cwd=r / "cwd", env=env, timeout=60)
            wrong = h.wrong_modes(p for p in h.walk_files(r / "out") if not p.is_symlink())
        calls[op], _ = read_fault_report(r)
        assert out.returncode in row.normal, (
            f"{row.id}: reference run {out.summary()}\n{out.tail()}"
        )
        # The out dir starts empty: every report in it is this run's.
        broken = report_contract.violations(out.returncode, [Path(p) for p in row.reports(args)])
        assert not broken, f"{row.id}: report contract: {broken}\n{out.tail()}"
        assert not wrong, f"{row.id}: outputs not as a plain open leaves them: {wrong}"
    files = {
        str(p.relative_to(root / "0/out")): p.read_bytes()
        for p in h.walk_files(root / "0/out")
        if p.is_file() and not p.is_symlink() and not p.name.endswith(".lock")
    }
    return Reference(out.returncode or 0, files, calls)


def enospc_call(ref: Reference, cond: str) -> tuple[str, int]:
    """The operation and the index of the counted call an ENOSPC cell fails or a SIGTERM cell
    stops before ("enospc-write-middle", "sigterm-any-7")."""
    _, op, at = cond.split("-")
    calls = ref.calls[op]
    if at.isdigit():
        return op, int(at)
    return op, {"first": 1, "middle": (calls + 1) // 2, "last": calls}[at]


class CellRun:
    """Builds one cell's sandbox, runs it, and returns the contract's violations."""

    def __init__(self, cell: Cell, ref: Reference, inputs: Path, root: Path, xsd: Path):
        self.cell, self.ref, self.inputs, self.root, self.xsd = cell, ref, inputs, root, xsd
        self.row = ROW_BY_ID[cell.row]
        hostile_out = root / "cwd" / h.HOSTILE_NAME / "out"
        self.sandbox = h.Sandbox(root, outputs=[root / "out", hostile_out])
        self.expect = expected(self.row, cell)
        self.notes: list[str] = []
        self.argv: list[str] | None = None  # set by a special cell
        self.fault_dir = root / "eio"  # an EIO_READ cell's input folder

    def run(self) -> tuple[h.Outcome, list[str]]:
        with contextlib.ExitStack() as stack:
            slot = self.cell.target if self.cell.target in self.args_slots() else ""
            layout(self.root, self.inputs, self.row, skip=slot)
            args = default_args(self.root, self.row)
            out_dir = self.apply(args, stack)
            self.put_back_earlier(out_dir)
            special = self.special_setup(args)
            self.sandbox.declared = [Path(p) for p in self.row.reports(args)]
            self.sandbox.empty_ok = EMPTY_OK
            self.sandbox.freeze()
            outcome = self.execute(args, special)
            v = self.special_checks(outcome)  # first: waits for a holder run to end
            v = self.sandbox.violations(outcome, set(self.expect.statuses), self.xsd) + v
            v += self.naming_violations(outcome, args.get(slot) if slot else None)
            if outcome.ended_before_sigterm:
                v.append("the long run ended before SIGTERM was sent: lengthen Row.long")
            if self.expect.quick and outcome.cpu > QUICK_CPU * h.TIME_SCALE:
                v.append(f"took {outcome.cpu:.1f} s of CPU to refuse (read without bound?)")
            if (REPO / h.PWNED).exists():
                v.append(f"{REPO / h.PWNED}: a path was run by a shell")
            return outcome, v

    def naming_violations(self, outcome: h.Outcome, given: str | None) -> list[str]:
        """A refused file or folder is named: exit 2 on a hostile object at a path says which path
        (as given, or absolute), so an emptied or generic message fails here (its last component
        alone is not enough: "reports" is in "no reports to review")."""
        slot = self.row.slot(self.cell.target) if given else None
        if (
            slot is None
            or slot.kind == ENGINE_SLOT
            or self.cell.condition not in NAMED_WHEN_REFUSED
            or outcome.returncode != 2
        ):
            return []
        text = (outcome.stdout + outcome.stderr).decode("utf-8", "replace")
        named = [given, os.path.abspath(given)]
        if self.cell.condition == h.READONLY_DIR:  # the folder refused: a file in it names it
            named += [os.path.dirname(p) + "/" for p in named]
        if not any(n in text for n in named):
            return [f"exit 2 on {self.cell.condition} at {given} without naming it"]
        # docs/reports.md#exit-status-and-report-files: the refusal is the command's own line.
        prefix = f"stk-harness {self.row.command}: "
        if not any(
            line.startswith(prefix) and any(n in line for n in named) for line in text.splitlines()
        ):
            return [f"exit 2 on {self.cell.condition} at {given}: no line '{prefix}...' names it"]
        if self.cell.condition == EIO_READ and not re.search(r"Input/output error|I/O error", text):
            return [f"exit 2 on {EIO_READ} at {given} without the reason (a short read?)"]
        return []

    def args_slots(self) -> set[str]:
        return {s.name for s in self.row.slots}

    # -- conditions --

    def apply(self, args: dict[str, str | None], stack: contextlib.ExitStack) -> Path:
        """Puts the cell's condition in place; returns the folder where earlier outputs go."""
        out_dir = self.root / "out"
        c = self.cell
        if c.target not in self.args_slots() or c.condition == "held-through-symlink":
            return out_dir
        s = self.row.slot(c.target)
        if s.kind == ENGINE_SLOT:
            engine = self.engine(s, c.condition)
            hostile = c.condition == h.HOSTILE_PATH
            args[s.name] = h.relative_to_cwd(engine, self.sandbox) if hostile else str(engine)
            return out_dir
        path = self.root / (s.default if s.kind != OUT_DIR else "cond-out")
        if c.condition == "earlier-collection":
            self.sandbox.add_earlier(path, (self.inputs / "earlier.pgn").read_bytes())
            args[s.name] = str(path)
            return out_dir
        if s.kind == OUT_DIR:
            if c.condition == h.HOSTILE_PATH:
                out_dir = h.hostile_twin(self.root / "out", self.sandbox)
                out_dir.mkdir(parents=True)
                args[s.name] = h.relative_to_cwd(out_dir, self.sandbox)
                return out_dir
            if c.condition == h.READONLY_DIR:
                stack.enter_context(h.readonly_dir(path))
                args[s.name] = str(path)
                return out_dir
        valid = self.inputs / s.source if s.source else None
        if c.condition == EIO_READ:  # the input alone in the folder whose reads fail
            assert valid is not None, f"{self.row.id} {s.name}: an input slot needs its source"
            target = self.root / "eio" / path.name
            target.parent.mkdir()
            (shutil.copytree if valid.is_dir() else shutil.copyfile)(valid, target)
            self.fault_dir, args[s.name] = target.parent, str(target)
            return out_dir
        target = h.apply_path_condition(c.condition, path, self.sandbox, valid, stack)
        if s.kind == OUT_FILE and c.condition in REFUSED:
            self.sandbox.preserve(target)  # left as it is: never replaced, never written into
        args[s.name] = str(target)
        if c.condition == h.HOSTILE_PATH and s.name.startswith("--"):
            args[s.name] = h.relative_to_cwd(target, self.sandbox)  # '-it's a $(touch ...'
        return out_dir

    def engine(self, s: Slot, cond: str) -> Path:
        if cond in HOSTILE_ENGINES:
            return h.make_hostile_engine(self.root / "engines", cond)
        real = Path({"fake": FAKE, "stk": ENGINE, "inprocess": FAKE}[s.default])
        link = h.hostile_twin(self.root / "engines" / real.name, self.sandbox)
        return h.make_symlink(link, real)

    def put_back_earlier(self, out_dir: Path) -> None:
        """The reference run's outputs as earlier outputs (minus journals that would resume), and
        one file no run of the row writes."""
        fresh = self.row.fresh
        for rel, data in self.ref.outputs.items():
            if any(Path(rel).match(g) for g in fresh):
                continue
            with contextlib.suppress(OSError):
                p = out_dir / rel
                if not p.exists() and not p.is_symlink():
                    self.sandbox.add_earlier(p, data)
        with contextlib.suppress(OSError):
            self.sandbox.add_keep(out_dir / "keep/earlier.txt", b"an earlier file of the user\n")

    # -- running --

    def execute(self, args: dict[str, str | None], special: Callable[[], None] | None) -> h.Outcome:
        c, row = self.cell, self.row
        env = {**base_env(), **row.env}
        argv = self.argv or row.argv(args)
        stdout = h.STDOUT_PIPE
        terminate = None
        timeout = row.timeout
        if c.condition in HOSTILE_ENGINES or c.condition == "held-through-symlink":
            timeout = row.engine_timeout
        if c.target == "stdout":
            stdout = c.condition
        elif c.condition == "sigterm":
            assert row.long is not None
            argv, stdout = row.long(args), row.long_stdout
            when = self.root / row.sigterm_when if row.sigterm_when else None
            terminate = h.Terminate(after=row.sigterm_after, when=when)
            timeout = 60.0
        elif self.expect.quick and self.argv is None and self.long_takes_target(args):
            # A refusal comes before the run's work: the long invocation, refused late, would
            # spend seconds of CPU (QUICK_CPU) where the smallest one might slip under it.
            argv = row.long(args)  # type: ignore[misc]
            self.notes.append("the long invocation (Row.long): a refusal comes before the work")
        elif c.condition.startswith("enospc"):
            op, n = enospc_call(self.ref, c.condition)
            env.update(fault_env(self.root, n, op))
            self.notes.append(f"the injector fails {op} call {n} of {self.ref.calls[op]} (ENOSPC)")
        elif c.condition == EIO_READ:
            env.update(fault_env(self.root, 1, "read"))
            env.update(
                STK_FAULT_DIR=str(self.fault_dir), STK_FAULT_STICKY="1", STK_FAULT_ERRNO="EIO"
            )
            self.notes.append("the injector fails every read(2) of the input with EIO")
        elif c.condition.startswith("sigterm-"):
            op, n = enospc_call(self.ref, c.condition)
            env.update(fault_env(self.root, n, op))
            env.update(STK_FAULT_ACTION="sigterm", STK_FAULT_PAUSE_MS=SIGTERM_PAUSE_MS)
            calls = self.ref.calls[op]
            self.notes.append(f"the injector sends SIGTERM before counted call {n} of {calls}")
        if special is not None:
            special()
        out = h.run_bounded(
            [HARNESS, *argv],
            cwd=self.root / "cwd",
            env=env,
            timeout=timeout,
            stdout=stdout,
            terminate=terminate,
        )
        if c.condition == EIO_READ:
            _, failed = read_fault_report(self.root)
            if not failed:  # else the cell proves nothing: the run never read its input
                self.expect = Expectation(frozenset(), "the injected read failure must fire")
                self.notes.append("the fault did not fire: the input was not read by read(2)")
        if c.condition.startswith(("enospc", "sigterm-")):
            _, failed = read_fault_report(self.root)
            if not failed:
                self.expect = Expectation(row.normal, "the fault did not fire")
                self.notes.append("the fault did not fire: the row's normal status expected")
        return out

    def long_takes_target(self, args: dict[str, str | None]) -> bool:
        """Whether the row's long invocation passes the cell's path as the smallest one does."""
        given = args.get(self.cell.target)
        if self.row.long is None or not given:
            return False
        short, long = self.row.argv(args), self.row.long(args)
        pairs = lambda argv: set(zip(argv, argv[1:]))  # noqa: E731
        return (self.cell.target, given) in pairs(short) & pairs(long)

    # -- the special cells --

    def special_setup(self, args: dict[str, str | None]) -> Callable[[], None] | None:
        c = self.cell
        if c.condition.endswith("lock-symlink"):
            lock = next(
                p for p in self.row.locks if Path(p).name == c.condition[: -len("-symlink")]
            )
            target = self.sandbox.outside / "lock-target.txt"
            target.write_bytes(h.SENTINEL)
            h.make_symlink(self.root / lock, target)
            return None
        if c.condition == "held-through-symlink":
            return self.start_holder(args)
        return None

    def start_holder(self, args: dict[str, str | None]) -> Callable[[], None]:
        """Another run holding the journal, started just before this cell's run; this run reaches
        the same journal through a symlink, from another out dir (so that only that lock meets),
        with the same definition (so that nothing but the lock can refuse it)."""
        slot = self.cell.target
        real = Path(args[slot] or "")
        if self.row.id == "datagen":
            argv = with_option(self.row.argv(args), "--games", "1500")
            linked = [real, real.with_name(real.name + ".journal")]  # the data and its journal
        else:  # match: engine A stalls at every go (4 games lost on time: 6 s), own PGN each
            argv = self.row.argv({**args, "A": f"{FAKE} --defect hang-after-0"})
            argv = with_option(with_option(argv, "--timeout-ms", "1500"), "--pairs", "2")
            second_pgn = str(self.root / "out/second/m.pgn")
            linked = [real]
        link = self.root / "out" / f"link-{real.name}"
        for target in linked:
            (self.root / "out" / f"link-{target.name}").symlink_to(target)
        second = self.root / "out/second"
        self.argv = with_option(with_option(argv, slot, str(link)), "--out-dir", str(second))
        if self.row.id == "match":
            self.argv = with_option(self.argv, "--pgn", second_pgn)
        args[slot], args["--out-dir"] = str(link), str(second)
        lock = real.with_name(real.name + ".lock")

        def start() -> None:
            self.holder = subprocess.Popen(
                [HARNESS, *argv],
                cwd=self.root / "cwd",
                env=base_env(),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )
            # Held: its lock file exists, or (should locks move) its journal has a line.
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not (
                lock.exists() or (real.exists() and real.stat().st_size > 0)
            ):
                time.sleep(0.01)
            time.sleep(0.2)

        return start

    def special_checks(self, outcome: h.Outcome) -> list[str]:
        c, v = self.cell, []
        if c.condition == "earlier-collection":
            pgn = Path(self.root / self.row.slot("--pgn").default)
            earlier = (self.inputs / "earlier.pgn").read_bytes()
            now = pgn.read_bytes() if pgn.exists() else b""
            if not now.startswith(earlier):
                v.append(f"{pgn}: the earlier games of the collection were not kept")
            elif now.count(b"[Event ") != earlier.count(b"[Event ") + 2:
                v.append(f"{pgn}: the run's 2 games were not appended after the earlier ones")
        if c.condition == "held-through-symlink":
            holder = self.holder
            try:
                holder.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(holder.pid, 9)
                holder.wait()
                v.append("the holder run hung")
            if holder.returncode not in self.row.normal:
                err = holder.stderr.read().decode(errors="replace") if holder.stderr else ""
                v.append(f"the holder run ended with {holder.returncode}: {err[-300:]}")
            if b"held by another run" not in outcome.stderr:
                v.append("the second run did not say the journal is held by another run")
        return v


def with_option(argv: list[str], name: str, value: str) -> list[str]:
    """argv with option `name` set to `value` (replaced where it is given)."""
    if name not in argv:
        return [*argv, name, value]
    i = argv.index(name)
    return [*argv[: i + 1], value, *argv[i + 2 :]]
