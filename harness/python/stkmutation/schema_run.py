"""C++ mutants run on one schema build (docs/mutation.md, "Schemata"): every mutant of the run
that has a schema form is compiled into the first scratch clone's build behind its switch, the
build is made once, and each mutant's tests then run with STK_MUTANT=<its id>, several side by
side on that one build. The baseline that sets the time limits runs on the same build with no
switch on: the null control, which must pass as HEAD does."""

from __future__ import annotations

import concurrent.futures
import os
import queue
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from stkmutation import schema, tool
from stkmutation.tool import (
    Job,
    Mutant,
    Runner,
    Sources,
    SyntaxCheck,
    file_digest,
    git,
    run,
)

# The log of a kill held back until confirmed (SchemaRun.hold_if_oversubscribed).
UNCONFIRMED = (
    "killed beside more tests than the cores: not counted until run again at the baseline's load"
)

# A mutant whose tests may run longer than this (its limit, 3x their baseline + 10 s) is
# compiled alone before them (SchemaRun._run).
JUDGE_ALONE_FIRST_S = 1000.0


class SchemaRun:
    def __init__(self, runner: Runner, job: Job, sources: Sources, syntax: SyntaxCheck) -> None:
        self.runner, self.job, self.sources, self.syntax = runner, job, sources, syntax
        self.oversubscribed = False  # more slots than the baseline ran tests side by side
        # Kills seen oversubscribed, held back until confirmed: (mutant, outcome, log).
        self.pending: list[tuple[Mutant, str, str]] = []
        self.texts: dict[str, str] = {}  # file -> its schema text, as written in the clone
        self.tree_lock = threading.Lock()  # the bookkeeping below
        # object -> the lock of its batch's sources, rewritten for a side compile: objects share
        # no source, so side compiles of two objects run side by side (one lock for all left
        # slots waiting on each other's compiles of unity batches, 5-10 s each on idle cores)
        self.object_locks: dict[str, threading.Lock] = {}
        self.same_as_head: dict[str, bool] = {}  # object -> a side compile reproduces HEAD's
        self.fallback: dict[str, int] = {}  # why mutants were left to be built alone

    # -- the build

    def prepare(self, mutants: Sequence[Mutant], targets: Sequence[str]) -> list[Mutant]:
        """Writes the schema files and builds `targets`; the mutants the build holds."""
        by_file: dict[str, list[Mutant]] = {}
        for i, m in enumerate(mutants, 1):
            if m.lang == "cpp" and m.file in self.job.objects:
                m.schema_id = i
                by_file.setdefault(m.file, []).append(m)
        held: list[Mutant] = []
        files = sorted(by_file.items())
        # The files' syntax checks run side by side (each a compiler process).
        with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
            schemas = list(pool.map(lambda item: self._file_schema(*item), files))
        for (path, _), (text, kept) in zip(files, schemas, strict=True):
            if kept:
                self.texts[path] = text
                self.job.write(path, text)
                held += kept
        if held:
            # A file whose object failed goes back to HEAD's text (_build), whether or not the
            # build then succeeds without it: its mutants are no longer behind the switch.
            self._build(targets)
            held = [m for m in held if m.file in self.texts]
        for m in mutants:
            if m.schema_id and m not in held:  # its file's object failed to build
                m.schema_id = 0
        print(
            f"mutation: schema build: {len(held)} of {sum(len(v) for v in by_file.values())}"
            f" C++ mutants in {len(self.texts)} files behind STK_MUTANT; the rest are built"
            f" alone ({', '.join(f'{k}: {v}' for k, v in sorted(self.fallback.items())) or '-'})",
            flush=True,
        )
        return held

    def _file_schema(self, path: str, ms: list[Mutant]) -> tuple[str, list[Mutant]]:
        """The file's schema text with every mutant whose form exists and compiles alone, then
        together (else added one at a time, each kept only while the text still compiles).
        Which compile alone is found by halving: a group whose text compiles holds none that
        fails alone, so the usual file (every form compiles) costs one check, not one a mutant."""
        original = self.sources.text(path)
        formed: list[Mutant] = []
        for m in ms:
            if self._together(original, [m])[1]:
                formed.append(m)
            else:
                self._left(m, "no schema form")
        alone = self._compiling_alone(path, original, formed)
        # A form that does not compile is tried again over the next enclosing expression (a
        # format string checked at compile time holds no `?:`; the call around it does).
        failed = [m for m in formed if m not in alone]
        for level in range(1, schema.MAX_WIDEN + 1):
            for m in failed:
                m.schema_widen = level
            wider = [m for m in failed if self._together(original, [m])[1]]
            compiled = self._compiling_alone(path, original, wider)
            alone += compiled
            failed = [m for m in wider if m not in compiled]
        for m in [m for m in formed if m not in alone]:  # failed at every width, or no wider form
            m.schema_widen = 0
            self._left(m, "schema does not compile")
        alone.sort(key=lambda m: m.schema_id)
        text, taken = self._together(original, alone)
        if len(taken) < len(alone) or not self._compiles(path, text):
            kept: list[Mutant] = []
            for m in alone:
                t, tk = self._together(original, [*kept, m])
                if len(tk) == len(kept) + 1 and self._compiles(path, t):
                    kept.append(m)
                else:
                    self._left(m, "schema clashes with another on its line")
            text, taken = self._together(original, kept)
        return text, [m for m in alone if m.schema_id in taken]

    def _compiling_alone(self, path: str, original: str, ms: list[Mutant]) -> list[Mutant]:
        """The mutants of `ms` (in order) whose schema compiles alone."""
        if not ms:
            return []
        text, taken = self._together(original, ms)
        if len(taken) == len(ms) and self._compiles(path, text):
            return list(ms)
        if len(ms) == 1:
            return []
        half = len(ms) // 2
        return self._compiling_alone(path, original, ms[:half]) + self._compiling_alone(
            path, original, ms[half:]
        )

    def _compiles(self, path: str, text: str) -> bool:
        return self.syntax.compiles(path, text, timed=False)

    @staticmethod
    def _together(original: str, ms: Sequence[Mutant]) -> tuple[str, list[int]]:
        return schema.schema_text(
            original, [(m.line, m.mutated or "", m.schema_id, m.schema_widen) for m in ms]
        )

    def _left(self, m: Mutant, why: str) -> None:
        m.schema_id = 0
        with self.tree_lock:
            self.fallback[why] = self.fallback.get(why, 0) + 1

    def _build(self, targets: Sequence[str]) -> None:
        """The schema build, on every core (nothing else runs yet); a file whose object fails to
        build goes back to HEAD's text, and all of them do if the build still fails without those
        (the held mutants are then the ones whose file is still in `texts`)."""
        if not self.job.ninja(targets, os.cpu_count() or 2).code:
            return
        for path in sorted(self.texts):
            if self.job.ninja([self.job.objects[path]]).code:
                self.job.write(path, self.sources.text(path))
                del self.texts[path]
                self.fallback["schema object failed to build"] = (
                    self.fallback.get("schema object failed to build", 0) + 1
                )
        if self.job.ninja(targets).code:
            for path in list(self.texts):
                self.job.write(path, self.sources.text(path))
                del self.texts[path]

    def restore(self, targets: Sequence[str]) -> None:
        """HEAD's sources back in the clone and its build relinked (ccache has the objects)."""
        if self.texts:
            git(["checkout", "-q", "-f", "--", *sorted(self.texts)], self.job.tree)
        self.texts.clear()
        self.job.ninja(targets)

    # -- running

    def run_all(
        self,
        mutants: Sequence[Mutant],
        workers: int,
        each: Callable[[Mutant], None],
        stop: threading.Event,
    ) -> None:
        """Runs the mutants, `workers` side by side on the one build, none once `stop` is set;
        `each` after every one."""
        slots: queue.Queue[int] = queue.Queue()
        for i in range(workers):
            slots.put(i)
        # The baseline set the time limits running as many tests side by side as there are
        # cores; more slots than that load the machine past what it measured
        # (hold_if_oversubscribed).
        self.oversubscribed = workers > self.runner.baseline_parallelism()

        def one(m: Mutant) -> None:
            slot = slots.get()
            try:
                if not stop.is_set():
                    tool.clear_stopped()
                    self.run_one(m, slot)
            except Exception as e:  # one mutant's failure to run: reported as skipped
                m.outcome, m.log = "skipped", f"{type(e).__name__}: {e}"
            finally:
                slots.put(slot)
                each(m)

        with concurrent.futures.ThreadPoolExecutor(workers) as ex:
            list(ex.map(one, mutants))
        self.confirm_held_kills(stop)

    def env(self, m: Mutant, slot: int) -> dict[str, str]:
        """The mutant's switch on; a scratch folder per slot (tests of two mutants side by side
        must not share theirs)."""
        scratch = self.job.build_dir / "schema-scratch" / str(slot)
        return dict(
            tool.scratch_env(self.runner.py_env(self.job), scratch), STK_MUTANT=str(m.schema_id)
        )

    def run_one(self, m: Mutant, slot: int) -> None:
        t0 = time.monotonic()
        m.via = "schema"
        try:
            self._run(m, slot)
            self.hold_if_oversubscribed(m)
        finally:
            m.seconds = time.monotonic() - t0

    def _run(self, m: Mutant, slot: int) -> None:
        env = self.env(m, slot)
        if (p := self.runner.planned(m)) is None:
            return
        # A long selection is judged alone first: an equivalent or uncompilable mutant ran all of
        # it before (a third of the schema mutants' seconds in the 97d7a93 shards, 9 of the 33
        # over this limit), at the cost of a side compile for the killed ones.
        judged = p.timeout > JUDGE_ALONE_FIRST_S
        if judged and self.judged_alone(m):
            return
        if p.covered is False:
            m.outcome, m.log = "not-covered", "no CTest test executes the line (coverage map)"
            m.tests = []
        else:
            ran = self.job.ctest(p.tests, p.timeout, env=env, per_test=p.per_test)
            self.runner.ctest_verdict(m, ran, p)
            self.runner.confirm_kill(self.job, m, env)
        # Before the second stage (minutes of pytest): a survivor that CI's build refuses or
        # whose object is HEAD's, byte for byte, owes no test a kill.
        if m.survived and not judged and self.judged_alone(m):
            return
        if m.survived and self.runner.binary_tests(m):
            self.runner.second_stage(self.job, m, p, env)

    # -- kills seen oversubscribed (--slots above the cores)

    def hold_if_oversubscribed(self, m: Mutant) -> None:
        """A kill or timeout seen with more mutants side by side than the cores is held back
        (reported as not run, so a report written before its confirmation never counts it)
        until confirm_held_kills runs it again at the baseline's load: at 4 slots on 2 cores
        two timing tests failed unmutated in 12 survivors' selections (docs/mutation.md)."""
        if self.oversubscribed and m.outcome in ("killed", "timeout"):
            self.pending.append((m, m.outcome, m.log))
            m.outcome, m.log = "skipped", UNCONFIRMED

    def confirm_held_kills(self, stop: threading.Event) -> None:
        """The held kills, each run again once every slot is done, as many side by side as the
        baseline ran tests: one failing again stands, one that does not kills nothing ("error").
        Not run once `stop` is set: they stay not run, and a resumed run runs them again."""
        pending, self.pending = self.pending, []
        parallel = max(1, self.runner.baseline_parallelism())
        slots: queue.Queue[int] = queue.Queue()  # a scratch folder each, as the mutants had
        for i in range(parallel):
            slots.put(i)

        def one(item: tuple[Mutant, str, str]) -> None:
            m, outcome, log = item
            if stop.is_set():
                m.log = tool.STOPPED
                return
            m.outcome, m.log = outcome, log
            slot = slots.get()
            try:
                self.confirm_at_baseline_load(m, self.env(m, slot))
            finally:
                slots.put(slot)

        with concurrent.futures.ThreadPoolExecutor(parallel) as ex:
            list(ex.map(one, pending))

    def confirm_at_baseline_load(self, m: Mutant, env: dict[str, str]) -> None:
        """Runs the tests that failed (every test it ran when none is named), the mutant on;
        a kill that does not fail again becomes "error"."""
        named = set(m.killers)
        rerun = named or {tool.file_of(t) for t in m.tests}  # none named: all it ran
        if not self.runner.fails_again(self.job, m, rerun, env):
            names = ", ".join(sorted(named)) or "no test"
            m.log = (
                f"{m.outcome} beside more tests than the cores ({names} named), not again at the"
                " baseline's load: a failure of load, no kill"
            )
            m.outcome = "error"

    # -- a survivor compiled alone

    def judged_alone(self, m: Mutant) -> bool:
        """Compiles the survivor alone, as CI does (-Werror), to a side file: its batch with
        HEAD's texts but the mutant's. An object byte-identical to HEAD's is **equivalent** (the
        side compile reproduced HEAD's object: no control can say more). A compile that fails is
        **uncompilable** (CI's build refuses it) only where the control, a side compile of HEAD's
        texts, compiles and reproduces HEAD's object; it runs then alone, once an object (before,
        it ran first for every object: a second batch compile for most survivors).
        True when it decided the mutant's outcome."""
        obj = self.job.objects[m.file]
        with self.tree_lock:
            lock = self.object_locks.setdefault(obj, threading.Lock())
        with lock:
            head = self.job.baseline_objects.get(obj)
            if self.same_as_head.get(obj) is False:
                return False
            refused, digest = self._side_compile(obj, m)
            if digest == head:
                self.same_as_head[obj] = True
            elif refused and obj not in self.same_as_head:
                self.same_as_head[obj] = self._side_compile(obj, None) == ("", head)
                if not self.same_as_head[obj]:
                    print(
                        f"mutation: {obj}: a side compile of HEAD's texts is not HEAD's object: "
                        "its survivors are not compiled alone",
                        flush=True,
                    )
            if refused and not self.same_as_head[obj]:
                return False
        if refused:
            m.outcome, m.log = "uncompilable", f"{tool.CI_REFUSES}:\n{refused}"
        elif digest == head:
            m.outcome, m.log = "equivalent", "its object alone is byte-identical to HEAD's"
        return bool(refused) or digest == head

    def _side_compile(self, obj: str, m: Mutant | None) -> tuple[str, str]:
        """(the compiler's complaint, empty when it compiled; the object's digest)."""
        batch = [f for f, o in self.job.objects.items() if o == obj]
        try:
            for f in batch:
                text = self.sources.mutated_text(m) if m and f == m.file else self.sources.text(f)
                self.job.write(f, text)
            args, directory = self.job.commands[obj]
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "side.o"
                cmd = [*_redirected(args, out, Path(tmp) / "side.d"), "-Werror"]
                r = run(cmd, Path(directory), self.runner.env, 600)
                if r.code:
                    return (r.out[-2000:] or f"the compiler exited {r.code}"), ""
                return "", file_digest(out)
        finally:
            for f in batch:
                self.job.write(f, self.texts.get(f, self.sources.text(f)))


def _redirected(args: Sequence[str], out: Path, deps: Path) -> list[str]:
    """A compile command writing its object and dependency file elsewhere."""
    cmd = list(args)
    for flag, value in (("-o", out), ("-MF", deps)):
        if flag in cmd:
            cmd[cmd.index(flag) + 1] = str(value)
    return cmd


def main(argv: Sequence[str] | None = None) -> int:
    """ci/mutation.sh: the tool, with C++ mutants on one schema build (tool.main)."""
    return tool.main(argv, SchemaRun)
