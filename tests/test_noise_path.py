"""One noise path (issue 33 item 3): every release draws its noise through dpcore.mechanisms.noise.

Two checks. The samplers draw exactly what the inline numpy calls they replaced drew from the same generator (so a
seeded release, its export and its replay did not move; tests/test_replay_*.py check the pages end to end). And no
module of dpcore draws noise inline: an AST scan over dpcore finds every call of a noise method of a generator
(``x.laplace(...)``, ``x.standard_normal(...)``, …) outside dpcore/mechanisms/noise.py; the few that are not the
noise of a release are listed below with the reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from dpcore.mechanisms import gaussian_noise, laplace_noise, standard_exponential_noise, standard_normal_noise
from dpcore.mechanisms import noise as noise_module

ROOT = Path(__file__).resolve().parent.parent

# Methods of numpy.random.Generator that draw from a noise distribution (continuous, or the discrete ones a
# discrete Laplace / Gaussian sampler would use). Uniform draws (random, integers, choice, permutation) are
# selection and order, not noise, and are not listed.
NOISE_METHODS = frozenset(
    {
        "laplace",
        "normal",
        "standard_normal",
        "gumbel",
        "exponential",
        "standard_exponential",
        "logistic",
        "standard_cauchy",
        "standard_t",
        "geometric",
        "binomial",
        "poisson",
        "multivariate_normal",
    }
)

SAMPLER_MODULE = "dpcore/mechanisms/noise.py"

# (file, enclosing function, method): draws of a noise distribution that are not the noise of a release.
NOT_NOISE = {
    # The synthetic corpus generator's fixed log-normal tilt of the prompt shares (PROMPT_TILT_SEED): part of the
    # data set's definition, the same on every run, drawn before any release.
    ("dpcore/text/synthetic.py", "_prompt_p", "normal"),
}


ALLOWED = NOT_NOISE


def _noise_calls(path: Path) -> list[tuple[str, str, int]]:
    """(enclosing function, method, line) of every call ``<expr>.<noise method>(...)`` in the file."""
    found = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Attribute)
                and child.func.attr in NOISE_METHODS
            ):
                found.append((function, child.func.attr, child.lineno))
            visit(child, name)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)), "<module>")
    return found


def _all_noise_calls() -> dict[tuple[str, str, str], list[int]]:
    out: dict[tuple[str, str, str], list[int]] = {}
    for path in sorted((ROOT / "dpcore").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for function, method, line in _noise_calls(path):
            out.setdefault((rel, function, method), []).append(line)
    return out


def test_no_inline_noise_draw_outside_dpcore_mechanisms_noise():
    calls = _all_noise_calls()
    inline = {site: lines for site, lines in calls.items() if site[0] != SAMPLER_MODULE and site not in ALLOWED}
    assert not inline, (
        "noise drawn inline (draw it with dpcore.mechanisms.laplace_noise / gaussian_noise / standard_normal_noise / "
        f"standard_exponential_noise, or list a draw that is not noise in NOT_NOISE with its reason): {inline}"
    )


def test_the_scan_finds_the_samplers_and_every_allowed_site():
    """The scan is not vacuous: it sees the four samplers' own draws, and every allow-listed site still exists (a
    stale entry would let a new draw in under its name)."""
    calls = _all_noise_calls()
    assert {m for (f, _, m) in calls if f == SAMPLER_MODULE} == {"laplace", "standard_normal", "standard_exponential"}
    assert ALLOWED <= set(calls), f"allow-listed sites that no longer draw: {ALLOWED - set(calls)}"


def test_the_scan_catches_an_inline_draw(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def release(x, rng):\n    return x + 2.0 * rng.standard_normal(x.shape)\n")
    assert _noise_calls(bad) == [("release", "standard_normal", 2)]


SHAPES = [None, 0, 1, 7, (3, 4), (2, 0, 5)]


@pytest.mark.parametrize("size", SHAPES)
@pytest.mark.parametrize("seed", [0, 11, 2026])
def test_laplace_noise_draws_what_the_inline_call_drew(seed, size):
    for scale in (0.0, 0.37, 5.0, 1e300):
        got = laplace_noise(scale=scale, size=size, rng=np.random.default_rng(seed))
        want = np.random.default_rng(seed).laplace(0.0, scale, size=size)
        assert np.array_equal(got, want) and np.shape(got) == np.shape(want) and type(got) is type(want)


def test_laplace_noise_per_coordinate_scale():
    """An array of scales (the audit's per-dataset scales) broadcasts as the inline call did."""
    b = np.array([0.5, 1.0, 4.0])
    got = laplace_noise(scale=b, size=(6, 3), rng=np.random.default_rng(3))
    assert np.array_equal(got, np.random.default_rng(3).laplace(0.0, b, size=(6, 3)))


@pytest.mark.parametrize("size", SHAPES)
@pytest.mark.parametrize("seed", [0, 11, 2026])
def test_gaussian_noise_draws_what_the_inline_call_drew(seed, size):
    """``w + gaussian_noise(sigma=σ, ...)`` is ``w + σ * rng.standard_normal(...)`` bit for bit, and a product of
    factors (ρ·γ·σ) passed as sigma is the inline left-to-right product."""
    w = np.linspace(-1.0, 2.0, 7)[: (size if isinstance(size, int) else 1) or 1]
    for sigma in (1.0, 0.3, 1.297843, 1e200):
        z = np.random.default_rng(seed).standard_normal(size)
        assert np.array_equal(gaussian_noise(sigma=sigma, size=size, rng=np.random.default_rng(seed)), sigma * z)
        if isinstance(size, int) and size:
            inline = w + sigma * np.random.default_rng(seed).standard_normal(size)
            assert np.array_equal(w + gaussian_noise(sigma=sigma, size=size, rng=np.random.default_rng(seed)), inline)
    rho, gamma, sigma = 0.7, 1.3, 2.9
    inline = rho * gamma * sigma * np.random.default_rng(seed).standard_normal(size)
    assert np.array_equal(gaussian_noise(sigma=rho * gamma * sigma, size=size, rng=np.random.default_rng(seed)), inline)


@pytest.mark.parametrize("size", SHAPES)
def test_standard_draws_are_the_generator_s(size):
    for sampler, method in (
        (standard_normal_noise, "standard_normal"),
        (standard_exponential_noise, "standard_exponential"),
    ):
        got = sampler(size=size, rng=np.random.default_rng(5))
        want = getattr(np.random.default_rng(5), method)(size)
        assert np.array_equal(got, want) and type(got) is type(want)


def test_consecutive_draws_continue_one_stream():
    """Drawing in blocks through the samplers advances the generator as the inline calls did: the order of draws is
    kept across calls and across samplers."""
    mine, theirs = np.random.default_rng(9), np.random.default_rng(9)
    got = [
        laplace_noise(scale=2.0, size=4, rng=mine),
        gaussian_noise(sigma=3.0, size=(2, 2), rng=mine),
        standard_exponential_noise(size=3, rng=mine),
        standard_normal_noise(size=5, rng=mine),
    ]
    want = [
        theirs.laplace(0.0, 2.0, size=4),
        3.0 * theirs.standard_normal((2, 2)),
        theirs.standard_exponential(3),
        theirs.standard_normal(5),
    ]
    assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))


