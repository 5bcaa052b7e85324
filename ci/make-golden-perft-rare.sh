#!/usr/bin/env bash
# Regenerates golden/perft-rare.epd: the rare geometries of golden/perft-rare.fens (pinned pawns
# that capture and promote, en passant along pins and rank exposure, castling through attacked
# squares, promotions with check), counted by stockfish's "go perft" as deep as stays under
# PERFT_GOLDEN_MAX_NODES (default 1,000,000) nodes, then recounted with python-chess up to
# 300,000 nodes per count. Cheap on purpose: the quick tier runs every depth of it.
# usage: ci/make-golden-perft-rare.sh [REFERENCE_ENGINE]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="${STK_PYTHON:-$root/.venv/bin/python}"
out="$root/golden/perft-rare.epd"
PERFT_GOLDEN_MAX_DEPTH=9 PERFT_GOLDEN_MAX_NODES="${PERFT_GOLDEN_MAX_NODES:-1000000}" \
  "$root/ci/make-golden-perft.sh" "$root/golden/perft-rare.fens" "${1:-/usr/games/stockfish}" > "$out.tmp"
mv "$out.tmp" "$out"
PYTHONPATH="$root/harness/python" "$py" -m stkref.perft --epd "$out" --max-nodes 300000
