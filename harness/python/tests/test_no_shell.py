"""No shell between stk-harness and its children (docs/faults.md, "No shell"): every subprocess the
harness starts gets an argument vector, so a path or an engine command holding quotes, spaces,
`$(...)`, backquotes or a leading '-' is used literally and runs nothing else.

Each test runs one command that starts children (shadow's plot, epd --bench-signature auto, all,
compare, and the engines of uci-check, match, datagen, epd and epd-compare) with such a path or
command, then asserts it did what its documentation says and that no PWNED file appeared: before
the fix, `touch PWNED` ran in a shell. Runs against $STK_HARNESS (else build/release)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
HARNESS = Path(os.environ.get("STK_HARNESS") or ROOT / "build/release/harness/stk-harness")
ENGINE = HARNESS.parent.parent / "engine" / "stk"
FAKE = HARNESS.parent / "stk-fake-uci"
pytestmark = pytest.mark.skipif(
    not (HARNESS.exists() and ENGINE.exists() and FAKE.exists()),
    reason=f"stk-harness, stk and stk-fake-uci not all built ({HARNESS})",
)

# A file name a shell would run things from: quotes of both kinds, spaces, command substitution,
# backquotes, a variable, and a leading '-' (an option look-alike).
EVIL = "-x'; touch PWNED; echo '$(touch PWNED2)\" `touch PWNED3` $HOME"

# Two mates and a quiet position: enough for every command, seconds at the smallest budgets.
MATES = (
    '6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id "m1.backrank";\n'
    'r5k1/5ppp/8/8/8/8/5PPP/6K1 b - - bm Ra1#; id "m1.black";\n'
    'r3r1k1/p4ppp/2pp1b2/8/q2n1P2/2BQ3P/PPP3P1/1K1R2NR b - - bm Re3; id "ecm.361";\n'
)

# The arguments an engine command line carries, each a shell trap, and what each must arrive as.
ARGS_TEXT = (
    'plain "dq $(touch PWNED4) \\"q\\" `touch PWNED5`" '
    "'sq $(touch PWNED6) \"' back\\ slash\\'s '' -leading"
)
ARGS = [
    "plain",
    'dq $(touch PWNED4) "q" `touch PWNED5`',
    'sq $(touch PWNED6) "',
    "back slash's",
    "",
    "-leading",
]


@pytest.fixture
def work(tmp_path: Path) -> Path:
    """The current directory of the run (a child shell would touch PWNED here), in tmp_path."""
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    return cwd


def assert_nothing_ran(tmp_path: Path) -> None:
    pwned = [str(p) for p in tmp_path.rglob("PWNED*")]
    pwned += [str(p) for p in ROOT.glob("PWNED*")] + [str(p) for p in Path.cwd().glob("PWNED*")]
    assert not pwned, f"a shell ran the injected commands: {pwned}"


def run(cwd: Path, *argv: str | Path, harness: Path = HARNESS, timeout: int = 300, **env: str):
    environ = {**os.environ, "STK_PYTHON": sys.executable, **env}
    environ["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT / "harness" / "python"), environ.get("PYTHONPATH", "")]
    )
    return subprocess.run(
        [str(harness), *map(str, argv)],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def suite_file(folder: Path) -> Path:
    path = folder / "mates.epd"
    path.write_text(MATES)
    return path


def copied_build(dest: Path) -> Path:
    """stk-harness and stk copied to dest/harness and dest/engine (their layout in a build tree);
    returns the copied stk-harness, which finds its engine beside it."""
    for binary, sub in ((HARNESS, "harness"), (ENGINE, "engine")):
        (dest / sub).mkdir(parents=True)
        shutil.copy2(binary, dest / sub / binary.name)
    return dest / "harness" / HARNESS.name


def recording_engine(folder: Path) -> Path:
    """The fake UCI engine behind a script that first writes its arguments, each ended by a NUL,
    to args.bin beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "engine with 'quotes' and spaces"
    script.write_text(
        '#!/bin/sh\n: > "$(dirname "$0")/args.bin"\n'
        'for a in "$@"; do printf \'%s\\0\' "$a" >> "$(dirname "$0")/args.bin"; done\n'
        f"exec {shlex.quote(str(FAKE))}\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def recorded_args(engine: Path) -> list[str]:
    data = (engine.parent / "args.bin").read_bytes()
    return data.decode().split("\0")[:-1]


def engine_command(engine: Path) -> str:
    return shlex.quote(str(engine)) + " " + ARGS_TEXT


def assert_started_literally(
    r: subprocess.CompletedProcess, tmp_path: Path, engine: Path, codes: tuple[int, ...] = (0,)
) -> None:
    """The run ended with one of `codes`, no shell ran, and the engine got ARGS word for word."""
    assert r.returncode in codes, r.stdout + r.stderr
    assert_nothing_ran(tmp_path)
    assert recorded_args(engine) == ARGS


def junit_outcomes(path: Path) -> dict[str, str]:
    out = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        kind = next((c.tag for c in case if c.tag in ("failure", "error", "skipped")), "passed")
        out[case.get("name", "")] = kind
    return out


def test_shadow_plot_takes_the_out_dir_literally(tmp_path: Path, work: Path):
    epd = suite_file(tmp_path)
    opts = shlex.split("--depth 2 --config x --quiet --require-excess none")
    r = run(work, "shadow", "--epd", epd, *opts, f"--out-dir={EVIL}")
    assert r.returncode in (0, 1), r.stdout + r.stderr
    assert_nothing_ran(tmp_path)
    shadow = work / EVIL / "shadow"
    assert (shadow / "x-rates.png").stat().st_size > 0, r.stderr
    assert junit_outcomes(work / EVIL / "junit" / "shadow-x.xml")["rate by depth PNG"] == "passed"
    assert not list(shadow.glob("*plot-input*"))


def test_epd_bench_signature_runs_the_engine_at_a_path_with_shell_characters(
    tmp_path: Path, work: Path
):
    harness = copied_build(tmp_path / EVIL)
    bench = subprocess.run([str(ENGINE), "bench"], capture_output=True, text=True, check=True)
    nodes = int(bench.stdout.split("Nodes searched")[-1].split(":")[1].split()[0])
    opts = shlex.split("--depth 1 --bench-signature auto --config e --out-dir out")
    r = run(work, "epd", "--epd", suite_file(tmp_path), *opts, harness=harness)
    assert r.returncode == 0, r.stdout + r.stderr
    assert_nothing_ran(tmp_path)
    assert json.loads((work / "out/epd/e.json").read_text())["bench_signature"] == nodes


def test_all_passes_the_out_dir_literally_and_shows_a_pasteable_command(tmp_path: Path, work: Path):
    (work / "golden").symlink_to(ROOT / "golden")  # the bench step reads golden/bench.txt
    r = run(work, "all", "--tier", "quick", "--only", "bench", f"--out-dir={EVIL}")
    assert_nothing_ran(tmp_path)
    out = work / EVIL
    assert junit_outcomes(out / "junit" / "bench-quick.xml"), r.stdout + r.stderr
    cases = ET.parse(out / "junit" / "all-quick.xml").getroot().iter("testcase")
    step = next(c for c in cases if c.get("name") == "bench")
    assert not [c for c in step if c.tag in ("failure", "error")], r.stdout + r.stderr
    facts = step.findtext("system-out") or ""
    command = next(line for line in facts.splitlines() if line.startswith("command: "))
    assert shlex.split(command.removeprefix("command: ")) == [
        str(HARNESS.resolve()),
        *shlex.split("bench --config quick"),
        f"--out-dir={EVIL}",
    ]


def test_compare_and_its_audits_take_paths_literally(tmp_path: Path, work: Path):
    """Both sides this build (copied under a shell-hostile folder), with the audits: bench, the
    epd suites, the shadow audit, the fail-high collection and the calibration all run as
    children with paths holding EVIL."""
    harness = copied_build(tmp_path / EVIL / "build")
    model = work / "engine" / "src" / "search" / "fhmodel_default.txt"
    model.parent.mkdir(parents=True)
    shutil.copy2(ROOT / "engine/src/search/fhmodel_default.txt", model)
    sides = shlex.split("--base worktree --candidate worktree")
    opts = shlex.split(
        "--nodes 2000 --depth 0 --speed-runs 0 --audits --audit-stride 1 --audit-depth 2"
    )
    epd = f"--epd={suite_file(tmp_path / EVIL)}"
    r = run(
        work, "compare", *sides, epd, *opts, "--config", "c", f"--out-dir={EVIL}", harness=harness
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert_nothing_ran(tmp_path)
    result = json.loads((work / EVIL / "compare" / "c.json").read_text())
    assert result["bench_signature"] == "unchanged"
    audits = result["audits"]
    assert "calibration_json" in audits["base"], audits  # the fail-high audit ran too
    assert (work / audits["base"]["calibration_json"]).exists()


def test_compare_takes_an_engine_command_as_a_side(tmp_path: Path, work: Path):
    engine = recording_engine(tmp_path / EVIL)
    sides = ["--base", engine_command(engine), "--candidate", ENGINE]
    opts = shlex.split("--nodes 2000 --depth 0 --speed-runs 0 --config c")
    epd = f"--epd={suite_file(tmp_path / EVIL)}"
    r = run(work, "compare", *sides, epd, *opts, f"--out-dir={EVIL}")
    assert_started_literally(r, tmp_path, engine)  # the last start: the epd child's engine
    result = json.loads((work / EVIL / "compare" / "c.json").read_text())
    assert result["base"]["engine"] == engine_command(engine)


@pytest.mark.parametrize("revision", [EVIL, "--output=PWNED", "HEAD'; touch PWNED; echo '"])
def test_compare_refuses_a_revision_that_is_no_commit_or_looks_like_an_option(
    tmp_path: Path, work: Path, revision: str
):
    r = run(ROOT, "compare", f"--base={revision}", "--candidate", "worktree", "--out-dir", work)
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"--base {revision}:" in r.stdout + r.stderr
    assert_nothing_ran(tmp_path)


def uci_check(work: Path, engine: str | Path):
    return run(
        work, "uci-check", "--engine", engine, *shlex.split("--only handshake.uci --out-dir o")
    )


def test_uci_check_runs_an_engine_command_line_word_by_word(tmp_path: Path, work: Path):
    engine = recording_engine(tmp_path / EVIL)
    r = uci_check(work, engine_command(engine))
    assert_started_literally(r, tmp_path, engine)


def test_an_existing_executable_path_is_run_whole(tmp_path: Path, work: Path):
    engine = recording_engine(tmp_path / EVIL)
    r = uci_check(work, engine)
    assert r.returncode == 0, r.stdout + r.stderr
    assert recorded_args(engine) == []
    assert_nothing_ran(tmp_path)


def test_match_engine_cmd_is_split_into_words(tmp_path: Path, work: Path):
    engine = recording_engine(tmp_path / EVIL)
    a = ["--engine", f"cmd={engine_command(engine)}", "name=a"]
    b = ["--engine", f"cmd={FAKE}", "name=b"]
    gate = shlex.split("--gate non-regression --min-elo-lower95 -100000")
    r = run(
        work, "match", *a, *b, *shlex.split("--nodes 50 --pairs 1 --config m --out-dir o"), *gate
    )
    assert_started_literally(r, tmp_path, engine)


def datagen(work: Path, teacher: str):
    """One short game labelled by `teacher`, into work/d.txt."""
    opts = "--games 1 --nodes 100 --balance-nodes 100 --max-plies 8 --out d.txt --out-dir o"
    return run(work, "datagen", "--teacher", teacher, "--teacher-nodes", "100", *shlex.split(opts))


def test_datagen_teacher_takes_a_command_line_as_its_help_says(tmp_path: Path, work: Path):
    engine = recording_engine(tmp_path / EVIL)
    r = datagen(work, engine_command(engine))
    assert_started_literally(r, tmp_path, engine)
    assert (work / "d.txt").read_text().strip()


def test_datagen_teacher_with_an_argument(work: Path):
    """The example of the help: the fake engine plus an argument (a defect it plants: none here,
    an unknown name leaves it a correct engine)."""
    r = datagen(work, f"{shlex.quote(str(FAKE))} --defect none")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (work / "d.txt").read_text().strip()


@pytest.mark.parametrize("command,option", [("epd", "--engine"), ("epd-compare", "--reference")])
def test_epd_engines_take_a_command_line(tmp_path: Path, work: Path, command: str, option: str):
    engine = recording_engine(tmp_path / EVIL)
    epd = suite_file(tmp_path)
    opts = shlex.split("--depth 1 --config e --out-dir o --quiet")
    r = run(work, command, "--epd", epd, option, engine_command(engine), *opts)
    assert_started_literally(r, tmp_path, engine, codes=(0, 1))  # 1: a gate of the fake engine
    assert "ERROR" not in r.stdout, r.stdout


def test_perft_reference_takes_a_command_line(tmp_path: Path, work: Path):
    engine = recording_engine(tmp_path / EVIL)
    epd = tmp_path / "start.epd"
    epd.write_text("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20\n")
    opts = shlex.split("--depth 1 --invariants-depth 0 --config p --out-dir o")
    r = run(work, "perft", "--epd", epd, "--reference", engine_command(engine), *opts)
    assert_started_literally(r, tmp_path, engine)


@pytest.mark.parametrize(
    "argv,option",
    [
        (["uci-check", "--engine", "stk 'unbalanced"], "--engine"),
        (["epd", "--epd", "x.epd", "--depth", "1", "--engine", 'stk "open'], "--engine"),
        (
            ["epd-compare", "--epd", "x.epd", "--depth", "1", "--reference", "stk x\\"],
            "--reference",
        ),
        (["datagen", "--games", "1", "--teacher", "stk 'open"], "--teacher"),
        (["match", "--engine", "cmd=stk 'a", "--engine", "cmd=stk", "--nodes", "9"], "--engine"),
        (["perft", "--reference", "stk 'open"], "--reference"),
        (["perft-speed", "--reference", "stk 'open"], "--reference"),
        (["search-speed", "--reference", "stk 'open"], "--reference"),
    ],
)
def test_an_unbalanced_quote_is_a_usage_error_naming_the_option(
    tmp_path: Path, work: Path, argv: list[str], option: str
):
    r = run(work, *argv, "--out-dir", "out")
    assert r.returncode == 2, r.stdout + r.stderr
    assert option in r.stderr + r.stdout and "quote" in r.stderr + r.stdout, r.stderr + r.stdout
    assert_nothing_ran(tmp_path)
