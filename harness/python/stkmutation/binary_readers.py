"""Which pytest files run a binary of the project: those whose code reads the variable that names
it (STK_ENGINE, STK_HARNESS), themselves or through a helper module beside them that they import.

A file that only names the variable in a string, a comment or a mapping it builds for a child
(test_mutation_tool.py's fixtures, test_ctest_own_binaries.py's poisoned environment) runs no
binary of its own, and was the second stage of nearly every C++ survivor of the 97d7a93 draw
(test_mutation_tool.py alone in 64 of 91). A file that does not parse is judged by its text, as
before: it may read the variable in a way the parser cannot see.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path


def _is_os_environ(node: ast.expr) -> bool:
    """`os.environ` or a bare `environ` (from os import environ)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "environ" and isinstance(node.value, ast.Name) and node.value.id == "os"
    return isinstance(node, ast.Name) and node.id == "environ"


def _is_getenv(node: ast.expr) -> bool:
    """`os.getenv`, a bare `getenv`, or `os.environ.get`."""
    if isinstance(node, ast.Attribute):
        if node.attr == "getenv":
            return isinstance(node.value, ast.Name) and node.value.id == "os"
        return node.attr == "get" and _is_os_environ(node.value)
    return isinstance(node, ast.Name) and node.id == "getenv"


def _key_may_be(key: ast.expr | None, names: set[str]) -> bool:
    """A key that is one of `names`, or one the parser cannot evaluate (a variable: it may be)."""
    if isinstance(key, ast.Constant):
        return key.value in names
    return key is not None


def _parsed(text: str) -> ast.Module | None:
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def _reads_in(node: ast.AST, wanted: set[str]) -> bool:
    """Whether the syntax tree `node` reads one of the variables `wanted` from the process's
    environment (a subscript of os.environ that is loaded, or a get/getenv call)."""
    for n in ast.walk(node):
        loaded = isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load)
        if loaded and _is_os_environ(n.value) and _key_may_be(n.slice, wanted):
            return True
        called = isinstance(n, ast.Call) and _is_getenv(n.func) and n.args
        if called and _key_may_be(n.args[0], wanted):
            return True
    return False


@dataclass
class _Module:
    """What the rule needs of one parsed module, read once: per top-level definition whether it
    reads a variable itself, the names and the (module alias, attribute) pairs it uses, whether
    it is a value computed from others; and what it imports from its siblings."""

    reads: dict[str, bool] = field(default_factory=dict)
    names: dict[str, set[str]] = field(default_factory=dict)
    attrs: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    computed: set[str] = field(default_factory=set)  # `X = f(Y)`: not `X = Y`, a def or a class
    named: dict[str, tuple[str, str]] = field(default_factory=dict)  # local -> (module, name)
    aliases: dict[str, str] = field(default_factory=dict)  # alias -> module imported whole
    stars: set[str] = field(default_factory=set)
    reads_anywhere: bool = False
    attrs_anywhere: set[tuple[str, str]] = field(default_factory=set)


def _attribute_pairs(node: ast.AST) -> set[tuple[str, str]]:
    return {
        (n.value.id, n.attr)
        for n in ast.walk(node)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
    }


def _module(tree: ast.Module, wanted: set[str]) -> _Module:
    m = _Module(reads_anywhere=_reads_in(tree, wanted), attrs_anywhere=_attribute_pairs(tree))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                if a.name == "*":
                    m.stars.add(node.module)
                else:
                    m.named[a.asname or a.name] = (node.module, a.name)
        elif isinstance(node, ast.Import):
            m.aliases |= {a.asname or a.name: a.name for a in node.names}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound, value, body = [node.name], None, node
        elif isinstance(node, ast.Assign):
            bound = [x.id for x in node.targets if isinstance(x, ast.Name)]
            value = body = node.value
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            bound, value, body = [node.target.id], node.value, node.value
        else:
            continue
        for name in bound:
            m.reads[name] = _reads_in(body, wanted)
            m.names[name] = {n.id for n in ast.walk(body) if isinstance(n, ast.Name)}
            m.attrs[name] = _attribute_pairs(body)
            if value is not None and not isinstance(value, (ast.Name, ast.Attribute)):
                m.computed.add(name)
    return m


