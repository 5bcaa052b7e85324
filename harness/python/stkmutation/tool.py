#!/usr/bin/env python3
"""Tool-generated mutation testing of the project's own code (docs/mutation.md).

Mutants are generated from the committed HEAD: C++ by universalmutator's rules for C++
(universal, cpp, c_like), Python by cosmic-ray's operators. Each mutant changes one place of one
file. In a scratch clone of HEAD with its own release build (build/mutation/job<i>; ccache serves
it the main build's objects of the same commit), a C++ mutant is compiled alone (its object only:
the unity batch that includes its file); an object byte-identical to the unmutated one is
"equivalent", a compile error "uncompilable"; otherwise the targets the chosen tests need are
relinked and exactly the CTest tests that executed the mutated line (ci/mutation-coverage.json,
made by --refresh-coverage) run. A Python mutant runs pytest on the test files that import its
module. A failing run kills the mutant; a run past its time limit (3x the baseline time of the
selected tests + 10 s) is a "timeout" and counts as killed.

Score = (killed + timeout) / (killed + timeout + survived + not-covered), per module; survivors
listed in ci/mutation-triage.txt are "triaged" (judged and accepted) and leave the score.

Writes reports/mutation/<config>.{json,md} and reports/junit/mutation-<config>.xml.
Exit 0 (survivors do not fail unless --fail-under), 1 score under --fail-under, 2 setup errors.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import contextlib
import difflib
import fcntl
import hashlib
import io
import json
import os
import queue
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from stkmutation import (
    binary_readers,
    cpp_scope,
    gcov_records,
    pytest_contexts,
    pytest_gcov,
    schema,
)
from stkmutation import report as mutants_report  # the report format check-mutants shares
from stkmutation.modules import module_of
from stkmutation.syntax import SyntaxCheck
from stkref import compile_commands, inputs, options
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.junit import junit_in
from stkref.outputs import Output

ROOT = Path(__file__).resolve().parents[3]  # harness/python/stkmutation/ -> the repository

# The Python code mutated (stktrain, stkmutation, stkdev and stkdist build on stkref).
PY_PACKAGES = ("stkref", "stktrain", "stkmutation", "stkdev", "stkdist")
DEFAULT_GLOBS = (
    "engine/src/**/*.cpp",
    "harness/src/**/*.cpp",
    *(f"harness/python/{package}/**/*.py" for package in PY_PACKAGES),
)
COVERAGE_MAP = ROOT / "ci" / "mutation-coverage.json"
# Which tests ran each line of the Python packages (coverage.py; --refresh-python-coverage).
PY_COVERAGE_MAP = ROOT / "ci" / "mutation-coverage-python.json"
TRIAGE_FILE = ROOT / "ci" / "mutation-triage.txt"
# The rule files universalmutator's genmutants uses for a .cpp file.
CPP_RULES = ("universal.rules", "cpp.rules", "c_like.rules")
PY_TESTS = "harness/python/tests"
# Outcomes: the first four are the run mutants (JUnit testcases); the last three are not run.
RUN_OUTCOMES = mutants_report.RUN_OUTCOMES
# What each test binary needs relinked (the tests run stk, stk-harness and stk-fake-uci too).
LINK_TARGETS = {
    "stk-engine-tests": ("stk-engine-tests", "stk"),
    "stk-tests": ("stk-tests", "stk", "stk-harness", "stk-fake-uci"),
}
CTEST_CHUNK = 30  # tests per `ctest -R` regular expression
# What a coverage refresh's partial results depend on (git trees and blobs at HEAD): the C++
# sources, their tests and build files, and the data the tests read.
PARTIAL_KEY = (
    "engine",
    "harness/src",
    "harness/tests",
    "harness/cmake",
    "harness/fuzz",
    "harness/CMakeLists.txt",
    "CMakeLists.txt",
    "golden",
    "harness/python",
)


class SetupError(InputError):
    """A problem with the inputs or the scratch build: exit 2."""


# ---------------------------------------------------------------------------------------------
# Files and modules


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A path glob: `**/` any folders (or none), `*` and `?` within one path component."""
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return re.compile(out + r"\Z")


# The tests are what a mutant is measured against, never mutated: a broad glob
# (`harness/python/**/*.py`) drew 20 mutants of test files as a module of their own.
TEST_TREES = ("engine/tests/", "harness/tests/", PY_TESTS + "/", "harness/fuzz/")


def select_files(paths: Iterable[str], globs: Sequence[str]) -> list[str]:
    """The .cpp and .py paths matching any glob, outside the tests' trees, sorted."""
    regexes = [glob_regex(g) for g in globs]
    return sorted(
        p
        for p in paths
        if p.endswith((".cpp", ".py"))
        and not p.startswith(TEST_TREES)
        and any(r.match(p) for r in regexes)
    )


def _text(path: Path) -> str:
    """A file found by a glob or named by a build file, read through the checked reader: a FIFO
    or a device there is refused by name, never waited on or read without end."""
    return inputs.read_input_text(path)


# ---------------------------------------------------------------------------------------------
# Mutants


@dataclass
class Mutant:
    file: str  # repository-relative
    line: int  # 1-based, of the first changed line
    operator: str  # universalmutator rule text or cosmic-ray operator name
    original: str  # the original line(s) text, without the line end
    mutated: str | None  # the mutated line(s) text; None until a Python mutant is materialized
    lang: str  # "cpp" or "py"
    occurrence: int = -1  # cosmic-ray's occurrence index (Python)
    diff: str = ""
    outcome: str = ""
    covered: bool | None = None  # whether the coverage map (or the imports) name a test
    tests: list[str] = field(default_factory=list)
    seconds: float = 0.0
    limit_s: float = 0.0  # the time limit its tests ran under
    log: str = ""
    triage: str = ""  # the triage reason of an accepted survivor
    schema_id: int = 0  # its switch in the run's schema build (STK_MUTANT); 0: built alone
    schema_widen: int = 0  # its form's enclosing expression beyond the smallest (schema.py)
    via: str = ""  # "schema" (run on the schema build) or "alone" (its own build)
    killers: list[str] = field(default_factory=list)  # the tests (pytest: files) that failed

    @property
    def module(self) -> str:
        return module_of(self.file)

    @property
    def ident(self) -> str:
        h = hashlib.sha1(f"{self.operator}\0{self.mutated}".encode()).hexdigest()[:8]
        return f"{self.file}:{self.line}:{h}"

    @property
    def survived(self) -> bool:
        return self.outcome in ("survived", "not-covered")

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.ident,
            "file": self.file,
            "line": self.line,
            "module": self.module,
            "operator": self.operator,
            "original": self.original,
            "mutated": self.mutated,
            "outcome": self.outcome,
            "covered": self.covered,
            "triaged": self.triage,
            "tests": self.tests,
            "seconds": round(self.seconds, 2),
            "limit_s": round(self.limit_s, 1),
            "via": self.via,
            "killers": self.killers,
            "diff": self.diff,
        }


def unified_diff(path: str, old: Sequence[str], new: Sequence[str]) -> str:
    return "".join(difflib.unified_diff(old, new, f"a/{path}", f"b/{path}", n=1, lineterm="\n"))


# A line holding only string literals (and the punctuation around them): help text, messages.
# A line gcov never instruments although the code reads it: a constant's definition or a row of
# a braced initializer (`constexpr Score kMobility[6] = {{0, 0}, {4, 4}, ...};`).
DATA_LINE = re.compile(
    r"^\s*(?:(?:static|inline)\s+)*(?:constexpr|const)\b[^;()]*[={][^;()]*;?\s*$"
    r"|^\s*(?:\{[^{};()]*\}\s*,?\s*)+\}*;?\s*$"
)
STRING_ONLY_LINE = re.compile(r'^\s*(?:(?:[uUL]|u8)?"(?:[^"\\]|\\.)*"\s*[,;)+]*\s*)+$')


def cpp_mutants(path: str, text: str) -> list[Mutant]:
    """universalmutator's C++ mutants of one file (its Python API; its prints are swallowed).

    Its own filters apply: no mutant in comments (`//` rest, `/* */` blocks), in #include lines,
    or changing only the inside of a string literal longer than two characters; on top, none in
    comment-only lines and lines of nothing but string literals (help text), and none that cannot
    compile by its shape (hopeless_cpp)."""
    from universalmutator import mutator

    lines = text.splitlines(keepends=True)
    jumps = jump_contexts(text)
    code = [_CODE_ONLY.sub("", line).strip() for line in lines]
    prev = [next((c for c in reversed(code[:i]) if c), ";") for i in range(len(code))]
    with contextlib.redirect_stdout(io.StringIO()):
        found = mutator.mutants_regexp(
            lines, ruleFiles=list(CPP_RULES), ignorePatterns=[], ignoreStringOnly=True
        )
    out: list[Mutant] = []
    for lineno, new_line, (rule, _source), _ in found:
        old_line = lines[lineno - 1]
        if STRING_ONLY_LINE.match(old_line) or old_line.lstrip().startswith("//"):
            # A line of nothing but string literals (help or message text), or an indented
            # comment line (universalmutator skips `//` comments only from column 0 on).
            continue
        if not old_line.endswith("\n"):
            new_line = new_line.removesuffix("\n")
        old_text, new_text = old_line.rstrip("\n"), new_line.removesuffix("\n")
        if hopeless_cpp(rule.strip(), old_text, new_text, jumps[lineno - 1], prev[lineno - 1]):
            continue
        new_lines = [*lines[: lineno - 1], new_line, *lines[lineno:]]
        m = Mutant(
            path,
            lineno,
            rule.strip(),
            old_line.rstrip("\n"),
            new_line.rstrip("\n"),
            "cpp",
        )
        m.diff = unified_diff(path, lines, new_lines)
        out.append(m)
    return out


# Operators that only ever stand between two operands; clang-format (the project's style, checked
# by ci/lint.sh) writes each with a space on both sides, so an unspaced one is something else: a
# template's angle bracket, a pointer or reference declarator, a dereference, an address-of.
BINARY_ONLY = {"<", ">", "<=", ">=", "==", "!=", "&&", "||", "*", "/", "%", "&", "|", "^", "+="}
_OPERATOR_CHARS = "<>=!+-*/%&|^"
_PAIRS = (("(", ")"), ("[", "]"), ("{", "}"))
_OPERATOR_RUN = re.compile(r"[<>=!+\-*/%&|^]+")
# A line that declares a name (a type, then a name, then `=`, `{`, `(` or `;`): commented out,
# the name's later uses no longer compile.
_DECLARATION = re.compile(
    r"^\s*(?!(?:return|throw|delete|co_return|co_yield|goto|else|case|using)\b)"
    r"(?:(?:const|constexpr|static|inline|thread_local|mutable)\s+)*"
    r"[A-Za-z_][\w:<>,]*[\s*&]+[*&]?[A-Za-z_]\w*\s*(?:=|\{|\(|;|\[)"
)
_JUMP_HEAD = re.compile(r"\b(for|while|do|switch)\b")


def jump_contexts(text: str) -> list[tuple[bool, bool]]:
    """Per line: whether a `continue;` (inside a loop) and a `break;` (a loop or a switch) may
    follow it, from the kinds of the blocks open at its end (a brace-and-parenthesis scan of the
    code, string literals and comments left out). A lambda inside a loop reads as the loop."""
    out: list[tuple[bool, bool]] = []
    stack: list[str] = []
    head, parens = "", 0
    for line in text.splitlines():
        for c in _CODE_ONLY.sub("", line):
            if c == "(":
                parens += 1
            elif c == ")":
                parens = max(0, parens - 1)
            if c == "{":
                kinds = _JUMP_HEAD.findall(head)
                stack.append(("switch" if kinds[-1] == "switch" else "loop") if kinds else "other")
                head, parens = "", 0
            elif c == "}":
                if stack:
                    stack.pop()
                head = ""
            elif c == ";" and parens == 0:
                head = ""
            else:
                head += c
        head += " "
        out.append(("loop" in stack, "loop" in stack or "switch" in stack))
    return out


def hopeless_cpp(rule: str, old: str, new: str, jumps: tuple[bool, bool], prev: str = ";") -> bool:
    """A mutant that cannot compile by its shape alone (measured: these were most of the 60% of
    uncompilable C++ mutants of the first campaign): a `break;` or `continue;` where no loop or
    switch is open or after an unfinished statement; a line commented out that declares a name or
    continues the statement above (`prev`, the code line before it); a binary operator rewritten
    where the token is not one (unspaced: a template bracket, a declarator), part of a longer one
    (`>=`, `<<`, `++`, `->`), or a `+` that joins strings; a string emptied across several
    literals or left open; parentheses, brackets or braces unbalanced; `at(0)` where `at(` ends
    another name; an `if` with an initializer negated; a number rewritten inside a floating
    literal (`0.(0+1)`), after a sign (`--1`) or at the end of a name (`elo1`). The syntax
    check before the build (SyntaxCheck) catches the rest."""
    lhs, _, rhs = rule.partition(" ==> ")
    for jump, allowed in (("continue;", jumps[0]), ("break;", jumps[1])):
        if jump in rhs:
            return not allowed or not old.rstrip().endswith((";", "{", "}", ":"))
    if rhs.strip().startswith(r"\1/*"):  # the line commented out
        opens_or_closes = "{" in old or "}" in old  # a block: its partner is left alone
        unfinished = not prev.rstrip().endswith((";", "{", "}", ":"))
        return opens_or_closes or unfinished or bool(_DECLARATION.match(old))
    if any(old.count(a) - old.count(b) != new.count(a) - new.count(b) for a, b in _PAIRS):
        return True  # a parenthesis, bracket or brace left without its partner
    if (old.count('"') - new.count('"')) % 2:
        return True  # a string literal left open
    if re.search(r"\d\.\(|\)\.\d", new) or (
        re.search(r"(--|\+\+)\d", new) and not re.search(r"(--|\+\+)\d", old)
    ):
        return True
    try:
        matches = list(re.finditer(lhs, old))
    except re.error:
        return False
    for mo in matches:
        if old[: mo.start()] + mo.expand(rhs) + old[mo.end() :] != new:
            continue
        return hopeless_at(lhs, old, mo)
    return False


def hopeless_at(lhs: str, old: str, mo: re.Match[str]) -> bool:
    """hopeless_cpp for the one match of the rule that made the mutant."""
    if lhs.startswith('"') and '"' in mo.group()[1:-1]:
        return True  # `".+"` spanning several literals: the quotes no longer pair
    if lhs.startswith(r"(\D)(\d+)") and (mo.group(1).isalnum() or mo.group(1) == "_"):
        return True  # the digits end a name (`elo1`, `Rank3`): the name is gone
    if lhs.startswith("at(") and old[mo.start() - 1 : mo.start()] not in (".", ">"):
        return True  # not a member `.at(` / `->at(`: the end of `format(` and the like
    if lhs.startswith("if") and mo.lastindex and ";" in mo.group(1):
        return True  # `if (init; cond)`: the whole parenthesis is no expression
    op = _OPERATOR_RUN.search(old, mo.start(), mo.end())
    if op is None:
        return False
    start, end = op.start(), op.end()
    while start and old[start - 1] in _OPERATOR_CHARS:
        start -= 1
    while end < len(old) and old[end] in _OPERATOR_CHARS:
        end += 1
    token, before, after = old[start:end], old[start - 2 : start], old[end : end + 2]
    if token != op.group() and (token in ("++", "--", "->", "<<", ">>") or len(token) == 2):
        return True  # a part of a longer operator rewritten: `>=` to `===`, `<<` to `!=<`
    if token == "+" and '"' in (before[:1] + after[1:]):
        return True  # text joined with `+`
    if token not in BINARY_ONLY:
        return False
    return before[-1:] != " " or after[:1] not in (" ", "")


def py_operators() -> list[tuple[str, Any]]:
    """cosmic-ray's operators that need no arguments, as (name, instance)."""
    import cosmic_ray.plugins

    ops = []
    for name in cosmic_ray.plugins.operator_names():
        cls = cosmic_ray.plugins.get_operator(name)
        if not cls.arguments():
            ops.append((name, cls()))
    return ops


# `if __name__ == "__main__":` is the same guard in every tool; its mutants (`is`, `<=`, `>=`)
# are equivalent for module names, which begin with a lowercase letter, and were triaged one
# module at a time.
MAIN_GUARD = re.compile(r"""^\s*if __name__ == ['"]__main__['"]:\s*$""")


def py_candidates(path: str, text: str) -> list[Mutant]:
    """cosmic-ray's mutation positions in one module (the way `cosmic-ray init` enumerates
    them); the mutated text is made later, by materialize_py, for the mutants chosen."""
    from cosmic_ray.ast import ast_nodes, get_ast

    lines = text.splitlines()
    nodes = list(ast_nodes(get_ast(text)))
    out: list[Mutant] = []
    for name, op in py_operators():
        positions = [start for node in nodes for start, _end in op.mutation_positions(node)]
        for occurrence, (line, _col) in enumerate(positions):
            original = lines[line - 1] if line <= len(lines) else ""
            if original.strip().startswith("#") or MAIN_GUARD.match(original):
                continue
            out.append(Mutant(path, line, name, original, None, "py", occurrence))
    return out


def materialize_py(m: Mutant, text: str) -> bool:
    """Makes the mutated text of a Python mutant (cosmic_ray.mutating.mutate_code); False when
    the operator makes no change there."""
    import cosmic_ray.plugins
    from cosmic_ray.mutating import mutate_code

    op = cosmic_ray.plugins.get_operator(m.operator)()
    try:
        mutated = mutate_code(text, op, m.occurrence)
    except AttributeError:
        # cosmic-ray's ExceptionReplacer fails on some `except` clauses (a PythonNode without
        # `value`): no mutant there, like an operator that makes no change.
        return False
    if mutated is None or mutated == text:
        return False
    old, new = text.splitlines(keepends=True), mutated.splitlines(keepends=True)
    ops = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    changed = [o for o in ops if o[0] != "equal"]
    if not changed:
        return False
    _tag, i1, i2, j1, j2 = changed[0]
    m.line = i1 + 1
    m.original = "".join(old[i1:i2]).rstrip("\n")
    m.mutated = "".join(new[j1:j2]).rstrip("\n")
    m.diff = unified_diff(m.file, old, new)
    return True


class Sources:
    """File texts at one commit, read once (`git show`), and the mutated file texts."""

    def __init__(self, repo: Path, rev: str):
        self.repo, self.rev = repo, rev
        self._text: dict[str, str] = {}

    def paths(self) -> list[str]:
        r = git(["ls-tree", "-r", "--name-only", self.rev], self.repo)
        return r.splitlines()

    def text(self, path: str) -> str:
        if path not in self._text:
            self._text[path] = git(["show", f"{self.rev}:{path}"], self.repo)
        return self._text[path]

    def mutated_text(self, m: Mutant) -> str:
        """The whole file with the mutant applied (from its diff's target side)."""
        text = self.text(m.file)
        if m.lang == "py":
            import cosmic_ray.plugins
            from cosmic_ray.mutating import mutate_code

            mutated = mutate_code(text, cosmic_ray.plugins.get_operator(m.operator)(), m.occurrence)
            assert mutated is not None
            return str(mutated)
        lines = text.splitlines(keepends=True)
        end = "\n" if lines[m.line - 1].endswith("\n") else ""
        return "".join([*lines[: m.line - 1], (m.mutated or "") + end, *lines[m.line :]])


