"""Independent model of stkmutation.gcov_records and of how the coverage refresh reads a test's
counts (docs/mutation.md, "Reading a test's counts"), written from that contract: a program
whose functions run exactly when a bit of its argument says so, so which functions ran is known
before any count is read; gcov itself is the oracle of the lines that ran."""

from __future__ import annotations

import json
import os
import shutil
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
    # A test's lines: every line of the functions it ran, so never fewer than gcov's.
    by_function = mt.function_lines_by_prefix([prefix], tree)[prefix]
    for path, lines in exact.items():
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
