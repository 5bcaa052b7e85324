"""Hostile conditions and the one contract every run must keep under them, for the fault matrices
(test_fault_matrix.py drives `stk-harness`; a matrix of the `python -m` tools can import the same
helpers). Nothing here knows a command: a matrix names a run's paths, turns one of them into a
hostile object with `apply_path_condition` (or make_fifo, make_char_device, make_symlink,
make_dangling_symlink, make_symlink_loop, readonly_dir, hostile_twin, make_hostile_engine), runs
the command with `run_bounded` (run_with_closed_stdout, run_with_sigterm) and checks the result
with `Sandbox.violations`.

The contract (docs/faults.md, docs/reports.md): the run ends within its time limit (a hang is
killed with its whole process group and is a failure), by exit, never by a signal, with an expected
status; every JUnit report present validates against the schema; a report the run declared does not
claim a pass after a failed run (exit 2): an earlier passing report left there is a failure; nothing
outside the run's output folders changed (a sentinel and every symlink target byte for byte, no
`PWNED` file anywhere); no earlier file in the output folders damaged; no `*.tmp*` or 0-byte file,
no `*.lock` file the run made, and no process of the run, left behind when it ends; and its memory
bounded (MAX_RSS: what it reads, from a file or an engine, is not kept without bound)."""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import stat
import subprocess
import threading
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path

import pytest

# A path component holding a single quote, spaces, a command substitution and a leading '-': a
# run that builds a shell string, or passes the path where an option may stand, shows it.
HOSTILE_NAME = "-it's a $(touch PWNED) dir"
PWNED = "PWNED"
SENTINEL = b"sentinel: outside every output folder of the run; it must never change\n"

# Path conditions: what a path argument of a run is turned into.
FIFO = "fifo"
DEV_FULL = "dev-full"  # a character device that fails every write with ENOSPC (outputs)
DEV_ZERO = "dev-zero"  # endless zeros (inputs; and an output that swallows everything)
DEV_URANDOM = "dev-urandom"  # endless random bytes (inputs)
DIRECTORY = "directory"
SYMLINK_OUTSIDE = "symlink-outside"  # a symlink to a file outside the output folders
DANGLING_SYMLINK = "dangling-symlink"  # a symlink to a missing file outside the output folders
SYMLINK_LOOP = "symlink-loop"
READONLY_DIR = "readonly-dir"  # the path's folder is read-only
HOSTILE_PATH = "hostile-name"  # the path lies under a folder named HOSTILE_NAME

_DEVICE_MINOR = {DEV_FULL: 7, DEV_ZERO: 5, DEV_URANDOM: 9}  # Linux mem devices, major 1

# How a run's stdout is connected.
STDOUT_PIPE = "pipe"  # read by the test
STDOUT_CLOSED_PIPE = "closed-pipe"  # a pipe whose reader has closed: writes get EPIPE/SIGPIPE
STDOUT_CLOSED_FD = "closed-fd"  # fd 1 closed: the next file the run opens becomes fd 1
STDOUT_STALLED_PIPE = "stalled-pipe"  # a pipe nobody reads: writes block once it is full

# Every run is kept below this address space so that an input read without end (or an engine's
# endless line) fails inside the run instead of exhausting the machine.
MEMORY_LIMIT = 4 << 30
# The most memory (peak resident set) a run may use: the largest net and hash take a few hundred
# MB; more means an input, an engine's output or a line read without bound.
MAX_RSS = 2 << 30
_CAPTURE_LIMIT = 1 << 18  # bytes of stdout/stderr kept (the tail)


def time_scale(text: str) -> float:
    """STK_TEST_TIME_SCALE's value: a number >= 1 (a build slower than the release build)."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value >= 1.0:  # NaN too
        raise ValueError(f"STK_TEST_TIME_SCALE={text!r}: expected a number >= 1")
    return value


# Every bound on time (a run's limit, a refusal's CPU) is stretched by this factor for a slower
# build: the mutation tool's -O0 coverage build sets 10 (as CMake does for the sanitizer builds'
# C++ tests). The verdicts are the same; only how long a run may take before it counts as hung.
TIME_SCALE = time_scale(os.environ.get("STK_TEST_TIME_SCALE", "1"))


# ---- conditions ----------------------------------------------------------------------------------


def make_fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def make_char_device(path: Path, kind: str) -> Path:
    """A character device node of `kind` (DEV_FULL, DEV_ZERO, DEV_URANDOM) at `path` when mknod is
    permitted (root), so that files a run derives beside it stay in the sandbox; else the system's
    own /dev node (returned: use it as the argument)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, _DEVICE_MINOR[kind]))
    except PermissionError:
        return Path("/dev") / kind.removeprefix("dev-")
    return path


