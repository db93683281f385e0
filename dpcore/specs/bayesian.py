"""Specs of the Bayesian n-gram DP page (paper 000; SPEC §3, §3b): one frozen spec per computation it offers.

* :class:`BayesianSpec` — the release at (ε, δ) in the strict (DP) or local (as in the paper) mode, with the KL to
  the private distribution and to the public prior (the page's first tab and its export).
* :class:`BayesianKlEpsilonSpec` — 000 Fig. 1: KL against ε for every mechanism, with k-anonymity at K beside it.

Specs of the experiment tabs (in :mod:`dpcore.specs.bayesian_experiments`):

* :class:`BayesianDataSweepSpec` — 000 Figs. 2–4: KL against the number of users, the vocabulary or the public
  data's quality.
* :class:`BayesianPerplexitySpec` — 000 Table 1 (trigram perplexity).
* :class:`BayesianAttackSpec` — 000 §5's membership inference.
* :class:`BayesianEndToEndSpec` — EndToEndDP: S and ρ tuned privately, then the release (total ε).

Every spec names the private corpus (``corpus``, ``corpus_hash``) and the public one (``public_hash``: the prior
and the vocabulary are the public corpus's n-grams; ``load_corpus(corpus, which="public")`` loads it). ``run(corpus,
public=None)`` loads the public corpus by id when it is not given and checks its hash. Strict mode's caps are the
fields ``max_items`` (L, distinct n-grams kept per user) and ``max_users`` (N_max, the public cap on users), as
:func:`dpcore.bayesian_dp` names them; below they are written L and N_max.

Draws (bit-identical to the page before issue 22; :meth:`salt` of each spec is the page's exported ``rng_salt``). Each
salt is derived from the fields' declarations (``knob(..., salts=True)``, each spec's ``SALTS``; :mod:`dpcore.specs.knobs`):
the lists below are the streams as they stand, and a field declared salting later is appended to every noise salt.

* release: ``rng("bayes-release", ε, δ, n, S, C, ρ, calibration, mode, L, N_max)``; strict mode's choice of L items
  per user: ``rng("bayes-item-cap", n, C, L)`` (the item choice does not depend on ε, so every ε shares it, cached);
  the side-by-side panel's two releases: ``rng("bayes-release", ε, δ, n, S, C, ρ, calibration, <mode>, L, N_max)``
  with the mode in place of the page's — the page's own mode therefore draws the same noise in both places;
* KL vs ε: ``rng("bayes-eps-sweep", δ, n, S, C, ρ, W, calibration, with_end_to_end, L, N_max)`` (+ the ε grid when
  it is not the page's :data:`SWEEP_EPS`);
* data sweeps: ``rng("bayes", sweep, n, ε, δ, S, C, ρ, W, calibration, L, N_max)`` (they draw min(repetitions, 5)
  releases per point; the repetitions are not in the salt: an evaluation curve, not a release);
* perplexity: split ``rng("bayes-perplexity-split")``, releases ``rng("bayes-perplexity", ε, δ, S, C, ρ, W, K,
  calibration)``; attack: ``rng("bayes-attack", n, δ, S, C, ρ, W, trials, calibration)``; EndToEndDP: split
  ``rng("bayes-e2e-split", n, C)``, release ``rng("bayes-e2e", ε, δ, n, C, calibration)``.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, NamedTuple, cast

import numpy as np

from ..bayesian.baselines import public_baseline
from ..bayesian.experiments import (
    BAYESIAN,
    BAYESIAN_STRICT,
    END_TO_END,
    LAPLACE,
    LAPLACE_PUBLIC,
    PUBLIC,
    kl_vs_epsilon,
    kl_vs_k,
    summarise,
)
from ..bayesian.statistics import MAX_USERS_CAP, bayesian_statistics
from ..errors import UserError
from ..metrics import kl_divergence
from ..text.counts import ngram_counts
from ..validation import check_choice, check_delta, check_epsilon, check_int, check_probability, check_real
from .base import Spec, public_corpus_of
from .knobs import Salt, knob

if TYPE_CHECKING:  # annotations only (the outcome's fields): no import at run time
    from ..bayesian.release import BayesianRelease, PreparedBayesianDP
    from ..text.counts import NgramCounts

__all__ = [
    "BayesianSpec",
    "BayesianKlEpsilonSpec",
    "BayesianOutcome",
    "KlEpsilonOutcome",
    "SWEEP_EPS",
    "MODES",
    "CALIBRATIONS",
    "SWEEPS",
    "ATTACK_EPS",
    "PERPLEXITY_REPETITIONS",
]

SWEEP_EPS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
"""ε grid of the KL-vs-ε sweep (000 Fig. 1)."""
MODES = ("strict", "local")
"""strict (DP): caps L and N_max, γ_strict bounded for every corpus; local (as in the paper): γ measured on the
private data — not DP (SPEC §3b)."""
CALIBRATIONS = ("auto", "classic", "analytic")
SWEEPS = ("users", "vocabulary", "public")
"""The data sweeps: 000 Fig. 2 (users), Fig. 3 (vocabulary), Fig. 4 (public data's quality)."""
SWEEP_MECHANISMS = (BAYESIAN, BAYESIAN_STRICT, LAPLACE, LAPLACE_PUBLIC, PUBLIC)
ATTACK_EPS = (0.1, 0.3, 1.0, 3.0, 10.0)
"""ε values of the membership-inference attack (000 §5)."""
PERPLEXITY_REPETITIONS = 3
"""Releases averaged per noisy mechanism in the perplexity table."""
PUBLIC_NOISE_SCALES = (0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0)
"""Scales b of the Laplace noise added to the public counts in the public-quality sweep (000 Fig. 4)."""

# ---------------------------------------------------------------------------------------- the page's knobs
# (dpcore.specs.knobs: each field's widget and whether it salts; dpui.bayesian.knobs draws them, the page's widget
# table, exercise keys and presets are derived from them). Shared by several specs: the same widget on the page.
S_OPTIONS = (1e-3, 2e-3, 5e-3, 1e-2, 2e-2, 5e-2, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 100.0, 1e3, 1e4)
N_MAX_OPTIONS = (100, 200, 500, 1000, 2000, 2400, 5000, 10_000, 20_000, 50_000, 100_000, 1_000_000)
K_OPTIONS = (1, 2, 5, 10, 20, 50, 100, 200)
CALIBRATION_CAPTIONS = {
    "auto": "classic below ε = 1, analytic from 1 (default)",
    "classic": "as in the paper; proven for ε < 1",
    "analytic": "tight, valid for every ε",
}
CALIBRATION_HELP = (
    "classic: σ = Δ√(2 ln(1.25/δ))/ε, proven for ε < 1 only (at ε = 10 its true δ is 2.27 × the "
    "stated one). analytic: Balle & Wang (2018), exact for every ε. auto uses the classic σ "
    "below ε = 1 and the analytic one from ε = 1."
)
MODE_CAPTIONS = {
    "strict": "strict (DP): caps L and N_max, γ bounded for every corpus",
    "local": "local (as in the paper): γ measured on this corpus — not DP",
}
_W: dict[str, Any] = dict(
    key="bayes_W",
    label="W (Laplace baselines: max counts per user)",
    kind="slider",
    low=1,
    high=50,
    help="000 §4.3 uses W = |U|/1000 (≈ 1 for the real chat's 920 people, 3 for the classroom sample).",
)
_K: dict[str, Any] = dict(key="bayes_K", label="K (k-anonymity: min. users per item)", kind="select", options=K_OPTIONS)
_N: dict[str, Any] = dict(
    key="bayes_n",
    label="n-gram order n",
    kind="radio",
    options=(1, 2, 3),
    horizontal=True,
    help="Vocabulary = the public corpus' n-grams; n-grams never cross a sentence boundary.",
)
_REPS: dict[str, Any] = dict(
    key="bayes_reps",
    label="Repetitions (noisy curves)",
    kind="slider",
    low=2,
    high=30,
    help="Curves show the mean and a 10–90% band over this many seeded releases.",
)


def _curves(summary: dict) -> dict:
    return {
        mech: {
            "x": [float(x) for x in c.x.tolist()],
            "mean": c.mean.tolist(),
            "lower": c.lower.tolist(),
            "upper": c.upper.tolist(),
        }
        for mech, c in summary.items()
    }


@dataclasses.dataclass(frozen=True, kw_only=True)
class _BayesianCommon(Spec):
    """What every Bayesian computation shares: the public corpus (prior and vocabulary), C, S, ρ and the σ
    calibration (names as in :func:`dpcore.bayesian_dp`)."""

    public_hash: str | None = None
    S: float = knob(
        1e-3,
        key="bayes_S",
        label="S (decay weighting, w = min(1, S·N/C))",
        kind="select",
        options=S_OPTIONS,
        format="number",
        help="Small S shrinks rare words (few users N) towards the public prior and lowers the sensitivity. "
        "Log-spaced 1e-3 … 1e4.",
        salts=True,
    )
    rho: float = knob(
        0.3,
        key="bayes_rho",
        label="ρ (weight of the private evidence)",
        kind="slider",
        low=0.05,
        high=1.0,
        step=0.05,
        help="μ_ps = ρ·(w ⊙ x̂) + (1−ρ)·μ_p; the noise scales with ρ too.",
        salts=True,
    )
    C: int = knob(
        1,
        key="bayes_C",
        label="C (max count per user per n-gram)",
        kind="slider",
        low=1,
        high=20,
        help="Each user's count of an n-gram is clamped at C (000 uses C = 1 below 1M users).",
        salts=True,
    )
    calibration: str = knob(
        "auto",
        key="bayes_calibration",
        label="Gaussian calibration",
        kind="radio",
        options=CALIBRATIONS,
        captions=tuple(CALIBRATION_CAPTIONS.values()),
        help=CALIBRATION_HELP,
        salts=True,
    )

    def _validated(self) -> dict:
        if self.public_hash is not None and not isinstance(self.public_hash, str):
            raise TypeError(f"public_hash must be a string (Corpus.content_hash), got public_hash={self.public_hash!r}")
        return dict(
            S=check_real("S", self.S, low=0.0),
            rho=check_probability(self.rho, "rho", allow_zero=False),
            C=check_int("C", self.C, low=1),
            calibration=check_choice("calibration", self.calibration, CALIBRATIONS),
        )

    # -------------------------------------------------------------- data (noise-free)
    def public_corpus(self, public=None):
        """The public corpus: ``public`` when given, else the one ``corpus`` names (``load_corpus(corpus,
        which="public")``); ValueError when its content hash is not ``public_hash``."""
        return public_corpus_of(self, public)

    @staticmethod
    def _private(corpus):
        if corpus is None:
            raise UserError("corpus must be a Corpus (the private data), got corpus=None")
        return corpus

    def counts(self, corpus, public=None, *, n=None):
        """dpcore.text.counts of the private and the public corpus at order ``n`` (default: the spec's)."""
        return ngram_counts(self._private(corpus), self.public_corpus(public), n=self.n if n is None else n)


@dataclasses.dataclass(frozen=True, kw_only=True)
class _WithCaps(_BayesianCommon):
    """Order n and strict mode's caps (SPEC §3b): ``max_items`` = L distinct n-grams kept per user, ``max_users`` =
    N_max users at most (a public cap) — the names of dpcore.bayesian_dp's keywords."""

    n: int = knob(1, **_N, salts=True)
    max_items: int = knob(
        50,
        key="bayes_L",
        label="L (strict: distinct n-grams kept per user)",
        kind="slider",
        low=1,
        high=500,
        help="A user with more keeps a seeded random L of them; γ_strict grows with √L.",
        salts=True,
    )
    max_users: int = knob(
        10_000,
        key="bayes_Nmax",
        label="N_max (strict: public cap on the number of users)",
        kind="select",
        options=N_MAX_OPTIONS,
        help="Stated, not measured: a corpus with more users is refused. γ_strict grows with ln(C·N_max + 1) "
        "(weighted by min(1, S/C)).",
        salts=True,
    )

    def _validated(self) -> dict:
        return {
            **super()._validated(),
            "n": check_int("n", self.n, low=1, high=10),
            "max_items": check_int("max_items", self.max_items, low=1),
            "max_users": check_int("max_users", self.max_users, low=1, high=MAX_USERS_CAP),
        }


class BayesianOutcome(NamedTuple):
    """:meth:`BayesianSpec.run`: the counts, the private distribution p, the prepared mechanism of the spec's mode,
    the release, Claim 1's worst-case γ (local statistics), KL(p ‖ θ) and KL(p ‖ public prior)."""

    counts: NgramCounts
    p: np.ndarray
    prepared: PreparedBayesianDP
    release: BayesianRelease
    gamma_worst: float
    kl: float
    kl_public: float


@dataclasses.dataclass(frozen=True, kw_only=True)
class BayesianSpec(_WithCaps):
    """BayesianDP's release at (ε, δ): θ = softmax(log μ_ps + N(0, σ²)) (000 §3; SPEC §3b for the strict mode)."""

    KIND = "bayesian"
    NOISE_FREE = ("sensitivity_gamma", "sigma_ps", "kl_public_prior", "top_ngrams")
    NOTEBOOK_FIGURE = """
order = np.argsort(-result.p)[:20]
labels = [" ".join(result.counts.vocabulary[i]) for i in order]
prior = public_baseline(result.counts.public_counts)
fig = go.Figure([go.Bar(x=labels, y=result.p[order], name="private (not released)"),
                 go.Bar(x=labels, y=prior[order], name="public prior"),
                 go.Bar(x=labels, y=result.release.theta[order], name=f"released θ ({spec.mode})")])
fig.update_layout(barmode="group", yaxis_title="probability", title=f"The 20 most frequent private {spec.n}-grams, "
                  f"BayesianDP {spec.mode} at ε = {spec.epsilon:g}, δ = {spec.delta:g}")
"""
    NOTEBOOK_IMPORTS = "import numpy as np\nfrom dpcore.bayesian.baselines import public_baseline"
    SALTS = {
        "release": Salt(
            ("bayes-release",),
            ("epsilon", "delta", "n", "S", "C", "rho", "calibration", "mode", "max_items", "max_users"),
        ),
        "item-cap": Salt(("bayes-item-cap",), ("n", "C", "max_items"), noise=False),  # no ε: drawn once
    }

    epsilon: float = knob(1.0, salts=True)  # ε and δ: the shared sidebar's
    delta: float = knob(1e-5, salts=True)
    mode: str = knob(
        "strict",
        key="bayes_mode",
        label="BayesianDP mode",
        kind="radio",
        options=MODES,
        captions=tuple(MODE_CAPTIONS.values()),
        help="strict: our addition (SPEC §3b), a real (ε, δ)-DP guarantee. local: the paper's γ, measured on the "
        "private data — not DP: no (ε, δ) holds, not even for this corpus's neighbours.",
        salts=True,
    )

    def _validated(self) -> dict:
        return {
            **super()._validated(),
            "epsilon": check_epsilon(epsilon=self.epsilon),
            "delta": check_delta(delta=self.delta),
            "mode": check_choice("mode", self.mode, MODES),
        }

    # -------------------------------------------------------------- salts
    def salt(self, mode: str | None = None) -> tuple:
        """The release's salt (every parameter of the release); ``mode``: the side-by-side panel's release of that
        mode (the spec's own mode gives the page's release salt)."""
        if mode is None:
            return self.salt_of("release")
        return self.salt_of("release", mode=check_choice("mode", mode, MODES))

    def item_cap_salt(self) -> tuple:
        """The salt of strict mode's seeded choice of L n-grams per user (independent of ε: drawn once)."""
        return self.salt_of("item-cap")

    # -------------------------------------------------------------- the parts (the page caches each)
    def local_statistics(self, counts):
        """Clamped statistics (C) for the local mode (γ by brute force on this corpus)."""
        return bayesian_statistics(counts.user_counts, counts.public_counts, C=self.C)

    def strict_statistics(self, counts):
        """Clamped and L-capped statistics for the strict mode (the seeded item choice)."""
        return bayesian_statistics(
            counts.user_counts,
            counts.public_counts,
            C=self.C,
            max_items=self.max_items,
            rng=self.rng(*self.item_cap_salt()),
        )

    def prepare(self, statistics, mode: str | None = None):
        """The prepared mechanism of ``mode`` (default the spec's) from its statistics: strict → γ_strict with the
        user cap N_max (ValueError naming max_users for a larger corpus); local → γ measured by brute force."""
        if (mode or self.mode) == "strict":
            return statistics.prepare(S=self.S, rho=self.rho, sensitivity="strict", max_users=self.max_users)
        return statistics.prepare(S=self.S, rho=self.rho)

    def release(self, prepared, mode: str | None = None):
        """One release from ``prepared`` at (ε, δ), drawn from ``rng(*salt(mode))``."""
        return prepared.release(
            epsilon=self.epsilon, delta=self.delta, calibration=self.calibration, rng=self.rng(*self.salt(mode))
        )

    # -------------------------------------------------------------- the whole computation
    def run(self, corpus=None, public=None) -> BayesianOutcome:
        counts = self.counts(corpus, public)
        local = self.local_statistics(counts)
        stats = local if self.mode == "local" else self.strict_statistics(counts)
        prepared = self.prepare(stats)
        rel = self.release(prepared)
        p = counts.private_distribution()
        return BayesianOutcome(
            counts,
            p,
            prepared,
            rel,
            local.sensitivity(self.S, "worst-case"),
            cast(float, kl_divergence(p, rel.theta)),  # one release (1-D θ): one KL
            cast(float, kl_divergence(p, public_baseline(counts.public_counts))),
        )

    @staticmethod
    def top_rows(result: BayesianOutcome, top: int = 20) -> list[dict]:
        """The page's release table: the ``top`` most frequent private n-grams, their private, prior and released
        probabilities (the export's rows)."""
        order = np.argsort(-result.p)[:top]
        prior = public_baseline(result.counts.public_counts)
        return [
            {
                "rank": r + 1,
                "ngram": " ".join(result.counts.vocabulary[i]),
                "private_probability": result.p[i],
                "public_prior_probability": prior[i],
                "released_probability": result.release.theta[i],
            }
            for r, i in enumerate(order)
        ]

    def numbers(self, result: BayesianOutcome) -> dict:
        rows = self.top_rows(result, 50)
        return {
            "sensitivity_gamma": float(result.prepared.sensitivity),
            "sigma_ps": float(result.release.sigma),
            "kl_to_private": float(result.kl),
            "kl_public_prior": float(result.kl_public),
            "top_ngrams": [r["ngram"] for r in rows],
            "top_released_probability": [float(r["released_probability"]) for r in rows],
        }


class KlEpsilonOutcome(NamedTuple):
    """:meth:`BayesianKlEpsilonSpec.run`: the table (one row per mechanism, ε, repetition), its summary
    ``{mechanism: Summary}`` and k-anonymity's KL at K (not DP; no ε)."""

    table: object
    summary: dict
    kl_k: float


@dataclasses.dataclass(frozen=True, kw_only=True)
class BayesianKlEpsilonSpec(_WithCaps):
    """000 Fig. 1: KL(p ‖ θ) against ε for BayesianDP as in the paper, our strict variant (L, N_max), Laplace,
    Laplace + public, the public prior (and EndToEndDP); k-anonymity at K as a flat line."""

    KIND = "bayesian-kl-epsilon"
    NOTEBOOK_FIGURE = """
fig = go.Figure()
for mech, curve in result.summary.items():
    fig.add_trace(go.Scatter(x=curve.x, y=curve.mean, mode="lines+markers", name=mech,
                             error_y=dict(type="data", symmetric=False, array=curve.upper - curve.mean,
                                          arrayminus=curve.mean - curve.lower)))
if spec.K >= 2:
    fig.add_hline(y=result.kl_k, line_dash="dot", annotation_text=f"k-anonymity, K = {spec.K} (not DP)")
fig.update_layout(xaxis_type="log", yaxis_type="log", xaxis_title="ε (log scale)",
                  yaxis_title="KL(private ‖ release) (lower is better)", title=f"KL vs ε ({spec.n}-grams)")
"""

    SALTS = {
        "sweep": Salt(
            ("bayes-eps-sweep",),
            ("delta", "n", "S", "C", "rho", "W", "calibration", "with_end_to_end", "max_items", "max_users"),
            without=("epsilons",),  # appended by salt() only when it is not SWEEP_EPS (the salt the page had)
        )
    }

    delta: float = knob(1e-5, salts=True)
    W: int = knob(2, **_W, salts=True)
    K: int = knob(10, **_K, salts=False)  # k-anonymity at K is deterministic: no noise
    repetitions: int = knob(
        10, **_REPS, salts=False
    )  # more releases from the same stream: the first ones are unchanged
    with_end_to_end: bool = knob(False, salts=True)
    epsilons: tuple = knob(SWEEP_EPS, salts=True)

    def _validated(self) -> dict:
        eps = tuple(check_epsilon(epsilon=e) for e in self.epsilons)
        if not eps:
            raise UserError("epsilons must hold at least one ε, got epsilons=()")
        if not isinstance(self.with_end_to_end, (bool, np.bool_)):
            raise TypeError(f"with_end_to_end must be a bool, got with_end_to_end={self.with_end_to_end!r}")
        return {
            **super()._validated(),
            "delta": check_delta(delta=self.delta),
            "W": check_int("W", self.W, low=1),
            "K": check_int("K", self.K, low=1),
            "repetitions": check_int("repetitions", self.repetitions, low=1),
            "with_end_to_end": bool(self.with_end_to_end),
            "epsilons": eps,
        }

    def salt(self) -> tuple:
        """The sweep's salt (the page exports it): every parameter; the ε grid too when it is not SWEEP_EPS."""
        base = self.salt_of("sweep")
        return base if self.epsilons == SWEEP_EPS else base + (self.epsilons,)

    def noise_salts(self) -> dict[str, tuple]:
        return {"sweep": self.salt()}

    def mechanisms(self) -> tuple:
        return SWEEP_MECHANISMS + ((END_TO_END,) if self.with_end_to_end else ())

    def sweep(self, counts):
        """kl_vs_epsilon at the spec (the part the page caches)."""
        return kl_vs_epsilon(
            counts,
            epsilons=self.epsilons,
            delta=self.delta,
            S=self.S,
            C=self.C,
            rho=self.rho,
            W=self.W,
            repetitions=self.repetitions,
            rng=self.rng(*self.salt()),
            calibration=self.calibration,
            mechanisms=self.mechanisms(),
            max_items=self.max_items,
            max_users=self.max_users,
        )

    def k_anonymity_kl(self, counts) -> float:
        """KL(p ‖ k-anonymity's release at K) (deterministic; not DP)."""
        return float(kl_vs_k(counts, Ks=(self.K,))["kl"][0])

    def run(self, corpus=None, public=None) -> KlEpsilonOutcome:
        counts = self.counts(corpus, public)
        table = self.sweep(counts)
        return KlEpsilonOutcome(table, summarise(table, "epsilon"), self.k_anonymity_kl(counts))

    def rows(self, result: KlEpsilonOutcome) -> list[dict]:
        """The page's export rows: mean and 10–90 % band per (mechanism, ε); k-anonymity at K as a flat line."""
        rows = [
            {"mechanism": mech, "epsilon": x, "mean_kl": mean, "lower_kl": lo, "upper_kl": hi}
            for mech, c in result.summary.items()
            for x, mean, lo, hi in zip(c.x.tolist(), c.mean.tolist(), c.lower.tolist(), c.upper.tolist())
        ]
        if self.K >= 2:
            rows += [
                {
                    "mechanism": f"k-anonymity, K = {self.K} (not DP)",
                    "epsilon": x,
                    "mean_kl": result.kl_k,
                    "lower_kl": result.kl_k,
                    "upper_kl": result.kl_k,
                }
                for x in self.epsilons
            ]
        return rows

    def numbers(self, result: KlEpsilonOutcome) -> dict:
        return {"curves": _curves(result.summary), "k_anonymity_kl": float(result.kl_k)}
