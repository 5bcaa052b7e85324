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

import numpy as np

GCDA_MAGIC = 0x67636461  # "gcda"
GCNO_MAGIC = 0x67636E6F  # "gcno"
TAG_FUNCTION = 0x01000000
TAG_BLOCKS = 0x01410000
TAG_ARCS = 0x01430000
TAG_LINES = 0x01450000
ARC_ON_TREE = 1
TAG_ARC_COUNTERS = 0x01A10000
_WORD = struct.Struct("<I")
_TAG_LENGTH = struct.Struct("<II")


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
    # Its flow graph: how many blocks, each arc as (source, destination, counted: off the
    # spanning tree, so the .gcda holds its count), and each block's lines.
    blocks: int = 0
    arcs: list[tuple[int, int, bool]] = field(default_factory=list)
    block_lines: dict[int, dict[str, set[int]]] = field(default_factory=dict)


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


def _gcda_records(data: bytes, name: str) -> list[tuple[int, int, int, bool]]:
    """(tag, start of its body, end of its body, whether it is a counter record written compact)
    of each record of a .gcda past its header: _Reader.records in one loop (a refresh reads
    ~20,000 .gcda of thousands of records each; the generator's calls were most of its time)."""
    if len(data) < 16 or _WORD.unpack_from(data)[0] != GCDA_MAGIC:
        raise GcovFormatError(f"{name}: byte 0: not a gcda file")
    out: list[tuple[int, int, int, bool]] = []
    append, unpack, pos, end = out.append, _TAG_LENGTH.unpack_from, 16, len(data)
    while pos < end:
        if end - pos < 8:
            if end - pos >= 4 and _WORD.unpack_from(data, pos)[0] == 0:
                break  # the end marker libgcov writes last
            at = pos if end - pos < 4 else pos + 4
            raise GcovFormatError(f"{name}: byte {at}: truncated: a 32-bit word expected")
        tag, length = unpack(data, pos)
        if tag == 0:
            break
        body = pos + 8
        if length >= 1 << 31 and tag == TAG_ARC_COUNTERS:  # all zero: the negated length
            append((tag, body, body, True))
            pos = body
            continue
        pos = body + length
        if pos > end:
            raise GcovFormatError(
                f"{name}: byte {body - 8}: record {tag:#010x} of {length} bytes runs past the end"
            )
        append((tag, body, pos, False))
    return out


def executed_functions(data: bytes, name: str = "<gcda>") -> frozenset[int]:
    """The idents of the functions a .gcda counts as run: one of their arc counters is nonzero.
    A function record of length 0 (a COMDAT copy this object did not keep) ran nowhere here; one
    with no arc counters cannot be told apart and counts as run (a superset is safe)."""
    ran: set[int] = set()
    current: int | None = None  # the function whose counters follow, until they are seen
    for tag, start, end, all_zero in _gcda_records(data, name):
        if tag == TAG_FUNCTION:
            if current is not None:
                ran.add(current)
            current = _WORD.unpack_from(data, start)[0] if end - start >= 12 else None
        elif tag == TAG_ARC_COUNTERS and current is not None:
            if not all_zero and (start == end or data[start:end].strip(b"\0")):
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
            function = fr.string()
            current = out.setdefault(ident, FunctionLines(function, bool(fr.word())))
        elif current is None and tag in (TAG_BLOCKS, TAG_ARCS, TAG_LINES):
            raise r.fail("a block record before any function", start - 8)
        elif tag == TAG_BLOCKS:
            current.blocks = _WORD.unpack_from(data, start)[0] if end - start >= 4 else 0
        elif tag == TAG_ARCS:
            _add_arcs(data, name, start, end, current)
        elif tag == TAG_LINES:
            block = _WORD.unpack_from(data, start)[0] if end - start >= 4 else 0
            into = current.block_lines.setdefault(block, {})
            _add_block_lines(data, name, start + 4, end, into)
            for source, lines in into.items():
                current.lines.setdefault(source, set()).update(lines)
    return cwd, out


def _add_arcs(data: bytes, name: str, start: int, end: int, fn: FunctionLines) -> None:
    """One ARCS record: its source block, then a (destination, flags) pair for each arc."""
    if (end - start) % 8 != 4:
        raise GcovFormatError(f"{name}: byte {start - 8}: an arcs record of {end - start} bytes")
    (source,) = _WORD.unpack_from(data, start)
    for pos in range(start + 4, end, 8):
        destination, flags = _TAG_LENGTH.unpack_from(data, pos)
        if max(source, destination) >= fn.blocks:
            raise GcovFormatError(f"{name}: byte {pos}: an arc to or from a block past the last")
        fn.arcs.append((source, destination, not flags & ARC_ON_TREE))


