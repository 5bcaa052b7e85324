"""`ci/mutation.sh campaign`: one table from several mutation reports (the shards of a campaign,
its C++ and Python halves, and reruns of its survivors after their gaps were closed).

Records are merged by mutant id in the order the reports are given: a later report's outcome
replaces an earlier one's (a `--rerun` of the survivors after a fix turns them killed, or shows
them gone when the fix changed their line). The triage file is applied again, so a survivor
triaged after the run leaves the score without rerunning it. Writes the merged report
(reports/mutation/<config>.{json,md}, JUnit) and, with --doc, a generated Markdown page with each
run's command and cost, the score of each module against its target (--engine-target for
engine/src, --harness-target for the rest) at the first run and after the reruns.
Exit 0, or 1 when a module misses its target and --fail-on-target is given; 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from stkmutation import report as mutants_report
from stkmutation import tool as mutation
from stkref import inputs, options
from stkref.cli import ToolParser, run_tool
from stkref.junit import junit_in
from stkref.outputs import Output


def read_report(path: Path) -> dict[str, Any]:
    try:
        doc = json.loads(inputs.read_input_text(path))
        if not isinstance(doc.get("mutants"), list):
            raise KeyError("mutants")
        return doc
    except (OSError, ValueError, KeyError, AttributeError) as e:
        raise mutation.SetupError(f"{path}: not a mutation report ({type(e).__name__}: {e})") from e


def config_of(doc: dict[str, Any]) -> str:
    return str((doc.get("report") or {}).get("config") or "?")


def merge(docs: Sequence[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(first, final): each mutant's record at its first report, and at its last, matched by
    text (mutants_report.text_key: a rerun after an edit finds a mutant whose line moved). A
    mutant a rerun asked for but no longer made (its line changed) is marked gone in the final
    records (outcome kept, `gone` true) and leaves the final score."""
    first: dict[str, dict[str, Any]] = {}
    final: dict[str, dict[str, Any]] = {}
    for doc in docs:
        seen = set()
        for r in doc["mutants"]:
            key = mutants_report.text_key(r)
            rec = dict(r, run=config_of(doc))
            first.setdefault(key, rec)
            final[key] = rec
            seen.add(key)
        for key in set(doc.get("asked") or []) - seen:
            if key in final:
                final[key] = dict(final[key], gone=True, run=config_of(doc))
    return list(first.values()), list(final.values())


def retriage(records: list[dict[str, Any]], entries: Sequence[mutation.TriageEntry]) -> None:
    index = mutation.triage_index(entries)
    for r in records:
        if r["outcome"] in mutants_report.SURVIVED:
            r["triaged"] = index.get(
                (r["file"], r["operator"], (r.get("original") or "").strip()), ""
            )


