"""The experiments of 000 §4–§5 as functions returning tidy results (SPEC §3 "Metrics and
experiments"): an :class:`ExperimentTable`, one numpy array per column and one row per record,
without pandas (``pandas.DataFrame(table.columns)`` gives a data frame where one is wanted). A page
plots them; a notebook gets the same numbers.

Every KL is KL(p‖q̃) with p the normalised raw private counts over V and q̃ the release mixed with
the uniform distribution at λ = 1e-9 (:func:`dpcore.metrics.kl_divergence`). Curves over noise have one row
per (setting, repetition); :func:`summarise` gives mean and a band (10th–90th percentile) as arrays
per mechanism.

Mechanism names used in the ``mechanism`` column: see :data:`MECHANISMS`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, cast
import numpy as np
from .statistics import DEFAULT_RHO_GRID, DEFAULT_S_GRID, bayesian_statistics, softmax
from .end_to_end import prepare_end_to_end
from ..mechanisms.gaussian import gaussian_noise_scale
from ..mechanisms.noise import gaussian_noise, laplace_noise
from .baselines import k_anonymity_release, normalise_clipped, prepare_laplace, prepare_laplace_public, public_baseline
from ..metrics import kl_divergence
from ..text.counts import NgramCounts
from ..validation import check_choice, check_delta, check_epsilon, check_int, check_probability, check_real, check_rng
from ..errors import UserError

__all__ = [
    "MECHANISMS",
    "BAYESIAN",
    "BAYESIAN_STRICT",
    "END_TO_END",
    "LAPLACE",
    "LAPLACE_PUBLIC",
    "PUBLIC",
    "PRIVATE",
    "K_ANONYMITY",
    "DEFAULT_SETTINGS",
    "ExperimentTable",
    "Summary",
    "summarise",
    "kl_vs_epsilon",
    "kl_vs_users",
    "kl_vs_vocabulary",
    "kl_vs_public_quality",
    "kl_vs_k",
]


BAYESIAN = "BayesianDP"
BAYESIAN_STRICT = "BayesianDP strict (DP)"
END_TO_END = "EndToEndDP (tuned)"
LAPLACE = "Laplace"
LAPLACE_PUBLIC = "Laplace + public"
PUBLIC = "Public baseline"
PRIVATE = "Private baseline"
K_ANONYMITY = "k-anonymity"
MECHANISMS = (BAYESIAN, BAYESIAN_STRICT, END_TO_END, LAPLACE, LAPLACE_PUBLIC, PUBLIC, PRIVATE, K_ANONYMITY)

DEFAULT_SETTINGS = {"S": 1e-3, "C": 1, "rho": 0.3, "W": 2, "delta": 1e-5}
"""Defaults used by the page and the tests on the sample corpora: C = 1 and W = |U|/1000 ≈ 2 as
000 §4.3 does for fewer than 1M users; S and ρ from a grid search on the sample corpus at ε = 0.1
and 1 (S ∈ [1e-4, 1], ρ ∈ {0.1, …, 1}: the best region is S ≈ 3e-4 … 3e-3, ρ ≈ 0.1 … 0.3)."""

_BAND = (0.1, 0.9)


def _column(values: list) -> np.ndarray:
    """One column from a list of Python values: strings as an ``object`` array (plain ``str``), and so are arrays
    (one per row)."""
    if any(isinstance(v, np.ndarray) for v in values):  # one array per row (a ROC): an object column
        arr = np.empty(len(values), dtype=object)
        for i, v in enumerate(values):
            arr[i] = v
        return arr
    arr = np.asarray(values)
    if arr.dtype.kind in "US" or arr.dtype == object:
        arr = np.empty(len(values), dtype=object)
        arr[:] = values
    return arr


@dataclass(frozen=True, eq=False)
class ExperimentTable:
    """Tidy results: ``columns`` maps each column name (in order) to a 1-D numpy array, all of one length.

    ``table["kl"]`` is a column, ``len(table)`` the number of rows, :meth:`rows` the records as dicts,
    :meth:`filter` the rows equal to given values and :meth:`subset` the rows of a boolean mask.
    """

    columns: dict

    def __post_init__(self):
        lengths = {name: len(col) for name, col in self.columns.items()}
        if len(set(lengths.values())) > 1:
            raise UserError(f"every column must have the same length, got {lengths}")

    @classmethod
    def from_rows(cls, rows: list[dict] | list[tuple], columns=None) -> "ExperimentTable":
        """Records (dicts, or tuples when ``columns`` names them) → a table; the columns are the keys in
        first-seen order unless ``columns`` is given; a key missing from a record is an error."""
        if columns is None:
            columns = list(dict.fromkeys(k for r in rows for k in r))
            return cls({c: _column([r[c] for r in rows]) for c in columns})
        columns = list(columns)
        if rows and not isinstance(rows[0], dict):
            rows = [dict(zip(columns, r)) for r in rows]
        return cls({c: _column([r[c] for r in rows]) for c in columns})

    def __len__(self) -> int:
        return len(next(iter(self.columns.values()))) if self.columns else 0

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    def __contains__(self, name: str) -> bool:
        return name in self.columns

    def rows(self) -> list[dict]:
        """The records, one dict per row, with Python scalars."""
        names = list(self.columns)
        cols = [self.columns[c].tolist() for c in names]
        return [dict(zip(names, vals)) for vals in zip(*cols)]

    def subset(self, mask) -> "ExperimentTable":
        """The rows where the boolean ``mask`` is true (or the rows at the given indices), in order."""
        return ExperimentTable({c: v[mask] for c, v in self.columns.items()})

    def filter(self, **equal) -> "ExperimentTable":
        """The rows whose columns equal the given values, e.g. ``table.filter(mechanism=BAYESIAN)``."""
        mask = np.ones(len(self), dtype=bool)
        for name, value in equal.items():
            if name not in self.columns:
                raise KeyError(f"no column {name!r}; columns are {list(self.columns)}")
            mask &= self.columns[name] == value
        return self.subset(mask)

    def equals(self, other) -> bool:
        """Same column names in the same order and equal values in every column."""
        return (
            isinstance(other, ExperimentTable)
            and list(self.columns) == list(other.columns)
            and all(np.array_equal(self.columns[c], other.columns[c]) for c in self.columns)
        )


class Summary(NamedTuple):
    """One mechanism's curve: x values (first-seen order), mean and band of the value, repetitions per x."""

    x: np.ndarray
    mean: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    repetitions: np.ndarray


