"""ci/check-mutants.sh end to end on a toy repository, every verdict both ways
(docs/planted-defects.md): a planted defect its check fails on is caught, one its check passes on
survived, a patch that does not apply and a check that fails without any defect (the null control)
are setup errors; the exit code follows (0 all caught, 1 a survivor, 2 an error). Sharded runs
merged give the unsharded run's verdicts (a metamorphic relation: no oracle needed).

The toy repository has the layout the tool drives (CMake presets, harness/python, ci/mutants), so
everything runs as on the real one: the scratch clone, the patch, the build, the check with its
$MUTANT_OUT and PYTHONPATH in the clone, the report."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from stkmutation import planted

pytestmark = pytest.mark.skipif(
    not (shutil.which("cmake") and shutil.which("ninja") and shutil.which("git")),
    reason="needs cmake, ninja and git",
)

RULES = '''"""The toy's rule."""


def limit() -> int:
    # the documented limit
    return 3
'''

CMAKE = """cmake_minimum_required(VERSION 3.20)
project(toy NONE)
foreach(t stk stk-harness stk-fake-uci stk-fault-inject stk-tests stk-engine-tests)
  add_custom_target(${t})
endforeach()
"""

PRESETS = {
    "version": 3,
    "configurePresets": [
        {"name": "release", "generator": "Ninja", "binaryDir": "${sourceDir}/build/release"}
    ],
    "buildPresets": [{"name": "release", "configurePreset": "release"}],
}

# The check reads the rule from the clone (PYTHONPATH) and writes where $MUTANT_OUT says.
CHECK = (
    '"$STK_PYTHON" -c \'import os, toy.rules as r, sys; '
    'open(os.environ["MUTANT_OUT"] + "/ran", "w").close(); sys.exit(r.limit() != 3)\''
)
FAILS_WITHOUT_DEFECT = "\"$STK_PYTHON\" -c 'import sys; sys.exit(1)'"


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def patch_of(root: Path, old: str, new: str) -> str:
    """The diff that turns the committed rule's `old` into `new` (the tree is left as it was)."""
    rules = root / "harness" / "python" / "toy" / "rules.py"
    rules.write_text(RULES.replace(old, new))
    diff = git(root, "diff", "--", "harness/python/toy/rules.py")
    rules.write_text(RULES)
    return diff


def toy_repository(root: Path, cmake: str = CMAKE) -> Path:
    (root / "harness" / "python" / "toy").mkdir(parents=True)
    (root / "ci" / "mutants").mkdir(parents=True)
    (root / "CMakeLists.txt").write_text(cmake)
    (root / "CMakePresets.json").write_text(json.dumps(PRESETS))
    (root / ".gitignore").write_text("build/\n")
    (root / "harness" / "python" / "toy" / "__init__.py").write_text("")
    (root / "harness" / "python" / "toy" / "rules.py").write_text(RULES)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "toy")
    patches = {
        "toy-limit-off-by-one.patch": patch_of(root, "return 3", "return 4"),
        "toy-comment-only.patch": patch_of(root, "# the documented limit", "# the limit"),
        "toy-stale.patch": patch_of(root, "return 3", "return 5").replace(
            "-    return 3", "-    return 30"
        ),
        "toy-hollow-check.patch": patch_of(root, "return 3", "return 6"),
    }
    manifest = [
        f"toy-limit-off-by-one.patch | {CHECK}",
        f"toy-comment-only.patch | {CHECK}",
        f"toy-stale.patch | {CHECK}",
        f"toy-hollow-check.patch | {FAILS_WITHOUT_DEFECT}",
    ]
    for name, text in patches.items():
        (root / "ci" / "mutants" / name).write_text(text)
    (root / "ci" / "mutants" / "MANIFEST").write_text("\n".join(manifest) + "\n")
    git(root, "add", "-A")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "patches")
    return root


def check_mutants(monkeypatch, root: Path, out: Path, *argv: str) -> tuple[int, dict[str, dict]]:
    monkeypatch.setattr(planted, "ROOT", root)
    monkeypatch.setenv("STK_PYTHON", sys.executable)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    rc = planted.main(["--out-dir", str(out), "--timeout", "120", *argv])
    config = argv[argv.index("--config") + 1]
    if "--shard" in argv:  # the shard is part of the report's name
        k, n = argv[argv.index("--shard") + 1].split("/")
        config += f"-shard{k}of{n}"
    doc = json.loads((out / "mutants" / f"{config}.json").read_text())
    return rc, {r["id"]: r for r in doc["mutants"]}


def verdicts(records: dict[str, dict]) -> dict[str, tuple[str, list]]:
    return {
        k: (r["outcome"], [(c["caught"], c["exit_code"]) for c in r["checks"]])
        for k, r in records.items()
    }


# MODEL check-mutants-verdicts-end-to-end
# checks: harness/python/stkmutation/planted.py  (a planted defect's verdict: caught, survived, setup error; the exit code)
# contract: docs/planted-defects.md#planted-defects
# planted: ci/mutants/model-check-mutants-checks-read-main-tree.patch  (checks import the main tree's Python, not the patched clone's)
def test_every_verdict_of_check_mutants_both_ways(tmp_path: Path, monkeypatch):
    root = toy_repository(tmp_path / "toy")
    rc, records = check_mutants(monkeypatch, root, tmp_path / "out", "--config", "all")
    assert {k: r["outcome"] for k, r in records.items()} == {
        "toy-limit-off-by-one.patch": "killed",
        "toy-comment-only.patch": "survived",
        "toy-stale.patch": "error",
        "toy-hollow-check.patch": "error",
    }
    assert records["toy-limit-off-by-one.patch"]["checks"][0]["exit_code"] == 1
    assert records["toy-comment-only.patch"]["checks"][0]["exit_code"] == 0
    assert "does not apply to HEAD" in records["toy-stale.patch"]["message"]
    assert records["toy-hollow-check.patch"]["message"].startswith(
        "null control: the check fails (exit 1) on HEAD without the defect"
    )
    assert rc == 2  # a setup error outranks a survivor

    # Without the errors: a survivor is exit 1, all caught exit 0.
    rc, _ = check_mutants(
        monkeypatch, root, tmp_path / "out", "--config", "two", "off-by-one|comment"
    )
    assert rc == 1
    rc, records = check_mutants(monkeypatch, root, tmp_path / "out", "--config", "one", "off-by")
    assert rc == 0 and records["toy-limit-off-by-one.patch"]["outcome"] == "killed"


def test_merged_shards_give_the_unsharded_verdicts(tmp_path: Path, monkeypatch):
    root = toy_repository(tmp_path / "toy")
    out = tmp_path / "out"
    rc_all, whole = check_mutants(monkeypatch, root, out, "--config", "whole", "--jobs", "2")
    for k in (1, 2):
        check_mutants(monkeypatch, root, out, "--config", f"s{k}", "--shard", f"{k}/2")
    rc = planted.main(
        [
            "--out-dir",
            str(out),
            "--config",
            "merged",
            "--merge",
            str(out / "mutants" / "s1-shard1of2.json"),
            str(out / "mutants" / "s2-shard2of2.json"),
        ]
    )
    merged = json.loads((out / "mutants" / "merged.json").read_text())
    assert rc == rc_all == 2
    assert verdicts({r["id"]: r for r in merged["mutants"]}) == verdicts(whole)
    head = git(root, "rev-parse", "HEAD").strip()
    assert merged["head"] == head  # both shards ran at one commit: one head, no blank


def test_a_head_that_does_not_build_fails_every_null_control(tmp_path: Path, monkeypatch):
    root = toy_repository(tmp_path / "toy", CMAKE + 'message(FATAL_ERROR "broken on purpose")\n')
    rc, records = check_mutants(monkeypatch, root, tmp_path / "out", "--config", "broken")
    assert rc == 2
    for r in records.values():
        assert r["outcome"] == "error"
        assert r["message"].startswith("null control: the check fails (exit -2)"), r["message"]
