#!/usr/bin/env python3
"""`ci/fuzz.py`: runs stkdev.fuzz_runner (harness/python/stkdev/fuzz_runner.py),
whose docstring says what it does."""

import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "harness" / "python"))
runpy.run_module("stkdev.fuzz_runner", run_name="__main__", alter_sys=True)
