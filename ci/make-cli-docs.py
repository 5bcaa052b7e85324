#!/usr/bin/env python3
"""`ci/make-cli-docs.py`: runs stkdev.cli_docs (harness/python/stkdev/cli_docs.py),
whose docstring says what it does."""

import runpy
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "harness" / "python"))
runpy.run_module("stkdev.cli_docs", run_name="__main__", alter_sys=True)
