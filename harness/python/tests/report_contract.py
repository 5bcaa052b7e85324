"""The report contract of every run, as docs/reports.md and docs/report-schema.md state it, written
from those pages (the C++ tests hold every harness run to the same rules in
harness/tests/report_contract.h; this is the Python side's own reading, used on the fault matrix's
reference run of every command, so both the tools and the matrix meet it):

- exit 0: no report the run wrote records a failure or an error;
- exit 1: a report the run wrote records one;
- a suite's tests/failures/errors/skipped are the counts of its testcases, the root's their sums;
- a JSON summary beside it (D/<harness>/<config>.json for D/junit/<harness>-<config>.xml) carries
  the envelope: the same counts, `passed` = no failure and no error, `junit` leading back to the
  file, `harness`-`config` naming it, and every suite and testcase classname `<harness>.<...>`;
- every testcase has a name and a classname, no two the same pair; an `input.<name>` property of
  an option the command line gave holds a value it gave; a Python tool's `command` property is
  its file name and its arguments, one space apart (docs/report-schema.md "Testcase names and
  recorded inputs");
- a stk-harness or Python tool report's suite properties are the ones its harness's row of
  "Suite properties by harness" names, each it writes in every run present, `<K>` numbered 1, 2, ...
- every interval a report states runs low end first (`[A, B]` in its JUnit text and on its
  summary's page; `lo`/`hi`, `low`/`high`, `min`/`median`/`max` and `X_min`/`X_median`/`X_max`
  in its JSON);
- no figure of its JUnit text is written as nan or inf;
- a digest property `X_sha256` (or `X_sha256.I`, of the I-th of `X`'s `;`-joined files, from 1) is the
  SHA-256 of the file `X` names, where that file exists.

Exit 2 and other statuses are judged by the tests that provoke them."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import stkref.cli

KINDS = ("failure", "error", "skipped")


def _counts(cases: list[ET.Element]) -> dict[str, int]:
    c = {"tests": len(cases), "failures": 0, "errors": 0, "skipped": 0}
    for case in cases:
        for kind, key in zip(KINDS, ("failures", "errors", "skipped"), strict=True):
            c[key] += case.find(kind) is not None
    return c


def junit_counts(path: Path) -> tuple[dict[str, int], list[str], list[str]]:
    """(counts from the testcases, suite names, problems with the stated counts)."""
    root = ET.parse(path).getroot()
    problems: list[str] = []
    if root.tag != "testsuites":
        return {}, [], [f"{path}: the root is <{root.tag}>, not <testsuites>"]
    total = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    names = []
    for suite in root.findall("testsuite"):
        names.append(suite.get("name", ""))
        counted = _counts(suite.findall("testcase"))
        stated = {k: int(suite.get(k, "-1")) for k in counted}
        if stated != counted:
            problems.append(f"{path}: suite {names[-1]!r} states {stated}, its testcases {counted}")
        total = {k: total[k] + counted[k] for k in total}
    stated_root = {k: int(root.get(k, "-1")) for k in ("tests", "failures", "errors")}
    if stated_root != {k: total[k] for k in stated_root}:
        problems.append(f"{path}: <testsuites> states {stated_root}, its suites sum to {total}")
    return total, names, problems


def summary_candidates(junit: Path) -> list[Path]:
    """D/<harness>/<config>.json for every split of the stem <harness>-<config>."""
    if junit.parent.name != "junit":
        return []
    stem, base = junit.stem, junit.parent.parent
    return [base / stem[:i] / f"{stem[i + 1 :]}.json" for i, ch in enumerate(stem) if ch == "-"]


def case_keys(path: Path) -> list[tuple[str, str]]:
    """(classname, name) of every testcase, in order."""
    return [(c.get("classname", ""), c.get("name", "")) for c in ET.parse(path).iter("testcase")]


def case_problems(junit: Path) -> list[str]:
    out, seen = [], set()
    for key in case_keys(junit):
        if not all(key):
            out.append(f"{junit}: a testcase without a name or classname {key}")
        elif key in seen:
            out.append(f"{junit}: two testcases {key[1]!r} of classname {key[0]!r}")
        seen.add(key)
    return out + classname_problems(junit)


def classname_problems(junit: Path) -> list[str]:
    """Each testcase's classname is `<harness>.<...>`, the harness its suite is named for (the
    first part of the suite's name): the rule holds for a report without a JSON envelope too (an
    input error's report)."""
    out = []
    for suite in ET.parse(junit).iter("testsuite"):
        harness = suite.get("name", "").split(".", 1)[0]
        for case in suite.iter("testcase"):
            cls = case.get("classname", "")
            if not harness or not cls.startswith(f"{harness}.") or cls == f"{harness}.":
                out.append(
                    f"{junit}: testcase {case.get('name')!r} of suite {suite.get('name')!r} "
                    f"has classname {cls!r}, not '{harness}.<...>'"
                )
    return out


