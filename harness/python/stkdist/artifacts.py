"""Artifacts by content: a program a chunk runs is named by its SHA-256, and a worker verifies the
file it would run before it runs it (a worker whose copy differs takes no work). With --ship the
files travel with the work: each goes to <ship-dir>/<SHA-256>/<name> on every worker (Dask moves
the bytes to a worker once), and the commands name those paths."""

from __future__ import annotations

import hashlib
import shlex
from pathlib import Path

from stkref.outputs import write_bytes_atomic


def sha256_of(path: str | Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class ArtifactMismatchError(RuntimeError):
    """The worker's file is not the one the coordinator named."""


def verify(expected: dict[str, str]) -> None:
    """Every path in `expected` has the SHA-256 given; else ArtifactMismatchError naming it."""
    for path, digest in expected.items():
        try:
            got = sha256_of(path)
        except OSError as e:
            raise ArtifactMismatchError(f"{path}: cannot be read on this worker ({e})") from e
        if got != digest:
            raise ArtifactMismatchError(
                f"{path}: SHA-256 {got} on this worker, the run needs {digest}"
            )


def _file_of(text: str) -> str:
    try:
        p = Path(text)
        return str(p.resolve()) if p.is_file() else ""
    except (OSError, ValueError):
        return ""


def program_of(command: str | None) -> str:
    """The resolved file a command line `PROGRAM ARGS` runs, or "" (no such file, no command,
    quotes left open: the command's own run names that)."""
    try:
        words = shlex.split(command or "")
    except ValueError:
        return ""
    return _file_of(words[0]) if words else ""


def _swap(text: str, mapping: dict[str, str]) -> str:
    """A path in `mapping` (by its resolved form) replaced; or a command line whose program is."""
    if direct := mapping.get(_file_of(text)):
        return direct
    try:
        words = shlex.split(text)
    except ValueError:
        return text
    if len(words) > 1 and (target := mapping.get(_file_of(words[0]))):
        return shlex.join([target, *words[1:]])
    return text


def shipped_word(word: str, mapping: dict[str, str]) -> str:
    """An argument with the files `mapping` ships replaced by their shipped paths, wherever the
    project's commands take a path: alone, `cmd=PROGRAM ARGS`, `--option=PATH`, `PROGRAM ARGS`."""
    if word.startswith("cmd="):
        return "cmd=" + _swap(word[4:], mapping)
    if word.startswith("--") and "=" in word:
        option, _, value = word.partition("=")
        return f"{option}={_swap(value, mapping)}"
    return _swap(word, mapping)


def install(shipped: dict[str, bytes], expected: dict[str, str]) -> None:
    """Writes each shipped file at its path (its folder named by its SHA-256) unless a file with
    that digest is there, through the one checked writer (a temporary and a rename: workers
    sharing a disk never see a torn copy). verify() checks them afterwards like any artifact."""
    for path, data in shipped.items():
        target = Path(path)
        if target.is_file() and sha256_of(target) == expected.get(path):
            continue
        write_bytes_atomic(target, data, 0o755)
