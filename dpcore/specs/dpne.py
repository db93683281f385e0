"""DpneSpec: the DP n-gram extraction page's computation (Kim et al., NeurIPS 2021 = paper 003; SPEC §4).

One DPNE release at (ε, δ, T, Δ0, η, c, pruning, selection, policy), the three DPSU baselines at the same budget,
and the spurious-share view: DPNE at every η of ``eta_grid`` from the same plan (evaluation only).

Draws (kept bit-identical to the page before issue 22):

* DPNE: ``prepare_dpne(..., rng=spec.rng(*spec.dpne_salt()))`` then ``plan.run(η)``. The salt holds every
  parameter except η; η enters dpcore's keyed draws from the first length whose histogram depends on it
  (:func:`dpcore.dpne.dpne_level_seed`). Lengths 1 and 2 draw the same noise at every η on purpose: thresholding
  one noisy length-2 histogram at several ρ₂(η) is post-processing of one Gaussian release, so the η views and
  the spurious sweep share it (an η in this salt would make each η a new release of S₁ and the length-2
  histogram, spend budget again for the same quantities, and rerun ~90 % of DPNE per η).
* DPSU-all / -even / -single: one generator ``spec.rng(*spec.baseline_salt())``, drawn in that order.
* The one-knob sweep (003 Figs. 2–4): ``spec.rng("dpne-sweep", knob, value, <every parameter of that run>)``.
"""

from __future__ import annotations

import dataclasses
from typing import NamedTuple

from ..dpne.release import _check_dpne, dpne_extract, prepare_dpne
from ..dpne.baselines import dpsu_all, dpsu_even, dpsu_single
from ..text.ngrams import build_ngram_index, encode_users
from ..validation import check_real
from .base import Spec
from ..errors import UserError

__all__ = ["DpneSpec", "DpneOutcome", "ETA_GRID", "INDEX_LENGTH"]

ETA_GRID = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2)
"""η values of the spurious-share view (003 Table 3); the page's η slider offers the same."""
INDEX_LENGTH = 10
"""The per-user n-gram index is built up to this length (the longest T the page offers) for the baselines."""
BASELINES = ("DPSU-all", "DPSU-even", "DPSU-single")


class DpneOutcome(NamedTuple):
    """What :meth:`DpneSpec.run` returns: the DPNE ``release`` and its ``evaluation`` (private diagnostics), the
    baselines' released set sizes by name, and the spurious-share rows (η, k, released, spurious)."""

    release: object
    evaluation: object
    baselines: dict
    spurious: list


