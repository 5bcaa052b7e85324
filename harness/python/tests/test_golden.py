from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import validate_junit

from stkref.cli import run_tool
from stkref.golden import EVALS, check_golden, diff_records
from stkref.golden import main as golden_main


def test_golden_check_passes(golden_dir: Path, tmp_path: Path, junit_xsd: Path) -> None:
    junit = tmp_path / "golden.xml"
    assert check_golden(golden_dir, junit) == 0
    validate_junit(junit_xsd, junit)
    lines = (golden_dir / EVALS).read_text().splitlines()
    assert 18 <= len(lines) <= 25
    evals = [json.loads(x)["eval"] for x in lines]
    assert len(set(evals)) > len(evals) // 2  # evals vary: the net is not saturated
    manifest = json.loads((golden_dir / "manifest.json").read_text())
    assert manifest["seed"] == 1 and manifest["hidden"] == 128


def test_golden_refuses_overwrite(golden_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_tool(lambda: golden_main(["--out", str(golden_dir)])) == 2
    assert "--update-golden" in capsys.readouterr().err


def test_golden_update_prints_diff(
    golden_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = tmp_path / "g"
    shutil.copytree(golden_dir, d)
    assert run_tool(lambda: golden_main(["--out", str(d), "--update-golden"])) == 0
    assert "golden diff: none" in capsys.readouterr().out


def test_tampered_expected_evals_fail(
    golden_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = tmp_path / "g"
    shutil.copytree(golden_dir, d)
    rows = [json.loads(x) for x in (d / EVALS).read_text().splitlines()]
    rows[3]["eval"] += 1
    (d / EVALS).write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert check_golden(d, None) == 1
    assert f"{rows[3]['id']}: eval expected" in capsys.readouterr().out


def test_float_evals_agree_to_a_millionth_of_a_centipawn() -> None:
    # The float reference may differ only by summation order (planted: the tolerance 1e-6 made
    # 1.000001, and a float eval 0.01 cp off passed).
    rec = {"id": "p", "fen": "f", "eval": 1, "bucket": 0, "psqt": 0, "positional": 1}
    near = diff_records([{**rec, "float_eval": 12.5}], [{**rec, "float_eval": 12.5 + 1e-9}])
    assert near == []
    far = diff_records([{**rec, "float_eval": 12.5}], [{**rec, "float_eval": 12.51}])
    assert far == ["p: float_eval expected 12.5, got 12.51"]


def test_missing_golden_files_exit_2(tmp_path: Path) -> None:
    assert run_tool(lambda: golden_main(["--check", str(tmp_path)])) == 2


# Planted defects in the quantizer: the golden check must fail for each.
def test_planted_round_half_away_fails_golden(
    golden_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import stkref.quantize as q

    monkeypatch.setattr(q, "_round", lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5))
    assert check_golden(golden_dir, None) == 1


def test_planted_padding_row_kept_fails_golden(
    golden_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import stkref.quantize as q

    monkeypatch.setattr(q, "_drop_padding_row", lambda w: w[:-1])
    assert check_golden(golden_dir, None) == 1


def test_planted_truncating_shift_fails_golden(
    golden_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An oracle whose output shifts truncate toward zero (C-style division) instead of
    flooring: the golden evals hold negative outputs, so the check must fail."""
    import stkref.oracle as o

    monkeypatch.setattr(o, "shift", lambda value, bits: int(value / (1 << bits)))
    assert check_golden(golden_dir, None) == 1


def test_planted_perspective_swap_fails_golden(
    golden_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An oracle that feeds the transformer output in [opponent, side to move] order instead of
    [side to move, opponent]: the golden evals must catch it."""
    import stkref.oracle as o

    real = o.active_features
    monkeypatch.setattr(o, "active_features", lambda board, colour: real(board, not colour))
    assert check_golden(golden_dir, None) == 1
