"""Independent models of the mutation tools' bookkeeping (docs/mutation.md, planted-defects.md).

Each model is written from the docs, not from stkmutation's code: the sample draw, the shards, the
score, --fail-under, the triage match, the campaign merge and the planted-defect verdicts.
"""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stkmutation import campaign, planted, tool
from stkmutation import report as mreport

OUTCOMES = (
    "killed",
    "timeout",
    "survived",
    "not-covered",
    "equivalent",
    "uncompilable",
    "skipped",
    "error",
)
MODULES = ("engine/src/search", "engine/src/nnue", "harness/src/stats", "stkref/sprt")


def _mutant(module: int, k: int, line: int, mutated: str | None = None) -> tool.Mutant:
    path = f"engine/src/m{module}/f.cpp"
    return tool.Mutant(path, line, "< ==> <=", f"x{k}", mutated or f"m{module}-{k}", "cpp")


@st.composite
def module_pools(draw: Any) -> dict[str, list[tool.Mutant]]:
    sizes = draw(st.lists(st.integers(0, 7), min_size=1, max_size=6))
    pools: dict[str, list[tool.Mutant]] = {}
    for i, n in enumerate(sizes):
        ms = [_mutant(i, k, draw(st.integers(1, 40))) for k in range(n)]
        if ms and draw(st.booleans()):  # the same mutated line by another operator: one mutant
            twin = ms[draw(st.integers(0, len(ms) - 1))]
            ms.append(
                tool.Mutant(twin.file, twin.line, "== ==> !=", twin.original, twin.mutated, "cpp")
            )
        pools[tool.module_of(f"engine/src/m{i}/f.cpp")] = ms
    return pools


def _model_draw(pools: dict[str, list[tool.Mutant]], n: int, seed: int, cap: int) -> list[str]:
    """docs/mutation.md --sample/--per-module: each module's mutants shuffled (modules in sorted
    order, one random.Random(S)), then the modules in a shuffled order take one distinct mutant
    each, round after round, until N are taken (a module leaves once it has M or runs out)."""
    rng = random.Random(seed)
    queues = {}
    for mod in sorted(pools):
        order = list(pools[mod])
        rng.shuffle(order)
        queues[mod] = order
    rounds = sorted(pools)
    rng.shuffle(rounds)
    taken: list[tool.Mutant] = []
    texts: set[tuple[str, int, str | None]] = set()  # identical mutated texts are one mutant
    count = dict.fromkeys(rounds, 0)
    active = list(rounds)
    while active and (not n or len(taken) < n):
        for mod in list(active):
            if n and len(taken) >= n:
                break
            while (
                queues[mod]
                and (queues[mod][0].file, queues[mod][0].line, queues[mod][0].mutated) in texts
            ):
                queues[mod].pop(0)
            if not queues[mod] or (cap and count[mod] >= cap):
                active.remove(mod)
                continue
            m = queues[mod].pop(0)
            texts.add((m.file, m.line, m.mutated))
            taken.append(m)
            count[mod] += 1
            if cap and count[mod] >= cap:
                active.remove(mod)
    taken.sort(key=lambda m: (m.file, m.line, m.operator, m.mutated))
    return [m.ident for m in taken]


# MODEL mutation-sample-draw
# checks: harness/python/stkmutation/tool.py  (--sample N --seed S [--per-module M]: the draw)
# contract: docs/mutation.md#commands
# planted: ci/mutants/model-mutation-sample-draw.patch  (the modules' round order not shuffled)
@given(module_pools(), st.integers(0, 30), st.integers(0, 2**31 - 1), st.sampled_from([0, 0, 1, 2]))
def test_model_sample_draw(pools: dict[str, list[tool.Mutant]], n: int, seed: int, cap: int):
    if not n and not cap:
        n = 1
    got = tool.choose(pools, lambda _: True, n, seed, cap)
    assert [m.ident for m in got] == _model_draw(pools, n, seed, cap)
    # The spread the docs promise: no module holds two more than another unless it ran out.
    per = {mod: sum(m.module == mod for m in got) for mod in pools}
    distinct = {mod: len({(m.line, m.mutated) for m in ms}) for mod, ms in pools.items()}
    for a in pools:
        for b in pools:
            if per[b] < distinct[b] and (not cap or per[b] < cap):
                assert per[a] <= per[b] + 1


