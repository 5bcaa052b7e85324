"""Every value rule docs/input-rules.md states for a file stk-harness reads holds both ways at its
smallest margin: the kept value is read (the command's own verdict, exit 0 or 1) and the broken
one refused (exit 2, the file named with where in it). The table is the contract: a bound that
moved by one, a check dropped, or a refusal that names an option instead of the file fails here
without a test written for that format. The kept value of each row is its null control: the
same command on the same file, one value inside the rule, must not be refused.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
PAGE = REPO / "docs" / "input-rules.md"
HARNESS = os.path.abspath(
    os.environ.get("STK_HARNESS") or str(REPO / "build/release/harness/stk-harness")
)
pytestmark = pytest.mark.skipif(
    not os.environ.get("STK_HARNESS") and not Path(HARNESS).exists(),
    reason=f"STK_HARNESS unset and stk-harness not built ({HARNESS})",
)
NET = REPO / "golden" / "nets" / "stk-h128-seed1.nnue"


@dataclass(frozen=True)
class Rule:
    line: int  # of the page, to find the row a failure comes from
    fmt: str
    command: str
    file: str
    contents: str
    kept: str
    broken: str
    says: str

    def __str__(self) -> str:
        return f"{self.fmt} {self.contents} {self.kept}|{self.broken}"


def cells_of(row: str) -> list[str]:
    return [c.strip() for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def unquote(cell: str) -> str:
    """A cell's text without its backticks (a cell of one code span)."""
    m = re.fullmatch(r"`(.*)`", cell)
    return m.group(1) if m else cell


def documented_rules() -> list[Rule]:
    text = PAGE.read_text()
    lines = text.splitlines()
    start = lines.index("## Rules")
    rules: list[Rule] = []
    previous = ""
    for i, row in enumerate(lines[start + 1 :], start + 2):
        if row.startswith("## "):
            break
        if not row.startswith("| ") or row.startswith("| format") or row.startswith("|---"):
            continue
        c = cells_of(row)
        if len(c) != 7:
            raise ValueError(f"{PAGE}:{i}: a rule row needs 7 cells, has {len(c)}")
        command = previous if c[1] == "same" else unquote(c[1])
        previous = command
        rules.append(
            Rule(i, c[0], command, unquote(c[2]), c[3], unquote(c[4]), unquote(c[5]), unquote(c[6]))
        )
    if len(rules) < 20:  # a table that cannot be read would pass every rule unexamined
        raise ValueError(f"{PAGE}: no readable '## Rules' table ({len(rules)} rows)")
    return rules


def base_documents() -> dict[str, object]:
    """The page's fenced ```json NAME blocks."""
    blocks = re.findall(r"^```json ([a-z-]+)\n(.*?)^```", PAGE.read_text(), re.M | re.S)
    return {name: json.loads(body) for name, body in blocks}


