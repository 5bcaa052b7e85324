"""stkmutation.syntax: the check before the draw gives the verdicts of a plain compile, faster.

Planted changes it must catch (seen failing by hand, 2026-12-03, besides the two models' patches):
the preamble taking a line after a #define (moves an include past a macro), the header digest left
out of the cache key (a changed header reuses a stale verdict).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkmutation import syntax, tool
from stkmutation.syntax import SyntaxCheck

needs_cxx = pytest.mark.skipif(not shutil.which("c++"), reason="no C++ compiler")

HEADER = "#pragma once\ninline int twice(int x) { return 2 * x; }\n"
SOURCE = '#include "a.h"\n// the one function\n#include <cstdint>\nint f(int a) { return twice(a) < 3; }\n'


def project(tmp: Path, header: str = HEADER, forced: bool = False) -> Path:
    """A one-file compile database under tmp/build for tmp/src/a.cpp (and its header)."""
    src = tmp / "src"
    src.mkdir(exist_ok=True)
    (src / "a.h").write_text(header)
    (src / "a.cpp").write_text(SOURCE)
    build = tmp / "build"
    build.mkdir(exist_ok=True)
    extra = ""
    if forced:  # a CMake precompiled header forced in: the preamble must take it over
        (build / "pch.hxx").write_text("#include <vector>\n")
        extra = f"-include {build / 'pch.hxx'} "
    entry = {
        "directory": str(build),
        "file": str(src / "a.cpp"),
        "command": f"c++ -std=c++20 {extra}-o a.o -c {src / 'a.cpp'}",
    }
    (build / "compile_commands.json").write_text(json.dumps([entry]))
    return build


def test_preamble_is_the_leading_includes_and_stops_at_anything_else():
    text = '// c\n#include "x.h"\n\n#pragma once\n#include <v>  // why\n#define N 1\n#include "y.h"\nint a;\n'
    assert syntax.preamble_of(text) == '#include "x.h"\n#pragma once\n#include <v>  // why\n'
    assert syntax.preamble_of("#if A\n#include <v>\n#endif\n") == ""
    assert syntax.preamble_of("int a;\n#include <v>\n") == ""


def test_forced_includes_are_taken_out_of_the_flags():
    flags = ["c++", "-include", "/b/pch.hxx", "-O2", "-include", "/b/two.h"]
    assert syntax.split_forced_include(flags) == (["c++", "-O2"], ["/b/pch.hxx", "/b/two.h"])


OTHER = "int twice(int x) { return x + x; }\nint g(int a) { return twice(a) > 1 ? a : -a; }\n"


def two_files(tmp: Path) -> Path:
    """a.cpp (includes a.h) and b.cpp (defines its own `twice`, so a.h's leading include, shared
    by every file of the flag group, breaks it): one flag group with CMake's forced header."""
    build = project(tmp, forced=True)
    (tmp / "src" / "b.cpp").write_text(OTHER)
    db = json.loads((build / "compile_commands.json").read_text())
    other = dict(db[0], file=str(tmp / "src" / "b.cpp"))
    other["command"] = db[0]["command"].replace("a.o -c", "b.o -c").replace("a.cpp", "b.cpp")
    (build / "compile_commands.json").write_text(json.dumps([*db, other]))
    return build


# MODEL mutation-syntax-verdicts
# checks: harness/python/stkmutation/syntax.py  (a candidate's compile verdict before the draw)
# contract: docs/mutation.md#how-a-mutant-is-made-and-run
# planted: ci/mutants/model-mutation-syntax-verdicts.patch  (a preamble kept for a file that fails with it)
@needs_cxx
def test_model_syntax_check_gives_the_plain_compile_verdict(tmp_path: Path):
    # Model: the contract's verdict is "the mutated text compiles with its object's flags"; the
    # plain compiler run is that, the checked run (shared precompiled preamble, side by side, a
    # cache) must agree on every generated mutant of both files.
    build = two_files(tmp_path)
    work = []
    for name in ("a.cpp", "b.cpp"):
        text = (tmp_path / "src" / name).read_text()
        for m in tool.cpp_mutants(f"src/{name}", text):
            lines = text.splitlines(keepends=True)
            lines[m.line - 1] = m.mutated + "\n"
            work.append((m, text, "".join(lines)))
    assert len(work) > 20
    plain = SyntaxCheck(tmp_path, build)
    fast = SyntaxCheck(tmp_path, build, pch_dir=tmp_path / "pch", cache=tmp_path / "c.json")
    t0 = time.monotonic()
    fast.prefetch([(m.file, o, t) for m, o, t in work])
    # The report's syntax-check seconds ("where the time went"): the time it took, no more.
    assert 0 < fast.seconds <= time.monotonic() - t0
    made = sorted(p.name for p in (tmp_path / "pch").glob("*.gch"))
    assert made, "no precompiled preamble was made"
    got = [fast.viable(m, o, t) for m, o, t in work]
    want = [plain.viable(m, o, t) for m, o, t in work]
    assert got == want
    assert 0 < sum(want) < len(want)  # both verdicts occur


