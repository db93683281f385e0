"""Exercises for TopicDP (thesis 004; SPEC §5).

What the page teaches: the sensitivity sampler needs h(γ) neighbouring pairs (2h LDA fits); the thesis's
TopicDP splits ε over the m·n entries, so its σ grows with the table (an error: strict TopicDP on the
global bound √(2m) needs no split and no sampling, and adds far less noise); raising γ uses fewer pairs
and a smaller sampled Δ_s — but not by much; every mechanism's noise side by side; and, on the real chat
corpus, at what ε the released topics can still be matched to what people talked about, and how far VIPS-LDA
(noise on counts, inside training) is ahead of the thesis's TopicDP there. Answers that
depend on the sampled sensitivities read them from the stored draws for the corpus the settings name
(shipped results or the local cache; nothing is sampled here) and raise a ValueError, which the app
shows, when they are missing.
"""

from __future__ import annotations

import importlib
import math

import numpy as np

from ...errors import UserError
from . import _data
from ._base import CHOICE, Exercise, Solution

# modules, looked up at call time (a test swaps a function and sees the answer change)
_topicdp_mechanisms = importlib.import_module("dpcore.topicdp.mechanisms")
_topicdp_sampler = importlib.import_module("dpcore.topicdp.sampler")
_topic_model_fitting = importlib.import_module("dpcore.topicdp.fitting")
_topic_prompts = importlib.import_module("dpcore.topicdp.prompts")
_topic_vips = importlib.import_module("dpcore.topicdp.vips_comparison")

PAGE = "4_TopicDP"
REFERENCE_GAMMA = 0.1  # the shipped draws cover it (they cover γ ≥ 0.05)
"""The γ the "does σ halve?" exercise starts from (h = 285 pairs)."""


def _fits_for_gamma(s) -> Solution:
    gamma = float(s["gamma"])
    size = _topicdp_sampler.sensitivity_sampler_size(gamma=gamma)
    return Solution(2 * size.h, {"gamma": gamma, "h": size.h, "k": size.k, "rho": size.rho})


def _sigma_vs_size(s) -> Solution:
    eps, delta = float(s["epsilon"]), float(s["delta"])
    m, n = int(s["m"]), int(s["n"])
    m0, n0 = m // 2, n // 2
    big = _topicdp_mechanisms.topicdp_sigma(epsilon=eps, delta=delta, sensitivity=1.0, m=m, n=n)
    small = _topicdp_mechanisms.topicdp_sigma(epsilon=eps, delta=delta, sensitivity=1.0, m=m0, n=n0)
    return Solution(
        big / small,
        {"m": m, "n": n, "m0": m0, "n0": n0, "eps": eps, "eps_entry": eps / (m * n), "eps_entry0": eps / (m0 * n0)},
    )


def _sensitivity(s, gamma):
    draws = _data.sensitivity_draws(s)
    return draws.sensitivity(gamma=gamma, m=int(s["m"]), n=int(s["n"]))


def _gamma_shrinks_sigma(s) -> Solution:
    eps, delta = float(s["epsilon"]), float(s["delta"])
    m, n = int(s["m"]), int(s["n"])
    gamma = float(s["gamma"])
    ref, now = _sensitivity(s, REFERENCE_GAMMA), _sensitivity(s, gamma)
    sig_ref = _topicdp_mechanisms.topicdp_sigma(epsilon=eps, delta=delta, sensitivity=ref.delta_s, m=m, n=n)
    sig_now = _topicdp_mechanisms.topicdp_sigma(epsilon=eps, delta=delta, sensitivity=now.delta_s, m=m, n=n)
    return Solution(
        sig_now / sig_ref,
        {
            "gamma": gamma,
            "gamma0": REFERENCE_GAMMA,
            "h": now.h,
            "h0": ref.h,
            "k": now.k,
            "k0": ref.k,
            "ds": now.delta_s,
            "ds0": ref.delta_s,
            "sigma": sig_now,
            "sigma0": sig_ref,
            "halves": "does not halve" if sig_now > sig_ref / 2 else "halves",
            "lesson": (
                "barely lowers the noise: the largest of fewer draws is still one "
                "of the rare users who move the topics a lot"
            )
            if sig_now > sig_ref / 2
            else "lowers the noise here: the largest draws were rare enough to fall out",
        },
    )


