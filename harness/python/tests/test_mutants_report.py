"""One report format for planted defects (stkmutation.planted) and generated mutants
(stkmutation.tool): stkmutation.report, the records each tool makes, --merge of shard reports, and
the checked writer both use (a full disk or a device path loses no earlier report)."""

from __future__ import annotations

import errno
import importlib.util
import json
import os
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "harness" / "python"))

from stkref import junit  # noqa: E402


def _load(name: str) -> ModuleType:
    return importlib.import_module(f"stkmutation.{name}")


@pytest.fixture(scope="module")
def cm() -> ModuleType:
    return _load("planted")


@pytest.fixture(scope="module")
def mt() -> ModuleType:
    return _load("tool")


def _planted(cm: ModuleType, patch: str, results: list[tuple[bool, bool]], error: str = ""):
    m = cm.Mutant(patch, [f"check {i}" for i in range(len(results))], cm.layer_of(patch))
    m.results = [
        cm.CheckResult(f"check {i}", 1 if c else 0, 2.0, c, t) for i, (c, t) in enumerate(results)
    ]
    m.error = error
    return m


def _planted_records(cm: ModuleType) -> list[dict]:
    patch = sorted((ROOT / "ci" / "mutants").glob("*.patch"))[0].name
    return [
        cm.to_record(_planted(cm, patch, [(True, False), (True, False)])),
        cm.to_record(_planted(cm, "tt-a.patch", [(True, False), (False, False)])),
        cm.to_record(_planted(cm, "tt-b.patch", [(True, True)])),
        cm.to_record(_planted(cm, "see-c.patch", [], error="does not apply to HEAD: x")),
    ]


def test_a_planted_defect_becomes_a_record_of_the_shared_format(cm: ModuleType):
    recs = _planted_records(cm)
    assert [r["outcome"] for r in recs] == ["killed", "survived", "timeout", "error"]
    assert recs[0]["diff"].startswith(("diff --git", "From", "---", "Index")), recs[0]["diff"][:80]
    assert recs[1]["message"] == "1 check(s) passed on the planted defect"
    assert recs[3]["message"].startswith("does not apply")
    # The keys the review page and the tally read are the ones a generated mutant has.
    mutant_keys = {
        "id",
        "file",
        "line",
        "module",
        "operator",
        "outcome",
        "triaged",
        "tests",
        "diff",
    }
    assert all(mutant_keys <= set(r) for r in recs)


def test_both_tools_write_one_format(
    cm: ModuleType, mt: ModuleType, tmp_path: Path, junit_xsd: Path
):
    meta = {"head": "0" * 40, "seconds": 60.0, "jobs": 1}
    cm.write_reports(_planted_records(cm), "p", tmp_path, meta)
    m = mt.Mutant("engine/src/a.cpp", 3, "< ==> >", "if (a < b)", "if (a > b)", "cpp")
    m.outcome, m.tests, m.diff = "survived", ["t1"], "--- a\n+++ b\n@@ -3 +3 @@\n-x\n+y\n"
    mt.write_reports([m], "g", tmp_path, {**meta, "mutants_per_hour": 1.0, "run_per_hour": 1.0})
    planted = json.loads((tmp_path / "mutants" / "p.json").read_text())
    generated = json.loads((tmp_path / "mutation" / "g.json").read_text())
    assert (
        planted["report"]["harness"] == "mutants" and generated["report"]["harness"] == "mutation"
    )
    assert set(planted["modules"]["total"]) == set(generated["modules"]["total"])
    assert planted["modules"]["total"]["score"] == pytest.approx(66.7)  # 2 of 3 that ran
    assert (
        planted["report"]["tests"],
        planted["report"]["failures"],
        planted["report"]["errors"],
    ) == (4, 1, 1)
    md = (tmp_path / "mutants" / "p.md").read_text()
    assert "## Survivors (1)" in md and "## Setup errors (1)" in md and "## Checks" in md
    assert "**SURVIVED**" in md and "caught (hang)" in md
    for xml in ("mutants-p.xml", "mutation-g.xml"):
        path = tmp_path / "junit" / xml
        r = subprocess.run(
            ["xmllint", "--noout", "--schema", str(junit_xsd), str(path)], check=False
        )
        assert r.returncode == 0, xml
    failure = ET.parse(tmp_path / "junit" / "mutants-p.xml").getroot().find(".//failure")
    assert failure is not None and "check 1" in (failure.text or "")


