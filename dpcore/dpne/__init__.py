"""Differentially private n-gram extraction (paper 003, SPEC §4): DPNE, DPSU and its baselines.

Where to read what (the privacy-critical part first):

- :mod:`.accounting`: σ_k, the DPSU threshold ρ, the spurious threshold τ_k, the guarantee;
- :mod:`.selection`: the contribution limit, the weighted/policy Gaussian histogram, noise + threshold,
  and the keyed seed of every draw;
- :mod:`.release`: :func:`dpne_extract` / :func:`prepare_dpne` / :class:`DpnePlan` — the levels k = 1…T;
- :mod:`.space`, :mod:`.shards`: the valid space V_k and its zero-weight draws, bounded memory;
- :mod:`.unigram`: length 1 before noise (ε-free, cacheable), the parameter checks;
- :mod:`.baselines`: DPSU-all / -even / -single (one shot); :mod:`.dpsu_plan`: the same with the selection drawn
  once apart from the per-ε noise (issue 29); :mod:`.evaluation`: k-anonymity coverage, pruning chain
  (evaluation only); :mod:`.results`: the release and evaluation objects;
- :mod:`.batch`, :mod:`.spark_engine`: the command line's local and Spark engines (same release).
"""

from __future__ import annotations

from .accounting import (
    EVALUATION_ONLY,
    KANONYMITY_LABEL,
    PRUNING_RULES,
    SELECTION_RULES,
    DPSU_POLICIES,
    DEFAULT_K_VALUES,
    dpne_noise_scales,
    dpsu_threshold,
    dpsu_threshold_for_sigma,
    spurious_threshold,
    count_valid_kgrams,
    dpne_guarantee,
)
from .selection import (
    dpne_release_seed,
    dpne_level_seed,
    dpne_selection_seed,
    eta_dependent_level,
)
from .results import (
    DpneLevelDiagnostics,
    DpneEvaluation,
    DpneRelease,
    DpneRun,
    DpsuBaselineRelease,
)
from .release import (
    DpnePlan,
    prepare_dpne,
    dpne_extract,
    dpne_with_evaluation,
)
from .unigram import DpneUnigram, prepare_dpne_unigram
from .dpsu_plan import DPSU_VARIANTS, DpsuPlan, prepare_dpsu
from .baselines import (
    dpsu_all,
    dpsu_even,
    dpsu_single,
)
from .evaluation import (
    PruningChain,
    pruning_chain,
    kanonymity_coverage,
    KAnonymityCoverage,
)
from .batch import (
    BatchRelease,
    MIN_USERS,
    check_enough_users,
    run_dpne_local,
)

__all__ = [
    "EVALUATION_ONLY",
    "KANONYMITY_LABEL",
    "PRUNING_RULES",
    "SELECTION_RULES",
    "DPSU_POLICIES",
    "DEFAULT_K_VALUES",
    "dpne_noise_scales",
    "dpsu_threshold",
    "dpsu_threshold_for_sigma",
    "spurious_threshold",
    "count_valid_kgrams",
    "dpne_guarantee",
    "dpne_release_seed",
    "dpne_level_seed",
    "dpne_selection_seed",
    "eta_dependent_level",
    "DpneLevelDiagnostics",
    "DpneEvaluation",
    "DpneRelease",
    "DpneRun",
    "DpsuBaselineRelease",
    "DpnePlan",
    "prepare_dpne",
    "DpneUnigram",
    "prepare_dpne_unigram",
    "DPSU_VARIANTS",
    "DpsuPlan",
    "prepare_dpsu",
    "dpne_extract",
    "dpne_with_evaluation",
    "dpsu_all",
    "dpsu_even",
    "dpsu_single",
    "PruningChain",
    "pruning_chain",
    "kanonymity_coverage",
    "KAnonymityCoverage",
    "BatchRelease",
    "MIN_USERS",
    "check_enough_users",
    "run_dpne_local",
]
