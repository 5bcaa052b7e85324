"""Runs each libFuzzer target of harness/fuzz (built by the `fuzz` preset: clang, ASan+UBSan) for a
fixed time and reports one JUnit testcase per target.

Each target starts from its committed seeds (harness/fuzz/corpus/<target>/), every input it once
crashed on (harness/fuzz/regressions/<target>/) and, when $STK_SHARED/suites/ECM.epd exists, every
8th ECM line (fen and epd). New coverage goes to build/fuzz/run/<target>/corpus, kept between runs.
A crash, a sanitizer report, a failed check (an uncaught CheckFailure), a leak, a timeout or an
out-of-memory input fails the target: libFuzzer's artifact is copied to
harness/fuzz/regressions/<target>/ (commit it: the Catch2 test "[fuzz]" replays it in every build)
and the failure names both paths and the command that reproduces it.

Writes reports/junit/fuzz-<config>.xml and reports/fuzz/fuzz-<config>.{md,json}.
Exit status: 0 no target failed, 1 a target failed, 2 usage or setup error.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from stkref import options
from stkref.cli import ToolParser, run_tool
from stkref.junit import junit_in
from stkref.outputs import Output, report_tree, write_text_atomic

ROOT = Path(__file__).resolve().parents[3]  # harness/python/<package>/ -> the repository
TARGETS = ["fen", "epd", "uci", "netfile", "fhr"]
# Per input: 30 s (a 64-line UCI session under ASan takes well under 1 s), 3 GB (a parsed H=128
# net is 6.5 MB, the UCI hash 16 MB; anything near the limit is a leak or a runaway allocation).
LIBFUZZER_FLAGS = ["-timeout=30", "-rss_limit_mb=3072", "-max_len=4096", "-print_final_stats=1"]


@dataclass
class TargetRun:
    target: str
    seconds: float = 0.0
    exit_code: int = 0
    executions: int = 0
    coverage: int = 0  # libFuzzer's "cov:" (instrumented edges reached)
    corpus_units: int = 0
    seed_files: int = 0
    error: str = ""  # could not run (missing binary, wall-clock limit)
    summary: str = ""  # first line of the crash report
    artifacts: list[str] = field(default_factory=list)
    regressions: list[str] = field(default_factory=list)
    log: str = ""

    @property
    def failed(self) -> bool:
        return not self.error and (self.exit_code != 0 or bool(self.artifacts))


def parse_log(text: str) -> dict:
    """The facts of a libFuzzer log: executions, coverage, corpus size, artifacts, crash summary."""

    def last_int(pattern: str) -> int:
        found = re.findall(pattern, text)
        return int(found[-1]) if found else 0

    summary = ""
    for pattern in (
        r"what\(\):\s+(.*)",
        r"==\d+==ERROR: (.*)",
        r"runtime error: (.*)",
        r"SUMMARY: (.*)",
        r"ERROR: libFuzzer: (.*)",
    ):
        m = re.search(pattern, text)
        if m:
            summary = m.group(1).strip()
            break
    return {
        "executions": last_int(r"stat::number_of_executed_units: (\d+)")
        or last_int(r"Done (\d+) runs"),
        "coverage": last_int(r"\bcov: (\d+)"),
        "corpus_units": last_int(r"\bcorp: (\d+)/"),
        "artifacts": re.findall(r"Test unit written to (\S+)", text),
        "summary": summary[:300],
    }


def seed_dirs(target: str, regressions: Path, ecm: Path | None) -> list[Path]:
    dirs = [ROOT / "harness" / "fuzz" / "corpus" / target, regressions / target]
    if ecm is not None:
        dirs.append(ecm / target)
    return [d for d in dirs if d.is_dir() and any(d.iterdir())]


def run_target(target: str, a: argparse.Namespace, ecm: Path | None) -> TargetRun:
    r = TargetRun(target)
    binary = Path(a.bin_dir) / f"fuzz_{target}"
    if not binary.exists():
        r.error = f"{binary} missing: build the fuzz preset (ci/fuzz.sh builds it)"
        return r
    work = Path(a.work_dir) / target
    corpus, artifacts, tmp = work / "corpus", work / "artifacts", work / "tmp"
    shutil.rmtree(artifacts, ignore_errors=True)
    shutil.rmtree(tmp, ignore_errors=True)
    for d in (corpus, artifacts, tmp):
        d.mkdir(parents=True, exist_ok=True)
    seeds = seed_dirs(target, Path(a.regressions), ecm)
    r.seed_files = sum(1 for d in seeds for f in d.iterdir() if f.is_file())
    cmd = [
        str(binary),
        *LIBFUZZER_FLAGS,
        f"-seed={a.seed}",
        f"-max_total_time={a.seconds}",
        f"-artifact_prefix={artifacts}/",
        str(corpus),
        *map(str, seeds),
    ]
    env = dict(os.environ, TMPDIR=str(tmp))  # the checks' scratch files (libFuzzer may _Exit)
    t0 = time.monotonic()
    try:
        p = subprocess.run(
            cmd,
            cwd=work,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
            timeout=a.seconds * 2 + 120,
        )
        r.exit_code, r.log = p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        r.error = f"no answer after {e.timeout:.0f} s (libFuzzer ignored -max_total_time)"
        r.log = (
            e.stdout if isinstance(e.stdout, str) else (e.stdout or b"").decode(errors="replace")
        )
    r.seconds = time.monotonic() - t0
    write_text_atomic(work / "log.txt", r.log)
    shutil.rmtree(tmp, ignore_errors=True)
    facts = parse_log(r.log)
    r.executions, r.coverage, r.corpus_units, r.summary = (
        facts["executions"],
        facts["coverage"],
        facts["corpus_units"],
        facts["summary"],
    )
    r.artifacts = [str(work / p) if not os.path.isabs(p) else p for p in facts["artifacts"]]
    for art in r.artifacts:  # the crash becomes a regression input of the Catch2 replay
        dest = Path(a.regressions) / target / Path(art).name
        if Path(art).is_file():
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(art, dest)
            r.regressions.append(str(dest))
    if r.failed and not r.summary:
        r.summary = f"libFuzzer exit {r.exit_code}"
    return r


def write_reports(runs: list[TargetRun], a: argparse.Namespace, config: str, wall: float) -> str:
    from stkref import junit  # the project's JUnit writer (schema-validated in its own tests)

    suite = junit.TestSuite(f"fuzz.{config}", time_s=wall)
    compiler = (
        subprocess.run(["clang++", "--version"], capture_output=True, text=True).stdout.split("\n")[
            0
        ]
        if shutil.which("clang++")
        else "clang++ not found"
    )
    for key, value in (
        ("seconds_per_target", a.seconds),
        ("seed", a.seed),
        ("jobs", a.jobs),
        ("targets", ",".join(r.target for r in runs)),
        ("binaries", a.bin_dir),
        ("libfuzzer_flags", " ".join(LIBFUZZER_FLAGS)),
        ("compiler", compiler),
        ("sanitizers", "address,undefined"),
        ("git_revision", junit.git_revision()),
        ("harness_version", "ci/fuzz.py 1"),
    ):
        suite.property(key, value)
    for r in runs:
        case = suite.add(junit.TestCase("fuzz.libfuzzer", r.target, time_s=r.seconds))
        case.system_out = (
            f"executions {r.executions}\n"
            f"executions_per_s {r.executions / max(r.seconds, 1e-9):.1f}\n"
            f"coverage {r.coverage}\ncorpus_units {r.corpus_units}\nseed_files {r.seed_files}\n"
        )
        if r.error:
            case.outcome, case.message, case.detail = junit.Outcome.ERROR, r.error, r.log[-4000:]
        elif r.failed:
            case.outcome, case.message = junit.Outcome.FAILED, f"crash: {r.summary}"
            binary = Path(a.bin_dir) / f"fuzz_{r.target}"
            case.detail = "\n".join(
                [f"crash file: {p}" for p in r.artifacts]
                + [f"regression copy: {p}" for p in r.regressions]
                + [f"reproduce: {binary} {p}" for p in r.artifacts]
                + [
                    'replay in the normal build: build/release/harness/stk-tests "[fuzz]"',
                    "",
                    "log tail:",
                ]
                + r.log.splitlines()[-60:]
            )
    path = junit.write_report(Path(a.out_dir) / "junit" / f"fuzz-{config}.xml", [suite])

    lines = [
        f"# Fuzzing ({config}): {a.seconds} s per target, seed {a.seed}",
        "",
        "| target | result | s | executions | exec/s | coverage | corpus | seeds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in runs:
        verdict = (
            f"**ERROR** {r.error}"
            if r.error
            else f"**CRASH** {r.summary}"
            if r.failed
            else "0 crashes"
        )
        lines.append(
            f"| {r.target} | {verdict} | {r.seconds:.0f} | {r.executions} |"
            f" {r.executions / max(r.seconds, 1e-9):.0f} | {r.coverage} | {r.corpus_units}"
            f" | {r.seed_files} |"
        )
    total = sum(r.seconds for r in runs)
    lines += [
        "",
        f"total {total:.0f} s of fuzzing, {sum(r.executions for r in runs)} executions,"
        f" {sum(r.failed for r in runs)} target(s) failed; JUnit {path}",
    ]
    md = "\n".join(lines) + "\n"
    out = Path(a.out_dir) / "fuzz"
    write_text_atomic(out / f"fuzz-{config}.md", md)
    write_text_atomic(
        out / f"fuzz-{config}.json",
        json.dumps(
            {
                "config": config,
                "seconds_per_target": a.seconds,
                "seed": a.seed,
                "wall_s": round(wall, 1),
                "targets": [{k: v for k, v in asdict(r).items() if k != "log"} for r in runs],
            },
            indent=1,
        )
        + "\n",
    )
    return md


def config_of(a: argparse.Namespace) -> str:
    return a.config or f"{a.seconds}s"


def outputs(a: argparse.Namespace) -> list[Output]:
    files = [f"fuzz/fuzz-{config_of(a)}.{x}" for x in ("md", "json")]
    return [
        *report_tree("--out-dir", Path(a.out_dir), files),
        Output("--work-dir", Path(a.work_dir), "folder"),
        Output("--regressions", Path(a.regressions), "folder"),
    ]


def target_list(text: str) -> list[str]:
    targets = [t for t in text.split(",") if t]
    unknown = [t for t in targets if t not in TARGETS]
    if unknown or not targets:
        raise argparse.ArgumentTypeError(
            f"unknown targets {unknown or text!r}; the targets are {','.join(TARGETS)}"
        )
    return targets


def main() -> int:
    ap = ToolParser(
        prog="ci/fuzz.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=lambda a: [junit_in(a.out_dir, "fuzz", config_of(a))],
        outputs=outputs,
    )
    ap.add_argument(
        "seconds",
        nargs="?",
        type=options.integer(1, 10**6),
        default=60,
        help="fuzzing time per target (default 60)",
    )
    ap.add_argument(
        "--targets",
        type=target_list,
        default=",".join(TARGETS),
        help=f"comma list (default {','.join(TARGETS)})",
    )
    ap.add_argument(
        "--jobs", type=options.jobs, default=1, help="targets fuzzed at once (default 1)"
    )
    ap.add_argument(
        "--seed", type=options.integer(0, 2**32 - 1), default=1, help="libFuzzer -seed (default 1)"
    )
    ap.add_argument(
        "--config",
        type=options.name_or_empty,
        default="",
        help="report name (default: <seconds>s)",
    )
    ap.add_argument("--bin-dir", default=str(ROOT / "build" / "fuzz" / "harness" / "fuzz"))
    ap.add_argument("--work-dir", default=str(ROOT / "build" / "fuzz" / "run"))
    ap.add_argument("--regressions", default=str(ROOT / "harness" / "fuzz" / "regressions"))
    ap.add_argument("--out-dir", default=str(ROOT / "reports"))
    ap.add_argument("--no-ecm", action="store_true", help="no ECM seeds from $STK_SHARED")
    a = ap.parse_args()
    targets = a.targets
    ecm = None
    if not a.no_ecm:
        ecm = Path(a.work_dir) / "ecm-seeds"
        shutil.rmtree(ecm, ignore_errors=True)
        subprocess.run(
            ["bash", str(ROOT / "harness" / "fuzz" / "make-corpus.sh"), "--ecm", str(ecm)],
            check=True,
        )
    config = config_of(a)
    print(
        f"fuzz: {len(targets)} target(s) x {a.seconds} s, seed {a.seed}, {a.jobs} job(s)",
        flush=True,
    )
    t0 = time.monotonic()

    def one(target: str) -> TargetRun:
        r = run_target(target, a, ecm)
        state = f"ERROR {r.error}" if r.error else f"CRASH {r.summary}" if r.failed else "0 crashes"
        print(
            f"fuzz: {target}: {state}; {r.executions} executions in {r.seconds:.0f} s,"
            f" coverage {r.coverage},"
            f" corpus {r.corpus_units}",
            flush=True,
        )
        for p in r.regressions:
            print(
                f"fuzz: {target}: crash input copied to {p}: fix the bug, keep the file, commit it",
                flush=True,
            )
        return r

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        runs = list(ex.map(one, targets))
    print()
    print(write_reports(runs, a, config, time.monotonic() - t0))
    if any(r.error for r in runs):
        return 2
    return 1 if any(r.failed for r in runs) else 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
