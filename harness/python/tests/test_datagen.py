"""stk-harness datagen (docs/datagen.md): the record format, determinism at any concurrency,
shards that partition a run, resuming after a kill, and bad state or input refused with exit 2."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import chess
import pytest

ROOT = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS") or str(ROOT / "build/release/harness/stk-harness")


def datagen(
    tmp: Path, *args: str, name: str = "d", nodes: str = "200"
) -> subprocess.CompletedProcess:
    if not Path(HARNESS).exists():
        pytest.skip(f"stk-harness not found at {HARNESS}")
    fast = ["--nodes", nodes, "--balance-nodes", "200", "--max-plies", "30"]
    argv = [
        HARNESS,
        "datagen",
        *fast,
        "--out",
        str(tmp / f"{name}.txt"),
        "--out-dir",
        str(tmp / "r"),
    ]
    return subprocess.run([*argv, *args], capture_output=True, text=True, timeout=300, check=False)


def records(path: Path) -> list[list[str]]:
    return [line.split(" | ") for line in path.read_text().splitlines()]


def test_records_are_positions_with_white_relative_labels(tmp_path: Path, junit_xsd: Path):
    proc = datagen(tmp_path, "--games", "3", "--seed", "7", "--config", "t")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "positions/s per core" in proc.stdout
    recs = records(tmp_path / "d.txt")
    journal = (tmp_path / "d.txt.journal").read_text().splitlines()
    header, games = json.loads(journal[0]), [json.loads(x) for x in journal[1:]]
    assert header["kind"] == "stk-datagen-journal" and header["definition"]["seed"] == 7
    assert [g["game"] for g in games] == [0, 1, 2]
    assert sum(g["records"] for g in games) == len(recs) > 0
    at = 0
    for g in games:
        want = {"1-0": "1.0", "0-1": "0.0", "1/2-1/2": "0.5"}[g["result"]]
        for fen, score, result, ply, quiet in recs[at : at + g["records"]]:
            board = chess.Board(fen)  # a legal position, six fields
            assert result == want
            assert int(ply) == board.ply()
            if quiet == "1":  # the quiet filter: not in check, not a mate score
                assert not board.is_check() and abs(int(score)) < 31000
            int(score)
        at += g["records"]
    summary = json.loads((tmp_path / "r/datagen/t.json").read_text())
    assert summary["positions"] == len(recs) and summary["games"] == 3
    assert summary["quiet_positions"] == sum(r[4] == "1" for r in recs)
    assert summary["report"]["passed"] and summary["positions_per_second_per_core"] > 0
    r = subprocess.run(
        ["xmllint", "--noout", "--schema", str(junit_xsd), str(tmp_path / "r/junit/datagen-t.xml")]
    )
    assert r.returncode == 0


def test_the_same_arguments_write_the_same_bytes_at_any_concurrency(tmp_path: Path):
    one = datagen(tmp_path, "--games", "4", "--concurrency", "1", name="one")
    two = datagen(tmp_path, "--games", "4", "--concurrency", "2", name="two")
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    assert (tmp_path / "one.txt").read_bytes() == (tmp_path / "two.txt").read_bytes()
    # Planted: another seed must change the data (a seed that is ignored would pass the above).
    other = datagen(tmp_path, "--games", "4", "--seed", "2", name="other")
    assert (
        other.returncode == 0
        and (tmp_path / "other.txt").read_bytes() != (tmp_path / "one.txt").read_bytes()
    )


def test_shards_partition_the_run(tmp_path: Path):
    whole = datagen(tmp_path, "--games", "4", name="whole")
    s1 = datagen(tmp_path, "--games", "4", "--shard", "1/2", name="s1")
    s2 = datagen(tmp_path, "--games", "4", "--shard", "2/2", name="s2")
    assert whole.returncode == s1.returncode == s2.returncode == 0, s1.stderr + s2.stderr
    lines = sorted(
        (tmp_path / "s1.txt").read_text().splitlines()
        + (tmp_path / "s2.txt").read_text().splitlines()
    )
    assert lines == sorted((tmp_path / "whole.txt").read_text().splitlines())
    games = [
        json.loads(x)["game"] for x in (tmp_path / "s2.txt.journal").read_text().splitlines()[1:]
    ]
    assert games == [1, 3]


def test_a_killed_run_resumes_to_the_same_bytes(tmp_path: Path):
    ref = datagen(tmp_path, "--games", "4", name="ref")
    assert ref.returncode == 0, ref.stderr
    # The state a kill leaves: two games journaled, a third written to the data file but not
    # journaled, and a torn journal line.
    journal = (tmp_path / "ref.txt.journal").read_text().splitlines(keepends=True)
    two = json.loads(journal[2])["bytes"]
    data = (tmp_path / "ref.txt").read_bytes()
    (tmp_path / "cut.txt").write_bytes(data[: two + 100])
    (tmp_path / "cut.txt.journal").write_text("".join(journal[:3]) + journal[3][:20])
    again = datagen(tmp_path, "--games", "4", name="cut")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "dropped a torn last line" in again.stderr
    assert "2 already in" in again.stdout
    assert (tmp_path / "cut.txt").read_bytes() == data


def test_state_from_another_run_or_no_journal_is_refused_untouched(tmp_path: Path):
    assert datagen(tmp_path, "--games", "2").returncode == 0
    before = (tmp_path / "d.txt").read_bytes()
    other = datagen(tmp_path, "--games", "2", nodes="300")
    assert (
        other.returncode == 2
        and "holds a different run" in other.stderr
        and "nodes" in other.stderr
    ), other.stderr
    assert (tmp_path / "d.txt").read_bytes() == before
    (tmp_path / "d.txt.journal").unlink()
    orphan = datagen(tmp_path, "--games", "2")
    assert orphan.returncode == 2 and "exists without its journal" in orphan.stderr, orphan.stderr
    assert (tmp_path / "d.txt").read_bytes() == before
    # A data file shorter than its journal says (cut or replaced) is refused, not extended.
    assert datagen(tmp_path, "--games", "2", name="e").returncode == 0
    (tmp_path / "e.txt").write_bytes((tmp_path / "e.txt").read_bytes()[:50])
    cut = datagen(tmp_path, "--games", "3", name="e")
    assert cut.returncode == 2, cut.stderr


def test_a_bad_opening_book_names_its_line(tmp_path: Path):
    book = tmp_path / "book.epd"
    book.write_text(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nnot a fen at all\n"
    )
    proc = datagen(tmp_path, "--games", "2", "--openings", str(book))
    assert proc.returncode == 2 and f"{book}:2" in proc.stderr, proc.stderr
    assert not (tmp_path / "d.txt").exists()
    assert "<error" in (tmp_path / "r/junit/datagen-seed1.xml").read_text()


def test_the_read_back_check_fails_on_a_record_damaged_on_disk(tmp_path: Path, junit_xsd: Path):
    """Planted: one journaled record's result flipped in place (same length): the next run of the
    same command reads the file back and fails `data file reads back`, naming the line."""
    assert datagen(tmp_path, "--games", "2", "--config", "t").returncode == 0
    data = tmp_path / "d.txt"
    lines = data.read_text().splitlines(keepends=True)
    fen, score, result, rest = lines[1].split(" | ", 3)
    flipped = "0.0" if result != "0.0" else "1.0"
    lines[1] = " | ".join([fen, score, flipped, rest])
    data.write_text("".join(lines))
    proc = datagen(tmp_path, "--games", "2", "--config", "t")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    xml = (tmp_path / "r/junit/datagen-t.xml").read_text()
    assert 'name="data file reads back"' in xml and f"{data}:2: result {flipped}" in xml
    r = subprocess.run(
        ["xmllint", "--noout", "--schema", str(junit_xsd), str(tmp_path / "r/junit/datagen-t.xml")]
    )
    assert r.returncode == 0


# MODEL datagen-quiet-flag
# checks: harness/src/commands/datagen/datagen_file.cpp  (the quiet flag a data file's record may hold)
# contract: docs/datagen.md#report
# planted: ci/mutants/datagen-quiet-flag-below-zero-only.patch  (only flags sorting below "0" refused)
@pytest.mark.parametrize(
    ("flag", "kept"),
    [
        ("0", True),
        ("1", True),
        ("/", False),
        ("2", False),
        (" ", False),
        ("00", False),
        ("10", False),
    ],
)
def test_a_records_quiet_flag_is_exactly_0_or_1(tmp_path: Path, flag: str, kept: bool):
    """The read-back check on the next run of the same command: each flag either side of "0" and
    "1" in byte order, a blank and a longer one is refused naming the line (a shorter file fails
    the journal's size check first); "0" and "1" are read (a flag put in place of the other keeps
    every length and offset)."""
    assert datagen(tmp_path, "--games", "2", "--config", "t").returncode == 0
    data = tmp_path / "d.txt"
    lines = data.read_text().splitlines(keepends=True)
    fields = lines[1].rstrip("\n").split(" | ")
    fields[4] = flag
    lines[1] = " | ".join(fields) + "\n"
    data.write_text("".join(lines))
    proc = datagen(tmp_path, "--games", "2", "--config", "t")
    xml = (tmp_path / "r/junit/datagen-t.xml").read_text()
    if kept:
        assert len(flag) == 1
        assert proc.returncode == 0, proc.stdout + proc.stderr
    else:
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert f"{data}:2: quiet flag is not 0 or 1" in xml, xml[-600:]


FAKE_TEACHER = """#!{python}
# A UCI teacher for the tests: scores every position {cp} cp for the side to move, plays the
# first legal move in python-chess's order (a capture when one exists: so quiet is the teacher's
# move's); MODE "bound" prints only a lowerbound score, which is no label.
import sys
import chess
board = chess.Board()
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "uci":
        print("id name fake-teacher\\nuciok", flush=True)
    elif w[0] == "isready":
        print("readyok", flush=True)
    elif w[0] == "position":
        board = chess.Board(" ".join(w[2:8]))
    elif w[0] == "go":
        moves = sorted(board.legal_moves, key=lambda m: not board.is_capture(m))
        bound = " lowerbound" if "{mode}" == "bound" else ""
        print(f"info depth 1 score cp {cp}{{bound}} pv {{moves[0].uci()}}", flush=True)
        print(f"bestmove {{moves[0].uci()}}", flush=True)
    elif w[0] == "quit":
        break
