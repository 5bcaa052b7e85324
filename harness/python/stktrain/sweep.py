"""The training settings swept on one data file, each measured on its held-out games, and the one
the rule chooses (docs/training.md, "Choosing the settings").

python -m stktrain.sweep --run NAME SUMMARY QUALITY [--run ...] --out FILE.json [--md FILE.md]

Each run is a `stktrain.train --summary` JSON and the `stktrain.netquality` summary of the net
exported from it. Their figures that do not depend on lambda decide (a validation loss is measured
against each run's own lambda blend, so it compares runs of one lambda only): the net's pair
accuracy and its MAE against the search score on the same held-out positions. The rule, fixed
before the runs: the highest pair accuracy wins; among the runs within 0.002 (0.2 points) of it,
the lowest MAE against the score; then the first given.

Refused with exit 2, naming the file: runs trained on other data or another validation split
(data paths, seed, validation fraction or validation positions unequal), or measured on other
positions (the classical evaluation's figures or the position count unequal), a name given twice.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stkref import inputs
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.outputs import Output, write_text_atomic
from stktrain.json_report import load

PAIR_MARGIN = 0.002  # runs this close in pair accuracy are tied on it

# The training summary's fields that make two runs comparable, and netquality's.
SAME_SPLIT = ("data", "seed", "validation_positions")
SAME_POSITIONS = ("positions", "validation_games", "classical")


def run_row(name: str, summary_path: Path, quality_path: Path) -> dict[str, Any]:
    """One run's settings and figures, with what must match across runs under `_same`."""
    s, q = load(summary_path), load(quality_path)
    st, net = s["settings"], q["net"]
    return {
        "name": name,
        "lambda": st["lam"],
        "lr": st["lr"],
        "lr_drop": st["lr_drop"],
        "factorizer": st["factorizer"],
        "epochs": st["epochs"],
        "kept_epoch": s["kept_epoch"],
        "validation_loss": s["kept_val_loss"],
        "pair_accuracy": net["pair_accuracy"],
        "mae_cp": net["mae_cp"],
        "mae_wdl_result": net["mae_wdl_result"],
        "_same": {
            "split": {k: s[k] for k in SAME_SPLIT} | {"val_fraction": st["val_fraction"]},
            "positions": {k: q[k] for k in SAME_POSITIONS},
        },
        "_files": (str(summary_path), str(quality_path)),
    }


def chosen(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The rule of the module docstring."""
    best = max(r["pair_accuracy"] for r in rows)
    # Inclusive, and exact for figures on a grid of 1/pairs (a float difference of 0.002 may
    # come out a hair above it).
    near = [r for r in rows if best - r["pair_accuracy"] <= PAIR_MARGIN + 1e-12]
    return min(near, key=lambda r: r["mae_cp"])  # min keeps the first of equals


def sweep(runs: Sequence[tuple[str, Path, Path]]) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for name, summary, quality in runs:
        if any(r["name"] == name for r in rows):
            raise InputError(f"{summary}: run name {name!r} given twice")
        row = run_row(name, summary, quality)
        for what, why in (("split", "data or validation split"), ("positions", "positions")):
            if rows and row["_same"][what] != rows[0]["_same"][what]:
                raise InputError(
                    f"{row['_files'][0 if what == 'split' else 1]}: another {why} than "
                    f"{rows[0]['_files'][0 if what == 'split' else 1]}: the runs do not compare"
                )
        rows.append(row)
    if not rows:
        raise InputError("no runs")
    first = rows[0]["_same"]
    return {
        "rule": "highest pair accuracy; within 0.002 of it, the lowest MAE vs the search score",
        "chosen": chosen(rows)["name"],
        "data": first["split"]["data"],
        "validation_positions_trained": first["split"]["validation_positions"],
        "measured_positions": first["positions"]["positions"],
        "classical": first["positions"]["classical"],
        "runs": [{k: v for k, v in r.items() if not k.startswith("_")} for r in rows],
    }


def markdown(doc: dict[str, Any]) -> list[str]:
    """The sweep as a table (docs/trained-net.md's section)."""
    c = doc["classical"]
    lines = [
        "| run | lambda | lr drop | factorizer | kept epoch / epochs | validation loss | "
        "pair accuracy | MAE vs score (cp) | MAE win prob. vs result |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in doc["runs"]:
        mark = " (chosen)" if r["name"] == doc["chosen"] else ""
        lines.append(
            f"| {r['name']}{mark} | {r['lambda']} | {r['lr_drop'] or 'none'} | "
            f"{'on' if r['factorizer'] else 'off'} | {r['kept_epoch']} / {r['epochs']} | "
            f"{r['validation_loss']:.6f} | {r['pair_accuracy']:.2%} | {r['mae_cp']:.1f} | "
            f"{r['mae_wdl_result']:.4f} |"
        )
    lines.append(
        f"| classical evaluation | | | | | | {c['pair_accuracy']:.2%} | {c['mae_cp']:.1f} | "
        f"{c['mae_wdl_result']:.4f} |"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(
        prog="python -m stktrain.sweep",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        outputs=lambda a: [Output("--out", a.out)] + ([Output("--md", a.md)] if a.md else []),
    )
    ap.add_argument(
        "--run",
        nargs=3,
        action="append",
        required=True,
        metavar=("NAME", "SUMMARY", "QUALITY"),
        help="a run's name, its training summary and its netquality summary (repeatable)",
    )
    ap.add_argument("--out", type=Path, required=True, help="the sweep (JSON)")
    ap.add_argument("--md", type=Path, help="the sweep's table (markdown) too")
    a = ap.parse_args(argv)
    runs = [(n, Path(s), Path(q)) for n, s, q in a.run]
    for _, s, q in runs:
        inputs.check_input(s)
        inputs.check_input(q)
    doc = sweep(runs)
    write_text_atomic(a.out, json.dumps(doc, indent=2) + "\n")
    if a.md:
        write_text_atomic(a.md, "\n".join(markdown(doc)) + "\n")
    print(f"wrote {a.out}: {len(doc['runs'])} runs, chosen {doc['chosen']}")
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
