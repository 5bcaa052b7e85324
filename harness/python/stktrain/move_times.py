"""Where each engine of a match spends its clock: per move, the time used, the depth reached, the
nodes searched and nodes/s, by game phase, the two engines side by side (docs/trained-net.md
"The equal-time gap").

python -m stktrain.move_times MATCH.pgn [MATCH.pgn ...] [--json OUT]

Reads the PGN of `stk-harness match` (docs/harnesses/match.md): every engine move carries the
comment `{SCORE/DEPTH[ SECONDSs][, n=NODES]}`; book moves carry none; the game's reason follows the
last move. Phases by the ply of the position the move was made in (ply 0 = White's first move of
the standard game): opening below 30, middlegame 30 to 79, endgame from 80. Per engine and phase:
moves, mean and median milliseconds, mean depth, mean nodes, nodes/s (all nodes over all seconds
of the moves that have both) and the effective branching factor exp(mean(ln nodes / depth)). A
comment on an engine move that does not read so is an error naming the file, game and ply (exit 2).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import re
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import chess
import chess.pgn

from stkref import inputs
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.outputs import Output, write_text_atomic

COMMENT = re.compile(
    r"(?P<score>[+-]\d+\.\d\d|[+-]M\d+|\?)/(?P<depth>\d+)"
    r"(?: (?P<secs>\d+\.\d+)s)?(?:, n=(?P<nodes>\d+))?"
)
PHASES = (("opening", 0, 30), ("middlegame", 30, 80), ("endgame", 80, 10**9))


@dataclass(frozen=True)
class EngineMove:
    engine: str
    ply: int  # of the position the move was played in, from the standard start
    depth: int
    seconds: float | None
    nodes: int | None


def phase_of(ply: int) -> str:
    return next(name for name, lo, hi in PHASES if lo <= ply < hi)


def read_moves(path: Path) -> list[EngineMove]:
    """Every engine move of every game of a match PGN."""
    text = inputs.read_input_text(path)
    stream = io.StringIO(text)
    out: list[EngineMove] = []
    while (game := chess.pgn.read_game(stream)) is not None:
        if game.errors:
            raise InputError(f"{path}: game {game.headers.get('Round', '?')}: {game.errors[0]}")
        board = game.board()
        ply = 2 * (board.fullmove_number - 1) + (board.turn == chess.BLACK)
        nodes = list(game.mainline())
        for i, node in enumerate(nodes):
            mover = game.headers["White" if (ply + i) % 2 == 0 else "Black"]
            if not node.comment:
                continue
            m = COMMENT.match(node.comment)
            last = i == len(nodes) - 1
            if m is None or (not last and m.end() != len(node.comment.rstrip())):
                raise InputError(
                    f"{path}: game {game.headers.get('Round', '?')}, ply {ply + i}: "
                    f"'{node.comment}' is not an engine move's comment (SCORE/DEPTH[ Ts][, n=N])"
                )
            out.append(
                EngineMove(
                    mover,
                    ply + i,
                    int(m["depth"]),
                    float(m["secs"]) if m["secs"] else None,
                    int(m["nodes"]) if m["nodes"] else None,
                )
            )
    return out


@dataclass
class Figures:
    moves: int = 0
    depths: list[int] = field(default_factory=list)
    millis: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    timed_nodes: int = 0  # nodes of the moves that have a time too
    timed_seconds: float = 0.0
    log_ebf: list[float] = field(default_factory=list)

    def add(self, m: EngineMove) -> None:
        self.moves += 1
        self.depths.append(m.depth)
        if m.seconds is not None:
            self.millis.append(1000 * m.seconds)
        if m.nodes is not None:
            self.nodes.append(m.nodes)
            if m.seconds is not None:
                self.timed_nodes += m.nodes
                self.timed_seconds += m.seconds
            if m.depth > 0 and m.nodes > 0:
                self.log_ebf.append(math.log(m.nodes) / m.depth)

    def summary(self) -> dict[str, Any]:
        def mean(xs: list[float] | list[int]) -> float | None:
            return statistics.fmean(xs) if xs else None

        return {
            "moves": self.moves,
            "mean_ms": mean(self.millis),
            "median_ms": statistics.median(self.millis) if self.millis else None,
            "mean_depth": mean(self.depths),
            "mean_nodes": mean(self.nodes),
            "nodes_per_second": (
                self.timed_nodes / self.timed_seconds if self.timed_seconds > 0 else None
            ),
            "branching_factor": math.exp(statistics.fmean(self.log_ebf)) if self.log_ebf else None,
        }


def tabulate(moves: list[EngineMove]) -> dict[str, dict[str, dict[str, Any]]]:
    """{engine: {phase or "all": figures}}, engines in order of their first move."""
    acc: dict[str, dict[str, Figures]] = {}
    for m in moves:
        per = acc.setdefault(m.engine, {p[0]: Figures() for p in PHASES} | {"all": Figures()})
        per[phase_of(m.ply)].add(m)
        per["all"].add(m)
    return {e: {p: f.summary() for p, f in per.items()} for e, per in acc.items()}


# The figures of a table row after its move count, with their formats (the net-strength page
# shows the same rows less the median: strength_report.gap_lines).
FIGURES = (
    ("mean_ms", ".1f"),
    ("median_ms", ".1f"),
    ("mean_depth", ".2f"),
    ("mean_nodes", ".0f"),
    ("nodes_per_second", ".0f"),
    ("branching_factor", ".3f"),
)


def row_cells(s: dict[str, Any], leave_out: tuple[str, ...] = ()) -> str:
    """A row's move count and figures as table cells ("| 12 | 21.3 | ... |"; "-" for none)."""
    cells = [str(s["moves"])]
    cells += ["-" if s[k] is None else format(s[k], f) for k, f in FIGURES if k not in leave_out]
    return "| " + " | ".join(cells) + " |"


def render(table: dict[str, dict[str, dict[str, Any]]]) -> str:
    engines = list(table)
    lines = [
        "| phase | engine | moves | mean ms | median ms | depth | nodes | nodes/s | EBF |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for phase in [p[0] for p in PHASES] + ["all"]:
        for e in engines:
            s = table[e][phase]
            lines.append(f"| {phase} | {e} {row_cells(s)}")
    if len(engines) == 2:
        a, b = (table[e]["all"] for e in engines)
        if a["nodes_per_second"] and b["nodes_per_second"]:
            lines.append("")
            lines.append(
                f"nodes/s {engines[0]} over {engines[1]}: "
                f"{a['nodes_per_second'] / b['nodes_per_second']:.3f}; depth "
                f"{a['mean_depth'] - b['mean_depth']:+.2f} plies"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(
        prog="python -m stktrain.move_times",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        outputs=lambda a: [Output("--json", a.json)] if a.json else [],
    )
    ap.add_argument("pgn", nargs="+", type=inputs.input_file())
    ap.add_argument("--json", type=Path, help="also write the figures as JSON")
    a = ap.parse_args(argv)
    moves = [m for p in a.pgn for m in read_moves(p)]
    if not moves:
        raise InputError(f"{', '.join(map(str, a.pgn))}: no engine move with a comment")
    table = tabulate(moves)
    sys.stdout.write(render(table))
    if a.json:
        write_text_atomic(
            a.json,
            json.dumps({"files": [str(p) for p in a.pgn], "engines": table}, indent=2) + "\n",
        )
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