def given_values(argv: list[str], name: str) -> set[str]:
    """The values the command line gave option --name: V of each --name=V; of each --name the
    next word and 'true' (a flag: whether it takes a value is not known from the words)."""
    option, values = f"--{name}", set()
    for i, w in enumerate(argv):
        if w.startswith(option + "="):
            values.add(w[len(option) + 1 :])
        elif w == option:
            values |= {"true", *argv[i + 1 : i + 2]}
    return values


def input_problems(junit: Path, argv: list[str]) -> list[str]:
    out = []
    for prop in ET.parse(junit).iter("property"):
        name, value = prop.get("name", ""), prop.get("value", "")
        if name.startswith("input."):
            given = given_values(argv, name[len("input.") :])
            if given and value not in given:
                out.append(
                    f"{junit}: property {name!r} is {value!r}, a value the command did not give"
                )
        elif name == "command" and python_tool(argv):
            program = value.split(" ", 1)[0]
            if not program.endswith(".py") or value != " ".join([program, *argv[3:]]):
                out.append(f"{junit}: property 'command' is {value!r}, not the command run")
    return out


SCHEMA_DOC = Path(__file__).resolve().parents[3] / "docs" / "report-schema.md"


def top_level_keys(cell: str) -> list[str]:
    """The keys a row of "Figures by harness" names at the top: names in backticks outside
    parentheses and braces (those hold nested keys)."""
    depth, outside = 0, []
    for ch in cell:
        depth += ch in "({"
        if depth == 0:
            outside.append(ch)
        depth -= ch in ")}" and depth > 0
    words = re.findall(r"`([^`]+)`", "".join(outside))
    return [w.removesuffix("[]") for w in words if re.fullmatch(r"[a-z_][a-z0-9_]*(\[\])?", w)]


def schema_rows(heading: str) -> list[tuple[str, str]]:
    """(first cell, second cell) of each row of the table under `## heading` in
    report-schema.md; cells split at each '|' that is not escaped (`sd\\|sn`)."""
    text = SCHEMA_DOC.read_text()
    section = text[text.index(f"## {heading}") :]
    rows = []
    for line in section.splitlines()[1:]:
        if line.startswith("## "):
            break
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if line.startswith("| ") and len(cells) >= 2 and cells[0] not in ("harness", "---"):
            rows.append((cells[0], cells[1]))
    return rows


@functools.cache
def documented_figures() -> dict[str, list[str]]:
    """Harness -> the top-level keys docs/report-schema.md "Figures by harness" names for it."""
    found: dict[str, list[str]] = {}
    for first, keys in schema_rows("Figures by harness"):
        for harness in re.findall(r"[a-z][a-z-]*", first.split("(")[0]):
            found[harness] = top_level_keys(keys)
    if len(found) < 10:  # a table that cannot be read would pass every run unexamined
        raise ValueError(f"no 'Figures by harness' table in {SCHEMA_DOC}")
    return found


def figure_problems(summary: Path, doc: dict, harness: object) -> list[str]:
    """Each top-level key the docs name for the harness that the summary lacks."""
    wanted = documented_figures().get(str(harness), [])
    return [
        f"{summary}: no {k!r} ({harness}'s figures, report-schema.md)"
        for k in wanted
        if k not in doc
    ]


BUILD_PROPERTIES = ("git_revision", "build_type", "cpu_features", "harness_version")
TOOL_PROPERTIES = (
    "git_revision",
    "harness_version",
    "python",
    "python_chess",
    "numpy",
    "platform",
    "command",
)


