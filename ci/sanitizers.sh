#!/usr/bin/env bash
# The C++ tests under AddressSanitizer + UndefinedBehaviorSanitizer (preset asan: -O1 -g1, asserts
# kept), JUnit at reports/junit/ctest-asan-<scope>.xml.
#   engine  the engine library, its unit and property tests (stk-engine-tests) and the replay of the
#           engine's fuzz corpora, fen and uci (stk-engine-fuzz-tests): CTest label "engine", what
#           ci/test.sh runs on every commit (about a minute and a half on 2 cores),
#   all     every C++ test (stk-engine-tests, stk-tests and the CLI tests driving the asan-built
#           stk and stk-harness): the CI templates' `sanitizers` job, in parallel with the quick
#           tier, and before merging a change to harness C++ (about 14 minutes of build on 2 cores;
#           docs/build.md has the measurements).
# usage: ci/sanitizers.sh [engine|all]    Exit 0 all passed, 1 a test failed, 2 the build failed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export STK_SHARED="${STK_SHARED:-$(cd "$root/../shared" 2>/dev/null && pwd || echo "$root/../shared")}"
scope="${1:-engine}"
case "$scope" in
  engine) targets=(stk stk-engine-tests stk-engine-fuzz-tests); select=(-L engine) ;;
  all) targets=(stk-tests stk-engine-tests stk-engine-fuzz-tests); select=() ;;
  *) echo "ci/sanitizers.sh: scope must be engine or all, not '$scope'" >&2; exit 2 ;;
esac
STK_DEPS=debian ci/install-deps.sh >/dev/null || exit 2
werror="${STK_WERROR:-$([ "${CI:-}" = true ] && echo ON || echo OFF)}"
cmake --preset asan -DSTK_WERROR="$werror" >/dev/null || exit 2
cmake --build --preset asan -j "$(nproc)" --target "${targets[@]}" || exit 2
mkdir -p reports/junit
raw="$root/build/ctest-asan-$scope.raw.xml"
rm -f "$raw"
status=0
ctest --test-dir build/asan "${select[@]}" -j "$(nproc)" --output-on-failure --output-junit "$raw" \
  || status=1
# CTest's JUnit does not validate against the schema: the release build's ctest-junit rewrites it.
harness="$root/build/release/harness/stk-harness"
[ -x "$harness" ] || harness="$root/build/asan/harness/stk-harness"
if [ -x "$harness" ] && [ -f "$raw" ]; then
  "$harness" ctest-junit "$raw" "$root/reports/junit/ctest-asan-$scope.xml" --name "asan-$scope" || status=1
else
  echo "ci/sanitizers.sh: no stk-harness to convert $raw (build the release preset first)"
  status=1
fi
exit $status
