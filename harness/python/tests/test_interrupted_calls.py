"""A run whose pipe reads and writes, polls and waits are interrupted (EINTR) and whose pipe writes
come back short, as the operating system may answer any of them, equals the same run without
(docs/faults.md#interrupted-calls): the same exit status, testcases, verdicts and counts. The
injector (harness/tests/fault_inject/interrupt_inject.cpp) reports how many calls it interrupted:
a run it did not reach proves nothing. The uninjected run is the null control.
"""

from __future__ import annotations

import json
import os
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

# Absolute: the runs start in folders of their own, where a relative path names nothing.
HARNESS = os.path.abspath(os.environ["STK_HARNESS"]) if os.environ.get("STK_HARNESS") else ""
ENGINE = os.path.abspath(os.environ["STK_ENGINE"]) if os.environ.get("STK_ENGINE") else ""
pytestmark = pytest.mark.skipif(
    not HARNESS or not ENGINE, reason="set STK_HARNESS and STK_ENGINE to run"
)
LIB = Path(HARNESS).parent / "libstk-interrupt-inject.so" if HARNESS else Path()
FAKE = Path(HARNESS).parent / "stk-fake-uci" if HARNESS else Path()
ROOT = Path(__file__).resolve().parents[3]
SUITE = (
    '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "mate.1";\n'
    'rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - bm dxe5; id "capture.2";\n'
)


TIMING_WORDS = {"time", "date", "elapsed", "s", "ms", "second", "seconds", "minute", "nps"}


def timing(key: str) -> bool:
    """A summary key that measures time, not what was computed (`time_s`, `nodes_per_second`,
    `readyok_ms_max_of_3`, `nps_audit_off`): one of its `_`-separated words is a unit or a
    clock, so `best_san` or `first_solved_depth` are compared."""
    return bool(set(key.lower().split("_")) & TIMING_WORDS)


@dataclass(frozen=True)
class Run:
    name: str
    argv: tuple[str, ...]  # after stk-harness; {out}, {suite}, {engine}, {fake} filled in
    summary: str  # the JSON summary under {out} whose computed figures must agree
    pipes_written: bool = True  # the run writes to a pipe itself (an engine's input)


RUNS = [
    # perft runs each check in a child: fork, a pipe, poll and waitpid
    Run(
        "perft",
        ("perft", "--epd", "{perft}", "--depth", "3", "--out-dir", "{out}", "--config", "p"),
        "perft/p.json",
        pipes_written=False,  # its children write, and they run without the library
    ),
    Run(
        "perft-crash",
        (
            *("perft", "--epd", "{perft}", "--depth", "3"),
            *("--plant", "crash-underpromotion-capture"),
            *("--out-dir", "{out}", "--config", "c"),
        ),
        "perft/c.json",
        pipes_written=False,
    ),
    Run(
        "match",
        (
            *("match", "--config", "m", "--out-dir", "{out}", "--gate", "non-regression"),
            *("--min-elo-lower95", "-100000", "--quiet", "--engine", "cmd={fake}", "name=a"),
            *("--engine", "cmd={fake}", "name=b", "--nodes", "50", "--pairs", "2", "--seed", "3"),
            *("--concurrency", "2"),
        ),
        "match/m.json",
    ),
    Run(
        "uci-check",
        (
            *("uci-check", "--engine", "{fake}", "--only", "limits", "--only", "handshake"),
            *("--config", "u", "--out-dir", "{out}"),
        ),
        "uci-check/u.json",
    ),
    Run(
        "epd-external",
        (
            *("epd", "--epd", "{suite}", "--depth", "4", "--engine", "{engine}"),
            *("--bench-signature", "auto"),  # `stk bench` through proc::run: its pipe and wait
            *("--out-dir", "{out}", "--config", "e"),
        ),
        "epd/e.json",
    ),
]


def computed(doc: object) -> object:
    """The summary without its timings and its envelope's paths: what the run computed."""
    if isinstance(doc, dict):
        return {
            k: computed(v)
            for k, v in doc.items()
            if not timing(k) and k not in ("report", "command")
        }
    if isinstance(doc, list):
        return [computed(v) for v in doc]
    return doc


def outcomes(junit: Path) -> list[tuple[str, str, str]]:
    found = []
    for case in ET.parse(junit).iter("testcase"):
        kind = next((c.tag for c in case if c.tag in ("failure", "error", "skipped")), "passed")
        found.append((case.get("classname", ""), case.get("name", ""), kind))
    return sorted(found)


def run(r: Run, folder: Path, injected: dict[str, str] | None) -> tuple[int, object, list, str]:
    folder.mkdir()
    (folder / "suite.epd").write_text(SUITE)
    fill = {"out": str(folder / "out"), "suite": str(folder / "suite.epd")}
    fill |= {"engine": ENGINE, "fake": str(FAKE), "perft": str(ROOT / "golden" / "perft.epd")}
    argv = [HARNESS, *(a.format(**fill) for a in r.argv)]
    env = os.environ | (injected or {})
    p = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=300, env=env)
    # The run's own folder named in its summary (an input's path) is the same in both runs.
    text = (folder / "out" / r.summary).read_text().replace(str(folder), "<folder>")
    summary = json.loads(text)
    junit = folder / "out" / "junit" / f"{r.summary.split('/')[0]}-{Path(r.summary).stem}.xml"
    return p.returncode, computed(summary), outcomes(junit), p.stdout + p.stderr


# MODEL interrupted-calls
# checks: harness/src/uci_client/uci_process.cpp  (reads, writes, polls and waits under EINTR and short writes)
# contract: docs/faults.md#interrupted-calls
# planted: ci/mutants/uci-read-eintr-is-end-of-file.patch  (a UCI read's EINTR taken for end of file)
@pytest.mark.skipif(not LIB.exists(), reason="needs the release build's libstk-interrupt-inject.so")
@pytest.mark.parametrize("short", [False, True], ids=["eintr", "eintr-and-short-writes"])
@pytest.mark.parametrize("r", RUNS, ids=lambda r: r.name)
def test_an_interrupted_run_equals_the_uninterrupted_one(r: Run, short: bool, tmp_path: Path):
    plain = run(r, tmp_path / "plain", None)
    counted = tmp_path / "interrupted.txt"
    injected = {
        "LD_PRELOAD": str(LIB),
        "STK_INTERRUPT_EVERY": "2",
        "STK_INTERRUPT_SHORT": "1" if short else "0",
        "STK_INTERRUPT_REPORT": str(counted),
    }
    hit = run(r, tmp_path / "hit", injected)
    stats = dict(kv.split("=") for kv in counted.read_text().split())
    assert int(stats["interrupted"]) > 0, f"the injector reached no call: {stats}"
    if short and r.pipes_written:
        assert int(stats["short"]) > 0, f"no write was cut short: {stats}"
    assert hit[0] == plain[0], f"exit {hit[0]} under interruptions, {plain[0]} without\n{hit[3]}"
    assert hit[2] == plain[2], hit[3]
    assert hit[1] == plain[1], hit[3]