def make_symlink(path: Path, target: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    return path


def make_dangling_symlink(path: Path, target: Path) -> Path:
    assert not target.exists() and not target.is_symlink(), target
    return make_symlink(path, target)


def make_symlink_loop(path: Path) -> Path:
    """path -> path.loop -> path: every open through it fails with ELOOP."""
    other = path.with_name(path.name + ".loop")
    make_symlink(path, other)
    other.symlink_to(path)
    return path


@contextlib.contextmanager
def readonly_dir(path: Path) -> Iterator[str]:
    """`path` (created) is read-only for the run: mode 0555, and where that does not bind (root
    ignores modes) a read-only bind mount of it. Yields how; skips the test when nothing works."""
    path.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode
    path.chmod(0o555)
    mounted = False
    try:
        if _writable(path) and os.geteuid() == 0:
            mounted = _ro_bind_mount(path)
        if _writable(path):
            pytest.skip(f"cannot make {path} read-only here (root without mount permission)")
        yield "read-only bind mount" if mounted else "mode 0555"
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(path)], capture_output=True)
        path.chmod(stat.S_IMODE(mode))


def _writable(d: Path) -> bool:
    probe = d / ".write-probe"
    try:
        probe.write_bytes(b"")
    except OSError:
        return False
    probe.unlink()
    return True


def _ro_bind_mount(d: Path) -> bool:
    steps = (["mount", "--bind", str(d), str(d)], ["mount", "-o", "remount,bind,ro", str(d)])
    for i, argv in enumerate(steps):
        if subprocess.run(argv, capture_output=True).returncode != 0:
            if i:
                subprocess.run(["umount", "-l", str(d)], capture_output=True)
            return False
    return True


def hostile_twin(path: Path, sandbox: Sandbox) -> Path:
    """Where `path` (under the sandbox root) lies when its folders sit under a folder named
    HOSTILE_NAME in the run's cwd: given relative to the cwd, the argument starts with '-'."""
    return sandbox.cwd / HOSTILE_NAME / path.relative_to(sandbox.root)


def relative_to_cwd(path: Path, sandbox: Sandbox) -> str:
    """The argument for `path` as the run sees it from its cwd (a hostile twin: '-it's ...')."""
    return os.path.relpath(path, sandbox.cwd)


def apply_path_condition(
    cond: str,
    path: Path,
    sandbox: Sandbox,
    valid: Path | None = None,
    stack: contextlib.ExitStack | None = None,
) -> Path:
    """Turns the path argument `path` (inside `sandbox.root`) into the hostile object of `cond` and
    returns the path to pass instead. `valid` is a good input to stand at the path where the
    condition keeps the content reachable (SYMLINK_OUTSIDE, READONLY_DIR, HOSTILE_PATH); `stack`
    holds a read-only mount until the run is checked."""
    tag = path.name
    if cond == FIFO:
        return make_fifo(path)
    if cond in _DEVICE_MINOR:
        return make_char_device(path, cond)
    if cond == DIRECTORY:
        path.mkdir(parents=True)
        return path
    if cond == SYMLINK_OUTSIDE:
        target = sandbox.outside / f"target-{tag}"
        if valid is None:
            target.write_bytes(SENTINEL)
        elif valid.is_dir():
            shutil.copytree(valid, target)
        else:
            shutil.copyfile(valid, target)
        return make_symlink(path, target)
    if cond == DANGLING_SYMLINK:
        return make_dangling_symlink(path, sandbox.outside / f"missing-{tag}")
    if cond == SYMLINK_LOOP:
        return make_symlink_loop(path)
    if cond == READONLY_DIR:
        assert stack is not None, "a read-only folder needs an ExitStack"
        if valid is not None:
            _copy(valid, path)
        stack.enter_context(readonly_dir(path.parent))
        return path
    if cond == HOSTILE_PATH:
        twin = hostile_twin(path, sandbox)
        twin.parent.mkdir(parents=True, exist_ok=True)
        if valid is not None:
            _copy(valid, twin)
        return twin
    raise ValueError(f"unknown path condition {cond!r}")


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if src.is_dir():
        shutil.copytree(src, dst)
    else:
        shutil.copyfile(src, dst)
        dst.chmod(src.stat().st_mode)


