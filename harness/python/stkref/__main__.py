"""python -m stkref: list the tools (the modules that run as `python -m stkref.<tool>`)."""

from __future__ import annotations

from pathlib import Path

from .cli import run_tool
from .inputs import read_input_text


def tools(here: Path = Path(__file__).parent) -> list[str]:
    """Every module of the package (`here`) with a command-line entry, found in the sources so
    that a new tool is listed without anyone editing a list here."""
    return sorted(
        p.stem
        for p in here.glob("*.py")
        if p.stem != "__main__" and 'if __name__ == "__main__":' in read_input_text(p)
    )


def main(package: str = "stkref", here: Path = Path(__file__).parent) -> int:
    print(f"{package} tools (run as python -m {package}.<tool> --help):")
    for tool in tools(here):
        print(f"  {tool}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_tool(main))
