"""An EPD suite on a Dask cluster (docs/distributed.md "epd"): the suite's selected positions cut
into --chunks shards (`stk-harness epd --shard j/N`: position i in shard i % N + 1), each chunk's
result file journaled under <out-dir>/dist/<config>/; `stk-harness merge` of the chunks writes the
report an unsharded run writes (its baseline gate and min-solved as recorded by the shards)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from stkdist import artifacts
from stkdist.runner import (
    ResultFileRun,
    harness_file,
    option_value,
    refuse_owned,
    verdict_result,
    write_workers,
)
from stkdist.tasks import ChunkOutcome

# Set for each chunk, or the coordinator's; --update-golden would have every chunk rewrite the
# baseline (update it from the merged run instead).
REFUSED = ("--shard", "--out-dir", "--config", "--update-golden")


class EpdRun(ResultFileRun):
    kind = "epd"
    scratch_options = (("--out-dir", ""),)

    def __init__(
        self, harness: str, passthrough: list[str], config: str, chunks: int, out_dir: Path
    ) -> None:
        super().__init__(config, chunks, out_dir)
        self.harness, self.passthrough = harness, passthrough

    def chunk_argv(self, j: int) -> list[str]:
        argv = [self.harness, "epd", *self.passthrough, "--config", self.config, "--quiet"]
        return [*argv, "--shard", f"{j}/{self.chunks}"]

    def outputs(self, j: int) -> list[str]:
        return [f"epd/{self.config}" + (f"-shard{j}" if self.chunks > 1 else "") + ".json"]

    def accept(self, j: int, o: ChunkOutcome) -> str:
        # Exit 1 is a verdict (a regression against the baseline, too few solved), not a fault.
        r, problem = verdict_result(o, self.outputs(j)[0])
        if problem:
            return problem
        if r.get("shard") != f"{j}/{self.chunks}":
            return f"its result file is of shard {r.get('shard')}, not {j}/{self.chunks}"
        return self.keep(j, o, r)

    def progress(self) -> str:
        solved = sum(r["summary"]["solved"] for r in self.results.values())
        positions = sum(r["summary"]["positions"] for r in self.results.values())
        return f", {solved} of {positions} positions solved"

    def finish(self, hosts: dict[int, str]) -> int:
        write_workers(self, hosts)
        merge = [self.harness, "merge", f"--out-dir={self.out_dir.resolve()}", self.config]
        merge += self.journaled_paths()
        return subprocess.run(merge, check=False).returncode


def default_config(passthrough: list[str]) -> str:
    """epd's own default, `<suite>-<sd|sn><N>`."""
    suite = Path(option_value(passthrough, "--epd") or "suite").stem
    depth, nodes = option_value(passthrough, "--depth"), option_value(passthrough, "--nodes")
    return f"{suite}-sd{depth}" if depth else f"{suite}-sn{nodes}"


def make_run(
    harness: str, passthrough: list[str], config: str | None, chunks: int, out_dir: Path
) -> EpdRun:
    refuse_owned(passthrough, REFUSED)
    harness = harness_file(harness)
    run = EpdRun(harness, passthrough, config or default_config(passthrough), chunks, out_dir)
    files = [option_value(passthrough, o) or "" for o in ("--epd", "--baseline")]
    files.append(artifacts.program_of(option_value(passthrough, "--engine")))
    run.name_artifacts([harness] + [p for p in files if p and Path(p).is_file()])
    return run
