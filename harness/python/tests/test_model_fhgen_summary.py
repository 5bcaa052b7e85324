"""Independent model of fhgen's positions.json (docs/harnesses/fhgen.md, "positions.json" and
"Split"): every field is derived here from the two EPD files fhgen wrote, the ECM suite read with
python-chess and the options given, never from the code."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import chess
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS") or str(ROOT / "build/release/harness/stk-harness")
SHARED = Path(os.environ.get("STK_SHARED") or ROOT.parent / "shared")
ECM = SHARED / "suites/ECM.epd"
pytestmark = pytest.mark.skipif(
    not Path(HARNESS).exists() or not ECM.exists(),
    reason=f"stk-harness ({HARNESS}) or the ECM suite ({ECM}) not found",
)
ENDS = {
    "checkmate",
    "stalemate",
    "repetition",
    "fifty_moves",
    "insufficient_material",
    "max_plies",
}


def four_fields(line: str) -> str:
    return " ".join(line.split()[:4])


def source(line: str) -> str:
    return line.split('c0 "src=', 1)[1].split('"', 1)[0]


def round_half_away(x: float) -> int:
    return int(x + 0.5) if x >= 0 else -int(-x + 0.5)


def eligible_ecm(sampled: set[str]) -> int:
    """ECM positions fhgen may mix in: distinct, not in check, not a sampled self-play one."""
    seen: set[str] = set()
    for line in ECM.read_text().splitlines():
        if not line.strip():
            continue
        key = four_fields(line)
        board = chess.Board(key + " 0 1")
        if key in seen or key in sampled or board.is_check():
            continue
        seen.add(key)
    return len(seen)


# MODEL fhgen-summary
# checks: harness/src/commands/fhgen/fhgen_command.cpp  (every field of positions.json from the sets written)
# contract: docs/harnesses/fhgen.md#positionsjson
# planted: ci/mutants/model-fhgen-summary.patch  (a set's self-play count including its ECM lines)
# No shrinking: each example runs fhgen, and a failing one is small already.
@settings(max_examples=4, deadline=None, phases=(Phase.explicit, Phase.generate))
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    fraction=st.sampled_from(["0", "0.1", "0.3", "0.5"]),
    every=st.integers(min_value=1, max_value=4),
)
def test_positions_json_is_what_the_sets_and_options_say(
    tmp_path_factory: pytest.TempPathFactory, seed: int, fraction: str, every: int
) -> None:
    out = tmp_path_factory.mktemp("fhg")
    games, max_plies = 3, 24
    cmd = [
        *[HARNESS, "fhgen", "--games", str(games), "--seed", str(seed), "--out-dir", str(out)],
        *["--ecm", str(ECM), "--ecm-fraction", fraction, "--every", str(every)],
        *["--nodes", "200", "--max-plies", str(max_plies), "--heldout", "0.3"],
    ]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    j = json.loads((out / "positions.json").read_text())
    lines = {name: (out / f"{name}.epd").read_text().splitlines() for name in ("fit", "heldout")}
    assert j["tool"] == "stk-harness fhgen" and j["seed"] == seed
    f = float(fraction)
    want_options = {
        "games": games,
        "random_plies_min": 4,
        "random_plies_max": 10,
        "nodes": 200,
        "max_plies": max_plies,
        "every": every,
        "ecm": str(ECM) if f > 0 else None,
        "ecm_fraction": f,
        "heldout": 0.3,
        "split_seed": 0,
        "threads": 1,
        "hash_mb": 16,
        "use_nnue": False,
    }
    assert j["options"] == want_options
    g = j["games"]
    assert g["count"] == games and set(g) == {"count", "plies", "ends"}
    assert set(g["ends"]) <= ENDS and sum(g["ends"].values()) == games
    assert all(isinstance(v, int) and v > 0 for v in g["ends"].values())
    assert isinstance(g["plies"], int) and games * 4 <= g["plies"] <= games * max_plies
    if g["ends"] == {"max_plies": games}:
        assert g["plies"] == games * max_plies
    selfplay = [x for name in lines for x in lines[name] if source(x) == "selfplay"]
    ecm = [x for name in lines for x in lines[name] if source(x) == "ecm"]
    assert len(selfplay) + len(ecm) == sum(len(v) for v in lines.values())
    unique = len(selfplay)
    assert j["selfplay_unique"] == unique
    assert j["selfplay_sampled"] >= unique
    wanted = round_half_away(f * unique / (1 - f)) if f > 0 else 0
    assert j["ecm_wanted"] == wanted
    if f > 0:
        assert j["ecm_available"] == eligible_ecm({four_fields(x) for x in selfplay})
    assert len(ecm) == min(wanted, j["ecm_available"])
    for name in lines:
        s = j["sets"][name]
        assert s == {
            "file": f"{name}.epd",
            "positions": len(lines[name]),
            "selfplay": sum(source(x) == "selfplay" for x in lines[name]),
            "ecm": sum(source(x) == "ecm" for x in lines[name]),
        }
