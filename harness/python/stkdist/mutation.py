"""A mutation campaign on a Dask cluster (docs/distributed.md "mutation"): one draw of mutants
(the options of ci/mutation.sh) cut into N shards (`--shard j/N`: every N-th mutant of the draw
from the j-th), each run by `ci/mutation.sh` in the worker's checkout of the same commit (its own
scratch clones, its own lock on them); each chunk's report is journaled under
<out-dir>/dist/<config>/ and `ci/mutation.sh campaign` merges them into the campaign's report,
the shards of one draw scored as one first run."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from stkdist.runner import ResultFileRun, UsageError, refuse_owned, verdict_result, write_workers
from stkdist.tasks import ChunkOutcome

ROOT = Path(__file__).resolve().parents[3]

# Set for each chunk or the coordinator's; a chunk's pass/fail is the campaign's to say
# (--fail-under), and the tool's setup actions are not a chunk's work.
REFUSED = (
    "--shard",
    "--config",
    "--out-dir",
    "--jobs",
    "--resume",
    "--fail-under",
    "--list",
    "--refresh-coverage",
    "--refresh-python-coverage",
)


def head_of(root: Path) -> str:
    r = subprocess.run(
        ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    )
    if r.returncode != 0:
        raise UsageError(f"{root}: not a git checkout ({r.stderr.strip()})")
    return r.stdout.strip()


class MutationRun(ResultFileRun):
    kind = "mutation"
    scratch_options = (("--out-dir", ""),)

    def __init__(
        self, script: str, head: str, passthrough: list[str], config: str, chunks: int, out: Path
    ) -> None:
        super().__init__(config, chunks, out)
        self.script, self.head, self.passthrough = script, head, passthrough

    def identity(self) -> dict[str, Any]:
        return {**super().identity(), "head": self.head}

    def chunk_argv(self, j: int) -> list[str]:
        argv = [self.script, *self.passthrough, "--jobs", "1"]
        return [*argv, "--config", self.chunk_config(j), "--shard", f"{j}/{self.chunks}"]

    def chunk_config(self, j: int) -> str:
        return f"{self.config}-shard{j}of{self.chunks}"

    def outputs(self, j: int) -> list[str]:
        return [f"mutation/{self.chunk_config(j)}.json"]

    def chunk_path(self, j: int) -> Path:
        return self.journal / f"{self.chunk_config(j)}.json"

    def accept(self, j: int, o: ChunkOutcome) -> str:
        r, problem = verdict_result(o, self.outputs(j)[0])
        if problem:
            return problem
        if o.exit_code != 0 or r.get("complete") is not True:
            return f"exit {o.exit_code}, a report not complete, on {o.host}: {o.output_tail}"
        if r.get("head") != self.head:  # the worker's checkout is of another commit
            return (
                f"mutated HEAD {str(r.get('head'))[:10]} on {o.host}, the run is {self.head[:10]}"
            )
        if r.get("shard") != f"{j}/{self.chunks}":
            return f"its report is of shard {r.get('shard')}, not {j}/{self.chunks}"
        return self.keep(j, o, r)

    def progress(self) -> str:
        return f", {sum(len(r.get('mutants', [])) for r in self.results.values())} mutants"

    def finish(self, hosts: dict[int, str]) -> int:
        write_workers(self, hosts)
        merge = [self.script, "campaign", "--config", self.config]
        merge += [f"--out-dir={self.out_dir.resolve()}"]
        for path in self.journaled_paths():
            merge += ["--report", path]
        return subprocess.run(merge, check=False).returncode


def make_run(
    script: str, passthrough: list[str], config: str, chunks: int, out_dir: Path
) -> MutationRun:
    refuse_owned(passthrough, REFUSED)
    if passthrough[:1] == ["campaign"]:
        raise UsageError("campaign: the coordinator merges the chunks itself")
    path = Path(script).resolve()
    if not path.is_file():
        raise UsageError(f"{path}: no ci/mutation.sh there (give --script)")
    # No file to name by SHA-256: what a chunk runs is the commit its checkout is at, checked
    # against the report's head.
    return MutationRun(str(path), head_of(path.parents[1]), passthrough, config, chunks, out_dir)
