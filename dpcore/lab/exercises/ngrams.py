"""Exercises for DP n-gram extraction (paper 003, DPSU and DPNE; SPEC §4).

What the page teaches: one (ε, δ/2) Gaussian budget split over lengths (σ_k), the DPSU threshold ρ₁
that a 1-gram's weight must beat, the thresholds ρ_k set by η, and why the DPSU-single baseline is T
separate releases. Answers go through dpne_noise_scales, dpsu_threshold_for_sigma, spurious_threshold
(the functions dpne() itself calls) and sequential_composition; the shared-4-gram exercise reads the
4-gram and its users from the corpus the settings name.

On real text (issue 20; ``corpus: "chat"``, the real chat's 920 private people): why DPNE finds 4-grams there
while DPSU-single finds none (dpcore.dpne, pruning_chain and text_profile decide which explanation the numbers
support), and what ε DPSU-single would need for the chat's most shared 4-gram (dpsu_threshold).
"""

from __future__ import annotations

import importlib
import math

import numpy as np
from scipy.optimize import brentq

from ...errors import UserError
from . import _data
from ._base import CHOICE, Exercise, Solution

# modules, looked up at call time (a test swaps a function and sees the answer change)
_composition = importlib.import_module("dpcore.mechanisms.composition")
_dpne_accounting = importlib.import_module("dpcore.dpne.accounting")
_dpne_evaluation = importlib.import_module("dpcore.dpne.evaluation")
_dpne_release = importlib.import_module("dpcore.dpne.release")
_gaussian = importlib.import_module("dpcore.mechanisms.gaussian")
_paper = importlib.import_module("dpcore.lab.paper_dpne")
_profile = importlib.import_module("dpcore.text.profile")

PAGE = "3_DP_ngram_extraction"
SHARED_RANK = 200
"""The 4-gram of the shared-4-gram exercise: the SHARED_RANK-th most shared 4-gram of the corpus."""


def _sigmas(s, epsilon=None):
    return _dpne_accounting.dpne_noise_scales(
        epsilon=float(s["epsilon"]) if epsilon is None else epsilon,
        delta=float(s["delta"]),
        max_length=int(s["max_length"]),
        noise_decay=float(s["noise_decay"]),
    )


def _sigma_per_length(s) -> Solution:
    sigma, sigmas = _sigmas(s)
    return Solution(
        float(sigmas[0]),
        {
            "eps": float(s["epsilon"]),
            "delta": float(s["delta"]),
            "T": int(s["max_length"]),
            "sigma": sigma,
            "sqrtT": math.sqrt(int(s["max_length"])),
        },
    )


def _users_for_rho1(s) -> Solution:
    sigma, sigmas = _sigmas(s)
    limit = int(s["contribution_limit"])
    rho1 = _dpne_accounting.dpsu_threshold_for_sigma(sigma=sigmas[0], delta=float(s["delta"]), contribution_limit=limit)
    users = math.ceil(rho1 * math.sqrt(limit) - 1e-12)
    return Solution(
        users,
        {
            "eps": float(s["epsilon"]),
            "delta": float(s["delta"]),
            "limit": limit,
            "rho1": rho1,
            "sigma1": float(sigmas[0]),
            "per_user": 1 / math.sqrt(limit),
        },
    )


def _shared_4gram(s) -> Solution:
    """Smallest ε at which the SHARED_RANK-th most shared 4-gram passes ρ₄ with probability ≥ 1/2."""
    k = 4
    limit = int(s["contribution_limit"])
    eta = float(s["eta"])
    if int(s["max_length"]) < k:
        raise UserError(f"max_length must be at least {k} for a 4-gram exercise, got max_length={s['max_length']}")
    index = _data.ngram_index(s, k)
    level = index.level(k)
    order = np.lexsort((np.arange(level.n_grams), -level.user_counts))
    gram = int(order[min(SHARED_RANK, level.n_grams) - 1])
    users = level.pair_user[level.pair_gram == gram]
    held = np.bincount(level.pair_user, minlength=index.corpus.n_users)[users]
    weight = float(np.sum(1.0 / np.sqrt(np.minimum(limit, held))))
    z = _dpne_accounting.spurious_threshold(1.0, eta, 1, 1)  # ρ_k/σ_k when |S_{k−1}| ≥ |V_k|

    def margin(e: float) -> float:  # weight − ρ_4(ε); increasing in ε
        return weight - float(_sigmas(s, epsilon=e)[1][k - 1]) * z

    eps_star = brentq(margin, 1e-4, 1e3, xtol=1e-8)
    words = " ".join(index.corpus.vocabulary[level.rows([gram])[0]].tolist())
    return Solution(
        eps_star,
        {
            "gram": words,
            "users": int(users.size),
            "weight": weight,
            "limit": limit,
            "eta": eta,
            "z": z,
            "sigma4": weight / z,
            "T": int(s["max_length"]),
            "delta": float(s["delta"]),
            "rank": SHARED_RANK,
        },
    )


