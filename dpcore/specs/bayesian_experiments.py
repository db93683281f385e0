"""Specs of the Bayesian n-gram DP page's experiment tabs (paper 000 §4–§5): the data sweeps (Figs. 2–4), the
perplexity table (Table 1), the membership-inference attack (§5) and EndToEndDP (S and ρ tuned privately).

Their shared fields and the salts are described in :mod:`dpcore.specs.bayesian` (the release and KL vs ε).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..bayesian.end_to_end import prepare_end_to_end
from ..bayesian.evaluation import membership_inference, perplexity_setup, perplexity_table
from ..bayesian.experiments import kl_vs_public_quality, kl_vs_users, kl_vs_vocabulary, summarise
from ..metrics import kl_divergence
from ..validation import check_choice, check_delta, check_epsilon, check_int
from .knobs import Salt, knob
from .bayesian import (
    _K,
    _N,
    _REPS,
    _W,
    ATTACK_EPS,
    PERPLEXITY_REPETITIONS,
    PUBLIC_NOISE_SCALES,
    SWEEP_MECHANISMS,
    SWEEPS,
    _BayesianCommon,
    _curves,
    _WithCaps,
)

__all__ = ["BayesianDataSweepSpec", "BayesianPerplexitySpec", "BayesianAttackSpec", "BayesianEndToEndSpec"]

TRIALS = (50, 100, 200, 400)
"""The attack tab's trials per ε."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class BayesianDataSweepSpec(_WithCaps):
    """000 Figs. 2–4 at ε: KL against the number of users (``sweep="users"``), the vocabulary size
    (``"vocabulary"``) or the public data's quality (``"public"``), strict BayesianDP beside the paper's."""

    KIND = "bayesian-data-sweep"
    NOTEBOOK_FIGURE = """
fig = go.Figure([go.Scatter(x=c.x, y=c.mean, mode="lines+markers", name=mech) for mech, c in result.items()])
fig.update_layout(xaxis_type="log", yaxis_type="log", xaxis_title=spec.x_column(),
                  yaxis_title="KL(private ‖ release) (lower is better)", title=f"KL vs {spec.sweep} at ε = {spec.epsilon:g}")
"""

    SALTS = {
        "sweep": Salt(
            ("bayes",),
            ("sweep", "n", "epsilon", "delta", "S", "C", "rho", "W", "calibration", "max_items", "max_users"),
        )
    }

    sweep: str = knob("users", options=SWEEPS, salts=True)  # the tab
    epsilon: float = knob(1.0, salts=True)
    delta: float = knob(1e-5, salts=True)
    W: int = knob(2, **_W, salts=True)
    repetitions: int = knob(
        10, **_REPS, salts=False
    )  # an evaluation curve: min(repetitions, 5) releases from one stream

    def _validated(self) -> dict:
        return {
            **super()._validated(),
            "sweep": check_choice("sweep", self.sweep, SWEEPS),
            "epsilon": check_epsilon(epsilon=self.epsilon),
            "delta": check_delta(delta=self.delta),
            "W": check_int("W", self.W, low=1),
            "repetitions": check_int("repetitions", self.repetitions, low=1),
        }

    def salt(self) -> tuple:
        return self.salt_of("sweep")

    def x_column(self) -> str:
        return {"users": "users", "vocabulary": "vocabulary", "public": "public_noise"}[self.sweep]

    def sweep_table(self, counts):
        kw = dict(
            epsilon=self.epsilon,
            delta=self.delta,
            S=self.S,
            C=self.C,
            rho=self.rho,
            repetitions=min(self.repetitions, 5),
            calibration=self.calibration,
            rng=self.rng(*self.salt()),
            max_items=self.max_items,
            max_users=self.max_users,
        )
        if self.sweep == "users":
            sizes = sorted({max(2, int(x)) for x in np.geomspace(min(20, counts.n_users), counts.n_users, 7).round()})
            return kl_vs_users(counts, user_numbers=sizes, W=self.W, mechanisms=SWEEP_MECHANISMS, **kw)
        if self.sweep == "vocabulary":
            v = counts.vocabulary_size
            sizes = sorted({max(2, int(x)) for x in np.geomspace(min(50, v), v, 7).round()})
            return kl_vs_vocabulary(counts, sizes=sizes, W=self.W, mechanisms=SWEEP_MECHANISMS, **kw)
        return kl_vs_public_quality(counts, noise_scales=PUBLIC_NOISE_SCALES, **kw)

    def run(self, corpus=None, public=None):
        return summarise(self.sweep_table(self.counts(corpus, public)), self.x_column())

    def numbers(self, result) -> dict:
        return {"curves": _curves(result)}


