#!/usr/bin/env bash
# Writes the fuzz targets' seed corpora, harness/fuzz/corpus/<target>/, from repository data and
# hand-written lines (committed; rerun after a format change and commit the result):
#   fen      lines of golden/perft.epd and golden/perft-rare.fens, hand-written edge cases
#   epd      golden/epd/am-quick.epd, hand-written lines (quoted operands, bm+am, sd/sn)
#   uci      short UCI sessions
#   netfile  raw headers of golden/nets/stk-h128-seed1.nnue (whole, truncated, bad fields) and
#            patch-mode inputs over the synthetic H=128 image (see check_netfile.cpp)
#   fhr      record files made by `stk-harness fhcollect` (needs build/release), cut and joined
# With --ecm DIR it instead writes every 8th line of $STK_SHARED/suites/ECM.epd as extra fen and
# epd seeds into DIR/<target>/ (ci/fuzz.py does so into build/fuzz/run/ecm-seeds; suites are never
# copied into the repository).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

seed() {  # seed TARGET NAME: stdin -> corpus file
  mkdir -p "$out/$1"
  cat >"$out/$1/$2"
}

if [ "${1:-}" = "--ecm" ]; then
  out="${2:?usage: make-corpus.sh --ecm DIR}"
  ecm="${STK_SHARED:-$root/../shared}/suites/ECM.epd"
  [ -f "$ecm" ] || { echo "make-corpus: $ecm not found, no ECM seeds" >&2; exit 0; }
  awk 'NR % 8 == 1' "$ecm" | while IFS= read -r line; do
    n=$((${n:-0} + 1))
    printf '%s\n' "$line" | seed epd "ecm-$n"
    printf '%s 0 1\n' "$(printf '%s' "$line" | cut -d' ' -f1-4)" | seed fen "ecm-$n"
  done
  exit 0
fi

out="$root/harness/fuzz/corpus"
rm -rf "$out"

# --- fen: golden positions (six fields), then edge cases that must be accepted or rejected.
n=0
grep -v '^#' golden/perft.epd | cut -d';' -f1 | sed 's/ *$//' | while IFS= read -r fen; do
  n=$((n + 1)); printf '%s' "$fen" | seed fen "perft-$n"
done
n=0
grep -v '^#' golden/perft-rare.fens | while IFS= read -r fen; do
  n=$((n + 1)); printf '%s' "$fen" | seed fen "rare-$n"
done
printf '%s' "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1" | seed fen ep-not-capturable
printf '%s' "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3" | seed fen ep-capturable
printf '%s' "8/8/8/2k5/3Pp3/8/8/4K2Q b - d3 0 1" | seed fen ep-pinned
printf '%s' "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 99 80" | seed fen castling-clock-99
printf '%s' "4k3/8/8/8/8/8/8/4K2R w K - 0 1" | seed fen castling-one
printf '%s' "4k3/8/8/8/8/8/8/4K3 w - -" | seed fen four-fields
printf '%s' "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 999999" | seed fen promotions-max-fullmove
printf '%s' "3r4/8/8/8/4k3/8/3K4/8 w - - 0 1" | seed fen in-check-evasions
printf '%s' "4k3/8/5N2/8/1b6/8/8/4K3 b - - 0 1" | seed fen double-check
printf '%s' "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0" | seed fen five-fields
printf '%s' "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1" | seed fen short-rank
printf '%s' "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" | seed fen bad-digit
printf '%s' "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1" | seed fen castling-repeated
printf '%s' "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1" | seed fen bad-ep
printf '%s' "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - -1 1" | seed fen bad-side

# --- epd: the avoid-move suite and hand-written lines.
n=0
while IFS= read -r line; do
  n=$((n + 1)); printf '%s\n' "$line" | seed epd "am-quick-$n"
done <golden/epd/am-quick.epd
printf '%s\n' 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5 Bc4; id "open.1"; c0 "two; moves";' | seed epd bm-two-quoted
printf '%s\n' '4k3/1P6/8/8/8/8/6p1/4K3 w - - bm b8=Q+; am b8=N; sd 4; sn 1000;' | seed epd promotion-bm-am
printf '%s\n' 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm O-O 0-0-0; id castle;' | seed epd castling-san
printf '%s\n' 'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 bm exf6 e.p.; id ep;' | seed epd en-passant
printf '%s\n' '4k3/8/8/8/8/8/8/R3K2R w KQ - bm Rh8+ ; am Ra8#; ce 100; pv Rh8+ Kd7;' | seed epd checks
printf '%s\n' '4k3/8/8/8/8/8/8/4K3 w - - id "no-op";' | seed epd no-bm
printf '%s\n' '4k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id "a' | seed epd unterminated-quote

