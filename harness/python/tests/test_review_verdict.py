"""The review page read as a reviewer reads it (docs/review.md), in headless chromium: the verdict
is the first heading, failures and errors come above every passing step, a figure planted past its
noise appears in the "changed since" list (and one moved within its noise does not), no label is a
raw key, and the Markdown summary parses as GitHub's Markdown into the same verdict. The expected
lists come from a model of the documented rule, written here, not from the page's code."""

from __future__ import annotations

import json
import re
import sqlite3
import statistics
import subprocess
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from test_review_page import HARNESS, REPO, Dom, make_reports, render, run_review


def harness(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([HARNESS, *args], capture_output=True, text=True, timeout=120)


def set_json(path: Path, pointer: list[str], value: float) -> None:
    doc = json.loads(path.read_text())
    node = doc
    for key in pointer[:-1]:
        node = node[key]
    node[pointer[-1]] = value
    path.write_text(json.dumps(doc))


def parsed(page: Path) -> Dom:
    """The page's DOM without a browser: it has no script, so the file is what chromium shows
    (the browser tests above render it for real)."""
    dom = Dom()
    dom.feed(page.read_text())
    return dom


def headings(dom) -> list[dict]:
    return [e for e in dom.elements if re.fullmatch(r"h[1-6]", e["tag"])]


def test_verdict_first_and_failures_above_passes(tmp_path: Path) -> None:
    reports = make_reports(tmp_path)
    assert run_review(reports).returncode == 0
    dom, _ = render(reports / "index.html")
    first = headings(dom)[0]
    assert first["tag"] == "h1" and first["attrs"].get("id") == "verdict"
    # the fixture holds a failing EPD run and an erroring shadow run
    assert first["text"].startswith("Failed:"), first["text"]
    outcomes = [e["attrs"]["data-outcome"] for e in dom.by_class("step")]
    bad = [i for i, o in enumerate(outcomes) if o in ("failure", "error", "problem")]
    good = [i for i, o in enumerate(outcomes) if o == "passed"]
    assert bad and good and max(bad) < min(good), outcomes


def test_a_passing_directory_says_passed(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    (reports / "junit").mkdir(parents=True)
    (reports / "junit/pytest.xml").write_text(
        '<testsuites><testsuite name="pytest" tests="1"><testcase classname="a" name="b"/>'
        "</testsuite></testsuites>"
    )
    assert run_review(reports).returncode == 0
    dom, _ = render(reports / "index.html")
    assert headings(dom)[0]["text"] == "Passed: all 1 steps passed"


def model_changes(history: list[dict[str, float]], now: dict[str, float], timing: set[str]):
    """docs/review.md#what-changed: an exact figure changed when it differs at all; a timing when it
    moved by more than twice the sample standard deviation of its last 10 earlier values (the
    compared run included), unknown below 3 values."""
    out = set()
    for key, value in now.items():
        if key not in history[-1]:
            continue
        delta = value - history[-1][key]
        if key not in timing:
            if delta != 0:
                out.add(key)
            continue
        earlier = [h[key] for h in history if key in h][-10:]
        if len(earlier) >= 3 and abs(delta) > 2 * statistics.stdev(earlier):
            out.add(key)
    return out


def history_values(db: Path) -> list[dict[str, float]]:
    con = sqlite3.connect(db)
    runs: dict[int, dict[str, float]] = {}
    for run_id, key, value in con.execute("SELECT run_id, key, value FROM figures ORDER BY run_id"):
        runs.setdefault(run_id, {})[key] = value
    con.close()
    return [runs[k] for k in sorted(runs)]


NPS = "perft.golden-quick.nodes_per_second"
BENCH = "bench.quick.nodes"
P99 = "drift.h128-quick.p99"


EARLIER_NPS = (97_000_000, 99_000_000, 98_500_000, 98_765_432)


@pytest.mark.parametrize(
    ("noise_multiple", "bench_step", "p99_step", "listed"),
    [
        (1.05, 0, 0.0, {NPS}),  # a timing slower by just over its noise (2 sd)
        (0.95, 0, 0.0, set()),  # just inside it (and past 1 sd): the null control
        (-1.05, 0, 0.0, {NPS}),  # faster by just over it: listed, as better
        (0.0, 1, 0.0, {BENCH}),  # an exact figure one node off
        (0.0, 0, 0.01, {P99}),  # an exact figure, the smallest printed step
    ],
)
def test_changed_since_lists_exactly_what_moved_past_its_noise(
    tmp_path: Path, noise_multiple: float, bench_step: int, p99_step: float, listed: set[str]
) -> None:
    reports = make_reports(tmp_path)
    db = tmp_path / "history.sqlite"
    for earlier in EARLIER_NPS:
        set_json(reports / "perft/golden-quick.json", ["nodes_per_second"], earlier)
        assert harness("history", "--db", str(db), "--append", str(reports)).returncode in (0, 1)
    nps = EARLIER_NPS[-1] - noise_multiple * 2 * statistics.stdev(EARLIER_NPS)
    set_json(reports / "perft/golden-quick.json", ["nodes_per_second"], nps)
    bench = json.loads((reports / "bench/quick.json").read_text())["nodes"] + bench_step
    drift = json.loads((reports / "drift/drift-h128-quick.json").read_text())
    p99 = drift["abs_delta_cp"]["p99"] + p99_step
    set_json(reports / "bench/quick.json", ["nodes"], bench)
    set_json(reports / "drift/drift-h128-quick.json", ["abs_delta_cp", "p99"], p99)
    r = run_review(reports, "--history-db", str(db), "--markdown", str(tmp_path / "summary.md"))
    assert r.returncode == 0, r.stdout + r.stderr
    dom = parsed(reports / "index.html")
    shown = {e["attrs"]["data-key"] for e in dom.by_class("change") if "data-key" in e["attrs"]}
    now = {NPS: nps, BENCH: bench, P99: p99}
    assert model_changes(history_values(db), now, {NPS}) == listed
    assert shown & {NPS, BENCH, P99} == listed
    assert shown - {NPS, BENCH, P99} == set()  # nothing else moved
    worse = {e["attrs"]["data-key"] for e in dom.by_class("worse") if "data-key" in e["attrs"]}
    better = {e["attrs"]["data-key"] for e in dom.by_class("better") if "data-key" in e["attrs"]}
    want_worse = listed & ({P99} | ({NPS} if noise_multiple > 0 else set()))
    assert worse == want_worse and better == (listed & {NPS}) - want_worse
    assert f"{len(want_worse)} figures worse than the previous run" in headings(dom)[0]["text"]
    summary = (tmp_path / "summary.md").read_text()
    assert (f"{len(listed)} changed beyond noise") in summary


RAW_KEY = re.compile(r"^(check \d+:.*|[a-z0-9]+(_[a-z0-9]+)+|[\w-]+\.[\w.-]+\.[\w.]+)$")


def test_no_label_is_a_raw_key(tmp_path: Path) -> None:
    reports = make_reports(tmp_path)
    run_review(reports)
    dom, _ = render(reports / "index.html")
    labels = [e["text"].strip() for e in dom.elements if e["tag"] in ("th", "h2", "h3", "summary")]
    labels += [
        e["text"].strip()
        for e in dom.elements
        if e["tag"] == "td" and "l" in e["attrs"].get("class", "").split()
    ]
    raw = [t for t in labels if RAW_KEY.match(t) or t.endswith(".")]
    assert not raw, raw
    assert RAW_KEY.match("lmr wilson_lo".split()[1]) and RAW_KEY.match("check 0: steps_checked")


def test_markdown_summary_renders_as_github_markdown(tmp_path: Path) -> None:
    reports = make_reports(tmp_path)
    out = tmp_path / "summary.md"
    assert run_review(reports, "--markdown", str(out)).returncode == 0
    text = out.read_text()
    assert len(text.splitlines()) <= 60
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert html.startswith("<h2>stk review: <strong>failed</strong></h2>")
    rows = re.findall(r"<tr>(.*?)</tr>", html, re.S)
    outcomes = [re.findall(r"<td>(.*?)</td>", row, re.S) for row in rows[1:]]
    assert outcomes and all(len(cells) == 3 for cells in outcomes)
    assert {re.sub("<.*?>", "", cells[0]) for cells in outcomes} <= {"failure", "error", "problem"}
    # the failing testcases are named, with their JUnit file
    assert "junit/epd-ecm-quick.xml" in text


def ink(png: Path) -> float:
    """Share of pixels that are not background: a blank screenshot has none."""
    from PIL import Image

    histogram = Image.open(png).convert("L").histogram()  # pixels per grey level
    return sum(histogram[:200]) / sum(histogram)


def test_screenshots_of_the_top_and_every_section(tmp_path: Path) -> None:
    """For a person to look at: reports/review/screenshot-top.png and one per harness section (the
    page with every other section hidden, so each picture starts at its section's heading)."""
    reports = make_reports(tmp_path)
    run_review(reports)
    page = reports / "index.html"
    dom, _ = render(page)
    sections = [
        e["attrs"]["id"]
        for e in dom.elements
        if e["tag"] == "section" and "harness" in e["attrs"].get("class", "").split()
    ]
    assert len(sections) >= 8
    keep = REPO / "reports/review"
    keep.mkdir(parents=True, exist_ok=True)
    html = page.read_text()
    for name, only in [("top", "")] + [(s[2:], s) for s in sections]:
        view = page if not only else reports / f"only-{only}.html"
        if only:
            hide = f"<style>body>*:not(#{only}){{display:none}}</style></head>"
            view.write_text(html.replace("</head>", hide, 1))
        shot = keep / f"screenshot-{name}.png"
        subprocess.run(
            ["chromium", "--headless", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
             "--window-size=1280,900", f"--screenshot={shot}", view.as_uri()],
            capture_output=True, timeout=120, check=True,
        )  # fmt: skip
        assert ink(shot) > 0.001, f"{shot} is blank"


def test_a_premerge_comparison_is_tabulated_against_the_base(tmp_path: Path) -> None:
    """The compare step's summary (base and candidate side by side) becomes the section "Against
    the base revision": solved by each, gained and lost counted from the lists, the speed ratio."""
    reports = tmp_path / "reports"
    (reports / "compare").mkdir(parents=True)
    (reports / "junit").mkdir()
    (reports / "junit/compare-pr.xml").write_text(
        '<testsuites><testsuite name="compare.pr" tests="1"><testcase classname="compare.suite" '
        'name="sd8"><failure message="1 lost"/></testcase></testsuite></testsuites>'
    )
    budget = {"budget": "sd8", "positions": 10, "base_solved": 6, "candidate_solved": 6,
              "gained": ["ECM.001"], "lost": ["ECM.007"]}  # fmt: skip
    (reports / "compare/pr.json").write_text(
        json.dumps(
            {
                "kind": "stk-compare",
                "base": {"bench_nodes": 1595000},
                "candidate": {"bench_nodes": 1601234},
                "speed": {"ratio_median": 0.987},
                "suite": {"budgets": [budget]},
            }
        )
    )
    assert run_review(reports).returncode == 0
    dom, _ = render(reports / "index.html")
    by_key = {f["attrs"]["data-key"]: f["text"] for f in dom.by_class("fig")}
    assert by_key["compare.pr.sd8.lost"] == "1" and by_key["compare.pr.sd8.gained"] == "1"
    assert by_key["compare.pr.candidate_bench"] == "1601234"
    assert by_key["compare.pr.speed_ratio"] == "0.987"
    steps = [e for e in dom.by_class("decisive")]
    assert steps[0]["text"] == "1 positions lost, 1 gained; speed 0.987x the base"
    assert any(e["text"] == "Against the base revision" for e in headings(dom))
