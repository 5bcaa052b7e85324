"""The review page (stk-harness review) rendered by a real browser (headless chromium).

The numbers the browser shows are read back from the rendered DOM and compared with the JUnit and
JSON files, parsed here independently; every link must resolve to a file or an anchor, and the page
must load with no console error. Skips only when chromium is absent and STK_REQUIRE_CHROMIUM is unset
(ci/test.sh sets it after ci/install-deps.sh installed chromium)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
HARNESS = os.environ.get("STK_HARNESS") or str(REPO / "build/release/harness/stk-harness")
REQUIRED = bool(os.environ.get("STK_REQUIRE_CHROMIUM"))

if not CHROMIUM and not REQUIRED:
    pytest.skip(
        "chromium is not installed (apt-get install chromium; ci/install-deps.sh does) and "
        "STK_REQUIRE_CHROMIUM is not set",
        allow_module_level=True,
    )


# ---------------------------------------------------------------- a reports directory, by hand


def _junit(path: Path, suite: str, cases: list[tuple[str, str, str]]) -> None:
    """cases: (classname, name, outcome in passed/failure/error/skipped)."""
    root = ET.Element("testsuites")
    s = ET.SubElement(root, "testsuite", name=suite, tests=str(len(cases)))
    for cls, name, outcome in cases:
        tc = ET.SubElement(s, "testcase", classname=cls, name=name, time="0.1")
        if outcome != "passed":
            el = ET.SubElement(tc, outcome, message=f"{name} {outcome}")
            el.text = f"details of {name} <&>"
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def _calibration(shift: float) -> dict:
    def cell(
        records: int, n_eff: float, pred: float, real: float, lebn: float, lerr: float
    ) -> dict:
        deciles = [
            {
                "bin": i,
                "records": records // 10,
                "weight": records / 10,
                "n_eff": n_eff / 10,
                "mean_prediction": pred * (i + 1) / 5.5,
                "realized_rate": real * (i + 1) / 5.5,
                "wilson_lo": real * (i + 1) / 6,
                "wilson_hi": min(1.0, real * (i + 1) / 5),
                "positives_weight": 1.0,
                "logit_error": 0.0,
            }
            for i in range(10)
        ]
        return {
            "records": records,
            "weight": float(records),
            "n_eff": n_eff,
            "mean_prediction": pred,
            "realized_rate": real,
            "wilson_lo": real * 0.9,
            "wilson_hi": real * 1.1,
            "ece": 0.0123,
            "ece_beyond_noise": 0.001,
            "logit_ece_beyond_noise": lebn,
            "mce": 0.02,
            "brier": 0.01,
            "log_loss": 0.05,
            "auc": 0.97,
            "deciles": deciles,
            "logit_error": lerr,
        }

    slices = {
        "all": cell(5000, 3000, 0.1, 0.11, 0.05 + shift, 0.02),
        "alpha": cell(4000, 2500, 0.03, 0.031, 0.1 + shift, 0.3),
        "alpha/d1-2": cell(3000, 2000, 0.02, 0.021, 0.2, 0.1 + shift),
        "alpha/d7+": cell(50, 40, 0.05, 0.04, 0.0, 0.0),  # below min_neff: skipped
        "beta": cell(1000, 600, 0.96, 0.97, 0.12, 0.07 + shift),
    }
    flagged = cell(800, 500, 0.0006, 0.0007, 0.0, 0.15 + shift)
    return {
        "harness": "calibration",
        "tier": "quick",
        "tolerance": 0.5,
        "min_neff": 200.0,
        "records": 5000,
        "slices": slices,
        "decisions": {
            "alpha/lmr-tier1": {
                "rule": "p < 0.002",
                "eligible_records": 2000,
                "eligible_weight": 2000.0,
                "firing_rate": 0.52431,
                "flagged": flagged,
            }
        },
    }


def make_reports(root: Path) -> Path:
    r = root / "reports"
    _junit(
        r / "junit/perft-golden-quick.xml",
        "perft.golden-quick",
        [("perft.golden", f"perft:{i}", "passed") for i in range(7)],
    )
    (r / "perft").mkdir(parents=True)
    (r / "perft/golden-quick.json").write_text(
        json.dumps(
            {
                "harness": "perft",
                "config": "golden-quick",
                "checks": 7,
                "failed": 0,
                "total_nodes": 123456789,
                "nodes_per_second": 98765432,
            }
        )
    )
    _junit(
        r / "junit/perft-speed-quick.xml",
        "perft-speed.quick",
        [
            ("perft-speed.nodes", "startpos d6", "passed"),
            ("perft-speed.nodes", "kiwipete d5", "passed"),
        ],
    )
    (r / "perft-speed").mkdir()
    (r / "perft-speed/quick.json").write_text(
        json.dumps(
            {
                "report": {
                    "schema": "stk-report/1",
                    "harness": "perft-speed",
                    "config": "quick",
                    "junit": "../junit/perft-speed-quick.xml",
                    "tests": 2,
                    "failures": 0,
                    "errors": 0,
                    "skipped": 0,
                    "passed": True,
                    "plots": [],
                },
                "reference_engine": "Stockfish 15.1",
                "repeat": 3,
                "nps_ratio": {"median": 0.87, "min": 0.81, "max": 0.93},
            }
        )
    )
    _junit(
        r / "junit/epd-ecm-quick.xml",
        "epd.ecm-quick",
        [
            ("epd.ECM", "ECM.001", "passed"),
            ("epd.ECM", "ECM.002", "failure"),
            ("epd.ECM", "ECM.003", "skipped"),
        ],
    )
    _junit(
        r / "junit/epd-am-quick.xml",
        "epd.am-quick",
        [("epd.am", f"am.{i}", "passed") for i in range(6)],
    )
    (r / "epd").mkdir()
    (r / "epd/am-quick.json").write_text(
        json.dumps(
            {
                "harness": "epd",
                "config": "am-quick",
                "budget": {"kind": "sd", "value": 8},
                "baseline_file": "am.json",
                "summary": {"positions": 6, "solved": 6},
                "comparison": {"regressions": [], "new_solves": []},
            }
        )
    )
    (r / "epd/ecm-quick.json").write_text(
        json.dumps(
            {
                "harness": "epd",
                "config": "ecm-quick",
                "budget": {"kind": "sd", "value": 16},
                "baseline_file": "ecm.json",
                "summary": {"positions": 44, "solved": 27},
                "comparison": {"regressions": ["ECM.002"], "new_solves": ["ECM.017", "ECM.033"]},
            }
        )
    )
    _junit(r / "junit/bench-quick.xml", "bench.quick", [("bench.signature", "nodes", "passed")])
    (r / "bench").mkdir()
    (r / "bench/quick.json").write_text(
        json.dumps(
            {
                "depth": 13,
                "expected_nodes": 1595000,
                "nodes": 1595000,
                "passed": True,
                "nodes_per_second": 871957,
            }
        )
    )
    _junit(r / "junit/drift-h128-quick.xml", "drift.h128-quick", [("drift.stats", "p99", "passed")])
    (r / "drift").mkdir()
    (r / "drift/drift-h128-quick.json").write_text(
        json.dumps(
            {
                "harness": "drift",
                "abs_delta_cp": {"p99": 11.88872, "max": 15.81036},
                "per_bucket": {str(b): {"p99": 2.5 + b, "max": 3 + b} for b in range(8)},
                "int16_overflow_lanes": 0,
            }
        )
    )
    (r / "drift/drift-h128-quick.png").write_bytes(
        b"\x89PNG\r\n\x1a\n"
    )  # a link target, not decoded
    _junit(
        r / "junit/netquality-trained.xml",
        "netquality.trained",
        [("netquality.trained", "pair accuracy", "passed")],
    )
    (r / "netquality").mkdir()
    (r / "netquality/trained.json").write_text(
        json.dumps(
            {
                "net": {
                    "pair_accuracy": 0.91234,
                    "mae_cp": 150.25,
                    "decided_collapsed_share": 0.02,
                },
                "classical": {"pair_accuracy": 0.95012, "mae_cp": 101.75},
                "spread_ratio": 1.4567,
                "scale_net_per_classical": 0.8234,
            }
        )
    )
    _junit(
        r / "junit/shadow-ecm-quick.xml",
        "shadow.ecm-quick",
        [
            ("shadow.gates", "invariant", "passed"),
            ("shadow.excess", "lmr depth 1-3=0.3", "error"),
            ("shadow.excess", "lmp depth 1-3=0.3", "passed"),
        ],
    )
    (r / "shadow").mkdir()
    mechs = [
        {
            "mechanism": m,
            "audited": 1000 + i,
            "rate": 0.05 + i / 100,
            "wilson_lo": 0.04,
            "wilson_hi": 0.07 + i / 100,
            "control_rate": 0.01,
            "control_wilson_lo": 0.005,
            "control_wilson_hi": 0.02,
            "excess": 0.04 + i / 100,
            "excess_lo": 0.01,
            "excess_hi": 0.09 + i / 100,
        }
        for i, m in enumerate(["lmr", "lmp", "futility"])
    ]
    (r / "shadow/ecm-quick.json").write_text(
        json.dumps({"positions": 11, "misses": 6535, "invariant_failures": 0, "mechanisms": mechs})
    )
    _junit(
        r / "junit/calibration-quick.xml",
        "calibration.quick",
        [("calibration.slice", "all", "passed")],
    )
    (r / "calibration").mkdir()
    (r / "calibration/calibration.json").write_text(json.dumps(_calibration(0.0)))
    (r / "calibration/reliability.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / "baseline-calibration.json").write_text(json.dumps(_calibration(0.1)))
    _junit(
        r / "junit/match-lmr-stc.xml", "match.lmr-stc", [("match.lmr-stc", "gate-gain", "passed")]
    )
    (r / "match").mkdir()
    (r / "match/lmr-stc.json").write_text(
        json.dumps(
            {
                "kind": "stk-match-result",
                "version": 1,
                "counts": {"pairs": 200, "pentanomial": [10, 40, 90, 45, 15]},
                "summary": {
                    "pentanomial_estimate": {
                        "elo": 12.3456,
                        "elo_error": 7.891,
                        "nelo": 20.5,
                        "nelo_error": 12.25,
                    },
                    "sprt": {
                        "llr": 2.971,
                        "lower_bound": -2.94,
                        "upper_bound": 2.94,
                        "verdict": "H1 accepted",
                    },
                },
            }
        )
    )
    _junit(
        r / "junit/pytest.xml", "pytest", [("tests.a", "x", "passed"), ("tests.a", "y", "skipped")]
    )
    return r


# ---------------------------------------------------------------- the browser


class Dom(HTMLParser):
    """The rendered DOM as flat records: every element's attributes and text."""

    def __init__(self) -> None:
        super().__init__()
        self.elements: list[dict] = []
        self.stack: list[dict] = []

    def handle_starttag(self, tag, attrs):
        el = {
            "tag": tag,
            "attrs": dict(attrs),
            "text": "",
            "parent": self.stack[-1] if self.stack else None,
        }
        self.elements.append(el)
        if tag not in (
            "img",
            "br",
            "meta",
            "link",
            "input",
            "hr",
            "circle",
            "line",
            "rect",
            "polyline",
        ):
            self.stack.append(el)

    def handle_endtag(self, tag):
        if all(el["tag"] != tag for el in self.stack):
            return  # the end of an element never pushed (<circle>...</circle>)
        while self.stack:
            if self.stack.pop()["tag"] == tag:
                break

    def handle_data(self, data):
        for el in self.stack:
            el["text"] += data

    def by_class(self, cls: str) -> list[dict]:
        return [e for e in self.elements if cls in e["attrs"].get("class", "").split()]


