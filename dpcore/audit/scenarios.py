"""Worst-case neighbouring pairs, one per mechanism of the app, each with a deliberately broken variant.

Every :class:`Scenario` names a mechanism, a neighbouring pair (D, D') built to make the attack
strong, the score the attacker computes from one output, and the claimed (ε, δ). Its ``correct``
variant runs the mechanism as dpcore ships it; its ``broken`` variant (labelled BROKEN everywhere)
departs from it in the one way the scenario's text names, so that the audit has something to catch.
The audit's δ is the claimed δ; where a larger δ makes the attack stronger the scenario uses it and
says so (DPSU and DPNE, whose guarantee is mostly the δ part).

Each variant has a ``mechanism(data, rng)`` (one honest run, returning the score) and, where the
mechanism allows, a vectorised ``batch(data, n, rng)`` with the same distribution (a test compares
the two). Where a batch audits only the step that matters (TopicDP's noise step given two fixed
fits; DPNE's table for the target item), the scenario text says so.
"""

from __future__ import annotations

import dataclasses
import struct
import time
import zlib
from collections.abc import Callable
from functools import lru_cache
import numpy as np
from ..mechanisms.exponential import exponential_mechanism, exponential_mechanism_probabilities
from ..mechanisms.laplace import laplace_mechanism
from ..mechanisms.noise import laplace_noise
from ..lab.lecture import CANDIDATE_CITIES, SOCIETY_MEMBERS, city_example, city_utilities
from ..validation import check_choice, check_epsilon, check_int
from .core import audit, audit_scores
from .scenario_types import Scenario, ScenarioRun, Variant
from .scenarios_ngrams import _dpne_scenario, _dpsu_scenario, _kanonymity_scenario
from .scenarios_bayesian import (
    _bayesian_local_page_scenario,
    _bayesian_scenario,
    _end_to_end_local_page_scenario,
    _laplace_public_local_scenario,
)
from ..topicdp.mechanisms import MATRIX_MECHANISMS
from .scenarios_topics import _topicdp_scenario, _topicdp_strict_scenario, _vips_scenario
from ..errors import UserError

__all__ = [
    "SCENARIOS",
    "SCENARIO_LABELS",
    "LOCAL_SENSITIVITY_SCENARIOS",
    "scenario_names",
    "get_scenario",
    "run_scenario",
    "rebound",
    "audit_rng",
]


# --------------------------------------------------------------------------------------------------
# Laplace count (lecture 001): 50 vs 51, Δ = 1
# --------------------------------------------------------------------------------------------------


def _laplace_scenario(epsilon: float = 1.0) -> Scenario:
    eps = epsilon

    def variant(scale_factor: float, broken: bool) -> Variant:
        b = scale_factor / eps

        def mech(data, rng):
            if broken:
                return float(data) + laplace_noise(scale=b, rng=rng)
            return laplace_mechanism(float(data), epsilon=eps, sensitivity=1.0, rng=rng)

        def batch(data, n, rng):
            return float(data) + laplace_noise(scale=b, size=n, rng=rng)

        if broken:
            text = f"BROKEN: Laplace noise at half the scale, b = Δ/(2ε); the true ε of this pair is {2 * eps:g}."
        else:
            text = "Lap(0, Δ/ε) with Δ = 1 (one person changes a count by at most 1)."
        return Variant("broken: half the scale" if broken else "correct", broken, text, eps, 0.0, mech, batch)

    return Scenario(
        "laplace_count",
        "Laplace mechanism: a count",
        "Two counts one apart are the largest change one person can make, so every output ratio of the "
        "pair reaches the bound e^ε far out in the tails.",
        "D: count 50; D': count 51",
        "the released value",
        50,
        51,
        variant(1.0, False),
        variant(0.5, True),
        100_000,
    )


# --------------------------------------------------------------------------------------------------
# Exponential mechanism on the city example (lecture 001)
# --------------------------------------------------------------------------------------------------


