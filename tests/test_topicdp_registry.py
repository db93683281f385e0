"""The TopicDP mechanism registry (issue 33 item 1): one list of records that every consumer reads, MatrixRelease
built in one place from the same draws as before, and the record added through it — MVG strict (MVG's σ on the
global bounds s₂ = √(2m), γ_F = √m): its σ on a worked example, brute force against the fast path, and its privacy
claim checked by the exact Gaussian profile and by an audit that catches a broken variant."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

import dpcore
from dpcore import topicdp as tdp
from dpcore.audit import SCENARIO_LABELS, audit, get_scenario
from dpcore.errors import UserError
from dpcore.lab.budget import budget_entry
from dpcore.lab.review import review_release
from dpcore.mechanisms.gaussian import analytic_gaussian_sigma, gaussian_delta
from dpcore.topicdp.mechanisms import MATRIX_MECHANISMS, matrix_mechanism, release_matrix

ROOT = Path(__file__).resolve().parent.parent
W = np.array([[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]])
NAMES = tuple(r.name for r in MATRIX_MECHANISMS)


# ------------------------------------------------------------------ the registry is the only list


def test_every_consumer_lists_the_registry_names():
    on_page = tuple(r.name for r in MATRIX_MECHANISMS if r.on_page)
    assert len(set(NAMES)) == len(NAMES) and "MVG strict" in NAMES and "MVG strict" not in on_page
    assert tdp.TOPIC_MECHANISMS == on_page
    assert tdp.SAMPLED_MECHANISMS == tuple(r.name for r in MATRIX_MECHANISMS if r.on_page and r.bound is None)
    assert tdp.SAMPLER_FREE_MECHANISMS == tuple(n for n in on_page if n not in tdp.SAMPLED_MECHANISMS)
    # the curves and releases
    assert tuple(tdp.release_all(W, epsilon=1, delta=1e-5, sensitivity=0.1, rng=0, gamma=0.1)) == on_page
    assert tuple(tdp.release_without_sampler(W, epsilon=1, delta=1e-5, rng=0)) == tdp.SAMPLER_FREE_MECHANISMS
    assert tuple(tdp.compare_noise(delta_s=0.1, epsilons=(1.0,), delta=1e-5, m=2, n=3).std) == on_page
    errs = tdp.release_errors(W, epsilon=1, delta=1e-5, sensitivity=0.1, repetitions=2, rng=0)
    assert tuple(errs) == on_page
    # every name the guarantee, the review and the budget accept
    for name in NAMES:
        assert tdp.matrix_guarantee(name, epsilon=1, delta=1e-5, gamma=0.1).epsilon == 1
    with pytest.raises(ValueError, match="mechanism"):
        tdp.matrix_guarantee("Staircase", epsilon=1, delta=1e-5)


def test_the_app_reads_the_registry():
    from dpui.common.charts import MECHANISM_INDEX, STRICT_VARIANTS, mechanism_style
    from dpui.topicdp.panels import guarantees
    from dpui.topicdp.sampler import ON_DEMAND

    # every record has a chart style; the page's are told apart (colour, dash or marker)
    for r in MATRIX_MECHANISMS:
        assert MECHANISM_INDEX.get(r.name) == r.style or STRICT_VARIANTS.get(r.name) == r.style
    styles = [mechanism_style(n) for n in tdp.TOPIC_MECHANISMS]
    assert len({(s.colour, s.dash, s.symbol) for s in styles}) == len(styles)
    assert ON_DEMAND == tuple(matrix_mechanism(n).label for n in tdp.SAMPLED_MECHANISMS)
    releases = tdp.release_all(W, epsilon=1, delta=1e-5, sensitivity=0.1, rng=0, gamma=0.1)
    assert list(guarantees(releases)) == [matrix_mechanism(n).badge_name for n in tdp.TOPIC_MECHANISMS]
    # the audit's picker lists exactly the records that name a scenario, and each scenario exists
    matrix_labels = {k: v for k, v in SCENARIO_LABELS.items() if k in NAMES}
    assert matrix_labels == {r.name: r.audit_scenario for r in MATRIX_MECHANISMS if r.audit_scenario}
    for scenario in matrix_labels.values():
        assert get_scenario(scenario).name == scenario


def test_no_consumer_hard_codes_the_mechanisms():
    """The files that used to list the mechanisms by name (issue 33: ~11 files found by grepping "MVG") no longer
    name the ones they enumerate: a new record reaches them without an edit."""
    for path in (
        "dpui/topicdp/panels.py",
        "dpui/topicdp/sampler.py",
        "dpui/common/charts.py",
        "dpcore/lab/review_kinds.py",
    ):
        src = (ROOT / path).read_text(encoding="utf-8")
        for name in ('"MVG"', '"TopicDP corrected"', '"TopicDP strict"'):
            assert name not in src, (path, name)
    src = (ROOT / "dpcore/topicdp/experiments.py").read_text(encoding="utf-8")
    release_part = src[src.index("def release_all(") : src.index("def release_errors(")]
    assert '"MVG"' not in release_part and '"Laplace"' not in release_part


# ------------------------------------------------------------------ one place builds a release, same draws as before


@pytest.mark.parametrize("name", NAMES)
def test_release_matrix_draws_exactly_the_old_inline_noise(name):
    """Replays stay bit-identical: w + σ·standard_normal (Gaussians) or w + laplace(0, b) from the same generator,
    exactly as the mechanisms drew them inline before the registry; clipped and renormalised."""
    r = matrix_mechanism(name)
    rel = release_matrix(name, W, epsilon=2, delta=1e-6, sensitivity=0.3, gamma=0.1, rng=np.random.default_rng(7))
    rng = np.random.default_rng(7)
    expected = W + rng.laplace(0.0, rel.noise_scale, size=W.shape) if r.noise == "laplace" else None
    if expected is None:
        expected = W + rel.noise_scale * rng.standard_normal(W.shape)
    assert np.array_equal(rel.noisy, expected)
    clipped = np.clip(expected, 0, None)
    for i in range(W.shape[0]):  # brute-force renormalising, row by row
        s = clipped[i].sum()
        assert np.allclose(rel.matrix[i], clipped[i] / s if s > 0 else np.full(W.shape[1], 1 / W.shape[1]))
    assert rel.noise_scale == r.scale(epsilon=2, delta=1e-6, sensitivity=0.3, m=2, n=3)
    assert rel.sensitivity == (0.3 if r.bound is None else r.bound(2))
    assert (rel.gamma == 0.1) == (r.bound is None)
    assert rel.guarantee == tdp.matrix_guarantee(name, epsilon=2, delta=1e-6, gamma=rel.gamma, m=2, n=3)


@pytest.mark.parametrize("name", NAMES)
def test_every_release_checks_its_draw_scale(name, monkeypatch):
    """check_draw_scale on every release, once, on the scale it draws with (before the registry only TopicDP and
    Laplace called it); a scale above 1e300 is refused with the parameters named."""
    import dpcore.topicdp.mechanisms as mech

    seen = []
    real = mech.check_draw_scale
    monkeypatch.setattr(mech, "check_draw_scale", lambda n, v, **kw: seen.append((n, v)) or real(n, v, **kw))
    rel = release_matrix(name, W, epsilon=1, delta=1e-5, sensitivity=0.3, gamma=0.1, rng=0)
    assert seen == [("b" if matrix_mechanism(name).noise == "laplace" else "σ", rel.noise_scale)]
    monkeypatch.setattr(mech, "check_draw_scale", lambda n, v, **kw: real(n, 1e301, **kw))
    with pytest.raises(UserError, match="too large to draw"):
        release_matrix(name, W, epsilon=1, delta=1e-5, sensitivity=0.3, gamma=0.1, rng=0)


@pytest.mark.parametrize("name", NAMES)
def test_review_and_budget_read_the_record(name):
    r = matrix_mechanism(name)
    rel = release_matrix(name, W, epsilon=1, delta=1e-5, sensitivity=0.3, gamma=0.1, rng=0)
    review = review_release(rel)
    (noise,) = review.noise
    assert review.guarantee == rel.guarantee and review.budget is not None
    assert noise.to_dict() == review.to_dict()["noise"][0]
    event = budget_entry(rel).event
    assert event is not None and event[0] == ("approximate" if r.budget_event == "approximate" else r.noise)


# ------------------------------------------------------------------ the added record: MVG strict


def test_mvg_strict_sigma_worked_example():
    """m = n = 10, ε = 1, δ = 1e-5: γ_F = √10, s₂ = √20 in Chanyaswad et al.'s i.i.d. σ, written out by hand."""
    m = n = 10
    eps, delta = 1.0, 1e-5
    gf, s2 = math.sqrt(10), math.sqrt(20)
    hr = sum(1 / k for k in range(1, 11))
    hh = sum(1 / math.sqrt(k) for k in range(1, 11))
    zeta = math.sqrt(2 * math.sqrt(-m * n * math.log(delta)) - 2 * math.log(delta) + m * n)
    alpha = (hr + hh) * gf**2 + 2 * hr * gf * s2
    beta = 2 * (m * n) ** 0.25 * hr * s2 * zeta
    p = (-beta + math.sqrt(beta**2 + 8 * alpha * eps)) ** 2 / (4 * alpha**2)
    sigma = matrix_mechanism("MVG strict").scale(epsilon=eps, delta=delta, sensitivity=None, m=m, n=n)
    assert sigma == pytest.approx(math.sqrt(math.sqrt(m * n) / p), rel=1e-9)
    assert float(f"{sigma:.4g}") == 1810.0
    # 108× strict TopicDP's analytic σ on the same bound (16.68, SPEC §5): MVG's sufficient condition is loose
    assert sigma / tdp.strict_topicdp_sigma(epsilon=eps, delta=delta, m=m) == pytest.approx(108.5, abs=0.1)
    rel = release_matrix("MVG strict", np.full((m, n), 0.1), epsilon=eps, delta=delta, rng=0)
    assert rel.noise_scale == sigma and rel.sensitivity == pytest.approx(math.sqrt(20)) and rel.gamma is None


