"""DPNE's parameter checks and its length-1 selection before noise (issue 29 item 1; 003 Algorithm 1, SPEC §4).

Length 1 of DPNE is one DPSU over tokens. With the weighted Gaussian policy its histogram — each user's kept Δ0
tokens (priorities keyed by the *selection* seed, :func:`dpcore.dpne.dpne_selection_seed`), 1/√kept each — does not
depend on ε, δ, T, c, the pruning rule or η: :func:`prepare_dpne_unigram` computes it once, and
``prepare_dpne(..., unigram=…)`` adds only the keyed noise and the threshold ρ₁. Same release, bit for bit, as
``prepare_dpne(..., selection_rng=<the same generator>)`` without it (tested). Evaluation only: the histogram is a
private weighted count, never publish it. The privacy argument (any data-independent selection gives each user an
ℓ2 norm ≤ 1) is in :mod:`dpcore.dpne.dpsu_plan` and docs/SPEC_dpne_selection.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import UserError
from ..mechanisms.keyed import fold_keys
from ..text.ngrams import MAX_NGRAM_LENGTH, TokenCorpus, group_by_user
from ..validation import check_choice, check_delta, check_epsilon, check_int, check_real
from .accounting import (
    DPSU_POLICIES,
    PRUNING_RULES,
    SELECTION_RULES,
    _check_noise_decay,
    check_contribution_limit,
)
from .baselines import _check_policy_cutoff
from .selection import _keyed_seed, _shard_histogram, dpne_selection_seed
from .shards import _shard_bounds
from .space import _as_token_corpus

__all__ = ["DpneUnigram", "prepare_dpne_unigram"]


@dataclass(frozen=True, eq=False)
class DpneUnigram:
    """Length 1 of a DPNE run before noise (weighted Gaussian): the token corpus it was computed on, Δ0, the rule,
    the selection seed and the weighted histogram over token ids. Evaluation only."""

    tc: TokenCorpus = field(repr=False)
    contribution_limit: int
    selection: str
    select_seed: int = field(repr=False)
    histogram: np.ndarray = field(repr=False)


def prepare_dpne_unigram(users, *, contribution_limit, selection="random", rng) -> DpneUnigram:
    """Length 1's weighted histogram, from the selection generator ``rng`` (an int seed or a Generator: salt it with
    what the selection depends on, never with ε). Pass it to ``prepare_dpne(..., unigram=…)`` with the same users
    (the same TokenCorpus object), Δ0 and rule, and the weighted Gaussian policy."""
    limit = check_contribution_limit(contribution_limit)
    check_choice("selection", selection, SELECTION_RULES)
    tc = _as_token_corpus(users)
    select_seed = dpne_selection_seed(_keyed_seed(rng), contribution_limit=limit, selection=selection)
    return DpneUnigram(tc, limit, selection, select_seed, _unigram_histogram(tc, limit, selection, select_seed))


def _unigram_histogram(tc, limit, selection, select_seed, shard=None) -> np.ndarray:
    """Σ over users of 1/√kept on each kept token (priorities keyed by ``select_seed`` at k = 1), users taken in
    shards of about ``shard`` positions when the corpus is larger (bounded working memory; the keyed draws make
    the sum independent of the cut)."""
    V, key1, user_key = tc.vocabulary_size, fold_keys(None, tc.token_key_array), tc.user_key_array
    kw = dict(limit=limit, selection=selection, seed=select_seed, k=1, item_keys=key1, user_keys=user_key)
    if shard is None or tc.n_tokens <= shard:
        pu, pi, pc = tc.unigram_pairs
        return _shard_histogram(pu, pi, pc, V, **kw)
    hist = np.zeros(V)
    user_start = np.searchsorted(tc.user_of, np.arange(tc.n_users + 1))
    for s0, s1 in _shard_bounds(None, tc, user_start, shard):
        pu, pi, pc, ik, _ = group_by_user(tc.user_of[s0:s1], tc.tokens[s0:s1], V, need_positions=False)
        hist += _shard_histogram(pu, ik[pi], pc, V, **kw)
    return hist


def _check_unigram(unigram, tc, limit, selection, policy, selection_key) -> DpneUnigram:
    if not isinstance(unigram, DpneUnigram):
        raise TypeError(f"unigram must be a DpneUnigram (prepare_dpne_unigram), got {type(unigram).__name__}")
    if unigram.tc is not tc:
        raise UserError("unigram must be computed on the same users (the same TokenCorpus object) as this run")
    if (unigram.contribution_limit, unigram.selection) != (limit, selection):
        raise UserError(
            f"unigram must have this run's contribution_limit and selection, got contribution_limit="
            f"{unigram.contribution_limit}, selection={unigram.selection!r} for {limit}, {selection!r}"
        )
    if policy != "weighted" or selection_key != "selection":
        raise UserError(
            "unigram needs policy='weighted' and selection_key='selection' (the Policy Gaussian's length-1 "
            f"histogram depends on ε), got policy={policy!r}, selection_key={selection_key!r}"
        )
    return unigram


_NO_ETA = object()  # prepare_dpne has no η; dpne(eta=None) must still be refused by name (issue 21 item 8)


def _check_dpne(
    epsilon,
    delta,
    max_length,
    contribution_limit,
    noise_decay,
    pruning,
    selection,
    policy,
    policy_cutoff,
    *,
    eta=_NO_ETA,
) -> tuple:
    """The validated arguments, checked in the order of the signature (η last in the tuple when given)."""
    epsilon = check_epsilon(epsilon=epsilon)
    delta = check_delta(delta=delta)
    max_length = check_int("max_length", max_length, low=1, high=MAX_NGRAM_LENGTH)
    limit = check_contribution_limit(contribution_limit)
    with_eta = eta is not _NO_ETA
    if with_eta:
        eta = _check_eta(eta)
    noise_decay = _check_noise_decay(noise_decay)
    check_choice("pruning", pruning, PRUNING_RULES)
    check_choice("selection", selection, SELECTION_RULES)
    check_choice("policy", policy, DPSU_POLICIES)
    policy_cutoff = _check_policy_cutoff(policy_cutoff)
    out = (epsilon, delta, max_length, limit, noise_decay, pruning, selection, policy, policy_cutoff)
    return out + (eta,) if with_eta else out


SELECTION_KEYS = ("selection", "release")
"""What keys DPNE's selection draws: its own seed (default) or the noise's (DpneSpec version 1)."""


def _check_selection_key(selection_key) -> str:
    return check_choice("selection_key", selection_key, SELECTION_KEYS)


def _check_eta(eta) -> float:
    return check_real("eta", eta, low=0.0, high=1.0, high_inclusive=False)