def candidates(sources: Sources, files: Sequence[str]) -> dict[str, list[Mutant]]:
    """Every mutant position of the files, by module (Python ones not materialized yet)."""
    by_module: dict[str, list[Mutant]] = {}
    for f in files:
        text = sources.text(f)
        found = cpp_mutants(f, text) if f.endswith(".cpp") else py_candidates(f, text)
        by_module.setdefault(module_of(f), []).extend(found)
    return by_module


def choose(
    by_module: dict[str, list[Mutant]],
    materialize: Callable[[Mutant], bool],
    sample: int = 0,
    seed: int = 0,
    per_module: int = 0,
    prefetch: Callable[[list[Mutant]], None] | None = None,
) -> list[Mutant]:
    """`materialize` makes a candidate's mutated text where it is not made yet (Python) and says
    whether it is worth running: False passes over it (no change there; a C++ mutant that does
    not compile, SyntaxCheck), and its module's next candidate is drawn instead.
    All mutants (sample 0, per_module 0), or a draw with random.Random(seed): each module's
    candidates shuffled (modules in sorted order), then the modules in a shuffled order take one
    distinct mutant each, round after round, until `sample` are taken in all, each module has
    `per_module` (0: no cap) or every module is spent. So 20 mutants come from 20 modules, and a
    module holds at most one more than another unless it runs out. Identical mutated texts are
    one mutant. Sorted by file, line, operator. `prefetch`, when given, is first handed the
    candidates the draw will most likely test (each module's first few, in queue order), so
    that their checks can run side by side; it changes no draw."""
    drawn = bool(sample or per_module)
    rng = random.Random(seed)
    queues: dict[str, list[Mutant]] = {}
    for module in sorted(by_module):
        order = list(by_module[module])
        if drawn:
            rng.shuffle(order)
        queues[module] = order[::-1]  # popped from the end: the shuffled order's first first
    rounds = sorted(queues)
    if drawn:
        rng.shuffle(rounds)
    if prefetch is not None:
        prefetch(likely_drawn(queues, sample, per_module))
    taken = dict.fromkeys(rounds, 0)
    seen: set[tuple[str, int, str]] = set()
    chosen: list[Mutant] = []

    def next_of(module: str) -> Mutant | None:
        queue = queues[module]
        while queue:
            m = queue.pop()
            if not materialize(m):
                continue
            key = (m.file, m.line, m.mutated or "")
            if key not in seen:
                seen.add(key)
                return m
        return None

    while rounds and (not sample or len(chosen) < sample):
        for module in list(rounds):
            if sample and len(chosen) >= sample:
                break
            m = next_of(module)
            if m is not None:
                chosen.append(m)
                taken[module] += 1
            if m is None or taken[module] == per_module:
                rounds.remove(module)
    return sorted(chosen, key=lambda m: (m.file, m.line, m.operator, m.mutated or ""))


def likely_drawn(queues: dict[str, list[Mutant]], sample: int, per_module: int) -> list[Mutant]:
    """The candidates a draw most likely tests: each module's share of it (queues pop from the
    end), a quarter more for those that fail their check; every candidate when nothing is drawn."""
    if not (sample or per_module):
        return [m for q in queues.values() for m in reversed(q)]
    share = per_module or -(-sample // max(1, len(queues)))
    if sample and per_module:
        share = min(share, -(-sample // max(1, len(queues))))
    depth = share + share // 4 + 1
    return [m for q in queues.values() for m in q[::-1][:depth]]


def viable(m: Mutant, sources: Sources, syntax: SyntaxCheck) -> bool:
    """choose()'s test of a candidate: a Python mutant made (materialize_py), a C++ one that
    compiles (SyntaxCheck)."""
    if m.lang == "py":
        return m.mutated is not None or materialize_py(m, sources.text(m.file))
    return syntax.viable(m, sources.text(m.file), sources.mutated_text(m))


def shard(mutants: list[Mutant], k: int, n: int) -> list[Mutant]:
    """Every n-th mutant starting at the k-th (1-based): the shards 1..n partition the list."""
    return [m for i, m in enumerate(mutants) if i % n == k - 1]


def parse_shard(text: str) -> tuple[int, int]:
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise SetupError(f"--shard must be K/N with 1 <= K <= N, got {text!r}") from None
    if not 1 <= k <= n:
        raise SetupError(f"--shard must be K/N with 1 <= K <= N, got {text!r}")
    return k, n


# ---------------------------------------------------------------------------------------------
# --diff: lines changed since a revision

HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")


def changed_lines(repo: Path, base: str, head: str = "HEAD") -> dict[str, set[int]]:
    """Lines of `head` added or changed since `base` (`git diff -U0 base head` hunks); both are
    verified commits, and `--` ends the revisions (nothing after them is read as a path)."""
    base, head = commit_of(base, "--diff", repo), commit_of(head, "HEAD", repo)
    out = git(["diff", "-U0", "--no-color", "--no-ext-diff", base, head, "--"], repo)
    return parse_diff(out)


def commit_of(value: str, option: str, repo: Path) -> str:
    """The commit `value` names, as its full hash: a value that starts with '-' (an option to
    git, such as --output=FILE) or names no commit is refused (SetupError naming the option)."""
    if not value or value.startswith("-"):
        raise SetupError(f"{option} {value!r}: not a git revision")
    r = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", "--end-of-options", value + "^{commit}"],
        cwd=repo,
        text=True,
        capture_output=True,
        errors="replace",
    )
    if r.returncode != 0 or not r.stdout.strip():
        raise SetupError(f"{option} {value!r}: names no commit of {repo}")
    return r.stdout.strip()


def parse_diff(diff: str) -> dict[str, set[int]]:
    lines: dict[str, set[int]] = {}
    current: set[int] | None = None
    for raw in diff.splitlines():
        if raw.startswith("+++ "):
            target = raw[4:].strip()
            current = None if target == "/dev/null" else lines.setdefault(target[2:], set())
        elif (h := HUNK.match(raw)) and current is not None:
            start, count = int(h.group(1)), int(h.group(2) or 1)
            current.update(range(start, start + count))
    return {p: s for p, s in lines.items() if s}


# ---------------------------------------------------------------------------------------------
# Triage


@dataclass(frozen=True)
class TriageEntry:
    path: str
    operator: str
    text: str  # the original line, stripped
    reason: str
    where: str  # file:line of the entry


def read_triage(path: Path, repo: Path = ROOT) -> list[TriageEntry]:
    """Lines `path | operator | exact original line text (stripped) | reason`; '#' comments and
    blank lines ignored. The fields are split at ' | ': the line text may hold ' | ' itself
    (the first two and the last field may not). Any other shape raises SetupError naming
    file:line."""
    if not path.exists():
        return []
    entries: list[TriageEntry] = []
    seen: dict[tuple[str, str, str], str] = {}
    for lineno, raw in enumerate(inputs.read_input_text(path).splitlines(), 1):
        where = f"{path}:{lineno}"
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in raw.split(" | ")]
        if len(fields) < 4:
            raise SetupError(
                f"{where}: expected 'path | operator | original line | reason', got {raw!r}"
            )
        entry = TriageEntry(fields[0], fields[1], " | ".join(fields[2:-1]), fields[-1], where)
        for name, value in (("path", entry.path), ("operator", entry.operator)):
            if not value:
                raise SetupError(f"{where}: empty {name}")
        if not entry.text:
            raise SetupError(f"{where}: empty original line text")
        if not entry.reason:
            raise SetupError(f"{where}: empty reason (say why the survivor is accepted)")
        if not (repo / entry.path).is_file():
            raise SetupError(f"{where}: no such file: {entry.path}")
        key = (entry.path, entry.operator, entry.text)
        if key in seen:
            raise SetupError(f"{where}: repeats the entry of {seen[key]}")
        seen[key] = where
        entries.append(entry)
    return entries


def triage_index(entries: Sequence[TriageEntry]) -> dict[tuple[str, str, str], str]:
    """(path, operator, stripped line text) -> reason: how a survivor is matched to its entry."""
    return {(e.path, e.operator, e.text): e.reason for e in entries}


def apply_triage(mutants: Iterable[Mutant], entries: Sequence[TriageEntry]) -> None:
    index = triage_index(entries)
    for m in mutants:
        if m.survived:
            m.triage = index.get((m.file, m.operator, m.original.strip()), "")


# ---------------------------------------------------------------------------------------------
# Coverage map


@dataclass
class CoverageMap:
    """Which tests executed each source line (ci/mutation-coverage.json): the CTest tests, and
    the pytest files that run the binaries (named `pytest:<file>`, binary `pytest`), whose
    lines select a C++ survivor's second stage.

    JSON: {"commit", "tests": [[name, binary]...], "sets": [[test index...]...],
    "files": {path: {line: set index}}, "untrusted": [name...]}: lines executed by the same tests
    share one set; `untrusted` names the pytest files whose coverage run failed or counted no
    line (their lines may be too few: the second stage keeps choosing them by name)."""

    commit: str = ""
    tests: list[tuple[str, str]] = field(default_factory=list)
    lines: dict[str, dict[int, list[int]]] = field(default_factory=dict)
    stale: set[str] = field(default_factory=set)  # files changed since the map's commit
    untrusted: set[str] = field(default_factory=set)
    # The pytest files a Python change since the map may have changed (stale_pytest_files);
    # None: not worked out, and any change of a Python file that is not a test file then counts
    # for all of them.
    stale_tests: set[str] | None = None

    @classmethod
    def load(cls, path: Path) -> CoverageMap:
        if not path.exists():
            return cls()
        doc = json.loads(inputs.read_input_text(path))
        sets = doc["sets"]
        return cls(
            doc["commit"],
            [(t[0], t[1]) for t in doc["tests"]],
            {
                f: {int(line): sets[s] for line, s in by_line.items()}
                for f, by_line in doc["files"].items()
            },
            untrusted=set(doc.get("untrusted", [])),
        )

    def to_json(self) -> dict[str, Any]:
        set_index: dict[tuple[int, ...], int] = {}
        files: dict[str, dict[str, int]] = {}
        for f in sorted(self.lines):
            files[f] = {}
            for line in sorted(self.lines[f]):
                key = tuple(sorted(self.lines[f][line]))
                files[f][str(line)] = set_index.setdefault(key, len(set_index))
        return {
            "commit": self.commit,
            "tests": [list(t) for t in self.tests],
            "sets": [list(s) for s in set_index],
            "files": files,
            "untrusted": sorted(self.untrusted),
        }

    def write(self, path: Path) -> None:
        doc = self.to_json()
        # Compact, but one file per line so that a diff of the map is readable.
        parts = [
            "{",
            f' "commit": {json.dumps(doc["commit"])},',
            ' "tests": ' + json.dumps(doc["tests"], separators=(",", ":")) + ",",
            ' "sets": ' + json.dumps(doc["sets"], separators=(",", ":")) + ",",
            ' "files": {',
        ]
        items = list(doc["files"].items())
        for i, (f, by_line) in enumerate(items):
            comma = "," if i + 1 < len(items) else ""
            parts.append(f"  {json.dumps(f)}: {json.dumps(by_line, separators=(',', ':'))}{comma}")
        parts += [" },", ' "untrusted": ' + json.dumps(doc["untrusted"]), "}"]
        write_text_atomic(path, "\n".join(parts) + "\n")

    def covering(self, path: str, line: int) -> list[str] | None:
        """The tests that executed the line; [] when none did; None when the map cannot say
        (no map, the file changed since the map's commit, or a header it does not hold). A
        source file it does not hold, unchanged since, is one no test executed a line of (the
        map keeps only executed lines): such mutants ran every test of their binaries, 304
        tests and 450 s each, to learn what the map already said."""
        if not self.commit or path in self.stale:
            return None
        if path not in self.lines:
            # A header's inline code and constants are counted where they are included.
            return [] if path.endswith(".cpp") else None
        return [self.tests[i][0] for i in self.lines[path].get(line, [])]

    def covering_statement(self, path: str, line: int, text: str) -> list[str] | None:
        """covering(), except that a line the map has no count for takes the tests of the
        statement it continues: gcov counts a statement spread over lines on some of them only,
        so a mutant in an argument on a later line ran no test, and "survived" (epd-compare's
        console table: the model that reads that table was never run on its format lines)."""
        found = self.covering(path, line)
        if found != [] or path not in self.lines:
            return found
        first, last = statement_span(text.splitlines(), line)
        ids = {i for n in range(first, last + 1) for i in self.lines[path].get(n, [])}
        return sorted({self.tests[i][0] for i in ids})

    def file_tests(self, path: str) -> list[str]:
        """The tests that executed some line of the file, sorted."""
        ids = {i for by_line in self.lines.get(path, {}).values() for i in by_line}
        return sorted(self.tests[i][0] for i in ids)

    def binaries_of(self, path: str) -> set[str]:
        """The test binaries whose CTest tests executed some line of the file."""
        found = {self.tests[i][1] for ids in self.lines.get(path, {}).values() for i in ids}
        return found - {PYTEST_BINARY, PYTEST_TEST_BINARY}

    def python_files_by_test(self) -> set[str]:
        """The pytest files whose tests the Python coverage map can speak for: measured test by
        test, unchanged since the map, seeing no module changed since (stale_tests; none when
        that was not worked out and a Python file changed), none of their tests untrusted."""
        if self.stale_tests is None and any(f.startswith("harness/python/") for f in self.stale):
            return set()
        untrusted = {name.removeprefix(PYTEST_PREFIX).split("::", 1)[0] for name in self.untrusted}
        return self.measured_by_test() - self.stale - (self.stale_tests or set()) - untrusted

    def measured_by_test(self) -> set[str]:
        """The pytest files (repository paths) whose tests the map measured one by one."""
        return {
            name.removeprefix(PYTEST_PREFIX).split("::", 1)[0]
            for name, binary in self.tests
            if binary == PYTEST_TEST_BINARY
        }

    def pytest_mapped(self) -> set[str]:
        """The pytest files whose lines the map can speak for: measured, trusted, unchanged
        since the map's commit (repository paths); none once any other Python file changed
        since (a conftest, a shared test module or a package a test runs can change what every
        file executes)."""
        stale_tests = self.stale_tests
        if stale_tests is None:
            if any(
                f.startswith("harness/python/")
                and not re.fullmatch(rf"{PY_TESTS}/test_[^/]*\.py", f)
                for f in self.stale
            ):
                return set()
            stale_tests = set()
        return {
            name.removeprefix(PYTEST_PREFIX)
            for name, binary in self.tests
            if binary == PYTEST_BINARY
            and name not in self.untrusted
            and name.removeprefix(PYTEST_PREFIX) not in self.stale | stale_tests
        }


PYTEST_PREFIX = "pytest:"  # a pytest file's name among the map's tests
PYTEST_BINARY = "pytest"
# One test of a pytest file (`pytest:<file>::<test>`), measured on its own (stkmutation.pytest_gcov)
PYTEST_TEST_BINARY = "pytest-test"
# The Python map's name for lines run outside any test (at import, at collection).
OUTSIDE_TESTS = "outside any test"


def ctest_names(found: list[str] | None) -> list[str] | None:
    """The CTest tests among a map's answer (None stays None: the map cannot say)."""
    return None if found is None else [t for t in found if not t.startswith(PYTEST_PREFIX)]


def pytest_names(found: list[str]) -> list[str]:
    """The pytest files among a map's answer, as repository paths."""
    return [
        t.removeprefix(PYTEST_PREFIX)
        for t in found
        if t.startswith(PYTEST_PREFIX) and "::" not in t
    ]


def test_node_names(found: list[str]) -> list[str]:
    """The single tests of pytest files among a map's answer, as `<file>::<test>`."""
    return [
        t.removeprefix(PYTEST_PREFIX) for t in found if t.startswith(PYTEST_PREFIX) and "::" in t
    ]


def largest_first(tree: Path, files: Iterable[str]) -> list[str]:
    """Test files by size under `tree`, largest first (then by name): the baseline's guess of
    their cost, so the longest starts first and the cores finish together. Unreadable: 0."""

    def size(f: str) -> int:
        try:
            return (tree / f).stat().st_size
        except OSError:
            return 0

    return sorted(files, key=lambda f: (-size(f), f))


def file_of(test: str) -> str:
    """The pytest file of a test (`<file>::<test>`) or of a whole file."""
    return test.split("::", 1)[0]


def narrowed_to_tests(
    files: list[str], ran: list[str], by_test: set[str], none_ran: str
) -> list[str]:
    """Each of `files` that a coverage map measured test by test (`by_test`) replaced by its
    tests among `ran` (`<file>::<test>`, in ran's order); a file not so measured stays whole,
    and one measured whose tests never ran the line stays whole or is left out (`none_ran`:
    "whole" or "out")."""
    out: list[str] = []
    for f in files:
        mine = [t for t in ran if t.split("::", 1)[0] == f]
        if f not in by_test or (not mine and none_ran == "whole"):
            out.append(f)
        else:
            out += mine
    return out


STATEMENT_END = re.compile(
    r"[;{}]\s*$|^\s*#|^\s*(?:case\b[^:]*|default|public|private|protected):\s*$"
)
SPAN_LIMIT = 40  # lines: a statement longer than this is taken from this far only


def statement_span(lines: Sequence[str], line: int) -> tuple[int, int]:
    """The 1-based first and last lines of the C++ statement that `line` is part of, read from
    where lines end: a statement starts after a line ending in ';', '{' or '}' (or a label or a
    preprocessor line) and ends at the first line so ending. Blank lines and `//` comments end
    nothing."""

    def ends(n: int) -> bool:
        code = lines[n - 1].split("//", 1)[0].rstrip()
        return bool(code) and STATEMENT_END.search(code) is not None

    first = line
    while first > 1 and line - first < SPAN_LIMIT and not ends(first - 1):
        first -= 1
    last = line
    while last < len(lines) and last - line < SPAN_LIMIT and not ends(last):
        last += 1
    return first, last


def fallback_binaries(path: str, cov: CoverageMap) -> set[str]:
    """The binaries whose tests run when the map names no test for a line: those covering the
    file (a stale map still says this well), else by place: the harness tests drive the engine
    too (stk-tests holds the NNUE, search-policy and UCI tests)."""
    if found := cov.binaries_of(path):
        return found
    return {"stk-engine-tests", "stk-tests"} if path.startswith("engine/") else {"stk-tests"}


# ---------------------------------------------------------------------------------------------
# Processes


def git(args: list[str], cwd: Path) -> str:
    r = subprocess.run(["git", *args], cwd=cwd, text=True, capture_output=True, errors="replace")
    if r.returncode:
        raise SetupError(f"git {' '.join(args)} failed: {r.stderr.strip()}")
    return r.stdout


@dataclass
class Ran:
    code: int
    out: str
    seconds: float
    timed_out: bool = False


# The process groups of the builds and tests under way. A stop signal kills them at once: a
# mutant's second stage runs for minutes, and a supervisor that follows SIGTERM with SIGKILL
# after a grace (a CI job cancelled, `timeout -k`) found its finished mutants unwritten.
_RUNNING: set[int] = set()
_RUNNING_LOCK = threading.Lock()
STOPPING = threading.Event()
_UNDER_WAY = threading.local()


def clear_stopped() -> None:
    """Forgets, for this thread, that a stop cut one of its runs short (stopped_under_way)."""
    _UNDER_WAY.stopped = False


def stopped_under_way() -> bool:
    """Whether a stop signal killed one of this thread's runs since clear_stopped: the mutant
    has no verdict (a killed test is not a killed mutant) and is reported as not run."""
    return bool(getattr(_UNDER_WAY, "stopped", False))


def kill_runs_under_way() -> None:
    STOPPING.set()
    with _RUNNING_LOCK:
        groups = list(_RUNNING)
    for pgid in groups:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)