# MODEL mutation-shard-partition
# checks: harness/python/stkmutation/tool.py  (--shard K/N: every N-th mutant from the K-th)
# contract: docs/mutation.md#commands
# planted: ci/mutants/model-mutation-shard-partition.patch  (i % n == k, off by one)
@given(module_pools(), st.integers(1, 20), st.integers(0, 1000), st.integers(1, 6))
def test_model_shards_partition_the_sample(pools, n: int, seed: int, shards: int):
    sample = tool.choose(pools, lambda _: True, n, seed)
    # --shard K/N both ways: 1 <= K <= N is taken, one past either edge refused.
    assert tool.parse_shard(f"1/{shards}") == (1, shards)
    assert tool.parse_shard(f"{shards}/{shards}") == (shards, shards)
    for bad in (f"0/{shards}", f"{shards + 1}/{shards}"):
        with pytest.raises(tool.SetupError):
            tool.parse_shard(bad)
    parts = [tool.shard(sample, k, shards) for k in range(1, shards + 1)]
    # Shards 1..N of one seed partition the sample exactly, each in the sample's order...
    flat = [m.ident for p in parts for m in p]
    assert sorted(flat) == sorted(m.ident for m in sample)
    assert len(set(flat)) == len(flat)
    for k, p in enumerate(parts, 1):
        assert [m.ident for m in p] == [m.ident for m in sample[k - 1 :: shards]]
    # ...and the union of the shard reports merged equals the unsharded report's counts.
    outcomes = {m.ident: OUTCOMES[sum(map(ord, m.ident)) % len(OUTCOMES)] for m in sample}

    def recs(ms: list[tool.Mutant]) -> list[dict[str, Any]]:
        return [{"module": m.module, "outcome": outcomes[m.ident], "triaged": ""} for m in ms]

    whole = mreport.tally(recs(sample))["total"]
    shard_rows = [mreport.tally(recs(p))["total"] for p in parts]
    for key in ("generated", "compiled", *OUTCOMES):
        assert whole[key] == sum(r[key] for r in shard_rows)


def _model_score(recs: list[dict[str, Any]]) -> float | None:
    dead = sum(r["outcome"] in ("killed", "timeout") for r in recs)
    alive = sum(r["outcome"] in ("survived", "not-covered") and not r["triaged"] for r in recs)
    if dead + alive == 0:
        return None
    return round(100 * dead / (dead + alive), 1)


@st.composite
def records(draw: Any) -> list[dict[str, Any]]:
    out = []
    for _ in range(draw(st.integers(0, 25))):
        outcome = draw(st.sampled_from(OUTCOMES))
        triaged = (
            draw(st.sampled_from(["", "", "equivalent: clamps"]))
            if outcome in ("survived", "not-covered")
            else ""
        )
        out.append(
            {"module": draw(st.sampled_from(MODULES)), "outcome": outcome, "triaged": triaged}
        )
    return out


# MODEL mutation-score
# checks: harness/python/stkmutation/report.py  (the per-module and total score)
# contract: docs/mutation.md#how-a-mutant-is-made-and-run
# planted: ci/mutants/model-mutation-score.patch  (a timeout not counted as killed)
@given(records())
def test_model_score_per_module_and_total(recs: list[dict[str, Any]]):
    rows = mreport.tally(recs)
    assert list(rows)[-1] == "total"
    assert set(rows) == {r["module"] for r in recs} | {"total"}
    for mod, row in rows.items():
        mine = [r for r in recs if mod == "total" or r["module"] == mod]
        assert row["generated"] == len(mine)
        for o in OUTCOMES:
            assert row[o] == sum(r["outcome"] == o for r in mine)
        assert row["triaged"] == sum(bool(r["triaged"]) for r in mine)
        assert row["score"] == _model_score(mine)
        # The number scored and the 95% Wilson interval of the score, in percent to 0.1.
        dead = sum(r["outcome"] in ("killed", "timeout") for r in mine)
        n = dead + sum(
            r["outcome"] in ("survived", "not-covered") and not r["triaged"] for r in mine
        )
        assert row["scored"] == n
        if n == 0:
            assert row["interval"] is None
        else:
            z2, p = 1.96 * 1.96, dead / n
            centre = (p + z2 / (2 * n)) / (1 + z2 / n)
            half = 1.96 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
            want = [
                round(100 * max(0.0, centre - half), 1),
                round(100 * min(1.0, centre + half), 1),
            ]
            assert row["interval"] == pytest.approx(want, abs=0.051)
    # Reordering the records changes nothing.
    assert mreport.tally(list(reversed(recs))) == rows


