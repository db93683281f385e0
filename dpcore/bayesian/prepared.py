"""BayesianDP's prepared release (000 Algorithm 1 step 8, Corollary 1; SPEC §3): the guarantee, σ from the
sensitivity, the Gaussian noise on the statistics and the released distribution.

Privacy-critical: with the sensitivity in :mod:`dpcore.bayesian.statistics` this is what a reviewer reads.
:class:`PreparedBayesianDP` lives here, below :mod:`.statistics` (whose ``BayesianStatistics.prepare`` builds
it) and :mod:`.release` (``prepare_bayesian``, ``bayesian_dp``): neither imports the other back (issue 33).
"""

from __future__ import annotations

from dataclasses import dataclass
import numpy as np
from ..mechanisms.gaussian import CALIBRATION_CHOICES, gaussian_noise_scale, resolve_calibration
from ..mechanisms.noise import standard_normal_noise, gaussian_noise
from ..guarantees import Guarantee, approximate_dp, local_sensitivity
from ..validation import check_choice, check_delta, check_epsilon, check_int, check_noise_scale, check_rng

__all__ = [
    "PreparedBayesianDP",
    "BayesianRelease",
    "bayesian_guarantee",
    "softmax",
    "LOCAL_SENSITIVITY_METHODS",
    "SENSITIVITY_METHODS",
]

LOCAL_SENSITIVITY_METHODS = ("brute-force", "worst-case")
"""γ measured on the private data (SPEC §3b: a local sensitivity, not DP)."""
SENSITIVITY_METHODS = LOCAL_SENSITIVITY_METHODS + ("strict",)


def softmax(h: np.ndarray) -> np.ndarray:
    """Row-wise softmax computed stably (h − max h before exp).

    Infinite entries take their limit: a row with +∞ entries puts its mass uniformly on them (−∞
    entries get 0), so the result is a probability vector whenever no entry is NaN.
    """
    h = np.asarray(h, dtype=float)
    m = h.max(axis=-1, keepdims=True)
    top = np.isposinf(m)
    with np.errstate(over="ignore", invalid="ignore"):  # h − max ≤ 0; an overflow to −inf just means exp → 0
        z = np.exp(h - np.where(top, 0.0, m))
    if top.any():
        z = np.where(top, np.isposinf(h).astype(float), z)
    z /= z.sum(axis=-1, keepdims=True)
    return z