def property_pattern(name: str) -> re.Pattern[str]:
    """A documented property name as a regular expression: `<K>` digits (their order is judged
    apart), other `<...>` any text."""
    parts = re.split(r"(<[^>]+>)", name)
    return re.compile(
        "".join(
            "([0-9]+)" if p == "<K>" else ".+" if p.startswith("<") else re.escape(p) for p in parts
        )
    )


def cell_names(cell: str) -> tuple[list[str], list[str]]:
    """A row's property names: those outside parentheses (every run), those inside (some)."""
    depth, outside, inside = 0, [], []
    for ch in cell:
        depth += ch == "("
        (outside if depth == 0 else inside).append(ch)
        depth -= ch == ")" and depth > 0
    names = r"`([a-z_][a-z0-9_.-]*(?:<[^>`]+>[a-z0-9_.-]*)*)`"
    return re.findall(names, "".join(outside)), re.findall(names, "".join(inside))


@functools.cache
def documented_properties() -> dict[str, tuple[list[str], list[str]]]:
    """Harness -> (properties every run writes, those some runs write), from report-schema.md
    "Suite properties by harness"."""
    found = {
        first.split("(")[0].strip(): cell_names(names)
        for first, names in schema_rows("Suite properties by harness")
    }
    if len(found) < 15:  # a table that cannot be read would pass every property unexamined
        raise ValueError(f"no 'Suite properties by harness' table in {SCHEMA_DOC}")
    return found


def suite_property_problems(junit: Path, tool: bool = False) -> list[str]:
    """Each suite property of a report that its harness's row does not name, each name the row
    writes in every run that is missing, and `<K>` numbers out of order. `tool`: a Python tool's
    report, whose common names are the tools' (else stk-harness's build properties)."""
    out = []
    for suite in ET.parse(junit).iter("testsuite"):
        harness = suite.get("name", "").split(".")[0]
        if harness not in documented_properties():
            # A harness the docs know owes its row; one they do not (a stand-in) is not judged.
            if harness in documented_figures():
                out.append(f"{junit}: suite {suite.get('name')!r}: no row for {harness!r}")
            continue
        always, some = documented_properties()[harness]
        if tool:
            always = [*always, *TOOL_PROPERTIES]
        elif harness != "ctest":
            always = [*always, *BUILD_PROPERTIES]
        patterns = [property_pattern(n) for n in [*always, *some, "input.<option>"]]
        props = [(p.get("name", ""), p.get("value", "")) for p in suite.iter("property")]
        names = [name for name, _ in props]
        for name, value in props:
            if not any(p.fullmatch(name) for p in patterns):
                out.append(
                    f"{junit}: suite property {name!r} (value {value!r:.60}) is not one of "
                    f"{harness}'s (report-schema.md, Suite properties by harness)"
                )
        out += [  # `always` leads the names `patterns` was made from
            f"{junit}: no suite property {n!r} ({harness}'s)"
            for n, pattern in zip(always, patterns, strict=False)
            if not any(pattern.fullmatch(name) for name in names)
        ]
        for numbered in (n for n in [*always, *some] if "<K>" in n):
            pattern = property_pattern(numbered)
            ks = [m.group(1) for n in names if (m := pattern.fullmatch(n))]
            if ks != [str(k) for k in range(1, len(ks) + 1)]:
                out.append(f"{junit}: properties {numbered!r} numbered {ks}, not 1, 2, ...")
    return out


TIMES_LEAD = "carrying other runs' times:"


@functools.cache
def commands_carrying_other_runs_times() -> frozenset[str]:
    """The commands whose testcases carry times measured by other runs: the backticked names of
    the line docs/report-schema.md#times leads with TIMES_LEAD (one list for C++ and Python)."""
    names = {
        name
        for line in SCHEMA_DOC.read_text().splitlines()
        if TIMES_LEAD in line
        for name in re.findall(r"`([a-z][a-z-]*)`", line.split(TIMES_LEAD, 1)[1])
    }
    if not names:  # an unreadable line would exempt nothing: say where instead
        raise ValueError(f"no {TIMES_LEAD!r} line in {SCHEMA_DOC}")
    return frozenset(names)


