#!/usr/bin/env bash
# Fuzzing: builds the libFuzzer targets (preset `fuzz`: clang++, ASan+UBSan) and runs each of
# fen, epd, uci, netfile, fhr for SECONDS (default 60). A crash input is copied into
# harness/fuzz/regressions/<target>/ for the Catch2 replay ("[fuzz]"); see ci/fuzz.py.
# Writes reports/junit/fuzz-<config>.xml and reports/fuzz/. Not part of the quick tier (building a
# second, clang-instrumented tree costs minutes on 2 cores): CI replays the corpus and the
# regression inputs through the same checks in ctest instead.
# usage: ci/fuzz.sh [SECONDS] [--targets fen,epd,...] [--jobs J] [--seed N] [--config NAME]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export STK_SHARED="${STK_SHARED:-$(cd "$root/../shared" 2>/dev/null && pwd)}"
export STK_PYTHON="${STK_PYTHON:-$root/.venv/bin/python}"
STK_FUZZ_DEPS=1 ci/install-deps.sh >/dev/null || exit 2
cmake --preset fuzz >/dev/null && cmake --build --preset fuzz -j "$(nproc)" --target fuzz_all || exit 2
exec "$STK_PYTHON" ci/fuzz.py "$@"
