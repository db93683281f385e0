"""DpneSpec: the DP n-gram extraction page's computation (Kim et al., NeurIPS 2021 = paper 003; SPEC §4).

One DPNE release at (ε, δ, T, Δ0, η, c, pruning, selection, policy), the three DPSU baselines at the same budget,
and the spurious-share view: DPNE at every η of ``eta_grid`` from the same plan (evaluation only).

Draws. What is salted with every parameter is the **noise**; the **selection** (which Δ0 items a user keeps, the
Policy Gaussian's user order) is data-independent randomness that is not noise, and is salted with what it depends
on only (issue 29 item 1; the privacy argument is in :mod:`dpcore.dpne.dpsu_plan` and docs/SPEC_dpne_selection.md:
for any fixed data-independent selection each user's contribution has ℓ2 norm ≤ 1, so every release is (ε, δ)-DP
and releases that share the selection compose as before). Version 2 (this one):

* DPNE: ``prepare_dpne(..., rng=spec.rng(*spec.dpne_salt()))`` then ``plan.run(η)``. The salt holds every
  parameter except η; η enters dpcore's keyed noise from the first length whose histogram depends on it
  (:func:`dpcore.dpne.dpne_level_seed`). Lengths 1 and 2 draw the same noise at every η on purpose: thresholding
  one noisy length-2 histogram at several ρ₂(η) is post-processing of one Gaussian release, so the η views share
  it (an η in this salt would make each η a new release of S₁ and the length-2 histogram, spend budget again for
  the same quantities, and rerun ~90 % of DPNE per η). The selection priorities are keyed by
  :func:`dpcore.dpne.dpne_selection_seed` of a seed drawn from ``spec.rng(*spec.dpne_selection_salt())`` (Δ0 and
  the rule: no ε), so length 1's histogram before noise is one per (corpus, seed, Δ0, rule) and a page caches it
  (:meth:`DpneSpec.unigram`, ``prepare(tc, unigram=…)``).
* DPSU-all / -even / -single: the selection from ``spec.rng(*spec.baseline_selection_salt(name))`` (the variant, T,
  Δ0, the rule, the policy: no ε, no δ), drawn once and cached by the page; the noise from
  ``spec.rng(*spec.baseline_noise_salt(name))`` (every parameter), drawn per (ε, δ) (:mod:`dpcore.dpne.dpsu_plan`).
* The one-knob sweep (003 Figs. 2–4): a value equal to the page's setting is the page's own release (the same
  spec, the same draws); any other value draws from ``spec.rng("dpne-sweep", knob, value, <every parameter of
  that run>)``.

Version 1 records (exports made before issue 29) still replay, bit for bit: such a spec (``spec.version == 1``)
keys DPNE's selection like its noise (``selection_key="release"``), draws the three baselines from one generator
``spec.rng(*spec.baseline_salt())`` in that order with the one-shot ``dpsu_all`` / ``dpsu_even`` /
``dpsu_single``, and sweeps every value with its own salt.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, NamedTuple

from ..dpne.baselines import dpsu_all, dpsu_even, dpsu_single
from ..dpne.dpsu_plan import prepare_dpsu
from ..dpne.release import _check_dpne, dpne_extract, prepare_dpne
from ..dpne.unigram import prepare_dpne_unigram
from ..errors import UserError
from ..text.ngrams import build_ngram_index, encode_users
from ..validation import check_real
from .base import Spec
from .knobs import Salt, knob

if TYPE_CHECKING:  # annotations only: no import at run time
    from ..dpne.release import DpnePlan
    from ..dpne.results import DpneEvaluation, DpneRelease

__all__ = ["DpneSpec", "DpneOutcome", "ETA_GRID", "INDEX_LENGTH"]

ETA_GRID = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2)
"""η values of the spurious-share view (003 Table 3); the page's η slider offers the same."""
INDEX_LENGTH = 10
"""The per-user n-gram index is built up to this length (the longest T the page offers) for the baselines."""
BASELINES = ("DPSU-all", "DPSU-even", "DPSU-single")
DECAY_OPTIONS = (0.8, 0.9, 1.0, 1.1, 1.2)
POLICY_HELP = (
    "Weighted Gaussian (as in the paper): 1/√|U_i| per kept item. Policy Gaussian (Gopi et al. 2020): users in "
    "random order push their items towards Γ = ρ + 2σ with an ℓ2 step ≤ 1. Same σ, same ρ, same guarantee; the "
    "Policy Gaussian is slower (a loop over users)."
)
_BASELINE_FIELDS = ("epsilon", "delta", "max_length", "contribution_limit", "selection", "policy")
_NOT_BASELINE = ("noise_decay", "pruning")  # DPNE's own: the DPSU baselines take neither


class DpneOutcome(NamedTuple):
    """What :meth:`DpneSpec.run` returns: the DPNE ``release`` and its ``evaluation`` (private diagnostics), the
    baselines' released set sizes by name, and the spurious-share rows (η, k, released, spurious)."""

    release: DpneRelease
    evaluation: DpneEvaluation
    baselines: dict
    spurious: list