def run(
    cmd: Sequence[str], cwd: Path, env: dict[str, str] | None = None, timeout: float | None = None
) -> Ran:
    """Runs in its own process group, killed whole on timeout (tests start engines) or on a
    stop signal (kill_runs_under_way; a run asked for after it does not start)."""
    t0 = time.monotonic()
    with _RUNNING_LOCK:
        if STOPPING.is_set():
            _UNDER_WAY.stopped = True
            return Ran(-9, "not started: the run was stopped", 0.0)
        p = subprocess.Popen(
            list(cmd),
            cwd=cwd,
            env=env,
            text=True,
            errors="replace",
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        _RUNNING.add(p.pid)
    try:
        out, _ = p.communicate(timeout=timeout)
        ran = Ran(p.returncode, out, time.monotonic() - t0)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        ran = Ran(-9, out, time.monotonic() - t0, True)
    finally:
        with _RUNNING_LOCK:
            _RUNNING.discard(p.pid)
    if STOPPING.is_set() and ran.code:
        _UNDER_WAY.stopped = True  # cut short by the stop (or failed just then: run again)
    return ran


def ctest_regex(names: Iterable[str]) -> str:
    """An anchored CTest -R expression matching exactly the names (CTest's regex syntax)."""
    return "^(" + "|".join(re.sub(r"([\\^$.|?*+()\[\]{}-])", r"\\\1", n) for n in names) + ")$"


def junit_times(path: Path) -> dict[str, tuple[bool, float]]:
    """{testcase name: (passed, seconds)} from a JUnit file (CTest's or pytest's). A skipped
    pytest case passes (it skips under the mutant too); a CTest test not run does not."""
    out: dict[str, tuple[bool, float]] = {}
    if not path.exists():
        return out
    for case in ET.fromstring(inputs.read_input_bytes(path)).iter("testcase"):
        bad = any(case.find(t) is not None for t in ("failure", "error"))
        status = case.get("status", "run")
        ok = not bad and status not in ("fail", "notrun", "disabled")
        name = case.get("name", "")
        if case.get("file") or case.get("classname", "").startswith("tests."):
            name = f"{case.get('classname', '')}::{name}"
        out[name] = (ok, float(case.get("time") or 0))
    return out


# ---------------------------------------------------------------------------------------------
# Scratch clones


def imports_any(text: str, modules: set[str], importer: str | None = None) -> bool:
    """Whether Python source `text` (of module `importer`; None for a test file) imports one of
    `modules` (dotted names), absolutely (`stkref.spec`, `from stkref import spec`, or by
    `-m`) or, from a module of the same package, relatively (`from .spec import`, `from .
    import spec`). A relative import names a module of its own package only: read in any
    module, stkref's `from .cli import` made every stkref importer an importer of stkdist's
    cli, and each stkdist mutant ran 80 test files."""
    for mod in modules:
        short = re.escape(mod.rsplit(".", 1)[-1])
        package = mod.rsplit(".", 1)[0] if "." in mod else "stkref"
        # The name after `import`, `from`, `-m` or in quotes (importlib, monkeypatch.setattr,
        # an argv list), never in a comment's prose: a comment of stkref.inputs naming
        # stktrain.train made the whole package its importers. Names listed after `import`, on
        # its line or in its parentheses.
        names = rf"(?:\([^)]*\b{short}\b[^)]*\)|[^\n(]*\b{short}\b)"
        pattern = rf"""(?:\bimport\s+|\bfrom\s+|-m\s+|["']){re.escape(mod)}\b"""
        pattern += rf"|from {re.escape(package)} import {names}"
        if importer is not None and importer.rsplit(".", 1)[0] == package:
            pattern += rf"|from \. import {names}|from \.{short} import"
        if mod.endswith(".__main__"):  # `python -m PACKAGE`: in a line, or the name quoted alone
            pattern += rf"""|-m {re.escape(package)}(?![\w.])|["']{re.escape(package)}["']"""
        if re.search(pattern, text):
            return True
    return False


def scripts_running(tree: Path, modules: set[str]) -> list[str]:
    """The names of the scripts of ci/ that run or import one of `modules` (ci/make-cli-docs.py's
    runpy.run_module("stkdev.cli_docs"), ci/build-profile.sh's `-m stkdev.build_profile`): a test
    that runs the script sees the module though it imports nothing of it."""
    return sorted(
        p.name
        for p in (tree / "ci").glob("*")
        if p.suffix in (".py", ".sh") and p.is_file() and imports_any(_text(p), modules)
    )


def runs_any_script(text: str, scripts: list[str]) -> bool:
    """Whether test source `text` names one of the ci/ `scripts` as a path: the name quoted, alone
    or as a path's last part (`ROOT / "ci" / "fuzz.py"`, `"ci/fuzz.py"`), not in prose."""
    return any(re.search(rf"""["'/]{re.escape(name)}["']""", text) for name in scripts)


def python_tests_for(tree: Path, file: str) -> tuple[list[str], bool | None]:
    """The pytest files that can see `file` (harness/python/stkref/...): those importing it or a
    stkref module that imports it, transitively; a conftest.py that does brings in the test files
    importing from conftest. (A mutant of spec.py is seen by test_quantize.py through
    stkref.quantize: a direct-import rule missed it and the mutant survived.) All test files
    when none does (covered False)."""
    pkg = tree / "harness" / "python"

    def name(f: Path) -> str:
        return str(f.relative_to(pkg).with_suffix("")).replace("/", ".")

    closure = {name(pkg / file.removeprefix("harness/python/"))}
    sources = {name(f): _text(f) for d in PY_PACKAGES for f in (pkg / d).rglob("*.py")}
    grew = True
    while grew:
        grew = False
        for mod, text in sources.items():
            if mod not in closure and imports_any(text, closure, importer=mod):
                closure.add(mod)
                grew = True
    files = sorted((tree / PY_TESTS).glob("test_*.py"))
    conftest = tree / PY_TESTS / "conftest.py"
    via_conftest = conftest.is_file() and imports_any(_text(conftest), closure)
    scripts = scripts_running(tree, closure)
    found = [
        str(f.relative_to(tree))
        for f in files
        if imports_any(t := _text(f), closure)
        or (via_conftest and "from conftest" in t)
        or runs_any_script(t, scripts)
    ]
    return (found, True) if found else ([str(f.relative_to(tree)) for f in files], False)


def loaded_map(path: Path, head: str) -> CoverageMap:
    """A committed coverage map with the files changed since its commit (`stale`; every file
    when its commit is unknown here)."""
    cov = CoverageMap.load(path)
    if cov.commit and cov.commit != head:
        try:
            since = commit_of(cov.commit, "coverage map commit", ROOT)
            cov.stale = set(git(["diff", "--name-only", since, head, "--"], ROOT).splitlines())
        except SetupError:  # a commit this clone does not have: the map cannot say
            print(f"mutation: {path.name}: its commit {cov.commit[:10]} is unknown here, unused")
            return CoverageMap()
        print(f"mutation: {path.name} of {cov.commit[:10]}; {len(cov.stale)} files changed since")
    return cov


def stale_pytest_files(tree: Path, stale: Iterable[str]) -> set[str] | None:
    """The pytest files whose lines in the map a change since its commit may have made wrong:
    each changed test file, and the test files that can see a changed module of the packages
    (python_tests_for); None (all of them) when a changed file of harness/python is one no
    import rule follows: a conftest or another shared file of the tests, a file that is not
    Python (pyproject.toml), or a module no test file sees. A change of the mutation tool then
    leaves the fault matrix's lines standing (before, any Python change since the map made the
    map speak for no pytest file)."""
    out: set[str] = set()
    for f in stale:
        if not f.startswith("harness/python/"):
            continue
        if re.fullmatch(rf"{PY_TESTS}/test_[^/]*\.py", f):
            out.add(f)
            continue
        if not f.endswith(".py") or f.startswith(PY_TESTS + "/"):
            return None
        found, seen = python_tests_for(tree, f)
        if not seen:
            return None
        out.update(found)
    return out


# The environment variables through which pytest files run the project's binaries.
# stk-harness links the engine library: an engine defect may show only through a harness command
# (fhdump prints the engine's fail-high features, which test_fhrecords compares with stkref's).
BINARY_VARS = {"engine": ("STK_ENGINE", "STK_HARNESS"), "harness": ("STK_HARNESS",)}


# pytest files that check every stk-harness command the same way, run for a mutant of any
# command: docs/cli.md against each command's --help.
EVERY_COMMAND_TESTS = ("test_docs_cli.py",)


SNAPSHOT_DAYS = 7


def head_snapshot(head: str, parent: Path, repo: Path = ROOT) -> Path:
    """HEAD's engine/ and harness/ under parent/<commit>, made once: the syntax checks of a run
    read their sources and headers there, never in the work tree, which may change during a run
    of hours (a developer editing a header turned most of a schema build into builds alone).
    A snapshot unused for SNAPSHOT_DAYS is removed (a run at another commit may be using a newer
    one: 4.6 MB each)."""
    commit = commit_of(head, "HEAD", repo)
    where = parent / commit
    if not where.is_dir():
        parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{commit[:12]}-", dir=parent))
        try:
            archive = subprocess.run(
                ["git", "archive", "--format=tar", commit, "--", "engine", "harness"],
                cwd=repo,
                capture_output=True,
                check=False,
            )
            if archive.returncode:
                raise SetupError(f"git archive {commit[:12]} failed: {archive.stderr.decode()}")
            with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
                tar.extractall(tmp, filter="data")
            os.replace(tmp, where)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    os.utime(where)
    stale = time.time() - SNAPSHOT_DAYS * 86400
    for old in parent.iterdir():
        with contextlib.suppress(OSError):
            if old != where and old.stat().st_mtime < stale:
                shutil.rmtree(old, ignore_errors=True)
    return where


# CI builds with -Werror (ci/build.sh under CI=true): a mutant whose object warns never reaches a
# test there. The scratch clones build without it (a schema's forms may warn where no mutant
# does), so a warning is read off the mutant's own compile. -fsyntax-only before the draw cannot
# see them all: -Wreturn-type's "control reaches end" comes from a later pass (features.cpp:15
# `return n;` commented out survived a campaign as undefined behaviour no test could be owed).
CI_REFUSES = "CI's -Werror build refuses it (ci/build.sh)"
COMPILER_WARNING = re.compile(r"^\S[^\n]*?:\d+:(?:\d+:)? warning: [^\n]*$", re.M)


def compiler_warnings(output: str) -> str:
    """The compiler's warning lines in a build's output (GCC's and Clang's `file:line:col:
    warning: text`), one a line; empty when it warned of nothing."""
    return "\n".join(COMPILER_WARNING.findall(output))


def binary_tests_for(tree: Path, file: str) -> list[str]:
    """The pytest files that run the binary a C++ file is built into (files_reading_binaries:
    they read STK_HARNESS for a harness file, STK_ENGINE or STK_HARNESS for an engine file): a
    defect that CTest misses may be one only an end-to-end test sees (a fault injected under
    stk-harness, a datagen run). For a file of harness/src/commands/<cmd>, those that mention
    <cmd> when any does, and those that check every command alike (EVERY_COMMAND_TESTS: a
    command's help text is its reference page; an emptied option description survived a
    campaign that never read it)."""
    parts = file.split("/")
    texts = files_reading_binaries(tree, BINARY_VARS.get(parts[0], ()))
    found = list(texts)
    if parts[:3] == ["harness", "src", "commands"] and len(parts) > 4:
        cmd = parts[3]
        named = [f for f in found if re.search(rf"\b{re.escape(cmd)}\b", texts[f])]
        every = [f for f in found if f.name in EVERY_COMMAND_TESTS and f not in named]
        found = [*named, *every] if named else found
    return [str(f.relative_to(tree)) for f in found]


class Job:
    """One scratch clone of HEAD with its own release build, kept under build/mutation/ between
    runs (ccache and ninja make the next run's build cheap)."""

    def __init__(self, name: str, head: str, build_jobs: int, env: dict[str, str]):
        self.tree = ROOT / "build" / "mutation" / name
        self.build_dir = self.tree / "build" / "release"
        self.head, self.build_jobs, self.env = head, build_jobs, env
        self.objects: dict[str, str] = {}  # repository path -> object path in the build dir
        # Object path -> SHA-256 of HEAD's object, read right after HEAD is built: a unity batch's
        # object compiles several files, so a mutant of one leaves it changed for the next.
        self.baseline_objects: dict[str, str] = {}
        self.test_binary: dict[str, str] = {}  # CTest test -> binary name
        self.commands: dict[str, tuple[list[str], str]] = {}  # object -> (arguments, directory)
        self.lock: io.TextIOWrapper | None = None  # held while this run uses the clone

    def prepare(self) -> None:
        if not (self.tree / ".git").exists():
            self.tree.parent.mkdir(parents=True, exist_ok=True)
            git(["clone", "-q", "--shared", "--no-checkout", str(ROOT), str(self.tree)], ROOT)
        git(["checkout", "-q", "-f", "--detach", self.head], self.tree)
        git(["clean", "-fdxq", "-e", "build/"], self.tree)

    def build(self, targets: Sequence[str] = ()) -> None:
        """Configures once, then builds the targets (default: all) of HEAD."""
        if not (self.build_dir / "build.ninja").exists():
            r = run(["cmake", "--preset", "release"], self.tree, self.env)
            if r.code:
                raise SetupError(f"{self.tree}: configure failed:\n{r.out[-3000:]}")
        r = self.ninja(targets, os.cpu_count() or 2)  # the clones are built one after another
        if r.code:
            raise SetupError(f"{self.tree}: build of HEAD failed:\n{r.out[-3000:]}")
        database = self.build_dir / "compile_commands.json"
        for entry in compile_commands.load(database):
            if entry.output is None:
                raise SetupError(f"{database}: the entry of {entry.file} names no object")
            for src in entry.sources():
                if src.is_relative_to(self.tree):
                    self.objects[str(src.relative_to(self.tree))] = entry.output
            self.commands[entry.output] = (list(entry.arguments), str(entry.directory))
        self.baseline_objects = {
            o: file_digest(self.build_dir / o) for o in set(self.objects.values())
        }
        r = run(["ctest", "--test-dir", str(self.build_dir), "--show-only=json-v1"], self.tree)
        for t in json.loads(r.out)["tests"]:
            cmd = t.get("command") or ["?"]
            self.test_binary[t["name"]] = Path(cmd[0]).name

    def ctest(
        self,
        names: Sequence[str],
        timeout: float,
        junit: Path | None = None,
        env: dict[str, str] | None = None,
        per_test: float | None = None,
        parallel: int = 1,
    ) -> Ran:
        """Runs the tests (chunks of CTEST_CHUNK names), stopping at the first failure. With
        `per_test`, CTest stops any one test past that many seconds: a hang costs its own test's
        limit, not the whole selection's (a mutant hanging in its first test once took 653 s);
        that stop counts as timed out. `parallel` tests at once (CTest -j: CI runs them so)."""
        total = Ran(0, "", 0.0)
        deadline = time.monotonic() + timeout
        for i, chunk in enumerate(growing_chunks(names)):
            cmd = ["ctest", "--test-dir", str(self.build_dir), "-R", ctest_regex(chunk)]
            if per_test is not None:
                cmd += ["--timeout", str(max(1, round(per_test)))]
            if parallel > 1:
                cmd += ["-j", str(parallel)]
            if junit is not None:
                cmd += ["--output-junit", str(junit.with_suffix(f".{i}.xml"))]
            else:
                cmd += ["--stop-on-failure"]
            r = run(cmd, self.tree, env or self.env, max(1.0, deadline - time.monotonic()))
            hung = r.timed_out or (per_test is not None and CTEST_TIMEOUT.search(r.out) is not None)
            total = Ran(r.code or total.code, total.out + r.out, total.seconds + r.seconds, hung)
            if r.timed_out or (r.code and junit is None):
                break
        return total

    def ninja(self, targets: Sequence[str], jobs: int = 0) -> Ran:
        """Builds the targets with `jobs` compilers (default: this clone's share of the cores)."""
        cmd = ["ninja", "-C", str(self.build_dir), "-j", str(jobs or self.build_jobs), *targets]
        return run(cmd, self.tree, self.env)

    def write(self, path: str, text: str) -> None:
        (self.tree / path).write_text(text)


def lock_clone(name: str) -> io.TextIOWrapper | None:
    """An exclusive lock on the scratch clone `name` (build/mutation/<name>.lock), held while the
    returned file stays open; None when another run holds it."""
    path = ROOT / "build" / "mutation" / f"{name}.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    f = path.open("a")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        f.close()
        return None
    return f


def free_clones(n: int, head: str, build_jobs: int, env: dict[str, str]) -> list[Job]:
    """n scratch clones no other run is using: job0, job1, ... skipping the locked ones, so two
    runs on one machine never build or test in the same clone."""
    jobs: list[Job] = []
    i = 0
    while len(jobs) < n:
        name = f"job{i}"
        if (lock := lock_clone(name)) is not None:
            job = Job(name, head, build_jobs, env)
            job.lock = lock
            jobs.append(job)
        else:
            print(f"mutation: {name} is in use by another run; taking the next clone", flush=True)
        i += 1
    return jobs


# A test CTest stopped at --timeout, and a failed test's name, as CTest prints them:
# "12/40 Test #138: <name> .........***Failed    0.95 sec" (also ***Timeout, ***Exception).
CTEST_TIMEOUT = re.compile(r"Test\s+#\d+: .*\*\*\*Timeout")
CTEST_FAILED = re.compile(r"Test\s+#\d+: (.*?) \.+\s*\*\*\*(?:Failed|Timeout|Exception)")


def failed_tests(ctest_output: str) -> list[str]:
    """The names of the tests a CTest run reports failed, in its order."""
    return CTEST_FAILED.findall(ctest_output)


# pytest -q's summary of a failed file: "FAILED harness/python/tests/test_x.py::test_y - ..." (or
# ERROR for a collection or fixture error), the path as given on its command line.
PYTEST_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+?\.py)(?=::|\s|$)", re.M)


def failed_test_files(pytest_output: str) -> list[str]:
    """The test files a pytest run reports failed, each once, in its order."""
    return list(dict.fromkeys(PYTEST_FAILED.findall(pytest_output)))


def killers_first(tests: Sequence[str], kills: dict[str, int]) -> list[str]:
    """`tests` with those that killed more of the file's earlier mutants first; ties keep their
    order. Only the order changes, never the selection: a mutant's verdict (killed or survived)
    is the same, only a killed mutant's time shrinks."""
    return sorted(tests, key=lambda t: -kills.get(t, 0))


