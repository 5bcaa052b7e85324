"""Independent model of stkmutation.gcov_records and of how the coverage refresh reads a test's
counts (docs/mutation.md, "Reading a test's counts"), written from that contract: a program
whose functions run exactly when a bit of its argument says so, so which functions ran is known
before any count is read; gcov itself is the oracle of the lines that ran."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkmutation import gcov_records
from stkmutation import tool as mutation_tool

pytestmark = pytest.mark.skipif(
    not (shutil.which("g++") and shutil.which("gcov") and shutil.which("gcov-tool")),
    reason="needs g++, gcov and gcov-tool",
)

FUNCTIONS = 6  # f0..f5, run when their bit of argv[1] is set; bit 6 runs the header's inline


def _function(i: int) -> str:
    """f<i>: a branch on its argument, so a function that ran may leave a line unrun."""
    return f"int f{i}(int x) {{\n  if (x > {i})\n    return x * {i + 2};\n  return {i};\n}}\n"


MAIN = """int main(int argc, char** argv) {
  unsigned mask = 0;
  int value = argc - 2;
  for (const char* c = argc > 1 ? argv[1] : ""; *c; ++c)
    mask = mask * 10 + unsigned(*c - '0');
  int sum = 0;
%s  if (mask & 64)
    sum += twice(value);
  return sum == 12345;
}
"""


@pytest.fixture(scope="module")
def mt() -> ModuleType:
    return mutation_tool


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> tuple[Path, Path]:
    """The tree (its engine/src holds the sources) and the binary, built with --coverage."""
    tree = tmp_path_factory.mktemp("gcovtree").resolve()
    src = tree / "engine" / "src"
    src.mkdir(parents=True)
    (src / "twice.h").write_text("inline int twice(int x) {\n  return x > 0 ? 2 * x : 0;\n}\n")
    # A global initialized at start-up: code in a function the compiler made, which runs in
    # every process and of which gcov shows no line.
    (src / "other.cpp").write_text(
        '#include "twice.h"\nint other(int x) { return twice(x); }\n'
        "int g_base = 1;\nint g_derived = g_base + 1;\n"
    )
    calls = "".join(f"  if (mask & {1 << i})\n    sum += f{i}(value);\n" for i in range(FUNCTIONS))
    body = "".join(_function(i) for i in range(FUNCTIONS))
    (src / "a.cpp").write_text('#include "twice.h"\n' + body + MAIN % calls)
    build = tree / "build"
    build.mkdir()
    for name in ("a", "other"):
        cc = ["g++", "--coverage", "-O0", "-c", f"../engine/src/{name}.cpp", "-o", f"{name}.o"]
        subprocess.run(cc, cwd=build, check=True)
    subprocess.run(["g++", "--coverage", "a.o", "other.o", "-o", "prog"], cwd=build, check=True)
    return tree, build / "prog"


def _run(binary: Path, prefix: Path, mask: int, extra_args: int) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GCOV_PREFIX")}
    env |= {"GCOV_PREFIX": str(prefix), "GCOV_PREFIX_STRIP": "0"}
    args = [str(binary), str(mask)] + ["x"] * extra_args
    subprocess.run(args, env=env, check=False)


def _gcov_exact(mt: ModuleType, prefix: Path, tree: Path) -> dict[str, set[int]]:
    return mt.gcov_lines_by_prefix([prefix], tree)[prefix]


def _gcov_alone(prefix: Path, tree: Path) -> dict[str, set[int]]:
    """gcov itself on every .gcda of the prefix: the lines it counts run, by repository path."""
    docs = _gcov_documents(prefix, tree)
    out: dict[str, set[int]] = {}
    for doc in docs:
        for f in doc["files"]:
            hit = {ln["line_number"] for ln in f["lines"] if ln["count"] > 0}
            path = (Path(doc["current_working_directory"]) / f["file"]).resolve()
            if hit and path.is_relative_to(tree / "engine" / "src"):
                out.setdefault(str(path.relative_to(tree)), set()).update(hit)
    return out


def _gcov_documents(prefix: Path, tree: Path) -> list[dict]:
    gcdas = [str(g) for g in prefix.rglob("*.gcda")]
    for g in gcdas:  # gcov finds each .gcno through a link beside its .gcda
        link = Path(g).with_suffix(".gcno")
        if not link.exists():
            link.symlink_to(Path("/") / Path(g).relative_to(prefix).with_suffix(".gcno"))
    out = subprocess.run(
        ["gcov", "--json-format", "--stdout", *gcdas], cwd=tree, capture_output=True, text=True
    ).stdout
    return [json.loads(raw) for raw in out.splitlines() if raw.startswith("{")]


def _ran_names(prefix: Path) -> set[str]:
    """Names of the functions the reader counts as run, across the prefix's objects, less those
    the compiler made (gcov lists none of them)."""
    names: set[str] = set()
    for gcda in prefix.rglob("*.gcda"):
        gcno = Path("/") / gcda.relative_to(prefix).with_suffix(".gcno")
        _, functions = gcov_records.read_function_lines(gcno)
        ran = gcov_records.executed_functions(gcda.read_bytes(), str(gcda))
        names |= {functions[i].name for i in ran if not functions[i].artificial}
    return names


def _gcov_ran_names(prefix: Path, tree: Path) -> set[str]:
    """gcov's own account of which functions ran (execution_count), the oracle of the rule."""
    names: set[str] = set()
    for doc in _gcov_documents(prefix, tree):
        for f in doc["files"]:
            names |= {fn["name"] for fn in f["functions"] if fn["execution_count"] > 0}
    return names


