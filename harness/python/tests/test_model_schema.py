"""The schema build's contract (docs/mutation.md, "Schemata"), checked against the compiler: a
program whose mutants are all compiled into one binary behaves, with STK_MUTANT=<id>, exactly
as the same mutant compiled alone, and with no switch on as the unmutated program.

The oracle is the mutant built alone (the only thing the schema claims to stand for), on the
mutants universalmutator makes of a small program that uses the constructs of the project's code:
conditions, loops, compound assignments, returns, calls, initializers, strings and early exits.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkmutation import schema, tool

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")

PROGRAM = r"""#include <cstdio>
#include <string>
#include <vector>

namespace {

int clamp_to(int v, int lo, int hi) {
  if (v < lo) return lo;
  if (v > hi) return hi;
  return v;
}

int weighted(const std::vector<int>& xs) {
  int total = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (xs[i] % 3 == 0) continue;
    total += xs[i] * int(i + 1);
    if (total > 500) break;
  }
  return total;
}

std::string label(int score, bool mate) {
  std::string out = mate ? "mate " : "cp ";
  out += std::to_string(score / 2);
  if (score >= 100 && !mate) out += "+";
  return out;
}

int steps(int n) {
  int count = 0;
  while (n != 1 && count < 60) {
    n = n % 2 == 0 ? n / 2 : 3 * n + 1;
    ++count;
  }
  return count;
}

}  // namespace

