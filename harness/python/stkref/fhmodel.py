"""Fail-high predictor reference: lg(), the 28 integer features, the model text file and the
integer inference of docs/fail-high-predictor.md, bit-exact with the engine.

All feature and inference arithmetic is int64 (the contract's integer arithmetic); floats
appear only in `quantize` and `make_lut`, which produce a model, never consume one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import InputError
from .fhflags import CUT_NODE, IMPROVING, OPP_IMPROVING, WHOLE_NODE
from .inputs import UnreadableInputError, read_input_text

FEATURE_NAMES: tuple[str, ...] = (
    "depth_lg",
    "gap_lg",
    "ordinal_lg",
    "ordinal_frac",
    "whole_node",
    "tier_tt",
    "tier_counter",
    "tier_losing_capture",
    "move_value",
    "improving",
    "opp_improving",
    "cut_node",
    "phase",
    "fh_rate",
    "fh_tries_lg",
    "good_captures",
    "cut_x_good",
    "legal_lg",
    "gap_sq",
    "ordinal_sq",
    "gap_x_ordinal",
    "value_x_gap",
    "value_x_ordinal",
    "rate_x_tries",
    "whole_x_depth",
    "whole_x_gap",
    "depth_sq",
    "depth_x_gap",
)
NUM_FEATURES = len(FEATURE_NAMES)
LEGAL_LG = FEATURE_NAMES.index("legal_lg")
# The beta side is whole-node only and decided before move generation: every other feature is
# a constant there (whole_node 256, the move features 0, legal unknown).
BETA_FEATURES: tuple[str, ...] = (
    "depth_lg",
    "gap_lg",
    "improving",
    "opp_improving",
    "cut_node",
    "phase",
    "gap_sq",
    "depth_sq",
    "depth_x_gap",
)
MODEL_MAGIC = "stk-fhmodel"
MODEL_VERSION = 1
LUT_SIZE = 2048
LUT_CENTRE = 1024
Z_SCALE = 64  # z is the logit in 1/64 units
DEFAULT_SHIFT = 18
SHIFT_RANGE = (8, 30)
INT32 = (-(1 << 31), (1 << 31) - 1)


class ModelFormatError(InputError):
    """A model text file that violates the contract; the message names file and line."""


def lg(v: int) -> int:
    """Piecewise-linear log2 in 1/256 units, v >= 1."""
    if v < 1:
        raise ValueError(f"lg({v}): argument must be >= 1")
    b = v.bit_length() - 1
    return 256 * b + (((v << 8) >> b) & 255)


def lg_array(v: np.ndarray) -> np.ndarray:
    """lg() elementwise (int64); every element must be >= 1."""
    v = np.asarray(v, dtype=np.int64)
    if v.size and int(v.min()) < 1:
        raise ValueError("lg: arguments must be >= 1")
    b = np.frexp(v.astype(np.float64))[1].astype(np.int64) - 1  # exact for v < 2^53
    return 256 * b + (((v << 8) >> b) & 255)


def features(records: np.ndarray) -> np.ndarray:
    """The 28 features of every record, int64, shape (N, 28), columns in FEATURE_NAMES order."""
    r = records

    def i64(name: str) -> np.ndarray:
        return r[name].astype(np.int64)

    flags = i64("flags")

    def bit(b: int) -> np.ndarray:
        out: np.ndarray = ((flags & b) != 0).astype(np.int64)
        return out

    depth, gap, ordinal, legal = i64("depth"), i64("gap"), i64("ordinal"), i64("legal")
    tier, mv = i64("tier"), i64("move_value")
    cuts, tries, good = i64("fh_cuts"), i64("fh_tries"), np.minimum(i64("good_captures"), 8)
    cut = bit(CUT_NODE)
    f = np.empty((len(r), NUM_FEATURES), np.int64)
    f[:, 0] = lg_array(depth)
    f[:, 1] = lg_array(gap + 1)
    f[:, 2] = lg_array(ordinal + 1)
    f[:, 3] = np.where(legal > 0, (256 * ordinal) // np.maximum(legal, 1), 0)
    f[:, 4] = 256 * bit(WHOLE_NODE)
    f[:, 5] = 256 * (tier == 1)
    f[:, 6] = 256 * (tier == 2)
    f[:, 7] = 256 * (tier == 4)
    f[:, 8] = np.sign(mv) * (np.abs(mv) // 4)  # C++ '/': truncation (exact for the ladder)
    f[:, 9] = 256 * bit(IMPROVING)
    f[:, 10] = 256 * bit(OPP_IMPROVING)
    f[:, 11] = 256 * cut
    f[:, 12] = 10 * i64("phase")
    f[:, 13] = (256 * cuts + 32) // (tries + 2)
    f[:, 14] = lg_array(tries + 1)
    f[:, 15] = 32 * good
    f[:, 16] = cut * 32 * good
    f[:, 17] = lg_array(legal + 1)
    # Cross terms measured on held-out records (the low-probability tail of the LMR population
    # and the depth bands): products of the features above, >> 8 (arithmetic: floor).
    f[:, 18] = (f[:, 1] * f[:, 1]) >> 8
    f[:, 19] = (f[:, 2] * f[:, 2]) >> 8
    f[:, 20] = (f[:, 1] * f[:, 2]) >> 8
    f[:, 21] = (f[:, 8] * f[:, 1]) >> 8
    f[:, 22] = (f[:, 8] * f[:, 2]) >> 8
    f[:, 23] = (f[:, 13] * f[:, 14]) >> 8
    f[:, 24] = np.where(f[:, 4] != 0, f[:, 0], 0)
    f[:, 25] = np.where(f[:, 4] != 0, f[:, 1], 0)
    f[:, 26] = (f[:, 0] * f[:, 0]) >> 8
    f[:, 27] = (f[:, 0] * f[:, 1]) >> 8
    return f


@dataclass(frozen=True)
class SideParams:
    bias: int
    weights: tuple[int, ...]  # NUM_FEATURES integers


@dataclass(frozen=True)
class Model:
    shift: int
    alpha: SideParams
    beta: SideParams
    lut: tuple[int, ...]  # LUT_SIZE integers in 0..65535, non-decreasing

    def side(self, s: int) -> SideParams:
        return self.beta if s else self.alpha

    def problems(self) -> list[str]:
        """Every contract violation (empty for a valid model)."""
        out = []
        if not SHIFT_RANGE[0] <= self.shift <= SHIFT_RANGE[1]:
            out.append(f"shift {self.shift} outside {SHIFT_RANGE[0]}..{SHIFT_RANGE[1]}")
        for name, p in (("alpha", self.alpha), ("beta", self.beta)):
            if len(p.weights) != NUM_FEATURES:
                out.append(f"{name}: {len(p.weights)} weights, expected {NUM_FEATURES}")
            for v in (p.bias, *p.weights):
                if not INT32[0] <= v <= INT32[1]:
                    out.append(f"{name}: {v} does not fit in int32")
        if len(self.beta.weights) == NUM_FEATURES and self.beta.weights[LEGAL_LG] != 0:
            out.append(f"beta legal_lg weight must be 0, found {self.beta.weights[LEGAL_LG]}")
        if len(self.lut) != LUT_SIZE:
            out.append(f"lut has {len(self.lut)} values, expected {LUT_SIZE}")
        if any(not 0 <= v <= 65535 for v in self.lut):
            out.append("lut values must be in 0..65535")
        if any(b < a for a, b in zip(self.lut, self.lut[1:], strict=False)):
            out.append("lut must be non-decreasing")
        return out


def make_lut(floor: float = 0.0, ceiling: float = 0.0) -> tuple[int, ...]:
    """lut[i] = round(65535 * (floor + (1 - floor - ceiling) * sigmoid((i - 1024 + 0.5) / 64)))
    (half to even). floor/ceiling saturate the tails: measured fail-high rates level off at
    about 1e-4 (alpha) and 1 - 3e-3 (beta) however extreme the logit, which a logistic curve
    cannot express."""
    if not (0.0 <= floor < 0.5 and 0.0 <= ceiling < 0.5):
        raise ValueError(f"lut floor {floor} / ceiling {ceiling} outside [0, 0.5)")
    x = (np.arange(LUT_SIZE, dtype=np.float64) - LUT_CENTRE + 0.5) / Z_SCALE
    p = floor + (1.0 - floor - ceiling) / (1.0 + np.exp(-x))
    return tuple(int(v) for v in np.rint(65535.0 * p))


def _round_int32(x: float, what: str) -> int:
    v = int(np.rint(x))  # half to even, the project's one rounding rule
    if not INT32[0] <= v <= INT32[1]:
        raise ValueError(f"{what} = {x!r} does not fit in int32 after scaling")
    return v


def quantize(float_bias: float, float_weights: Sequence[float], shift: int) -> SideParams:
    """logit = b + sum(beta_i * f_i / 256) -> bias = round(b * 2^(shift+6)),
    w_i = round(beta_i * 2^(shift-2))."""
    if len(float_weights) != NUM_FEATURES:
        raise ValueError(f"{len(float_weights)} weights, expected {NUM_FEATURES}")
    bias = _round_int32(float(float_bias) * 2.0 ** (shift + 6), "bias")
    ws = tuple(
        _round_int32(float(b) * 2.0 ** (shift - 2), f"weight {n}")
        for n, b in zip(FEATURE_NAMES, float_weights, strict=True)
    )
    return SideParams(bias, ws)


def predict(model: Model, records: np.ndarray, feats: np.ndarray | None = None) -> np.ndarray:
    """P(fail high) x 65536 per record (uint16), each record with its side's parameters."""
    out: np.ndarray = np.asarray(model.lut, np.uint16)[lut_index(model, records, feats)]
    return out