def summarise(table: ExperimentTable, x: str, value: str = "kl", by: str = "mechanism") -> dict[str, Summary]:
    """Mean and band (10th and 90th percentile over repetitions) of ``value`` per (``by``, ``x``):
    ``{name: Summary(x, mean, lower, upper, repetitions)}`` in first-seen order of ``by``, each with
    its ``x`` values in first-seen order."""
    groups: dict = {}
    for b, xv, v in zip(table[by].tolist(), table[x].tolist(), np.asarray(table[value], dtype=float).tolist()):
        groups.setdefault(b, {}).setdefault(xv, []).append(v)
    out = {}
    for b, per_x in groups.items():
        vals = [np.asarray(v) for v in per_x.values()]
        out[b] = Summary(
            x=np.asarray(list(per_x)),
            mean=np.array([v.mean() for v in vals]),
            lower=np.array([np.quantile(v, _BAND[0]) for v in vals]),
            upper=np.array([np.quantile(v, _BAND[1]) for v in vals]),
            repetitions=np.array([v.size for v in vals], dtype=np.int64),
        )
    return out


def _epsilons(epsilons) -> list[float]:
    eps = [check_epsilon(epsilon=e) for e in np.atleast_1d(np.asarray(epsilons, dtype=float)).tolist()]
    if not eps:
        raise UserError("epsilons must hold at least one value, got an empty list")
    return eps


def _rows(mechanism, x_name, x, kls, extra=None):
    kls = np.atleast_1d(np.asarray(kls, dtype=float))
    out = []
    for r, v in enumerate(kls):
        row = {"mechanism": mechanism, x_name: x, "repetition": r, "kl": float(v)}
        if extra:
            row.update(extra)
        out.append(row)
    return out


