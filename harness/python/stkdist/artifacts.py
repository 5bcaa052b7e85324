"""Artifacts by content: a program a chunk runs is named by its SHA-256, and a worker verifies the
file it would run before it runs it (a worker whose copy differs takes no work)."""

from __future__ import annotations

import hashlib
from pathlib import Path


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
