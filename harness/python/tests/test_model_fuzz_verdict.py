"""ci/fuzz.py's verdict per target and in all (docs/fuzzing.md "Verdict"), against a model written
from that contract, on generated runs of fake fuzz targets: a missing binary, a clean run, a crash
with its artifact, and a nonzero exit without one. Each fake is a script libFuzzer's command line
reaches; it writes the log lines libFuzzer writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stkdev import fuzz_runner

ROOT = Path(__file__).resolve().parents[3]
BEHAVIOURS = ("missing", "clean", "crash", "exit")

FAKE = r"""#!{python}
import sys
from pathlib import Path
behaviour = {behaviour!r}
prefix = next(a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("-artifact_prefix="))
print("INFO: Seed: 1")
print("#2\tINITED cov: 17 ft: 20 corp: 3/90b exec/s: 0")
print("#40\tNEW    cov: 23 ft: 30 corp: 5/150b exec/s: 0")
if behaviour == "crash":
    Path(prefix + "crash-5eed").write_bytes(b"\x00crash input\xff")
    print("==77==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x1")
    print("SUMMARY: AddressSanitizer: heap-buffer-overflow x.cpp:3")
    print("Test unit written to " + prefix + "crash-5eed")
    sys.exit(1)
print("Done 900 runs in 1 second(s)")
print("stat::number_of_executed_units: 901")
sys.exit(77 if behaviour == "exit" else 0)
"""


def make_targets(bin_dir: Path, plan: dict[str, str]) -> None:
    bin_dir.mkdir(parents=True, exist_ok=True)
    for target, behaviour in plan.items():
        if behaviour == "missing":
            continue
        path = bin_dir / f"fuzz_{target}"
        path.write_text(FAKE.format(python=sys.executable, behaviour=behaviour))
        path.chmod(0o755)


def expected(plan: dict[str, str]) -> tuple[int, dict[str, tuple[str, str]]]:
    """The documented verdict: per target (outcome, message); the exit status."""
    cases = {}
    for target, b in plan.items():
        if b == "missing":
            cases[target] = ("error", "missing: build the fuzz preset")
        elif b == "crash":
            cases[target] = (
                "failure",
                "crash: AddressSanitizer: heap-buffer-overflow on address 0x1",
            )
        elif b == "exit":
            cases[target] = ("failure", "crash: libFuzzer exit 77")
        else:
            cases[target] = ("passed", "")
    outcomes = {o for o, _ in cases.values()}
    return (2 if "error" in outcomes else 1 if "failure" in outcomes else 0), cases


# MODEL fuzz-verdict
# checks: harness/python/stkdev/fuzz_runner.py  (each target's outcome, its crash copy, the exit status)
# contract: docs/fuzzing.md#verdict
# planted: ci/mutants/model-fuzz-verdict.patch  (a nonzero exit without an artifact passes)
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.dictionaries(
        st.sampled_from(fuzz_runner.TARGETS), st.sampled_from(BEHAVIOURS), min_size=1, max_size=3
    )
)
def test_model_fuzz_verdict(tmp_path_factory, plan: dict[str, str]) -> None:
    d = tmp_path_factory.mktemp("fuzz")
    make_targets(d / "bin", plan)
    targets = [t for t in fuzz_runner.TARGETS if t in plan]
    argv = [sys.executable, "-m", "stkdev.fuzz_runner", "1", "--targets", ",".join(targets)]
    argv += ["--bin-dir", str(d / "bin"), "--work-dir", str(d / "work"), "--no-ecm"]
    argv += ["--regressions", str(d / "regressions"), "--out-dir", str(d / "out")]
    env = dict(os.environ, PYTHONPATH=str(ROOT / "harness" / "python"))
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=env)
    status, cases = expected(plan)
    assert done.returncode == status, done.stdout + done.stderr

    suite = ET.parse(d / "out" / "junit" / "fuzz-1s.xml").getroot().find("testsuite")
    got = {}
    for case in suite.findall("testcase"):
        bad = case.find("error") if case.find("error") is not None else case.find("failure")
        outcome = "passed" if bad is None else bad.tag
        got[case.get("name")] = (outcome, case, bad)
    assert sorted(got) == sorted(plan)
    for target, (outcome, message) in cases.items():
        o, case, bad = got[target]
        assert o == outcome, (target, o)
        if outcome == "passed":
            assert "executions 901\n" in case.findtext("system-out")
            continue
        assert message in bad.get("message"), (target, bad.get("message"))
        copy = d / "regressions" / target / "crash-5eed"
        if plan[target] == "crash":
            assert copy.read_bytes() == b"\x00crash input\xff"
            detail = bad.text or ""
            assert f"regression copy: {copy}" in detail
            assert f"reproduce: {d / 'bin' / f'fuzz_{target}'} " in detail
        else:
            assert not copy.exists()

    doc = json.loads((d / "out" / "fuzz" / "fuzz-1s.json").read_text())
    assert [t["target"] for t in doc["targets"]] == targets
    md = (d / "out" / "fuzz" / "fuzz-1s.md").read_text()
    failed = sum(o == "failure" for o, _ in cases.values())
    assert f" {failed} target(s) failed;" in md