def test_mvg_strict_bounds_hold_by_brute_force():
    """The two global bounds it is calibrated to, over random row-stochastic tables: ‖f(D)‖_F ≤ γ_F = √m and
    ‖f(D) − f(D′)‖_F ≤ s₂ = √(2m), both reached by one-hot rows."""
    rng = np.random.default_rng(11)
    for m, n in [(1, 2), (3, 5), (10, 10)]:
        a = rng.dirichlet(rng.uniform(0.05, 2, n), size=(4000, m))
        b = rng.dirichlet(rng.uniform(0.05, 2, n), size=(4000, m))
        assert np.linalg.norm(a, axis=(1, 2)).max() <= math.sqrt(m) + 1e-12
        assert np.linalg.norm(a - b, axis=(1, 2)).max() <= math.sqrt(2 * m) + 1e-12
        one_hot = np.zeros((m, n))
        one_hot[:, 0] = 1
        assert np.linalg.norm(one_hot) == pytest.approx(math.sqrt(m))
        assert np.linalg.norm(one_hot - one_hot[:, ::-1]) == pytest.approx(math.sqrt(2 * m))
    # the record's σ is the fast path of mvg_sigma at those bounds
    for m, n, eps in [(1, 2, 0.5), (4, 7, 3.0), (10, 10, 1.0)]:
        assert matrix_mechanism("MVG strict").scale(
            epsilon=eps, delta=1e-6, sensitivity=None, m=m, n=n
        ) == tdp.mvg_sigma(epsilon=eps, delta=1e-6, m=m, n=n, gamma_f=math.sqrt(m), s2=math.sqrt(2 * m))


