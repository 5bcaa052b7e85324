"""Independent models of the tool contract (docs/faults.md "Python tools", docs/reports.md
"Exit status"): stkref.cli's exit status for every way a tool can end, stkref.errors' mapping to
exit 2, and stkref.checknet's verdicts (SPEC-NNUE.md loader contract) both ways."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stkref import checknet, cli, errors, netfile
from stkref.model import QuantizedModel, tensor_shapes

ENDINGS = ["return", "exit-int", "exit-none", "exit-text", "input-error", "net-error", "oserror"]
ENDINGS += ["bug", "usage"]


def model_status(ending: str, value: int) -> int:
    """0 passed, 1 a gate failed, 2 usage or input error (and any other failure)."""
    if ending in ("return", "exit-int"):
        return value if value in (0, 1) else 2
    return {"exit-none": 0}.get(ending, 2)


def make_main(ending: str, value: int) -> Callable[[], int]:
    def main() -> int:
        if ending == "return":
            return value
        if ending == "exit-int":
            raise SystemExit(value)
        if ending == "exit-none":
            raise SystemExit(None)
        if ending == "exit-text":
            raise SystemExit("a tool's own message")
        if ending == "input-error":
            raise errors.InputError("f.epd:3: bad line")
        if ending == "net-error":
            raise errors.NetFormatError("n.nnue: short file")
        if ending == "oserror":
            raise OSError(28, "No space left on device", "out.json")
        if ending == "usage":
            cli.ToolParser(prog="t").parse_args(["--nope"])
        raise RuntimeError("a bug")

    return main


# MODEL cli-exit-status
# checks: harness/python/stkref/cli.py  (a tool's exit status for each way its main can end)
# contract: docs/faults.md#python-tools-python--m-stkref-stktrain-stkmutation-stkdev
# planted: ci/mutants/model-cli-exit-status.patch  (a tool's own status 3 passed through, not 2)
@pytest.mark.internal_error  # its "bug" ending is that path
@given(st.sampled_from(ENDINGS), st.integers(0, 5))
def test_run_tool_status_equals_model(ending: str, value: int) -> None:
    assert cli.run_tool(make_main(ending, value)) == model_status(ending, value)


@pytest.mark.internal_error
def test_run_tool_says_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run_tool(make_main("oserror", 0)) == 2
    err = capsys.readouterr().err
    assert err == "error: out.json: No space left on device\n"
    assert cli.run_tool(make_main("bug", 0)) == 2
    assert capsys.readouterr().err.startswith("error: internal error: RuntimeError: a bug")
    assert issubclass(errors.NetFormatError, errors.InputError)


HIDDEN = 128


def small_net() -> bytes:
    t = {}
    for name, shape in tensor_shapes(HIDDEN).items():
        dtype = "int16" if name.startswith("ft") else "int8" if "weight" in name else "int32"
        if name == "psqt_weight":
            dtype = "int32"
        t[name] = np.full(shape, 3, dtype)
    return netfile.encode(QuantizedModel(hidden=HIDDEN, **t))


NET = small_net()


# MODEL checknet-verdicts
# checks: harness/python/stkref/checknet.py  (exit 0 with the header and SHA-256, else exit 2)
# contract: ../shared/SPEC-NNUE.md#network-file-nnue-magic-stkhalfka-version-1
# planted: ci/mutants/model-checknet-verdicts.patch  (the size check told trailing bytes are allowed)
@pytest.mark.parametrize(
    ("cut", "trailing", "allow", "status"),
    [
        (0, 0, False, 0),  # exact: keeps
        (1, 0, False, 2),  # one byte short: breaks
        (0, 1, False, 2),  # one byte over: breaks
        (0, 1, True, 0),  # one byte over with --allow-trailing: keeps
    ],
)
def test_checknet_verdicts_both_ways(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    cut: int,
    trailing: int,
    allow: bool,
    status: int,
) -> None:
    data = NET[: len(NET) - cut] + b"\0" * trailing
    path = tmp_path / "n.nnue"
    path.write_bytes(data)
    argv = [str(path)] + (["--allow-trailing"] if allow else [])
    assert cli.run_tool(lambda: checknet.main(argv)) == status
    out = capsys.readouterr()
    if status == 0:
        assert f"sha256    {hashlib.sha256(data).hexdigest()}" in out.out
        assert "hidden    128" in out.out and f"size      {len(data)} bytes" in out.out
    else:
        assert out.err.startswith("error: ") and str(path) in out.err


# MODEL errors-input-errors-exit-2
# checks: harness/python/stkref/errors.py  (a bad net file or input is an input error: exit 2, one line naming it)
# contract: docs/reports.md#exit-status-and-report-files
# planted: ci/mutants/model-errors-input-errors-exit-2.patch  (NetFormatError derived from ValueError)
@given(
    st.sampled_from([errors.InputError, errors.NetFormatError]), st.text(min_size=1, max_size=20)
)
def test_input_errors_end_with_their_message(kind: type[Exception], why: str) -> None:
    why = "f.nnue: " + why.replace("\n", " ")

    def main() -> int:
        raise kind(why)

    with pytest.MonkeyPatch.context() as mp:
        said: list[str] = []
        mp.setattr(cli, "_say", said.append)
        assert cli.run_tool(main) == 2
    assert said == [f"error: {why}"]


def report_state(path: Path) -> tuple[str, str | None]:
    """('missing'|'error'|'passed'|'failed', the error's text) of a JUnit file."""
    import xml.etree.ElementTree as ET

    if not path.exists():
        return "missing", None
    root = ET.parse(path).getroot()
    err = root.find(".//error")
    if err is not None:
        return "error", err.text
    return ("failed" if root.find(".//failure") is not None else "passed"), None


# MODEL cli-declared-reports
# checks: harness/python/stkref/cli.py  (the report a run owes: its own, or an <error> naming why, never an old one)
# contract: docs/reports.md#exit-status-and-report-files
# planted: ci/mutants/model-cli-declared-reports.patch  (a usage error leaves the earlier report in place)
@pytest.mark.internal_error  # its "bug" ending is that path
@given(
    ending=st.sampled_from(["pass", "gate", "input-error", "bug", "usage-value", "usage-unknown"]),
    earlier=st.booleans(),
)
def test_declared_report_equals_model(
    tmp_path_factory: pytest.TempPathFactory, ending: str, earlier: bool
) -> None:
    from stkref import options
    from stkref.junit import Outcome, TestCase, TestSuite, write_report

    d = tmp_path_factory.mktemp("rep")
    junit = d / "junit" / "t-c.xml"
    if earlier:  # a passing report of an earlier run
        write_report(junit, [TestSuite("t.c", cases=[TestCase("t.x", "old")])])

    def main() -> int:
        ap = cli.ToolParser(
            prog="t", reports=lambda a: [(d / "junit" / f"t-{a.config}.xml", "t.c")]
        )
        ap.add_argument("--config", type=options.name, default="c")
        ap.add_argument("--n", type=options.integer(0, 9), default=0)
        argv = {"usage-value": ["--n", "10"], "usage-unknown": ["--nope"]}.get(ending, [])
        ap.parse_args(argv)
        if ending == "input-error":
            raise errors.InputError("f.epd:2: bad line")
        if ending == "bug":
            raise KeyError("x")
        case = TestCase("t.x", "new", Outcome.FAILED if ending == "gate" else Outcome.PASSED)
        write_report(junit, [TestSuite("t.c", cases=[case])])
        return 1 if ending == "gate" else 0

    status = cli.run_tool(main)
    # model: 0 / 1 with this run's report; 2 with an <error> report naming why, whatever was there
    want = {"pass": (0, "passed"), "gate": (1, "failed")}.get(ending, (2, "error"))
    state, text = report_state(junit)
    assert (status, state) == want
    if ending == "input-error":
        assert text == "f.epd:2: bad line"
    if ending == "usage-value":
        assert "--n" in (text or "")