@dataclasses.dataclass(frozen=True, kw_only=True)
class DpneSpec(Spec):
    """The DP n-gram extraction page: dpcore.dpne's parameters (names as in :func:`dpcore.dpne`)."""

    KIND = "dpne"
    NOISE_FREE = ("sigma", "sigmas")  # ρ_k depends on |V_k|, which the released S_{k-1} sets
    NOTEBOOK_FIGURE = """
sizes = {"DPNE": result.release.sizes, **result.baselines}
lengths = list(range(1, spec.max_length + 1))
fig = go.Figure([go.Bar(x=lengths, y=[s.get(k, 0) for k in lengths], name=name) for name, s in sizes.items()])
fig.update_layout(barmode="group", xaxis_title="n-gram length k (tokens)", yaxis_type="log",
                  yaxis_title="number of k-grams released (higher is better) — log scale",
                  title=f"n-grams extracted per length at ε = {spec.epsilon:g}, δ = {spec.delta:g}, "
                        f"Δ0 = {spec.contribution_limit}")
"""

    epsilon: float = 4.0
    delta: float = 1e-6
    max_length: int = 6
    contribution_limit: int = 50
    eta: float = 0.01
    noise_decay: float = 1.0
    pruning: str = "both"
    selection: str = "random"
    policy: str = "weighted"
    eta_grid: tuple = ETA_GRID

    def _validated(self):
        (epsilon, delta, max_length, limit, noise_decay, pruning, selection, policy, _cutoff, eta) = _check_dpne(
            self.epsilon,
            self.delta,
            self.max_length,
            self.contribution_limit,
            self.noise_decay,
            self.pruning,
            self.selection,
            self.policy,
            2.0,
            eta=self.eta,
        )
        if max_length > INDEX_LENGTH:
            raise UserError(f"max_length must be <= {INDEX_LENGTH}, got max_length={max_length}")
        grid = tuple(check_real("eta_grid", e, low=0.0, high=1.0, high_inclusive=False) for e in self.eta_grid)
        return dict(
            epsilon=epsilon,
            delta=delta,
            max_length=max_length,
            contribution_limit=limit,
            eta=eta,
            noise_decay=noise_decay,
            pruning=pruning,
            selection=selection,
            policy=policy,
            eta_grid=grid,
        )

    # -------------------------------------------------------------- salts and keys
    def dpne_salt(self) -> tuple:
        """The salt of DPNE's draws: every parameter but η (module docstring: η is keyed inside dpcore)."""
        return (
            "dpne",
            self.epsilon,
            self.delta,
            self.max_length,
            self.contribution_limit,
            self.noise_decay,
            self.pruning,
            self.selection,
            self.policy,
        )

    def baseline_salt(self) -> tuple:
        """The salt of the DPSU baselines' draws (every parameter they take)."""
        return (
            "dpne-baselines",
            self.epsilon,
            self.delta,
            self.max_length,
            self.contribution_limit,
            self.selection,
            self.policy,
        )

    PLAN_INDEPENDENT = ("eta", "eta_grid")
    """Fields the η-independent plan does not depend on (its cache key leaves them out)."""
    BASELINE_INDEPENDENT = ("eta", "eta_grid", "noise_decay", "pruning")
    """Fields the DPSU baselines do not depend on."""

    def dpne_kwargs(self) -> dict:
        """prepare_dpne's keyword arguments (η excluded)."""
        return dict(
            epsilon=self.epsilon,
            delta=self.delta,
            max_length=self.max_length,
            contribution_limit=self.contribution_limit,
            noise_decay=self.noise_decay,
            pruning=self.pruning,
            selection=self.selection,
            policy=self.policy,
        )

    # -------------------------------------------------------------- the parts (pages cache each)
    @staticmethod
    def token_corpus(corpus):
        """The corpus as token ids (noise-free; the page caches it by corpus hash)."""
        tc = encode_users(corpus.user_sentences())
        _ = tc.unigram_pairs  # computed once, reused by every DPNE run
        return tc

    @staticmethod
    def ngram_index(token_corpus):
        """The per-user n-gram sets up to :data:`INDEX_LENGTH` (noise-free)."""
        return build_ngram_index(token_corpus, INDEX_LENGTH)

    def prepare(self, token_corpus):
        """dpcore.prepare_dpne at every parameter but η, with this spec's draws."""
        return prepare_dpne(token_corpus, **self.dpne_kwargs(), rng=self.rng(*self.dpne_salt()))

    def dpsu_baselines(self, index) -> dict:
        """|S_k| of DPSU-all, -even and -single by name, from one generator (drawn in that order)."""
        kw = dict(
            epsilon=self.epsilon,
            delta=self.delta,
            max_length=self.max_length,
            contribution_limit=self.contribution_limit,
            selection=self.selection,
            policy=self.policy,
            rng=self.rng(*self.baseline_salt()),
        )
        return {
            rel.name: rel.sizes for rel in (dpsu_all(index, **kw), dpsu_even(index, **kw), dpsu_single(index, **kw))
        }

    @staticmethod
    def spurious_rows(evaluations: dict) -> list[dict]:
        """Released and spurious k-grams per length for each η (``{η: evaluation}``; evaluation only)."""
        return [
            {"eta": eta, "k": d.k, "released": d.released, "spurious": d.spurious}
            for eta, ev in evaluations.items()
            for d in ev.levels
        ]

    def knob_sweep(self, token_corpus, knob: str, values) -> list[dict]:
        """003 Figs. 2–4: one DPNE run per value of ``knob`` (a field name), the others at this spec; |S_k| per length.
        Each run draws from ``rng("dpne-sweep", knob, value, <every parameter of the run>)``."""
        base = {**self.dpne_kwargs(), "eta": self.eta}
        if knob not in base:
            raise UserError(f"knob must be one of {sorted(base)}, got knob={knob!r}")
        rows = []
        for v in values:
            p = {**base, knob: v}
            res = dpne_extract(token_corpus, **p, rng=self.rng("dpne-sweep", knob, v, tuple(sorted(p.items()))))
            rows.extend({"value": v, "k": k, "released": n} for k, n in res.sizes.items())
        return rows

    # -------------------------------------------------------------- the whole computation
    def run(self, corpus=None) -> DpneOutcome:
        if corpus is None:
            raise UserError("corpus must be a Corpus (DpneSpec runs on a corpus), got corpus=None")
        tc = self.token_corpus(corpus)
        plan = self.prepare(tc)
        runs = {eta: plan.run(eta) for eta in dict.fromkeys((self.eta, *self.eta_grid))}
        release, evaluation = runs[self.eta]
        baselines = self.dpsu_baselines(self.ngram_index(tc))
        spurious = self.spurious_rows({eta: runs[eta].evaluation for eta in self.eta_grid})
        return DpneOutcome(release, evaluation, baselines, spurious)

    def numbers(self, result: DpneOutcome) -> dict:
        rel = result.release
        lengths = range(1, self.max_length + 1)
        return {
            "sigma": float(rel.sigma),
            "total": int(rel.total),
            "sizes": {
                name: [int(s.get(k, 0)) for k in lengths] for name, s in {"DPNE": rel.sizes, **result.baselines}.items()
            },
            "sigmas": [float(rel.sigmas[k]) if k in rel.sigmas else None for k in lengths],
            "thresholds": [float(rel.thresholds[k]) if k in rel.thresholds else None for k in lengths],
            "valid_counts": [int(rel.valid_counts[k]) if k in rel.valid_counts else None for k in lengths],
            "spurious": [[r["eta"], r["k"], r["released"], r["spurious"]] for r in result.spurious],
        }
