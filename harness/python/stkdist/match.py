"""A match on a Dask cluster (docs/distributed.md "match"): the match cut into N shards of about
--chunk-pairs pairs each (`stk-harness match --shard j/N`, pair i in shard i % N + 1: each chunk a
spread sample of the openings), run as Dask tasks; each finished chunk's result file is journaled
under <out-dir>/dist/<config>/ and the SPRT is recomputed on the sum; once it decides, the chunks
still queued are cancelled. `stk-harness match-merge` of the chunks writes the reports, as for a
match sharded by hand, so `sprt`, `review` and `history` read them unchanged."""

from __future__ import annotations

import fcntl
import json
import math
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stkdist import artifacts
from stkdist.cluster import Completed
from stkdist.tasks import ChunkOutcome, run_chunk
from stkref import sprt
from stkref.errors import InputError
from stkref.outputs import write_text_atomic

# Options the coordinator owns: a chunk gets its own shard, journal, PGN and out-dir, one game at
# a time (a worker thread is one core).
REFUSED = ("--shard", "--state", "--pgn", "--concurrency", "--out-dir", "--ab-control")

FAULTS = ("time-loss", "crash", "illegal-move", "disconnect")


class UsageError(InputError):
    """A run that cannot start as given (exit 2 with its error report)."""


@dataclass
class Sprt:
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"

    @staticmethod
    def parse(tokens: Sequence[str]) -> Sprt:
        kv = {}
        for t in tokens:
            k, sep, v = t.partition("=")
            if not sep or k not in ("elo0", "elo1", "alpha", "beta", "model"):
                raise UsageError(f"--sprt: '{t}' is not elo0=, elo1=, alpha=, beta= or model=")
            kv[k] = v
        if "elo0" not in kv or "elo1" not in kv:
            raise UsageError("--sprt needs elo0= and elo1=")
        return Sprt(
            float(kv["elo0"]),
            float(kv["elo1"]),
            float(kv.get("alpha", 0.05)),
            float(kv.get("beta", 0.05)),
            kv.get("model", "normalized"),
        )


@dataclass
class Plan:
    harness: str
    passthrough: list[str]  # the match options as given, less those the coordinator owns
    config: str
    pairs: int
    chunks: int
    sprt_tokens: list[str]
    out_dir: Path
    artifacts: dict[str, str] = field(default_factory=dict)  # path -> SHA-256

    def chunk_argv(self, j: int) -> list[str]:
        argv = [self.harness, "match", *self.passthrough, "--pairs", str(self.pairs)]
        argv += ["--config", self.config, "--shard", f"{j}/{self.chunks}", "--quiet"]
        return argv + (["--sprt", *self.sprt_tokens] if self.sprt_tokens else [])

    def result_name(self, j: int) -> str:
        return (
            f"{self.config}-shard{j}of{self.chunks}.json"
            if self.chunks > 1
            else f"{self.config}.json"
        )

    @property
    def journal(self) -> Path:
        return self.out_dir / "dist" / self.config

    def identity(self) -> dict[str, Any]:
        """What a resumed run must share with the journal's run."""
        return {
            "kind": "stkdist-match",
            "chunk_argv": self.chunk_argv(0),
            "chunks": self.chunks,
            "artifacts": self.artifacts,
        }


def engine_programs(passthrough: Sequence[str]) -> list[str]:
    """The program file of each --engine cmd=... (its first word), where it names a file."""
    out = []
    for i, word in enumerate(passthrough):
        if word != "--engine":
            continue
        for token in passthrough[i + 1 :]:
            if token.startswith("--"):
                break
            if token.startswith("cmd="):
                words = shlex.split(token[4:])
                if words and Path(words[0]).is_file():
                    out.append(str(Path(words[0]).resolve()))
    return out


def make_plan(
    harness: str,
    passthrough: list[str],
    config: str,
    pairs: int,
    chunk_pairs: int,
    sprt_tokens: list[str],
    out_dir: Path,
) -> Plan:
    for word in passthrough:
        if word.split("=", 1)[0] in REFUSED:
            raise UsageError(f"{word.split('=', 1)[0]}: the coordinator sets it for each chunk")
    if pairs < 1 or chunk_pairs < 1:
        raise UsageError("--pairs and --chunk-pairs must be at least 1")
    if sprt_tokens:
        Sprt.parse(sprt_tokens)
    harness = str(Path(harness).resolve())
    if not Path(harness).is_file():
        raise UsageError(f"{harness}: no stk-harness there (build it, or give --harness)")
    plan = Plan(
        harness, passthrough, config, pairs, math.ceil(pairs / chunk_pairs), sprt_tokens, out_dir
    )
    for path in [harness, *engine_programs(passthrough)]:
        plan.artifacts[path] = artifacts.sha256_of(path)
    return plan


def open_journal(plan: Plan) -> Any:
    """The journal folder, locked for this run (a second coordinator on it is refused), checked
    against the plan; returns the open lock file."""
    plan.journal.mkdir(parents=True, exist_ok=True)
    lock = open(plan.journal / "lock", "w")  # noqa: SIM115 (held for the run, closed by run())
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        raise UsageError(f"{plan.journal}: another coordinator holds it") from e
    stored = plan.journal / "plan.json"
    if stored.exists():
        if json.loads(stored.read_text()) != plan.identity():
            raise UsageError(f"{stored}: holds a different run; give another --config or --out-dir")
    else:
        write_text_atomic(stored, json.dumps(plan.identity(), indent=1) + "\n")
    return lock


