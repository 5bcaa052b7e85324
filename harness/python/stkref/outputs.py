"""Output paths checked before any work, and the one checked writer (docs/faults.md "Python tools").

- Something other than a regular file at an output path (a FIFO, a device such as /dev/full, a
  directory, a socket) is refused by name, never opened: opening a FIFO would block, a device
  would take the bytes and a directory cannot be replaced.
- A symbolic link at an output path is replaced by the new file, as a name: the link is never
  followed, so its target (wherever it points, if anywhere) is never written or truncated.
- The folder of an output must be a writable folder: a file output's folder must exist (a typo in
  --out is refused, not created); report trees (--reports-dir, --out-dir, --junit) are created.
- write_bytes_atomic writes a temporary in the target's folder, fsyncs it, renames it over the
  target and fsyncs the folder; any failure (ENOSPC, EIO, a signal) removes the temporary.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import InputError

_KINDS = (
    (stat.S_ISREG, "a regular file"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISSOCK, "a socket"),
)


class RefusedOutputError(InputError, OSError):
    """An output path that is not a place to write a file: an input error (exit 2) and, for the
    writer's callers, an OSError like any other failed write."""


def kind_of(mode: int) -> str:
    return next((what for test, what in _KINDS if test(mode)), "not a regular file")


def _named(path: Path, option: str) -> str:
    return f"{option} {path}" if option else str(path)


def refuse_non_regular(path: Path, option: str = "") -> None:
    """InputError unless `path` is missing, a regular file or a symbolic link (never followed)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as e:
        raise RefusedOutputError(f"{_named(path, option)}: cannot inspect it: {e.strerror}") from e
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise RefusedOutputError(
            f"{_named(path, option)}: is {kind_of(mode)}, not a regular file: "
            "refusing to replace it"
        )


def _nearest_existing(folder: Path) -> Path:
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    return folder


def require_writable_folder(folder: Path, what: str, create: bool = False) -> None:
    """InputError (naming `what`: the output) unless `folder` is a folder this process may create
    files in; with `create`, a missing folder is fine when its nearest existing ancestor is one
    (it is made later)."""
    where = _nearest_existing(folder) if create else folder
    try:
        mode = os.stat(where).st_mode
    except FileNotFoundError:
        raise RefusedOutputError(f"{what}: folder {folder} does not exist") from None
    except OSError as e:
        raise RefusedOutputError(f"{what}: folder {where} is unusable: {e.strerror}") from e
    if not stat.S_ISDIR(mode):
        raise RefusedOutputError(f"{what}: {where} is {kind_of(mode)}, not a folder")
    if not os.access(where, os.W_OK | os.X_OK):  # access(2) also says EROFS: a read-only mount
        raise RefusedOutputError(f"{what}: folder {where} is not writable")


@dataclass(frozen=True)
class Output:
    """An output a tool will write: `option` names it in messages ("--out", "OUT")."""

    option: str
    path: Path
    kind: str = "file"  # "file": its folder must exist; "report": folders made; "folder"


def report_tree(option: str, folder: Path, files: Iterable[str]) -> list[Output]:
    """A folder of reports (made when missing) and the files a run writes under it."""
    return [Output(option, folder, "folder")] + [
        Output(option, folder / f, "report") for f in files
    ]


def check_output(out: Output) -> None:
    what = _named(out.path, out.option)
    if out.kind == "folder":
        refuse_non_folder(out.path, out.option)
        require_writable_folder(out.path, what, create=True)
        return
    refuse_non_regular(out.path, out.option)
    require_writable_folder(out.path.parent, what, create=out.kind == "report")


def refuse_non_folder(path: Path, option: str = "") -> None:
    try:
        mode = os.stat(path).st_mode  # a link to a folder is a folder
    except FileNotFoundError:
        return
    except OSError as e:  # a file where a folder of the path should be: ENOTDIR, a link loop
        raise RefusedOutputError(f"{_named(path, option)}: cannot inspect it: {e.strerror}") from e
    if not stat.S_ISDIR(mode):
        raise RefusedOutputError(f"{_named(path, option)}: is {kind_of(mode)}, not a folder")


def check_outputs(outputs: Iterable[Output]) -> None:
    for out in outputs:
        check_output(out)


# Temporaries being written: removed by remove_temporaries when a run ends in a failure that
# came between their creation and their own cleanup (a signal).
_temporaries: set[str] = set()


def remove_temporaries() -> None:
    while _temporaries:
        with contextlib.suppress(OSError):
            os.unlink(_temporaries.pop())


def _fsync_folder(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_bytes_atomic(path: str | os.PathLike[str], data: bytes, mode: int = 0o644) -> None:
    """The one checked writer: a reader sees the old file or the new one, never a torn one; a
    failed write (a full disk) raises OSError and leaves no temporary file; a target that is not
    a regular file (a device, a FIFO, a folder) is refused; a link there is replaced, never
    followed."""
    write_stream_atomic(path, [data], mode)


def write_stream_atomic(
    path: str | os.PathLike[str], blocks: Iterable[bytes], mode: int = 0o644
) -> None:
    """write_bytes_atomic of the blocks' concatenation, never all in memory at once."""
    target = Path(path)
    refuse_non_regular(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    _temporaries.add(tmp)
    try:
        _write_all(fd, blocks)
        os.chmod(tmp, mode)  # mkstemp creates 0600; outputs are meant to be read
        os.replace(tmp, target)
        _temporaries.discard(tmp)
        _fsync_folder(target.parent)
    except BaseException as e:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        _temporaries.discard(tmp)
        if isinstance(e, OSError) and e.filename is None:
            # A failed write, flush or fsync names no file: the message must name the output.
            raise OSError(e.errno, e.strerror or str(e), str(target)) from e
        raise


def _write_all(fd: int, blocks: Iterable[bytes]) -> None:
    """Writes and syncs the blocks to fd, then closes it. The first failure is the one raised:
    closing after a failed write fails again (the buffer cannot be flushed), and that second
    error (EIO after ENOSPC) would hide the cause."""
    f = os.fdopen(fd, "wb")
    try:
        for block in blocks:
            f.write(block)
        f.flush()
        os.fsync(f.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            f.close()
        raise
    f.close()


def write_figure(fig: Any, path: str | os.PathLike[str], dpi: int = 100) -> None:
    """A matplotlib figure as PNG through write_bytes_atomic (savefig alone writes in place)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    write_bytes_atomic(path, buf.getvalue())


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """write_bytes_atomic of the UTF-8 text."""
    write_bytes_atomic(path, text.encode("utf-8"))
