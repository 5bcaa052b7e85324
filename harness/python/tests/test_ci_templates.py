"""The CI templates (ci/github/stk.yml, ci/gitlab/stk.gitlab-ci.yml) run only commands that exist here.

Every `stk-harness <sub>` they run must be a subcommand whose --help lists each option used, every
ci/ script must exist, every step a matrix names must be a step of the full tier, and JUnit must be
published the way each system reads it. Needs PyYAML (ci/install-deps.sh) and the stk-harness binary."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from functools import cache
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml", reason="PyYAML not installed (ci/install-deps.sh installs it)")

REPO = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS") or str(REPO / "build/release/harness/stk-harness")
GITHUB = REPO / "ci/github/stk.yml"
GITLAB = REPO / "ci/gitlab/stk.gitlab-ci.yml"
pytestmark = pytest.mark.skipif(
    not Path(HARNESS).exists(), reason=f"stk-harness not built ({HARNESS}); set STK_HARNESS"
)


@cache
def help_text(sub: str) -> str:
    proc = subprocess.run([HARNESS, sub, "--help"], capture_output=True, text=True)
    assert proc.returncode == 0, f"stk-harness {sub} --help exits {proc.returncode}: {proc.stderr}"
    return proc.stdout + proc.stderr


@cache
def full_steps() -> set[str]:
    out = subprocess.run(
        [HARNESS, "all", "--list", "--tier", "full"], capture_output=True, text=True, check=True
    ).stdout
    return {line.split(":")[0] for line in out.splitlines() if line}


def github_commands(doc: dict) -> list[str]:
    return [s["run"] for job in doc["jobs"].values() for s in job["steps"] if "run" in s]


def gitlab_commands(doc: dict) -> list[str]:
    cmds = list(doc.get("default", {}).get("before_script", []))
    for name, job in doc.items():
        if isinstance(job, dict) and "script" in job:
            cmds += job["script"]
    return cmds


def check_command(cmd: str) -> int:
    """Checks one shell command line; returns how many stk-harness/ci invocations it held."""
    seen = 0
    for part in re.split(r"&&|\|\||;|\n", cmd):
        words = shlex.split(part.strip()) if part.strip() else []
        if not words:
            continue
        prog = words[0]
        if prog.endswith("stk-harness"):
            seen += 1
            assert prog == "./build/release/harness/stk-harness", prog
            sub = words[1]
            top = subprocess.run([HARNESS, "--help"], capture_output=True, text=True).stdout
            assert re.search(rf"^\s+{re.escape(sub)}\s", top, re.M), (
                f"no stk-harness subcommand {sub!r}"
            )
            text = help_text(sub)
            for w in words[2:]:
                if w.startswith("--"):
                    opt = w.split("=")[0]
                    assert re.search(rf"{re.escape(opt)}\b", text), (
                        f"stk-harness {sub} has no option {opt}: {cmd}"
                    )
            if sub == "all" and "--only" in words:
                step = words[words.index("--only") + 1]
                assert step.startswith("$") or step in full_steps(), step
        elif prog.startswith("ci/"):
            seen += 1
            assert (REPO / prog).is_file() and os.access(REPO / prog, os.X_OK), (
                f"{prog} is not an executable script here"
            )
    return seen


@pytest.mark.parametrize(
    "path,commands",
    [(GITHUB, github_commands), (GITLAB, gitlab_commands)],
    ids=["github", "gitlab"],
)
def test_every_command_exists_with_its_options(path: Path, commands):
    doc = yaml.safe_load(path.read_text())
    cmds = commands(doc)
    assert sum(check_command(c) for c in cmds) >= 8


def matrix_steps(doc, key: str) -> list[str]:
    found = []

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == key and isinstance(v, list):
                    found.extend(v)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(doc)
    return found


def test_matrices_cover_the_full_tier():
    gh = yaml.safe_load(GITHUB.read_text())
    gl = yaml.safe_load(GITLAB.read_text())
    sharded = {"epd-ecm"}  # run as `epd --shard K/4` jobs and merged
    for steps in (matrix_steps(gh, "step"), matrix_steps(gl, "STEP")):
        assert set(steps) <= full_steps()
        assert set(steps) | sharded == full_steps()
    assert matrix_steps(gh, "shard") == [1, 2, 3, 4] and matrix_steps(gl, "SHARD") == [
        "1",
        "2",
        "3",
        "4",
    ]


def test_junit_and_review_page_are_published():
    gl = yaml.safe_load(GITLAB.read_text())
    for job in ("quick", "full-merge"):
        assert gl[job]["artifacts"]["reports"]["junit"] == "reports/junit/*.xml"
        assert "reports/" in gl[job]["artifacts"]["paths"]
    gh = yaml.safe_load(GITHUB.read_text())
    for job in ("quick", "full-merge"):
        uses = [s.get("uses", "") for s in gh["jobs"][job]["steps"]]
        assert any(u.startswith("mikepenz/action-junit-report@") for u in uses)
        assert any(u.startswith("actions/upload-artifact@") for u in uses)
