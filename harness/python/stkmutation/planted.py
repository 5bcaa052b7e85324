#!/usr/bin/env python3
"""Planted-defect detection: applies each patch of ci/mutants/MANIFEST to a scratch clone of the
committed HEAD, builds it, runs every check listed for it and requires each check to FAIL.

A defect "survives" when one of its checks passes on it: that check cannot be trusted, and the run
exits 1. A patch that does not apply or does not build is a setup error (exit 2): a planted defect
must be a program the checks can run. First every check runs once on HEAD without a defect (the
null control): one that fails there cannot tell, and its defects are setup errors; its time sets
its limit on a defect (3x + 60 s), so a slow check is not mistaken for a hang.

Parallel jobs each keep one scratch clone with its own build directory; between defects the clone is
reset to HEAD, so only the files a patch touched are rebuilt (ccache, when installed, makes the
rebuild of the restored files a cache hit). `--shard K/N` takes every N-th patch, for CI matrices.

Writes reports/mutants/<config>.{md,json} and reports/junit/mutants-<config>.xml in the format
ci/mutation.sh shares (stkmutation.report). `--merge A.json B.json ...` writes one report from
earlier runs' JSON (the shards of a CI matrix), running nothing.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from stkmutation import report as mutants_report  # the report format ci/mutation.sh shares
from stkref import inputs, options
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.junit import junit_in
from stkref.outputs import Output

ROOT = Path(__file__).resolve().parents[3]  # harness/python/stkmutation/ -> the repository

# The layer a defect lives in, from its patch name's prefix (the first word before '-').
LAYERS = {
    "movegen": "movegen",
    "fen": "FEN",
    "position": "FEN",
    "gamestate": "FEN",
    "zobrist": "Zobrist",
    "see": "SEE",
    "search": "search",
    "tt": "TT",
    "uci": "UCI",
    "time": "UCI",
    "invariance": "UCI",
    "ponder": "UCI",
    "latency": "UCI",
    "eval": "classical eval",
    "classical": "classical eval",
    "nnue": "NNUE",
    "junit": "JUnit",
    "report": "JUnit",
    "epd": "EPD",
    "fhmodel": "calibration",
    "fhcollect": "calibration",
    "calibration": "calibration",
    "shadow": "shadow",
    "stkref": "stkref",
    "perft": "perft",
    "bench": "bench",
    "stats": "statistics",
    "match": "match",
    "sprt": "statistics",
    "harness": "harness",
    "checknet": "NNUE",
    "mate": "search",
    "pv": "search",
    "elo": "statistics",
    "pentanomial": "statistics",
    "golden": "NNUE",
    "catch": "harness",
    "drift": "stkref",
    # two-word prefixes win over one-word ones
    "gamestate-zobrist": "Zobrist",
    "nnue-features": "NNUE features",
    "nnue-relu": "NNUE kernels",
    "nnue-loader": "NNUE loader",
    "nnue-skip": "NNUE accumulator",
}


def layer_of(patch: str) -> str:
    words = patch.removesuffix(".patch").split("-")
    return LAYERS.get("-".join(words[:2]), LAYERS.get(words[0], words[0]))


@dataclass
class CheckResult:
    command: str
    exit_code: int
    seconds: float
    caught: bool
    timed_out: bool = False
    log: str = ""


@dataclass
class Mutant:
    patch: str
    checks: list[str]
    layer: str = ""
    results: list[CheckResult] = field(default_factory=list)
    build_seconds: float = 0.0
    error: str = ""

    @property
    def survived(self) -> bool:
        return not self.error and any(not r.caught for r in self.results)


def hollow_catch2_filter(check: str) -> str:
    """A Catch2 test name given to stk-tests (or stk-engine-tests) with an unescaped ',' is two
    filters matching no test:
    the check runs nothing and exits 0, so the defect could never be caught. '' when fine."""
    if "tests" not in check:
        return ""
    for name in re.findall(r'stk-(?:engine-)?tests\s+"([^"]*)"', check):
        if re.search(r"(?<!\\),", name):
            return (
                f"stk-tests filter {name!r} has an unescaped ',' (Catch2 splits there and runs no"
                " test): write '\\,'"
            )
    return ""


def read_manifest(path: Path) -> list[Mutant]:
    """Lines '<patch> | <check that must fail>'; several lines per patch list several checks."""
    by_patch: dict[str, Mutant] = {}
    for lineno, raw in enumerate(inputs.read_input_text(path).splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if "|" not in line:
            raise SystemExit(f"{path}:{lineno}: expected '<patch> | <check>', got {raw!r}")
        patch, check = (s.strip() for s in line.split("|", 1))
        if not patch.endswith(".patch") or not check:
            raise SystemExit(f"{path}:{lineno}: expected '<name>.patch | <check>', got {raw!r}")
        if not (path.parent / patch).is_file():
            raise SystemExit(f"{path}:{lineno}: no such patch: ci/mutants/{patch}")
        if why := hollow_catch2_filter(check):
            raise SystemExit(f"{path}:{lineno}: {why}")
        m = by_patch.setdefault(patch, Mutant(patch, [], layer_of(patch)))
        m.checks.append(check)
    return list(by_patch.values())


def run(cmd: list[str], cwd: Path, env=None, timeout=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        cmd,
        cwd=cwd,
        env=env,
        timeout=timeout,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        errors="replace",
    )


# The historical fixed report folder of the checks; each job's own folder replaces it, through
# the environment ($MUTANT_OUT), never pasted into the command line.
FIXED_REPORTS = "/tmp/stk-mutant-reports"


def check_argv(check: str) -> list[str]:
    """A MANIFEST check is a shell command line committed in the repository (like a CI script);
    it runs as `bash -c CHECK` from an argument list, its report folder "$MUTANT_OUT"."""
    return ["bash", "-c", check.replace(FIXED_REPORTS, '"$MUTANT_OUT"'), "check"]


class Job:
    """One scratch clone of HEAD with its own build directory, reused across defects."""

    def __init__(self, index: int, work: Path, head: str, build_jobs: int, env: dict):
        self.env = env
        self.tree = work / f"job{index}"
        self.out = work / f"job{index}-reports"
        self.head = head
        self.build_jobs = build_jobs
        self.configured = False
        self.at_head = False  # built at HEAD without a defect (for the null control)

    def prepare(self) -> None:
        if not self.tree.exists():
            r = run(
                ["git", "clone", "-q", "--shared", "--no-checkout", str(ROOT), str(self.tree)], ROOT
            )
            if r.returncode:
                raise RuntimeError(f"git clone failed: {r.stdout}")
        # Back to HEAD; build/ is kept, so only what a patch touched is rebuilt.
        for cmd in (
            ["git", "checkout", "-q", "-f", self.head],
            ["git", "clean", "-fdxq", "-e", "build/"],
        ):
            r = run(cmd, self.tree)
            if r.returncode:
                raise RuntimeError(f"{' '.join(cmd)} failed: {r.stdout}")

    def build(self, targets: list[str] | None) -> str:
        if not self.configured:
            r = run(["cmake", "--preset", "release"], self.tree, env=self.env)
            if r.returncode:
                return "configure failed:\n" + r.stdout[-3000:]
            self.configured = True
        cmd = ["cmake", "--build", "--preset", "release", "-j", str(self.build_jobs)]
        if targets:
            cmd += ["--target", *targets]
        r = run(cmd, self.tree, env=self.env)
        return "" if r.returncode == 0 else "build failed:\n" + r.stdout[-3000:]

    def run_check(self, check: str, timeout: float, env: dict) -> CheckResult:
        """One check in this clone as it stands; caught = a nonzero exit or a run past timeout."""
        shutil.rmtree(self.out, ignore_errors=True)
        self.out.mkdir(parents=True)
        job_env = dict(
            env, MUTANT_OUT=str(self.out), PYTHONPATH=str(self.tree / "harness" / "python")
        )
        c0 = time.monotonic()
        # The historical fixed report directory is this job's own, so parallel jobs never share one.
        try:
            p = run(check_argv(check), self.tree, env=job_env, timeout=timeout)
            return CheckResult(
                check, p.returncode, time.monotonic() - c0, p.returncode != 0, log=p.stdout[-4000:]
            )
        except subprocess.TimeoutExpired as e:
            out = (
                e.stdout
                if isinstance(e.stdout, str)
                else (e.stdout or b"").decode(errors="replace")
            )
            return CheckResult(check, -1, time.monotonic() - c0, True, True, out[-4000:])

    def control(self, check: str, timeout: float, env: dict) -> CheckResult:
        """The null control of one check: run on unmutated HEAD, where it must pass. A check that
        fails or hangs there would "catch" every defect; its time sets its limit on a defect."""
        if not self.at_head:
            self.prepare()
            if err := self.build(None):
                raise RuntimeError(f"HEAD does not build: {err}")
            self.at_head = True
        return self.run_check(check, timeout, env)

    def check(
        self, m: Mutant, timeout: float, env: dict, limits: dict[str, float] | None = None
    ) -> None:
        t0 = time.monotonic()
        self.at_head = False
        self.prepare()
        r = run(
            ["git", "apply", "--whitespace=nowarn", str(ROOT / "ci" / "mutants" / m.patch)],
            self.tree,
        )
        if r.returncode:
            m.error = "does not apply to HEAD: " + r.stdout.strip()
            return
        m.error = self.build(targets_for(m.checks))
        m.build_seconds = time.monotonic() - t0
        if m.error:
            return
        for check in m.checks:
            m.results.append(self.run_check(check, (limits or {}).get(check, timeout), env))


def control_failure(m: Mutant, control: dict[str, CheckResult]) -> str:
    """Why a defect cannot be judged: one of its checks fails or hangs without it ("" if none)."""
    for check in m.checks:
        r = control.get(check)
        if r is not None and r.caught:
            what = "runs past its time limit" if r.timed_out else f"fails (exit {r.exit_code})"
            first = (r.log.strip().splitlines() or [""])[-1][:200]
            return f"null control: the check {what} on HEAD without the defect: {check}\n{first}"
    return ""


def limits_from(control: dict[str, CheckResult], timeout: float) -> dict[str, float]:
    """A check's time limit on a defect: 3x its time without one + 60 s (its build, a loaded
    machine), at most --timeout. So a check that is merely slow is not counted as a hang."""
    return {c: min(timeout, 3 * r.seconds + 60) for c, r in control.items() if not r.caught}


def targets_for(checks: list[str]) -> list[str] | None:
    """The build targets the checks run (relinking only those is most of a defect's build time);
    None (everything) for a check that runs CTest, whose tests may need any target."""
    if any(re.search(r"(^|[|&;] *)(ctest|cmake) ", c) for c in checks):
        return None
    targets = ["stk", "stk-harness"]  # every harness check runs the engine through the harness
    if any("stk-tests" in c for c in checks):
        targets += ["stk-tests", "stk-fake-uci"]  # the uci-check tests drive the fake engine
    if any("stk-engine-tests" in c for c in checks):
        targets.append("stk-engine-tests")
    if any("pytest" in c for c in checks):  # the fault matrix drives both, whatever it selects
        targets += [t for t in ("stk-fake-uci", "stk-fault-inject") if t not in targets]
    return targets


def short(check: str) -> str:
    """The check without the build path noise, for the table."""
    s = check.replace("./build/release/harness/", "").replace("./build/release/engine/", "")
    s = re.sub(r"\s+--out-dir\s+\S+", "", s)
    return s if len(s) <= 110 else s[:107] + "..."


def to_record(m: Mutant) -> dict:
    """A planted defect as a record of the report format ci/mutation.sh shares (mutants_report)."""
    patch = ROOT / "ci" / "mutants" / m.patch
    caught = [r for r in m.results if r.caught]
    if m.error:
        outcome, message = "error", m.error
    elif m.survived:
        passed = [r.command for r in m.results if not r.caught]
        outcome, message = "survived", f"{len(passed)} check(s) passed on the planted defect"
    else:
        outcome, message = (
            ("timeout" if caught and all(r.timed_out for r in caught) else "killed"),
            "",
        )
    return {
        "id": m.patch,
        "file": f"ci/mutants/{m.patch}",
        "line": None,
        "module": m.layer,
        "operator": "planted",
        "outcome": outcome,
        "triaged": "",
        "message": message,
        "tests": [r.command for r in m.results] or m.checks,
        "seconds": round(m.build_seconds + sum(r.seconds for r in m.results), 1),
        "build_seconds": round(m.build_seconds, 1),
        "diff": inputs.read_input_text(patch, errors="replace") if patch.is_file() else "",
        "checks": [
            {
                "command": r.command,
                "exit_code": r.exit_code,
                "caught": r.caught,
                "timed_out": r.timed_out,
                "seconds": round(r.seconds, 1),
            }
            for r in m.results
        ],
    }


class BadReportError(Exception):
    """A --merge input that is not a check-mutants report (exit 2, naming the file)."""


def records_from_report(path: Path) -> list[dict]:
    """The records of an earlier run's JSON (a shard, say), in this format or the one before it
    (reports/mutants/detection-<config>.json: patch, layer, error, survived, checks)."""
    try:
        doc = json.loads(inputs.read_input_text(path))
        out = []
        for e in doc["mutants"]:
            if "outcome" in e:
                out.append(e)
                continue
            m = Mutant(
                e["patch"],
                [c["command"] for c in e["checks"]],
                e["layer"],
                [
                    CheckResult(
                        c["command"],
                        c["exit_code"],
                        c["seconds"],
                        c["caught"],
                        c.get("timed_out", False),
                    )
                    for c in e["checks"]
                ],
                e.get("build_seconds", 0.0),
                e.get("error", ""),
            )
            out.append(to_record(m))
        return out
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise BadReportError(f"{path}: not a check-mutants report ({type(e).__name__}: {e})") from e


def detection_table(records: list[dict]) -> list[str]:
    """Per planted defect, each check that must fail and what it did."""
    lines = [
        "## Checks",
        "",
        "| planted defect | layer | check that must fail | result | exit | s |",
        "|---|---|---|---|---|---|",
    ]
    for r in records:
        name = f"`{r['id']}`"
        if r["outcome"] == "error":
            lines.append(
                f"| {name} | {r['module']} | - | **SETUP ERROR**: "
                f"{r['message'].splitlines()[0][:120]} | | |"
            )
            continue
        for i, c in enumerate(r["checks"]):
            verdict = (
                "caught (hang)" if c["timed_out"] else "caught" if c["caught"] else "**SURVIVED**"
            )
            lines.append(
                f"| {name if i == 0 else ''} | {r['module'] if i == 0 else ''} "
                f"| `{short(c['command'])}` |"
                f" {verdict} | {c['exit_code']} | {c['seconds']:.0f} |"
            )
    return lines


def write_reports(records: list[dict], config: str, out_dir: Path, meta: dict) -> str:
    """reports/mutants/<config>.{md,json} and reports/junit/mutants-<config>.xml."""
    valid = [r for r in records if r["outcome"] != "error"]
    runs = (
        f"of checks in {len(meta['merged'])} merged runs"
        if meta.get("merged")
        else f"with {meta['jobs']} job(s)"
    )
    caught = sum(r["outcome"] in ("killed", "timeout") for r in valid)
    headline = (
        f"{caught} of {len(valid)} planted defects caught by every listed check"
        f" ({len(records) - len(valid)} setup errors);"
        f" {sum(len(r['tests']) for r in records)} checks;"
        f" {meta['seconds'] / 60:.1f} min"
        f" {runs};"
        f" HEAD {meta['head'][:10]}."
    )
    md, _ = mutants_report.write_reports(
        "mutants",
        config,
        out_dir,
        records,
        meta,
        f"Planted-defect detection ({config})",
        headline,
        detection_table(records),
    )
    return md


def merge_reports(paths: list[Path], config: str, out_dir: Path) -> int:
    records, seen = [], set()
    for p in paths:
        for r in records_from_report(p):
            if r["id"] in seen:
                raise BadReportError(f"{p}: {r['id']} is in two of the merged reports")
            seen.add(r["id"])
            records.append(r)
    heads = sorted({json.loads(inputs.read_input_text(p)).get("head") or "" for p in paths} - {""})
    meta = {
        "head": ",".join(heads) or "unknown",
        "merged": [str(p) for p in paths],
        "jobs": 0,
        "seconds": round(sum(r["seconds"] for r in records), 1),
    }
    print(write_reports(records, config, out_dir, meta))
    if any(r["outcome"] == "error" for r in records):
        return 2
    return 1 if any(r["outcome"] in mutants_report.SURVIVED for r in records) else 0


MAX_PATTERN_NAME = 80


def pattern_name(pattern: str) -> str:
    """A report name from a PATTERN: its characters outside [A-Za-z0-9_.-] as '_'; a long one cut
    to its first 60 and the first 12 hex digits of its SHA-256, so that the report's file names
    (mutants-<name>.xml and its temporary) stay far below a file system's 255 bytes."""
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", pattern)
    if len(name) <= MAX_PATTERN_NAME:
        return name
    return f"{name[:60]}-{hashlib.sha256(pattern.encode()).hexdigest()[:12]}"


def config_of(a: argparse.Namespace) -> str:
    """The report name: --config, else from the pattern (and the shard)."""
    if a.merge:
        return a.config or "merged"
    config = a.config or ("all" if not a.pattern else pattern_name(a.pattern))
    k, n = shard_of(a.shard)
    return config + (f"-shard{k}of{n}" if n > 1 else "")


def shard_of(text: str) -> tuple[int, int]:
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        k = n = 0
    if not 1 <= k <= n:
        raise InputError(f"--shard must be K/N with 1 <= K <= N, got {text!r}")
    return k, n


def report_paths(a: argparse.Namespace) -> list[tuple[Path, str]]:
    return [] if a.list else [junit_in(a.out_dir, "mutants", config_of(a))]


def output_paths(a: argparse.Namespace) -> list[Output]:
    return [] if a.list else mutants_report.outputs_of("mutants", config_of(a), a.out_dir)


def main(argv: list[str] | None = None) -> int:
    """The run (stkref.cli.run_tool): any failure is exit 2 with an <error> report."""
    return run_tool(lambda: _main(argv))


def _main(argv: list[str] | None) -> int:
    ap = ToolParser(
        prog="ci/check-mutants.sh",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=report_paths,
        outputs=output_paths,
    )
    ap.add_argument(
        "pattern",
        nargs="?",
        default="",
        help="only patches whose name matches PATTERN (a regular expression, e.g. see-|tt-)",
    )
    ap.add_argument(
        "--jobs",
        type=options.jobs,
        default=1,
        help="scratch clones built and checked in parallel (default 1)",
    )
    ap.add_argument(
        "--shard", default="1/1", help="K/N: every N-th patch starting at the K-th (1-based)"
    )
    ap.add_argument(
        "--timeout",
        type=options.seconds,
        default=900,
        help="seconds per check at most; on a defect 3x its time without one + 60 s; "
        "a hang counts as caught",
    )
    ap.add_argument(
        "--config",
        type=options.name_or_empty,
        default="",
        help="report name (default: all, or the pattern/shard)",
    )
    ap.add_argument("--out-dir", default=str(ROOT / "reports"))
    ap.add_argument("--keep", action="store_true", help="keep the scratch clones (printed)")
    ap.add_argument(
        "--list", action="store_true", help="print the planted defects and their checks"
    )
    ap.add_argument(
        "--merge",
        nargs="+",
        type=inputs.input_file(),
        metavar="JSON",
        help="write one report (--config, default merged) from these runs' JSON; runs nothing",
    )
    a = ap.parse_args(argv)
    if a.merge:
        try:
            return merge_reports(a.merge, a.config or "merged", Path(a.out_dir))
        except BadReportError as e:
            print(f"check-mutants: {e}", file=sys.stderr)
            return 2
    k, n = shard_of(a.shard)
    try:
        re.compile(a.pattern)
    except re.error as e:
        raise InputError(f"PATTERN {a.pattern!r}: not a regular expression ({e})") from e
    mutants = [
        m
        for m in read_manifest(ROOT / "ci" / "mutants" / "MANIFEST")
        if re.search(a.pattern, m.patch)
    ]
    mutants = [m for i, m in enumerate(mutants) if i % n == k - 1]
    if not mutants:
        print(
            f"check-mutants: no planted defect matches '{a.pattern}' (shard {a.shard})",
            file=sys.stderr,
        )
        return 2
    if a.list:
        for m in mutants:
            print(f"{m.patch} [{m.layer}]")
            for c in m.checks:
                print(f"    must fail: {c}")
        return 0
    config = config_of(a)
    head = run(["git", "rev-parse", "HEAD"], ROOT).stdout.strip()
    env = dict(os.environ)
    env.setdefault("STK_SHARED", str((ROOT.parent / "shared").resolve()))
    env.setdefault("STK_PYTHON", str(ROOT / ".venv" / "bin" / "python"))
    jobs = min(a.jobs, len(mutants))
    # Builds share the cores; checks mostly run one core each.
    build_jobs = max(1, (os.cpu_count() or 2) // jobs)
    # Scratch clones live under build/ (ignored by git); their build folder is build/release like
    # the main one's, so ccache (its base_dir set by the CMake launcher) serves them its objects.
    (ROOT / "build").mkdir(exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="mutants.", dir=ROOT / "build"))
    print(
        f"check-mutants: {len(mutants)} planted defects, HEAD {head[:10]}, {jobs} job(s), "
        f"scratch {work}",
        flush=True,
    )
    pool: queue.Queue[Job] = queue.Queue()
    for i in range(jobs):
        pool.put(Job(i, work, head, build_jobs, env))
    lock = threading.Lock()
    t0 = time.monotonic()

    control: dict[str, CheckResult] = {}

    def control_one(check: str) -> None:
        job = pool.get()
        try:
            r = job.control(check, a.timeout, env)
        except Exception as e:
            r = CheckResult(check, -2, 0.0, True, log=f"{type(e).__name__}: {e}")
        finally:
            pool.put(job)
        with lock:
            control[check] = r
            state = (
                "TIMEOUT"
                if r.timed_out
                else f"FAILS (exit {r.exit_code})"
                if r.caught
                else "passes"
            )
            print(f"control: {state} without a defect ({r.seconds:.0f} s): {r.command}", flush=True)

    checks = sorted({c for m in mutants for c in m.checks})
    print(f"check-mutants: null control, {len(checks)} checks on HEAD without a defect", flush=True)

    def one(m: Mutant) -> None:
        if why := control_failure(m, control):
            m.error = why
            return
        job = pool.get()
        try:
            job.check(m, a.timeout, env, limits_from(control, a.timeout))
        except Exception as e:
            m.error = f"{type(e).__name__}: {e}"
        finally:
            pool.put(job)
        with lock:
            if m.error:
                print(f"ERROR {m.patch}: {m.error.splitlines()[0]}", flush=True)
            for r in m.results:
                tag = "ok   " if r.caught else "FAIL "
                what = "caught by" if r.caught else "the check PASSED on the planted defect:"
                print(
                    f"{tag} {m.patch}: {what} {r.command}  (exit {r.exit_code}, {r.seconds:.0f} s)",
                    flush=True,
                )

    try:
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            list(ex.map(control_one, checks))
            list(ex.map(one, mutants))
    finally:
        if a.keep:
            print(f"check-mutants: scratch clones kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    meta = {
        "head": head,
        "pattern": a.pattern,
        "shard": a.shard,
        "jobs": jobs,
        "seconds": round(time.monotonic() - t0, 1),
        "control": [
            {
                "command": c,
                "exit_code": r.exit_code,
                "timed_out": r.timed_out,
                "seconds": round(r.seconds, 1),
            }
            for c, r in sorted(control.items())
        ],
    }
    md = write_reports([to_record(m) for m in mutants], config, Path(a.out_dir), meta)
    print()
    print(md)
    if any(m.error for m in mutants):
        return 2
    return 1 if any(m.survived for m in mutants) else 0


if __name__ == "__main__":
    sys.exit(main())