# --- uci: short sessions (check_uci.cpp caps searches and redirects option files).
printf 'uci\nisready\nposition startpos moves e2e4 e7e5 g1f3\ngo depth 3\nisready\nquit\n' | seed uci session
printf 'position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1 e8c8\ngo perft 2\nd\n' | seed uci perft-castled
printf 'setoption name Hash value 1\nsetoption name Clear Hash\nsetoption name Use NNUE value false\nucinewgame\ngo nodes 100\nstop\nisready\n' | seed uci options
printf 'setoption name FHPredictor value true\nsetoption name FHLmrTier1 value 50\nsetoption name FHModel value <builtin>\ngo wtime 1000 btime 1000 winc 10 binc 10 movestogo 20\nisready\n' | seed uci predictor
printf 'setoption name EvalFile value STKHALFKA\nsetoption name EvalFile value <empty>\nsetoption name FHModel value shift 18|bogus\nisready\n' | seed uci option-files
printf 'position fen 8/8/8/8/8/8/8/k1K5 w - - 0 1\ngo movetime 5\nposition startpos moves e2e5\nposition fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 2\nisready\n' | seed uci errors-and-stalemate
printf 'go infinite\nstop\ngo ponder depth 2\nstop\ngo depth -1\ngo searchmoves e2e4 depth 2\nisready\n' | seed uci go-forms

# --- netfile: even first byte = raw file image, odd = patches over the synthetic H=128 image.
net=golden/nets/stk-h128-seed1.nnue
{ printf '\x00'; head -c 25 "$net"; } | seed netfile raw-header
{ printf '\x00'; head -c 300 "$net"; } | seed netfile raw-header-and-weights
{ printf '\x00'; head -c 13 "$net"; } | seed netfile raw-truncated-header
{ printf '\x00'; head -c 9 "$net"; } | seed netfile raw-magic-only
{ printf '\x02'; head -c 9 "$net"; printf '\x01\x00\x00\x00\x00\x58\x00\x00\x00\x04\x00\x00\x08\x00\x00\x00'; } | seed netfile raw-h1024-header
{ printf '\x00'; head -c 9 "$net"; printf '\x02\x00\x00\x00'; } | seed netfile raw-bad-version
printf '\x01' | seed netfile patch-none
printf '\x03' | seed netfile patch-none-extreme
printf '\x0d\x01\x00' | seed netfile patch-trailing-allowed
printf '\x09\xff\xff' | seed netfile patch-short-by-one
printf '\x01\x00\x11\x00\x00\x02\x00\x04' | seed netfile patch-hidden-1024
printf '\x01\x01\x10\x00\x00\x08\x7f\x7f\x7f\x7f\x80\x80\x80\x80' | seed netfile patch-dense-weights
printf '\x03\x02\x00\x10\x00\x04\xff\x7f\xff\x7f' | seed netfile patch-ft-weights

# --- fhr: two one-position collections (seeds 1 and 2), their concatenation, cuts and an empty segment.
harness=build/release/harness/stk-harness
[ -x "$harness" ] || { echo "make-corpus: $harness missing: build the release preset first" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -" >"$tmp/kiwipete.epd"
printf '%s\n' "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -" >"$tmp/endgame.epd"
for p in kiwipete endgame; do
  "$harness" fhcollect --positions "$tmp/$p.epd" --depth 3 --full-depth 2 --seed 1 --out "$tmp/$p.fhr" \
    --out-dir "$tmp/reports" >/dev/null 2>&1 || true  # the file is what we want, not the gates
  [ -s "$tmp/$p.fhr" ] || { echo "make-corpus: fhcollect wrote no $p.fhr" >&2; exit 2; }
done
head -c $((32 + 32 * 16)) "$tmp/endgame.fhr" | seed fhr endgame-cut-16
head -c -10 "$tmp/kiwipete.fhr" | seed fhr kiwipete-cut-mid-record
cat "$tmp/endgame.fhr" | seed fhr endgame
cat "$tmp/kiwipete.fhr" "$tmp/endgame.fhr" | head -c 8192 | seed fhr two-segments
{ head -c 24 "$tmp/endgame.fhr"; printf '\0\0\0\0\0\0\0\0'; } | seed fhr empty-segment
echo "make-corpus: $(find "$out" -type f | wc -l) seeds, $(du -sk "$out" | cut -f1) KB in $out"
