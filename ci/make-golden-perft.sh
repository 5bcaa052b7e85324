#!/usr/bin/env bash
# Regenerates golden/perft.epd from a FEN list using a reference UCI engine's "go perft"
# (Debian's stockfish by default). Depths run while the count stays under a node cap.
# usage: ci/make-golden-perft.sh FEN_LIST [REFERENCE_ENGINE] > golden/perft.epd
# Comment lines ('# ...') of the list are copied through. PERFT_GOLDEN_MAX_DEPTH (default 6) is
# the deepest depth; PERFT_GOLDEN_MAX_NODES (default: none) leaves out any count above it.
set -euo pipefail
list="$1"; ref="${2:-/usr/games/stockfish}"; cap="${PERFT_GOLDEN_CAP:-400000000}"
max_depth="${PERFT_GOLDEN_MAX_DEPTH:-6}"; max_nodes="${PERFT_GOLDEN_MAX_NODES:-0}"
echo "# Perft counts cross-checked against $("$ref" <<<"quit" | head -1 | awk "{print \$1, \$2}"); made by ci/make-golden-perft.sh"
while IFS= read -r fen; do
  [ -n "$fen" ] || continue
  [[ "$fen" != \#* ]] || { echo "$fen"; continue; }
  line="$fen"
  for ((d = 1; d <= max_depth; d++)); do
    n=$(printf 'position fen %s\ngo perft %d\nquit\n' "$fen" "$d" | "$ref" | awk '/^Nodes searched/{print $3}')
    [ -n "$n" ] || { echo "reference gave no count for $fen d$d" >&2; exit 2; }
    [ "$max_nodes" -eq 0 ] || [ "$n" -le "$max_nodes" ] || break
    line="$line ;D$d $n"
    [ "$n" -lt "$cap" ] || break
    [ "$d" -lt 5 ] || [ "$n" -lt $((cap / 40)) ] || break
  done
  echo "$line"
done < "$list"