# MODEL mutation-fail-under
# checks: harness/python/stkmutation/tool.py  (--fail-under PCT: exit 1 below PCT)
# contract: docs/mutation.md#commands
# planted: ci/mutants/model-mutation-fail-under.patch  (the report's rounded score compared)
@given(st.integers(0, 40), st.integers(0, 40), st.integers(0, 5), st.integers(0, 3))
def test_model_fail_under_both_ways(killed: int, survived: int, timeout: int, triaged: int):
    triaged = min(triaged, survived)
    total = {
        "killed": killed,
        "timeout": timeout,
        "survived": survived,
        "not-covered": 0,
        "triaged": triaged,
    }
    dead, scored = killed + timeout, killed + timeout + survived - triaged
    if scored == 0:
        assert not tool.under_fail_under(total, 100.0)
        return
    exact = Fraction(100 * dead, scored)
    # The smallest PCT written with one decimal that breaks it, and the largest that keeps it.
    breaking = Fraction(int(exact * 10) + 1, 10)
    keeping = Fraction(int(exact * 10), 10)
    if breaking <= 100:
        assert tool.under_fail_under(total, float(breaking)), (dead, scored, float(breaking))
    assert not tool.under_fail_under(total, float(keeping)), (dead, scored, float(keeping))
    assert not tool.under_fail_under(total, None)


def test_fail_under_two_of_three_is_under_66_7():
    total = {"killed": 2, "timeout": 0, "survived": 1, "not-covered": 0, "triaged": 0}
    assert (
        mreport.tally(
            [{"module": "m", "outcome": o, "triaged": ""} for o in ("killed", "killed", "survived")]
        )["total"]["score"]
        == 66.7
    )
    assert tool.under_fail_under(total, 66.7)  # 66.67% is below 66.7%, whatever the report shows
    assert not tool.under_fail_under(total, 66.6)


# MODEL mutation-triage-match
# checks: harness/python/stkmutation/tool.py  (a triage line matches a survivor)
# contract: docs/mutation.md#triage
# planted: ci/mutants/model-mutation-triage-match.patch  (the original line not stripped)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["survived", "not-covered", "killed", "timeout"]),
            st.sampled_from(["  if (a < b) {", "return a | b;", "x = y;  ", "\tq.pop()"]),
            st.sampled_from(["< ==> <=", "core/NumberReplacer"]),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_model_triage_matches_survivors_by_text(tmp_path_factory, rows):
    repo = tmp_path_factory.mktemp("repo")
    (repo / "engine/src").mkdir(parents=True, exist_ok=True)
    (repo / "engine/src/a.cpp").write_text("x\n")
    entries_wanted = {(op, text.strip()) for _, text, op, listed in rows if listed}
    lines = [f"engine/src/a.cpp | {op} | {text} | judged" for op, text in sorted(entries_wanted)]
    tri = repo / "triage.txt"
    tri.write_text("# comment\n\n" + "\n".join(lines) + "\n")
    entries = tool.read_triage(tri, repo)
    ms = []
    for outcome, text, op, _ in rows:
        m = tool.Mutant("engine/src/a.cpp", 3, op, text, text + "!", "cpp")
        m.outcome = outcome
        ms.append(m)
    tool.apply_triage(ms, entries)
    for m in ms:
        want = m.outcome in ("survived", "not-covered") and (
            (m.operator, m.original.strip()) in entries_wanted
        )
        assert bool(m.triage) == want, (m.outcome, m.operator, m.original)
        if want:
            assert m.triage == "judged"


def _rec(key: int, outcome: str, module: str = "engine/src/search") -> dict[str, Any]:
    return {
        "id": f"engine/src/search/a.cpp:{key}:h",
        "file": "engine/src/search/a.cpp",
        "line": key,
        "module": module,
        "operator": "< ==> <=",
        "original": f"line {key}",
        "mutated": f"mutated {key}",
        "outcome": outcome,
        "triaged": "",
    }