def growing_chunks(names: Sequence[str]) -> list[list[str]]:
    """The names in order, in chunks of 4, 8, 16, then CTEST_CHUNK: CTest runs one call's tests
    in its own order, so the order given (fastest first) holds only between calls."""
    chunks, i, size = [], 0, 4
    while i < len(names):
        chunks.append(list(names[i : i + size]))
        i, size = i + size, min(2 * size, CTEST_CHUNK)
    return chunks


def scratch_env(env: dict[str, str], folder: Path) -> dict[str, str]:
    """`env` with its own scratch `folder` for the tests (STK_TEST_SCRATCH) and its own TMPDIR:
    two test runs side by side must not share theirs (a baseline's slots, a schema's mutants).
    TMPDIR is short, in the system's temporary folder, named by the folder's digest: a Unix
    socket's path holds at most 107 bytes, and chromium's singleton socket under TMPDIR in a
    clone's build folder was longer (the review page's browser test then failed unmutated in
    every 97d7a93 shard, leaving the review module's mutants uncovered)."""
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:12]
    tmp = Path(tempfile.gettempdir()) / f"stkmut-{digest}"
    tmp.mkdir(parents=True, exist_ok=True)
    return dict(env, STK_TEST_SCRATCH=str(folder), TMPDIR=str(tmp))


def file_digest(path: Path) -> str:
    return hashlib.sha256(inputs.read_input_bytes(path)).hexdigest() if path.exists() else ""


@dataclass
class BaselineCache:
    """The baseline's passing tests and their times for one commit (build/mutation/baseline.json):
    `key` names the commit, so every shard of a draw and a resumed run skip the minutes of tests
    that passed on an earlier build of it (873 s of a 4,781 s shard at 97d7a93). A timing does
    not depend on which mutants a schema build holds; whether a test passes with every switch off
    does, so the tests known to pass on this very build (`build`: the commit and its schema
    texts) are kept apart (`verified`), and a kill by any other is checked unmutated at the end
    (Runner.verify_killers). Only the last key's results are kept."""

    path: Path
    key: str
    build: str = ""

    def _doc(self) -> dict[str, Any]:
        with contextlib.suppress(OSError, ValueError, InputError):
            doc = json.loads(inputs.read_input_text(self.path))
            if isinstance(doc, dict) and doc.get("key") == self.key:
                return doc
        return {}

    def passed(self, kind: str) -> dict[str, tuple[bool, float]]:
        return {t: (True, float(s)) for t, s in self._doc().get(kind, {}).items()}

    def verified(self) -> set[str]:
        """The tests seen passing unmutated on this build (its schema texts), not only timed."""
        v = self._doc().get("verified", {})
        return set(v.get("tests", [])) if v.get("build") == self.build else set()

    def flaky(self) -> set[str]:
        """The tests that failed beside others and passed alone on this commit (a shard's
        baseline): a kill by them alone repeats in every later shard too."""
        return set(self._doc().get("flaky", []))

    def pytest_selections(self) -> dict[str, set[str]]:
        """Per pytest file, the tests of it (node ids, or the file itself: all) it was timed on."""
        return {f: set(ids) for f, ids in self._doc().get("pytest_tests", {}).items()}

    def save(
        self,
        results: dict[str, dict[str, tuple[bool, float]]],
        verified: Collection[str] = (),
        py_selected: dict[str, set[str]] | None = None,
        flaky: Collection[str] = (),
    ) -> None:
        doc: dict[str, Any] = {"key": self.key}
        for kind, base in results.items():
            doc[kind] = {t: round(s, 3) for t, (ok, s) in sorted(base.items()) if ok}
        doc["pytest_tests"] = {f: sorted(ids) for f, ids in sorted((py_selected or {}).items())}
        doc["verified"] = {"build": self.build, "tests": sorted(verified)}
        doc["flaky"] = sorted(flaky)
        try:
            write_text_atomic(self.path, json.dumps(doc, separators=(",", ":")))
        except (OSError, InputError) as e:  # a cache costs a resumed run time only
            oserror = isinstance(e, OSError) and e.filename and e.strerror
            why = f"{e.filename}: {e.strerror}" if oserror else str(e)
            print(f"mutation: baseline not kept ({why}): a resumed run runs it again", flush=True)


@dataclass
class Plan:
    """What a mutant runs: the tests and the time limit."""

    tests: list[str]
    covered: bool | None
    timeout: float
    per_test: float | None = None  # CTest's --timeout: a hang ends at its own test's limit


class Runner:
    def __init__(
        self, sources: Sources, cov: CoverageMap, jobs: list[Job], env: dict[str, str]
    ) -> None:
        self.sources, self.cov, self.env = sources, cov, env
        self.pycov = CoverageMap()  # the Python packages' map (PY_COVERAGE_MAP), when loaded
        self.pool: queue.Queue[Job] = queue.Queue()
        for j in jobs:
            self.pool.put(j)
        self.first = jobs[0]
        self.jobs = list(jobs)
        self.ctest_base: dict[str, tuple[bool, float]] = {}
        self.py_base: dict[str, tuple[bool, float]] = {}  # test file -> (passed, seconds)
        self.py_selected: dict[str, set[str]] = {}  # test file -> the tests of it timed
        # The tests seen passing unmutated on this very build (not only timed on this commit).
        self.verified: set[str] = set()
        self.verify_seconds = 0.0  # the null control of kills timed on another build
        self.flaky: set[str] = set()  # failed unmutated beside others, passed alone
        # Per file, how many of its mutants each test killed so far in this run: those tests
        # run first for the file's next mutants (a killed mutant stops at its first failing
        # test; the fastest-first order alone ran 250 s of tests before the one that failed).
        self.killers: dict[str, dict[str, int]] = {}
        self.killers_lock = threading.Lock()
        # Per mutated file, the test files that can see it (importers, binary readers): read
        # from HEAD's tree once, before any mutant is written into it. Asked afresh for every
        # mutant, each call read and searched every source (1.3 s), 27 minutes of the baseline
        # selection of a 1,255-mutant Python draw before its first mutant, and as long again
        # in the mutants' plans.
        self.file_selections: dict[tuple[str, str], tuple[list[str], bool | None]] = {}

    # -- test selection

    def cpp_tests(self, m: Mutant) -> tuple[list[str], bool | None]:
        """The tests that executed the line (covered True); else every test of the binaries
        covering the file: covered False when the map says no test executed the line, None when
        the map cannot say (no map, or the file changed since it was made). A constant's
        definition the map has no count for (DATA_LINE) runs the tests that run its file."""
        known = self.first.test_binary
        found = ctest_names(self.covering(m))
        bins = fallback_binaries(m.file, self.cov)
        # Tests added since the map was made may execute the line: they always run (the rerun of
        # a gap closed by a new test found the test left out, and the mutant "survived").
        mapped = {name for name, _ in self.cov.tests}
        unmapped = sorted(t for t, b in known.items() if b in bins and t not in mapped)
        if found:
            return [t for t in found if t in known] + unmapped, True
        if found == [] and self.uncounted_data(m):
            # gcov has no count for a constant table or a member's default: the tests that run
            # its file read it. In a file no test ran a line of, it may be read from elsewhere.
            if runs_file := [t for t in self.cov.file_tests(m.file) if t in known]:
                return runs_file + unmapped, None
            found = None
        if found is not None and unmapped:
            return unmapped, None  # the map cannot speak for the new tests
        return sorted(t for t, b in known.items() if b in bins), None if found is None else False

    def uncounted_data(self, m: Mutant) -> bool:
        """A line that code reads but gcov counts for no test: a constant's definition or row
        (DATA_LINE), or a default member initializer, run by the compiler-made constructor
        whose lines gcov never reports (cpp_scope; `int depth = 0;` in a struct: three of the
        twelve not-covered mutants of the 9d8f787 shard 1/8 ran no test for that alone)."""
        if DATA_LINE.match(m.original):
            return True
        return self.sources is not None and cpp_scope.member_initializer(
            self.sources.text(m.file), m.line
        )

    def covering(self, m: Mutant) -> list[str] | None:
        """Every test the map says executed the mutant's line (CTest tests and pytest files)."""
        if self.sources is None:
            return self.cov.covering(m.file, m.line)
        return self.cov.covering_statement(m.file, m.line, self.sources.text(m.file))

    def pytest_selection(self, m: Mutant, named: list[str]) -> list[str]:
        """Of the files that run the mutant's binary (`named`), those the map says executed its
        line, and those it cannot speak for (new, changed or untrusted files). Where the map
        cannot say for the line (no map, a changed source file, a header it does not hold), all
        of `named`. A constant's row (DATA_LINE) takes the files that executed its file."""
        found = self.covering(m)
        if found is None:
            return named
        ran = set(pytest_names(found))
        if not ran and self.uncounted_data(m):
            ran = set(pytest_names(self.cov.file_tests(m.file)))
        mapped = self.cov.pytest_mapped()
        return [f for f in named if f in ran or f not in mapped]

    def binary_tests(self, m: Mutant) -> list[str]:
        """The second stage of a C++ mutant that CTest let pass: the pytest files that run its
        binary (binary_tests_for) and executed its line (pytest_selection), less those failing
        unmutated."""
        found = self.pytest_selection(m, self.binary_readers(m.file))
        tests = self.fastest_first([t for t in found if self.py_base.get(t, (True, 0.0))[0]])
        # The files that killed the file's earlier survivors of CTest first (record_kill): a
        # second stage stops at its first failure, and fastest-first alone ran minutes of files
        # before the one that failed.
        return self.tests_of_files(m, self.killers_first(m.file, tests))

    def tests_of_files(self, m: Mutant, files: list[str]) -> list[str]:
        """Each file the map measured test by test and can speak for, narrowed to its tests that
        executed the mutant's statement (`<file>::<test>`); a file whose line ran outside any
        of its tests (at collection) or whose tests the map does not hold stays whole."""
        found = self.covering(m)
        if found is None:
            return files
        by_test = self.cov.measured_by_test() & self.cov.pytest_mapped()
        # A file the map chose whose tests never ran the line ran it outside them: kept whole.
        return narrowed_to_tests(files, test_node_names(found), by_test, none_ran="whole")

    def fastest_first(self, tests: list[str]) -> list[str]:
        """By baseline time: a run stops at its first failure, so a killed mutant dies sooner."""
        base = {**self.ctest_base, **self.py_base}
        return sorted(tests, key=lambda t: (base.get(t, (True, 1e9))[1], t))

    def py_tests_of_files(self, m: Mutant, files: list[str]) -> list[str]:
        """Of the test files that see a Python mutant's module, each the Python coverage map
        measured test by test and can speak for (python_files_by_test), narrowed to its tests
        that executed the mutant's line; a line no test ran by itself (an import-time line: a
        `def`, a constant) or a module changed since the map keeps every file whole."""
        found = self.pycov.covering(m.file, m.line) or []
        ran = test_node_names(found)
        if not ran or OUTSIDE_TESTS in found:  # run at import too: every importer may see it
            return files
        # A file that imports the module but whose tests never ran the line: left out.
        by_test = self.pycov.python_files_by_test()
        return narrowed_to_tests(files, ran, by_test, none_ran="out")

    def py_tests(self, m: Mutant) -> tuple[list[str], bool | None]:
        """The test files that import the module, directly or through other stkref modules; all
        when none does."""
        return self.file_selection("importers", m.file, python_tests_for)

    def binary_readers(self, file: str) -> list[str]:
        """The pytest files that run the binary the C++ file is built into (binary_tests_for)."""
        return self.file_selection("readers", file, lambda t, f: (binary_tests_for(t, f), None))[0]

    def file_selection(
        self, kind: str, file: str, select: Callable[[Path, str], tuple[list[str], bool | None]]
    ) -> tuple[list[str], bool | None]:
        """select(HEAD's tree, file), worked out once a run (file_selections)."""
        key = (kind, file)
        if key not in self.file_selections:
            self.file_selections[key] = select(self.first.tree, file)
        found, covered = self.file_selections[key]
        return list(found), covered

    def baseline_parallelism(self) -> int:
        """The baseline runs before any mutant, in one clone: it may use every clone's cores."""
        return max(1, sum(j.build_jobs for j in self.jobs))

    def baseline(self, mutants: Sequence[Mutant], kept: BaselineCache | None = None) -> None:
        """Runs every selected test once unmutated: its time sets the limits, and a test that
        fails unmutated is left out of the selections (it would kill every mutant). A test that
        passed on this commit before (`kept`: an earlier shard of the draw, a resumed run) is
        not run again, only timed from there: where that was another schema build, its kills are
        rerun unmutated on this one at the end (verify_killers). A pytest file is kept only where
        its tests then held every one asked now. A failure always runs again (it may have been
        the machine's)."""
        known: set[str] = set()
        if kept is not None:
            self.ctest_base.update(passed := kept.passed("ctest"))
            known |= set(passed)
            asked = self.pytest_baseline_selection(mutants)
            py = kept.passed("pytest")
            for f, ids in kept.pytest_selections().items():
                # A file timed on fewer of its tests than asked now would set too short a limit.
                if f in py and (f in ids or {t for t in asked if file_of(t) == f} <= ids):
                    self.py_base[f], self.py_selected[f] = py[f], ids
                    known.add(f)
            self.verified |= kept.verified() & known
            self.flaky |= kept.flaky() & known
            if known:
                other = len(known - self.verified)
                print(
                    f"mutation: baseline: {len(known)} tests passed on this commit before: kept"
                    + (
                        f" ({other} on another build: their kills are rerun unmutated)"
                        if other
                        else ""
                    ),
                    flush=True,
                )
        ran = self._baseline_run(mutants, known)
        self.verified |= self.passing(ran)
        self._rerun_failures_alone([t for t in ran if t not in self.verified])
        if kept is not None:
            kept.save(self.base_results(), self.verified, self.py_selected, self.flaky)
        bad = [t for t, (ok, _) in {**self.ctest_base, **self.py_base}.items() if not ok]
        for t in bad:
            print(f"mutation: WARNING: fails unmutated, left out: {t}", flush=True)

    def _rerun_failures_alone(self, tests: list[str]) -> None:
        """A test that failed unmutated beside others runs once more, alone: one that then
        passes fails under load now and then (the fault matrix, search-speed, the review page's
        browser in the 97d7a93 shards), and leaving it out would leave its mutants to survive.
        It is kept, flaky: a mutant it alone kills is run again (confirm_kill)."""
        failed = [t for t in tests if not t.endswith(".py")]
        failed_py = [t for t in tests if t.endswith(".py")]
        if not tests:
            return
        print(f"mutation: baseline: {len(failed) + len(failed_py)} failures run again, alone")
        job = self.first
        if failed:
            junit = job.tree / "build" / "mutation-baseline-alone.xml"
            job.ctest(failed, timeout=7200, junit=junit, parallel=1)
            for part in sorted(junit.parent.glob(junit.stem + ".*.xml")):
                self.ctest_base.update(junit_times(part))
                part.unlink()
        if failed_py:
            self._baseline_pytest(job, sorted(t for f in failed_py for t in self.py_selected[f]), 1)
        for t in [*failed, *failed_py]:
            if t in self.passing([t]):
                self.flaky.add(t)
                print(f"mutation: WARNING: failed beside others, passed alone: flaky: {t}")

    def confirm_kill(self, job: Job, m: Mutant, env: dict[str, str] | None = None) -> None:
        """A kill by flaky tests alone (_rerun_failures_alone) is run again with the mutant on:
        a failure that does not repeat kills nothing ("error")."""
        killers = set(m.killers)
        if m.outcome != "killed" or not killers or not killers <= self.flaky:
            return
        if not self.fails_again(job, m, killers, env):
            m.outcome = "error"
            m.log = (
                f"killed only by {', '.join(sorted(killers))}, flaky under load (failed unmutated"
                " beside others, passed alone), and the failure did not repeat: no kill"
            )

    def fails_again(
        self, job: Job, m: Mutant, named: set[str], env: dict[str, str] | None = None
    ) -> bool:
        """Whether `named` (CTest names and pytest files) fail again with the mutant on: the CTest
        names through CTest, then the tests `m` ran of the named pytest files, under the mutant's
        own limit (a hang under it fails too). A kill's confirmation (confirm_kill, and the held
        kills of schema_run)."""
        cpp = sorted(t for t in named if not t.endswith(".py"))
        # pytest's tests of the named files only: a CTest name given to pytest fails (exit 4),
        # and a flaky CTest kill that did not repeat was kept as a kill.
        py = [t for t in m.tests if file_of(t).endswith(".py") and file_of(t) in named]
        limit = max(m.limit_s, 60.0)
        if cpp and job.ctest(cpp, limit, env=env).code != 0:
            return True
        if not py:
            return False
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *py]
        return run(cmd, job.tree, env or self.py_env(job), limit).code != 0

    def base_results(self) -> dict[str, dict[str, tuple[bool, float]]]:
        return {"ctest": self.ctest_base, "pytest": self.py_base}

    def _baseline_run(self, mutants: Sequence[Mutant], known: set[str]) -> list[str]:
        """The baseline of the tests not `known`; returns the tests and files it ran."""
        # A line the map says no test executes runs no CTest test (only the second stage).
        cpp = sorted(
            {
                t
                for m in mutants
                if m.lang == "cpp" and (sel := self.cpp_tests(m))[1] is not False
                for t in sel[0]
            }
        )
        py = [t for t in self.pytest_baseline_selection(mutants) if file_of(t) not in known]
        return self.run_unmutated(self.first, [t for t in cpp if t not in known], py)

    def run_unmutated(self, job: Job, cpp: list[str], py: list[str]) -> list[str]:
        """Runs CTest tests `cpp` and pytest tests or files `py` unmutated in `job` (every schema
        switch off), their results into the baseline; returns the tests and files it ran."""
        if cpp:
            print(f"mutation: baseline: {len(cpp)} CTest tests unmutated", flush=True)
            junit = job.tree / "build" / "mutation-baseline.xml"
            job.ctest(cpp, timeout=7200, junit=junit, parallel=self.baseline_parallelism())
            for part in sorted(junit.parent.glob(junit.stem + ".*.xml")):
                self.ctest_base.update(junit_times(part))
                part.unlink()
        if py:
            self._baseline_pytest(job, py)
            for f in {file_of(t) for t in py}:
                self.py_selected[f] = self.py_selected.get(f, set()) | {
                    t for t in py if file_of(t) == f
                }
        return [*cpp, *dict.fromkeys(file_of(t) for t in py)]

    def passing(self, tests: Iterable[str]) -> set[str]:
        """Those of the tests (CTest names, pytest files) whose baseline passed."""
        return {t for t in tests if {**self.ctest_base, **self.py_base}.get(t, (False, 0))[0]}

    def verify_killers(self, job: Job, done: Sequence[Mutant], kept: BaselineCache | None) -> None:
        """The null control of a kill, where the baseline only timed its test on another build of
        the commit (an earlier shard's schema): each test that killed a mutant of this schema
        build is rerun here unmutated, every switch off. A test that fails unmutated kills
        nothing: its mutants become "error" (a rerun runs them again) and the test is not kept."""
        by_test: dict[str, list[Mutant]] = {}
        unknown = 0
        for m in done:
            if m.via == "schema" and m.outcome in ("killed", "timeout"):
                unknown += not m.killers
                for t in dict.fromkeys(m.killers):
                    by_test.setdefault(t, []).append(m)
        if unknown:
            print(f"mutation: null control: {unknown} kills name no test: not rerun", flush=True)
        todo = [t for t in by_test if t not in self.verified]
        if not todo:
            return
        t0 = time.monotonic()
        cpp = [t for t in todo if not t.endswith(".py")]
        # A pytest file's tests as its mutants ran them (narrowed node ids, or the whole file).
        py = sorted(
            {
                t
                for f in todo
                if f.endswith(".py")
                for m in by_test[f]
                for t in m.tests
                if file_of(t) == f
            }
        )
        print(
            f"mutation: null control: {len(todo)} killing tests unmutated on this build", flush=True
        )
        self.verified |= self.passing(self.run_unmutated(job, cpp, py))
        failed = [t for t in todo if t not in self.verified]
        for t in failed:
            print(f"mutation: WARNING: kills but fails unmutated on this build: {t}", flush=True)
        for m in {id(m): m for t in failed for m in by_test[t]}.values():
            if not any(k in self.verified for k in m.killers):
                m.outcome = "error"
                m.log = (
                    f"killed only by {', '.join(m.killers)}, which fails unmutated on this build"
                    " (the null control): no kill"
                )
        self.verify_seconds = time.monotonic() - t0
        if kept is not None:
            kept.save(self.base_results(), self.verified, self.py_selected, self.flaky)

    def pytest_baseline_selection(self, mutants: Sequence[Mutant]) -> list[str]:
        """What the mutants' pytest runs can choose, as they would run it: a C++ mutant's second
        stage only the files its line selects (pytest_selection), each narrowed to the tests that
        ran the line where the map measured it test by test (tests_of_files); a Python mutant's
        the files importing its module, narrowed alike (py_tests_of_files). Whole files where
        any selection keeps one whole. Timing every test of 34 files took most of the pytest
        baseline for tests no mutant of the run could choose."""
        chosen: dict[str, None] = {}
        for m in mutants:
            if m.lang == "py":
                chosen.update(dict.fromkeys(self.py_tests_of_files(m, self.py_tests(m)[0])))
            else:
                files = self.pytest_selection(m, self.binary_readers(m.file))
                chosen.update(dict.fromkeys(self.tests_of_files(m, files)))
        whole = {t for t in chosen if "::" not in t}
        return sorted(t for t in chosen if t in whole or file_of(t) not in whole)

    def _baseline_pytest(self, job: Job, tests: list[str], parallel: int = 0) -> None:
        """Runs the tests unmutated, one pytest per file (its fixtures set up once), as many at
        a time as there are cores, the largest files first: a static split left one core
        running the fault matrix's whole file for minutes after the other was done. Each
        process has its own scratch folder, as mutants side by side have; a file's time is the
        sum of its cases that ran."""
        files = largest_first(job.tree, {file_of(t) for t in tests})
        n = min(parallel or self.baseline_parallelism(), len(files))
        print(
            f"mutation: baseline: {len(tests)} pytest tests or files of {len(files)} files"
            f" unmutated, {n} at a time",
            flush=True,
        )
        xmls = [job.tree / "build" / f"mutation-pytest.{i}.xml" for i in range(len(files))]
        slots: queue.Queue[int] = queue.Queue()
        for i in range(n):
            slots.put(i)

        def one(i: int) -> None:
            slot = slots.get()
            try:
                env = scratch_env(self.py_env(job), job.build_dir / "baseline-scratch" / str(slot))
                mine = [t for t in tests if file_of(t) == files[i]]
                cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
                xmls[i].unlink(missing_ok=True)
                run([*cmd, f"--junitxml={xmls[i]}", *mine], job.tree, env, 7200)
            finally:
                slots.put(slot)

        with concurrent.futures.ThreadPoolExecutor(n) as ex:
            list(ex.map(one, range(len(files))))
        cases: dict[str, tuple[bool, float]] = {}
        for xml in xmls:
            if xml.exists():
                cases.update(junit_times(xml))
        for f in files:
            stem = Path(f).stem
            mine = [v for k, v in cases.items() if stem in k.split("::")[0].split(".")]
            # No case at all (the file did not run: a crash, a timeout) is no pass.
            self.py_base[f] = (bool(mine) and all(ok for ok, _ in mine), sum(s for _, s in mine))
            if not self.py_base[f][0]:  # which cases, for whoever reads the log
                bad = [
                    k for k, v in cases.items() if not v[0] and stem in k.split("::")[0].split(".")
                ]
                print(f"mutation: baseline: {f} failed: {', '.join(bad[:5]) or 'no case ran'}")

    def killers_first(self, file: str, tests: list[str]) -> list[str]:
        with self.killers_lock:
            kills = dict(self.killers.get(file, {}))
        return killers_first(tests, kills)

    def record_kill(self, m: Mutant, ctest_output: str, pytest: bool = False) -> None:
        """Counts the tests (CTest names, or pytest files of a second stage) that killed `m`
        for its file (killers_first)."""
        names = failed_test_files(ctest_output) if pytest else failed_tests(ctest_output)
        m.killers = [*m.killers, *names]
        with self.killers_lock:
            counts = self.killers.setdefault(m.file, {})
            for t in names:
                counts[t] = counts.get(t, 0) + 1

    def plan(self, m: Mutant) -> Plan:
        tests, covered = self.cpp_tests(m) if m.lang == "cpp" else self.py_tests(m)
        base = self.ctest_base if m.lang == "cpp" else self.py_base
        tests = self.fastest_first([t for t in tests if base.get(t, (True, 0.0))[0]])
        if m.lang != "cpp":
            limit = 3 * sum(base.get(t, (True, 30.0))[1] for t in tests) + 10
            return Plan(self.py_tests_of_files(m, tests), covered, limit)
        tests = self.killers_first(m.file, tests)
        times = [base.get(t, (True, 30.0))[1] for t in tests]
        return Plan(tests, covered, 3 * sum(times) + 10, 3 * max(times, default=0.0) + 10)

    def planned(self, m: Mutant) -> Plan | None:
        """The plan, recorded on the mutant; None (and the mutant "skipped") with no test."""
        p = self.plan(m)
        m.tests, m.covered, m.limit_s = p.tests, p.covered, p.timeout
        if not p.tests:
            m.outcome, m.log = "skipped", "no test to run (every candidate fails unmutated)"
            return None
        return p

    def py_env(self, job: Job) -> dict[str, str]:
        """pytest in the clone, with the clone's binaries: an STK_HARNESS inherited from the
        caller would test the unmutated build, and every mutant would survive."""
        return dict(
            self.env,
            PYTHONPATH=str(job.tree / "harness" / "python"),
            STK_ENGINE=str(job.build_dir / "engine" / "stk"),
            STK_HARNESS=str(job.build_dir / "harness" / "stk-harness"),
        )

    # -- one mutant

    def run_one(self, m: Mutant) -> None:
        job = self.pool.get()
        t0 = time.monotonic()
        original = self.sources.text(m.file)
        try:
            job.write(m.file, self.sources.mutated_text(m))
            if m.lang == "cpp":
                self._cpp(job, m)
            else:
                self._py(job, m)
        finally:
            job.write(m.file, original)
            m.seconds = time.monotonic() - t0
            self.pool.put(job)

    def _cpp(self, job: Job, m: Mutant) -> None:
        if "continue;" in m.operator and continue_ends_loop_body(self.sources.text(m.file), m):
            m.outcome, m.log = "equivalent", "continue after the last statement of a loop body"
            return
        obj = job.objects.get(m.file)
        if obj is None:
            m.outcome, m.log = "uncompilable", "no object in compile_commands.json"
            return
        r = job.ninja([obj])
        if r.code:
            m.outcome, m.log = "uncompilable", r.out[-2000:]
            return
        if warned := compiler_warnings(r.out):
            m.outcome, m.log = "uncompilable", f"{CI_REFUSES}:\n{warned}"
            return
        if file_digest(job.build_dir / obj) == job.baseline_objects.get(obj):
            m.outcome = "equivalent"
            return
        if (p := self.planned(m)) is None:
            return
        targets = sorted({t for x in p.tests for t in LINK_TARGETS.get(job.test_binary[x], ())})
        if targets and (r := job.ninja(targets)).code:
            m.outcome, m.log = "uncompilable", r.out[-2000:]
            return
        if p.covered is False:
            # The map (fresh for this file) says no CTest test executes the line: running them
            # all would only confirm it (177 tests, 6 minutes for one mutant in the campaign).
            m.outcome, m.log = "not-covered", "no CTest test executes the line (coverage map)"
            m.tests = []
        else:
            self.ctest_verdict(m, job.ctest(p.tests, p.timeout, per_test=p.per_test), p)
            self.confirm_kill(job, m)
        if m.survived and self.binary_tests(m):
            if (r := job.ninja(["stk", "stk-harness", "stk-fault-inject"])).code:
                m.outcome, m.log = "uncompilable", r.out[-2000:]
                return
            self.second_stage(job, m, p, self.py_env(job))

    def second_stage(self, job: Job, m: Mutant, p: Plan, env: dict[str, str]) -> None:
        """A C++ survivor of CTest meets the pytest files that run its binary (binary_tests)."""
        bt = self.binary_tests(m)
        files = dict.fromkeys(t.split("::", 1)[0] for t in bt)  # a file's time bounds its tests'
        limit = 3 * sum(self.py_base.get(t, (True, 60.0))[1] for t in files) + 10
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *bt]
        ran = run(cmd, job.tree, env, limit)
        self._verdict(m, ran, Plan(bt, m.covered, limit))
        if m.outcome == "killed":
            self.record_kill(m, ran.out, pytest=True)
        m.tests = [*(p.tests if p.covered is not False else []), *bt]
        m.limit_s = p.timeout + limit
        self.confirm_kill(job, m, env)  # reads m.tests: the pytest tests it ran

    def _py(self, job: Job, m: Mutant) -> None:
        mutated = self.sources.mutated_text(m)
        try:
            compile(mutated, m.file, "exec")
        except SyntaxError as e:
            m.outcome, m.log = "uncompilable", str(e)
            return
        if py_equivalent(self.sources.text(m.file), mutated):
            m.outcome = "equivalent"
            return
        if (p := self.planned(m)) is None:
            return
        cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *p.tests]
        self._verdict(m, run(cmd, job.tree, self.py_env(job), p.timeout), p)

    def ctest_verdict(self, m: Mutant, r: Ran, p: Plan) -> None:
        """The verdict of a CTest run, its killers counted for the file."""
        self._verdict(m, r, p)
        if m.outcome in ("killed", "timeout"):
            self.record_kill(m, r.out)

    @staticmethod
    def _verdict(m: Mutant, r: Ran, p: Plan) -> None:
        m.log = r.out[-3000:]
        if r.timed_out:
            m.outcome = "timeout"
        elif r.code:
            m.outcome = "killed"
        else:
            m.outcome = "not-covered" if p.covered is False else "survived"


