"""The openings a match's diagnostics flag, from docs/match-results.md "Game diagnostics": a model
of the documented rule over generated result files, read back through `match-merge`. Positions
repeat (a transposition, a book played round twice), pairs are decided by their opening or not,
positions go unrecorded; the model says which positions are flagged, with which openings,
pentanomial and flags."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from rule_choice import every_rule

REPO = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS", str(REPO / "build/release/harness/stk-harness"))

POSITIONS = ["8/8/8/8/8/8/8/K6k w - -", "8/8/8/8/8/8/8/K5k1 b - -", "8/8/8/8/8/8/k7/K7 w - -", ""]
RULES = ["checkmate", "stalemate", "repetition", "fifty-moves", "insufficient-material"]
FAULTS = ["time-loss", "crash", "illegal-move", "disconnect"]


@st.composite
def games(draw: st.DrawFn) -> dict:
    """One game whose result its termination can give (match-results.md, the termination table)."""
    # Every termination is drawn, or the test fails naming it (rule_choice.py).
    termination = draw(every_rule([*RULES, "adjudication", *FAULTS]))
    if termination == "checkmate" or termination in FAULTS:
        result = draw(st.sampled_from(["1-0", "0-1"]))
    elif termination in RULES:
        result = "1/2-1/2"
    else:
        result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2"]))
    plies = draw(st.sampled_from([0, 1, 2, 57]))
    return {"result": result, "termination": termination, "reason": "r", "plies": plies}


def a_half_points(game: dict) -> int:
    if game["result"] == "1/2-1/2":
        return 1
    return 2 if (game["result"] == "1-0") == (game["a"] == "white") else 0


@st.composite
def pairs(draw: st.DrawFn) -> list[dict]:
    n = draw(st.integers(1, 7))
    out = []
    for opening in range(n):
        g = [draw(games()), draw(games())]
        first = draw(st.sampled_from(["white", "black"]))
        g[0]["a"], g[1]["a"] = first, "black" if first == "white" else "white"
        pair = {"opening": opening, "score": sum(map(a_half_points, g)), "games": g}
        position = draw(st.sampled_from(POSITIONS))
        if position:
            pair["position"] = position
        out.append(pair)
    return out


def decided_by_opening(pair: dict) -> bool:
    """One colour won both games, or a game ended by the rules or adjudication before the
    engines' first move."""
    results = {g["result"] for g in pair["games"]}
    one_colour = len(results) == 1 and results != {"1/2-1/2"}
    before_move_1 = any(
        g["plies"] == 0 and g["termination"] in (*RULES, "adjudication") for g in pair["games"]
    )
    return one_colour or before_move_1


def model_openings(ps: list[dict]) -> dict:
    groups: dict[str, list[dict]] = {}
    for p in ps:  # a pair without a position is its own
        groups.setdefault(p.get("position") or f"opening {p['opening']}", []).append(p)
    flagged = []
    for members in groups.values():
        decided = any(decided_by_opening(p) for p in members)
        duplicate = len(members) > 1
        if not (decided or duplicate):
            continue
        penta = [0] * 5
        for p in members:
            penta[p["score"]] += 1
        flags = ["decided-before-move-1"] * decided + ["duplicate-position"] * duplicate
        flagged.append(
            {
                "position": members[0].get("position", ""),
                "openings": sorted(p["opening"] for p in members),
                "pentanomial": penta,
                "flags": flags,
            }
        )
    return {
        "positions": len(groups),
        "decided_before_move_1": sum(
            any(decided_by_opening(p) for p in m) for m in groups.values()
        ),
        "duplicate_positions": sum(len(m) > 1 for m in groups.values()),
        "flagged": sorted(flagged, key=lambda f: f["openings"]),
    }


def result_file(ps: list[dict]) -> dict:
    w = sum(a_half_points(g) == 2 for p in ps for g in p["games"])
    d = sum(a_half_points(g) == 1 for p in ps for g in p["games"])
    penta = [sum(p["score"] == k for p in ps) for k in range(5)]
    return {
        "kind": "stk-match-result",
        "version": 1,
        "definition": {
            "config": "t",
            "engines": [
                {"name": "A", "command": "a", "options": {}},
                {"name": "B", "command": "b", "options": {}},
            ],
            "time_control": "nodes=1",
            "settings": {},
            "openings": {"file": "", "seed": 0, "pairs": len(ps)},
            "shard_count": 1,
            "sprt": None,
            "gate": {"mode": "aa-control", "min_elo_lower95": None},
        },
        "shards": [1],
        "counts": {"wdl": {"w": w, "d": d, "l": 2 * len(ps) - w - d}, "pentanomial": penta},
        "pairs": ps,
    }


# MODEL match-opening-diagnostics
# checks: harness/src/match_results/game_diagnostics.cpp  (the openings flagged and their counts)
# contract: docs/match-results.md#game-diagnostics-match_resultsgame_diagnosticsh
# planted: ci/mutants/diagnostics-every-opening-flagged.patch  (a clean position listed too)
@settings(max_examples=40, phases=(Phase.explicit, Phase.generate))
@given(ps=pairs())
def test_the_flagged_openings_are_the_documented_ones(
    tmp_path_factory: pytest.TempPathFactory, ps: list[dict]
) -> None:
    if not Path(HARNESS).exists():
        pytest.skip(f"stk-harness not found at {HARNESS}")
    tmp = tmp_path_factory.mktemp("diag")
    (tmp / "r.json").write_text(json.dumps(result_file(ps)))
    r = subprocess.run(
        [HARNESS, "match-merge", str(tmp / "r.json"), "--out-dir", str(tmp / "out")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode in (0, 1), r.stdout + r.stderr
    got = json.loads((tmp / "out/match/t.json").read_text())["diagnostics"]["openings"]
    got["flagged"] = sorted(got["flagged"], key=lambda f: f["openings"])
    assert got == model_openings(ps)