def _softmax_of_draw(mu: np.ndarray, sigma: float, noise: np.ndarray) -> np.ndarray:
    """softmax(μ + σ·Z) without forming μ + σ·Z, so a σ near the float limit cannot overflow to ∞ − ∞.

    With k = argmax_i (μ_i/σ + Z_i) (the argmax of h, scale-free), h_i − h_k = (μ_i − μ_k) + σ(Z_i − Z_k)
    is ≤ 0 up to rounding and can only overflow towards −∞ (exp → 0), while h_k − h_k = 0 exactly: the
    result is a probability vector for every finite σ; it tends to a point mass on argmax Z as σ → ∞.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        h = mu + sigma * noise
    if np.all(np.isfinite(h)):
        return softmax(h)
    # here σ·|Z| overflowed, so σ is huge and μ/σ is a finite, tiny shift
    k = np.argmax(mu / sigma + noise, axis=-1)[..., None]
    with np.errstate(over="ignore", invalid="ignore"):
        d = (mu - np.take_along_axis(np.broadcast_to(mu, noise.shape), k, axis=-1)) + sigma * (
            noise - np.take_along_axis(noise, k, axis=-1)
        )
    d = np.where(np.isnan(d), -np.inf, d)
    z = np.exp(np.minimum(d, 0.0))
    return z / z.sum(axis=-1, keepdims=True)


# ----------------------------------------------------------------------------------------------
# release


def bayesian_guarantee(
    *, epsilon, delta, sensitivity_method: str, calibration: str = "analytic", max_items=None, max_users=None
) -> Guarantee:
    """What a BayesianDP release promises (SPEC §3b).

    - "strict": (ε, δ)-DP per user (approximate DP), given the caps L and N_max. The classic σ at ε ≥ 1
      (outside its proof) keeps the promise only where its exact (Balle–Wang) δ is at most the δ asked
      for — true up to ε ≈ 8 at δ = 1e-5; beyond, the release is refused with a ValueError about ε
      (issue 21 item 7: it showed a green (ε = 50, δ = 0.586) before, and failed on δ = 1 at ε = 300). The check is
      :func:`dpcore.mechanisms.check_classic_promise`, the one :func:`dpcore.gaussian_sigma` applies too (issue 30
      item 9: one policy for the classic σ at ε ≥ 1).
    - "brute-force" / "worst-case": γ measured on the private data → local sensitivity: not DP, and no
      (ε, δ) at all (SPEC §3b) — ε and δ only set the noise scale.
    """
    epsilon, delta = check_epsilon(epsilon=epsilon), check_delta(delta=delta)
    check_choice("sensitivity_method", sensitivity_method, SENSITIVITY_METHODS)
    calibration = resolve_calibration(calibration, epsilon=epsilon)
    if sensitivity_method == "strict":
        scope = (
            f"every user capped at L = {max_items} items (C per item); at most N_max = {max_users} users (a public cap)"
        )
        if calibration == "classic" and epsilon >= 1.0:
            from ..mechanisms.gaussian import check_classic_promise, classic_true_delta

            check_classic_promise(epsilon=epsilon, delta=delta)  # the policy gaussian_sigma keeps too (issue 30 item 9)
            true = classic_true_delta(epsilon=epsilon, delta=delta)  # the exact δ of the classic σ
            scope += f"; the classic σ at ε ≥ 1 is outside its proof, but its exact δ {true:.3g} is ≤ δ"
        return approximate_dp(epsilon=epsilon, delta=delta, scope=scope)
    return local_sensitivity(
        epsilon=epsilon,
        delta=delta,
        promise=(
            "Not DP, and no (ε, δ) holds — not even for this corpus's neighbours: γ was measured on the "
            "private data (N_i, c_i), and run on a neighbour the mechanism measures γ again, so the noise "
            "scale itself differs between the two and reveals who is in the data. ε and δ only set the "
            "noise scale, as in the paper."
        ),
        scope=f"σ set from ε = {epsilon:g}, δ = {delta:g} and γ measured on the data, as in the paper — a noise "
        "scale, not a promise",
    )


__all__.append("bayesian_guarantee")


@dataclass(frozen=True)
class BayesianRelease:
    """One BayesianDP release (000 Algorithm 1).

    θ the released distribution, h the Gaussian draw it came from, σ_ps the noise standard
    deviation, γ the sensitivity of w ⊙ x̂, and the parameters. ``guarantee`` says what holds
    (:func:`bayesian_guarantee`: approximate DP in strict mode, local sensitivity otherwise).
    """

    theta: np.ndarray
    h: np.ndarray
    sigma: float
    sensitivity: float
    epsilon: float
    delta: float
    S: float
    C: int
    rho: float
    calibration: str
    sensitivity_method: str
    max_items: int | None = None
    max_users: int | None = None
    guarantee: Guarantee = None  # type: ignore[assignment]  # None: the default, set by __post_init__

    def __post_init__(self):
        if self.guarantee is None:
            object.__setattr__(
                self,
                "guarantee",
                bayesian_guarantee(
                    epsilon=self.epsilon,
                    delta=self.delta,
                    sensitivity_method=self.sensitivity_method,
                    calibration=self.calibration,
                    max_items=self.max_items,
                    max_users=self.max_users,
                ),
            )

    def __repr__(self) -> str:
        return (
            f"BayesianRelease(|V|={self.theta.size}, sigma={self.sigma:.4g}, sensitivity={self.sensitivity:.4g}, "
            f"epsilon={self.epsilon:g}, delta={self.delta:g}, S={self.S:g}, C={self.C}, rho={self.rho:g}, "
            f"calibration={self.calibration!r}, guarantee={self.guarantee.label!r})"
        )

    @property
    def classic_proven(self) -> bool:
        """False when the classic calibration was used outside its proof (ε ≥ 1)."""
        return self.calibration != "classic" or self.epsilon < 1.0


@dataclass(frozen=True, eq=False)
class PreparedBayesianDP:
    """Steps 1–7 of BayesianDP for fixed (S, C, ρ): μ_ps, w and γ; σ_ps follows from (ε, δ).

    Build with :meth:`BayesianStatistics.prepare` or :func:`prepare_bayesian`.
    """

    mu_ps: np.ndarray
    weights: np.ndarray
    sensitivity: float
    S: float
    C: int
    rho: float
    sensitivity_method: str
    n_users: int
    max_items: int | None = None
    max_users: int | None = None

    def __repr__(self) -> str:
        return (
            f"PreparedBayesianDP(|V|={self.mu_ps.size}, sensitivity={self.sensitivity:.4g}, S={self.S:g}, "
            f"C={self.C}, rho={self.rho:g}, method={self.sensitivity_method!r})"
        )

    @property
    def vocabulary_size(self) -> int:
        return self.mu_ps.size

    @property
    def share_downweighted(self) -> float:
        """Share of words with w < 1, whose mass is partly taken from the public prior."""
        return float(np.mean(self.weights < 1.0))

    def mean_theta(self) -> np.ndarray:
        """softmax(μ_ps): the release without noise (what §3.2 tunes against)."""
        return softmax(self.mu_ps)

    def sigma(self, *, epsilon, delta, calibration: str = "auto") -> float:
        """σ_ps = ρ·γ·σ(ε, δ, Δ=1) (Corollary 1; "classic", "analytic" or "auto" calibration).

        The noise scale only (:func:`dpcore.mechanisms.gaussian_noise_scale`): the page shows the classic σ beside
        the analytic one, and the local-γ modes are not DP anyway. What a strict release promises — and the
        refusal of the classic σ where its exact δ exceeds δ — is :func:`bayesian_guarantee`'s, checked by
        :meth:`release` before it draws."""
        check_choice("calibration", calibration, CALIBRATION_CHOICES)
        base = gaussian_noise_scale(epsilon=epsilon, delta=delta, sensitivity=1.0, method=calibration)
        s = self.rho * self.sensitivity * base
        if s == 0.0:  # γ = 0 (no user moves w ⊙ x̂): no noise is needed
            return s
        return check_noise_scale("σ_ps", s, epsilon=epsilon, delta=delta, rho=self.rho, sensitivity=self.sensitivity)

    def sample_h(self, *, epsilon, delta, rng, repetitions: int = 1, calibration: str = "auto") -> np.ndarray:
        """``repetitions`` draws of h ~ N(μ_ps, σ_ps² I), shape (repetitions, |V|)."""
        rng = check_rng(rng)
        repetitions = check_int("repetitions", repetitions, low=1)
        s = self.sigma(epsilon=epsilon, delta=delta, calibration=calibration)
        with np.errstate(over="ignore"):  # σ near the float limit: h may hold ±∞ (θ stays finite)
            return self.mu_ps + gaussian_noise(sigma=s, size=(repetitions, self.mu_ps.size), rng=rng)

    def sample_theta(self, *, epsilon, delta, rng, repetitions: int = 1, calibration: str = "auto") -> np.ndarray:
        """``repetitions`` releases θ = softmax(h), shape (repetitions, |V|) (same draws as :meth:`sample_h`)."""
        rng = check_rng(rng)
        repetitions = check_int("repetitions", repetitions, low=1)
        s = self.sigma(epsilon=epsilon, delta=delta, calibration=calibration)
        noise = standard_normal_noise(size=(repetitions, self.mu_ps.size), rng=rng)
        if s == 0.0:
            return softmax(np.broadcast_to(self.mu_ps, noise.shape))
        return _softmax_of_draw(self.mu_ps, s, noise)

    def release(self, *, epsilon, delta, rng, calibration: str = "auto") -> BayesianRelease:
        """Step 8: h ~ N(μ_ps, σ_ps² I), θ = softmax(h)."""
        epsilon = check_epsilon(epsilon=epsilon)
        delta = check_delta(delta=delta)
        rng = check_rng(rng)
        check_choice("calibration", calibration, CALIBRATION_CHOICES)
        calibration = resolve_calibration(calibration, epsilon=epsilon)
        guarantee = bayesian_guarantee(
            epsilon=epsilon,
            delta=delta,
            sensitivity_method=self.sensitivity_method,
            calibration=calibration,
            max_items=self.max_items,
            max_users=self.max_users,
        )  # refuses before drawing (classic, large ε)
        s = self.sigma(epsilon=epsilon, delta=delta, calibration=calibration)
        noise = standard_normal_noise(size=self.mu_ps.size, rng=rng)
        with np.errstate(over="ignore"):  # σ near the float limit: h may hold ±∞ (θ stays finite)
            h = self.mu_ps + s * noise
        theta = _softmax_of_draw(self.mu_ps, s, noise) if s > 0 else softmax(h)
        return BayesianRelease(
            theta=theta,
            h=h,
            sigma=s,
            sensitivity=self.sensitivity,
            epsilon=epsilon,
            delta=delta,
            S=self.S,
            C=self.C,
            rho=self.rho,
            calibration=calibration,
            sensitivity_method=self.sensitivity_method,
            max_items=self.max_items,
            max_users=self.max_users,
            guarantee=guarantee,
        )
