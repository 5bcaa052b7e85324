"""reports/history.sqlite (stk-harness history): concurrent appends, export, a corrupt database.

Runs when the stk-harness binary exists (STK_HARNESS, else build/release)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS") or str(REPO / "build/release/harness/stk-harness")
pytestmark = pytest.mark.skipif(
    not Path(HARNESS).exists(), reason=f"stk-harness not built ({HARNESS}); set STK_HARNESS"
)

WRITERS = 8


def reports_with(tmp: Path, nodes: int) -> Path:
    r = tmp / f"reports-{nodes}"
    (r / "junit").mkdir(parents=True)
    (r / "junit/bench-quick.xml").write_text(
        '<testsuites><testsuite name="bench.quick" tests="1"><testcase classname="bench.signature" name="nodes"/>'
        "</testsuite></testsuites>"
    )
    (r / "bench").mkdir()
    (r / "bench/quick.json").write_text(
        json.dumps({"nodes": nodes, "expected_nodes": 1595000, "nodes_per_second": 5})
    )
    return r


def history(db: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [HARNESS, "history", "--db", str(db), *args], capture_output=True, text=True
    )


def test_concurrent_appends_all_arrive(tmp_path: Path):
    db = tmp_path / "history.sqlite"
    dirs = [reports_with(tmp_path, 1000 + i) for i in range(WRITERS)]
    procs = [
        subprocess.Popen(
            [HARNESS, "history", "--db", str(db), "--append", str(d), "--tier", "quick"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for d in dirs
    ]
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, out + err
    proc = history(db, "--csv")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout)))
    assert len(rows) == WRITERS * 3  # three bench figures per run
    assert len({r["run_id"] for r in rows}) == WRITERS
    nodes = sorted(float(r["value"]) for r in rows if r["key"] == "bench.quick.nodes")
    assert nodes == [1000 + i for i in range(WRITERS)]
    assert all(
        r["tier"] == "quick" and int(r["cores"]) >= 1 and r["cpu_model"] and r["revision"]
        for r in rows
    )
    check = subprocess.run(
        ["sqlite3", str(db), "PRAGMA integrity_check"], capture_output=True, text=True
    )
    assert check.stdout.strip() == "ok" or check.returncode != 0  # sqlite3 CLI optional


def test_corrupt_database_is_named_and_nothing_is_appended(tmp_path: Path):
    db = tmp_path / "history.sqlite"
    assert history(db, "--append", str(reports_with(tmp_path, 7))).returncode == 0
    data = bytearray(db.read_bytes())
    data[:16] = b"not a database!!"  # the SQLite header
    db.write_bytes(bytes(data))
    before = db.read_bytes()
    proc = history(db, "--append", str(reports_with(tmp_path, 8)))
    assert proc.returncode == 2
    assert str(db) in proc.stderr and "not a usable history database" in proc.stderr
    assert db.read_bytes() == before
    assert history(db).returncode == 2


def test_a_database_damaged_past_its_header_is_refused_never_read_in_part(tmp_path: Path):
    """docs/review.md#history: a page of the figures damaged on disk (the header, the marks and
    the schema intact) fails SQLite's integrity check before any row is read: exit 2 naming the
    file and the page, no listing or CSV from the rows before it, and an append leaves the file
    as it was (a read that trusted the pages would print a part, or loop on a failing step)."""
    db = tmp_path / "history.sqlite"
    assert history(db, "--append", str(reports_with(tmp_path, 7))).returncode == 0
    con = sqlite3.connect(db)
    cols = [r[1] for r in con.execute("PRAGMA table_info(figures)")]
    row = con.execute(f"SELECT {', '.join(cols)} FROM figures LIMIT 1").fetchone()
    key = cols.index("key")
    for i in range(3000):  # many pages of figures after the first
        values = list(row)
        values[key] = f"bench.quick.extra{i:04}"
        con.execute(f"INSERT INTO figures VALUES ({', '.join('?' * len(cols))})", values)
    con.commit()
    con.close()
    page = 4096
    data = bytearray(db.read_bytes())
    assert len(data) >= 8 * page and len(data) % page == 0
    last = len(data) - page  # the last page: a leaf of the figures table
    data[last : last + page] = b"\xa5" * page
    db.write_bytes(bytes(data))
    before = db.read_bytes()
    for args in ((), ("--csv",)):
        proc = subprocess.run(
            [HARNESS, "history", "--db", str(db), *args],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2, (args, proc.returncode, proc.stdout[-300:], proc.stderr)
        assert f"{db}: not a usable history database: " in proc.stderr, proc.stderr
        assert "integrity check failed" in proc.stderr and "Page " in proc.stderr, proc.stderr
        assert "bench.quick" not in proc.stdout, (args, proc.stdout[:300])
    proc = history(db, "--append", str(reports_with(tmp_path, 8)))
    assert proc.returncode == 2, proc.stderr
    assert db.read_bytes() == before


def test_page_tabulates_each_figure_over_the_last_runs(tmp_path: Path):
    db = tmp_path / "history.sqlite"
    for nodes in (10, 20, 30):
        assert history(db, "--append", str(reports_with(tmp_path, nodes))).returncode == 0
    r = reports_with(tmp_path, 40)
    proc = subprocess.run(
        [HARNESS, "review", "--reports", str(r), "--history-db", str(db)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    page = (r / "index.html").read_text()
    assert page.count('class="series"') == 3  # one row per figure key
    row = page[page.index('<tr class="series" data-key="bench.quick.nodes">') :]
    row = row[: row.index("</tr>")]
    assert [c for c in row.split("<td>")[1:]] == ["30</td>", "20</td>", "10</td>"]  # newest first


def _sqlite(db: Path, *sql: str) -> None:
    import sqlite3

    con = sqlite3.connect(db)
    for s in sql:
        con.execute(s)
    con.commit()
    con.close()


@pytest.mark.parametrize(
    "kind", ["other-table", "other-columns", "part-of-ours", "other-application", "newer-version"]
)
def test_a_foreign_or_newer_database_is_refused_untouched(kind: str, tmp_path: Path):
    # Unmarked databases (no application_id, no user_version) are judged by their tables: one of
    # stk's two tables alone, or one with other columns, is not a history to add to (planted:
    # the part-of-ours rule asking for user_version != 0, so it never fired).
    db = tmp_path / "h.sqlite"
    if kind == "other-table":
        _sqlite(db, "CREATE TABLE notes(x)", "INSERT INTO notes VALUES (1)")
    elif kind == "other-columns":
        _sqlite(db, "CREATE TABLE figures(run_id, key, val)", "INSERT INTO figures VALUES (1,2,3)")
    elif kind == "part-of-ours":
        _sqlite(
            db, "CREATE TABLE figures(run_id, key, value)", "INSERT INTO figures VALUES (1,2,3)"
        )
    else:
        assert (
            history(db, "--append", str(reports_with(tmp_path, 7)), "--tier", "quick").returncode
            == 0
        )
        _sqlite(
            db,
            "PRAGMA application_id = 1234"
            if kind == "other-application"
            else "PRAGMA user_version = 99",
        )
    before = db.read_bytes()
    proc = history(db, "--append", str(reports_with(tmp_path, 8)), "--tier", "quick")
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "left untouched" in proc.stderr, proc.stderr
    why = {"part-of-ours": "holds only part of stk's history tables", "other-columns": "columns"}
    assert why.get(kind, "") in proc.stderr, proc.stderr
    assert db.read_bytes() == before


def test_a_new_database_carries_stk_marks(tmp_path: Path):
    import sqlite3

    db = tmp_path / "h.sqlite"
    assert (
        history(db, "--append", str(reports_with(tmp_path, 9)), "--tier", "quick").returncode == 0
    )
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA application_id").fetchone()[0] == 0x53544B48
    assert con.execute("PRAGMA user_version").fetchone()[0] == 1
    con.close()


def test_reading_a_missing_database_names_it_and_creates_nothing(tmp_path: Path):
    # Only --append creates a history; printing one that is not there is an input error with
    # the reason (planted: the existence check removed, SQLite's own message instead).
    db = tmp_path / "none.sqlite"
    for args in ((), ("--csv",)):
        proc = history(db, *args)
        assert proc.returncode == 2, proc.stdout + proc.stderr
        assert f"{db}: not a usable history database: does not exist" in proc.stderr
        assert not db.exists()


def cpu_model_of_this_machine() -> str:
    """docs/review.md "History": the first `model name` of /proc/cpuinfo, read here on its own."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return "unknown"
    for line in lines:
        if line.startswith("model name"):
            return line.partition(":")[2].strip()
    return "unknown"


