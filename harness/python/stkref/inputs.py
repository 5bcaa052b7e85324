"""Input paths checked before they are opened (docs/faults.md "Python tools").

The Python side of io::read_input_file (harness/src/io/input_file.h): an input is an existing
regular file (a symbolic link to one is fine) of at most a size limit. Anything else is refused by
name and never read: a FIFO blocks the open (or the read) until a writer comes, which may be
never; a device such as /dev/zero or /dev/urandom is read without end until the OOM killer ends
the run; a directory or a socket cannot be read; a dangling link or a link loop names nothing.

- Options: `input_file()` (and `folder`, `program`) are argparse types, so the refusal comes while
  the command line is read, before any work, as "argument --data: PATH: is a FIFO, not a regular
  file" (exit 2).
- Paths from elsewhere (a manifest, a JSON report, a glob, a fixed file of the repository) are
  read through `read_input_bytes`, `read_input_text` or `open_input`, which check the same way and
  open with O_NONBLOCK, so that a FIFO put there after the check cannot block the open either.

Standard library only (the stkdev tools run before the venv exists).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import hashlib
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from .errors import InputError
from .outputs import kind_of

# The default limit, io::kMaxInputBytes: no net, checkpoint, report or position file comes near
# it, and a file claiming more is refused before anything is read.
LIMIT = 1 << 30
# Training data (datagen text read by stktrain.train, netquality, record_net) and search records
# (.fhr read by fhfit, calibration, fhrecords) legitimately outgrow 1 GiB; 16 GiB is about what
# the trainer can hold in memory on the machines it runs on.
DATA_LIMIT = 16 << 30


def _unresolved(path: str | os.PathLike[str], e: OSError, what: str) -> str:
    """Why stat(2) failed, in io::input_file_error's words, a link's failure said as such."""
    if e.errno == errno.ELOOP:
        return "is a symbolic link loop"
    if e.errno == errno.ENOENT and os.path.islink(path):
        return f"is a dangling symbolic link (to {os.readlink(path)})"
    return f"cannot open {what}: {e.strerror}"


def input_problem(path: str | os.PathLike[str], limit: int | None = LIMIT) -> str:
    """'' when `path` is a readable regular file of at most `limit` bytes (None: any size), else
    why not: "is a FIFO, not a regular file", "is a directory", "is 2147483648 bytes, over the
    1073741824-byte input limit", "cannot open file: No such file or directory"..."""
    try:
        st = os.stat(path)
    except OSError as e:
        return _unresolved(path, e, "file")
    if stat.S_ISDIR(st.st_mode):
        return "is a directory"
    if not stat.S_ISREG(st.st_mode):
        return f"is {kind_of(st.st_mode)}, not a regular file"
    if limit is not None and st.st_size > limit:
        return f"is {st.st_size} bytes, over the {limit}-byte input limit"
    if not os.access(path, os.R_OK):
        return "cannot open file: Permission denied"
    return ""


def folder_problem(path: str | os.PathLike[str]) -> str:
    """'' when `path` is a folder (or a link to one) this process may list, else why not."""
    try:
        st = os.stat(path)
    except OSError as e:
        return _unresolved(path, e, "folder")
    if not stat.S_ISDIR(st.st_mode):
        return f"is {kind_of(st.st_mode)}, not a folder"
    if not os.access(path, os.R_OK | os.X_OK):
        return "cannot open folder: Permission denied"
    return ""


class UnreadableInputError(InputError):
    """An input refused or unreadable: "PATH: why"; a reader with its own error type words its
    message from `why`."""

    def __init__(self, path: str | os.PathLike[str], why: str) -> None:
        super().__init__(f"{os.fspath(path)}: {why}")
        self.why = why


def check_input(path: str | os.PathLike[str], limit: int | None = LIMIT) -> None:
    """UnreadableInputError unless `path` is a readable regular file within `limit`."""
    if why := input_problem(path, limit):
        raise UnreadableInputError(path, why)


def check_folder(path: str | os.PathLike[str]) -> None:
    if why := folder_problem(path):
        raise UnreadableInputError(path, why)


# ---- argparse types: refused while the command line is read, naming the option ---------------


