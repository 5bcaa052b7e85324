"""The coordinator's loop (stkdist.runner.execute) against a model of docs/distributed.md's rules,
without Dask: chunks submitted in order, each finished chunk journaled, a chunk journaled by an
earlier run not run again, a failed chunk run once more and a second failure ending the run
(exit 2, the chunk named), a decision cancelling what is still queued or running.

A fake client finishes the submitted tasks first in, first out; each chunk's tasks fail a
generated number of times (a raised exception or a non-zero exit, alternately)."""

from __future__ import annotations

import io
import re
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stkdist import runner
from stkdist.tasks import ChunkOutcome


class Future:
    def __init__(self, j: int, attempt: int, fails: int) -> None:
        self.j, self.attempt, self.fails, self.finished = j, attempt, fails, False
        self.cancelled = False

    def result(self) -> ChunkOutcome:
        self.finished = True
        if self.cancelled:
            raise CancelledError(f"chunk {self.j} cancelled")
        if self.attempt <= self.fails and self.attempt % 2:
            raise RuntimeError(f"worker lost under chunk {self.j}")
        code = 3 if self.attempt <= self.fails else 0
        return ChunkOutcome(self.j, code, {"r": f"chunk {self.j}"}, "tail", f"host{self.j % 2}")

    def done(self) -> bool:
        return self.finished


class Client:
    def __init__(self, fails: dict[int, int]) -> None:
        self.fails, self.submitted, self.cancelled = fails, list[tuple[int, int]](), set[Future]()
        self.queue: list[Future] = []

    def submit(self, _fn: Any, j: int, *_args: Any, key: str, **_kw: Any) -> Future:
        attempt = int(key.rsplit("try", 1)[1])
        self.submitted.append((j, attempt))
        f = Future(j, attempt, self.fails.get(j, 0))
        self.queue.append(f)
        return f

    def scatter(self, x: Any) -> Any:
        return x

    def cancel(self, futures: list[Future]) -> None:
        self.cancelled |= set(futures)
        for f in futures:
            f.cancelled = not f.finished


class Completed:
    """First in, first out; a cancelled future comes back too (as Dask's as_completed yields
    it), its result() raising CancelledError: only the loop's own stop keeps it from a retry."""

    client: Client

    def __init__(self, futures: list[Future]) -> None:
        pass

    def add(self, future: Future) -> None:
        pass

    def __iter__(self):  # type: ignore[no-untyped-def]
        while self.client.queue:
            yield self.client.queue.pop(0)


class ToyRun(runner.ChunkedRun):
    kind = "toy"

    def __init__(self, chunks: int, out_dir: Path, decide_at: int | None) -> None:
        super().__init__("toy", chunks, out_dir)
        self.decide_at, self.accepted, self.finished_hosts = decide_at, list[int](), None

    def chunk_argv(self, j: int) -> list[str]:
        return ["true", str(j)]

    def outputs(self, _j: int) -> list[str]:
        return ["r"]

    def journaled(self) -> set[int]:
        return {j for j in range(1, self.chunks + 1) if (self.journal / f"c{j}").exists()}

    def accept(self, j: int, o: ChunkOutcome) -> str:
        if o.exit_code:
            return f"exit {o.exit_code} on {o.host}"
        (self.journal / f"c{j}").write_text(o.files["r"])
        self.accepted.append(j)
        return ""

    def decided(self) -> str | None:
        if self.decide_at is not None and len(self.journaled()) >= self.decide_at:
            return "decided"
        return None

    def finish(self, hosts: dict[int, str]) -> int:
        self.finished_hosts = dict(hosts)
        return 0


def model(chunks: int, before: set[int], fails: dict[int, int], decide_at: int | None) -> dict:
    """The documented loop, in the fake's finishing order."""
    done = set(before)
    submitted: list[tuple[int, int]] = []
    accepted: list[int] = []
    if decide_at is not None and len(done) >= decide_at:
        return {"status": 0, "submitted": [], "accepted": [], "failed": None, "done": done}
    queue = [(j, 1) for j in range(1, chunks + 1) if j not in done]
    submitted += queue
    while queue:
        j, attempt = queue.pop(0)
        if attempt <= fails.get(j, 0):
            if attempt >= 2:
                return {
                    "status": 2,
                    "submitted": submitted,
                    "accepted": accepted,
                    "failed": j,
                    "done": done,
                }
            queue.append((j, attempt + 1))
            submitted.append((j, attempt + 1))
            continue
        done.add(j)
        accepted.append(j)
        if decide_at is not None and len(done) >= decide_at:
            break
    return {"status": 0, "submitted": submitted, "accepted": accepted, "failed": None, "done": done}


@st.composite
def plans(draw: st.DrawFn) -> dict:
    chunks = draw(st.integers(1, 6))
    ids = range(1, chunks + 1)
    return {
        "chunks": chunks,
        "before": draw(st.sets(st.sampled_from(list(ids)))),
        "fails": {j: draw(st.sampled_from([0, 0, 1, 2])) for j in ids},
        "decide_at": draw(st.one_of(st.none(), st.integers(1, chunks))),
    }


# MODEL stkdist-loop
# checks: harness/python/stkdist/runner.py  (resume, one retry, a second failure ends the run, a decision cancels the rest)
# contract: docs/distributed.md#past-one-machine-stkdist-on-a-dask-cluster
# planted: ci/mutants/model-stkdist-loop.patch  (a chunk given three tries)
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(plan=plans())
def test_model_coordinator_loop(
    tmp_path_factory: pytest.TempPathFactory, plan: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path_factory.mktemp("dist")
    run = ToyRun(plan["chunks"], out, plan["decide_at"])
    run.journal.mkdir(parents=True)
    for j in plan["before"]:
        (run.journal / f"c{j}").write_text("earlier run")
    client = Client(plan["fails"])
    Completed.client = client
    monkeypatch.setattr(runner, "Completed", Completed)
    err, log = io.StringIO(), io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    status = runner.execute(run, client, 60.0, log=log)
    want = model(plan["chunks"], plan["before"], plan["fails"], plan["decide_at"])
    assert status == want["status"]
    assert client.submitted == want["submitted"]
    assert run.accepted == want["accepted"]
    assert run.journaled() == want["done"]
    if want["failed"] is not None:
        assert f"chunk {want['failed']} failed twice" in err.getvalue()
        assert run.finished_hosts is None
    else:
        assert run.finished_hosts == {j: f"host{j % 2}" for j in want["accepted"]}
        left = [f for f in client.queue if not f.finished]
        assert set(left) <= client.cancelled  # nothing left running once decided or done
    for j in plan["before"]:
        assert (run.journal / f"c{j}").read_text() == "earlier run"  # never run again
    # Each finished chunk's progress line counts the chunks finished so far, earlier runs' too.
    counts = re.findall(r"done on host\d: (\d+) of ", log.getvalue())
    first = len(plan["before"]) + 1
    assert counts == [str(n) for n in range(first, first + len(want["accepted"]))]