@needs_cxx
def test_a_changed_header_never_reuses_a_kept_verdict(tmp_path: Path):
    build = project(tmp_path)
    cache = tmp_path / "cache.json"
    text = SOURCE.replace("twice(a)", "twice(a, a)")
    first = SyntaxCheck(tmp_path, build, cache=cache)
    assert not first.compiles("src/a.cpp", text)
    first.save()
    (tmp_path / "src" / "a.h").write_text(
        HEADER + "inline int twice(int x, int y) { return x + y; }\n"
    )
    again = SyntaxCheck(tmp_path, build, cache=cache)
    assert again.compiles("src/a.cpp", text)  # judged anew against the new header


def test_the_revision_header_does_not_enter_the_digest(tmp_path: Path):
    """The build rewrites build/release/generated/stk_git_revision.h at every commit and edit;
    in the digest it threw away every kept verdict (planted: the header counted again). Any
    other generated header still counts."""
    src, generated = tmp_path / "src", tmp_path / "generated"
    src.mkdir()
    generated.mkdir()
    (src / "a.h").write_text(HEADER)
    revision = generated / "stk_git_revision.h"
    revision.write_text('#pragma once\n#define STK_GIT_REV "52b09a42c310"\n')
    first = syntax.header_digest(src, [generated])
    revision.write_text('#pragma once\n#define STK_GIT_REV "28db976a1b2c-dirty"\n')
    assert syntax.header_digest(src, [generated]) == first
    (generated / "stk_fhmodel_default.h").write_text("#pragma once\n")
    assert syntax.header_digest(src, [generated]) != first


@needs_cxx
def test_a_damaged_or_unwritable_cache_costs_time_only(tmp_path: Path):
    build = project(tmp_path)
    for damage in ("{not json", json.dumps({"k": "yes", "j": [1]}), "\0\0\0"):
        cache = tmp_path / "cache.json"
        cache.write_text(damage)
        check = SyntaxCheck(tmp_path, build, cache=cache)
        assert check.compiles("src/a.cpp", SOURCE)
        assert not check.compiles("src/a.cpp", SOURCE.replace("return", "retrun"))
        check.save()  # replaces the damaged file whole
        assert json.loads(cache.read_text())
    blocked = tmp_path / "file"
    blocked.write_text("")
    check = SyntaxCheck(tmp_path, build, cache=blocked / "cache.json", pch_dir=blocked / "pch")
    assert not check.viable(
        tool.Mutant("src/a.cpp", 4, "", "", "", "cpp"), SOURCE, SOURCE.replace("return", "retrun")
    )
    check.save()  # an unwritable place: no exception, nothing written
    assert blocked.read_text() == ""


@st.composite
def pools(draw) -> dict[str, list[tool.Mutant]]:
    out: dict[str, list[tool.Mutant]] = {}
    for i in range(draw(st.integers(1, 5))):
        n = draw(st.integers(0, 12))
        out[f"m{i}"] = [
            tool.Mutant(f"m{i}/f.cpp", line, "op", "a", f"b{line}", "cpp")
            for line in range(1, n + 1)
        ]
    return out