def _least_noise(s) -> Solution:
    eps, delta = float(s["epsilon"]), float(s["delta"])
    m, n = int(s["m"]), int(s["n"])
    ds = _sensitivity(s, float(s["gamma"])).delta_s
    records = [_topicdp_mechanisms.matrix_mechanism(name) for name in _topicdp_mechanisms.TOPIC_MECHANISMS]
    # every mechanism of the page by its record: σ, or √2·b for Laplace (the sd of Lap(b))
    stds = {r.label: r.std(epsilon=eps, delta=delta, sensitivity=ds, m=m, n=n) for r in records}
    names = tuple(stds)
    index = int(np.argmin([stds[k] for k in names]))
    keys = tuple(r.key for r in records)
    return Solution(
        index,
        {
            "eps": eps,
            "delta": delta,
            "m": m,
            "n": n,
            "ds": ds,
            "gamma": float(s["gamma"]),
            "best": names[index],
            **{f"sd_{k}": v for k, v in zip(keys, stds.values())},
        },
        names,
    )


def _strict_vs_thesis(s) -> Solution:
    eps, delta = float(s["epsilon"]), float(s["delta"])
    m, n = int(s["m"]), int(s["n"])
    gamma = float(s["gamma"])
    ds = _sensitivity(s, gamma).delta_s
    thesis = _topicdp_mechanisms.topicdp_sigma(epsilon=eps, delta=delta, sensitivity=ds, m=m, n=n)
    strict = _topicdp_mechanisms.strict_topicdp_sigma(epsilon=eps, delta=delta, m=m)
    true_eps = _topicdp_mechanisms.topicdp_true_epsilon(epsilon=eps, delta=delta, m=m, n=n)
    return Solution(
        thesis / strict,
        {
            "eps": eps,
            "delta": delta,
            "m": m,
            "n": n,
            "gamma": gamma,
            "ds": ds,
            "thesis": thesis,
            "strict": strict,
            "bound": math.sqrt(2 * m),
            "true_eps": true_eps,
        },
    )


def _strict_keeps_prompts(s) -> Solution:
    delta, gamma = float(s["delta"]), float(s["gamma"])
    m, n = int(s["m"]), int(s["n"])
    model, docs = _data.topic_model_and_prompts(s)
    table = _topic_model_fitting.topic_keyword_matrix(model, m=m, n=n)
    ds = _sensitivity(s, gamma).delta_s
    curve = _topic_prompts.prompt_survival_curve(
        table, docs, sensitivity=ds, delta=delta, gamma=gamma, seed=int(s["seed"])
    )
    first = curve.first_epsilon("TopicDP strict")
    if first is None:
        raise UserError("strict TopicDP keeps fewer than half of the matched topics at every ε of the chart")
    i = curve.epsilons.index(first)
    kept = curve.kept["TopicDP strict"]
    return Solution(
        first,
        {
            "m": m,
            "n": n,
            "delta": delta,
            "gamma": gamma,
            "matched": curve.before.matched,
            "half": 0.5 * curve.before.matched,
            "kept": kept[i],
            "below": curve.epsilons[i - 1] if i else first,
            "kept_below": kept[i - 1] if i else kept[i],
            "chance": curve.chance,
            "draws": curve.draws,
            "sigma": _topicdp_mechanisms.strict_topicdp_sigma(epsilon=first, delta=delta, m=m),
            "sigma1": _topicdp_mechanisms.strict_topicdp_sigma(epsilon=1.0, delta=delta, m=m),
        },
    )