def _exponential_scenario(epsilon: float = 1.0) -> Scenario:
    eps = epsilon
    names = tuple(CANDIDATE_CITIES)
    cities = np.array([CANDIDATE_CITIES[c] for c in names])
    example = city_example(epsilon=eps)
    removed = example.worst_pair[0].replace("D without ", "")
    members = {p: CANDIDATE_CITIES[c] for p, c in SOCIETY_MEMBERS.items()}
    d = np.array(list(members.values()), dtype=float)
    d_prime = np.array([xy for p, xy in members.items() if p != removed], dtype=float)
    du = example.sensitivity_true

    def variant(sens: float, broken: bool) -> Variant:
        pd = exponential_mechanism_probabilities(city_utilities(d, cities), epsilon=eps, sensitivity=sens)
        pdp = exponential_mechanism_probabilities(city_utilities(d_prime, cities), epsilon=eps, sensitivity=sens)
        llr = np.log(pd) - np.log(pdp)  # the attacker knows the mechanism: the Neyman–Pearson score

        def mech(data, rng):
            return float(
                llr[exponential_mechanism(city_utilities(data, cities), epsilon=eps, sensitivity=sens, rng=rng)]
            )

        def batch(data, n, rng):
            p = exponential_mechanism_probabilities(city_utilities(data, cities), epsilon=eps, sensitivity=sens)
            return llr[rng.choice(p.size, size=n, p=p)]

        if broken:
            text = (
                f"BROKEN: Δu = {sens:.4g}, a quarter of the computed Δu = {du:.4g} — the utility moves "
                "more than the mechanism assumes."
            )
        else:
            text = f"Δu = {du:.4g}, computed over D's remove-one neighbours (SPEC §1)."
        return Variant("broken: Δu too small" if broken else "correct", broken, text, eps, 0.0, mech, batch)

    return Scenario(
        "exponential_city",
        "Exponential mechanism: the secret society's city",
        f"Removing {removed} moves the members' mean city the most, so the selection probabilities of this "
        "pair differ the most (lecture 001).",
        f"D: the four members; D': without {removed}",
        "log(Pr[city | D] / Pr[city | D']) of the selected city",
        d,
        d_prime,
        variant(du, False),
        variant(du / 4.0, True),
        100_000,
    )


# --------------------------------------------------------------------------------------------------
# Registry and runner
# --------------------------------------------------------------------------------------------------

_BUILDERS: dict[str, Callable[..., Scenario]] = {
    "laplace_count": _laplace_scenario,
    "exponential_city": _exponential_scenario,
    "dpsu": _dpsu_scenario,
    "dpne_redraw": _dpne_scenario,
    "bayesian": _bayesian_scenario,
    "bayesian_local_page": _bayesian_local_page_scenario,
    "end_to_end_local_page": _end_to_end_local_page_scenario,
    "laplace_public_local": _laplace_public_local_scenario,
    "topicdp": _topicdp_scenario,
    "vips": _vips_scenario,
    "topicdp_strict": _topicdp_strict_scenario,
    "kanonymity": _kanonymity_scenario,
}
SCENARIOS = tuple(_BUILDERS)
LOCAL_SENSITIVITY_SCENARIOS = ("bayesian_local_page", "end_to_end_local_page", "laplace_public_local")
"""One scenario per mechanism whose sensitivity is measured on the data (SPEC §3b), each run on D and on D'."""


def scenario_names() -> tuple[str, ...]:
    """The registered scenario names, in display order."""
    return SCENARIOS


NO_EPSILON = ("kanonymity",)
"""Scenarios whose mechanism claims no ε (an audit of them at a chosen ε means nothing)."""


def get_scenario(name: str, *, epsilon: float | None = None) -> Scenario:
    """The scenario called ``name`` (built once per ε; the pairs are small).

    ``epsilon``: the ε the mechanism is run at and claims (issue 31 item 12: a reviewer audits at an ε of their
    choice); None: the scenario's own (1, or 4 for DPNE, whose δ part needs a large ε to be measurable). The pair,
    the score and δ stay the scenario's.
    """
    check_choice("scenario", name, SCENARIOS)
    if epsilon is not None and name in NO_EPSILON:
        raise UserError(f"epsilon must be None for scenario {name!r}, which claims no ε, got epsilon={epsilon!r}")
    return _built(name, None if epsilon is None else check_epsilon(epsilon=epsilon))


@lru_cache(maxsize=64)
def _built(name: str, epsilon: float | None) -> Scenario:
    return _BUILDERS[name]() if epsilon is None else _BUILDERS[name](epsilon=epsilon)


