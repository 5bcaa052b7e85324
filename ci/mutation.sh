#!/usr/bin/env bash
# Tool-generated mutation testing of the project's own code (docs/mutation.md): mutants of
# engine/src, harness/src (universalmutator) and stkref (cosmic-ray), each compiled alone in a
# scratch clone of HEAD and run against the tests that execute its line
# (ci/mutation-coverage.json). Writes reports/mutation/<config>.{json,md} and
# reports/junit/mutation-<config>.xml; prints mutants/hour.
# Exit 0 (survivors do not fail unless --fail-under), 1 score under --fail-under, 2 setup errors.
# usage: ci/mutation.sh [--files GLOB]... [--sample N --seed S] [--shard K/N] [--jobs J]
#                       [--diff BASE] [--config NAME] [--out-dir DIR] [--fail-under PCT] [--list]
#        ci/mutation.sh --refresh-coverage | --rerun REPORT.json
#        ci/mutation.sh campaign --report A.json [--report B.json]... [--doc PAGE.md]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export STK_SHARED="${STK_SHARED:-$(cd "$root/../shared" 2>/dev/null && pwd)}"
export STK_PYTHON="${STK_PYTHON:-$root/.venv/bin/python}"  # the project venv (ci/install-deps.sh)
"$root/ci/install-deps.sh" >/dev/null || exit 2
PYTHONPATH="$root/harness/python${PYTHONPATH:+:$PYTHONPATH}" exec "$STK_PYTHON" -m stkmutation "$@"
