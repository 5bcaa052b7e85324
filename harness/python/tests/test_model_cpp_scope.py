"""stkmutation.cpp_scope against a model that knows each line's scope by construction: generated
C++ (namespaces, structs, enums, functions, lambdas, nested to three levels, with braces inside
comments, string, character and raw string literals and preprocessor lines) is written line by
line, each line recorded with the scope it was written in."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stkmutation import cpp_scope

# Lines that hide braces and semicolons where no scope opens or closes.
NOISE = [
    '  const char* s = "{ ; }";',
    '  const char* o = "{";',
    '  const char* c = "} \\" }";',
    "  char c = '{';",
    "  // a comment { with braces",
    "  /* { */",
    '  auto r = R"x(})x";',
    "#define OPEN {",
    "  int n = 1'000;",
    "  /* multi\n  line } */",
]


# A line's answer: True or False (directly in a class or enum body, or not), HEAD (a line that
# opens a scope: it sits in its parent's scope, answered there) or CLOSE (never asked: a closing
# brace's line begins inside the scope it closes).
HEAD, CLOSE = "head", "close"
Lines = list[tuple[str, object]]


def resolved(lines: Lines, direct: bool) -> Lines:
    return [(line, direct if answer == HEAD else answer) for line, answer in lines]


def block(depth: int) -> st.SearchStrategy[Lines]:
    """Scopes nested up to three deep, each line with its answer."""
    inner = st.deferred(lambda: block(depth + 1)) if depth < 3 else st.just([])

    def struct(kw: str, members: list[str], nested: Lines) -> Lines:
        return [(f"{kw} S{depth} {{", HEAD), *[(m, True) for m in members],
                *resolved(nested, True), ("};", CLOSE)]  # fmt: skip

    def enum(values: list[str]) -> Lines:
        return [
            (f"enum class E{depth} : int {{", HEAD),
            *[(v, True) for v in values],
            ("};", CLOSE),
        ]

    def function(head: str, stmts: list[str], nested: Lines) -> Lines:
        return [(head, HEAD), *[(x, False) for x in stmts], *resolved(nested, False), ("}", CLOSE)]

    def namespace(nested: Lines) -> Lines:
        return [(f"namespace n{depth} {{", HEAD), *resolved(nested, False), ("}", CLOSE)]

    member = st.sampled_from(["  int depth = 0;", "  double x{1.5};", "  bool on = f(2);", *NOISE])
    stmt = st.sampled_from(["  int worst = 0;", "  x = g(1);", "  if (a) return 2;", *NOISE])
    head = st.sampled_from(
        ["int f(int a) {", "void S::g() const {", "auto l = [&](int v) {", "template <class T> void h(T t) {"]
    )  # fmt: skip
    parts = st.one_of(
        st.builds(struct, st.sampled_from(["struct", "class", "union"]), st.lists(member, max_size=3), inner),
        st.builds(enum, st.lists(st.sampled_from(["  kA = 1 << 2,", "  kB,", "  kC = 3,"]), max_size=3)),
        st.builds(function, head, st.lists(stmt, max_size=3), inner),
        st.builds(namespace, inner),
    )  # fmt: skip
    return st.lists(parts, max_size=3).map(lambda ps: [line for p in ps for line in p])


def initializes(line: str) -> bool:
    """The model's rule: an `=`, or a `{` that does not open a scope, before any parenthesis."""
    code = line.strip()
    if code.startswith(("#", "//", "/*")):
        return False
    before = code.split("(", 1)[0]
    return "=" in before or ("{" in before and not code.endswith("{"))


# MODEL cpp-scope
# checks: harness/python/stkmutation/cpp_scope.py  (which lines sit directly in a class body)
# contract: docs/mutation.md#how-a-mutant-is-made-and-run
# planted: ci/mutants/model-cpp-scope.patch  (a // comment's braces counted as code)
@given(block(0))
@settings(max_examples=300, deadline=None)
def test_model_cpp_scope(lines: Lines) -> None:
    # A multi-line noise entry is asked at its first physical line.
    text, where = "", []
    for line, answer in resolved(lines, False):
        where.append((text.count("\n") + 1, line, answer))
        text += line + "\n"
    for number, line, answer in where:
        if answer == CLOSE:
            continue
        assert cpp_scope.in_class_body(text, number) == answer, (number, line, text)
        wants = answer is True and initializes(line)
        assert cpp_scope.member_initializer(text, number) == wants, (number, line, text)


def test_a_struct_member_default_and_a_local_are_told_apart() -> None:
    # The 9d8f787 shard's not-covered lines, each in its own scope.
    text = (
        "struct Signature {\n"  # 1
        "  int depth = 0;\n"  # 2
        "  std::uint64_t nodes = 0;\n"  # 3
        "};\n"  # 4
        "int run_steps(const std::vector<Step>& selected) {\n"  # 5
        "  int worst = 0;\n"  # 6
        "  struct Local { int k = 2; };\n"  # 7
        "  return worst;\n"  # 8
        "}\n"
    )
    assert [cpp_scope.member_initializer(text, n) for n in range(1, 9)] == [
        False, True, True, False, False, False, False, False
    ]  # fmt: skip
    assert cpp_scope.scope_heads(text, 6) == ["int run_steps(const std::vector<Step>& selected)"]
