"""python -m stkdist match on a real Dask cluster (a scheduler and two worker processes on
127.0.0.1, started and stopped by each test): the distributed match equals the local one with the
same seed, a worker killed mid-run changes nothing, a killed coordinator resumes from its journal,
an SPRT against a much weaker engine stops early and cancels the queued chunks, and what the
coordinator owns is refused (docs/distributed.md)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import validate_junit

from stkdist import artifacts

ROOT = Path(__file__).resolve().parents[3]
PYDIR = ROOT / "harness/python"
HARNESS = os.environ.get("STK_HARNESS") or str(ROOT / "build/release/harness/stk-harness")
ENGINE = os.environ.get("STK_ENGINE") or str(ROOT / "build/release/engine/stk")

pytest.importorskip("distributed")

PAIRS, NODES, SEED = 40, 400, 11
MATCH = [
    "--engine", f"cmd={ENGINE}", "name=a", "--engine", f"cmd={ENGINE}", "name=b",
    "--nodes", str(NODES), "--seed", str(SEED), "--gate", "non-regression",
    "--min-elo-lower95", "-100000",
]  # fmt: skip


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(PYDIR) + os.pathsep + e.get("PYTHONPATH", "")
    return e


class Cluster:
    """`dask scheduler` and two `dask worker` processes, each in its own process group."""

    def __init__(self, tmp: Path) -> None:
        self.file = tmp / "scheduler.json"
        self.procs: list[subprocess.Popen[bytes]] = []
        self.scheduler = self._start(
            ["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
             "--no-dashboard", "--scheduler-file", str(self.file)],
            tmp / "scheduler.log",
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while not self.file.exists() or not self.file.read_text().strip():
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        self.address = json.loads(self.file.read_text())["address"]
        self.workers = [
            self._start(
                ["distributed.cli.dask_worker", "--scheduler-file", str(self.file),
                 "--nthreads", "1", "--no-dashboard", "--name", f"w{k}",
                 "--local-directory", str(tmp / f"w{k}")],
                tmp / f"worker{k}.log",
            )
            for k in (1, 2)
        ]  # fmt: skip
        from distributed import Client

        with Client(self.address, timeout=60) as c:
            c.wait_for_workers(2, timeout=60)

    def _start(self, args: list[str], log: Path) -> subprocess.Popen[bytes]:
        p = subprocess.Popen(
            [sys.executable, "-m", *args],
            stdout=open(log, "wb"),  # noqa: SIM115 (the process holds it)
            stderr=subprocess.STDOUT,
            env=env(),
            start_new_session=True,
        )
        self.procs.append(p)
        return p

    def kill(self, p: subprocess.Popen[bytes]) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGKILL)
        p.wait(timeout=30)

    def stop(self) -> None:
        for p in reversed(self.procs):
            if p.poll() is None:
                self.kill(p)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    if not Path(HARNESS).exists() or not Path(ENGINE).exists():
        pytest.skip("stk-harness or stk not built")
    c = Cluster(tmp_path)
    try:
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def local_match(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The same match played by `stk-harness match` alone."""
    if not Path(HARNESS).exists() or not Path(ENGINE).exists():
        pytest.skip("stk-harness or stk not built")
    out = tmp_path_factory.mktemp("local")
    r = subprocess.run(
        [HARNESS, "match", *MATCH, "--pairs", str(PAIRS), "--config", "m", "--out-dir", str(out),
         "--quiet", "--concurrency", "2"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads((out / "match/m.json").read_text())


def coordinator(out: Path, address: str | None, *extra: str) -> list[str]:
    """The coordinator's command: its options, then `--` and the match's (`extra` last)."""
    argv = [sys.executable, "-m", "stkdist", "match", "--pairs", str(PAIRS), "--chunk-pairs", "2"]
    argv += ["--config", "m", "--out-dir", str(out), "--harness", HARNESS]
    argv += ["--scheduler", address] if address else []
    return [*argv, "--", *MATCH, *extra]


def distributed(out: Path, address: str | None, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        coordinator(out, address, *extra),
        capture_output=True, text=True, timeout=600, env=env(), check=False,
    )  # fmt: skip


def same_match(local: dict, out: Path) -> None:
    got = json.loads((out / "match/m.json").read_text())
    assert got["counts"] == local["counts"]
    assert got["pairs"] == local["pairs"]  # every game: colours, result, termination, plies
    # The definition differs only in the shard count (20 chunks of 2 pairs).
    assert {k: v for k, v in got["definition"].items() if k != "shard_count"} == {
        k: v for k, v in local["definition"].items() if k != "shard_count"
    }
    assert got["shards"] == list(range(1, 21))


def wait_for_chunks(out: Path, n: int, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 300
    while len(list((out / "dist/m").glob("chunk-*.json"))) < n:
        assert proc.poll() is None, "the coordinator ended before the kill"
        assert time.monotonic() < deadline
        time.sleep(0.05)


# MODEL stkdist-match
# checks: harness/python/stkdist/match.py  (a match in chunks on a cluster: counts and games)
# contract: docs/distributed.md#match
# planted: ci/mutants/model-stkdist-chunk-shards.patch  (chunk j played as shard j of N+1)
def test_a_match_through_the_cluster_equals_the_local_match(
    cluster: Cluster, local_match: dict, tmp_path: Path
):
    r = distributed(tmp_path / "d", cluster.address)
    assert r.returncode == 0, r.stdout + r.stderr
    same_match(local_match, tmp_path / "d")
    workers = json.loads((tmp_path / "d/dist/m/workers.json").read_text())
    assert sum(workers["chunks_by_host"].values()) == 20


def test_a_worker_killed_mid_run_changes_nothing(
    cluster: Cluster, local_match: dict, tmp_path: Path
):
    out = tmp_path / "k"
    proc = subprocess.Popen(
        coordinator(out, cluster.address), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True, env=env(),
    )  # fmt: skip
    wait_for_chunks(out, 3, proc)
    cluster.kill(cluster.workers[0])
    text, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0, text
    same_match(local_match, out)


def test_a_killed_coordinator_resumes_from_its_journal(
    cluster: Cluster, local_match: dict, tmp_path: Path
):
    out = tmp_path / "c"
    proc = subprocess.Popen(
        coordinator(out, cluster.address), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env=env(), start_new_session=True,
    )  # fmt: skip
    wait_for_chunks(out, 3, proc)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    done = len(list((out / "dist/m").glob("chunk-*.json")))
    r = distributed(out, cluster.address)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"{done} journaled" in r.stdout, r.stdout
    same_match(local_match, out)


def test_an_sprt_against_a_much_weaker_engine_stops_early(cluster: Cluster, tmp_path: Path):
    weak = [
        "--engine", f"cmd={ENGINE}", "name=strong", "--engine", f"cmd={ENGINE}", "name=weak",
        "nodes=1", "--nodes", "2000", "--seed", "5",
    ]  # fmt: skip
    argv = [sys.executable, "-m", "stkdist", "match", "--pairs", "60", "--chunk-pairs", "2"]
    argv += ["--config", "s", "--out-dir", str(tmp_path / "s"), "--harness", HARNESS]
    argv += ["--sprt", "elo0=0", "elo1=100", "model=logistic", "--scheduler", cluster.address]
    argv += ["--", *weak]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env(), check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "SPRT accepted H1" in r.stdout, r.stdout
    merged = json.loads((tmp_path / "s/match/s.json").read_text())
    assert len(merged["shards"]) < 30 and len(merged["pairs"]) < 60
    cancelled = int(r.stdout.split(" queued or running chunks cancelled")[0].split()[-1])
    assert cancelled > 0
    assert merged["summary"]["sprt"]["verdict"] == "H1 accepted"


def test_what_the_coordinator_owns_is_refused_and_a_journal_of_another_run(
    tmp_path: Path, junit_xsd: Path
):
    if not Path(HARNESS).exists():
        pytest.skip("stk-harness not built")
    r = distributed(tmp_path, None, "--shard", "1/2")
    assert r.returncode == 2 and "--shard: the coordinator sets it" in r.stderr, r.stderr
    validate_junit(junit_xsd, tmp_path / "junit/match-m.xml")  # an <error> report
    assert "<error" in (tmp_path / "junit/match-m.xml").read_text()
    nan = subprocess.run(
        [*coordinator(tmp_path, None)[:4], "--pairs", "nan", "--", *MATCH],
        capture_output=True, text=True, timeout=60, env=env(), check=False,
    )  # fmt: skip
    assert nan.returncode == 2 and "--pairs" in nan.stderr, nan.stderr
    first = distributed(tmp_path / "o", None)
    assert first.returncode == 0, first.stdout + first.stderr
    other = distributed(tmp_path / "o", None, "--maxmoves", "30")
    assert other.returncode == 2 and "holds a different run" in other.stderr, other.stderr


def test_a_scheduler_s_protocol_and_tls_must_agree_before_connecting(
    tmp_path: Path, junit_xsd: Path
):
    """A tls:// scheduler without --tls, and --tls with a tcp:// one, are refused naming the
    option, with no scheduler listening (planted: Dask's TypeError from inside the connection,
    an internal error exit 2 that the TLS test's status check took for the refusal)."""
    pem = [tmp_path / n for n in ("ca.pem", "c.pem", "c.key")]
    for f in pem:
        f.write_text("not read: refused first\n")
    base = [sys.executable, "-m", "stkdist", "match", "--pairs", "2", "--config", "m"]
    base += ["--out-dir", str(tmp_path), "--harness", HARNESS]
    for extra, said in (
        (["--scheduler", "tls://127.0.0.1:9"], "a tls:// scheduler needs --tls CA CERT KEY"),
        (["--scheduler", "tcp://127.0.0.1:9", "--tls", *map(str, pem)], "is not a tls:// address"),
    ):
        r = subprocess.run(
            [*base, *extra, "--", *MATCH], capture_output=True, text=True, timeout=60, env=env(),
            check=False,
        )  # fmt: skip
        assert r.returncode == 2 and said in r.stderr, r.stderr
        assert "internal error" not in r.stderr, r.stderr
        report = tmp_path / "junit/match-m.xml"  # the refusal's <error> report
        validate_junit(junit_xsd, report)
        assert "<error" in report.read_text() and said in report.read_text()
        report.unlink()


def test_a_chunk_that_fails_twice_stops_the_run_naming_it(tmp_path: Path, junit_xsd: Path):
    """A chunk whose engine cannot start fails (exit 2 of its match), is run once more, and the
    second failure ends the run with exit 2 naming the chunk; an <error> report stands."""
    if not Path(HARNESS).exists():
        pytest.skip("stk-harness not built")
    argv = [sys.executable, "-m", "stkdist", "match", "--pairs", "2", "--chunk-pairs", "1"]
    argv += ["--workers", "1", "--config", "m", "--out-dir", str(tmp_path), "--harness", HARNESS]
    argv += ["--engine", f"cmd={tmp_path / 'no-such-engine'}", "--engine", f"cmd={ENGINE}"]
    argv += ["--nodes", "100", "--gate", "non-regression", "--min-elo-lower95", "-1000"]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env(), check=False)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "running it again" in r.stdout, r.stdout
    assert "failed twice" in r.stderr and "chunk " in r.stderr, r.stderr
    assert not list((tmp_path / "dist/m").glob("chunk-*.json"))
    validate_junit(junit_xsd, tmp_path / "junit/match-m.xml")
    assert "<error" in (tmp_path / "junit/match-m.xml").read_text()


# ---- datagen ----------------------------------------------------------------------------------

GAMES, DG_NODES, DG_SEED = 24, 300, 7
DATAGEN = ["--seed", str(DG_SEED), "--nodes", str(DG_NODES)]


@pytest.fixture(scope="module")
def local_datagen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same run by `stk-harness datagen` alone: its data file (the journal beside it)."""
    if not Path(HARNESS).exists():
        pytest.skip("stk-harness not built")
    out = tmp_path_factory.mktemp("local-datagen")
    r = subprocess.run(
        [HARNESS, "datagen", *DATAGEN, "--games", str(GAMES), "--out", str(out / "data.txt"),
         "--out-dir", str(out), "--concurrency", "2"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    return out / "data.txt"


def datagen_coordinator(out: Path, address: str | None, *extra: str) -> list[str]:
    argv = [sys.executable, "-m", "stkdist", "datagen", "--games", str(GAMES)]
    argv += ["--chunk-games", "2", "--config", "d", "--out-dir", str(out), "--harness", HARNESS]
    argv += ["--out", str(out / "data.txt")] + (["--scheduler", address] if address else [])
    return [*argv, "--", *DATAGEN, *extra]


def same_bytes(local: Path, out: Path) -> None:
    """The data file and its journal are the local run's, byte for byte."""
    assert (out / "data.txt").read_bytes() == local.read_bytes()
    assert (out / "data.txt.journal").read_bytes() == Path(f"{local}.journal").read_bytes()


# MODEL stkdist-datagen
# checks: harness/python/stkdist/datagen.py  (datagen in chunks on a cluster: the file, in order)
# contract: docs/distributed.md#datagen
# planted: ci/mutants/model-stkdist-datagen-chunk-order.patch  (chunks concatenated, not games)
def test_a_datagen_run_through_the_cluster_equals_the_local_one_byte_for_byte(
    cluster: Cluster, local_datagen: Path, tmp_path: Path, junit_xsd: Path
):
    out = tmp_path / "d"
    proc = subprocess.Popen(
        datagen_coordinator(out, cluster.address), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, env=env(),
    )  # fmt: skip
    deadline = time.monotonic() + 300
    while len(list((out / "dist/d").glob("chunk-*.journal"))) < 3:
        assert proc.poll() is None and time.monotonic() < deadline, "ended before the kill"
        time.sleep(0.05)
    cluster.kill(cluster.workers[0])  # its chunk runs again on the other worker
    text, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0, text
    same_bytes(local_datagen, out)
    validate_junit(junit_xsd, out / "junit/datagen-d.xml")
    report = json.loads((out / "datagen/d.json").read_text())
    assert report["games"] == GAMES


def test_a_datagen_coordinator_resumes_and_a_torn_chunk_runs_again(
    local_datagen: Path, tmp_path: Path
):
    """A chunk whose data file is shorter than its journal (a coordinator killed between the two
    writes) is run again; the finished ones are not; the file is the same; a different --out
    file is never overwritten."""
    out = tmp_path / "r"
    first = subprocess.run(
        datagen_coordinator(out, None), capture_output=True, text=True, timeout=600, env=env(),
        check=False,
    )  # fmt: skip
    assert first.returncode == 0, first.stdout + first.stderr
    chunk = out / "dist/d/chunk-3.txt"
    chunk.write_bytes(chunk.read_bytes()[:-10])
    for f in ("data.txt", "data.txt.journal"):
        (out / f).unlink()
    again = subprocess.run(
        datagen_coordinator(out, None), capture_output=True, text=True, timeout=600, env=env(),
        check=False,
    )  # fmt: skip
    assert again.returncode == 0, again.stdout + again.stderr
    assert "11 journaled" in again.stdout and "1 to run" in again.stdout, again.stdout
    same_bytes(local_datagen, out)
    (out / "data.txt").write_text("other data\n")
    third = subprocess.run(
        datagen_coordinator(out, None), capture_output=True, text=True, timeout=600, env=env(),
        check=False,
    )  # fmt: skip
    assert third.returncode == 2 and "holds other data: not overwritten" in third.stderr
    assert (out / "data.txt").read_text() == "other data\n"
    owned = subprocess.run(
        datagen_coordinator(tmp_path / "o", None, "--shard", "1/2"), capture_output=True,
        text=True, timeout=60, env=env(), check=False,
    )  # fmt: skip
    assert owned.returncode == 2 and "--shard: the coordinator sets it" in owned.stderr


# ---- epd --------------------------------------------------------------------------------------

SHARED = os.environ.get("STK_SHARED", "")
ECM = Path(SHARED) / "suites/ECM.epd"
EPD = ["--epd", str(ECM), "--depth", "4", "--stride", "40"]  # 22 positions


def positions_of(report: Path) -> list[dict]:
    """Each position's result, its timing left out (the only figure allowed to differ)."""
    r = json.loads(report.read_text())
    return [{k: v for k, v in p.items() if k != "time_s"} for p in r["positions"]]


# MODEL stkdist-epd
# checks: harness/python/stkdist/epd.py  (an EPD suite in chunks on a cluster, merged)
# contract: docs/distributed.md#epd
# planted: ci/mutants/model-stkdist-epd-chunk-dropped.patch  (the last chunk left out of the merge)
def test_an_epd_suite_through_the_cluster_equals_the_local_run(cluster: Cluster, tmp_path: Path):
    if not ECM.exists():
        pytest.skip("STK_SHARED/suites/ECM.epd not found")
    local = subprocess.run(
        [HARNESS, "epd", *EPD, "--config", "e", "--out-dir", str(tmp_path / "l"), "--quiet"],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert local.returncode == 0, local.stdout + local.stderr
    argv = [sys.executable, "-m", "stkdist", "epd", "--chunks", "5", "--config", "e"]
    argv += ["--out-dir", str(tmp_path / "d"), "--harness", HARNESS]
    argv += ["--scheduler", cluster.address, "--", *EPD]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env(), check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    got, want = positions_of(tmp_path / "d/epd/e.json"), positions_of(tmp_path / "l/epd/e.json")
    assert len(want) == 22 and got == want
    owned = subprocess.run(
        [*argv, "--update-golden"], capture_output=True, text=True, timeout=60, env=env(),
        check=False,
    )  # fmt: skip
    assert owned.returncode == 2 and "--update-golden: the coordinator sets it" in owned.stderr


# ---- mutation ---------------------------------------------------------------------------------


# MODEL stkdist-mutation
# checks: harness/python/stkdist/mutation.py  (one draw of mutants in chunks, merged as a campaign)
# contract: docs/distributed.md#mutation
# planted: ci/mutants/model-stkdist-mutation-shard-dropped.patch  (every chunk told shard 1/N)
def test_a_mutation_draw_in_chunks_is_merged_as_one_campaign(tmp_path: Path):
    """An empty draw (--diff HEAD: no changed line) in three chunks: each chunk is its own shard
    of the draw on this commit, and `ci/mutation.sh campaign` merges the three reports. (A draw
    with mutants builds a scratch clone per worker: measured in docs/distributed.md, not here.)"""
    argv = [sys.executable, "-m", "stkdist", "mutation", "--chunks", "3", "--workers", "2"]
    argv += ["--config", "dm", "--out-dir", str(tmp_path), "--"]
    argv += ["--diff", "HEAD", "--files", "harness/python/stkref/intervals.py"]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600, env=env(), check=False)
    assert r.returncode == 0, r.stdout + r.stderr
    shards = sorted((tmp_path / "dist/dm").glob("dm-shard*of3.json"))
    assert [json.loads(p.read_text())["shard"] for p in shards] == ["1/3", "2/3", "3/3"]
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert {json.loads(p.read_text())["head"] for p in shards} == {head}
    merged = json.loads((tmp_path / "mutation/dm.json").read_text())
    assert merged["report"]["config"] == "dm"
    owned = subprocess.run(
        [*argv, "--fail-under", "90"], capture_output=True, text=True, timeout=60, env=env(),
        check=False,
    )  # fmt: skip
    assert owned.returncode == 2 and "--fail-under: the coordinator sets it" in owned.stderr


# ---- TLS --------------------------------------------------------------------------------------


def self_signed(tmp: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (its own CA) and its key, by openssl."""
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    r = subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(key), "-out", str(cert)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    if r.returncode != 0:
        pytest.skip(f"openssl cannot make a certificate here: {r.stderr.strip()}")
    return cert, key


def test_a_tls_scheduler_takes_work_only_from_a_client_with_its_certificates(tmp_path: Path):
    """A scheduler and a worker that speak only TLS (certificates of one CA): the coordinator
    with --tls plays through it; without, it cannot connect (exit 2, nothing journaled)."""
    if not Path(HARNESS).exists() or not Path(ENGINE).exists():
        pytest.skip("stk-harness or stk not built")
    cert, key = self_signed(tmp_path)
    tls = ["--tls-ca-file", str(cert), "--tls-cert", str(cert), "--tls-key", str(key)]
    file = tmp_path / "scheduler.json"
    procs = []
    try:
        for args in (
            ["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
             "--protocol", "tls", "--no-dashboard", "--scheduler-file", str(file), *tls],
            ["distributed.cli.dask_worker", "--scheduler-file", str(file), "--nthreads", "1",
             "--no-dashboard", "--local-directory", str(tmp_path / "w"), *tls],
        ):  # fmt: skip
            procs.append(subprocess.Popen(
                [sys.executable, "-m", *args], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, env=env(), start_new_session=True,
            ))  # fmt: skip
            deadline = time.monotonic() + 60
            while not file.exists() or not file.read_text().strip():
                assert time.monotonic() < deadline, "the scheduler did not start"
                time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        assert address.startswith("tls://127.0.0.1:")
        argv = [sys.executable, "-m", "stkdist", "match", "--pairs", "2", "--chunk-pairs", "1"]
        argv += ["--config", "m", "--harness", HARNESS, "--scheduler", address]
        plain = subprocess.run(
            [*argv, "--out-dir", str(tmp_path / "p"), "--", *MATCH], capture_output=True,
            text=True, timeout=120, env=env(), check=False,
        )  # fmt: skip
        assert plain.returncode == 2, plain.stdout + plain.stderr
        assert "TLS" in plain.stderr or "tls" in plain.stderr, plain.stderr
        assert not list((tmp_path / "p/dist/m").glob("chunk-*.json"))
        secured = subprocess.run(
            [*argv, "--tls", str(cert), str(cert), str(key), "--out-dir", str(tmp_path / "t"),
             "--", *MATCH],
            capture_output=True, text=True, timeout=300, env=env(), check=False,
        )  # fmt: skip
        assert secured.returncode == 0, secured.stdout + secured.stderr
        assert len(json.loads((tmp_path / "t/match/m.json").read_text())["pairs"]) == 2
    finally:
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait(timeout=30)


def test_a_worker_whose_cpu_cannot_run_the_binary_says_so(tmp_path: Path):
    """A harness that dies of SIGILL (as a binary built for AVX-512 does on a CPU without it):
    the chunk fails naming the CPU, twice, and the run stops with exit 2."""
    fake = tmp_path / "stk-harness"
    fake.write_text("#!/bin/sh\nkill -s ILL $$\n")
    fake.chmod(0o755)
    argv = [sys.executable, "-m", "stkdist", "match", "--pairs", "1", "--workers", "1"]
    argv += ["--config", "m", "--out-dir", str(tmp_path), "--harness", str(fake), "--", *MATCH]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env(), check=False)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "CPU cannot run" in r.stderr and "illegal instruction" in r.stderr, r.stderr


# ---- shipping ---------------------------------------------------------------------------------


def test_shipped_binaries_run_on_workers_after_the_originals_are_gone(
    local_match: dict, tmp_path: Path
):
    """--ship: the harness and the engine travel with the work (Dask moves the bytes), each to
    <ship>/<SHA-256>/<name>; the originals and the coordinator's installed copies are removed once
    it has read them, and every chunk still plays: the same games as the local match."""
    src, ship, out = tmp_path / "src", tmp_path / "ship", tmp_path / "o"
    src.mkdir()
    for binary in (HARNESS, ENGINE):
        shutil.copy2(binary, src / Path(binary).name)
    match = [w.replace(f"cmd={ENGINE}", f"cmd={src / 'stk'}") for w in MATCH]
    argv = [sys.executable, "-m", "stkdist", "match", "--pairs", str(PAIRS), "--chunk-pairs", "4"]
    argv += ["--config", "m", "--out-dir", str(out), "--harness", str(src / "stk-harness")]
    argv += ["--ship", str(ship), "--workers", "2", "--", *match]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env()
    )
    deadline = time.monotonic() + 120
    while not (out / "dist/m/plan.json").exists():
        assert proc.poll() is None and time.monotonic() < deadline, "ended before the plan"
        time.sleep(0.05)
    shutil.rmtree(src)
    # The coordinator's own copies too: the workers install from the bytes. The local workers
    # share this file system and may be installing into it while it goes: remove until gone.
    for _ in range(50):
        if not ship.exists():
            break
        try:
            shutil.rmtree(ship)
        except OSError:  # a worker's file appeared or went mid-removal (ENOTEMPTY, ENOENT)
            time.sleep(0.1)
    else:
        pytest.fail(f"{ship} could not be removed while the workers ran")
    text, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0, text
    got = json.loads((out / "match/m.json").read_text())
    assert got["counts"] == local_match["counts"] and got["pairs"] == local_match["pairs"]
    engine = got["definition"]["engines"][0]["command"]
    assert engine.startswith(str(ship)) and engine.endswith("/stk"), engine
    assert artifacts.sha256_of(engine) == artifacts.sha256_of(ENGINE)


def test_a_shipped_word_names_the_shipped_file_wherever_a_command_takes_a_path(tmp_path: Path):
    prog, book = tmp_path / "stk", tmp_path / "book.epd"
    prog.write_text("x")
    book.write_text("y")
    mapping = {str(prog): "/s/1/stk", str(book): "/s/2/book.epd"}
    assert artifacts.shipped_word(str(prog), mapping) == "/s/1/stk"
    assert artifacts.shipped_word(f"cmd={prog}", mapping) == "cmd=/s/1/stk"
    assert artifacts.shipped_word(f"cmd={prog} --uci", mapping) == "cmd=/s/1/stk --uci"
    assert artifacts.shipped_word(f"--openings={book}", mapping) == "--openings=/s/2/book.epd"
    assert artifacts.shipped_word(f"{prog} -x 'a b'", mapping) == "/s/1/stk -x 'a b'"
    for other in ("name=a", "--nodes", "400", str(tmp_path / "absent"), "it's"):
        assert artifacts.shipped_word(other, mapping) == other
    assert artifacts.program_of(f"{prog} --uci") == str(prog.resolve())
    for not_a_program in (None, "", "'open", "inprocess", f"{tmp_path / 'absent'} x"):
        assert artifacts.program_of(not_a_program) == ""
