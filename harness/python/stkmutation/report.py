"""One report format for both kinds of mutant: the planted defects of ci/check-mutants.sh and the
tool-generated mutants of ci/mutation.sh.

Each tool turns its results into records (plain dicts, the keys below) and calls `write_reports`,
which writes, for tool T and config C:
  reports/T/C.json   the `report` envelope (docs/report-schema.md), the run's figures, `modules`
                     (the per-module table) and `mutants` (every record)
  reports/T/C.md     the same table, then each survivor with its diff and the checks that ran
  reports/junit/T-C.xml  one testcase per mutant that ran; an untriaged survivor is a <failure>
                     (its diff and checks in the detail), a setup error an <error>
The review page shows both tools' JSON in one section (`Mutants`) from these keys alone.

Record keys: id, file, line (None for a patch), module, operator, outcome (one of OUTCOMES),
triaged (reason or ""), tests (the checks or test names that ran), seconds, diff, message
(what went wrong, for `error`), and any tool-specific extras (kept in the JSON).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]  # harness/python/stkmutation/ -> the repository

RUN_OUTCOMES = ("killed", "timeout", "survived", "not-covered")
# error: a planted defect that does not apply or build (check-mutants' setup error).
OUTCOMES = (*RUN_OUTCOMES, "equivalent", "uncompilable", "skipped", "error")
SURVIVED = ("survived", "not-covered")


def text_key(r: dict[str, Any]) -> str:
    """A mutant's identity by text (file, operator, original and mutated line, stripped): it
    survives edits elsewhere in the file, which move the line and change the id."""
    parts = (
        r["file"],
        r["operator"],
        (r.get("original") or "").strip(),
        (r.get("mutated") or "").strip(),
    )
    return r["file"] + "#" + hashlib.sha1("\0".join(parts).encode()).hexdigest()[:12]


def stkref():
    """stkref's JUnit writer and checked writers (imported from the tree, not installed)."""
    sys.path.insert(0, str(ROOT / "harness" / "python"))
    from stkref import junit, report

    return junit, report


