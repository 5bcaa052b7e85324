#!/usr/bin/env bash
# Every JUnit report under DIR (default reports/junit) must validate against the JUnit schema
# ($STK_SHARED/schemas/junit.xsd, docs/reports.md), and each digest it records must be the SHA-256
# of the file it names (python -m stkdev.report_digests). Exit 0 all valid, 1 one or more invalid
# (each named), 2 no reports or no schema.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-$root/reports/junit}"
xsd="${STK_SHARED:-$root/../shared}/schemas/junit.xsd"
[ -f "$xsd" ] || { echo "validate-reports: schema not found: $xsd (set STK_SHARED)"; exit 2; }
shopt -s nullglob
files=("$dir"/*.xml)
((${#files[@]})) || { echo "validate-reports: no reports in $dir"; exit 2; }
bad=0
for f in "${files[@]}"; do
  xmllint --noout --schema "$xsd" "$f" 2>/dev/null || { echo "validate-reports: INVALID $f"; xmllint --noout --schema "$xsd" "$f" 2>&1 | head -5; bad=$((bad + 1)); }
done
echo "validate-reports: ${#files[@]} reports, $bad invalid"
# Every digest a report records is the file's it names (stkdev.report_digests).
py="${STK_PYTHON:-$root/.venv/bin/python}"
[ -x "$py" ] || py=python3
PYTHONPATH="$root/harness/python${PYTHONPATH:+:$PYTHONPATH}" "$py" -m stkdev.report_digests "$dir" || bad=$((bad + 1))
[ $bad -eq 0 ]
