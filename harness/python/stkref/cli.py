"""The entry-point contract every `python -m` tool shares (docs/faults.md "Python tools").

ToolParser reads the command line: a usage error (a NaN, a number out of range, a bad choice) is
an exception, not an argparse exit, so the run still writes its error reports; the reports the
command line names are declared (their earlier files removed) and its outputs checked before any
work. run_tool runs the tool: any failure (bad input, an OSError such as a full disk, SIGTERM,
SIGINT, SIGHUP, a closed stdout, a bug) ends with one line on stderr and exit 2, an <error>
report at every declared path (or no file there when even that cannot be written), and no
temporary file left; never a traceback (STK_TRACEBACK=1 prints it for a bug).
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

from .errors import InputError
from .junit import declare_report, forget_declared_reports, write_error_reports
from .outputs import Output, check_output, remove_temporaries

Reports = Callable[[argparse.Namespace], Iterable[tuple[Path, str]]]
Outputs = Callable[[argparse.Namespace], Iterable[Output]]


class UsageError(InputError):
    """A command line argparse refused (exit 2, like every input error)."""


class Stopped(BaseException):
    """A stop signal (SIGTERM, SIGHUP) raised in the main thread: a BaseException, so that no
    tool's `except Exception` swallows it while finally-blocks and `with` still clean up."""


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
_runs: list[Callable[[], int]] = []  # the run_tool calls under way (nested: a tool's own main)


def _loose_type(kind: Any) -> Any:
    if kind is None or getattr(kind, "names_a_file", False):
        return kind

    def convert(text: str) -> Any:
        try:
            return kind(text)
        except (argparse.ArgumentTypeError, ValueError, TypeError):
            return text

    return convert


class _Loose(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ValueError(message)


class ToolParser(argparse.ArgumentParser):
    """argparse for the tools: `reports(args)` lists the JUnit reports the run owes as (path,
    "<harness>.<config>"), `outputs(args)` every other file or folder it writes."""

    def __init__(
        self, *args: Any, reports: Reports | None = None, outputs: Outputs | None = None, **kw: Any
    ) -> None:
        super().__init__(*args, **kw)
        self.reports, self.outputs = reports, outputs

    def error(self, message: str) -> NoReturn:
        with contextlib.suppress(OSError):
            self.print_usage(sys.stderr)
        raise UsageError(f"{self.prog}: {message}")

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        argv = list(sys.argv[1:] if args is None else args)
        try:
            ns = super().parse_args(argv, namespace)
        except UsageError:
            loose = self.loose_namespace(argv)
            if loose is not None:
                with contextlib.suppress(Exception):  # a report we cannot name is not owed
                    self.declare_reports(loose)
            raise
        self.declare_reports(ns)
        for out in self.outputs(ns) if self.outputs else ():
            check_output(out)
        return ns

    def declare_reports(self, ns: argparse.Namespace) -> None:
        """Declares every report whose path is usable; then refuses the first that is not. Only
        a run (inside run_tool) declares: a parse elsewhere (a test, a library) removes nothing."""
        refused: list[InputError] = []
        for path, suite in self.reports(ns) if self.reports else ():
            try:
                check_output(Output("report", Path(path), "report"))
                if _runs:
                    declare_report(path, suite)
            except InputError as e:
                refused.append(e)
        if refused:
            raise refused[0]

    def loose_namespace(self, argv: list[str]) -> argparse.Namespace | None:
        """The options as given, a value its type refuses kept as text (but a bad file name
        refuses the whole), no choices, none required: enough to name the reports of a command
        line that failed to parse."""
        loose = _Loose(add_help=False, allow_abbrev=False)
        sub: argparse._SubParsersAction[Any] | None = None
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                sub = action
            elif action.option_strings and not isinstance(action, argparse._HelpAction):
                a = copy.copy(action)
                a.type = _loose_type(action.type)
                a.choices, a.required = None, False
                loose._add_action(a)
        cut = len(argv)
        if sub is not None:
            cut = next((i for i, x in enumerate(argv) if x in sub.choices), -1)
            if cut < 0:
                return None
        try:
            ns, _ = loose.parse_known_args(argv[:cut])
        except (ValueError, TypeError, argparse.ArgumentError):
            return None
        if sub is not None:
            inner = sub.choices[argv[cut]]
            nested = (
                inner.loose_namespace(argv[cut + 1 :]) if isinstance(inner, ToolParser) else None
            )
            if nested is None:
                return None
            vars(ns).update(vars(nested))
            setattr(ns, sub.dest, argv[cut])
        return ns


def _raise_stopped(signum: int, _frame: FrameType | None) -> None:
    _ignore_stop_signals()
    raise Stopped(f"stopped by {signal.Signals(signum).name}")


def _install_stop_handlers() -> dict[int, Any]:
    previous: dict[int, Any] = {}
    with contextlib.suppress(ValueError):  # not the main thread: leave the signals alone
        for s in STOP_SIGNALS:
            previous[s] = signal.signal(s, _raise_stopped)
    return previous


def _say(text: str) -> None:
    with contextlib.suppress(OSError, ValueError):  # stderr closed: nothing more to do
        print(text, file=sys.stderr, flush=True)


def _silence_stdout() -> None:
    """stdout's reader is gone: later writes (the interpreter's last flush) go to /dev/null."""
    with contextlib.suppress(OSError, ValueError):
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)