def _vips_vs_thesis(s) -> Solution:
    delta, gamma, seed = float(s["delta"]), float(s["gamma"]), int(s["seed"])
    m, n = int(s["m"]), int(s["n"])
    clip, iterations = float(s["clip_norm"]), int(s["iterations"])
    model, _ = _data.topic_model_and_prompts(s)
    table = _topic_model_fitting.topic_keyword_matrix(model, m=m, n=n)
    setup, docs = _data.vips_setup_and_prompts(s)
    sweep = _topic_vips.vips_sweep(
        setup, model=model, table=table, docs=docs, delta=delta, clip_norm=clip, iterations=iterations, seed=seed
    )
    half = sweep.first_epsilon(0.5)
    if half is None:
        raise UserError("VIPS-LDA matches fewer than half of its topics to prompts at every ε of the chart")
    i = sweep.epsilons.index(half)
    l1 = sweep.at(half)
    ds = _sensitivity(s, gamma).delta_s
    answer = _topic_vips.thesis_epsilon_for_l1(table.matrix, l1, delta=delta, delta_s=ds, seed=seed)
    if answer is None:
        raise UserError("TopicDP (as in the thesis) does not reach VIPS-LDA's L1 at any ε")
    return Solution(
        answer,
        {
            "m": m,
            "n": n,
            "delta": delta,
            "gamma": gamma,
            "B": clip,
            "J": iterations,
            "half": half,
            "matched": sweep.matched[i],
            "below": sweep.epsilons[i - 1] if i else half,
            "matched_below": sweep.matched[i - 1] if i else sweep.matched[i],
            "draws": sweep.draws,
            "l1": l1,
            "ds": ds,
            "ratio": answer / half,
            "sigma": _topicdp_mechanisms.topicdp_sigma(epsilon=answer, delta=delta, sensitivity=ds, m=m, n=n),
            "vips_sigma": sweep.sigmas[i],
        },
    )


_TABLE = {"epsilon": 1.0, "delta": 1e-5, "m": 10, "n": 10, "corpus": "classroom"}
_REAL_TABLE = {**_TABLE, "corpus": "chat", "gamma": 0.1, "seed": 0}

