"""Whether a C++ mutant compiles, asked before it is drawn (docs/mutation.md, "Syntax check
before the draw").

The compiler runs with -fsyntax-only on the mutated text and the flags its object is built with
(the compile_commands.json of the working tree's build/release; for a unity batch, the batch's
flags). Most of a check's time is the file's headers, the same for every mutant of the file: each
file's leading `#include` lines (and the target's CMake precompiled header) are compiled once into
a precompiled header of their own, which every check of the file then includes first; a file
whose unmutated text does not pass that way is checked without it. Checks of the candidates a
draw will test run side by side (`prefetch`); verdicts are kept across runs by the text, the
command and the digest of every project header (a changed header never reuses a verdict).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import hashlib
import json
import os
import re
import subprocess
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol

from stkref import compile_commands, inputs
from stkref.errors import InputError
from stkref.report import write_text_atomic

HEADER_SUFFIXES = (".h", ".hpp", ".hxx", ".inc")
# Left out of the digest: the build writes the revision (and "-dirty") into this header at every
# build, and no mutant's verdict depends on a string's text. In the digest it made every build of
# the work tree (a commit, an edit) throw away every kept verdict: 33 minutes of checks at the
# next run of a campaign (2026-12-05).
REVISION_HEADERS = frozenset({"stk_git_revision.h"})
# The leading lines a precompiled preamble takes: blank lines, comments and includes. Anything
# else (a #define, a #if, code) ends it, so no include is moved out of a condition or past a macro.
PREAMBLE_LINE = re.compile(
    r'^\s*(?:$|//.*$|#\s*include\s*[<"][^>"]+[>"]\s*(?://.*)?$|#\s*pragma\s+once\b)'
)


class Located(Protocol):
    file: str


def preamble_of(text: str) -> str:
    """The file's leading include block (PREAMBLE_LINE), comments and blank lines dropped."""
    kept = []
    for line in text.splitlines():
        if not PREAMBLE_LINE.match(line):
            break
        if line.lstrip().startswith("#"):
            kept.append(line.strip())
    return "".join(line + "\n" for line in kept)


def absolute_include(line: str, folder: Path) -> str:
    """A quoted include found next to its source, made absolute: the preamble that takes it
    lives elsewhere (an include found through -I stays as it is)."""
    m = re.match(r'#\s*include\s*"([^"]+)"', line)
    if m and (folder / m.group(1)).is_file():
        return f'#include "{os.path.normpath(folder / m.group(1))}"'
    return line


def split_forced_include(flags: Sequence[str]) -> tuple[list[str], list[str]]:
    """(flags without any `-include FILE`, the files): only the first forced include may be a
    precompiled header, so the preamble takes them over."""
    rest: list[str] = []
    forced: list[str] = []
    it = iter(flags)
    for arg in it:
        if arg == "-include":
            forced.append(next(it, ""))
        else:
            rest.append(arg)
    return rest, [f for f in forced if f]


def header_digest(root: Path, extra: Iterable[Path] = ()) -> str:
    """One digest of every header under `root` (hidden folders and build/ left out) and under
    `extra` folders, REVISION_HEADERS left out: a verdict kept for a text is only reused while the
    headers it was judged with are unchanged."""
    h = hashlib.sha256()
    for i, top in enumerate([root, *extra]):
        for folder, dirs, files in os.walk(top):
            if Path(folder) == root:
                dirs[:] = [d for d in dirs if d != "build"]
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            headers = (f for f in files if f.endswith(HEADER_SUFFIXES))
            for name in sorted(f for f in headers if f not in REVISION_HEADERS):
                path = Path(folder) / name
                with contextlib.suppress(OSError):
                    # By the name under its top: a snapshot's folder changes with the commit.
                    name_under = f"{i}:{path.relative_to(top)}"
                    h.update(f"{name_under}\0".encode() + path.read_bytes() + b"\0")
    return h.hexdigest()