def lut_index(model: Model, records: np.ndarray, feats: np.ndarray | None = None) -> np.ndarray:
    """Each record's LUT index: clamp((bias + sum(w_i * f_i)) >> shift + 1024), its side's
    parameters, int64 throughout (|w| < 2^31, |f| < 2^24, 28 terms; the shift floors)."""
    f = features(records) if feats is None else feats
    side = records["side"].astype(bool)
    bias = np.where(side, model.beta.bias, model.alpha.bias).astype(np.int64)
    w = np.where(
        side[:, None],
        np.asarray(model.beta.weights, np.int64),
        np.asarray(model.alpha.weights, np.int64),
    )
    acc = bias + (w * f).sum(axis=1)
    index: np.ndarray = np.clip((acc >> model.shift) + LUT_CENTRE, 0, LUT_SIZE - 1)
    return index


def float_logit(bias: float, weights: Sequence[float], feats: np.ndarray) -> np.ndarray:
    """The float model the integer one quantizes: b + sum(beta_i * f_i / 256)."""
    return bias + (feats.astype(np.float64) / 256.0) @ np.asarray(weights, np.float64)


# ---- model text file -------------------------------------------------------------------------

_INT = re.compile(r"-?[0-9]+\Z")


class _Lines:
    """Non-comment lines with their 1-based numbers; comments start with '#', blank lines skip."""

    def __init__(self, text: str, name: str) -> None:
        self.name = name
        raw = text.splitlines()
        self.items = [
            (i + 1, line.split())
            for i, line in enumerate(raw)
            if line.strip() and not line.lstrip().startswith("#")
        ]
        self.pos = 0
        self.last = len(raw)

    def error(self, line: int, msg: str) -> ModelFormatError:
        return ModelFormatError(f"{self.name}:{line}: {msg}")

    def next(self, expected: str) -> tuple[int, list[str]]:
        if self.pos >= len(self.items):
            raise self.error(self.last + 1, f"unexpected end of file, expected {expected}")
        item = self.items[self.pos]
        self.pos += 1
        return item

    def keyword(self, key: str, count: int, usage: str) -> tuple[int, list[str]]:
        line, toks = self.next(f"'{usage}'")
        if toks[0] != key or len(toks) != count + 1:
            raise self.error(line, f"expected '{usage}', found '{' '.join(toks)}'")
        return line, toks[1:]

    def ints(self, line: int, toks: list[str], lo: int, hi: int, what: str) -> list[int]:
        out = []
        for t in toks:
            if not _INT.match(t):
                raise self.error(line, f"{what}: '{t}' is not an integer")
            v = int(t)
            if not lo <= v <= hi:
                raise self.error(line, f"{what}: {v} outside {lo}..{hi}")
            out.append(v)
        return out