def _check_common(delta, S, C, rho, W, repetitions, calibration):
    delta = check_delta(delta=delta)
    S = check_real("S", S, low=0.0)
    C = check_int("C", C, low=1)
    rho = check_probability(rho, "rho", allow_zero=False)
    W = check_int("W", W, low=1)
    repetitions = check_int("repetitions", repetitions, low=1)
    check_choice("calibration", calibration, ("auto", "classic", "analytic"))
    return delta, S, C, rho, W, repetitions


def _check_strict(mechanisms, max_items, max_users) -> None:
    if BAYESIAN_STRICT in mechanisms and (max_items is None or max_users is None):
        raise UserError(
            f"mechanism {BAYESIAN_STRICT!r} needs max_items (L) and max_users (N_max), got "
            f"max_items={max_items}, max_users={max_users}"
        )


def _strict_statistics(user_counts, public_counts, *, C, max_items, rng):
    """Strict mode's statistics (SPEC §3b): each user keeps at most L = ``max_items`` distinct items, a seeded
    random choice from ``rng``."""
    return bayesian_statistics(user_counts, public_counts, C=C, max_items=max_items, rng=rng)


def _mechanism_kls(
    counts: NgramCounts,
    p,
    *,
    epsilon,
    delta,
    S,
    C,
    rho,
    W,
    repetitions,
    rng,
    calibration,
    mechanisms,
    public_counts=None,
    max_items=None,
    max_users=None,
):
    """KL per repetition for each mechanism at one ε on one dataset (used by the sweeps over data)."""
    alpha = counts.public_counts if public_counts is None else public_counts
    out: dict[str, float | np.ndarray | list] = {}  # per mechanism: an array of KLs or a list of them
    if BAYESIAN in mechanisms:
        prep = bayesian_statistics(counts.user_counts, alpha, C=C).prepare(S=S, rho=rho)
        out[BAYESIAN] = kl_divergence(
            p,
            prep.sample_theta(epsilon=epsilon, delta=delta, rng=rng, repetitions=repetitions, calibration=calibration),
        )
    if BAYESIAN_STRICT in mechanisms:
        prep = _strict_statistics(counts.user_counts, alpha, C=C, max_items=max_items, rng=rng).prepare(
            S=S, rho=rho, sensitivity="strict", max_users=max_users
        )
        out[BAYESIAN_STRICT] = kl_divergence(
            p,
            prep.sample_theta(epsilon=epsilon, delta=delta, rng=rng, repetitions=repetitions, calibration=calibration),
        )
    if LAPLACE in mechanisms:
        out[LAPLACE] = [
            kl_divergence(
                p, prepare_laplace(counts.user_counts, W=W, rng=rng).sample_theta(epsilon=epsilon, rng=rng)[0]
            )
            for _ in range(repetitions)
        ]
    if LAPLACE_PUBLIC in mechanisms:
        out[LAPLACE_PUBLIC] = [
            kl_divergence(
                p,
                prepare_laplace_public(counts.user_counts, alpha, W=W, rng=rng).sample_theta(epsilon=epsilon, rng=rng)[
                    0
                ],
            )
            for _ in range(repetitions)
        ]
    if PUBLIC in mechanisms:
        out[PUBLIC] = [kl_divergence(p, public_baseline(alpha))] * repetitions
    return out


