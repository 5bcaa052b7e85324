"""The index of independent models (docs/models.md), generated from the tests themselves.

    ci/make-models-index.py [--detection REPORT.json]... [--out FILE] [--check]

A model is a property test written from a documented contract, not from the code, and compared
with the code on generated inputs (RapidCheck, Hypothesis). Each starts with a header block
(`//` in C++, `#` in Python), directly above its TEST_CASE or test function:

    MODEL <id>
    checks: <source file>  (<the computation it checks>)
    contract: <docs file>#<anchor>
    planted: ci/mutants/model-<id>.patch  (<the planted change it must catch>)

This tool reads every block under harness/tests, engine/tests and harness/python/tests, checks it
(a unique id; the source, the contract's file and heading and the patch exist; the patch changes the
source it names; ci/mutants/MANIFEST runs a check naming the model's test on it) and writes one
table per module of the code: which models check it and what each must catch, with the last
verdict of `ci/check-mutants.sh 'model-'` from --detection (default
docs/mutation-runs/models-*.json) when it has one, then the modules no model checks yet.
--check: exit 1 with a diff when FILE is not what the tree gives. Exit 2 on a malformed
block (file and line named).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from stkmutation.modules import PACKAGES, module_of
from stkref import inputs
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.inputs import differs_from
from stkref.outputs import Output, write_text_atomic

ROOT = Path(__file__).resolve().parents[3]  # harness/python/stkmutation/ -> the repository
TEST_DIRS = ("harness/tests", "engine/tests", "harness/python/tests")
FIELDS = ("checks", "contract", "planted")
SHARED_PREFIX = "../shared/"  # a contract in the shared documents (SPEC-NNUE.md, HARNESS.md)
HEADER = re.compile(r"^\s*(?://|#)\s*MODEL\s+(\S+)\s*$")
FIELD = re.compile(r"^\s*(?://|#)\s*(checks|contract|planted):\s*(\S+)\s*(?:\((.*)\))?\s*$")
ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# TEST_CASE( then its name: one string literal or several adjacent ones (C++ joins them), on the
# same line or the next (clang-format breaks a long call after the parenthesis).
CPP_TEST = re.compile(r'^\s*TEST_CASE\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)')
CPP_LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
PY_TEST = re.compile(r"^\s*(?:async\s+)?def\s+(test_\w+)\s*\(")


@dataclass(frozen=True)
class Model:
    id: str
    checks: str  # the source file whose computation it checks
    computation: str
    contract: str  # docs path#anchor
    planted: str  # ci/mutants/model-<id>.patch
    planted_change: str
    test_file: str
    test_name: str
    line: int


def code_modules(root: Path) -> list[str]:
    """Every module of the code the models cover: harness/src, engine/src and the Python
    packages (entry stubs __init__/__main__ aside)."""
    found: set[str] = set()
    for top in ("engine/src", "harness/src"):
        for p in (root / top).rglob("*.cpp"):
            found.add(module_of(p.relative_to(root).as_posix()))
    for pkg in PACKAGES:
        for p in (root / "harness/python" / pkg).glob("*.py"):
            if p.stem not in ("__init__", "__main__"):
                found.add(module_of(p.relative_to(root).as_posix()))
    return sorted(found)


def test_files(root: Path) -> list[Path]:
    files: list[Path] = []
    for d in TEST_DIRS:
        base = root / d
        if base.is_dir():
            files += sorted(p for p in base.glob("*") if p.suffix in (".cpp", ".py"))
    return files


def parse_blocks(path: Path, root: Path) -> list[Model]:
    """The MODEL blocks of one test file; the test is the next TEST_CASE or test function."""
    rel = path.relative_to(root).as_posix()
    lines = inputs.read_input_text(path).splitlines()
    test_pattern = CPP_TEST if path.suffix == ".cpp" else PY_TEST
    models = []
    i = 0
    while i < len(lines):
        head = HEADER.match(lines[i])
        if not head:
            i += 1
            continue
        start, mid = i + 1, head.group(1)
        if not ID.match(mid):
            raise InputError(f"{rel}:{start}: model id {mid!r} is not lowercase-with-dashes")
        got: dict[str, tuple[str, str]] = {}
        i += 1
        while i < len(lines) and (m := FIELD.match(lines[i])):
            got[m.group(1)] = (m.group(2), (m.group(3) or "").strip())
            i += 1
        missing = [f for f in FIELDS if f not in got]
        if missing:
            raise InputError(
                f"{rel}:{start}: MODEL {mid} lacks {', '.join(f + ':' for f in missing)}"
            )
        name = ""
        for j in range(i, min(i + 30, len(lines))):
            if HEADER.match(lines[j]):
                break
            t = test_pattern.match("\n".join(lines[j : j + 4]))
            if t and path.suffix == ".cpp":
                name = "".join(CPP_LITERAL.findall(t.group(1)))
                break
            if t:
                name = t.group(1)
                break
        if not name:
            raise InputError(f"{rel}:{start}: MODEL {mid} is not followed by a test")
        models.append(
            Model(
                mid,
                got["checks"][0],
                got["checks"][1],
                got["contract"][0],
                got["planted"][0],
                got["planted"][1],
                rel,
                name,
                start,
            )
        )
    return models


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lowercase, punctuation dropped (a literal `_`, as in
    `io::replace_file`, is kept; `*` and `_` delimiting emphasis are not), spaces to '-'."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"(?<!\w)_+|_+(?!\w)", "", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    """The anchors of a Markdown file's headings, as GitHub makes them: a repeated one gets -1,
    -2, ...; a `#` line inside a fenced code block is no heading."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fence = ""
    for line in inputs.read_input_text(doc).splitlines():
        if m := re.match(r"^\s{0,3}(`{3,}|~{3,})", line):
            if not fence:
                fence = m.group(1)
            elif m.group(1).startswith(fence[0]) and len(m.group(1)) >= len(fence):
                fence = ""
            continue
        if fence:
            continue
        if m := re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line):
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def manifest_checks(root: Path) -> dict[str, list[str]]:
    checks: dict[str, list[str]] = {}
    manifest = root / "ci/mutants/MANIFEST"
    for raw in inputs.read_input_text(manifest).splitlines():
        line = raw.strip()
        if line and not line.startswith("#") and "|" in line:
            patch, check = (s.strip() for s in line.split("|", 1))
            checks.setdefault(patch, []).append(check)
    return checks


