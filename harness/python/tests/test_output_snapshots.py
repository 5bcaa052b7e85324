"""What the deterministic harness commands print and summarize, pinned (golden/snapshots/): the
lines and Markdown a reader reads, apart from paths and timings, must not change unnoticed. The
97d7a93 mutation draw left survivors in exactly that text, which no figure check reads: a unit
printed as "Elo" for "nElo", a percentage's sign, a table label emptied, a PGN move number.

A change meant to be seen is recorded with `STK_UPDATE_SNAPSHOTS=1` (the files are rewritten and
the diff is reviewed with the change). Each case runs in a fresh folder; the normalization below
is the only thing taken out (golden/README.md, `snapshots/`).
"""

from __future__ import annotations

import difflib
import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

# Absolute: the runs start in folders of their own, where a relative path names nothing.
HARNESS = os.path.abspath(os.environ["STK_HARNESS"]) if os.environ.get("STK_HARNESS") else ""
ENGINE = os.path.abspath(os.environ["STK_ENGINE"]) if os.environ.get("STK_ENGINE") else ""
pytestmark = pytest.mark.skipif(
    not HARNESS or not ENGINE, reason="set STK_HARNESS and STK_ENGINE to run"
)
ROOT = Path(__file__).resolve().parents[3]
SNAPSHOTS = ROOT / "golden" / "snapshots"

# Three positions of known answers (the engine finds the mate in one and the winning capture at
# depth 3; the third is a quiet position it does not "solve"), written here, not read from a suite.
SUITE = (
    '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "mate.1";\n'
    'rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - bm dxe5; id "capture.2";\n'
    'r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - bm d4; id "quiet.3";\n'
)

# Timings: seconds in a progress line or a summary ("0.00s", "0.0 s"), a table's time cell, a
# nodes/s line. Nothing else varies between two runs of these commands.
TIMINGS = [
    (re.compile(r"\b\d+\.\d+ ?s\b"), "<t>s"),
    (re.compile(r"(?<=\| )\d+\.\d{3}(?= \|)"), "<t>"),
    (re.compile(r"^((?:- )?nodes/s:).*$", re.M), r"\1 <timing>"),
    (re.compile(r"^(this run:).*$", re.M), r"\1 <timing>"),
    (re.compile(r"\b\d+(?:\.\d+)? nodes/s\b"), "<rate> nodes/s"),
]


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]  # after stk-harness; {out} and {suite} are filled in
    files: tuple[str, ...] = ()  # summaries under {out} pinned besides stdout
    before: tuple[tuple[str, ...], ...] = ()  # commands run first, their output not pinned


# A match of the fake engine with itself: deterministic at fixed nodes (docs/harnesses/match.md).
MATCH = (
    *("match", "--out-dir", "{out}", "--gate", "non-regression", "--min-elo-lower95", "-100000"),
    *("--quiet", "--engine", "cmd={fake}", "name=a", "--engine", "cmd={fake}", "name=b"),
    *("--nodes", "50", "--seed", "3"),
)

CASES = [
    Case("sprt-sim-normalized", ("sprt-sim", "--runs", "10", "--seed", "3")),
    Case(
        "sprt-sim-logistic",
        ("sprt-sim", "--runs", "10", "--seed", "3", "--model", "logistic", "--elo1", "10"),
    ),
    Case(
        "homogeneity-sim",
        ("homogeneity-sim", "--merges", "20", "--shards", "4", "--pairs", "30", "--seed", "2"),
    ),
    Case(
        "epd-sd",
        ("epd", "--epd", "{suite}", "--depth", "3", "--out-dir", "{out}", "--config", "s"),
        ("epd/s.md",),
    ),
    Case(
        "epd-compare",
        (
            "epd-compare",
            *("--epd", "{suite}", "--depth", "3", "--reference", "inprocess"),
            *("--option", "FHPredictor=true", "--out-dir", "{out}", "--config", "c"),
        ),
        ("epd/c-stk.md", "epd/c-reference.md"),
    ),
    Case(
        "bench-diff",
        (
            "bench-diff",
            "{engine}",
            "{engine}",
            "--depth",
            "3",
            "--out-dir",
            "{out}",
            "--config",
            "d",
        ),
        ("bench-diff/d.md",),
    ),
    Case(
        "shadow",
        ("shadow", "--epd", "{suite}", "--depth", "5", "--quiet", "--out-dir", "{out}"),
        ("shadow/suite-sd5.md",),
    ),
    Case(
        "perft-crash",
        (
            *("perft", "--epd", "{perft}", "--depth", "3"),
            *("--plant", "crash-underpromotion-capture", "--out-dir", "{out}", "--config", "c"),
        ),
        ("perft/c.md",),
    ),
    Case(
        "match",
        (*MATCH, "--pairs", "2", "--config", "m"),
        ("match/m.md", "match/m.pgn"),
    ),
    Case(
        "match-merge",
        (
            "match-merge",
            "--out-dir",
            "{out}",
            "{out}/match/s-shard1of2.json",
            "{out}/match/s-shard2of2.json",
        ),
        ("match/s.md",),
        before=(
            (*MATCH, "--pairs", "4", "--config", "s", "--shard", "1/2"),
            (*MATCH, "--pairs", "4", "--config", "s", "--shard", "2/2"),
        ),
    ),
]