def kl_vs_epsilon(
    counts: NgramCounts,
    *,
    epsilons,
    delta=1e-5,
    S=1e-3,
    C=1,
    rho=0.3,
    W=2,
    repetitions=10,
    rng=0,
    calibration="classic",
    mechanisms=(BAYESIAN, LAPLACE, LAPLACE_PUBLIC, PUBLIC, PRIVATE),
    end_to_end_grid=(DEFAULT_S_GRID, DEFAULT_RHO_GRID),
    max_items=None,
    max_users=None,
) -> ExperimentTable:
    """000 Fig. 1: KL vs ε for every mechanism, one row per (mechanism, ε, repetition).

    BayesianDP's ε-independent part is prepared once, so each ε costs ``repetitions`` draws.
    ``BAYESIAN`` is the paper's mechanism (γ measured on the private data: local sensitivity, not
    DP); ``BAYESIAN_STRICT`` is our strict variant (SPEC §3b: each user keeps at most ``max_items`` = L
    distinct n-grams, a seeded random choice drawn once from ``rng``; γ_strict bounded for every corpus
    of at most ``max_users`` = N_max users) — (ε, δ)-DP, the curve to set beside the paper's. The
    Laplace baselines draw a fresh W-subsample of every user per repetition (the subsample is part
    of the mechanism's randomness). EndToEndDP (if asked) splits users once per repetition and
    reuses the split over ε; its ε is the total (2ε/3 train + ε/3 tune).
    """
    eps = _epsilons(epsilons)
    delta, S, C, rho, W, repetitions = _check_common(delta, S, C, rho, W, repetitions, calibration)
    rng = check_rng(rng)
    for m in mechanisms:
        check_choice("mechanism", m, MECHANISMS)
    p = counts.private_distribution()
    rows: list[dict] = []
    _check_strict(mechanisms, max_items, max_users)
    for name in (BAYESIAN, BAYESIAN_STRICT):
        if name in mechanisms:
            rows += _bayesian_vs_epsilon(
                name,
                counts,
                p,
                eps,
                delta=delta,
                S=S,
                C=C,
                rho=rho,
                repetitions=repetitions,
                rng=rng,
                calibration=calibration,
                max_items=max_items,
                max_users=max_users,
            )
    if END_TO_END in mechanisms:
        rows += _end_to_end_vs_epsilon(
            counts,
            p,
            eps,
            delta=delta,
            C=C,
            repetitions=repetitions,
            rng=rng,
            calibration=calibration,
            grid=end_to_end_grid,
        )
    for name, prepare in (
        (LAPLACE, lambda: prepare_laplace(counts.user_counts, W=W, rng=rng)),
        (LAPLACE_PUBLIC, lambda: prepare_laplace_public(counts.user_counts, counts.public_counts, W=W, rng=rng)),
    ):
        if name in mechanisms:
            rows += _laplace_vs_epsilon(name, prepare, p, eps, repetitions=repetitions, rng=rng)
    if PUBLIC in mechanisms:
        k = kl_divergence(p, public_baseline(counts.public_counts))
        for e in eps:
            rows += _rows(PUBLIC, "epsilon", e, [k])
    if PRIVATE in mechanisms:
        for e in eps:
            rows += _rows(PRIVATE, "epsilon", e, [kl_divergence(p, p)])
    return ExperimentTable.from_rows(rows)


def _bayesian_vs_epsilon(
    name, counts, p, eps, *, delta, S, C, rho, repetitions, rng, calibration, max_items, max_users
) -> list[dict]:
    """kl_vs_epsilon's rows of BayesianDP (the paper's) or its strict variant: prepared once, ``repetitions``
    draws per ε."""
    if name == BAYESIAN:
        prep = bayesian_statistics(counts.user_counts, counts.public_counts, C=C).prepare(S=S, rho=rho)
    else:
        prep = _strict_statistics(counts.user_counts, counts.public_counts, C=C, max_items=max_items, rng=rng).prepare(
            S=S, rho=rho, sensitivity="strict", max_users=max_users
        )
    rows: list[dict] = []
    for e in eps:
        th = prep.sample_theta(epsilon=e, delta=delta, rng=rng, repetitions=repetitions, calibration=calibration)
        rows += _rows(name, "epsilon", e, kl_divergence(p, th))
    return rows


def _end_to_end_vs_epsilon(counts, p, eps, *, delta, C, repetitions, rng, calibration, grid) -> list[dict]:
    """kl_vs_epsilon's rows of EndToEndDP: one user split per repetition, reused over ε."""
    S_grid, rho_grid = grid
    kls: dict[float, list[float | np.ndarray]] = {e: [] for e in eps}
    for _ in range(repetitions):
        pe = prepare_end_to_end(
            counts.user_counts, counts.public_counts, C=C, rng=rng, S_grid=S_grid, rho_grid=rho_grid
        )
        for e in eps:
            kls[e].append(kl_divergence(p, pe.release(epsilon=e, delta=delta, rng=rng, calibration=calibration).theta))
    rows: list[dict] = []
    for e in eps:
        rows += _rows(END_TO_END, "epsilon", e, kls[e])
    return rows


