#!/usr/bin/env bash
# Regenerates golden/perft.epd from a FEN list using a reference UCI engine's "go perft"
# (Debian's stockfish by default). Depths run while the count stays under a node cap.
# usage: ci/make-golden-perft.sh FEN_LIST [REFERENCE_ENGINE] > golden/perft.epd
set -euo pipefail
list="$1"; ref="${2:-/usr/games/stockfish}"; cap="${PERFT_GOLDEN_CAP:-400000000}"
echo "# Perft counts cross-checked against $("$ref" <<<"quit" | head -1 | awk "{print \$1, \$2}"); made by ci/make-golden-perft.sh"
while IFS= read -r fen; do
  [ -n "$fen" ] || continue
  line="$fen"
  for d in 1 2 3 4 5 6; do
    n=$(printf 'position fen %s\ngo perft %d\nquit\n' "$fen" "$d" | "$ref" | awk '/^Nodes searched/{print $3}')
    [ -n "$n" ] || { echo "reference gave no count for $fen d$d" >&2; exit 2; }
    line="$line ;D$d $n"
    [ "$n" -lt "$cap" ] || break
    [ "$d" -lt 5 ] || [ "$n" -lt $((cap / 40)) ] || break
  done
  echo "$line"
done < "$list"