def patched_files(patch: Path) -> set[str]:
    return set(re.findall(r"^\+\+\+ b/(\S+)", inputs.read_input_text(patch), re.M))


def problems(models: Sequence[Model], root: Path) -> list[str]:
    """Everything that makes a model untrustworthy as indexed, one message each."""
    out: list[str] = []
    seen: dict[str, Model] = {}
    checks = manifest_checks(root)
    for m in models:
        where = f"{m.test_file}:{m.line}: MODEL {m.id}"
        if m.id in seen:
            out.append(
                f"{where}: id used again (first at {seen[m.id].test_file}:{seen[m.id].line})"
            )
        seen.setdefault(m.id, m)
        if not (root / m.checks).is_file():
            out.append(f"{where}: checks: no such file {m.checks}")
        doc, _, anchor = m.contract.partition("#")
        doc_path = contract_path(root, doc)
        if not doc_path.is_file():
            out.append(f"{where}: contract: no such file {doc}")
        elif anchor and doc_path.suffix == ".md" and anchor not in anchors(doc_path):
            out.append(f"{where}: contract: {doc} has no heading #{anchor}")
        patch = root / m.planted
        if not patch.is_file():
            out.append(f"{where}: planted: no such patch {m.planted}")
            continue
        if m.checks not in patched_files(patch):
            out.append(f"{where}: planted: {m.planted} does not change {m.checks}")
        listed = checks.get(patch.name, [])
        if not listed:
            out.append(f"{where}: planted: {patch.name} is not in ci/mutants/MANIFEST")
        elif not any(test_named(c, m) for c in listed):
            out.append(f"{where}: ci/mutants/MANIFEST runs no check naming {m.test_name!r}")
    return out


def contract_path(root: Path, doc: str) -> Path:
    """A contract's file: `../shared/...` is the shared documents' folder, STK_SHARED where set
    (a scratch clone of the tree has no ../shared beside it), else the folder beside `root`."""
    shared = os.environ.get("STK_SHARED")
    if doc.startswith(SHARED_PREFIX) and shared:
        return Path(shared).resolve() / doc[len(SHARED_PREFIX) :]
    return (root / doc).resolve()


def test_named(check: str, m: Model) -> bool:
    if m.test_file.endswith(".py"):
        return Path(m.test_file).name in check and m.test_name in check
    return f'"{m.test_name}"' in check.replace("\\,", ",")


