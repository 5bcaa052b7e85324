#!/usr/bin/env bash
# Proves the checks can fail: applies each planted defect in ci/mutants/MANIFEST to a scratch
# copy of the committed tree, builds it, and requires its check to FAIL. Exit 1 if any check
# passes on its defect (a check that cannot fail is a defect), 2 on setup errors.
# usage: ci/check-mutants.sh [PATTERN]   (only patches whose name contains PATTERN)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export STK_SHARED="${STK_SHARED:-$(cd "$root/../shared" 2>/dev/null && pwd)}"
export STK_PYTHON="${STK_PYTHON:-$root/.venv/bin/python}"  # the project venv (ci/install-deps.sh)
pattern="${1:-}"
work="$(mktemp -d "${TMPDIR:-/tmp}/stk-mutants.XXXXXX")"  # TMPDIR under ccache's base_dir reuses objects
trap 'rm -rf "$work"' EXIT
status=0
declare -A built
while IFS='|' read -r patch check; do
  [[ "$patch" =~ ^[[:space:]]*(#|$) ]] && continue
  patch="${patch//[[:space:]]/}"; check="${check#"${check%%[![:space:]]*}"}"
  [[ -n "$pattern" && "$patch" != *"$pattern"* ]] && continue
  tree="$work/${patch%.patch}"
  if [[ -z "${built[$patch]:-}" ]]; then
    mkdir -p "$tree"
    git -C "$root" archive HEAD | tar -x -C "$tree" || exit 2
    if ! patch -s -p1 -d "$tree" < "$root/ci/mutants/$patch"; then
      echo "check-mutants: $patch does not apply to HEAD"; exit 2
    fi
    echo "check-mutants: building with $patch"
    (cd "$tree" && cmake --preset release >/dev/null && cmake --build --preset release >/dev/null) \
      || { echo "check-mutants: build failed with $patch"; exit 2; }
    built[$patch]=1
  fi
  if (cd "$tree" && eval "$check" >"$tree/last.log" 2>&1); then
    echo "FAIL  $patch: the check PASSED on the planted defect: $check"
    status=1
  else
    echo "ok    $patch: caught by: $check"
  fi
done < "$root/ci/mutants/MANIFEST"
exit $status
