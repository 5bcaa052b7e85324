"""Every digest a JUnit report records names the bytes of the file beside it (docs/reports.md).

    python -m stkdev.report_digests [DIR]   (default reports/junit; ci/validate-reports.sh runs it)

A report records where its inputs came from as property pairs: `X` names a file and `X_sha256`
its SHA-256 (`engine` and `engine_sha256`, `net` and `net_sha256`), or `X` lists files joined by
`;` and `X_sha256.I` is the digest of the I-th, from 1 (calibration's `records`). A reader
reproduces a run from them, so a digest of another file (or of the file before it was written)
misleads silently. Each pair whose file still exists is checked; a pair whose file is gone (a
scratch folder) or that names no file cannot be, and is counted, never passed over in silence.

Exit 0 when every checkable digest matches, 1 naming each that does not (report, property, file,
both digests), 2 when DIR holds no report or a report cannot be read.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from stkref import inputs
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError

DIGEST = re.compile(r"^(?P<base>.+)_sha256(?:\.(?P<index>\d+))?$")


@dataclass(frozen=True)
class Pair:
    report: str
    prop: str  # the digest's property
    file: str  # the file it names ("" when the report names none)
    recorded: str


def pairs_of(report: Path) -> list[Pair]:
    """The (file, digest) pairs of one report, in the order of its properties."""
    try:
        root = ET.fromstring(inputs.read_input_bytes(report))
    except ET.ParseError as e:
        raise InputError(f"{report}: not XML ({e})") from e
    out: list[Pair] = []
    for props in root.iter("properties"):
        values = {p.get("name", ""): p.get("value", "") for p in props.iter("property")}
        for name, digest in values.items():
            m = DIGEST.match(name)
            if not m:
                continue
            named = values.get(m.group("base"), "")
            if m.group("index") is not None:  # numbered from 1, as every numbered property
                parts = named.split(";") if named else []
                i = int(m.group("index"))
                named = parts[i - 1] if 1 <= i <= len(parts) else ""
            out.append(Pair(str(report), name, named, digest))
    return out


def check(pairs: list[Pair]) -> tuple[list[str], int, int]:
    """(the mismatches, digests checked, digests that could not be: no file named or gone)."""
    bad: list[str] = []
    checked = unchecked = 0
    for p in pairs:
        path = Path(p.file) if p.file else None
        if path is None or not path.exists():  # gone (a dangling link too): cannot be checked
            unchecked += 1
            continue
        checked += 1
        actual = inputs.sha256_file(path, inputs.DATA_LIMIT)  # a FIFO there: refused
        if actual != p.recorded:
            bad.append(
                f"{p.report}: property {p.prop} is {p.recorded}, but {p.file} has SHA-256 {actual}"
            )
    return bad, checked, unchecked


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(prog="python -m stkdev.report_digests", description=__doc__.split("\n")[0])
    ap.add_argument(
        "dir", nargs="?", default="reports/junit", type=inputs.folder, help="the JUnit reports"
    )
    a = ap.parse_args(argv)
    reports = sorted(a.dir.glob("*.xml"))
    if not reports:
        raise InputError(f"{a.dir}: no JUnit report (*.xml) there")
    bad, checked, unchecked = check([p for r in reports for p in pairs_of(r)])
    lines = [f"MISMATCH {b}" for b in bad] + [
        f"{len(reports)} reports, {checked} digests checked, {len(bad)} wrong, {unchecked} not"
        " checkable (no file named, or it is gone)"
    ]
    print("".join(f"report_digests: {line}\n" for line in lines), end="")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
