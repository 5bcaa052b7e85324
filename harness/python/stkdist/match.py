"""A match on a Dask cluster (docs/distributed.md "match"): the match cut into N shards of about
--chunk-pairs pairs each (`stk-harness match --shard j/N`, pair i in shard i % N + 1: each chunk a
spread sample of the openings), run by stkdist.runner; each finished chunk's result file is
journaled under <out-dir>/dist/<config>/ and the SPRT is recomputed on the sum; once it decides,
the chunks still queued are cancelled. `stk-harness match-merge` of the chunks writes the
reports, as for a match sharded by hand, so `sprt`, `review` and `history` read them unchanged."""

from __future__ import annotations

import json
import math
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stkdist import artifacts
from stkdist.runner import (
    ResultFileRun,
    UsageError,
    harness_file,
    refuse_owned,
    verdict_result,
    write_workers,
)
from stkdist.tasks import ChunkOutcome
from stkref import sprt

# Options the coordinator owns: a chunk gets its own shard, journal, PGN and out-dir, one game at
# a time (a worker thread is one core).
REFUSED = ("--shard", "--state", "--pgn", "--concurrency", "--out-dir", "--ab-control")

FAULTS = ("time-loss", "crash", "illegal-move", "disconnect")


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


class MatchRun(ResultFileRun):
    kind = "match"
    scratch_options = (("--out-dir", ""),)

    def __init__(
        self,
        harness: str,
        passthrough: list[str],
        config: str,
        pairs: int,
        chunks: int,
        sprt_tokens: list[str],
        out_dir: Path,
    ) -> None:
        super().__init__(config, chunks, out_dir)
        self.harness, self.passthrough, self.pairs = harness, passthrough, pairs
        self.sprt_tokens = sprt_tokens
        self.sprt = Sprt.parse(sprt_tokens) if sprt_tokens else None

    def chunk_argv(self, j: int) -> list[str]:
        argv = [self.harness, "match", *self.passthrough, "--pairs", str(self.pairs)]
        argv += ["--config", self.config, "--shard", f"{j}/{self.chunks}", "--quiet"]
        return argv + (["--sprt", *self.sprt_tokens] if self.sprt_tokens else [])

    def outputs(self, j: int) -> list[str]:
        return [f"match/{self.result_name(j)}"]

    def result_name(self, j: int) -> str:
        return (
            f"{self.config}-shard{j}of{self.chunks}.json"
            if self.chunks > 1
            else f"{self.config}.json"
        )

    def accept(self, j: int, o: ChunkOutcome) -> str:
        if problem := chunk_problem(self, j, o):
            return problem
        return self.keep(j, o, json.loads(o.files[self.outputs(j)[0]]))

    def decided(self) -> str | None:
        verdict = sprt_decision(self.sprt, penta_sum(self.results))
        return f"SPRT accepted {verdict}" if verdict else None

    def progress(self) -> str:
        return f", pentanomial {penta_sum(self.results)}"

    def finish(self, hosts: dict[int, str]) -> int:
        faults = faults_by_host(self.results, hosts)
        write_workers(self, hosts, games_lost_by_fault=faults)
        # Absolute paths, the folder as --out-dir=: a path that starts with '-' stays a path.
        merge = [self.harness, "match-merge", f"--out-dir={self.out_dir.resolve()}", self.config]
        merge += self.journaled_paths()
        return subprocess.run(merge, check=False).returncode


def engine_programs(passthrough: Sequence[str]) -> list[str]:
    """The program file of each --engine cmd=... (its first word), where it names a file."""
    out = []
    for i, word in enumerate(passthrough):
        if word != "--engine":
            continue
        for token in passthrough[i + 1 :]:
            if token.startswith("--"):
                break
            if token.startswith("cmd=") and (program := artifacts.program_of(token[4:])):
                out.append(program)
    return out


def make_plan(
    harness: str,
    passthrough: list[str],
    config: str,
    pairs: int,
    chunk_pairs: int,
    sprt_tokens: list[str],
    out_dir: Path,
) -> MatchRun:
    refuse_owned(passthrough, REFUSED)
    if pairs < 1 or chunk_pairs < 1:
        raise UsageError("--pairs and --chunk-pairs must be at least 1")
    if sprt_tokens:
        Sprt.parse(sprt_tokens)
    harness = harness_file(harness)
    plan = MatchRun(
        harness, passthrough, config, pairs, math.ceil(pairs / chunk_pairs), sprt_tokens, out_dir
    )
    plan.name_artifacts([harness, *engine_programs(passthrough)])
    return plan


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


def chunk_problem(run: MatchRun, j: int, o: ChunkOutcome) -> str:
    """Empty when the chunk wrote its result file for shard j, else what went wrong."""
    r, problem = verdict_result(o, run.outputs(j)[0])
    if problem:
        return problem
    if run.chunks > 1 and r.get("shards") != [j]:
        return f"its result file holds shards {r.get('shards')}, not [{j}]"
    return ""


def faults_by_host(results: dict[int, dict[str, Any]], hosts: dict[int, str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for j, r in results.items():
        lost = sum(1 for p in r["pairs"] for g in p["games"] if g.get("termination") in FAULTS)
        host = hosts.get(j, "(an earlier run)")
        out[host] = out.get(host, 0) + lost
    return out