@dataclasses.dataclass(frozen=True, kw_only=True)
class BayesianPerplexitySpec(_BayesianCommon):
    """000 Table 1: word perplexity of held-out trigrams under each mechanism's released trigram distribution
    (10 % of the private users held out, a seeded split)."""

    KIND = "bayesian-perplexity"
    SALTS = {
        "split": Salt(("bayes-perplexity-split",), noise=False),
        "table": Salt(("bayes-perplexity",), ("epsilon", "delta", "S", "C", "rho", "W", "K", "calibration")),
    }

    epsilon: float = knob(1.0, salts=True)
    delta: float = knob(1e-5, salts=True)
    W: int = knob(2, **_W, salts=True)
    K: int = knob(10, **_K, salts=True)  # k-anonymity's row of the table is one of its releases

    def _validated(self) -> dict:
        return {
            **super()._validated(),
            "epsilon": check_epsilon(epsilon=self.epsilon),
            "delta": check_delta(delta=self.delta),
            "W": check_int("W", self.W, low=1),
            "K": check_int("K", self.K, low=1),
        }

    def split_salt(self) -> tuple:
        return self.salt_of("split")

    def salt(self) -> tuple:
        return self.salt_of("table")

    def setup(self, corpus, public=None):
        """The held-out split and the trigram counts (noise-free given the seed; the page caches it)."""
        return perplexity_setup(self._private(corpus), self.public_corpus(public), rng=self.rng(*self.split_salt()))

    def table(self, setup):
        return perplexity_table(
            setup,
            epsilon=self.epsilon,
            delta=self.delta,
            S=self.S,
            C=self.C,
            rho=self.rho,
            W=self.W,
            K=self.K,
            repetitions=PERPLEXITY_REPETITIONS,
            rng=self.rng(*self.salt()),
            calibration=self.calibration,
        )

    def run(self, corpus=None, public=None):
        """(table, number of held-out trigrams, number of held-out sentences)."""
        setup = self.setup(corpus, public)
        return self.table(setup), int(setup.heldout.size), int(setup.n_heldout_sentences)

    def numbers(self, result) -> dict:
        tab = result[0]
        return {
            "perplexity": dict(zip(tab["mechanism"].tolist(), tab["perplexity"].tolist())),
            "heldout_trigrams": result[1],
            "heldout_sentences": result[2],
        }


@dataclasses.dataclass(frozen=True, kw_only=True)
class BayesianAttackSpec(_BayesianCommon):
    """000 §5: membership inference on releases with and without the most active user, at each ε of
    :data:`ATTACK_EPS`."""

    KIND = "bayesian-attack"
    SALTS = {"attack": Salt(("bayes-attack",), ("n", "delta", "S", "C", "rho", "W", "trials", "calibration"))}

    n: int = knob(1, **_N, salts=True)
    delta: float = knob(1e-5, salts=True)
    W: int = knob(2, **_W, salts=True)
    trials: int = knob(100, key="bayes_trials", label="Trials per ε", kind="select", options=TRIALS, salts=True)

    def _validated(self) -> dict:
        return {
            **super()._validated(),
            "n": check_int("n", self.n, low=1, high=10),
            "delta": check_delta(delta=self.delta),
            "W": check_int("W", self.W, low=1),
            "trials": check_int("trials", self.trials, low=10),
        }

    def salt(self) -> tuple:
        return self.salt_of("attack")

    def attack(self, counts):
        return membership_inference(
            counts,
            epsilons=ATTACK_EPS,
            delta=self.delta,
            S=self.S,
            C=self.C,
            rho=self.rho,
            W=self.W,
            trials=self.trials,
            calibration=self.calibration,
            rng=self.rng(*self.salt()),
        )

    def run(self, corpus=None, public=None):
        return self.attack(self.counts(corpus, public))

    def numbers(self, result) -> dict:
        cols = ("mechanism", "epsilon", "success_rate", "epsilon_lower_bound")
        return {c: result[c].tolist() for c in cols}


@dataclasses.dataclass(frozen=True, kw_only=True)
class BayesianEndToEndSpec(_BayesianCommon):
    """EndToEndDP: S and ρ chosen privately on validation users (ε/3), then BayesianDP at 2ε/3 (total ε)."""

    KIND = "bayesian-end-to-end"
    SALTS = {
        "split": Salt(("bayes-e2e-split",), ("n", "C"), noise=False),
        "release": Salt(("bayes-e2e",), ("epsilon", "delta", "n", "C", "calibration")),
    }

    S: float = knob(
        1e-3, salts=False
    )  # S and ρ are tuned privately: these fields are not used, so they salt nothing here
    rho: float = knob(0.3, salts=False)
    n: int = knob(1, **_N, salts=True)
    epsilon: float = knob(1.0, salts=True)
    delta: float = knob(1e-5, salts=True)

    def _validated(self) -> dict:
        return {
            **super()._validated(),
            "n": check_int("n", self.n, low=1, high=10),
            "epsilon": check_epsilon(epsilon=self.epsilon),
            "delta": check_delta(delta=self.delta),
        }

    def split_salt(self) -> tuple:
        return self.salt_of("split")

    def salt(self) -> tuple:
        return self.salt_of("release")

    def prepare(self, counts):
        """The validation split and the scored (S, ρ) grid (independent of ε; the page caches it)."""
        return prepare_end_to_end(counts.user_counts, counts.public_counts, C=self.C, rng=self.rng(*self.split_salt()))

    def release(self, prepared):
        """(release, evaluation) at ε from ``rng(*salt())``."""
        return prepared.release_with_evaluation(
            epsilon=self.epsilon, delta=self.delta, calibration=self.calibration, rng=self.rng(*self.salt())
        )

    def run(self, corpus=None, public=None):
        counts = self.counts(corpus, public)
        return (*self.release(self.prepare(counts)), counts.private_distribution())

    def numbers(self, result) -> dict:
        rel, inside, p = result
        return {
            "S_star": float(rel.S_star),
            "rho_star": float(rel.rho_star),
            "score_sensitivity": float(inside.score_sensitivity),
            "kl_to_private": float(kl_divergence(p, rel.theta)),
        }
