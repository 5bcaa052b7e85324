"""Writes docs/trained-net.md from the reports of ci/net-strength.sh (generated: do not edit).

python ci/net_strength_report.py WORK_DIR [--out docs/trained-net.md]

Reads golden/nets/trained/manifest.json (provenance, training figures) and, under WORK_DIR, the
match, search-speed, drift, netlint and netquality summaries the script wrote. A missing or bad
report, or one without a field the page needs, is an error naming the file (and the field), exit
2: a verdict is never written from part of the data.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from stkref import inputs
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.outputs import Output, write_text_atomic
from stktrain import sweep
from stktrain.json_report import Report, load
from stktrain.move_times import row_cells

ROOT = Path(__file__).resolve().parents[3]  # harness/python/<package>/ -> the repository


MANIFEST = ROOT / "golden/nets/trained/manifest.json"
SWEEP = ROOT / "golden/nets/trained/sweep.json"  # stktrain.sweep's choice of the settings
FAULTS = ("crash", "timeout", "time forfeit", "illegal move")  # game_play.cpp's forfeit reasons
MATCHES = (
    "equal-nodes",
    "equal-nodes-aa",
    "equal-time",
    "equal-time-aa",
    "gauntlet-nnue",
    "gauntlet-classical",
)
GAP_MATCHES = ("equal-time", "equal-time-aa")  # move-times/<name>.json (stktrain.move_times)
PHASES = ("opening", "middlegame", "endgame", "all")


def elo(m: dict[str, Any]) -> str:
    e = m["summary"]["pentanomial_estimate"]
    return f"{e['elo']:+.1f} [{e['elo_lower']:+.1f}, {e['elo_upper']:+.1f}]"


def faults(m: dict[str, Any]) -> int:
    """Games lost by a fault (crash, timeout, time forfeit, illegal move), not by the play."""
    return sum(g["reason"].startswith(FAULTS) for p in m["pairs"] for g in p["games"])


def match_row(name: str, m: dict[str, Any]) -> str:
    s = m["summary"]
    w = s["wdl"]
    sprt = s.get("sprt")
    llr = (
        f"{sprt['llr']:+.2f} ({sprt['lower_bound']:+.2f}, {sprt['upper_bound']:+.2f})"
        if sprt
        else "-"
    )
    verdict = sprt["verdict"] if sprt else "measurement"
    engines = " vs ".join(e["name"] for e in m["definition"]["engines"])
    return (
        f"| {name} | {engines} | {m['definition']['time_control']} | {s['games']} | "
        f"{w['w']}-{w['d']}-{w['l']} | {faults(m)} | {elo(m)} | {llr} | {verdict} |"
    )


def verdict(equal_time: dict[str, Any]) -> str:
    """Only an accepted H1 makes the net the stronger. Short of that the classical evaluation stays
    the default, and the words follow the interval: ahead (its lower end above 0, the SPRT not yet
    decided: more pairs), or short of it by that interval."""
    e = equal_time["summary"]["pentanomial_estimate"]
    sprt = equal_time["summary"]["sprt"]["verdict"]
    if sprt == "H1 accepted":
        return (
            "The net is stronger at equal time (SPRT accepted H1): it is the default evaluation of "
            "the -nnue build (CMake preset `nnue`, the net built in; EvalFile still overrides; "
            "`ci/nnue-build.sh`, docs/build.md)."
        )
    measured = (
        f"SPRT: {sprt}; Elo {e['elo']:+.1f}, 95% [{e['elo_lower']:+.1f}, {e['elo_upper']:+.1f}]"
    )
    if sprt == "continue" and e["elo_lower"] > 0:
        return (
            f"The net is ahead at equal time but not yet proved stronger ({measured}): the SPRT "
            "needs more pairs; the classical evaluation stays the default until it accepts H1."
        )
    return (
        f"The net is not proved stronger at equal time ({measured}): the classical evaluation "
        "stays the default; the net falls short of it by that interval."
    )


def gap_lines(times: dict[str, Report]) -> list[str]:
    """The clock's figures per move (stktrain.move_times on the equal-time PGNs): each engine's
    time, depth, nodes, nodes/s and branching factor by phase, and the A/A control beside them."""
    lines = [
        "| match | phase | engine | moves | mean ms | depth | nodes | nodes/s | EBF |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    ratios = []
    for name, t in times.items():
        engines = t["engines"]
        for phase in PHASES:
            for e, per in engines.items():
                f = per[phase]
                lines.append(f"| {name} | {phase} | {e} {row_cells(f, ('median_ms',))}")
        (a, fa), (b, fb) = ((e, per["all"]) for e, per in list(engines.items())[:2])
        if fa["nodes_per_second"] and fb["nodes_per_second"] and fa["mean_ms"] and fb["mean_ms"]:
            nps = fa["nodes_per_second"] / fb["nodes_per_second"]
            depths = (fa["mean_depth"], fb["mean_depth"])
            depth = "" if None in depths else f", depth {depths[0] - depths[1]:+.2f} plies"
            ratios.append(
                f"{name}: {a} over {b} nodes/s {nps:.3f}, time per move "
                f"{fa['mean_ms'] / fb['mean_ms']:.3f}{depth}"
            )
    return [*lines, "", *(f"- {r}" for r in ratios)]


def sweep_lines(man: Report) -> list[str]:
    """The settings sweep behind the net's training (stktrain.sweep), and whether the net was
    trained with the settings it chose."""
    head = ["## Training settings (`python -m stktrain.sweep`, docs/training.md)", ""]
    if not SWEEP.exists():
        return [*head, "No sweep recorded for this net (golden/nets/trained/sweep.json).", ""]
    doc = load(SWEEP)
    run = next((r for r in doc["runs"] if r["name"] == doc["chosen"]), None)
    if run is None:
        raise InputError(f"{SWEEP}: the chosen run {doc['chosen']!r} is not among its runs")
    st = man["trainer"]["settings"]
    same = (run["lambda"], run["lr_drop"], run["factorizer"]) == (
        st["lam"],
        st["lr_drop"],
        st["factorizer"],
    )
    chosen = doc["chosen"]
    follows = (
        f"The net was trained with the chosen run's lambda, lr drop and factorizer ({chosen})."
        if same
        else f"The net's lambda, lr drop or factorizer differ from the chosen run's ({chosen})."
    )
    return [
        *head,
        f"Each run trained on `{', '.join(doc['data'])}` and measured by netquality on the same "
        f"{doc['measured_positions']} held-out positions. Rule: {doc['rule']}. {follows}",
        "",
        *sweep.markdown(doc),
        "",
    ]


def render(work: Path) -> str:
    man = load(MANIFEST)
    m = {n: load(work / "match" / f"{n}.json") for n in MATCHES}
    speed = {n: load(work / "search-speed" / f"{n}.json") for n in ("classical", "nnue")}
    times = {n: load(work / "move-times" / f"{n}.json") for n in GAP_MATCHES}
    drift = load(work / "drift" / "drift-trained.json")
    lint = load(work / "netlint" / "trained.json")
    quality = load(work / "netquality" / "trained.json")
    tr, dg = man["trainer"], man["datagen"]
    d = drift["abs_delta_cp"]
    ft = lint["ft"]
    qn, qc = quality["net"], quality["classical"]
    g_nnue = m["gauntlet-nnue"]["summary"]["pentanomial_estimate"]["elo"]
    g_classical = m["gauntlet-classical"]["summary"]["pentanomial_estimate"]["elo"]
    gap = g_nnue - g_classical + 0.0  # a zero difference printed as +0.0, never -0.0
    lines = [
        "# The trained net: provenance, gates and strength",
        "",
        "[docs index](README.md) · generated by `ci/net-strength.sh` + `ci/net_strength_report.py`"
        " (do not edit) · how it was trained: [training.md](training.md)",
        "",
        "Recheck: `DATA=<datagen file> ci/net-strength.sh build/strength` (30 to 50 minutes on 2 "
        "cores), which rewrites this page.",
        "",
        "## Verdict",
        "",
        verdict(m["equal-time"]),
        "",
        "## Provenance (`golden/nets/trained/manifest.json`)",
        "",
        f"- net `{man['net']}` SHA-256 `{man['net_sha256']}`, H = {man['hidden']}, output scale "
        f"{man['output_scale']:.3f} (the calibration to the classical scale; 1: none)",
        f"- data: `{dg['command']}`: {dg['games']} games, {dg['records']} records, "
        f"{dg['quiet_records']} quiet; datagen "
        f"{dg.get('positions_per_second_per_core') or 'unrecorded'} positions/s per core",
        f"- trainer revision `{tr['revision']}`, settings `{json.dumps(tr['settings'])}`",
        f"- K {tr['k_cp']:.0f} cp; {tr['train_positions']} training / {tr['validation_positions']} "
        f"validation positions (split by game); kept epoch {tr['kept_epoch']}, validation loss "
        f"{tr['validation_loss']:.6f} (untrained: {tr['initial_validation_loss']:.6f}); "
        f"{tr['seconds']:.0f} s, {tr['positions_per_second']} positions/s on the CPU",
        "",
        *sweep_lines(man),
        "## Gates on the trained net",
        "",
        "| measure | value |",
        "|---|---|",
        f"| drift float vs quantized, {drift['positions']} positions | p99 {d['p99']:.1f} cp, "
        f"max {d['max']:.1f} cp, mean {d['mean']:.1f} cp (tier gates p99 <= 30, max <= 50) |",
        f"| engine vs oracle | {drift['engine']['engine-vs-oracle']['mismatches']} mismatches, "
        f"mirror {drift['engine']['engine-vs-oracle-mirror']['mismatches']} |",
        f"| net lint, {lint['positions']} positions | FT lanes at 0 {ft['clipped_low_share']:.1%},"
        f" at 127 {ft['clipped_high_share']:.1%}; dead {ft['dead_lanes']}, saturated "
        f"{ft['saturated_lanes']} of {ft['lanes']}; int16 headroom {ft['int16_headroom']:.0f}x; "
        f"int32 headroom {lint['int32_headroom']:.0f}x |",
        "",
        f"## Offline quality ({quality['positions']} held-out positions, "
        f"{quality['validation_games']} validation games)",
        "",
        "| measure | net | classical |",
        "|---|---|---|",
        f"| MAE vs search score (cp) | {qn['mae_cp']:.1f} | {qc['mae_cp']:.1f} |",
        f"| MAE win probability vs score | {qn['mae_wdl_score']:.4f} | {qc['mae_wdl_score']:.4f} |",
        f"| MAE win probability vs result | {qn['mae_wdl_result']:.4f} | "
        f"{qc['mae_wdl_result']:.4f} |",
        f"| pair accuracy ({quality['pairs']} pairs) | {qn['pair_accuracy']:.1%} | "
        f"{qc['pair_accuracy']:.1%} |",
        f"| decided positions: median child-eval spread ({quality['decided_positions']}) | "
        f"{qn['decided_median_spread_cp']:.0f} cp | {qc['decided_median_spread_cp']:.0f} cp |",
        f"| decided positions collapsed (< 15 cp) | {qn['decided_collapsed_share']:.1%} | "
        f"{qc['decided_collapsed_share']:.1%} |",
        "",
        f"Scale: net eval = {quality['scale_net_per_classical']:.2f} x classical eval (least "
        "squares within 1000 cp). The search's margins were tuned on the classical scale.",
        "",
        "## Games",
        "",
        "Pentanomial Elo with its 95% interval; SPRT on normalized Elo [0, 10], alpha = beta = "
        "0.05. The A/A row is the null control: classical against itself on the same openings (at "
        "fixed nodes both games of a pair replay alike, so its Elo is 0 within rounding). A "
        "game lost by a fault (crash, timeout, time forfeit, illegal move) is counted beside the "
        "result: a gauntlet won by the opponent's forfeits measures nothing.",
        "",
        "| match | engines | limit | games | W-D-L | lost by a fault | Elo [95%] | LLR (bounds) "
        "| verdict |",
        "|---|---|---|---|---|---|---|---|---|",
        *(match_row(n, x) for n, x in m.items()),
        "",
        f"Gauntlet against Debian's stockfish at a fixed node count (an engine nobody here wrote;"
        f" glaurung forfeits at these limits): the net {g_nnue:+.1f} Elo, the"
        f" classical evaluation {g_classical:+.1f} Elo; the difference {gap:+.1f}"
        " Elo is the net against the classical evaluation as an outside engine sees it.",
        "",
        "## The equal-time gap",
        "",
        "Per engine move of the clocked matches (`python -m stktrain.move_times` on their PGNs):"
        " the time the engine used, the depth and nodes of its last scored info line, nodes/s"
        " (all nodes over all seconds) and the effective branching factor exp(mean(ln nodes /"
        " depth)), by phase (ply of the position from the standard start: opening < 30, middlegame"
        " 30-79, endgame 80+). The A/A row is the null control: the classical evaluation against"
        " itself on the same clock, whose ratios are 1 up to the machine's noise.",
        "",
        *gap_lines(times),
        "",
        "## Speed (search-speed, each beside stockfish in one run)",
        "",
        "| evaluation | stk nodes/s | stockfish nodes/s | ratio |",
        "|---|---|---|---|",
        *(
            f"| {n} | {s['stk']['nodes_per_second']} | {s['reference_run']['nodes_per_second']} "
            f"({', '.join(s['reference_options']) or 'its NNUE'}) | {s['speed_ratio']:.2f}x |"
            for n, s in speed.items()
        ),
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(
        prog="python -m stktrain.strength_report",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        outputs=lambda a: [Output("--out", a.out)],
    )
    ap.add_argument("work", type=inputs.folder)
    ap.add_argument("--out", type=Path, default=ROOT / "docs/trained-net.md")
    a = ap.parse_args(argv)
    try:
        page = render(a.work)
    except (TypeError, ValueError, AttributeError) as e:  # a field of the wrong type
        raise InputError(f"{a.work}: a report holds a field of the wrong type ({e})") from e
    write_text_atomic(a.out, page)
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