def build_targets(mutants: Iterable[Mutant], cov: CoverageMap) -> list[str]:
    """The targets a run needs built: those of the test binaries its C++ mutants may select, and
    the engine and harness that their second stage's pytest files run; everything for Python
    mutants (their tests also run the binaries)."""
    binaries: set[str] = set()
    for m in mutants:
        if m.lang == "py":
            return ["all"]
        binaries |= fallback_binaries(m.file, cov)
    targets = {t for b in binaries for t in LINK_TARGETS.get(b, ())}
    stage2 = {"stk", "stk-harness", "stk-fault-inject"} if binaries else set()
    return sorted(targets | stage2)


_CODE_ONLY = re.compile(r"""//.*$|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""")
_LOOP_HEADER = re.compile(r"^\s*(?:for|while)\b|\bdo\s*$")


_BRANCH_HEADER = re.compile(r"\b(?:if|else)\b")


def continue_ends_loop_body(text: str, m: Mutant) -> bool:
    """A `continue;` inserted where the loop continues anyway: the code after it closes the body
    of a `for`, `while` or `do`, or closes a branch of an if/else chain (its other branches
    skipped) or a plain `{}` scope after which the same holds, up to the loop. The mutant is
    then equivalent, although the object may differ in block layout (found surviving in a chart
    loop, then at the end of the printable branch of show_bytes' if/else, network.cpp).
    Braces inside string and character literals and `//` comments are not counted."""
    if "continue;" not in m.operator:
        return False
    lines = [_CODE_ONLY.sub("", line) for line in text.splitlines()]
    code = "\n".join(lines)
    pos = sum(len(line) + 1 for line in lines[: m.line])  # the start of the line after m.line
    for _ in range(64):  # one step a block closed on the way out
        close = _next_code(code, pos)
        if close is None or code[close] != "}":
            return False
        open_ = _matching(code, close, -1)
        if open_ is None:
            return False
        header = _header_of(code, open_)
        if _LOOP_HEADER.search(header):
            return True
        if _BRANCH_HEADER.search(header):
            after = _after_else_chain(code, close + 1)
            if after is None:
                return False
            pos = after
        elif not header.strip() or header.rstrip().endswith((";", "{", "}")):
            pos = close + 1  # a plain scope: falling out of it goes on after it
        else:
            return False  # a switch, a lambda, a function, a try: not known to reach the loop
    return False


def _next_code(code: str, pos: int) -> int | None:
    """The index of the first character at or after pos that is not white space."""
    found = re.compile(r"\S").search(code, pos)
    return found.start() if found else None


def _matching(code: str, at: int, step: int) -> int | None:
    """The index of the bracket matching the one at `at`, searching backward (step -1) from a
    closing one or forward (step 1) from an opening one."""
    pairs = {"}": "{", ")": "(", "{": "}", "(": ")"}
    mine, other = code[at], pairs[code[at]]
    depth, i = 0, at
    while 0 <= i < len(code):
        depth += (code[i] == mine) - (code[i] == other)
        if depth == 0:
            return i
        i += step
    return None


def _header_of(code: str, brace: int) -> str:
    """What precedes an opening brace on its line, or the code line above when it stands alone
    (the header of a block whose brace is on the next line)."""
    start = code.rfind("\n", 0, brace) + 1
    header = code[start:brace]
    if header.strip():
        return header
    return next((x for x in reversed(code[:start].splitlines()) if x.strip()), "")


def _after_else_chain(code: str, pos: int) -> int | None:
    """Where an if/else chain ends, from just after one branch's closing brace: each following
    `else {...}` or `else if (...) {...}` skipped; None for a branch without braces."""
    while True:
        at = _next_code(code, pos)
        if at is None or not re.match(r"else\b", code[at:]):
            return pos
        cond = re.match(r"else\s+if\s*\(", code[at:])
        after = _matching(code, at + cond.end() - 1, 1) if cond else at + len("else") - 1
        if after is None or (brace := _next_code(code, after + 1)) is None or code[brace] != "{":
            return None
        close = _matching(code, brace, 1)
        if close is None:
            return None
        pos = close + 1


def py_equivalent(original: str, mutated: str) -> bool:
    """Same syntax tree once the annotations Python never evaluates are dropped: every one in a
    module with `from __future__ import annotations`, and in any module a local variable's
    (`x: T = v` in a function body, PEP 526; a class body inside the function is evaluated, so
    not there). The Python twin of the C++ object comparison."""
    future = "from __future__ import annotations" in original

    class Strip(ast.NodeTransformer):
        in_function = False

        def visit_arg(self, node: ast.arg) -> ast.arg:
            if future:
                node.annotation = None
            return node

        def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
            if future:
                node.returns = None
            outer, self.in_function = self.in_function, True
            self.generic_visit(node)
            self.in_function = outer
            return node

        def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
            return self._function(node)

        def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
            return self._function(node)

        def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
            outer, self.in_function = self.in_function, False
            self.generic_visit(node)
            self.in_function = outer
            return node

        def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AnnAssign:
            if future or self.in_function:
                node.annotation = ast.Constant(None)
            self.generic_visit(node)
            return node

    def norm(src: str) -> str:
        return ast.dump(Strip().visit(ast.parse(src)))

    try:
        return norm(original) == norm(mutated)
    except SyntaxError:
        return False


# ---------------------------------------------------------------------------------------------
# Coverage refresh


def refresh_coverage(head: str, build_jobs: int, env: dict[str, str]) -> int:
    """A gcov build of HEAD (-O0 --coverage) in build/mutation/coverage; each CTest test alone
    under its own GCOV_PREFIX, build_jobs of them side by side; writes ci/mutation-coverage.json."""
    lock = lock_clone("coverage")
    if lock is None:
        raise SetupError("another coverage refresh is running (build/mutation/coverage.lock)")
    job = Job("coverage", head, build_jobs, env)
    job.prepare()
    bdir = job.tree / "build" / "coverage"
    # Configured every time: the flags below win over an older cache.
    r = run(
        [
            "cmake",
            "-S",
            str(job.tree),
            "-B",
            str(bdir),
            "-G",
            "Ninja",
            # Its own build type: -O0 --coverage and no -g (debug info is not needed).
            "-DCMAKE_BUILD_TYPE=Coverage",
            "-DCMAKE_CXX_FLAGS_COVERAGE=-O0 --coverage",
            "-DCMAKE_EXE_LINKER_FLAGS=--coverage",
            "-DCMAKE_SHARED_LINKER_FLAGS=--coverage",
            # One object per source: gcov then names every file's lines from its own .gcno.
            "-DSTK_UNITY=OFF",
        ],
        job.tree,
        env,
    )
    if r.code:
        raise SetupError(f"coverage configure failed:\n{r.out[-3000:]}")
    print(f"mutation: building the coverage build in {bdir} (ninja's progress follows)", flush=True)
    # Not captured: a first coverage build takes long enough to want its progress shown.
    if subprocess.run(["ninja", "-C", str(bdir), "-j", str(build_jobs)], env=env).returncode:
        raise SetupError("coverage build failed (ninja's output above)")
    r = run(["ctest", "--test-dir", str(bdir), "--show-only=json-v1"], job.tree)
    listed = json.loads(r.out)["tests"]
    tests = [(t["name"], Path((t.get("command") or ["?"])[0]).name) for t in listed]
    tests += [(PYTEST_PREFIX + f, PYTEST_BINARY) for f in binary_test_files(job.tree)]
    cov = CoverageMap(head, tests)
    # Each test's lines are kept as they come, so that a stopped refresh resumes where it was
    # (valid while the sources and tests are those it was made from).
    partial = bdir / "mutation-coverage.partial.json"
    key = " ".join(git(["rev-parse", f"{head}:{p}"], ROOT).strip() for p in PARTIAL_KEY)
    done: dict[str, dict[str, list[int]]] = {}
    if partial.exists():
        doc = json.loads(_text(partial))
        done = kept_from_partial(doc, key)
        cov.untrusted = set(doc.get("untrusted", [])) & set(done)
    for gcda in bdir.rglob("*.gcda"):  # counts left by a build-time run or an older refresh
        gcda.unlink()
    t0 = time.monotonic()
    lock = threading.Lock()
    finished = [0]

    def measure(name: str) -> None:
        status = "kept from the stopped refresh"
        if name not in done:
            nodes: dict[str, dict] = {}
            if name.startswith(PYTEST_PREFIX):
                file = name.removeprefix(PYTEST_PREFIX)
                lines, status, nodes = pytest_lines(bdir, job.tree, file, env)
            else:
                lines, status = test_lines(bdir, job.tree, name, env)
            if stop.is_set():  # killed under way: its counts are a part, not its lines
                return
            with lock:
                for node, by_file in nodes.items():
                    done[PYTEST_PREFIX + node] = {f: sorted(v) for f, v in by_file.items()}
                done[name] = {f: sorted(v) for f, v in lines.items()}
                if name.startswith(PYTEST_PREFIX) and (status != "ok" or not lines):
                    cov.untrusted.add(name)
                doc = {"key": key, "tests": done, "untrusted": sorted(cov.untrusted)}
                write_text_atomic(partial, json.dumps(doc, separators=(",", ":")))
        with lock:
            finished[0] += 1
            n = sum(len(v) for v in done[name].values())
            print(
                f"mutation: coverage [{finished[0]}/{len(tests)}] {status}, {n} lines: {name}",
                flush=True,
            )

    # CTest tests run side by side, each writing its counts under its own GCOV_PREFIX; the
    # pytest files one at a time (they share the clone's tree, as in CI).
    stop = stop_on_signals()
    ctest = [name for name, b in tests if b != PYTEST_BINARY]
    if not (
        measure_each(ctest, build_jobs, measure, stop)
        and measure_each([name for name, b in tests if b == PYTEST_BINARY], 1, measure, stop)
    ):
        print(
            f"mutation: refresh stopped: {len(done)} tests' lines kept in {partial}; the same "
            "command resumes from there",
            flush=True,
        )
        return 2
    # Each test of a pytest file that started a C++ process, after the files (test_node_names).
    measured = {name for name, _ in tests}
    tests += [(name, PYTEST_TEST_BINARY) for name in sorted(set(done) - measured)]
    cov.tests = tests
    for i, (name, _binary) in enumerate(tests):
        for path, covered in done[name].items():
            by_line = cov.lines.setdefault(path, {})
            for line in covered:
                by_line.setdefault(line, []).append(i)
    cov.write(COVERAGE_MAP)
    n_lines = sum(len(v) for v in cov.lines.values())
    print(
        f"mutation: wrote {COVERAGE_MAP.relative_to(ROOT)}: {len(tests)} tests, {n_lines} lines "
        f"of {len(cov.lines)} files, {(time.monotonic() - t0) / 60:.1f} min of tests"
    )
    return 0


