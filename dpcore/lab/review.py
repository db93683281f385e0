"""What a privacy reviewer asks of a release (issue 9 item 3): warnings, the noise in the answer's units,
and the total budget.

Three kinds of frozen records, each usable from a notebook as well as from the dashboard's reviewer panel:

- :class:`ReviewWarning` (rule, message, fix) from :func:`review_warnings`, one per setting a reviewer
  would question: δ ≥ 1/(number of users), ε > 10, the classic Gaussian at ε ≥ 1, a contribution cap
  larger than the median user's items, a random-DP γ > 0.1, fewer than 100 users.
- :class:`NoiseStatement` from the ``*_noise_in_units`` functions: "a count of 100 comes back as
  100 ± 38 (95 %)".
- :class:`BudgetStatement` from :func:`end_to_end_budget`, :func:`dpne_budget` and :func:`single_budget`.

:func:`review_release` builds all three for a release object of dpcore. Every number here is a closed form of
the noise distribution (two-sided intervals of Laplace, Gaussian and log-normal laws); the tests recompute
them independently (scipy's distributions, or a Monte-Carlo draw).

The rules live in :mod:`dpcore.lab.review_rules`, the noise statements in :mod:`dpcore.lab.review_noise` and the
budget statements in :mod:`dpcore.lab.review_budget`; this module puts them together for one release (and
re-exports them: import them from here).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..guarantees import Guarantee
from ..validation import check_delta, check_epsilon
from .review_budget import (
    BudgetStatement,
    dpne_budget,
    end_to_end_budget,
    no_budget,
    qualified_budget,
    single_budget,
)
from .review_noise import (
    NoiseStatement,
    dpne_users_per_released,
    gaussian_noise_in_units,
    laplace_noise_in_units,
    log_space_noise_in_units,
)
from .review_kinds import release_reviewer
from .review_rules import EPSILON_WARN_ABOVE, GAMMA_WARN_ABOVE, MIN_USERS, REVIEW_RULES, ReviewWarning, review_warnings

__all__ = [
    "ReviewWarning",
    "NoiseStatement",
    "BudgetStatement",
    "Review",
    "REVIEW_RULES",
    "EPSILON_WARN_ABOVE",
    "GAMMA_WARN_ABOVE",
    "MIN_USERS",
    "review_warnings",
    "laplace_noise_in_units",
    "gaussian_noise_in_units",
    "log_space_noise_in_units",
    "dpne_users_per_released",
    "end_to_end_budget",
    "dpne_budget",
    "single_budget",
    "no_budget",
    "qualified_budget",
    "review_release",
    "mechanism_guarantees",
    "items_per_user",
    "custom_review",
]


@dataclass(frozen=True)
class Review:
    """Everything the reviewer's panel shows for one release."""

    guarantee: Guarantee
    noise: tuple[NoiseStatement, ...]
    warnings: tuple[ReviewWarning, ...]
    budget: BudgetStatement | None
    session_entry: object = None  # the release's dpcore.lab.BudgetEntry (a session budget's line), if built from one

    def to_dict(self) -> dict:
        return {
            "guarantee": self.guarantee.to_dict(),
            "noise": [n.to_dict() for n in self.noise],
            "warnings": [w.to_dict() for w in self.warnings],
            "budget": None if self.budget is None else self.budget.to_dict(),
        }


# ------------------------------------------------------------------------------------------------ one call


def review_release(
    release, *, n_users=None, user_items=None, confidence=0.95, value=None, identity=None, name: str | None = None
) -> Review:
    """The reviewer's view of one dpcore release: its guarantee, noise in units, warnings and budget.

    Args:
      release: a BayesianRelease, EndToEndRelease, LaplaceRelease, KAnonymityRelease, DpneRelease,
        DpsuBaselineRelease, MatrixRelease or VipsRelease; each type answers through its reviewer
        (:mod:`dpcore.lab.review_kinds`: its noise statements, budget statement and warning settings).
      n_users: users in the corpus (for the δ and corpus-size rules).
      user_items: per-user amounts in the unit of the release's cap (L, W or Δ0; VIPS-LDA: every person's ℓ2
        norm of expected counts, ``VipsPageSetup.user_norms``), for the cap rule.
      value: the answer to express the noise on (a count for Laplace, a probability for BayesianDP and the
        matrices); a sensible default otherwise.
      identity: the release's identity for the session budget — its spec (or :func:`dpcore.lab.release_identity`):
        the review's ``session_entry`` is keyed by it, never by the output (issue 30 item 2). Without it the entry
        has no key and the app's session budget refuses it.
      name: the session budget's name for it (default: the mechanism's).
    """
    parts = release_reviewer(release)(release, value=value, confidence=confidence, user_items=user_items)
    g = release.guarantee
    # one vocabulary: the budget's text begins with the guarantee's strength (issue 31 item 4)
    budget = None if parts.budget is None else qualified_budget(parts.budget, g)
    from .budget import budget_entry

    return Review(
        guarantee=g,
        noise=parts.noise,
        warnings=review_warnings(n_users=n_users, **parts.settings),
        budget=budget,
        session_entry=budget_entry(release, identity=identity, mechanism=name),
    )


# ------------------------------------------------------------------------------------------------ overview


