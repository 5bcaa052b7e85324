"""A stand-in for the C++ `stk` binary implementing the features/eval CLI contract with the
Python reference, so the parity tool can be tested without the engine.

FAKE_STK_DEFECT plants a defect: flip-index (one index of one position wrong),
eval-black-plus-one (eval + 1 with black to move), crash (exit 3), drop-line (one line missing).
"""

from __future__ import annotations

import json
import os
import sys

import chess

from stkref.features import active_features
from stkref.netfile import read
from stkref.oracle import evaluate

DEFECT = os.environ.get("FAKE_STK_DEFECT", "")


def parse(fen: str, where: str) -> chess.Board:
    fields = fen.split()
    if len(fields) < 4:
        raise ValueError(f"{where}: bad FEN {fen!r}")
    try:
        if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit():
            return chess.Board(" ".join(fields[:6]))
        return chess.Board(" ".join(fields[:4]) + " 0 1")
    except ValueError as e:
        raise ValueError(f"{where}: bad FEN {fen!r}: {e}") from e


def features(board: chess.Board, n: int) -> dict[str, object]:
    white = active_features(board, chess.WHITE)
    black = active_features(board, chess.BLACK)
    if DEFECT == "flip-index" and n == 2 and white:
        white[-1] ^= 1  # one square off by one file in one perspective
        white.sort()
    return {"white": white, "black": black}


def main(argv: list[str]) -> int:
    if DEFECT == "crash":
        print("fake stk: planted crash", file=sys.stderr)
        return 3
    if not argv or argv[0] not in ("features", "eval"):
        print("usage: fake_stk features|eval ...", file=sys.stderr)
        return 2
    cmd, rest = argv[0], argv[1:]
    model = None
    if cmd == "eval":
        if len(rest) < 2 or rest[0] != "--net":
            print("fake stk eval: --net FILE required", file=sys.stderr)
            return 2
        model = read(rest[1])
        rest = rest[2:]
        if rest[:1] == ["--impl"]:
            if rest[1:2] not in (["scalar"], ["avx2"]):
                print("fake stk eval: --impl scalar|avx2", file=sys.stderr)
                return 2
            rest = rest[2:]
    if rest and rest[0] == "--batch":
        path = rest[1]
        with open(path, encoding="utf-8") as f:
            lines = [(n, ln.strip()) for n, ln in enumerate(f, start=1) if ln.strip()]
    else:
        path, lines = "<arg>", [(1, " ".join(rest))]
    out = []
    for n, fen in lines:
        try:
            board = parse(fen, f"{path}:{n}")
        except ValueError as e:
            print(f"stk {cmd}: {e}", file=sys.stderr)
            return 2
        obj: dict[str, object] = {"line": n, "fen": fen}
        if model is None:
            obj.update(features(board, n))
        else:
            parts = evaluate(model, board)
            ev = parts.eval + (
                1 if DEFECT == "eval-black-plus-one" and board.turn == chess.BLACK else 0
            )
            obj.update(
                {
                    "eval": ev,
                    "bucket": parts.bucket,
                    "psqt": parts.psqt,
                    "positional": parts.positional,
                }
            )
        if DEFECT == "drop-line" and n == 2:
            continue
        out.append(json.dumps(obj))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