ENTRY_BLOCK, EXIT_BLOCK = 0, 1


def executed_blocks(fn: FunctionLines, counts: list[int], name: str = "<gcda>") -> set[int]:
    """The blocks of fn whose count is nonzero, each arc's count solved from the counted ones
    as gcov does (flow conservation: into a block as much as out of it; the entry block has no
    arc in, the exit none out). A graph that does not solve counts as every block run. `name`
    is the .gcda the counts are of, for the error when they are not the graph's."""
    counted = [a for a in fn.arcs if a[2]]
    if len(counted) != len(counts):
        raise GcovFormatError(
            f"{name}: function {fn.name}: {len(counts)} counters for {len(counted)} counted arcs"
        )
    known = iter(counts)
    arc_count: list[int | None] = [next(known) if c else None for _, _, c in fn.arcs]
    into: list[list[int]] = [[] for _ in range(fn.blocks)]
    out_of: list[list[int]] = [[] for _ in range(fn.blocks)]
    for i, (source, destination, _) in enumerate(fn.arcs):
        out_of[source].append(i)
        into[destination].append(i)
    block_count: list[int | None] = [None] * fn.blocks
    changed = True
    while changed:
        changed = False
        for b in range(fn.blocks):
            sides = [
                s for s, skip in ((into[b], ENTRY_BLOCK), (out_of[b], EXIT_BLOCK)) if b != skip
            ]
            if block_count[b] is None:
                for side in sides:
                    if all(arc_count[a] is not None for a in side):
                        block_count[b] = sum(arc_count[a] for a in side)  # type: ignore[misc]
                        changed = True
                        break
            if block_count[b] is None:
                continue
            for side in sides:
                unknown = [a for a in side if arc_count[a] is None]
                if len(unknown) == 1:
                    rest = sum(arc_count[a] for a in side if arc_count[a] is not None)
                    arc_count[unknown[0]] = block_count[b] - rest  # type: ignore[operator]
                    changed = True
    if any(c is None for c in block_count):
        return set(range(fn.blocks))
    return {b for b, c in enumerate(block_count) if c}


def _add_block_lines(data: bytes, name: str, pos: int, end: int, into: dict[str, set[int]]) -> None:
    """One LINES record past its block number (data[pos:end]): line numbers, and a 0 word
    followed by the name of the file later numbers belong to, until a 0 word followed by an
    empty name. One loop, no reader calls: a refresh reads millions of these words."""
    unpack = _WORD.unpack_from
    lines: set[int] | None = None  # those of the file named last
    while pos + 4 <= end:
        (line,) = unpack(data, pos)
        pos += 4
        if line:
            if lines is None:
                raise GcovFormatError(f"{name}: byte {pos - 4}: a line number before any file name")
            lines.add(line)
            continue
        if pos + 4 > end:
            break
        (length,) = unpack(data, pos)
        pos += 4
        if pos + length > end:
            raise GcovFormatError(
                f"{name}: byte {pos}: truncated: a string of {length} bytes expected"
            )
        source = data[pos : pos + length].rstrip(b"\0").decode("utf-8", "surrogateescape")
        pos += length
        if not source:
            return
        lines = into.setdefault(source, set())
    if pos < end:
        raise GcovFormatError(f"{name}: byte {pos}: truncated: a 32-bit word expected")
    raise GcovFormatError(f"{name}: byte {pos}: lines record without its end marker")


def read_function_lines(gcno: Path) -> tuple[str, dict[int, FunctionLines]]:
    return function_lines(gcno.read_bytes(), str(gcno))


def read_stamp(path: Path) -> int:
    with path.open("rb") as f:
        return stamp(f.read(12), str(path))


TAG_OBJECT_SUMMARY = 0xA1000000
_FUNCTION_WORDS = struct.Struct("<3I")


@dataclass
class Gcda:
    """A whole .gcda: its header words, run count and largest sum; each function's three
    identifying words (None for a record of length 0: a COMDAT copy this object did not keep)
    and how many arc counters it has (0 for those); and every function's counters in order, as
    one array (a merge is then one addition: per-counter Python was most of a refresh)."""

    header: tuple[int, int, int, int]
    runs: int
    sum_max: int
    words: list[tuple[int, int, int] | None]
    arc_counts: list[int]
    counters: np.ndarray  # 64-bit unsigned: they wrap at 2^64 as libgcov's own do


