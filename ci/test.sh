#!/usr/bin/env bash
# The test command (README, .ci/run). Cheapest checks that catch most first; one release build:
#   1. lint (ruff, mypy --strict, clang-format): seconds, no build,
#   2. the release build from nothing (-Werror under CI; a failed build ends the run, exit 2),
#   2b. every source of a unity batch compiled alone (-fsyntax-only, stkdev.standalone: a file
#      leaning on its batch neighbours' names or includes fails here, not in another build),
#   3. every C++ unit/property/CLI test (ctest, JUnit at reports/junit/ctest-release.xml),
#   4. the Python reference's pytest suite (JUnit at reports/junit/pytest.xml),
#   5. the quick tier of every harness (stk-harness all --tier quick, reports under reports/),
#      and the -nnue build (ci/nnue-build.sh: the trained net built in, its bench signature and
#      its UCI default checked),
#   6. the engine library and its unit and property tests under AddressSanitizer +
#      UndefinedBehaviorSanitizer (ci/sanitizers.sh engine; every C++ test under them is
#      ci/sanitizers.sh all, the CI templates' parallel sanitizers job: docs/build.md says why),
#   7. every report under reports/junit validated against the JUnit schema (ci/validate-reports.sh).
# A failure in 1-5 skips step 6 (what it adds is moot while they fail), saying so; STK_KEEP_GOING=1 runs it anyway, STK_SKIP_SANITIZERS=1 never. Exit status nonzero if any
# step fails.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export STK_SHARED="${STK_SHARED:-$(cd "$root/../shared" 2>/dev/null && pwd || echo "$root/../shared")}"
export STK_PYTHON="${STK_PYTHON:-$root/.venv/bin/python}"
mkdir -p reports/junit
status=0
t0=$SECONDS
step() { echo; echo "=== $* (at $((SECONDS - t0)) s)"; }

step "lint (ruff, ruff format, mypy --strict, clang-format)"
ci/install-deps.sh >/dev/null || exit 2
ci/lint.sh || status=1

step "build (release)"
ci/build.sh release || exit 2

# CTest's own --output-junit does not validate against the schema: ctest-junit rewrites it.
ctest_junit() {  # PRESET
  local raw="$root/build/ctest-$1.raw.xml"
  [ -f "$raw" ] || { echo "ctest wrote no JUnit report ($raw)"; return 2; }
  ./build/release/harness/stk-harness ctest-junit "$raw" "$root/reports/junit/ctest-$1.xml" --name "$1"
}

step "every source of a unity batch compiles alone (stkdev.standalone)"
(cd harness/python && "$STK_PYTHON" -m stkdev.standalone --build "$root/build/release" \
  --junit "$root/reports/junit/standalone.xml") || status=1

step "ctest (release)"
rm -f build/ctest-*.raw.xml
ctest --preset release -j "$(nproc)" --output-junit "$root/build/ctest-release.raw.xml" || status=1
ctest_junit release || status=1

if [ -d harness/python/tests ]; then
  step "pytest (stkref)"
  # The real-engine tests (parity, loader agreement) run against this build.
  # STK_REQUIRE_CHROMIUM: the review page's browser test fails instead of skipping without chromium.
  STK_ENGINE="$root/build/release/engine/stk" STK_HARNESS="$root/build/release/harness/stk-harness" \
  STK_REQUIRE_CHROMIUM=1 "$STK_PYTHON" -m pytest harness/python/tests -q --junitxml="$root/reports/junit/pytest.xml"
  rc=$?
  # pytest exit 5 means no test ran: that is a failure here, not a pass.
  [ $rc -eq 0 ] || { echo "pytest exit $rc"; status=1; }
fi

step "harnesses, quick tier"
./build/release/harness/stk-harness all --tier quick || status=1

step "the -nnue build (ci/nnue-build.sh)"
ci/nnue-build.sh || status=1

if [ "${STK_SKIP_SANITIZERS:-0}" = 1 ]; then
  step "engine tests under ASan/UBSan: skipped (STK_SKIP_SANITIZERS=1)"
elif [ $status -ne 0 ] && [ "${STK_KEEP_GOING:-0}" != 1 ]; then
  step "engine tests under ASan/UBSan: skipped, an earlier step failed (STK_KEEP_GOING=1 runs it)"
else
  # Every C++ test under the sanitizers is ci/sanitizers.sh all (the CI templates' sanitizers job).
  step "engine tests under ASan/UBSan (ci/sanitizers.sh engine)"
  ci/sanitizers.sh engine || status=1
fi

step "every report validates against the JUnit schema"
ci/validate-reports.sh reports/junit || status=1

echo
echo "ci/test.sh: $((SECONDS - t0)) s"
[ $status -eq 0 ] && echo "ci/test.sh: all passed" || echo "ci/test.sh: FAILED"
exit $status