def time_problems(junit: Path, argv: list[str], elapsed: float | None) -> list[str]:
    """Each testcase or suite time that is negative or, for a command that runs what it
    reports, longer than the run (`elapsed`: seconds from its start to its exit, when known); and
    each suite shorter than its longest testcase (its testcases run within it, side by side or
    not; both attributes round to the millisecond, which keeps their order)."""
    own = len(argv) > 1 and Path(argv[0]).name == "stk-harness"
    own = own and argv[1] not in commands_carrying_other_runs_times()
    longest = elapsed + 0.001 if elapsed is not None and own else float("inf")
    run = f", the run {elapsed:.3f} s" if elapsed is not None else ""
    out = []
    for suite in ET.parse(junit).iter("testsuite"):
        case_times = []
        for case in suite.iter("testcase"):
            seconds = float(case.get("time", "0"))
            case_times.append(seconds)
            if not 0 <= seconds <= longest:
                out.append(f"{junit}: testcase {case.get('name')!r} took {seconds} s{run}")
        seconds = float(suite.get("time", "0"))
        if not 0 <= seconds <= longest:
            out.append(f"{junit}: suite {suite.get('name')!r} took {seconds} s{run}")
        elif seconds < max(case_times, default=0.0):
            out.append(
                f"{junit}: suite {suite.get('name')!r} took {seconds} s, less than its longest "
                f"testcase ({max(case_times)} s)"
            )
    return out


def bad_name(name: str) -> bool:
    """A property name or a JSON key a reader cannot look up (docs/report-schema.md#names)."""
    if not name or name != name.strip(" "):
        return True
    return any(ord(c) < 32 or ord(c) == 127 for c in name)


def property_name_problems(junit: Path) -> list[str]:
    return [
        f"{junit}: a suite property named {name!r} (value {prop.get('value', '')!r})"
        for prop in ET.parse(junit).iter("property")
        if bad_name(name := prop.get("name", ""))
    ]


def key_problems(summary: Path, doc: object, where: str = "") -> list[str]:
    """Each key of the JSON document's objects, at any depth, that is not a name."""
    out = []
    if isinstance(doc, dict):
        for k, v in doc.items():
            if bad_name(k):
                out.append(f"{summary}: key {k!r} at {where or 'the top'} (value {v!r:.80})")
            out += key_problems(summary, v, f"{where}/{k}")
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += key_problems(summary, v, f"{where}/{i}")
    return out


def envelope_problems(
    summary: Path, junit: Path, counts: dict[str, int], suites: list[str]
) -> list[str]:
    try:
        doc = json.loads(summary.read_text())
        env = doc["report"]
    except (ValueError, KeyError, TypeError) as e:
        return [f"{summary}: no report envelope ({e})"]
    out = key_problems(summary, doc) + figure_problems(summary, doc, env.get("harness"))
    stated = {k: env.get(k) for k in counts}
    if stated != counts:
        out.append(f"{summary}: the envelope states {stated}, {junit} counts {counts}")
    if env.get("passed") is not (counts["failures"] == 0 and counts["errors"] == 0):
        out.append(f"{summary}: passed is {env.get('passed')!r} for {counts}")
    link = env.get("junit")
    if not isinstance(link, str) or (summary.parent / link).resolve() != junit.resolve():
        out.append(f"{summary}: junit {link!r} does not lead to {junit}")
    harness, config = env.get("harness"), env.get("config")
    if junit.stem != f"{harness}-{config}":
        out.append(f"{summary}: harness {harness!r} and config {config!r} do not name {junit.name}")
    out += [
        f"{junit}: suite {s!r} is not named for harness {harness!r}"
        for s in suites
        if not s.startswith(f"{harness}.")
    ]
    out += [
        f"{junit}: testcase {name!r} has classname {cls!r}, not '{harness}.<...>'"
        for cls, name in case_keys(junit)
        if not cls.startswith(f"{harness}.")
    ]
    return out