def _run_merge(args: list[str], out: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "stkmutation.planted",
            "--out-dir",
            str(out),
            "--merge",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_merge_joins_shards_and_reads_the_format_before(cm: ModuleType, tmp_path: Path):
    recs = _planted_records(cm)
    meta = {"head": "a" * 40, "seconds": 10.0, "jobs": 1}
    cm.write_reports(recs[:2], "s1", tmp_path / "r", meta)
    legacy = tmp_path / "detection-old.json"  # what check-mutants wrote before the shared format
    legacy.write_text(
        json.dumps(
            {
                "config": "old",
                "seconds": 3.0,
                "jobs": 1,
                "mutants": [
                    {
                        "patch": "tt-b.patch",
                        "layer": "TT",
                        "error": "",
                        "survived": False,
                        "build_seconds": 1.0,
                        "checks": [
                            {
                                "command": "c",
                                "exit_code": 1,
                                "caught": True,
                                "timed_out": False,
                                "seconds": 2.0,
                            }
                        ],
                    }
                ],
            }
        )
    )
    out = tmp_path / "merged"
    proc = _run_merge([str(tmp_path / "r" / "mutants" / "s1.json"), str(legacy)], out)
    assert proc.returncode == 1, proc.stdout + proc.stderr  # one survivor among them
    doc = json.loads((out / "mutants" / "merged.json").read_text())
    assert [r["id"] for r in doc["mutants"]] == [recs[0]["id"], "tt-a.patch", "tt-b.patch"]
    assert doc["modules"]["total"]["killed"] == 2 and doc["modules"]["total"]["survived"] == 1


def test_merge_refuses_a_bad_or_repeated_input_by_name(cm: ModuleType, tmp_path: Path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"mutants": [{"patch": 1}]}')
    proc = _run_merge([str(bad)], tmp_path / "out")
    assert proc.returncode == 2 and str(bad) in proc.stderr, proc.stderr
    cm.write_reports(
        _planted_records(cm)[:1],
        "s",
        tmp_path / "r",
        {"head": "b" * 40, "seconds": 10.0, "jobs": 1},
    )
    one = str(tmp_path / "r" / "mutants" / "s.json")
    proc = _run_merge([one, one], tmp_path / "out")
    assert proc.returncode == 2 and "two of the merged reports" in proc.stderr, proc.stderr
    assert not (tmp_path / "out" / "mutants").exists()  # nothing written on a refused merge


@pytest.mark.parametrize("kind", ["directory", "fifo", "device"])
def test_the_checked_writer_refuses_a_non_regular_target(kind: str, tmp_path: Path):
    target = tmp_path / "report.md"
    if kind == "directory":
        target.mkdir()
    elif kind == "fifo":
        os.mkfifo(target)
    else:
        try:
            os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        except PermissionError:
            pytest.skip("mknod needs root")
    mode = target.lstat().st_mode
    with pytest.raises(OSError, match="not a regular file"):
        junit.write_text_atomic(target, "x")
    assert target.lstat().st_mode == mode  # a device is never replaced by a report
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_full_disk_keeps_the_earlier_report_and_leaves_no_temporary(monkeypatch, tmp_path: Path):
    target = tmp_path / "report.json"
    target.write_text("earlier\n")

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)  # planted: the disk fills as the report is flushed
    with pytest.raises(OSError, match="No space"):
        junit.write_report(target, [junit.TestSuite("x.y")])
    assert target.read_text() == "earlier\n"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


HARNESS = os.environ.get("STK_HARNESS") or str(ROOT / "build/release/harness/stk-harness")


