#!/usr/bin/env bash
# Proves the checks can fail: applies each planted defect in ci/mutants/MANIFEST to a scratch
# clone of the committed HEAD, builds it, and requires every check listed for it to FAIL.
# Prints the detection table (reports/mutants/<config>.{md,json}, JUnit mutants-<config>.xml; the
# format ci/mutation.sh shares). --merge A.json B.json: one report from several runs' JSON.
# Exit 1 if a check passes on its planted defect (a check that cannot fail is a defect), 2 on
# setup errors (a patch that does not apply or build).
# usage: ci/check-mutants.sh [--jobs J] [--shard K/N] [--timeout S] [--list] [--merge JSON...] [PATTERN]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export STK_SHARED="${STK_SHARED:-$(cd "$root/../shared" 2>/dev/null && pwd)}"
export STK_PYTHON="${STK_PYTHON:-$root/.venv/bin/python}"  # the project venv (ci/install-deps.sh)
"$root/ci/install-deps.sh" >/dev/null || exit 2
PYTHONPATH="$root/harness/python${PYTHONPATH:+:$PYTHONPATH}" exec "$STK_PYTHON" -m stkmutation.planted "$@"
