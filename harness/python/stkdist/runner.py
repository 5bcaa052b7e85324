"""The coordinator's loop, shared by every kind of run (docs/distributed.md): a run cut into
chunks, each a command of the project's own run by a Dask task; every finished chunk journaled
under <out-dir>/dist/<config>/ (a rerun resumes from it), a failed chunk run once more, a chunk
failing twice ending the run (exit 2, named), and a run that decides early (an SPRT) cancelling
what is still queued."""

from __future__ import annotations

import fcntl
import json
import sys
import time
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any, TextIO

from stkdist import artifacts
from stkdist.cluster import Completed
from stkdist.tasks import ChunkOutcome, run_chunk
from stkref.errors import InputError
from stkref.outputs import write_text_atomic


class UsageError(InputError):
    """A run that cannot start as given (exit 2 with its error report)."""


def harness_file(harness: str) -> str:
    """The --harness file, resolved; UsageError when there is none."""
    path = str(Path(harness).resolve())
    if not Path(path).is_file():
        raise UsageError(f"{path}: no stk-harness there (build it, or give --harness)")
    return path


def refuse_owned(passthrough: list[str], owned: tuple[str, ...]) -> None:
    for word in passthrough:
        if word.split("=", 1)[0] in owned:
            raise UsageError(f"{word.split('=', 1)[0]}: the coordinator sets it for each chunk")


def option_value(passthrough: list[str], name: str) -> str | None:
    """The value of `name` among the datagen options (`NAME V` or `NAME=V`; the last one)."""
    value = None
    for i, word in enumerate(passthrough):
        if word == name and i + 1 < len(passthrough):
            value = passthrough[i + 1]
        elif word.startswith(name + "="):
            value = word[len(name) + 1 :]
    return value


class ChunkedRun(ABC):
    """One run in `chunks` chunks (numbered 1..chunks); subclasses say what a chunk runs, what
    it returns, how it is journaled and how the finished chunks become the run's result."""

    kind = ""  # "match", "datagen": the journal's plan says it
    scratch_options: tuple[tuple[str, str], ...] = ()  # (OPTION, NAME): OPTION=<scratch>/NAME

    def __init__(self, config: str, chunks: int, out_dir: Path) -> None:
        self.config, self.chunks, self.out_dir = config, chunks, out_dir
        self.artifacts: dict[str, str] = {}  # path -> SHA-256, verified by every worker
        self.harness, self.passthrough = "", list[str]()  # the command a chunk runs, its options
        self.shipped: dict[str, bytes] = {}  # files sent to the workers (path there -> bytes)

    def ship(self, folder: Path) -> None:
        """Sends every artifact with the work: each file goes to <folder>/<SHA-256>/<name> on
        every worker and on this machine (the merge runs here), and the commands name it there."""
        mapping = {p: str(folder.resolve() / d / Path(p).name) for p, d in self.artifacts.items()}
        self.shipped = {mapping[p]: Path(p).read_bytes() for p in self.artifacts}
        self.artifacts = {mapping[p]: d for p, d in self.artifacts.items()}
        self.harness = mapping.get(self.harness, self.harness)
        self.passthrough = [artifacts.shipped_word(w, mapping) for w in self.passthrough]
        artifacts.install(self.shipped, self.artifacts)

    def name_artifacts(self, paths: list[str]) -> None:
        """Names each file by its SHA-256 (resolved path -> digest) for the workers to verify."""
        for p in paths:
            self.artifacts[str(Path(p).resolve())] = artifacts.sha256_of(p)

    @property
    def journal(self) -> Path:
        return self.out_dir / "dist" / self.config

    @abstractmethod
    def chunk_argv(self, j: int) -> list[str]: ...

    @abstractmethod
    def outputs(self, j: int) -> list[str]:
        """The files chunk j writes under its scratch folder, brought back."""

    def identity(self) -> dict[str, Any]:
        """What a resumed run must share with the journal's run."""
        return {
            "kind": f"stkdist-{self.kind}",
            "chunk_argv": self.chunk_argv(0),
            "chunks": self.chunks,
            "artifacts": self.artifacts,
        }

    @abstractmethod
    def journaled(self) -> set[int]:
        """The chunks finished by this run or an earlier one (read from the journal)."""

    @abstractmethod
    def accept(self, j: int, o: ChunkOutcome) -> str:
        """Checks the chunk's files and journals them; "" when accepted, else the problem."""

    def decided(self) -> str | None:
        """A decision reached on the chunks so far (stop now), or None."""
        return None

    def progress(self) -> str:
        return ""

    @abstractmethod
    def finish(self, hosts: dict[int, str]) -> int:
        """The run's result from its finished chunks; its exit status."""


class ResultFileRun(ChunkedRun):
    """Chunks whose result is one JSON file each (a match's, an EPD run's, a mutation report),
    journaled as it came back."""

    def __init__(self, config: str, chunks: int, out_dir: Path) -> None:
        super().__init__(config, chunks, out_dir)
        self.results: dict[int, dict[str, Any]] = {}

    def chunk_path(self, j: int) -> Path:
        return self.journal / f"chunk-{j}.json"

    def journaled(self) -> set[int]:
        for j in range(1, self.chunks + 1):
            if self.chunk_path(j).exists():
                self.results[j] = json.loads(self.chunk_path(j).read_text())
        return set(self.results)

    def keep(self, j: int, o: ChunkOutcome, result: dict[str, Any]) -> str:
        """Journals chunk j's accepted result file; "" (no problem)."""
        write_text_atomic(self.chunk_path(j), o.files[self.outputs(j)[0]])
        self.results[j] = result
        return ""

    def journaled_paths(self) -> list[str]:
        return [str(self.chunk_path(j).resolve()) for j in sorted(self.results)]


