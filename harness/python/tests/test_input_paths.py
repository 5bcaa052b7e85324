"""Input paths (docs/faults.md "Python tools"): every file a tool reads is a regular file checked
before it is opened. A FIFO given as an input blocked the run forever, /dev/zero or /dev/urandom
was read until the OOM killer came (audit: `stktrain.train --data FIFO` never returned). The
checked types and reader of stkref.inputs, every input option of every entry point (a FIFO there
is refused while the command line is read, naming the option and the path), and a source check
that no option naming a file is left without a checked type. The fault matrix
(test_fault_matrix_python.py, the input-* cells) runs each entry point against FIFOs, devices,
folders and broken links as subprocesses."""

from __future__ import annotations

import argparse
import ast
import contextlib
import importlib
import os
import re
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tool_contract import PACKAGES, REPO, junit_state

from stkref import inputs
from stkref.cli import run_tool
from stkref.errors import InputError

# ---- the checks and the checked reader --------------------------------------------------------


@pytest.fixture
def things(tmp_path: Path) -> dict[str, Path]:
    """One of each kind of path an input may be given as."""
    regular = tmp_path / "regular.txt"
    regular.write_text("text\n")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    link = tmp_path / "link.txt"
    link.symlink_to(regular)
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "missing")
    loop = tmp_path / "loop"
    loop.symlink_to("loop")
    return {
        "regular": regular,
        "link": link,
        "fifo": fifo,
        "folder": folder,
        "dangling": dangling,
        "loop": loop,
        "missing": tmp_path / "missing",
        "zero": Path("/dev/zero"),
        "urandom": Path("/dev/urandom"),
    }


FILE_PROBLEMS = {
    "regular": "",
    "link": "",  # a link to a regular file is that file
    "fifo": "is a FIFO, not a regular file",
    "folder": "is a directory",
    "dangling": "is a dangling symbolic link (to ",
    "loop": "is a symbolic link loop",
    "missing": "cannot open file: No such file or directory",
    "zero": "is a character device, not a regular file",
    "urandom": "is a character device, not a regular file",
}


@pytest.mark.parametrize("kind", FILE_PROBLEMS)
def test_an_input_file_is_an_existing_regular_file(kind: str, things: dict[str, Path]):
    path = things[kind]
    why = inputs.input_problem(path)
    assert why.startswith(FILE_PROBLEMS[kind]) and bool(why) == bool(FILE_PROBLEMS[kind]), why
    parse = inputs.input_file()
    if not why:
        assert parse(str(path)) == path
        assert inputs.read_input_text(path) == "text\n"
        return
    with pytest.raises(argparse.ArgumentTypeError, match="^" + re.escape(f"{path}: {why}")):
        parse(str(path))
    with pytest.raises(inputs.UnreadableInputError, match="^" + re.escape(f"{path}: ")):
        inputs.read_input_bytes(path)


@pytest.mark.parametrize(
    ("kind", "why"),
    [
        ("folder", ""),
        ("fifo", "is a FIFO, not a folder"),
        ("regular", "is a regular file, not a folder"),
        ("zero", "is a character device, not a folder"),
        ("dangling", "is a dangling symbolic link"),
        ("loop", "is a symbolic link loop"),
        ("missing", "cannot open folder: No such file or directory"),
    ],
)
def test_an_input_folder_is_an_existing_folder(kind: str, why: str, things: dict[str, Path]):
    path = things[kind]
    if not why:
        assert inputs.folder(str(path)) == path
        return
    with pytest.raises(argparse.ArgumentTypeError, match="^" + re.escape(f"{path}: {why}")):
        inputs.folder(str(path))


def test_a_socket_is_refused(tmp_path: Path):
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        assert inputs.input_problem(path) == "is a socket, not a regular file"


def test_a_program_is_an_executable_regular_file(things: dict[str, Path]):
    with pytest.raises(argparse.ArgumentTypeError, match="is not executable"):
        inputs.program(str(things["regular"]))
    with pytest.raises(argparse.ArgumentTypeError, match="is a FIFO"):
        inputs.program(str(things["fifo"]))
    things["regular"].chmod(0o755)
    assert inputs.program(str(things["link"])) == things["link"]


