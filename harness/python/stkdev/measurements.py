"""Writes docs/measurements.md: the headline figures of every summary under reports/.

    ci/make-measurements.py [--reports DIR] [--out FILE] [--check]

Reads every JSON summary with a "report" envelope (schema stk-report/1, docs/report-schema.md)
and every bare match result file (kind "stk-match-result"; published ones carry the envelope) under
--reports (default reports/, as `stk-harness all` leaves it) and writes one table per harness:
config, outcome, the headline figures, the commit and the date. The figures are the ones the
review page shows (the same JSON pointers); a harness it does not know gets its top-level numbers.
The commit is the JUnit file's `git_revision` property (the envelope names that file), else the
summary's own revision field; the date is the summary file's modification time (UTC).
--check: exit 1 with a diff when FILE differs from what the reports give. Exit 2: no summaries,
or a malformed one (named). Python 3 standard library only (so are stkref.cli, .outputs,
.options, .inputs).
"""

from __future__ import annotations

import datetime as dt
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from stkref import inputs
from stkref.cli import ToolParser, run_tool
from stkref.inputs import differs_from
from stkref.outputs import Output, write_text_atomic

ROOT = Path(__file__).resolve().parents[3]  # harness/python/<package>/ -> the repository

# Headline figures per harness: (label, JSON pointer). The same pointers as the review page
# (harness/src/commands/review/review_inputs.cpp); names as in docs/report-schema.md.
HEADLINES: dict[str, list[tuple[str, str]]] = {
    "perft": [
        ("nodes/s", "/nodes_per_second"),
        ("nodes", "/total_nodes"),
        ("checks failed", "/failed"),
    ],
    "perft-speed": [
        ("nodes/s ratio stk/reference (median)", "/nps_ratio/median"),
        ("lowest run", "/nps_ratio/min"),
        ("highest run", "/nps_ratio/max"),
    ],
    "epd": [
        ("solved", "/summary/solved"),
        ("positions", "/summary/positions"),
        ("budget", "/budget/kind"),
        ("budget value", "/budget/value"),
        ("regressions", "/comparison/regressions"),
        ("new solves", "/comparison/new_solves"),
    ],
    "bench": [
        ("bench signature (nodes)", "/nodes"),
        ("golden signature", "/expected_nodes"),
        ("nodes/s", "/nodes_per_second"),
    ],
    "accumulator": [("checks failed", "/failed")],
    "drift": [
        ("|delta cp| p99", "/abs_delta_cp/p99"),
        ("|delta cp| max", "/abs_delta_cp/max"),
        ("int16 overflow lanes", "/int16_overflow_lanes"),
    ],
    "shadow": [
        ("positions", "/positions"),
        ("misses", "/misses"),
        ("invariant failures", "/invariant_failures"),
        ("real nodes", "/real_nodes"),
        ("shadow nodes", "/shadow_nodes"),
    ],
    "calibration": [
        ("held-out records", "/records"),
        ("ECE (all)", "/slices/all/ece"),
        ("AUC (all)", "/slices/all/auc"),
    ],
    "search-speed": [
        ("nodes/s ratio", "/speed_ratio"),
        ("stk nodes/s", "/stk/nodes_per_second"),
        ("reference nodes/s", "/reference_run/nodes_per_second"),
    ],
    "nnue-bench": [
        ("make/unmake moves/s", "/make_unmake_moves_per_s"),
        ("search nodes/s", "/search_nodes_per_s"),
    ],
    "checknet": [("size", "/size"), ("digest matches", "/digest_matches")],
    "fhcollect": [
        ("records", "/records"),
        ("positions searched", "/positions_searched"),
        ("nodes", "/nodes"),
    ],
    "uci-check": [
        ("pass", "/counts/pass"),
        ("fail", "/counts/fail"),
        ("documented differences", "/counts/documented_difference"),
        ("error", "/counts/error"),
    ],
    "compare": [("passed", "/passed"), ("build s", "/build_s"), ("measure s", "/measure_s")],
    "match": [
        ("pairs", "/counts/pairs"),
        ("Elo", "/summary/pentanomial_estimate/elo"),
        ("Elo +-", "/summary/pentanomial_estimate/elo_error"),
        ("LLR", "/summary/sprt/llr"),
        ("SPRT verdict", "/summary/sprt/verdict"),
    ],
}


# Per-item figures of arrays and maps the review page also shows.
def expanded(harness: str, doc: dict) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if harness == "drift" and isinstance(doc.get("per_bucket"), dict):
        out += [(f"bucket {k} p99", f"/per_bucket/{token(k)}/p99") for k in doc["per_bucket"]]
    if harness == "shadow" and isinstance(doc.get("mechanisms"), list):
        for i, m in enumerate(doc["mechanisms"]):
            name = m.get("mechanism", str(i)) if isinstance(m, dict) else str(i)
            out += [
                (f"{name} {k}", f"/mechanisms/{i}/{k}") for k in ("rate", "control_rate", "excess")
            ]
    if harness in ("features", "eval") and isinstance(doc.get("corpora"), dict):
        for k in doc["corpora"]:
            mism = "/engine-vs-oracle/mismatches" if harness == "eval" else "/mismatches"
            out += [
                (f"{k} positions", f"/corpora/{token(k)}/positions"),
                (f"{k} mismatches", f"/corpora/{token(k)}{mism}"),
            ]
    if harness == "nnue-bench" and isinstance(doc.get("results"), list):
        for i, r in enumerate(doc["results"]):
            tag = f"H={r.get('hidden')} {r.get('kernels')}" if isinstance(r, dict) else str(i)
            out += [
                (f"{tag} refresh evals/s", f"/results/{i}/refresh_evals_per_s"),
                (f"{tag} incremental evals/s", f"/results/{i}/incremental_evals_per_s"),
            ]
    return out


