"""000 §5's evaluations beside the KL experiments: trigram perplexity on held-out text and a membership
inference attack (an empirical lower bound on ε, with the privacy audit's statistics).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast
import numpy as np
from .statistics import bayesian_statistics, check_count_matrix
from .release import bayesian_guarantee
from ..audit.core import audit_scores  # one implementation with the privacy audit
from .baselines import (
    PRIVATE_BASELINE_GUARANTEE,
    PUBLIC_BASELINE_GUARANTEE,
    cap_user_totals,
    k_anonymity_release,
    laplace_guarantee,
    normalise_clipped,
    prepare_laplace,
    prepare_laplace_public,
    public_baseline,
)
from ..text.corpus import Corpus
from ..mechanisms.noise import laplace_noise
from ..metrics import KL_SMOOTHING, kl_divergence
from ..text.counts import NgramCounts, ngram_counts
from ..validation import check_epsilon, check_int, check_real, check_rng
from .experiments import BAYESIAN, ExperimentTable, LAPLACE, LAPLACE_PUBLIC, PRIVATE, PUBLIC, _check_common, _epsilons
from .experiments import K_ANONYMITY
from ..errors import UserError

__all__ = [
    "PerplexitySetup",
    "perplexity_setup",
    "perplexity_table",
    "trigram_perplexity",
    "membership_inference",
    "empirical_epsilon_lower_bound",
]


# ----------------------------------------------------------------------------------------------
# perplexity (000 §4.6, Table 1)


@dataclass(frozen=True, eq=False)
class PerplexitySetup:
    """Trigram counts of the training users and the held-out trigrams (column ids) to score.

    ``heldout`` holds the V-ids of every trigram of the held-out sentences whose trigrams are all
    in V (no back-off needed, 000 §4.6); ``prefix`` maps each V column to the id of its (w1, w2).
    """

    counts: NgramCounts
    heldout: np.ndarray
    prefix: np.ndarray
    n_heldout_sentences: int
    n_heldout_users: int


def perplexity_setup(private: Corpus, public: Corpus, *, heldout_share=0.1, rng=0) -> PerplexitySetup:
    """Split the private users (seeded) into training and held-out users; count trigrams of the
    training users over the public trigram vocabulary; keep held-out sentences fully covered by V."""
    heldout_share = check_real("heldout_share", heldout_share, low=0.0, high=1.0, high_inclusive=False)
    rng = check_rng(rng)
    if private.n_users < 2:
        raise UserError(f"perplexity needs at least 2 private users, got {private.n_users}")
    perm = rng.permutation(private.n_users)
    n_held = min(max(int(round(heldout_share * private.n_users)), 1), private.n_users - 1)
    held, train = np.sort(perm[:n_held]), np.sort(perm[n_held:])
    counts = ngram_counts(private.subset(train), public, n=3)
    index = counts.index
    ids: list[int] = []
    n_sent = 0
    for u in held:
        for doc in private.users[u]:
            for s in doc.sentences:
                if len(s) < 3:
                    continue
                g = [index.get(t) for t in zip(s, s[1:], s[2:])]
                if all(j is not None for j in g):
                    ids.extend(cast(list[int], g))  # every trigram found (checked above)
                    n_sent += 1
    prefixes: dict = {}
    prefix = np.fromiter(
        (prefixes.setdefault(t[:2], len(prefixes)) for t in counts.vocabulary),
        dtype=np.int64,
        count=counts.vocabulary_size,
    )
    return PerplexitySetup(
        counts=counts,
        heldout=np.asarray(ids, dtype=np.int64),
        prefix=prefix,
        n_heldout_sentences=n_sent,
        n_heldout_users=len(held),
    )


def trigram_perplexity(theta, setup: PerplexitySetup, *, smoothing=KL_SMOOTHING) -> float:
    """Word perplexity of the held-out trigrams under P(w3|w1,w2) = θ(w1w2w3)/Σ_w θ(w1w2w).

    θ is mixed with the uniform distribution at λ (the KL rule) so an unseen trigram costs a large
    but finite amount."""
    if setup.heldout.size == 0:
        raise UserError("no held-out sentence has all its trigrams in the public vocabulary; use a larger corpus")
    th = normalise_clipped(np.asarray(theta, dtype=float))
    th = (1.0 - smoothing) * th + smoothing / th.size
    denom = np.bincount(setup.prefix, weights=th)
    logp = np.log(th[setup.heldout]) - np.log(denom[setup.prefix[setup.heldout]])
    return float(math.exp(-logp.mean()))


def perplexity_table(
    setup: PerplexitySetup,
    *,
    epsilon=1.0,
    delta=1e-5,
    S=1e-3,
    C=1,
    rho=0.3,
    W=2,
    K=10,
    repetitions=5,
    rng=0,
    calibration="classic",
) -> ExperimentTable:
    """000 Table 1: word perplexity per mechanism (mean over ``repetitions`` for the noisy ones)."""
    epsilon = check_epsilon(epsilon=epsilon)
    delta, S, C, rho, W, repetitions = _check_common(delta, S, C, rho, W, repetitions, calibration)
    rng = check_rng(rng)
    c = setup.counts
    rows = []
    priv = normalise_clipped(c.total_counts())
    rows.append((PRIVATE, trigram_perplexity(priv, setup), PRIVATE_BASELINE_GUARANTEE.label))
    ka = k_anonymity_release(c.user_counts, c.public_counts, K=K)
    rows.append((f"{K_ANONYMITY} (K = {K})", trigram_perplexity(ka.theta, setup), ka.guarantee.label))
    prep = bayesian_statistics(c.user_counts, c.public_counts, C=C).prepare(S=S, rho=rho)
    th = prep.sample_theta(epsilon=epsilon, delta=delta, rng=rng, repetitions=repetitions, calibration=calibration)
    rows.append(
        (
            BAYESIAN,
            float(np.mean([trigram_perplexity(t, setup) for t in th])),
            bayesian_guarantee(
                epsilon=epsilon, delta=delta, sensitivity_method=prep.sensitivity_method, calibration=calibration
            ).label,
        )
    )
    for name, make in (
        (LAPLACE_PUBLIC, lambda: prepare_laplace_public(c.user_counts, c.public_counts, W=W, rng=rng)),
        (LAPLACE, lambda: prepare_laplace(c.user_counts, W=W, rng=rng)),
    ):
        vals = [trigram_perplexity(make().sample_theta(epsilon=epsilon, rng=rng)[0], setup) for _ in range(repetitions)]
        rows.append((name, float(np.mean(vals)), laplace_guarantee(name, epsilon=epsilon, W=W).label))
    rows.append((PUBLIC, trigram_perplexity(public_baseline(c.public_counts), setup), PUBLIC_BASELINE_GUARANTEE.label))
    return ExperimentTable.from_rows(rows, columns=["mechanism", "perplexity", "guarantee"])


# ----------------------------------------------------------------------------------------------
# membership inference (000 §5)


def empirical_epsilon_lower_bound(fpr_upper: float, fnr_upper: float, *, delta: float) -> float:
    """ε ≥ max{ln((1−δ−FPR)/FNR), ln((1−δ−FNR)/FPR), 0} (SPEC §3), from upper bounds on the rates."""
    out = 0.0
    for a, b in ((fpr_upper, fnr_upper), (fnr_upper, fpr_upper)):
        num = 1.0 - delta - a
        if num > 0 and b > 0:
            out = max(out, math.log(num / b))
    return out


def membership_attack(s_in, s_out, *, delta, confidence=0.95) -> dict:
    """The ε lower bound of a membership attack from its scores on D (``s_in``) and D₋ᵤ (``s_out``).

    One implementation with the privacy audit (:func:`dpcore.audit.audit_scores`): the event
    {score ≥ τ} or {score ≤ τ}, in either ordering, is chosen on the first half of the trials by its
    Clopper–Pearson bound (not by the point estimate, which picks a tail where a pilot error rate is 0
    and leaves the evaluation half nothing to bound — issue 15, item 4), and measured on the second
    half. Read as a test ("member" = the event when it is more likely on D, its complement otherwise),
    FNR = Pr[not flagged | D] and FPR = Pr[flagged | D₋ᵤ], and the bound equals
    ln((1 − δ − FPR⁺)/FNR⁺) or ln((1 − δ − FNR⁺)/FPR⁺) for that one pre-chosen test; the rate bounds
    are each at level 1 − (1 − confidence)/2 so that both hold together at ``confidence``.
    """
    r = audit_scores(s_in, s_out, delta=delta, confidence=confidence)
    n = r.n_eval
    lo_d, hi_d = r.interval_d
    lo_dp, hi_dp = r.interval_d_prime
    if r.event.numerator == "D":  # flagged = in the event
        fn, fp = n - r.count_d, r.count_d_prime
        fnr_u, fpr_u = 1.0 - lo_d, hi_dp
    else:  # flagged = outside the event
        fn, fp = r.count_d, n - r.count_d_prime
        fnr_u, fpr_u = hi_d, 1.0 - lo_dp
    return {
        "threshold": r.event.threshold,
        "event": r.event.describe(),
        "fnr": fn / n,
        "fpr": fp / n,
        "fnr_upper": fnr_u,
        "fpr_upper": fpr_u,
        "epsilon_lower_bound": r.epsilon_lower,
        # every threshold of the same score on the evaluation half, "member" = D (the chosen test is one point)
        **dict(zip(("roc_fpr", "roc_tpr"), r.roc(positive="D"))),
    }


def membership_inference(
    counts: NgramCounts,
    *,
    epsilons,
    delta=1e-5,
    S=1e-3,
    C=1,
    rho=0.3,
    W=2,
    trials=200,
    rng=0,
    calibration="classic",
    mechanisms=(BAYESIAN, LAPLACE),
    pool=16,
    confidence=0.95,
) -> ExperimentTable:
    """000 §5 / Fig. 6: membership inference on the user u with the largest total count.

    For each ε and mechanism, ``trials`` times: θ ~ M(D) and θ' ~ M(D₋ᵤ) (each mechanism run
    honestly on each dataset, its sensitivity included); success when KL(p_u‖θ) < KL(p_u‖θ').
    The empirical ε lower bound (:func:`membership_attack`, the audit's code) treats a threshold on
    KL(p_u‖·) as a test: the test is chosen by its Clopper–Pearson bound on the first half of the
    trials, FPR = P(θ' flagged) and FNR = P(θ not flagged) are measured on the second half, and
    ε ≥ max{ln((1−δ−FPR⁺)/FNR⁺) or ln((1−δ−FNR⁺)/FPR⁺), 0} for the chosen test; ``roc_fpr``/``roc_tpr`` hold
    the ROC of every threshold of the same score on the evaluation half (issue 32: drawn on the bound's axes). For Laplace the W-subsamples of the other users are drawn from a pool of
    ``pool`` draws per world (u's own subsample is fresh each trial) to keep the cost down.
    """
    eps = _epsilons(epsilons)
    delta, S, C, rho, W, _ = _check_common(delta, S, C, rho, W, 1, calibration)
    trials = check_int("trials", trials, low=10)
    rng = check_rng(rng)
    m = check_count_matrix(counts.user_counts)
    totals = np.asarray(m.sum(axis=1)).ravel()
    u = int(np.argmax(totals))
    keep = np.ones(m.shape[0], dtype=bool)
    keep[u] = False
    m_out = m[keep]
    pu = np.asarray(m[u].toarray()).ravel()
    pu = pu / pu.sum()
    alpha = counts.public_counts
    rows = []

    def attack(s_in, s_out, mech, e):
        success = float(np.mean(s_in < s_out))
        rows.append(
            {
                "mechanism": mech,
                "epsilon": e,
                "success_rate": success,
                "trials": trials,
                **membership_attack(s_in, s_out, delta=delta, confidence=confidence),
            }
        )

    if BAYESIAN in mechanisms:
        p_in = bayesian_statistics(m, alpha, C=C).prepare(S=S, rho=rho)
        p_out = bayesian_statistics(m_out, alpha, C=C).prepare(S=S, rho=rho)
        for e in eps:
            s_in = kl_divergence(
                pu, p_in.sample_theta(epsilon=e, delta=delta, rng=rng, repetitions=trials, calibration=calibration)
            )
            s_out = kl_divergence(
                pu, p_out.sample_theta(epsilon=e, delta=delta, rng=rng, repetitions=trials, calibration=calibration)
            )
            attack(np.asarray(s_in), np.asarray(s_out), BAYESIAN, e)
    if LAPLACE in mechanisms:
        others = [np.asarray(cap_user_totals(m_out, W=W, rng=rng).sum(axis=0)).ravel() for _ in range(pool)]
        others_out = [np.asarray(cap_user_totals(m_out, W=W, rng=rng).sum(axis=0)).ravel() for _ in range(pool)]
        mu = m[u]
        for e in eps:
            b = W / e
            s_in, s_out = np.empty(trials), np.empty(trials)
            for t in range(trials):
                own = np.asarray(cap_user_totals(mu, W=W, rng=rng).toarray()).ravel()
                x_in = others[rng.integers(pool)] + own + laplace_noise(scale=b, size=own.size, rng=rng)
                x_out = others_out[rng.integers(pool)] + laplace_noise(scale=b, size=own.size, rng=rng)
                s_in[t] = kl_divergence(pu, normalise_clipped(x_in))
                s_out[t] = kl_divergence(pu, normalise_clipped(x_out))
            attack(s_in, s_out, LAPLACE, e)
    return ExperimentTable.from_rows(rows)
