#!/usr/bin/env python3
"""`ci/net_strength_report.py`: runs stktrain.strength_report
(harness/python/stktrain/strength_report.py), whose docstring says what it does."""

import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "harness" / "python"))
runpy.run_module("stktrain.strength_report", run_name="__main__", alter_sys=True)