def refresh_python_coverage(head: str, env: dict[str, str]) -> int:
    """coverage.py over every pytest file of HEAD in the coverage clone, each test under its own
    context (stkmutation.pytest_contexts); writes PY_COVERAGE_MAP. The tests that run binaries
    use the coverage build's when a C++ refresh made them (their counts go to a scratch
    prefix), else they skip as without binaries."""
    lock = lock_clone("coverage")
    if lock is None:
        raise SetupError("another coverage refresh is running (build/mutation/coverage.lock)")
    job = Job("coverage", head, 1, env)
    job.prepare()
    bdir = job.tree / "build" / "coverage"
    data = job.tree / "build" / "python-coverage.sqlite"
    failed = job.tree / "build" / "python-coverage-failed.txt"
    scratch = job.tree / "build" / "python-coverage-gcov"
    for old in (data, failed):
        old.unlink(missing_ok=True)
    shutil.rmtree(scratch, ignore_errors=True)
    pkg = job.tree / "harness" / "python"
    test_env = env | {
        "PYTHONPATH": os.pathsep.join([str(pkg), str(ROOT / "harness" / "python")]),
        "STK_TEST_TIME_SCALE": str(COVERAGE_TIME_SCALE),
        "GCOV_PREFIX": str(scratch),
        pytest_contexts.FAILED_VAR: str(failed),
    }
    for var, binary in (("STK_ENGINE", "engine/stk"), ("STK_HARNESS", "harness/stk-harness")):
        test_env.pop(var, None)
        if (bdir / binary).is_file():
            test_env[var] = str(bdir / binary)
    source = ",".join(str(pkg / p) for p in PY_PACKAGES)
    cmd = [sys.executable, "-m", "coverage", "run", f"--data-file={data}", f"--source={source}"]
    cmd += ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "stkmutation.pytest_contexts"]
    cmd += [PY_TESTS]
    print(f"mutation: coverage.py over {PY_TESTS} at {head[:10]} (pytest's progress follows)")
    t0 = time.monotonic()
    r = subprocess.run(cmd, cwd=job.tree, env=test_env)
    if not data.exists():
        raise SetupError(f"coverage.py wrote no data (pytest exit {r.returncode})")
    cov = python_map(data, job.tree, head, failed_pytest_tests(failed))
    cov.write(PY_COVERAGE_MAP)
    n_lines = sum(len(v) for v in cov.lines.values())
    print(
        f"mutation: wrote {PY_COVERAGE_MAP.relative_to(ROOT)}: {len(cov.tests)} tests, {n_lines}"
        f" lines of {len(cov.lines)} files, {len(cov.untrusted)} failed under coverage (their"
        f" files stay whole), {(time.monotonic() - t0) / 60:.1f} min"
    )
    return 0


def failed_pytest_tests(listed: Path) -> set[str]:
    """The tests pytest_contexts listed as failed (one `<file>::<test>` a line), as the map
    names them (`pytest:<file>::<test>`)."""
    if not listed.exists():
        return set()
    return {PYTEST_PREFIX + line for line in _text(listed).splitlines() if line}


def python_map(data: Path, tree: Path, head: str, untrusted: set[str]) -> CoverageMap:
    """The Python coverage map from coverage.py's data (contexts named by pytest_contexts):
    per line of each measured file under `tree`, the tests that ran it, and OUTSIDE_TESTS for a
    line run outside any test. Every failed test is `untrusted`, whether or not it ran a line
    (its file is never narrowed)."""
    from coverage import CoverageData

    found = CoverageData(basename=str(data))
    found.read()
    index: dict[str, int] = {}
    tests: list[tuple[str, str]] = []

    def test_id(context: str) -> int:
        name = PYTEST_PREFIX + context if context else OUTSIDE_TESTS
        if name not in index:
            index[name] = len(tests)
            tests.append((name, PYTEST_TEST_BINARY if context else "import"))
        return index[name]

    lines: dict[str, dict[int, list[int]]] = {}
    for measured in sorted(found.measured_files()):
        path = Path(measured).resolve()
        if not path.is_relative_to(tree.resolve()):
            continue
        rel = str(path.relative_to(tree.resolve()))
        by_line = found.contexts_by_lineno(measured)
        lines[rel] = {ln: sorted({test_id(c) for c in ctx}) for ln, ctx in sorted(by_line.items())}
    return CoverageMap(head, tests, lines, untrusted=set(untrusted))


def kept_from_partial(doc: dict[str, Any], key: str) -> dict[str, dict[str, list[int]]]:
    """What a stopped refresh measured that still holds: all of it when nothing of PARTIAL_KEY
    changed since; only the CTest tests' lines when only harness/python did (no CTest test runs
    Python, while a pytest file's lines depend on it: a fix to the mutation tool between two
    sittings keeps the hour of CTest runs); nothing otherwise."""
    tests = doc.get("tests", {})
    if doc.get("key") == key:
        return dict(tests)
    old, new = str(doc.get("key", "")).split(), key.split()
    py = PARTIAL_KEY.index("harness/python")
    if len(old) != len(PARTIAL_KEY) or len(new) != len(PARTIAL_KEY):
        return {}
    if old[:py] + old[py + 1 :] != new[:py] + new[py + 1 :]:
        return {}
    return {name: lines for name, lines in tests.items() if not name.startswith(PYTEST_PREFIX)}


def measure_each(
    names: Sequence[str], jobs: int, measure: Callable[[str], None], stop: threading.Event
) -> bool:
    """measure(name) for each name, `jobs` side by side, none started once `stop` is set (a
    signal: the pool would otherwise start every test left before the process could end, as
    a refresh did for minutes after SIGTERM). True when none was left out."""

    def one(name: str) -> None:
        if not stop.is_set():
            measure(name)

    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        list(ex.map(one, names))
    return not stop.is_set()


def test_lines(bdir: Path, tree: Path, name: str, env: dict[str, str]) -> tuple[dict, str]:
    """Runs one CTest test with its counts written under a fresh GCOV_PREFIX (so that tests
    can run side by side); its executed lines and a status word."""
    cmd = ["ctest", "--test-dir", str(bdir), "-R", ctest_regex([name])]
    return counted_lines(bdir, tree, name, cmd, env, 1800)


def counted_lines(
    bdir: Path,
    tree: Path,
    key: str,
    cmd: list[str],
    env: dict[str, str],
    limit: float,
    nodes_root: Path | None = None,
) -> tuple[dict, str]:
    """Runs `cmd` under a fresh GCOV_PREFIX (the binaries it starts inherit it): the C++ lines
    they executed, and "ok" when it passed, else why not. The counts under each folder of
    nodes_root (each test's own prefix, pytest_gcov) count too: gcov reads them merged."""
    prefix = bdir / "gcov-prefix" / hashlib.sha1(key.encode()).hexdigest()[:12]
    shutil.rmtree(prefix, ignore_errors=True)
    prefix.mkdir(parents=True)
    r = run(cmd, tree, env | {"GCOV_PREFIX": str(prefix), "GCOV_PREFIX_STRIP": "0"}, limit)
    status = "ok" if r.code == 0 else ("TIMEOUT" if r.timed_out else f"exit {r.code}")
    try:
        unreadable: dict[str, set[int]] = {}
        if nodes_root is not None:
            nodes = sorted(p for p in nodes_root.iterdir() if p.is_dir())
            unreadable = merge_counts(prefix, nodes, tree)
        lines = gcov_lines(prefix, tree)
        for path, more in unreadable.items():
            lines.setdefault(path, set()).update(more)
        return lines, status
    finally:
        shutil.rmtree(prefix, ignore_errors=True)


def merge_counts(into: Path, prefixes: Sequence[Path], tree: Path) -> dict[str, set[int]]:
    """Adds the counts under each of prefixes to those under `into`, object by object, as
    `gcov-tool merge` would (gcov_records.merged: the sum of runs' counters is what one process
    running them all would have written), so that one gcov run reads the lines of many tests
    exactly. Only the objects where a function of ours ran are merged (the others add no line;
    gcov-tool, rewriting every object of both folders, went at 1.4 merges a second). Counts
    that cannot be read are not merged: their objects' lines are returned, to count as run."""
    unreadable: dict[str, set[int]] = {}
    sums: dict[Path, gcov_records.Gcda] = {}
    for prefix in prefixes:
        for gcda, gcno in counted_objects(prefix):
            data = gcda.read_bytes()
            if not gcno.exists() or not reaches_tree(gcda, gcno, data, tree):
                continue
            if damaged(gcno, data):
                for path, lines in object_lines(gcno, tree).items():
                    unreadable.setdefault(path, set()).update(lines)
                continue
            rel = gcda.relative_to(prefix)
            if rel not in sums and (into / rel).is_file():  # what ran outside any test
                try:
                    sums[rel] = gcov_records.read_gcda((into / rel).read_bytes(), str(into / rel))
                except gcov_records.GcovFormatError as e:
                    print(f"mutation: {e}: counted as every function of its object run", flush=True)
                    for path, lines in object_lines(gcno, tree).items():
                        unreadable.setdefault(path, set()).update(lines)
            counts = gcov_records.read_gcda(data, str(gcda))
            found = [counts] if rel not in sums else [sums[rel], counts]
            sums[rel] = gcov_records.merged(found, str(gcda))
    for rel, total in sums.items():
        (into / rel).parent.mkdir(parents=True, exist_ok=True)
        (into / rel).write_bytes(gcov_records.gcda_bytes(total))
    return unreadable


def files_reading_binaries(tree: Path, names: Iterable[str]) -> dict[Path, str]:
    """The pytest files of `tree` (sorted) that read one of the variables `names` in their code,
    or use a helper beside them that does (binary_readers.files_reading: a variable named in a
    string or set for a child is no binary this file runs), with their text."""
    return binary_readers.files_reading(tree / PY_TESTS, names, _text)


def binary_test_files(tree: Path) -> list[str]:
    """Every pytest file that runs a binary of the project (it reads STK_ENGINE or STK_HARNESS),
    as repository paths: the files a coverage refresh measures."""
    names = {n for ns in BINARY_VARS.values() for n in ns}
    return [str(f.relative_to(tree)) for f in files_reading_binaries(tree, names)]


# How much slower the coverage build (-O0 --coverage) may be than the release build, for the
# tests' bounds on time (tests/hostile.py reads it; CMake gives the sanitizer builds the same).
COVERAGE_TIME_SCALE = 10


def pytest_lines(
    bdir: Path, tree: Path, file: str, env: dict[str, str]
) -> tuple[dict, str, dict[str, dict]]:
    """Runs one pytest file against the coverage build's binaries, each test under its own
    GCOV_PREFIX (stkmutation.pytest_gcov): the C++ lines the file's processes executed, a status
    word ("ok" when the file passed), and each test's own lines by its name (`<file>::<test>`,
    what pytest takes on its command line from the repository's root). The file's lines are
    those gcov counts run, in and outside its tests; a test's are those of the blocks it ran
    (block_lines_by_prefix: gcov on each test's counts was too slow)."""
    nodes_root = bdir / "gcov-nodes" / hashlib.sha1(file.encode()).hexdigest()[:12]
    shutil.rmtree(nodes_root, ignore_errors=True)
    nodes_root.mkdir(parents=True)
    test_env = env | {
        # The tree's packages, then this tool's own (where the plugin is when the tree has none).
        "PYTHONPATH": os.pathsep.join(
            [str(tree / "harness" / "python"), str(ROOT / "harness" / "python")]
        ),
        "STK_ENGINE": str(bdir / "engine" / "stk"),
        "STK_HARNESS": str(bdir / "harness" / "stk-harness"),
        # -O0 binaries: the fault matrix's bounds on time, met at -O2, are not met here.
        "STK_TEST_TIME_SCALE": str(COVERAGE_TIME_SCALE),
        pytest_gcov.NODES_VAR: str(nodes_root),
    }
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    cmd += ["-p", "stkmutation.pytest_gcov", file]
    try:
        lines, status = counted_lines(bdir, tree, file, cmd, test_env, 3600, nodes_root)
        nodes = node_lines(nodes_root, tree, file)
    finally:
        shutil.rmtree(nodes_root, ignore_errors=True)
    return lines, status, within(nodes, lines)


def within(nodes: dict[str, dict], lines: dict[str, set[int]]) -> dict[str, dict]:
    """Each test's lines less those no test of the file ran (a function's lines hold branches
    nobody took): what the test may have run, never more than its file ran."""
    out: dict[str, dict] = {}
    for name, by_file in nodes.items():
        kept = {p: ls & lines.get(p, set()) for p, ls in by_file.items()}
        if kept := {p: ls for p, ls in kept.items() if ls}:
            out[name] = kept
    return out


def node_lines(nodes_root: Path, tree: Path, file: str) -> dict[str, dict]:
    """The lines of the blocks each test ran (pytest_gcov's folders under nodes_root), by
    `<file>::<test>`; tests that started no C++ process are left out."""
    prefixes = sorted(p for p in nodes_root.iterdir() if p.is_dir())
    out: dict[str, dict] = {}
    for prefix, lines in block_lines_by_prefix(prefixes, tree).items():
        nodeid = (prefix / pytest_gcov.NODE_ID_FILE).read_text()
        if lines:
            out[f"{file}::{nodeid.split('::', 1)[1]}"] = lines
    return out


GCOV_CHUNK = 400  # .gcda files one gcov run reads (its command line stays short)


def gcov_lines(prefix: Path, tree: Path) -> dict[str, set[int]]:
    """Executed lines of engine/src and harness/src files, from every .gcda under prefix (a
    GCOV_PREFIX: the object directory's absolute path below it); gcov finds each .gcno through
    a link beside its .gcda."""
    return gcov_lines_by_prefix([prefix], tree)[prefix]


# (tree, object's .gcno and its time, SHA-1 of a .gcda) -> the lines that .gcda counts as run. Of
# the ~150 objects a test's process writes counts for, most it never reached: their .gcda are the
# same bytes test after test, and gcov (33 ms a .gcda) reads each such content once a refresh.
_GCOV_READ: dict[tuple[str, str, int, str], dict[str, set[int]]] = {}


def counted_objects(prefix: Path) -> Iterator[tuple[Path, Path]]:
    """Each .gcda under prefix (a GCOV_PREFIX: the object directory's absolute path below it, or
    the object directory itself) with its object's .gcno, less the objects of tests and fuzz
    targets (a `tests` or `fuzz` folder on the way): the map keeps no line of theirs, and
    reading them was most of a refresh's time."""
    for gcda in prefix.rglob("*.gcda"):
        if {"tests", "fuzz"} & set(gcda.relative_to(prefix).parts):
            continue
        object_dir = Path("/") / gcda.parent.relative_to(prefix)
        gcno = object_dir / (gcda.name.removesuffix(".gcda") + ".gcno")
        if not gcno.exists():  # counts beside their object (no GCOV_PREFIX)
            gcno = gcda.with_suffix(".gcno")
        yield gcda, gcno


def gcov_lines_by_prefix(prefixes: Sequence[Path], tree: Path) -> dict[Path, dict[str, set[int]]]:
    """gcov_lines of each prefix, each distinct .gcda content read once (_GCOV_READ), by as few
    gcov runs as the command line allows: gcov's JSON names each document's .gcda
    (`data_file`), so one run reads the counts of many prefixes. A .gcda in which no function
    with a line of engine/src or harness/src ran is not given to gcov: of the ~150 objects a
    test's process writes counts for, it reaches few (28 of 172 for a perft run), and gcov took
    33 to 144 ms a .gcda."""
    owners: dict[tuple[str, str, int, str], list[Path]] = {}
    unread: dict[str, tuple[str, str, int, str]] = {}  # a .gcda to read -> its content's key
    pending: set[tuple[str, str, int, str]] = set()
    extra: dict[Path, dict[str, set[int]]] = {}  # lines of counts gcov cannot read
    for prefix in prefixes:
        for gcda, gcno in counted_objects(prefix):
            data = gcda.read_bytes()
            if gcno.exists() and not reaches_tree(gcda, gcno, data, tree):
                continue  # none of its functions with a line of ours ran: gcov shows none
            if gcno.exists() and damaged(gcno, data):  # gcov cannot read it: the superset
                for path, lines in object_lines(gcno, tree).items():
                    extra.setdefault(prefix, {}).setdefault(path, set()).update(lines)
                continue
            link = gcda.parent / gcno.name  # gcov finds the .gcno beside the .gcda it reads
            if gcno.exists() and not link.exists():
                link.symlink_to(gcno)
            stamp = gcno.stat().st_mtime_ns if gcno.exists() else 0
            key = (str(tree), str(gcno), stamp, hashlib.sha1(data).hexdigest())
            owners.setdefault(key, []).append(prefix)
            if key not in _GCOV_READ and key not in pending:
                unread[os.path.abspath(gcda)] = key
                pending.add(key)
    data = sorted(unread)
    for i in range(0, len(data), GCOV_CHUNK):
        r = run(["gcov", "--json-format", "--stdout", *data[i : i + GCOV_CHUNK]], tree)
        if STOPPING.is_set():  # gcov killed under way, its output cut: the caller keeps nothing
            return {p: {} for p in prefixes}
        for raw in r.out.splitlines():
            if raw.startswith("{"):
                doc = json.loads(raw)
                if (key := unread.get(os.path.abspath(doc.get("data_file", "")))) is not None:
                    add_executed_lines(doc, tree, _GCOV_READ.setdefault(key, {}))
    out: dict[Path, dict[str, set[int]]] = {p: {} for p in prefixes}
    for key, found in owners.items():
        for prefix in found:
            for path, lines in _GCOV_READ.get(key, {}).items():
                out[prefix].setdefault(path, set()).update(lines)
    for prefix, by_file in extra.items():
        for path, lines in by_file.items():
            out[prefix].setdefault(path, set()).update(lines)
    return out


