"""Independent model of stkref.golden's verdicts (docs/harnesses/golden-nets.md "Verdicts")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stkref import golden

KEYS = ("fen", "eval", "bucket", "psqt", "positional")


@st.composite
def records(draw: st.DrawFn) -> list[dict]:
    n = draw(st.integers(1, 5))
    return [
        {
            "id": f"p{i}",
            "fen": draw(st.sampled_from(["a", "b"])),
            "eval": draw(st.integers(-500, 500)),
            "bucket": draw(st.integers(0, 7)),
            "psqt": draw(st.integers(-99, 99)),
            "positional": draw(st.integers(-99, 99)),
            "float_eval": draw(st.integers(-(10**8), 10**8)) / 1e6,
        }
        for i in range(n)
    ]


def model_diffs(expected: list[dict], actual: list[dict]) -> int:
    if [r["id"] for r in expected] != [r["id"] for r in actual]:
        return 1
    n = 0
    for e, a in zip(expected, actual, strict=True):
        n += sum(e[k] != a[k] for k in KEYS)
        n += abs(e["float_eval"] - a["float_eval"]) > 1e-6 * (1 + 1e-9)
    return n


# MODEL golden-record-verdicts
# checks: harness/python/stkref/golden.py  (stored vs recomputed golden evals: what differs)
# contract: docs/harnesses/golden-nets.md#verdicts
# planted: ci/mutants/model-golden-record-verdicts.patch  (psqt not compared)
@given(records(), st.data())
def test_diff_records_equals_model(expected: list[dict], data: st.DataObject) -> None:
    actual = [dict(r) for r in expected]
    for r in actual:
        for k in ("eval", "bucket", "psqt", "positional"):
            r[k] += data.draw(st.sampled_from([0, 0, 0, 1, -1]))
        # float: within 1e-6 keeps, 2e-6 breaks (clear of the rounding of 1e-6 itself)
        r["float_eval"] += data.draw(st.sampled_from([0.0, 0.5e-6, -0.9e-6, 2e-6, -3e-6]))
    if data.draw(st.booleans()) and len(actual) > 1:
        actual = actual[::-1]
    assert len(golden.diff_records(expected, actual)) == model_diffs(expected, actual)


# MODEL golden-check-verdicts
# checks: harness/python/stkref/golden.py  (--check: exit 0 on the golden files, 1 on one change)
# contract: docs/harnesses/golden-nets.md#verdicts
# planted: ci/mutants/model-golden-check-verdicts.patch  (float_eval compared at 1e-5 cp, not 1e-6)
@pytest.mark.parametrize("change", ["none", "eval", "float", "net", "missing"])
def test_check_golden_both_ways(golden_dir: Path, tmp_path: Path, change: str) -> None:
    d = tmp_path / "g"
    shutil.copytree(golden_dir, d)
    evals = d / golden.EVALS
    rows = [json.loads(x) for x in evals.read_text().splitlines()]
    if change == "eval":
        rows[3]["eval"] += 1
    elif change == "float":
        rows[5]["float_eval"] += 2e-6
    evals.write_text("".join(json.dumps(r) + "\n" for r in rows))
    net = d / f"{golden.STEM}.nnue"
    if change == "net":
        data = bytearray(net.read_bytes())
        data[-1] ^= 1  # the last output bias of bucket 7
        net.write_bytes(bytes(data))
    if change == "missing":
        net.unlink()
        with pytest.raises(golden.InputError, match="golden file missing"):
            golden.check_golden(d, None)
        return
    assert golden.check_golden(d, None) == (0 if change == "none" else 1)


# MODEL golden-update-rule
# checks: harness/python/stkref/golden.py  (golden files rewritten only with --update-golden, any one of them)
# contract: ../shared/HARNESS.md#common-contract-for-every-harness
# planted: ci/mutants/model-golden-update-rule.patch  (only the checkpoint's presence protects the files)
@pytest.mark.parametrize("keep", ["npz", "nnue", "evals", "manifest"])
def test_write_golden_refuses_without_update(
    golden_dir: Path, tmp_path: Path, keep: str, capsys: pytest.CaptureFixture[str]
) -> None:
    d = tmp_path / "g"
    shutil.copytree(golden_dir, d)
    names = {
        "npz": f"{golden.STEM}.npz",
        "nnue": f"{golden.STEM}.nnue",
        "evals": golden.EVALS,
        "manifest": golden.MANIFEST,
    }
    for k, n in names.items():
        if k != keep:
            (d / n).unlink()
    before = (d / names[keep]).read_bytes()
    with pytest.raises(golden.InputError, match="--update-golden"):
        golden.write_golden(d, update=False)  # one golden file there: breaks
    assert (d / names[keep]).read_bytes() == before
    assert golden.write_golden(d, update=True) == 0  # with the flag: keeps, prints the diff
    if keep == "evals":
        assert "golden diff: none" in capsys.readouterr().out
    assert sorted(p.name for p in d.iterdir()) == sorted(names.values())
