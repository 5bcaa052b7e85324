"""Which functions a process ran, read from its .gcda without gcov, and which lines each function
owns, read once from the object's .gcno (docs/mutation.md, "Reading a test's counts"). gcov
takes 33 to 50 ms a .gcda, most of it reading the object's .gcno again; a refresh measuring the
fault matrix test by test reads ~100,000 of them.

The formats are GCC 12's (gcov-io.h, version "B22*"): a header of 32-bit words (magic, version,
stamp, checksum; a .gcno then adds its working directory and the unexecuted-blocks flag), then
records of a tag word and a length word counted in bytes. Strings are a byte count (the NUL
included) and the bytes, unpadded. A function's arc counters are 64-bit; they count the arcs
off the spanning tree, and a function ran exactly when one of them is nonzero: its entry block
lies on every path through it, so some counted arc is taken whenever it runs."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

GCDA_MAGIC = 0x67636461  # "gcda"
GCNO_MAGIC = 0x67636E6F  # "gcno"
TAG_FUNCTION = 0x01000000
TAG_LINES = 0x01450000
TAG_ARC_COUNTERS = 0x01A10000
_WORD = struct.Struct("<I")


class GcovFormatError(ValueError):
    """A .gcda or .gcno this reader cannot follow: the message names the file and byte offset."""


@dataclass
class FunctionLines:
    """One function of a .gcno: its (mangled) name, whether the compiler made it (a static
    initializer: gcov shows none of its lines), and the source lines of its blocks, by the source
    path as the .gcno names it (absolute, or relative to the .gcno's working directory)."""

    name: str
    artificial: bool = False
    lines: dict[str, set[int]] = field(default_factory=dict)


class _Reader:
    def __init__(self, data: bytes, name: str, pos: int = 0, end: int | None = None):
        self.data, self.name, self.pos = data, name, pos
        self.end = len(data) if end is None else end

    def fail(self, what: str, at: int | None = None) -> GcovFormatError:
        return GcovFormatError(f"{self.name}: byte {self.pos if at is None else at}: {what}")

    def word(self) -> int:
        if self.pos + 4 > self.end:
            raise self.fail("truncated: a 32-bit word expected")
        (value,) = _WORD.unpack_from(self.data, self.pos)
        self.pos += 4
        return value

    def string(self) -> str:
        length = self.word()
        end = self.pos + length
        if end > self.end:
            raise self.fail(f"truncated: a string of {length} bytes expected")
        raw = self.data[self.pos : end]
        self.pos = end
        return raw.rstrip(b"\0").decode("utf-8", "surrogateescape")

    def header(self, magic: int) -> None:
        if len(self.data) < 16 or self.word() != magic:
            raise self.fail("not a " + ("gcda" if magic == GCDA_MAGIC else "gcno") + " file", 0)
        self.pos = 16  # magic, version, stamp, checksum

    def records(self):
        """(tag, start of its body, end of its body, whether it is a counter record written
        compact) of each record left. GCC 12 writes a counter record whose counts are all zero
        as its length negated, without the counts."""
        while self.pos < self.end:
            at = self.pos
            tag = self.word()
            if tag == 0:  # the end marker libgcov writes last
                return
            length = self.word()
            if length >= 1 << 31 and tag == TAG_ARC_COUNTERS:
                yield tag, self.pos, self.pos, True
                continue
            end = self.pos + length
            if end > self.end:
                raise self.fail(f"record {tag:#010x} of {length} bytes runs past the end", at)
            yield tag, self.pos, end, False
            self.pos = end


def stamp(data: bytes, name: str) -> int:
    """The build stamp of a .gcda or .gcno: the two of one compile hold the same."""
    if len(data) < 12:
        raise GcovFormatError(f"{name}: byte 0: not a gcda or gcno file")
    return _WORD.unpack_from(data, 8)[0]


def executed_functions(data: bytes, name: str = "<gcda>") -> frozenset[int]:
    """The idents of the functions a .gcda counts as run: one of their arc counters is nonzero.
    A function record of length 0 (a COMDAT copy this object did not keep) ran nowhere here; one
    with no arc counters cannot be told apart and counts as run (a superset is safe)."""
    r = _Reader(data, name)
    r.header(GCDA_MAGIC)
    ran: set[int] = set()
    current: int | None = None  # the function whose counters follow, until they are seen
    for tag, start, end, all_zero in r.records():
        if tag == TAG_FUNCTION:
            if current is not None:
                ran.add(current)
            current = _WORD.unpack_from(data, start)[0] if end - start >= 12 else None
        elif tag == TAG_ARC_COUNTERS and current is not None:
            if not all_zero and (data[start:end].strip(b"\0") or start == end):
                ran.add(current)
            current = None
    if current is not None:
        ran.add(current)
    return frozenset(ran)


def function_lines(data: bytes, name: str = "<gcno>") -> tuple[str, dict[int, FunctionLines]]:
    """The .gcno's working directory and each function's lines, by ident."""
    r = _Reader(data, name)
    r.header(GCNO_MAGIC)
    cwd = r.string()
    r.word()  # whether blocks may be marked unexecuted
    out: dict[int, FunctionLines] = {}
    current: FunctionLines | None = None
    for tag, start, end, _ in r.records():
        if tag == TAG_FUNCTION:
            fr = _Reader(data, name, start, end)
            ident = fr.word()
            fr.pos += 8  # the two checksums
            name = fr.string()
            current = out.setdefault(ident, FunctionLines(name, bool(fr.word())))
        elif tag == TAG_LINES:
            if current is None:
                raise r.fail("lines before any function", start - 8)
            _add_block_lines(_Reader(data, name, start + 4, end), current.lines)
    return cwd, out


def _add_block_lines(r: _Reader, into: dict[str, set[int]]) -> None:
    """One LINES record past its block number: line numbers, and a 0 word followed by the name
    of the file later numbers belong to, until a 0 word followed by an empty name."""
    source: str | None = None
    while r.pos < r.end:
        line = r.word()
        if line:
            if source is None:
                raise r.fail("a line number before any file name", r.pos - 4)
            into.setdefault(source, set()).add(line)
            continue
        source = r.string() or None
        if source is None:
            return
    raise r.fail("lines record without its end marker")


def read_function_lines(gcno: Path) -> tuple[str, dict[int, FunctionLines]]:
    return function_lines(gcno.read_bytes(), str(gcno))


def read_stamp(path: Path) -> int:
    with path.open("rb") as f:
        return stamp(f.read(12), str(path))


TAG_OBJECT_SUMMARY = 0xA1000000
_COUNTER = struct.Struct("<Q")


@dataclass
class Counts:
    """One function's record of a .gcda: its three identifying words, and its arc counters
    (None for a record of length 0: a COMDAT copy this object did not keep)."""

    words: tuple[int, int, int]
    arcs: list[int] | None


@dataclass
class Gcda:
    """A whole .gcda: its header words, run count and largest sum, and its functions in order."""

    header: tuple[int, int, int, int]
    runs: int
    sum_max: int
    functions: list[Counts]


def read_gcda(data: bytes, name: str = "<gcda>") -> Gcda:
    r = _Reader(data, name)
    r.header(GCDA_MAGIC)
    header = struct.unpack_from("<4I", data, 0)
    runs = sum_max = 0
    functions: list[Counts] = []
    for tag, start, end, all_zero in r.records():
        if tag == TAG_OBJECT_SUMMARY and end - start == 8:
            runs, sum_max = struct.unpack_from("<2I", data, start)
        elif tag == TAG_FUNCTION:
            if end - start == 12:
                functions.append(Counts(struct.unpack_from("<3I", data, start), []))
            elif end == start:
                functions.append(Counts((0, 0, 0), None))
            else:
                raise r.fail(f"a function record of {end - start} bytes", start - 8)
        elif tag == TAG_ARC_COUNTERS:
            if not functions or functions[-1].arcs != []:
                raise r.fail("arc counters outside a function", start - 8)
            if all_zero:
                length = (1 << 32) - _WORD.unpack_from(data, start - 4)[0]
                functions[-1].arcs = [0] * (length // 8)
            else:
                functions[-1].arcs = [c for (c,) in _COUNTER.iter_unpack(data[start:end])]
    return Gcda(header, runs, sum_max, functions)


def merged(files: list[Gcda], name: str) -> Gcda:
    """The counts of one object summed over runs, as `gcov-tool merge` writes them: the same
    functions in the same order, each counter added, the runs and the summary's sums added."""
    first = files[0]
    out = Gcda(
        first.header,
        0,
        0,
        [Counts(f.words, None if f.arcs is None else []) for f in first.functions],
    )
    for g in files:
        if g.header[2] != first.header[2] or len(g.functions) != len(first.functions):
            raise GcovFormatError(f"{name}: counts of another build of the object")
        out.runs += g.runs
        out.sum_max = (out.sum_max + g.sum_max) & 0xFFFFFFFF
        for mine, theirs in zip(out.functions, g.functions, strict=True):
            if theirs.arcs is None or mine.arcs is None:
                continue  # a copy not kept here: its counts are in the object that kept it
            if theirs.words != mine.words:
                raise GcovFormatError(f"{name}: counts of another build of the object")
            if not mine.arcs:
                mine.arcs = [0] * len(theirs.arcs)
            if len(theirs.arcs) != len(mine.arcs):
                raise GcovFormatError(f"{name}: counts of another build of the object")
            mine.arcs = [a + b for a, b in zip(mine.arcs, theirs.arcs, strict=True)]
    return out


def gcda_bytes(g: Gcda) -> bytes:
    """The .gcda libgcov would write for these counts (an all-zero record written compact)."""
    parts = [struct.pack("<4I", *g.header)]
    parts.append(struct.pack("<4I", TAG_OBJECT_SUMMARY, 8, g.runs, g.sum_max))
    for f in g.functions:
        if f.arcs is None:
            parts.append(struct.pack("<2I", TAG_FUNCTION, 0))
            continue
        parts.append(struct.pack("<5I", TAG_FUNCTION, 12, *f.words))
        n = 8 * len(f.arcs)
        if any(f.arcs):
            parts.append(struct.pack("<2I", TAG_ARC_COUNTERS, n))
            parts.append(b"".join(_COUNTER.pack(c) for c in f.arcs))
        else:
            parts.append(struct.pack("<2I", TAG_ARC_COUNTERS, (-n) & 0xFFFFFFFF))
    parts.append(_WORD.pack(0))
    return b"".join(parts)
