"""stktrain.json_report, the reader behind the strength page and the sweep table, against a model
of its contract (docs/faults.md "Python tools"): on generated JSON documents, every present field
reads as the JSON holds it, and every absent one is an InputError naming the file and the field's
whole path from the top, list positions included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stkref.errors import InputError
from stktrain import json_report

KEYS = st.sampled_from(["a", "b", "net", "summary", "wdl", "0", "x y"])
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text("ab", max_size=3))
DOCS = st.recursive(
    LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(KEYS, inner, max_size=4),
        # Objects inside lists (a report's runs, a match's games): their paths hold positions.
        st.lists(st.dictionaries(KEYS, inner, max_size=3), min_size=1, max_size=3),
    ),
    max_leaves=12,
).filter(lambda d: isinstance(d, dict))


def every_step(doc: Any, trail: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """Every path into the document (keys and list positions), and one absent key under each
    object."""
    found = [trail]
    if isinstance(doc, dict):
        found.append((*trail, "missing"))
        for k, v in doc.items():
            found += every_step(v, (*trail, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            found += every_step(v, (*trail, i))
    return found


def expected(doc: Any, steps: tuple[str | int, ...], path: Path) -> tuple[bool, Any]:
    """The contract: (True, the value) for a present path; (False, the message) for the first
    absent key, named with every step before it."""
    value = doc
    for n, step in enumerate(steps):
        if isinstance(value, dict) and step not in value:
            return False, f"{path}: no field '{'/'.join(map(str, steps[: n + 1]))}'"
        value = value[step]
    return True, value


# MODEL json-report-fields
# checks: harness/python/stktrain/json_report.py  (a report's fields: present ones as the JSON holds them, absent ones named by their whole path)
# contract: docs/faults.md#python-tools-python--m-stkref-stktrain-stkmutation-stkdev
# planted: ci/mutants/model-json-report-fields.patch  (a nested object's missing field named without its parents)
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(doc=DOCS)
def test_model_a_reports_fields_read_as_the_contract_says(doc: dict[str, Any], tmp_path: Path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(doc))
    report = json_report.load(path)
    for steps in every_step(doc):
        present, want = expected(doc, steps, path)
        value: Any = report
        try:
            for step in steps:
                value = value[step]
        except InputError as e:
            assert not present and str(e) == want, steps
            continue
        assert present and value == want, steps


def test_a_file_that_is_not_a_json_object_is_named(tmp_path: Path):
    bad, arr = tmp_path / "bad.json", tmp_path / "arr.json"
    bad.write_text("{")
    arr.write_text("[1]")
    with pytest.raises(InputError, match=r"bad\.json: cannot be read as a report \("):
        json_report.load(bad)
    with pytest.raises(InputError, match=r"arr\.json: not a JSON object"):
        json_report.load(arr)
    with pytest.raises(InputError, match=r"none\.json: cannot be read as a report \("):
        json_report.load(tmp_path / "none.json")
