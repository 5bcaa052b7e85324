#!/usr/bin/env python3
"""Planted-defect detection: applies each patch of ci/mutants/MANIFEST to a scratch clone of the
committed HEAD, builds it, runs every check listed for it and requires each check to FAIL.

A defect "survives" when one of its checks passes on it: that check cannot be trusted, and the run
exits 1. A patch that does not apply or does not build is a setup error (exit 2): a planted defect
must be a program the checks can run.

Parallel jobs each keep one scratch clone with its own build directory; between defects the clone is
reset to HEAD, so only the files a patch touched are rebuilt (ccache, when installed, makes the
rebuild of the restored files a cache hit). `--shard K/N` takes every N-th patch, for CI matrices.

Writes reports/mutants/detection-<config>.{md,json} and reports/junit/mutants-<config>.xml.
"""
from __future__ import annotations

import argparse
import concurrent.futures
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

ROOT = Path(__file__).resolve().parent.parent

# The layer a defect lives in, from its patch name's prefix (the first word before '-').
LAYERS = {
    "movegen": "movegen", "fen": "FEN", "position": "FEN", "gamestate": "FEN", "zobrist": "Zobrist",
    "see": "SEE", "search": "search", "tt": "TT", "uci": "UCI", "time": "UCI", "eval": "classical eval",
    "classical": "classical eval", "nnue": "NNUE", "junit": "JUnit", "report": "JUnit", "epd": "EPD",
    "fhmodel": "calibration", "fhcollect": "calibration", "calibration": "calibration",
    "shadow": "shadow", "stkref": "stkref", "perft": "perft", "bench": "bench", "stats": "statistics",
    "match": "match", "sprt": "statistics", "harness": "harness", "checknet": "NNUE",
    "mate": "search", "pv": "search", "elo": "statistics", "pentanomial": "statistics", "golden": "NNUE",
    "catch": "harness", "drift": "stkref",
    # two-word prefixes win over one-word ones
    "gamestate-zobrist": "Zobrist", "nnue-features": "NNUE features", "nnue-relu": "NNUE kernels",
    "nnue-loader": "NNUE loader", "nnue-skip": "NNUE accumulator",
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
    """A Catch2 test name given to stk-tests (or stk-engine-tests) with an unescaped ',' is two filters matching no test:
    the check runs nothing and exits 0, so the defect could never be caught. '' when fine."""
    if "tests" not in check:
        return ""
    for name in re.findall(r'stk-(?:engine-)?tests\s+"([^"]*)"', check):
        if re.search(r"(?<!\\),", name):
            return f"stk-tests filter {name!r} has an unescaped ',' (Catch2 splits there and runs no test): write '\\,'"
    return ""


def read_manifest(path: Path) -> list[Mutant]:
    """Lines '<patch> | <check that must fail>'; several lines per patch list several checks."""
    by_patch: dict[str, Mutant] = {}
    for lineno, raw in enumerate(path.read_text().splitlines(), 1):
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


def run(cmd: list[str] | str, cwd: Path, env=None, timeout=None, shell=False) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, env=env, shell=shell, timeout=timeout, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, errors="replace")


class Job:
    """One scratch clone of HEAD with its own build directory, reused across defects."""

    def __init__(self, index: int, work: Path, head: str, build_jobs: int, env: dict):
        self.env = env
        self.tree = work / f"job{index}"
        self.out = work / f"job{index}-reports"
        self.head = head
        self.build_jobs = build_jobs
        self.configured = False

    def prepare(self) -> None:
        if not self.tree.exists():
            r = run(["git", "clone", "-q", "--shared", "--no-checkout", str(ROOT), str(self.tree)], ROOT)
            if r.returncode:
                raise RuntimeError(f"git clone failed: {r.stdout}")
        # Back to HEAD; build/ is kept, so only what a patch touched is rebuilt.
        for cmd in (["git", "checkout", "-q", "-f", self.head], ["git", "clean", "-fdxq", "-e", "build/"]):
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

    def check(self, m: Mutant, timeout: float, env: dict) -> None:
        t0 = time.monotonic()
        self.prepare()
        r = run(["git", "apply", "--whitespace=nowarn", str(ROOT / "ci" / "mutants" / m.patch)], self.tree)
        if r.returncode:
            m.error = "does not apply to HEAD: " + r.stdout.strip()
            return
        m.error = self.build(targets_for(m.checks))
        m.build_seconds = time.monotonic() - t0
        if m.error:
            return
        shutil.rmtree(self.out, ignore_errors=True)
        self.out.mkdir(parents=True)
        job_env = dict(env, MUTANT_OUT=str(self.out), PYTHONPATH=str(self.tree / "harness" / "python"))
        for check in m.checks:
            c0 = time.monotonic()
            # The historical fixed report directory is this job's own, so parallel jobs never share one.
            cmd = check.replace("/tmp/stk-mutant-reports", str(self.out))
            try:
                p = run(cmd, self.tree, env=job_env, timeout=timeout, shell=True)
                m.results.append(CheckResult(check, p.returncode, time.monotonic() - c0, p.returncode != 0,
                                             log=p.stdout[-4000:]))
            except subprocess.TimeoutExpired as e:
                out = e.stdout if isinstance(e.stdout, str) else (e.stdout or b"").decode(errors="replace")
                # A hang fails CI too (its time limit), so the defect is caught, and said to be a hang.
                m.results.append(CheckResult(check, -1, time.monotonic() - c0, True, True, out[-4000:]))


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
    return targets


