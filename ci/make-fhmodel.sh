#!/usr/bin/env bash
# Regenerates the built-in fail-high model (engine/src/search/fhmodel_default.txt) from scratch:
# fit positions from seeded self-play + ECM (stk-harness fhgen, seed 1; only the fit set is used,
# the held-out side of the position split never enters the fit), gate-1 records at depth 10 in two
# shards (stk-harness fhcollect), then the logistic fit (python -m stktrain.fhfit). Deterministic:
# the same engine gives a byte-identical model. About 3 minutes on 2 cores.
# usage: ci/make-fhmodel.sh [WORK_DIR]   (default build/fhmodel; then rebuild the engine)
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:-build/fhmodel}"
case "$work" in -*) work="./$work" ;; esac  # a folder, never an option of the tools it is given to
harness=build/release/harness/stk-harness
py=.venv/bin/python
[ -x "$harness" ] || ci/build.sh release
mkdir -p "$work"
"$harness" fhgen --games 400 --seed 1 --out-dir "$work/sets"
for s in 1 2; do
  "$harness" fhcollect --positions "$work/sets/fit.epd" --depth 10 --full-depth 9 --seed 1 --shard "$s/2" \
    --out "$work/fit-$s.fhr" --config "fhmodel-fit-$s" --out-dir "$work/reports" > "$work/collect-$s.log" &
done
wait
cat "$work"/collect-*.log
(cd "$work" && "$OLDPWD/$py" -m stktrain.fhfit --records fit-1.fhr fit-2.fhr --out model.txt --report-dir fit-report --seed 1)
cp "$work/model.txt" engine/src/search/fhmodel_default.txt
echo "engine/src/search/fhmodel_default.txt updated; fit report in $work/fit-report; rebuild the engine"