def mechanism_guarantees(
    *, epsilon=1.0, delta=1e-5, gamma=0.1, K=10, W, max_items, max_users
) -> tuple[tuple[str, str, Guarantee], ...]:
    """(source, mechanism, Guarantee) for every mechanism and baseline the dashboard shows, built by the same
    functions the release types use to label themselves (so the home page's table cannot drift from them).
    The source is SPEC's paper id ("001" lecture, "000" Bayesian, "003" DPNE, "004" TopicDP); dpui maps it to
    its page (dpui.common.navigation.SOURCE_PAGE_TITLES).
    The caps the labels name (W, L = ``max_items``, N_max = ``max_users``) have no default here: the caller
    passes the ones its releases use (the home page: the Bayesian page's, dpui.bayesian.knobs.guarantee_settings)."""
    from ..bayesian.release import bayesian_guarantee
    from ..bayesian.end_to_end import end_to_end_guarantee
    from ..bayesian.baselines import PRIVATE_BASELINE_GUARANTEE, PUBLIC_BASELINE_GUARANTEE, laplace_guarantee
    from ..dpne.accounting import dpne_guarantee
    from ..guarantees import k_anonymity, pure_dp
    from .lecture import DEBT_CAP, bank_debt_guarantee
    from ..topicdp.mechanisms import MATRIX_MECHANISMS, matrix_guarantee
    from ..topicdp.vips import DEFAULT_CLIP_NORM, DEFAULT_ITERATIONS, vips_guarantee

    eps, d = check_epsilon(epsilon=epsilon), check_delta(delta=delta)
    b = "000"  # each source's page: dpui.common.navigation.SOURCE_PAGE_TITLES
    return (
        ("001", "Laplace mechanism (global Δ)", pure_dp(epsilon=eps)),
        ("001", "Bank debt, b from the cap", bank_debt_guarantee(epsilon=eps, scale=DEBT_CAP / eps)),
        ("001", "Bank debt, b from the data", bank_debt_guarantee(epsilon=eps, scale=2_800_798.0 / eps)),
        (
            b,
            "BayesianDP strict (L, N_max caps)",
            bayesian_guarantee(
                epsilon=eps,
                delta=d,
                sensitivity_method="strict",
                calibration="auto",
                max_items=max_items,
                max_users=max_users,
            ),
        ),
        (
            b,
            "BayesianDP local (as in the paper)",
            bayesian_guarantee(epsilon=eps, delta=d, sensitivity_method="brute-force"),
        ),
        (b, "EndToEndDP", end_to_end_guarantee(epsilon_train=2 * eps / 3, epsilon_tune=eps / 3, delta=d)),
        (b, "Laplace (cap W)", laplace_guarantee("Laplace", epsilon=eps, W=W)),
        (b, "Laplace + public", laplace_guarantee("Laplace + public", epsilon=eps, W=W)),
        (b, "k-anonymity", k_anonymity(K)),
        (b, "Public baseline", PUBLIC_BASELINE_GUARANTEE),
        (b, "Private baseline", PRIVATE_BASELINE_GUARANTEE),
        ("003", "DPNE", dpne_guarantee(epsilon=eps, delta=d)),
        ("003", "DPSU-all / DPSU-even", dpne_guarantee(epsilon=eps, delta=d)),
        ("003", "DPSU-single", dpne_guarantee(epsilon=eps, delta=d, single_length=True)),
        *(  # the TopicDP page's matrix mechanisms, from their records (TopicDP's label at 10 × 10)
            ("004", r.overview or r.name, matrix_guarantee(r.name, epsilon=eps, delta=d, gamma=gamma, m=10, n=10))
            for r in MATRIX_MECHANISMS
            if r.on_page
        ),
        (
            "004",
            "VIPS-LDA",
            vips_guarantee(
                eps,
                d,
                iterations=DEFAULT_ITERATIONS,
                clip_norm=DEFAULT_CLIP_NORM,
                vocabulary_source="public data",
                start_source="a fit on public data",
            ),
        ),
    )


def items_per_user(user_counts) -> np.ndarray:
    """Distinct items (non-zero columns) per user of a users × |V| sparse matrix, or distinct unigrams per user of a
    :class:`dpcore.text.TokenCorpus` — what a per-user item cap
    (BayesianDP strict's L, DPNE's Δ0 in items) is compared with by the "cap-above-median" rule."""
    import scipy.sparse as sp

    from ..text.ngrams import TokenCorpus

    if isinstance(user_counts, TokenCorpus):  # distinct unigrams per user (DPNE's Δ0 at k = 1)
        users, _, _ = user_counts.unigram_pairs
        return np.bincount(np.asarray(users, dtype=np.int64), minlength=user_counts.n_users).astype(int)
    if not sp.issparse(user_counts):
        raise TypeError(f"user_counts must be a scipy.sparse matrix, got {type(user_counts).__name__}")
    m = sp.csr_matrix(user_counts)
    m.eliminate_zeros()
    return np.diff(m.indptr).astype(int)


def custom_review(
    guarantee: Guarantee, *, noise=(), budget: BudgetStatement | None = None, **warning_settings
) -> Review:
    """A :class:`Review` for a release that is not a dpcore release object (e.g. a lecture demo): the guarantee,
    the noise statements, the budget and :func:`review_warnings` of ``warning_settings``."""
    if not isinstance(guarantee, Guarantee):
        raise TypeError(f"guarantee must be a Guarantee, got {type(guarantee).__name__}")
    noise = (noise,) if isinstance(noise, NoiseStatement) else tuple(noise)
    return Review(guarantee=guarantee, noise=noise, warnings=review_warnings(**warning_settings), budget=budget)