def test_samplers_take_a_seed_or_a_generator_and_nothing_else():
    assert np.array_equal(laplace_noise(scale=1.0, size=3, rng=4), np.random.default_rng(4).laplace(0.0, 1.0, 3))
    with pytest.raises(TypeError, match="rng must be a numpy.random.Generator"):
        gaussian_noise(sigma=1.0, size=3, rng=np.random.RandomState(0))
    with pytest.raises(TypeError):
        laplace_noise(1.0, 3, np.random.default_rng(0))  # keyword-only


def test_the_samplers_are_the_public_ones():
    import dpcore.mechanisms as mechanisms

    for name in noise_module.__all__:
        assert getattr(mechanisms, name) is getattr(noise_module, name) and name in mechanisms.__all__


def test_gaussian_noise_has_the_asked_spread():
    """Statistical check of the scale (not only of the bits): 200,000 draws, sd within 5 standard errors."""
    x = gaussian_noise(sigma=3.73, size=200_000, rng=np.random.default_rng(17))
    assert np.std(x) == pytest.approx(3.73, rel=5 / np.sqrt(2 * 200_000))
    y = laplace_noise(scale=2.0, size=200_000, rng=np.random.default_rng(18))
    assert np.mean(np.abs(y)) == pytest.approx(2.0, rel=5 / np.sqrt(200_000))  # E|Lap(b)| = b, sd b