def violations(
    status: int,
    reports: list[Path],
    written: set[Path] | None = None,
    argv: list[str] | None = None,
    elapsed: float | None = None,
) -> list[str]:
    """What a run with exit `status` that declared the JUnit files `reports` broke. `written`
    (default: every file that exists) are the files the run wrote, JSON summaries included;
    `argv`, the command line, when known (its recorded inputs are checked against it)."""
    if status not in (0, 1):
        # An error run owes no report, but one it wrote keeps the naming rules.
        return [
            p
            for junit in reports
            if junit.is_file() and (written is None or junit in written)
            for p in _error_report_problems(junit)
        ]

    def fresh(p: Path) -> bool:
        return p.is_file() and (written is None or p in written)

    out: list[str] = []
    failed_any = False
    for junit in reports:
        if not fresh(junit):
            out.append(f"exit {status} but the run did not write its report {junit}")
            continue
        counts, suites, problems = junit_counts(junit)
        out += problems + case_problems(junit) + input_problems(junit, argv or [])
        out += property_name_problems(junit) + time_problems(junit, argv or [], elapsed)
        out += printed_interval_problems(junit) + non_finite_problems(junit)
        out += digest_problems(junit)
        if argv and (Path(argv[0]).name == "stk-harness" or python_tool(argv)):
            out += suite_property_problems(junit, tool=python_tool(argv))
        failed = counts.get("failures", 0) + counts.get("errors", 0) > 0
        if status == 0 and failed:
            out.append(f"exit 0 but {junit} records {counts}")
        failed_any |= failed
        for summary in summary_candidates(junit):
            if fresh(summary):
                out += envelope_problems(summary, junit, counts, suites)
                out += interval_problems(summary)
    if status == 1 and reports and not failed_any:
        out.append("exit 1 but no report it wrote records a failure or an error")
    return out


_DIGEST = re.compile(r"^(.+)_sha256(?:\.(\d+))?$")


def digest_problems(junit: Path) -> list[str]:
    """docs/reports.md: each digest a report records is the SHA-256 of the file beside it."""
    out = []
    for props in ET.parse(junit).getroot().iter("properties"):
        values = {p.get("name", ""): p.get("value", "") for p in props.iter("property")}
        for name, recorded in values.items():
            if not (m := _DIGEST.match(name)):
                continue
            files = values.get(m.group(1), "")
            if m.group(2) is not None:  # numbered from 1, as every numbered property
                parts, k = files.split(";"), int(m.group(2))
                files = parts[k - 1] if 1 <= k <= len(parts) else ""
            path = Path(files)
            if files and path.is_file():
                actual = hashlib.sha256(path.read_bytes()).hexdigest()
                if actual != recorded:
                    out.append(f"{junit}: {name} is {recorded}, but {files} has SHA-256 {actual}")
    return out


# A number written as nan or inf (a division by zero shown as a figure), not a word holding it.
_NON_FINITE = re.compile(r"(?:^|[^A-Za-z0-9_.])[-+]?(?:nan|inf|infinity)(?:$|[^A-Za-z0-9_])")


def non_finite_figure(text: str) -> str:
    """The first figure of `text` written as nan or inf, with its surroundings, or "" (no figure
    is: docs/report-schema.md#figures-by-harness)."""
    m = _NON_FINITE.search(text)
    return text[max(m.start() - 40, 0) : m.end() + 40] if m else ""


def internal_error_said(why_or_stderr: str) -> str:
    """The internal-error reason in a run's `why` (stkref.cli.failed's argument) or its stderr
    (the line `error: internal error: ...`), or "": a refusal and a crash both end in exit 2
    with an <error> report, and only these words tell them apart (docs/faults.md)."""
    if why_or_stderr.startswith(stkref.cli.INTERNAL_ERROR):
        return why_or_stderr.splitlines()[0]
    said = [
        line
        for line in why_or_stderr.splitlines()
        if line.startswith("error: " + stkref.cli.INTERNAL_ERROR)
    ]
    return said[0] if said else ""


def non_finite_problems(file: Path) -> list[str]:
    if not file.is_file():
        return []
    near = non_finite_figure(file.read_text(errors="replace"))
    return [f"{file}: a figure printed as nan or inf: ...{near}..."] if near else []


_PRINTED_INTERVAL = re.compile(r"\[(-?\d+(?:\.\d+)?)%?, (-?\d+(?:\.\d+)?)%?\]")


def printed_interval_problems(file: Path) -> list[str]:
    """Each `[A, B]` of two numbers in a file's text (facts, a page) runs low end first."""
    if not file.is_file():
        return []
    return [
        f"{file}: interval {m.group(0)} has its ends reversed"
        for m in _PRINTED_INTERVAL.finditer(file.read_text(errors="replace"))
        if float(m.group(1)) > float(m.group(2))
    ]


