"""Faults without loss (HARNESS.md "Faults"): every file the harness writes goes through one checked
writer (harness/src/io/output_file.h). The fault injector (harness/tests/fault_inject, an LD_PRELOAD
library) fails the Nth write/fsync/rename/close under a run's folder with ENOSPC or EIO; for every N
of representative runs (perft, epd, uci-check, match with journal and PGN, match-merge, review,
history) a failed run must exit 2 (never a signal, never 0 with a lost write), leave every earlier
valid report intact or replaced by a valid <error> report, leave no 0-byte or temporary file, and a
match's journal must resume to the same games. Also: a real full file system (a small tmpfs, when
this machine lets us mount one), device/FIFO/directory targets, and two match runs on one state.

Runs when the binaries exist (STK_HARNESS, else build/release)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
BUILD = REPO / "build/release"
HARNESS = os.environ.get("STK_HARNESS") or str(BUILD / "harness/stk-harness")
ENGINE = os.environ.get("STK_ENGINE") or str(BUILD / "engine/stk")
FAKE = os.environ.get("STK_FAKE_UCI") or str(Path(HARNESS).parent / "stk-fake-uci")
LIB = os.environ.get("STK_FAULT_LIB") or str(Path(HARNESS).parent / "libstk-fault-inject.so")
pytestmark = pytest.mark.skipif(
    not (Path(HARNESS).exists() and Path(LIB).exists() and Path(FAKE).exists()),
    reason=f"stk-harness, stk-fake-uci or the fault injector not built ({HARNESS}, {LIB})",
)

# Runs with more counted calls than this are sampled evenly (first and last always): the whole
# file stays within about a minute on 2 cores.
MAX_FAULTS_PER_RUN = 40

PERFT_EPD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n"
SUITE_EPD = (
    'r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - bm Qxf7#; id "mate1";\n'
    '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "mate2";\n'
)


def run(
    argv: list[str],
    out: Path,
    n: int = 0,
    errno: str = "ENOSPC",
    op: str = "any",
    sticky: bool = False,
) -> tuple[subprocess.CompletedProcess, int, int]:
    """Runs the harness under the injector; returns (process, counted calls, failed calls)."""
    report = out.parent / f".fault-report-{out.name}"
    env = dict(
        os.environ,
        LD_PRELOAD=LIB,
        STK_FAULT_DIR=str(out),
        STK_FAULT_OP=op,
        STK_FAULT_N=str(n),
        STK_FAULT_ERRNO=errno,
        STK_FAULT_STICKY="1" if sticky else "0",
        STK_FAULT_REPORT=str(report),
    )
    proc = subprocess.run([HARNESS, *argv], capture_output=True, text=True, env=env, timeout=120)
    fields = dict(kv.split("=") for kv in report.read_text().split()) if report.exists() else {}
    report.unlink(missing_ok=True)
    return proc, int(fields.get("calls", 0)), int(fields.get("failed", 0))


def snapshot(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def no_partial_files(d: Path) -> list[str]:
    bad = []
    for p in d.rglob("*"):
        if p.is_file() and (p.stat().st_size == 0 or ".tmp" in p.name):
            bad.append(f"{p.relative_to(d)} ({p.stat().st_size} bytes)")
    return bad


def valid_error_report(text: bytes) -> bool:
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        return False
    return root.tag == "testsuites" and root.find(".//error") is not None


def check_reports(before: dict[str, bytes], out: Path, declared: list[str], why: str) -> None:
    """Every earlier file still parses: intact, replaced whole, or (a declared JUnit) an <error> report."""
    for rel, old in before.items():
        p = out / rel
        if rel in declared:
            now = p.read_bytes() if p.exists() else None
            unwritable = (
                f"no error report could be written: {p}" in why
            )  # then no file, and said so
            assert (
                now == old
                or (now is not None and valid_error_report(now))
                or (now is None and unwritable)
            ), f"{rel} damaged: {why}"
        elif p.exists() and rel.endswith(".json"):
            json.loads(p.read_text())  # raises on a partial file
        elif p.exists() and rel.endswith(".xml"):
            ET.fromstring(p.read_bytes())


class Scenario:
    def __init__(
        self,
        name: str,
        argv,
        declared: list[str],
        setup=None,
        prefill: bool = True,
        resumed=None,
        ops: tuple[str, ...] = ("any",),
    ):
        self.name, self.argv, self.declared, self.setup = name, argv, declared, setup
        self.prefill, self.resumed, self.ops = prefill, resumed, ops


def match_argv(out: Path) -> list[str]:
    return [
        "match",
        "--config",
        "m",
        "--out-dir",
        str(out),
        "--gate",
        "non-regression",
        "--min-elo-lower95",
        "-100000",
        "--quiet",
        "--engine",
        f"cmd={FAKE}",
        "name=a",
        "--engine",
        f"cmd={FAKE}",
        "name=b",
        "--nodes",
        "50",
        "--pairs",
        "2",
        "--seed",
        "3",
    ]


def match_pairs(out: Path) -> list:
    return json.loads((out / "match/m.json").read_text())["pairs"]


def scenarios(inputs: Path) -> list[Scenario]:
    (inputs / "perft.epd").write_text(PERFT_EPD)
    (inputs / "suite.epd").write_text(SUITE_EPD)
    reports = inputs / "reports"
    if not reports.exists():
        (reports / "junit").mkdir(parents=True)
        (reports / "junit/bench-quick.xml").write_text(
            '<testsuites><testsuite name="bench.quick" tests="1"><testcase classname="bench.signature" '
            'name="nodes"/></testsuite></testsuites>'
        )
        (reports / "bench").mkdir()
        (reports / "bench/quick.json").write_text(
            json.dumps({"nodes": 1000, "expected_nodes": 1000, "nodes_per_second": 5})
        )

    def merge_setup(out: Path) -> None:
        src = inputs / "match-ref"
        if not (src / "match/m.json").exists():
            subprocess.run(
                [HARNESS, *match_argv(src)], capture_output=True, check=True, timeout=120
            )
        shutil.copy(src / "match/m.json", inputs / "m-result.json")

    return [
        Scenario(
            "perft",
            lambda o: [
                "perft",
                "--epd",
                str(inputs / "perft.epd"),
                "--depth",
                "2",
                "--invariants-depth",
                "0",
                "--config",
                "t",
                "--out-dir",
                str(o),
            ],
            ["junit/perft-t.xml"],
        ),
        Scenario(
            "epd",
            lambda o: [
                "epd",
                "--epd",
                str(inputs / "suite.epd"),
                "--depth",
                "2",
                "--config",
                "t",
                "--out-dir",
                str(o),
                "--quiet",
            ],
            ["junit/epd-t.xml"],
        ),
        Scenario(
            "uci-check",
            lambda o: [
                "uci-check",
                "--engine",
                FAKE,
                "--only",
                "handshake",
                "--config",
                "t",
                "--out-dir",
                str(o),
            ],
            ["junit/uci-check-t.xml"],
        ),
        Scenario("match", match_argv, ["junit/match-m.xml"], prefill=False, resumed=match_pairs),
        # A failed write stops datagen with its finished games kept; the rerun resumes to the
        # bytes of an unbroken run.
        Scenario(
            "datagen",
            lambda o: [
                "datagen",
                "--games",
                "3",
                "--nodes",
                "200",
                "--balance-nodes",
                "200",
                "--max-plies",
                "16",
                "--config",
                "t",
                "--out",
                str(o / "data" / "d.txt"),
                "--out-dir",
                str(o),
            ],
            ["junit/datagen-t.xml"],
            prefill=False,
            resumed=lambda o: (o / "data" / "d.txt").read_bytes(),
        ),
        Scenario(
            "match-merge",
            lambda o: [
                "match-merge",
                "mm",
                str(inputs / "m-result.json"),
                "--out-dir",
                str(o),
                "--quiet",
            ],
            ["junit/match-mm.xml"],
            setup=merge_setup,
        ),
        Scenario(
            "review",
            lambda o: [
                "review",
                "--reports",
                str(reports),
                "--out",
                str(o / "index.html"),
                "--history-db",
                str(o / "none.sqlite"),
            ],
            [],
        ),
        Scenario(
            "history",
            lambda o: [
                "history",
                "--db",
                str(o / "history.sqlite"),
                "--append",
                str(reports),
                "--tier",
                "quick",
            ],
            [],
            # SQLite ignores close errors of files it has already synced: its writes and syncs are failed.
            ops=("write", "fsync"),
        ),
    ]


def faults_to_try(calls: int) -> list[int]:
    if calls <= MAX_FAULTS_PER_RUN:
        return list(range(1, calls + 1))
    step = calls / (MAX_FAULTS_PER_RUN - 1)
    return sorted({1, calls, *(1 + int(i * step) for i in range(MAX_FAULTS_PER_RUN - 1))})


def history_runs(db: Path) -> int:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    finally:
        con.close()


def fail_once(
    sc: Scenario,
    out: Path,
    reference: dict[str, bytes],
    ref: Path,
    ref_status: int,
    op: str,
    n: int,
    calls: int,
    errno: str,
) -> int:
    """One run whose nth `op` call fails; 1 when the fault fired."""
    out.mkdir()
    # Earlier valid reports in place: the run must not damage them.
    if sc.prefill:
        for rel, data in reference.items():
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / rel).write_bytes(data)
    elif sc.name == "match":
        for rel in ("junit/match-m.xml", "match/m.json", "match/m.md"):
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / rel).write_bytes(reference[rel])
    before = snapshot(out)
    proc, _, failed = run(sc.argv(out), out, n=n, errno=errno, op=op)
    why = f"{sc.name}: {op} call {n} of {calls} failed with {errno}: exit {proc.returncode}\n{proc.stdout}{proc.stderr}"
    assert proc.returncode >= 0, "killed by a signal: " + why
    assert proc.returncode == (2 if failed else ref_status), why
    assert not no_partial_files(out), f"{no_partial_files(out)}: {why}"
    check_reports(before, out, sc.declared, why)
    if sc.name == "history":
        assert history_runs(out / "history.sqlite") in (1, 2), (
            why
        )  # the earlier run, and this one or not
    if sc.resumed:
        again, _, _ = run(sc.argv(out), out)
        assert again.returncode == ref_status, why + again.stdout + again.stderr
        assert sc.resumed(out) == sc.resumed(ref), (
            "the journal did not resume to the same games: " + why
        )
        if sc.name == "match":
            assert (out / "match/m.pgn").read_text() == (ref / "match/m.pgn").read_text(), why
    shutil.rmtree(out)
    return 1 if failed else 0


@pytest.mark.parametrize(
    "name", ["perft", "epd", "uci-check", "match", "datagen", "match-merge", "review", "history"]
)
def test_every_write_fails_cleanly(name: str, tmp_path: Path) -> None:
    inputs = tmp_path / "inputs"
    inputs.mkdir()
    sc = {s.name: s for s in scenarios(inputs)}[name]
    if sc.setup:
        sc.setup(inputs)
    # A clean run: the reference outputs, then the number of calls of each kind to fail.
    ref = tmp_path / "ref"
    ref.mkdir()
    proc, _, _ = run(sc.argv(ref), ref)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    ref_status = proc.returncode
    reference = snapshot(ref)
    tried = 0
    for op in sc.ops:
        counting = tmp_path / "count"
        counting.mkdir()
        _, calls, _ = run(sc.argv(counting), counting, op=op)
        shutil.rmtree(counting)
        assert calls > 0, f"the injector counted no {op} call under the run's folder"
        for i, n in enumerate(faults_to_try(calls)):
            tried += fail_once(
                sc,
                tmp_path / f"{op}-{n}",
                reference,
                ref,
                ref_status,
                op,
                n,
                calls,
                "EIO" if i % 2 else "ENOSPC",
            )
    assert tried > 0


def test_a_full_file_system_ends_with_exit_2_and_no_partial_file(tmp_path: Path) -> None:
    mnt = tmp_path / "small"
    mnt.mkdir()
    proc = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        pytest.skip(
            f"cannot mount a tmpfs here ({proc.stderr.strip() or 'mount failed'}): the injector's ENOSPC stands in"
        )
    try:
        inputs = tmp_path / "inputs"
        inputs.mkdir()
        (inputs / "perft.epd").write_text(PERFT_EPD)
        # A valid earlier report, then the disk filled to the last few bytes.
        out = mnt / "reports"
        argv = [
            "perft",
            "--epd",
            str(inputs / "perft.epd"),
            "--depth",
            "1",
            "--invariants-depth",
            "0",
            "--config",
            "t",
            "--out-dir",
            str(out),
        ]
        first = subprocess.run([HARNESS, *argv], capture_output=True, text=True, timeout=120)
        assert first.returncode == 0, first.stdout + first.stderr
        fd = os.open(mnt / "filler", os.O_WRONLY | os.O_CREAT)
        try:
            while True:
                os.write(fd, b"x" * 512)
        except OSError:
            pass
        finally:
            os.close(fd)
        before = snapshot(out)
        full = subprocess.run([HARNESS, *argv], capture_output=True, text=True, timeout=120)
        assert full.returncode == 2, full.stdout + full.stderr
        assert "No space left on device" in full.stderr, full.stderr
        assert not no_partial_files(out), no_partial_files(out)
        check_reports(before, out, ["junit/perft-t.xml"], full.stderr)
        # The match journal and PGN on a full disk: exit 2, never a signal.
        match = subprocess.run(
            [HARNESS, *match_argv(mnt / "m")], capture_output=True, text=True, timeout=120
        )
        assert match.returncode == 2, match.stdout + match.stderr
        assert not no_partial_files(mnt / "m") if (mnt / "m").exists() else True
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


@pytest.mark.parametrize("kind", ["fifo", "directory", "device"])
def test_a_non_regular_target_is_refused_untouched(kind: str, tmp_path: Path) -> None:
    target = tmp_path / "target"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "directory":
        target.mkdir()
    else:
        try:
            os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null of our own
        except PermissionError:
            pytest.skip("mknod needs root")
    mode = target.lstat().st_mode
    (tmp_path / "perft.epd").write_text(PERFT_EPD)
    proc = subprocess.run(
        [
            HARNESS,
            "perft",
            "--epd",
            str(tmp_path / "perft.epd"),
            "--depth",
            "1",
            "--invariants-depth",
            "0",
            "--junit",
            str(target),
            "--out-dir",
            str(tmp_path / "r"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert str(target) in proc.stderr and "not a regular file" in proc.stderr, proc.stderr
    assert target.lstat().st_mode == mode
    assert not [p for p in tmp_path.iterdir() if ".tmp" in p.name]


def test_two_match_runs_on_one_state_exactly_one_proceeds(tmp_path: Path) -> None:
    out = tmp_path / "r"
    argv = match_argv(out)
    argv[argv.index("--pairs") + 1] = "40"
    procs = [
        subprocess.Popen(
            [HARNESS, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    results = [p.communicate(timeout=300) for p in procs]
    codes = sorted(p.returncode for p in procs)
    text = "\n".join(o + e for o, e in results)
    assert codes == [0, 2], text
    assert "held by another run (pid " in text, text
    pgn = (out / "match/m.pgn").read_text()
    assert pgn.count("[Event ") == 80, "the PGN holds games of two runs"
    assert len(json.loads((out / "match/m.json").read_text())["pairs"]) == 40


@pytest.mark.parametrize("held", ["m.lock", "m-state.jsonl.lock"])  # the config's, the state's
def test_a_held_lock_names_its_holder(held: str, tmp_path: Path) -> None:
    import fcntl

    out = tmp_path / "r"
    (out / "match").mkdir(parents=True)
    lock = out / "match" / held
    with open(lock, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.write(f"pid {os.getpid()}\n")
        f.flush()
        (out / "junit").mkdir()
        (out / "junit/match-m.xml").write_text("<testsuites/>")
        proc = subprocess.run(
            [HARNESS, *match_argv(out)], capture_output=True, text=True, timeout=120
        )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"held by another run (pid {os.getpid()})" in proc.stderr, proc.stderr
    if held == "m.lock":
        assert (out / "junit/match-m.xml").read_text() == "<testsuites/>", (
            "the holder's report was touched"
        )
    assert not (out / "match/m.pgn").exists()


def test_a_failed_match_merge_replaces_its_passing_report(tmp_path: Path) -> None:
    src = tmp_path / "src"
    subprocess.run([HARNESS, *match_argv(src)], capture_output=True, check=True, timeout=120)
    good = src / "match/m.json"
    out = tmp_path / "out"
    for cmd in ("match-merge", "merge"):
        ok = subprocess.run(
            [HARNESS, cmd, "x", str(good), "--out-dir", str(out)], capture_output=True, text=True
        )
        assert ok.returncode == 0, ok.stdout + ok.stderr
        assert "<error" not in (out / "junit/match-x.xml").read_text()
        torn = tmp_path / "torn.json"
        torn.write_text(good.read_text()[:200])
        bad = subprocess.run(
            [HARNESS, cmd, "x", str(torn), "--out-dir", str(out)], capture_output=True, text=True
        )
        assert bad.returncode == 2, bad.stdout + bad.stderr
        assert valid_error_report((out / "junit/match-x.xml").read_bytes()), cmd
        assert not (out / "junit/epd-x.xml").exists(), (
            f"{cmd} wrote an epd report for a match merge"
        )


def test_a_journal_pair_whose_score_is_not_its_games_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "r"
    first = subprocess.run([HARNESS, *match_argv(out)], capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stdout + first.stderr
    journal = out / "match/m-state.jsonl"
    lines = journal.read_text().splitlines(keepends=True)
    pair = json.loads(lines[1])
    pair["score"] = (pair["score"] + 1) % 5
    lines[1] = json.dumps(pair) + "\n"
    journal.write_text("".join(lines))
    again = subprocess.run([HARNESS, *match_argv(out)], capture_output=True, text=True, timeout=120)
    assert again.returncode == 2, again.stdout + again.stderr
    assert "m-state.jsonl:2" in again.stderr and "score" in again.stderr, again.stderr


def datagen_argv(out: Path) -> list[str]:
    return [
        *("datagen", "--games", "3", "--nodes", "200", "--balance-nodes", "200"),
        *("--max-plies", "16", "--config", "t", "--out", str(out / "data" / "d.txt")),
        *("--out-dir", str(out)),
    ]


@pytest.mark.parametrize("name", ["match", "datagen"])
def test_a_failed_append_whose_cut_back_fails_too_leaves_no_empty_file(
    name: str, tmp_path: Path
) -> None:
    """docs/faults.md#appends: an append that fails is cut back to the file's length before it (a
    file that was empty removed). The cut back (ftruncate) can fail as well: from each counted
    write or truncate on, every one fails (a disk that stays broken). Still exit 2, no 0-byte or
    temporary file, and the rerun resumes to the games of an unbroken run. Null control: the
    clean run under the injector counts the calls and passes."""
    argv = match_argv if name == "match" else datagen_argv
    ref = tmp_path / "ref"
    ref.mkdir()
    proc, calls, _ = run(argv(ref), ref, op="write+truncate")
    assert proc.returncode in (0, 1) and calls > 0, proc.stdout + proc.stderr
    resumed = match_pairs if name == "match" else (lambda o: (o / "data/d.txt").read_bytes())
    for n in faults_to_try(calls):
        out = tmp_path / f"n{n}"
        out.mkdir()
        broken, _, failed = run(argv(out), out, n=n, op="write+truncate", sticky=True)
        why = f"{name}: write/truncate from call {n} of {calls} on failed: {broken.stderr[-800:]}"
        assert failed and broken.returncode == 2, why
        assert not no_partial_files(out), f"{no_partial_files(out)}: {why}"
        again, _, _ = run(argv(out), out)
        assert again.returncode == proc.returncode, why + again.stderr[-800:]
        assert resumed(out) == resumed(ref), "did not resume to the same games: " + why


def test_a_lock_or_a_torn_tail_that_cannot_be_cut_ends_the_run(tmp_path: Path) -> None:
    """Every ftruncate of a journaled match, failed one at a time: taking the run's lock (its
    file emptied before the pid is written) and cutting a torn last record on resume. Exit 2,
    no 0-byte file, the journal as it was; the rerun without the fault resumes it."""
    ref = tmp_path / "ref"
    ref.mkdir()
    assert run(match_argv(ref), ref)[0].returncode == 0
    torn = (ref / "match/m-state.jsonl").read_bytes()
    torn = torn[: torn.rindex(b"\n", 0, len(torn) - 1) + 1] + b'{"opening":1,"sco'
    out = tmp_path / "count"
    (out / "match").mkdir(parents=True)
    (out / "match/m-state.jsonl").write_bytes(torn)
    _, calls, _ = run(match_argv(out), out, op="truncate")
    assert calls >= 2, "the lock's and the torn tail's cuts are both counted"
    for n in range(1, calls + 1):
        out = tmp_path / f"n{n}"
        (out / "match").mkdir(parents=True)
        (out / "match/m-state.jsonl").write_bytes(torn)
        proc, _, failed = run(match_argv(out), out, n=n, op="truncate")
        why = f"truncate {n} of {calls}: exit {proc.returncode}: {proc.stderr[-800:]}"
        assert failed and proc.returncode == 2, why
        assert not no_partial_files(out), f"{no_partial_files(out)}: {why}"
        assert (out / "match/m-state.jsonl").read_bytes() == torn, why
        again, _, _ = run(match_argv(out), out)
        assert again.returncode == 0 and match_pairs(out) == match_pairs(ref), why
