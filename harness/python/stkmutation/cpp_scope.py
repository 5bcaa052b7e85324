"""Which C++ scope a line sits in, read from the braces before it (comments, string and character
literals skipped): what the mutation tool needs to tell a class's default member initializer
(`int depth = 0;` in a struct) from a statement. gcov counts such an initializer in the
compiler-made constructor, whose lines it never reports, so the coverage map has no test for it
although every construction runs it (docs/mutation.md, step 3)."""

from __future__ import annotations

import re

# A brace's head (the code since the last `;`, `{` or `}`) that opens a class, struct, union or
# enum body: the keyword, and no parenthesis or `=` (a function, a lambda, a braced initializer).
CLASS_HEAD = re.compile(r"\b(?:struct|class|union|enum)\b")
# A member line that initializes: an `=` or `{` before any parenthesis (not a member function).
INITIALIZES = re.compile(r"^[^()]*[={]")
RAW_STRING = re.compile(r'R"([^()\\\s]{0,16})\(')


def scope_heads(text: str, line: int) -> list[str]:
    """The heads of the braces open where line `line` (1-based) begins, outermost first."""
    end = _line_start(text, line)
    stack: list[str] = []
    head: list[str] = []
    i = 0
    while i < end:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            i = _after(text, "\n", i + 2) - 1  # keep the newline
        elif c == "/" and text.startswith("/*", i):
            i = _after(text, "*/", i + 2)
        elif c == "#" and _starts_line(text, i):
            i = _directive_end(text, i)
        elif c == "R" and (raw := RAW_STRING.match(text, i)) and not _in_name(text, i):
            i = _after(text, f'){raw.group(1)}"', raw.end())
            head.append('""')
        elif c in "\"'" and not (c == "'" and i > 0 and text[i - 1].isalnum()):
            i = _literal_end(text, i, c)
            head.append('""')
        else:
            if c == "{":
                stack.append("".join(head).strip())
                head = []
            elif c == "}":
                if stack:
                    stack.pop()
                head = []
            elif c == ";":
                head = []
            else:
                head.append(c)
            i += 1
    return stack


def in_class_body(text: str, line: int) -> bool:
    """Whether the innermost brace open at the line's start is a class, struct, union or enum."""
    heads = scope_heads(text, line)
    return bool(heads) and _class_head(heads[-1])


def member_initializer(text: str, line: int) -> bool:
    """A line directly in a class (or enum) body that initializes a member (or an enumerator):
    an `=`, or a braced initializer, before any parenthesis; not a line opening a nested type
    or a member function (`{` at its end without `=`), a comment or a directive."""
    code = _code_of_line(text, line)
    if code.startswith(("#", "/*")):
        return False
    before = code.split("(", 1)[0]
    opens_scope = code.endswith("{") and "=" not in before
    return bool(INITIALIZES.match(code)) and not opens_scope and in_class_body(text, line)


def _class_head(head: str) -> bool:
    return bool(CLASS_HEAD.search(head)) and "(" not in head and "=" not in head


def _line_start(text: str, line: int) -> int:
    at = 0
    for _ in range(line - 1):
        nl = text.find("\n", at)
        if nl < 0:
            return len(text)
        at = nl + 1
    return at


def _code_of_line(text: str, line: int) -> str:
    start = _line_start(text, line)
    end = text.find("\n", start)
    code = text[start : len(text) if end < 0 else end]
    return code.split("//", 1)[0].strip()


def _after(text: str, token: str, at: int) -> int:
    found = text.find(token, at)
    return len(text) if found < 0 else found + len(token)


def _starts_line(text: str, i: int) -> bool:
    start = text.rfind("\n", 0, i) + 1
    return not text[start:i].strip()


def _directive_end(text: str, i: int) -> int:
    """The end of a preprocessor line, continued by a backslash before its newline."""
    while True:
        nl = text.find("\n", i)
        if nl < 0:
            return len(text)
        if not text[:nl].rstrip("\r").endswith("\\"):
            return nl
        i = nl + 1


def _literal_end(text: str, i: int, quote: str) -> int:
    j = i + 1
    while j < len(text) and text[j] != quote and text[j] != "\n":
        j += 2 if text[j] == "\\" else 1
    return j + 1


def _in_name(text: str, i: int) -> bool:
    return i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")