def normalized(text: str, tmp: Path) -> str:
    for path, name in ((str(tmp), "<out>"), (HARNESS, "<harness>"), (ENGINE, "<engine>")):
        text = text.replace(path, name)
    for pattern, mask in TIMINGS:
        text = pattern.sub(mask, text)
    return text


def produce(case: Case, tmp: Path) -> str:
    """The case's stdout and its summaries, normalized, as one text with a header per part."""
    (tmp / "suite.epd").write_text(SUITE)
    fill = {"out": str(tmp / "out"), "suite": str(tmp / "suite.epd"), "engine": ENGINE}
    fill["fake"] = str(Path(HARNESS).parent / "stk-fake-uci")
    fill["perft"] = str(ROOT / "golden" / "perft.epd")
    env = os.environ | {"STK_PYTHON": "/nonexistent"}  # no plot: not part of the text
    for before in case.before:
        pre = [HARNESS, *(a.format(**fill) for a in before)]
        done = subprocess.run(pre, cwd=tmp, capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stdout + done.stderr
    argv = [HARNESS, *(a.format(**fill) for a in case.argv)]
    r = subprocess.run(argv, cwd=tmp, capture_output=True, text=True, timeout=300, env=env)
    parts = [f"== exit {r.returncode}\n== stdout\n{r.stdout}"]
    for f in case.files:
        parts.append(f"== {f}\n{(tmp / 'out' / f).read_text()}")
    return normalized("".join(parts), tmp)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_the_output_is_the_pinned_one(case: Case, tmp_path: Path) -> None:
    got = produce(case, tmp_path)
    pinned = SNAPSHOTS / f"{case.name}.txt"
    if os.environ.get("STK_UPDATE_SNAPSHOTS") == "1":
        pinned.parent.mkdir(parents=True, exist_ok=True)
        pinned.write_text(got)
    want = pinned.read_text() if pinned.exists() else ""
    diff = "".join(
        difflib.unified_diff(
            want.splitlines(True), got.splitlines(True), str(pinned), "this run", n=2
        )
    )
    assert got == want, (
        f"{case.name}: the output changed (STK_UPDATE_SNAPSHOTS=1 records it):\n{diff[:6000]}"
    )


def test_two_runs_print_the_same_text(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The null control of the pins: the same case twice, each in its own folder, gives the
    same normalized text (else a pin would fail on noise, not on a change)."""
    for case in CASES:
        a = produce(case, tmp_path_factory.mktemp("a"))
        b = produce(case, tmp_path_factory.mktemp("b"))
        assert a == b, case.name


def test_nnue_bench_sums_are_pinned_and_equal_across_kernels(tmp_path: Path) -> None:
    """nnue-bench's evaluation sums are exact integers of seeded walks over seeded nets: pinned
    per net (the scalar kernel's), and every other kernel's equal to the scalar one's on the
    same positions (docs/harnesses/nnue-bench.md). A walk of another length, another count of
    evaluations or another position set moves them."""
    out = tmp_path / "out"
    argv = [HARNESS, "nnue-bench", "--positions", "2000", "--out-dir", str(out), "--config", "n"]
    r = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    doc = json.loads((out / "nnue-bench" / "n.json").read_text())
    lines = [f"evaluations {doc['evaluations']}, seed {doc['seed']}"]
    scalar = {}
    for row in doc["results"]:
        sums = (row["refresh_eval_sum"], row["incremental_eval_sum"])
        if row["kernels"] == "scalar":
            scalar[row["hidden"]] = sums
            lines.append(f"hidden {row['hidden']}: refresh {sums[0]}, incremental {sums[1]}")
    assert sorted(scalar) == [128, 1024], doc["results"]
    for row in doc["results"]:
        sums = (row["refresh_eval_sum"], row["incremental_eval_sum"])
        assert sums == scalar[row["hidden"]], row
    got = "\n".join(lines) + "\n"
    pinned = SNAPSHOTS / "nnue-bench-sums.txt"
    if os.environ.get("STK_UPDATE_SNAPSHOTS") == "1":
        pinned.write_text(got)
    assert got == (pinned.read_text() if pinned.exists() else ""), got
