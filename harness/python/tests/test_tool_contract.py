"""The Python tools' fault contract, one test per audited defect (docs/faults.md "Python tools"):
a full disk never leaves a passing report, the trainer checks its outputs before it trains and
resumes only its own run, NaN and out-of-range numbers are refused when the command line is read,
the mutation tool's --fail-under and --diff cannot disable its gate or reach git as options, and
a report missing a field is named with the field (inputs: tests/test_input_paths.py).
Each class is closed for every entry point by tests/test_fault_matrix_python.py and the source
checks at the end of this file."""

from __future__ import annotations

import ast
import os
import re
import tempfile
from pathlib import Path

import pytest
from conftest import material_games
from tool_contract import (
    ENGINE,
    FAULT_LIB,
    PACKAGES,
    REPO,
    SEEDED_NET,
    assert_failed_cleanly,
    fault_env,
    injected_calls,
    junit_state,
    run_module,
)

from stkref.cli import run_tool

os.environ.setdefault(
    "JAX_COMPILATION_CACHE_DIR", os.path.join(tempfile.gettempdir(), "stk-jax-cache")
)


# ---- a full disk: exit 2, never a passing report, never a traceback --------------------------


def gated_tool_argv(tool: str, tmp: Path) -> list[str]:
    small = ["--reports-dir", str(tmp / "r"), "--config", "t"]
    if tool == "netlint":
        return ["--net", str(SEEDED_NET), "--random", "5", "--no-curated", "--no-spec", *small]
    data = tmp / "data.txt"
    material_games(data, 20, 1, plies=(30, 80))
    return [
        "--net", str(SEEDED_NET), "--data", str(data), "--engine", str(ENGINE),
        "--val-fraction", "0.5", "--decided-cp", "300", "--decided", "10", "--pairs", "200",
        "--positions", "100", *small,
    ]  # fmt: skip


@pytest.mark.skipif(not FAULT_LIB.exists(), reason=f"fault injector not built ({FAULT_LIB})")
@pytest.mark.parametrize("tool", ["netlint", "netquality"])
def test_a_full_disk_never_leaves_a_passing_report(tool: str, tmp_path: Path, junit_xsd: Path):
    """Every write under the reports folder fails from the n-th on (a disk that stays full), for
    every n: the run ends with exit 2 and one line, and its JUnit file is an <error> report or
    absent (audit: exit 1, a traceback, and the JUnit just written claiming a pass)."""
    if tool == "netquality" and not ENGINE.exists():
        pytest.skip(f"engine not built ({ENGINE})")
    argv = gated_tool_argv(tool, tmp_path)
    out = tmp_path / "r"
    out.mkdir()
    count = tmp_path / "calls.txt"
    clean = run_module(f"stktrain.{tool}", argv, tmp_path, fault_env(out, 0, False, count))
    assert clean.returncode == 0, clean.says()
    calls = injected_calls(count)
    assert calls > 3
    report = out / "junit" / f"{tool}-t.xml"
    for n in range(1, calls + 1):
        ran = run_module(f"stktrain.{tool}", argv, tmp_path, fault_env(out, n, True, count))
        assert_failed_cleanly(ran, [report], junit_xsd, out)
        if junit_state(report) == "absent":
            assert f"no error report could be written: {report}" in ran.stderr, ran.says()


# ---- the trainer: outputs checked before any work; resume only its own run -------------------


@pytest.fixture(scope="module")
def train_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("contract-train") / "data.txt"
    material_games(path, 20, 1)
    return path


def train(data: Path, out: Path | str, *extra: str) -> int:
    pytest.importorskip("jax")
    pytest.importorskip("optax")
    from stktrain import train as trainer

    argv = ["--data", str(data), "--out", str(out), "--batch", "256", "--lambda", "1"]
    return run_tool(lambda: trainer.main([*argv, "--epochs", "1", *extra]))