# MODEL mutation-campaign-merge
# checks: harness/python/stkmutation/campaign.py  (reports merged by mutant, later replaces earlier)
# contract: docs/mutation.md#campaigns-several-runs-one-table
# planted: ci/mutants/model-mutation-campaign-merge.patch  (the first report's outcome kept)
@given(
    st.lists(st.sampled_from(OUTCOMES), min_size=1, max_size=20),
    st.integers(1, 4),
    st.lists(st.sampled_from(["killed", "survived", "gone"]), max_size=20),
)
def test_model_campaign_merge(outcomes: list[str], shards: int, rerun: list[str]):
    recs = [_rec(i, o) for i, o in enumerate(outcomes)]
    # Shards merged equal the unsharded run's table.
    docs = [{"report": {"config": f"s{k}"}, "mutants": recs[k::shards]} for k in range(shards)]
    first, final = campaign.merge(docs)
    assert campaign.scored(final) == mreport.tally(recs)
    assert campaign.scored(first) == mreport.tally(recs)
    # A rerun of the survivors: its outcome replaces the first; a mutant it asked for but no
    # longer made is gone and leaves the final score.
    survivors = [r for r in recs if r["outcome"] in ("survived", "not-covered")]
    again, asked, model_final = [], [], {mreport.text_key(r): r for r in recs}
    for r, new in zip(survivors, rerun, strict=False):
        asked.append(mreport.text_key(r))
        if new == "gone":
            del model_final[mreport.text_key(r)]
        else:
            again.append(dict(r, outcome=new))
            model_final[mreport.text_key(r)] = dict(r, outcome=new)
    docs.append({"report": {"config": "rerun"}, "mutants": again, "asked": asked})
    first, final = campaign.merge(docs)
    assert campaign.scored(first) == mreport.tally(recs)
    assert campaign.scored(final) == mreport.tally(list(model_final.values()))


# MODEL planted-defect-verdict
# checks: harness/python/stkmutation/planted.py  (a planted defect is caught by every listed check)
# contract: docs/planted-defects.md#planted-defects
# planted: ci/mutants/model-planted-defect-verdict.patch  (caught when any one check fails)
@given(
    st.lists(
        st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=3),
        min_size=1,
        max_size=6,
    ),
    st.integers(1, 3),
)
@settings(max_examples=40)
def test_model_planted_verdicts_and_merge(tmp_path_factory, defects, shards: int):
    out = tmp_path_factory.mktemp("mutants")
    recs = []
    for i, checks in enumerate(defects):
        results = [
            planted.CheckResult(f"check {j}", 1 if caught else 0, 1.0, caught, caught and hang)
            for j, (caught, hang) in enumerate(checks)
        ]
        m = planted.Mutant(f"p{i}.patch", [r.command for r in results], "stats", results)
        rec = planted.to_record(m)
        every = all(c for c, _ in checks)
        if not every:
            want = "survived"
        elif all(h for _, h in checks):
            want = "timeout"
        else:
            want = "killed"
        assert rec["outcome"] == want, checks
        recs.append(rec)
    # --merge of the shards: one report, exit 1 exactly when a defect survived a listed check.
    paths = []
    for k in range(shards):
        p = out / f"shard{k}.json"
        p.write_text(json.dumps({"head": "abc", "mutants": recs[k::shards]}))
        paths.append(p)
    rc = planted.merge_reports(paths, "merged", out)
    assert rc == (1 if any(r["outcome"] == "survived" for r in recs) else 0)
    merged = json.loads((out / "mutants" / "merged.json").read_text())
    assert sorted(r["id"] for r in merged["mutants"]) == sorted(r["id"] for r in recs)


# Each kind of path, and each top folder of the "other" kind, a parametrize case of its own
# (rule_choice.py: drawn, "harness/python/stkdist" went undrawn in 100 examples).
OTHER_TOPS = ["", "ci", "harness/python/stkdist", "harness/python", "engine"]
PATH_KINDS = [("engine", ""), ("harness", ""), ("commands", ""), ("python", "")] + [
    ("other", top) for top in OTHER_TOPS
]


