"""AuditSpec: one run of the privacy audit lab (issue 10) — a scenario's variant, trials, confidence and seed.

The audit runs the mechanism ``trials`` times on each of two neighbouring datasets and bounds ε from below
(:func:`dpcore.audit.run_scenario`). Its generator is :func:`dpcore.audit.audit_rng`
(``default_rng([seed, 10, crc32(scenario), broken, trials])``; issue 30, item 8): the correct and the broken variant
at one seed are two independent experiments. The exercises and the audit tests use the same generator; an audit is
a measurement of a mechanism on a fixed public pair, not a release of anyone's data.
"""

from __future__ import annotations

import dataclasses

from ..audit.scenarios import SCENARIOS, audit_rng, get_scenario, rebound, run_scenario
from ..errors import UserError
from ..validation import check_choice, check_int, check_real
from .base import Spec

__all__ = ["AuditSpec"]


@dataclasses.dataclass(frozen=True, kw_only=True)
class AuditSpec(Spec):
    """The Privacy audit page: ``scenario`` (a name of dpcore.audit.SCENARIOS), ``broken`` (the BROKEN variant),
    ``trials`` per dataset, ``confidence`` of the bound, ``seed``, and ``epsilon``, the ε the mechanism is run at
    and claims (None, the default: the scenario's own; records from before issue 31 have none and replay as then)."""

    KIND = "audit"
    NOISE_FREE = ("variant", "broken")
    USES_CORPUS = False
    NOTEBOOK_FIGURE = """
r = result.result
fig = go.Figure([go.Bar(x=["ε lower bound", "claimed ε"],
                        y=[r.epsilon_lower, r.epsilon_claimed if r.epsilon_claimed is not None else 0])])
fig.update_layout(yaxis_title="ε", title=f"Audit of {spec.scenario} ({'BROKEN' if spec.broken else 'correct'} "
                                           f"variant), {spec.trials:,} trials per dataset")
"""

    scenario: str = "laplace_count"
    broken: bool = False
    trials: int = 100_000
    confidence: float = 0.95
    epsilon: float | None = None  # the ε audited (issue 31 item 12); None: the scenario's own claim

    def _validated(self):
        scenario = check_choice("scenario", self.scenario, SCENARIOS)
        if not isinstance(self.broken, bool):
            raise TypeError(f"broken must be True or False, got broken={self.broken!r}")
        sc = get_scenario(scenario, epsilon=self.epsilon)  # validates ε (and that the scenario claims one)
        if (sc.broken if self.broken else sc.correct) is None:
            raise UserError(
                f"broken must name a variant scenario {scenario!r} has "
                f"({'correct' if sc.correct is not None else 'broken'} only), got broken={self.broken}"
            )
        return dict(
            scenario=scenario,
            trials=check_int("trials", self.trials, low=10),
            confidence=check_real("confidence", self.confidence, low=0.0, high=1.0, high_inclusive=False),
            epsilon=None if self.epsilon is None else float(self.epsilon),
        )

    def run(self, corpus=None, *, progress=None):
        """:func:`dpcore.audit.run_scenario` on this spec's generator (``progress(done, total)`` optional)."""
        return run_scenario(
            self.scenario,
            broken=self.broken,
            trials=self.trials,
            confidence=self.confidence,
            epsilon=self.epsilon,
            rng=audit_rng(
                self.seed, scenario=self.scenario, broken=self.broken, trials=self.trials, epsilon=self.epsilon
            ),
            progress=progress,
        )

    def rebound(self, run):
        """``run`` (this spec's audit at any confidence: every other field equal) at this spec's confidence, without
        running the mechanism again (:func:`dpcore.audit.rebound`: the runs do not depend on the confidence)."""
        return rebound(run, self.confidence)

    def numbers(self, result) -> dict:
        """The audit's counts, intervals, event and bound (no timings, no raw scores)."""
        return {"variant": result.variant, "broken": result.broken, **result.result.as_dict()}