def parse_model(text: str, name: str = "<text>") -> Model:
    src = _Lines(text, name)
    line, toks = src.next(f"'{MODEL_MAGIC} {MODEL_VERSION}'")
    if toks != [MODEL_MAGIC, str(MODEL_VERSION)]:
        raise src.error(line, f"expected '{MODEL_MAGIC} {MODEL_VERSION}', found '{' '.join(toks)}'")
    line, names = src.keyword("features", NUM_FEATURES, "features " + " ".join(FEATURE_NAMES))
    if tuple(names) != FEATURE_NAMES:
        raise src.error(line, f"features must be, in order: {' '.join(FEATURE_NAMES)}")
    line, toks = src.keyword("shift", 1, "shift N")
    (shift,) = src.ints(line, toks, *SHIFT_RANGE, "shift")
    sides = []
    for key in ("alpha", "beta"):
        line, toks = src.keyword(key, NUM_FEATURES + 1, f"{key} <bias> <w0> ... <w17>")
        vals = src.ints(line, toks, *INT32, key)
        sides.append(SideParams(vals[0], tuple(vals[1:])))
        if key == "beta" and vals[1 + LEGAL_LG] != 0:
            raise src.error(line, f"beta legal_lg weight must be 0, found {vals[1 + LEGAL_LG]}")
    line, toks = src.keyword("lut", 1, f"lut {LUT_SIZE}")
    if toks != [str(LUT_SIZE)]:
        raise src.error(line, f"lut size must be {LUT_SIZE}, found {toks[0]}")
    lut: list[int] = []
    while True:
        line, toks = src.next(f"{LUT_SIZE - len(lut)} more lut values, then 'end'")
        if toks == ["end"]:
            if len(lut) != LUT_SIZE:
                raise src.error(line, f"lut has {len(lut)} values, expected {LUT_SIZE}")
            break
        if len(lut) + len(toks) > LUT_SIZE:
            raise src.error(line, f"more than {LUT_SIZE} lut values (expected 'end')")
        for v in src.ints(line, toks, 0, 65535, "lut"):
            if lut and v < lut[-1]:
                raise src.error(line, f"lut decreases: {v} after {lut[-1]} (value {len(lut)})")
            lut.append(v)
    if src.pos < len(src.items):
        line, toks = src.items[src.pos]
        raise src.error(line, f"content after 'end': '{' '.join(toks)}'")
    return Model(shift, sides[0], sides[1], tuple(lut))