int main() {
  std::vector<int> xs = {4, 9, 13, 27, 8, 1};
  int acc = 0;
  for (int round = 0; round < 4; round++) {
    acc -= round;
    acc = clamp_to(acc + weighted(xs), -50, 700);
    xs[std::size_t(round) % xs.size()] += 2;
  }
  std::printf("%d %s %d %d\n", acc, label(acc, acc > 600).c_str(), steps(27), steps(acc | 1));
  return acc > 0 ? 0 : 3;
}
"""


def _build(src: Path, text: str, out: Path, *flags: str) -> bool:
    src.write_text(text)
    cmd = ["g++", "-std=c++20", "-O0", *flags, "-o", str(out), str(src)]
    r = subprocess.run(cmd, check=False, capture_output=True)
    return r.returncode == 0


def _behaviour(binary: Path, switch: int | None) -> tuple[str, int]:
    env = {"PATH": "/usr/bin:/bin"}
    if switch is not None:
        env[schema.ENV] = str(switch)
    try:
        r = subprocess.run([str(binary)], env=env, capture_output=True, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        return "timeout", 0
    return r.stdout, r.returncode


# MODEL mutation-schema
# checks: harness/python/stkmutation/schema.py  (a mutant's line behind its STK_MUTANT switch)
# contract: docs/mutation.md#schemata
# planted: ci/mutants/model-mutation-schema.patch  (the two arms of the switch swapped)
def test_model_schema_behaves_as_each_mutant_built_alone(tmp_path: Path):
    mutants = tool.cpp_mutants("program.cpp", PROGRAM)
    assert len(mutants) > 100
    with_form = [
        (i, m)
        for i, m in enumerate(mutants, 1)
        if schema.schema_text(PROGRAM, [(m.line, m.mutated or "", i)])[1]
    ]
    # The forms cover most mutants (the rest are built alone): a splicer that finds no form
    # for any mutant would pass the comparison below on nothing.
    assert len(with_form) >= 0.6 * len(mutants), (len(with_form), len(mutants))
    random.Random(20261203).shuffle(with_form)
    alone: list[tuple[int, tool.Mutant, tuple[str, int]]] = []
    lines: set[int] = set()  # one mutant per line: a run draws a few of a file's thousands
    for i, m in with_form:
        if m.line in lines:
            continue
        binary = tmp_path / f"alone{i}"
        mutated = "\n".join(
            (m.mutated or "") if n == m.line else line
            for n, line in enumerate(PROGRAM.split("\n"), 1)
        )
        # A function left without its return has no behaviour to compare (undefined).
        if _build(tmp_path / f"alone{i}.cpp", mutated, binary, "-Werror=return-type"):
            alone.append((i, m, _behaviour(binary, None)))
            lines.add(m.line)
    assert len(alone) >= 20
    text, taken = schema.schema_text(PROGRAM, [(m.line, m.mutated or "", i) for i, m, _ in alone])
    combined = tmp_path / "schema"
    assert _build(tmp_path / "schema.cpp", text, combined), text
    assert sorted(taken) == sorted(i for i, _, _ in alone)
    original = tmp_path / "original"
    assert _build(tmp_path / "original.cpp", PROGRAM, original)
    assert _behaviour(combined, None) == _behaviour(original, None)
    assert _behaviour(combined, 0) == _behaviour(original, None)
    differing = 0
    for i, m, expected in alone:
        if i in taken:
            got = _behaviour(combined, i)
            assert got == expected, (m.original, m.mutated)
            differing += expected != _behaviour(original, None)
    assert differing >= 8  # the comparison saw mutants that change the program's behaviour


# MODEL mutation-schema-shared-line
# checks: harness/python/stkmutation/schema.py  (several mutants of one line chained over one expression)
# contract: docs/mutation.md#schemata
# planted: ci/mutants/model-mutation-schema-shared-line.patch  (a chain's arms keep the first member's text)
def test_model_mutants_sharing_a_line_behave_as_each_built_alone(tmp_path: Path):
    # Model: as above, with up to four mutants on each of several lines, overlapping ones joined
    # into one chain: every switch still gives the behaviour of its mutant built alone.
    mutants = tool.cpp_mutants("program.cpp", PROGRAM)
    by_line: dict[int, list[tuple[int, tool.Mutant]]] = {}
    for i, m in enumerate(mutants, 1):
        if schema.splice(m.original, m.mutated or "", i) is not None:
            by_line.setdefault(m.line, []).append((i, m))
    rng = random.Random(20261204)
    lines = sorted(line for line, ms in by_line.items() if len(ms) >= 3)
    rng.shuffle(lines)
    original = tmp_path / "original"
    assert _build(tmp_path / "original.cpp", PROGRAM, original)
    alone: list[tuple[int, tool.Mutant, tuple[str, int]]] = []
    for line in lines[:8]:
        picks = by_line[line][:]
        rng.shuffle(picks)
        for i, m in picks[:4]:
            mutated = "\n".join(
                (m.mutated or "") if n == m.line else text
                for n, text in enumerate(PROGRAM.split("\n"), 1)
            )
            binary = tmp_path / f"alone{i}"
            if _build(tmp_path / f"alone{i}.cpp", mutated, binary, "-Werror=return-type"):
                alone.append((i, m, _behaviour(binary, None)))
    text, taken = schema.schema_text(PROGRAM, [(m.line, m.mutated or "", i) for i, m, _ in alone])
    combined = tmp_path / "schema"
    assert _build(tmp_path / "schema.cpp", text, combined), text
    # Overlapping mutants were joined, not dropped: some line holds three or more.
    per_line: dict[int, int] = {}
    for i, m, _ in alone:
        per_line[m.line] = per_line.get(m.line, 0) + (i in taken)
    assert max(per_line.values()) >= 3, per_line
    assert _behaviour(combined, None) == _behaviour(original, None)
    for i, m, expected in alone:
        if i in taken:
            assert _behaviour(combined, i) == expected, (m.original, m.mutated)


def test_schema_keeps_line_numbers_and_comments_out():
    text, taken = schema.schema_text(
        "int f(int a) {\n  return a + 1;  // one\n}\n", [(2, "  return a - 1;  // one", 4)]
    )
    assert taken == [4]
    body = text.split("#line 1\n", 1)[1]
    assert (
        body.split("\n")[1] == "  return (::stk_mutant_schema::on(4) ? (a - 1) : (a + 1));  // one"
    )
    # A change inside a comment, a template argument, a case label: no form (built alone).
    assert schema.splice("  x = 1;  // one", "  x = 1;  // two", 1) is None
    assert schema.splice("  std::array<int, 3> a{};", "  std::array<int, 4> a{};", 1) is None
    assert schema.splice("  case 3:", "  case 4:", 1) is None


# -- which mutants the schema build holds (schema_run.SchemaRun.prepare), without a compiler

SOURCE = "\n".join(f"int f{i}(int a, int b) {{ return a + b * {i}; }}" for i in range(1, 9))


class _FakeJob:
    """A clone whose build always succeeds; it records the texts written."""

    def __init__(self, files: list[str]) -> None:
        self.objects = {f: f"obj/{f}.o" for f in files}
        self.written: dict[str, str] = {}

    def write(self, path: str, text: str) -> None:
        self.written[path] = text

    def ninja(self, targets: object, jobs: int = 0) -> tool.Ran:
        return tool.Ran(0, "", 0.0)


class _Sources:
    def text(self, path: str) -> str:
        return SOURCE


class _Syntax:
    """Refuses a text holding a refused mutant's switch, or both switches of a refused pair."""

    def __init__(self, refused: set[int], pairs: set[tuple[int, int]]) -> None:
        self.refused, self.pairs = refused, pairs

    def compiles(self, path: str, text: str, timed: bool = True) -> bool:
        def has(i: int) -> bool:
            return f"{schema.SWITCH}({i})" in text

        return not any(has(i) for i in self.refused) and not any(
            has(i) and has(j) for i, j in self.pairs
        )


