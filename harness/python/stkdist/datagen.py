"""Datagen on a Dask cluster (docs/distributed.md "datagen"): the run's games cut into N chunks
(`stk-harness datagen --shard j/N`: game g in chunk g % N + 1), each chunk's data file and journal
journaled under <out-dir>/dist/<config>/; once every chunk is in, the games are written in game
order to --out with the journal a local run writes, and `stk-harness datagen` of the same options
resumes that file (nothing left to play), reads it back and writes the run's reports. A game's
records depend only on the seed, its index and the options, so the file is the bytes of a local
run of the same command."""

from __future__ import annotations

import json
import math
import os
import subprocess
from collections import OrderedDict
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from stkdist import artifacts
from stkdist.runner import (
    ChunkedRun,
    UsageError,
    count_by_host,
    harness_file,
    option_value,
    refuse_owned,
)
from stkdist.tasks import ChunkOutcome
from stkref.outputs import (
    Output,
    check_output,
    refuse_non_regular,
    write_stream_atomic,
    write_text_atomic,
)

# The coordinator's own (--games, --config, --out, --out-dir) or set for each chunk.
REFUSED = ("--shard", "--out", "--out-dir", "--concurrency", "--config", "--games")
DATA, JOURNAL = "data.txt", "data.txt.journal"


