"""The fail-high predictor against the real engine: runs only when STK_ENGINE names the stk binary."""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from stktrain.calibration import build_parser

ENGINE = os.environ.get("STK_ENGINE", "")
pytestmark = pytest.mark.skipif(not ENGINE, reason="set STK_ENGINE=/path/to/stk to run")


def test_calibration_thresholds_default_to_the_engines() -> None:
    # The calibration judges the decisions the engine makes: its default thresholds must be
    # the engine's UCI defaults, or the report describes a search nobody runs.
    out = subprocess.run(
        [ENGINE], input="uci\nquit\n", capture_output=True, text=True, check=True
    ).stdout
    engine = {
        m[0]: int(m[1]) for m in re.findall(r"option name (FH\w+) type spin default (\d+)", out)
    }
    ap = build_parser()  # its defaults (the inputs it requires are refused unless files)
    assert engine == {
        "FHLmrTier1": ap.get_default("lmr_tier1"),
        "FHLmrTier2": ap.get_default("lmr_tier2"),
        "FHStaticNull": ap.get_default("static_null"),
    }
