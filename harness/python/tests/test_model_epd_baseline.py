"""`stk-harness epd` against a baseline, and `--update-golden`, against a model of
docs/harnesses/epd.md ("Scoring", "Updating the baseline") on generated suites and baselines.

Every position is a mate in one with a single mate, so what the engine plays at depth 2 is known
before it runs, and each position's verdict is chosen by its bm/am: the mate as bm (solved), another
legal move as bm (unsolved), the mate as am (unsolved), another move as am (solved). The baseline is
the suite's own golden file with each id's `solved` flag chosen, ids renamed (added and dropped)
and its budget and bench signature chosen, so every rule meets inputs on both sides of it.

Runs when the binaries exist (STK_HARNESS, else build/release)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import chess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_faults import HARNESS as GIVEN

HARNESS = os.path.abspath(GIVEN)  # the runs below start in their own folder
pytestmark = pytest.mark.skipif(not Path(HARNESS).exists(), reason=f"no {HARNESS}")

# Back-rank and corner mates, one mate each (checked below with python-chess).
MATES = [
    "6k1/5ppp/8/8/8/8/8/R5K1 w - -",
    "6k1/5ppp/8/8/8/8/8/3R2K1 w - -",
    "6k1/5ppp/8/8/8/8/8/1R4K1 w - -",
    "r5k1/8/8/8/8/8/5PPP/6K1 b - -",
    "2r3k1/8/8/8/8/8/5PPP/6K1 b - -",
    "1r4k1/8/8/8/8/8/5PPP/6K1 b - -",
]
KINDS = {"bm-mate": True, "bm-other": False, "am-mate": False, "am-other": True}


def mate_and_other(fen: str) -> tuple[str, str]:
    board = chess.Board(fen)
    mates, others = [], []
    for move in board.legal_moves:
        board.push(move)
        (mates if board.is_checkmate() else others).append(move)
        board.pop()
    assert len(mates) == 1, fen
    return board.san(mates[0]), board.san(sorted(others, key=lambda m: m.uci())[0])


def test_every_position_has_one_mate() -> None:
    for fen in MATES:
        mate_and_other(fen)


def epd_line(fen: str, kind: str, ident: str) -> str:
    mate, other = mate_and_other(fen)
    op, move = kind.split("-")
    return f'{fen} {op} {mate if move == "mate" else other}; id "{ident}";\n'


def run(d: Path, *args: str) -> subprocess.CompletedProcess:
    argv = [HARNESS, "epd", "--epd", str(d / "s.epd"), "--depth", "2", "--quiet"]
    return subprocess.run(
        [*argv, "--out-dir", str(d / "out"), *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=d,
    )


@st.composite
def cases(draw: st.DrawFn) -> dict:
    n = draw(st.integers(2, len(MATES)))
    kinds = [draw(st.sampled_from(sorted(KINDS))) for _ in range(n)]
    # Per position: its baseline flag (True/False) or None (renamed away: added now, dropped there).
    flags = [draw(st.sampled_from([True, False, None])) for _ in range(n)]
    return {
        "kinds": kinds,
        "flags": flags,
        "old_depth": draw(st.sampled_from([2, 3])),
        "old_bench": draw(st.sampled_from([None, 7, 123456])),
        "bench": draw(st.sampled_from([None, 7, 99])),
        "min_solved": draw(st.sampled_from([None, 0, 1, 2, 3, 4, 5, 6])),
    }


def expected_comparison(case: dict) -> dict[str, list[str]]:
    """The documented rule: matched by id in the run's order; regression = solved there, not now."""
    out: dict[str, list[str]] = {"regressions": [], "new_solves": [], "not_in_baseline": []}
    for i, (kind, flag) in enumerate(zip(case["kinds"], case["flags"])):
        now = KINDS[kind]
        if flag is None:
            out["not_in_baseline"].append(f"p{i}")
        elif flag and not now:
            out["regressions"].append(f"p{i}")
        elif now and not flag:
            out["new_solves"].append(f"p{i}")
    return out


def make_baseline(d: Path, case: dict) -> None:
    """The suite's golden file made by --update-golden, then given the case's flags, names,
    budget and bench signature."""
    created = run(d, "--baseline", str(d / "g.json"), "--update-golden")
    solved = sum(KINDS[k] for k in case["kinds"])
    assert created.returncode == 0, created.stderr
    assert (
        f"golden {d / 'g.json'}:\n  created: {solved} solved of {len(case['kinds'])} (sd 2)\n"
        in created.stdout
    )
    doc = json.loads((d / "g.json").read_text())
    for i, flag in enumerate(case["flags"]):
        pos = doc["positions"][i]
        assert pos["id"] == f"p{i}" and pos["solved"] == KINDS[case["kinds"][i]]
        if flag is None:
            pos["id"] = f"gone{i}"
        else:
            pos["solved"] = flag
    doc["bench_signature"] = case["old_bench"]
    (d / "g.json").write_text(json.dumps(doc))


