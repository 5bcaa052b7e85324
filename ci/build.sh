#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds a preset (default: release).
# usage: ci/build.sh [release|debug|portable]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
preset="${1:-release}"
"$root/ci/install-deps.sh"
cd "$root"
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