# ---- hostile engines -----------------------------------------------------------------------------

# UCI engines that answer the handshake, then misbehave at the first `go`: they stall (never
# answer, ignore stop and quit), flood (info lines without end), or write their bestmove without
# the newline (and then stall): a reader that waits for a newline without a deadline hangs.
ENGINE_STALL = "engine-stall"
ENGINE_FLOOD = "engine-flood"
ENGINE_NO_NEWLINE = "engine-no-newline"

_ENGINE_GO = {
    ENGINE_STALL: "exec sleep 120",
    ENGINE_FLOOD: "exec yes 'info depth 1 score cp 0 nodes 1 pv e2e4'",
    ENGINE_NO_NEWLINE: "printf 'info depth 1 score cp 0 nodes 1\\nbestmove e2e4'; exec sleep 120",
}


def make_hostile_engine(directory: Path, kind: str) -> Path:
    path = directory / kind
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "#!/bin/sh\n"
        f"# {kind}: a UCI handshake, then at the first go: {_ENGINE_GO[kind]}\n"
        'while IFS= read -r line; do\n  case "$line" in\n'
        f"    uci) printf 'id name {kind}\\nid author stk tests\\nuciok\\n' ;;\n"
        "    isready) printf 'readyok\\n' ;;\n"
        f"    go*) {_ENGINE_GO[kind]} ;;\n"
        "    quit) exit 0 ;;\n  esac\ndone\n"
    )
    path.chmod(0o755)
    return path


# ---- the bounded run -----------------------------------------------------------------------------


@dataclass
class Terminate:
    """Send SIGTERM to the run after `after` seconds, or `settle` seconds after a file matching
    `when` (a path whose name may hold glob wildcards: 'out/net.nnue.tmp.*', a file being written)
    first exists, whichever comes first."""

    after: float
    when: Path | None = None
    settle: float = 0.0


@dataclass
class Outcome:
    argv: list[str]
    returncode: int | None  # None: killed by the test after its time limit
    elapsed: float
    timeout: float
    stdout: bytes = b""
    stderr: bytes = b""
    leftover: str = ""  # what of the run outlived it past LEFTOVER_GRACE ("": nothing)
    terminated: bool = False  # SIGTERM was sent while it ran
    ended_before_sigterm: bool = False
    cpu: float = 0.0  # user + system seconds of the run itself (not its children)
    max_rss: int = 0  # peak resident set of the run itself, bytes

    @property
    def timed_out(self) -> bool:
        return self.returncode is None

    @property
    def leftover_processes(self) -> bool:
        return bool(self.leftover)

    @property
    def signal(self) -> int | None:
        return -self.returncode if self.returncode is not None and self.returncode < 0 else None

    def summary(self) -> str:
        if self.timed_out:
            how = f"hung: killed (with its process group) after {self.timeout:.0f} s"
        elif self.signal:
            how = f"killed by {signal.Signals(self.signal).name}"
        else:
            how = f"exit {self.returncode}"
        return f"{how} in {self.elapsed:.1f} s ({self.cpu:.1f} s CPU, {self.max_rss >> 20} MiB)"

    def tail(self, limit: int = 1500) -> str:
        text = (self.stderr or b"").decode(errors="replace").strip()
        out = (self.stdout or b"").decode(errors="replace").strip()
        return f"stderr: {text[-limit:]}" + (f"\nstdout: {out[-limit // 2 :]}" if out else "")


def _reader(fd: int, sink: list[bytes]) -> threading.Thread:
    def pump() -> None:
        kept = b""
        with os.fdopen(fd, "rb", buffering=0) as f:
            while chunk := f.read(65536):
                kept = (kept + chunk)[-_CAPTURE_LIMIT:]
        sink.append(kept)

    t = threading.Thread(target=pump, daemon=True)
    t.start()
    return t


def _limits(close_stdout: bool) -> Callable[[], None]:
    def preexec() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if close_stdout:
            os.close(1)

    return preexec


