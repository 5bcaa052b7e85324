#!/usr/bin/env bash
# The main job (README): builds from nothing and runs every harness on its embedded defaults,
# writing reports/ (JUnit under reports/junit/, summaries under reports/<harness>/).
# usage: ci/main.sh [quick|full]     (default quick; full is the pre-merge tier)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export STK_SHARED="${STK_SHARED:-$(cd "$root/../shared" 2>/dev/null && pwd || echo "$root/../shared")}"
export STK_PYTHON="${STK_PYTHON:-$root/.venv/bin/python}"
ci/build.sh release
status=0
./build/release/harness/stk-harness all --tier "${1:-quick}" || status=$?
# reports/measurements.md: the headline figures of this run. The committed docs/measurements.md
# changes only when someone publishes a run (ci/make-measurements.py): a run leaves git status clean.
"$STK_PYTHON" ci/make-measurements.py --out reports/measurements.md || status=2
exit $status