# (.gcno path, its time) -> its functions' lines as repository paths of engine/src and
# harness/src, by ident; read once a refresh (the largest .gcno are megabytes of templates).
_FUNCTION_LINES: dict[tuple[str, int], dict[int, dict[str, frozenset[int]]]] = {}


# (.gcno path, its time) -> its working directory and functions, graphs included.
_GCNO: dict[tuple[str, int], tuple[str, dict[int, gcov_records.FunctionLines]]] = {}


def read_gcno(gcno: Path) -> tuple[str, dict[int, gcov_records.FunctionLines]]:
    key = (str(gcno), gcno.stat().st_mtime_ns)
    if key not in _GCNO:
        _GCNO[key] = gcov_records.read_function_lines(gcno)
    return _GCNO[key]


def object_function_lines(gcno: Path, tree: Path) -> dict[int, dict[str, frozenset[int]]]:
    key = (str(gcno), gcno.stat().st_mtime_ns)
    if key not in _FUNCTION_LINES:
        cwd, functions = read_gcno(gcno)
        kept: dict[int, dict[str, frozenset[int]]] = {}
        # Each header's path resolved once an object (its functions name a few files each:
        # resolving them function by function was 30 s of a fault-matrix sample's 78).
        rels: dict[str, str | None] = {}
        for ident, fn in functions.items():
            if fn.artificial:  # gcov counts no line of theirs: nor may a test
                continue
            for source, lines in fn.lines.items():
                if source not in rels:
                    rels[source] = tree_source(Path(cwd), source, tree)
                if (rel := rels[source]) is not None:
                    kept.setdefault(ident, {})[rel] = frozenset(lines)
        _FUNCTION_LINES[key] = kept
    return _FUNCTION_LINES[key]


def function_lines_by_prefix(
    prefixes: Sequence[Path], tree: Path
) -> dict[Path, dict[str, set[int]]]:
    """Of each prefix, the lines of engine/src and harness/src files that belong to a function
    its counts show run (gcov_records): every line of such a function, run or not. A superset
    of gcov_lines (a test may skip a branch of a function it entered) read without gcov: what
    narrows the second stage to the tests of a file, where a superset only runs a test more."""
    out: dict[Path, dict[str, set[int]]] = {p: {} for p in prefixes}
    for prefix in prefixes:
        for gcda, gcno in counted_objects(prefix):
            if not gcno.exists():
                continue
            functions = object_function_lines(gcno, tree)
            for ident in functions_run(gcda, gcno, gcda.read_bytes(), tree):
                for path, lines in functions.get(ident, {}).items():
                    out[prefix].setdefault(path, set()).update(lines)
    return out


def block_lines_by_prefix(prefixes: Sequence[Path], tree: Path) -> dict[Path, dict[str, set[int]]]:
    """Of each prefix, the lines of engine/src and harness/src files of the blocks that ran,
    read without gcov: each function that ran has its blocks' counts solved from its counted
    arcs (gcov_records.executed_blocks). A superset of gcov's lines (gcov counts a line run
    only where a block listing it ran, and leaves some of those out: the first line of a
    lambda whose construction ran and whose body did not) and a subset of the lines of the
    functions that ran. Counts that cannot be read count as every line of their object."""
    out: dict[Path, dict[str, set[int]]] = {p: {} for p in prefixes}
    for prefix in prefixes:
        for gcda, gcno in counted_objects(prefix):
            if not gcno.exists():
                continue
            data = gcda.read_bytes()
            if not reaches_tree(gcda, gcno, data, tree):
                continue
            if damaged(gcno, data):
                lines = object_lines(gcno, tree)
            else:
                lines = block_lines_run(gcda, gcno, data, tree)
            for path, more in lines.items():
                out[prefix].setdefault(path, set()).update(more)
    return out


# (.gcno path, SHA-1 of a .gcda's bytes) -> the lines of ours its solved counts ran.
_BLOCK_LINES_RUN: dict[tuple[str, bytes], dict[str, set[int]]] = {}


def block_lines_run(gcda: Path, gcno: Path, data: bytes, tree: Path) -> dict[str, set[int]]:
    key = (str(gcno), hashlib.sha1(data).digest())
    if key in _BLOCK_LINES_RUN:
        return _BLOCK_LINES_RUN[key]
    cwd, functions = read_gcno(gcno)
    rels: dict[str, str | None] = {}
    found: dict[str, set[int]] = {}
    try:
        counts = gcov_records.read_gcda(data, str(gcda))
        at = 0
        for words, n in zip(counts.words, counts.arc_counts, strict=True):
            own, at = counts.counters[at : at + n], at + n
            fn = functions.get(words[0]) if words is not None else None
            if fn is None or fn.artificial or (n and not own.any()):
                continue  # not ours, made by the compiler, or not run
            # No counter: whether it ran cannot be told (executed_functions): all of it.
            blocks = (
                gcov_records.executed_blocks(fn, own.tolist(), str(gcda)) if n else range(fn.blocks)
            )
            for b in blocks:
                for source, lines in fn.block_lines.get(b, {}).items():
                    if source not in rels:
                        rels[source] = tree_source(Path(cwd), source, tree)
                    if (rel := rels[source]) is not None:
                        found.setdefault(rel, set()).update(lines)
    except gcov_records.GcovFormatError as e:
        print(f"mutation: {e}: counted as every function of its object run", flush=True)
        found = object_lines(gcno, tree)
    _BLOCK_LINES_RUN[key] = found
    return found


# (.gcno path, SHA-1 of a .gcda's bytes) -> the idents of the functions that .gcda counts as run.
_FUNCTIONS_RUN: dict[tuple[str, bytes], frozenset[int]] = {}
# The same keys, of the .gcda that could not be read (cut short: see functions_run).
_DAMAGED: set[tuple[str, bytes]] = set()


def functions_run(gcda: Path, gcno: Path, data: bytes, tree: Path) -> frozenset[int]:
    """The functions the .gcda (its bytes `data`) counts as run, each distinct content read
    once. Counts of another build of the object than its .gcno's are an error: the idents
    would name other functions. Counts that cannot be read (a process killed while libgcov
    wrote them: the fault matrix kills tools mid-run) count as every function of the object
    with a line of ours run: a superset, said once."""
    key = (str(gcno), hashlib.sha1(data).digest())
    if key not in _FUNCTIONS_RUN:
        try:
            if gcov_records.stamp(data, str(gcda)) != gcov_records.read_stamp(gcno):
                raise SetupError(f"{gcda}: stamp mismatch with {gcno}: counts of another build")
            _FUNCTIONS_RUN[key] = gcov_records.executed_functions(data, str(gcda))
        except gcov_records.GcovFormatError as e:
            print(f"mutation: {e}: counted as every function of its object run", flush=True)
            _DAMAGED.add(key)
            _FUNCTIONS_RUN[key] = frozenset(object_function_lines(gcno, tree))
    return _FUNCTIONS_RUN[key]


def damaged(gcno: Path, data: bytes) -> bool:
    """Whether functions_run found these counts unreadable (gcov and gcov-tool refuse them)."""
    return (str(gcno), hashlib.sha1(data).digest()) in _DAMAGED


def object_lines(gcno: Path, tree: Path) -> dict[str, set[int]]:
    """Every line of ours of the object's functions: what counts that cannot be read stand for."""
    out: dict[str, set[int]] = {}
    for by_file in object_function_lines(gcno, tree).values():
        for path, lines in by_file.items():
            out.setdefault(path, set()).update(lines)
    return out


def reaches_tree(gcda: Path, gcno: Path, data: bytes, tree: Path) -> bool:
    """Whether a function with a line of engine/src or harness/src ran: gcov shows a line
    run only inside a function one of whose counters is nonzero (docs/mutation.md, "Reading a
    test's counts"), and none of a function the compiler made."""
    functions = object_function_lines(gcno, tree)
    return any(ident in functions for ident in functions_run(gcda, gcno, data, tree))


def tree_source(cwd: Path, source: str, tree: Path) -> str | None:
    """A source path as gcov names it (absolute, or relative to the build's working directory)
    as a repository path of engine/src or harness/src, or None for any other file."""
    src = (cwd / source).resolve()
    if not src.is_relative_to(tree):
        return None
    rel = str(src.relative_to(tree))
    return rel if rel.startswith(("engine/src/", "harness/src/")) else None


def add_executed_lines(doc: dict[str, Any], tree: Path, out: dict[str, set[int]]) -> None:
    """The lines of engine/src and harness/src that one gcov JSON document counts as run."""
    cwd = Path(doc.get("current_working_directory", "/"))
    for f in doc.get("files", []):
        if (rel := tree_source(cwd, f["file"], tree)) is None:
            continue
        hit = {ln["line_number"] for ln in f["lines"] if ln["count"] > 0}
        if hit:
            out.setdefault(rel, set()).update(hit)


# ---------------------------------------------------------------------------------------------
# Rerunning the survivors of earlier reports


STOPPED = "not run: the run was stopped (SIGTERM or SIGINT)"


def stop_on_signals() -> threading.Event:
    """SIGTERM and SIGINT stop the run at once: the builds and tests under way are killed (their
    mutants, and every one not started, reported as not run: a resumed run runs them), the
    sources restored and the report written (exit 2). A second signal is not caught."""
    stop = threading.Event()
    STOPPING.clear()

    def handler(signum: int, _frame: Any) -> None:
        print(
            f"mutation: {signal.Signals(signum).name}: stopping the mutants under way", flush=True
        )
        stop.set()
        kill_runs_under_way()
        signal.signal(signum, signal.SIG_DFL)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, handler)
    return stop