# MODEL mutation-syntax-prefetch
# checks: harness/python/stkmutation/tool.py  (the candidates checked side by side before the draw)
# contract: docs/mutation.md#how-a-mutant-is-made-and-run
# planted: ci/mutants/model-mutation-syntax-prefetch.patch  (one candidate fewer than each module's share)
@settings(derandomize=True, max_examples=150, deadline=None)
@given(pools(), st.integers(0, 15), st.integers(0, 2**31), st.sampled_from([0, 1, 3]), st.data())
def test_prefetch_changes_no_draw_and_covers_what_the_draw_tests(
    pools: dict[str, list[tool.Mutant]], n: int, seed: int, cap: int, data: st.DataObject
):
    # Model: the draw with prefetch equals the draw without; with every module drawn at most
    # `cap` (or its share of n), the candidates prefetched hold every one the draw tested unless
    # more than a quarter of a module's first ones failed.
    if not n and not cap:
        n = 3
    bad = {m.ident for ms in pools.values() for m in ms if data.draw(st.booleans(), m.ident)}
    tested: list[str] = []
    fetched: list[str] = []

    def ok(m: tool.Mutant) -> bool:
        tested.append(m.ident)
        return m.ident not in bad

    plain = tool.choose(pools, lambda m: m.ident not in bad, n, seed, cap)
    with_prefetch = tool.choose(
        pools, ok, n, seed, cap, prefetch=lambda ms: fetched.extend(m.ident for m in ms)
    )
    assert [m.ident for m in with_prefetch] == [m.ident for m in plain]
    assert len(fetched) == len(set(fetched))
    if not bad:
        assert set(tested) <= set(fetched)


@needs_cxx
def test_precompiled_preambles_of_changed_headers_are_removed(tmp_path: Path):
    # Each header change makes new preambles (100-250 MB each on this tree): the ones of the
    # old headers must go, or build/mutation/pch grows with every commit measured.
    build = two_files(tmp_path)
    pch = tmp_path / "pch"
    SyntaxCheck(tmp_path, build, pch_dir=pch).prefetch([("src/a.cpp", SOURCE, SOURCE)])
    first = {p.name for p in pch.iterdir()}
    assert any(n.endswith(".gch") for n in first)
    (tmp_path / "src" / "a.h").write_text(HEADER + "inline int thrice(int x) { return 3 * x; }\n")
    SyntaxCheck(tmp_path, build, pch_dir=pch).prefetch([("src/a.cpp", SOURCE, SOURCE)])
    second = {p.name for p in pch.iterdir()}
    assert any(n.endswith(".gch") for n in second) and not first & second


@needs_cxx
def test_checks_read_heads_snapshot_not_the_work_tree(tmp_path: Path):
    """A run lasts hours while the work tree changes: its checks read sources and headers from
    the snapshot of HEAD (`sources`), through quoted includes and -I flags alike. Planted: the
    checker rooted in the work tree, whose header was edited after the commit."""
    build = project(tmp_path)
    db = json.loads((build / "compile_commands.json").read_text())
    db[0]["command"] = db[0]["command"].replace("-std=c++20", f"-std=c++20 -I{tmp_path / 'src'}")
    (build / "compile_commands.json").write_text(json.dumps(db))
    snap = tmp_path / "snap"
    (snap / "src").mkdir(parents=True)
    (snap / "src" / "a.h").write_text(HEADER.replace("twice", "thrice"))
    (snap / "src" / "a.cpp").write_text(SOURCE.replace("twice", "thrice"))
    (tmp_path / "src" / "b.h").write_text("#pragma once\n#error the work tree's header\n")
    (snap / "src" / "b.h").write_text("#pragma once\ninline int b() { return 1; }\n")
    uses_b = "#include <b.h>\nint g() { return b(); }\n"
    for pch in (None, tmp_path / "pch"):
        check = SyntaxCheck(tmp_path, build, pch_dir=pch, sources=snap)
        assert check.compiles("src/a.cpp", SOURCE.replace("twice", "thrice"))
        assert not check.compiles("src/a.cpp", SOURCE)
        assert check.compiles("src/a.cpp", uses_b)
    work = SyntaxCheck(tmp_path, build)
    assert work.compiles("src/a.cpp", SOURCE) and not work.compiles("src/a.cpp", uses_b)


