"""The worked examples of lecture 001 (Habernal, "Pure Differential Privacy Mechanisms").

Data and small computations behind the Mechanisms 101 page: the bank-debt sum query with its
10,000,000 € cap (global sensitivity), and the secret-society city example for the exponential
mechanism (SPEC §1).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import UserError
from ..guarantees import Guarantee, local_sensitivity, no_protection, pure_dp
from ..mechanisms.exponential import exponential_mechanism_probabilities
from ..mechanisms.laplace import laplace_privacy_loss_bound
from ..validation import check_epsilon, check_real, check_sensitivity

__all__ = [
    "COUNTING_QUERY",
    "BANK_DEBTS",
    "DEBT_CAP",
    "CANDIDATE_CITIES",
    "MEMBER_CITIES",
    "SOCIETY_MEMBERS",
    "DebtNeighbour",
    "bank_debt_neighbours",
    "bank_debt_worst_case",
    "city_utilities",
    "utility_sensitivity",
    "CityExample",
    "city_example",
    "empirical_selection_ratios",
    "empirical_density_ratios",
    "bank_debt_guarantee",
]

COUNTING_QUERY: tuple[float, float] = (50.0, 51.0)
"""The lecture's counting query: true answer 50 on D, 51 on the neighbour D' with one more person (Δ = 1)."""

BANK_DEBTS: dict[str, float] = {"Alice": 2_800_798.00, "Bob": 7_000.00, "Charlie": 1.56, "Xander": 0.00}
"""Table 3 of 001: debts of account holders (€)."""

DEBT_CAP = 10_000_000.0
"""The most the bank lends one person (€): the global ℓ1 sensitivity of the total-debt query."""

CANDIDATE_CITIES: dict[str, tuple[float, float]] = {
    "Ottawa": (45.0, -75.0),
    "Toronto": (43.0, -79.0),
    "New York": (40.0, -74.0),
    "Washington": (38.0, -77.0),
    "Memphis": (35.0, -90.0),
    "Los Angeles": (34.0, -118.0),
    "La Habana": (23.0, -82.0),
}
"""The known list of all cities (001, "Example more concretely"), (latitude, longitude) in degrees."""

SOCIETY_MEMBERS: dict[str, str] = {
    "Alice": "Los Angeles",
    "Bob": "New York",
    "Charlie": "Washington",
    "Xander": "Toronto",
}
"""Table 5 of 001: database D of the secret society."""

MEMBER_CITIES = tuple(SOCIETY_MEMBERS.values())


@dataclass(frozen=True)
class DebtNeighbour:
    """One neighbour D' = D minus ``removed`` of the total-debt query."""

    removed: str
    total: float
    neighbour_total: float
    difference: float
    loss_bound: float  # sup_y |L(y)| at the given Laplace scale
    exceeds_epsilon: bool


def bank_debt_neighbours(debts: dict[str, float], *, epsilon, scale) -> list[DebtNeighbour]:
    """For each person, the neighbour without them and the worst privacy loss at Laplace scale b."""
    epsilon = check_epsilon(epsilon=epsilon)
    scale = check_sensitivity(sensitivity=scale, name="scale")
    values = {k: check_real(f"debt of {k}", v, low=0.0, low_inclusive=True) for k, v in debts.items()}
    total = sum(values.values())
    out = []
    for name, v in values.items():
        nb = total - v
        bound = laplace_privacy_loss_bound(true_answer=total, neighbour_answer=nb, scale=scale)
        out.append(DebtNeighbour(name, total, nb, v, bound, bool(bound > epsilon * (1 + 1e-12))))
    return out


def bank_debt_worst_case(*, epsilon, scale, cap: float = DEBT_CAP) -> DebtNeighbour:
    """The domain's worst neighbour pair: D = {0, 0, 0, cap}, D' = {0, 0, 0} (001 "worst case").

    With the scale set from the data's largest debt (b = 2,800,798/ε) the loss bound is
    cap/b = 3.57·ε > ε; with b = cap/ε it is exactly ε.
    """
    epsilon = check_epsilon(epsilon=epsilon)
    cap = check_sensitivity(sensitivity=cap, name="cap")
    return bank_debt_neighbours(
        {"A": 0.0, "B": 0.0, "C": 0.0, "X (outlier at the cap)": cap}, epsilon=epsilon, scale=scale
    )[-1]


def bank_debt_guarantee(*, epsilon, scale, cap: float = DEBT_CAP) -> Guarantee:
    """The total-debt query with Lap(0, b): ε-DP (pure) when b ≥ cap/ε (the global sensitivity is the cap,
    001); with a smaller b — e.g. set from the data's largest debt — the worst neighbour's loss is cap/b > ε
    and the scale was measured on the data: local sensitivity, not DP."""
    epsilon = check_epsilon(epsilon=epsilon)
    scale = check_sensitivity(sensitivity=scale, name="scale")
    cap = check_sensitivity(sensitivity=cap, name="cap")
    if scale * epsilon >= cap * (1 - 1e-12):
        return pure_dp(
            epsilon=epsilon, scope=f"b = {scale:,.4g} ≥ cap/ε: the cap {cap:,.0f} € is the global sensitivity"
        )
    return local_sensitivity(
        epsilon=epsilon,
        delta=None,
        promise=(
            f"The scale b = {scale:,.4g} is below cap/ε = {cap / epsilon:,.4g}: it fits this bank's customers only. "
            f"A customer at the cap would lose up to ε = {cap / scale:.3g}, not {epsilon:g}. Not DP."
        ),
        scope="b set from the data, not from the cap",
    )