def _mutant(path: str, line: int, k: int) -> tool.Mutant:
    original = SOURCE.split("\n")[line - 1]
    forms = [
        original.replace("a + b", "a - b"),
        original.replace("b * ", "b / "),
        original.replace("int a, int b", "int a, int c"),  # a parameter renamed: no form
        "/*" + original + "*/",  # a definition commented out: no form
    ]
    return tool.Mutant(path, line, "rule", original, forms[k % len(forms)], "cpp")


# MODEL mutation-schema-held
# checks: harness/python/stkmutation/schema_run.py  (which mutants one schema build holds)
# contract: docs/mutation.md#schemata
# planted: ci/mutants/model-mutation-schema-held.patch  (a file's schema kept without compiling it whole)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a.cpp", "b.cpp", "py.py"]), st.integers(1, 8), st.integers(0, 7)
        ),
        min_size=1,
        max_size=12,
    ),
    st.sets(st.integers(1, 12), max_size=3),
    st.sets(st.tuples(st.integers(1, 12), st.integers(1, 12)), max_size=4),
)
def test_model_schema_build_holds_exactly_the_mutants_whose_schema_compiles(draws, refused, pairs):
    from stkmutation import schema_run

    mutants = []
    for path, line, k in draws:
        m = _mutant(path, line, k)
        if path.endswith(".py"):
            m.lang = "py"
        if all((x.file, x.line, x.mutated) != (m.file, m.line, m.mutated) for x in mutants):
            mutants.append(m)
    job = _FakeJob(["a.cpp", "b.cpp"])
    run = schema_run.SchemaRun.__new__(schema_run.SchemaRun)
    schema_run.SchemaRun.__init__(run, None, job, _Sources(), _Syntax(refused, pairs))  # type: ignore[arg-type]
    held = run.prepare(mutants, ["all"])
    # The model: ids are 1-based positions; a C++ mutant is held when it has a form, its own
    # schema compiles, its form can share its line with the mutants held before it, and
    # its file's schema still compiles with it beside those (in the order given).
    expected: list[tool.Mutant] = []
    for i, m in enumerate(mutants, 1):
        if m.lang != "cpp" or i in refused or any(a == b == i for a, b in pairs):
            continue
        sp = schema.splice(m.original, m.mutated or "", i)
        if sp is None:
            continue
        mine = [(j, x) for j, x in enumerate(mutants, 1) if x in expected and x.file == m.file]
        # Whether its form can share its line with those held before it is schema.py's rule
        # (modelled by mutation-schema and mutation-schema-shared-line), asked of schema_text.
        beside = [(x.line, x.mutated or "", j) for j, x in mine if x.line == m.line]
        if i not in schema.schema_text(SOURCE, [*beside, (m.line, m.mutated or "", i)])[1]:
            continue
        if any({a, b} <= {i, *(j for j, _ in mine)} for a, b in pairs):
            continue
        expected.append(m)
    assert sorted(m.ident for m in held) == sorted(m.ident for m in expected)
    for i, m in enumerate(mutants, 1):
        text = job.written.get(m.file, "")
        if m in held:
            assert m.schema_id == i and f"{schema.SWITCH}({i})" in text
        else:
            assert m.schema_id == 0 and f"{schema.SWITCH}({i})" not in text
    assert sum(run.fallback.values()) == sum(m.lang == "cpp" for m in mutants) - len(held)