def test_the_listing_and_the_csv_hold_every_figure_with_the_runs_facts(tmp_path: Path):
    """Two appended runs read back both ways agree figure for figure (the listing once lost every
    figure of a run but its first), and the facts recorded are the machine's and the clock's,
    read here independently. Planted: the date left empty; the CPU model from the colon on."""
    db = tmp_path / "history.sqlite"
    before = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    for nodes in (11, 22):
        r = history(db, "--append", str(reports_with(tmp_path, nodes)), "--tier", "full")
        assert r.returncode == 0, r.stderr
    after = dt.datetime.now(dt.timezone.utc)
    rows = list(csv.DictReader(io.StringIO(history(db, "--csv").stdout)))
    assert len(rows) == 6 and len({r["run_id"] for r in rows}) == 2
    for r in rows:
        when = dt.datetime.strptime(r["date"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
        assert before <= when <= after, r["date"]
        assert r["cpu_model"] == cpu_model_of_this_machine()
        assert int(r["cores"]) == os.cpu_count() and r["tier"] == "full"
    listing = history(db).stdout.splitlines()
    runs = [line for line in listing if line.startswith("run ")]
    figures = [line for line in listing if line.startswith("  ")]
    assert len(runs) == 2 and len(figures) == len(rows), listing
    for r in rows:
        head = f"run {r['run_id']} {r['date']} {r['revision']} {r['tier']} ({r['cpu_model']}, "
        assert any(line.startswith(head) for line in runs), (head, runs)
    assert sorted(line.strip() for line in figures) == sorted(
        f"{r['key']} = {float(r['value']):.10g}" for r in rows
    )


STKH = 0x53544B48  # application_id of stk's history (docs/faults.md#the-history-database)
COLUMNS = {"ours": None, "other-columns": "x, y", "absent": ""}


def _stk_table_sql(tmp: Path) -> dict[str, str]:
    """CREATE TABLE statements of stk's two tables, as the harness writes them."""
    import sqlite3

    db = tmp / "template.sqlite"
    assert history(db, "--append", str(reports_with(tmp, 1)), "--tier", "quick").returncode == 0
    con = sqlite3.connect(db)
    sql = dict(con.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
    con.close()
    assert set(sql) == {"runs", "figures"}, sql
    return sql


def _admitted(app: int, version: int, runs: str, figures: str, foreign: bool) -> bool:
    """docs/faults.md#the-history-database and docs/review.md, read as a rule: stk's mark or
    none, a user_version in 0..1, no table but runs and figures, each with stk's columns; and an
    unmarked file (both marks 0) that holds tables holds both (one alone is not a history)."""
    if app not in (0, STKH) or not 0 <= version <= 1 or foreign:
        return False
    if "other-columns" in (runs, figures):
        return False
    tables = [t for t in (runs, figures) if t != "absent"]
    return not (app == 0 and version == 0 and len(tables) == 1)


# MODEL history-database-admission
# checks: harness/src/commands/history/history.cpp  (which existing databases history --append adds to, and which it leaves untouched)
# contract: docs/faults.md#the-history-database
# planted: ci/mutants/history-unmarked-whole-refused.patch  (an unmarked history holding both tables refused)
def test_which_databases_history_appends_to_follows_the_documented_rule(tmp_path: Path):
    """Every shape of an existing database over the rule's inputs (mark, version, each table
    absent / stk's / other columns, a foreign table): appended to (exit 0, one run more) exactly
    when the rule admits it, else exit 2 naming it, byte for byte untouched."""
    import itertools
    import sqlite3

    stk_sql = _stk_table_sql(tmp_path)
    reports = reports_with(tmp_path, 2)
    shapes = itertools.product((0, STKH, 0x1234), (-1, 0, 1, 2), COLUMNS, COLUMNS, (False, True))
    wrong = []
    for i, (app, version, runs, figures, foreign) in enumerate(shapes):
        db = tmp_path / f"h{i}.sqlite"
        sql = [f"PRAGMA application_id = {app}", f"PRAGMA user_version = {version}"]
        for table, shape in (("runs", runs), ("figures", figures)):
            if shape != "absent":
                sql.append(stk_sql[table] if shape == "ours" else f"CREATE TABLE {table}(x, y)")
        if foreign:
            sql.append("CREATE TABLE notes(x)")
        _sqlite(db, *sql)
        before = db.read_bytes()
        proc = history(db, "--append", str(reports), "--tier", "quick")
        shape = f"application_id {app:#x}, user_version {version}, runs {runs}, figures {figures}"
        shape += ", a foreign table" if foreign else ""
        if _admitted(app, version, runs, figures, foreign):
            con = sqlite3.connect(db)
            appended = con.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
            con.close()
            if proc.returncode != 0 or appended != 1:
                wrong.append(f"{shape}: refused or not appended ({proc.returncode}: {proc.stderr})")
        elif proc.returncode != 2 or db.read_bytes() != before or str(db) not in proc.stderr:
            wrong.append(f"{shape}: not refused untouched ({proc.returncode}: {proc.stderr})")
    assert not wrong, "\n".join(wrong)