# MODEL epd-baseline-update
# checks: harness/src/commands/epd/epd_command.cpp  (the baseline comparison, its verdict, and --update-golden's file and diff)
# contract: docs/harnesses/epd.md#updating-the-baseline
# planted: ci/mutants/model-epd-update-diff.patch  (every position unsolved in the baseline listed as newly solved)
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=cases())
def test_baseline_verdict_and_update_diff_follow_the_documented_rules(
    tmp_path_factory: pytest.TempPathFactory, case: dict
) -> None:
    d = tmp_path_factory.mktemp("epd")
    (d / "s.epd").write_text(
        "".join(epd_line(MATES[i], kind, f"p{i}") for i, kind in enumerate(case["kinds"]))
    )
    make_baseline(d, case)
    want = expected_comparison(case)
    solved_now = [f"p{i}" for i, k in enumerate(case["kinds"]) if KINDS[k]]
    gate = [] if case["min_solved"] is None else ["--min-solved", str(case["min_solved"])]
    bench = [] if case["bench"] is None else ["--bench-signature", str(case["bench"])]
    old = json.loads((d / "g.json").read_text())

    # 1. The comparison, at the baseline's own budget (another budget is an input error).
    if case["old_depth"] == 2:
        compared = run(d, "--baseline", str(d / "g.json"), "--config", "c", *gate, *bench)
        report = json.loads((d / "out/epd/c.json").read_text())
        assert report["comparison"] == want
        short = case["min_solved"] is not None and len(solved_now) < case["min_solved"]
        assert compared.returncode == (1 if want["regressions"] or short else 0), compared.stdout
        assert report["report"]["passed"] == (compared.returncode == 0)
        assert (
            f"against baseline {d / 'g.json'}: {len(want['regressions'])} regressions"
            in compared.stdout
        )
    else:
        old["budget"]["value"] = case["old_depth"]
        (d / "g.json").write_text(json.dumps(old))
        refused = run(d, "--baseline", str(d / "g.json"), "--config", "c")
        assert refused.returncode == 2 and "not comparable" in refused.stderr
        assert json.loads((d / "g.json").read_text()) == old

    # 2. --update-golden: the run's results replace the file; the diff names what changed.
    updated = run(
        d, "--baseline", str(d / "g.json"), "--update-golden", "--config", "u", *gate, *bench
    )
    short = case["min_solved"] is not None and len(solved_now) < case["min_solved"]
    assert updated.returncode == (1 if short else 0), updated.stdout  # no comparison: no regression
    names = {f"p{i}" for i in range(len(case["kinds"]))}
    dropped = [p["id"] for p in old["positions"] if p["id"] not in names]
    lines = [
        f"golden {d / 'g.json'}:",
        f"  budget sd {case['old_depth']} -> sd 2; solved "
        f"{sum(p['solved'] for p in old['positions'])} / {len(old['positions'])} -> "
        f"{len(solved_now)} / {len(case['kinds'])}",
        f"  bench signature {case['old_bench'] if case['old_bench'] is not None else 'unknown'} -> "
        f"{case['bench'] if case['bench'] is not None else 'unknown'}",
        f"  - no longer solved ({len(want['regressions'])}): {' '.join(want['regressions'])}",
        f"  + newly solved ({len(want['new_solves'])}): {' '.join(want['new_solves'])}",
    ]
    if want["not_in_baseline"]:
        lines.append(f"  positions added: {len(want['not_in_baseline'])}")
    if dropped:
        lines.append(f"  positions dropped: {len(dropped)}")
    assert updated.stdout.endswith("\n".join(lines) + "\n"), updated.stdout

    golden = json.loads((d / "g.json").read_text())
    report = json.loads((d / "out/epd/u.json").read_text())
    assert "comparison" not in golden and "comparison" not in report
    assert golden["baseline_file"] is None and report["baseline_file"] is None
    assert golden["min_solved"] == case["min_solved"] and golden["bench_signature"] == case["bench"]
    assert [p["id"] for p in golden["positions"]] == sorted(names, key=lambda s: int(s[1:]))
    assert [p["solved"] for p in golden["positions"]] == [KINDS[k] for k in case["kinds"]]
    assert all(p["time_s"] == 0 for p in golden["positions"])
    assert [{**p, "time_s": 0} for p in report["positions"]] == golden["positions"]
