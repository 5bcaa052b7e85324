"""Builds a CMake preset from nothing and says where the time went.

    ci/build-profile.sh [--preset P] [--jobs N] [--touch FILE]... [--headers N] [--doc FILE]

Configures the preset into a scratch folder (build/profile-P, removed first) with ccache off, builds
every target, and prints: wall time of configure and build, CPU-seconds of the build (the children's
user+sys), the slowest objects (from .ninja_log), the cost per part of the tree, and the headers
that cost most: for each header the project includes by name (<...>), its standalone parse time
(`-fsyntax-only` with the flags of a translation unit that includes it) times the number of
translation units that include it (from `ninja -t deps`). --touch FILE then touches each FILE and
times the rebuild of --touch-target (default stk-harness): what a developer waits for after an edit.
--doc FILE rewrites that preset's section of the generated page (docs/build-profile.md) and keeps
the other presets' sections. Python 3 standard library only (it runs before the venv exists),
like stkref.cli, .outputs, .options and .inputs, which it runs under (docs/faults.md).
Exit 2 on a failed configure or build.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from stkref import compile_commands, inputs, options
from stkref.cli import ToolParser, run_tool
from stkref.outputs import Output

ROOT = Path(__file__).resolve().parents[3]
DOC_BEGIN = "<!-- build-profile:{preset} begin -->"
DOC_END = "<!-- build-profile:{preset} end -->"
PARTS = (
    ("engine/src", "engine library and binary"),
    ("engine/tests", "engine tests"),
    ("harness/src", "harness library and binary"),
    ("harness/tests", "harness tests"),
    ("harness/fuzz", "fuzz checks"),
)


@dataclass
class Timed:
    wall_s: float
    cpu_s: float


@dataclass
class Profile:
    preset: str
    jobs: int
    configure: Timed
    build: Timed
    objects: list[tuple[float, str]]
    parts: dict[str, tuple[int, float]]
    headers: list[tuple[str, int, float]] = field(default_factory=list)
    touches: list[tuple[str, str, float]] = field(default_factory=list)
    precompiled: set[str] = field(default_factory=set)


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_timed(cmd: list[str], env: dict[str, str], quiet: bool = True) -> Timed:
    cpu0, wall0 = children_cpu_s(), time.monotonic()
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=quiet, text=True, check=False)
    timed = Timed(time.monotonic() - wall0, children_cpu_s() - cpu0)
    if out.returncode != 0:
        tail = (out.stdout or "")[-4000:] + (out.stderr or "")[-4000:]
        sys.exit(f"build-profile: `{shlex.join(cmd)}` failed (exit {out.returncode})\n{tail}")
    return timed


def ninja_log_entries(build_dir: Path) -> list[tuple[float, str]]:
    """(seconds, output) per edge of the last build; .ninja_log v5: start end mtime output hash."""
    latest: dict[str, float] = {}
    for line in inputs.read_input_text(build_dir / ".ninja_log").splitlines():
        if line.startswith("#"):
            continue
        start, end, _mtime, output, _hash = line.split("\t")
        latest[output] = (int(end) - int(start)) / 1000.0
    return sorted(((s, o) for o, s in latest.items()), reverse=True)


def part_of(output: str, build_dir: Path | None = None) -> str:
    """The part of the tree an object's source lies in (CMake writes `..` as `__`). A unity batch
    (harness/cmake/BuildSpeed.cmake) is the part of the sources it includes (read from the batch
    in `build_dir`); its name spells its folder, but a folder with one source joins its parent's
    batches (`engine_0` holding `engine/tests/test_names_test.cpp`), so the name is the fallback."""
    m = re.match(r"(.*?)CMakeFiles/[^/]+\.dir/(.*)", output)
    if not m:
        return "other"
    source = os.path.normpath(m.group(1) + m.group(2).replace("__/", "../"))
    batch = re.search(r"(?:^|/)unity/[^/]+/([^/]+)$", source)
    if batch:
        included = _batch_sources(build_dir, m.group(1) + m.group(2).removesuffix(".o"))
        if included:
            return next((p for s in included for p, _ in PARTS if s.startswith(p + "/")), "other")
        for prefix, _ in PARTS:
            if batch[1].startswith(prefix.replace("/", "_") + "_"):
                return prefix
    for prefix, _ in PARTS:
        if source.startswith(prefix + "/"):
            return prefix
    return "other"


def _batch_sources(build_dir: Path | None, batch: str) -> list[str]:
    """The repository paths a unity batch includes ([] without the build folder or the batch)."""
    if build_dir is None:
        return []
    path = build_dir / batch
    try:
        text = inputs.read_input_text(path)
    except (OSError, inputs.UnreadableInputError):
        return []
    root = ROOT.resolve()
    found = []
    for inc in re.findall(r'^#include "([^"]+)"', text, re.M):
        full = Path(os.path.normpath(path.parent / inc))
        if full.is_relative_to(root):
            found.append(full.relative_to(root).as_posix())
    return found


def cost_by_part(
    objects: list[tuple[float, str]], build_dir: Path | None = None
) -> dict[str, tuple[int, float]]:
    parts: dict[str, tuple[int, float]] = {}
    for seconds, output in objects:
        if not output.endswith(".o"):
            continue
        part = part_of(output, build_dir)
        n, total = parts.get(part, (0, 0.0))
        parts[part] = (n + 1, total + seconds)
    return parts


def includes_per_object(build_dir: Path) -> Counter[str]:
    """How many translation units depend on each header (ninja's recorded deps)."""
    out = subprocess.run(
        ["ninja", "-C", str(build_dir), "-t", "deps"], capture_output=True, text=True, check=True
    ).stdout
    counts: Counter[str] = Counter()
    for line in out.splitlines():
        if line.startswith("    "):
            counts[os.path.normpath(line.strip())] += 1
    return counts


def named_includes() -> set[str]:
    """Every <header> the project's sources include by name."""
    names: set[str] = set()
    pattern = re.compile(r"^\s*#\s*include\s*<([^>]+)>", re.M)
    for top in ("engine", "harness"):
        for path in (ROOT / top).rglob("*"):
            if path.suffix in {".cpp", ".h", ".hpp"}:
                names.update(pattern.findall(inputs.read_input_text(path, errors="replace")))
    return names


def compile_flags(build_dir: Path) -> dict[str, list[str]]:
    """The compile command of each source, less its output and input, its forced includes (the
    precompiled header: each header is timed on its own) and ccache."""
    flags: dict[str, list[str]] = {}
    for entry in compile_commands.load(build_dir / "compile_commands.json"):
        kept, skip = [], False
        for a in entry.flags():
            if skip:
                skip = False
            elif a == "-include":
                skip = True
            elif a != "-Winvalid-pch" and not a.endswith("ccache"):
                kept.append(a)
        flags[str(entry.file)] = kept
    return flags


def header_costs(build_dir: Path, limit: int) -> list[tuple[str, int, float]]:
    """(header, translation units including it, seconds to parse it alone) for the costliest."""
    counts = includes_per_object(build_dir)
    flags = compile_flags(build_dir)
    # The flags of the most flag-rich harness TU stand for every TU (defines and include paths).
    harness_flags = max(
        (f for src, f in flags.items() if "/harness/tests/" in src),
        key=len,
        default=next(iter(flags.values())),
    )
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(named_includes()):
            users = max((c for path, c in counts.items() if path.endswith("/" + name)), default=0)
            if users == 0:
                continue
            src = Path(tmp) / "one_header.cpp"
            src.write_text(f"#include <{name}>\n")
            t0 = time.monotonic()
            done = subprocess.run(
                [*harness_flags, "-fsyntax-only", str(src)],
                cwd=build_dir,
                capture_output=True,
                check=False,
            )
            if done.returncode == 0:
                rows.append((name, users, time.monotonic() - t0))
    rows.sort(key=lambda r: r[1] * r[2], reverse=True)
    return rows[:limit]


def precompiled_headers(build_dir: Path) -> set[str]:
    """The <headers> CMake precompiles (cmake_pch.hxx of any target)."""
    names: set[str] = set()
    for pch in build_dir.rglob("cmake_pch.hxx"):
        names.update(re.findall(r"#include <([^>]+)>", inputs.read_input_text(pch)))
    return names


def time_touches(
    build_dir: Path, env: dict[str, str], files: list[str], default_target: str, jobs: int
) -> list[tuple[str, str, float]]:
    """Touches each FILE (or FILE:TARGET) and times the rebuild of its target."""
    results = []
    for spec in files:
        name, _, target = spec.partition(":")
        target = target or default_target
        (ROOT / name).touch()
        timed = run_timed(
            ["cmake", "--build", str(build_dir), "-j", str(jobs), "--target", target], env
        )
        results.append((name, target, timed.wall_s))
    return results


def profile(args: argparse.Namespace) -> Profile:
    build_dir = ROOT / "build" / f"profile-{args.preset}"
    shutil.rmtree(build_dir, ignore_errors=True)
    env = dict(os.environ, CCACHE_DISABLE="1")
    configure = run_timed(
        ["cmake", "--preset", args.preset, "-B", str(build_dir), *args.cmake_arg], env
    )
    build = run_timed(["cmake", "--build", str(build_dir), "-j", str(args.jobs)], env)
    objects = ninja_log_entries(build_dir)
    result = Profile(
        args.preset, args.jobs, configure, build, objects, cost_by_part(objects, build_dir)
    )
    if args.headers:
        result.headers = header_costs(build_dir, args.headers)
        result.precompiled = precompiled_headers(build_dir)
    if args.touch:
        result.touches = time_touches(build_dir, env, args.touch, args.touch_target, args.jobs)
    return result


def render(p: Profile, slowest: int) -> str:
    objs = [(s, o) for s, o in p.objects if o.endswith(".o")]
    lines = [
        f"### Preset `{p.preset}`",
        "",
        f"Measured {time.strftime('%Y-%m-%d', time.gmtime())} on {os.cpu_count()} cores "
        f"({platform.machine()}), `-j {p.jobs}`, ccache off, from an empty build folder, "
        f"commit `{git_revision()}`.",
        "",
        "| figure | value |",
        "|---|---|",
        f"| configure, wall | {p.configure.wall_s:.1f} s |",
        f"| build, wall | {p.build.wall_s:.1f} s |",
        f"| build, CPU (user+sys of the compilers and linkers) | {p.build.cpu_s:.0f} s |",
        f"| objects compiled | {len(objs)} |",
        f"| compile time summed over objects | {sum(s for s, _ in objs):.0f} s |",
        "",
        "| part of the tree | objects | compile seconds |",
        "|---|---|---|",
    ]
    for prefix, label in (*PARTS, ("other", "other")):
        if prefix in p.parts:
            n, secs = p.parts[prefix]
            lines.append(f"| {label} (`{prefix}`) | {n} | {secs:.0f} |")
    lines += [
        "",
        f"Slowest {slowest} edges (`.ninja_log`):",
        "",
        "| seconds | output |",
        "|---|---|",
    ]
    lines += [f"| {s:.1f} | `{o}` |" for s, o in p.objects[:slowest]]
    if p.headers:
        lines += [
            "",
            "Headers that cost most: parse time alone times the translation units that "
            "include them (an upper bound on what a precompiled header or unity batch saves):",
            "",
            "| header | TUs | parse alone (s) | TUs x parse (s) |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| `<{h}>`{' (precompiled)' if h in p.precompiled else ''} | {n} | {t:.2f} | "
            f"{n * t:.0f} |"
            for h, n, t in p.headers
        ]
        lines += [
            "",
            "A precompiled header is parsed once per target, not once per translation unit.",
        ]
    if p.touches:
        lines += [
            "",
            "Rebuild after touching one file:",
            "",
            "| touched | target | wall |",
            "|---|---|---|",
        ]
        lines += [f"| `{f}` | `{t}` | {s:.1f} s |" for f, t, s in p.touches]
    return "\n".join(lines) + "\n"


def git_revision() -> str:
    out = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    return out.stdout.strip() or "unknown"


DOC_HEAD = """# Build profile (generated)

[docs index](README.md) · generated by `ci/build-profile.sh --doc docs/build-profile.md`; do not
edit by hand. Each section is one preset built from nothing; how the build is kept fast is in
[build.md](build.md).
"""


def update_doc(doc: Path, preset: str, section: str) -> None:
    from stkref.outputs import write_text_atomic

    text = inputs.read_input_text(doc) if os.path.lexists(doc) else DOC_HEAD
    begin, end = DOC_BEGIN.format(preset=preset), DOC_END.format(preset=preset)
    block = f"{begin}\n{section}{end}"
    if begin in text and end in text:
        text = text[: text.index(begin)] + block + text[text.index(end) + len(end) :]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    write_text_atomic(doc, text)


def doc_path(a: argparse.Namespace) -> Path:
    return a.doc if a.doc.is_absolute() else ROOT / a.doc


def touch_spec(text: str) -> str:
    """FILE[:TARGET]: FILE an existing file of the repository, TARGET a target name."""
    name, _, target = text.partition(":")
    path = (ROOT / name).resolve()
    if not path.is_file() or not path.is_relative_to(ROOT.resolve()):
        raise argparse.ArgumentTypeError(f"'{name}' is not a file of the repository {ROOT}")
    if target:
        options.name(target)
    return text


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(
        prog="ci/build-profile.sh",
        description=__doc__.split("\n")[0],
        outputs=lambda a: [
            Output("--preset", ROOT / "build" / f"profile-{a.preset}", "folder"),
            *([Output("--doc", doc_path(a))] if a.doc else []),
        ],
    )
    ap.add_argument("--preset", type=options.name, default="release")
    ap.add_argument("--jobs", type=options.jobs, default=os.cpu_count() or 1)
    ap.add_argument("--slowest", type=options.count, default=15)
    ap.add_argument(
        "--headers", type=options.count, default=15, help="how many headers to list (0: none)"
    )
    ap.add_argument(
        "--touch",
        action="append",
        type=touch_spec,
        default=[],
        help="FILE or FILE:TARGET to touch, then rebuild (TARGET: --touch-target)",
    )
    ap.add_argument("--touch-target", type=options.name, default="stk-harness")
    ap.add_argument("--cmake-arg", action="append", default=[], help="extra configure argument")
    ap.add_argument("--doc", type=Path, help="rewrite this preset's section of this page")
    args = ap.parse_args(argv)
    result = profile(args)
    section = render(result, args.slowest)
    print(section)
    if args.doc:
        update_doc(doc_path(args), args.preset, section)
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
