"""python -m stkref.shadowplot SUMMARY.json OUT.png: miss rate by remaining depth, one line per
mechanism, with the Wilson 95% interval as a band, and the mechanism's control rate (the same kind
of search repeated where the real search's answer is known) as a dashed line of the same colour
(the summary of `stk-harness shadow`; summaries without controls plot the miss rates only). LMP,
futility and SEE share one control population, drawn once in grey.

Exit 0 when the PNG is written; 2 with the reason on a bad input (the harness reports it).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from .cli import ToolParser, run_tool
from .errors import InputError
from .inputs import input_file, read_input_text
from .outputs import Output, write_figure


def plot(summary: dict[str, Any], out: Path) -> Any:
    """Writes the PNG; returns the (closed) figure, whose axes a test can read."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    by_mech: dict[str, list[dict[str, Any]]] = {}
    for cell in summary["cells"]:
        if cell["audited"] > 0:
            by_mech.setdefault(cell["mechanism"], []).append(cell)
    fig, ax = plt.subplots(figsize=(8, 5))
    top = 0.0
    plotted: set[str] = set()
    for mech, cells in sorted(by_mech.items()):
        cells.sort(key=lambda c: c["depth"])
        d = [c["depth"] for c in cells]
        line = ax.plot(
            d,
            [c["rate"] for c in cells],
            marker="o",
            label=f"{mech} (n={sum(c['audited'] for c in cells)})",
        )
        ax.fill_between(
            d,
            [c["wilson_lo"] for c in cells],
            [c["wilson_hi"] for c in cells],
            color=line[0].get_color(),
            alpha=0.15,
        )
        top = max([top] + [c["wilson_hi"] for c in cells if c["audited"] >= 100])
        with_control = [c for c in cells if c.get("control_audited", 0) > 0]
        population = cells[0].get("control", mech)
        if with_control and population not in plotted:
            # LMP, futility and SEE share one control population: drawn once, in grey.
            shared = sum(1 for cs in by_mech.values() if cs[0].get("control") == population) > 1
            ax.plot(
                [c["depth"] for c in with_control],
                [c["control_rate"] for c in with_control],
                linestyle="--",
                marker=".",
                color="grey" if shared else line[0].get_color(),
                alpha=0.8,
                label=f"control: {population}" if shared else None,
            )
            plotted.add(population)
    if "max_control" in summary:
        ax.axhline(
            summary["max_control"],
            color="#a4161a",
            lw=1,
            ls=":",
            label=f"control gate: Wilson 95% low <= {summary['max_control']:g}",
        )
    ax.set_xlabel("remaining depth at the deciding node")
    ax.set_ylabel("miss rate (Wilson 95% band); dashed: control rate")
    ax.set_ylim(0, min(1.0, max(top, 0.01) * 1.1))
    isolation = f", isolation {summary['isolation']}" if "isolation" in summary else ""
    ax.set_title(
        f"shadow audit {summary['config']}: {summary['positions']} positions, "
        f"{summary['budget']}{isolation}"
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    write_figure(fig, out)
    plt.close(fig)
    return fig


def main(argv: list[str] | None = None) -> int:
    """The run under run_tool (also when called directly): its exit status."""
    return run_tool(lambda: _main(argv))


def _main(argv: list[str] | None) -> int:
    ap = ToolParser(
        prog="python -m stkref.shadowplot",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        outputs=lambda a: [Output("OUT.png", a.out)],
    )
    ap.add_argument("summary", type=input_file(), help="the summary JSON of stk-harness shadow")
    ap.add_argument("out", type=Path, help="the PNG to write")
    a = ap.parse_args(argv)
    src, out = a.summary, a.out
    try:
        summary = json.loads(read_input_text(src))
        summary["cells"], summary["config"]  # the fields the plot needs (KeyError if absent)
    except (OSError, ValueError, KeyError) as e:
        raise InputError(f"shadowplot: cannot read {src}: {e}") from e
    plot(summary, out)
    print(f"shadowplot: wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