# A process that is ending (killed, being reaped by init, a reader thread not yet scheduled) gets
# this long on a loaded machine; one still there after it is a leftover (an engine, `sleep &`).
LEFTOVER_GRACE = 5.0


def _what_outlived(pgid: int, readers: Sequence[threading.Thread], grace: float) -> str:
    """What of a finished run is still there once `grace` seconds have passed: a live process of
    its group, or a descendant outside the group holding its output pipes open ("": nothing)."""
    deadline = time.monotonic() + grace
    while True:
        members = live_group_members(pgid)
        pipes = any(t.is_alive() for t in readers)
        if not members and not pipes:
            return ""
        if time.monotonic() >= deadline:
            what = (
                f"a process of its group ({members[0]})"
                if members
                else "a process holding its output open"
            )
            return f"{what}, {grace:.0f} s after it ended"
        for t in readers:
            t.join(timeout=0.05)
        if not readers:
            time.sleep(0.05)


def live_group_members(pgid: int) -> list[str]:
    """The processes of group `pgid` that have not exited, as "name, pid N". A zombie has ended:
    it waits only for its new parent to reap it, which an init in a container may do seconds
    later (one here reaped every ~2 s), so kill(-pgid, 0) alone would call it a leftover."""
    found: list[str] = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat_file.read_text()
        except OSError:
            continue  # ended while we looked
        name, _, rest = text.partition(" (")[2].rpartition(")")
        fields = rest.split()
        if len(fields) >= 3 and int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            found.append(f"{name}, pid {stat_file.parent.name}")
    return sorted(found)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)


def run_bounded(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: dict[str, str] | None = None,
    timeout: float,
    stdout: str = STDOUT_PIPE,
    terminate: Terminate | None = None,
) -> Outcome:
    """Runs argv in its own session (process group) with stdin from /dev/null; kills the whole
    group after `timeout` seconds (times TIME_SCALE); reports whether any process of the group
    outlived the run."""
    timeout *= TIME_SCALE
    out_r = out_w = None
    if stdout in (STDOUT_PIPE, STDOUT_CLOSED_PIPE, STDOUT_STALLED_PIPE):
        out_r, out_w = os.pipe()
        if stdout == STDOUT_CLOSED_PIPE:
            os.close(out_r)
            out_r = None
    err_r, err_w = os.pipe()
    started = time.monotonic()
    proc = subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=out_w if out_w is not None else subprocess.DEVNULL,
        stderr=err_w,
        start_new_session=True,
        preexec_fn=_limits(stdout == STDOUT_CLOSED_FD),
    )
    for fd in (out_w, err_w):
        if fd is not None:
            os.close(fd)
    outs: list[bytes] = []
    errs: list[bytes] = []
    readers = [_reader(err_r, errs)]
    if out_r is not None and stdout == STDOUT_PIPE:
        readers.append(_reader(out_r, outs))
    terminated = ended_first = False
    if terminate is not None:
        terminated, ended_first = _send_sigterm(proc, terminate, started)
    code, usage = _wait(proc, started + timeout)
    elapsed = time.monotonic() - started
    if out_r is not None and stdout == STDOUT_STALLED_PIPE:
        readers.append(_reader(out_r, outs))  # drained only now: the run never saw a reader
    leftover = _what_outlived(proc.pid, readers, LEFTOVER_GRACE)
    _kill_group(proc.pid)
    for t in readers:
        t.join(timeout=5.0)
    return Outcome(
        argv=list(argv),
        returncode=code,
        elapsed=elapsed,
        timeout=timeout,
        stdout=b"".join(outs),
        stderr=b"".join(errs),
        leftover=leftover,
        terminated=terminated,
        ended_before_sigterm=ended_first,
        cpu=usage.ru_utime + usage.ru_stime,
        max_rss=usage.ru_maxrss * 1024,
    )