def _threshold_in_sigmas(s) -> Solution:
    eta = float(s["eta"])
    z = _dpne_accounting.spurious_threshold(1.0, eta, 1, 1)
    return Solution(z, {"eta": eta, "one_minus": 1 - eta})


def _dpsu_single_bars(s) -> Solution:
    eps, delta, T = float(s["epsilon"]), float(s["delta"]), int(s["max_length"])
    together = _composition.sequential_composition([eps] * T, [delta] * T)
    parallel = _composition.parallel_composition([eps] * T, [delta] * T)
    # Each length is a separate DPSU run on the *same* users' text: the runs compose sequentially.
    options = (
        f"Each bar is its own ({eps:g}, {delta:g})-DP release on the same users; all {T} bars together cost "
        f"({together[0]:g}, {together[1]:g}) by sequential composition, not the ({eps:g}, {delta:g}) of one DPNE run.",
        f"Each length holds different users, so the bars add up and together still cost ({parallel[0]:g}, "
        f"{parallel[1]:g}) by parallel composition.",
        "DPSU-single adds Laplace noise to counts, and noisy counts of different lengths cannot be summed.",
        "The bars can be added: DPSU-single is DPNE without pruning.",
    )
    budgets = [together, parallel, None, (eps, delta)]
    index = budgets.index(together)
    return Solution(
        index, {"eps": eps, "delta": delta, "T": T, "eps_total": together[0], "delta_total": together[1]}, options
    )


def _decay_ratio(s) -> Solution:
    sigma, sigmas = _sigmas(s)
    T = int(s["max_length"])
    return Solution(
        float(sigmas[-1] / sigmas[0]),
        {"c": float(s["noise_decay"]), "T": T, "sigma1": float(sigmas[0]), "sigmaT": float(sigmas[-1]), "power": T - 1},
    )


def _users_equivalent(s) -> Solution:
    eps, delta = float(s["epsilon"]), float(s["delta"])
    n, N = SCALE_USERS
    sigma = _gaussian.gaussian_sigma(epsilon=eps, delta=delta / 2, method="analytic")
    return Solution(
        _paper.users_equivalent_epsilon(epsilon=eps, delta=delta, n_users=n, paper_users=N),
        {"eps": eps, "delta": delta, "n": n, "N": N, "m": N / n, "sigma": sigma, "target": sigma * n / N},
    )


_CHAT = {
    "corpus": "chat",
    "epsilon": 4.0,
    "delta": 1e-6,
    "max_length": 6,
    "noise_decay": 1.0,
    "contribution_limit": 50,
    "eta": 0.01,
}
"""The DP n-gram extraction page's opening view on the real chat (ε = 4, δ = 1e-6; dpui.dpne.data.PAGE_DEFAULTS)."""
CHAT_K, CHAT_LENGTH = 10, 4
"""The real-text exercises look at 4-grams used by at least 10 people."""


