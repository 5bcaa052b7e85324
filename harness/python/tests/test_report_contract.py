"""report_contract.py fails on each inconsistency it names and passes the consistent run: the
fault matrix's reference runs rely on it, and a check that cannot fail would pass them all."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import report_contract as rc


def junit(failures: int, errors: int, suite: str = "standin.t", lie: bool = False) -> str:
    cases = (
        "".join(
            f'<testcase classname="standin.c" name="f{i}" time="0"><failure message="m"/></testcase>'
            for i in range(failures)
        )
        + "".join(
            f'<testcase classname="standin.c" name="e{i}" time="0"><error message="m"/></testcase>'
            for i in range(errors)
        )
        + '<testcase classname="standin.c" name="ok" time="0"/>'
    )
    n = failures + errors + 1
    stated = 0 if lie else failures
    return (
        f'<?xml version="1.0"?><testsuites tests="{n}" failures="{failures}" errors="{errors}">'
        f'<testsuite name="{suite}" tests="{n}" failures="{stated}" errors="{errors}" '
        f'skipped="0" time="0">{cases}</testsuite></testsuites>'
    )


def envelope(
    failures: int, passed: bool, link: str = "../junit/standin-t.xml", tests: int = 0
) -> str:
    return json.dumps(
        {
            "report": {
                "schema": "stk-report/1",
                "harness": "standin",
                "config": "t",
                "junit": link,
                "tests": tests or failures + 1,
                "failures": failures,
                "errors": 0,
                "skipped": 0,
                "passed": passed,
                "plots": [],
            }
        }
    )


@pytest.fixture
def out(tmp_path: Path) -> Path:
    (tmp_path / "junit").mkdir()
    (tmp_path / "standin").mkdir()
    return tmp_path


def test_exit_status_agrees_with_the_testcases_both_ways(out: Path) -> None:
    report = out / "junit/standin-t.xml"
    report.write_text(junit(1, 0))
    assert rc.violations(1, [report]) == []
    assert rc.violations(0, [report])[0].startswith("exit 0 but")
    report.write_text(junit(0, 1))
    assert rc.violations(1, [report]) == []
    report.write_text(junit(0, 0))
    assert rc.violations(0, [report]) == []
    assert rc.violations(1, [report])[0].startswith("exit 1 but no report")
    assert rc.violations(2, [report]) == []


def test_a_declared_report_must_be_written(out: Path) -> None:
    report = out / "junit/standin-t.xml"
    assert "did not write" in rc.violations(0, [report])[0]
    report.write_text(junit(0, 0))
    assert "did not write" in rc.violations(0, [report], written=set())[0]


def test_counts_and_envelope_agree_with_the_testcases(out: Path) -> None:
    report, summary = out / "junit/standin-t.xml", out / "standin/t.json"
    report.write_text(junit(1, 0, lie=True))
    assert "its testcases" in rc.violations(1, [report])[0]
    report.write_text(junit(1, 0))
    summary.write_text(envelope(1, False))
    assert rc.violations(1, [report]) == []
    summary.write_text(envelope(0, False, tests=2))
    assert "the envelope states" in rc.violations(1, [report])[0]
    summary.write_text(envelope(1, True))
    assert "passed is True" in rc.violations(1, [report])[0]
    summary.write_text(envelope(1, False, link="../junit/standin-u.xml"))
    assert "does not lead to" in rc.violations(1, [report])[0]
    summary.write_text(envelope(1, False))
    report.write_text(junit(1, 0, suite="bench.t").replace("standin.c", "bench.c"))
    assert "not named for harness 'standin'" in rc.violations(1, [report])[0]
    assert rc.violations(1, [report], written={report}) == []  # a summary it did not write


def test_classnames_follow_their_suite_without_an_envelope_and_in_an_error_run(out: Path) -> None:
    """An input error's report (exit 2) has no JSON envelope; its testcases are still
    `<harness>.<...>`, the harness its suite is named for (docs/report-schema.md)."""
    report = out / "junit/standin-t.xml"
    report.write_text(junit(0, 1))
    assert rc.violations(2, [report]) == []
    for wrong in (".c", "standin.", "other.c", "standinx.c"):
        report.write_text(junit(0, 1).replace('classname="standin.c"', f'classname="{wrong}"'))
        for status in (1, 2):
            found = rc.violations(status, [report])
            assert any(f"has classname {wrong!r}" in v for v in found), (wrong, status, found)
    report.write_text(junit(0, 1).replace('name="ok"', 'name=""'))
    assert "without a name" in rc.violations(2, [report])[0]


def test_a_harness_run_is_judged_by_the_reports_it_wrote(tmp_path: Path) -> None:
    """HarnessRun (the conftest hook's check) on a stand-in `stk-harness` that writes the staged
    files and exits as told: an earlier run's failing report beside it is not this run's, a
    passing report with exit 1 is a violation, so is a --junit file left unwritten."""
    out, staged = tmp_path / "out", tmp_path / "staged"
    (staged / "junit").mkdir(parents=True)
    (out / "junit").mkdir(parents=True)
    bin_ = tmp_path / "bin" / "stk-harness"
    bin_.parent.mkdir()
    bin_.write_text(f'#!/bin/sh\ncp -r "{staged}/." "{out}/"\nexit "$CODE"\n')
    bin_.chmod(0o755)
    (out / "junit/standin-old.xml").write_text(junit(1, 0, suite="standin.old"))
    (staged / "junit/standin-t.xml").write_text(junit(0, 0))

    def judged(code: int, *args: str) -> list[str]:
        argv = [str(bin_), *args]
        assert rc.is_harness_run(argv)
        contract = rc.HarnessRun(argv, tmp_path)
        # Popen, not run: the conftest hook would judge (and fail) the violating runs itself.
        proc = subprocess.Popen(argv, cwd=tmp_path, env={**os.environ, "CODE": str(code)})
        assert proc.wait() == code
        return contract.violations(code)

    assert judged(0, "--out-dir", "out") == []
    assert judged(1, "--out-dir", "out")[0].startswith("exit 1 but no report")
    (staged / "junit/standin-t.xml").write_text(junit(1, 0))
    assert judged(1, "--out-dir=out") == []
    assert "did not write" in judged(0, "--junit", "out/junit/standin-x.xml")[0]


def test_python_tools_are_judged_under_their_reports_dir(tmp_path: Path) -> None:
    """`python -m stkref.<tool>` keeps the same contract; its reports go under --reports-dir,
    ./reports by default (stkref.report.add_report_args)."""
    argv = [sys.executable, "-m", "stkref.drift", "--config", "t"]
    assert rc.is_harness_run(argv) and not rc.is_harness_run([sys.executable, "-m", "pytest"])
    assert rc.HarnessRun(argv, tmp_path).out_dirs == [tmp_path / "reports"]
    given = rc.HarnessRun([*argv, "--reports-dir", "r"], tmp_path)
    assert given.out_dirs == [tmp_path / "r"]
    (tmp_path / "r/junit").mkdir(parents=True)
    (tmp_path / "r/junit/drift-t.xml").write_text(junit(0, 0))
    assert given.violations(1)[0].startswith("exit 1 but no report")


def test_testcases_are_named_for_the_harness_once_each(out: Path) -> None:
    report, summary = out / "junit/standin-t.xml", out / "standin/t.json"
    summary.write_text(envelope(1, False))
    ok = junit(1, 0)
    report.write_text(ok)
    assert rc.violations(1, [report]) == []
    report.write_text(
        ok.replace('classname="standin.c" name="ok"', 'classname="bench.c" name="ok"')
    )
    assert "has classname 'bench.c'" in rc.violations(1, [report])[0]
    report.write_text(ok.replace('name="ok"', 'name=""'))
    assert "without a name" in rc.violations(1, [report])[0]
    report.write_text(ok.replace('name="ok"', 'name="f0"'))
    assert "two testcases 'f0'" in rc.violations(1, [report])[0]


def test_recorded_inputs_are_the_values_given(out: Path) -> None:
    """input.<name> holds a value the command gave (an option it did not give is not judged);
    a Python tool's `command` property is its file name and its arguments."""
    report = out / "junit/standin-t.xml"
    props = (
        '<properties><property name="input.depth" value="5"/>'
        '<property name="input.quiet" value="true"/><property name="input.state" value="x"/>'
        '<property name="command" value="drift.py --depth 5 --quiet"/></properties>'
    )
    report.write_text(junit(1, 0).replace("<testcase ", props + "<testcase ", 1))
    harness = ["stk-harness", "standin"]
    assert rc.violations(1, [report], argv=[*harness, "--depth", "5", "--quiet"]) == []
    assert rc.violations(1, [report], argv=[*harness, "--depth=5"]) == []
    assert "'input.depth' is '5'" in rc.violations(1, [report], argv=[*harness, "--depth=6"])[0]
    assert "'input.state'" in rc.violations(1, [report], argv=[*harness, "--state", "y"])[0]
    tool = [sys.executable, "-m", "stkref.drift", "--depth", "5"]
    assert rc.violations(1, [report], argv=[*tool, "--quiet"]) == []
    assert "'command'" in rc.violations(1, [report], argv=[*tool, "--loud"])[0]


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("g", True),  # kept by the smallest margin: one character
        ("engine.Use NNUE", True),  # a space inside (a UCI option's name)
        ("", False),
        (" g", False),
        ("g ", False),
        ("a&#9;b", False),  # a tab, as a writer escapes it in an attribute
        ("a&#127;", False),
    ],
)
def test_every_property_and_key_has_a_name_both_ways(out: Path, name: str, kept: bool) -> None:
    """docs/report-schema.md#names: a suite property's name and each key of the summary at any
    depth are non-empty, hold no control character and no space at either end."""
    report, summary = out / "junit/standin-t.xml", out / "standin/t.json"
    props = f'<properties><property name="{name}" value="3"/></properties>'
    report.write_text(junit(1, 0).replace("<testcase ", props + "<testcase ", 1))
    summary.write_text(envelope(1, False))
    found = rc.violations(1, [report])
    assert found == [] if kept else "a suite property named" in found[0]
    report.write_text(junit(1, 0))
    doc = json.loads(envelope(1, False))
    key = name.replace("&#9;", "\t").replace("&#127;", "\x7f")
    doc["rows"] = [{key: 1}]
    summary.write_text(json.dumps(doc))
    found = rc.violations(1, [report])
    assert found == [] if kept else f"key {key!r} at /rows/0" in found[0]


