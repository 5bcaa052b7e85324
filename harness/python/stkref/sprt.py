"""Independent reference for the pre-merge gate's statistics (pure Python, no numpy/scipy).

Re-derived from the definitions, written apart from the C++ (harness/src/match/) so that the two
can check each other: `stk-harness sprt --json` and `python -m stkref.sprt` must agree.

Definitions (cited in docs/match-results.md):
  * a sample is a game pair (pentanomial, pair score k/4 for k half points) or a game (trinomial);
    a zero count becomes 1e-3 (fishtest LLRcalc.regularize);
  * Elo interval: mean score +- z * sqrt(var / N), mapped through elo(s) = -400 log10(1/s - 1)
    with s clamped to [0.001, 0.999] (fishtest stat_util.get_elo); LOS = Phi((mean - 1/2) / se);
  * nElo = 800/ln10 * t / sqrt(games per sample), t = (mean - 1/2) / sd; its interval from the
    delta-method variance 1 - t*skew + t^2 (exkurt + 2) / 4 (fishtest templates/elo_results.mak);
  * GSPRT: LLR = N * sum p^ log(p1 / p0), p0/p1 the likelihood maximizers on the same outcomes with
    mean L(elo) (logistic) or t-value nelo * sqrt(games per sample) / (800/ln10) (normalized)
    (fishtest LLRcalc.LLR_logistic / LLR_normalized; M. Van den Bergh's notes).

The constrained maximizers are found here by bisection on the Lagrange multiplier (the C++ uses a
safeguarded Newton iteration), and the normal quantile by bisection on erf.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from . import options
from .cli import ToolParser, run_tool
from .errors import InputError

NELO_PER_T = 800.0 / math.log(10.0)
EPSILON_COUNT = 1e-3
COUNT_LIMIT = 2**53


@dataclass(frozen=True)
class Pdf:
    outcomes: tuple[float, ...]
    probs: tuple[float, ...]
    total: float

    def moment(self, m: int, centre: float | None = None) -> float:
        c = self.mean() if centre is None else centre
        return sum(p * (a - c) ** m for a, p in zip(self.outcomes, self.probs, strict=True))

    def mean(self) -> float:
        return sum(p * a for a, p in zip(self.outcomes, self.probs, strict=True))


def to_pdf(counts: Sequence[int]) -> Pdf:
    """Counts, lowest outcome first (L,D,W or LL,LD,DD/WL,DW,WW), to the regularized
    distribution."""
    reg = [float(c) if c > 0 else EPSILON_COUNT for c in counts]
    total = math.fsum(reg)
    n = len(reg)
    return Pdf(tuple(i / (n - 1) for i in range(n)), tuple(r / total for r in reg), total)


def phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def phi_inv(p: float) -> float:
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if phi(mid) < p:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def elo(score: float) -> float:
    s = min(max(score, 1e-3), 1 - 1e-3)
    return -400.0 * math.log10(1.0 / s - 1.0)


def logistic(e: float) -> float:
    odds: float = 10.0 ** (-e / 400.0)  # float ** float is typed Any (it may be complex)
    return 1.0 / (1.0 + odds)


@dataclass
class Estimate:
    score: float
    variance: float
    elo: float
    elo_lower: float
    elo_upper: float
    elo_error: float
    nelo: float
    nelo_error: float
    los: float


def estimate(counts: Sequence[int], confidence: float = 0.95) -> Estimate:
    pdf = to_pdf(counts)
    per_sample_games = 2.0 if len(counts) == 5 else 1.0
    mu = pdf.mean()
    var = pdf.moment(2)
    se = math.sqrt(var / pdf.total)
    z = phi_inv(0.5 + confidence / 2)
    lo, hi = elo(mu - z * se), elo(mu + z * se)
    t = (mu - 0.5) / math.sqrt(var)
    skew = pdf.moment(3) / var**1.5
    exkurt = pdf.moment(4) / var**2 - 3.0
    var_t = max(1.0 - t * skew + 0.25 * t * t * (exkurt + 2.0), 0.0)
    k = NELO_PER_T / math.sqrt(per_sample_games)
    return Estimate(
        mu,
        var,
        elo(mu),
        lo,
        hi,
        (hi - lo) / 2,
        k * t,
        k * z * math.sqrt(var_t / pdf.total),
        phi((mu - 0.5) / se),
    )


def _fit(pdf: Pdf, weights: Sequence[float]) -> list[float]:
    """p_i = p^_i / (1 + x w_i), x the multiplier with sum p^_i w_i / (1 + x w_i) = 0, by
    bisection."""
    wmin, wmax = min(weights), max(weights)
    if not (wmin < 0 < wmax):
        raise InputError("the SPRT bound lies outside what the observed outcomes can express")
    lo, hi = -1.0 / wmax, -1.0 / wmin

    def g(x: float) -> float:
        return sum(p * w / (1.0 + x * w) for p, w in zip(pdf.probs, weights, strict=True))

    for _ in range(300):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if g(mid) > 0:
            lo = mid
        else:
            hi = mid
    x = 0.5 * (lo + hi)
    denominators = [1.0 + x * w for w in weights]
    if min(denominators) <= 0.0:  # the multiplier sits on its pole: counts too lopsided
        raise InputError("the SPRT bound is out of reach of these counts (constrained MLE)")
    return [p / d for p, d in zip(pdf.probs, denominators, strict=True)]


def fit_mean(pdf: Pdf, s: float) -> list[float]:
    return _fit(pdf, [a - s for a in pdf.outcomes])


def fit_t_value(
    pdf: Pdf, ref: float, t: float, max_rounds: int = 100, tol: float = 1e-10
) -> list[float]:
    """Linearize the t-value constraint around the current fit and refit, from the uniform law,
    until no probability moves by more than tol of itself (or the change stops shrinking:
    rounding floor)."""
    n = len(pdf.outcomes)
    current = [1.0 / n] * n
    previous = math.inf
    for _ in range(max_rounds):
        cur = Pdf(pdf.outcomes, tuple(current), pdf.total)
        mu = cur.mean()
        sd = math.sqrt(cur.moment(2))
        weights = [a - ref - t * sd * (1.0 + ((mu - a) / sd) ** 2) / 2.0 for a in pdf.outcomes]
        nxt = _fit(pdf, weights)
        moved = max(abs(u - v) / u for u, v in zip(nxt, current, strict=True))
        current = nxt
        if moved < tol or (moved >= previous and moved < 1e-7):
            return current
        previous = moved
    raise InputError("the t-value fit did not converge")


def llr(counts: Sequence[int], elo0: float, elo1: float, model: str = "normalized") -> float:
    if sum(counts) == 0:
        return 0.0
    pdf = to_pdf(counts)
    if model == "normalized":
        scale = math.sqrt(2.0 if len(counts) == 5 else 1.0) / NELO_PER_T
        p0 = fit_t_value(pdf, 0.5, elo0 * scale)
        p1 = fit_t_value(pdf, 0.5, elo1 * scale)
    elif model == "logistic":
        p0 = fit_mean(pdf, logistic(elo0))
        p1 = fit_mean(pdf, logistic(elo1))
    else:
        raise InputError(f"model must be normalized or logistic, got {model!r}")
    return pdf.total * math.fsum(
        p * (math.log(b) - math.log(a)) for p, a, b in zip(pdf.probs, p0, p1, strict=True)
    )


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _counts(text: str, n: int, what: str) -> list[int]:
    parts = text.split(",")
    if len(parts) != n:
        raise InputError(f"{what} needs {n} comma-separated counts, got {len(parts)}")
    # docs/faults.md "Counts", as stk-harness sprt: a count is ASCII digits alone (int() would
    # also take a sign, blanks, '_' and other scripts' digits).
    for part in parts:
        if not re.fullmatch(r"[0-9]+", part):
            raise InputError(f"{what}: {part!r} is not a count (digits 0-9 alone) in {text!r}")
    values = [int(p) for p in parts]
    # Every count and their sum at most 2^53, so sums never round and the statistics hold every
    # count exactly; no sample is no estimate.
    names = ("LL", "LD", "DD", "DW", "WW") if n == 5 else ("W", "D", "L")
    total = 0
    for name, v in zip(names, values, strict=True):
        total += v
        if v > COUNT_LIMIT:
            raise InputError(
                f"{what} count {name} ({v}): is above the limit of 2^53 = {COUNT_LIMIT}"
            )
        if total > COUNT_LIMIT:
            raise InputError(
                f"{what} count {name} ({v}): brings the sum above the limit of 2^53 = {COUNT_LIMIT}"
            )
    if total == 0:
        raise InputError(f"{what}: no {'pairs' if n == 5 else 'games'} (all counts are 0)")
    return values


def main(argv: Sequence[str] | None = None) -> int:
    ap = ToolParser(prog="python -m stkref.sprt", description=__doc__.splitlines()[0])
    ap.add_argument("--pentanomial", help="LL,LD,DD,DW,WW pair counts for engine A")
    ap.add_argument("--wdl", help="W,D,L game counts for engine A")
    elo = options.real(-1000.0, 1000.0)
    error_rate = options.real(0.0, 0.5, open_lo=True, open_hi=True)
    ap.add_argument("--elo0", type=elo)
    ap.add_argument("--elo1", type=elo)
    ap.add_argument("--alpha", type=error_rate, default=0.05)
    ap.add_argument("--beta", type=error_rate, default=0.05)
    ap.add_argument("--model", default="normalized", choices=["normalized", "logistic"])
    args = ap.parse_args(argv)
    if (args.elo0 is None) != (args.elo1 is None) or (
        args.elo0 is not None and args.elo1 <= args.elo0
    ):
        raise InputError("--elo0 and --elo1 go together, with --elo1 above --elo0")
    if args.pentanomial is None and args.wdl is None:
        raise InputError("give --pentanomial LL,LD,DD,DW,WW and/or --wdl W,D,L")
    out: dict[str, object] = {}
    if args.pentanomial is not None:
        penta = _counts(args.pentanomial, 5, "--pentanomial")
        out["pentanomial"] = asdict(estimate(penta))
        if args.elo0 is not None:
            out["pentanomial"]["llr"] = llr(penta, args.elo0, args.elo1, args.model)  # type: ignore[index]
    if args.wdl is not None:
        w, d, losses = _counts(args.wdl, 3, "--wdl")
        out["trinomial"] = asdict(estimate([losses, d, w]))
        if args.elo0 is not None:
            out["trinomial"]["llr"] = llr([losses, d, w], args.elo0, args.elo1, args.model)  # type: ignore[index]
    lower, upper = bounds(args.alpha, args.beta)
    out["bounds"] = [lower, upper]
    json.dump(out, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(run_tool(main))