def interval_problems(summary: Path) -> list[str]:
    """Every interval a summary states runs low end first: a `[A, B]` of two numbers on its
    Markdown page (its JSON's sibling), and in its JSON an object's `lo` <= `hi`, `low` <= `high`,
    and `min` <= `median` <= `max` (bare, or `X_min`, `X_median`, `X_max` of one X)."""
    out = printed_interval_problems(summary.with_suffix(".md"))

    def walk(node: object, at: str) -> None:
        if isinstance(node, dict):
            pairs = [("lo", "hi"), ("low", "high"), ("min", "median"), ("median", "max")]
            pairs += [("min", "max")]
            for k in node:
                if isinstance(k, str) and k.endswith("_min"):
                    p = k[: -len("min")]
                    pairs += [(k, p + "median"), (p + "median", p + "max"), (k, p + "max")]
            for lo, hi in pairs:
                a, b = node.get(lo), node.get(hi)
                numbers = all(
                    isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b)
                )
                if numbers and a > b:  # type: ignore[operator]
                    out.append(f"{summary}: {at or '(top level)'} has {lo} {a} > {hi} {b}")
            for k, v in node.items():
                walk(v, f"{at}.{k}" if at else str(k))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{at}[{i}]")

    with contextlib.suppress(OSError, ValueError):  # envelope_problems names an unreadable one
        walk(json.loads(summary.read_text()), "")
    return out


def _error_report_problems(junit: Path) -> list[str]:
    try:
        return case_problems(junit) + property_name_problems(junit)
    except ET.ParseError as e:
        return [f"{junit}: not XML ({e})"]


def _identity(p: Path) -> tuple[int, int, int] | None:
    try:
        st = p.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns) if p.is_file() else None


class HarnessRun:
    """The contract of one `stk-harness` command line (a list of words), taken before it runs:
    the JUnit files it names (`--junit P`, `--junit=P`, the `*.xml` under `--out-dir D/junit`)
    and the summaries beside them, as they were; `violations(status)` after it ran judges the
    files it wrote (new, or replaced: the writers rename a new file over the old one)."""

    def __init__(self, argv: list[str], cwd: Path | None = None) -> None:
        base = cwd or Path.cwd()
        self.argv = argv
        self.named: list[Path] = []
        self.out_dirs: list[Path] = []
        options = (("--junit", self.named), ("--out-dir", self.out_dirs))
        if python_tool(argv):  # stkref.report.add_report_args: --reports-dir, default ./reports
            options += (("--reports-dir", self.out_dirs),)
        for i, w in enumerate(argv):
            for opt, sink in options:
                if w == opt and i + 1 < len(argv):
                    sink.append(base / argv[i + 1])
                elif w.startswith(opt + "="):
                    sink.append(base / w[len(opt) + 1 :])
        if python_tool(argv) and not any(w.startswith("--reports-dir") for w in argv):
            self.out_dirs.append(base / "reports")
        self.before = {p: _identity(p) for p in self._candidates()}
        self.started = time.monotonic()  # the run starts after this: its time is at most since

    def _candidates(self) -> list[Path]:
        files = [*self.named, *(s for j in self.named for s in summary_candidates(j))]
        for d in self.out_dirs:
            if d.is_dir():
                files += sorted((d / "junit").glob("*.xml")) + sorted(d.glob("*/*.json"))
        return files

    def violations(self, status: int) -> list[str]:
        written = {p for p in self._candidates() if _identity(p) not in (None, self.before.get(p))}
        if "--parse-only" in self.argv and status == 0:  # options parsed, nothing run (docs/cli.md)
            return [f"--parse-only wrote {sorted(map(str, written))}"] if written else []
        reports = [*self.named, *(p for p in written if p.suffix == ".xml" and p not in self.named)]
        elapsed = time.monotonic() - self.started
        return violations(status, reports, written, self.argv, elapsed)


def python_tool(argv: list[str]) -> bool:
    """`python -m stkref.<tool>` or `python -m stktrain.<tool>` (docs/reports.md: the Python
    tools keep the same contract)."""
    return (
        len(argv) > 2
        and argv[1] == "-m"
        and argv[2].split(".")[0] in ("stkref", "stktrain")
        and "." in argv[2]
    )


def is_harness_run(argv: object) -> bool:
    """A command line (list of words) of a reporting program: stk-harness, or a Python tool."""
    if not isinstance(argv, list | tuple) or len(argv) < 2:
        return False
    words = [str(w) for w in argv]
    return Path(words[0]).name == "stk-harness" or python_tool(words)