def test_a_file_over_the_limit_is_refused_before_it_is_read(tmp_path: Path):
    big = tmp_path / "big.bin"
    with open(big, "wb") as f:
        f.truncate(101)  # sparse: nothing to read, only the size
    with pytest.raises(argparse.ArgumentTypeError, match="is 101 bytes, over the 100-byte"):
        inputs.input_file(100)(str(big))
    with pytest.raises(InputError, match="over the 100-byte input limit"):
        inputs.read_input_bytes(big, 100)
    assert len(inputs.read_input_bytes(big, 101)) == 101
    # The defaults: 1 GiB as io::kMaxInputBytes, 16 GiB for training data and search records.
    assert inputs.LIMIT == 1 << 30 and inputs.DATA_LIMIT == 16 << 30


def test_a_file_that_grows_past_the_limit_while_read_is_refused(tmp_path: Path):
    path = tmp_path / "growing.txt"
    path.write_bytes(b"x" * 10)
    with inputs.open_input(path, 20) as f, open(path, "ab") as more:
        more.write(b"y" * 30)  # after the check, before the read
        more.flush()
        with pytest.raises(OverflowError):
            inputs._read_all(f, 20)


def test_a_fifo_swapped_in_after_the_check_is_refused_not_waited_on(
    things: dict[str, Path], monkeypatch: pytest.MonkeyPatch
):
    """The open itself never blocks (O_NONBLOCK), and what was opened is checked again."""
    monkeypatch.setattr(inputs, "check_input", lambda *_: None)  # the check passed, then a swap
    result: list[BaseException | None] = []

    def read() -> None:
        try:
            inputs.read_input_bytes(things["fifo"])
            result.append(None)
        except BaseException as e:
            result.append(e)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(10)
    if t.is_alive():  # unblock the thread (a writer comes) before failing
        with open(things["fifo"], "wb"):
            pass
        pytest.fail("the open of a FIFO blocked")
    assert isinstance(result[0], inputs.UnreadableInputError), result
    assert "is a FIFO, not a regular file" in str(result[0])


def test_text_that_is_not_utf8_names_the_file(tmp_path: Path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"caf\xe9\n")
    with pytest.raises(InputError, match="^" + re.escape(f"{path}: not UTF-8 text")):
        inputs.read_input_text(path)
    assert inputs.read_input_text(path, errors="replace") == "caf\ufffd\n"


# ---- every input option of every entry point --------------------------------------------------