def test_mvg_strict_guarantee_is_dp_for_the_values_not_green():
    g = tdp.matrix_guarantee("MVG strict", epsilon=1, delta=1e-5, gamma=0.1)
    assert g == tdp.matrix_guarantee("TopicDP strict", epsilon=1, delta=1e-5)
    assert g.gamma is None and g.delta == 1e-5 and tdp.TOPICS_CHOICE in g.conditional_on
    assert g.colour != "green"  # the topics and keywords are chosen without noise


def test_mvg_strict_meets_its_delta_by_the_exact_gaussian_profile():
    """Its noise is an isotropic Gaussian on a change of at most √(2m), so Balle & Wang's exact profile decides:
    δ(ε, σ) ≤ δ everywhere on the grid (σ is ≥ 1.8× the analytic σ there) — the claim holds without MVG's proof."""
    r = matrix_mechanism("MVG strict")
    for eps in (0.01, 0.1, 1.0, 5.0, 50.0):
        for delta in (1e-10, 1e-5, 1e-3, 0.05):
            for m, n in [(1, 2), (2, 50), (10, 10), (100, 3)]:
                sigma = r.scale(epsilon=eps, delta=delta, sensitivity=None, m=m, n=n)
                assert gaussian_delta(epsilon=eps, sigma=sigma, sensitivity=math.sqrt(2 * m)) <= delta
                assert sigma >= 1.8 * analytic_gaussian_sigma(epsilon=eps, delta=delta, sensitivity=math.sqrt(2 * m))


def test_mvg_strict_passes_an_audit_and_a_broken_variant_is_caught():
    """Statistical check on the worst pair (one row's mass on the other word, ‖D − D′‖_F = √2 = √(2m)): the audit's
    ε lower bound stays below the claimed ε; the same pair with a tenth of the σ is caught above it."""
    d, d_prime = np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]])
    eps, delta = 1.0, 1e-5

    def correct(data, rng):
        noisy = release_matrix("MVG strict", data, epsilon=eps, delta=delta, rng=rng).noisy
        return float(noisy[0, 0] - noisy[0, 1])

    sigma = matrix_mechanism("MVG strict").scale(epsilon=eps, delta=delta, sensitivity=None, m=1, n=2)

    def broken(data, rng):
        data = np.asarray(data, dtype=float)
        noisy = data + dpcore.mechanisms.gaussian_noise(sigma=sigma / 10, size=data.shape, rng=rng)
        return float(noisy[0, 0] - noisy[0, 1])

    ok = audit(correct, d, d_prime, trials=4000, delta=delta, epsilon_claimed=eps, rng=1)
    assert ok.epsilon_lower <= eps and not ok.violates_claim
    bad = audit(broken, d, d_prime, trials=4000, delta=delta, epsilon_claimed=eps, rng=1)
    assert bad.violates_claim and bad.epsilon_lower > eps
