# Usage: python3 THIS MAP.json (ci/mutation-coverage.json of some commit: git show C:ci/mutation-coverage.json)
"""Per covered line of a coverage map: how many pytest single tests (pytest-test), pytest files
and CTest tests cover it, mean over lines; and the same weighted over lines some single test ran."""
import json, sys, statistics
d = json.load(open(sys.argv[1]))
tests = d['tests']; sets = d['sets']
kind = [b for _, b in tests]
node = [i for i, b in enumerate(kind) if b == 'pytest-test']
print(sys.argv[1], d['commit'][:10], 'tests', len(tests), 'single pytest tests', len(node))
per_line_nodes, per_line_ctest = [], []
for f, lines in d['files'].items():
    for ln, si in lines.items():
        s = sets[si]
        n = sum(1 for i in s if kind[i] == 'pytest-test')
        c = sum(1 for i in s if kind[i] not in ('pytest', 'pytest-test'))
        if n: per_line_nodes.append(n)
        per_line_ctest.append(c)
print('lines', len(per_line_ctest), 'lines with single tests', len(per_line_nodes),
      'single tests per such line: mean %.1f median %s' % (statistics.mean(per_line_nodes), statistics.median(per_line_nodes)),
      'CTest per line mean %.1f' % statistics.mean(per_line_ctest))