def _foreign(m: _Module, carrying: dict[str, set[str]]) -> set[str]:
    """The local names of `m` that are carrying names of other modules: imported by name, or
    reachable by `*`."""
    found = {local for local, (mod, there) in m.named.items() if there in carrying.get(mod, ())}
    for mod in m.stars:
        found |= carrying.get(mod, set())
    return found


def _uses(m: _Module, name: str, local: set[str], carrying: dict[str, set[str]]) -> bool:
    """Whether definition `name` of `m` uses a carrying name: one of `local` (this module's and
    those imported into it), or an attribute of a module imported whole that carries it."""
    if m.names[name] & local:
        return True
    return any(attr in carrying.get(m.aliases.get(base, ""), ()) for base, attr in m.attrs[name])


def _carrying(m: _Module, carrying: dict[str, set[str]]) -> set[str]:
    """The top-level names of `m` that carry a binary, given the others' (`carrying`): a
    function or class whose body reads a variable or uses a carrying name (through any chain of
    them), an assignment whose value reads one itself or is a carrying name as it is (a
    re-export), and a carrying name imported by name. A value computed from a carrying name is
    not one (a path derived from stk-harness, such as the fault injector beside it)."""
    found = {n for n, r in m.reads.items() if r}
    grew = True
    while grew:
        grew = False
        local = found | _foreign(m, carrying)
        for name in m.reads:
            if name in found or name in m.computed:
                continue
            if _uses(m, name, local, carrying):
                found.add(name)
                grew = True
    return found | _foreign(m, carrying)


def files_reading(
    folder: Path, names: Iterable[str], read: Callable[[Path], str]
) -> dict[Path, str]:
    """The pytest files of `folder` (test_*.py, sorted) that read one of `names` themselves or
    use a carrying name of another module of `folder` (_carrying: a helper such as
    tool_contract.py's HARNESS, or a function that runs it), with their text. A file that does
    not parse is judged by its text. `read` reads a file (the caller's checked reader)."""
    files = sorted(folder.glob("*.py"))
    key = (str(folder), frozenset(names), tuple(_stamp(f) for f in files))
    if key not in _CHOSEN:
        if len(_CHOSEN) >= 8:  # a run asks for its clone's (engine and harness) again and again
            _CHOSEN.clear()
        _CHOSEN[key] = _files_reading(files, set(names), read)
    return dict(_CHOSEN[key])


# The last answer of files_reading, by folder, variables and each file's size and change time:
# a run asks for every C++ survivor (2 s a time on this repository's 120 files).
_CHOSEN: dict[tuple, dict[Path, str]] = {}


def _stamp(f: Path) -> tuple[str, int, int]:
    s = f.stat()
    return f.name, s.st_mtime_ns, s.st_size


def _files_reading(
    files: list[Path], wanted: set[str], read: Callable[[Path], str]
) -> dict[Path, str]:
    texts = {f: read(f) for f in files}
    parsed = {f.stem: _parsed(t) for f, t in texts.items()}
    modules = {stem: _module(tree, wanted) for stem, tree in parsed.items() if tree is not None}
    carrying: dict[str, set[str]] = {stem: set() for stem in modules}
    grew = True
    while grew:  # a module using another's carrying name may carry it on
        grew = False
        for stem, m in modules.items():
            now = _carrying(m, {o: c for o, c in carrying.items() if o != stem})
            if now - carrying[stem]:
                carrying[stem] |= now
                grew = True

    def runs(f: Path) -> bool:
        m = modules.get(f.stem)
        if m is None:
            return any(n in texts[f] for n in wanted)
        others = {o: c for o, c in carrying.items() if o != f.stem}
        by_attr = any(
            attr in others.get(m.aliases.get(base, ""), ()) for base, attr in m.attrs_anywhere
        )
        return m.reads_anywhere or bool(_foreign(m, others)) or by_attr

    return {f: t for f, t in texts.items() if f.name.startswith("test_") and runs(f)}
