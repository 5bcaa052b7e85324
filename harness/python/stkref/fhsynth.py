"""Synthetic fail-high records drawn from a known logistic model (tests and tool smoke runs).

Nodes are generated like the collection build's (alpha nodes: one whole-node record plus move
records; beta nodes: one whole-node record), kept with the depth-aware probability
2^-(K-d) for d < K with the inverse as weight, and labelled by Bernoulli draws from a float
model `logit = b + sum(beta_i * f_i / 256)` per side. The `prediction` field holds the
integer inference of `stored_model` (all zero without one).

    python -m stkref.fhsynth OUT.fhr [--nodes N] [--seed S] [--model M]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import options
from .cli import ToolParser, run_tool
from .fhmodel import (
    DEFAULT_SHIFT,
    FEATURE_NAMES,
    NUM_FEATURES,
    Model,
    features,
    make_lut,
    predict,
    quantize,
    read_model,
    sigmoid,
)
from .fhrecords import (
    BLACK,
    CUT_NODE,
    IMPROVING,
    LABEL,
    OPP_IMPROVING,
    RECORD_DTYPE,
    WHOLE_NODE,
    write_records,
)
from .inputs import input_file
from .outputs import Output

MOVE_VALUES = np.array([0, -100, -300, -500, -900, -1200], np.int64)


@dataclass(frozen=True)
class FloatSide:
    bias: float
    weights: tuple[float, ...]  # NUM_FEATURES

    @staticmethod
    def of(bias: float, **named: float) -> FloatSide:
        unknown = set(named) - set(FEATURE_NAMES)
        if unknown:
            raise ValueError(f"unknown features {sorted(unknown)}")
        return FloatSide(bias, tuple(named.get(n, 0.0) for n in FEATURE_NAMES))


# A plausible truth: fail highs are likelier with a small gap, early moves, table moves, cut
# nodes and a good history; losing captures and a large gap make them rarer.
TRUE_ALPHA = FloatSide.of(
    0.2,
    depth_lg=-0.15,
    gap_lg=-0.45,
    ordinal_lg=-0.5,
    ordinal_frac=-0.6,
    whole_node=0.8,
    tier_tt=1.2,
    tier_counter=0.5,
    tier_losing_capture=-0.7,
    move_value=-0.4,
    improving=0.25,
    opp_improving=-0.2,
    cut_node=0.5,
    phase=0.3,
    fh_rate=1.5,
    fh_tries_lg=-0.05,
    good_captures=-0.3,
    cut_x_good=0.2,
    legal_lg=0.1,
)
TRUE_BETA = FloatSide.of(
    1.0, depth_lg=-0.4, gap_lg=0.35, improving=0.4, opp_improving=-0.3, cut_node=0.6, phase=-0.5
)


def quantized_model(
    alpha: FloatSide = TRUE_ALPHA,
    beta: FloatSide = TRUE_BETA,
    shift: int = DEFAULT_SHIFT,
    intercept_shift: float = 0.0,
) -> Model:
    return Model(
        shift,
        quantize(alpha.bias + intercept_shift, alpha.weights, shift),
        quantize(beta.bias + intercept_shift, beta.weights, shift),
        make_lut(),
    )


def synthesize(
    rng: np.random.Generator,
    nodes: int,
    alpha: FloatSide = TRUE_ALPHA,
    beta: FloatSide = TRUE_BETA,
    stored_model: Model | None = None,
    full_depth: int = 6,
    beta_fraction: float = 0.3,
    max_moves: int = 6,
) -> np.ndarray:
    """Records of the kept nodes, in node order (node_id counts nodes per position)."""
    depth = rng.integers(1, 13, nodes)
    keep_p = np.where(depth < full_depth, 2.0 ** (depth - full_depth), 1.0)
    kept = rng.random(nodes) < keep_p
    depth, keep_p = depth[kept], keep_p[kept]
    n = len(depth)
    is_beta = rng.random(n) < beta_fraction
    legal = np.where(is_beta, 0, rng.integers(2, 45, n))
    moves = np.where(is_beta, 0, np.minimum(rng.integers(1, max_moves + 1, n), legal))
    per_node = 1 + moves
    node_of = np.repeat(np.arange(n), per_node)
    start = np.cumsum(per_node) - per_node
    ordinal = np.arange(len(node_of)) - start[node_of]  # 0 = the whole-node record
    r = np.zeros(len(node_of), RECORD_DTYPE)
    m = ordinal > 0
    cut = rng.random(n) < 0.4
    flags = (
        np.where(ordinal == 0, WHOLE_NODE, 0)
        | np.where(cut[node_of], CUT_NODE, 0)
        | np.where((rng.random(n) < 0.5)[node_of], IMPROVING, 0)
        | np.where((rng.random(n) < 0.5)[node_of], OPP_IMPROVING, 0)
        | np.where((rng.random(n) < 0.5)[node_of], BLACK, 0)
    )
    position = np.arange(n) // 25
    r["position_id"] = position[node_of]
    r["node_id"] = (np.arange(n) % 25)[node_of]
    r["side"] = is_beta[node_of]
    r["depth"], r["ply"] = depth[node_of], (depth + rng.integers(0, 20, n))[node_of]
    r["gap"] = np.minimum(rng.exponential(120.0, n).astype(np.int64), 65535)[node_of]
    r["legal"] = legal[node_of]
    r["ordinal"] = ordinal
    tier = rng.choice(np.array([1, 2, 3, 3, 3, 4]), len(r))
    r["tier"] = np.where(m, tier, 0)
    value = np.where(
        tier == 4,
        rng.choice(MOVE_VALUES[1:], len(r)),
        rng.choice(MOVE_VALUES[:3], len(r), p=[0.8, 0.1, 0.1]),
    )
    r["move_value"] = np.where(m, value, 0)
    tries = rng.integers(0, 300, len(r))
    r["fh_tries"] = np.where(m, tries, 0)
    r["fh_cuts"] = np.where(m, rng.binomial(tries, rng.random(len(r))), 0)
    r["good_captures"] = np.where(is_beta, 0, rng.integers(0, 11, n))[node_of]
    r["phase"] = rng.integers(0, 25, n)[node_of]
    r["weight"] = np.rint(1.0 / keep_p).astype(np.int64)[node_of]
    r["static_eval"] = rng.integers(-800, 800, n)[node_of]
    r["flags"] = flags
    f = features(r)
    logit = np.where(
        r["side"] == 1,
        beta.bias + (f / 256.0) @ np.asarray(beta.weights),
        alpha.bias + (f / 256.0) @ np.asarray(alpha.weights),
    )
    label = rng.random(len(r)) < sigmoid(logit)
    r["flags"] |= np.where(label, LABEL, 0).astype(np.uint8)
    if stored_model is not None:
        r["prediction"] = predict(stored_model, r, f)
    return r


def main(argv: list[str] | None = None) -> int:
    ap = ToolParser(
        prog="python -m stkref.fhsynth",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        outputs=lambda a: [Output("OUT", Path(a.out))],
    )
    ap.add_argument("out")
    ap.add_argument(
        "--nodes", type=options.count, default=20000, help="generated nodes before sampling"
    )
    ap.add_argument("--seed", type=options.seed, default=1)
    ap.add_argument(
        "--model",
        type=input_file(),
        help="model whose predictions fill the prediction field "
        "(default: the quantized true model)",
    )
    args = ap.parse_args(argv)
    model = read_model(args.model) if args.model else quantized_model()
    recs = synthesize(np.random.default_rng(args.seed), args.nodes, stored_model=model)
    write_records(args.out, recs, seed=args.seed)
    print(
        f"seed {args.seed}: {len(recs)} records written to {args.out} "
        f"({NUM_FEATURES} features, prediction field from "
        f"{args.model or 'the quantized true model'})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
