"""Faults round 2 (docs/faults.md): the audit's defects of the C++ harness, one test per class.

- a PGN collection given to `match` keeps its games; a device or FIFO as --pgn is refused at once;
- a symbolic link at a lock path is refused and its target never written; a journal reached
  through a symbolic link takes the lock of the file it names;
- an engine that writes without newlines cannot keep a command past its deadline;
- a closed stdout and SIGTERM end a run with exit 2, <error> reports, no lock or temporary left.

Runs when the binaries exist (STK_HARNESS, else build/release)."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import time
from pathlib import Path

import pytest
from test_faults import FAKE, HARNESS, LIB, match_argv, valid_error_report

pytestmark = pytest.mark.skipif(
    not (Path(HARNESS).exists() and Path(LIB).exists() and Path(FAKE).exists()),
    reason=f"stk-harness or stk-fake-uci not built ({HARNESS})",
)

REPO = Path(__file__).resolve().parents[3]
FOREIGN_GAME = (
    '[Event "my collection"]\n[Site "?"]\n[Date "2020.01.01"]\n[Round "1"]\n[White "x"]\n'
    '[Black "y"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
)


def harness(argv: list[str], timeout: float = 120, **kw: object) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HARNESS, *argv], capture_output=True, text=True, timeout=timeout, cwd=REPO, **kw
    )


def leftovers(d: Path) -> list[str]:
    return [str(p) for p in d.rglob("*") if ".tmp" in p.name or p.name.endswith(".lock")]


# --- match --pgn: a collection users keep, never a device ------------------------------------


def test_match_appends_to_a_pgn_collection(tmp_path: Path) -> None:
    pgn = tmp_path / "collection.pgn"
    pgn.write_text(FOREIGN_GAME)
    for config in ("m", "n"):  # two new matches (fresh states) into one collection
        argv = [*match_argv(tmp_path / "r"), "--pgn", str(pgn)]
        argv[argv.index("--config") + 1] = config
        run = harness(argv)
        assert run.returncode == 0, run.stderr
    text = pgn.read_text()
    assert text.startswith(FOREIGN_GAME), "the collection's own game was lost"
    assert text.count("[Event ") == 1 + 4 + 4, text


def test_a_resumed_match_cuts_only_its_own_unrecorded_tail(tmp_path: Path) -> None:
    out = tmp_path / "r"
    pgn = tmp_path / "c.pgn"
    pgn.write_text(FOREIGN_GAME)
    argv = [*match_argv(out), "--pgn", str(pgn)]
    assert harness(argv).returncode == 0
    whole = pgn.read_text()
    # A run killed between the PGN and the journal: the last pair's games, not its line.
    state = out / "match/m-state.jsonl"
    lines = state.read_text().splitlines(keepends=True)
    state.write_text("".join(lines[:-1]))
    rerun = harness(argv)
    assert rerun.returncode == 0, rerun.stderr
    assert pgn.read_text() == whole, "the resumed PGN is not the unbroken run's"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/full", "/dev/urandom", "fifo", "dir"])
def test_match_refuses_a_pgn_that_is_no_regular_file_at_once(device: str, tmp_path: Path) -> None:
    path = device
    if device == "fifo":
        path = str(tmp_path / "p.fifo")
        os.mkfifo(path)
    elif device == "dir":
        path = str(tmp_path / "d")
        os.mkdir(path)
    out = tmp_path / "r"
    t0 = time.monotonic()
    proc = harness([*match_argv(out), "--pgn", path], timeout=30)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert time.monotonic() - t0 < 10
    assert f"{path}: is " in proc.stderr and "not a regular file" in proc.stderr, proc.stderr
    assert valid_error_report((out / "junit/match-m.xml").read_bytes())
    assert not (out / "match/m-state.jsonl").exists(), "games were played before the refusal"
    assert leftovers(out) == []


# --- locks: the file's identity, never a link ----------------------------------------------


@pytest.mark.parametrize("lock", ["match/m.lock", "match/m-state.jsonl.lock", "data.txt.lock"])
def test_a_symlink_at_a_lock_path_is_refused_and_its_target_untouched(
    lock: str, tmp_path: Path
) -> None:
    out = tmp_path / "r"
    target = tmp_path / "precious"
    target.write_text("keep me\n")
    (out / "match").mkdir(parents=True)
    (out / lock).symlink_to(target)
    if lock.startswith("data"):
        argv = ["datagen", "--games", "1", "--nodes", "50", "--out", str(out / "data.txt")]
        argv += ["--out-dir", str(out)]
    else:
        argv = match_argv(out)
    proc = harness(argv)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "is a symbolic link" in proc.stderr, proc.stderr
    assert target.read_text() == "keep me\n"
    assert (out / lock).is_symlink(), "the link was removed: the refusal must leave it"


def test_a_journal_through_a_symlink_takes_the_same_lock(tmp_path: Path) -> None:
    data = tmp_path / "data.txt"
    link = tmp_path / "link.txt"
    link.symlink_to(data)
    argv = ["datagen", "--games", "40", "--nodes", "3000", "--out-dir", str(tmp_path / "r")]
    first = subprocess.Popen(
        [HARNESS, *argv, "--out", str(data)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(200):
            if (tmp_path / "data.txt.lock").exists():
                break
            time.sleep(0.05)
        second = harness([*argv, "--out", str(link)])
        assert second.returncode == 2, second.stdout + second.stderr
        assert "held by another run" in second.stderr, second.stderr
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(timeout=60)
    assert first.returncode == 2


# --- engines that never end a line --------------------------------------------------------


def flooding_engine(tmp: Path) -> str:
    """Writes without end and never a newline: every read returns data, no line ever completes."""
    script = tmp / "flood.sh"
    script.write_text("#!/bin/sh\nexec tr -d '\\n' < /dev/zero\n")
    script.chmod(0o755)
    return str(script)


def limited_memory() -> None:
    """A harness that keeps what a flood sends fails here (2 GiB) instead of exhausting the host."""
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def test_an_engine_without_newlines_cannot_hold_uci_check(tmp_path: Path) -> None:
    engine = flooding_engine(tmp_path)
    argv = ["uci-check", "--engine", engine, "--timeout-scale", "0.1", "--out-dir", str(tmp_path)]
    t0 = time.monotonic()
    proc = harness(argv, timeout=60, preexec_fn=limited_memory)
    assert proc.returncode == 2 and time.monotonic() - t0 < 20, proc.stderr
    assert "did not answer 'uci' with 'uciok'" in proc.stderr, proc.stderr


def test_an_engine_without_newlines_cannot_hold_match(tmp_path: Path) -> None:
    engine = flooding_engine(tmp_path)
    argv = match_argv(tmp_path / "r")
    argv[argv.index(f"cmd={FAKE}")] = f"cmd={engine}"
    t0 = time.monotonic()
    proc = harness([*argv, "--timeout-ms", "1000"], timeout=60, preexec_fn=limited_memory)
    assert proc.returncode == 2 and time.monotonic() - t0 < 20, proc.stderr
    assert "uciok" in proc.stderr, proc.stderr


# --- closed stdout, SIGTERM --------------------------------------------------------------


@pytest.mark.parametrize("how", ["broken-pipe", "closed"])
def test_a_closed_stdout_is_exit_2_with_an_error_report(how: str, tmp_path: Path) -> None:
    out = tmp_path / "r"
    argv = [HARNESS, "datagen", "--games", "2", "--nodes", "50", "--out", str(tmp_path / "d.txt")]
    argv += ["--out-dir", str(out)]
    if how == "closed":
        proc = subprocess.run(
            argv,
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=lambda: os.close(1),
            timeout=120,
        )
    else:
        r, w = os.pipe()
        os.close(r)
        proc = subprocess.run(
            argv, cwd=REPO, stdout=w, stderr=subprocess.PIPE, text=True, timeout=120
        )
        os.close(w)
    assert proc.returncode == 2, proc.stderr
    assert "stdout" in proc.stderr, proc.stderr
    assert valid_error_report((out / "junit/datagen-seed1.xml").read_bytes())
    assert leftovers(tmp_path) == []


def test_sigterm_ends_a_match_with_exit_2_and_no_lock_or_temporary(tmp_path: Path) -> None:
    out = tmp_path / "r"
    argv = match_argv(out)
    argv[argv.index("--pairs") + 1] = "200"
    proc = subprocess.Popen(
        [HARNESS, *argv], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    for _ in range(400):
        if (out / "match/m-state.jsonl").exists():
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    assert "interrupted by SIGTERM" in err, err
    assert valid_error_report((out / "junit/match-m.xml").read_bytes())
    assert leftovers(out) == []


# --- smaller defects of the audit ---------------------------------------------------------


def test_review_names_a_symlink_loop_and_still_writes_its_page(tmp_path: Path) -> None:
    reports = tmp_path / "reports"
    (reports / "junit").mkdir(parents=True)
    (reports / "x").mkdir()
    (reports / "junit/a.xml").symlink_to(reports / "junit/b")
    (reports / "junit/b").symlink_to(reports / "junit/a.xml")
    (reports / "x/loop.json").symlink_to("loop.json")
    proc = harness(["review", "--reports", str(reports)])
    assert proc.returncode == 1, proc.stderr  # an input it could not read, named on the page
    page = (reports / "index.html").read_text()
    assert "a.xml" in page


def test_datagen_shard_without_games_is_a_clean_empty_run(tmp_path: Path) -> None:
    out = tmp_path / "r"
    argv = ["datagen", "--games", "1", "--shard", "2/2", "--nodes", "50"]
    proc = harness([*argv, "--out", str(tmp_path / "d.txt"), "--out-dir", str(out)])
    assert proc.returncode == 0, proc.stderr
    assert "<error" not in (out / "junit/datagen-seed1-shard2of2.xml").read_text()


@pytest.mark.parametrize(
    "field,value", [("game", "4294967296"), ("game", "-1"), ("records", "1e3"), ("bytes", "-5")]
)
def test_datagen_refuses_journal_numbers_out_of_range(
    field: str, value: str, tmp_path: Path
) -> None:
    import json
    import re

    data = tmp_path / "d.txt"
    argv = ["datagen", "--games", "2", "--nodes", "50", "--out", str(data)]
    argv += ["--out-dir", str(tmp_path / "r")]
    assert harness(argv).returncode == 0
    journal = Path(str(data) + ".journal")
    lines = journal.read_text().splitlines(keepends=True)
    json.loads(lines[1])  # a game line
    lines[1] = re.sub(rf'"{field}":-?[0-9]+', f'"{field}":{value}', lines[1])
    journal.write_text("".join(lines))
    proc = harness(argv)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"{journal}:2: field '{field}'" in proc.stderr, proc.stderr


@pytest.mark.parametrize("command", ["ctest-junit", "history"])
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_inputs_that_are_no_regular_file_are_refused_at_once(
    command: str, kind: str, tmp_path: Path
) -> None:
    path = kind
    if kind == "fifo":
        path = str(tmp_path / "p.fifo")
        os.mkfifo(path)
    argv = [command, path, str(tmp_path / "o.xml")] if command == "ctest-junit" else []
    argv = argv or ["history", "--db", path]
    proc = harness(argv, timeout=20)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "not a regular file" in proc.stderr, proc.stderr
