#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds a preset (default: release).
# usage: ci/build.sh [release|debug|portable]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset="${1:-release}"
case "$preset" in -*|"") echo "ci/build.sh: '$preset' is not a preset name" >&2; exit 2 ;; esac
"$root/ci/install-deps.sh"
cd "$root"
# CI (CI=true) builds with -Werror: a warning fails there; STK_WERROR=ON|OFF overrides.
werror="${STK_WERROR:-$([ "${CI:-}" = true ] && echo ON || echo OFF)}"
cmake --preset "$preset" -DSTK_WERROR="$werror" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
