"""The printed figures of sprt, sprt-sim and homogeneity-sim hold every setting they ran with,
each under the name and with the value given (docs/report-schema.md#printed-figures---json): a
setting echoed under another option's name, swapped with its key or lost passes every check of
the figures themselves, and a reader would take the figures for another run's."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

REPO = Path(__file__).resolve().parents[3]
HARNESS = os.environ.get("STK_HARNESS", str(REPO / "build/release/harness/stk-harness"))


def printed(*args: str) -> dict:
    if not Path(HARNESS).exists():
        pytest.skip(f"stk-harness not found at {HARNESS}")
    r = subprocess.run([HARNESS, *args, "--json"], capture_output=True, text=True, timeout=120)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def key(option: str) -> str:
    return option.removeprefix("--").replace("-", "_")


bounds = st.tuples(st.integers(-20, 20), st.integers(1, 20)).map(lambda t: (t[0], t[0] + t[1]))
rates = st.sampled_from([0.01, 0.05, 0.1, 0.2, 0.25])
FAST = settings(max_examples=8, phases=(Phase.explicit, Phase.generate))


# MODEL json-settings
# checks: harness/src/commands/sprt-sim/sprt_sim_command.cpp  (the settings its figures hold)
# contract: docs/report-schema.md#printed-figures---json
# planted: ci/mutants/sprt-sim-params-key-swapped.patch  (elo0 written as its value's key)
@FAST
@given(
    elo=bounds,
    alpha=rates,
    beta=rates,
    draw=st.sampled_from([0.0, 0.3, 0.6]),
    bias=st.sampled_from([0.0, 30.0, 60.0]),
    runs=st.integers(1, 3),
    seed=st.integers(0, 2**63),
    max_pairs=st.integers(10, 200),
    model=st.sampled_from(["normalized", "logistic"]),
)
def test_sprt_sim_prints_the_settings_it_ran(
    elo, alpha, beta, draw, bias, runs, seed, max_pairs, model
):  # type: ignore[no-untyped-def]
    given_ = {
        "--elo0": elo[0], "--elo1": elo[1], "--alpha": alpha, "--beta": beta,
        "--draw-ratio": draw, "--colour-bias": bias, "--runs": runs, "--seed": seed,
        "--max-pairs": max_pairs, "--model": model,
    }  # fmt: skip
    j = printed("sprt-sim", *[w for o, v in given_.items() for w in (o, str(v))])
    assert j["params"] == {key(o): v for o, v in given_.items()}


@FAST
@given(
    elo=bounds,
    alpha=rates,
    beta=rates,
    counts=st.lists(st.integers(0, 500), min_size=5, max_size=5).filter(lambda c: sum(c) > 0),
    wdl=st.booleans(),
    model=st.sampled_from(["normalized", "logistic"]),
)
def test_sprt_prints_the_settings_it_ran(elo, alpha, beta, counts, wdl, model):  # type: ignore[no-untyped-def]
    given_ = {
        "--elo0": elo[0],
        "--elo1": elo[1],
        "--alpha": alpha,
        "--beta": beta,
        "--model": model,
    }
    words = [w for o, v in given_.items() for w in (o, str(v))]
    if wdl:
        j = printed("sprt", "--wdl", ",".join(map(str, counts[:3])), *words)
        assert j["wdl"] == dict(zip("wdl", counts[:3], strict=True))
    else:
        j = printed("sprt", "--pentanomial", ",".join(map(str, counts)), *words)
        assert j["pentanomial"] == counts
    assert {k: j["sprt"][k] for k in map(key, given_)} == {key(o): v for o, v in given_.items()}


@FAST
@given(
    shards=st.integers(2, 5),
    pairs=st.integers(1, 9),
    merges=st.integers(1, 4),
    permutations=st.integers(1, 20),
    alpha=rates,
    seed=st.integers(0, 2**63),
)
def test_homogeneity_sim_prints_the_settings_it_ran(
    shards, pairs, merges, permutations, alpha, seed
):  # type: ignore[no-untyped-def]
    given_ = {
        "--shards": shards, "--pairs": pairs, "--merges": merges,
        "--permutations": permutations, "--alpha": alpha, "--seed": seed,
        "--law": [0.1, 0.2, 0.4, 0.2, 0.1], "--bad-law": [0.3, 0.3, 0.2, 0.1, 0.1],
    }  # fmt: skip
    words = [
        w
        for o, v in given_.items()
        for w in (o, ",".join(map(str, v)) if isinstance(v, list) else str(v))
    ]
    j = printed("homogeneity-sim", *words)
    want = {key(o): v for o, v in given_.items()}
    want["pairs_per_shard"] = want.pop("pairs")
    assert j["params"] == want


def help_defaults(command: str) -> dict[str, str]:
    """Each option's default as the command's --help prints it (`--name TYPE...=VALUE`)."""
    text = subprocess.run([HARNESS, command, "--help"], capture_output=True, text=True).stdout
    return dict(re.findall(r"^\s+(--[a-z][a-z-]*) [A-Z]+(?::[^=\n]*)?=(\S+)", text, re.M))


def as_printed(default: str, printed_value: object) -> object:
    """The --help default in the type the JSON holds it."""
    if isinstance(printed_value, list):
        return [float(x) for x in default.split(",")]
    if isinstance(printed_value, bool | str):
        return default
    return float(default) if isinstance(printed_value, float) else int(default)


@pytest.mark.parametrize(
    ("command", "given", "where", "renamed"),
    [
        ("sprt-sim", ["--runs", "1", "--max-pairs", "10"], "params", {}),
        ("homogeneity-sim", ["--merges", "2", "--permutations", "2"], "params",
         {"--pairs": "pairs_per_shard"}),
        ("sprt", ["--pentanomial", "1,2,3,4,5", "--elo0", "0", "--elo1", "5"], "sprt", {}),
    ],
)  # fmt: skip
def test_an_option_not_given_prints_its_help_default(
    command: str, given: list[str], where: str, renamed: dict[str, str]
) -> None:
    """docs/report-schema.md#printed-figures---json: an option left out ran at the default its
    --help names, and the printed figures say so (the closing draw: match's --pairs default
    differing from its help passed every test, as no test left an option out)."""
    defaults = {o: d for o, d in help_defaults(command).items() if o not in given}
    assert defaults, f"{command} --help names no default"
    settings_printed = printed(command, *given)[where]
    for option, default in defaults.items():
        name = renamed.get(option, key(option))
        assert name in settings_printed, f"{command} {option}: not among the printed settings"
        value = settings_printed[name]
        assert value == as_printed(default, value), f"{command} {option}: --help says {default}"


def test_sprt_sim_summaries_agree_with_each_other() -> None:
    """Each hypothesis's row of `sprt-sim --json`: the runs' verdicts add up to --runs, the pairs'
    quantiles run median <= p90 <= max <= --max-pairs with the mean at most the max, and the
    error rate lies in its Wilson interval (a max_pairs read at another quantile survived the
    closing draw)."""
    j = printed(
        "sprt-sim", "--elo0", "0", "--elo1", "15", "--runs", "40", "--max-pairs", "20000",
        "--seed", "3",
    )  # fmt: skip
    spread = False
    for side in ("elo0", "elo1"):
        r = j[side]
        assert r["accepted_h0"] + r["accepted_h1"] + r["undecided"] == 40, side
        assert r["median_pairs"] <= r["p90_pairs"] <= r["max_pairs"] <= 20000, (side, r)
        assert r["mean_pairs"] <= r["max_pairs"], (side, r)
        lo, hi = r["error_wilson95"]
        assert lo <= r["error_rate"] <= hi, (side, r)
        spread |= r["median_pairs"] < r["max_pairs"]
    assert spread, "every run took the same number of pairs: the quantiles prove nothing"