@contextlib.contextmanager
def deadline(seconds: int) -> Iterator[None]:
    """A run blocked (on a FIFO) fails with TimeoutError after `seconds` instead of hanging."""

    def fire(_signum: int, _frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s: blocked on an input")

    old = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# (module, the option argparse names, the command line with X where the input goes, a folder?)
Case = tuple[str, str, Callable[[str, "Files"], list[str]], bool]


class Files:
    """Stand-ins for the inputs a command line names besides the one tested: any regular file
    (argparse refuses the tested one before any is read) and an executable one."""

    def __init__(self, root: Path) -> None:
        self.out = root / "out"
        self.out.mkdir()
        self.file = root / "file.txt"
        self.file.write_text("stand-in\n")
        self.program = root / "program"
        self.program.write_text("#!/bin/sh\n")
        self.program.chmod(0o755)

    def reports(self) -> list[str]:
        return ["--config", "t", "--reports-dir", str(self.out)]


def case(module: str, label: str, argv: Callable[[str, Files], list[str]], folder: bool = False):
    return pytest.param(module, label, argv, folder, id=f"{module}:{label}")


CASES = [
    case("stkref.checknet", "file", lambda x, _: [x]),
    case("stkref.drift", "--checkpoint", lambda x, f: ["--checkpoint", x, *f.reports()]),
    case(
        "stkref.drift",
        "--net",
        lambda x, f: [*f.reports(), "--checkpoint", str(f.file), "--net", x],
    ),
    case(
        "stkref.drift",
        "--engine",
        lambda x, f: [*f.reports(), "--checkpoint", str(f.file), "--engine", x],
    ),
    case(
        "stkref.drift",
        "--epd",
        lambda x, f: [*f.reports(), "--checkpoint", str(f.file), "--epd", x],
    ),
    case("stkref.fhrecords", "file", lambda x, _: ["dump", x]),
    case("stkref.fhrecords", "--model", lambda x, f: ["dump", str(f.file), "--model", x]),
    case("stkref.fhrecords", "files", lambda x, f: ["summary", str(f.file), x]),
    case("stkref.fhsynth", "--model", lambda x, f: [str(f.out / "s.fhr"), "--model", x]),
    case("stkref.golden", "--check", lambda x, _: ["--check", x], folder=True),
    case("stkref.parity", "--engine", lambda x, f: ["features", "--engine", x, *f.reports()]),
    case(
        "stkref.parity",
        "--epd",
        lambda x, f: ["features", "--engine", str(f.program), "--epd", x, *f.reports()],
    ),
    case(
        "stkref.parity",
        "--net",
        lambda x, f: ["eval", "--engine", str(f.program), "--net", x, *f.reports()],
    ),
    case("stkref.perft", "--epd", lambda x, _: ["--epd", x]),
    case("stkref.shadowplot", "summary", lambda x, f: [x, str(f.out / "s.png")]),
    case(
        "stktrain.calibration",
        "--records",
        lambda x, f: ["--records", str(f.file), x, "--model", str(f.file), "--out-dir", str(f.out)],
    ),
    case(
        "stktrain.calibration",
        "--model",
        lambda x, f: ["--records", str(f.file), "--model", x, "--out-dir", str(f.out)],
    ),
    case("stktrain.export", "checkpoint", lambda x, f: [x, str(f.out / "n.nnue")]),
    case("stktrain.fhfit", "--records", lambda x, f: ["--records", x, "--out", str(f.out / "m")]),
    case("stktrain.netlint", "--net", lambda x, f: ["--net", x, *f.reports()]),
    case(
        "stktrain.netlint", "--epd", lambda x, f: [*f.reports(), "--net", str(f.file), "--epd", x]
    ),
    case(
        "stktrain.netquality",
        "--net",
        lambda x, f: [*f.reports(), "--net", x, "--data", str(f.file), "--engine", str(f.program)],
    ),
    case(
        "stktrain.netquality",
        "--data",
        lambda x, f: [*f.reports(), "--net", str(f.file), "--data", str(f.file), "--data", x],
    ),
    case(
        "stktrain.netquality",
        "--engine",
        lambda x, f: [*f.reports(), "--net", str(f.file), "--data", str(f.file), "--engine", x],
    ),
    case("stktrain.record_net", "--checkpoint", lambda x, _: ["--checkpoint", x]),
    case("stktrain.record_net", "--summary", lambda x, _: ["--summary", x]),
    case("stktrain.record_net", "--data", lambda x, f: ["--data", x, "--out-dir", str(f.out)]),
    case("stktrain.move_times", "pgn", lambda x, f: [x, "--json", str(f.out / "t.json")]),
    case(
        "stktrain.teacher_budget",
        "--data",
        lambda x, f: ["--data", x, "--teacher", str(f.program), "--json", str(f.out / "t.json")],
    ),
    case(
        "stktrain.teacher_budget",
        "--teacher",
        lambda x, f: ["--data", str(f.file), "--teacher", x, "--json", str(f.out / "t.json")],
    ),
    case(
        "stktrain.teacher_budget",
        "--engine",
        lambda x, f: ["--data", str(f.file), "--teacher", str(f.program), "--engine", x],
    ),
    case(
        "stktrain.strength_report",
        "work",
        lambda x, f: [x, "--out", str(f.out / "t.md")],
        folder=True,
    ),
    case("stktrain.train", "--data", lambda x, f: ["--data", x, "--out", str(f.out / "n.npz")]),
    case("stkmutation.__main__", "--rerun", lambda x, f: ["--rerun", x, "--out-dir", str(f.out)]),
    case(
        "stkmutation.campaign",
        "--report",
        lambda x, f: ["--report", x, "--out-dir", str(f.out)],
    ),
    case("stkmutation.tool", "--rerun", lambda x, f: ["--rerun", x, "--out-dir", str(f.out)]),
    case("stkmutation.tool", "--resume", lambda x, f: ["--resume", x, "--out-dir", str(f.out)]),
    case("stkmutation.planted", "--merge", lambda x, f: ["--merge", x, "--out-dir", str(f.out)]),
    case("stkmutation.models", "--detection", lambda x, f: ["--detection", x, "--check"]),
    case("stkmutation.models", "--root", lambda x, f: ["--root", x, "--check"], folder=True),
    case("stkdev.cli_docs", "--harness", lambda x, f: ["--harness", x, "--out", str(f.out / "c")]),
    case(
        "stkdev.measurements",
        "--reports",
        lambda x, f: ["--reports", x, "--out", str(f.out / "m.md")],
        folder=True,
    ),
    case("stkdev.import_cycles", "roots", lambda x, _: [x], folder=True),
    case("stkdev.report_digests", "dir", lambda x, _: [x], folder=True),
    case(
        "stkdev.standalone",
        "--build",
        lambda x, f: ["--build", x, "--junit", str(f.out / "j.xml")],
        folder=True,
    ),
    case(
        "stkdev.checks_junit",
        "results",
        lambda x, f: ["--suite", "s.t", "--out", str(f.out / "j.xml"), x],
    ),
]


@pytest.mark.parametrize(("module", "label", "argv", "folder"), CASES)
def test_every_input_option_refuses_a_fifo_while_the_command_line_is_read(
    module: str,
    label: str,
    argv: Callable[[str, Files], list[str]],
    folder: bool,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
):
    """(audit: a FIFO as --data, --net, --checkpoint, --records, --epd... blocked forever)"""
    monkeypatch.chdir(tmp_path)  # a default output (./reports) lands here, seen below
    files = Files(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    main = importlib.import_module(module).main
    with deadline(20):
        status = run_tool(lambda: main(argv(str(fifo), files)))
    err = capsys.readouterr().err
    assert status == 2, err
    kind = "not a folder" if folder else "not a regular file"
    assert f"argument {label}: {fifo}: is a FIFO, {kind}" in err, err
    # Nothing written but the <error> reports the command line names.
    assert not (tmp_path / "reports").exists(), "written to the default report folder"
    for path in files.out.rglob("*"):
        assert path.is_dir() or junit_state(path) == "error", path


def test_the_table_names_every_input_option():
    """Each option with a checked input type (stkref.inputs) has a case above."""
    found = set()
    for path in entry_sources():
        for _, option, kind in arguments(path):
            if kind.startswith(("inputs.", "input_file", "folder", "program")):
                found.add((module_of(path), option))
    named = {(p.values[0], p.values[1]) for p in CASES}
    if any(p.values[1] == "--epd" for p in CASES):  # stkref.report's corpus options
        named.add(("stkref.report", "--epd"))
    missing = sorted(found - named)
    assert not missing, f"input options without a case: {missing}"


# ---- the source check: no option that names a file is left unchecked ------------------------


def entry_sources() -> list[Path]:
    files = [
        p
        for pkg in ("stkref", "stktrain", "stkmutation", "stkdev")
        for p in (PACKAGES / pkg).glob("*.py")
    ]
    return files + sorted((REPO / "ci").glob("*.py"))


def module_of(path: Path) -> str:
    return f"{path.parent.name}.{path.stem}"


def arguments(path: Path) -> Iterator[tuple[ast.Call, str, str]]:
    """(call, option or positional name, the type's source text or '') of each add_argument."""
    for c in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)):
            continue
        if c.func.attr != "add_argument" or not c.args:
            continue
        kw = {k.arg: k.value for k in c.keywords}
        action = kw.get("action")
        if isinstance(action, ast.Constant) and action.value in ("store_true", "store_false"):
            continue
        if "choices" in kw:
            continue  # one of a fixed list: not a path
        option = ast.literal_eval(c.args[0]) if isinstance(c.args[0], ast.Constant) else "?"
        yield c, option, ast.unparse(kw["type"]) if "type" in kw else ""


