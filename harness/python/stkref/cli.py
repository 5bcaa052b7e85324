"""Shared entry-point wrapper: input errors become a one-line message and exit status 2."""

from __future__ import annotations

import sys
from collections.abc import Callable

from .errors import InputError


def run_tool(main: Callable[[], int]) -> int:
    try:
        return main()
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 1