def test_schema_widen_takes_the_next_enclosing_expression():
    old, new = "  return g(h(a + b), 2);", "  return g(h(a - b), 2);"
    texts = [schema.splice(old, new, 5, w) for w in range(4)]
    assert [old[t.start : t.end] for t in texts if t] == ["a + b", "h(a + b)", "g(h(a + b), 2)"]
    assert texts[3] is None  # the line has no larger whole expression
    assert schema.splice("  x = 1;", "  /*x = 1;*/", 5, 1) is None  # a statement form: no wider


WIDE_SOURCE = "\n".join(
    f"int g{i}(int a, int b) {{ return h(k(a + b), {i}); }}" for i in range(1, 9)
)


class _NarrowSyntax:
    """A compiler that refuses a `?:` whose arm is a bare `a - b` (as fmt refuses a format string
    chosen at run time) and every form of the `never` ids."""

    def __init__(self, never: set[int]) -> None:
        self.never = never

    def compiles(self, path: str, text: str, timed: bool = True) -> bool:
        if "? (a - b) :" in text:
            return False
        return not any(f"{schema.SWITCH}({i})" in text for i in self.never)


# MODEL mutation-schema-widen
# checks: harness/python/stkmutation/schema_run.py  (a form that does not compile, tried wider)
# contract: docs/mutation.md#schemata
# planted: ci/mutants/model-mutation-schema-widen.patch  (the retry's text made without the wider level)
@given(st.sets(st.integers(1, 8), min_size=1, max_size=8), st.sets(st.integers(1, 8), max_size=3))
def test_model_schema_widens_a_form_that_does_not_compile(lines, never):
    from stkmutation import schema_run

    class _Wide:
        def text(self, path: str) -> str:
            return WIDE_SOURCE

    src = WIDE_SOURCE.split("\n")
    mutants = [
        tool.Mutant("a.cpp", n, "rule", src[n - 1], src[n - 1].replace("a + b", "a - b"), "cpp")
        for n in sorted(lines)
    ]
    job = _FakeJob(["a.cpp"])
    run = schema_run.SchemaRun.__new__(schema_run.SchemaRun)
    schema_run.SchemaRun.__init__(run, None, job, _Wide(), _NarrowSyntax(never))  # type: ignore[arg-type]
    held = run.prepare(mutants, ["all"])
    # The docs: a form that fails alone is tried over the next enclosing expression, up to
    # schema.MAX_WIDEN of them; the smallest that compiles is taken (here `k(a - b)`), and a
    # mutant none of whose forms compiles is built alone, counted once.
    want = [m for i, m in enumerate(mutants, 1) if i not in never]
    assert [m.ident for m in held] == [m.ident for m in want]
    text = job.written.get("a.cpp", "")
    for i, m in enumerate(mutants, 1):
        if m in want:
            assert f"{schema.SWITCH}({i}) ? (k(a - b)) : (k(a + b))" in text
        else:
            assert m.schema_id == 0 and f"{schema.SWITCH}({i})" not in text
    assert sum(run.fallback.values()) == len(mutants) - len(want)
    assert set(run.fallback) <= {"schema does not compile"}


