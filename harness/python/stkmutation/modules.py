"""The unit a mutation score and a model's coverage are counted by: a module of the code."""

from __future__ import annotations

# The Python packages of harness/python whose modules are counted one by one.
PACKAGES = ("stkref", "stktrain", "stkmutation", "stkdev")


def module_of(path: str) -> str:
    """engine/src/<folder or top>, harness/src/<library> or harness/src/commands/<command>,
    <package>/<module> for the Python packages; any other file's folder."""
    parts = path.split("/")
    if parts[:2] in (["engine", "src"], ["harness", "src"]):
        rest = parts[2:-1]
        if rest[:1] == ["commands"] and len(rest) >= 2:
            return "/".join(parts[:2] + rest[:2])
        return "/".join(parts[:2] + rest[:1])
    if parts[:2] == ["harness", "python"] and len(parts) > 3 and parts[2] in PACKAGES:
        return parts[2] + "/" + "/".join(parts[3:]).removesuffix(".py")
    return "/".join(parts[:-1]) or "."
