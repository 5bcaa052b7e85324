"""Trains the float STKNet checkpoint from `stk-harness datagen` data (docs/training.md).

python -m stktrain.train --data seed1.txt --out net.npz --hidden 128 --epochs 10 --seed 1

The graph is the one `stkref.floatmodel` evaluates and `stktrain.export` quantizes (SPEC-NNUE.md).
Loss: the mean squared error in win-probability space between sigmoid(eval / K) and the target
lambda * sigmoid(score / K) + (1 - lambda) * result, K fitted on the training games only (the K
whose sigmoid(score / K) best predicts their results). Adam (optax). A factorizer: one
piece-square row per (kind, square), shared by the 32 king buckets, added to each bucket's row
while training and folded into `ft.weight` (and `psqt.weight`) in the checkpoint written. The
validation split is by game. After each epoch: train and validation loss, positions/s, ETA, and
a resumable state (`<out>.state.npz`); `--resume` goes on from it, and only from a state of the
same run: the state records the run's definition (each data file's SHA-256, the selection of
positions and every setting that changes the result: everything but --epochs and --keep), and a
state of another run is refused with exit 2 naming the first field that differs. Seeds fix the
split, the initial weights and the batch order. JAX runs on a GPU when one is present, else on
the CPUs. Every output (--out, its state, --summary) is checked before the data is read.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import chess
import numpy as np

from stkref import inputs, options
from stkref.checkpoint import Checkpoint, generate_checkpoint, save_checkpoint
from stkref.cli import ToolParser, run_tool
from stkref.errors import InputError
from stkref.features import active_features
from stkref.junit import git_revision, write_bytes_atomic, write_text_atomic
from stkref.oracle import output_bucket
from stkref.outputs import Output
from stkref.spec import DENSE_WEIGHT_SCALE, FLOAT_OUTPUT_CP, NUM_FEATURES, NUM_KINDS
from stktrain.datafile import held_out_games, read_records

MAX_ACTIVE = 32  # at most 31 pieces besides the own king; row 0 of ft.weight is the padding
FACTOR_ROWS = NUM_KINDS * 64
DENSE_LIMIT = 127.0 / DENSE_WEIGHT_SCALE  # what int8 at x64 holds: weights are kept inside
PSQT_LR_FACTOR = 100.0


@dataclass
class Dataset:
    """Positions as arrays, side-to-move relative (the net's view)."""

    stm: np.ndarray  # [N, 32] int32 feature rows (index + 1; 0 = padding)
    opp: np.ndarray
    bucket: np.ndarray  # [N] int32
    score: np.ndarray  # [N] float32, cp, side to move
    result: np.ndarray  # [N] float32, 1 win / 0.5 / 0 loss for the side to move
    game: np.ndarray  # [N] int64, the game each position came from

    def __len__(self) -> int:
        return int(self.score.shape[0])

    def take(self, idx: np.ndarray) -> Dataset:
        return Dataset(
            *(getattr(self, f)[idx] for f in ("stm", "opp", "bucket", "score", "result", "game"))
        )


def _rows(board: chess.Board, color: chess.Color) -> np.ndarray:
    f = np.zeros(MAX_ACTIVE, dtype=np.int32)
    active = active_features(board, color)
    f[: len(active)] = np.asarray(active, dtype=np.int32) + 1
    return f


def read_data(paths: list[Path], quiet_only: bool, max_positions: int) -> Dataset:
    """Reads datagen files (stktrain.datafile); a bad line is an InputError naming FILE:LINE."""
    stm, opp, bucket, score, result, game = [], [], [], [], [], []
    for r in read_records(paths):
        if quiet_only and not r.quiet:
            continue
        try:
            board = chess.Board(r.fen)
        except ValueError as e:
            raise InputError(f"{r.path}:{r.line}: {e}") from e
        white = board.turn == chess.WHITE
        stm.append(_rows(board, board.turn))
        opp.append(_rows(board, not board.turn))
        bucket.append(output_bucket(board))
        score.append(r.score if white else -r.score)
        result.append(r.result if white else 1.0 - r.result)
        game.append(r.game)
        if max_positions and len(score) >= max_positions:
            break
    if not score:
        raise InputError(f"{', '.join(map(str, paths))}: no positions to train on")
    return Dataset(
        np.stack(stm),
        np.stack(opp),
        np.asarray(bucket, np.int32),
        np.asarray(score, np.float32),
        np.asarray(result, np.float32),
        np.asarray(game, np.int64),
    )


def split_by_game(data: Dataset, fraction: float, seed: int) -> tuple[Dataset, Dataset]:
    mask = np.isin(data.game, held_out_games(data.game, fraction, seed))
    return data.take(np.flatnonzero(~mask)), data.take(np.flatnonzero(mask))


def fit_scale(score: np.ndarray, result: np.ndarray) -> float:
    """The K (cp) whose sigmoid(score / K) predicts the results best (least squares), 50..1000."""
    grid = np.arange(50.0, 1001.0, 10.0)
    err = [
        float(np.mean((1.0 / (1.0 + np.exp(-np.clip(score / k, -50, 50))) - result) ** 2))
        for k in grid
    ]
    return float(grid[int(np.argmin(err))])


# ------------------------------------------------------------------------------------------
# The model (JAX). Parameters are the checkpoint's tensors plus the factor rows.


def initial_params(hidden: int, seed: int) -> dict[str, np.ndarray]:
    p = {k: np.asarray(v, np.float32) for k, v in generate_checkpoint(hidden, seed).items()}
    p["l1.weight"] = np.clip(p["l1.weight"], -DENSE_LIMIT, DENSE_LIMIT)
    p["ft.factor"] = np.zeros((FACTOR_ROWS, hidden), np.float32)
    p["psqt.factor"] = np.zeros((FACTOR_ROWS, p["psqt.weight"].shape[1]), np.float32)
    return p


def fold(params: dict[str, Any]) -> Checkpoint:
    """The checkpoint: factor rows added to every bucket's row (row 0, the padding, stays 0)."""
    out = {k: np.asarray(v, np.float64) for k, v in params.items() if not k.endswith(".factor")}
    for name in ("ft", "psqt"):
        factor = np.asarray(params[f"{name}.factor"], np.float64)
        out[f"{name}.weight"][1:] += np.tile(factor, (NUM_FEATURES // FACTOR_ROWS, 1))
    return out


def _jax() -> Any:
    try:
        import jax
    except ImportError as e:  # pragma: no cover - ci/install-deps.sh installs it
        raise InputError(
            "stktrain.train needs JAX (ci/install-deps.sh installs jax[cpu] and optax)"
        ) from e
    return jax


def make_functions(hidden: int, lam: float, scale: float) -> tuple[Any, Any]:
    """(evaluate, errors): the eval in cp, and each position's squared error in WDL space."""
    jax = _jax()
    jnp = jax.numpy
    half = hidden // 2
    factor_of = jnp.concatenate(
        [jnp.zeros(1, jnp.int32), jnp.arange(NUM_FEATURES, dtype=jnp.int32) % FACTOR_ROWS]
    )

    def evaluate(p: Any, stm: Any, opp: Any, bucket: Any) -> Any:
        pad = (jnp.arange(NUM_FEATURES + 1) > 0)[:, None]

        def side(rows: Any) -> tuple[Any, Any]:
            ft = p["ft.weight"][rows] + p["ft.factor"][factor_of[rows]] * pad[rows]
            ps = p["psqt.weight"][rows] + p["psqt.factor"][factor_of[rows]] * pad[rows]
            acc = p["ft.bias"] + ft.sum(axis=1)
            t = jnp.clip(acc[:, :half], 0, 1) * jnp.clip(acc[:, half:], 0, 1) * (127.0 / 128.0)
            return t, ps.sum(axis=1)

        t_s, p_s = side(stm)
        t_o, p_o = side(opp)
        x = jnp.concatenate([t_s, t_o], axis=1)
        h1 = jnp.clip(
            jnp.einsum("nij,nj->ni", p["l1.weight"][bucket], x) + p["l1.bias"][bucket], 0, 1
        )
        h2 = jnp.clip(
            jnp.einsum("nij,nj->ni", p["l2.weight"][bucket], h1) + p["l2.bias"][bucket], 0, 1
        )
        o = jnp.einsum("ni,ni->n", p["out.weight"][bucket], h2) + p["out.bias"][bucket]
        take = jnp.take_along_axis
        psqt = take(p_s, bucket[:, None], 1)[:, 0] - take(p_o, bucket[:, None], 1)[:, 0]
        return FLOAT_OUTPUT_CP * o + psqt

    def errors(p: Any, stm: Any, opp: Any, bucket: Any, score: Any, result: Any) -> Any:
        pred = jax.nn.sigmoid(evaluate(p, stm, opp, bucket) / scale)
        target = lam * jax.nn.sigmoid(score / scale) + (1.0 - lam) * result
        return (pred - target) ** 2

    return jax.jit(evaluate), errors


@dataclass
class TrainSettings:
    """The options of one run (defaults: the command line's, one place)."""

    hidden: int
    epochs: int
    batch: int
    lr: float
    lam: float
    seed: int
    val_fraction: float
    weight_decay: float
    keep: str  # "best" (lowest validation loss) or "last"
    lr_drop: int = 0  # the first epoch at lr x lr_gamma (0: no drop)
    lr_gamma: float = 0.1
    factorizer: bool = True  # off: the factor rows stay 0 (the ablation)

    def lr_at(self, epoch: int) -> float:
        """The learning rate of an epoch (1-based): a step drop at lr_drop."""
        return self.lr * (self.lr_gamma if self.lr_drop and epoch >= self.lr_drop else 1.0)


def state_path_of(out: Path) -> Path:
    return out.with_name(out.name + ".state.npz")


def run_definition(
    s: TrainSettings, data: list[Path], all_positions: bool, max_positions: int
) -> dict[str, Any]:
    """What fixes a run's result: a state is resumed only by a run of the same definition. Not
    in it: --epochs (a resumed run goes on to more) and --keep (the state holds best and last)."""
    settings = {k: v for k, v in asdict(s).items() if k not in ("epochs", "keep")}
    return {
        "data_sha256": [_sha256(p) for p in data],
        "all_positions": all_positions,
        "max_positions": max_positions,
        **settings,
    }


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    try:
        with inputs.open_input(path, inputs.DATA_LIMIT) as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError as e:
        raise InputError(f"{path}: cannot be read ({e.strerror})") from e
    return h.hexdigest()


def first_difference(stored: dict[str, Any], now: dict[str, Any]) -> str:
    """'field: stored vs now' of the first field that differs, '' when none does."""
    for key in [*now, *(k for k in stored if k not in now)]:
        a, b = stored.get(key, "missing"), now.get(key, "missing")
        if a != b:
            return f"{key}: {json.dumps(a)} vs {json.dumps(b)}"
    return ""


def check_resumable(state: Path, definition: dict[str, Any]) -> bool:
    """True when `state` exists and holds this run (InputError when it holds another)."""
    if not state.exists():
        return False
    try:
        with np.load(io.BytesIO(inputs.read_input_bytes(state))) as z:
            stored = json.loads(str(z["meta"])).get("definition", {})
    except (OSError, KeyError, ValueError, AttributeError) as e:
        raise InputError(f"{state}: not a training state ({e})") from e
    if diff := first_difference(stored, definition):
        raise InputError(f"{state}: holds a different run, cannot resume (stored vs now: {diff})")
    return True


def train(
    tr: Dataset,
    va: Dataset,
    s: TrainSettings,
    out: Path,
    resume: bool,
    log: Any,
    definition: dict[str, Any] | None = None,
) -> dict[str, Any]:
    jax = _jax()
    import optax  # type: ignore[import-untyped]

    jnp = jax.numpy
    scale = fit_scale(tr.score, tr.result)  # training games only
    _, errors = make_functions(s.hidden, s.lam, scale)

    def loss(p: Any, *batch: Any) -> Any:
        return errors(p, *batch).mean()

    # PSQT weights are centipawns, the rest are O(1): the PSQT learns at PSQT_LR_FACTOR x lr.
    def label(p: Any) -> Any:
        return {k: "psqt" if k.startswith("psqt.") else "rest" for k in p}

    batch = min(s.batch, len(tr))  # one batch shape: one compilation
    steps_per_epoch = len(tr) // batch  # whole batches

    def lr(factor: float) -> Any:
        """The epoch's rate by optimizer step (the step count lives in the optimizer state,
        so a resumed run drops at the same step)."""
        if not s.lr_drop:
            return s.lr * factor
        boundary = (s.lr_drop - 1) * steps_per_epoch
        return optax.piecewise_constant_schedule(s.lr * factor, {boundary: s.lr_gamma})

    opt = optax.multi_transform(
        {
            "psqt": optax.adam(lr(PSQT_LR_FACTOR)),
            "rest": optax.adamw(lr(1.0), weight_decay=s.weight_decay),
        },
        label,
    )

    dense = ("l1.weight", "l2.weight", "out.weight")

    def _step(p: Any, st: Any, *batch: Any) -> tuple[Any, Any, Any]:
        value, grads = jax.value_and_grad(loss)(p, *batch)
        grads["ft.weight"] = grads["ft.weight"].at[0].set(0.0)  # the padding row stays 0
        grads["psqt.weight"] = grads["psqt.weight"].at[0].set(0.0)
        if not s.factorizer:
            grads["ft.factor"] = jnp.zeros_like(grads["ft.factor"])
            grads["psqt.factor"] = jnp.zeros_like(grads["psqt.factor"])
        updates, st = opt.update(grads, st, p)
        p = optax.apply_updates(p, updates)
        p = {k: jnp.clip(v, -DENSE_LIMIT, DENSE_LIMIT) if k in dense else v for k, v in p.items()}
        return p, st, value

    step = jax.jit(_step)

    def weighted_sum(p: Any, w: Any, *batch: Any) -> Any:
        return (errors(p, *batch) * w).sum()

    eval_sum = jax.jit(weighted_sum)
    state_path = state_path_of(out)
    params = {k: jnp.asarray(v) for k, v in initial_params(s.hidden, s.seed).items()}
    opt_state = opt.init(params)
    history: list[dict[str, float]] = []
    start = 0
    best = params  # the parameters of the epoch with the lowest validation loss so far
    if resume and state_path.exists():
        params, opt_state, best, start, history = _load_state(state_path, params, opt_state)
        log(f"train: resumed {state_path} after epoch {start}")
    rng = np.random.default_rng(s.seed)
    for _ in range(start):  # the batch orders of the epochs already done
        rng.permutation(len(tr))

    def arrays(d: Dataset, j: np.ndarray) -> tuple[Any, ...]:
        return (
            jnp.asarray(d.stm[j]),
            jnp.asarray(d.opp[j]),
            jnp.asarray(d.bucket[j]),
            jnp.asarray(d.score[j]),
            jnp.asarray(d.result[j]),
        )

    def mean_loss(p: Any, d: Dataset) -> float:
        total = 0.0
        for i in range(0, len(d), batch):  # the last chunk padded, its padding weighted 0
            j = np.arange(i, i + batch)
            w = (j < len(d)).astype(np.float32)
            total += float(eval_sum(p, jnp.asarray(w), *arrays(d, np.minimum(j, len(d) - 1))))
        return total / len(d)

    if not history:
        history.append(
            {"epoch": 0, "train_loss": mean_loss(params, tr), "val_loss": mean_loss(params, va)}
        )
        h = history[0]
        log(
            f"train: epoch 0 train loss {h['train_loss']:.6f} val loss {h['val_loss']:.6f}"
            f" (K {scale:.0f} cp)"
        )
    t_all = time.monotonic()
    for epoch in range(start + 1, s.epochs + 1):
        t0 = time.monotonic()
        total, n = 0.0, 0
        order = rng.permutation(len(tr))
        for i in range(0, len(order) - batch + 1, batch):  # whole batches; the rest waits
            params, opt_state, value = step(params, opt_state, *arrays(tr, order[i : i + batch]))
            total += float(value) * batch
            n += batch
        secs = time.monotonic() - t0
        row = {
            "epoch": epoch,
            "train_loss": total / n,
            "val_loss": mean_loss(params, va),
            "positions_per_second": n / max(secs, 1e-9),
            "seconds": secs,
            "lr": s.lr_at(epoch),
        }
        history.append(row)
        if row["val_loss"] < min(h["val_loss"] for h in history[:-1]):
            best = params
        eta = (time.monotonic() - t_all) / (epoch - start) * (s.epochs - epoch)
        log(
            f"train: epoch {epoch}/{s.epochs} lr {row['lr']:.3g} train loss "
            f"{row['train_loss']:.6f} val loss {row['val_loss']:.6f} "
            f"{row['positions_per_second']:.0f} positions/s ETA {eta:.0f} s"
        )
        _save_state(state_path, params, opt_state, best, epoch, history, definition or {})
    # Early stopping: the epoch that generalizes best, not the last (a small corpus overfits).
    chosen = params if s.keep == "last" else best
    kept = history[-1] if s.keep == "last" else min(history, key=lambda h: h["val_loss"])
    save_checkpoint(fold({k: np.asarray(v) for k, v in chosen.items()}), out)
    return {
        "scale_cp": scale,
        "history": history,
        "kept_epoch": int(kept["epoch"]),
        "kept_val_loss": kept["val_loss"],
        "state": str(state_path),
    }


def _save_state(
    path: Path,
    params: Any,
    opt_state: Any,
    best: Any,
    epoch: int,
    history: list[dict[str, float]],
    definition: dict[str, Any],
) -> None:
    jax = _jax()
    leaves = jax.tree_util.tree_leaves((params, opt_state, best))
    arrays: dict[str, Any] = {f"leaf{i}": np.asarray(x) for i, x in enumerate(leaves)}
    meta = json.dumps({"epoch": epoch, "history": history, "definition": definition})
    buf = io.BytesIO()
    np.savez(buf, **{"meta": np.asarray(meta), **arrays})
    write_bytes_atomic(path, buf.getvalue())  # the one checked writer


def _load_state(
    path: Path, params: Any, opt_state: Any
) -> tuple[Any, Any, Any, int, list[dict[str, float]]]:
    jax = _jax()
    treedef = jax.tree_util.tree_structure((params, opt_state, params))
    try:
        with np.load(io.BytesIO(inputs.read_input_bytes(path))) as z:
            meta = json.loads(str(z["meta"]))
            leaves = [jax.numpy.asarray(z[f"leaf{i}"]) for i in range(treedef.num_leaves)]
    except (OSError, KeyError, ValueError) as e:
        raise InputError(f"{path}: not a training state of this net ({e})") from e
    p, st, best = jax.tree_util.tree_unflatten(treedef, leaves)
    return p, st, best, int(meta["epoch"]), list(meta["history"])


def outputs(a: argparse.Namespace) -> list[Output]:
    out = [Output("--out", a.out), Output("--out", state_path_of(a.out))]
    return out + ([Output("--summary", a.summary)] if a.summary else [])


def build_parser() -> ToolParser:
    ap = ToolParser(
        prog="python -m stktrain.train",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        outputs=outputs,
    )
    ap.add_argument(
        "--data",
        type=inputs.input_file(inputs.DATA_LIMIT),
        action="append",
        required=True,
        help="datagen file (repeatable)",
    )
    ap.add_argument("--out", type=Path, required=True, help="float checkpoint (.npz) to write")
    ap.add_argument("--hidden", type=options.integer(128, 1024), default=128, choices=(128, 1024))
    ap.add_argument("--epochs", type=options.integer(1, 10**6), default=10)
    ap.add_argument("--batch", type=options.integer(1, 1 << 24), default=4096)
    ap.add_argument("--lr", type=options.real(0.0, 100.0, open_lo=True), default=1e-3)
    ap.add_argument(
        "--lambda",
        dest="lam",
        type=options.share,
        default=0.5,
        help="weight of the search score against the game result in the target",
    )
    ap.add_argument(
        "--lr-drop",
        type=options.integer(0, 10**6),
        default=0,
        metavar="EPOCH",
        help="from this epoch on the learning rate is lr x --lr-gamma (0: no drop)",
    )
    ap.add_argument(
        "--lr-gamma",
        type=options.real(0.0, 1.0),
        default=0.1,
        help="the factor of the drop (default 0.1)",
    )
    ap.add_argument(
        "--no-factorizer",
        dest="factorizer",
        action="store_false",
        help="train without the factor rows (they stay 0): the factorizer's ablation",
    )
    ap.add_argument(
        "--weight-decay",
        type=options.real(0.0, 100.0),
        default=0.0,
        help="AdamW decay of the non-PSQT weights",
    )
    ap.add_argument(
        "--keep",
        choices=("best", "last"),
        default="best",
        help="write the epoch with the lowest validation loss (default) or the last",
    )
    ap.add_argument("--seed", type=options.seed, default=1)
    ap.add_argument(
        "--val-fraction", type=options.fraction, default=0.1, help="share of games held out"
    )
    ap.add_argument("--all-positions", action="store_true", help="train on non-quiet records too")
    ap.add_argument(
        "--max-positions", type=options.count, default=0, help="read at most N positions (0: all)"
    )
    ap.add_argument("--resume", action="store_true", help="go on from <out>.state.npz")
    ap.add_argument("--summary", type=Path, help="write the run's figures (JSON) here")
    return ap


def main(argv: list[str] | None = None) -> int:
    a = build_parser().parse_args(argv)
    s = TrainSettings(
        a.hidden,
        a.epochs,
        a.batch,
        a.lr,
        a.lam,
        a.seed,
        a.val_fraction,
        a.weight_decay,
        a.keep,
        a.lr_drop,
        a.lr_gamma,
        a.factorizer,
    )
    definition = run_definition(s, a.data, a.all_positions, a.max_positions)
    if a.resume and not check_resumable(state_path_of(a.out), definition):
        print(f"train: no state at {state_path_of(a.out)}: starting afresh", flush=True)
    # The commit the trainer runs from, read as it starts: a run lasts an hour or more, and the
    # tree may be at another commit (or dirty) when it ends (net-B's summary once named the
    # commit checked out at its end).
    revision = git_revision()
    t0 = time.monotonic()
    data = read_data(a.data, not a.all_positions, a.max_positions)
    tr, va = split_by_game(data, a.val_fraction, a.seed)
    print(
        f"train: {len(data)} positions from {len(np.unique(data.game))} games "
        f"({len(tr)} train, {len(va)} validation by game), read in {time.monotonic() - t0:.1f} s; "
        f"seed {a.seed}, JAX on {_jax().devices()[0].platform}",
        flush=True,
    )
    figures = train(tr, va, s, a.out, a.resume, lambda m: print(m, flush=True), definition)
    figures.update(
        {
            "data": [str(p) for p in a.data],
            "positions": len(data),
            "train_positions": len(tr),
            "validation_positions": len(va),
            "seed": a.seed,
            "settings": vars(s),
            "checkpoint": str(a.out),
            "seconds": time.monotonic() - t0,
            "revision": revision,  # the commit the trainer ran from
        }
    )
    if a.summary:
        write_text_atomic(a.summary, json.dumps(figures, indent=2) + "\n")
    first = figures["history"][0]
    print(
        f"train: wrote {a.out}: epoch {figures['kept_epoch']} ({a.keep}), val loss "
        f"{figures['kept_val_loss']:.6f} (epoch 0: {first['val_loss']:.6f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