def _chat_why(s) -> Solution:
    """Which explanation the measured numbers support: one DPNE run (seed 0) at the settings, its pruning chain at
    k = 4 (K = 10), the text profile, and the noise scales. Exactly one option must hold, else the data changed."""
    k, K, limit = CHAT_LENGTH, CHAT_K, int(s["contribution_limit"])
    eps, delta, T = float(s["epsilon"]), float(s["delta"]), int(s["max_length"])
    index = _data.ngram_index(s, T)
    release = _dpne_release.dpne_extract(
        index,
        epsilon=eps,
        delta=delta,
        max_length=T,
        contribution_limit=limit,
        eta=float(s["eta"]),
        noise_decay=float(s["noise_decay"]),
        rng=0,
    )
    row = _dpne_evaluation.pruning_chain(index, release, K=K, lengths=(k,)).rows[0]
    prof = _profile.text_profile(index, max_k=k, ks=(K,))
    _, sigmas = _sigmas(s)
    sigma_single, _ = _dpne_accounting.dpsu_threshold(epsilon=eps, delta=delta, contribution_limit=limit)
    spurious = (index.lookup(index.corpus.encode_rows(sorted(release.ngrams.get(k, ())), k)) < 0).sum()
    n_released = len(release.ngrams.get(k, ()))
    values = {
        "eps": eps,
        "delta": delta,
        "limit": limit,
        "K": K,
        "popular": row["popular"],
        "gain": row["gain"],
        "mean": prof.distinct_mean[k - 1],
        "median": prof.distinct_median[k - 1],
        "kept": prof.kept_share(k, limit),
        "w_single": row["weight_single"],
        "rho_single": row["threshold_single"],
        "w_dpne": row["weight_dpne"],
        "rho_dpne": row["threshold_dpne"],
        "sigma4": float(sigmas[k - 1]),
        "sigma_single": sigma_single,
        "released": n_released,
        "T": T,
    }
    options = (
        f"DPNE's threshold ρ₄ ({row['threshold_dpne']:.3g}) is far below DPSU-single's ({row['threshold_single']:.3g}): "
        "η sets it, not δ.",
        f"Pruning: a person keeps only the 4-grams whose 3-grams DPNE released, so their weight goes to a few shared "
        f"4-grams — {row['gain']:.2g}× more per popular candidate — while DPSU-single spreads it over a random "
        f"Δ0 = {limit} of the {prof.distinct_mean[k - 1]:,.0f} distinct 4-grams a person holds on average.",
        f"DPNE adds less noise at k = 4: σ₄ = {sigmas[k - 1]:.3g} against DPSU-single's σ = {sigma_single:.3g}.",
        "DPNE's 4-grams are mostly spurious: η lets valid 4-grams that nobody wrote through.",
    )
    truth = (
        row["threshold_dpne"] < row["threshold_single"] / 2,
        row["weight_dpne"] > row["threshold_dpne"] > row["weight_single"] * 10 and row["gain"] > 10,
        sigmas[k - 1] < sigma_single,
        n_released > 0 and spurious > n_released / 2,
    )
    if sum(truth) != 1:
        raise UserError(
            f"dpne-chat-why-4grams: {sum(truth)} explanations hold on this data (expected exactly one): "
            f"{dict(zip(range(4), truth))}"
        )
    return Solution(truth.index(True), values, options)


def _chat_single_epsilon(s) -> Solution:
    """Smallest ε at which DPSU-single's threshold for 4-grams falls to the chat's most shared 4-gram's expected weight."""
    k, limit, delta = CHAT_LENGTH, int(s["contribution_limit"]), float(s["delta"])
    index = _data.ngram_index(s, k)
    level = index.level(k)
    gram = int(np.lexsort((np.arange(level.n_grams), -level.user_counts))[0])
    held = np.bincount(level.pair_user, minlength=index.corpus.n_users)
    users = level.pair_user[level.pair_gram == gram]
    # each user keeps it with probability min(1, Δ0/|G_4|) and then adds 1/√min(|G_4|, Δ0)
    weight = float(np.sum(np.minimum(1.0, limit / held[users]) / np.sqrt(np.minimum(held[users], limit))))
    eps_star = brentq(
        lambda e: weight - _dpne_accounting.dpsu_threshold(epsilon=e, delta=delta, contribution_limit=limit)[1],
        1e-3,
        1e4,
        xtol=1e-8,
    )
    words = " ".join(index.corpus.vocabulary[level.rows([gram])[0]].tolist())
    median_held = float(np.median(held[users]))
    return Solution(
        eps_star,
        {
            "gram": words,
            "users": int(users.size),
            "weight": weight,
            "limit": limit,
            "delta": delta,
            "median_held": median_held,
            "rho4": _dpne_accounting.dpsu_threshold(epsilon=4.0, delta=delta, contribution_limit=limit)[1],
        },
    )


SCALE_USERS = (20_000, 100_000)
"""The users-equivalent exercise: a corpus of the first number of users standing in for the second."""

_PAPER = {"epsilon": 4.0, "delta": 1e-7, "max_length": 6, "noise_decay": 1.0}