# diff_span's contract (its docstring): (start, end in old, end in new) of the part of old that new
# changes: the longest common prefix, then the longest common suffix of what is left after it.
@settings(max_examples=300, deadline=None)
@given(st.text("ab(", max_size=12), st.text("ab(", max_size=12))
def test_diff_span_is_the_longest_common_prefix_then_suffix(old: str, new: str):
    start, end_old, end_new = schema.diff_span(old, new)
    prefix = 0
    while prefix < min(len(old), len(new)) and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    rest_old, rest_new = old[prefix:], new[prefix:]
    while (
        suffix < min(len(rest_old), len(rest_new))
        and rest_old[-1 - suffix] == rest_new[-1 - suffix]
    ):
        suffix += 1
    assert (start, end_old, end_new) == (prefix, len(old) - suffix, len(new) - suffix)
    assert old[:start] + new[start:end_new] + old[end_old:] == new


DEEP_SOURCE = "int f1(int a, int b) { return f(g(h(a + b)), 2); }"


@pytest.mark.parametrize("compiles_from", [1, 2, 3, 4])
def test_a_form_is_widened_up_to_max_widen_levels_and_no_further(compiles_from: int):
    """docs/mutation.md#schemata: a form that fails alone is tried over the next enclosing whole
    expression, up to schema.MAX_WIDEN (three) of them; past that the mutant is built alone."""
    from stkmutation import schema_run

    assert schema.MAX_WIDEN == 3
    arms = ["(a - b)", "(h(a - b))", "(g(h(a - b)))", "(f(g(h(a - b)), 2))"]

    class _Deep:
        def text(self, path: str) -> str:
            return DEEP_SOURCE

    class _RefusesNarrow:
        def compiles(self, path: str, text: str, timed: bool = True) -> bool:
            return not any(f"? {arm} :" in text for arm in arms[:compiles_from])

    m = tool.Mutant("a.cpp", 1, "rule", DEEP_SOURCE, DEEP_SOURCE.replace("a + b", "a - b"), "cpp")
    job = _FakeJob(["a.cpp"])
    run = schema_run.SchemaRun.__new__(schema_run.SchemaRun)
    schema_run.SchemaRun.__init__(run, None, job, _Deep(), _RefusesNarrow())  # type: ignore[arg-type]
    held = run.prepare([m], ["all"])
    if compiles_from <= schema.MAX_WIDEN:
        assert held == [m] and m.schema_widen == compiles_from
        assert f"? {arms[compiles_from]} :" in job.written["a.cpp"]
    else:
        assert held == [] and m.schema_id == 0 and run.fallback == {"schema does not compile": 1}


class _BrokenObjectsJob(_FakeJob):
    """A clone whose build fails while any of `broken`'s schema text is in it (a form that passes
    the syntax check alone and fails in the real build); each object builds alone but those."""

    def __init__(self, files: list[str], broken: set[str]) -> None:
        super().__init__(files)
        self.broken = broken

    def ninja(self, targets: object, jobs: int = 0) -> tool.Ran:
        bad = {f for f in self.broken if schema.SWITCH in self.written.get(f, "")}
        if targets == ["all"]:
            return tool.Ran(1 if bad else 0, "", 0.0)
        (obj,) = targets  # type: ignore[misc]
        return tool.Ran(1 if any(self.objects[f] == obj for f in bad) else 0, "", 0.0)