def set_pointer(doc: object, pointer: str, value: object) -> None:
    *path, last = [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/")[1:]]
    for p in path:
        doc = doc[int(p)] if isinstance(doc, list) else doc[p]  # type: ignore[index]
    if isinstance(doc, list):
        doc[int(last)] = value
    else:
        doc[last] = value  # type: ignore[index]


def file_bytes(rule: Rule, value: str) -> bytes | str:
    """The file the row describes, holding `value`."""
    based = re.fullmatch(r"json ([a-z-]+) at (/\S+)", rule.contents)
    if based:
        doc = json.loads(json.dumps(base_documents()[based.group(1)]))
        set_pointer(doc, based.group(2), json.loads(value))
        return json.dumps(doc)
    edited = re.fullmatch(r"`([^`]+)` line `([^`]+)` as `([^`]+)`", rule.contents)
    if edited:
        source = (REPO / edited.group(1)).read_text().splitlines()
        start, new = edited.group(2), edited.group(3).replace("{v}", value)
        hits = [i for i, line in enumerate(source) if line.startswith(start)]
        if len(hits) != 1:
            raise ValueError(
                f"{PAGE}:{rule.line}: {len(hits)} lines of {edited.group(1)} start {start!r}"
            )
        source[hits[0]] = new
        return "\n".join(source) + "\n"
    binary = re.fullmatch(r"hex `([0-9a-f {}v]+)`", rule.contents)
    if binary:
        return bytes.fromhex(binary.group(1).replace("{v}", value).replace(" ", ""))
    inline = re.fullmatch(r"`(.*)`", rule.contents)
    if inline:
        return inline.group(1).replace("\\n", "\n").replace("{v}", value) + "\n"
    raise ValueError(f"{PAGE}:{rule.line}: contents {rule.contents!r} is none of the three forms")


def empty_record_file(path: Path) -> Path:
    """One segment header and no records (docs/fail-high-predictor.md, Record file)."""
    path.write_bytes(b"STKFHREC" + struct.pack("<HHHHIHHQ", 1, 32, 1, 1, 1, 0, 1, 0))
    return path


MADE = re.compile(r"made, line (\d+) json at (/\S+)")
MADE_DB = re.compile(r"made, sqlite `PRAGMA ([a-z_]+) = \{v\}`")


def minimal_reports(folder: Path) -> Path:
    """A reports folder of one passing bench run: what `history --append` records."""
    (folder / "junit").mkdir(parents=True)
    (folder / "junit/bench-quick.xml").write_text(
        '<testsuites><testsuite name="bench.quick" tests="1"><testcase classname="bench.'
        'signature" name="nodes"/></testsuite></testsuites>'
    )
    (folder / "bench").mkdir()
    (folder / "bench/quick.json").write_text(
        json.dumps({"nodes": 1000, "expected_nodes": 1000, "nodes_per_second": 5})
    )
    return folder


def edited_line(path: Path, line: int, pointer: str, value: str) -> None:
    """The file the command made, its 1-based line `line` (a JSON document) holding `value`."""
    lines = path.read_text().split("\n")
    doc = json.loads(lines[line - 1])
    set_pointer(doc, pointer, json.loads(value))
    lines[line - 1] = json.dumps(doc, separators=(",", ":"))
    path.write_text("\n".join(lines))


def run_rule(rule: Rule, value: str, tmp: Path) -> tuple[subprocess.CompletedProcess[str], str]:
    tmp.mkdir()
    path = tmp / rule.file
    fixtures = {
        "{file}": str(path),
        "{dir}": str(tmp),
        "{out}": str(tmp / "out"),
        "{net}": str(NET),
        "{fhr}": str(empty_record_file(tmp / "empty.fhr")),
        "{reports}": str(minimal_reports(tmp / "reports")),
    }
    words = [_fill(w, fixtures) for w in rule.command.split()]

    def run() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [HARNESS, *words],
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
            cwd=tmp,  # an error report under a default reports/ stays out of the checkout
        )

    made_db = MADE_DB.fullmatch(rule.contents)
    if made_db:  # the command makes the database; a pragma of its header is then set
        first = run()
        assert first.returncode == 0 and path.exists(), f"{rule}: making {path}: {first.stderr}"
        con = sqlite3.connect(path)
        try:
            con.execute(f"PRAGMA {made_db.group(1)} = {int(value)}")
            con.commit()
        finally:
            con.close()
        return run(), str(path)
    made = MADE.fullmatch(rule.contents)
    if made:  # the command makes the file, which is then changed and read by it again
        first = run()
        assert first.returncode == 0 and path.exists(), f"{rule}: making {path}: {first.stderr}"
        edited_line(path, int(made.group(1)), made.group(2), value)
        return run(), str(path)
    contents = file_bytes(rule, value)
    if isinstance(contents, bytes):
        path.write_bytes(contents)
    else:
        path.write_text(contents)
    return run(), str(path)


def _fill(word: str, fixtures: dict[str, str]) -> str:
    for k, v in fixtures.items():
        word = word.replace(k, v)
    return word


RULES = documented_rules()


# MODEL input-file-rules
# checks: harness/src/match_results/match_result_file.cpp  (each file value rule at its margins)
# contract: docs/input-rules.md#rules
# planted: ci/mutants/model-input-file-rules.patch  (shard_count's bound one past 1000000)
@pytest.mark.parametrize("rule", RULES, ids=[f"line{r.line}" for r in RULES])
def test_the_kept_value_is_read_and_the_broken_one_refused_naming_the_file(
    rule: Rule, tmp_path: Path
) -> None:
    kept, path = run_rule(rule, rule.kept, tmp_path / "kept")
    shown = f"{kept.stdout}\n{kept.stderr}"
    assert kept.returncode in (0, 1), f"{rule}: kept {rule.kept} refused:\n{shown[-2000:]}"
    specific = rule.says.strip(": 0123456789") != ""  # more than where: the refusal's own words
    assert not specific or path + rule.says not in shown, f"{rule}: kept {rule.kept}: {shown}"
    broken, path = run_rule(rule, rule.broken, tmp_path / "broken")
    shown = f"{broken.stdout}\n{broken.stderr}"
    assert broken.returncode == 2, (
        f"{rule}: broken {rule.broken} exit {broken.returncode}:\n{shown[-2000:]}"
    )
    assert path + rule.says in shown, f"{rule}: no {path + rule.says!r} in:\n{shown[-2000:]}"


def test_the_table_covers_each_base_and_each_form() -> None:
    """Null control of the reader: every base document is used by a row, every contents form
    appears, and each row's two values differ (a row with kept == broken proves nothing)."""
    bases = base_documents()
    assert set(bases) == {"match-result", "epd-results"}
    used = {m.group(1) for r in RULES if (m := re.fullmatch(r"json ([a-z-]+) at .*", r.contents))}
    assert used == set(bases)
    assert any(r.contents.startswith("`") and " line `" in r.contents for r in RULES)
    assert any(r.contents.startswith("hex `") for r in RULES)
    assert any(MADE.fullmatch(r.contents) for r in RULES)
    assert any(MADE_DB.fullmatch(r.contents) for r in RULES)
    assert all(r.kept != r.broken for r in RULES)
