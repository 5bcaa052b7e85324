"""Independent models of stkref.inputs (which paths are read) and stkref.outputs (how a file is
written), written from docs/faults.md "Python tools": every kind of path a user can give, the
size limit both ways, and the writer's result on disk."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rule_choice import every_rule

from stkref import inputs, outputs
from stkref.errors import InputError

KINDS = ["file", "link-to-file", "dir", "fifo", "dangling", "loop", "missing", "link-to-dir"]


def make(d: Path, kind: str, size: int) -> Path:
    p = d / "x"
    real = d / "real"
    if kind in ("file", "link-to-file"):
        real.write_bytes(b"\0" * size)
    if kind == "file":
        return real
    if kind == "link-to-file":
        p.symlink_to(real)
    elif kind == "dir":
        p.mkdir()
    elif kind == "link-to-dir":
        real.mkdir()
        p.symlink_to(real)
    elif kind == "fifo":
        os.mkfifo(p)
    elif kind == "dangling":
        p.symlink_to(d / "nothing")
    elif kind == "loop":
        p.symlink_to(d / "y")
        (d / "y").symlink_to(p)
    return p


def model_problem(kind: str, size: int, limit: int | None) -> str | None:
    """None: read. Else a word the refusal must contain (docs/faults.md's wording)."""
    if kind in ("file", "link-to-file"):
        return None if limit is None or size <= limit else "input limit"
    return {
        "dir": "is a directory",
        "link-to-dir": "is a directory",
        "fifo": "is a FIFO, not a regular file",
        "dangling": "is a dangling symbolic link",
        "loop": "is a symbolic link loop",
        "missing": "cannot open file",
    }[kind]


# MODEL inputs-refusals
# checks: harness/python/stkref/inputs.py  (which paths an input option reads, the size limit both ways)
# contract: docs/faults.md#python-tools-python--m-stkref-stktrain-stkmutation-stkdev
# planted: ci/mutants/model-inputs-refusals.patch  (a file one byte over the limit accepted)
@pytest.mark.parametrize("kind", KINDS)  # each kind (rule_choice.py: "fifo" went undrawn in 40)
@settings(max_examples=8)
@given(size=st.integers(0, 64), slack=st.one_of(st.none(), st.integers(-2, 2)))
def test_input_problem_equals_model(
    tmp_path_factory: pytest.TempPathFactory, kind: str, size: int, slack: int | None
) -> None:
    d = tmp_path_factory.mktemp("in")
    path = make(d, kind, size)
    limit = None if slack is None else max(size + slack, 0)
    want = model_problem(kind, size, limit)
    got = inputs.input_problem(path, limit)
    if want is None:
        assert got == ""
        assert inputs.read_input_bytes(path, limit if limit is not None else inputs.LIMIT) == (
            b"\0" * size
        )
    else:
        assert want in got
        with pytest.raises(InputError, match=str(path)):
            inputs.read_input_bytes(path, limit if limit is not None else inputs.LIMIT)


# MODEL outputs-atomic-writer
# checks: harness/python/stkref/outputs.py  (the file written: its bytes, mode, a link replaced as a name)
# contract: docs/faults.md#python-tools-python--m-stkref-stktrain-stkmutation-stkdev
# planted: ci/mutants/model-outputs-atomic-writer.patch  (a link at the target is written through)
@settings(max_examples=30)
@given(
    data=st.binary(max_size=300),
    # every kind of target is drawn, or the test fails naming it (rule_choice.py)
    before=every_rule(["none", "file", "link-out", "dangling", "fifo", "dir"]),
)
def test_write_bytes_atomic_equals_model(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, before: str
) -> None:
    d = tmp_path_factory.mktemp("out")
    outside = tmp_path_factory.mktemp("elsewhere") / "victim"
    outside.write_bytes(b"keep me")
    target = d / "sub" / "r.json"
    target.parent.mkdir()
    if before == "file":
        target.write_bytes(b"old")
    elif before == "link-out":
        target.symlink_to(outside)
    elif before == "dangling":
        target.symlink_to(d / "nowhere")
    elif before == "fifo":
        os.mkfifo(target)
    elif before == "dir":
        target.mkdir()
    if before in ("fifo", "dir"):
        with pytest.raises(InputError, match=str(target)):
            outputs.write_bytes_atomic(target, data)
    else:
        outputs.write_bytes_atomic(target, data, mode=0o640)
        assert not target.is_symlink() and target.read_bytes() == data
        assert stat.S_IMODE(target.stat().st_mode) == 0o640
        assert not (d / "nowhere").exists()
    assert outside.read_bytes() == b"keep me"
    assert sorted(p.name for p in target.parent.iterdir()) == ["r.json"]


@pytest.mark.parametrize("failing", ["write", "fsync"])
def test_a_failed_write_names_the_target_and_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: str
) -> None:
    # docs/faults.md "Writes": the first error, with the target's path (a disk full mid-write
    # reached the user as "error: Input/output error", naming no file). Planted:
    # outputs-write-error-names-no-file.
    target = tmp_path / "r.json"
    target.write_bytes(b"old")

    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    if failing == "fsync":
        monkeypatch.setattr(os, "fsync", full)
        blocks: list[bytes] = [b"new"]
    else:
        blocks = _FailingBlocks()  # type: ignore[assignment]
    with pytest.raises(OSError) as caught:
        outputs.write_stream_atomic(target, blocks)
    assert (caught.value.errno, caught.value.filename) == (errno.ENOSPC, str(target))
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["r.json"]


