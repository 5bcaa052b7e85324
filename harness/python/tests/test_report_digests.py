"""python -m stkdev.report_digests (ci/validate-reports.sh): every digest a report records is the
file's it names (docs/reports.md), both ways; a digest whose file is gone is counted as not
checkable, never passed over in silence; no report at all is exit 2."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from stkdev import report_digests
from stkref.cli import run_tool


def report(path: Path, props: dict[str, str]) -> None:
    cells = "".join(f'<property name="{k}" value="{v}"/>' for k, v in props.items())
    path.write_text(
        f'<testsuites><testsuite name="x.c" tests="1"><properties>{cells}</properties>'
        '<testcase classname="x.c" name="t"/></testsuite></testsuites>'
    )


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# MODEL report-digests
# checks: harness/python/stkdev/report_digests.py  (each digest a report records against the file it names)
# contract: docs/reports.md#exit-status-and-report-files
# planted: ci/mutants/model-report-digests.patch  (a numbered digest read against the file after its own)
def test_matching_wrong_and_gone_digests(tmp_path: Path, capsys) -> None:
    net, records = tmp_path / "n.nnue", [tmp_path / "a.fhr", tmp_path / "b.fhr"]
    for i, f in enumerate([net, *records]):
        f.write_bytes(bytes([i]) * 10)
    junit = tmp_path / "junit"
    junit.mkdir()
    good = {
        "net": str(net),
        "net_sha256": digest(net),
        "records": ";".join(map(str, records)),
        "records_sha256.1": digest(records[0]),  # numbered from 1
        "records_sha256.2": digest(records[1]),
        "engine": str(tmp_path / "gone"),
        "engine_sha256": "0" * 64,
        "model_sha256": "1" * 64,  # names no file
    }
    report(junit / "good.xml", good)
    assert report_digests.main([str(junit)]) == 0
    out = capsys.readouterr().out
    assert "3 digests checked, 0 wrong, 2 not checkable" in out
    report(junit / "bad.xml", good | {"records_sha256.2": digest(records[0])})
    assert report_digests.main([str(junit)]) == 1
    out = capsys.readouterr().out
    assert f"bad.xml: property records_sha256.2 is {digest(records[0])}, but {records[1]}" in out
    assert "6 digests checked, 1 wrong" in out


def test_no_report_or_an_unreadable_file_is_exit_2(tmp_path: Path, capsys) -> None:
    assert run_tool(lambda: report_digests.main([str(tmp_path)])) == 2
    assert "no JUnit report" in capsys.readouterr().err
    assert run_tool(lambda: report_digests.main([str(tmp_path / "none")])) == 2
    fifo = tmp_path / "net.nnue"  # a report naming a FIFO: refused, never waited on
    os.mkfifo(fifo)
    report(tmp_path / "r.xml", {"net": str(fifo), "net_sha256": "0" * 64})
    assert run_tool(lambda: report_digests.main([str(tmp_path)])) == 2
    assert "FIFO" in capsys.readouterr().err
