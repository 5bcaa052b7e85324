"""python -m stktrain: list the tools (the modules that run as `python -m stktrain.<tool>`)."""

from __future__ import annotations

from pathlib import Path

from stkref.__main__ import main

if __name__ == "__main__":
    raise SystemExit(main("stktrain", Path(__file__).parent))