def tally(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per module (sorted, then "total", always present): generated, compiled, each outcome,
    triaged and the score = (killed + timeout) / (killed + timeout + survived + not-covered -
    triaged); None when nothing of the module ran."""

    def empty() -> dict[str, Any]:
        return {
            "generated": 0,
            "compiled": 0,
            "triaged": 0,
            "scored": 0,
            "score": None,
            "interval": None,
        } | dict.fromkeys(OUTCOMES, 0)

    # The total row is there for no records too (a run with nothing to run): readers of the
    # report (the review page) find every count, zero.
    rows: dict[str, dict[str, Any]] = {"total": empty()}
    for r in records:
        for key in (r["module"], "total"):
            row = rows.setdefault(key, empty())
            row["generated"] += 1
            row["compiled"] += r["outcome"] not in ("uncompilable", "error")
            row[r["outcome"]] += 1
            row["triaged"] += bool(r.get("triaged"))
    for row in rows.values():
        dead = row["killed"] + row["timeout"]
        alive = row["survived"] + row["not-covered"] - row["triaged"]
        row["scored"] = dead + alive
        row["score"] = round(100.0 * dead / (dead + alive), 1) if dead + alive else None
        row["interval"] = score_interval(dead, dead + alive)
    total = rows.pop("total")
    return dict(sorted(rows.items())) | {"total": total}


def score_interval(killed: int, scored: int) -> list[float] | None:
    """The 95% Wilson interval of a score, in percent: what a sample of `scored` mutants says
    about the module's score on all its mutants (None when none was scored)."""
    if not scored:
        return None
    stkref()  # the tree's stkref on the path
    from stkref.intervals import wilson

    lo, hi = wilson(killed / scored, scored)
    return [round(100 * lo, 1), round(100 * hi, 1)]


def fmt_interval(row: dict[str, Any]) -> str:
    """'80.0% [58.4, 91.9] of 20': the score, its 95% interval and the number scored."""
    if row.get("score") is None:
        return "-"
    lo, hi = row.get("interval") or (None, None)
    if lo is None:
        return fmt_score(row["score"])
    return f"{row['score']:.1f}% [{lo:.1f}, {hi:.1f}] of {row.get('scored', 0)}"


def fmt_score(score: float | None) -> str:
    return "-" if score is None else f"{score:.1f}%"


def where(r: dict[str, Any]) -> str:
    return f"{r['file']}:{r['line']}" if r.get("line") else r["file"]


def module_table(rows: dict[str, dict[str, Any]]) -> list[str]:
    lines = [
        "| module | generated | compiled | killed | survived | not covered | triaged | equivalent"
        " | uncompilable | timeout | skipped | error | score [95% interval] of scored |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for mod, r in rows.items():
        name = f"**{mod}**" if mod == "total" else f"`{mod}`"
        lines.append(
            f"| {name} | {r['generated']} | {r['compiled']} | {r['killed']} | {r['survived']} |"
            f" {r['not-covered']} | {r['triaged']} | {r['equivalent']} | {r['uncompilable']} |"
            f" {r['timeout']} | {r['skipped']} | {r['error']} | {fmt_interval(r)} |"
        )
    return lines


def survivor_sections(records: list[dict[str, Any]]) -> list[str]:
    survivors = [r for r in records if r["outcome"] in SURVIVED]
    lines = [f"## Survivors ({len(survivors)})", ""]
    if not survivors:
        lines.append("None.")
    for r in survivors:
        state = f"triaged: {r['triaged']}" if r.get("triaged") else "**gap**"
        tests = r.get("tests") or []
        lines += [
            f"### `{where(r)}` {r['outcome']}, {state}",
            "",
            f"operator `{r['operator']}`; {len(tests)} check(s) ran:"
            + "".join(f"\n- `{t}`" for t in tests[:20])
            + (f"\n- ... {len(tests) - 20} more" if len(tests) > 20 else ""),
            "",
            "```diff",
            (r.get("diff") or "").rstrip("\n"),
            "```",
            "",
        ]
    errors = [r for r in records if r["outcome"] == "error"]
    if errors:
        lines += [f"## Setup errors ({len(errors)})", ""]
        lines += [
            f"- `{where(r)}`: {(r.get('message') or '').splitlines()[0][:200]}" for r in errors
        ]
        lines.append("")
    return lines


def markdown(
    title: str,
    headline: str,
    records: list[dict[str, Any]],
    rows: dict[str, dict[str, Any]],
    extra: list[str] | None = None,
) -> str:
    lines = [f"# {title}", "", headline, "", *module_table(rows), "", *survivor_sections(records)]
    if extra:
        lines += ["", *extra]
    return "\n".join(lines).rstrip("\n") + "\n"


def junit_suite(tool: str, config: str, records: list[dict[str, Any]], meta: dict[str, Any]):
    junit, _ = stkref()
    suite = junit.TestSuite(f"{tool}.{config}", time_s=meta.get("seconds", 0.0))
    for key in ("head", "seed", "sample", "per_module", "shard", "diff"):
        if meta.get(key) not in (None, ""):
            suite.property(key, meta[key])
    if meta.get("complete") is False:  # a stopped run, or one still going: never a pass
        suite.add(
            junit.TestCase(
                f"{tool}.run",
                "complete",
                junit.Outcome.ERROR,
                "the run was stopped or is still going: the mutants done so far",
            )
        )
    for r in records:
        if r["outcome"] not in (*RUN_OUTCOMES, "error"):
            continue
        suffix = f" [{r['id'].rsplit(':', 1)[1]}]" if r.get("line") else ""
        name = f"{where(r)} {r['operator']}{suffix}" if r.get("line") else r["file"]
        case = junit.TestCase(
            f"{tool}." + r["module"].replace("/", ".").replace(" ", "-"),
            name,
            time_s=r.get("seconds", 0.0),
        )
        tests = r.get("tests") or []
        ran = "\n".join(tests)
        if r["outcome"] == "error":
            msg = r.get("message") or "setup error"
            case.outcome, case.message, case.detail = (
                junit.Outcome.ERROR,
                msg.splitlines()[0][:200],
                msg,
            )
        elif r["outcome"] in SURVIVED and not r.get("triaged"):
            case.outcome = junit.Outcome.FAILED
            what = (
                "no test executes the line"
                if r["outcome"] == "not-covered"
                else r.get("message") or "the checks pass"
            )
            case.message = f"{r['outcome']}: {what}"
            case.detail = f"{r.get('diff') or ''}\nchecks that ran ({len(tests)}):\n{ran}"
        triage = f" (triaged: {r['triaged']})" if r.get("triaged") else ""
        case.system_out = f"{r['outcome']}{triage}\n{ran}"
        suite.add(case)
    return suite


def outputs_of(tool: str, config: str, out_dir: str | Path) -> list[Any]:
    """What write_reports writes, for the command line's output checks (stkref.outputs)."""
    from stkref.outputs import report_tree

    return report_tree("--out-dir", Path(out_dir), [f"{tool}/{config}.{x}" for x in ("json", "md")])


def write_reports(
    tool: str,
    config: str,
    out_dir: Path,
    records: list[dict[str, Any]],
    meta: dict[str, Any],
    title: str,
    headline: str,
    extra_md: list[str] | None = None,
) -> tuple[str, dict[str, dict[str, Any]]]:
    """Writes the three files (each through stkref's checked, atomic writers); returns the
    Markdown and the module table."""
    junit, report = stkref()
    rows = tally(records)
    suite = junit_suite(tool, config, records, meta)
    junit_path = junit.write_report(out_dir / "junit" / f"{tool}-{config}.xml", [suite])
    summary = out_dir / tool / f"{config}.json"
    summary.parent.mkdir(parents=True, exist_ok=True)
    report.write_summary(
        summary,
        {**meta, "modules": rows, "mutants": records},
        harness=tool,
        config=config,
        suites=[suite],
        junit=junit_path,
    )
    md = markdown(title, headline, records, rows, extra_md)
    report.write_text_atomic(out_dir / tool / f"{config}.md", md)
    return md, rows