def scored(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The module table, with gone mutants (fixed away) counted out of the score."""
    return mutants_report.tally([r for r in records if not r.get("gone")])


def target_of(module: str, engine: float, harness: float) -> float:
    return engine if module.startswith("engine/") else harness


MIN_SCORED = 20  # a module's score means something from this many scored mutants (issue 31)


def target_table(
    first: dict[str, dict[str, Any]],
    final: dict[str, dict[str, Any]],
    engine: float,
    harness: float,
) -> tuple[list[str], list[str]]:
    """Markdown rows of module, first-run score with its 95% interval and the number scored,
    target, verdict, and the score after the reruns of closed survivors (never the verdict: a
    sample's survivors closed one by one say nothing of the mutants not drawn); and the modules
    that miss their target on the first run or have fewer than MIN_SCORED scored."""
    lines = [
        "| module | first run: score [95% interval] of scored | target | verdict |"
        " after closing survivors (not the verdict) |",
        "|---|---|---|---|---|",
    ]
    missing: list[str] = []
    for mod, row in first.items():
        if mod == "total":
            continue
        target = target_of(mod, engine, harness)
        score = row["score"]
        dead = row["killed"] + row["timeout"]
        if score is None:
            verdict = "-"
        elif 100 * dead < Fraction(repr(float(target))) * row["scored"]:
            # the exact score, not the figure rounded to 0.1 (94.99% does not reach 95%)
            verdict = "**short**"
        elif row.get("scored", 0) < MIN_SCORED:
            verdict = f"too few (need {MIN_SCORED})"
        else:
            verdict = "meets"
        if verdict not in ("-", "meets"):
            missing.append(mod)
        after = mutants_report.fmt_score(final.get(mod, {}).get("score"))
        shown = mutants_report.fmt_interval(row)
        lines.append(f"| `{mod}` | {shown} | {target:.0f}% | {verdict} | {after} |")
    t = first.get("total")
    if t:
        after = mutants_report.fmt_score(final.get("total", {}).get("score"))
        lines.append(f"| **total** | {mutants_report.fmt_interval(t)} | | | {after} |")
    return lines, missing


def command_of(doc: dict[str, Any]) -> str:
    """The run's command as recorded, or rebuilt from its options (reports made before the
    command was recorded)."""
    if doc.get("command"):
        return str(doc["command"])
    args = [f"--files '{f}'" for f in doc.get("files") or []]
    for key, opt in (("sample", "--sample"), ("per_module", "--per-module")):
        if doc.get(key):
            args.append(f"{opt} {doc[key]}")
    if doc.get("seed") is not None:
        args.append(f"--seed {doc['seed']}")
    if doc.get("shard") not in (None, "", "1/1"):
        args.append(f"--shard {doc['shard']}")
    if doc.get("diff"):
        args.append(f"--diff {doc['diff']}")
    return " ".join(["ci/mutation.sh", *args, f"--config {config_of(doc)}"])


def cpp_builds(doc: dict[str, Any]) -> str:
    """The run's C++ mutants that reached a build: how many could not compile (the target is at
    most 15%), and how many ran on the one schema build (docs/mutation.md, Schemata)."""
    cpp = [m for m in doc["mutants"] if str(m.get("file", "")).endswith(".cpp")]
    built = [m for m in cpp if m.get("outcome") not in ("skipped", "error", "")]
    if not built:
        return "-"
    bad = sum(m.get("outcome") == "uncompilable" for m in built)
    schema = sum(m.get("via") == "schema" for m in built)
    return f"{bad} of {len(built)} ({100 * bad / len(built):.0f}%); {schema} on the schema build"


def runs_table(docs: Sequence[dict[str, Any]]) -> list[str]:
    lines = [
        "| run | command | HEAD | mutants | minutes | jobs | mutants/hour (run/hour) |"
        " C++ uncompilable of built; schema |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for d in docs:
        # A stopped run (SIGTERM) reports the mutants it ran of those it drew.
        size = str(len(d["mutants"]))
        if d.get("complete") is False:
            size = f"{d.get('done', 0)} of {size} (stopped)"
        lines.append(
            f"| `{config_of(d)}` | `{command_of(d)}` | {str(d.get('head', ''))[:10]} |"
            f" {size} | {d.get('seconds', 0) / 60:.1f} | {d.get('jobs', '-')} |"
            f" {d.get('mutants_per_hour', 0):.0f} ({d.get('run_per_hour', 0):.0f}) |"
            f" {cpp_builds(d)} |"
        )
    return lines


def doc_page(
    command: str,
    docs: Sequence[dict[str, Any]],
    first: list[dict[str, Any]],
    final: list[dict[str, Any]],
    engine: float,
    harness: float,
) -> tuple[str, list[str]]:
    first_rows, final_rows = scored(first), scored(final)
    targets, missing = target_table(first_rows, final_rows, engine, harness)
    gone = [r for r in final if r.get("gone")]
    gaps = [r for r in final if r["outcome"] in mutants_report.SURVIVED and not r.get("triaged")]
    gaps = [r for r in gaps if not r.get("gone")]
    hours = sum(d.get("seconds", 0) for d in docs) / 3600
    not_run = [r for r in final if r["outcome"] == "skipped"]
    lines = [
        "# Mutation campaign (generated)",
        "",
        f"Generated by `{command}` from the reports of the runs below; do not edit by hand. How"
        " mutants are made, run and scored: [mutation.md](mutation.md).",
        "",
        "## Runs",
        "",
        *runs_table(docs),
        "",
        f"{len(final)} distinct mutants ({len(not_run)} of them not run: the rest of a stopped"
        f" run), {hours:.2f} hours of runs in all. A later run's outcome"
        " replaces an earlier one's (the reruns of survivors after their gaps were closed);"
        f" {len(gone)} mutants are gone (the fix changed their line) and leave the final score.",
        "",
        "## Scores against the targets",
        "",
        f"Target: {engine:.0f}% of the scored mutants killed in each module of `engine/src`,"
        f" {harness:.0f}% in every other module, on the first run of a sample, with at least"
        f" {MIN_SCORED} scored in the module. Scored = killed + timeout + survived + not"
        " covered - triaged (equivalent and uncompilable mutants are not scored). The interval"
        " is the 95% Wilson interval of the module's score over all its mutants that the sample"
        " supports. The last column, after the reruns of survivors whose gaps were closed, is"
        " shown for the record and never decides: closing a sample's survivors fixes those lines,"
        " not the mutants no sample drew.",
        "",
        *targets,
        "",
        "Modules short of their target: " + (", ".join(f"`{m}`" for m in missing) or "none") + ".",
        "",
        f"## Survivors left ({len(gaps)} untriaged)",
        "",
    ]
    for r in gaps:
        text = (r.get("original") or "").strip()[:90]
        lines.append(
            f"- `{mutants_report.where(r)}` `{r['operator']}`: `{text}`"
            f" ({r['outcome']}, run `{r['run']}`)"
        )
    if not gaps:
        lines.append("None.")
    lines += ["", "## The merged module table", "", *mutants_report.module_table(final_rows), ""]
    return "\n".join(lines), missing


def outputs(a: argparse.Namespace) -> list[Output]:
    found = mutants_report.outputs_of("mutation", a.config, a.out_dir)
    return found + ([Output("--doc", Path(a.doc))] if a.doc else [])


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    ap = ToolParser(
        prog="ci/mutation.sh campaign",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=lambda a: [junit_in(a.out_dir, "mutation", a.config)],
        outputs=outputs,
    )
    ap.add_argument(
        "--report",
        action="append",
        type=inputs.input_file(),
        required=True,
        metavar="JSON",
        help="a mutation report (repeatable; later ones win)",
    )
    ap.add_argument(
        "--config", type=options.name, default="campaign", help="name of the merged report"
    )
    ap.add_argument("--out-dir", default=str(mutation.ROOT / "reports"))
    ap.add_argument("--doc", default="", metavar="MD", help="write the generated page here too")
    ap.add_argument("--engine-target", type=options.percent, default=95.0, metavar="PCT")
    ap.add_argument("--harness-target", type=options.percent, default=85.0, metavar="PCT")
    ap.add_argument(
        "--fail-on-target", action="store_true", help="exit 1 when a module misses its target"
    )
    a = ap.parse_args(argv)
    a.argv = list(argv)
    return a


def main(argv: Sequence[str]) -> int:
    """Bad input (exit 2) still replaces an earlier merged report by an <error> (run_tool)."""
    return run_tool(lambda: merge_and_write(parse_args(argv)))


def merge_and_write(a: argparse.Namespace) -> int:
    docs = [read_report(Path(p)) for p in a.report]
    first, final = merge(docs)
    entries = mutation.read_triage(mutation.TRIAGE_FILE)
    retriage(first, entries)
    retriage(final, entries)
    command = "ci/mutation.sh campaign " + " ".join(a.argv)
    page, missing = doc_page(command, docs, first, final, a.engine_target, a.harness_target)
    meta = {
        "head": docs[-1].get("head", ""),
        "command": command,
        "reports": [str(p) for p in a.report],
        "seconds": round(sum(d.get("seconds", 0) for d in docs), 1),
        "missing_targets": missing,
    }
    live = [r for r in final if not r.get("gone")]
    rows = mutants_report.tally(live)
    first_total = scored(first).get("total", {})
    headline = (
        f"{len(docs)} runs merged; {len(live)} mutants; first-run score"
        f" {mutants_report.fmt_interval(first_total)}; after closing survivors"
        f" {mutants_report.fmt_score(rows.get('total', {}).get('score'))} (not the headline)."
    )
    mutants_report.write_reports(
        "mutation",
        a.config,
        Path(a.out_dir),
        live,
        meta,
        f"Mutation campaign ({a.config})",
        headline,
    )
    if a.doc:
        _, report = mutants_report.stkref()
        report.write_text_atomic(Path(a.doc), page + "\n")
    print(page)
    return 1 if a.fail_on_target and missing else 0
