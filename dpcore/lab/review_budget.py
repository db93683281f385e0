"""The total privacy budget of what a page released (issue 9 item 3), as a reviewer reads it: (ε, δ) and its parts.

One page's statement; the session's budget over all the pages' releases is :mod:`dpcore.lab.budget`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..validation import check_delta, check_epsilon, check_sensitivity

__all__ = [
    "BudgetStatement",
    "end_to_end_budget",
    "dpne_budget",
    "single_budget",
    "no_budget",
    "qualified_budget",
]


@dataclass(frozen=True)
class BudgetStatement:
    """The total privacy budget of what a page released: ``parts`` are (name, value) pairs — ε values
    (``unit`` "epsilon") or shares of one Gaussian budget (``unit`` "share"). A release that is not DP
    because its sensitivity was measured on the data (local sensitivity) has no budget: ``total_epsilon``
    and ``delta`` are None, ``unit`` is "none" and ``parts`` are the ε values its noise was set from."""

    total_epsilon: float | None
    delta: float | None
    parts: tuple[tuple[str, float], ...]
    unit: str
    text: str

    def to_dict(self) -> dict:
        return dict(
            total_epsilon=self.total_epsilon,
            delta=self.delta,
            parts=[list(p) for p in self.parts],
            unit=self.unit,
            text=self.text,
        )


def end_to_end_budget(*, epsilon_train, epsilon_tune, delta) -> BudgetStatement:
    """EndToEndDP (000 §3.2): ε_train for the release plus ε_tune for choosing (S, ρ), by basic composition."""
    a, b = (
        check_epsilon(epsilon=epsilon_train, name="epsilon_train"),
        check_epsilon(epsilon=epsilon_tune, name="epsilon_tune"),
    )
    d = check_delta(delta=delta)
    return BudgetStatement(
        a + b,
        d,
        (("ε_train (BayesianDP release)", a), ("ε_tune (choosing S, ρ)", b)),
        "epsilon",
        f"Total ε = ε_train + ε_tune = {a:.3g} + {b:.3g} = {a + b:.3g}, δ = {d:g}.",
    )


def dpne_budget(*, sigma, sigmas, epsilon, delta) -> BudgetStatement:
    """DPNE (003 Prop. 2.3): the Gaussian parts compose as Σ_k 1/σ_k² = 1/σ², so length k spends the share
    (σ/σ_k)² of one (ε, δ) budget."""
    s = check_sensitivity(sensitivity=sigma, name="sigma")
    parts = tuple(
        (f"length {k}", (s / check_sensitivity(sensitivity=sk, name="sigmas")) ** 2)
        for k, sk in sorted(dict(sigmas).items())
    )
    total = sum(p for _, p in parts)
    shares = ", ".join(f"k = {name.split()[-1]}: {p:.0%}" for name, p in parts)
    eps, d = check_epsilon(epsilon=epsilon), check_delta(delta=delta)
    return BudgetStatement(
        eps,
        d,
        parts,
        "share",
        f"One (ε = {eps:g}, δ = {d:g}) budget over all lengths; shares 1/σ_k² of 1/σ²: {shares} (sum {total:.3g}).",
    )


def no_budget(spent: BudgetStatement) -> BudgetStatement:
    """What a local-sensitivity release "spends": nothing that adds up — no (ε, δ) holds for it, not even for
    this corpus's neighbours (SPEC §3b; issue 21 item 1). ``spent``'s parts (the ε values the noise was set
    from) are kept for the record; the total is None."""
    settings = " and ".join(f"{name.split()[0] if name.startswith('ε') else 'ε'} = {v:.3g}" for name, v in spent.parts)
    return BudgetStatement(
        None,
        None,
        spent.parts,
        "none",
        f"No privacy budget: not DP — the noise was set from {settings}"
        f"{'' if spent.delta is None else f', δ = {spent.delta:g}'} with a sensitivity measured "
        "on the private data, so no (ε, δ) holds, not even for this corpus's neighbours, and "
        "nothing here composes.",
    )


def single_budget(*, epsilon, delta=None, name: str = "the release") -> BudgetStatement:
    """A page that released one thing: its (ε, δ) is the total."""
    eps = check_epsilon(epsilon=epsilon)
    d = None if delta is None else check_delta(delta=delta, allow_zero=True)
    dtext = "" if d is None else f", δ = {d:g}"
    return BudgetStatement(eps, d, ((name, eps),), "epsilon", f"Total ε = {eps:g}{dtext} ({name}).")


def qualified_budget(statement: BudgetStatement, guarantee) -> BudgetStatement:
    """A release's budget in the one vocabulary of its guarantee (issue 31 item 4: the badge, the session budget and
    the reviewer's panel agree): the statement's text begins with the guarantee's strength ("DP", "DP for part of the
    release only", "weaker than DP") and says what the numbers do not cover — the pairs outside a random-DP share,
    the non-private part a DP proof is given. A local-sensitivity release has no budget at all (:func:`no_budget`)."""
    from ..guarantees import LOCAL_SENSITIVITY, RANDOM_DP

    g = guarantee
    if g.kind == LOCAL_SENSITIVITY:
        return no_budget(statement)
    limits = []
    if g.kind == RANDOM_DP:
        limits.append(f"it holds for a share {1 - g.gamma:.0%} of neighbouring pairs only (random DP, γ = {g.gamma:g})")
    if g.conditional_on:
        limits.append(f"it covers the values only, given {g.conditional_on}")
    qualifier = f" — {'; '.join(limits)}" if limits else ""
    text = f"{g.strength}: {statement.text.rstrip('.')}{qualifier}."
    return BudgetStatement(statement.total_epsilon, statement.delta, statement.parts, statement.unit, text)