def read_model(path: str | os.PathLike[str]) -> Model:
    name = os.fspath(path)
    try:
        text = read_input_text(path)
    except UnreadableInputError as e:
        raise ModelFormatError(f"{name}:0: cannot read: {e.why}") from e
    return parse_model(text, name)


def format_model(model: Model, comments: Iterable[str] = ()) -> str:
    problems = model.problems()
    if problems:
        raise ValueError("invalid model: " + "; ".join(problems))
    lines = [f"# {c}" if c else "#" for c in comments]
    lines += [
        f"{MODEL_MAGIC} {MODEL_VERSION}",
        "features " + " ".join(FEATURE_NAMES),
        f"shift {model.shift}",
    ]
    for key, p in (("alpha", model.alpha), ("beta", model.beta)):
        lines.append(" ".join([key, str(p.bias), *map(str, p.weights)]))
    lines.append(f"lut {LUT_SIZE}")
    lines += [" ".join(map(str, model.lut[i : i + 16])) for i in range(0, LUT_SIZE, 16)]
    lines.append("end")
    return "\n".join(lines) + "\n"


def write_model(path: str | os.PathLike[str], model: Model, comments: Iterable[str] = ()) -> None:
    from .report import write_text_atomic

    write_text_atomic(Path(path), format_model(model, comments))


class ModelSlot:
    """Holds the active model; load() replaces it only when the new file passed every check."""

    def __init__(self, model: Model | None = None) -> None:
        self.model = model
        self.path: str | None = None

    def load(self, path: str | os.PathLike[str]) -> Model:
        model = read_model(path)  # raises before anything below runs
        self.model, self.path = model, os.fspath(path)
        return model


def sigmoid(x: np.ndarray | float) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * np.asarray(x, np.float64)))