def write_workers(run: ChunkedRun, hosts: dict[int, str], **more: Any) -> None:
    """<journal>/workers.json: the chunks each worker host ran (and what else `more` counts)."""
    text = json.dumps({**more, "chunks_by_host": count_by_host(hosts)}, indent=1) + "\n"
    write_text_atomic(run.journal / "workers.json", text)


def open_journal(run: ChunkedRun) -> Any:
    """The journal folder, locked for this run (a second coordinator on it is refused), checked
    against the run's identity; returns the open lock file."""
    run.journal.mkdir(parents=True, exist_ok=True)
    lock = open(run.journal / "lock", "w")  # noqa: SIM115 (held for the run, closed by execute())
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        lock.close()
        raise UsageError(f"{run.journal}: another coordinator holds it") from e
    stored = run.journal / "plan.json"
    if stored.exists():
        if json.loads(stored.read_text()) != run.identity():
            lock.close()
            raise UsageError(f"{stored}: holds a different run; give another --config or --out-dir")
    else:
        write_text_atomic(stored, json.dumps(run.identity(), indent=1) + "\n")
    return lock


def verdict_result(o: ChunkOutcome, name: str) -> tuple[dict[str, Any], str]:
    """The JSON result file `name` of a chunk whose exit is a verdict (0 passed, 1 failed), or
    the problem: another exit, no file, not JSON."""
    text = o.files.get(name, "")
    if o.exit_code not in (0, 1) or not text:
        return {}, f"exit {o.exit_code} on {o.host}: {o.output_tail}"
    try:
        return json.loads(text), ""
    except json.JSONDecodeError as e:
        return {}, f"its result file is not JSON ({e})"


def count_by_host(hosts: dict[int, str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for h in hosts.values():
        out[h] = out.get(h, 0) + 1
    return out


def execute(run: ChunkedRun, client: Any, timeout_s: float, log: TextIO = sys.stdout) -> int:
    """Runs the unfinished chunks (stopping at a decision), then the run's finish: its exit."""
    lock = open_journal(run)
    try:
        done = run.journaled()
        todo = [j for j in range(1, run.chunks + 1) if j not in done]
        print(
            f"stkdist {run.kind} {run.config}: {run.chunks} chunks, {len(done)} journaled in "
            f"{run.journal}, {len(todo)} to run",
            file=log,
            flush=True,
        )
        decided = run.decided()
        cpu0, wall0, played = time.process_time(), time.monotonic(), 0
        attempts: dict[int, int] = {}
        hosts: dict[int, str] = {}

        def submit(j: int) -> Any:
            attempts[j] = attempts.get(j, 0) + 1
            return client.submit(
                run_chunk,
                j,
                run.chunk_argv(j),
                list(run.scratch_options),
                run.outputs(j),
                run.artifacts,
                timeout_s,
                shipped,
                key=f"stkdist-{run.kind}-{run.config}-chunk{j}-try{attempts[j]}",
                priority=-j,
                pure=False,
            )

        # Shipped files go to the scheduler once; Dask copies them to a worker with its first task.
        shipped = client.scatter(run.shipped) if run.shipped and todo and not decided else {}
        futures = {} if decided else {submit(j): j for j in todo}
        pending = Completed(list(futures))
        cancelled = 0
        for future in pending:
            j = futures[future]
            try:
                outcome = future.result()
            except Exception as e:  # a task that raised (artifact mismatch, timeout, lost worker)
                problem = f"{type(e).__name__}: {e}"
            else:
                problem = run.accept(j, outcome)  # a failed journal write here ends the run
            if problem:
                if attempts[j] >= 2:
                    client.cancel(list(futures))
                    print(f"stkdist: chunk {j} failed twice: {problem}", file=sys.stderr)
                    return 2
                print(f"stkdist: chunk {j} failed ({problem}); running it again", file=log)
                again = submit(j)
                futures[again] = j
                pending.add(again)
                continue
            played += 1
            done.add(j)
            hosts[j] = outcome.host
            decided = run.decided()
            print(
                f"stkdist: chunk {j} done on {outcome.host}: {len(done)} of {run.chunks} chunks"
                + run.progress()
                + (f", {decided}" if decided else ""),
                file=log,
                flush=True,
            )
            if decided:
                left = [f for f, k in futures.items() if k not in done and not f.done()]
                cancelled = len(left)
                client.cancel(left)
                break
        if decided:
            print(
                f"stkdist: {decided} after {len(done)} of {run.chunks} chunks; {cancelled} queued "
                "or running chunks cancelled",
                file=log,
            )
        if played:
            # The coordinator's own cost (and a local cluster's scheduler, which runs in this
            # process): one coordinator serves about (a chunk's seconds on a worker) / this.
            cpu_ms = 1000 * (time.process_time() - cpu0) / played
            print(
                f"stkdist: {played} chunks in {time.monotonic() - wall0:.1f} s; coordinator CPU "
                f"{cpu_ms:.1f} ms per chunk",
                file=log,
            )
        return run.finish(hosts)
    finally:
        lock.close()
