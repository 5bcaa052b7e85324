"""What a command that measures against a reference UCI engine sends it, against the protocol its
page states (docs/harnesses/search-speed.md#protocol), read off a recording reference: every line
the engine received, in order. A swapped option name and value, a position sent without its FEN,
a clock that keeps only the last position's time or starts from one instead of zero were
survivors of the 97d7a93 mutation draw that no figure-only check could see.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

# Absolute: the runs start in folders of their own, where a relative path names nothing.
HARNESS = os.path.abspath(os.environ["STK_HARNESS"]) if os.environ.get("STK_HARNESS") else ""
pytestmark = pytest.mark.skipif(not HARNESS, reason="set STK_HARNESS=/path/to/stk-harness to run")
ROOT = Path(__file__).resolve().parents[3]
NET = ROOT / "golden" / "nets" / "stk-h128-seed1.nnue"
PAUSE_S = 0.05  # each of the reference's searches takes at least this long

# A UCI engine that records every line it receives (to the file in its first argument) and
# answers `go nodes N` after PAUSE_S with one info line of exactly N nodes.
RECORDER = f"""\
import sys, time
log = open(sys.argv[1], "a", buffering=1)
for line in sys.stdin:
    line = line.rstrip("\\n")
    log.write(line + "\\n")
    if line == "uci":
        print("id name recorder", "uciok", sep="\\n", flush=True)
    elif line == "isready":
        print("readyok", flush=True)
    elif line.startswith("go nodes "):
        time.sleep({PAUSE_S})
        n = line.split()[2]
        print(f"info depth 1 nodes {{n}} time 1 pv e2e4", "bestmove e2e4", sep="\\n", flush=True)
    elif line == "quit":
        break
"""


def _recorder(tmp_path: Path) -> tuple[str, Path]:
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER)
    log = tmp_path / "received.txt"
    return f"{sys.executable} {script} {log}", log


def _search_speed(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, float]:
    t0 = time.monotonic()
    r = subprocess.run(
        [HARNESS, "search-speed", "--out-dir", str(tmp_path / "out"), "--config", "p", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return r, time.monotonic() - t0


def _positions(received: list[str]) -> list[tuple[str, ...]]:
    """The per-position blocks after the options: each from one `ucinewgame` to the next."""
    starts = [i for i, line in enumerate(received) if line == "ucinewgame"]
    ends = [*starts[1:], len(received)]
    return [tuple(received[a:b]) for a, b in zip(starts, ends, strict=True)]


# MODEL search-speed-protocol
# checks: harness/src/commands/search-speed/search_speed.cpp  (what the reference receives)
# contract: docs/harnesses/search-speed.md#protocol
# planted: ci/mutants/model-search-speed-protocol.patch  (an option's name and value swapped)
def test_the_reference_receives_the_documented_protocol(tmp_path: Path) -> None:
    cmd, log = _recorder(tmp_path)
    options = ["Skill Level=3", "Move Overhead=a=b"]  # a name with a space; a value with '='
    args = ["--reference", cmd, "--nodes", "1000", "--hash", "7"]
    r, wall = _search_speed(tmp_path, *args, *[w for o in options for w in ("--option", o)])
    assert r.returncode == 0, r.stdout + r.stderr
    received = [x for x in log.read_text().splitlines() if x != "quit"]
    first = received.index("ucinewgame")
    assert received[:first] == [
        "uci",
        "setoption name Threads value 1",
        "setoption name Hash value 7",
        "setoption name Skill Level value 3",
        "setoption name Move Overhead value a=b",
    ]
    blocks = _positions(received[first:])
    assert len(blocks) == 20
    fens = []
    for block in blocks:
        assert len(block) == 4 and block[0] == "ucinewgame", block
        assert block[1].startswith("position fen "), block
        assert block[2:] == ("isready", "go nodes 1000"), block
        fens.append(block[1].removeprefix("position fen "))
        chess.Board(fens[-1])  # a FEN python-chess reads, not an empty or cut one
    assert len(set(fens)) == 20

    j = json.loads((tmp_path / "out" / "search-speed" / "p.json").read_text())
    ref, stk = j["reference_run"], j["stk"]
    assert ref["nodes"] == 20 * 1000
    # Each of the 20 searches paused PAUSE_S: a sum that kept only the last one is under it.
    assert ref["time_s"] >= 20 * PAUSE_S
    # The engines search one after the other: their clocks together fit in the run's wall time
    # (a clock starting at 1 s, or counting the reference's start-up, does not).
    assert stk["time_s"] > 0 and stk["time_s"] + ref["time_s"] <= wall
    assert j["reference_options"] == options


def test_without_options_the_reference_plays_its_classical_evaluation(tmp_path: Path) -> None:
    cmd, log = _recorder(tmp_path)
    r, _ = _search_speed(tmp_path, "--reference", cmd, "--nodes", "1000")
    assert r.returncode == 0, r.stdout + r.stderr
    received = log.read_text().splitlines()
    assert received[:4] == [
        "uci",
        "setoption name Threads value 1",
        "setoption name Hash value 16",
        "setoption name Use NNUE value false",
    ]
    assert received[4] == "ucinewgame"


def test_with_a_net_the_reference_keeps_its_defaults_and_a_bad_net_is_refused(
    tmp_path: Path,
) -> None:
    cmd, log = _recorder(tmp_path)
    r, _ = _search_speed(tmp_path, "--reference", cmd, "--nodes", "1000", "--net", str(NET))
    assert r.returncode == 0, r.stdout + r.stderr
    received = log.read_text().splitlines()
    assert received[:3] == ["uci", "setoption name Threads value 1", "setoption name Hash value 16"]
    assert received[3] == "ucinewgame"
    j = json.loads((tmp_path / "out" / "search-speed" / "p.json").read_text())
    assert j["stk_evaluation"] == f"NNUE {NET}"

    # One byte short of a network: refused by name, before the reference is started.
    bad = tmp_path / "short.nnue"
    bad.write_bytes(NET.read_bytes()[:-1])
    log.unlink()
    r, _ = _search_speed(tmp_path, "--reference", cmd, "--nodes", "1000", "--net", str(bad))
    assert r.returncode == 2, r.stdout + r.stderr
    assert str(bad) in r.stderr + r.stdout
    assert not log.exists()
    # ... and its report is an <error>, not the passing one of the run before
    junit = (tmp_path / "out" / "junit" / "search-speed-p.xml").read_text()
    assert "<error" in junit and str(bad) in junit
