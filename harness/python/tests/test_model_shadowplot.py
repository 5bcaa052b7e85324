"""Independent model of stkref.shadowplot (what the miss-rate plot shows), written from its
documented contract (the module's usage text, docs/harnesses/shadow.md): one line per mechanism
over the depths it audited, the control rate dashed, shared controls drawn once; reordering the
cells changes nothing."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from stkref import shadowplot

MECHS = {"lmr": "lmr", "nmp": "nmp", "lmp": "quiet", "futility": "quiet", "see": "quiet"}

NO_SHRINK = (Phase.explicit, Phase.generate)


@st.composite
def summaries(draw: st.DrawFn) -> dict:
    cells = []
    for mech in draw(st.lists(st.sampled_from(sorted(MECHS)), min_size=1, max_size=5, unique=True)):
        for depth in draw(st.lists(st.integers(1, 12), min_size=1, max_size=5, unique=True)):
            audited = draw(st.sampled_from([0, 5, 100, 400]))
            rate = draw(st.integers(0, 50)) / 100
            cell = {
                "mechanism": mech,
                "depth": depth,
                "audited": audited,
                "rate": rate,
                "wilson_lo": max(rate - 0.05, 0),
                "wilson_hi": min(rate + 0.07, 1),
                "control": MECHS[mech],
            }
            if draw(st.booleans()):
                cell["control_audited"] = draw(st.sampled_from([0, 50]))
                cell["control_rate"] = draw(st.integers(0, 30)) / 100
            cells.append(cell)
    return {"cells": cells, "config": "t", "positions": 10, "budget": "sd 7"}


def model_lines(summary: dict) -> tuple[dict, list, float]:
    """(solid lines per mechanism as (depths, rates), dashed control lines, y top)."""
    solid: dict[str, tuple[list, list]] = {}
    cells = {}
    for c in summary["cells"]:
        if c["audited"] > 0:
            cells.setdefault(c["mechanism"], []).append(c)
    top = 0.0
    dashed, drawn = [], set()
    for mech in sorted(cells):
        cs = sorted(cells[mech], key=lambda c: c["depth"])
        solid[mech] = ([c["depth"] for c in cs], [c["rate"] for c in cs])
        top = max([top] + [c["wilson_hi"] for c in cs if c["audited"] >= 100])
        ctl = [c for c in cs if c.get("control_audited", 0) > 0]
        pop = cs[0]["control"]
        if ctl and pop not in drawn:
            dashed.append(([c["depth"] for c in ctl], [c["control_rate"] for c in ctl]))
            drawn.add(pop)
    return solid, dashed, min(1.0, max(top, 0.01) * 1.1)


def drawn(fig) -> tuple[dict, list, float]:
    ax = fig.axes[0]
    solid, dashed = {}, []
    for line in ax.lines:
        xy = ([float(x) for x in line.get_xdata()], [float(y) for y in line.get_ydata()])
        if line.get_linestyle() == "--":
            dashed.append(xy)
        else:
            solid[line.get_label().split(" (n=")[0]] = xy
    return solid, dashed, ax.get_ylim()[1]


# MODEL shadowplot-lines
# checks: harness/python/stkref/shadowplot.py  (the plotted rate and control lines, the y range)
# contract: docs/harnesses/shadow.md#the-audit
# planted: ci/mutants/model-shadowplot-lines.patch  (cells with no audited move plotted as rate 0)
@pytest.mark.filterwarnings("ignore:No artists with labels")
@settings(max_examples=5, phases=NO_SHRINK)  # a plot per example: no shrinking
@given(summary=summaries(), seed=st.integers(0, 2**32 - 1))
def test_shadowplot_equals_model(
    tmp_path_factory: pytest.TempPathFactory, summary: dict, seed: int
) -> None:
    out = tmp_path_factory.mktemp("plot") / "r.png"
    want_solid, want_dashed, want_top = model_lines(summary)
    shuffled = {**summary, "cells": [dict(c) for c in summary["cells"]]}
    random.Random(seed).shuffle(shuffled["cells"])
    for s in (summary, shuffled):
        solid, dashed, top = drawn(shadowplot.plot(s, out))
        assert solid == {m: (list(map(float, d)), r) for m, (d, r) in want_solid.items()}
        assert sorted(dashed) == sorted((list(map(float, d)), r) for d, r in want_dashed)
        assert top == pytest.approx(want_top)
        assert out.stat().st_size > 0


def test_shadowplot_bad_summary_is_exit_2(tmp_path: Path) -> None:
    src = tmp_path / "s.json"
    src.write_text('{"config": "x"}')
    assert shadowplot.main([str(src), str(tmp_path / "o.png")]) == 2
