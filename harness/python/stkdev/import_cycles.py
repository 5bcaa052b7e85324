"""Finds import circles among the project's Python modules, and imports across packages that
their layering forbids (stkref, the reference, imports none of the others) (ci/lint.sh runs it).

    python -m stkdev.import_cycles [ROOT...]     (default: harness/python's packages)

Every `import` and `from ... import` counts, at any depth of the file (an import inside a function
is still a dependency; deferring it only hides the circle). Prints each circle as `a -> b -> a`
and exits 1 when there is one, 0 when there is none, 2 when a file does not parse (named).
Python 3 standard library only (so are stkref.cli, .outputs, .options, .inputs).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from stkref import inputs
from stkref.cli import ToolParser, run_tool

PYTHON_ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("stkref", "stktrain", "stkmutation", "stkdev", "stkdist")
# What each package may import of the others: the reference the C++ must equal stands alone.
MAY_IMPORT = {
    "stkref": set(),
    "stktrain": {"stkref"},
    "stkmutation": {"stkref"},
    "stkdev": {"stkref"},
    "stkdist": {"stkref"},
}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Absolute names of the modules this module imports (relative imports resolved)."""
    names: set[str] = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            # `from pkg import mod` imports the module pkg.mod when there is one.
            names.update(f"{base}.{a.name}" for a in node.names)
    return names


def import_graph(roots: list[Path]) -> dict[str, set[str]]:
    files: dict[str, tuple[Path, bool]] = {}
    for root in roots:
        for pkg in PACKAGES:
            for path in sorted((root / pkg).rglob("*.py")) if (root / pkg).is_dir() else []:
                files[module_name(path, root)] = (path, path.name == "__init__.py")
    graph: dict[str, set[str]] = {}
    for module, (path, is_package) in files.items():
        try:
            tree = ast.parse(inputs.read_input_text(path), filename=str(path))
        except SyntaxError as e:
            raise SystemExit(f"import_cycles: {path}:{e.lineno}: {e.msg}") from e
        # A module depends on a package's __init__ only through what it names; a package importing
        # its own submodules is not a circle with them.
        graph[module] = {
            n
            for n in imported_names(tree, module, is_package)
            if n in files and n != module and not module.startswith(n + ".")
        }
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(circle_through(sorted(component), graph))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def circle_through(component: list[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest path from the component's first module back to itself, for the message."""
    start, members = component[0], set(component)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & members):
                if w == start:
                    return [*paths[v], start]
                if w not in paths:
                    paths[w] = [*paths[v], w]
                    nxt.append(w)
        frontier = nxt
    return [*component, start]


def layer_breaches(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) pairs where a package imports one MAY_IMPORT does not allow it."""
    breaches = []
    for module, imported in sorted(graph.items()):
        own = module.split(".")[0]
        for target in sorted(imported):
            other = target.split(".")[0]
            if other != own and other not in MAY_IMPORT.get(own, set()):
                breaches.append((module, target))
    return breaches


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(prog="python -m stkdev.import_cycles", description=__doc__.split("\n")[0])
    ap.add_argument("roots", nargs="*", type=inputs.folder, help="folders holding the packages")
    roots = ap.parse_args(argv).roots or [PYTHON_ROOT]
    graph = import_graph(roots)
    found = cycles(graph)
    for circle in found:
        print("import circle: " + " -> ".join(circle))
    breaches = layer_breaches(graph)
    for module, target in breaches:
        print(f"layer breach: {module} imports {target} (allowed: stkdev.import_cycles.MAY_IMPORT)")
    if not found and not breaches:
        print(f"import_cycles: no import circle or layer breach among {', '.join(PACKAGES)}")
    return 1 if found or breaches else 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