def _laplace_vs_epsilon(name, prepare, p, eps, *, repetitions, rng) -> list[dict]:
    """kl_vs_epsilon's rows of a Laplace baseline: a fresh W-subsample (``prepare()``) per repetition, one θ per ε."""
    kls: dict[float, list[float | np.ndarray]] = {e: [] for e in eps}
    for _ in range(repetitions):
        laplace = prepare()
        th = np.vstack([laplace.sample_theta(epsilon=e, rng=rng)[0] for e in eps])
        for e, k in zip(eps, cast(np.ndarray, kl_divergence(p, th))):  # one θ per row: one KL per row
            kls[e].append(k)
    rows: list[dict] = []
    for e in eps:
        rows += _rows(name, "epsilon", e, kls[e])
    return rows


def kl_vs_users(
    counts: NgramCounts,
    *,
    user_numbers,
    epsilon=1.0,
    delta=1e-5,
    S=1e-3,
    C=1,
    rho=0.3,
    W=2,
    repetitions=5,
    rng=0,
    calibration="classic",
    mechanisms=(BAYESIAN, LAPLACE, LAPLACE_PUBLIC, PUBLIC),
    max_items=None,
    max_users=None,
) -> ExperimentTable:
    """000 Fig. 2: KL vs number of users. Each repetition draws a fresh random subset of users
    (without replacement); p is that subset's private distribution. Column ``users``.
    ``BAYESIAN_STRICT`` (with ``max_items`` = L and ``max_users`` = N_max, as in :func:`kl_vs_epsilon`): its
    γ_strict does not depend on the data, so unlike the paper's γ it does not change with the users."""
    epsilon = check_epsilon(epsilon=epsilon)
    delta, S, C, rho, W, repetitions = _check_common(delta, S, C, rho, W, repetitions, calibration)
    rng = check_rng(rng)
    _check_strict(mechanisms, max_items, max_users)
    sizes = [check_int("number of users", u, low=2, high=counts.n_users) for u in user_numbers]
    rows: list[dict] = []
    for u in sizes:
        per_mech: dict[str, list] = {m: [] for m in mechanisms}
        for _ in range(repetitions):
            sub = counts.subset_users(np.sort(rng.choice(counts.n_users, size=u, replace=False)))
            if sub.total_counts().sum() <= 0:
                continue
            res = _mechanism_kls(
                sub,
                sub.private_distribution(),
                epsilon=epsilon,
                delta=delta,
                S=S,
                C=C,
                rho=rho,
                W=W,
                repetitions=1,
                rng=rng,
                calibration=calibration,
                mechanisms=mechanisms,
                max_items=max_items,
                max_users=max_users,
            )
            for m, v in res.items():
                per_mech[m].append(float(np.atleast_1d(v)[0]))
        for m, v in per_mech.items():
            rows += _rows(m, "users", u, v)
    return ExperimentTable.from_rows(rows)


def kl_vs_vocabulary(
    counts: NgramCounts,
    *,
    sizes,
    epsilon=1.0,
    delta=1e-5,
    S=1e-3,
    C=1,
    rho=0.3,
    W=2,
    repetitions=5,
    rng=0,
    calibration="classic",
    mechanisms=(BAYESIAN, LAPLACE, LAPLACE_PUBLIC, PUBLIC),
    max_items=None,
    max_users=None,
) -> ExperimentTable:
    """000 Fig. 3: KL vs vocabulary size |V| (the |V| most frequent public items). Column ``vocabulary``.
    ``BAYESIAN_STRICT`` needs ``max_items`` (L, applied within each vocabulary) and ``max_users``."""
    epsilon = check_epsilon(epsilon=epsilon)
    delta, S, C, rho, W, repetitions = _check_common(delta, S, C, rho, W, repetitions, calibration)
    rng = check_rng(rng)
    _check_strict(mechanisms, max_items, max_users)
    rows: list[dict] = []
    for v in sizes:
        sub = counts.top_vocabulary(v)
        if sub.total_counts().sum() <= 0:
            continue
        res = _mechanism_kls(
            sub,
            sub.private_distribution(),
            epsilon=epsilon,
            delta=delta,
            S=S,
            C=C,
            rho=rho,
            W=W,
            repetitions=repetitions,
            rng=rng,
            calibration=calibration,
            mechanisms=mechanisms,
            max_items=max_items,
            max_users=max_users,
        )
        for m, kl in res.items():
            rows += _rows(m, "vocabulary", int(v), kl)
    return ExperimentTable.from_rows(rows)