# Options with no checked input type, and why that is right: they are not inputs.
NOT_INPUTS = {
    # outputs (stkref.outputs checks them before any work)
    **dict.fromkeys(
        [
            ("stkref.fhsynth", "out"),
            ("stkref.report", "--reports-dir"),
            ("stkref.report", "--junit"),
            ("stkref.golden", "--out"),
            ("stkref.golden", "--junit"),
            ("stkref.checkpoint", "out"),
            ("stkref.shadowplot", "out"),
            ("stktrain.fhfit", "--out"),
            ("stktrain.fhfit", "--report-dir"),
            ("stktrain.calibration", "--out-dir"),
            ("stktrain.calibration", "--junit"),
            ("stktrain.export", "out"),
            ("stktrain.record_net", "--out-dir"),
            ("stktrain.strength_report", "--out"),
            ("stktrain.move_times", "--json"),
            ("stktrain.teacher_budget", "--json"),
            ("stktrain.train", "--out"),
            ("stktrain.train", "--summary"),
            ("stkmutation.planted", "--out-dir"),
            ("stkmutation.campaign", "--out-dir"),
            ("stkmutation.campaign", "--doc"),
            ("stkmutation.tool", "--out-dir"),
            ("stkdev.fuzz_runner", "--work-dir"),
            ("stkdev.fuzz_runner", "--regressions"),
            ("stkdev.fuzz_runner", "--out-dir"),
            ("stkdev.cli_docs", "--out"),  # with --check read back: read_input_text
            ("stkdev.build_profile", "--doc"),  # read back: read_input_text
            ("stkdev.measurements", "--out"),  # with --check read back: read_input_text
            ("stkmutation.models", "--out"),  # with --check read back: read_input_text
            ("stktrain.sweep", "--out"),
            ("stktrain.sweep", "--md"),
            ("stkdev.checks_junit", "--out"),
            ("stkdev.standalone", "--junit"),
        ],
        "output",
    ),
    # words, not paths
    **dict.fromkeys(
        [
            ("stkref.drift", "--engine-args"),
            ("stkref.sprt", "--pentanomial"),
            ("stkref.sprt", "--wdl"),
            ("stktrain.record_net", "--datagen-command"),
            ("stkmutation.planted", "pattern"),
            ("stkmutation.planted", "--shard"),
            ("stkmutation.tool", "--files"),  # globs over the commit's files (git ls-tree)
            ("stkmutation.tool", "--shard"),
            ("stkmutation.tool", "--diff"),
            ("stkmutation.tool", "--config"),
            ("stkmutation.tool", "--commit"),  # a revision, verified as --diff's (commit_of)
            ("stkdev.build_profile", "--cmake-arg"),
            ("stkdev.checks_junit", "--suite"),
        ],
        "not a path",
    ),
    # A name and two files a run: the files are checked in main (inputs.check_input), where
    # argparse's one type per option cannot tell them from the name.
    ("stktrain.sweep", "--run"): "checked in main",
    # The fuzz targets' folder: programs run, never read here; a missing build is reported per
    # target (an <error> each, exit 2) by design.
    ("stkdev.fuzz_runner", "--bin-dir"): "programs",
}


def test_every_option_that_names_a_file_has_a_checked_type():
    """An option without a type (a string) or with type=Path is an output or not a path at all;
    an input has stkref.inputs' input_file(), folder or program."""
    unchecked = {}
    for path in entry_sources():
        for c, option, kind in arguments(path):
            if kind in ("", "Path"):
                unchecked[(module_of(path), option)] = f"{path.name}:{c.lineno}"
    unexplained = {k: v for k, v in unchecked.items() if k not in NOT_INPUTS}
    assert not unexplained, f"options that may name an input, with no checked type: {unexplained}"
    assert not set(NOT_INPUTS) - set(unchecked), "NOT_INPUTS names options that no longer exist"
