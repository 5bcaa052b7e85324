"""stkdev.standalone: every member of a unity batch compiled alone, with the batch's own command.

The planted defect is the one that reached main twice: a file naming what an earlier file of its
batch brought in (a `using namespace`), which compiles in the batch and fails alone."""

from __future__ import annotations

import json
import shutil
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from stkdev import standalone
from stkref import compile_commands
from stkref.cli import run_tool

pytestmark = pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler")

ROOT = Path(__file__).resolve().parents[3]
PROVIDER = "namespace lib { inline int answer() { return 42; } }\nusing namespace lib;\n"
LEANING = "int twice() { return 2 * answer(); }\n"  # `lib::` only through the neighbour
STANDING = "namespace lib { int answer(); }\nint twice() { return 2 * lib::answer(); }\n"


def _build(
    tmp: Path,
    members: dict[str, str],
    batch_names: list[str] | None = None,
    targets: tuple[str, ...] = ("lib",),
) -> Path:
    """A build folder holding one batch of `members` (in order) per target and its
    compile_commands.json, in the shape CMake writes (a relative object, dependency options)."""
    src, build = tmp / "src", tmp / "build"
    src.mkdir()
    for name, text in members.items():
        (src / name).write_text(text)
    includes = "".join(f'#include "../../../src/{n}"\n' for n in batch_names or list(members))
    entries = []
    for target in targets:
        batch = build / "unity" / target / "src_0.cpp"
        batch.parent.mkdir(parents=True)
        batch.write_text(f"{compile_commands.BATCH_MARKER}\n{includes}")
        obj = f"obj/{target}/src_0.cpp.o"
        command = f"c++ -std=c++20 -O1 -MD -MT {obj} -MF {obj}.d -o {obj} -c {batch}"
        entries.append({"directory": str(build), "command": command, "file": str(batch)})
    (build / "compile_commands.json").write_text(json.dumps(entries))
    return build


def _cases(report: Path, full: bool = False) -> dict[str, str]:
    """testcase file name (or its whole name: `<target>/<file>`) -> 'passed' or 'failed'."""
    root = ET.parse(report).getroot()
    return {
        (c.get("name", "") if full else Path(c.get("name", "")).name): (
            "failed" if c.find("failure") is not None else "passed"
        )
        for c in root.iter("testcase")
    }


def test_a_file_leaning_on_its_neighbours_using_directive_fails(tmp_path: Path, capsys):
    build = _build(tmp_path, {"a.cpp": PROVIDER, "b.cpp": LEANING})
    report = tmp_path / "standalone.xml"
    t0 = time.monotonic()
    status = standalone.main(["--build", str(build), "--jobs", "2", "--junit", str(report)])
    wall = time.monotonic() - t0
    assert status == 1
    assert _cases(report) == {"a.cpp": "passed", "b.cpp": "failed"}
    # The summary line and the report's time say what ran: passed of all, the seconds it took.
    assert "standalone: 1 of 2 batched sources compile alone" in capsys.readouterr().out
    suite = ET.parse(report).getroot()
    suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
    assert 0 <= float(suite.get("time")) <= wall


def test_a_file_in_the_batches_of_two_targets_is_checked_in_each(tmp_path: Path, capsys):
    build = _build(tmp_path, {"a.cpp": PROVIDER, "b.cpp": LEANING}, targets=("lib", "tests"))
    report = tmp_path / "standalone.xml"
    assert standalone.main(["--build", str(build), "--junit", str(report)]) == 1
    assert "standalone: 2 of 4 batched sources compile alone" in capsys.readouterr().out
    cases = _cases(report, full=True)
    assert {n.split("/")[0] for n in cases} == {"lib", "tests"}
    assert sorted(v for n, v in cases.items() if n.endswith("b.cpp")) == ["failed", "failed"]


def test_files_that_stand_alone_pass(tmp_path: Path):
    build = _build(tmp_path, {"a.cpp": PROVIDER, "b.cpp": STANDING})
    report = tmp_path / "standalone.xml"
    assert standalone.main(["--build", str(build), "--junit", str(report)]) == 0
    assert _cases(report) == {"a.cpp": "passed", "b.cpp": "passed"}


def test_the_check_writes_no_object(tmp_path: Path):
    build = _build(tmp_path, {"a.cpp": PROVIDER})
    assert standalone.main(["--build", str(build)]) == 0
    assert not (build / "obj").exists()


def test_a_batch_naming_a_missing_member_is_an_error(tmp_path: Path, capsys):
    build = _build(tmp_path, {"a.cpp": PROVIDER}, batch_names=["a.cpp", "gone.cpp"])
    assert run_tool(lambda: standalone.main(["--build", str(build)])) == 2
    assert "gone.cpp" in capsys.readouterr().err


def test_a_build_without_batches_checked_nothing_and_fails(tmp_path: Path, capsys):
    (tmp_path / "compile_commands.json").write_text("[]")
    assert run_tool(lambda: standalone.main(["--build", str(tmp_path)])) == 2
    assert "no unity batch" in capsys.readouterr().err


def test_a_build_without_compile_commands_is_an_error(tmp_path: Path, capsys):
    assert run_tool(lambda: standalone.main(["--build", str(tmp_path)])) == 2
    assert "compile_commands.json" in capsys.readouterr().err


def test_the_marker_is_the_one_the_build_writes():
    # A reworded generator line would leave the check finding no batch (exit 2, not a pass).
    assert (
        compile_commands.BATCH_MARKER.removeprefix("// ")
        in (ROOT / "harness/cmake/BuildSpeed.cmake").read_text()
    )
