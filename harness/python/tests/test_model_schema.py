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