def test_a_testcase_takes_no_negative_time_and_no_more_than_its_run(out: Path) -> None:
    """docs/report-schema.md#times, at the smallest margins the run's own clock allows."""
    report = out / "junit/standin-t.xml"
    ok = 'name="ok" time="0"'
    harness = ["/x/stk-harness", "standin"]

    def timed(seconds: str, suite: str | None = None) -> None:
        """The testcase "ok" took `seconds`; its suite `suite` (default: the same)."""
        xml = junit(1, 0).replace(ok, f'name="ok" time="{seconds}"')
        suite_time = f'skipped="0" time="{seconds if suite is None else suite}"'
        report.write_text(xml.replace('skipped="0" time="0"', suite_time))

    timed("2.000")
    assert rc.violations(1, [report], argv=harness, elapsed=2.0) == []
    assert "took 2.0 s" in rc.violations(1, [report], argv=harness, elapsed=1.998)[0]
    timed("-0.001")
    assert "took -0.001 s" in rc.violations(1, [report], argv=harness, elapsed=5.0)[0]
    # merge carries times other runs measured: longer than its own run, but never negative
    timed("100")
    assert rc.violations(1, [report], argv=["/x/stk-harness", "merge"], elapsed=1.0) == []
    assert rc.violations(1, [report], argv=harness) == []  # no clock: only the sign is judged