def run_with_closed_stdout(
    argv: Sequence[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: float, how: str
) -> Outcome:
    """argv with its stdout a pipe whose reader has closed (how=STDOUT_CLOSED_PIPE) or with fd 1
    closed (STDOUT_CLOSED_FD)."""
    assert how in (STDOUT_CLOSED_PIPE, STDOUT_CLOSED_FD), how
    return run_bounded(argv, cwd=cwd, env=env, timeout=timeout, stdout=how)


def run_with_sigterm(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: dict[str, str] | None = None,
    timeout: float,
    after: float,
    when: Path | None = None,
) -> Outcome:
    """argv sent SIGTERM mid-run: after `after` seconds, or as soon as a file matching `when`
    appears (Terminate); Outcome.ended_before_sigterm says when it finished first."""
    return run_bounded(argv, cwd=cwd, env=env, timeout=timeout, terminate=Terminate(after, when))


def _wait(
    proc: subprocess.Popen[bytes], deadline: float
) -> tuple[int | None, resource.struct_rusage]:
    """The exit status (None: killed with its group at the deadline) and the resources the process
    used (wait4: its CPU seconds, whatever the load of the machine, and its peak memory)."""
    timed_out = False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() >= deadline and not timed_out:
            _kill_group(proc.pid)
            timed_out = True
        time.sleep(0.005)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (None if timed_out else proc.returncode), usage


def _send_sigterm(proc: subprocess.Popen[bytes], t: Terminate, started: float) -> tuple[bool, bool]:
    seen: float | None = None
    while _running(proc.pid):
        now = time.monotonic()
        if seen is None and t.when is not None and _appeared(t.when):
            seen = now
        if now - started >= t.after or (seen is not None and now - seen >= t.settle):
            proc.send_signal(signal.SIGTERM)
            return True, False
        time.sleep(0.005)
    return False, True


def _running(pid: int) -> bool:
    """Not yet exited (without reaping it: _wait collects its status and CPU time)."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None


def _appeared(pattern: Path) -> bool:
    return any(pattern.parent.glob(pattern.name))


# ---- the contract --------------------------------------------------------------------------------

Entry = tuple[str, bytes | str | int | None]


def tree_snapshot(root: Path, skip: Sequence[Path] = ()) -> dict[str, Entry]:
    """Every entry under root (symlinks not followed): kind and content (bytes of a file, target of
    a link, device number of a device); entries under `skip` are left out."""
    snap: dict[str, Entry] = {}
    skipped = {str(s) for s in skip}
    for dirpath, dirnames, filenames in os.walk(root):
        if dirpath in skipped:
            dirnames[:] = []
            continue
        for name in [*dirnames, *filenames]:
            p = Path(dirpath, name)
            if str(p) in skipped:
                continue
            snap[str(p.relative_to(root))] = _entry(p)
        dirnames[:] = [d for d in dirnames if str(Path(dirpath, d)) not in skipped]
    return snap


def _entry(p: Path) -> Entry:
    st = p.lstat()
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(p))
    if stat.S_ISREG(st.st_mode):
        try:
            return ("file", p.read_bytes())
        except OSError as e:
            return ("file", f"unreadable: {e}")
    if stat.S_ISDIR(st.st_mode):
        return ("dir", None)
    if stat.S_ISFIFO(st.st_mode):
        return ("fifo", None)
    if stat.S_ISCHR(st.st_mode):
        return ("chr", st.st_rdev)
    return ("other", st.st_mode)


def diff_snapshots(before: dict[str, Entry], after: dict[str, Entry]) -> list[str]:
    changes = []
    for rel in sorted(set(before) | set(after)):
        old, new = before.get(rel), after.get(rel)
        if old == new:
            continue
        if old is None:
            assert new is not None
            changes.append(f"{rel}: created ({new[0]})")
        elif new is None:
            changes.append(f"{rel}: removed")
        else:
            changes.append(f"{rel}: changed ({old[0]} -> {new[0]})")
    return changes


def current_umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    """The process's umask set to `mask` (children inherit it), then put back."""
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def wrong_modes(paths: Iterable[Path]) -> list[str]:
    """The regular files among `paths` whose permission bits are not 0666 less the umask, what a
    plain open would give: an atomic writer's temporary file is created 0600, and an output
    left so (or created with a literal mode) is unreadable to the group that reads reports.
    Root reads any mode, so no test reading the file as root can see it (docs/faults.md)."""
    want = 0o666 & ~current_umask()
    out = []
    for p in paths:
        st = p.lstat()
        if stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) != want:
            out.append(f"{p}: mode {stat.S_IMODE(st.st_mode):o}, not {want:o}")
    return out