# MODEL mutation-schema-object-fallback
# checks: harness/python/stkmutation/schema_run.py  (a schema object that fails to build: its mutants built alone, counted)
# contract: docs/mutation.md#schemata
# planted: ci/mutants/model-mutation-schema-object-fallback.patch  (mutants kept behind the switch when the rebuild without their file succeeds)
@given(
    st.sets(st.sampled_from(["a.cpp", "b.cpp", "c.cpp"]), min_size=1),
    st.sets(st.sampled_from(["a.cpp", "b.cpp", "c.cpp"])),
    st.integers(1, 3),
)
def test_a_schema_object_that_fails_to_build_goes_back_to_head_counted_once(files, broken, per):
    """docs/mutation.md#schemata: a file whose schema object fails the build goes back to HEAD's
    text and its mutants are built alone; the JSON's fallback counts each such file once."""
    from stkmutation import schema_run

    job = _BrokenObjectsJob(["a.cpp", "b.cpp", "c.cpp"], broken)
    mutants = [_mutant(f, line, 0) for f in sorted(files) for line in range(1, per + 1)]
    run = schema_run.SchemaRun.__new__(schema_run.SchemaRun)
    schema_run.SchemaRun.__init__(run, None, job, _Sources(), _Syntax(set(), set()))  # type: ignore[arg-type]
    held = run.prepare(mutants, ["all"])
    failed = files & broken
    assert sorted(m.ident for m in held) == sorted(m.ident for m in mutants if m.file not in failed)
    for f in failed:
        assert job.written[f] == SOURCE  # HEAD's text back in the clone
    assert all(m.schema_id == 0 for m in mutants if m.file in failed)
    assert run.fallback.get("schema object failed to build", 0) == len(failed)
    assert sorted(run.texts) == sorted(files - broken)


def test_a_schema_build_that_still_fails_puts_every_file_back_to_head():
    """docs/mutation.md#schemata: when the build still fails once the files whose objects failed
    are back to HEAD (a link error, say), every schema file goes back and every mutant is built
    alone (from the diff draw of this change: the give-up loop made to run zero times survived)."""
    from stkmutation import schema_run

    class _LinkFails(_FakeJob):
        def ninja(self, targets: object, jobs: int = 0) -> tool.Ran:
            return tool.Ran(1 if targets == ["all"] else 0, "", 0.0)

    job = _LinkFails(["a.cpp", "b.cpp"])
    mutants = [_mutant(f, 1, 0) for f in ("a.cpp", "b.cpp")]
    run = schema_run.SchemaRun.__new__(schema_run.SchemaRun)
    schema_run.SchemaRun.__init__(run, None, job, _Sources(), _Syntax(set(), set()))  # type: ignore[arg-type]
    assert run.prepare(mutants, ["all"]) == []
    assert run.texts == {} and all(job.written[f] == SOURCE for f in ("a.cpp", "b.cpp"))
    assert all(m.schema_id == 0 for m in mutants)


@pytest.mark.parametrize("slots", [1, 2, 3])
def test_run_all_runs_exactly_its_slots_side_by_side_each_mutant_once(slots: int):
    """--slots S (docs/mutation.md, What it costs): S mutants' tests side by side on the one
    build, never more (two on one scratch folder would share it), and each mutant run once with a
    slot of its own (planted: a pool of S + 1 workers sharing S slots, or one worker)."""
    import threading
    import time

    from stkmutation import schema_run

    run = schema_run.SchemaRun.__new__(schema_run.SchemaRun)
    run.runner = type("R", (), {"baseline_parallelism": staticmethod(lambda: 2)})()  # type: ignore[assignment]
    run.pending = []
    lock, now, most, seen = threading.Lock(), [0], [0], []

    def run_one(m: tool.Mutant, slot: int) -> None:
        with lock:
            now[0] += 1
            most[0] = max(most[0], now[0])
            held = [s for _, s, live in seen if live]
            assert slot not in held, f"slot {slot} given twice"
            seen.append((m.line, slot, True))
        time.sleep(0.05)
        with lock:
            now[0] -= 1
            seen[[x[0] for x in seen].index(m.line)] = (m.line, slot, False)

    run.run_one = run_one  # type: ignore[method-assign]
    done: list[int] = []
    mutants = [tool.Mutant("a.cpp", i, "rule", "x;", "y;", "cpp") for i in range(1, 3 * slots + 2)]
    run.run_all(mutants, slots, lambda m: done.append(m.line), threading.Event())
    assert most[0] == slots
    assert sorted(done) == [m.line for m in mutants]
    assert {s for _, s, _ in seen} == set(range(slots))