EXERCISES = (
    Exercise(
        id="topicdp-sampler-fits",
        page=PAGE,
        title="What a small γ costs",
        settings={"gamma": 0.05},
        question=(
            "γ = {gamma:g}. How many LDA fits does the sensitivity sampler need (two per sampled pair of "
            "neighbouring datasets)?"
        ),
        solve=_fits_for_gamma,
        uses=("dpcore.topicdp.sampler:sensitivity_sampler_size",),
        hints=(
            "The tab *Sampled sensitivities* lists h for several γ.",
            "ρ_s = exp(W₋₁(−γ/(2√e)) + ½), h = ⌈ln(1/ρ_s)/(2(γ − ρ_s)²)⌉.",
        ),
        solution=(
            r"$\rho_s=\exp(W_{{-1}}(-\gamma/(2\sqrt e))+\tfrac12)$ = {rho:.5f}, "
            r"$h=\lceil\ln(1/\rho_s)/(2(\gamma-\rho_s)^2)\rceil$ = {h} pairs, each fitted twice (D and D′): "
            "**{answer}** LDA fits. h grows like 1/γ²: a strong confidence is expensive."
        ),
        rel_tol=0.0,
        abs_tol=0.5,
        decimals=0,
    ),
    Exercise(
        id="topicdp-sigma-table-size",
        page=PAGE,
        title="A bigger table, more noise per entry",
        settings=_TABLE,
        question=(
            "TopicDP as in the thesis gives each of the m·n entries the budget ε′ = ε/(m·n). With the same Δ_s, "
            "ε and δ, by what factor is its σ per entry larger for the {m} × {n} table than for a {m0} × {n0} "
            "table?"
        ),
        solve=_sigma_vs_size,
        uses=("dpcore.topicdp.mechanisms:topicdp_sigma",),
        hints=("σ = Δ_s·√(2 ln(1.25/δ))/ε′. What happens to ε′ when m·n grows?",),
        solution=(
            r"$\sigma=\Delta_s\sqrt{{2\ln(1.25/\delta)}}\,mn/\varepsilon$: ε′ = {eps_entry:g} for {m} × {n}, "
            r"{eps_entry0:g} for {m0} × {n0}, so σ grows by ({m}·{n})/({m0}·{n0}) = **{answer}**. Splitting ε "
            "over entries (sequential composition) makes every entry noisier as the table grows — and is not "
            "needed: the Gaussian is calibrated to the whole table's ℓ2 sensitivity, so *TopicDP corrected* "
            "and *TopicDP strict* do not split ε."
        ),
        rel_tol=0.005,
    ),
    Exercise(
        id="topicdp-gamma-halves",
        page=PAGE,
        title="Does a weaker γ halve the noise?",
        settings={**_TABLE, "gamma": 0.3},
        question=(
            "Going from γ = {gamma0:g} to γ = {gamma:g} the sampler uses {h0} → {h} pairs. σ per entry is "
            "Δ_s·√(2 ln(1.25/δ))·m·n/ε. What is σ(γ = {gamma:g}) / σ(γ = {gamma0:g}) on the synthetic classroom corpus? "
            "Does σ halve?"
        ),
        solve=_gamma_shrinks_sigma,
        uses=("dpcore.topicdp.mechanisms:topicdp_sigma", "dpcore.topicdp.sampler:load_sensitivity_draws"),
        hints=(
            "Only Δ_s changes with γ. Read it from the metric (or the table in *Sampled sensitivities*) at both γ.",
            "Δ_s is the k-th smallest of the first h sampled distances; at these γ, k = h: the largest.",
        ),
        solution=(
            "Δ_s is the k-th smallest of the first h sampled distances (k = {k0} of {h0} at γ = {gamma0:g}, "
            "{k} of {h} at γ = {gamma:g}): {ds0:.4g} and {ds:.4g}. σ is proportional to Δ_s: {sigma0:.4g} → {sigma:.4g}, "
            "ratio **{answer}** — σ {halves}. Raising γ gives up the promise for more neighbours and {lesson}."
        ),
        rel_tol=0.01,
    ),
    Exercise(
        id="topicdp-least-noise",
        page=PAGE,
        title="Which mechanism adds the least noise?",
        settings={**_TABLE, "gamma": 0.1},
        question=(
            "ε = {eps:g}, δ = {delta:g}, a {m} × {n} table, γ = {gamma:g}. Which mechanism adds noise with the "
            "smallest standard deviation per entry? (Compare the metrics; Laplace's b is not a standard "
            "deviation.)"
        ),
        solve=_least_noise,
        uses=(
            "dpcore.topicdp.mechanisms:topicdp_sigma",
            "dpcore.topicdp.mechanisms:corrected_topicdp_sigma",
            "dpcore.topicdp.mechanisms:strict_topicdp_sigma",
            "dpcore.topicdp.mechanisms:mvg_sigma",
            "dpcore.topicdp.mechanisms:matrix_laplace_scale",
        ),
        hints=(
            "The standard deviation of Lap(0, b) is √2·b.",
            "The thesis's ε′ = ε/(m·n) multiplies its σ by m·n; the corrected σ uses the same Δ_s without the split.",
        ),
        solution=(
            "Standard deviations per entry: TopicDP as in the thesis {sd_thesis:.4g} (Δ_s = {ds:.4g}, ε′ = "
            "ε/(m·n)), TopicDP corrected {sd_corrected:.4g} (same Δ_s, no split), TopicDP strict {sd_strict:.4g} "
            "(global √(2m), no sampling), MVG {sd_mvg:.4g}, Laplace √2·2m/ε = {sd_laplace:.4g}. Smallest: "
            "**{answer}**. The guarantees differ too: strict TopicDP and Laplace are DP for the values "
            "(orange: the choice of topics and keywords is not covered), the mechanisms with a sampled Δ_s "
            "only random DP."
        ),
        kind=CHOICE,
    ),
    Exercise(
        id="topicdp-strict-vs-thesis",
        page=PAGE,
        title="Strict TopicDP against the thesis's σ",
        settings={**_TABLE, "gamma": 0.1},
        question=(
            "ε = {eps:g}, δ = {delta:g}, a {m} × {n} table, γ = {gamma:g}. Strict TopicDP calibrates the analytic "
            "Gaussian to the global bound √(2m) instead of a sampled Δ_s and does not split ε. How many times "
            "smaller is its σ than the σ of TopicDP as in the thesis?"
        ),
        solve=_strict_vs_thesis,
        uses=("dpcore.topicdp.mechanisms:topicdp_sigma", "dpcore.topicdp.mechanisms:strict_topicdp_sigma"),
        hints=(
            "Both σ are metrics on the page: *TopicDP σ, as in the thesis* and *TopicDP strict σ*.",
            "Thesis: Δ_s·√(2 ln(1.25/δ))·m·n/ε. Strict: the analytic σ for Δ = √(2m).",
        ),
        solution=(
            r"Thesis: $\Delta_s\sqrt{{2\ln(1.25/\delta)}}\,mn/\varepsilon$ = {thesis:,.4g} with Δ_s = {ds:.4g}; "
            r"strict: the analytic Gaussian for $\Delta=\sqrt{{2m}}$ = {bound:.4g}, σ = {strict:.4g}. Ratio "
            "**{answer}**. The thesis's σ really gives ε = {true_eps:.2g}, not {eps:g}: its split of ε over the "
            "m·n entries is not needed, and the global bound is only a small factor above the sampled Δ_s — so "
            "strict TopicDP is proven (ε, δ)-DP for the values and still adds far less noise."
        ),
        rel_tol=0.01,
    ),
    Exercise(
        id="topicdp-real-prompts-strict",
        page=PAGE,
        title="Real chat: when can a reader tell the topics again?",
        settings=_REAL_TABLE,
        question=(
            "Real chat corpus, a {m} × {n} table, δ = {delta:g}, γ = {gamma:g}: before noise {matched} topics "
            "match a distinct conversation prompt. In the tab *Prompts after noise*, at which ε of the chart does "
            "strict TopicDP first keep at least half of them ({half:g}) on their prompt (mean of the chart's "
            "draws)?"
        ),
        solve=_strict_keeps_prompts,
        uses=("dpcore.topicdp.prompts:prompt_survival_curve", "dpcore.topicdp.mechanisms:strict_topicdp_sigma"),
        hints=(
            "Read the strict TopicDP line against the dashed 'before noise' line; the x axis is logarithmic.",
            "A topic is kept when, after noise, the table still sorts its conversations to the same prompt.",
        ),
        solution=(
            "Strict TopicDP keeps {kept_below:.2g} topics at ε = {below:g} and {kept:.2g} at ε = **{answer}** (mean "
            "of {draws} draws; random rows keep {chance:.2g} by chance). Its σ there is {sigma:.3g} against "
            "{sigma1:.3g} at ε = 1: the entries of a {m} × {n} table are about 1/{n}, so the noise must shrink "
            "below them before the rows say what they are about — at ε far beyond any meaningful promise. "
            "A table this fine-grained cannot be released usefully with DP on 920 people."
        ),
        rel_tol=0.01,
        decimals=0,
    ),
    Exercise(
        id="topicdp-vips-vs-thesis",
        page=PAGE,
        title="Real chat: VIPS-LDA against TopicDP as in the thesis",
        settings={**_REAL_TABLE, "clip_norm": 2.0, "iterations": 1},
        question=(
            "Real chat corpus, δ = {delta:g}, VIPS-LDA with B = {B:g} and J = {J}. In the tab *VIPS-LDA against ε*: "
            "at which ε of the chart does VIPS-LDA's own released table first match at least half of its {m} "
            "topics to distinct conversation prompts (mean of the chart's releases)? And what ε would TopicDP "
            "as in the thesis (γ = {gamma:g}) need for the same mean L1 to the page's {m} × {n} table? Give that "
            "second ε."
        ),
        solve=_vips_vs_thesis,
        uses=("dpcore.topicdp.vips_comparison:vips_sweep", "dpcore.topicdp.vips_comparison:thesis_epsilon_for_l1"),
        hints=(
            "First chart: the smallest ε where the VIPS-LDA line reaches the 'half of the topics' line. Read "
            "VIPS-LDA's L1 there on the second chart (its Numbers table).",
            "On the second chart, follow TopicDP's line to the right until it comes down to that L1; between two "
            "points of its log-scaled axis, interpolate.",
        ),
        solution=(
            "VIPS-LDA's table matches {matched_below:.2g} of {m} topics to distinct prompts at ε = {below:g} and "
            "{matched:.2g} at ε = **{half:g}** (mean of {draws} releases); its σ there is {vips_sigma:.3g} on "
            "counts, and its mean L1 to the page's table is {l1:.3g}. TopicDP as in the thesis (Δ_s = {ds:.3g}) "
            "comes down to that L1 only at ε ≈ **{answer}**, with σ = {sigma:.3g} per entry — about {ratio:,.0f} "
            "times the ε VIPS-LDA needs. VIPS-LDA's noise is on counts that grow with the people; TopicDP's on "
            "probabilities of at most 1, with ε split over the {m}·{n} entries."
        ),
        rel_tol=0.25,
        decimals=0,
    ),
)