class _FailingBlocks:
    """Blocks whose second one cannot be produced: a write failing mid-stream, as a full disk."""

    def __iter__(self):  # type: ignore[no-untyped-def]
        yield b"first"
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def model_kind_verdict(kind: str, want: str, executable: bool) -> bool:
    """Accepted? want 'folder': a folder or a link to one; 'program': a regular file (or a link
    to one) that is executable, of any size."""
    if want == "folder":
        return kind in ("dir", "link-to-dir")
    return kind in ("file", "link-to-file") and executable


# MODEL inputs-folder-and-program
# checks: harness/python/stkref/inputs.py  (the folder and program option types: which paths they take)
# contract: docs/faults.md#python-tools-python--m-stkref-stktrain-stkmutation-stkdev
# planted: ci/mutants/model-inputs-folder-and-program.patch  (a program that is not executable accepted)
@settings(max_examples=40)
@given(
    kind=st.sampled_from(KINDS),
    want=st.sampled_from(["folder", "program"]),
    executable=st.booleans(),
)
def test_folder_and_program_equal_model(
    tmp_path_factory: pytest.TempPathFactory, kind: str, want: str, executable: bool
) -> None:
    import argparse

    d = tmp_path_factory.mktemp("kind")
    path = make(d, kind, 3)
    if kind in ("file", "link-to-file"):
        os.chmod(d / "real", 0o755 if executable else 0o644)
    parse = inputs.folder if want == "folder" else inputs.program
    if model_kind_verdict(kind, want, executable):
        assert parse(str(path)) == path
    else:
        with pytest.raises(argparse.ArgumentTypeError, match=str(path)):
            parse(str(path))


AT = ["missing", "file", "link-out", "dangling", "fifo", "dir"]
PARENT = ["exists", "missing", "missing-twice", "is-file", "read-only"]


def model_output_ok(kind: str, at: str, parent: str) -> bool:
    """docs/faults.md "Outputs before any work": an existing FIFO, device, folder or socket at a
    file output is refused (a link is fine: replaced as a name); a file output's folder must exist,
    a report's folders are made (from the nearest existing one, which must be a writable folder);
    a folder output is a folder (or made)."""
    if parent == "read-only" or parent == "is-file":
        return False
    if kind == "folder":
        return at in ("missing", "dir") and parent != "is-file"
    if at in ("fifo", "dir"):
        return False
    return parent == "exists" or kind == "report"


# MODEL outputs-checked-before-work
# checks: harness/python/stkref/outputs.py  (an output path refused or taken before any work, by its kind)
# contract: docs/faults.md#python-tools-python--m-stkref-stktrain-stkmutation-stkdev
# planted: ci/mutants/model-outputs-checked-before-work.patch  (a file output's missing folder taken as if it would be made)
@settings(max_examples=60)
@given(
    kind=st.sampled_from(["file", "report", "folder"]),
    at=st.sampled_from(AT),
    parent=st.sampled_from(PARENT),
)
def test_check_output_equals_model(
    tmp_path_factory: pytest.TempPathFactory, kind: str, at: str, parent: str
) -> None:
    if os.geteuid() == 0 and parent == "read-only":
        return  # root writes anywhere (only a read-only mount stops it)
    d = tmp_path_factory.mktemp("o")
    base = d / "p"
    if parent == "exists":
        base.mkdir()
    elif parent == "is-file":
        base.write_text("x")
    elif parent == "read-only":
        base.mkdir()
    folder = {"missing-twice": base / "q"}.get(parent, base)
    target = folder / "out"
    if parent == "exists":
        other = d / "victim"
        other.write_text("keep")
        if at == "file":
            target.write_text("old")
        elif at == "link-out":
            target.symlink_to(other)
        elif at == "dangling":
            target.symlink_to(d / "nowhere")
        elif at == "fifo":
            os.mkfifo(target)
        elif at == "dir":
            target.mkdir()
    else:
        at = "missing"
    if parent == "read-only":
        base.chmod(0o555)
    try:
        out = outputs.Output("--out", target, kind)
        if model_output_ok(kind, at, parent):
            outputs.check_output(out)
        else:
            with pytest.raises(InputError, match="--out"):
                outputs.check_output(out)
    finally:
        if parent == "read-only":
            base.chmod(0o755)


@pytest.mark.parametrize("bad_at", [0, 1, 2])
def test_every_output_of_a_tool_is_checked_not_only_the_first(tmp_path: Path, bad_at: int) -> None:
    """docs/faults.md "Outputs before any work": the parser checks each output a tool names; a
    FIFO at any one of them refuses the run by that output's option."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    outs = [outputs.Output(f"--out{i}", tmp_path / f"o{i}", "file") for i in range(3)]
    outs[bad_at] = outputs.Output(f"--out{bad_at}", fifo, "file")
    with pytest.raises(InputError, match=f"--out{bad_at}"):
        outputs.check_outputs(outs)
    outputs.check_outputs([o for i, o in enumerate(outs) if i != bad_at])  # the rest are fine


def test_a_new_file_is_written_readable_by_all_writable_by_its_owner(tmp_path: Path) -> None:
    """docs/faults.md "Writes": the file left is an ordinary one, mode 0644, not the mode of the
    temporary it was written through (mkstemp's 0600)."""
    old = os.umask(0o022)
    try:
        outputs.write_bytes_atomic(tmp_path / "r.json", b"{}")
        outputs.write_stream_atomic(tmp_path / "s.bin", [b"a", b"b"])  # the streaming writer
    finally:
        os.umask(old)
    assert (tmp_path / "r.json").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "s.bin").stat().st_mode & 0o777 == 0o644
