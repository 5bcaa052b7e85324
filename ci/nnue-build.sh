#!/usr/bin/env bash
# The -nnue build (engine/src/nnue/embedded_net.h): the engine alone with golden/nets/trained's net
# compiled in as its default evaluation (CMake preset "nnue", -DSTK_EMBED_NET). Builds it and checks
#   1. its bench signature (`stk bench 13`, the built-in net's) against golden/bench-nnue.txt;
#   2. that UCI play uses the built-in net from the start: `go depth D` from the start position
#      gives the node count of the default build told `setoption name EvalFile value <the net>`;
#   3. that EvalFile still overrides it: after `setoption name EvalFile value <empty>` the count is
#      the default build's classical one.
# usage: ci/nnue-build.sh [--update]   (--update re-records golden/bench-nnue.txt)
# Needs build/release/engine/stk (ci/build.sh release) for 2 and 3. Writes
# reports/junit/nnue-build.xml (one testcase per check; a build or setup that failed before the
# checks is an <error> testcase), also when it exits early.
set -euo pipefail
cd "$(dirname "$0")/.."
update=0
case "${1:-}" in --update) update=1 ;; "") ;; *) echo "usage: ci/nnue-build.sh [--update]" >&2; exit 2 ;; esac
net=golden/nets/trained/stk-h128-trained.nnue golden=golden/bench-nnue.txt
nnue=build/nnue/engine/stk release=build/release/engine/stk depth=9
results=build/nnue-build-checks.tsv junit=reports/junit/nnue-build.xml
mkdir -p build reports/junit && : > "$results"
# One line per check (stkdev.checks_junit): pass|fail|error, name, message.
record() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$results"; }
write_junit() {
  local rc=$?
  [ -s "$results" ] || record error "the -nnue build and its bench" "ci/nnue-build.sh ended (exit $rc) before any check ran"
  PYTHONPATH=harness/python "${STK_PYTHON:-python3}" -m stkdev.checks_junit --suite nnue-build.checks \
    --out "$junit" "$results" || rc=2
  exit "$rc"
}
trap write_junit EXIT
[ -x "$release" ] || ci/build.sh release
cmake --preset nnue >/dev/null
cmake --build --preset nnue -j "$(nproc)"
fail=0
say() { echo "nnue-build: $*"; }

nodes=$("$nnue" bench 13 2>/dev/null | awk '/^Nodes searched/ {print $4}')
[ -n "$nodes" ] || { say "stk bench printed no node count"; record error "bench signature" "stk bench 13 printed no node count"; exit 2; }
if [ "$update" = 1 ]; then
  printf '# stk bench signature of the -nnue build (ci/nnue-build.sh): `stk bench 13` with\n# %s built in (sha256 %s)\ndepth 13\nnodes %s\n' \
    "$net" "$(sha256sum "$net" | cut -d' ' -f1)" "$nodes" > "$golden.tmp" && mv "$golden.tmp" "$golden"
  say "recorded $golden: nodes $nodes"
fi
want=$(awk '$1 == "nodes" {print $2}' "$golden")
recorded_sha=$(sed -n 's/.*(sha256 \([0-9a-f]*\)).*/\1/p' "$golden")
if [ "$recorded_sha" != "$(sha256sum "$net" | cut -d' ' -f1)" ]; then
  say "FAIL: $golden was recorded for another net (sha256 $recorded_sha): ci/nnue-build.sh --update"; fail=1
  record fail "bench signature" "$golden was recorded for another net (sha256 $recorded_sha)"
elif [ "$nodes" != "$want" ]; then
  say "FAIL: bench signature $nodes, golden $want ($golden)"; fail=1
  record fail "bench signature" "stk bench 13 searched $nodes nodes, golden $want ($golden)"
else
  say "bench signature $nodes = golden"
  record pass "bench signature" "stk bench 13 searched $nodes nodes = golden ($golden)"
fi

# The node count of `go depth $depth` from the start position after the given setoption lines.
search_nodes() {
  local engine=$1; shift
  { echo uci; for o in "$@"; do echo "setoption name EvalFile value $o"; done
    echo isready; echo "position startpos"; echo "go depth $depth"; sleep 2; echo quit; } |
    "$engine" | awk -v d="$depth" '$1 == "info" && $2 == "depth" && $3 == d { for (i = 1; i < NF; ++i) if ($i == "nodes") n = $(i + 1) } END { print n }'
}
play=$(search_nodes "$nnue") with_file=$(search_nodes "$release" "$net")
if [ -n "$play" ] && [ "$play" = "$with_file" ]; then
  say "UCI play uses the built-in net: go depth $depth searched $play nodes, as the default build with EvalFile $net"
  record pass "UCI play uses the built-in net" "go depth $depth: $play nodes, the default build with EvalFile $net $with_file"
else
  say "FAIL: UCI play of the -nnue build searched '$play' nodes, the default build with EvalFile $net '$with_file'"; fail=1
  record fail "UCI play uses the built-in net" "go depth $depth: '$play' nodes, the default build with EvalFile $net '$with_file'"
fi
classical=$(search_nodes "$nnue" "<empty>") default=$(search_nodes "$release")
if [ -n "$classical" ] && [ "$classical" = "$default" ] && [ "$classical" != "$play" ]; then
  say "EvalFile <empty> overrides it: $classical nodes, the default build's classical count"
  record pass "EvalFile <empty> overrides the built-in net" "go depth $depth: $classical nodes, the default build's classical $default"
else
  say "FAIL: after EvalFile <empty> the -nnue build searched '$classical' nodes, the default build '$default' (net: '$play')"; fail=1
  record fail "EvalFile <empty> overrides the built-in net" "go depth $depth: '$classical' nodes, the default build's classical '$default' (net: '$play')"
fi
[ "$fail" = 0 ] && say "passed" || { say "FAILED"; exit 1; }
