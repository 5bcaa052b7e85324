"""Seeded float checkpoints and the checkpoint reader.

python -m stkref.checkpoint --hidden 128 --seed 1 OUT.npz

The generator is a stand-in for a trained net: random weights with magnitudes chosen so that
activations stay mostly inside the clamp ranges (FT accumulators mostly in 0..1, hidden units
neither all 0 nor all 1) and evals land in the tens to hundreds of centipawns. It also pins
properties that the tests rely on:
- about 1 in 16 dense and PSQT weights sits exactly on a half step of its quantization scale
  (x64, x16 are powers of two, so float32 holds such ties exactly): a rounding rule other than
  half-to-even changes the exported net and the golden evals;
- one l1 weight lies beyond the int8 range, so clipping and its reporting are always exercised.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sys
from pathlib import Path

import numpy as np

from . import options
from .cli import ToolParser, run_tool
from .errors import InputError
from .inputs import UnreadableInputError, check_input, read_input_bytes
from .outputs import Output, write_bytes_atomic, write_text_atomic
from .quantize import checkpoint_shapes, validate_checkpoint
from .spec import ALLOWED_HIDDEN, DENSE_WEIGHT_SCALE, NUM_FEATURES, NUM_KINDS, PSQT_SCALE

Checkpoint = dict[str, np.ndarray]

# Half-values (cp) of own pieces P N B R Q in the PSQT: P[stm]-P[opp] counts each piece twice.
_PSQT_HALF_VALUES = (45.0, 150.0, 160.0, 240.0, 450.0)
TIE_FRACTION = 1.0 / 16.0


def _plant_ties(rng: np.random.Generator, values: np.ndarray, scale: int) -> np.ndarray:
    """Moves a random subset onto exact half steps k + 0.5 of `scale`."""
    mask = rng.random(values.shape) < TIE_FRACTION
    tied = (np.floor(values * scale) + 0.5) / scale
    return np.where(mask, tied, values)


def generate_checkpoint(hidden: int, seed: int) -> Checkpoint:
    if hidden not in ALLOWED_HIDDEN:
        raise InputError(f"--hidden must be 128 or 1024, got {hidden}")
    rng = np.random.default_rng(seed)
    nb = 8
    ft_w = rng.normal(0.0, 0.04, (NUM_FEATURES + 1, hidden))
    ft_w[0] = 0.0
    ft_b = rng.uniform(0.25, 0.55, hidden)

    kinds = (np.arange(NUM_FEATURES) // 64) % NUM_KINDS
    material = np.zeros(NUM_KINDS)
    material[:5] = _PSQT_HALF_VALUES
    material[5:10] = [-v for v in _PSQT_HALF_VALUES]
    bucket_tilt = 1.0 + 0.05 * (np.arange(nb) - 3.5) / 3.5  # pieces weigh a bit more late
    psqt = material[kinds][:, None] * bucket_tilt[None, :] + rng.normal(0, 8.0, (NUM_FEATURES, nb))
    psqt = _plant_ties(rng, psqt, PSQT_SCALE)
    psqt = np.vstack([np.zeros((1, nb)), psqt])

    l1_w = _plant_ties(
        rng, rng.normal(0.0, 1.2 / np.sqrt(hidden), (nb, 16, hidden)), DENSE_WEIGHT_SCALE
    )
    l1_w[0, 0, 0] = 2.5  # beyond int8 / 64 = 1.98: exercises clipping (see module doc)
    l1_b = rng.uniform(0.1, 0.5, (nb, 16))
    l2_w = _plant_ties(rng, rng.normal(0.0, 0.2, (nb, 32, 16)), DENSE_WEIGHT_SCALE)
    l2_b = rng.uniform(0.05, 0.4, (nb, 32))
    out_w = _plant_ties(rng, rng.normal(0.0, 0.12, (nb, 32)), DENSE_WEIGHT_SCALE)
    out_b = rng.normal(0.0, 0.02, nb)
    ckpt = {
        "ft.weight": ft_w,
        "ft.bias": ft_b,
        "psqt.weight": psqt,
        "l1.weight": l1_w,
        "l1.bias": l1_b,
        "l2.weight": l2_w,
        "l2.bias": l2_b,
        "out.weight": out_w,
        "out.bias": out_b,
    }
    out = {k: v.astype(np.float32) for k, v in ckpt.items()}
    shapes = checkpoint_shapes(hidden)
    assert all(out[k].shape == s for k, s in shapes.items())
    return out


def save_checkpoint(ckpt: Checkpoint, path: str | os.PathLike[str]) -> None:
    buf = io.BytesIO()
    np.savez(buf, **ckpt)  # type: ignore[arg-type]
    write_bytes_atomic(path, buf.getvalue())  # the one checked writer


def load_checkpoint(path: str | os.PathLike[str]) -> Checkpoint:
    """Reads .npz (or a torch state_dict .pt/.pth when torch is installed) and validates it."""
    name = os.fspath(path)
    suffix = Path(name).suffix.lower()
    try:
        if suffix == ".npz":
            data = read_input_bytes(name)
            with np.load(io.BytesIO(data), allow_pickle=False) as z:
                ckpt = {k: np.asarray(z[k]) for k in z.files}
        elif suffix in (".pt", ".pth"):
            check_input(name)
            ckpt = _load_torch(name)
        else:
            raise InputError(f"{name}: unknown checkpoint type '{suffix}' (expected .npz, .pt)")
    except UnreadableInputError as e:
        raise InputError(f"{name}: cannot read checkpoint: {e.why}") from e
    except OSError as e:
        raise InputError(f"{name}: cannot read checkpoint: {e}") from e
    except ValueError as e:
        raise InputError(f"{name}: not a valid checkpoint file: {e}") from e
    try:
        validate_checkpoint(ckpt)
    except InputError as e:
        raise InputError(f"{name}: {e}") from e
    return ckpt


def _load_torch(name: str) -> Checkpoint:
    try:
        import torch  # type: ignore[import-not-found, unused-ignore]  # optional dependency
    except ImportError as e:
        raise InputError(
            f"{name}: reading a torch state_dict needs torch, which is not "
            f"installed; install torch or save the checkpoint as .npz"
        ) from e
    state = torch.load(name, map_location="cpu", weights_only=True)
    if not isinstance(state, dict):
        raise InputError(f"{name}: expected a state_dict (dict of tensors), got {type(state)}")
    return {str(k): v.detach().to(torch.float64).numpy() for k, v in state.items()}


def checkpoint_digest(ckpt: Checkpoint) -> str:
    h = hashlib.sha256()
    for k in sorted(ckpt):
        h.update(k.encode())
        h.update(np.ascontiguousarray(ckpt[k]).tobytes())
    return h.hexdigest()


def build_parser() -> ToolParser:
    ap = ToolParser(
        prog="python -m stkref.checkpoint",
        description="Write a seeded float checkpoint (.npz) and its metadata (OUT with .json).",
        outputs=lambda a: [
            Output("OUT", Path(a.out)),
            Output("OUT", Path(a.out).with_suffix(".json")),
        ],
    )
    ap.add_argument("out", help="output .npz path")
    ap.add_argument(
        "--hidden", type=options.integer(128, 1024), default=128, choices=ALLOWED_HIDDEN
    )
    ap.add_argument("--seed", type=options.seed, default=1)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if Path(args.out).suffix == ".json":
        raise InputError(f"OUT {args.out}: the metadata goes to OUT with .json: name OUT .npz")
    print(f"seed {args.seed}")
    ckpt = generate_checkpoint(args.hidden, args.seed)
    save_checkpoint(ckpt, args.out)
    meta = {
        "generator": "stkref.checkpoint",
        "seed": args.seed,
        "hidden": args.hidden,
        "digest": checkpoint_digest(ckpt),
    }
    meta_path = Path(args.out).with_suffix(".json")
    write_text_atomic(meta_path, json.dumps(meta, indent=2) + "\n")
    print(f"wrote {args.out} (hidden {args.hidden}); metadata {meta_path}")
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