# MODEL gcov-records
# checks: harness/python/stkmutation/gcov_records.py  (which functions a .gcda counts as run, and their lines)
# contract: docs/mutation.md#reading-a-tests-counts
# planted: ci/mutants/model-gcov-records.patch  (an all-zero record written compact counted as run)
@given(st.integers(0, (1 << (FUNCTIONS + 1)) - 1), st.integers(0, 8))
@settings(max_examples=25, deadline=None)
def test_model_gcov_records(program, tmp_path_factory, mt, mask, extra_args):
    tree, binary = program
    prefix = tmp_path_factory.mktemp("prefix")
    _run(binary, prefix, mask, extra_args)
    ran = _ran_names(prefix)
    # The rule, from the program itself: f<i> ran exactly when bit i was set.
    called = {f"_Z2f{i}i" for i in range(FUNCTIONS) if mask & (1 << i)}
    assert {n for n in ran if n.startswith("_Z2f")} == called
    assert ("_Z5twicei" in ran) == bool(mask & 64)
    assert "main" in ran and "_Z5otheri" not in ran
    assert ran == _gcov_ran_names(prefix, tree)  # and as gcov counts them
    # The refresh's exact lines skip gcov on objects where none of our functions ran: the same
    # lines as gcov on every object.
    exact = _gcov_exact(mt, prefix, tree)
    assert exact == _gcov_alone(prefix, tree)
    # A test's lines, its blocks' counts solved from its counted arcs without gcov: here
    # gcov's (no lambda); never fewer, and never more than its functions' lines (below).
    by_block = mt.block_lines_by_prefix([prefix], tree)[prefix]
    assert by_block == exact
    # A test's lines: every line of the functions it ran, so never fewer than gcov's.
    by_function = mt.function_lines_by_prefix([prefix], tree)[prefix]
    for path, lines in by_block.items():
        assert lines <= by_function.get(path, set()), path
    assert set(by_function) == set(exact)  # other.cpp's start-up code shows no line
    # No line of a function that did not run (f<i>'s lines are 5i+2..5i+6 of a.cpp).
    for i in range(FUNCTIONS):
        if not mask & (1 << i):
            assert not set(range(5 * i + 2, 5 * i + 7)) & by_function["engine/src/a.cpp"]