@dataclasses.dataclass(frozen=True, kw_only=True)
class DpneSpec(Spec):
    """The DP n-gram extraction page: dpcore.dpne's parameters (names as in :func:`dpcore.dpne`)."""

    KIND = "dpne"
    VERSION = 2
    REPLAYS = (1,)  # version 1: the selection drawn with the noise (module docstring)
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

    SALTS = {
        "dpne": Salt(  # η is keyed inside dpcore (dpne_level_seed; module docstring), so it is no knob that salts
            ("dpne",),
            ("epsilon", "delta", "max_length", "contribution_limit", "noise_decay", "pruning", "selection", "policy"),
        ),
        "dpne-selection": Salt(("dpne-selection",), ("contribution_limit", "selection"), noise=False),
        "baselines": Salt(("dpne-baselines",), _BASELINE_FIELDS, without=_NOT_BASELINE),  # version 1
        "baseline-selection": Salt(("dpsu-selection",), _BASELINE_FIELDS[2:], noise=False),  # + the variant
        "baseline-noise": Salt(("dpsu-noise",), _BASELINE_FIELDS, without=_NOT_BASELINE),  # + the variant
    }

    epsilon: float = knob(4.0, salts=True)  # ε and δ: the shared sidebar's
    delta: float = knob(1e-6, salts=True)
    max_length: int = knob(
        6, key="dpne_T", label="T (longest n-gram)", kind="slider", low=1, high=INDEX_LENGTH, salts=True
    )
    contribution_limit: int = knob(
        50,
        key="dpne_delta0",
        label="Δ0 (items per user per length)",
        kind="number",
        low=1,
        high=500,
        step=5,
        help="Contribution limit Δ_1 = … = Δ_T = Δ0.",
        salts=True,
    )
    eta: float = knob(
        0.01,
        key="dpne_eta",
        label="η (tolerated spurious fraction)",
        kind="select",
        options=ETA_GRID,
        help="Sets the thresholds ρₖ (k ≥ 2); it does not change the privacy guarantee.",
        salts=False,  # keyed inside dpcore from the first length that depends on it (dpne_level_seed)
    )
    noise_decay: float = knob(
        1.0,
        key="dpne_c",
        label="c (noise decay: σₖ = c·σₖ₋₁)",
        kind="select",
        options=DECAY_OPTIONS,
        help="c < 1 spends more budget on long n-grams, c > 1 on short ones.",
        salts=True,
    )
    pruning: str = knob(
        "both",
        key="dpne_pruning",
        label="Pruning rule (valid k-grams)",
        kind="radio",
        options=("both", "single"),
        captions=("both sides", "single side"),
        horizontal=True,
        salts=True,
    )
    selection: str = knob(
        "random",
        key="dpne_selection",
        label="Which Δ0 items a user keeps",
        kind="radio",
        options=("random", "most-frequent"),
        horizontal=True,
        salts=True,
    )
    policy: str = knob(
        "weighted",
        key="dpne_policy",
        label="DPSU update policy",
        kind="radio",
        options=("weighted", "policy"),
        captions=("weighted Gaussian", "Policy Gaussian"),
        horizontal=True,
        help=POLICY_HELP,
        salts=True,
    )
    eta_grid: tuple = knob(
        ETA_GRID, salts=False
    )  # the spurious-share view: η values read off one plan (evaluation only)

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
        return self.salt_of("dpne")

    def dpne_selection_salt(self) -> tuple:
        """The salt of DPNE's selection key (version 2): what the selection depends on (Δ0, the rule; no ε)."""
        return self.salt_of("dpne-selection")

    def baseline_salt(self) -> tuple:
        """Version 1's salt of the DPSU baselines' draws (every parameter they take; selection and noise alike)."""
        return self.salt_of("baselines")

    def baseline_selection_salt(self, name: str) -> tuple:
        """The salt of one DPSU baseline's selection: what it depends on (no ε, no δ)."""
        return self.salt_of("baseline-selection", name)

    def baseline_noise_salt(self, name: str) -> tuple:
        """The salt of one DPSU baseline's noise: every parameter of that release."""
        return self.salt_of("baseline-noise", name)

    def noise_salts(self) -> dict[str, tuple]:
        """The noise salts a run of this version draws from (every baseline's by name)."""
        if self.version == 1:
            return {"dpne": self.dpne_salt(), "baselines": self.baseline_salt()}
        return {"dpne": self.dpne_salt(), **{n: self.baseline_noise_salt(n) for n in BASELINES}}

    PLAN_INDEPENDENT = ("eta", "eta_grid")
    """Fields the η-independent plan does not depend on (its cache key leaves them out)."""
    BASELINE_INDEPENDENT = ("eta", "eta_grid", "noise_decay", "pruning")
    """Fields the DPSU baselines do not depend on."""
    SELECTION_INDEPENDENT = BASELINE_INDEPENDENT + ("epsilon", "delta")
    """Fields the DPSU baselines' selections (and weighted histograms) do not depend on (their cache key)."""
    UNIGRAM_INDEPENDENT = SELECTION_INDEPENDENT + ("max_length",)
    """Fields DPNE's length-1 histogram before noise does not depend on (:meth:`unigram`'s cache key). Not the
    policy: the weighted Gaussian's histogram is ε-free, the Policy Gaussian's is not (:meth:`unigram` returns None),
    so a cache keyed without it handed the weighted run's histogram to a Policy Gaussian run (issue 42 item 7)."""

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

    def unigram(self, token_corpus):
        """DPNE's length 1 before noise (:func:`dpcore.dpne.prepare_dpne_unigram`, version 2, weighted Gaussian), or
        None where it depends on ε (Policy Gaussian) or the version keys the selection like the noise."""
        if self.version == 1 or self.policy != "weighted":
            return None
        return prepare_dpne_unigram(
            token_corpus,
            contribution_limit=self.contribution_limit,
            selection=self.selection,
            rng=self.rng(*self.dpne_selection_salt()),
        )

    def prepare(self, token_corpus, unigram=None) -> DpnePlan:
        """dpcore.prepare_dpne at every parameter but η, with this spec's draws (``unigram``: :meth:`unigram`'s,
        e.g. cached by the page; the same release with or without it)."""
        if self.version == 1:
            return prepare_dpne(
                token_corpus, **self.dpne_kwargs(), rng=self.rng(*self.dpne_salt()), selection_key="release"
            )
        return prepare_dpne(
            token_corpus,
            **self.dpne_kwargs(),
            rng=self.rng(*self.dpne_salt()),
            selection_rng=self.rng(*self.dpne_selection_salt()),
            unigram=unigram,
        )

    def dpsu_plans(self, index) -> dict:
        """The three baselines' ε-free parts by name (:func:`dpcore.dpne.prepare_dpsu`: the selection drawn from
        ``rng(*baseline_selection_salt(name))``). Evaluation only (private weighted counts)."""
        kw = dict(
            max_length=self.max_length,
            contribution_limit=self.contribution_limit,
            selection=self.selection,
            policy=self.policy,
        )
        return {
            n: prepare_dpsu(index, variant=n, **kw, rng=self.rng(*self.baseline_selection_salt(n))) for n in BASELINES
        }

    def dpsu_releases(self, plans: dict) -> dict:
        """The three baselines' releases at this spec's (ε, δ) from their plans: only the noise is drawn, from
        ``rng(*baseline_noise_salt(name))``."""
        return {
            n: plans[n].release(epsilon=self.epsilon, delta=self.delta, rng=self.rng(*self.baseline_noise_salt(n)))
            for n in BASELINES
        }

    def dpsu_baselines(self, index, plans: dict | None = None) -> dict:
        """|S_k| of DPSU-all, -even and -single by name. Version 2: from the plans (``plans``, e.g. cached by the
        page, else :meth:`dpsu_plans`) and per-(ε, δ) noise; version 1: one generator, drawn in that order."""
        if self.version == 1:
            kw = dict(
                epsilon=self.epsilon,
                delta=self.delta,
                max_length=self.max_length,
                contribution_limit=self.contribution_limit,
                selection=self.selection,
                policy=self.policy,
                rng=self.rng(*self.baseline_salt()),
            )
            rels = (dpsu_all(index, **kw), dpsu_even(index, **kw), dpsu_single(index, **kw))
            return {rel.name: rel.sizes for rel in rels}
        releases = self.dpsu_releases(self.dpsu_plans(index) if plans is None else plans)
        return {name: rel.sizes for name, rel in releases.items()}

    @staticmethod
    def spurious_rows(evaluations: dict) -> list[dict]:
        """Released and spurious k-grams per length for each η (``{η: evaluation}``; evaluation only)."""
        return [
            {"eta": eta, "k": d.k, "released": d.released, "spurious": d.spurious}
            for eta, ev in evaluations.items()
            for d in ev.levels
        ]

    def knob_sweep(self, token_corpus, knob: str, values, run=None) -> list[dict]:
        """003 Figs. 2–4: one DPNE run per value of ``knob`` (a field name), the others at this spec; |S_k| per length.

        Version 2: the run at a value is the release the page shows at that setting — ``self.replace(knob=value)``'s
        own draws (``run(spec)`` → release, e.g. the page's cached runner; by default ``spec.prepare(tc).run(η)``),
        so the sweep at the page's own setting is the page's release. Version 1: each run drew from
        ``rng("dpne-sweep", knob, value, <every parameter of the run>)``."""
        base = {**self.dpne_kwargs(), "eta": self.eta}
        if knob not in base:
            raise UserError(f"knob must be one of {sorted(base)}, got knob={knob!r}")
        rows: list[dict] = []
        for v in values:
            if self.version == 1:
                p = {**base, knob: v}
                rng = self.rng("dpne-sweep", knob, v, tuple(sorted(p.items())))
                res = dpne_extract(token_corpus, **p, rng=rng, selection_key="release")
            else:
                spec = self.replace(**{knob: v})
                res = run(spec) if run is not None else spec.prepare(token_corpus).run(spec.eta).release
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