def _ignore_stop_signals() -> None:
    with contextlib.suppress(ValueError):  # not the main thread
        for s in STOP_SIGNALS:  # a second signal must not interrupt the cleanup
            signal.signal(s, signal.SIG_IGN)


def failed(why: str, said: bool = False) -> int:
    """The end of a failed run: one line (unless the tool `said` why), the <error> reports (a
    report the tool wrote that holds an <error> stays), exit status 2."""
    _ignore_stop_signals()
    if not said:
        _say(f"error: {why}")
    for path, problem in write_error_reports(why, keep_errors=said):
        _say(
            f"no error report could be written: {path}: {problem}"
            if problem
            else f"error report {path}"
        )
    return 2


def _why(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        names = [str(n) for n in (e.filename, e.filename2) if n is not None]
        return f"{': '.join(names) + ': ' if names else ''}{e.strerror}"
    return str(e) or type(e).__name__


# The words that begin the reason of a run ended by an exception the tool did not expect: a bug,
# told from a refusal by them alone (both exit 2 with an <error> report; docs/faults.md).
INTERNAL_ERROR = "internal error: "


def run_tool(main: Callable[[], int]) -> int:
    """Runs a tool's main: its status (0 passed, 1 a gate failed), or 2 on any failure."""
    previous = _install_stop_handlers()
    _runs.append(main)
    try:
        try:
            status = main()
        except SystemExit as e:  # argparse's --help (0), or a tool's own sys.exit(status or text)
            if e.code is not None and not isinstance(e.code, int):
                return failed(str(e.code))
            status = e.code or 0
        sys.stdout.flush()  # a closed stdout fails here, inside the contract, not at exit
        if status >= 2:  # the tool said why; its declared reports must still say it failed
            return failed(f"the tool ended with exit status {status}", said=True)
        return status
    except BrokenPipeError:
        _silence_stdout()
        return failed("stdout closed (broken pipe): the output was not read")
    except (InputError, OSError, Stopped) as e:
        return failed(_why(e))
    except KeyboardInterrupt:
        return failed("stopped by SIGINT")
    except Exception as e:  # a bug in the tool: it could not run, which is not a failed gate
        if os.environ.get("STK_TRACEBACK") == "1":
            traceback.print_exc()
        return failed(f"{INTERNAL_ERROR}{type(e).__name__}: {e}")
    finally:
        _runs.pop()
        remove_temporaries()
        forget_declared_reports()
        for s, handler in previous.items():
            signal.signal(s, handler)