def token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def at(doc, pointer: str):
    cur = doc
    for part in pointer.split("/")[1:]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            return None
    return cur


def fmt(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:.4g}"
    if isinstance(v, list):
        return str(len(v))
    return cell(str(v))


def junit_revision(path: Path) -> str | None:
    """The git_revision property of a JUnit file (named by a summary: read through the checked
    reader, so a FIFO or device named there is refused, never waited on); None when unreadable."""
    try:
        root = ET.fromstring(inputs.read_input_bytes(path))
    except (inputs.UnreadableInputError, ET.ParseError):
        return None
    for prop in root.iter("property"):
        if prop.get("name") == "git_revision" and prop.get("value"):
            return prop.get("value")
    return None


def summaries(reports: Path) -> list[dict]:
    rows = []
    for path in sorted(reports.rglob("*.json")):
        rel = path.relative_to(reports).as_posix()
        try:
            doc = json.loads(inputs.read_input_text(path))
        except inputs.UnreadableInputError as e:
            raise SystemExit(f"make-measurements: {e}") from None
        except json.JSONDecodeError as e:
            raise SystemExit(f"make-measurements: {path}: {e}") from None
        if not isinstance(doc, dict):
            continue
        env = doc.get("report")
        if isinstance(env, dict) and env.get("schema", "").startswith("stk-report/"):
            harness, config = env.get("harness", "?"), env.get("config", "?")
            outcome = (
                ("passed" if env.get("passed") else "FAILED")
                + f" ({env.get('tests', 0)} tests, {env.get('failures', 0)} failures,"
                + f" {env.get('errors', 0)} errors)"
            )
            junit = path.parent / env["junit"] if isinstance(env.get("junit"), str) else None
        elif doc.get("kind") == "stk-match-result":
            harness, config = "match", at(doc, "/definition/config") or path.stem
            outcome, junit = "match result file", reports / "junit" / f"match-{path.stem}.xml"
        else:
            continue  # baselines, position lists, other JSON
        revision = (
            (junit_revision(junit) if junit else None)
            or doc.get("git_revision")
            or doc.get("revision")
            or "?"
        )
        date = dt.datetime.fromtimestamp(path.stat().st_mtime, dt.timezone.utc).strftime("%Y-%m-%d")
        pointers = HEADLINES.get(harness)
        if pointers is None:  # a harness the table does not know: its top-level numbers
            pointers = [
                (k, "/" + token(k))
                for k, v in doc.items()
                if k != "report" and isinstance(v, (int, float)) and not isinstance(v, bool)
            ]
        figures = [
            (label, fmt(v))
            for label, ptr in pointers + expanded(harness, doc)
            if (v := at(doc, ptr)) is not None and not isinstance(v, (dict,))
        ]
        rows.append(
            {
                "harness": harness,
                "config": str(config),
                "file": rel,
                "outcome": outcome,
                "revision": str(revision)[:12],
                "date": date,
                "figures": figures,
            }
        )
    return rows


def cell(s: str) -> str:
    return s.replace("|", "\\|")


def render(rows: list[dict]) -> str:
    out = [
        "# Measurements: headline figures of the latest reports",
        "",
        "Generated by `ci/make-measurements.py` from the JSON summaries under `reports/`"
        " (as `stk-harness all`",
        "leaves them); do not edit by hand. Regenerate:"
        " `stk-harness all --tier full && ci/make-measurements.py`.",
        "Figures are the review page's headlines ([review.md](review.md)); their names:"
        " [report-schema.md](report-schema.md).",
        "Commit: the JUnit file's `git_revision`; date: the summary file's time (UTC).",
        "",
    ]
    revs = sorted({r["revision"] for r in rows})
    dates = sorted({r["date"] for r in rows})
    out += [f"Commits: {', '.join(f'`{r}`' for r in revs)}; dates: {dates[0]} to {dates[-1]}.", ""]
    for harness in sorted({r["harness"] for r in rows}):
        out += [
            f"## {harness}",
            "",
            "| config | outcome | headline figures | commit | date | file |",
            "|---|---|---|---|---|---|",
        ]
        for r in sorted(
            (r for r in rows if r["harness"] == harness), key=lambda r: (r["config"], r["file"])
        ):
            figs = "; ".join(cell(label) + " " + value for label, value in r["figures"]) or "(none)"
            out.append(
                f"| {r['config']} | {r['outcome']} | {figs} | `{r['revision']}` | {r['date']}"
                f" | `{r['file']}` |"
            )
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(
        prog="ci/make-measurements.py",
        description=__doc__.split("\n")[0],
        outputs=lambda a: [] if a.check else [Output("--out", a.out)],
    )
    ap.add_argument("--reports", type=inputs.folder, default=ROOT / "reports")
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "measurements.md")
    ap.add_argument("--check", action="store_true", help="exit 1 with a diff when --out differs")
    a = ap.parse_args(argv)
    if not a.reports.is_dir():
        print(f"make-measurements: {a.reports}: not a directory", file=sys.stderr)
        return 2
    rows = summaries(a.reports)
    if not rows:
        print(
            f"make-measurements: {a.reports}: no summaries (run stk-harness all first)",
            file=sys.stderr,
        )
        return 2
    text = render(rows)
    if a.check:
        return int(differs_from(a.out, text, "from reports"))
    write_text_atomic(a.out, text)
    print(f"wrote {a.out} ({len(rows)} summaries)")
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
