"""ci/make-models-index.py: the committed index is current, and every defect of a MODEL block that
would make the index lie is refused with the file and line (each case keeps or breaks one rule)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stkmutation import models
from stkref.errors import InputError

ROOT = Path(__file__).resolve().parents[3]

SOURCE = "harness/src/stats/wilson.cpp"
PATCH = f"""diff --git a/{SOURCE} b/{SOURCE}
--- a/{SOURCE}
+++ b/{SOURCE}
@@ -1 +1 @@
-int x = 1;
+int x = 2;
"""


def tree(tmp: Path, block: str, manifest: str | None = None, patch: str = PATCH) -> Path:
    """A minimal repository: one source, one doc with one heading, one test with `block`."""
    (tmp / "harness/src/stats").mkdir(parents=True)
    (tmp / SOURCE).write_text("int x = 1;\n")
    (tmp / "docs").mkdir()
    (tmp / "docs/stats.md").write_text("# Stats\n\n## The Wilson interval\n")
    (tmp / "ci/mutants").mkdir(parents=True)
    (tmp / "ci/mutants/model-wilson.patch").write_text(patch)
    listed = (
        manifest
        if manifest is not None
        else ('model-wilson.patch | ./build/release/harness/stk-tests "Wilson equals its model"\n')
    )
    (tmp / "ci/mutants/MANIFEST").write_text(listed)
    (tmp / "harness/tests").mkdir(parents=True)
    (tmp / "harness/tests/stats_model_test.cpp").write_text(
        block + 'TEST_CASE("Wilson equals its model", "[model]") {}\n'
    )
    return tmp


GOOD = (
    "// MODEL stats-wilson\n"
    f"// checks: {SOURCE}  (the Wilson interval)\n"
    "// contract: docs/stats.md#the-wilson-interval\n"
    "// planted: ci/mutants/model-wilson.patch  (the centre unshifted)\n"
)


def test_a_well_formed_block_is_indexed_under_its_module(tmp_path: Path) -> None:
    root = tree(tmp_path, GOOD)
    found = models.collect(root)
    assert [(m.id, m.test_name, m.line) for m in found] == [
        ("stats-wilson", "Wilson equals its model", 1)
    ]
    assert models.problems(found, root) == []
    page = models.render(found, models.code_modules(root), {"model-wilson.patch": "killed"})
    assert "1 models; 1 of 1 modules checked by at least one." in page
    assert "| `harness/src/stats` | [stats-wilson]" in page and "| yes |" in page


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda b: b.replace("#the-wilson-interval", "#wilson"), "has no heading #wilson"),
        (lambda b: b.replace("docs/stats.md", "docs/none.md"), "no such file docs/none.md"),
        (lambda b: b.replace(SOURCE, "harness/src/stats/elo.cpp"), "no such file"),
        (lambda b: b.replace("model-wilson.patch", "model-x.patch"), "no such patch"),
    ],
)
def test_a_block_that_names_what_is_not_there_is_refused(tmp_path, edit, message) -> None:
    root = tree(tmp_path, edit(GOOD))
    assert any(message in p for p in models.problems(models.collect(root), root))


@pytest.mark.parametrize("where", ["beside", "STK_SHARED"])
def test_a_shared_contract_is_read_from_stk_shared_where_set(tmp_path, monkeypatch, where) -> None:
    # ../shared/ is the shared documents, STK_SHARED where set: a mutation run's scratch clone
    # (build/mutation/job0) has no ../shared beside it, and every baseline there failed the
    # committed-index check. Planted: the contract read beside the tree whatever STK_SHARED says.
    root = tree(tmp_path / "repo", GOOD.replace("docs/stats.md", "../shared/HARNESS.md"))
    shared = tmp_path / ("shared" if where == "beside" else "elsewhere")
    shared.mkdir()
    (shared / "HARNESS.md").write_text("# Harness\n\n## The Wilson interval\n")
    if where == "STK_SHARED":
        monkeypatch.setenv("STK_SHARED", str(shared))
        (tmp_path / "shared").mkdir()  # an empty folder beside the tree: not the one to read
    else:
        monkeypatch.delenv("STK_SHARED", raising=False)
    assert models.problems(models.collect(root), root) == []
    (shared / "HARNESS.md").unlink()
    assert any(
        "contract: no such file ../shared/HARNESS.md" in p
        for p in models.problems(models.collect(root), root)
    )


def test_a_patch_that_changes_another_file_is_refused(tmp_path: Path) -> None:
    root = tree(tmp_path, GOOD, patch=PATCH.replace(SOURCE, "harness/src/stats/elo.cpp"))
    assert [p for p in models.problems(models.collect(root), root) if "does not change" in p]


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ("", "is not in ci/mutants/MANIFEST"),
        ('model-wilson.patch | ./build/release/harness/stk-tests "other"\n', "no check naming"),
    ],
)
def test_a_planted_change_no_check_runs_the_model_on_is_refused(
    tmp_path, manifest, message
) -> None:
    root = tree(tmp_path, GOOD, manifest=manifest)
    assert any(message in p for p in models.problems(models.collect(root), root))


def test_the_same_id_twice_is_refused(tmp_path: Path) -> None:
    root = tree(tmp_path, GOOD)
    test = root / "harness/tests/stats_model_test.cpp"
    test.write_text(test.read_text() * 2)
    assert any("id used again" in p for p in models.problems(models.collect(root), root))


@pytest.mark.parametrize(
    ("block", "message"),
    [
        (GOOD.replace("// contract: docs/stats.md#the-wilson-interval\n", ""), "lacks contract:"),
        (GOOD.replace("stats-wilson", "Stats_Wilson"), "not lowercase-with-dashes"),
    ],
)
def test_a_malformed_block_names_its_file_and_line(tmp_path, block, message) -> None:
    root = tree(tmp_path, block)
    with pytest.raises(InputError, match=rf"harness/tests/stats_model_test.cpp:1: .*{message}"):
        models.collect(root)


def test_a_block_with_no_test_after_it_is_refused(tmp_path: Path) -> None:
    root = tree(tmp_path, GOOD)
    (root / "harness/tests/stats_model_test.cpp").write_text(GOOD)
    with pytest.raises(InputError, match="is not followed by a test"):
        models.collect(root)


def test_the_committed_index_is_what_the_tests_give() -> None:
    assert models.main(["--check"]) == 0, "run ci/make-models-index.py and commit docs/models.md"


@pytest.mark.parametrize(("gap", "indexed"), [(0, True), (29, True), (30, False), (200, False)])
def test_a_block_reaches_the_test_at_most_30_lines_below(tmp_path, gap: int, indexed: bool) -> None:
    """docs/models-howto.md: the block sits directly above its test, its decorators (a long
    parametrize list) between, the test's first line at most 30 lines below the block."""
    root = tree(tmp_path, GOOD + "// a line between\n" * gap)
    if indexed:
        assert [m.test_name for m in models.collect(root)] == ["Wilson equals its model"]
    else:
        with pytest.raises(
            InputError, match=r"stats_model_test.cpp:1: MODEL stats-wilson is not followed"
        ):
            models.collect(root)