"""


def fake_teacher(tmp: Path, cp: int = 77, mode: str = "") -> str:
    import sys

    path = tmp / f"teacher-{mode or 'ok'}.py"
    path.write_text(FAKE_TEACHER.format(python=sys.executable, cp=cp, mode=mode))
    path.chmod(0o755)
    return str(path)


def test_a_teacher_labels_every_record_and_the_run_says_so(tmp_path: Path):
    """--teacher: each score is the teacher's, from White's view (77 for the side to move), the
    quiet flag follows the teacher's best move, the games are the ones stk plays alone (same
    FENs), and the journal and report name the teacher."""
    teacher = fake_teacher(tmp_path)
    proc = datagen(tmp_path, "--games", "2", "--teacher", teacher, "--config", "t", name="t")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    alone = datagen(tmp_path, "--games", "2", "--config", "a", name="a")
    assert alone.returncode == 0, alone.stderr
    taught, own = records(tmp_path / "t.txt"), records(tmp_path / "a.txt")
    assert [r[0] for r in taught] == [r[0] for r in own]  # the moves stay stk's
    for fen, score, _, _, quiet in taught:
        board = chess.Board(fen)
        assert int(score) == (77 if board.turn == chess.WHITE else -77)
        first = sorted(board.legal_moves, key=lambda m: not board.is_capture(m))[0]
        assert quiet == str(int(not board.is_check() and not board.is_capture(first)))
    header = json.loads((tmp_path / "t.txt.journal").read_text().splitlines()[0])
    assert teacher in header["definition"]["labels"]
    report = json.loads((tmp_path / "r/datagen/t.json").read_text())
    assert report["teacher"] == teacher and "teacher" in report["labels"]


def test_a_teacher_without_a_score_stops_the_run_keeping_finished_games(
    tmp_path: Path, junit_xsd: Path
):
    from conftest import validate_junit

    report = tmp_path / "r/junit/datagen-seed1.xml"
    report.parent.mkdir(parents=True)
    report.write_text(
        '<testsuites><testsuite name="stale"><testcase name="old pass"/></testsuite></testsuites>'
    )
    proc = datagen(tmp_path, "--games", "2", "--teacher", fake_teacher(tmp_path, mode="bound"))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "printed no score before bestmove" in proc.stderr and "teacher-bound.py" in proc.stderr
    xml = report.read_text()  # the stale pass is replaced by an error report
    assert "old pass" not in xml and "<error" in xml
    validate_junit(junit_xsd, report)
    data = tmp_path / "d.txt"  # no game finished: nothing half-written
    assert not data.exists() or data.read_text() == ""


def test_a_journal_termination_that_is_no_name_or_disagrees_with_its_result_is_refused(
    tmp_path: Path,
):
    """docs/datagen.md "Report": a journal line's termination is one of the names and agrees with
    its result (checkmate decides, the other rules draw); else exit 2 naming the line, the data
    untouched. A journal from before the field (no termination) resumes, its games `unrecorded`."""
    assert datagen(tmp_path, "--games", "2").returncode == 0
    journal = tmp_path / "d.txt.journal"
    lines = journal.read_text().splitlines(keepends=True)
    before = (tmp_path / "d.txt").read_bytes()
    game = json.loads(lines[1])
    for termination, result in (("stalemate", "1-0"), ("checkmate", "1/2-1/2"), ("mate", None)):
        bad = dict(game, termination=termination, result=result or game["result"])
        journal.write_text(lines[0] + json.dumps(bad) + "\n" + "".join(lines[2:]))
        r = datagen(tmp_path, "--games", "2")
        assert r.returncode == 2, r.stdout + r.stderr
        assert "d.txt.journal:2" in r.stderr and "termination" in r.stderr, r.stderr
        assert (tmp_path / "d.txt").read_bytes() == before
    # Without the field: resumed, and the report counts those games as unrecorded.
    old = [lines[0]] + [
        json.dumps({k: v for k, v in json.loads(x).items() if k != "termination"}) + "\n"
        for x in lines[1:]
    ]
    journal.write_text("".join(old))
    r = datagen(tmp_path, "--games", "2", "--config", "u")
    assert r.returncode == 0, r.stdout + r.stderr
    summary = json.loads((tmp_path / "r/datagen/u.json").read_text())
    assert summary["terminations"]["unrecorded"]["games"] == 2
    assert list(summary["terminations"]) == ["unrecorded"]


def test_the_review_page_shows_how_datagen_and_match_games_ended(tmp_path: Path):
    """Issue 33 item 3: terminations reach the review page for datagen and match alike, one
    figure per termination that occurred, read from the machine field (each run reviewed alone,
    so that one harness's figures cannot stand in for the other's)."""
    assert datagen(tmp_path, "--games", "4", "--config", "t").returncode == 0
    engine = os.environ.get("STK_ENGINE") or str(ROOT / "build/release/engine/stk")
    played = subprocess.run(
        [
            HARNESS,
            "match",
            "--engine",
            f"cmd={engine}",
            "name=a",
            "--engine",
            f"cmd={engine}",
            "name=b",
            "--nodes",
            "300",
            "--pairs",
            "1",
            "--gate",
            "non-regression",
            "--min-elo-lower95",
            "-100000",
            "--quiet",
            "--config",
            "m",
            "--out-dir",
            str(tmp_path / "m"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert played.returncode == 0, played.stdout + played.stderr
    for reports, kinds in (
        ("r", json.loads((tmp_path / "r/datagen/t.json").read_text())["terminations"]),
        ("m", json.loads((tmp_path / "m/match/m.json").read_text())["diagnostics"]["terminations"]),
    ):
        page = subprocess.run(
            [HARNESS, "review", "--reports", str(tmp_path / reports)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert page.returncode == 0, page.stdout + page.stderr
        html = (tmp_path / reports / "index.html").read_text()
        assert kinds
        for kind in kinds:
            assert f"games ended by {kind}" in html, (reports, kind)


def test_progress_lines_count_games_and_positions_as_documented(tmp_path: Path):
    """docs/datagen.md "Report": a progress line after every 10th game of the shard and after
    its last, then the totals of the file (records, quiet records). Planted: the progress line
    only every 10th game (the last, 23rd, never printed)."""
    r = datagen(tmp_path, "--games", "23")
    assert r.returncode == 0, r.stderr
    progress = re.findall(
        r"^datagen: (\d+)/(\d+) games, (\d+) positions this run, [\d.]+ positions/s per core$",
        r.stdout,
        re.M,
    )
    assert [(int(n), int(m)) for n, m, _ in progress] == [(10, 23), (20, 23), (23, 23)]
    rows = records(tmp_path / "d.txt")
    written = [int(p) for _, _, p in progress]
    assert written == sorted(written) and written[-1] == len(rows)
    quiet = sum(row[4] == "1" for row in rows)
    total = re.search(r"^datagen: 23 games, (\d+) positions \((\d+) quiet\)", r.stdout, re.M)
    assert total and (int(total[1]), int(total[2])) == (len(rows), quiet), r.stdout
    assert re.search(r"^datagen: ended: ", r.stdout, re.M)
