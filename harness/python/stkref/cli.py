"""Shared entry-point wrapper: a failed run is a one-line message, exit status 2, and an <error>
report in place of every report the tool declared (junit.declare_report)."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Callable

from .errors import InputError
from .junit import write_error_reports


def _failed(why: str) -> int:
    for path in write_error_reports(why):
        print(f"error report {path}", file=sys.stderr)
    return 2


def run_tool(main: Callable[[], int]) -> int:
    try:
        return main()
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return _failed(str(e))
    except BrokenPipeError:
        return 1
    except Exception as e:  # a bug in the tool: it could not run, which is not a failed gate
        traceback.print_exc()
        return _failed(f"{type(e).__name__}: {e}")
