"""Independent model of `stk-harness checknet`'s report (docs/harnesses/checknet.md "Report"):
where the report and summaries go, the suite's name and properties, each testcase's classname,
name, outcome and facts, and the JSON figures, for generated report paths, names and expected
digests (none, equal in either case, one digit off, from a manifest), with digests from hashlib
and an FNV-1a 64 written from its published definition."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[3]
HARNESS = Path(os.environ.get("STK_HARNESS") or ROOT / "build/release/harness/stk-harness")
NET = ROOT / "golden/nets/stk-h128-seed1.nnue"

pytestmark = pytest.mark.skipif(not HARNESS.exists(), reason="stk-harness not built")


@functools.cache
def digests() -> tuple[str, str, int]:
    data = NET.read_bytes()
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return hashlib.sha256(data).hexdigest(), f"{h:016x}", len(data)


def off_by_one(digest: str) -> str:
    return digest[:-1] + ("1" if digest[-1] == "0" else "0")


# MODEL checknet-report
# checks: harness/src/commands/checknet/checknet_command.cpp  (the report's paths, suite, testcases, facts and figures)
# contract: docs/harnesses/checknet.md#report
# planted: ci/mutants/model-checknet-report.patch  (the digest testcase pushed without its classname)
@settings(max_examples=20, deadline=None)
@given(
    tier_layout=st.booleans(),
    stem=st.sampled_from(["m", "a-b", "x1"]),
    config=st.sampled_from([None, "given", "c-2"]),
    expect=st.sampled_from(["none", "equal", "upper", "off", "manifest", "manifest-off"]),
)
def test_the_report_of_generated_runs(
    tmp_path_factory, tier_layout: bool, stem: str, config: str | None, expect: str
) -> None:
    sha, fnv, size = digests()
    d = tmp_path_factory.mktemp("cn")
    junit = d / "junit" / f"checknet-{stem}.xml" if tier_layout else d / "out" / f"{stem}.xml"
    junit.parent.mkdir(parents=True, exist_ok=True)
    args = [str(HARNESS), "checknet", str(NET), "--junit", str(junit)]
    if config:
        args += ["--config", config]
    expected = {"none": None, "equal": sha, "upper": sha.upper(), "off": off_by_one(sha)}.get(
        expect
    )
    if expected:
        args += ["--sha256", expected]
    if expect.startswith("manifest"):
        expected = sha if expect == "manifest" else off_by_one(sha)
        manifest = d / "manifest.json"
        manifest.write_text(json.dumps({"net": NET.name, "net_sha256": expected}))
        args += ["--manifest", str(manifest)]
    r = subprocess.run(args, capture_output=True, text=True, timeout=120)
    differs = expected is not None and expected.lower() != sha
    assert r.returncode == (1 if differs else 0), r.stdout + r.stderr
    assert ("SHA-256 differs" in r.stderr) is differs  # said on stderr only when it differs

    # The name and where the summaries go.
    name = config or (stem if tier_layout else "default")
    summary = d / "checknet" / name if tier_layout else junit.with_suffix("")
    j = json.loads(summary.with_suffix(".json").read_text())
    assert summary.with_suffix(".md").exists()
    assert j["report"]["harness"] == "checknet" and j["report"]["config"] == name
    assert j["report"]["passed"] is (not differs)

    # The suite, its properties and its testcases.
    root = ET.parse(junit).getroot()
    (suite,) = root.findall("testsuite")
    assert suite.get("name") == f"checknet.{name}"
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["fnv1a64"] == fnv and props["sha256"] == sha
    assert props["input.FILE"] == str(NET) and props["input.junit"] == str(junit)
    assert ("input.config" in props) is bool(config)
    assert "git_revision" in props and "build_type" in props
    cases = suite.findall("testcase")
    keys = [(c.get("classname"), c.get("name")) for c in cases]
    assert keys == [("checknet.file", str(NET))] + (
        [("checknet.sha256", str(NET))] if expected else []
    )
    file_case = cases[0]
    assert file_case.find("failure") is None and file_case.find("error") is None
    assert float(suite.get("time")) == float(file_case.get("time"))
    if expected:
        dc = cases[1]
        failure = dc.find("failure")
        assert (failure is not None) is differs
        if differs:
            assert failure.get("message") == "SHA-256 differs"
            assert expected.lower() in failure.text and sha in failure.text
        out = dc.find("system-out").text
        assert f"expected: {expected.lower()}\n" in out and f"actual: {sha}\n" in out

    # The figures.
    assert (j["file"], j["size"], j["hidden"]) == (str(NET), size, 128)
    assert (j["fnv1a64"], j["sha256"]) == (fnv, sha)
    assert j["expected_sha256"] == (expected.lower() if expected else None)
    assert j["digest_matches"] == (None if expected is None else not differs)