@needs_cxx
def test_a_verdict_outlives_the_commit_when_the_headers_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Each commit's run reads its own snapshot folder (and precompiled preamble): a verdict is
    kept by the text, the command and the headers' digest, not by those paths, so the next
    commit's run with the same headers compiles nothing it judged before. Planted: the key taken
    over the raw arguments (every commit judged every candidate anew: 25 minutes before a run)."""
    build = project(tmp_path)
    cache = tmp_path / "cache.json"
    snaps = [tmp_path / "snapshots" / c for c in ("commit1", "commit2")]
    for snap in snaps:
        shutil.copytree(tmp_path / "src", snap / "src")
    text = SOURCE.replace("twice(a)", "twice(a, a)")
    for pch in (None, tmp_path / "pch"):
        first = SyntaxCheck(tmp_path, build, cache=cache, pch_dir=pch, sources=snaps[0])
        first.prefetch([("src/a.cpp", SOURCE, text)])
        first.save()
        real_run = syntax.subprocess.run

        def no_check(args: list[str], **k: object) -> object:
            # The new snapshot's preamble may be precompiled; no text may be judged again.
            assert "-fsyntax-only" not in args, "judged again: " + " ".join(args)
            return real_run(args, **k)

        monkeypatch.setattr(syntax.subprocess, "run", no_check)
        again = SyntaxCheck(tmp_path, build, cache=cache, pch_dir=pch, sources=snaps[1])
        again.prefetch([("src/a.cpp", SOURCE, text)])
        assert not again.compiles("src/a.cpp", text)
        monkeypatch.setattr(syntax.subprocess, "run", real_run)
    (snaps[1] / "src" / "a.h").write_text(HEADER + "inline int twice(int x, int y) { return x; }\n")
    changed = SyntaxCheck(tmp_path, build, cache=cache, sources=snaps[1])
    assert changed.compiles("src/a.cpp", text)  # a header that changed: judged anew


def test_head_snapshot_holds_the_commit_not_the_edits(tmp_path: Path):
    import subprocess

    repo = tmp_path / "repo"
    (repo / "engine").mkdir(parents=True)
    (repo / "harness").mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "engine" / "x.h").write_text("committed\n")
    (repo / "harness" / "y.h").write_text("y\n")
    (repo / "other.txt").write_text("not taken\n")
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    (repo / "engine" / "x.h").write_text("edited after the commit\n")
    parent = tmp_path / "snapshots"
    first = tool.head_snapshot("HEAD", parent, repo)
    assert (first / "engine" / "x.h").read_text() == "committed\n"
    assert (first / "harness" / "y.h").is_file() and not (first / "other.txt").exists()
    assert tool.head_snapshot("HEAD", parent, repo) == first
    subprocess.run([*git, "commit", "-qam", "two"], check=True)
    second = tool.head_snapshot("HEAD", parent, repo)
    assert (second / "engine" / "x.h").read_text() == "edited after the commit\n"
    assert first.exists()  # a run at the first commit may still be reading it
    old = time.time() - (tool.SNAPSHOT_DAYS + 1) * 86400
    os.utime(first, (old, old))
    assert tool.head_snapshot("HEAD", parent, repo) == second
    assert [p.name for p in parent.iterdir()] == [second.name]


def run_git_revision(src: Path, out: Path, rev: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "STK_GIT_REV"}
    if rev is not None:
        env["STK_GIT_REV"] = rev
    script = tool.ROOT / "engine" / "cmake" / "GitRevision.cmake"
    cmd = ["cmake", f"-DSRC={src}", f"-DOUT={out}", "-P", str(script)]
    subprocess.run(cmd, env=env, check=True, capture_output=True)
    return out.read_text()


@pytest.mark.skipif(not shutil.which("cmake") or not shutil.which("git"), reason="no cmake/git")
def test_the_clones_revision_stays_put_while_mutants_edit_the_tree(tmp_path: Path):
    """The scratch clones build with STK_GIT_REV (tool.clone_revision): `git describe --dirty`
    turned "-dirty" at every mutant and back at every restore, so each file including the header
    was compiled twice a mutant (planted: the script ignoring the variable). Without it the
    header still says "-dirty" on an edited tree, and an unchanged revision leaves the file
    untouched (no rebuild)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    for args in (["init", "-q"], ["config", "user.email", "t@t"], ["config", "user.name", "t"]):
        subprocess.run(["git", *args], cwd=repo, check=True)
    (repo / "a.cpp").write_text("int f() { return 1; }\n")
    subprocess.run(["git", "add", "a.cpp"], cwd=repo, check=True)
    subprocess.run(["git", "commit", "-qm", "a"], cwd=repo, check=True)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    out = tmp_path / "stk_git_revision.h"
    fixed = tool.clone_revision(head)
    assert f'"{fixed}"' in run_git_revision(repo, out, fixed)
    stamp = out.stat().st_mtime_ns
    (repo / "a.cpp").write_text("int f() { return 0; }\n")  # a mutant written
    time.sleep(0.01)
    assert f'"{fixed}"' in run_git_revision(repo, out, fixed)
    assert out.stat().st_mtime_ns == stamp
    assert f'"{head[:12]}-dirty"' in run_git_revision(repo, out, None)
    assert f'"{head[:12]}-dirty"' in run_git_revision(repo, out, "")
