#!/usr/bin/env python3
"""`ci/record-trained-net.py`: runs stktrain.record_net (harness/python/stktrain/record_net.py),
whose docstring says what it does."""

import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "harness" / "python"))
runpy.run_module("stktrain.record_net", run_name="__main__", alter_sys=True)