class SyntaxCheck:
    """The check of one run. With no compile database, or for a file whose unmutated text fails
    the check, every mutant passes (the build decides). `passed` and `rejected` count the
    candidates the draw asked about; `seconds` is the wall time spent checking."""

    def __init__(
        self,
        root: Path,
        build_dir: Path | None = None,
        cache: Path | None = None,
        jobs: int | None = None,
        pch_dir: Path | None = None,
        sources: Path | None = None,
    ) -> None:
        self.root = root
        # Where the sources and headers are read (a snapshot of HEAD, tool.head_snapshot): a run
        # lasts hours, and the work tree's headers may change under it (a developer goes on).
        self.src = sources or root
        self.build_dir = build_dir or root / "build" / "release"
        self.db = self.build_dir / "compile_commands.json"
        self.flags: dict[str, list[str] | None] | None = None
        self.cwd: dict[str, str] = {}
        self.checked: set[str] = set()
        self.rejected = 0
        self.passed = 0
        self.seconds = 0.0
        self.jobs = max(1, jobs or os.cpu_count() or 1)
        self.pch_dir = pch_dir or (cache.parent / "pch" if cache is not None else None)
        self.pch: dict[str, list[str]] = {}  # path -> the flags that include its preamble
        self.group_pch: dict[tuple[str, ...], list[str] | None] = {}
        self.group_locks: dict[tuple[str, ...], threading.Lock] = {}
        self.digest: str | None = None
        self.lock = threading.Lock()
        self.cache_file = cache
        self.cache: dict[str, bool] = {}
        if cache is not None and cache.is_file():
            with contextlib.suppress(OSError, ValueError):
                loaded = json.loads(cache.read_text())
                self.cache = {k: v for k, v in loaded.items() if isinstance(v, bool)}

    def _load(self) -> dict[str, list[str] | None]:
        flags: dict[str, list[str] | None] = {}
        if not self.db.is_file():
            print(f"mutation: no {self.db}: C++ mutants are not syntax-checked before the build")
            return flags
        for entry in compile_commands.load(self.db):
            keep = entry.flags()
            directory = entry.directory
            for src in entry.sources():
                try:
                    rel = src.resolve().relative_to(self.root.resolve()).as_posix()
                except ValueError:
                    continue
                flags.setdefault(rel, self._from_sources(keep))
                self.cwd.setdefault(rel, str(directory))
        return flags

    def _from_sources(self, flags: list[str]) -> list[str]:
        """The flags with every path into the work tree (not its build/) moved to self.src."""
        if self.src == self.root:
            return flags
        tree = re.escape(str(self.root.resolve()))
        into = re.compile(rf"{tree}/(?!build/)")
        return [into.sub(lambda _: f"{self.src.resolve()}/", f) for f in flags]

    def _base(self, path: str) -> list[str] | None:
        with self.lock:
            if self.flags is None:
                self.flags = self._load()
                self.digest = header_digest(self.src, [self.build_dir / "generated"])
            return self.flags.get(path)

    def _args(self, path: str) -> list[str] | None:
        base = self._base(path)
        if base is None:
            return None
        where = str((self.src / path).parent)
        flags = self.pch.get(path, base)
        return [*flags, "-fsyntax-only", "-w", "-iquote", where, "-x", "c++", "-"]

    def compiles(self, path: str, text: str, timed: bool = True) -> bool:
        args = self._args(path)
        if args is None:
            return True
        # The shards of one draw check the same candidates: each verdict is kept by the text,
        # the command that judged it and the headers it saw (build/mutation/syntax-cache.json).
        key = self._key([*args, self.cwd[path]], text)
        if key in self.cache:
            return self.cache[key]
        t0 = time.monotonic()
        try:
            r = subprocess.run(
                args, input=text, cwd=self.cwd[path], capture_output=True, text=True, timeout=300
            )
            ok = self.cache[key] = r.returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            ok = True  # the check could not say: the build decides
        if timed:
            self.seconds += time.monotonic() - t0
        return ok

    def _null_control(self, path: str, original: str) -> None:
        """The file as it is must pass, else its mutants are not checked. Its flag group's
        precompiled preamble is kept for it only when the file passes with it, and faster
        (both decisions kept in the cache, by the file's text, flags and headers)."""
        if path in self.checked:
            return
        self.checked.add(path)
        base = self._base(path)
        if base is None:
            return
        key = "control:" + self._key([*base, self.cwd[path]], original)
        if key not in self.cache:
            ok, plain = self._timed_check(path, original)
            faster = False
            if ok and self._use_preamble(path):
                with_pch, seconds = self._timed_check(path, original)
                faster = with_pch and seconds < plain
            self.cache[key] = ok
            self.cache["preamble:" + key] = faster
        faster = self.cache.get("preamble:" + key, False)
        if not (self.cache[key] and faster and self._use_preamble(path)):
            self.pch.pop(path, None)
        if not self.cache[key]:
            print(f"mutation: {path} fails the syntax check unmutated: not checked")
            assert self.flags is not None
            self.flags[path] = None

    def _timed_check(self, path: str, text: str) -> tuple[bool, float]:
        """One uncached check and its wall time (a check that cannot run passes, slowly)."""
        args = self._args(path)
        assert args is not None
        t0 = time.monotonic()
        try:
            r = subprocess.run(
                args, input=text, cwd=self.cwd[path], capture_output=True, text=True, timeout=300
            )
        except (OSError, subprocess.TimeoutExpired):
            return True, float("inf")
        return r.returncode == 0, time.monotonic() - t0

    def _key(self, args: list[str], text: str) -> str:
        """The verdict's key: the text, the command and the headers' digest, with the snapshot's
        folder and the precompiled preamble's name left out. Both change with every commit while
        the digest says whether the headers did: a verdict outlives the commit it was judged at."""
        srcs = {str(self.src), str(self.src.resolve())}
        pchs = {str(self.pch_dir), str(self.pch_dir.resolve())} if self.pch_dir else set()
        portable = []
        for a in args:
            if any(a.startswith(p + "/") for p in pchs):
                a = "<pch>"
            for src in sorted(srcs, key=len, reverse=True):
                a = a.replace(src, "<src>")
            portable.append(a)
        return hashlib.sha256("\0".join([*portable, self.digest or "", text]).encode()).hexdigest()

    def _use_preamble(self, path: str) -> bool:
        """Points the file's checks at its flag group's precompiled preamble (built once)."""
        base = self._base(path)
        if base is None or self.pch_dir is None:
            return False
        group = tuple(base)
        with self.lock:
            lock = self.group_locks.setdefault(group, threading.Lock())
        with lock:
            if group not in self.group_pch:
                self.group_pch[group] = self._precompile_group(base)
        flags = self.group_pch[group]
        if flags is None:
            return False
        self.pch[path] = flags
        return True

    def _precompile_group(self, base: list[str]) -> list[str] | None:
        """The flags that include a precompiled header of every leading include of the sources
        built with `base` (CMake's forced precompiled header first), or None when it fails."""
        assert self.flags is not None
        flags, forced = split_forced_include(base)
        lines = [f'#include "{f}"' for f in forced]
        cwd = ""
        for rel, other in sorted(self.flags.items(), key=lambda kv: kv[0]):
            if other != base:
                continue
            cwd = self.cwd[rel]
            with contextlib.suppress(OSError, InputError):
                for line in preamble_of(inputs.read_input_text(self.src / rel)).splitlines():
                    line = absolute_include(line, (self.src / rel).parent)
                    if line not in lines:
                        lines.append(line)
        if not lines or not cwd:
            return None
        preamble = "".join(line + "\n" for line in lines)
        # Named by the headers' digest first: the headers of another digest are gone from the
        # tree, so their precompiled files (100-250 MB each) are removed, never accumulated.
        prefix = (self.digest or "none")[:12]
        name = (
            prefix
            + "-"
            + hashlib.sha256("\0".join([*flags, cwd, preamble]).encode()).hexdigest()[:16]
        )
        pch_dir = self.pch_dir or Path(".")
        header = pch_dir / f"{name}.h"
        gch = header.with_name(header.name + ".gch")
        if gch.is_file():
            return [*flags, "-include", str(header)]
        with contextlib.suppress(OSError):
            for old in pch_dir.iterdir():
                if old.name.endswith((".h", ".gch")) and not old.name.startswith(prefix + "-"):
                    old.unlink()
        tmp = header.with_name(f"{name}.{os.getpid()}.{threading.get_ident()}.gch")
        try:
            header.parent.mkdir(parents=True, exist_ok=True)
            write_text_atomic(header, preamble)
            r = subprocess.run(
                [*flags, "-w", "-x", "c++-header", str(header), "-o", str(tmp)],
                cwd=cwd,
                capture_output=True,
                timeout=900,
            )
            if r.returncode != 0:
                return None
            os.replace(tmp, gch)
        except (OSError, subprocess.TimeoutExpired):
            return None
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
        return [*flags, "-include", str(header)]

    def prefetch(self, work: Sequence[tuple[str, str, str]]) -> None:
        """Checks (path, original, mutated) side by side on `jobs` threads, filling the cache:
        first each file's null control and preamble, then the mutants."""
        t0 = time.monotonic()
        files = {path: original for path, original, _ in work}
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            list(pool.map(lambda item: self._null_control(*item), files.items()))
            list(pool.map(lambda item: self.compiles(item[0], item[2], timed=False), work))
        self.seconds += time.monotonic() - t0

    def viable(self, m: Located, original: str, mutated: str) -> bool:
        """True when the mutant compiles (or the check cannot say); counted either way."""
        self._null_control(m.file, original)
        ok = self.compiles(m.file, mutated)
        self.passed += ok
        self.rejected += not ok
        return ok

    def save(self) -> None:
        """Keeps the verdicts for the next run (a lost cache only costs time)."""
        if self.cache_file is not None and self.cache:
            with contextlib.suppress(OSError):
                self.cache_file.parent.mkdir(parents=True, exist_ok=True)
                write_text_atomic(self.cache_file, json.dumps(self.cache, separators=(",", ":")))
