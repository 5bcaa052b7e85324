#!/usr/bin/env bash
# Builds a preset from nothing and prints where the time went (harness/python/stkdev/build_profile.py).
# usage: ci/build-profile.sh [--preset P] [--touch FILE]... [--doc docs/build-profile.md]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHONPATH="$root/harness/python${PYTHONPATH:+:$PYTHONPATH}" exec python3 -m stkdev.build_profile "$@"