@st.composite
def code_paths(draw: Any, kind: str, top: str) -> tuple[str, str]:
    """(a source path of `kind` (under `top` for "other"), its module by docs/mutation.md's
    rule)."""
    folders = draw(st.lists(st.sampled_from(["nnue", "search", "layers", "io"]), max_size=3))
    name = draw(st.sampled_from(["a", "tt", "main"]))
    if kind == "engine":
        path = "/".join(["engine/src", *folders, name + ".cpp"])
        return path, "engine/src" + ("/" + folders[0] if folders else "")
    if kind == "harness":
        path = "/".join(["harness/src", *folders, name + ".cpp"])
        return path, "harness/src" + ("/" + folders[0] if folders else "")
    if kind == "commands":
        cmd = draw(st.sampled_from(["match", "uci-check", "perft"]))
        path = "/".join(["harness/src/commands", cmd, *folders, name + ".cpp"])
        return path, f"harness/src/commands/{cmd}"
    if kind == "python":
        pkg = draw(st.sampled_from(["stkref", "stktrain", "stkmutation", "stkdev"]))
        sub = "/".join(folders)
        return (
            "/".join(["harness/python", pkg, *folders, name + ".py"]),
            f"{pkg}/{sub + '/' if sub else ''}{name}",
        )
    # Any other file: its folder, "." at the top (a package not counted module by module, a
    # script folder, a file of the repository's root).
    path = "/".join([p for p in (top, *folders) if p] + [name + ".py"])
    return path, "/".join(p for p in (top, *folders) if p) or "."


# MODEL mutation-module-of
# checks: harness/python/stkmutation/modules.py  (the module a mutant's score is counted in)
# contract: docs/mutation.md#how-a-mutant-is-made-and-run
# planted: ci/mutants/model-mutation-module-of.patch  (the innermost folder, not the first)
@pytest.mark.parametrize(("kind", "top"), PATH_KINDS)
@settings(max_examples=25)
@given(data=st.data())
def test_model_module_of(kind: str, top: str, data: st.DataObject):
    path, module = data.draw(code_paths(kind, top))
    from stkmutation import modules

    assert modules.module_of(path) == module
    assert tool.module_of(path) == module  # the tool counts by the same rule


def _model_anchor(heading: str) -> str:
    text = heading.strip().lower().replace("`", "")
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


heading_words = st.lists(
    st.sampled_from(
        [
            "Whole",
            "files:",
            "`io::replace_file`",
            "run_per_hour",
            "(stkdev)",
            "2.",
            "SPRT",
            "&",
            "a/b",
            "K",
            "—",
            "x-y",
        ]
    ),
    min_size=1,
    max_size=5,
).map(" ".join)


# MODEL models-heading-anchors
# checks: harness/python/stkmutation/models.py  (a contract's heading anchor, as GitHub makes it)
# contract: docs/models-howto.md#the-header-block
# planted: ci/mutants/model-models-heading-anchors.patch  (a literal underscore dropped)
@given(st.lists(st.tuples(st.integers(1, 4), heading_words, st.booleans()), max_size=8))
def test_model_heading_anchors(tmp_path_factory, headings):
    from stkmutation import models

    doc = tmp_path_factory.mktemp("doc") / "page.md"
    lines, want, seen = [], set(), {}
    for level, text, fenced in headings:
        if fenced:  # a shell comment in a code block is no heading
            lines += ["```sh", f"# {text}", "```"]
            continue
        lines += [f"{'#' * level} {text}", "", "text"]
        base = _model_anchor(text)
        n = seen.get(base, 0)
        seen[base] = n + 1
        want.add(base if n == 0 else f"{base}-{n}")
    doc.write_text("\n".join(lines) + "\n")
    assert models.anchors(doc) == want