def survivors_of(
    reports: Sequence[str | os.PathLike[str]], triage: Sequence[TriageEntry] = ()
) -> dict[str, dict[str, str]]:
    """The untriaged survivors (survived, not-covered) of mutation reports, less those the
    triage file accepts now: file -> {text key: id}. Matched by text, not id, so that a mutant
    whose line moved (an edit above it) is still found. A report that cannot be read, or is not
    a mutation report, is a SetupError naming it."""
    accepted = triage_index(triage)
    out: dict[str, dict[str, str]] = {}
    for name in reports:
        try:
            doc = json.loads(inputs.read_input_text(name))
            records = doc["mutants"]
            for r in records:
                key = (r["file"], r["operator"], (r.get("original") or "").strip())
                alive = r["outcome"] in mutants_report.SURVIVED and not r.get("triaged")
                if alive and key not in accepted:
                    out.setdefault(r["file"], {})[mutants_report.text_key(r)] = r["id"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise SetupError(f"{name}: not a mutation report ({type(e).__name__}: {e})") from e
    return out


def rerun_selection(mutants: list[Mutant], wanted: dict[str, dict[str, str]]) -> list[Mutant]:
    """The mutants of HEAD with the text keys wanted; one HEAD no longer makes (its line was
    changed, typically by the fix) is printed as gone: it cannot survive any more."""
    keys = {mutants_report.text_key(m.to_json()) for m in mutants}
    for want in wanted.values():
        for key, ident in sorted(want.items()):
            if key not in keys:
                print(f"mutation: {ident} is gone (HEAD no longer makes its line)")
    return [m for m in mutants if mutants_report.text_key(m.to_json()) in wanted.get(m.file, {})]


# ---------------------------------------------------------------------------------------------
# Reports


def write_reports(
    mutants: list[Mutant], config: str, out_dir: Path, meta: dict[str, Any]
) -> tuple[str, dict[str, dict[str, Any]]]:
    """reports/mutation/<config>.{json,md} and JUnit, in the format check-mutants shares."""
    records = [m.to_json() for m in mutants]
    rows = mutants_report.tally(records)
    headline = (
        f"HEAD {meta['head'][:10]}; {len(mutants)} mutants; {meta['seconds'] / 60:.1f} min with "
        f"{meta['jobs']} job(s){slots_note(meta)}; {meta['mutants_per_hour']:.0f} mutants/hour"
        f" ({meta['run_per_hour']:.0f} run mutants/hour); score"
        f" {mutants_report.fmt_score(rows.get('total', {}).get('score'))}."
    )
    return mutants_report.write_reports(
        "mutation",
        config,
        out_dir,
        records,
        meta,
        f"Mutation testing ({config})",
        headline,
        time_spent(records, meta),
    )


def slots_note(meta: dict[str, Any]) -> str:
    """The page's ", S schema slots" where the run did not run J schema mutants side by side."""
    slots, jobs = meta.get("slots"), meta.get("jobs")
    return f", {slots} schema slots" if slots and slots != jobs else ""


def time_spent(records: Sequence[dict[str, Any]], meta: dict[str, Any]) -> list[str]:
    """Where a run's time went: the phases before the mutants, the schema build and the
    baseline, then the mutants by what decided them (a C++ mutant's verdict from CTest alone or
    from the second stage's pytest files, one given without running a test, a Python mutant's
    pytest files). The throughput figure of mutation.md is read from it."""
    parts: dict[str, list[float]] = {}
    for r in records:
        if r["outcome"] == "skipped":
            continue
        if r["outcome"] in ("equivalent", "uncompilable") or not r.get("tests"):
            part = "no test run (equivalent, uncompilable, not covered by the map)"
        elif not r["file"].endswith(".py"):
            stage2 = any(file_of(t).endswith(".py") for t in r["tests"])  # files or node ids
            part = "C++: second stage (pytest files)" if stage2 else "C++: CTest alone"
        else:
            part = "Python: pytest files"
        parts.setdefault(part, []).append(float(r.get("seconds", 0.0)))
    schema = meta.get("schema") or {}
    fixed = [
        ("before the mutants (candidates, draw, clones)", sum(meta.get("phases", {}).values())),
        ("schema build", schema.get("build_seconds", 0.0)),
        ("baseline (the selected tests unmutated)", schema.get("baseline_seconds", 0.0)),
    ]
    lines = [
        "## Where the time went",
        "",
        "| part | mutants | seconds | mean s a mutant |",
        "|---|---:|---:|---:|",
    ]
    lines += [f"| {name} | - | {secs:.0f} | - |" for name, secs in fixed]
    for name in sorted(parts):
        ts = parts[name]
        lines.append(f"| {name} | {len(ts)} | {sum(ts):.0f} | {sum(ts) / len(ts):.1f} |")
    jobs = max(int(meta.get("jobs", 1)), 1)
    lines += [
        "",
        f"Mutant seconds add up across the {jobs} job(s){slots_note(meta)}; the run's wall time"
        " is above.",
    ]
    return lines


def under_fail_under(total: dict[str, Any], pct: float | None) -> bool:
    """--fail-under: whether the total score, exact ((killed + timeout) / scored, not the report's
    figure rounded to 0.1), is below PCT (the decimal as written). No scored mutant: never."""
    if pct is None:
        return False
    dead = total["killed"] + total["timeout"]
    scored = dead + total["survived"] + total["not-covered"] - total["triaged"]
    return scored > 0 and 100 * dead < Fraction(repr(pct)) * scored


# ---------------------------------------------------------------------------------------------
# Main


HEAD_SEED = "head"


def sample_seed(text: str) -> int | str:
    """--seed: 'head', or a seed number (stkref.options.seed's rules)."""
    return HEAD_SEED if text == HEAD_SEED else options.seed(text)


def seed_of_commit(commit: str) -> int:
    """The sample seed a commit gives: its hash's first 12 hex digits (48 bits), so the draw
    follows from the commit measured and no one can pick a favourable sample."""
    return int(commit[:12], 16)


def default_config(a: argparse.Namespace) -> str:
    if a.config:
        return re.sub(r"[^A-Za-z0-9_.-]", "_", a.config)
    if a.diff:
        name = "diff"
    elif a.rerun:
        name = "rerun-" + "-".join(Path(r).stem for r in a.rerun)
    elif a.sample or a.per_module:
        name = "-".join(
            [f"sample-{a.sample}"] * bool(a.sample)
            + [f"per-module-{a.per_module}"] * bool(a.per_module)
        )
        # the seed as given ('head' stays 'head'): the name is fixed before HEAD is read
        name += f"-seed-{a.seed}"
    else:
        name = "all"
    if a.files:
        name += "-files" + hashlib.sha1("\0".join(a.files).encode()).hexdigest()[:6]
    if a.shard != "1/1":
        k, n = parse_shard(a.shard)
        name += f"-shard{k}of{n}"
    return name


def report_paths(a: argparse.Namespace) -> list[tuple[Path, str]]:
    """The JUnit report a run owes (none for --list and --refresh-coverage, which write none)."""
    if a.list or a.refresh_coverage or a.refresh_python_coverage:
        return []
    return [junit_in(a.out_dir, "mutation", default_config(a))]


def output_paths(a: argparse.Namespace) -> list[Output]:
    if a.list or a.refresh_coverage or a.refresh_python_coverage:
        return []
    return mutants_report.outputs_of("mutation", default_config(a), a.out_dir)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    ap = ToolParser(
        prog="ci/mutation.sh",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        reports=report_paths,
        outputs=output_paths,
    )
    ap.add_argument(
        "--files",
        action="append",
        default=[],
        metavar="GLOB",
        help="files to mutate (repeatable; ** any folders); default: " + ", ".join(DEFAULT_GLOBS),
    )
    ap.add_argument(
        "--sample",
        type=options.count,
        default=0,
        metavar="N",
        help="N mutants in all, spread evenly over the modules (default: every mutant)",
    )
    ap.add_argument(
        "--per-module",
        type=options.count,
        default=0,
        metavar="M",
        help="at most M mutants of each module (with or without --sample)",
    )
    ap.add_argument(
        "--seed",
        type=sample_seed,
        default=HEAD_SEED,
        metavar="S",
        help="seed of --sample and --per-module: a number, or 'head' (the default): derived from"
        " the HEAD commit's hash, so a sample is fresh on every commit and nobody chooses it",
    )
    ap.add_argument(
        "--commit",
        default="HEAD",
        metavar="REV",
        help="measure this commit instead of HEAD (its sources, tests and seed): a campaign on"
        " one commit goes on over sessions while the work tree moves on (docs/mutation.md,"
        " Campaigns)",
    )
    ap.add_argument("--shard", default="1/1", metavar="K/N", help="every N-th mutant from the K-th")
    ap.add_argument(
        "--no-schema",
        action="store_true",
        help="build every C++ mutant alone (default: one schema build holds those it can,"
        " docs/mutation.md, Schemata)",
    )
    ap.add_argument(
        "--jobs", type=options.jobs, default=1, metavar="J", help="scratch clones in parallel"
    )
    ap.add_argument(
        "--slots",
        type=options.jobs,
        default=0,
        metavar="S",
        help="mutants whose tests run side by side on the one schema build (default: J; the"
        " tests mostly wait on their subprocesses, docs/mutation.md, What it costs)",
    )
    ap.add_argument(
        "--diff",
        default="",
        metavar="BASE",
        help="only mutants on lines changed since git revision BASE (to HEAD)",
    )
    ap.add_argument(
        "--rerun",
        action="append",
        type=inputs.input_file(),
        default=[],
        metavar="REPORT",
        help="only the untriaged survivors of this mutation report (JSON; repeatable)",
    )
    ap.add_argument(
        "--resume",
        type=inputs.input_file(),
        metavar="REPORT",
        help="go on with a stopped run: the same options on the same HEAD draw the same mutants;"
        " those REPORT has a verdict for keep it, the rest run (docs/mutation.md, Campaigns)",
    )
    ap.add_argument("--config", default="", help="report name (default from the options)")
    ap.add_argument("--out-dir", default=str(ROOT / "reports"))
    ap.add_argument(
        "--fail-under",
        type=options.percent,
        default=None,
        metavar="PCT",
        help="exit 1 when the total score is below PCT, 0 to 100 (default: never)",
    )
    ap.add_argument("--list", action="store_true", help="generate and print the mutants only")
    ap.add_argument(
        "--refresh-coverage",
        action="store_true",
        help="rebuild ci/mutation-coverage.json (gcov build; runs each test alone)",
    )
    ap.add_argument(
        "--refresh-python-coverage",
        action="store_true",
        help="rebuild ci/mutation-coverage-python.json (coverage.py, each test its own context)",
    )
    a = ap.parse_args(argv)
    a.argv = list(sys.argv[1:] if argv is None else argv)
    if a.rerun and (a.sample or a.per_module or a.diff):
        raise SetupError(
            "--rerun takes its mutants from the reports: no --sample, --per-module, --diff"
        )
    parse_shard(a.shard)
    if a.diff:  # a revision, never an option to git (changed_lines diffs the commit it names)
        commit_of(a.diff, "--diff", ROOT)
    return a


def write_text_atomic(path: Path, text: str) -> None:
    """stkref's one checked writer (temporary file, fsync, rename): a reader sees the old file
    or the new one, never a torn one."""
    from stkref.report import write_text_atomic as write

    write(path, text)


# What holds a run's C++ mutants in one build (schema_run.SchemaRun, which builds on this module;
# the entry point passes it in): (runner, job, sources, syntax) -> an object with prepare,
# run_all, restore and fallback.
SchemaFactory = Callable[["Runner", "Job", "Sources", "SyntaxCheck"], Any]


def main(argv: Sequence[str] | None = None, schema_run: SchemaFactory | None = None) -> int:
    """The run (stkref.cli.run_tool): a setup error or any other failure is exit 2 with an
    <error> report in place of the run's JUnit file (never an earlier run's pass). Without
    `schema_run` every C++ mutant is built alone (as --no-schema)."""
    args = list(sys.argv[1:] if argv is None else argv)
    return run_tool(lambda: _main(parse_args(args), schema_run))


def clone_revision(head: str) -> str:
    """The revision the scratch clones' builds name (engine/cmake/GitRevision.cmake reads it from
    STK_GIT_REV): fixed per commit, where `git describe --dirty` turned "-dirty" at every mutant
    and back at every restore, recompiling each file that includes the header twice a mutant."""
    return f"{head[:12]}-mutation"


def require_shared(env: dict[str, str]) -> None:
    """The tests read the shared suites and the JUnit schema from STK_SHARED: without them dozens
    fail unmutated, are left out of every selection, and the run reports survivors that only a
    missing folder made (a fresh clone without ../shared did: 35 tests left out)."""
    shared = env.get("STK_SHARED", "")
    if not (Path(shared) / "schemas" / "junit.xsd").is_file():
        raise SetupError(
            f"STK_SHARED={shared!r} holds no schemas/junit.xsd: the tests read the shared suites"
            " and the JUnit schema from it (set STK_SHARED to the shared/ folder)"
        )


@dataclass
class RunState:
    """What a run learns on its way, beside the options it was given (which stay as given):
    the seed the draw used and where it came from, the stopped run it resumes, what the syntax
    check and the schema build did, and the wall time of each phase before the mutants."""

    seed: int = 0
    seed_source: str = "--seed"
    earlier: dict[str, Any] = field(default_factory=dict)
    syntax_check: dict[str, Any] | None = None
    schema: dict[str, Any] | None = None
    phases: dict[str, float] = field(default_factory=dict)

    def phase(self, name: str, since: float) -> float:
        """Records the phase that began at `since` (time.monotonic()) and returns now."""
        now = time.monotonic()
        self.phases[name] = round(now - since, 1)
        return now


def run_meta(
    a: argparse.Namespace,
    state: RunState,
    head: str,
    rerun: dict[str, dict[str, str]] | None,
    mutants: list[Mutant],
    coverage_commit: str,
    jobs: int,
    done: list[Mutant],
    complete: bool,
    t_start: float,
    t_mutants: float,
    slots: int = 0,
) -> dict[str, Any]:
    """The report's record of a run: what was asked, on which HEAD, how far it got, its cost
    (with the stopped run's it resumes)."""
    earlier = state.earlier
    mutant_s = time.monotonic() - t_mutants + earlier.get("mutant_seconds", 0.0)
    done = [m for m in done if not m.log.startswith(STOPPED)]
    ran = sum(m.outcome in RUN_OUTCOMES for m in done)
    return {
        "head": head,
        "files": a.files or list(DEFAULT_GLOBS),
        "sample": a.sample,
        "per_module": a.per_module,
        "seed": state.seed if a.sample or a.per_module else None,
        "seed_from": state.seed_source if a.sample or a.per_module else None,
        "shard": a.shard,
        "diff": a.diff,
        "rerun": [str(p) for p in a.rerun],
        "asked": sorted(k for keys in (rerun or {}).values() for k in keys),
        "command": "ci/mutation.sh " + shlex.join(a.argv),
        "jobs": jobs,
        # schema mutants side by side on the one build (--slots; J when not given)
        "slots": slots or jobs,
        "coverage_commit": coverage_commit,
        # false while the run goes on (the report so far) and when it was stopped
        "complete": complete,
        "done": len(done),
        "seconds": round(time.monotonic() - t_start + earlier.get("seconds", 0.0), 1),
        "mutant_seconds": round(mutant_s, 1),
        "resumed": earlier.get("report"),
        "mutants_per_hour": round(len(done) * 3600 / max(mutant_s, 1e-9), 1),
        "run_per_hour": round(ran * 3600 / max(mutant_s, 1e-9), 1),
        "chosen": [m.ident for m in mutants],
        # C++ candidates passed over before the build because they do not compile (SyntaxCheck)
        "syntax_check": state.syntax_check,
        # C++ mutants run on the one schema build, and why the others were built alone
        "schema": state.schema,
        # wall seconds of each phase before the mutants (candidates, draw, clones)
        "phases": state.phases,
    }


def resumed_verdicts(
    a: argparse.Namespace, head: str, mutants: list[Mutant]
) -> tuple[set[str], dict[str, Any]]:
    """--resume REPORT: the ids of the mutants REPORT has a verdict for (all but skipped ones),
    their records restored onto `mutants`, and REPORT's record of itself (its report path and
    time so far); REPORT must be this selection on this HEAD."""
    if not a.resume:
        return set(), {}
    try:
        doc = json.loads(inputs.read_input_text(a.resume))
        records = {r["id"]: r for r in doc["mutants"]}
        chosen = list(doc["chosen"])
    except (ValueError, KeyError, TypeError) as e:
        raise SetupError(f"{a.resume}: not a mutation report ({type(e).__name__}: {e})") from e
    if doc.get("head") != head:
        raise SetupError(
            f"{a.resume}: made at {str(doc.get('head'))[:10]}, HEAD is {head[:10]}: a run resumes"
            " on its own commit (check it out, or start a new run)"
        )
    if chosen != [m.ident for m in mutants]:
        raise SetupError(
            f"{a.resume}: its mutants are not this selection; run with its options: "
            f"{doc.get('command', '?')}"
        )
    done: set[str] = set()
    for m in mutants:
        r = records.get(m.ident)
        if r is None or r.get("outcome") in ("skipped", ""):
            continue
        m.outcome, m.covered, m.tests = r["outcome"], r.get("covered"), list(r.get("tests", []))
        m.seconds, m.limit_s, m.via = r.get("seconds", 0.0), r.get("limit_s", 0.0), r.get("via", "")
        m.killers = list(r.get("killers", []))
        m.log = f"(from {a.resume})"
        done.add(m.ident)
    earlier = {
        "report": str(a.resume),
        "seconds": float(doc.get("seconds", 0.0)),
        "mutant_seconds": float(doc.get("mutant_seconds", 0.0)),
    }
    left = len(mutants) - len(done)
    print(f"mutation: resuming {a.resume}: {len(done)} verdicts kept, {left} to run")
    return done, earlier


def _main(a: argparse.Namespace, make_schema_run: SchemaFactory | None = None) -> int:
    t_start = time.monotonic()
    head = commit_of(a.commit, "--commit", ROOT)
    state = (
        RunState(seed=seed_of_commit(head), seed_source=f"HEAD {head[:12]}")
        if a.seed == HEAD_SEED
        else RunState(seed=a.seed)
    )
    env = dict(os.environ)
    env.pop(schema.ENV, None)  # a switch inherited from the caller would turn a mutant on
    env.setdefault("STK_SHARED", str((ROOT.parent / "shared").resolve()))
    env.setdefault("STK_PYTHON", sys.executable)
    env["STK_GIT_REV"] = clone_revision(head)
    cores = os.cpu_count() or 2
    if a.refresh_coverage:
        return refresh_coverage(head, cores, env)
    if a.refresh_python_coverage:
        return refresh_python_coverage(head, env)
    triage = read_triage(TRIAGE_FILE)
    sources = Sources(ROOT, head)
    files = select_files(sources.paths(), a.files or DEFAULT_GLOBS)
    rerun = survivors_of(a.rerun, triage) if a.rerun else None
    if rerun is not None:
        files = [f for f in files if f in rerun]
    lines_changed: dict[str, set[int]] | None = None
    if a.diff:
        lines_changed = changed_lines(ROOT, a.diff, head)
        files = [f for f in files if f in lines_changed]
        if not files:  # the empty run's report follows: a CI step never reads an earlier one
            print(f"mutation: no file to mutate changed since {a.diff}: nothing to do")
    if not files and not a.diff:
        raise SetupError("no file to mutate (check --files and --rerun)")
    t_phase = time.monotonic()
    by_module = candidates(sources, files)
    t_phase = state.phase("candidates", t_phase)
    if lines_changed is not None:
        by_module = {
            mod: [m for m in ms if m.line in lines_changed.get(m.file, set())]
            for mod, ms in by_module.items()
        }
    if rerun is not None:
        by_module = {mod: [m for m in ms if m.file in rerun] for mod, ms in by_module.items()}
    syntax = SyntaxCheck(
        ROOT,
        cache=ROOT / "build" / "mutation" / "syntax-cache.json",
        sources=head_snapshot(head, ROOT / "build" / "mutation" / "syntax-src"),
    )
    t_phase = time.monotonic()
    mutants = choose(
        by_module,
        lambda m: viable(m, sources, syntax),
        a.sample,
        state.seed,
        a.per_module,
        prefetch=lambda likely: syntax.prefetch(
            [
                (m.file, sources.text(m.file), sources.mutated_text(m))
                for m in likely
                if m.lang == "cpp"
            ]
        ),
    )
    syntax.save()
    t_phase = state.phase("draw", t_phase)
    state.syntax_check = {
        "rejected": syntax.rejected,
        "passed": syntax.passed,
        "seconds": round(syntax.seconds, 1),
    }
    if syntax.rejected or syntax.passed:
        print(
            f"mutation: syntax check before the build: {syntax.rejected} of"
            f" {syntax.rejected + syntax.passed} C++ candidates do not compile, passed over"
            f" ({syntax.seconds:.0f} s)",
            flush=True,
        )
    if rerun is not None:
        mutants = rerun_selection(mutants, rerun)
    k, n = parse_shard(a.shard)
    mutants = shard(mutants, k, n)
    done_before, state.earlier = resumed_verdicts(a, head, mutants)
    config = default_config(a)
    what = ", ".join(
        [f"sample {a.sample} over the modules"] * bool(a.sample)
        + [f"at most {a.per_module} per module"] * bool(a.per_module)
    )
    what = f"{what}, seed {state.seed} (from {state.seed_source})" if what else "all"
    print(
        f"mutation: {len(mutants)} mutants ({what}, shard {k}/{n}) in {len(files)} files of "
        f"{len(by_module)} modules, HEAD {head[:10]}"
        f" (candidates {state.phases['candidates']:.0f} s, draw {state.phases['draw']:.0f} s)",
        flush=True,
    )
    for m in mutants:
        mutated = (m.mutated or "").strip().replace("\n", " \\n ")
        print(f"  {m.ident}  {m.operator}: {m.original.strip()}  =>  {mutated}")
    if a.list:
        return 0
    if not mutants:
        # Nothing to run (no changed line, every mutant of a rerun gone): the report says so,
        # so that no CI step reads an earlier run's report as this one's, and a rerun's gone
        # mutants reach the campaign.
        t = time.monotonic()
        meta = run_meta(a, state, head, rerun, mutants, "", 0, [], True, t_start, t)
        write_reports([], config, Path(a.out_dir), meta)
        print(f"mutation: nothing to run; the report is {Path(a.out_dir)}/mutation/{config}.json")
        return 0
    require_shared(env)
    cov = loaded_map(COVERAGE_MAP, head)
    if not cov.commit:
        print(
            "mutation: no ci/mutation-coverage.json: a C++ mutant runs every test of its binaries"
        )
    todo = [m for m in mutants if m.ident not in done_before]
    jobs_n = max(1, min(a.jobs, len(todo)))
    slots = max(1, min(a.slots or jobs_n, len(todo)))
    build_jobs = max(1, cores // jobs_n)
    jobs = free_clones(jobs_n, head, build_jobs, env)
    targets = build_targets(todo, cov)
    for j in jobs:
        print(
            f"mutation: preparing {j.tree} (release build of HEAD: {' '.join(targets)})", flush=True
        )
        j.prepare()
        j.build(targets)
    state.phase("clones", t_phase)
    pycov = (
        loaded_map(PY_COVERAGE_MAP, head) if any(m.lang == "py" for m in todo) else CoverageMap()
    )
    # Read in a clone: it holds the measured commit's tests and packages (--commit REV).
    for c in (cov, pycov):
        if c.stale and (stale_tests := stale_pytest_files(jobs[0].tree, c.stale)) is not None:
            c.stale_tests = stale_tests
    runner = Runner(sources, cov, jobs, env)
    runner.pycov = pycov
    # The schema build and the baseline count as mutant time: they exist for the mutants.
    t_mutants = time.monotonic()
    schema_run = make_schema_run(runner, jobs[0], sources, syntax) if make_schema_run else None
    held = [] if a.no_schema or schema_run is None else schema_run.prepare(todo, targets)
    t_built = time.monotonic()
    texts = schema_run.texts if schema_run else {}
    build_key = hashlib.sha256(
        json.dumps([head, sorted(texts.items())], separators=(",", ":")).encode()
    ).hexdigest()
    kept = BaselineCache(ROOT / "build" / "mutation" / "baseline.json", head, build_key)
    runner.baseline(todo, kept)  # on the schema build, every switch off: the null control
    state.schema = {
        "held": len(held),
        "built_alone": schema_run.fallback if schema_run else {"no schema build": len(mutants)},
        "build_seconds": round(t_built - t_mutants, 1),
        "baseline_seconds": round(time.monotonic() - t_built, 1),
    }
    lock = threading.Lock()
    finished: list[Mutant] = [m for m in mutants if m.ident in done_before]
    stop = stop_on_signals()
    last_write = [time.monotonic()]

    def meta_now(done: list[Mutant], complete: bool) -> dict[str, Any]:
        return run_meta(
            a,
            state,
            head,
            rerun,
            mutants,
            cov.commit,
            jobs_n,
            done,
            complete,
            t_start,
            t_mutants,
            slots,
        )

    def one(m: Mutant) -> None:
        if stop.is_set():
            m.outcome, m.log = "skipped", STOPPED
        else:
            clear_stopped()
            try:
                runner.run_one(m)
            except Exception as e:  # one mutant's setup failure: reported as skipped
                m.outcome, m.log = "skipped", f"{type(e).__name__}: {e}"
            if stopped_under_way():
                m.outcome, m.log = "skipped", STOPPED
        recorded(m)

    def on_schema(m: Mutant) -> None:
        if stop.is_set() and (m.outcome in ("", "skipped") or stopped_under_way()):
            m.outcome, m.log = "skipped", STOPPED
        recorded(m)

    def recorded(m: Mutant) -> None:
        with lock:
            finished.append(m)
            tests = f", {len(m.tests)} tests" if m.tests else ""
            print(
                f"[{len(finished)}/{len(mutants)}] {m.outcome:12} {m.ident} {m.operator}"
                f" ({m.seconds:.0f} s{tests})",
                flush=True,
            )
            # The report so far, a minute apart: a run killed outright loses at most that.
            # Once stopped, after each one: a supervisor's SIGKILL may follow in seconds.
            due = stop.is_set() or time.monotonic() - last_write[0] > 60
            if due and len(finished) < len(mutants):
                done = list(finished)
                apply_triage(done, triage)
                write_reports(done, config, Path(a.out_dir), meta_now(done, False))
                last_write[0] = time.monotonic()

    if schema_run is not None:
        schema_run.run_all(held, slots, on_schema, stop)
        if not stop.is_set():  # on the schema build, every switch off, before it is undone
            runner.verify_killers(jobs[0], [m for m in finished if m.via == "schema"], kept)
            state.schema["verify_seconds"] = round(runner.verify_seconds, 1)
        schema_run.restore(targets)
    rest = [m for m in todo if m not in held]
    with concurrent.futures.ThreadPoolExecutor(jobs_n) as ex:
        list(ex.map(one, rest))
    apply_triage(mutants, triage)
    meta = meta_now(mutants, not stop.is_set())
    md, rows = write_reports(mutants, config, Path(a.out_dir), meta)
    print()
    print(md)
    print(
        f"mutation: {meta['mutants_per_hour']:.0f} mutants/hour "
        f"({meta['run_per_hour']:.0f} run mutants/hour), {meta['seconds'] / 60:.1f} min in all"
    )
    if stop.is_set():
        print("mutation: the run was stopped; the report holds the mutants that ran (exit 2)")
        return 2
    if under_fail_under(rows["total"], a.fail_under):
        t = rows["total"]
        dead = t["killed"] + t["timeout"]
        scored = dead + t["survived"] + t["not-covered"] - t["triaged"]
        print(
            f"mutation: score {dead}/{scored} = {100 * dead / scored:.4g}% is under"
            f" --fail-under {a.fail_under}%"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
