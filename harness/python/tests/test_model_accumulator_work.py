"""The accumulator harness does the work its options ask, counted by its own figures
(docs/harnesses/accumulator.md#how-much-each-check-does): a walk too many or too few, a sample
drawn short, a search at another depth would leave every equality check passing."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS", str(REPO / "build/release/harness/stk-harness"))


def figures(tmp: Path, **options: int) -> dict[str, dict]:
    if not Path(HARNESS).exists():
        pytest.skip(f"stk-harness not found at {HARNESS}")
    words = [w for k, v in options.items() for w in (f"--{k.replace('_', '-')}", str(v))]
    r = subprocess.run(
        [HARNESS, "accumulator", *words, "--config", "w", "--out-dir", str(tmp)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode in (0, 1), r.stderr  # 1: a short walk may miss a move kind (coverage)
    doc = json.loads((tmp / "accumulator" / "w.json").read_text())
    return {c["check"].split("/", 1)[1]: c for c in doc["checks"]}


# MODEL accumulator-work
# checks: harness/src/commands/accumulator/accumulator_checks.cpp  (the walks, steps and samples run)
# contract: docs/harnesses/accumulator.md#how-much-each-check-does
# planted: ci/mutants/accumulator-one-walk-too-many.patch  (the walk loop runs to games inclusive)
@settings(max_examples=12, phases=(Phase.explicit, Phase.generate))
@given(
    games=st.integers(0, 9),
    plies=st.integers(1, 12),
    positions=st.integers(0, 25),
    depth=st.integers(1, 3),
    seed=st.integers(0, 2**62),
)
def test_each_check_does_the_work_asked(
    tmp_path_factory: pytest.TempPathFactory,
    games: int,
    plies: int,
    positions: int,
    depth: int,
    seed: int,
) -> None:
    tmp = tmp_path_factory.mktemp("acc")
    c = figures(tmp, games=games, plies=plies, positions=positions, search_depth=depth, seed=seed)
    walks = c["incremental equals recompute after every step"]
    assert int(walks["steps_checked"]) == 2 * games * plies
    assert int(walks["extreme_net_steps_checked"]) == 2 * max(1, games // 4) * plies
    moves = c["coverage of the moves that stress the accumulator"]
    assert int(moves["steps"]) == 2 * games * plies
    assert int(moves["moves"]) + int(moves["null_moves"]) == int(moves["unmakes"]) == games * plies
    assert int(c[f"per-node audit during a real search (depth {depth})"]["depth"]) == depth
    sampled = [k for k in c if k.startswith(("scalar equals avx2", "colour mirror", "horizontal"))]
    assert len(sampled) == 4, list(c)
    for name in sampled:
        assert int(c[name]["positions_compared"]) + int(c[name]["skipped"]) == positions, name