def test_the_review_page_shows_both_kinds_in_one_section(
    cm: ModuleType, mt: ModuleType, tmp_path: Path
):
    if not Path(HARNESS).exists():
        pytest.skip(f"stk-harness not found at {HARNESS}")
    reports = tmp_path / "reports"
    meta = {
        "head": "0" * 40,
        "seconds": 60.0,
        "jobs": 1,
        "mutants_per_hour": 1.0,
        "run_per_hour": 1.0,
    }
    cm.write_reports(_planted_records(cm), "all", reports, meta)
    m = mt.Mutant("harness/src/x.cpp", 7, "< ==> <=", "if (a < b)", "if (a <= b)", "cpp")
    m.outcome, m.tests = "survived", ["match: the <first> test"]
    m.diff = (
        "--- a/harness/src/x.cpp\n+++ b/harness/src/x.cpp\n@@ -7 +7 @@\n-if (a < b)\n+if (a <= b)\n"
    )
    k = mt.Mutant("harness/src/x.cpp", 9, "+ ==> -", "a + b", "a - b", "cpp")
    k.outcome = "killed"
    mt.write_reports([m, k], "diff", reports, meta)
    proc = subprocess.run(
        [HARNESS, "review", "--reports", str(reports)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr  # 1: the runs hold failures
    page = (reports / "index.html").read_text()
    start = page.index('<h2 id="mutants">')
    section = page[start : page.index("</section>", start)]
    assert "planted defects all" in section and "generated mutants diff" in section
    assert section.count('class="mutant-modules"') == 2
    # The survivor beside its hunk, escaped; the killed mutant is in the table, not listed.
    assert "+if (a &lt;= b)" in section and "match: the &lt;first&gt; test" in section
    assert "harness/src/x.cpp:7" in section and "harness/src/x.cpp:9" not in section
    assert "ci/mutants/tt-a.patch" in section  # the planted survivor, with its patch as the diff
    assert "<b>gap</b>" in section
    assert "Problems with the inputs" not in page, page[page.find("Problems") :][:600]


def test_binary_files_go_through_the_same_checked_writer(monkeypatch, tmp_path: Path):
    """Checkpoints and training states (np.savez bytes) use write_bytes_atomic: a full disk keeps
    the earlier file and leaves no temporary."""
    import numpy as np

    from stkref.checkpoint import save_checkpoint

    target = tmp_path / "c.npz"
    save_checkpoint({"x": np.zeros(3)}, target)
    before = target.read_bytes()

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space"):
        save_checkpoint({"x": np.ones(3)}, target)
    assert target.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["c.npz"]


# A survivor's section lists the checks that ran on it: all of them up to 20, else the first 20
# and "... K more" (docs/mutation.md): none dropped without a count, no count of nothing.
@pytest.mark.parametrize("ran", [0, 1, 19, 20, 21, 45])
def test_a_survivor_lists_its_checks_the_first_20_then_a_count(ran: int):
    from stkmutation import report

    tests = [f"check-{i}" for i in range(ran)]
    rec = {"file": "f.py", "line": 3, "outcome": "survived", "operator": "op", "tests": tests}
    text = "\n".join(report.survivor_sections([rec]))
    listed = [t for t in tests if f"- `{t}`" in text]
    assert listed == tests[:20]
    assert f"{ran} check(s) ran:" in text
    assert ("more" in text) == (ran > 20)
    if ran > 20:
        assert f"\n- ... {ran - 20} more" in text


# `python -m stkmutation [campaign] ...` (docs/mutation.md): the first word "campaign" and only it
# picks the campaign page; every other command line goes whole to the tool (its first word too).
@pytest.mark.parametrize(
    "argv, prog",
    [
        (["campaign", "--help"], "ci/mutation.sh campaign"),
        (["--help"], "ci/mutation.sh"),
        (["--list", "--help"], "ci/mutation.sh"),
        (["--help", "campaign"], "ci/mutation.sh"),
        (["run", "--help"], "ci/mutation.sh"),  # a word after "campaign" in sorted order
        (["--config", "campaign", "--help"], "ci/mutation.sh"),
    ],
)
def test_python_m_stkmutation_routes_by_its_first_word(argv: list[str], prog: str):
    r = subprocess.run(
        [sys.executable, "-m", "stkmutation", *argv],
        cwd=Path(__file__).resolve().parents[1],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"usage: {prog} [-h]"), r.stdout[:80]