def short(check: str) -> str:
    """The check without the build path noise, for the table."""
    s = check.replace("./build/release/harness/", "").replace("./build/release/engine/", "")
    s = re.sub(r"\s+--out-dir\s+\S+", "", s)
    return s if len(s) <= 110 else s[:107] + "..."


def write_reports(mutants: list[Mutant], config: str, out_dir: Path, seconds: float, jobs: int) -> str:
    caught = sum(1 for m in mutants if not m.error and not m.survived)
    valid = sum(1 for m in mutants if not m.error)
    lines = [f"# Planted-defect detection ({config})", "",
             f"{caught} of {valid} planted defects caught by every listed check"
             f" ({len(mutants) - valid} setup errors); {sum(len(m.checks) for m in mutants)} checks;"
             f" {seconds / 60:.1f} min with {jobs} job(s).", "",
             "| planted defect | layer | check that must fail | result | exit | s |", "|---|---|---|---|---|---|"]
    for m in mutants:
        if m.error:
            lines.append(f"| `{m.patch}` | {m.layer} | - | **SETUP ERROR**: {m.error.splitlines()[0][:120]} | | |")
            continue
        for i, r in enumerate(m.results):
            verdict = "caught (hang)" if r.timed_out else "caught" if r.caught else "**SURVIVED**"
            lines.append(f"| {'`' + m.patch + '`' if i == 0 else ''} | {m.layer if i == 0 else ''} | `{short(r.command)}` |"
                         f" {verdict} | {r.exit_code} | {r.seconds:.0f} |")
    layers: dict[str, list[int]] = {}
    for m in mutants:
        if not m.error:
            c = layers.setdefault(m.layer, [0, 0])
            c[0] += not m.survived
            c[1] += 1
    lines += ["", "| layer | caught / planted |", "|---|---|"]
    lines += [f"| {k} | {v[0]} / {v[1]} |" for k, v in sorted(layers.items())]
    md = "\n".join(lines) + "\n"
    (out_dir / "mutants").mkdir(parents=True, exist_ok=True)
    (out_dir / "mutants" / f"detection-{config}.md").write_text(md)
    (out_dir / "mutants" / f"detection-{config}.json").write_text(json.dumps({
        "config": config, "seconds": round(seconds, 1), "jobs": jobs, "caught": caught, "valid": valid,
        "mutants": [{"patch": m.patch, "layer": m.layer, "error": m.error, "survived": m.survived,
                     "build_seconds": round(m.build_seconds, 1),
                     "checks": [{"command": r.command, "exit_code": r.exit_code, "caught": r.caught,
                                 "timed_out": r.timed_out, "seconds": round(r.seconds, 1)} for r in m.results]}
                    for m in mutants]}, indent=1) + "\n")
    write_junit(mutants, config, out_dir / "junit" / f"mutants-{config}.xml", seconds)
    return md


