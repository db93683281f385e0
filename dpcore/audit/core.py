"""Black-box privacy audit: a lower bound on ε from many runs of a mechanism on two neighbours.

Method (SPEC §3 "membership inference", generalised; DP-Sniper, Bichsel et al., IEEE S&P 2021, §5;
Jagielski et al. 2020 for the Clopper–Pearson reading). A mechanism M is (ε, δ)-DP only if, for
every pair of neighbours (D, D') and every event E, in both orderings,

    Pr[M(D) ∈ E] ≤ e^ε · Pr[M(D') ∈ E] + δ,   so   ε ≥ ln((Pr[M(D) ∈ E] − δ) / Pr[M(D') ∈ E]).

The audit runs M ``trials`` times on D and on D', reduces every output to a real score s, and
considers the threshold events {s ≥ t} and {s ≤ t} in both orderings (D over D' and D' over D).

* **Split** (DP-Sniper's): the first half of each sample (the *pilot*) chooses the event — the one
  whose pilot lower bound is largest; the second half (the *evaluation*) measures it. Choosing on
  the pilot and evaluating once on fresh draws makes the final bound valid without any correction
  for the number of candidate events; choosing by the *bound* rather than by the point estimate
  avoids thresholds in the far tail where a pilot count of 0 makes the ratio look infinite but the
  evaluation counts are too small to bound anything (the defect of issue 15, item 4).
* **Conservative bound**: with one-sided Clopper–Pearson bounds, a lower bound p_num⁻ on the
  numerator probability and an upper bound p_den⁺ on the denominator one,

      ε_lower = max(0, ln((p_num⁻ − δ) / p_den⁺)).

  Each of the two one-sided bounds is taken at level 1 − α/2 (α = 1 − confidence; Bonferroni), so
  both hold together with probability ≥ confidence and then ε ≥ ε_lower. A count of 0 in the
  denominator still gives p_den⁺ = 1 − (α/2)^(1/n) > 0: the bound is finite (about ln(n/3) at most
  for n evaluation draws at 95 %), even for a deterministic mechanism that is not DP at all.

What the bound is not: a passed audit (ε_lower ≤ ε claimed) is no proof of privacy — only the
pairs, scores and events that were tried were tried. A failed audit (ε_lower > ε claimed, at the
stated confidence) is evidence that the claim is false for that pair.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy.special import betaincinv  # beta.ppf(q, a, b) = betaincinv(a, b, q); scipy.stats costs ~1 s to import

from ..errors import UserError
from ..validation import check_delta, check_epsilon, check_int, check_probability, check_rng

__all__ = [
    "AuditEvent",
    "AuditResult",
    "audit",
    "audit_scores",
    "clopper_pearson_lower",
    "clopper_pearson_upper",
    "epsilon_lower_bound",
    "empirical_roc",
    "DIRECTIONS",
    "ORDERINGS",
]

DIRECTIONS = (">=", "<=")
ORDERINGS = ("D", "D'")  # which dataset's probability is the numerator
MAX_CANDIDATES = 2000  # thresholds tried on the pilot half (quantiles of the pooled pilot scores)
MIN_TRIALS = 10


# --------------------------------------------------------------------------------------------------
# Clopper–Pearson bounds (one-sided, exact binomial)
# --------------------------------------------------------------------------------------------------


def _cp_lower(k: np.ndarray | int, n: np.ndarray | int, level: float) -> np.ndarray:
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore"):
        out = betaincinv(k, n - k + 1.0, 1.0 - level)
    return np.where(k <= 0, 0.0, out)


def _cp_upper(k: np.ndarray | int, n: np.ndarray | int, level: float) -> np.ndarray:
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore"):
        out = betaincinv(k + 1.0, n - k, level)
    return np.where(k >= n, 1.0, out)


def _check_counts(k, n) -> tuple[int, int]:
    k = check_int("k", k, low=0)
    n = check_int("n", n, low=1)
    if k > n:
        raise UserError(f"k must be <= n, got k={k}, n={n}")
    return k, n


def clopper_pearson_lower(k: int, n: int, *, confidence=0.95) -> float:
    """One-sided Clopper–Pearson lower bound on a binomial rate: p⁻ with Pr[Bin(n, p⁻) ≥ k] = α.

    Equals the (1 − confidence) quantile of Beta(k, n − k + 1); 0 when k = 0.
    """
    k, n = _check_counts(k, n)
    confidence = check_probability(confidence, "confidence", allow_zero=False, allow_one=False)
    return float(_cp_lower(k, n, confidence))


def clopper_pearson_upper(k: int, n: int, *, confidence=0.95) -> float:
    """One-sided Clopper–Pearson upper bound on a binomial rate: p⁺ with Pr[Bin(n, p⁺) ≤ k] = α.

    Equals the ``confidence`` quantile of Beta(k + 1, n − k); 1 when k = n.
    """
    k, n = _check_counts(k, n)
    confidence = check_probability(confidence, "confidence", allow_zero=False, allow_one=False)
    return float(_cp_upper(k, n, confidence))


def _log_ratio(num_lower, den_upper, delta) -> np.ndarray:
    num = np.asarray(num_lower, dtype=float) - delta
    den = np.asarray(den_upper, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log(num / den)
    return np.where((num > 0) & (den > 0), out, -np.inf)


def epsilon_lower_bound(numerator_lower, denominator_upper, *, delta=0.0) -> float:
    """max(0, ln((p_num⁻ − δ)/p_den⁺)): the ε every (ε, δ)-DP mechanism must exceed when both bounds hold."""
    a = check_probability(numerator_lower, "numerator_lower")
    b = check_probability(denominator_upper, "denominator_upper")
    delta = check_delta(delta=delta, allow_zero=True)
    return max(0.0, float(_log_ratio(a, b, delta)))


# --------------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------------


def empirical_roc(scores_in, scores_out, *, thresholds=None) -> tuple[np.ndarray, np.ndarray]:
    """The ROC of the tests "score ≥ t says in", over every threshold t: (FPR, TPR), from (0, 0) to (1, 1).

    ``scores_in`` are scores of outputs with the person in (D), ``scores_out`` without (D′); 1-D, no NaN.
    ``thresholds`` (optional): only these t — counted by binary search into them, O(n log m) without sorting the
    scores (an audit's 100,000 runs: a few ms for 1,000 thresholds instead of a sort)."""
    a = np.asarray(scores_in, dtype=float).ravel()
    b = np.asarray(scores_out, dtype=float).ravel()
    if a.size == 0 or b.size == 0:
        raise UserError(f"scores_in and scores_out must be non-empty, got {a.size} and {b.size} scores")
    if np.isnan(a).any() or np.isnan(b).any():
        raise UserError("scores_in and scores_out must not contain NaN")
    if thresholds is not None:
        t = np.unique(np.asarray(thresholds, dtype=float))
        # #{s ≥ t_j} = #{s whose count of thresholds ≤ s exceeds j}
        ge_a = np.cumsum(np.bincount(np.searchsorted(t, a, side="right"), minlength=t.size + 1)[::-1])[::-1][1:]
        ge_b = np.cumsum(np.bincount(np.searchsorted(t, b, side="right"), minlength=t.size + 1)[::-1])[::-1][1:]
        return (
            np.concatenate([[0.0], ge_b[::-1] / b.size, [1.0]]),
            np.concatenate([[0.0], ge_a[::-1] / a.size, [1.0]]),
        )
    scores = np.concatenate([a, b])
    order = np.argsort(-scores, kind="stable")  # one sort: high to low, the rates grow
    ranked = scores[order]
    caught = np.cumsum(order < a.size)  # outputs of D at or above each rank
    last = np.append(ranked[1:] != ranked[:-1], True)  # the last of each run of equal scores: threshold = that score
    tp, fp = caught[last], (np.arange(1, scores.size + 1) - caught)[last]
    return np.concatenate([[0.0], fp / b.size, [1.0]]), np.concatenate([[0.0], tp / a.size, [1.0]])


@dataclass(frozen=True)
class AuditEvent:
    """The event E = {score ≥ threshold} or {score ≤ threshold}; ``numerator`` says which dataset's
    Pr[E] is on top of the ratio ("D" tests Pr[M(D)∈E] ≤ e^ε Pr[M(D')∈E] + δ, "D'" the other way)."""

    direction: str
    threshold: float
    numerator: str

    def contains(self, scores) -> np.ndarray:
        s = np.asarray(scores, dtype=float)
        return s >= self.threshold if self.direction == ">=" else s <= self.threshold

    def describe(self) -> str:
        other = "D'" if self.numerator == "D" else "D"
        return f"score {self.direction} {self.threshold:.6g}, more likely on {self.numerator} than on {other}"


@dataclass(frozen=True)
class AuditResult:
    """What an audit measured. Counts and intervals are those of the evaluation half.

    Attributes:
      epsilon_lower: max(0, ln((p_num⁻ − δ)/p_den⁺)) at the stated confidence.
      epsilon_claimed: the ε the mechanism claims (None when it claims none, e.g. k-anonymity).
      delta: the δ subtracted in the bound (the mechanism's claimed δ).
      confidence: joint confidence of the two one-sided bounds (each at 1 − (1−confidence)/2).
      trials: runs per dataset; ``n_pilot`` of them chose the event, ``n_eval`` measured it.
      event: the chosen :class:`AuditEvent`.
      count_d, count_d_prime: how many evaluation outputs of D and of D' fell in the event.
      interval_d, interval_d_prime: (lower, upper) one-sided Clopper–Pearson bounds on Pr[E] at
        level ``bound_level`` for D and for D'.
      pilot_epsilon: the bound the chosen event reached on the pilot half (used for the choice only).
      scores_d, scores_d_prime: all scores (pilot first), for histograms.
    """

    epsilon_lower: float
    epsilon_claimed: float | None
    delta: float
    confidence: float
    trials: int
    n_pilot: int
    n_eval: int
    event: AuditEvent
    count_d: int
    count_d_prime: int
    interval_d: tuple[float, float]
    interval_d_prime: tuple[float, float]
    pilot_epsilon: float
    scores_d: np.ndarray = field(repr=False, compare=False)
    scores_d_prime: np.ndarray = field(repr=False, compare=False)

    @property
    def bound_level(self) -> float:
        return 1.0 - (1.0 - self.confidence) / 2.0

    @property
    def p_hat_d(self) -> float:
        return self.count_d / self.n_eval

    @property
    def p_hat_d_prime(self) -> float:
        return self.count_d_prime / self.n_eval

    @property
    def numerator_lower(self) -> float:
        return self.interval_d[0] if self.event.numerator == "D" else self.interval_d_prime[0]

    @property
    def denominator_upper(self) -> float:
        return self.interval_d_prime[1] if self.event.numerator == "D" else self.interval_d[1]

    @property
    def point_estimate(self) -> float:
        """ln((p̂_num − δ)/p̂_den) without confidence bounds (inf when p̂_den = 0; for display only)."""
        num, den = (
            (self.p_hat_d, self.p_hat_d_prime) if self.event.numerator == "D" else (self.p_hat_d_prime, self.p_hat_d)
        )
        if num - self.delta <= 0:
            return 0.0
        return math.inf if den == 0 else max(0.0, math.log((num - self.delta) / den))

    def roc(self, *, positive: str | None = None, points: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The ROC (FPR, TPR) of the chosen event's family on the evaluation runs: every threshold of the score,
        in the event's direction, read as a test of "``positive``" (``"D"`` or ``"D'"``; default: the dataset on
        top of the ratio, for which the event is the "in" side). The chosen event is one of its points.

        ``points``: at most about this many thresholds (evenly spaced ranks of the pooled scores, the chosen
        event's threshold always among them) when there are more runs — for drawing."""
        positive = self.event.numerator if positive is None else positive
        if positive not in ORDERINGS:
            raise UserError(f"positive must be one of {ORDERINGS}, got positive={positive!r}")
        ev_d, ev_dp = self.scores_d[self.n_pilot :], self.scores_d_prime[self.n_pilot :]
        s_in, s_out = (ev_d, ev_dp) if positive == "D" else (ev_dp, ev_d)
        # flag "in" when in the event (its numerator is the positive) or outside it (the other one is)
        sign = (1.0 if self.event.direction == ">=" else -1.0) * (1.0 if positive == self.event.numerator else -1.0)
        if points is None or s_in.size + s_out.size <= points:
            return empirical_roc(sign * s_in, sign * s_out)
        pooled = np.concatenate([s_in, s_out])
        sample = np.sort(sign * pooled[:: max(1, pooled.size // points)])
        thresholds = np.append(sample[np.isfinite(sample)], sign * self.event.threshold)
        return empirical_roc(sign * s_in, sign * s_out, thresholds=thresholds)

    @property
    def violates_claim(self) -> bool | None:
        """True when ε_lower > ε claimed (evidence against the claim); None without a claim."""
        if self.epsilon_claimed is None:
            return None
        return self.epsilon_lower > self.epsilon_claimed

    def as_dict(self) -> dict:
        """Everything but the raw scores, as plain Python values (for exports)."""
        return {
            "epsilon_lower": self.epsilon_lower,
            "epsilon_claimed": self.epsilon_claimed,
            "delta": self.delta,
            "confidence": self.confidence,
            "bound_level": self.bound_level,
            "trials": self.trials,
            "n_pilot": self.n_pilot,
            "n_eval": self.n_eval,
            "event_direction": self.event.direction,
            "event_threshold": self.event.threshold,
            "event_numerator": self.event.numerator,
            "count_d": self.count_d,
            "count_d_prime": self.count_d_prime,
            "p_hat_d": self.p_hat_d,
            "p_hat_d_prime": self.p_hat_d_prime,
            "interval_d": list(self.interval_d),
            "interval_d_prime": list(self.interval_d_prime),
            "pilot_epsilon": self.pilot_epsilon,
            "point_estimate": self.point_estimate,
            "violates_claim": self.violates_claim,
        }


# --------------------------------------------------------------------------------------------------
# The statistics: choose on the pilot half, bound on the evaluation half
# --------------------------------------------------------------------------------------------------


def _check_scores(name: str, scores) -> np.ndarray:
    try:
        s = np.asarray(scores, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name} must be a sequence of real numbers, got {type(scores).__name__}") from exc
    if s.ndim != 1:
        raise UserError(f"{name} must be one-dimensional, got shape {s.shape}")
    if np.isnan(s).any():
        raise UserError(f"{name} must not contain NaN, got NaN at position {int(np.flatnonzero(np.isnan(s))[0])}")
    return s


def _candidates(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    pooled = np.concatenate([a, b])
    values = np.unique(pooled)
    if values.size > MAX_CANDIDATES:
        values = np.unique(np.quantile(pooled, np.linspace(0.0, 1.0, MAX_CANDIDATES), method="inverted_cdf"))
    return values


def _event_counts(sorted_scores: np.ndarray, thresholds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(#{s ≥ t}, #{s ≤ t}) for every threshold t, from sorted scores."""
    n = sorted_scores.size
    ge = n - np.searchsorted(sorted_scores, thresholds, side="left")
    le = np.searchsorted(sorted_scores, thresholds, side="right")
    return ge, le


def _choose_event(a: np.ndarray, b: np.ndarray, delta: float, level: float) -> tuple[AuditEvent, float]:
    """The threshold event with the largest Clopper–Pearson ε bound on the pilot scores a (D), b (D')."""
    t = _candidates(a, b)
    ga, la = _event_counts(np.sort(a), t)
    gb, lb = _event_counts(np.sort(b), t)
    na, nb = a.size, b.size
    best, best_event = -np.inf, None
    for direction, ka, kb in ((">=", ga, gb), ("<=", la, lb)):
        for numerator, k_num, n_num, k_den, n_den in (("D", ka, na, kb, nb), ("D'", kb, nb, ka, na)):
            v = _log_ratio(_cp_lower(k_num, n_num, level), _cp_upper(k_den, n_den, level), delta)
            i = int(np.argmax(v))
            if v[i] > best:
                best, best_event = float(v[i]), AuditEvent(direction, float(t[i]), numerator)
    if best_event is None:  # no event shows any evidence on the pilot: fall back on the largest gap
        diff = np.abs(ga / na - gb / nb)
        i = int(np.argmax(diff))
        best_event = AuditEvent(">=", float(t[i]), "D" if ga[i] / na >= gb[i] / nb else "D'")
    return best_event, max(0.0, best)


def audit_scores(scores_d, scores_d_prime, *, delta=0.0, confidence=0.95, epsilon_claimed=None) -> AuditResult:
    """The audit's statistics on given scores: choose the event on the first half of each sample,
    bound ε on the second half (see the module docstring). Also the engine of
    :func:`dpcore.bayesian.membership_inference` (one implementation).

    Args:
      scores_d, scores_d_prime: 1-D real scores of independent runs on D and on D' (same length ≥ 10;
        ±inf allowed, NaN not). The order must not depend on the values (the first half is the pilot).
      delta: the δ of the claim, subtracted from the numerator (0 for pure DP).
      confidence: joint confidence level of the bound, in (0, 1).
      epsilon_claimed: the claimed ε (> 0) to report beside the bound, or None.
    """
    a = _check_scores("scores_d", scores_d)
    b = _check_scores("scores_d_prime", scores_d_prime)
    if a.size != b.size:
        raise UserError(f"scores_d and scores_d_prime must have the same length, got {a.size} and {b.size}")
    if a.size < MIN_TRIALS:
        raise UserError(f"trials must be >= {MIN_TRIALS}, got trials={a.size}")
    delta = check_delta(delta=delta, allow_zero=True)
    confidence = check_probability(confidence, "confidence", allow_zero=False, allow_one=False)
    if epsilon_claimed is not None:
        epsilon_claimed = check_epsilon(epsilon=epsilon_claimed, name="epsilon_claimed")
    level = 1.0 - (1.0 - confidence) / 2.0
    n = a.size
    half = n // 2
    event, pilot = _choose_event(a[:half], b[:half], delta, level)
    ea, eb = a[half:], b[half:]
    n_eval = ea.size
    kd, kdp = int(event.contains(ea).sum()), int(event.contains(eb).sum())
    interval_d = (float(_cp_lower(kd, n_eval, level)), float(_cp_upper(kd, n_eval, level)))
    interval_dp = (float(_cp_lower(kdp, n_eval, level)), float(_cp_upper(kdp, n_eval, level)))
    if event.numerator == "D":
        num, den = interval_d[0], interval_dp[1]
    else:
        num, den = interval_dp[0], interval_d[1]
    eps = max(0.0, float(_log_ratio(num, den, delta)))
    a.setflags(write=False)
    b.setflags(write=False)
    return AuditResult(
        eps, epsilon_claimed, delta, confidence, n, half, n_eval, event, kd, kdp, interval_d, interval_dp, pilot, a, b
    )


# --------------------------------------------------------------------------------------------------
# Running the mechanism
# --------------------------------------------------------------------------------------------------


def _check_callable(name: str, f, *, optional: bool = False):
    if f is None and optional:
        return None
    if not callable(f):
        raise TypeError(f"{name} must be callable, got {name}={f!r} ({type(f).__name__})")
    return f


def _as_score(value, score, name: str) -> float:
    s = value if score is None else score(value)
    if isinstance(s, (bool, np.bool_)):
        return float(s)
    if isinstance(s, np.ndarray) and s.size == 1:
        s = s.reshape(()).item()
    if not isinstance(s, numbers.Real):
        what = "mechanism output (pass score=...)" if score is None else "score(output)"
        raise TypeError(f"{what} must be a real number, got {s!r} ({type(s).__name__})")
    s = float(s)
    if math.isnan(s):
        raise UserError(f"{name} returned NaN; a score must be a number")
    return s


def _run(mechanism, data, trials, score, rng, batch, progress, done0, total, label) -> np.ndarray:
    out = np.empty(trials)
    if batch is None:
        step = max(1, trials // 50)
        for i in range(trials):
            out[i] = _as_score(mechanism(data, rng), score, "score" if score else "mechanism")
            if progress is not None and ((i + 1) % step == 0 or i + 1 == trials):
                progress(done0 + i + 1, total)
        return out
    chunk = max(1, -(-trials // 20))
    i = 0
    while i < trials:
        m = min(chunk, trials - i)
        outputs = batch(data, m, rng)
        if score is None:
            s = _check_scores(f"batch output on {label}", outputs)
        else:
            s = np.array([_as_score(o, score, "score") for o in outputs], dtype=float)
        if s.shape != (m,):
            raise UserError(f"batch(data, n, rng) must return n = {m} outputs, got {len(s)}")
        out[i : i + m] = s
        i += m
        if progress is not None:
            progress(done0 + i, total)
    return out


def audit(
    mechanism: Callable,
    d,
    d_prime,
    *,
    trials,
    score: Callable | None = None,
    delta=0.0,
    confidence=0.95,
    epsilon_claimed=None,
    rng,
    progress: Callable | None = None,
    batch: Callable | None = None,
) -> AuditResult:
    """Audit ``mechanism`` on the neighbouring pair (d, d_prime): an ε lower bound at ``confidence``.

    Runs the mechanism ``trials`` times on ``d`` and ``trials`` times on ``d_prime`` (``d`` first,
    one generator), reduces each output to a score, and calls :func:`audit_scores`.

    Args:
      mechanism: ``mechanism(data, rng) -> output``, one independent run.
      d, d_prime: the neighbouring datasets (any objects the mechanism accepts).
      trials: runs per dataset (≥ 10; half choose the event, half measure it).
      score: ``score(output) -> float``; default: the output itself (a real number).
      delta: the claimed δ (0 for pure DP), subtracted in the bound.
      confidence: joint confidence of the bound, in (0, 1).
      epsilon_claimed: the claimed ε to report beside the bound, or None.
      rng: numpy Generator or int seed.
      progress: optional ``progress(done, total)`` callback; total = 2·trials runs.
      batch: optional vectorised path ``batch(data, n, rng) -> n outputs`` with the same distribution
        as n calls of ``mechanism``; used instead of the loop (in chunks of ~5 %, for progress).

    Returns:
      a frozen :class:`AuditResult`.
    """
    _check_callable("mechanism", mechanism)
    _check_callable("score", score, optional=True)
    _check_callable("progress", progress, optional=True)
    _check_callable("batch", batch, optional=True)
    trials = check_int("trials", trials, low=MIN_TRIALS)
    delta = check_delta(delta=delta, allow_zero=True)
    confidence = check_probability(confidence, "confidence", allow_zero=False, allow_one=False)
    if epsilon_claimed is not None:
        epsilon_claimed = check_epsilon(epsilon=epsilon_claimed, name="epsilon_claimed")
    rng = check_rng(rng)
    total = 2 * trials
    s_d = _run(mechanism, d, trials, score, rng, batch, progress, 0, total, "d")
    s_dp = _run(mechanism, d_prime, trials, score, rng, batch, progress, trials, total, "d_prime")
    return audit_scores(s_d, s_dp, delta=delta, confidence=confidence, epsilon_claimed=epsilon_claimed)
