"""`stk bench` as an OpenBench worker reads it: runs only when STK_ENGINE names the stk binary.

OpenBench's client (github.com/AndyGrant/OpenBench, Client/utils.py `run_bench` and
`parse_bench_output`; the same patterns in Client/bench.py `parse_stream_output`) runs
`./<binary> bench` with stderr merged into stdout, walks the output's lines from the LAST one up,
replaces every non-alphanumeric character by a space, and takes the first match of

    nps_pattern   = r'(\\d+\\s+nps)|(nps\\s+\\d+)|(nodes second\\s+\\d+)'
    bench_pattern = r'(\\d+\\s+nodes)|(nodes\\s+\\d+)|(nodes searched\\s+\\d+)'

(re.IGNORECASE), then the first integer of each match. A worker refuses the engine when the bench
differs between runs ("Non-Deterministic Benches"), when either value is missing, or when the bench
is not the one the test was submitted with; a bench is killed after MAX_BENCH_TIME_SECONDS = 60.
The function below is that algorithm restated, so a change to stk's output that a worker would
misread fails here.
"""

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

ENGINE = os.environ.get("STK_ENGINE", "")
pytestmark = pytest.mark.skipif(not ENGINE, reason="set STK_ENGINE=/path/to/stk to run")

NPS_PATTERN = r"(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)"
BENCH_PATTERN = r"(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)"
MAX_BENCH_TIME_SECONDS = 60
GOLDEN = Path(__file__).resolve().parents[3] / "golden" / "bench.txt"


def parse_like_openbench(stream: bytes) -> tuple[int | None, int | None]:
    nps = bench = None
    for line in stream.decode("ascii").strip().split("\n")[::-1]:
        line = re.sub(r"[^a-zA-Z0-9 ]+", " ", line)
        re_nps = re.search(NPS_PATTERN, line, re.IGNORECASE)
        re_bench = re.search(BENCH_PATTERN, line, re.IGNORECASE)
        if re_nps:
            nps = nps if nps else re_nps.group()
        if re_bench:
            bench = bench if bench else re_bench.group()
    nps_value = int(re.search(r"\d+", nps).group()) if nps else None
    bench_value = int(re.search(r"\d+", bench).group()) if bench else None
    return bench_value, nps_value


def golden_nodes() -> int:
    for line in GOLDEN.read_text().splitlines():
        if line.startswith("nodes "):
            return int(line.split()[1])
    raise AssertionError(f"{GOLDEN}: no 'nodes N' line")


def run_bench() -> tuple[bytes, float]:
    t0 = time.monotonic()
    out = subprocess.run(
        [ENGINE, "bench"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        timeout=MAX_BENCH_TIME_SECONDS,
        check=True,
    ).stdout
    return out, time.monotonic() - t0


def test_openbench_reads_the_golden_signature_and_a_speed_every_run():
    runs = [run_bench() for _ in range(2)]
    parsed = [parse_like_openbench(out) for out, _ in runs]
    for (out, seconds), (bench, nps) in zip(runs, parsed):
        assert bench == golden_nodes(), out.decode()
        assert nps is not None and nps > 0, out.decode()
        assert seconds < MAX_BENCH_TIME_SECONDS / 2, f"bench took {seconds:.1f} s"
    assert len({bench for bench, _ in parsed}) == 1


def test_the_parser_restated_here_reads_what_openbench_documents():
    # Stockfish's form, Ethereal's form, and a line that must not be taken for the node count.
    assert parse_like_openbench(b"Nodes searched  : 123\nNodes/second    : 456\n") == (123, 456)
    assert parse_like_openbench(b"BENCH: 5 nodes 77 nps\n") == (5, 77)
    assert parse_like_openbench(b"Depth : 13\nTotal time (ms): 999\n") == (None, None)
