"""Mutant schemata (docs/mutation.md, "Schemata"): several C++ mutants of a file compiled into
one object, each behind a runtime switch, so that one build serves every mutant of a run.

A mutant changes one line O into M. Its schema line keeps O's behaviour unless the process runs
with STK_MUTANT=<id>, and then behaves as M:

- an expression: the smallest expression of O that holds the whole change (an operand list
  entry, a for-clause, a return value, an assignment's right side, a whole expression
  statement) becomes `(on(id) ? (M's text) : (O's text))`;
- a line commented out: `if (on(id)) {} else { O }` (O being one or more whole statements);
- a `break;` or `continue;` inserted after O: `O if (on(id)) break;`.

Line numbers are kept (the switch's prologue ends with `#line 1`), so the coverage map still
names each mutant's tests. A mutant with no such form, or whose schema does not compile, is
built alone as before. What the forms cannot keep: an overload chosen by the type of the
changed operand (both arms of `?:` take their common type); no mutant drawn so far needs it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

ENV = "STK_MUTANT"
SWITCH = "::stk_mutant_schema::on"
# Guarded: a unity batch includes several schema files into one translation unit.
PROLOGUE = (
    "#ifndef STK_MUTANT_SCHEMA_SWITCH\n"
    "#define STK_MUTANT_SCHEMA_SWITCH\n"
    "#include <cstdlib>\n"
    "namespace stk_mutant_schema {\n"
    "inline int active() {\n"
    f'  static const int id = [] {{ const char* s = std::getenv("{ENV}"); '
    "return s ? std::atoi(s) : 0; }();\n"
    "  return id;\n"
    "}\n"
    "inline bool on(int id) { return active() == id; }\n"
    "}  // namespace stk_mutant_schema\n"
    "#endif\n"
    "#line 1\n"
)
# Enclosing expressions tried, one after another, for a mutant whose smallest form does not
# compile: a format string checked at compile time (fmt) is no `?:` operand, the whole call is.
MAX_WIDEN = 3
_OPEN, _CLOSE = "([{", ")]}"
_JUMP = re.compile(r"^\s*(break|continue);\s*$")
_COMMENTED = re.compile(r"^(\s*)/\*(.*)\*/\s*$")
_ASSIGN = re.compile(r"(?<![=!<>+\-*/%&|^])(?:<<|>>|[+\-*/%&|^])?=(?!=)")
_KEYWORD = re.compile(r"^\s*(?:return|throw|co_return)\b\s*")
# A statement that is no expression, though the value it assigns may be.
_NOT_EXPRESSION = re.compile(
    r"^(?:else|if|for|while|switch|do|case|default|goto|using|typedef|template|class|struct|enum"
    r"|namespace|static_assert|public|private|protected|try|catch)\b|:$"
)
# A template argument list or a declarator (an unspaced `<`, `>` or `&&`): splitting a segment
# there cuts through a type.
_UNSPACED_ANGLE = re.compile(r"\w<|<\w|\w>|>\(|>::|>\s*\w+\s*[({=;]")


@dataclass(frozen=True)
class Spliced:
    """A mutant's schema form of its line: O's line with [start, end) replaced by `text`."""

    start: int
    end: int
    text: str


def code_end(line: str) -> int:
    """Where a `//` comment starts outside string and character literals (else the length)."""
    quote = ""
    i = 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif line.startswith("//", i):
            return i
        i += 1
    return len(line)


@dataclass
class _Scan:
    depth: list[int]  # the number of matched bracket pairs around each character
    is_code: list[bool]  # outside string and character literals
    pairs: list[tuple[int, int]]  # matched brackets (open, close)
    loose: set[int]  # brackets whose partner is on another line: `for (...) {`, `} else {`


def _scan(code: str) -> _Scan | None:
    """The brackets and literals of a line; None when a quote is left open or a bracket closes
    the wrong kind."""
    is_code: list[bool] = []
    stack: list[int] = []
    pairs: list[tuple[int, int]] = []
    loose: set[int] = set()
    quote, escaped = "", False
    for i, c in enumerate(code):
        is_code.append(not quote and c not in "\"'")
        if quote:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c in _OPEN:
            stack.append(i)
        elif c in _CLOSE:
            if not stack:
                loose.add(i)
            elif _CLOSE[_OPEN.index(code[stack[-1]])] != c:
                return None
            else:
                pairs.append((stack.pop(), i))
    if quote:
        return None
    loose |= set(stack)
    depth = [0] * (len(code) + 1)
    for lo, hi in pairs:
        for k in range(lo + 1, hi):
            depth[k] += 1
    return _Scan(depth, is_code, pairs, loose)


def _pairs(code: str) -> bool:
    """Whether every bracket of code has its partner in it."""
    scanned = _scan(code)
    return scanned is not None and not scanned.loose


def diff_span(old: str, new: str) -> tuple[int, int, int]:
    """(start, end in old, end in new) of the part of old that new changes."""
    p = 0
    while p < min(len(old), len(new)) and old[p] == new[p]:
        p += 1
    s = 0
    while s < min(len(old), len(new)) - p and old[-1 - s] == new[-1 - s]:
        s += 1
    return p, len(old) - s, len(new) - s


def expression_spans(code: str) -> list[tuple[int, int]]:
    """Spans of `code` that are whole expressions by their place: an entry of a bracket's
    comma or semicolon list, a statement's expression, its part after `return` or after an
    assignment operator; innermost first. Leading and trailing blanks left out."""
    sc = _scan(code)
    if sc is None:
        return []
    spans: list[tuple[int, int]] = []
    # The line itself and every bracket pair, each split at its own commas and semicolons (and,
    # on the line, at the braces whose partner is on another line).
    for lo, hi in [(-1, len(code)), *sc.pairs]:
        d = sc.depth[lo + 1] if lo >= 0 else 0
        start = lo + 1
        for i in range(lo + 1, hi + 1):
            cut = i < hi and sc.is_code[i] and sc.depth[i] == d
            if i == hi or (cut and (code[i] in ",;" or i in sc.loose)):
                spans += _trimmed_parts(code, start, i, top=lo == -1)
                start = i + 1
    spans = [s for s in spans if s[0] < s[1]]
    return sorted(set(spans), key=lambda s: (s[1] - s[0], s[0]))


def _trimmed_parts(code: str, lo: int, hi: int, top: bool) -> list[tuple[int, int]]:
    """The segment [lo, hi) trimmed, its part after `return` or `throw`, and its right side of
    a top-level assignment operator; on a declaration (top) only the initializer."""
    while lo < hi and code[lo].isspace():
        lo += 1
    while hi > lo and code[hi - 1].isspace():
        hi -= 1
    seg = code[lo:hi]
    if _UNSPACED_ANGLE.search(seg) or not _pairs(seg):
        return []
    sc = _scan(seg)
    assert sc is not None
    out = [(lo, hi)]
    if kw := _KEYWORD.match(seg):
        out = [(lo + kw.end(), hi)]
    for mo in _ASSIGN.finditer(seg):
        if sc.is_code[mo.start()] and sc.depth[mo.start()] == 0:
            rhs = seg[mo.end() :]
            out.append((hi - len(rhs.lstrip()), hi))
            break
    if top and not kw and (_declares(seg) or _NOT_EXPRESSION.match(seg)):
        out = out[1:]  # `int x = 3`, `if (c) x = 3`: only the assigned value is an expression
    return out


def _declares(seg: str) -> bool:
    return bool(
        re.match(
            r"^(?:(?:const|constexpr|static|inline|thread_local|auto)\s+)*"
            r"[A-Za-z_][\w:]*(?:\s*[*&]+\s*|\s+)[*&]*[A-Za-z_]\w*\s*(?:=|\{|\(|\[|$)",
            seg,
        )
        or re.match(r"^\s*auto\s*[&*]*\s*\[", seg)
    )


def splice(old: str, new: str, ident: int, widen: int = 0) -> Spliced | None:
    """The schema form of one mutant (old line -> new, which may add a line), or None. `widen`
    takes the widen-th enclosing whole expression instead of the smallest (MAX_WIDEN)."""
    switch = f"{SWITCH}({ident})"
    if widen and _statement_form(old, new):
        return None  # a statement form has no wider one
    end = code_end(old)
    code = old[:end].rstrip()
    if new.startswith(old + "\n") and (jump := _JUMP.match(new[len(old) + 1 :])):
        if not code.endswith((";", "{", "}", ":")):
            return None
        return Spliced(len(code), len(old), f" if ({switch}) {jump.group(1)};")
    if (mo := _COMMENTED.match(new)) and mo.group(2) == old[len(mo.group(1)) :].rstrip():
        body = code.strip()
        if not body.endswith(";") or "{" in body or "}" in body or not _pairs(body):
            return None
        if _declares(body):
            return None
        return Spliced(len(mo.group(1)), len(old), f"if ({switch}) {{}} else {{ {body} }}")
    span = _expression_span(old, new, code_end(old), None, widen)
    if span is None:
        return None
    lo, hi = span
    return Spliced(lo, hi, _chain(old, [(new, ident)], lo, hi))


def _statement_form(old: str, new: str) -> bool:
    """A jump added after the line, or the line commented out (splice's first two forms)."""
    if new.startswith(old + "\n") and _JUMP.match(new[len(old) + 1 :]):
        return True
    mo = _COMMENTED.match(new)
    return mo is not None and mo.group(2) == old[len(mo.group(1)) :].rstrip()


def _change(old: str, new: str) -> tuple[int, int] | None:
    """The part of old's code that an expression mutant changes, or None when it is no such
    mutant (a change inside the comment, an added line, brackets that no longer pair)."""
    if "\n" in new:
        return None
    end = code_end(old)
    s, e_old, _ = diff_span(old, new)
    old_sc, new_sc = _scan(old[:end].rstrip()), _scan(new[: code_end(new)])
    if e_old > end or old_sc is None or new_sc is None or len(old_sc.loose) != len(new_sc.loose):
        return None
    return s, e_old


def _expression_span(
    old: str, new: str, end: int, around: tuple[int, int] | None, widen: int = 0
) -> tuple[int, int] | None:
    """The smallest whole expression of old holding new's change (and `around`, a span of
    other mutants of the line), inside which new's text still pairs its brackets; with `widen`
    the widen-th larger one (None when the line has no more)."""
    change = _change(old, new)
    if change is None:
        return None
    s, e = change
    if around is not None:
        s, e = min(s, around[0]), max(e, around[1])
    larger = widen
    for lo, hi in expression_spans(old[:end].rstrip()):
        if lo <= s and e <= hi and _pairs(new[lo : hi + (len(new) - len(old))]):
            if not larger:
                return lo, hi
            larger -= 1
    return None


def _chain(old: str, members: Sequence[tuple[str, int]], lo: int, hi: int) -> str:
    """`(on(a) ? (A) : on(b) ? (B) : (O))` over old's [lo, hi): each mutant's text of the span
    behind its switch, the original last."""
    arms = "".join(
        f"{SWITCH}({ident}) ? ({new[lo : hi + (len(new) - len(old))]}) : " for new, ident in members
    )
    return f"({arms}({old[lo:hi]}))"


@dataclass
class _Group:
    """Expression mutants of one line sharing one span, chained behind their switches."""

    lo: int
    hi: int
    members: list[tuple[str, int]]


def schema_line(old: str, mutants: Sequence[tuple[str, int, int]]) -> tuple[str, list[int]]:
    """O's line with every mutant (new, id) spliced in, in order: an expression mutant whose span
    overlaps others' joins their chain over the smallest whole expression holding all their
    changes (where one exists); any other mutant only where its span is disjoint from those taken
    before it. The ids taken."""
    end = code_end(old)
    groups: list[_Group] = []
    statements: list[tuple[Spliced, int]] = []

    def clear(lo: int, hi: int, skip: _Group | None = None) -> bool:
        return not any(lo < g.hi and g.lo < hi for g in groups if g is not skip) and not any(
            (lo < t.end and t.start < hi) or lo == hi == t.start == t.end for t, _ in statements
        )

    for new, ident, widen in mutants:
        sp = splice(old, new, ident, widen)
        if sp is None:
            continue
        if _statement_form(old, new):
            if clear(sp.start, sp.end):
                statements.append((sp, ident))
            continue
        for g in [g for g in groups if sp.start < g.hi and g.lo < sp.end]:
            if widen:  # its smallest form failed: it takes its wider one alone or not at all
                break
            span = _expression_span(old, new, end, (g.lo, g.hi))
            if span is None:
                break
            lo, hi = span
            if not clear(lo, hi, skip=g) or not all(
                _expression_span(old, n, end, (lo, hi)) == (lo, hi) for n, _ in g.members
            ):
                break
            g.lo, g.hi = lo, hi
            g.members.append((new, ident))
            break
        else:
            if clear(sp.start, sp.end):
                groups.append(_Group(sp.start, sp.end, [(new, ident)]))
    forms = [(g.lo, g.hi, _chain(old, g.members, g.lo, g.hi)) for g in groups]
    forms += [(t.start, t.end, t.text) for t, _ in statements]
    line = old
    for lo, hi, text in sorted(forms, key=lambda f: -f[0]):
        line = line[:lo] + text + line[hi:]
    taken = {i for g in groups for _, i in g.members} | {i for _, i in statements}
    return line, [i for _, i, _ in mutants if i in taken]


def schema_text(
    text: str, mutants: Sequence[tuple[int, str, int] | tuple[int, str, int, int]]
) -> tuple[str, list[int]]:
    """The file text with the mutants (line, new, id[, widen]) spliced in behind their switches,
    and the ids taken; the text unchanged (no prologue) when none is."""
    lines = text.split("\n")
    by_line: dict[int, list[tuple[str, int, int]]] = {}
    for lineno, new, ident, *widen in mutants:
        by_line.setdefault(lineno, []).append((new, ident, widen[0] if widen else 0))
    taken: list[int] = []
    for lineno, ms in sorted(by_line.items()):
        lines[lineno - 1], ids = schema_line(lines[lineno - 1], ms)
        taken += ids
    if not taken:
        return text, []
    return PROLOGUE + "\n".join(lines), taken