def detections(reports: Iterable[Path]) -> dict[str, str]:
    """patch name -> the outcome of its last check-mutants run (killed = caught)."""
    found: dict[str, str] = {}
    for path in reports:
        data = json.loads(inputs.read_input_text(path))
        for r in data.get("mutants", []):
            found[str(r.get("id", ""))] = str(r.get("outcome", ""))
    return found


def render(models: Sequence[Model], modules: Sequence[str], seen: dict[str, str]) -> str:
    by_module: dict[str, list[Model]] = {}
    for m in models:
        by_module.setdefault(module_of(m.checks), []).append(m)
    covered = [mod for mod in modules if mod in by_module]
    out = [
        "# Independent models",
        "",
        "[docs index](README.md) · generated by `ci/make-models-index.py` from the MODEL blocks",
        "of the tests (do not edit; `ci/make-models-index.py --check` fails when it is stale) ·",
        "how to write one: [models-howto.md](models-howto.md)",
        "",
        "A model is a property test written from the documented contract, not from the code, and",
        "compared with the code on generated inputs (RapidCheck in C++ with the fixed seed",
        "`STK_RC_SEED`, Hypothesis in Python, derandomized). Each names the planted change it must",
        "catch (`ci/mutants/model-*.patch`, run by `ci/check-mutants.sh 'model-'`).",
        "",
        f"{len(models)} models; {len(covered)} of {len(modules)} modules checked by at least one.",
        "",
        "| area | modules | with a model |",
        "|---|---:|---:|",
    ]
    for area in areas(modules):
        mods = [m for m in modules if area_of(m) == area]
        out.append(f"| {area} | {len(mods)} | {sum(m in by_module for m in mods)} |")
    out += ["", "## Models by module", ""]
    out += [
        "| module | model | computation | contract | planted change | caught |",
        "|---|---|---|---|---|---|",
    ]
    for mod in sorted(by_module):
        for m in sorted(by_module[mod], key=lambda x: x.id):
            verdict = {"killed": "yes", "timeout": "yes (timeout)"}.get(
                seen.get(Path(m.planted).name, ""), seen.get(Path(m.planted).name, "not run")
            )
            out.append(
                f"| `{mod}` | [{m.id}](../{m.test_file}#L{m.line}) | {cell(m.computation)} "
                f"| [{m.contract}](../{m.contract}) | {cell(m.planted_change)} "
                f"([patch](../{m.planted})) | {verdict} |"
            )
    missing = [m for m in modules if m not in by_module]
    out += ["", "## Modules no model checks yet", ""]
    out += [f"- `{m}`" for m in missing] or ["(none)"]
    return "\n".join(out) + "\n"


def cell(text: str) -> str:
    return text.replace("|", "\\|") or "-"


def area_of(module: str) -> str:
    parts = module.split("/")
    if parts[:3] == ["harness", "src", "commands"]:
        return "harness/src/commands"
    if parts[:2] in (["harness", "src"], ["engine", "src"]):
        return "/".join(parts[:2])
    return parts[0]


def areas(modules: Sequence[str]) -> list[str]:
    return sorted({area_of(m) for m in modules})


def collect(root: Path) -> list[Model]:
    models: list[Model] = []
    for f in test_files(root):
        models += parse_blocks(f, root)
    return models


def default_detections(root: Path) -> list[Path]:
    return sorted((root / "docs/mutation-runs").glob("models-*.json"))


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(
        prog="ci/make-models-index.py",
        description=__doc__.split("\n")[0],
        outputs=lambda a: [] if a.check else [Output("--out", a.out)],
    )
    ap.add_argument(
        "--detection", type=inputs.input_file(), action="append", default=None, metavar="REPORT"
    )
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "models.md")
    ap.add_argument("--check", action="store_true", help="exit 1 with a diff when --out differs")
    ap.add_argument("--root", type=inputs.folder, default=ROOT, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    models = collect(a.root)
    if bad := problems(models, a.root):
        for line in bad:
            print(f"make-models-index: {line}", file=sys.stderr)
        return 2
    seen = detections(a.detection if a.detection is not None else default_detections(a.root))
    text = render(models, code_modules(a.root), seen)
    if a.check:
        return int(differs_from(a.out, text, "tree"))
    write_text_atomic(a.out, text)
    print(f"wrote {a.out} ({len(models)} models)")
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