def test_merged_counts_read_as_every_test_run_together(program, tmp_path, mt):
    # The refresh reads a pytest file's lines from its tests' counts merged: the lines of the
    # union of the runs, exactly, and each merged object byte for byte what gcov-tool merge
    # writes. Planted: a merge that keeps the first prefix only.
    tree, binary = program
    prefixes = []
    for k, mask in enumerate((1, 2 | 64, 0)):
        prefixes.append(tmp_path / f"t{k}")
        _run(binary, prefixes[-1], mask, 3)
    into = tmp_path / "merged"
    into.mkdir()
    assert mt.merge_counts(into, prefixes, tree) == {}
    oracle = tmp_path / "gcov-tool"
    oracle.mkdir()  # gcov-tool makes the output folder, not its parents
    subprocess.run(["gcov-tool", "merge", "-o", oracle / "a", *prefixes[:2]], check=True)
    subprocess.run(
        ["gcov-tool", "merge", "-o", oracle / "b", oracle / "a", prefixes[2]], check=True
    )
    ours = sorted(into.rglob("*.gcda"))
    assert ours and all(
        g.read_bytes() == (oracle / "b" / g.relative_to(into)).read_bytes() for g in ours
    )
    union: dict[str, set[int]] = {}
    for p in prefixes:
        for path, lines in _gcov_exact(mt, p, tree).items():
            union.setdefault(path, set()).update(lines)
    assert _gcov_exact(mt, into, tree) == union


@pytest.mark.parametrize("cut", [3, 17, 30, -5])
def test_a_cut_gcda_names_its_file_and_offset(program, tmp_path, cut):
    _, binary = program
    prefix = tmp_path / "p"
    _run(binary, prefix, 3, 0)
    gcda = next(prefix.rglob("a.gcda"))
    data = gcda.read_bytes()
    with pytest.raises(gcov_records.GcovFormatError, match=r"a\.gcda: byte \d+: "):
        gcov_records.executed_functions(data[:cut], str(gcda))


@pytest.mark.parametrize("keep", [0, 10, 30])
def test_counts_cut_short_count_as_every_function_run(program, tmp_path, mt, keep, capsys):
    # A process killed while libgcov wrote its counts leaves a .gcda cut short (seen: the fault
    # matrix's refresh stopped on "movegen.cpp.gcda: byte 0: not a gcda"). gcov and gcov-tool
    # refuse it; the refresh counts every function of the object as run (a superset: a test
    # more in a second stage, never a mutant missed), says so, and reads the rest.
    # Planted: the cut file skipped (its lines lost).
    tree, binary = program
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    _run(binary, whole, 1, 3)
    _run(binary, cut, 2, 3)
    gcda = next(cut.rglob("a.gcda"))
    gcda.write_bytes(gcda.read_bytes()[:keep])
    gcno = Path("/") / gcda.relative_to(cut).with_suffix(".gcno")
    every = mt.object_lines(gcno, tree)
    bodies = {5 * i + k for i in range(FUNCTIONS) for k in (3, 4, 5)}  # each f<i>'s statements
    assert every["engine/src/a.cpp"] >= bodies
    assert (
        mt.function_lines_by_prefix([cut], tree)[cut]["engine/src/a.cpp"]
        == every["engine/src/a.cpp"]
    )
    assert (
        mt.gcov_lines_by_prefix([cut], tree)[cut]["engine/src/a.cpp"] == every["engine/src/a.cpp"]
    )
    into = tmp_path / "merged"
    into.mkdir()
    unreadable = mt.merge_counts(into, [whole, cut], tree)
    assert unreadable["engine/src/a.cpp"] == every["engine/src/a.cpp"]
    assert _gcov_exact(mt, into, tree) == _gcov_exact(mt, whole, tree)  # the readable ones
    assert "counted as every function of its object run" in capsys.readouterr().out


