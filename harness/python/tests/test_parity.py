from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import validate_junit

from stkref.cli import run_tool
from stkref.parity import main as parity_main


def run_parity(argv: list[str], monkeypatch: pytest.MonkeyPatch, defect: str = "") -> int:
    monkeypatch.setenv("FAKE_STK_DEFECT", defect)
    return run_tool(lambda: parity_main(argv))


def features_args(engine: Path, reports: Path, *extra: str) -> list[str]:
    return [
        "features",
        "--engine",
        str(engine),
        "--random",
        "12",
        "--seed",
        "3",
        "--reports-dir",
        str(reports),
        *extra,
    ]


def eval_args(engine: Path, net: Path, reports: Path, *extra: str) -> list[str]:
    return [
        "eval",
        "--engine",
        str(engine),
        "--net",
        str(net),
        "--random",
        "10",
        "--seed",
        "3",
        "--reports-dir",
        str(reports),
        *extra,
    ]


def cases(report: Path) -> dict[tuple[str, str], ET.Element]:
    root = ET.parse(report).getroot()
    return {(c.get("classname", ""), c.get("name", "")): c for c in root.iter("testcase")}


def test_features_parity_passes(
    tmp_path: Path, fake_engine: Path, junit_xsd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_parity(features_args(fake_engine, tmp_path), monkeypatch) == 0
    report = tmp_path / "junit" / "features-default.xml"
    validate_junit(junit_xsd, report)
    root = ET.parse(report).getroot()
    suite = root.find("testsuite")
    assert suite is not None and suite.get("name") == "features.default"
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["engine"] == str(fake_engine) and props["seed"] == "3"
    assert props["corpus.random.positions"] == "12" and props["corpus.curated.positions"]
    assert set(cases(report)) == {
        ("features.spec", "index-sets"),
        ("features.spec", "test-vectors"),
        ("features.curated", "index-sets"),
        ("features.random", "index-sets"),
    }
    assert (tmp_path / "features" / "features-default.json").exists()
    assert (tmp_path / "features" / "features-default.md").exists()


# Planted defect: one index of one position is off by one square.
def test_features_flipped_index_fails(
    tmp_path: Path,
    fake_engine: Path,
    junit_xsd: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    junit = tmp_path / "f.xml"
    code = run_parity(
        features_args(fake_engine, tmp_path, "--junit", str(junit)), monkeypatch, "flip-index"
    )
    assert code == 1
    out = capsys.readouterr().out
    assert "perspective white" in out and "only in engine:" in out and "only in reference:" in out
    assert "(bucket " in out and "kind " in out and "square " in out
    validate_junit(junit_xsd, junit)
    c = cases(junit)
    failure = c[("features.curated", "index-sets")].find("failure")
    assert failure is not None and failure.get("message") == "1 of 62 index sets differ"
    assert "only in engine" in (failure.text or "")
    assert c[("features.spec", "index-sets")].find("failure") is None


def test_engine_crash_is_an_error(
    tmp_path: Path, fake_engine: Path, junit_xsd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_parity(features_args(fake_engine, tmp_path), monkeypatch, "crash") == 1
    report = tmp_path / "junit" / "features-default.xml"
    validate_junit(junit_xsd, report)
    err = cases(report)[("features.spec", "index-sets")].find("error")
    assert err is not None and "status 3" in (err.text or "")


def test_dropped_output_line_is_an_error(
    tmp_path: Path, fake_engine: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run_parity(features_args(fake_engine, tmp_path), monkeypatch, "drop-line") == 1
    err = cases(tmp_path / "junit" / "features-default.xml")[
        ("features.curated", "index-sets")
    ].find("error")
    assert err is not None and "result lines" in (err.text or "")


def test_usage_and_input_errors_exit_2(
    tmp_path: Path,
    fake_engine: Path,
    net128: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bad_epd = tmp_path / "bad.epd"
    bad_epd.write_text("not a fen\n")
    assert run_parity(features_args(fake_engine, tmp_path, "--epd", str(bad_epd)), monkeypatch) == 2
    assert f"{bad_epd}:1" in capsys.readouterr().err
    assert run_parity(features_args(tmp_path / "no-such-stk", tmp_path), monkeypatch) == 2
    assert "--engine: " in (err := capsys.readouterr().err) and "no-such-stk: cannot open" in err
    short = tmp_path / "short.nnue"
    short.write_bytes(net128.read_bytes()[:-1])
    assert run_parity(eval_args(fake_engine, short, tmp_path), monkeypatch) == 2
    assert "short file" in capsys.readouterr().err
    # --engine is required: a usage error, exit 2 (run_tool is the entry point's wrapper)
    assert run_tool(lambda: parity_main(["features", "--reports-dir", str(tmp_path / "r")])) == 2
    assert "--engine" in capsys.readouterr().err


def test_eval_parity_passes(
    tmp_path: Path,
    fake_engine: Path,
    net128: Path,
    junit_xsd: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert run_parity(eval_args(fake_engine, net128, tmp_path), monkeypatch) == 0
    report = tmp_path / "junit" / "eval-default.xml"
    validate_junit(junit_xsd, report)
    names = {name for (_cls, name) in cases(report)}
    assert names == {
        "engine-vs-oracle",
        "engine-vs-oracle-mirror",
        "oracle-mirror-symmetry",
        "engine-mirror-symmetry",
    }
    props = {p.get("name"): p.get("value") for p in ET.parse(report).getroot().iter("property")}
    assert props["tolerance_cp"] == "0" and props["net"] == str(net128)


# Planted defect: the engine adds 1 cp with black to move. Tolerance 0 catches it, and the
# engine's own colour-mirror symmetry fails while the oracle's holds.
def test_eval_off_by_one_fails(
    tmp_path: Path,
    fake_engine: Path,
    net128: Path,
    junit_xsd: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert (
        run_parity(eval_args(fake_engine, net128, tmp_path), monkeypatch, "eval-black-plus-one")
        == 1
    )
    report = tmp_path / "junit" / "eval-default.xml"
    validate_junit(junit_xsd, report)
    c = cases(report)
    assert c[("eval.random", "engine-vs-oracle")].find("failure") is not None
    assert c[("eval.random", "engine-mirror-symmetry")].find("failure") is not None
    assert c[("eval.random", "oracle-mirror-symmetry")].find("failure") is None
    # A 1 cp tolerance hides the parity failure but not the symmetry failure.
    assert (
        run_parity(
            eval_args(fake_engine, net128, tmp_path, "--tolerance-cp", "1"),
            monkeypatch,
            "eval-black-plus-one",
        )
        == 1
    )
    c = cases(report)
    assert c[("eval.random", "engine-vs-oracle")].find("failure") is None
    assert c[("eval.random", "engine-mirror-symmetry")].find("failure") is not None


def test_parity_as_module(tmp_path: Path, fake_engine: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "stkref.parity",
            "features",
            "--engine",
            str(fake_engine),
            "--random",
            "2",
            "--no-curated",
            "--reports-dir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "seed 1" in proc.stdout and "PASS" in proc.stdout


def test_engine_args_are_passed(
    tmp_path: Path, fake_engine: Path, net128: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (
        run_parity(
            eval_args(fake_engine, net128, tmp_path, "--no-curated", "--engine-args=--impl scalar"),
            monkeypatch,
        )
        == 0
    )
    # The fake engine rejects an unknown implementation: the batch errors, the gate fails.
    assert (
        run_parity(
            eval_args(fake_engine, net128, tmp_path, "--no-curated", "--engine-args=--impl bogus"),
            monkeypatch,
        )
        == 1
    )


def test_an_eval_mismatch_is_described_with_its_signed_delta() -> None:
    # A reviewer reads the delta first (planted by the mutation campaign: engine | oracle).
    import chess

    from stkref.oracle import EvalParts
    from stkref.parity import EvalDiff
    from stkref.positions import Position

    pos = Position("curated", "7", chess.STARTING_FEN)
    engine = {"eval": 10, "bucket": 7, "psqt": 4, "positional": 6}
    text = EvalDiff(pos, engine, EvalParts(13, 7, 4, 9)).describe()
    assert text.startswith(f"[curated:7] {chess.STARTING_FEN}\n")
    assert "engine eval 10 bucket 7 psqt 4 positional 6" in text
    assert "oracle eval 13 bucket 7 psqt 4 positional 9  (delta -3 cp)" in text


@pytest.mark.parametrize("total", [0, 1, 49, 50, 51, 120])
def test_a_failed_case_spells_out_50_mismatches_then_counts_the_rest(total: int) -> None:
    """docs/harnesses/features.md "Verdicts": every mismatch is counted; the first 50 are spelled
    out, then "... and K more" for the rest, nothing when none is left out."""
    from stkref import parity
    from stkref.junit import Outcome, TestCase

    case = TestCase("features", "c")
    details = [f"position {i}" for i in range(total)]
    parity._failed(case, "m", details, total)
    lines = case.detail.split("\n") if case.detail else []
    assert case.outcome == Outcome.FAILED
    assert lines[: min(total, 50)] == details[:50]
    assert lines[50:] == ([f"... and {total - 50} more"] if total > 50 else [])