def chunk_path(plan: Plan, j: int) -> Path:
    return plan.journal / f"chunk-{j}.json"


def finished_chunks(plan: Plan) -> dict[int, dict[str, Any]]:
    out = {}
    for j in range(1, plan.chunks + 1):
        p = chunk_path(plan, j)
        if p.exists():
            out[j] = json.loads(p.read_text())
    return out


def penta_sum(results: dict[int, dict[str, Any]]) -> list[int]:
    total = [0] * 5
    for r in results.values():
        for i, n in enumerate(r["counts"]["pentanomial"]):
            total[i] += n
    return total


def sprt_decision(s: Sprt | None, counts: list[int]) -> str | None:
    """'H0' or 'H1' once the LLR is past a bound; None before (or without an SPRT)."""
    if s is None or sum(counts) == 0:
        return None
    llr = sprt.llr(counts, s.elo0, s.elo1, s.model)
    lower, upper = sprt.bounds(s.alpha, s.beta)
    return "H1" if llr >= upper else "H0" if llr <= lower else None


def chunk_problem(plan: Plan, j: int, o: ChunkOutcome) -> str:
    """Empty when the chunk wrote its result file for shard j, else what went wrong."""
    if o.exit_code not in (0, 1) or not o.result_text:
        return f"exit {o.exit_code} on {o.host}: {o.output_tail}"
    try:
        r = json.loads(o.result_text)
    except json.JSONDecodeError as e:
        return f"its result file is not JSON ({e})"
    if plan.chunks > 1 and r.get("shards") != [j]:
        return f"its result file holds shards {r.get('shards')}, not [{j}]"
    return ""


def faults_by_host(results: dict[int, dict[str, Any]], hosts: dict[int, str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for j, r in results.items():
        lost = sum(1 for p in r["pairs"] for g in p["games"] if g.get("termination") in FAULTS)
        host = hosts.get(j, "(an earlier run)")
        out[host] = out.get(host, 0) + lost
    return out


def run(plan: Plan, client: Any, timeout_s: float, log: Any = sys.stdout) -> int:
    """Plays the unfinished chunks, stopping at the SPRT's decision; merges; the merge's exit."""
    lock = open_journal(plan)
    try:
        results = finished_chunks(plan)
        s = Sprt.parse(plan.sprt_tokens) if plan.sprt_tokens else None
        decided = sprt_decision(s, penta_sum(results))
        todo = [j for j in range(1, plan.chunks + 1) if j not in results]
        print(
            f"stkdist match {plan.config}: {plan.pairs} pairs in {plan.chunks} chunks, "
            f"{len(results)} journaled in {plan.journal}, {len(todo)} to play",
            file=log,
            flush=True,
        )
        cpu0, wall0, played = time.process_time(), time.monotonic(), 0
        attempts: dict[int, int] = {}
        hosts: dict[int, str] = {}

        def submit(j: int) -> Any:
            attempts[j] = attempts.get(j, 0) + 1
            return client.submit(
                run_chunk,
                j,
                plan.chunk_argv(j),
                plan.result_name(j),
                plan.artifacts,
                timeout_s,
                key=f"stkdist-{plan.config}-chunk{j}-try{attempts[j]}",
                priority=-j,
                pure=False,
            )

        futures = {} if decided else {submit(j): j for j in todo}
        pending = Completed(list(futures))
        cancelled = 0
        for future in pending:
            j = futures[future]
            outcome: ChunkOutcome | None = None
            try:
                outcome = future.result()
                problem = chunk_problem(plan, j, outcome)
            except Exception as e:  # a task that raised (artifact mismatch, timeout, lost worker)
                problem = f"{type(e).__name__}: {e}"
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
            assert outcome is not None
            played += 1
            write_text_atomic(chunk_path(plan, j), outcome.result_text)
            results[j] = json.loads(outcome.result_text)
            hosts[j] = outcome.host
            counts = penta_sum(results)
            decided = sprt_decision(s, counts)
            print(
                f"stkdist: chunk {j} done on {outcome.host}: {len(results)} of {plan.chunks} "
                f"chunks, pentanomial {counts}" + (f", SPRT {decided}" if decided else ""),
                file=log,
                flush=True,
            )
            if decided:
                left = [f for f, k in futures.items() if k not in results and not f.done()]
                cancelled = len(left)
                client.cancel(left)
                break
        if decided:
            print(
                f"stkdist: SPRT accepted {decided} after {len(results)} of {plan.chunks} chunks; "
                f"{cancelled} queued or running chunks cancelled",
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
        faults = faults_by_host(results, hosts)
        write_text_atomic(
            plan.journal / "workers.json",
            json.dumps({"games_lost_by_fault": faults, "chunks_by_host": _count(hosts)}, indent=1)
            + "\n",
        )
        # Absolute paths, the folder as --out-dir=: a path that starts with '-' stays a path.
        merge = [plan.harness, "match-merge", f"--out-dir={plan.out_dir.resolve()}", plan.config]
        merge += [str(chunk_path(plan, j).resolve()) for j in sorted(results)]
        return subprocess.run(merge, check=False).returncode
    finally:
        lock.close()


def _count(hosts: dict[int, str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for h in hosts.values():
        out[h] = out.get(h, 0) + 1
    return out