@pytest.mark.parametrize("where", ["device", "fifo", "directory", "missing-folder", "summary"])
def test_the_trainer_refuses_a_bad_output_before_it_trains(
    where: str, train_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    """(audit: `--out /dev/full` trained every epoch first, then failed on the write)"""
    out, extra = tmp_path / "net.npz", []
    if where == "device":
        out = Path("/dev/full")
    elif where == "fifo":
        os.mkfifo(out)
    elif where == "directory":
        out.mkdir()
    elif where == "missing-folder":
        out = tmp_path / "no-such-folder" / "net.npz"
    else:
        extra = ["--summary", "/dev/full"]
    assert train(train_data, out, *extra) == 2
    text = capsys.readouterr()
    assert "epoch" not in text.out, text.out  # refused before the first epoch
    named = "/dev/full" if where in ("device", "summary") else str(out)
    assert named in text.err, text.err
    assert not (tmp_path / "net.npz.state.npz").exists()


@pytest.mark.parametrize(
    ("option", "first", "second"),
    [
        ("--seed", "1", "2"),
        ("--lr", "0.001", "0.002"),
        ("--lambda", "1", "0.5"),
        ("--batch", "256", "128"),
        ("--val-fraction", "0.1", "0.2"),
        ("--weight-decay", "0", "0.5"),
        ("--lr-drop", "0", "2"),
        ("--lr-gamma", "0.1", "0.5"),
        ("--max-positions", "0", "500"),
    ],
)
def test_a_resume_refuses_the_state_of_another_run(
    option: str,
    first: str,
    second: str,
    train_data: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
):
    """(audit: --resume went on from a state written with another seed, lr or data)"""
    out = tmp_path / "net.npz"
    assert train(train_data, out, option, first) == 0
    state = out.with_name(out.name + ".state.npz")
    before = state.read_bytes()
    capsys.readouterr()
    assert train(train_data, out, option, second, "--resume", "--epochs", "2") == 2
    err = capsys.readouterr().err
    field = option.lstrip("-").replace("-", "_").replace("lambda", "lam")
    assert "cannot resume" in err and field in err, err
    assert state.read_bytes() == before  # the other run's state is left as it was


def test_a_resume_refuses_other_data_and_accepts_its_own(
    train_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    out = tmp_path / "net.npz"
    assert train(train_data, out) == 0
    other = tmp_path / "other.txt"
    other.write_bytes(train_data.read_bytes().replace(b"| 0.5 |", b"| 1.0 |", 3))
    assert train(other, out, "--resume", "--epochs", "2") == 2
    err = capsys.readouterr().err
    assert "data" in err and "sha256" in err, err
    # The same definition resumes (more epochs and --keep are not part of it).
    assert train(train_data, out, "--resume", "--epochs", "2", "--keep", "last") == 0
    assert "resumed" in capsys.readouterr().out


# ---- numbers: NaN, infinities and out-of-range values refused at parse time ------------------


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-0.001", "1e400"])
def test_the_trainer_refuses_a_bad_learning_rate(
    value: str, train_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    """(audit: `--lr nan` trained a NaN net and exited 0)"""
    assert train(train_data, tmp_path / "net.npz", "--lr", value) == 2
    text = capsys.readouterr()
    assert "--lr" in text.err and "epoch" not in text.out, text
    assert not (tmp_path / "net.npz").exists()


@pytest.mark.parametrize("value", ["nan", "inf", "-1", "100.5"])
def test_the_mutation_gate_refuses_a_threshold_it_could_never_apply(
    value: str, tmp_path: Path, junit_xsd: Path
):
    """(audit: --fail-under nan was accepted, and `score < nan` is never true: the gate could
    not fail)"""
    out = tmp_path / "out"
    ran = run_module(
        "stkmutation",
        [f"--fail-under={value}", "--list", "--files", "harness/python/stkref/spec.py",
         "--config", "t", "--out-dir", str(out)],
        tmp_path,
    )  # fmt: skip
    assert_failed_cleanly(ran, [out / "junit" / "mutation-t.xml"], junit_xsd, out)
    assert "--fail-under" in ran.stderr, ran.says()


# ---- values handed to git are revisions, never options ---------------------------------------


@pytest.mark.parametrize("value", ["--output={victim}", "-p", "no-such-revision-xyz", "HEAD:x"])
def test_a_diff_base_must_be_a_commit(value: str, tmp_path: Path, junit_xsd: Path):
    """(audit: `ci/mutation.sh --diff=--output=FILE` handed the value to git diff, which truncated
    FILE; the run exited 0 and the premerge step was silently skipped)"""
    victim = tmp_path / "victim.txt"
    victim.write_text("kept\n")
    out = tmp_path / "out"
    base = value.format(victim=victim)
    ran = run_module(
        "stkmutation",
        [f"--diff={base}", "--files", "harness/python/stkref/spec.py", "--config", "t",
         "--out-dir", str(out)],
        tmp_path,
    )  # fmt: skip
    assert victim.read_text() == "kept\n"
    assert_failed_cleanly(ran, [out / "junit" / "mutation-t.xml"], junit_xsd, out)
    assert "--diff" in ran.stderr and base in ran.stderr, ran.says()


def test_a_diff_base_that_is_a_commit_is_taken(tmp_path: Path):
    out = tmp_path / "out"
    ran = run_module(
        "stkmutation",
        ["--diff", "HEAD", "--files", "harness/python/stkref/spec.py", "--config", "t",
         "--out-dir", str(out)],
        tmp_path,
    )  # fmt: skip
    assert ran.returncode == 0, ran.says()
    assert junit_state(out / "junit" / "mutation-t.xml") == "pass"  # the empty run's report


# ---- a report missing a field: named, not a KeyError ----------------------------------------


STRENGTH_REPORTS = [
    *(f"match/{n}.json" for n in ("equal-nodes", "equal-nodes-aa", "equal-time", "equal-time-aa")),
    *(f"match/gauntlet-{n}.json" for n in ("nnue", "classical")),
    "search-speed/classical.json",
    "search-speed/nnue.json",
    "drift/drift-trained.json",
    "netlint/trained.json",
    "netquality/trained.json",
    "move-times/equal-time.json",
    "move-times/equal-time-aa.json",
]


@pytest.mark.parametrize(
    ("filled", "said"),
    [
        ({}, "drift/drift-trained.json: no field 'abs_delta_cp'"),
        (
            {
                "drift/drift-trained.json": {"abs_delta_cp": {}},
                "netlint/trained.json": {"ft": {}},
                "netquality/trained.json": {"net": {}, "classical": {}},
                "match/gauntlet-nnue.json": {"summary": {"pentanomial_estimate": {}}},
            },
            "match/gauntlet-nnue.json: no field 'summary/pentanomial_estimate/elo'",
        ),
    ],
    ids=["a-field", "a-nested-field"],
)
def test_a_strength_report_missing_a_field_names_the_file_and_the_field(
    filled: dict, said: str, tmp_path: Path
):
    """(audit: `stktrain.strength_report` ended as `internal error: KeyError: 'abs_delta_cp'`)"""
    import json

    work = tmp_path / "work"
    for name in STRENGTH_REPORTS:
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(json.dumps(filled.get(name, {})))
    page = tmp_path / "page.md"
    ran = run_module("stktrain.strength_report", [str(work), "--out", str(page)], tmp_path)
    assert_failed_cleanly(ran, [], None, tmp_path)
    assert f"error: {work}/{said}" in ran.stderr and "internal error" not in ran.stderr, ran.says()
    assert not page.exists()


# ---- source checks: every subprocess an argument list; every number a checked option ---------


def python_sources() -> list[Path]:
    files = [
        p
        for pkg in ("stkref", "stktrain", "stkmutation", "stkdev", "stkdist")
        for p in (PACKAGES / pkg).glob("*.py")
    ]
    return files + sorted((REPO / "ci").glob("*.py"))


def calls(path: Path) -> list[ast.Call]:
    return [n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Call)]


def name_of(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return f"{name_of(func.value)}.{func.attr}"
    return func.id if isinstance(func, ast.Name) else ""


def test_every_subprocess_starts_from_an_argument_list():
    """No shell: never shell=True, os.system, os.popen or a command given as one string."""
    bad = []
    for path in python_sources():
        for c in calls(path):
            name = name_of(c.func)
            where = f"{path.relative_to(REPO)}:{c.lineno}"
            if name in (
                "os.system",
                "os.popen",
                "subprocess.getoutput",
                "subprocess.getstatusoutput",
            ):
                bad.append(f"{where}: {name}")
            for kw in c.keywords:
                if kw.arg == "shell" and not (
                    isinstance(kw.value, ast.Constant) and kw.value.value is False
                ):
                    bad.append(f"{where}: shell={ast.unparse(kw.value)}")
            if name.startswith("subprocess.") and c.args:
                first = c.args[0]
                if isinstance(first, (ast.JoinedStr, ast.BinOp)) or (
                    isinstance(first, ast.Constant) and isinstance(first.value, str)
                ):
                    bad.append(f"{where}: a command string")
    assert not bad, "\n".join(bad)


def test_every_numeric_option_is_a_checked_one():
    """`type=int` / `type=float` take NaN, infinities and any range: every numeric option uses
    stkref.options (finite, ranged, refused at parse time with the option's name); no type
    converts with int() or float() itself (a lambda, say)."""
    bad = []
    for path in python_sources():
        for c in calls(path):
            if name_of(c.func).endswith("add_argument"):
                for kw in c.keywords:
                    text = ast.unparse(kw.value)
                    if kw.arg == "type" and re.search(r"\b(int|float|Decimal)\b", text):
                        bad.append(f"{path.relative_to(REPO)}:{c.lineno}: type={text}")
    assert not bad, "\n".join(bad)


def test_the_contract_modules_need_only_the_standard_library():
    """The stkdev tools run before the venv exists (system python3): what they run under imports
    nothing beyond the standard library."""
    code = (
        "import sys; import stkref.cli, stkref.outputs, stkref.options, stkref.inputs; "
        "print(sorted(m for m in ('numpy', 'chess', 'matplotlib') if m in sys.modules))"
    )
    import subprocess
    import sys

    from tool_contract import tool_env

    out = subprocess.run(
        [sys.executable, "-c", code], env=tool_env(), capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


def test_a_planted_check_gets_its_report_folder_from_the_environment(tmp_path: Path):
    """The job's report folder (a path with a quote, spaces and `$()`) reaches a MANIFEST check
    through $MUTANT_OUT, never pasted into the shell line (audit: shell=True on a pasted path)."""
    import subprocess

    from stkmutation import planted

    job = tmp_path / "job's $(touch pwned) reports"
    job.mkdir()
    check = "echo caught > /tmp/stk-mutant-reports/out.txt; test -s /tmp/stk-mutant-reports/out.txt"
    p = subprocess.run(
        planted.check_argv(check), cwd=tmp_path, env=dict(os.environ, MUTANT_OUT=str(job))
    )
    assert p.returncode == 0
    assert (job / "out.txt").read_text() == "caught\n"
    assert not list(tmp_path.rglob("pwned"))