def walk_files(root: Path) -> Iterator[Path]:
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            yield Path(dirpath, name)


def is_junit(data: bytes) -> bool:
    try:
        return ET.fromstring(data).tag in ("testsuites", "testsuite")
    except ET.ParseError:
        return False


def claims_pass(data: bytes) -> bool:
    """A report that parses and holds no <error> or <failure>."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError:
        return False
    return not any(el.tag in ("error", "failure") for el in root.iter())


def invalid_reports(xsd: Path, reports: Sequence[Path]) -> list[str]:
    """Each report that xmllint does not validate against the schema, with xmllint's reason."""
    if not reports:
        return []
    proc = subprocess.run(
        ["xmllint", "--noout", "--schema", str(xsd), *map(str, reports)],
        capture_output=True,
        text=True,
    )
    if proc.returncode == 0:
        return []
    return [
        f"{r}: not valid against {xsd.name}: " + " ".join(_lines_about(proc.stderr, r))[:300]
        for r in reports
        if f"{r} validates" not in proc.stderr
    ]


def _lines_about(text: str, report: Path) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(str(report))][:3]


@dataclass
class Sandbox:
    """One run's world: `root` holds everything; `outputs` are the folders the run may write (its
    out dir and the folders of its output files); everything else under root (inputs, the cwd,
    `outside` with its sentinel and the symlink targets) must stay byte for byte as it was."""

    root: Path
    outputs: list[Path] = field(default_factory=list)
    declared: list[Path] = field(default_factory=list)  # JUnit reports the run owes
    _before: dict[str, Entry] = field(default_factory=dict)
    _earlier: dict[Path, bytes] = field(default_factory=dict)
    _locks: set[Path] = field(default_factory=set)
    _keep: dict[Path, bytes] = field(default_factory=dict)
    _preserved: dict[Path, dict[str, Entry]] = field(default_factory=dict)
    empty_ok: tuple[str, ...] = ()  # name patterns a clean run may write empty (no misses)

    def __post_init__(self) -> None:
        self.outside.mkdir(parents=True, exist_ok=True)
        (self.outside / "sentinel.txt").write_bytes(SENTINEL)

    @property
    def outside(self) -> Path:
        return self.root / "outside"

    @property
    def cwd(self) -> Path:
        """The run's working folder."""
        return self.root / "cwd"

    def add_earlier(self, path: Path, data: bytes) -> None:
        """An earlier output of the same kind of run: it may be replaced whole or removed by the
        run (a report it declares, a summary it rewrites), never damaged."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self._earlier[path] = data

    def add_keep(self, path: Path, data: bytes) -> None:
        """An earlier file no run of this kind writes: it must stay byte for byte."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self._keep[path] = data

    def preserve(self, path: Path) -> None:
        """A hostile object inside an output folder (a FIFO, a device, a folder at an output's path)
        that the run must refuse: it must stay what it is, never replaced or written into."""
        self._preserved[path] = self._object(path)

    def _object(self, path: Path) -> dict[str, Entry]:
        try:
            kind = {".": _entry(path)}
        except OSError:
            return {}
        if kind["."][0] == "dir":
            kind.update(tree_snapshot(path))
        return kind

    def freeze(self) -> None:
        """Call after the conditions are in place, just before the run."""
        self._before = tree_snapshot(self.root, self.outputs)
        self._locks = {p for p in self._all_entries() if p.name.endswith(".lock")}

    def _all_entries(self) -> Iterator[Path]:
        for dirpath, dirs, files in os.walk(self.root):
            for name in [*dirs, *files]:
                yield Path(dirpath, name)

    def violations(self, outcome: Outcome, expected: set[int], xsd: Path) -> list[str]:
        """Every way the run broke the contract (empty: it kept it)."""
        v: list[str] = []
        if outcome.timed_out:
            v.append(f"hung: no exit within {outcome.timeout:.0f} s (process group killed)")
        elif outcome.signal:
            v.append(f"killed by {signal.Signals(outcome.signal).name}")
        elif outcome.returncode not in expected:
            v.append(f"exit {outcome.returncode}, expected {sorted(expected)}")
        if outcome.leftover_processes:
            v.append(f"a process of the run (an engine, a child) outlived it: {outcome.leftover}")
        if outcome.max_rss > MAX_RSS:
            v.append(f"used {outcome.max_rss / 2**30:.1f} GiB of memory (read without bound?)")
        v += self._outside_violations()
        v += [
            f"{p}: the hostile object at an output path was replaced or written into"
            for p, was in self._preserved.items()
            if self._object(p) != was
        ]
        v += self._report_violations(outcome, xsd)
        v += self._earlier_violations()
        v += self._leftover_violations()
        return v

    def _outside_violations(self) -> list[str]:
        v = [f"outside the output folders: {c}" for c in self._changes_outside()]
        for p in self._all_entries():
            if p.name == PWNED:
                v.append(f"{p}: a path was run by a shell")
        return v

    def _changes_outside(self) -> list[str]:
        return diff_snapshots(self._before, tree_snapshot(self.root, self.outputs))

    def _report_violations(self, outcome: Outcome, xsd: Path) -> list[str]:
        reports = []
        for out in self.outputs:
            if out.is_dir() and not out.is_symlink():
                reports += [p for p in walk_files(out) if _is_report(p)]
        reports += [p for p in self.declared if _regular(p) and p not in reports]
        v = invalid_reports(xsd, reports)
        failed = outcome.returncode != 0 and outcome.returncode != 1
        for p in self.declared if failed else []:
            if _regular(p) and claims_pass(p.read_bytes()):
                earlier = self._earlier.get(p) == p.read_bytes()
                v.append(
                    f"{p}: {'the earlier' if earlier else 'a'} passing report is left after a "
                    f"failed run ({outcome.summary()})"
                )
        return v

    def _earlier_violations(self) -> list[str]:
        v = []
        for p, data in self._keep.items():
            if not _regular(p) or p.read_bytes() != data:
                v.append(f"{p}: an earlier file the run does not own was changed or removed")
        for p, data in self._earlier.items():
            if _regular(p) and p.read_bytes() != data and not intact(p):
                v.append(f"{p}: an earlier output was damaged ({p.stat().st_size} bytes)")
        return v

    def _may_be_empty(self, p: Path) -> bool:
        return any(fnmatch(p.name, g) for g in self.empty_ok)

    def _leftover_violations(self) -> list[str]:
        v = []
        for out in self.outputs:
            for p in walk_files(out) if out.is_dir() and not out.is_symlink() else []:
                st = p.lstat()
                if ".tmp" in p.name:
                    v.append(f"{p}: a temporary file left")
                elif p.name.endswith(".lock") and p not in self._locks:
                    v.append(f"{p}: a lock file left after the run ended")
                elif stat.S_ISREG(st.st_mode) and st.st_size == 0 and not self._may_be_empty(p):
                    v.append(f"{p}: a 0-byte file left")
                elif stat.S_ISREG(st.st_mode) and torn_line(p):
                    v.append(f"{p}: its last record is torn (no newline at its end)")
        return v