EXERCISES = (
    Exercise(
        id="dpne-sigma-per-length",
        page=PAGE,
        title="One budget, T lengths",
        settings=_PAPER,
        question=(
            "The paper's setting: ε = {eps:g}, δ = {delta:g}, T = {T} lengths, noise decay c = 1. What is "
            "σ_k, the noise standard deviation at every length k? (The expander *How the budget and the "
            "thresholds are set* lists them.)"
        ),
        solve=_sigma_per_length,
        uses=("dpcore.dpne.accounting:dpne_noise_scales",),
        hints=(
            "First σ for (ε, δ/2) from the analytic Gaussian at sensitivity 1; then split it over T lengths.",
            "Gaussian composition: Σ_k 1/σ_k² = 1/σ². With c = 1 all σ_k are equal.",
        ),
        solution=(
            r"σ for (ε, δ/2) = ({eps:g}, {delta:g}/2) is {sigma:.4f} (analytic Gaussian). With equal σ_k, "
            r"$\sum_k 1/\sigma_k^2 = T/\sigma_k^2 = 1/\sigma^2$ gives $\sigma_k=\sigma\sqrt{{T}}$ = "
            r"{sigma:.4f}·{sqrtT:.4f} = **{answer}**."
        ),
        rel_tol=0.01,
    ),
    Exercise(
        id="dpne-users-for-rho1",
        page=PAGE,
        title="How many users must share a word?",
        settings={"epsilon": 1.0, "delta": 1e-5, "max_length": 1, "noise_decay": 1.0, "contribution_limit": 10},
        question=(
            "ε = {eps:g}, δ = {delta:g}, T = 1 (1-grams only), Δ0 = {limit}. Every user keeps exactly Δ0 "
            "distinct words and adds 1/√Δ0 to each. How many users must share a word before its weight "
            "reaches the threshold ρ₁ (shown as a metric)?"
        ),
        solve=_users_for_rho1,
        uses=("dpcore.dpne.accounting:dpsu_threshold_for_sigma", "dpcore.dpne.accounting:dpne_noise_scales"),
        hints=("Read ρ₁ from the metric; each user adds 1/√Δ0 = {per_user:.4f}.",),
        solution=(
            r"$\rho_1=\max_{{1\le t\le\Delta_0}}\big[1/\sqrt t+\sigma_1\Phi^{{-1}}((1-\delta/2)^{{1/t}})\big]$ = "
            r"{rho1:.4f} with σ₁ = {sigma1:.4f}. A word shared by u users has weight u/√Δ0, so "
            r"u ≥ ρ₁·√Δ0 = {rho1:.4f}·√{limit}: **{answer}** users. Rare words cannot be released: that "
            "is the privacy."
        ),
        rel_tol=0.0,
        abs_tol=0.5,
        decimals=0,
    ),
    Exercise(
        id="dpne-shared-4gram",
        page=PAGE,
        title="When is a shared 4-gram released?",
        settings={
            "epsilon": 1.0,
            "delta": 1e-5,
            "max_length": 4,
            "noise_decay": 1.0,
            "contribution_limit": 50,
            "eta": 0.01,
            "corpus": "classroom",
        },
        question=(
            "The 4-gram “{gram}” is used by {users} users of the synthetic classroom corpus. Suppose each of them keeps it "
            "(adding 1/√(number of 4-grams they keep, at most Δ0 = {limit})), so its weight is {weight:.3f}, "
            "its 3-grams were released, and |S₃| ≥ |V₄|. With T = {T}, δ = {delta:g}, η = {eta:g}, c = 1: "
            "what is the smallest ε at which it is released with probability at least 1/2?"
        ),
        solve=_shared_4gram,
        uses=(
            "dpcore.dpne.accounting:dpne_noise_scales",
            "dpcore.dpne.accounting:spurious_threshold",
            "dpcore.text.ngrams:build_ngram_index",
        ),
        hints=(
            "weight + N(0, σ₄²) > ρ₄ has probability ≥ 1/2 exactly when weight ≥ ρ₄.",
            "ρ₄ = σ₄·Φ⁻¹(1 − η) here, and σ₄ = σ(ε, δ/2)·√T falls as ε grows: solve for the ε where ρ₄ = weight.",
        ),
        solution=(
            r"Released iff $H+\mathcal N(0,\sigma_4^2)>\rho_4$; probability ≥ 1/2 iff $H\ge\rho_4=\sigma_4\,"
            r"\Phi^{{-1}}(1-\eta)$ = σ₄·{z:.4f}. So σ₄ ≤ {weight:.3f}/{z:.4f} = {sigma4:.4f}; with "
            r"$\sigma_4=\sigma(\varepsilon,\delta/2)\sqrt{{T}}$ this first holds at ε = **{answer}**."
        ),
        rel_tol=0.02,
    ),
    Exercise(
        id="dpne-eta-threshold",
        page=PAGE,
        title="η sets the threshold",
        settings={"eta": 0.01},
        question=(
            "η = {eta:g}. At a length where |S_(k−1)| ≥ |V_k|, how many noise standard deviations σ_k above "
            "zero is the threshold ρ_k? (ρ_k/σ_k)"
        ),
        solve=_threshold_in_sigmas,
        uses=("dpcore.dpne.accounting:spurious_threshold",),
        hints=(
            "A valid k-gram nobody wrote has weight 0; it passes when N(0, σ_k²) > ρ_k. That must happen with "
            "probability η.",
        ),
        solution=(
            r"$\rho_k=\sigma_k\Phi^{{-1}}(1-\eta\min(1,|S_{{k-1}}|/|V_k|))$ and the min is 1, so "
            r"$\rho_k/\sigma_k=\Phi^{{-1}}({one_minus:g})$ = **{answer}**. η only moves the thresholds; the "
            "privacy guarantee does not depend on it."
        ),
        rel_tol=0.005,
    ),
    Exercise(
        id="dpne-dpsu-single",
        page=PAGE,
        title="Why DPSU-single's bars cannot be added",
        settings=_PAPER,
        question=(
            "The bar chart shows DPSU-single beside DPNE at ε = {eps:g}, δ = {delta:g}, T = {T}. Why must you "
            "not add up DPSU-single's bars (or read them as one release)?"
        ),
        solve=_dpsu_single_bars,
        uses=("dpcore.mechanisms.composition:sequential_composition",),
        hints=(
            "DPSU-single spends the whole budget on one length, and is run once per length.",
            "Are the runs on different users' data, or on the same users' data?",
        ),
        solution=(
            "DPSU-single runs a full (ε, δ) DPSU once for each of the T lengths on the same users' text. "
            "Publishing all bars is T releases: by sequential composition they cost (T·ε, T·δ) = "
            "({eps_total:g}, {delta_total:g}). Answer: **{answer}**"
        ),
        kind=CHOICE,
    ),
    Exercise(
        id="dpne-noise-decay",
        page=PAGE,
        title="Noise decay c",
        settings={**_PAPER, "noise_decay": 0.8},
        question="With noise decay c = {c:g} and T = {T}, what is σ_T/σ_1?",
        solve=_decay_ratio,
        uses=("dpcore.dpne.accounting:dpne_noise_scales",),
        hints=("σ_k = σ_1·c^(k−1).",),
        solution=(
            r"$\sigma_k=\sigma_1c^{{k-1}}$, so $\sigma_T/\sigma_1=c^{{T-1}}={c:g}^{{{power}}}$ = **{answer}** "
            "(σ₁ = {sigma1:.4f}, σ_T = {sigmaT:.4f}): c < 1 spends more budget on long n-grams."
        ),
        rel_tol=0.005,
    ),
    Exercise(
        id="dpne-chat-why-4grams",
        page=PAGE,
        title="Real chat: why DPNE finds 4-grams and DPSU-single none",
        settings=_CHAT,
        question=(
            "The page opens on the real chat's 920 people at ε = {eps:g}, δ = {delta:g}, Δ0 = {limit}, T = {T}: DPNE "
            "releases 4-grams while DPSU-single, which spends its whole budget on length 4 alone, releases none. "
            "Which explanation do the measured numbers support? (Open *What this text looks like*.)"
        ),
        solve=_chat_why,
        uses=(
            "dpcore.dpne.release:dpne_extract",
            "dpcore.dpne.evaluation:pruning_chain",
            "dpcore.text.profile:text_profile",
            "dpcore.dpne.accounting:dpsu_threshold",
            "dpcore.dpne.accounting:dpne_noise_scales",
        ),
        hints=(
            "Compare the two thresholds, then the two median weights of the 4-grams used by ≥ {K} people.",
            "A chat person holds many more distinct 4-grams than Δ0 = {limit}: what does DPSU-single do with them?",
        ),
        solution=(
            "{popular:,} 4-grams are used by ≥ {K} people. A person holds {mean:,.0f} distinct 4-grams on average "
            "(median {median:,.0f}); DPSU-single keeps a random Δ0 = {limit} per person ({kept:.0%} of all "
            "(person, 4-gram) pairs), so the popular ones reach a median weight of {w_single:.2g} against its "
            "threshold {rho_single:.3g}. DPNE's thresholds are not lower (ρ₄ = {rho_dpne:.3g}) and its noise is "
            "larger (σ₄ = {sigma4:.3g} against {sigma_single:.3g}), but after pruning a person's weight goes to "
            "the few 4-grams built from released 3-grams: {gain:.2g}× more per popular candidate, a median of "
            "{w_dpne:.2g}. Answer: **{answer}**"
        ),
        kind=CHOICE,
    ),
    Exercise(
        id="dpne-chat-single-epsilon",
        page=PAGE,
        title="Real chat: what ε would DPSU-single need?",
        settings=_CHAT,
        question=(
            "The most shared 4-gram of the real chat's 920 people is “{gram}”, used by {users} people (median "
            "{median_held:,.0f} distinct 4-grams each). DPSU-single at k = 4 keeps a random Δ0 = {limit} of each "
            "person's 4-grams and adds 1/√(number kept) to each, so its expected weight is {weight:.3f}. At "
            "δ = {delta:g}, from which ε on is DPSU-single's threshold ρ (the whole budget on length 4) at most "
            "that weight, so that it is released with probability about 1/2 or more?"
        ),
        solve=_chat_single_epsilon,
        uses=("dpcore.dpne.accounting:dpsu_threshold", "dpcore.text.ngrams:build_ngram_index"),
        hints=(
            "ρ = max over t ≤ Δ0 of [1/√t + σ·Φ⁻¹((1 − δ/2)^(1/t))], σ from (ε, δ/2): it falls as ε grows.",
            "At ε = 4, ρ = {rho4:.3g}: far above {weight:.3f}. Search upwards (bisection).",
        ),
        solution=(
            "Released with probability ≥ 1/2 when the weight reaches the threshold: ρ(ε, δ, Δ0) = {weight:.3f} at "
            "ε = **{answer}** — far above the ε at which DPNE releases 4-grams on the same people (*What ε it "
            "takes* in Paper vs here): pruning, not more budget, is what finds them."
        ),
        rel_tol=0.02,
    ),
    Exercise(
        id="dpne-users-equivalent-epsilon",
        page=PAGE,
        title="More users or less noise?",
        settings={"epsilon": 1.0, "delta": 1e-6},
        question=(
            "A corpus of {n:,} users, and the same users each written m = {m:g} times ({N:,} users). Every "
            "weighted count H grows m-fold while σ and the thresholds ρ_k (multiples of σ) stay: the same "
            "release as the small corpus with σ divided by m. DPNE's σ comes from (ε, δ/2) by the analytic "
            "Gaussian at sensitivity 1. At δ = {delta:g}, which ε gives the small corpus the noise that "
            "ε = {eps:g} gives the large one, σ(ε, δ/2) = σ({eps:g}, δ/2)/{m:g}?"
        ),
        solve=_users_equivalent,
        uses=("dpcore.lab.paper_dpne:users_equivalent_epsilon", "dpcore.mechanisms.gaussian:gaussian_sigma"),
        hints=(
            "σ(ε, δ/2) falls as ε grows: find where it reaches σ({eps:g}, δ/2)/{m:g} (bisection works).",
            "The 'Paper vs here' section uses the same idea to run our 100,000 users at the noise of Reddit's 1.2 M.",
        ),
        solution=(
            r"σ({eps:g}, {delta:g}/2) = {sigma:.4f}, so the target is {sigma:.4f}/{m:g} = {target:.4f}; the "
            r"analytic Gaussian reaches it at ε = **{answer}**. Far beyond any ε you would publish with: the "
            "users you have, not a setting, decide which n-grams a DP release can show."
        ),
        rel_tol=0.005,
    ),
)
