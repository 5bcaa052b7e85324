"""A JSON report read for a page or a table: a field it lacks is an InputError naming the
file and the field's path, never a KeyError (stktrain.strength_report, stktrain.sweep)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stkref import inputs
from stkref.errors import InputError


class Report(dict[str, Any]):
    """A report's JSON object (nested objects too): a field it lacks is an InputError naming the
    file and the field ("match/equal-time.json: no field 'summary/wdl'"), not a KeyError."""

    def __init__(self, data: dict[str, Any], path: Path, trail: str = "") -> None:
        super().__init__({k: _fields(v, path, f"{trail}{k}/") for k, v in data.items()})
        self.path, self.trail = path, trail

    def __missing__(self, key: str) -> Any:
        raise InputError(f"{self.path}: no field '{self.trail}{key}'")


def _fields(value: Any, path: Path, trail: str) -> Any:
    if isinstance(value, dict):
        return Report(value, path, trail)
    if isinstance(value, list):
        return [_fields(v, path, f"{trail}{i}/") for i, v in enumerate(value)]
    return value


def load(path: Path) -> Report:
    try:
        data = json.loads(inputs.read_input_text(path))
    except inputs.UnreadableInputError as e:
        raise InputError(f"{path}: cannot be read as a report ({e.why})") from e
    except ValueError as e:
        raise InputError(f"{path}: cannot be read as a report ({e})") from e
    if not isinstance(data, dict):
        raise InputError(f"{path}: not a JSON object")
    return Report(data, path)
