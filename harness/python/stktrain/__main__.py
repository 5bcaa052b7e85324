"""python -m stktrain: list the tools (the modules that run as `python -m stktrain.<tool>`)."""

from __future__ import annotations

from pathlib import Path

from stkref.__main__ import main
from stkref.cli import run_tool

if __name__ == "__main__":
    raise SystemExit(run_tool(lambda: main("stktrain", Path(__file__).parent)))