def city_utilities(
    members: tuple[tuple[float, float], ...] | np.ndarray, cities: np.ndarray, *, min_distance: float = 1e-3
) -> np.ndarray:
    """u(D, c) = 1/d(mean(D), c), Euclidean distance in degrees, d floored at ``min_distance``.

    The floor is the "guard d = 0" of SPEC §1: without it a member set whose mean lands on a city
    gives infinite utility (and infinite sensitivity).
    """
    m = np.asarray(members, dtype=float).reshape(-1, 2)
    if m.shape[0] == 0:
        raise UserError("members must hold at least one (latitude, longitude) pair")
    c = np.asarray(cities, dtype=float).reshape(-1, 2)
    centre = m.mean(axis=0)
    d = np.sqrt(((c - centre) ** 2).sum(axis=1))
    return 1.0 / np.maximum(d, check_sensitivity(sensitivity=min_distance, name="min_distance"))


def utility_sensitivity(members, cities, *, min_distance: float = 1e-3) -> tuple[float, np.ndarray]:
    """Δu over the neighbours of D obtained by removing one member: max_{D',c} |u(D,c) − u(D',c)|.

    Returns (Δu, matrix of utilities with row 0 = D and row j = D without member j). This is the
    sensitivity *at D* over its remove-one neighbours, which is exactly what the ratio check
    Pr[M(D)=c]/Pr[M(D')=c] ≤ e^ε needs for these pairs; the lecture's global Δu would take the max
    over every possible D as well.
    """
    m = np.asarray(members, dtype=float).reshape(-1, 2)
    if m.shape[0] < 2:
        raise UserError(f"members must hold at least 2 members to form a neighbour, got {m.shape[0]}")
    rows = [city_utilities(m, cities, min_distance=min_distance)]
    for j in range(m.shape[0]):
        rows.append(city_utilities(np.delete(m, j, axis=0), cities, min_distance=min_distance))
    u = np.vstack(rows)
    return float(np.max(np.abs(u[1:] - u[0]))), u


@dataclass(frozen=True)
class CityExample:
    """Selection probabilities for D and each neighbour, and the worst ratio against e^ε."""

    cities: tuple[str, ...]
    neighbours: tuple[str, ...]  # "D", then "D without <member>"
    utilities: np.ndarray  # (1 + members) × cities
    probabilities: np.ndarray  # same shape, rows sum to 1
    sensitivity_used: float
    sensitivity_true: float
    epsilon: float
    worst_ratio: float  # max over neighbours, cities and both directions of Pr ratio
    worst_pair: tuple[str, str]  # (neighbour, city) where the worst ratio occurs
    centre: tuple[float, float]  # the members' mean (latitude, longitude) of D
    utility_bound: float | None = None  # a public B: utilities clipped to [0, B] and Δu = B (ε-DP); None: Δu from D

    @property
    def bound(self) -> float:
        return float(np.exp(self.epsilon))

    @property
    def violates(self) -> bool:
        return not self.worst_ratio <= self.bound * (1 + 1e-12)  # a NaN ratio (0/0 at a tiny Δu) violates too

    @property
    def guarantee(self) -> Guarantee:
        """What this exponential-mechanism release promises.

        Δu is computed over D's own remove-one neighbours (001's worked example), so even the true
        value is a local sensitivity: with that Δu held fixed the ratio ≤ e^ε holds for these pairs,
        but a mechanism that computes Δu from its input would use another Δu on a neighbour — no ε
        holds (SPEC §3b). With a Δu below the true one the ratio is exceeded: no promise at all.
        With a public bound B (``utility_bound``) the utilities are clipped to [0, B] before the mechanism and
        Δu = B: one member more or less moves any city's clipped utility by at most B on every society, whatever
        the data, so the release is ε-DP (the lecture's exponential mechanism with a global Δu).
        """
        if self.utility_bound is not None:
            return pure_dp(
                epsilon=self.epsilon,
                scope=f"utilities clipped to [0, B], public Δu = B = {self.utility_bound:.4g} (not measured on D)",
            )
        if self.violates:
            return no_protection(
                promise=(
                    f"Δu = {self.sensitivity_used:.4g} is below the true {self.sensitivity_true:.4g}: "
                    f"the worst probability ratio {self.worst_ratio:.3g} exceeds e^ε = "
                    f"{self.bound:.3g} ({self.worst_pair[0]}, {self.worst_pair[1]})."
                )
            )
        return local_sensitivity(
            epsilon=self.epsilon,
            delta=None,
            promise=(
                f"With Δu = {self.sensitivity_used:.4g} held fixed, every city's probability changes by at most "
                f"e^ε = {self.bound:.3g} between this society and each of its neighbours (the ratio check). But "
                "Δu was computed from this society: computed on a neighbour's data it comes out different, and "
                "other societies are not covered at all, so no ε holds — a global Δu is needed for ε-DP."
            ),
            scope="Δu computed over D's remove-one neighbours",
        )