def _regular(p: Path) -> bool:
    try:
        return stat.S_ISREG(p.lstat().st_mode)
    except OSError:
        return False


def _is_report(p: Path) -> bool:
    """An XML file in a junit folder (whatever it holds: a torn report must not hide), or any XML
    file that parses as JUnit."""
    if p.suffix != ".xml" or not _regular(p):
        return False
    return p.parent.name == "junit" or is_junit(p.read_bytes())


# Files made of lines (records, journals, games, summaries): each ends with its newline, so a
# file whose last byte is not one holds a record cut short.
LINE_FILES = (".jsonl", ".journal", ".pgn", ".txt", ".epd", ".md", ".csv", ".tsv")


def torn_line(p: Path) -> bool:
    if p.suffix not in LINE_FILES:
        return False
    with open(p, "rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() == 0:
            return False
        f.seek(-1, os.SEEK_END)
        return f.read(1) != b"\n"


def intact(p: Path) -> bool:
    """A whole file of its kind: XML and JSON parse, JSON Lines parse line by line, anything else
    is not empty."""
    import json

    data = p.read_bytes()
    try:
        if p.suffix == ".xml":
            ET.fromstring(data)
        elif p.suffix == ".json":
            json.loads(data)
        elif p.suffix == ".jsonl":
            for line in data.decode().splitlines():
                json.loads(line)
        else:
            return len(data) > 0
    except (ET.ParseError, ValueError):
        return False
    return True