def kl_vs_public_quality(
    counts: NgramCounts,
    *,
    noise_scales,
    epsilon=1.0,
    delta=1e-5,
    S=1e-3,
    C=1,
    rho=0.3,
    repetitions=5,
    rng=0,
    calibration="classic",
    max_items=None,
    max_users=None,
) -> ExperimentTable:
    """000 Fig. 4: KL vs public-data quality. The public counts get Lap(0, b) noise of growing scale b
    (clipped at 0; a fresh draw per repetition); BayesianDP uses the degraded prior, and the public
    baseline is shown on the same degraded counts. Column ``public_noise``. With ``max_items`` (L) and
    ``max_users`` (N_max) also ``BAYESIAN_STRICT`` on the same degraded priors (γ_strict; each user's L items
    drawn once from ``rng`` before the sweep, its noise after the paper's in each repetition). Without them the
    draws are those of the paper's curve alone."""
    epsilon = check_epsilon(epsilon=epsilon)
    delta, S, C, rho, _, repetitions = _check_common(delta, S, C, rho, 1, repetitions, calibration)
    rng = check_rng(rng)
    strict = max_items is not None or max_users is not None
    if strict:
        _check_strict((BAYESIAN_STRICT,), max_items, max_users)
    p = counts.private_distribution()
    sigma = gaussian_noise_scale(
        epsilon=epsilon, delta=delta, sensitivity=1.0, method=calibration
    )  # the paper's curve: a noise scale
    variants = [(BAYESIAN, bayesian_statistics(counts.user_counts, counts.public_counts, C=C), None)]
    if strict:
        st_ = _strict_statistics(counts.user_counts, counts.public_counts, C=C, max_items=max_items, rng=rng)
        variants.append((BAYESIAN_STRICT, st_, st_.sensitivity(S, "strict", max_users=max_users)))
    parts = [
        (name, stats.weights(S) * stats.x_hat, stats.sensitivity(S) if gamma is None else gamma)
        for name, stats, gamma in variants
    ]
    rows: list[dict] = []
    for b in noise_scales:
        b = check_real("public noise scale", b, low=0.0, low_inclusive=True)
        kls: dict[str, list[float | np.ndarray]] = {name: [] for name, _, _ in parts}
        kp = []
        for _ in range(repetitions):
            alpha = counts.public_counts + (
                laplace_noise(scale=b, size=counts.vocabulary_size, rng=rng) if b > 0 else 0.0
            )
            alpha = np.maximum(alpha, 0.0)
            lg = np.log1p(alpha)
            for name, w_x, gamma in parts:  # γ does not depend on α (SPEC §3 step 6)
                mu = rho * w_x + (1.0 - rho) * (lg - lg.mean())
                h = mu + gaussian_noise(sigma=rho * gamma * sigma, size=mu.size, rng=rng)
                kls[name].append(kl_divergence(p, softmax(h)))
            kp.append(kl_divergence(p, normalise_clipped(alpha)))
        for name, v in kls.items():
            rows += _rows(name, "public_noise", float(b), v)
        rows += _rows(PUBLIC, "public_noise", float(b), kp)
    return ExperimentTable.from_rows(rows)


def kl_vs_k(counts: NgramCounts, *, Ks, fill="public") -> ExperimentTable:
    """000 Fig. 5 (left): k-anonymity KL vs K (deterministic, one row per K). Column ``K``."""
    p = counts.private_distribution()
    rows = []
    for K in Ks:
        rel = k_anonymity_release(counts.user_counts, counts.public_counts, K=K, fill=fill)
        rows += _rows(
            K_ANONYMITY,
            "K",
            int(K),
            [kl_divergence(p, rel.theta)],
            {"suppressed_mass": rel.suppressed_mass, "guarantee": rel.guarantee.label},
        )
    return ExperimentTable.from_rows(rows)
