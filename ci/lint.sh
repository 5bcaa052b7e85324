#!/usr/bin/env bash
# Static checks, no build needed (ci/install-deps.sh installs the tools):
#   1. ruff check on the Python reference (harness/python/stkref; rules in its pyproject.toml),
#   2. ruff format --check on stkref and its tests (and both ruff checks on stkmutation, stkdev and
#      the Python scripts of ci/),
#   3. no import circle among the Python packages (stkdev.import_cycles), mypy --strict on stkref,
#   4. clang-format --dry-run -Werror on the C++ sources (engine/src, engine/tests, harness/src,
#      harness/tests, harness/fuzz), when the repository has a .clang-format and clang-format is
#      installed ($STK_CLANG_FORMAT names another binary); skipped with a note otherwise.
#   5. docs/models.md equal to what ci/make-models-index.py makes of the MODEL blocks.
# Uses $STK_PYTHON, else the repository's .venv. Prints each file with findings; exit 1 on any
# finding, 2 when a required tool (ruff, mypy) is missing.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
py="${STK_PYTHON:-$root/.venv/bin/python}"
pydir="$root/harness/python"
cache="$root/build/lint-cache"
status=0
step() { echo; echo "=== $*"; }

for tool in ruff mypy; do
  if ! "$py" -m "$tool" --version >/dev/null 2>&1; then
    echo "ci/lint: $tool is not installed for $py (run ci/install-deps.sh)" >&2
    exit 2
  fi
done
mkdir -p "$cache"

step "ruff check (stkref)"
(cd "$pydir" && "$py" -m ruff check --cache-dir "$cache/ruff" --output-format concise stkref stktrain) \
  || status=1

step "ruff format --check (stkref, tests)"
# Lists each file that would be reformatted; `ruff format stkref tests` in harness/python fixes them.
(cd "$pydir" && "$py" -m ruff format --cache-dir "$cache/ruff" --check stkref stktrain tests) || status=1

ci_py=("$root/ci/record-trained-net.py" "$root/ci/net_strength_report.py")
step "ruff check + format --check (stkmutation, stkdev and the Python scripts of ci/, with stkref's configuration)"
(cd "$pydir" && "$py" -m ruff check --cache-dir "$cache/ruff" --output-format concise stkmutation stkdev stkdist) \
  || status=1
(cd "$pydir" && "$py" -m ruff format --cache-dir "$cache/ruff" --check stkmutation stkdev stkdist) || status=1
"$py" -m ruff check --cache-dir "$cache/ruff" --config "$pydir/pyproject.toml" \
  --output-format concise "${ci_py[@]}" || status=1
"$py" -m ruff format --cache-dir "$cache/ruff" --config "$pydir/pyproject.toml" --check \
  "${ci_py[@]}" || status=1

step "import circles and layers (stkref, stktrain, stkmutation, stkdev, stkdist)"
(cd "$pydir" && "$py" -m stkdev.import_cycles) || status=1

step "mypy --strict (stkref, stktrain, stkdist)"
(cd "$pydir" && "$py" -m mypy --strict --cache-dir "$cache/mypy" stkref stktrain stkdist) || status=1

step "clang-format (C++ sources)"
clang_format="${STK_CLANG_FORMAT:-clang-format}"
if [ ! -f "$root/.clang-format" ]; then
  echo "skipped: no .clang-format at the repository root"
elif ! command -v "$clang_format" >/dev/null 2>&1; then
  echo "skipped: $clang_format is not installed (Debian package clang-format; ci/install-deps.sh)"
else
  "$clang_format" --version
  dirs=()
  for d in engine/src engine/tests harness/src harness/tests harness/fuzz; do
    [ -d "$d" ] && dirs+=("$d")
  done
  mapfile -t files < <(find "${dirs[@]}" -type f \
    \( -name '*.cpp' -o -name '*.cc' -o -name '*.h' -o -name '*.hpp' \) | LC_ALL=C sort)
  bad=0
  for f in "${files[@]}"; do
    # --dry-run -Werror: one "error:" line per place that would change, exit nonzero if any.
    out=$("$clang_format" --style=file --dry-run -Werror "$f" 2>&1)
    rc=$?
    n=$(grep -c ': error:' <<<"$out")
    if [ "$n" -gt 0 ]; then
      echo "$f: $n clang-format findings"
      bad=$((bad + 1))
    elif [ "$rc" -ne 0 ]; then
      echo "$f: clang-format exit $rc: $(head -n 3 <<<"$out")"
      bad=$((bad + 1))
    fi
  done
  if [ "$bad" -gt 0 ]; then
    echo "$bad of ${#files[@]} C++ files need formatting (clang-format --style=file -i FILE...)"
    status=1
  else
    echo "${#files[@]} C++ files formatted"
  fi
fi

# The index's links carry line numbers: a reformat after the index was made moves them (the
# fresh-clone CI at 0dcc1a7 failed on it; test_models_index.py is the same check, minutes later).
step "the models index (docs/models.md) is what the tests' MODEL blocks give"
"$py" ci/make-models-index.py --check || status=1

echo
[ $status -eq 0 ] && echo "ci/lint.sh: all passed" || echo "ci/lint.sh: FAILED"
exit $status