def run_scenario(
    name: str,
    *,
    broken: bool = False,
    trials=None,
    rng,
    confidence=0.95,
    progress=None,
    vectorised: bool = True,
    epsilon: float | None = None,
) -> ScenarioRun:
    """Audit one variant of a registered scenario.

    Args:
      name: a name from :data:`SCENARIOS`.
      broken: audit the BROKEN variant instead of the correct one.
      trials: runs per dataset (default: the scenario's ``default_trials``).
      rng: numpy Generator (used as it is) or int seed (then the generator is
        ``audit_rng(seed, scenario=name, broken=broken, trials=trials)``, so each variant is its own experiment).
      confidence: joint confidence of the bound.
      progress: optional ``progress(done, total)`` callback.
      vectorised: use the variant's batch path where it has one.
      epsilon: run and claim this ε instead of the scenario's own (:func:`get_scenario`).
    """
    if not isinstance(broken, (bool, np.bool_)):
        raise TypeError(f"broken must be True or False, got broken={broken!r}")
    sc = get_scenario(name, epsilon=epsilon)
    v = sc.variant(bool(broken))
    trials = sc.default_trials if trials is None else check_int("trials", trials, low=10)
    if not isinstance(rng, np.random.Generator):
        rng = audit_rng(rng, scenario=name, broken=bool(broken), trials=trials, epsilon=epsilon)
    t0, c0 = time.perf_counter(), time.process_time()
    batch = v.batch if vectorised else None
    result = audit(
        v.mechanism,
        sc.d,
        sc.d_prime,
        trials=trials,
        delta=v.delta,
        confidence=confidence,
        epsilon_claimed=v.epsilon_claimed,
        rng=rng,
        progress=progress,
        batch=batch,
    )
    return ScenarioRun(
        name, v.label, v.broken, result, time.perf_counter() - t0, time.process_time() - c0, batch is not None
    )


def rebound(run: ScenarioRun, confidence) -> ScenarioRun:
    """``run``'s audit at another ``confidence``: the same outputs, the event chosen and bounded again.

    The runs of an audit do not depend on the confidence (:func:`audit_rng` holds no confidence, and the mechanism
    never sees it), so this equals :func:`run_scenario` at ``confidence`` with the same generator — its event, counts,
    intervals and bound — without running the mechanism again (issue 29: on the Privacy audit page, a move of the
    confidence reran DPSU's 2 × 2,000 runs, 1.2 s, for a bound that takes milliseconds). The times are the runs'."""
    r = run.result
    result = audit_scores(
        r.scores_d, r.scores_d_prime, delta=r.delta, confidence=confidence, epsilon_claimed=r.epsilon_claimed
    )
    return dataclasses.replace(run, result=result)


SCENARIO_LABELS: dict[str, str] = {
    "Laplace count": "laplace_count",
    "Exponential (cities)": "exponential_city",
    "DPSU": "dpsu",
    "DPNE": "dpne_redraw",
    "BayesianDP": "bayesian",
    "BayesianDP local γ (the page's pair)": "bayesian_local_page",
    "EndToEndDP (the page's pair)": "end_to_end_local_page",
    "Laplace + public": "laplace_public_local",
    # the matrix mechanisms that have a scenario, from their records (dpcore.topicdp.MATRIX_MECHANISMS)
    **{r.name: r.audit_scenario for r in MATRIX_MECHANISMS if r.audit_scenario is not None},
    "VIPS-LDA": "vips",
    "k-anonymity": "kanonymity",
}
"""Short names of the scenarios (the Privacy audit page's picker and its URL; lecture exercises) → names."""


def audit_rng(
    seed: int, *, scenario: str, broken: bool, trials: int, epsilon: float | None = None
) -> np.random.Generator:
    """The generator an audit runs on: ``default_rng([seed, 10, crc32(scenario), broken, trials])``, and the two
    32-bit halves of ε's IEEE bits after them when the audit runs at an ε of the reviewer's choice (``epsilon``; None
    = the scenario's own, whose generator is unchanged so old records replay): an audit at another ε is a new
    experiment, never the old draws rescaled.

    The page, its exports, its exercises and :func:`run_scenario` with an int seed use this one. Every parameter
    that changes the experiment is in the seed (issue 30, item 8): the correct and the BROKEN variant of a
    scenario, two scenarios, or two trial counts at one seed are independent experiments — with ``[seed, 10]``
    alone, the broken Laplace's scores were the correct one's halved and the strict TopicDP's correlated at 0.95.
    The confidence is not in it: it changes the bound read from the same runs, not the runs.
    """
    check_int("seed", seed, low=0)
    check_choice("scenario", scenario, SCENARIOS)
    if not isinstance(broken, (bool, np.bool_)):
        raise TypeError(f"broken must be True or False, got broken={broken!r}")
    check_int("trials", trials, low=10)
    salt = zlib.crc32(scenario.encode("utf-8"))
    words = [int(seed), 10, salt, int(bool(broken)), int(trials)]
    if epsilon is not None:
        bits = struct.unpack("<Q", struct.pack("<d", float(check_epsilon(epsilon=epsilon))))[0]
        words += [bits >> 32, bits & 0xFFFFFFFF]
    return np.random.default_rng(words)