def city_example(
    *,
    epsilon,
    sensitivity=None,
    members: dict[str, str] | None = None,
    cities: dict[str, tuple[float, float]] | None = None,
    utility_bound=None,
) -> CityExample:
    """The secret-society example: exponential mechanism over cities for D and all D' = D − one member.

    Args:
      epsilon: ε > 0.
      sensitivity: Δu to plug into the mechanism; ``None`` uses the computed one
        (:func:`utility_sensitivity`). Passing a too-small value shows the guarantee break.
      members: person → city (defaults to Table 5); the cities must be in ``cities``.
      cities: candidate cities with coordinates (defaults to the lecture's seven).
      utility_bound: a public bound B > 0 chosen without looking at the data: every utility is clipped to
        [0, B] (u = 1/distance is never negative) and Δu = B, which holds for every neighbouring pair of
        societies — ε-DP. Then ``sensitivity`` must be None; ``sensitivity_true`` is Δu of the clipped
        utilities over D's neighbours (≤ B).
    """
    epsilon = check_epsilon(epsilon=epsilon)
    if utility_bound is not None:
        utility_bound = check_sensitivity(sensitivity=utility_bound, name="utility_bound")
        if sensitivity is not None:
            raise UserError(
                f"sensitivity must be None when utility_bound is given (Δu is the bound), got sensitivity={sensitivity!r}"
            )
    members = dict(SOCIETY_MEMBERS if members is None else members)
    cities = dict(CANDIDATE_CITIES if cities is None else cities)
    for person, city in members.items():
        if city not in cities:
            raise UserError(f"member {person}'s city {city!r} is not among the candidate cities")
    names = tuple(cities)
    cxy = np.array([cities[c] for c in names])
    mxy = np.array([cities[c] for c in members.values()])
    true_sens, u = utility_sensitivity(mxy, cxy)
    if utility_bound is not None:
        u = np.minimum(u, utility_bound)
        true_sens = float(np.max(np.abs(u[1:] - u[0])))
    used = utility_bound or (true_sens if sensitivity is None else check_sensitivity(sensitivity=sensitivity))
    probs = np.vstack([exponential_mechanism_probabilities(row, epsilon=epsilon, sensitivity=used) for row in u])
    ratios = np.maximum(probs[1:] / probs[0], probs[0] / probs[1:])
    j, c = np.unravel_index(int(np.argmax(ratios)), ratios.shape)
    neighbours = ("D",) + tuple(f"D without {p}" for p in members)
    centre = mxy.mean(axis=0)
    return CityExample(
        names,
        neighbours,
        u,
        probs,
        used,
        true_sens,
        epsilon,
        float(ratios[j, c]),
        (neighbours[1 + j], names[c]),
        (float(centre[0]), float(centre[1])),
        utility_bound,
    )


def empirical_selection_ratios(
    samples_d, samples_neighbour, n_candidates: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From repeated draws of M(D) and M(D'), the empirical frequencies and their ratio per candidate.

    Returns (freq_D, freq_D', ratio) with ratio = freq_D/freq_D' where both are > 0, NaN elsewhere
    (a candidate never drawn tells nothing about the ratio). With many draws the ratio approaches
    the true Pr ratio, which the exponential mechanism keeps ≤ e^ε.
    """
    from ..validation import check_int

    n_candidates = check_int("n_candidates", n_candidates, low=1)
    a = np.bincount(np.asarray(samples_d, dtype=int), minlength=n_candidates)[:n_candidates]
    b = np.bincount(np.asarray(samples_neighbour, dtype=int), minlength=n_candidates)[:n_candidates]
    if a.sum() == 0 or b.sum() == 0:
        raise UserError("samples must not be empty: draw at least one output from each dataset")
    fa, fb = a / a.sum(), b / b.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where((fa > 0) & (fb > 0), fa / fb, np.nan)
    return fa, fb, ratio


def empirical_density_ratios(samples_d, samples_neighbour, edges, *, min_count: int = 30):
    """Histogram both samples on ``edges``; per bin the share of draws and the ratio of shares.

    Returns (share_D, share_D', ratio) with ratio NaN in bins where either sample has fewer than
    ``min_count`` draws (too few to estimate a ratio; the bound e^ε concerns the densities, and a
    handful of draws can exceed it by chance).
    """
    from ..validation import check_int

    min_count = check_int("min_count", min_count, low=1)
    a, _ = np.histogram(np.asarray(samples_d, dtype=float), edges)
    b, _ = np.histogram(np.asarray(samples_neighbour, dtype=float), edges)
    na, nb = len(samples_d), len(samples_neighbour)
    if na == 0 or nb == 0:
        raise UserError("samples must not be empty: draw at least one output from each dataset")
    fa, fb = a / na, b / nb
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where((a >= min_count) & (b >= min_count), fa / fb, np.nan)
    return fa, fb, ratio
