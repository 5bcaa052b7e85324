"""stkref.perft: python-chess recounts the golden perft counts (the second reference beside
stockfish); a wrong golden count is caught, a malformed line is an input error."""

from __future__ import annotations

from pathlib import Path

import pytest

from stkref.cli import run_tool
from stkref.perft import main as perft_main

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("name", ["perft.epd", "perft-rare.epd"])
def test_golden_counts_agree_with_python_chess(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        run_tool(lambda: perft_main(["--epd", str(ROOT / "golden" / name), "--max-nodes", "8000"]))
        == 0
    )
    assert " 0 differ" in capsys.readouterr().out


def test_planted_wrong_count_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    epd = tmp_path / "p.epd"
    epd.write_text(
        "# a pinned pawn that may only take the pinner\n"
        "5r1b/6P1/8/8/8/8/8/K6k w - - 0 1 ;D1 11 ;D2 91\n"
    )
    assert run_tool(lambda: perft_main(["--epd", str(epd)])) == 1
    assert f"{epd}:2: D1 golden 11, python-chess 7" in capsys.readouterr().out
    epd.write_text("5r1b/6P1/8/8/8/8/8/K6k w - - 0 1 ;D1 x\n")
    capsys.readouterr()
    assert run_tool(lambda: perft_main(["--epd", str(epd)])) == 2
    # an input error naming the line, not a crash reported as one (planted by the mutation
    # campaign: the ValueError no longer caught, so exit 2 came with a traceback and no line)
    assert f"error: {epd}:1: malformed depth field 'D1 x'" in capsys.readouterr().err


def test_a_count_at_the_node_limit_is_recomputed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    epd = tmp_path / "p.epd"
    epd.write_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n")
    assert run_tool(lambda: perft_main(["--epd", str(epd), "--max-nodes", "400"])) == 0
    assert "2 counts recomputed with python-chess, 0 differ, 0 above 400" in capsys.readouterr().out