def write_junit(mutants: list[Mutant], config: str, path: Path, seconds: float) -> None:
    sys.path.insert(0, str(ROOT / "harness" / "python"))
    from stkref import junit  # the project's JUnit writer (schema-validated in its own tests)

    suite = junit.TestSuite(f"mutants.{config}", time_s=seconds)
    for m in mutants:
        case = junit.TestCase(f"mutants.{m.layer.replace(' ', '-')}", m.patch,
                              time_s=m.build_seconds + sum(r.seconds for r in m.results))
        if m.error:
            case.outcome, case.message, case.detail = junit.Outcome.ERROR, m.error.splitlines()[0][:200], m.error
        elif m.survived:
            passed = [r.command for r in m.results if not r.caught]
            case.outcome = junit.Outcome.FAILED
            case.message = f"survived: {len(passed)} check(s) passed on the planted defect"
            case.detail = "\n".join(passed)
        case.system_out = "\n".join(f"{'caught' if r.caught else 'SURVIVED'} exit={r.exit_code}: {r.command}"
                                    for r in m.results)
        suite.add(case)
    junit.write_report(path, [suite])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pattern", nargs="?", default="", help="only patches whose name matches PATTERN (a regular expression, e.g. see-|tt-)")
    ap.add_argument("--jobs", type=int, default=1, help="scratch clones built and checked in parallel (default 1)")
    ap.add_argument("--shard", default="1/1", help="K/N: every N-th patch starting at the K-th (1-based)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per check; a hang counts as caught")
    ap.add_argument("--config", default="", help="report name (default: all, or the pattern/shard)")
    ap.add_argument("--out-dir", default=str(ROOT / "reports"))
    ap.add_argument("--keep", action="store_true", help="keep the scratch clones (printed)")
    ap.add_argument("--list", action="store_true", help="print the planted defects and their checks")
    a = ap.parse_args()
    try:
        k, n = (int(x) for x in a.shard.split("/"))
        if not 1 <= k <= n:
            raise ValueError
    except ValueError:
        print(f"check-mutants: --shard must be K/N with 1 <= K <= N, got {a.shard!r}", file=sys.stderr)
        return 2
    if a.jobs < 1:
        print("check-mutants: --jobs must be >= 1", file=sys.stderr)
        return 2
    mutants = [m for m in read_manifest(ROOT / "ci" / "mutants" / "MANIFEST") if re.search(a.pattern, m.patch)]
    mutants = [m for i, m in enumerate(mutants) if i % n == k - 1]
    if not mutants:
        print(f"check-mutants: no planted defect matches '{a.pattern}' (shard {a.shard})", file=sys.stderr)
        return 2
    if a.list:
        for m in mutants:
            print(f"{m.patch} [{m.layer}]")
            for c in m.checks:
                print(f"    must fail: {c}")
        return 0
    config = a.config or ("all" if not a.pattern else re.sub(r"[^A-Za-z0-9_.-]", "_", a.pattern))
    if n > 1:
        config += f"-shard{k}of{n}"
    head = run(["git", "rev-parse", "HEAD"], ROOT).stdout.strip()
    env = dict(os.environ)
    env.setdefault("STK_SHARED", str((ROOT.parent / "shared").resolve()))
    env.setdefault("STK_PYTHON", str(ROOT / ".venv" / "bin" / "python"))
    jobs = min(a.jobs, len(mutants))
    # Builds share the cores; checks mostly run one core each.
    build_jobs = max(1, (os.cpu_count() or 2) // jobs)
    # Scratch clones live under build/ (ignored by git) so that ccache, with the repository as its
    # base directory, shares objects between them and the main build (same relative paths).
    (ROOT / "build").mkdir(exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="mutants.", dir=ROOT / "build"))
    env.setdefault("CCACHE_BASEDIR", str(ROOT))
    print(f"check-mutants: {len(mutants)} planted defects, HEAD {head[:10]}, {jobs} job(s), scratch {work}", flush=True)
    pool: queue.Queue[Job] = queue.Queue()
    for i in range(jobs):
        pool.put(Job(i, work, head, build_jobs, env))
    lock = threading.Lock()
    t0 = time.monotonic()

    def one(m: Mutant) -> None:
        job = pool.get()
        try:
            job.check(m, a.timeout, env)
        except Exception as e:  # noqa: BLE001 - reported as a setup error of this defect
            m.error = f"{type(e).__name__}: {e}"
        finally:
            pool.put(job)
        with lock:
            if m.error:
                print(f"ERROR {m.patch}: {m.error.splitlines()[0]}", flush=True)
            for r in m.results:
                tag = "ok   " if r.caught else "FAIL "
                what = "caught by" if r.caught else "the check PASSED on the planted defect:"
                print(f"{tag} {m.patch}: {what} {r.command}  (exit {r.exit_code}, {r.seconds:.0f} s)", flush=True)

    try:
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            list(ex.map(one, mutants))
    finally:
        if a.keep:
            print(f"check-mutants: scratch clones kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    seconds = time.monotonic() - t0
    md = write_reports(mutants, config, Path(a.out_dir), seconds, jobs)
    print()
    print(md)
    if any(m.error for m in mutants):
        return 2
    return 1 if any(m.survived for m in mutants) else 0


if __name__ == "__main__":
    sys.exit(main())
