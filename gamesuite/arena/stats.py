"""Statistics of a match: score and Elo with confidence intervals, and the SPRT.

Everything works on trinomial results: ``w`` wins, ``d`` draws and ``l`` losses
of one engine against another, each game scoring 1, 1/2 or 0.

Formulas (the ones Cute Chess and fishtest print):

- Score ``s = (w + d/2) / n`` with per-game variance
  ``var = (w(1-s)^2 + d(1/2-s)^2 + l s^2) / n``; the 95% interval is
  ``s ± z * sqrt(var / n)`` with ``z = Φ⁻¹(0.975) = 1.95996`` (the normal
  approximation to the mean of ``n`` independent games).
- Logistic Elo: ``E(s) = -400 log10(1/s - 1)`` and its inverse
  ``s(E) = 1 / (1 + 10^(-E/400))``. The Elo interval is the score interval
  mapped through ``E``; the "±" error is half its width (as Cute Chess reports it).
- LOS (likelihood of superiority): ``Φ((w - l) / sqrt(w + l))``.
- Pentanomial (fishtest): the two games of an opening with colours swapped
  form a pair scoring 0, 1/4, 1/2, 3/4 or 1 on average; the interval is the
  mean of the pairs ``± z * sqrt(var_pairs / pairs)``. Where colour decides
  many games (freestyle gomoku), a 1-1 pair says "equal" with no noise, so
  this interval is the honest (and narrower) one.
- SPRT (Wald 1945) with the generalized log-likelihood ratio of Michel Van den
  Bergh as used by fishtest and cutechess for the trinomial model:
  ``LLR = Σ_i n_i log(p1_i / p0_i)`` where ``p_k`` is the maximum-likelihood
  distribution of (loss, draw, win) whose expected score is ``s(elo_k)``.
  Given the observed frequencies ``p̂_i`` the constrained maximum is
  ``p_i = p̂_i / (1 + θ (a_i - s_k))`` with ``θ`` solving ``Σ p_i a_i = s_k``
  (``a = 0, 1/2, 1``; see ``mle_trinomial`` for outcomes not yet seen). Stop and accept H1 (elo ≥ elo1) when
  ``LLR ≥ log((1-β)/α)``, accept H0 (elo ≤ elo0) when ``LLR ≤ log(β/(1-α))``.
  The normal approximation ``LLR ≈ n (s1 - s0)(2s - s0 - s1) / (2 var)``
  (fishtest's ``LLR_logistic``) is given too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from ..core.errors import InvalidOptionError, quote
from ..core.options import parse_float

_N = NormalDist()


def score_from_elo(elo: float) -> float:
    """Expected score of an engine ``elo`` points stronger: ``1 / (1 + 10^(-elo/400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(s: float) -> float:
    """Logistic Elo difference for a score ``s`` in [0, 1]: ``-400 log10(1/s - 1)`` (±inf at the ends)."""
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0) + 0.0  # + 0.0: no '-0.0'


@dataclass(frozen=True)
class Estimate:
    """A value with its confidence interval ``[lo, hi]``."""

    value: float
    lo: float
    hi: float

    @property
    def error(self) -> float:
        """Half the interval's width (the "±" figure)."""
        return (self.hi - self.lo) / 2.0

    def text(self, fmt: str = "{:+.1f}") -> str:
        if not math.isfinite(self.value):
            return "+inf" if self.value > 0 else "-inf"
        err = self.error
        return fmt.format(self.value) + (" ± " + fmt.format(err).lstrip("+") if math.isfinite(err) else " ± inf")


def _check(w: int, d: int, l: int) -> int:
    if min(w, d, l) < 0:
        raise InvalidOptionError(f"negative game counts: {w}, {d}, {l}")
    return w + d + l


def score_stats(w: int, d: int, l: int) -> tuple[float, float]:
    """``(s, var)``: the mean score and the per-game variance of the results."""
    n = _check(w, d, l)
    if n == 0:
        return 0.5, 0.0
    s = (w + 0.5 * d) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    return s, var


def score_interval(w: int, d: int, l: int, confidence: float = 0.95) -> Estimate:
    """The score with its (normal-approximation) confidence interval, clipped to [0, 1]."""
    n = _check(w, d, l)
    s, var = score_stats(w, d, l)
    if n == 0:
        return Estimate(0.5, 0.0, 1.0)
    z = _N.inv_cdf(0.5 + confidence / 2.0)
    half = z * math.sqrt(var / n)
    return Estimate(s, max(0.0, s - half), min(1.0, s + half))


def elo_interval(w: int, d: int, l: int, confidence: float = 0.95) -> Estimate:
    """The logistic Elo difference with its interval (the score interval mapped to Elo)."""
    sc = score_interval(w, d, l, confidence)
    return Estimate(elo_from_score(sc.value), elo_from_score(sc.lo), elo_from_score(sc.hi))


def los(w: int, l: int) -> float:
    """Likelihood of superiority, ``Φ((w - l) / sqrt(w + l))`` (draws carry no information)."""
    if w + l == 0:
        return 0.5
    return _N.cdf((w - l) / math.sqrt(w + l))


def pentanomial_interval(counts: tuple[int, int, int, int, int] | list[int], confidence: float = 0.95) -> Estimate:
    """Score interval from pairs: ``counts[k]`` pairs scored ``k/2`` points out of 2 (k = 0..4)."""
    if len(counts) != 5 or min(counts) < 0:
        raise InvalidOptionError(f"pentanomial counts must be five non-negative numbers, got {counts}")
    n = sum(counts)
    if n == 0:
        return Estimate(0.5, 0.0, 1.0)
    xs = [k / 4.0 for k in range(5)]
    s = sum(c * x for c, x in zip(counts, xs)) / n
    var = sum(c * (x - s) ** 2 for c, x in zip(counts, xs)) / n
    half = _N.inv_cdf(0.5 + confidence / 2.0) * math.sqrt(var / n)
    return Estimate(s, max(0.0, s - half), min(1.0, s + half))


def pentanomial_elo(counts: tuple[int, int, int, int, int] | list[int], confidence: float = 0.95) -> Estimate:
    """The logistic Elo difference with its interval from pair counts."""
    sc = pentanomial_interval(counts, confidence)
    return Estimate(elo_from_score(sc.value), elo_from_score(sc.lo), elo_from_score(sc.hi))


# -- SPRT ------------------------------------------------------------------

_A = (0.0, 0.5, 1.0)  # the score of a loss, a draw, a win


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds ``(log(β/(1-α)), log((1-β)/α))`` on the LLR."""
    if not (0 < alpha < 1 and 0 < beta < 1):
        raise InvalidOptionError(f"SPRT alpha and beta must lie in (0, 1), got {alpha}, {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def mle_trinomial(counts: tuple[float, float, float], s: float) -> tuple[float, float, float]:
    """The maximum-likelihood (loss, draw, win) distribution with expected score ``s``.

    ``counts`` are the observed (losses, draws, wins). The distributions with mean
    ``s`` form the segment ``p(t) = (1 - s - t/2, t, s - t/2)``, ``0 ≤ t ≤ 2 min(s, 1 - s)``,
    and the log-likelihood ``Σ n_i log p_i(t)`` is concave in ``t``, so its maximum
    is found by bisection on the derivative. (Where every outcome was observed
    this is the stationary point ``p_i = p̂_i / (1 + θ (a_i - s))`` of the module
    docstring; the segment form also handles outcomes never seen.)
    """
    if not 0.0 < s < 1.0:
        raise InvalidOptionError(f"target score must be in (0, 1), got {s}")
    nl, nd, nw = counts
    top = 2.0 * min(s, 1.0 - s)

    def p(t: float) -> tuple[float, float, float]:
        return max(0.0, 1.0 - s - t / 2.0), t, max(0.0, s - t / 2.0)

    def slope(t: float) -> float:
        pl, pd, pw = p(t)
        g = 0.0
        for n, q, k in ((nl, pl, -0.5), (nd, pd, 1.0), (nw, pw, -0.5)):
            if n > 0:
                g += math.inf * k if q <= 0 else n * k / q
        return g

    lo, hi = 0.0, top
    if slope(lo) <= 0:
        return p(lo)
    if slope(hi) >= 0:
        return p(hi)
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if slope(mid) > 0:
            lo = mid
        else:
            hi = mid
    return p((lo + hi) / 2.0)


def llr_trinomial(w: int, d: int, l: int, elo0: float, elo1: float) -> float:
    """The generalized log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``), logistic Elo."""
    n = _check(w, d, l)
    if n == 0:
        return 0.0
    counts = (float(l), float(d), float(w))
    p0 = mle_trinomial(counts, score_from_elo(elo0))
    p1 = mle_trinomial(counts, score_from_elo(elo1))
    return sum(c * math.log(b / a) for c, a, b in zip(counts, p0, p1) if c > 0)


def llr_normal(w: int, d: int, l: int, elo0: float, elo1: float) -> float:
    """The normal approximation ``n (s1 - s0)(2s - s0 - s1) / (2 var)`` of the LLR."""
    n = _check(w, d, l)
    s, var = score_stats(w, d, l)
    if n == 0 or var == 0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: elo ≤ ``elo0`` against H1: elo ≥ ``elo1``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise InvalidOptionError(f"SPRT needs elo0 < elo1, got {self.elo0}, {self.elo1}")
        sprt_bounds(self.alpha, self.beta)

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """``elo0,elo1[,alpha,beta]``, e.g. ``0,5,0.05,0.05``."""
        parts = [parse_float(x, f"--sprt {quote(text)} (elo0,elo1,alpha,beta): each", -10_000, 10_000)
                 for x in text.split(",")]
        if len(parts) not in (2, 4):
            raise InvalidOptionError(f"--sprt expects elo0,elo1 or elo0,elo1,alpha,beta, got {text!r}")
        return cls(*parts)

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def llr(self, w: int, d: int, l: int) -> float:
        return llr_trinomial(w, d, l, self.elo0, self.elo1)

    def decision(self, w: int, d: int, l: int) -> str | None:
        """``"H1"`` (accept: elo ≥ elo1), ``"H0"`` (reject) or ``None`` (keep playing)."""
        v = self.llr(w, d, l)
        lo, hi = self.bounds
        if v >= hi:
            return "H1"
        if v <= lo:
            return "H0"
        return None

    def text(self, w: int, d: int, l: int) -> str:
        lo, hi = self.bounds
        dec = self.decision(w, d, l)
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "continue"}[dec]
        return (f"SPRT [{self.elo0:g}, {self.elo1:g}] α={self.alpha:g} β={self.beta:g}: "
                f"LLR {self.llr(w, d, l):.2f} [{lo:.2f}, {hi:.2f}] {verdict}")


# -- ladder fit ------------------------------------------------------------------


@dataclass(frozen=True)
class LadderFit:
    """Where an engine stands on a node ladder of an anchor.

    The model: against the anchor at ``n`` nodes a move the engine's expected
    score is ``s(c - b log2 n)`` (logistic Elo), so ``b`` is the Elo the anchor
    gains per doubling of its nodes and the engine scores 50% at ``n* = 2^(c/b)``.
    """

    slope: Estimate  # Elo per doubling of the anchor's nodes
    even_nodes: Estimate  # n*: the anchor's nodes at which the engine scores 50%
    extrapolated: bool  # n* lies outside the node counts played
    games: int


def fit_ladder(steps: list[tuple[int, int, int, int]], confidence: float = 0.95) -> LadderFit | None:
    """Fit the ladder model to ``(nodes, wins, draws, losses)`` of the engine at each node-limited step.

    Maximum likelihood with draws counted as half a win and half a loss, games
    taken as independent (so the interval is conservative where colours make
    the two games of a pair alike), intervals from the observed information
    (delta method for ``n*``, symmetric in ``log2 n*``). ``None`` when the data
    cannot pin the model down: fewer than two distinct node counts, a score of
    0 or 100% over everything, no maximum, or a slope not clearly positive
    (its interval reaches zero).
    """
    pts = [(math.log2(n), w + d / 2.0, l + d / 2.0) for n, w, d, l in steps if n > 0 and w + d + l > 0]
    if len({x for x, _, _ in pts}) < 2:
        return None
    won = sum(p for _, p, _ in pts)
    lost = sum(q for _, _, q in pts)
    if won == 0 or lost == 0:
        return None
    k = math.log(10.0) / 400.0  # s(e) = 1 / (1 + exp(-k e))
    xm = sum(x * (p + q) for x, p, q in pts) / (won + lost)  # centred, for a well-conditioned Newton step
    c, b = 0.0, 0.0  # parameters of e(x) = c - b (x - xm)

    def info(c: float, b: float) -> tuple[float, float, float, float, float, float]:
        """Log-likelihood, gradient and (negative) Hessian in (c, b)."""
        ll = gc = gb = hcc = hcb = hbb = 0.0
        for x, p, q in pts:
            u = x - xm
            z = k * (c - b * u)
            s = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
            s = min(max(s, 1e-300), 1 - 1e-16)
            ll += p * math.log(s) + q * math.log1p(-s)
            r = k * (p - (p + q) * s)  # d ll / d e
            gc += r
            gb -= r * u
            v = k * k * (p + q) * s * (1 - s)
            hcc += v
            hcb -= v * u
            hbb += v * u * u
        return ll, gc, gb, hcc, hcb, hbb

    ll, gc, gb, hcc, hcb, hbb = info(c, b)
    for _ in range(100):
        det = hcc * hbb - hcb * hcb
        if det <= 0:
            return None
        dc = (hbb * gc - hcb * gb) / det
        db = (hcc * gb - hcb * gc) / det
        step = 1.0
        while step > 1e-6:  # a damped Newton step: never lower the likelihood
            nc, nb = c + step * dc, b + step * db
            nll = info(nc, nb)[0]
            if nll >= ll - 1e-12:
                break
            step /= 2
        c, b = nc, nb
        ll, gc, gb, hcc, hcb, hbb = info(c, b)
        if abs(dc) + abs(db) < 1e-9 * (1 + abs(c) + abs(b)):
            break
    else:
        return None
    if abs(c) > 4000 or abs(b) > 4000:  # ran off to a score of 0 or 1 (separation): no honest fit
        return None
    det = hcc * hbb - hcb * hcb
    if det <= 0:
        return None
    vcc, vbb, vcb = hbb / det, hcc / det, -hcb / det  # the inverse of the information matrix
    z = _N.inv_cdf(0.5 + confidence / 2.0)
    se_b = math.sqrt(vbb)
    if b - z * se_b <= 0:
        return None
    g = xm + c / b  # log2 n*
    var_g = vcc / b**2 + c**2 * vbb / b**4 - 2 * c * vcb / b**3
    se_g = math.sqrt(max(var_g, 0.0))
    xs = [x for x, _, _ in pts]
    return LadderFit(
        slope=Estimate(b, b - z * se_b, b + z * se_b),
        even_nodes=Estimate(2.0**g, 2.0 ** (g - z * se_g), 2.0 ** (g + z * se_g)),
        extrapolated=not (min(xs) <= g <= max(xs)),
        games=sum(w + d + l for n, w, d, l in steps if n > 0),
    )
