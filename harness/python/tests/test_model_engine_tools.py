"""The engine's command-line tools against the table of docs/engine.md ("Arguments and exit
status"). Each tool's argument lists are drawn as a list the table accepts, then at most one
smallest edit (a word inserted, deleted, doubled or replaced by a near miss: a depth one past
its range, a sign or a space before the digits, an option of the other mode, a misspelt one),
so that every rule is met both kept and broken by one step. Each list runs through `stk` and is
judged by a model that reads the table's grammar alone, never which edit was made: exit 0 with
the output the table promises, or exit 2 with nothing on stdout and stderr beginning
`stk <command>: ` or `usage: stk <command>`. Runs when STK_ENGINE names the stk binary."""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import chess
import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

ENGINE = os.environ.get("STK_ENGINE", "")
pytestmark = pytest.mark.skipif(not ENGINE, reason="set STK_ENGINE=/path/to/stk to run")
ROOT = Path(__file__).resolve().parents[3]
NET = str(ROOT / "golden" / "nets" / "stk-h128-seed1.nnue")

START = chess.STARTING_FEN
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
BAD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"  # no side 'x'
# Published perft counts (depths 0-3): what `nodes N` must print.
PERFT = {START: [1, 20, 400, 8902], KIWIPETE: [1, 48, 2039, 97862]}
BENCH_POSITIONS = 20
# No shrinking: a planted defect that accepts a perft depth of 21 runs until the time limit, and
# shrinking would run it again and again. The failing list is in the assertion's message.
SETTINGS = settings(
    max_examples=150,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
REFUSAL_TIME_S = 20  # a refusal is immediate; an accepted list runs at most a bench at depth 13


@dataclass
class Ran:
    code: int
    out: str
    err: str


def stk(args: list[str], timeout: float = 120) -> Ran:
    try:
        p = subprocess.run([ENGINE, *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Ran(-9, "", f"still running after {timeout} s")
    return Ran(p.returncode, p.stdout, p.stderr)


def decimal(token: str, lo: int, hi: int) -> int | None:
    """The table's integer: decimal digits only, within lo..hi."""
    return int(token) if re.fullmatch(r"[0-9]+", token) and lo <= int(token) <= hi else None


def near_misses(lo: int, hi: int) -> list[str]:
    """An integer broken by the smallest step: one past either end, a sign, a space, a letter,
    nothing; and kept by one: both ends, a leading zero."""
    return [str(lo - 1), str(hi + 1), f"+{lo}", f" {lo}", f"{lo} ", f"{lo}x", "", f"-{lo}",
            str(lo), str(hi), f"0{lo}"]  # fmt: skip


# A base list is a list of items (an option with its value, a FEN, a move), each word with its
# kind; the edits know the kinds, never the rules: the model alone says what a list is worth.
Item = list[tuple[str, str]]


@st.composite
def edited(draw, base: st.SearchStrategy[list[Item]], near: dict[str, list[str]],
           extra: list[Item]) -> list[str]:  # fmt: skip
    """A list the table accepts, then at most one edit: a word replaced by a near miss of its
    kind, an item deleted or doubled, or an item of `extra` inserted."""
    items = list(draw(base))
    edit = draw(st.sampled_from(["none", "replace", "replace", "insert", "delete", "double"]))
    if edit == "insert":
        items.insert(draw(st.integers(0, len(items))), draw(st.sampled_from(extra)))
    elif items and edit != "none":
        i = draw(st.integers(0, len(items) - 1))
        if edit == "delete":
            del items[i]
        elif edit == "double":
            items.insert(i, items[i])
        else:
            j = draw(st.integers(0, len(items[i]) - 1))
            kind = items[i][j][0]
            item = list(items[i])
            item[j] = (kind, draw(st.sampled_from(near.get(kind, [""]))))
            items[i] = item
    return [word for item in items for _, word in item]


def words(*pairs: tuple[str, str]) -> Item:
    return list(pairs)


def assert_verdict(command: str, args: list[str], accepted: bool, r: Ran) -> None:
    if not accepted:
        assert r.code == 2, (args, r)
        assert r.out == "", (args, r)
        assert r.err.startswith((f"stk {command}: ", f"usage: stk {command}")), (args, r)
    else:
        assert r.code == 0, (args, r)


def run(command: str, args: list[str], accepted: bool) -> Ran:
    r = stk([command, *args], timeout=120 if accepted else REFUSAL_TIME_S)
    assert_verdict(command, args, accepted, r)
    return r


def batch_file(tmp_path_factory: pytest.TempPathFactory, lines: list[str]) -> str:
    path = tmp_path_factory.mktemp("batch") / "positions.txt"
    path.write_text("".join(f"{x}\n" for x in lines))
    return str(path)


# -- perft


def perft_depth(args: list[str]) -> int | None:
    """The table: exactly <FEN> <depth> [--divide], a FEN the parser accepts, depth 0..20."""
    if (
        len(args) not in (2, 3)
        or args[0] not in PERFT
        or (len(args) == 3 and args[2] != "--divide")
    ):
        return None
    return decimal(args[1], 0, 20)


PERFT_BASE = st.builds(
    lambda fen, depth, divide: (
        [words(("fen", fen)), words(("depth", depth))]
        + ([words(("option", "--divide"))] if divide else [])
    ),
    st.sampled_from(list(PERFT)),
    st.sampled_from(["0", "1", "2", "3", "03"]),
    st.booleans(),
)
PERFT_NEAR = {
    "fen": [BAD_FEN, "--divide", *PERFT],
    "depth": near_misses(0, 20),
    "option": ["--divid", "-d", "2", "--divide", "--Divide"],
}
PERFT_EXTRA = [words(("option", "--divide")), words(("depth", "1")), words(("fen", START))]


# MODEL engine-perft-arguments
# checks: engine/src/tools/perft_command.cpp  (stk perft: its arguments, exit status and counts)
# contract: docs/engine.md#arguments-and-exit-status
# planted: ci/mutants/model-engine-perft-depth-range.patch  (depth 21 accepted)
@given(edited(PERFT_BASE, PERFT_NEAR, PERFT_EXTRA))
@SETTINGS
def test_model_perft_arguments(args: list[str]) -> None:
    depth = perft_depth(args)
    assume(depth is None or depth <= 3)  # the table's upper end is run refused only (21)
    r = run("perft", args, depth is not None)
    if depth is None:
        return
    lines = r.out.splitlines()
    nodes = PERFT[args[0]][depth]
    assert f"nodes {nodes}" in lines, (args, r.out)
    divided = [x for x in lines if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?: \d+", x)]
    if len(args) == 3 and depth > 0:
        assert len(divided) == PERFT[args[0]][1], (args, r.out)
        assert sum(int(x.split(": ")[1]) for x in divided) == nodes, (args, r.out)
    else:  # no move is played at depth 0: the count is the position's own
        assert not divided, (args, r.out)


# -- bench


def bench_depth(args: list[str]) -> int | None:
    """The table: in any order, at most one depth 1..64 and at most one of --positions and
    --trace N (N 1..20); every other word is a depth. The depth of an accepted list (13 when
    none is given); None when refused."""
    depths: list[int] = []
    modes, i = 0, 0
    while i < len(args):
        a = args[i]
        if a == "--positions":
            modes += 1
        elif a == "--trace":
            i += 1
            if i == len(args) or decimal(args[i], 1, BENCH_POSITIONS) is None:
                return None
            modes += 1
        elif (d := decimal(a, 1, 64)) is None:
            return None
        else:
            depths.append(d)
        i += 1
    return (depths or [13])[0] if len(depths) <= 1 and modes <= 1 else None


BENCH_DEPTH = st.sampled_from([[], *([words(("depth", d))] for d in ("1", "2", "01"))])
BENCH_MODE = st.sampled_from(
    [[], [words(("flag", "--positions"))]]
    + [[words(("flag", "--trace"), ("position", n))] for n in ("1", "20", "07")]
)
BENCH_BASE = st.builds(lambda d, m, first: d + m if first else m + d, BENCH_DEPTH, BENCH_MODE,
                       st.booleans())  # fmt: skip
BENCH_NEAR = {
    "depth": near_misses(1, 64),
    "position": near_misses(1, BENCH_POSITIONS),
    "flag": ["--positions", "--trace", "--position", "-p", "--traces"],
}
BENCH_EXTRA = [words(("depth", "1")), words(("flag", "--positions")),
               words(("flag", "--trace"), ("position", "2")), words(("flag", "--trace"))]  # fmt: skip


# MODEL engine-bench-arguments
# checks: engine/src/tools/bench_command.cpp  (stk bench: which argument lists it runs)
# contract: docs/engine.md#arguments-and-exit-status
# planted: ci/mutants/model-engine-bench-usage-status.patch  (the usage exits 1)
@given(edited(BENCH_BASE, BENCH_NEAR, BENCH_EXTRA))
@SETTINGS
def test_model_bench_arguments(args: list[str]) -> None:
    depth = bench_depth(args)
    # Accepted lists run at depth 1 or 2 only: a bench at depth 64 never ends, at 13 it takes
    # seconds (the default depth is the bench signature test's).
    assume(depth is None or depth <= 2)
    r = run("bench", args, depth is not None)
    if depth is not None:
        assert r.out, (args, r)


# -- features


def features_accepts(args: list[str], batch: str) -> bool:
    """The table: exactly <FEN> (not starting with --) or --batch FILE; the FEN must parse."""
    return args in ([START], [KIWIPETE], ["--batch", batch])


# MODEL engine-features-arguments
# checks: engine/src/tools/nnue_commands.cpp  (stk features: one FEN or one --batch FILE)
# contract: docs/engine.md#arguments-and-exit-status
# planted: ci/mutants/model-engine-features-two-arguments.patch  (a FEN and a stray word run)
@given(data=st.data())
@SETTINGS
def test_model_features_arguments(tmp_path_factory, data) -> None:
    batch = batch_file(tmp_path_factory, [START])
    base = st.sampled_from(
        [[words(("fen", START))], [words(("fen", KIWIPETE))],
         [words(("flag", "--batch"), ("file", batch))]]
    )  # fmt: skip
    near = {
        "fen": [BAD_FEN, "--" + START, "", "x", KIWIPETE],
        "flag": ["--batch", "--batc", "-b", "--net"],
        "file": [batch + ".missing", str(Path(batch).parent), ""],
    }
    extra = [words(("fen", START)), words(("flag", "--batch"), ("file", batch)),
             words(("flag", "--batch")), words(("fen", "x"))]  # fmt: skip
    args = data.draw(edited(base, near, extra))
    r = run("features", args, features_accepts(args, batch))
    if r.code == 0:
        (line,) = r.out.splitlines()
        record = json.loads(line)
        assert record["line"] == 1 and record["white"] and record["black"], (args, r.out)


# -- eval


def eval_mode(args: list[str], batch: str, avx2: bool) -> str | None:
    """The table: exactly one of --net FILE and --classical, exactly one of <FEN> and --batch
    FILE, --allow-trailing and --impl scalar|avx2 only with --net, each option once. The mode
    ("net" or "classical") of an accepted list; None when refused."""
    seen: dict[str, int] = {}
    values: dict[str, str] = {}
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--net", "--batch", "--impl"):
            if i + 1 == len(args):
                return None
            values[a] = args[i + 1]
            i += 1
        elif a not in ("--classical", "--allow-trailing"):
            if a.startswith("--"):
                return None
            values["fen"] = a
            a = "fen"
        seen[a] = seen.get(a, 0) + 1
        i += 1
    if any(n > 1 for n in seen.values()):
        return None
    net, classical = "--net" in seen, "--classical" in seen
    if net == classical or ("fen" in seen) == ("--batch" in seen):
        return None
    if classical and ("--allow-trailing" in seen or "--impl" in seen):
        return None
    if values.get("--impl", "scalar") not in (["scalar", "avx2"] if avx2 else ["scalar"]):
        return None
    if values.get("--net", NET) != NET or values.get("--batch", batch) != batch:
        return None
    if values.get("fen", START) not in PERFT:
        return None
    return "net" if net else "classical"


# MODEL engine-eval-arguments
# checks: engine/src/tools/nnue_commands.cpp  (stk eval: its modes, inputs and --impl)
# contract: docs/engine.md#arguments-and-exit-status
# planted: ci/mutants/model-engine-eval-impl-compare.patch  (--impl compared with <=)
@given(data=st.data())
@SETTINGS
def test_model_eval_arguments(tmp_path_factory, avx2: bool, data) -> None:
    batch = batch_file(tmp_path_factory, [START, KIWIPETE])
    net = words(("flag", "--net"), ("net", NET))
    impl = words(("flag", "--impl"), ("impl", "scalar"))
    mode = st.sampled_from(
        [[words(("flag", "--classical"))], [net], [net, words(("flag", "--allow-trailing"))],
         [net, impl], [net, words(("flag", "--impl"), ("impl", "avx2" if avx2 else "scalar"))]]
    )  # fmt: skip
    source = st.sampled_from(
        [[words(("fen", START))], [words(("fen", KIWIPETE))],
         [words(("flag", "--batch"), ("file", batch))]]
    )  # fmt: skip
    base = st.builds(lambda m, s, first: m + s if first else s + m, mode, source, st.booleans())
    near = {
        "flag": ["--classical", "--net", "--allow-trailing", "--impl", "--batch", "--fen",
                 "--classic"],
        "net": [NET + ".missing", batch, ""],
        "impl": ["scalar", "avx2", "sse", "avx", "AVX2", "scalar ", "", "scalar2"],
        "fen": [BAD_FEN, "", "--" + START, KIWIPETE],
        "file": [batch + ".missing", ""],
    }  # fmt: skip
    extra = [words(("flag", "--classical")), net, words(("flag", "--allow-trailing")), impl,
             words(("flag", "--batch"), ("file", batch)), words(("fen", START))]  # fmt: skip
    args = data.draw(edited(base, near, extra))
    found = eval_mode(args, batch, avx2)
    r = run("eval", args, found is not None)
    if found is not None:
        records = [json.loads(x) for x in r.out.splitlines()]
        assert [x["line"] for x in records] == ([1, 2] if "--batch" in args else [1]), r.out
        assert all(("bucket" in x) == (found == "net") for x in records), (args, r.out)


@pytest.fixture(scope="module")
def avx2() -> bool:
    """Whether this build has the AVX2 kernels: the table's one condition on the build."""
    return "no AVX2 kernels" not in stk(["eval", "--net", NET, "--impl", "avx2", START]).err


# -- game


def game_moves(args: list[str], batch: str) -> list[str] | None:
    """The table: startpos or a FEN (six words), then optionally `moves`, then UCI moves each
    legal in its turn (python-chess judges), the words of every argument; or exactly --batch
    FILE or --fen-verdicts FILE. The moves of an accepted list; None when refused."""
    if not args:
        return None
    if args[0] in ("--batch", "--fen-verdicts"):
        return [] if args == [args[0], batch] else None
    if args[0].startswith("--"):
        return None
    found = " ".join(args).split()
    if found[:1] == ["startpos"]:
        board, rest = chess.Board(), found[1:]
    elif " ".join(found[:6]) in PERFT:
        board, rest = chess.Board(" ".join(found[:6])), found[6:]
    else:
        return None
    if rest[:1] == ["moves"]:
        rest = rest[1:]
    for word in rest:
        try:
            board.push(board.parse_uci(word))
        except ValueError:
            return None
    return rest


@st.composite
def game_base(draw, batch: str) -> list[Item]:
    head = draw(
        st.sampled_from(
            [[words(("start", "startpos"))], [words(("fen", START))], [words(("fen", KIWIPETE))],
             [words(*(("field", f) for f in START.split()))]]
        )
    )  # fmt: skip
    fen = " ".join(w for _, w in head[0])
    board = chess.Board(START if fen == "startpos" else fen)
    moves: list[Item] = []
    for _ in range(draw(st.integers(0, 4))):
        legal = sorted(m.uci() for m in board.legal_moves)
        if not legal:  # mated or stalemated on the way
            break
        moves.append(words(("move", legal[draw(st.integers(0, len(legal) - 1))])))
        board.push_uci(moves[-1][0][1])
    keyword = [words(("keyword", "moves"))] if draw(st.booleans()) else []
    mode = [words(("mode", m), ("file", batch)) for m in ("--batch", "--fen-verdicts")]
    return draw(st.sampled_from([head + keyword + moves, [mode[0]], [mode[1]]]))


GAME_NEAR = {
    "start": ["startpo", "Startpos", "fen", "moves"],
    "fen": [BAD_FEN, "", START + " x"],
    "field": ["x", "0", "", "KQkq", "-"],
    "move": ["e2e5", "a1a1", "e7e5x", "zz", "e2e4", "0000", ""],
    "keyword": ["move", "Moves", "", "moves"],
    "mode": ["--bogus", "--batch", "--fen-verdicts", "--", "-batch"],
}


# MODEL engine-game-arguments
# checks: engine/src/tools/game_command.cpp  (stk game: a position, then legal moves, one line a ply)
# contract: docs/engine.md#arguments-and-exit-status
# planted: ci/mutants/model-engine-game-batch-extra-argument.patch  (--batch FILE with a word after it runs)
@given(data=st.data())
@SETTINGS
def test_model_game_arguments(tmp_path_factory, data) -> None:
    batch = batch_file(tmp_path_factory, ["startpos moves e2e4"])
    near = {**GAME_NEAR, "file": [batch + ".missing", ""]}
    extra = [words(("move", "e2e4")), words(("keyword", "moves")), words(("x", "x")),
             words(("file", batch)), words(("mode", "--bogus"))]  # fmt: skip
    args = data.draw(edited(game_base(batch), near, extra))
    moves = game_moves(args, batch)
    r = run("game", args, moves is not None)
    if moves is None:
        return
    records = [json.loads(x) for x in r.out.splitlines()]
    if args[0] == "--fen-verdicts":  # the batch file's line is no FEN
        assert [(x["line"], x["valid"]) for x in records] == [(1, False)], r.out
    elif args[0] == "--batch":
        assert [(x["game"], x["ply"]) for x in records] == [(1, 0), (1, 1)], r.out
    else:
        assert [x["ply"] for x in records] == list(range(len(moves) + 1)), (args, r.out)
        assert [x["move"] for x in records[1:]] == moves, (args, r.out)