def dump(obj: Any) -> str:
    """JSON as the harness writes a journal line (nlohmann's dump(): compact, UTF-8 as is)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Journal:
    """A datagen journal: its header and one entry per game, in the order written."""

    def __init__(self, text: str, where: str) -> None:
        lines = text.splitlines()
        try:
            self.header = json.loads(lines[0])
            self.games = [json.loads(line) for line in lines[1:]]
        except (IndexError, json.JSONDecodeError) as e:
            raise ValueError(f"{where}: not a datagen journal ({e})") from e


class DatagenRun(ChunkedRun):
    kind = "datagen"
    scratch_options = (("--out-dir", ""), ("--out", DATA))

    def __init__(
        self,
        harness: str,
        passthrough: list[str],
        config: str,
        games: int,
        chunks: int,
        out: Path,
        out_dir: Path,
    ) -> None:
        super().__init__(config, chunks, out_dir)
        self.harness, self.passthrough, self.games, self.out = harness, passthrough, games, out
        self.done: dict[int, Journal] = {}

    def chunk_argv(self, j: int) -> list[str]:
        argv = [self.harness, "datagen", *self.passthrough, "--games", str(self.games)]
        return [*argv, "--shard", f"{j}/{self.chunks}", "--config", "chunk"]

    def outputs(self, j: int) -> list[str]:  # noqa: ARG002 (every chunk writes the same names)
        return [DATA, JOURNAL]

    def data_path(self, j: int) -> Path:
        return self.journal / f"chunk-{j}.txt"

    def journal_path(self, j: int) -> Path:
        return self.journal / f"chunk-{j}.journal"

    def journaled(self) -> set[int]:
        # A chunk counts once its journal is in and its data file as long as the journal says (a
        # coordinator killed between the two writes runs the chunk again).
        for j in range(1, self.chunks + 1):
            jp, dp = self.journal_path(j), self.data_path(j)
            if jp.exists() and dp.exists():
                journal = Journal(jp.read_text(), str(jp))
                end = journal.games[-1]["bytes"] if journal.games else 0
                if dp.stat().st_size == end:
                    self.done[j] = journal
        return set(self.done)

    def chunk_games(self, j: int) -> list[int]:
        return list(range(j - 1, self.games, self.chunks))

    def accept(self, j: int, o: ChunkOutcome) -> str:
        data, text = o.files.get(DATA), o.files.get(JOURNAL)
        if o.exit_code != 0 or text is None or (data is None and self.chunk_games(j)):
            return f"exit {o.exit_code} on {o.host}: {o.output_tail}"
        data = data or ""
        try:
            journal = Journal(text, f"chunk {j}'s journal")
        except ValueError as e:
            return str(e)
        shard = journal.header.get("definition", {}).get("shard")
        if shard != f"{j}/{self.chunks}":
            return f"its journal is of shard {shard}, not {j}/{self.chunks}"
        if [g["game"] for g in journal.games] != self.chunk_games(j):
            return f"its journal holds games other than those of shard {j}/{self.chunks}"
        end = journal.games[-1]["bytes"] if journal.games else 0
        if len(data.encode()) != end:
            return f"its data file is {len(data.encode())} bytes, its journal says {end}"
        write_text_atomic(self.data_path(j), data)
        write_text_atomic(self.journal_path(j), text)
        self.done[j] = journal
        return ""

    def progress(self) -> str:
        records = sum(g["records"] for journal in self.done.values() for g in journal.games)
        return f", {records} positions"

    def finish(self, hosts: dict[int, str]) -> int:
        write_text_atomic(
            self.journal / "workers.json",
            json.dumps({"chunks_by_host": count_by_host(hosts)}, indent=1) + "\n",
        )
        self.write_output()
        # The run's reports: datagen of the same options resumes the file, finds every game
        # journaled, reads the data back against the journal and writes them.
        report = [self.harness, "datagen", *self.passthrough, "--games", str(self.games)]
        report += [f"--out={self.out.resolve()}", f"--out-dir={self.out_dir.resolve()}"]
        return subprocess.run([*report, "--config", self.config], check=False).returncode

    def game_order(self) -> Iterator[tuple[int, int, dict[str, Any]]]:
        """(chunk, byte offset in its data file, journal entry) of each game, in game order."""
        starts = dict.fromkeys(self.done, 0)
        for g in range(self.games):
            j, k = g % self.chunks + 1, g // self.chunks
            entry = self.done[j].games[k]
            yield j, starts[j], entry
            starts[j] = entry["bytes"]

    def assembled_data(self) -> Iterator[bytes]:
        files: OrderedDict[int, BinaryIO] = OrderedDict()  # at most 64 open at once
        try:
            for j, offset, entry in self.game_order():
                if j not in files:
                    if len(files) == 64:
                        files.popitem(last=False)[1].close()
                    files[j] = open(self.data_path(j), "rb")  # noqa: SIM115 (closed below)
                files.move_to_end(j)
                yield os.pread(files[j].fileno(), entry["bytes"] - offset, offset)
        finally:
            for f in files.values():
                f.close()

    def assembled_journal(self) -> Iterator[bytes]:
        header = self.done[1].header
        header = {**header, "definition": {**header["definition"], "shard": "1/1"}}
        yield (dump(header) + "\n").encode()
        total = 0
        for _, offset, entry in self.game_order():
            total += entry["bytes"] - offset
            yield (dump({**entry, "bytes": total}) + "\n").encode()

    def write_output(self) -> None:
        """--out and its journal from the chunks, each written whole (temporary, fsync, rename);
        files already there are kept when they hold the same bytes, else refused."""
        journal = Path(str(self.out) + ".journal")
        for path, content in ((self.out, self.assembled_data), (journal, self.assembled_journal)):
            refuse_non_regular(path, "--out")
            if path.exists() and not path.is_symlink():  # a link is replaced, never followed
                if not same_bytes(path, content()):
                    raise UsageError(
                        f"{path}: exists and holds other data: not overwritten (remove it, or "
                        "give another --out)"
                    )
                continue
            write_stream_atomic(path, content())


def same_bytes(path: Path, content: Iterator[bytes]) -> bool:
    with open(path, "rb") as f:
        for block in content:
            if f.read(len(block)) != block:
                return False
        return f.read(1) == b""


def make_run(
    harness: str,
    passthrough: list[str],
    config: str | None,
    games: int,
    chunk_games: int,
    out: str | None,
    out_dir: Path,
) -> DatagenRun:
    refuse_owned(passthrough, REFUSED)
    harness = harness_file(harness)
    config = config or f"seed{option_value(passthrough, '--seed') or '1'}"
    path = Path(out or f"build/datagen/{config}.txt")
    for target in (path, Path(f"{path}.journal")):  # refused before any work, not after it
        check_output(Output("--out", target, "report"))
    run = DatagenRun(
        harness, passthrough, config, games, math.ceil(games / chunk_games), path, out_dir
    )
    teacher = artifacts.program_of(option_value(passthrough, "--teacher"))
    book = option_value(passthrough, "--openings") or ""
    run.name_artifacts([harness] + [p for p in (teacher, book) if p and Path(p).is_file()])
    return run