def test_counts_of_another_build_stop_the_refresh(program, tmp_path, mt):
    # docs/mutation.md: a stamp that is not the .gcno's is another build, whose idents name
    # other functions: the refresh stops (SetupError, exit 2) rather than read them as ours.
    tree, binary = program
    prefix = tmp_path / "p"
    _run(binary, prefix, 1, 0)
    gcda = next(prefix.rglob("a.gcda"))
    data = bytearray(gcda.read_bytes())
    data[8] ^= 0xFF  # the stamp word
    gcda.write_bytes(bytes(data))
    with pytest.raises(mt.SetupError, match="stamp mismatch"):
        mt.function_lines_by_prefix([prefix], tree)


# Any bytes that do not open with the file's magic word are refused as "not a gcda/gcno file" at
# byte 0, however long they are (the header is read before any record), never read as records.
@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=0, max_size=64), st.sampled_from(["gcda", "gcno"]))
def test_bytes_without_the_magic_word_are_refused_at_byte_0(data: bytes, kind: str):
    magic = gcov_records.GCDA_MAGIC if kind == "gcda" else gcov_records.GCNO_MAGIC
    if len(data) >= 4 and int.from_bytes(data[:4], "little") == magic:
        data = bytes([data[0] ^ 1]) + data[1:]
    read = gcov_records.read_gcda if kind == "gcda" else gcov_records.function_lines
    with pytest.raises(gcov_records.GcovFormatError, match=f"x: byte 0: not a {kind} file"):
        read(data, "x")


def _gcno(lines_body: bytes) -> bytes:
    """A .gcno of one function, `f`, whose one LINES record holds block 0 then lines_body."""

    def string(s: bytes) -> bytes:
        return (len(s) + 1).to_bytes(4, "little") + s + b"\0"

    def record(tag: int, body: bytes) -> bytes:
        return tag.to_bytes(4, "little") + len(body).to_bytes(4, "little") + body

    header = b"".join(w.to_bytes(4, "little") for w in (gcov_records.GCNO_MAGIC, 0, 7, 0))
    function = b"".join(w.to_bytes(4, "little") for w in (1, 0, 0)) + string(b"f") + bytes(4)
    lines = record(gcov_records.TAG_LINES, bytes(4) + lines_body)
    return header + string(b"/w") + bytes(4) + record(gcov_records.TAG_FUNCTION, function) + lines


def _word(w: int) -> bytes:
    return w.to_bytes(4, "little")


@pytest.mark.parametrize(
    "body",
    [
        _word(3),  # a line before any file name
        _word(0) + _word(9) + b"a.c",  # a name cut short
        _word(0) + _word(4) + b"a.c\0" + _word(3),  # no end marker
        _word(0) + _word(4) + b"a.c\0" + b"\1\0",  # a word cut short
    ],
)
def test_a_damaged_gcno_is_named_with_its_offset(body: bytes):
    # docs/mutation.md: the error names the file and the byte. Planted: the function's name
    # read into the variable that names the file (the error named `f`, not the .gcno).
    with pytest.raises(gcov_records.GcovFormatError, match=r"^x\.gcno: byte \d+: "):
        gcov_records.function_lines(_gcno(body), "x.gcno")
    ok = _gcno(_word(0) + _word(4) + b"a.c\0" + _word(3) + _word(0) + _word(0))
    assert gcov_records.function_lines(ok, "x.gcno")[1][1].lines == {"a.c": {3}}


def _gcda(functions: list[tuple[int, list[int]] | None], runs: int = 1) -> bytes:
    """A .gcda as libgcov writes it: an all-zero counter record compact, its length negated."""
    out = [struct.pack("<4I", gcov_records.GCDA_MAGIC, 1110585898, 7, 99)]
    out.append(struct.pack("<4I", gcov_records.TAG_OBJECT_SUMMARY, 8, runs, 5))
    for f in functions:
        if f is None:
            out.append(struct.pack("<2I", gcov_records.TAG_FUNCTION, 0))
            continue
        ident, arcs = f
        out.append(struct.pack("<5I", gcov_records.TAG_FUNCTION, 12, ident, 11, 22))
        n = 8 * len(arcs)
        if any(arcs):
            out.append(struct.pack(f"<2I{len(arcs)}Q", gcov_records.TAG_ARC_COUNTERS, n, *arcs))
        else:
            out.append(struct.pack("<2I", gcov_records.TAG_ARC_COUNTERS, (-n) & 0xFFFFFFFF))
    return b"".join(out) + bytes(4)