# MODEL campaign-target-verdict
# checks: harness/python/stkmutation/campaign.py  (a module's first-run verdict against its target)
# contract: docs/mutation.md#campaigns-several-runs-one-table
# planted: ci/mutants/model-campaign-target-verdict.patch  (the rounded score compared)
@given(
    st.sampled_from(["engine/src/search", "stkref/sprt"]),
    st.integers(1, 800),
    st.sampled_from(["keep", "break", "few"]),
    st.sampled_from([85.0, 95.0, 90.0, 66.7]),
)
def test_model_campaign_target_verdict_both_ways(module, scored, edge, target):
    engine_t, harness_t = (target, 85.0) if module.startswith("engine/") else (95.0, target)
    t = Fraction(repr(target))
    # The fewest killed whose exact score reaches the target, and one fewer.
    need = -((-t * scored) // 100)  # ceil(target * scored / 100)
    if edge == "few":
        scored = min(scored, 19)
        need = -((-t * scored) // 100)
    killed = int(need) if edge != "break" else int(need) - 1
    if killed < 0 or killed > scored:
        return
    recs = [
        {"module": module, "outcome": "killed" if i < killed else "survived", "triaged": ""}
        for i in range(scored)
    ]
    rows = mreport.tally(recs)
    lines, missing = campaign.target_table(rows, rows, engine_t, harness_t)
    row = next(line for line in lines if line.startswith(f"| `{module}` |"))
    verdict = row.split("|")[4].strip()
    if edge == "break":
        want = "**short**"
    elif scored < 20:
        want = "too few (need 20)"
    else:
        want = "meets"
    assert verdict == want, (killed, scored, target, rows[module]["score"])
    assert (module in missing) == (want != "meets")


def _listed(argv: list[str]) -> list[str]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = planted.main(["--list", *argv])
    return (
        [line.split()[0] for line in out.getvalue().splitlines() if line.endswith("]")]
        if (rc == 0)
        else []
    )


# MODEL planted-shard-partition
# checks: harness/python/stkmutation/planted.py  (check-mutants --shard K/N: every N-th patch)
# contract: docs/planted-defects.md#planted-defects
# planted: ci/mutants/model-planted-shard-partition.patch  (shard K starts at the (K+1)-th patch)
@given(st.integers(1, 7), st.sampled_from(["model-", "gamestate-|movegen-", "stats|sprt", ""]))
@settings(max_examples=12)
def test_model_planted_shards_partition_the_patches(n: int, pattern: str):
    whole = _listed([pattern] if pattern else [])
    assert whole and len(set(whole)) == len(whole)
    shards = [
        _listed(["--shard", f"{k}/{n}", *([pattern] if pattern else [])]) for k in range(1, n + 1)
    ]
    # Shards 1..N of one pattern partition its patches: every N-th from the K-th, in order.
    for k, part in enumerate(shards, 1):
        assert part == whole[k - 1 :: n]
    assert sorted(p for part in shards for p in part) == sorted(whole)


def _is_subsequence(xs: list[str], ys: list[str]) -> bool:
    it = iter(ys)
    return all(any(x == y for y in it) for x in xs)


# MODEL mutation-diff-lines
# checks: harness/python/stkmutation/tool.py  (--diff BASE: the lines added or changed since BASE)
# contract: docs/mutation.md#commands
# planted: ci/mutants/model-mutation-diff-lines.patch  (a one-line hunk read as no line)
@given(
    st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), max_size=12),
    st.lists(st.sampled_from(["a", "b", "c", "x", "y"]), max_size=12),
)
@settings(max_examples=40)
def test_model_diff_lines(tmp_path_factory, old: list[str], new: list[str]):
    import subprocess

    tmp = tmp_path_factory.mktemp("diff")
    (tmp / "a").mkdir()
    (tmp / "b").mkdir()
    (tmp / "a/f.cpp").write_text("".join(x + "\n" for x in old))
    (tmp / "b/f.cpp").write_text("".join(x + "\n" for x in new))
    out = subprocess.run(
        ["git", "diff", "--no-index", "-U0", "--no-color", "a/f.cpp", "b/f.cpp"],
        cwd=tmp,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    # git diff --no-index names the new side b/b/f.cpp: the tool drops the b/ prefix.
    changed = tool.parse_diff(out).get("b/f.cpp", set())
    assert changed <= set(range(1, len(new) + 1))
    # A line whose text is nowhere in BASE is added, so it is reported...
    assert {i + 1 for i, x in enumerate(new) if x not in old} <= changed
    # ...and the lines not reported are a common subsequence: unchanged lines of BASE, in order.
    kept = [x for i, x in enumerate(new) if i + 1 not in changed]
    assert _is_subsequence(kept, old)
    if old == new:
        assert changed == set()