def render(page: Path) -> tuple[Dom, str]:
    assert CHROMIUM, "STK_REQUIRE_CHROMIUM is set but chromium is not installed"
    shot = page.parent / "review" / "screenshot.png"
    shot.parent.mkdir(exist_ok=True)
    common = [
        CHROMIUM,
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--enable-logging=stderr",
        "--v=0",
        "--allow-file-access-from-files",
        "--window-size=1280,4000",
    ]
    proc = subprocess.run(
        common + ["--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    subprocess.run(
        common + [f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert shot.stat().st_size > 1000
    dom = Dom()
    dom.feed(proc.stdout)
    return dom, proc.stderr


def run_review(reports: Path, *extra: str) -> subprocess.CompletedProcess:
    if not Path(HARNESS).exists():
        if REQUIRED:
            pytest.fail(f"stk-harness not found at {HARNESS}")
        pytest.skip(f"stk-harness not found at {HARNESS} (build it or set STK_HARNESS)")
    return subprocess.run(
        [HARNESS, "review", "--reports", str(reports), *extra], capture_output=True, text=True
    )


def junit_counts(path: Path) -> dict[str, int]:
    """Counted from the testcases' children, as CI systems count them."""
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for tc in ET.parse(path).getroot().iter("testcase"):
        counts["tests"] += 1
        for child, key in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            counts[key] += tc.find(child) is not None
    counts["passed"] = counts["tests"] - counts["failures"] - counts["errors"] - counts["skipped"]
    return counts


def pointer(doc, ptr: str):
    for token in ptr.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        doc = doc[int(token)] if isinstance(doc, list) else doc[token]
    return len(doc) if isinstance(doc, list) else doc


def shown(el: dict) -> float:
    return float(el["text"].strip())


def slice_margin(cell: dict, cal: dict) -> float | None:
    if cell["records"] == 0 or cell["n_eff"] < cal["min_neff"]:
        return None
    return cal["tolerance"] - max(cell["logit_ece_beyond_noise"], cell["logit_error"])


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("review")
    reports = make_reports(root)
    proc = run_review(reports, "--baseline-calibration", str(root / "baseline-calibration.json"))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    dom, log = render(reports / "index.html")
    # Kept where CI publishes reports, for a person to look at.
    (REPO / "reports/review").mkdir(parents=True, exist_ok=True)
    shutil.copy(reports / "review/screenshot.png", REPO / "reports/review/screenshot.png")
    return reports, dom, log


def test_counts_equal_the_junit_files(page):
    reports, dom, _ = page
    rows = {
        e["attrs"]["data-junit"]: e
        for e in dom.elements
        if e["tag"] == "tr" and "data-junit" in e["attrs"]
    }
    files = sorted(p.relative_to(reports).as_posix() for p in (reports / "junit").glob("*.xml"))
    assert sorted(rows) == files
    for rel, row in rows.items():
        counts = next(c for c in dom.by_class("counts") if c["parent"] is row)
        for key, value in junit_counts(reports / rel).items():
            shown_count = int(counts["attrs"][f"data-{key}"])
            assert shown_count == value, f"{rel}: {key} shown {shown_count}, file says {value}"
        assert (
            counts["text"] == f"{counts['attrs']['data-passed']} of {counts['attrs']['data-tests']}"
        )


def test_every_figure_equals_its_json_value(page):
    reports, dom, _ = page
    figs = dom.by_class("fig")
    assert len(figs) > 80
    for f in figs:
        a = f["attrs"]
        value = pointer(json.loads((reports / a["data-src"]).read_text()), a["data-ptr"])
        assert shown(f) == pytest.approx(round(float(value), int(a["data-digits"])), abs=1e-12), a


def test_headline_figures_read_independently(page):
    reports, dom, _ = page
    by_key = {
        f["attrs"]["data-key"]: shown(f) for f in dom.by_class("fig") if f["attrs"].get("data-key")
    }
    expected = {
        "perft.golden-quick.nodes_per_second": 98765432,
        "bench.quick.nodes": 1595000,
        "drift.h128-quick.p99": 11.89,
        "drift.h128-quick.max": 15.81,
        "match.lmr-stc.elo": 12.35,
        "match.lmr-stc.elo_error": 7.89,
        "match.lmr-stc.llr": 2.97,
        "match.lmr-stc.nelo": 20.5,
        "match.lmr-stc.pairs.score2": 90,
        "shadow.ecm-quick.lmr.excess": 0.04,
        "shadow.ecm-quick.futility.excess_hi": 0.11,
        "perft-speed.quick.nps_ratio": 0.87,
        "perft-speed.quick.nps_ratio_min": 0.81,
        "perft-speed.quick.nps_ratio_max": 0.93,
    }
    for epd in (reports / "epd").glob("*.json"):
        d = json.loads(epd.read_text())
        expected[f"epd.{epd.stem}.solved"] = d["summary"]["solved"]
        expected[f"epd.{epd.stem}.regressions"] = len(d["comparison"]["regressions"])
    for key, value in expected.items():
        assert by_key.get(key) == pytest.approx(value), (
            f"{key}: page {by_key.get(key)}, files {value}"
        )
    text = "".join(e["text"] for e in dom.elements if e["tag"] == "body")
    assert "regressions: ECM.002" in text and "SPRT H1 accepted" in text


def test_calibration_margins_and_their_change(page):
    reports, dom, _ = page
    cal = json.loads((reports / "calibration/calibration.json").read_text())
    base = json.loads((reports.parent / "baseline-calibration.json").read_text())
    cells = {
        **{f"slice {k}": v for k, v in cal["slices"].items()},
        **{f"decision {k}": v["flagged"] for k, v in cal["decisions"].items()},
    }
    bcells = {
        **{f"slice {k}": v for k, v in base["slices"].items()},
        **{f"decision {k}": v["flagged"] for k, v in base["decisions"].items()},
    }
    margins = {e["attrs"]["data-gate"]: shown(e) for e in dom.by_class("margin")}
    changes = {e["attrs"]["data-gate"]: shown(e) for e in dom.by_class("margin-change")}
    for gate, cell in cells.items():
        m = slice_margin(cell, cal)
        if m is None:
            assert gate not in margins, (
                f"{gate} is skipped (n_eff {cell['n_eff']}) but shows a margin"
            )
            continue
        assert margins[gate] == pytest.approx(round(m, 3), abs=1e-9), gate
        assert changes[gate] == pytest.approx(
            round(m - slice_margin(bcells[gate], base), 3), abs=1e-9
        ), gate
    assert len(margins) == 5 and len(changes) == 5
    # One plotting path: the charts are the harnesses' matplotlib files, none drawn by the page.
    charts = [e["attrs"]["src"] for e in dom.by_class("chart")]
    assert "calibration/reliability.png" in charts and "drift/drift-h128-quick.png" in charts
    assert not [e for e in dom.elements if e["tag"] == "svg"]


def test_links_resolve_and_nothing_is_fetched(page):
    reports, dom, _ = page
    ids = {e["attrs"]["id"] for e in dom.elements if "id" in e["attrs"]}
    links = [
        (e["tag"], e["attrs"].get("href") or e["attrs"].get("src"))
        for e in dom.elements
        if e["tag"] in ("a", "img", "script", "link")
        and (e["attrs"].get("href") or e["attrs"].get("src"))
    ]
    assert len(links) > 20
    for tag, target in links:
        assert "://" not in target and not target.startswith("/"), (
            f"<{tag}> {target} is not a relative link"
        )
        if target.startswith("#"):
            assert target[1:] in ids, f"anchor {target} has no element"
        else:
            assert (reports / target).is_file(), f"<{tag}> {target} does not exist"
    failing = [t for tag, t in links if t.startswith("#case-")]
    assert len(failing) == 2  # the ECM.002 failure and the shadow error, each linked from its row
    summaries = {p.relative_to(reports).as_posix() for p in reports.rglob("*.json")}
    assert summaries <= {t for _, t in links}


def console_errors(log: str) -> list[str]:
    return [
        line
        for line in log.splitlines()
        if "CONSOLE" in line
        or "Uncaught" in line
        or "Not allowed to load" in line
        or "ERR_FILE_NOT_FOUND" in line
    ]


def test_no_console_errors(page):
    _, _, log = page
    assert not console_errors(log)


def test_console_check_sees_a_script_error(tmp_path: Path):
    """The check above can fail: a page with a failing script is caught."""
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>")
    _, log = render(bad)
    assert any("undefinedFunction" in line for line in console_errors(log)), log[-2000:]


def test_bad_inputs_are_named_on_the_page(tmp_path: Path):
    reports = make_reports(tmp_path)
    (reports / "bench/quick.json").write_text('{"nodes": 1')
    (reports / "junit/epd-am-quick.xml").write_text("<testsuites><testsuite name='epd.am-quick'>")
    (reports / "drift/drift-h128-quick.json").unlink()
    proc = run_review(reports)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    dom, _ = render(reports / "index.html")
    problems = " | ".join(e["text"] for e in dom.by_class("problem") if e["tag"] == "li")
    assert "bench/quick.json: malformed JSON at byte" in problems
    assert "junit/epd-am-quick.xml: malformed JUnit XML" in problems
    assert "drift/drift-h128-quick.json): missing" in problems
    rows = {e["attrs"]["data-junit"] for e in dom.elements if "data-junit" in e["attrs"]}
    assert "junit/perft-golden-quick.xml" in rows  # the rest still renders


@pytest.mark.parametrize(
    "summary, pointer, value",
    [
        ("epd/am-quick.json", "budget/kind", 5),
        ("epd/am-quick.json", "budget/kind", None),
        ("match/lmr-stc.json", "summary/sprt/verdict", 1),
    ],
)
def test_a_field_of_the_wrong_type_is_a_problem_of_its_summary(
    tmp_path: Path, summary: str, pointer: str, value: object
):
    """A value of another type than its harness writes is named on the page with its file
    (exit 1, the rest rendered), never an exit 2 without a page or a file named. Null control:
    the same reports unchanged give no problem for that file."""
    reports = make_reports(tmp_path)
    proc = run_review(reports)
    assert summary not in " ".join(
        e["text"] for e in render(reports / "index.html")[0].by_class("problem")
    )
    doc = json.loads((reports / summary).read_text())
    *path, last = pointer.split("/")
    node = doc
    for key in path:
        node = node[key]
    node[last] = value
    (reports / summary).write_text(json.dumps(doc))
    proc = run_review(reports)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    dom, _ = render(reports / "index.html")
    problems = " | ".join(e["text"] for e in dom.by_class("problem") if e["tag"] == "li")
    assert f"{summary}: " in problems, problems


def test_a_summary_whose_envelope_disagrees_with_its_junit_is_a_problem(tmp_path: Path):
    """A summary states the counts of the JUnit file it belongs to (docs/report-schema.md);
    planted: a bench summary left by another run (2 tests, 1 failure) beside a 1-test passing JUnit."""
    reports = make_reports(tmp_path)
    bench = json.loads((reports / "bench/quick.json").read_text())
    envelope = {
        "schema": "stk-report/1",
        "harness": "bench",
        "config": "quick",
        "junit": "../junit/bench-quick.xml",
        "tests": 1,
        "failures": 0,
        "errors": 0,
        "skipped": 0,
        "passed": True,
        "plots": [],
    }
    (reports / "bench/quick.json").write_text(json.dumps({"report": envelope, **bench}))
    assert run_review(reports).returncode == 0
    (reports / "bench/quick.json").write_text(
        json.dumps({"report": {**envelope, "tests": 2, "failures": 1}, **bench})
    )
    proc = run_review(reports)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    page = (reports / "index.html").read_text()
    assert "bench/quick.json: /report/tests is 2 but junit/bench-quick.xml has 1" in page
    assert "bench/quick.json: /report/failures is 1 but junit/bench-quick.xml has 0" in page


def test_no_nonzero_figure_shows_as_zero(page):
    # Each figure is rounded to its own digits, so a figure given too few digits for its value
    # (a flagged realized rate of 0.0007 shown with 0 digits) still equals its rounded JSON value
    # and passes the check above while the page shows 0 (planted: the span's digits 5 made 0).
    reports, dom, _ = page
    for f in dom.by_class("fig"):
        a = f["attrs"]
        value = float(pointer(json.loads((reports / a["data-src"]).read_text()), a["data-ptr"]))
        if value != 0:
            assert shown(f) != 0, f"{a}: {value} shown as 0"