def test_a_suite_takes_no_less_than_its_longest_testcase(out: Path) -> None:
    """docs/report-schema.md#times: a suite time never set (0) under timed testcases, the
    defect of the class, is named; a suite as long as its longest testcase is not."""
    report = out / "junit/standin-t.xml"
    harness = ["/x/stk-harness", "standin"]

    def timed(case: str, suite: str) -> list[str]:
        xml = junit(1, 0).replace('name="ok" time="0"', f'name="ok" time="{case}"')
        report.write_text(xml.replace('skipped="0" time="0"', f'skipped="0" time="{suite}"'))
        return rc.violations(1, [report], argv=harness, elapsed=5.0)

    assert timed("0.250", "0.250") == [] and timed("0.250", "0.300") == []
    assert "suite 'standin.t' took 0.0 s, less than its longest testcase" in timed("0.250", "0")[0]
    assert "less than its longest testcase (0.25 s)" in timed("0.250", "0.249")[0]
    assert "suite 'standin.t' took -0.001 s" in timed("0", "-0.001")[0]
    assert "suite 'standin.t' took 6.0 s, the run 5.000 s" in timed("0", "6.0")[0]


def test_the_exempt_commands_are_read_from_the_docs_and_exist(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commands carrying other runs' times are one list, in docs/report-schema.md#times: each
    is a command docs/cli.md documents (a misspelt name would exempt nothing), and a docs page
    without the line stops the check instead of exempting nothing in silence."""
    cli = (Path(rc.SCHEMA_DOC).parent / "cli.md").read_text()
    commands = set(re.findall(r"^## stk-harness ([a-z-]+)$", cli, re.M))
    exempt = rc.commands_carrying_other_runs_times()
    assert "merge" in exempt and exempt <= commands, exempt - commands
    assert "perft" not in exempt and "match" not in exempt
    page = tmp_path / "report-schema.md"
    page.write_text(Path(rc.SCHEMA_DOC).read_text().replace(rc.TIMES_LEAD, "carrying:"))
    monkeypatch.setattr(rc, "SCHEMA_DOC", page)
    rc.commands_carrying_other_runs_times.cache_clear()
    try:
        with pytest.raises(ValueError, match='no "carrying other runs\' times:" line'):
            rc.commands_carrying_other_runs_times()
    finally:
        rc.commands_carrying_other_runs_times.cache_clear()


def test_a_summary_has_every_key_its_harness_row_names(out: Path) -> None:
    """docs/report-schema.md "Figures by harness": a key of the row missing from a summary is a
    violation; keys in parentheses or braces are nested or conditional, not required."""
    assert rc.top_level_keys(
        "`a`, `b1` (`c`, with x: `d`), `e` {`f`}, `g[]`; `-shardK` with `--x`"
    ) == [
        "a",
        "b1",
        "e",
        "g",
    ]
    keys = rc.documented_figures()["search-speed"]
    assert keys == [
        "reference",
        "reference_options",
        "stk_evaluation",
        "nodes_per_position",
        "stk",
        "reference_run",
        "speed_ratio",
    ]
    report, summary = out / "junit/search-speed-t.xml", out / "search-speed/t.json"
    (out / "search-speed").mkdir()
    report.write_text(junit(0, 0, suite="search-speed.t").replace("standin.c", "search-speed.c"))
    doc = json.loads(envelope(0, True, link="../junit/search-speed-t.xml"))
    doc["report"]["harness"] = "search-speed"
    full = doc | dict.fromkeys(keys, 1)
    summary.write_text(json.dumps(full))
    assert rc.violations(0, [report]) == []
    for k in keys:  # each one missing, by the smallest margin
        summary.write_text(json.dumps({x: v for x, v in full.items() if x != k}))
        assert rc.violations(0, [report]) == [
            f"{summary}: no {k!r} (search-speed's figures, report-schema.md)"
        ], k


BUILD = ["git_revision", "build_type", "cpu_features", "harness_version"]


def with_properties(suite: str, names: list[str]) -> str:
    props = "".join(f'<property name="{n}" value="v"/>' for n in names)
    xml = junit(1, 0, suite=suite).replace("standin.c", suite.split(".")[0] + ".c")
    return xml.replace("<testcase ", f"<properties>{props}</properties><testcase ", 1)


@pytest.mark.parametrize(
    ("suite", "names", "problem"),
    [
        ("checknet.t", ["fnv1a64", "sha256", *BUILD], None),
        ("checknet.t", ["fnv1a64", "sha256", "input.FILE", *BUILD], None),
        ("ctest.t", ["ctest_timestamp"], None),  # CTest's run: no build properties owed
        ("standin.t", ["anything"], None),  # a harness the docs do not know is not judged
        # A name and value swapped, a name renamed, a name lost, a build property lost.
        ("checknet.t", ["fnv1a64", "sha256", "v", *BUILD], "property 'v' (value 'v') is not one"),
        ("checknet.t", ["fnv1a64", "sha-256", *BUILD], "'sha-256'"),
        ("checknet.t", ["fnv1a64", *BUILD], "no suite property 'sha256' (checknet's)"),
        ("checknet.t", ["fnv1a64", "sha256", *BUILD[:3]], "no suite property 'harness_version'"),
        # Numbered names run 1, 2, ... (compare's input.argv<K>).
        ("compare.t", ["base", "candidate", "input.argv1", "input.argv2", *BUILD], None),
        ("compare.t", ["base", "candidate", "input.argv0", "input.argv1", *BUILD], "numbered"),
        ("compare.t", ["base", "candidate", "input.argv1", "input.argv3", *BUILD], "numbered"),
        ("compare.t", ["base", "candidate", "input.argv01", *BUILD], "numbered"),
    ],
)
def test_suite_properties_are_the_harness_rows_both_ways(
    out: Path, suite: str, names: list[str], problem: str | None
) -> None:
    """docs/report-schema.md "Suite properties by harness": a stk-harness report's suite carries
    only its harness's names, every name the row always writes, `<K>` numbered 1, 2, ..."""
    report = out / "junit/standin-t.xml"
    report.write_text(with_properties(suite, names))
    found = rc.violations(1, [report], argv=["stk-harness", suite.split(".")[0]])
    assert found == [] if problem is None else problem in " ".join(found), found


TOOL = list(rc.TOOL_PROPERTIES)
CORPUS = ["seed", "random_count", "curated", "spec_vectors", "epd_files"]


@pytest.mark.parametrize(
    ("names", "problem"),
    [
        (["net", *CORPUS, *TOOL], None),
        (["net", *CORPUS, "corpus.ECM.positions", "corpus.random.positions", *TOOL], None),
        # stk-harness's build properties are not a tool's, and a tool's own are owed.
        (["net", *CORPUS, *BUILD], "no suite property 'python'"),
        (["net", *CORPUS, *TOOL[:-1]], "no suite property 'command'"),
        (["net", *CORPUS[1:], *TOOL], "no suite property 'seed'"),
        (["net", *CORPUS, "corpus.ECM", *TOOL], "'corpus.ECM'"),
    ],
)
def test_a_python_tools_properties_are_its_rows_both_ways(
    out: Path, names: list[str], problem: str | None
) -> None:
    """The Python tools keep the rule with their own common names (netlint's row here)."""
    report = out / "junit/standin-t.xml"
    xml = with_properties("netlint.t", names)
    report.write_text(xml.replace('name="command" value="v"', 'name="command" value="netlint.py"'))
    argv = [sys.executable, "-m", "stktrain.netlint"]
    found = rc.violations(1, [report], argv=argv)
    assert found == [] if problem is None else problem in " ".join(found), found


def test_every_stk_harness_command_with_a_report_has_a_properties_row() -> None:
    """Each harness of "Figures by harness" also has a row of suite properties: a harness the
    docs know is judged, never passed over for want of a row."""
    missing = set(rc.documented_figures()) - set(rc.documented_properties())
    assert not missing - {"merge", "epd-compare", "match-merge"}, missing


@pytest.mark.parametrize(
    ("interval", "kept"),
    [
        ("[0.5, 0.5]", True),
        ("[-1.25, 3]", True),
        ("[40.0%, 40.1%]", True),
        ("[0.50001, 0.5]", False),
        ("[3, -1.25]", False),
        ("[40.1%, 40.0%]", False),
    ],
)
def test_every_interval_runs_low_end_first_both_ways(out: Path, interval: str, kept: bool) -> None:
    """An interval in a report's text, on its summary's page and as lo/hi in its JSON, by the
    smallest margins; equal ends are kept."""
    report, summary = out / "junit/standin-t.xml", out / "standin/t.json"
    ok = '<testcase classname="standin.c" name="ok" time="0"/>'
    fact = f'<testcase classname="standin.c" name="ok" time="0"><system-out>ci: {interval}'
    report.write_text(junit(1, 0).replace(ok, fact + "</system-out></testcase>"))
    summary.write_text(envelope(1, False))
    found = rc.violations(1, [report])
    assert found == [] if kept else "has its ends reversed" in found[0]
    report.write_text(junit(1, 0))
    (out / "standin/t.md").write_text(f"excess {interval}\n")
    found = rc.violations(1, [report])
    assert found == [] if kept else "t.md: interval" in found[0]
    (out / "standin/t.md").unlink()
    lo, hi = (float(x.strip(" %")) for x in interval.strip("[]").split(","))
    doc = json.loads(envelope(1, False))
    doc["rows"] = [{"ci": {"lo": lo, "hi": hi}}]
    summary.write_text(json.dumps(doc))
    found = rc.violations(1, [report])
    assert found == [] if kept else "rows[0].ci has lo" in found[0]


@pytest.mark.parametrize(
    ("fields", "kept"),
    [
        ({"ratio_min": 0.9, "ratio_median": 0.9, "ratio_max": 0.9}, True),
        ({"min": 1, "median": 2, "max": 3}, True),
        ({"depth_min": 2, "depth_max": 2}, True),
        ({"ratio_min": 0.91, "ratio_median": 0.9, "ratio_max": 1.1}, False),
        ({"ratio_min": 0.8, "ratio_median": 1.11, "ratio_max": 1.1}, False),
        ({"ratio_min": 1.2, "ratio_max": 1.1}, False),
        ({"min": 3, "max": 2}, False),
        ({"median": 3, "max": 2}, False),
    ],
)
def test_min_median_max_run_in_order_both_ways(out: Path, fields: dict, kept: bool) -> None:
    """A range stated as min/median/max (bare, or X_min/X_median/X_max) runs in order."""
    report, summary = out / "junit/standin-t.xml", out / "standin/t.json"
    report.write_text(junit(1, 0))
    doc = json.loads(envelope(1, False))
    doc["speed"] = fields
    summary.write_text(json.dumps(doc))
    found = rc.violations(1, [report])
    assert found == [] if kept else "speed has" in found[0]


@pytest.mark.parametrize(
    ("text", "finite"),
    [
        ("pairs ratio 0.44", True),
        ("pairs ratio infinite (no pair lost)", True),
        ("go infinite; information; nano; Inference", True),
        ("version 1.0.nan", True),
        ("pairs ratio inf", False),
        ("pairs ratio nan\n", False),
        ('<property name="x" value="-nan"/>', False),
        ("rate=+inf;", False),
        ("mean infinity", False),
        ("nan", False),
    ],
)
def test_a_figure_written_as_nan_or_inf_is_found_both_ways(
    out: Path, text: str, finite: bool
) -> None:
    """docs/report-schema.md#figures-by-harness: a number that is no number is written in words;
    the contract finds `nan`/`inf` written as a figure, never inside a word."""
    assert (rc.non_finite_figure(text) == "") == finite, text
    junit = out / "junit/standin-t.xml"
    junit.write_text(f'<testsuites><testsuite name="standin.t">{text}</testsuite></testsuites>')
    assert bool(rc.non_finite_problems(junit)) == (not finite)


@pytest.mark.parametrize(
    ("said", "bug"),
    [
        ("internal error: KeyError: 'passed'", True),
        ("wrote r.xml\nerror: internal error: TypeError: TLS expects a `ssl_context`\n", True),
        ("r.tsv:2: expected 'pass|fail|error<TAB>name<TAB>message', got 'passed'", False),
        ("error: r.tsv:2: check 'a' given twice\n", False),
        ("error: the internal error: KeyError path is documented in docs/faults.md\n", False),
        ("", False),
    ],
)
def test_an_internal_error_is_told_from_a_refusal(said: str, bug: bool) -> None:
    """conftest fails any test whose tool run ends in an internal error (planted: checks_junit's
    `or` made `and` reached a KeyError, which the model's bad-line case read as its exit 2)."""
    assert bool(rc.internal_error_said(said)) == bug, said


@pytest.mark.parametrize("index", [None, 1, 2])
def test_a_digest_is_the_file_it_names_both_ways(out: Path, index: int | None) -> None:
    """docs/reports.md: `X_sha256` (or `X_sha256.I` for the I-th of `;`-joined files, from 1) is
    the SHA-256 of the file `X` names; a digest of another file is found, naming both."""
    import hashlib

    files = [out / "a.bin", out / "b.bin"]
    files[0].write_bytes(b"first")
    files[1].write_bytes(b"second")
    named = str(files[0]) if index is None else ";".join(map(str, files))
    prop = "net_sha256" if index is None else f"net_sha256.{index}"
    target = files[0 if index is None else index - 1]
    other = files[1] if target == files[0] else files[0]
    report, summary = out / "junit/standin-t.xml", out / "standin/t.json"
    summary.write_text(envelope(1, False))
    for digest_of, kept in ((target, True), (other, False)):
        digest = hashlib.sha256(digest_of.read_bytes()).hexdigest()
        props = (
            f'<properties><property name="net" value="{named}"/>'
            f'<property name="{prop}" value="{digest}"/></properties>'
        )
        report.write_text(junit(1, 0).replace("<testcase ", props + "<testcase ", 1))
        found = rc.violations(1, [report])
        assert found == [] if kept else f"{prop} is {digest}, but {target}" in found[0]