def input_file(limit: int | None = LIMIT) -> Callable[[str], Path]:
    """The type of an option naming a file the tool reads: a readable regular file of at most
    `limit` bytes (LIMIT; DATA_LIMIT for training data and search records)."""

    def parse(text: str) -> Path:
        if why := input_problem(text, limit):
            raise argparse.ArgumentTypeError(f"{text}: {why}")
        return Path(text)

    parse.__name__ = "input file"
    return parse


def folder(text: str) -> Path:
    """The type of an option naming a folder the tool reads (the files it reads there are read
    through read_input_bytes/read_input_text)."""
    if why := folder_problem(text):
        raise argparse.ArgumentTypeError(f"{text}: {why}")
    return Path(text)


def program(text: str) -> Path:
    """The type of an option naming a program the tool runs: an executable regular file (any
    size: it is run, not read)."""
    why = input_problem(text, None)
    if not why and not os.access(text, os.X_OK):
        why = "is not executable"
    if why:
        raise argparse.ArgumentTypeError(f"{text}: {why}")
    return Path(text)


# ---- the checked reader: every input read that no option checked goes through it ------------


@contextlib.contextmanager
def open_input(path: str | os.PathLike[str], limit: int | None = LIMIT) -> Iterator[BinaryIO]:
    """The file opened for binary reading after the check; what was opened is checked again
    (fstat), so a FIFO or device swapped in between is refused too, never waited on. An open
    that fails is an UnreadableInputError as well."""
    check_input(path, limit)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise UnreadableInputError(path, _unresolved(path, e, "file")) from e
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UnreadableInputError(path, f"is {kind_of(mode)}, not a regular file")
        os.set_blocking(fd, True)
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        yield f


def read_input_bytes(path: str | os.PathLike[str], limit: int = LIMIT) -> bytes:
    """The whole file, checked first (UnreadableInputError "PATH: why", also for a read error); a
    file that grows past `limit` while it is read is refused too."""
    with open_input(path, limit) as f:
        try:
            return _read_all(f, limit)
        except OSError as e:
            raise UnreadableInputError(path, f"read error: {e.strerror}") from e
        except OverflowError:
            raise UnreadableInputError(path, f"grew over the {limit}-byte input limit") from None


def _read_all(f: BinaryIO, limit: int) -> bytes:
    """Up to `limit` bytes to the end; OverflowError when there are more (a file that grew)."""
    size = min(os.fstat(f.fileno()).st_size, limit)
    data = f.read(size + 1)  # one allocation of the size stat gave; +1 sees a file that grew
    if len(data) <= size:
        return data
    grown = bytearray(data)
    while len(grown) <= limit and (chunk := f.read(1 << 20)):
        grown += chunk
    if len(grown) > limit:
        raise OverflowError
    return bytes(grown)


def read_input_text(
    path: str | os.PathLike[str], limit: int = LIMIT, errors: str = "strict"
) -> str:
    """read_input_bytes decoded as UTF-8; text that is not UTF-8 is an UnreadableInputError."""
    data = read_input_bytes(path, limit)
    try:
        return data.decode("utf-8", errors)
    except UnicodeDecodeError as e:
        raise UnreadableInputError(path, f"not UTF-8 text ({e})") from e


def differs_from(path: str | os.PathLike[str], text: str, source: str) -> bool:
    """A generated page's --check: True, with a unified diff on stdout, when the file at `path`
    (missing reads as empty) is not `text`, which `source` made."""
    import difflib
    import sys

    old = read_input_text(path) if os.path.lexists(path) else ""
    if old == text:
        return False
    sys.stdout.writelines(
        difflib.unified_diff(old.splitlines(True), text.splitlines(True), str(path), source)
    )
    return True


def sha256_file(path: str | os.PathLike[str], limit: int = LIMIT) -> str:
    """The file's SHA-256, read through the checked reader (a FIFO or a device is refused)."""
    h = hashlib.sha256()
    with open_input(path, limit) as f:
        try:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        except OSError as e:
            raise UnreadableInputError(path, f"read error: {e.strerror}") from e
    return h.hexdigest()
