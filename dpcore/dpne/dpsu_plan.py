"""The DPSU baselines with the selection apart from the noise (issue 29 item 1; 003 §3.1.2, SPEC §4).

A DPSU release has two kinds of randomness:

* the **selection** — which of a user's items are kept under the contribution limit (a uniform subset, or the most
  frequent with ties at random), and the Policy Gaussian's user order. It does not depend on ε or δ, and it is
  independent of the data (a uniform priority per (user, item) pair, a uniform priority per user);
* the **noise** — one N(0, σ²) per item of the histogram's support, and the threshold ρ; both depend on ε and δ.

:func:`prepare_dpsu` draws the selection once, from its own generator, and builds what does not depend on ε: the
kept pairs and, with the weighted Gaussian policy, the weighted histogram (1/√|U_i| per kept item) over its support.
:meth:`DpsuPlan.release` then draws only the noise, from another generator, and thresholds: one release per
(ε, δ) in microseconds where the one-shot :func:`dpcore.dpne.dpsu_all` redraws ~10⁷ selection uniforms.

**Privacy argument.** Fix any selection randomness r that is independent of the data (the plan's generator is
seeded by the caller's seed and the selection's parameters only, never by the corpus). Given r, the selection is
a deterministic map from a user's items to at most Δ kept items, and the user adds 1/√|U_i| to each (weighted
Gaussian: ℓ2 norm exactly 1) or an ℓ2 step ≤ 1 (Policy Gaussian, which is ℓ2-contractive given the order). So for
every fixed r the histogram has ℓ2 sensitivity ≤ 1 per user, and Gaussian noise σ(ε, δ/2) with the threshold ρ of
003 Thm 2.1 / Gopi et al. 2020 gives an (ε, δ)-DP release *conditionally on r*. A mechanism that is (ε, δ)-DP for
every value of data-independent randomness is (ε, δ)-DP (average the two conditional inequalities over r), and
several releases that share r and draw independent noise are, given r, an adaptive composition of (εᵢ, δᵢ)-DP
mechanisms — so they compose exactly as releases with independent selections do. What must never be shared across
releases is the noise: :class:`dpcore.specs.DpneSpec` salts the noise with every parameter and the selection with
what the selection depends on (the variant, T, Δ0, the rule and the policy).

**Same distribution.** For one release, the selection is drawn from the same law (i.i.d. uniforms per pair of a user
over the limit, ranked per user by :func:`dpcore._ranking.ranked_drops`) and the noise from the same law (i.i.d.
standard normals per supported item), independently of each other, exactly as in the one-shot functions, which
draw both from one generator: the released set has the same distribution. tests/test_dpsu_plan.py checks it with
a two-sample test on the per-k-gram release frequencies over many seeds, and checks that the test detects a
release whose noise is 20 % too small.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..mechanisms.gaussian import gaussian_sigma
from ..mechanisms.noise import gaussian_noise
from ..validation import check_choice, check_delta, check_epsilon, check_int, check_rng
from ..text.ngrams import MAX_NGRAM_LENGTH, NgramIndex
from .accounting import (
    DPSU_POLICIES,
    SELECTION_RULES,
    check_contribution_limit,
    dpne_guarantee,
    dpsu_threshold,
    dpsu_threshold_for_sigma,
)
from .baselines import _as_index, _check_policy_cutoff
from .results import DpsuBaselineRelease, _released_sets
from .selection import _kept_pairs, _policy_gaussian_histogram, _weighted_levels_histogram

__all__ = ["DPSU_VARIANTS", "DpsuPlan", "prepare_dpsu"]

DPSU_VARIANTS = ("DPSU-all", "DPSU-even", "DPSU-single")


@dataclass(frozen=True, eq=False)
class _Part:
    """One DPSU universe: its lengths, their item offsets, and what the selection kept. Weighted Gaussian: the
    support (items with weight > 0) and its weights. Policy Gaussian: the kept (user, item) pairs and the users'
    order (the histogram depends on the cutoff Γ = ρ + α·σ, hence on ε)."""

    lengths: tuple
    offsets: np.ndarray
    n_items: int
    support: np.ndarray | None = field(default=None, repr=False)
    weights: np.ndarray | None = field(default=None, repr=False)
    users: np.ndarray | None = field(default=None, repr=False)
    items: np.ndarray | None = field(default=None, repr=False)
    order: np.ndarray | None = field(default=None, repr=False)


@dataclass(frozen=True, eq=False)
class DpsuPlan:
    """The ε-free part of one DPSU baseline (:func:`prepare_dpsu`); :meth:`release` adds noise and thresholds.

    Evaluation only: it holds private weighted counts (the histogram before noise). Never publish it.
    """

    variant: str
    max_length: int
    contribution_limit: int
    selection: str
    policy: str
    parts: tuple = field(repr=False)
    index: NgramIndex = field(repr=False)

    def scales(self, epsilon, delta, policy_cutoff=2.0) -> tuple[float, float]:
        """(σ, ρ) of every part of this variant at (ε, δ) (the one-shot functions' formulas)."""
        epsilon, delta = check_epsilon(epsilon=epsilon), check_delta(delta=delta)
        T, limit = self.max_length, self.contribution_limit
        if self.variant == "DPSU-single":
            return dpsu_threshold(epsilon=epsilon, delta=delta, contribution_limit=limit)
        sigma = gaussian_sigma(epsilon=epsilon, delta=delta / 2.0, method="analytic")
        if self.variant == "DPSU-all":
            return sigma, dpsu_threshold_for_sigma(sigma=sigma, delta=delta, contribution_limit=T * limit)
        sigma_k = sigma * math.sqrt(T)  # DPSU-even: T Gaussian parts composing to σ, δ/T per threshold
        return sigma_k, dpsu_threshold_for_sigma(sigma=sigma_k, delta=delta / T, contribution_limit=limit)

    def noisy(self, epsilon, delta, *, rng, policy_cutoff=2.0) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per part: (support item ids, weight + σ·Z over the support), Z ~ N(0, 1) i.i.d. from ``rng`` (the noise).
        Evaluation only (the noisy weights are not released; the release is the set above ρ)."""
        rng = check_rng(rng)
        alpha = _check_policy_cutoff(policy_cutoff)
        sigma, rho = self.scales(epsilon, delta)
        out = []
        for part in self.parts:
            if part.support is not None:
                supp, w = part.support, part.weights
            else:
                hist = _policy_gaussian_histogram(
                    part.users, part.items, part.n_items, rho + alpha * sigma, None, priority=part.order
                )
                supp = np.flatnonzero(hist > 0)
                w = hist[supp]
            out.append((supp, w + gaussian_noise(sigma=sigma, size=supp.size, rng=rng)))
        return out

    def release(self, *, epsilon, delta, rng, policy_cutoff=2.0) -> DpsuBaselineRelease:
        """The variant's release at (ε, δ): the noise drawn from ``rng`` (salt it with every parameter), the
        selection the plan's. Same distribution as the one-shot ``dpsu_all`` / ``dpsu_even`` / ``dpsu_single``."""
        sigma, rho = self.scales(epsilon, delta)
        ids = {}
        for part, (supp, noisy) in zip(self.parts, self.noisy(epsilon, delta, rng=rng, policy_cutoff=policy_cutoff)):
            released = supp[noisy > rho]
            for j, k in enumerate(part.lengths):
                lo, hi = int(part.offsets[j]), int(part.offsets[j + 1])
                ids[k] = self.index.level(k).rows(released[(released >= lo) & (released < hi)] - lo)
        single = self.variant == "DPSU-single"
        limit = self.contribution_limit * (self.max_length if self.variant == "DPSU-all" else 1)
        return DpsuBaselineRelease(
            name=self.variant,
            ngrams=_released_sets(self.index.corpus.vocabulary, ids),
            sigmas={k: sigma for k in ids},
            thresholds={k: rho for k in ids},
            contribution_limit=limit,
            guarantee=dpne_guarantee(epsilon=float(epsilon), delta=float(delta), single_length=single),
        )


def prepare_dpsu(
    users, *, variant, max_length, contribution_limit, rng, selection="random", policy="weighted"
) -> DpsuPlan:
    """Draw one DPSU baseline's selection from ``rng`` (salt it with what the selection depends on: the variant,
    T, Δ0, the rule, the policy — never ε or δ) and build what does not depend on ε (module docstring).

    ``variant``: "DPSU-all" (one universe of all lengths ≤ T, limit T·Δ0), "DPSU-even" or "DPSU-single" (one
    universe per length, limit Δ0 each). ``users``: a corpus, a TokenCorpus or an NgramIndex (built to ≥ T).
    """
    check_choice("variant", variant, DPSU_VARIANTS)
    T = check_int("max_length", max_length, low=1, high=MAX_NGRAM_LENGTH)
    limit = check_contribution_limit(contribution_limit)
    check_choice("selection", selection, SELECTION_RULES)
    check_choice("policy", policy, DPSU_POLICIES)
    rng = check_rng(rng)
    index = _as_index(users, T)
    n_users = index.corpus.n_users
    levels = [index.level(k) for k in range(1, T + 1)]
    groups = [tuple(range(1, T + 1))] if variant == "DPSU-all" else [(k,) for k in range(1, T + 1)]
    part_limit = T * limit if variant == "DPSU-all" else limit
    parts = []
    for lengths in groups:
        levs = [levels[k - 1] for k in lengths]
        offsets = np.cumsum([0] + [lev.n_grams for lev in levs])
        n_items = int(offsets[-1])
        if policy == "weighted":
            hist, _ = _weighted_levels_histogram(levs, n_users, limit=part_limit, selection=selection, rng=rng)
            support = np.flatnonzero(hist > 0)
            parts.append(_Part(lengths, offsets, n_items, support=support, weights=hist[support]))
            continue
        pu = np.concatenate([lev.pair_user for lev in levs]).astype(np.int64)
        pi = np.concatenate([lev.pair_gram.astype(np.int64) + offsets[j] for j, lev in enumerate(levs)])
        pc = np.concatenate([lev.pair_count for lev in levs])
        users_k, items_k, _ = _kept_pairs(pu, pi, pc, part_limit, selection, rng)
        parts.append(_Part(lengths, offsets, n_items, users=users_k, items=items_k, order=rng.random(max(n_users, 1))))
    return DpsuPlan(variant, T, limit, selection, policy, tuple(parts), index)
