"""stkref.shadowplot draws the shadow audit's miss rates: one line per mechanism, a dashed
control line (grey and drawn once when mechanisms share a control population), the y range
from the well-sampled cells; bad input is exit 2 (the C++ harness reports it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stkref import shadowplot


def _cell(mech: str, depth: int, rate: float, audited: int, control: str) -> dict:
    return {
        "mechanism": mech, "depth": depth, "rate": rate, "audited": audited,
        "wilson_lo": rate / 2, "wilson_hi": rate * 2, "control": control,
        "control_audited": 50, "control_rate": rate / 4,
    }  # fmt: skip


SUMMARY = {
    "config": "t",
    "positions": 10,
    "budget": "depth 7",
    "cells": [
        _cell("lmp", 2, 0.05, 200, "move-pruning"),
        _cell("lmp", 3, 0.02, 40, "move-pruning"),  # too few for the y range
        _cell("futility", 2, 0.04, 150, "move-pruning"),
        _cell("lmr", 3, 0.10, 120, "lmr"),
        _cell("nmp", 4, 0.9, 0, "nmp"),  # never audited: not drawn
    ],
}


def test_lines_controls_and_range(tmp_path: Path):
    out = tmp_path / "s.png"
    ax = shadowplot.plot(SUMMARY, out).axes[0]
    assert out.stat().st_size > 0
    solid = {ln.get_label().split(" ")[0]: ln for ln in ax.lines if ln.get_linestyle() == "-"}
    dashed = [ln for ln in ax.lines if ln.get_linestyle() == "--"]
    assert sorted(solid) == ["futility", "lmp", "lmr"]  # nmp has no audited cell
    # move-pruning is shared by lmp and futility: one grey line; lmr's own control in its colour
    assert len(dashed) == 2
    from matplotlib.colors import to_hex

    colours = {to_hex(ln.get_color()) for ln in dashed}
    assert colours == {to_hex("grey"), to_hex(solid["lmr"].get_color())}
    # the range: the largest upper bound of a cell with >= 100 audits (0.2, lmr), plus 10%
    assert ax.get_ylim()[1] == pytest.approx(0.22)


def test_usage_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    assert shadowplot.main(["--help"]) == 0
    assert shadowplot.main([]) == 2
    assert shadowplot.main(["only-one"]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"cells": []}))  # no config
    assert shadowplot.main([str(bad), str(tmp_path / "x.png")]) == 2
    assert f"cannot read {bad}" in capsys.readouterr().err
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SUMMARY))
    assert shadowplot.main([str(good), str(tmp_path / "g.png")]) == 0