_RUN = st.lists(st.integers(0, 3), min_size=3, max_size=3)  # counters of f0 (1), f1 (2), f2 (3)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(_RUN, st.lists(st.booleans(), min_size=3, max_size=3)), min_size=1, max_size=4
    )
)
def test_merged_runs_sum_each_kept_function(runs):
    # The contract of merged (gcov-tool merge's, docs/mutation.md): each function's counters
    # summed over the runs, the runs counted; a function that is a COMDAT copy the first run did
    # not keep keeps no counts, nor is a later run's copy it did not keep added. Read back from
    # bytes, so the compact all-zero records and the one-array fast path are both exercised.
    # Planted: the fast path taken when only the arrays' lengths match (counts of another
    # function added).
    files = []
    for counts, kept in runs:  # f<i> has i + 1 counters, each counts[i]
        functions = [(i + 1, [counts[i]] * (i + 1)) if kept[i] else None for i in range(3)]
        files.append(gcov_records.read_gcda(_gcda(functions), "x"))
    got = gcov_records.read_gcda(gcov_records.gcda_bytes(gcov_records.merged(files, "x")), "x")
    assert got.runs == len(runs)
    first_kept = runs[0][1]
    for i in range(3):
        if not first_kept[i]:
            assert got.words[i] is None
            continue
        total = sum(c[i] for c, kept in runs if kept[i])
        at = sum(got.arc_counts[:i])
        assert got.words[i] == (i + 1, 11, 22)
        assert list(got.counters[at : at + i + 1]) == [total] * (i + 1)


def test_a_gcda_written_back_is_the_same_bytes():
    data = _gcda([(1, [1, 0]), None, (3, [0, 0, 0]), (4, [])], runs=3)
    assert gcov_records.gcda_bytes(gcov_records.read_gcda(data, "x")) == data


def _graph(blocks: int, arcs: list[tuple[int, int, bool]]) -> gcov_records.FunctionLines:
    return gcov_records.FunctionLines("f", blocks=blocks, arcs=arcs)


def test_block_counts_solve_from_the_counted_arcs_by_conservation():
    # entry 0 -> 2 -> {3, 4} -> exit 1, the arcs 2->4 and 3->1 counted (the others, with the
    # exit-to-entry arc GCC adds, are the spanning tree). 2->4 never, 3->1 once: the rest follow
    # from flow in = flow out, so block 4 did not run and 0, 2, 3 and the exit did.
    # Planted (gcov-blocks-solved-count-as-run): every solved block counted as run.
    fn = _graph(5, [(0, 2, False), (2, 3, False), (2, 4, True), (3, 1, True), (4, 1, False)])
    assert gcov_records.executed_blocks(fn, [0, 1], "x.gcda") == {0, 1, 2, 3}
    assert gcov_records.executed_blocks(fn, [2, 0], "x.gcda") == {0, 1, 2, 4}
    assert gcov_records.executed_blocks(fn, [0, 0], "x.gcda") == set()


def test_a_graph_that_does_not_solve_counts_as_every_block_run():
    # Two uncounted arcs on each side of block 2: nothing pins them, so the safe answer (a
    # superset: a test more, never a mutant missed) is every block.
    fn = _graph(3, [(0, 2, False), (0, 2, False), (2, 1, False), (2, 1, False)])
    assert gcov_records.executed_blocks(fn, [], "x.gcda") == {0, 1, 2}


def test_counts_that_are_not_the_graphs_name_their_file():
    fn = _graph(3, [(0, 2, True), (2, 1, False)])
    with pytest.raises(gcov_records.GcovFormatError, match=r"^x\.gcda: function f: 2 counters"):
        gcov_records.executed_blocks(fn, [1, 1], "x.gcda")
