"""A raw UCI session over pipes for the engine tests: every line the engine prints is kept, so a
test can check each `info` line itself (python-chess is the oracle for moves, not the driver)."""

from __future__ import annotations

import queue
import subprocess
import threading
import time
from dataclasses import dataclass, field

HANG_S = 10.0  # a hang detector around answers that take milliseconds


@dataclass
class Info:
    """One `info ... score ... pv ...` line."""

    line: str
    depth: int
    score_kind: str  # "cp" or "mate"
    score: int
    time_ms: int | None
    pv: list[str] = field(default_factory=list)


def parse_info(line: str) -> Info | None:
    """The fields of an info line that carries a score, else None."""
    words = line.split()
    if not words or words[0] != "info" or "score" not in words:
        return None
    depth, time_ms, pv = 0, None, []
    i = 1
    kind, score = "", 0
    while i < len(words):
        w = words[i]
        if w == "depth":
            depth = int(words[i + 1])
            i += 2
        elif w == "time":
            time_ms = int(words[i + 1])
            i += 2
        elif w == "score":
            kind, score = words[i + 1], int(words[i + 2])
            i += 3
        elif w == "pv":
            pv = words[i + 1 :]
            break
        else:
            i += 2 if w not in ("lowerbound", "upperbound") else 1
    return Info(line, depth, kind, score, time_ms, pv)


class UciSession:
    def __init__(self, engine: str) -> None:
        self.proc = subprocess.Popen(
            [engine],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.send("uci")
        self.read_until(lambda line: line == "uciok")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, stop, timeout: float = HANG_S) -> list[str]:
        deadline = time.monotonic() + timeout
        got: list[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"engine did not answer within {timeout} s; read: {got[-5:]}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise AssertionError(f"engine exited; read: {got[-5:]}")
            got.append(line)
            if stop(line):
                return got

    def go(
        self, fen: str, moves: list[str], go: str, timeout: float = HANG_S
    ) -> tuple[list[Info], str]:
        """Searches `fen` + `moves`; returns every scored info line and the best move."""
        self.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
        self.send("go " + go)
        lines = self.read_until(lambda line: line.startswith("bestmove"), timeout)
        infos = [i for i in (parse_info(line) for line in lines) if i is not None]
        return infos, lines[-1].split()[1]

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
