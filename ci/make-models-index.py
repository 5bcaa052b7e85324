#!/usr/bin/env python3
"""`ci/make-models-index.py`: runs stkmutation.models (harness/python/stkmutation/models.py),
whose docstring says what it does."""

import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "harness" / "python"))
runpy.run_module("stkmutation.models", run_name="__main__", alter_sys=True)
