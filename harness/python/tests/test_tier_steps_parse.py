"""Every command of every tier's steps (`stk-harness all --list`) parses under the tool it runs,
with each option's value as given: a step whose words were reordered or lost (a value read as a
stray word, an option taking the next option as its value) fails here, not an hour into the full
tier. The tool's own parser judges, nothing written beside the tier's code: argparse for the
Python tools, stk-harness's own CLI (its hidden --parse-only flag) for the C++ commands."""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from stkref.cli import UsageError

REPO = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS", str(REPO / "build/release/harness/stk-harness"))


TIER_LISTS = {
    "quick": ["--tier", "quick"],
    "full": ["--tier", "full"],
    "premerge": ["--tier", "premerge", "--base", "HEAD"],
}


def tier_listing(flag: str, tier: str, out_dir: Path) -> list[str]:
    """The lines of `stk-harness all <flag>` (--list, --list-reports) for the tier."""
    if not Path(HARNESS).exists():
        pytest.skip(f"stk-harness not found at {HARNESS}")
    return subprocess.run(
        [HARNESS, "all", flag, *TIER_LISTS[tier], f"--out-dir={out_dir}"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    ).stdout.splitlines()


def step_commands(tier: str, out_dir: Path) -> list[tuple[str, list[str]]]:
    """(step, words) of each command of the tier's steps (a step's `A && B` gives two)."""
    found = []
    for line in tier_listing("--list", tier, out_dir):
        step, _, command = line.partition(": ")
        words, current = shlex.split(command), []
        for w in [*words, "&&"]:
            if w != "&&":
                current.append(w)
                continue
            if current:
                found.append((step, current))
            current = []
    return found


def python_commands(tier: str, out_dir: Path) -> list[tuple[str, list[str]]]:
    """(step, the words after `-m`) of each Python command of the tier's steps."""
    return [
        (step, w[2:]) for step, w in step_commands(tier, out_dir) if len(w) > 2 and w[1] == "-m"
    ]


def harness_commands(tier: str, out_dir: Path) -> list[tuple[str, list[str]]]:
    """(step, the words after the program) of each stk-harness command of the tier's steps."""
    return [
        (step, w[1:])
        for step, w in step_commands(tier, out_dir)
        if Path(w[0]).name == "stk-harness"
    ]


def option_values(argv: list[str]) -> list[tuple[str, str]]:
    """(--name, value) of each `--name=value` and each `--name value` whose value is no option."""
    pairs = []
    for i, w in enumerate(argv):
        if w.startswith("--") and "=" in w:
            pairs.append(tuple(w.split("=", 1)))
        elif w.startswith("--") and i + 1 < len(argv) and not argv[i + 1].startswith("--"):
            pairs.append((w, argv[i + 1]))
    return pairs


def actions_of(parser: argparse.ArgumentParser, argv: list[str]) -> list[argparse.Action]:
    """The parser's options and those of the subcommand the words choose (parity's features)."""
    actions = list(parser._actions)
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            chosen = next(w for w in argv if w in a.choices)
            actions += actions_of(a.choices[chosen], argv)
    return actions


# MODEL all-tier-python-steps
# checks: harness/src/commands/all/tier_steps.cpp  (each Python step's words, as its tool reads them)
# contract: docs/tiers.md#the-tiers
# planted: ci/mutants/tier-step-words-reordered.patch  (drift's --config after its value)
@pytest.mark.parametrize("tier", ["quick", "full"])
def test_every_python_step_parses_under_its_tool(tier: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(REPO)  # the steps run from the repository root
    commands = python_commands(tier, tmp_path / "reports")
    assert commands, f"no Python step in the {tier} tier"
    for step, (module, *argv) in commands:
        if module == "pytest":  # the tests themselves, not a tool of the project
            continue
        # Folders and files an earlier step of the tier makes: present, as when the step runs.
        for word in argv:
            path = Path(word.split("=", 1)[-1])
            if str(path).startswith(str(tmp_path)):
                path.parent.mkdir(parents=True, exist_ok=True)
                if path.suffix:
                    path.touch()
        parser = importlib.import_module(module).build_parser()
        try:
            ns = parser.parse_args(argv)
        except (UsageError, SystemExit) as e:
            pytest.fail(f"{tier} step {step}: {module} {' '.join(argv)}: {e}")
        for option, value in option_values(argv):
            action = next(a for a in actions_of(parser, argv) if option in a.option_strings)
            got = getattr(ns, action.dest)
            shown = [str(x) for x in got] if isinstance(got, list) else [str(got)]
            assert any(value == s or Path(value) == Path(s) for s in shown) or (
                action.type is not None and str(action.type(value)) in shown
            ), (tier, step, option, value, got)


def parsed_options(printed: str) -> tuple[dict[str, list[str]], set[str]]:
    """--parse-only's lines: each option's values by its name (no dashes), and the flags given."""
    values: dict[str, list[str]] = {}
    flags: set[str] = set()
    for line in printed.splitlines()[1:]:
        name, eq, value = line.lstrip("-").partition("=")
        if eq:
            values.setdefault(name, []).append(value)
        else:
            flags.add(name)
    return values, flags


# MODEL all-tier-harness-steps
# checks: harness/src/commands/all/tier_steps.cpp  (each stk-harness step's words, as stk-harness reads them)
# contract: docs/tiers.md#the-tiers
# planted: ci/mutants/tier-step-harness-words-lost.patch  (uci-check's --engine and --config lost)
@pytest.mark.parametrize("tier", sorted(TIER_LISTS))
def test_every_harness_step_parses_under_stk_harness(tier: str, tmp_path: Path) -> None:
    commands = harness_commands(tier, tmp_path / "reports")
    assert commands, f"no stk-harness step in the {tier} tier"
    for step, argv in commands:
        r = subprocess.run(
            [HARNESS, *argv, "--parse-only"], capture_output=True, text=True, cwd=REPO, check=False
        )
        where = f"{tier} step {step}: stk-harness {shlex.join(argv)}"
        assert r.returncode == 0, f"{where}: exit {r.returncode}: {r.stderr[:600]}"
        assert r.stdout.startswith(f"parse-only: stk-harness {argv[0]} parsed"), (where, r.stdout)
        values, flags = parsed_options(r.stdout)
        for option, value in option_values(argv[1:]):
            name = option[2:]
            if name in flags:  # a flag before a positional word: the word is no value of it
                continue
            assert value in values.get(name, []), (where, option, value, values.get(name))


def declared_reports(tier: str, out_dir: Path) -> dict[str, list[str]]:
    """The JUnit files each step must write (`stk-harness all --list-reports`)."""
    lines = tier_listing("--list-reports", tier, out_dir)
    return {step: shlex.split(rest) for step, _, rest in (ln.partition(":") for ln in lines)}


def named_reports(argv: list[str]) -> tuple[set[str], set[tuple[str, str]]]:
    """What a command's words say its reports are (docs/reports.md): each --junit (or pytest's
    --junitxml) path, and (the reports folder, the config) of a --config with --out-dir or
    --reports-dir (a Python tool's default folder is ./reports)."""
    values = dict(option_values(argv))
    paths = {v for o, v in option_values(argv) if o in ("--junit", "--junitxml")}
    folder = values.get("--out-dir") or values.get("--reports-dir")
    if folder is None and len(argv) > 2 and argv[1] == "-m":
        folder = "reports"
    named = (
        {(str(Path(folder) / "junit"), values["--config"])}
        if folder and "--config" in values
        else set()
    )
    return paths, named


# MODEL all-tier-step-reports
# checks: harness/src/commands/all/tier_steps.cpp  (the reports each step must write, as its commands name them)
# contract: docs/reports.md#exit-status-and-report-files
# planted: ci/mutants/tier-step-report-name-lost.patch  (netlint expecting netlint-quick.xml)
@pytest.mark.parametrize("tier", sorted(TIER_LISTS))
def test_every_step_expects_the_reports_its_commands_name(tier: str, tmp_path: Path) -> None:
    """Each report a step must write is one its commands name: a --junit path, or
    <folder>/junit/<harness>-<config>[-<part>].xml under a command's reports folder with that
    command's --config; and each command that names reports has one among the step's, unless the
    step expects none (a step expecting a report no command writes fails the tier only when it
    runs)."""
    out = tmp_path / "reports"
    reports = declared_reports(tier, out)
    by_step: dict[str, list[list[str]]] = {}
    for step, words in step_commands(tier, out):
        by_step.setdefault(step, []).append(words)
    assert set(reports) == set(by_step), (tier, set(reports) ^ set(by_step))
    for step, commands in by_step.items():
        named = [named_reports(words) for words in commands]
        paths = {p for ps, _ in named for p in ps}
        folders = {f for _, fs in named for f in fs}

        def named_by_config(report: str, folder: str, config: str) -> bool:
            p = Path(report)
            return (
                str(p.parent) == folder
                and re.fullmatch(rf"[a-z-]+-{re.escape(config)}(-[a-z]+)?", p.stem) is not None
            )

        for report in reports[step]:
            assert report in paths or any(named_by_config(report, f, c) for f, c in folders), (
                f"{tier} step {step}: {report} is named by none of its commands"
            )
        if not reports[
            step
        ]:  # judged by exit status alone (premerge's mutation-diff: docs/premerge.md)
            continue
        for ps, fs in named:
            for p in ps:
                assert p in reports[step], f"{tier} step {step}: its command names {p}"
            for f, c in fs:
                assert any(named_by_config(r, f, c) for r in reports[step]), (
                    f"{tier} step {step}: no report of config {c} under {f}"
                )


@functools.cache
def cmake_targets() -> frozenset[str]:
    """The project's build targets, as CMake lists them for the release build (every preset
    configures the same CMakeLists, so the same targets)."""
    build = REPO / "build/release"
    if not (build / "CMakeCache.txt").exists():
        pytest.skip(f"no configured build at {build}")
    listing = subprocess.run(
        ["cmake", "--build", str(build), "--target", "help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return frozenset(
        m.group(1) for m in re.finditer(r"^([A-Za-z0-9_.+-]+): ", listing, re.MULTILINE)
    )


@functools.cache
def preset_dirs() -> dict[str, Path]:
    """Each configure preset of CMakePresets.json and its build folder."""
    presets = json.loads((REPO / "CMakePresets.json").read_text())["configurePresets"]
    return {p["name"]: Path(p["binaryDir"].replace("${sourceDir}", str(REPO))) for p in presets}


def cmake_problems(words: list[str], configured: dict[str, Path]) -> list[str]:
    """What CMake would refuse or build otherwise in one cmake command of a step: a preset not in
    CMakePresets.json, a source folder that is not the repository, a -D of no option of the
    project, a --build folder no earlier command of the step configured, a target the project
    does not define, a -j that is no positive count. `configured` gains the folders configured."""
    presets, targets = preset_dirs(), cmake_targets()
    cmakelists = (REPO / "CMakeLists.txt").read_text()
    problems = []
    pairs = dict(zip(words, words[1:], strict=False))
    if "--build" in pairs:
        folder = Path(pairs["--build"])
        if folder not in configured.values():
            problems.append(f"--build {folder}: no command before it configured that folder")
        at = words.index("--target") + 1 if "--target" in words else len(words)
        named = []
        while at < len(words) and not words[at].startswith("-"):
            named.append(words[at])
            at += 1
        if "--target" in words and not named:
            problems.append("--target names no target")
        problems += [
            f"--target {t}: not a target of the project" for t in named if t not in targets
        ]
        if "-j" in pairs and not (pairs["-j"].isdigit() and int(pairs["-j"]) > 0):
            problems.append(f"-j {pairs['-j']}: not a positive count")
        return problems
    if pairs.get("-S") and Path(pairs["-S"]) != REPO:
        problems.append(f"-S {pairs['-S']}: not the repository")
    preset = pairs.get("--preset")
    if preset not in presets:
        problems.append(f"--preset {preset}: not a configure preset of CMakePresets.json")
    else:
        configured[preset] = presets[preset]
    for w in words:
        if w.startswith("-D"):
            name = w[2:].split("=", 1)[0].split(":", 1)[0]
            if not re.search(rf"\b(option|set)\(\s*{re.escape(name)}\b", cmakelists):
                problems.append(f"{w}: {name} is no option of CMakeLists.txt")
    return problems


# MODEL all-tier-cmake-steps
# checks: harness/src/commands/all/premerge_steps.cpp  (each cmake command of a step: preset, folder, options, targets)
# contract: docs/tiers.md#the-tiers
# planted: ci/mutants/tier-step-cmake-target-lost.patch  (the sanitizer build's --target emptied)
@pytest.mark.parametrize("tier", sorted(TIER_LISTS))
def test_every_cmake_step_builds_what_the_project_defines(tier: str, tmp_path: Path) -> None:
    """CMake's own files judge: the presets of CMakePresets.json, the options of CMakeLists.txt,
    the targets `cmake --build build/release --target help` lists."""
    configured: dict[str, dict[str, Path]] = {}
    wrong, seen = [], 0
    for step, words in step_commands(tier, tmp_path / "reports"):
        if Path(words[0]).name != "cmake":
            continue
        seen += 1
        for problem in cmake_problems(words[1:], configured.setdefault(step, {})):
            wrong.append(f"{tier} step {step}: {shlex.join(words)}: {problem}")
    assert not wrong, "\n".join(wrong)
    assert seen or tier != "premerge", "the premerge tier builds its sanitized engine with cmake"