def read_gcda(data: bytes, name: str = "<gcda>") -> Gcda:
    records = _gcda_records(data, name)
    header = struct.unpack_from("<4I", data, 0)
    runs = sum_max = 0
    words: list[tuple[int, int, int] | None] = []
    arc_counts: list[int] = []
    pieces: list[bytes] = []  # the counters' bytes, an all-zero record's zeros written out
    awaiting = False  # the last function record has had no counters yet
    for tag, start, end, all_zero in records:
        if tag == TAG_OBJECT_SUMMARY and end - start == 8:
            runs, sum_max = struct.unpack_from("<2I", data, start)
        elif tag == TAG_FUNCTION:
            if end - start == 12:
                words.append(_FUNCTION_WORDS.unpack_from(data, start))
            elif end == start:
                words.append(None)
            else:
                raise GcovFormatError(
                    f"{name}: byte {start - 8}: a function record of {end - start} bytes"
                )
            arc_counts.append(0)
            awaiting = end != start
        elif tag == TAG_ARC_COUNTERS:
            if not awaiting:
                raise GcovFormatError(f"{name}: byte {start - 8}: arc counters outside a function")
            awaiting = False
            if all_zero:
                length = (1 << 32) - _WORD.unpack_from(data, start - 4)[0]
                pieces.append(bytes(length))
            else:
                length = end - start
                pieces.append(data[start:end])
            arc_counts[-1] = length // 8
    counters = np.frombuffer(b"".join(pieces), dtype="<u8")
    return Gcda(header, runs, sum_max, words, arc_counts, counters)


def merged(files: list[Gcda], name: str) -> Gcda:
    """The counts of one object summed over runs, as `gcov-tool merge` writes them: the same
    functions in the same order, each counter added, the runs and the summary's sums added. A
    function that is a COMDAT copy not kept in the first run keeps no counts (its counts are in
    the object that kept it); nor do a later run's counts of a copy it did not keep."""
    first = files[0]
    out = Gcda(
        first.header,
        0,
        0,
        list(first.words),
        list(first.arc_counts),
        np.zeros(len(first.counters), dtype=np.uint64),
    )
    for g in files:
        if g.header[2] != first.header[2] or len(g.words) != len(first.words):
            raise GcovFormatError(f"{name}: counts of another build of the object")
        out.runs += g.runs
        out.sum_max = (out.sum_max + g.sum_max) & 0xFFFFFFFF
        if g.words == out.words and g.arc_counts == out.arc_counts:
            out.counters += g.counters  # the usual case: one object's runs of one layout
        else:
            out.counters = _added_function_by_function(out, g, name)
    return out


def _added_function_by_function(out: Gcda, g: Gcda, name: str) -> np.ndarray:
    """out's counters plus g's where their layouts differ (a COMDAT copy kept in one run of the
    object and not in another); out.arc_counts updated."""
    mine_at = np.cumsum([0, *out.arc_counts])
    theirs_at = np.cumsum([0, *g.arc_counts])
    parts: list[np.ndarray] = []
    for i, (mine, theirs) in enumerate(zip(out.words, g.words, strict=True)):
        own = out.counters[mine_at[i] : mine_at[i + 1]]
        if mine is None or theirs is None:
            parts.append(own)
            continue
        if theirs != mine:
            raise GcovFormatError(f"{name}: counts of another build of the object")
        other = g.counters[theirs_at[i] : theirs_at[i + 1]]
        if not len(own):  # a function record whose counters the first run did not write
            own = np.zeros(len(other), dtype=np.uint64)
            out.arc_counts[i] = len(other)
        if len(other) != len(own):
            raise GcovFormatError(f"{name}: counts of another build of the object")
        parts.append(own + other)
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)


def gcda_bytes(g: Gcda) -> bytes:
    """The .gcda libgcov would write for these counts (an all-zero record written compact)."""
    raw = g.counters.astype("<u8").tobytes()
    parts = [struct.pack("<4I", *g.header)]
    parts.append(struct.pack("<4I", TAG_OBJECT_SUMMARY, 8, g.runs, g.sum_max))
    at = 0
    for words, count in zip(g.words, g.arc_counts, strict=True):
        if words is None:
            parts.append(struct.pack("<2I", TAG_FUNCTION, 0))
            continue
        parts.append(struct.pack("<5I", TAG_FUNCTION, 12, *words))
        n = 8 * count
        counts = raw[at : at + n]
        at += n
        if counts.strip(b"\0"):
            parts.append(struct.pack("<2I", TAG_ARC_COUNTERS, n))
            parts.append(counts)
        else:
            parts.append(struct.pack("<2I", TAG_ARC_COUNTERS, (-n) & 0xFFFFFFFF))
    parts.append(_WORD.pack(0))
    return b"".join(parts)
