"""Rewrite imports and dotted references from dpcore's old flat layout to its subpackages (issue 22 item 4).

Usage (from the repository root)::

    python3 scripts/rewrite_imports.py                 # every .py/.md/.ipynb/.sh file of the repo
    python3 scripts/rewrite_imports.py FILE_OR_DIR...  # only these (e.g. dpcore/specs pages/1_x.py)
    python3 scripts/rewrite_imports.py --check ...     # list the files that would change, change nothing

Driven by one table (``MODULES``, ``NAMES``, ``TOP`` below; the same map is in docs/ARCHITECTURE.md):

- ``from dpcore import gaussian_sigma`` → ``from dpcore.mechanisms import gaussian_sigma`` (a name leaves the top
  level unless it is in the new ``dpcore.__all__``); ``from dpcore.dpne import dpne`` → ``from dpcore.dpne import
  dpne_extract`` (the two renamed functions: ``dpne`` → ``dpne_extract``, ``review`` → ``review_release``; bare
  uses of the name in that file are renamed too);
- ``dpcore.topicdp_sigma(...)`` → ``dpcore.topicdp.topicdp_sigma(...)``; ``dpcore.corpus`` → ``dpcore.text.corpus``;
  ``"dpcore.bayesian:decay_weights"`` → ``"dpcore.bayesian.statistics:decay_weights"``;
- inside dpcore/ relative imports are resolved against the file's place, rewritten, and written back relative,
  always to the module that defines the name (a package's ``__init__`` re-exports; importing from it inside
  dpcore risks import cycles).

The script is idempotent: new paths are never rewritten again. Run ``ruff format`` / ``ruff check --fix``
after it (import grouping and order are left to ruff's ``I`` rules).
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
from pathlib import Path

# --- the table ---------------------------------------------------------------------------------------------------
# MODULES: old module → new module (a split module maps to its package; its names are in NAMES).
# NAMES: (old module, name) → (module that now defines it, new name, public path) where the public path is the
# package that re-exports it in its __all__ (or the defining module when it is private there).
# TOP: the names of the new ``dpcore.__all__`` (these stay importable as ``from dpcore import x``).
# BEGIN TABLE (generated; edit by hand only with care)
MODULES: dict[str, str] = {
    "dpcore.audit.scenarios": "dpcore.audit.scenarios",
    "dpcore._dpne_kernel": "dpcore.dpne._dpne_kernel",
    "dpcore._vb_kernel": "dpcore.topicdp._vb_kernel",
    "dpcore._vips_kernel": "dpcore.topicdp._vips_kernel",
    "dpcore.batch": "dpcore.dpne.batch",
    "dpcore.bayesian": "dpcore.bayesian",
    "dpcore.bayesian_baselines": "dpcore.bayesian.baselines",
    "dpcore.bayesian_experiments": "dpcore.bayesian.experiments",
    "dpcore.budget": "dpcore.lab.budget",
    "dpcore.composition": "dpcore.mechanisms.composition",
    "dpcore.corpus": "dpcore.text.corpus",
    "dpcore.dpne": "dpcore.dpne",
    "dpcore.exercises": "dpcore.lab.exercises",
    "dpcore.exercises._base": "dpcore.lab.exercises._base",
    "dpcore.exercises._data": "dpcore.lab.exercises._data",
    "dpcore.exercises.audit": "dpcore.lab.exercises.audit",
    "dpcore.exercises.bayesian": "dpcore.lab.exercises.bayesian",
    "dpcore.exercises.mechanisms": "dpcore.lab.exercises.mechanisms",
    "dpcore.exercises.ngrams": "dpcore.lab.exercises.ngrams",
    "dpcore.exercises.sheets": "dpui.exercise_sheets",
    "dpcore.exercises.topics": "dpcore.lab.exercises.topics",
    "dpcore.exponential": "dpcore.mechanisms.exponential",
    "dpcore.gaussian": "dpcore.mechanisms.gaussian",
    "dpcore.keyed": "dpcore.mechanisms.keyed",
    "dpcore.laplace": "dpcore.mechanisms.laplace",
    "dpcore.lecture": "dpcore.lab.lecture",
    "dpcore.ngram_counts": "dpcore.text.counts",
    "dpcore.ngrams": "dpcore.text.ngrams",
    "dpcore.paper_results": "dpcore.lab.paper_results",
    "dpcore.real_corpus": "dpcore.text.real_corpus",
    "dpcore.review": "dpcore.lab.review",
    "dpcore.spark_engine": "dpcore.dpne.spark_engine",
    "dpcore.stream": "dpcore.text.stream",
    "dpcore.text_profile": "dpcore.text.profile",
    "dpcore.topic_model": "dpcore.topicdp.model",
    "dpcore.topic_prompts": "dpcore.topicdp.prompts",
    "dpcore.topic_vips": "dpcore.topicdp.vips_comparison",
    "dpcore.topicdp": "dpcore.topicdp",
    "dpcore.vips": "dpcore.topicdp.vips",
}
NAMES: dict[tuple[str, str], tuple[str, str, str]] = {
    ("dpcore", "ngram_counts"): ("dpcore.text.counts", "ngram_counts", "dpcore"),
    ("dpcore", "text_profile"): ("dpcore.text.profile", "text_profile", "dpcore.text"),
    ("dpcore.exercises", "exercise_link"): ("dpui.exercise_sheets", "exercise_link", "dpui.exercise_sheets"),
    ("dpcore.exercises", "exercise_sheet"): ("dpui.exercise_sheets", "exercise_sheet", "dpui.exercise_sheets"),
    ("dpcore.exercises", "latex_to_text"): ("dpui.exercise_sheets", "latex_to_text", "dpui.exercise_sheets"),
    ("dpcore.exercises", "page_url_path"): ("dpui.exercise_sheets", "page_url_path", "dpui.exercise_sheets"),
    ("dpcore.exercises", "sheet_filename"): ("dpui.exercise_sheets", "sheet_filename", "dpui.exercise_sheets"),
    ("dpcore.exercises", "DEFAULT_BASE_URL"): ("dpui.exercise_sheets", "DEFAULT_BASE_URL", "dpui.exercise_sheets"),
    ("dpcore.audit.scenarios", "LOCAL_SENSITIVITY_SCENARIOS"): (
        "dpcore.audit.scenarios",
        "LOCAL_SENSITIVITY_SCENARIOS",
        "dpcore.audit.scenarios",
    ),
    ("dpcore.audit.scenarios", "PAGE_DEFAULTS"): (
        "dpcore.audit.scenarios_bayesian",
        "PAGE_DEFAULTS",
        "dpcore.audit.scenarios_bayesian",
    ),
    ("dpcore.audit.scenarios", "SCENARIOS"): ("dpcore.audit.scenarios", "SCENARIOS", "dpcore.audit"),
    ("dpcore.audit.scenarios", "SCENARIO_LABELS"): ("dpcore.audit.scenarios", "SCENARIO_LABELS", "dpcore.audit"),
    ("dpcore.audit.scenarios", "Scenario"): ("dpcore.audit.scenario_types", "Scenario", "dpcore.audit"),
    ("dpcore.audit.scenarios", "ScenarioRun"): ("dpcore.audit.scenario_types", "ScenarioRun", "dpcore.audit"),
    ("dpcore.audit.scenarios", "Variant"): ("dpcore.audit.scenario_types", "Variant", "dpcore.audit.scenario_types"),
    ("dpcore.audit.scenarios", "_BUILDERS"): ("dpcore.audit.scenarios", "_BUILDERS", "dpcore.audit.scenarios"),
    ("dpcore.audit.scenarios", "_DATA"): ("dpcore.audit.scenario_types", "_DATA", "dpcore.audit.scenario_types"),
    ("dpcore.audit.scenarios", "_SCORE_CHUNK"): (
        "dpcore.audit.scenarios_bayesian",
        "_SCORE_CHUNK",
        "dpcore.audit.scenarios_bayesian",
    ),
    ("dpcore.audit.scenarios", "_background_users"): (
        "dpcore.audit.scenarios_ngrams",
        "_background_users",
        "dpcore.audit.scenarios_ngrams",
    ),
    ("dpcore.audit.scenarios", "_bayesian_local_page_scenario"): (
        "dpcore.audit.scenarios_bayesian",
        "_bayesian_local_page_scenario",
        "dpcore.audit.scenarios_bayesian",
    ),
    ("dpcore.audit.scenarios", "_bayesian_matrices"): (
        "dpcore.audit.scenarios_bayesian",
        "_bayesian_matrices",
        "dpcore.audit.scenarios_bayesian",
    ),
    ("dpcore.audit.scenarios", "_bayesian_scenario"): (
        "dpcore.audit.scenarios_bayesian",
        "_bayesian_scenario",
        "dpcore.audit.scenarios_bayesian",
    ),
    ("dpcore.audit.scenarios", "_centred_log"): (
        "dpcore.audit.scenarios_bayesian",
        "_centred_log",
        "dpcore.audit.scenarios_bayesian",
    ),
    ("dpcore.audit.scenarios", "_dpne_scenario"): (
        "dpcore.audit.scenarios_ngrams",
        "_dpne_scenario",
        "dpcore.audit.scenarios_ngrams",
    ),
    ("dpcore.audit.scenarios", "_dpsu_scenario"): (
        "dpcore.audit.scenarios_ngrams",
        "_dpsu_scenario",
        "dpcore.audit.scenarios_ngrams",
    ),
    ("dpcore.audit.scenarios", "_dpsu_tables"): (
        "dpcore.audit.scenarios_ngrams",
        "_dpsu_tables",
        "dpcore.audit.scenarios_ngrams",
    ),
    ("dpcore.audit.scenarios", "_end_to_end_local_page_scenario"): (
        "dpcore.audit.scenarios_bayesian",
        "_end_to_end_local_page_scenario",
        "dpcore.audit.scenarios_bayesian",
    ),
    ("dpcore.audit.scenarios", "_exponential_scenario"): (
        "dpcore.audit.scenarios",
        "_exponential_scenario",
        "dpcore.audit.scenarios",
    ),
    ("dpcore.audit.scenarios", "_gaussian_llr"): (
        "dpcore.audit.scenarios_bayesian",
        "_gaussian_llr",
        "dpcore.audit.scenarios_bayesian",
    ),
    ("dpcore.audit.scenarios", "_kanonymity_scenario"): (
        "dpcore.audit.scenarios_ngrams",
        "_kanonymity_scenario",
        "dpcore.audit.scenarios_ngrams",
    ),
    ("dpcore.audit.scenarios", "_laplace_public_local_scenario"): (
        "dpcore.audit.scenarios_bayesian",
        "_laplace_public_local_scenario",
        "dpcore.audit.scenarios_bayesian",
    ),
    ("dpcore.audit.scenarios", "_laplace_scenario"): (
        "dpcore.audit.scenarios",
        "_laplace_scenario",
        "dpcore.audit.scenarios",
    ),
    ("dpcore.audit.scenarios", "_register"): (
        "dpcore.audit.scenario_types",
        "_register",
        "dpcore.audit.scenario_types",
    ),
    ("dpcore.audit.scenarios", "_released_batch"): (
        "dpcore.audit.scenarios_topics",
        "_released_batch",
        "dpcore.audit.scenarios_topics",
    ),
    ("dpcore.audit.scenarios", "_topicdp_scenario"): (
        "dpcore.audit.scenarios_topics",
        "_topicdp_scenario",
        "dpcore.audit.scenarios_topics",
    ),
    ("dpcore.audit.scenarios", "_topicdp_strict_scenario"): (
        "dpcore.audit.scenarios_topics",
        "_topicdp_strict_scenario",
        "dpcore.audit.scenarios_topics",
    ),
    ("dpcore.audit.scenarios", "_vips_scenario"): (
        "dpcore.audit.scenarios_topics",
        "_vips_scenario",
        "dpcore.audit.scenarios_topics",
    ),
    ("dpcore.audit.scenarios", "audit_rng"): ("dpcore.audit.scenarios", "audit_rng", "dpcore.audit"),
    ("dpcore.audit.scenarios", "bayesian_page_pair"): (
        "dpcore.audit.scenarios_bayesian",
        "bayesian_page_pair",
        "dpcore.audit.scenarios_bayesian",
    ),
    ("dpcore.audit.scenarios", "get_scenario"): ("dpcore.audit.scenarios", "get_scenario", "dpcore.audit"),
    ("dpcore.audit.scenarios", "run_scenario"): ("dpcore.audit.scenarios", "run_scenario", "dpcore.audit"),
    ("dpcore.audit.scenarios", "scenario_names"): ("dpcore.audit.scenarios", "scenario_names", "dpcore.audit"),
    ("dpcore", "AUTO_CALIBRATION_THRESHOLD"): (
        "dpcore.mechanisms.gaussian",
        "AUTO_CALIBRATION_THRESHOLD",
        "dpcore.mechanisms",
    ),
    ("dpcore", "AuditEvent"): ("dpcore.audit.core", "AuditEvent", "dpcore.audit"),
    ("dpcore", "AuditResult"): ("dpcore.audit.core", "AuditResult", "dpcore.audit"),
    ("dpcore", "BatchRelease"): ("dpcore.dpne.batch", "BatchRelease", "dpcore.dpne"),
    ("dpcore", "BayesianRelease"): ("dpcore.bayesian.release", "BayesianRelease", "dpcore.bayesian"),
    ("dpcore", "BayesianStatistics"): ("dpcore.bayesian.statistics", "BayesianStatistics", "dpcore.bayesian"),
    ("dpcore", "BudgetEntry"): ("dpcore.lab.budget", "BudgetEntry", "dpcore.lab"),
    ("dpcore", "BudgetStatement"): ("dpcore.lab.review", "BudgetStatement", "dpcore.lab"),
    ("dpcore", "CALIBRATION_CHOICES"): ("dpcore.mechanisms.gaussian", "CALIBRATION_CHOICES", "dpcore.mechanisms"),
    ("dpcore", "ComposedBudget"): ("dpcore.lab.budget", "ComposedBudget", "dpcore.lab"),
    ("dpcore", "Corpus"): ("dpcore.text.corpus", "Corpus", "dpcore.text"),
    ("dpcore", "CorpusError"): ("dpcore.text.corpus", "CorpusError", "dpcore.text"),
    ("dpcore", "DPNE_GUARANTEE"): ("dpcore.dpne.accounting", "DPNE_GUARANTEE", "dpcore.dpne"),
    ("dpcore", "DPSU_POLICIES"): ("dpcore.dpne.accounting", "DPSU_POLICIES", "dpcore.dpne"),
    ("dpcore", "Document"): ("dpcore.text.corpus", "Document", "dpcore.text"),
    ("dpcore", "DocumentTermData"): ("dpcore.topicdp.model", "DocumentTermData", "dpcore.topicdp"),
    ("dpcore", "DpneEvaluation"): ("dpcore.dpne.results", "DpneEvaluation", "dpcore.dpne"),
    ("dpcore", "DpnePlan"): ("dpcore.dpne.release", "DpnePlan", "dpcore.dpne"),
    ("dpcore", "DpneRelease"): ("dpcore.dpne.results", "DpneRelease", "dpcore.dpne"),
    ("dpcore", "DpneRun"): ("dpcore.dpne.results", "DpneRun", "dpcore.dpne"),
    ("dpcore", "DpsuBaselineRelease"): ("dpcore.dpne.results", "DpsuBaselineRelease", "dpcore.dpne"),
    ("dpcore", "DrawsSummary"): ("dpcore.topicdp.experiments", "DrawsSummary", "dpcore.topicdp"),
    ("dpcore", "EVALUATION_ONLY"): ("dpcore.dpne.accounting", "EVALUATION_ONLY", "dpcore.dpne"),
    ("dpcore", "EndToEndEvaluation"): ("dpcore.bayesian.end_to_end", "EndToEndEvaluation", "dpcore.bayesian"),
    ("dpcore", "EndToEndRelease"): ("dpcore.bayesian.end_to_end", "EndToEndRelease", "dpcore.bayesian"),
    ("dpcore", "ErrorCurve"): ("dpcore.topicdp.experiments", "ErrorCurve", "dpcore.topicdp"),
    ("dpcore", "GAUSSIAN_METHODS"): ("dpcore.mechanisms.gaussian", "GAUSSIAN_METHODS", "dpcore.mechanisms"),
    ("dpcore", "GUARANTEE_KINDS"): ("dpcore.guarantees", "GUARANTEE_KINDS", "dpcore.guarantees"),
    ("dpcore", "Guarantee"): ("dpcore.guarantees", "Guarantee", "dpcore.guarantees"),
    ("dpcore", "InputError"): ("dpcore.text.stream", "InputError", "dpcore.text"),
    ("dpcore", "KANONYMITY_LABEL"): ("dpcore.dpne.accounting", "KANONYMITY_LABEL", "dpcore.dpne"),
    ("dpcore", "KAnonymityCoverage"): ("dpcore.dpne.evaluation", "KAnonymityCoverage", "dpcore.dpne"),
    ("dpcore", "KAnonymityRelease"): ("dpcore.bayesian.baselines", "KAnonymityRelease", "dpcore.bayesian"),
    ("dpcore", "KL_SMOOTHING"): ("dpcore.metrics", "KL_SMOOTHING", "dpcore.metrics"),
    ("dpcore", "K_ANONYMITY_GUARANTEE"): ("dpcore.bayesian.baselines", "K_ANONYMITY_GUARANTEE", "dpcore.bayesian"),
    ("dpcore", "LAPLACE_GUARANTEE"): ("dpcore.bayesian.baselines", "LAPLACE_GUARANTEE", "dpcore.bayesian"),
    ("dpcore", "LDA_ENGINES"): ("dpcore.topicdp.model", "LDA_ENGINES", "dpcore.topicdp"),
    ("dpcore", "LOCAL_SENSITIVITY_METHODS"): (
        "dpcore.bayesian.statistics",
        "LOCAL_SENSITIVITY_METHODS",
        "dpcore.bayesian",
    ),
    ("dpcore", "LaplaceRelease"): ("dpcore.bayesian.baselines", "LaplaceRelease", "dpcore.bayesian"),
    ("dpcore", "LdaSettings"): ("dpcore.topicdp.model", "LdaSettings", "dpcore.topicdp"),
    ("dpcore", "MATCH_RULE"): ("dpcore.topicdp.prompts", "MATCH_RULE", "dpcore.topicdp"),
    ("dpcore", "MATRIX_LAPLACE_GUARANTEE"): ("dpcore.topicdp.mechanisms", "MATRIX_LAPLACE_GUARANTEE", "dpcore.topicdp"),
    ("dpcore", "MAX_UPLOAD_BYTES"): ("dpcore.text.uploads", "MAX_UPLOAD_BYTES", "dpcore.text"),
    ("dpcore", "MatrixRelease"): ("dpcore.topicdp.mechanisms", "MatrixRelease", "dpcore.topicdp"),
    ("dpcore", "NGRAM_ORDERS"): ("dpcore.text.counts", "NGRAM_ORDERS", "dpcore.text"),
    ("dpcore", "NgramCounts"): ("dpcore.text.counts", "NgramCounts", "dpcore.text"),
    ("dpcore", "NgramIndex"): ("dpcore.text.ngrams", "NgramIndex", "dpcore.text"),
    ("dpcore", "NoiseComparison"): ("dpcore.topicdp.experiments", "NoiseComparison", "dpcore.topicdp"),
    ("dpcore", "NoiseStatement"): ("dpcore.lab.review", "NoiseStatement", "dpcore.lab"),
    ("dpcore", "PRIVATE_BASELINE_GUARANTEE"): (
        "dpcore.bayesian.baselines",
        "PRIVATE_BASELINE_GUARANTEE",
        "dpcore.bayesian",
    ),
    ("dpcore", "PUBLIC_BASELINE_GUARANTEE"): (
        "dpcore.bayesian.baselines",
        "PUBLIC_BASELINE_GUARANTEE",
        "dpcore.bayesian",
    ),
    ("dpcore", "PreparedBayesianDP"): ("dpcore.bayesian.release", "PreparedBayesianDP", "dpcore.bayesian"),
    ("dpcore", "PreparedEndToEnd"): ("dpcore.bayesian.end_to_end", "PreparedEndToEnd", "dpcore.bayesian.end_to_end"),
    ("dpcore", "PromptMatch"): ("dpcore.topicdp.prompts", "PromptMatch", "dpcore.topicdp"),
    ("dpcore", "PromptSurvival"): ("dpcore.topicdp.prompts", "PromptSurvival", "dpcore.topicdp"),
    ("dpcore", "PruningChain"): ("dpcore.dpne.evaluation", "PruningChain", "dpcore.dpne"),
    ("dpcore", "REAL_CORPORA"): ("dpcore.text.real_corpus", "REAL_CORPORA", "dpcore.text"),
    ("dpcore", "REAL_SPLITS"): ("dpcore.text.real_corpus", "REAL_SPLITS", "dpcore.text"),
    ("dpcore", "REVIEW_RULES"): ("dpcore.lab.review", "REVIEW_RULES", "dpcore.lab"),
    ("dpcore", "Review"): ("dpcore.lab.review", "Review", "dpcore.lab"),
    ("dpcore", "ReviewWarning"): ("dpcore.lab.review", "ReviewWarning", "dpcore.lab"),
    ("dpcore", "SAMPLE_CORPORA"): ("dpcore.text.corpus", "SAMPLE_CORPORA", "dpcore.text"),
    ("dpcore", "SAMPLE_SIZES"): ("dpcore.text.corpus", "SAMPLE_SIZES", "dpcore.text"),
    ("dpcore", "SENSITIVITY_METHODS"): ("dpcore.bayesian.statistics", "SENSITIVITY_METHODS", "dpcore.bayesian"),
    ("dpcore", "SamplerSettings"): ("dpcore.topicdp.sampler", "SamplerSettings", "dpcore.topicdp"),
    ("dpcore", "SamplerSize"): ("dpcore.topicdp.sampler", "SamplerSize", "dpcore.topicdp"),
    ("dpcore", "SensitivityDraws"): ("dpcore.topicdp.sampler", "SensitivityDraws", "dpcore.topicdp"),
    ("dpcore", "SensitivityResult"): ("dpcore.topicdp.sampler", "SensitivityResult", "dpcore.topicdp"),
    ("dpcore", "SurvivalCurve"): ("dpcore.topicdp.prompts", "SurvivalCurve", "dpcore.topicdp"),
    ("dpcore", "TOPICDP_GUARANTEE"): ("dpcore.topicdp.mechanisms", "TOPICDP_GUARANTEE", "dpcore.topicdp"),
    ("dpcore", "TOPIC_MECHANISMS"): ("dpcore.topicdp.mechanisms", "TOPIC_MECHANISMS", "dpcore.topicdp"),
    ("dpcore", "TOPIC_STOP_WORDS"): ("dpcore.topicdp.model", "TOPIC_STOP_WORDS", "dpcore.topicdp"),
    ("dpcore", "TextProfile"): ("dpcore.text.profile", "TextProfile", "dpcore.text"),
    ("dpcore", "TokenCorpus"): ("dpcore.text.ngrams", "TokenCorpus", "dpcore.text"),
    ("dpcore", "TopicKeywordMatrix"): ("dpcore.topicdp.model", "TopicKeywordMatrix", "dpcore.topicdp"),
    ("dpcore", "TopicModel"): ("dpcore.topicdp.model", "TopicModel", "dpcore.topicdp"),
    ("dpcore", "UPLOAD_LIMITS"): ("dpcore.text.uploads", "UPLOAD_LIMITS", "dpcore.text"),
    ("dpcore", "UploadLimits"): ("dpcore.text.corpus", "UploadLimits", "dpcore.text"),
    ("dpcore", "VipsComparison"): ("dpcore.topicdp.vips_comparison", "VipsComparison", "dpcore.topicdp"),
    ("dpcore", "VipsErrors"): ("dpcore.topicdp.vips_evaluation", "VipsErrors", "dpcore.topicdp"),
    ("dpcore", "VipsPageSetup"): ("dpcore.topicdp.vips_comparison", "VipsPageSetup", "dpcore.topicdp"),
    ("dpcore", "VipsRelease"): ("dpcore.topicdp.vips", "VipsRelease", "dpcore.topicdp"),
    ("dpcore", "VipsStart"): ("dpcore.topicdp.vips", "VipsStart", "dpcore.topicdp"),
    ("dpcore", "VipsVocabulary"): ("dpcore.topicdp.vips_inputs", "VipsVocabulary", "dpcore.topicdp"),
    ("dpcore", "align_topics"): ("dpcore.topicdp.fitting", "align_topics", "dpcore.topicdp"),
    ("dpcore", "analytic_gaussian_sigma"): (
        "dpcore.mechanisms.gaussian",
        "analytic_gaussian_sigma",
        "dpcore.mechanisms",
    ),
    ("dpcore", "approximate_dp"): ("dpcore.guarantees", "approximate_dp", "dpcore.guarantees"),
    ("dpcore", "audit_scores"): ("dpcore.audit.core", "audit_scores", "dpcore.audit"),
    ("dpcore", "bayesian_dp"): ("dpcore.bayesian.release", "bayesian_dp", "dpcore.bayesian"),
    ("dpcore", "bayesian_guarantee"): ("dpcore.bayesian.release", "bayesian_guarantee", "dpcore.bayesian.release"),
    ("dpcore", "bayesian_sensitivity"): ("dpcore.bayesian.statistics", "bayesian_sensitivity", "dpcore.bayesian"),
    ("dpcore", "bayesian_statistics"): ("dpcore.bayesian.statistics", "bayesian_statistics", "dpcore.bayesian"),
    ("dpcore", "brute_force_sensitivity"): ("dpcore.bayesian.statistics", "brute_force_sensitivity", "dpcore.bayesian"),
    ("dpcore", "budget_entry"): ("dpcore.lab.budget", "budget_entry", "dpcore.lab"),
    ("dpcore", "build_ngram_index"): ("dpcore.text.ngrams", "build_ngram_index", "dpcore.text"),
    ("dpcore", "cap_user_items"): ("dpcore.bayesian.statistics", "cap_user_items", "dpcore.bayesian"),
    ("dpcore", "check_choice"): ("dpcore.validation", "check_choice", "dpcore.validation"),
    ("dpcore", "check_delta"): ("dpcore.validation", "check_delta", "dpcore.validation"),
    ("dpcore", "check_epsilon"): ("dpcore.validation", "check_epsilon", "dpcore.validation"),
    ("dpcore", "check_int"): ("dpcore.validation", "check_int", "dpcore.validation"),
    ("dpcore", "check_probability"): ("dpcore.validation", "check_probability", "dpcore.validation"),
    ("dpcore", "check_real"): ("dpcore.validation", "check_real", "dpcore.validation"),
    ("dpcore", "check_rng"): ("dpcore.validation", "check_rng", "dpcore.validation"),
    ("dpcore", "check_sensitivity"): ("dpcore.validation", "check_sensitivity", "dpcore.validation"),
    ("dpcore", "classic_calibration_proven"): (
        "dpcore.mechanisms.gaussian",
        "classic_calibration_proven",
        "dpcore.mechanisms",
    ),
    ("dpcore", "classic_gaussian_sigma"): ("dpcore.mechanisms.gaussian", "classic_gaussian_sigma", "dpcore.mechanisms"),
    ("dpcore", "classic_true_delta"): ("dpcore.mechanisms.gaussian", "classic_true_delta", "dpcore.mechanisms"),
    ("dpcore", "compare_noise"): ("dpcore.topicdp.experiments", "compare_noise", "dpcore.topicdp"),
    ("dpcore", "compare_release"): ("dpcore.topicdp.vips_comparison", "compare_release", "dpcore.topicdp"),
    ("dpcore", "compose_releases"): ("dpcore.lab.budget", "compose_releases", "dpcore.lab"),
    ("dpcore", "corpus_from_records"): ("dpcore.text.corpus", "corpus_from_records", "dpcore.text"),
    ("dpcore", "corpus_from_token_arrays"): ("dpcore.text.corpus", "corpus_from_token_arrays", "dpcore.text"),
    ("dpcore", "corrected_topicdp_mechanism"): (
        "dpcore.topicdp.mechanisms",
        "corrected_topicdp_mechanism",
        "dpcore.topicdp",
    ),
    ("dpcore", "corrected_topicdp_sigma"): ("dpcore.topicdp.mechanisms", "corrected_topicdp_sigma", "dpcore.topicdp"),
    ("dpcore", "count_valid_kgrams"): ("dpcore.dpne.accounting", "count_valid_kgrams", "dpcore.dpne"),
    ("dpcore", "custom_review"): ("dpcore.lab.review", "custom_review", "dpcore.lab.review"),
    ("dpcore", "data_cache_dir"): ("dpcore.text.corpus", "data_cache_dir", "dpcore.text"),
    ("dpcore", "document_term_data"): ("dpcore.topicdp.model", "document_term_data", "dpcore.topicdp"),
    ("dpcore", "dpne"): ("dpcore.dpne.release", "dpne_extract", "dpcore.dpne"),
    ("dpcore", "dpne_budget"): ("dpcore.lab.review", "dpne_budget", "dpcore.lab"),
    ("dpcore", "dpne_noise_scales"): ("dpcore.dpne.accounting", "dpne_noise_scales", "dpcore.dpne"),
    ("dpcore", "dpne_users_per_released"): ("dpcore.lab.review", "dpne_users_per_released", "dpcore.lab"),
    ("dpcore", "dpne_vs_dpsu_reason"): ("dpcore.text.profile", "dpne_vs_dpsu_reason", "dpcore.text"),
    ("dpcore", "dpne_with_evaluation"): ("dpcore.dpne.release", "dpne_with_evaluation", "dpcore.dpne"),
    ("dpcore", "dpsu_all"): ("dpcore.dpne.baselines", "dpsu_all", "dpcore.dpne"),
    ("dpcore", "dpsu_even"): ("dpcore.dpne.baselines", "dpsu_even", "dpcore.dpne"),
    ("dpcore", "dpsu_single"): ("dpcore.dpne.baselines", "dpsu_single", "dpcore.dpne"),
    ("dpcore", "dpsu_threshold"): ("dpcore.dpne.accounting", "dpsu_threshold", "dpcore.dpne"),
    ("dpcore", "dpsu_threshold_for_sigma"): ("dpcore.dpne.accounting", "dpsu_threshold_for_sigma", "dpcore.dpne"),
    ("dpcore", "encode_corpus"): ("dpcore.text.ngrams", "encode_corpus", "dpcore.text"),
    ("dpcore", "encode_users"): ("dpcore.text.ngrams", "encode_users", "dpcore.text"),
    ("dpcore", "end_to_end_budget"): ("dpcore.lab.review", "end_to_end_budget", "dpcore.lab"),
    ("dpcore", "end_to_end_dp"): ("dpcore.bayesian.end_to_end", "end_to_end_dp", "dpcore.bayesian"),
    ("dpcore", "end_to_end_guarantee"): (
        "dpcore.bayesian.end_to_end",
        "end_to_end_guarantee",
        "dpcore.bayesian.end_to_end",
    ),
    ("dpcore", "error_curve"): ("dpcore.topicdp.experiments", "error_curve", "dpcore.topicdp"),
    ("dpcore", "exponential_mechanism"): (
        "dpcore.mechanisms.exponential",
        "exponential_mechanism",
        "dpcore.mechanisms",
    ),
    ("dpcore", "exponential_mechanism_probabilities"): (
        "dpcore.mechanisms.exponential",
        "exponential_mechanism_probabilities",
        "dpcore.mechanisms",
    ),
    ("dpcore", "extend_sensitivity_draws"): ("dpcore.topicdp.sampler", "extend_sensitivity_draws", "dpcore.topicdp"),
    ("dpcore", "fit_topic_model"): ("dpcore.topicdp.fitting", "fit_topic_model", "dpcore.topicdp"),
    ("dpcore", "gaussian_composition_sigma"): (
        "dpcore.mechanisms.composition",
        "gaussian_composition_sigma",
        "dpcore.mechanisms",
    ),
    ("dpcore", "gaussian_delta"): ("dpcore.mechanisms.gaussian", "gaussian_delta", "dpcore.mechanisms"),
    ("dpcore", "gaussian_noise_in_units"): ("dpcore.lab.review", "gaussian_noise_in_units", "dpcore.lab"),
    ("dpcore", "gaussian_sigma"): ("dpcore.mechanisms.gaussian", "gaussian_sigma", "dpcore.mechanisms"),
    ("dpcore", "items_per_user"): ("dpcore.lab.review", "items_per_user", "dpcore.lab.review"),
    ("dpcore", "iter_table"): ("dpcore.text.uploads", "iter_table", "dpcore.text"),
    ("dpcore", "k_anonymity"): ("dpcore.guarantees", "k_anonymity", "dpcore.guarantees"),
    ("dpcore", "k_anonymity_release"): ("dpcore.bayesian.baselines", "k_anonymity_release", "dpcore.bayesian"),
    ("dpcore", "kanonymity_coverage"): ("dpcore.dpne.evaluation", "kanonymity_coverage", "dpcore.dpne"),
    ("dpcore", "kendall_tau_distance"): ("dpcore.metrics", "kendall_tau_distance", "dpcore.metrics"),
    ("dpcore", "keyed_normal"): ("dpcore.mechanisms.keyed", "keyed_normal", "dpcore.mechanisms"),
    ("dpcore", "keyed_uniform"): ("dpcore.mechanisms.keyed", "keyed_uniform", "dpcore.mechanisms"),
    ("dpcore", "kl_divergence"): ("dpcore.metrics", "kl_divergence", "dpcore.metrics"),
    ("dpcore", "l1_distance"): ("dpcore.metrics", "l1_distance", "dpcore.metrics"),
    ("dpcore", "laplace_break_even_sensitivity"): (
        "dpcore.topicdp.experiments",
        "laplace_break_even_sensitivity",
        "dpcore.topicdp",
    ),
    ("dpcore", "laplace_counts_dp"): ("dpcore.bayesian.baselines", "laplace_counts_dp", "dpcore.bayesian"),
    ("dpcore", "laplace_guarantee"): ("dpcore.bayesian.baselines", "laplace_guarantee", "dpcore.bayesian"),
    ("dpcore", "laplace_mechanism"): ("dpcore.mechanisms.laplace", "laplace_mechanism", "dpcore.mechanisms"),
    ("dpcore", "laplace_noise_in_units"): ("dpcore.lab.review", "laplace_noise_in_units", "dpcore.lab"),
    ("dpcore", "laplace_pdf"): ("dpcore.mechanisms.laplace", "laplace_pdf", "dpcore.mechanisms"),
    ("dpcore", "laplace_privacy_loss"): ("dpcore.mechanisms.laplace", "laplace_privacy_loss", "dpcore.mechanisms"),
    ("dpcore", "laplace_privacy_loss_bound"): (
        "dpcore.mechanisms.laplace",
        "laplace_privacy_loss_bound",
        "dpcore.mechanisms",
    ),
    ("dpcore", "laplace_public_dp"): ("dpcore.bayesian.baselines", "laplace_public_dp", "dpcore.bayesian"),
    ("dpcore", "laplace_public_sensitivity"): (
        "dpcore.bayesian.baselines",
        "laplace_public_sensitivity",
        "dpcore.bayesian",
    ),
    ("dpcore", "laplace_scale"): ("dpcore.mechanisms.laplace", "laplace_scale", "dpcore.mechanisms"),
    ("dpcore", "laplace_variance"): ("dpcore.mechanisms.laplace", "laplace_variance", "dpcore.mechanisms"),
    ("dpcore", "load_real_corpus"): ("dpcore.text.real_corpus", "load_real_corpus", "dpcore.text"),
    ("dpcore", "load_sample_corpus"): ("dpcore.text.corpus", "load_sample_corpus", "dpcore.text"),
    ("dpcore", "load_sensitivity_draws"): ("dpcore.topicdp.sampler", "load_sensitivity_draws", "dpcore.topicdp"),
    ("dpcore", "load_topic_model"): ("dpcore.topicdp.sampler", "load_topic_model", "dpcore.topicdp"),
    ("dpcore", "load_uploaded_corpus"): ("dpcore.text.uploads", "load_uploaded_corpus", "dpcore.text"),
    ("dpcore", "local_sensitivity"): ("dpcore.guarantees", "local_sensitivity", "dpcore.guarantees"),
    ("dpcore", "log_space_noise_in_units"): ("dpcore.lab.review", "log_space_noise_in_units", "dpcore.lab"),
    ("dpcore", "match_topics_to_prompts"): ("dpcore.topicdp.prompts", "match_topics_to_prompts", "dpcore.topicdp"),
    ("dpcore", "matrix_laplace_mechanism"): ("dpcore.topicdp.mechanisms", "matrix_laplace_mechanism", "dpcore.topicdp"),
    ("dpcore", "mechanism_guarantees"): ("dpcore.lab.review", "mechanism_guarantees", "dpcore.lab.review"),
    ("dpcore", "mvg_mechanism"): ("dpcore.topicdp.mechanisms", "mvg_mechanism", "dpcore.topicdp"),
    ("dpcore", "mvg_sigma"): ("dpcore.topicdp.mechanisms", "mvg_sigma", "dpcore.topicdp"),
    ("dpcore", "no_private_data"): ("dpcore.guarantees", "no_private_data", "dpcore.guarantees"),
    ("dpcore", "no_protection"): ("dpcore.guarantees", "no_protection", "dpcore.guarantees"),
    ("dpcore", "parallel_composition"): ("dpcore.mechanisms.composition", "parallel_composition", "dpcore.mechanisms"),
    ("dpcore", "peek_columns"): ("dpcore.text.uploads", "peek_columns", "dpcore.text"),
    ("dpcore", "person_counts"): ("dpcore.topicdp.vips_inputs", "person_counts", "dpcore.topicdp"),
    ("dpcore", "prepare_bayesian"): ("dpcore.bayesian.release", "prepare_bayesian", "dpcore.bayesian.release"),
    ("dpcore", "prepare_dpne"): ("dpcore.dpne.release", "prepare_dpne", "dpcore.dpne"),
    ("dpcore", "prepare_end_to_end"): (
        "dpcore.bayesian.end_to_end",
        "prepare_end_to_end",
        "dpcore.bayesian.end_to_end",
    ),
    ("dpcore", "private_baseline"): ("dpcore.bayesian.baselines", "private_baseline", "dpcore.bayesian"),
    ("dpcore", "prompt_documents"): ("dpcore.topicdp.prompts", "prompt_documents", "dpcore.topicdp"),
    ("dpcore", "prompt_survival"): ("dpcore.topicdp.prompts", "prompt_survival", "dpcore.topicdp"),
    ("dpcore", "prompt_survival_curve"): ("dpcore.topicdp.prompts", "prompt_survival_curve", "dpcore.topicdp"),
    ("dpcore", "pruning_chain"): ("dpcore.dpne.evaluation", "pruning_chain", "dpcore.dpne"),
    ("dpcore", "public_baseline"): ("dpcore.bayesian.baselines", "public_baseline", "dpcore.bayesian"),
    ("dpcore", "public_only_release"): ("dpcore.topicdp.vips_comparison", "public_only_release", "dpcore.topicdp"),
    ("dpcore", "public_start"): ("dpcore.topicdp.vips", "public_start", "dpcore.topicdp"),
    ("dpcore", "public_vocabulary"): ("dpcore.topicdp.vips_inputs", "public_vocabulary", "dpcore.topicdp"),
    ("dpcore", "pure_dp"): ("dpcore.guarantees", "pure_dp", "dpcore.guarantees"),
    ("dpcore", "quote"): ("dpcore.quoting", "quote", "dpcore.quoting"),
    ("dpcore", "random_dp"): ("dpcore.guarantees", "random_dp", "dpcore.guarantees"),
    ("dpcore", "read_table"): ("dpcore.text.uploads", "read_table", "dpcore.text"),
    ("dpcore", "read_token_corpus"): ("dpcore.text.stream", "read_token_corpus", "dpcore.text"),
    ("dpcore", "reason_length"): ("dpcore.text.profile", "reason_length", "dpcore.text"),
    ("dpcore", "release_all"): ("dpcore.topicdp.experiments", "release_all", "dpcore.topicdp"),
    ("dpcore", "release_errors"): ("dpcore.topicdp.experiments", "release_errors", "dpcore.topicdp"),
    ("dpcore", "released_matrix_distance"): ("dpcore.topicdp.fitting", "released_matrix_distance", "dpcore.topicdp"),
    ("dpcore", "resolve_calibration"): ("dpcore.mechanisms.gaussian", "resolve_calibration", "dpcore.mechanisms"),
    ("dpcore", "review"): ("dpcore.lab.review", "review_release", "dpcore.lab"),
    ("dpcore", "review_warnings"): ("dpcore.lab.review", "review_warnings", "dpcore.lab"),
    ("dpcore", "rmse"): ("dpcore.metrics", "rmse", "dpcore.metrics"),
    ("dpcore", "row_keys"): ("dpcore.mechanisms.keyed", "row_keys", "dpcore.mechanisms"),
    ("dpcore", "rows_membership"): ("dpcore.text.ngrams", "rows_membership", "dpcore.text"),
    ("dpcore", "run_dpne_local"): ("dpcore.dpne.batch", "run_dpne_local", "dpcore.dpne"),
    ("dpcore", "run_scenario"): ("dpcore.audit.scenarios", "run_scenario", "dpcore.audit"),
    ("dpcore", "sample_data_dir"): ("dpcore.text.corpus", "sample_data_dir", "dpcore.text"),
    ("dpcore", "sampled_sensitivity"): ("dpcore.topicdp.sampler", "sampled_sensitivity", "dpcore.topicdp"),
    ("dpcore", "save_topic_model"): ("dpcore.topicdp.sampler", "save_topic_model", "dpcore.topicdp"),
    ("dpcore", "seeded_start"): ("dpcore.topicdp.vips", "seeded_start", "dpcore.topicdp"),
    ("dpcore", "sensitivity_sampler_size"): ("dpcore.topicdp.sampler", "sensitivity_sampler_size", "dpcore.topicdp"),
    ("dpcore", "sentences_per_user"): ("dpcore.text.profile", "sentences_per_user", "dpcore.text"),
    ("dpcore", "sequential_composition"): (
        "dpcore.mechanisms.composition",
        "sequential_composition",
        "dpcore.mechanisms",
    ),
    ("dpcore", "single_budget"): ("dpcore.lab.review", "single_budget", "dpcore.lab"),
    ("dpcore", "spurious_threshold"): ("dpcore.dpne.accounting", "spurious_threshold", "dpcore.dpne"),
    ("dpcore", "strict_sensitivity"): ("dpcore.bayesian.statistics", "strict_sensitivity", "dpcore.bayesian"),
    ("dpcore", "strict_topicdp_mechanism"): ("dpcore.topicdp.mechanisms", "strict_topicdp_mechanism", "dpcore.topicdp"),
    ("dpcore", "strict_topicdp_sigma"): ("dpcore.topicdp.mechanisms", "strict_topicdp_sigma", "dpcore.topicdp"),
    ("dpcore", "summarise_draws"): ("dpcore.topicdp.experiments", "summarise_draws", "dpcore.topicdp"),
    ("dpcore", "table_columns"): ("dpcore.text.uploads", "table_columns", "dpcore.text"),
    ("dpcore", "text_key"): ("dpcore.mechanisms.keyed", "text_key", "dpcore.mechanisms"),
    ("dpcore", "thesis_epsilon_for_l1"): ("dpcore.topicdp.vips_comparison", "thesis_epsilon_for_l1", "dpcore.topicdp"),
    ("dpcore", "token_keys"): ("dpcore.mechanisms.keyed", "token_keys", "dpcore.mechanisms"),
    ("dpcore", "tokenize"): ("dpcore.text.corpus", "tokenize", "dpcore.text"),
    ("dpcore", "tomotopy_available"): ("dpcore.topicdp.model", "tomotopy_available", "dpcore.topicdp"),
    ("dpcore", "topic_keyword_matrix"): ("dpcore.topicdp.fitting", "topic_keyword_matrix", "dpcore.topicdp"),
    ("dpcore", "topicdp_mechanism"): ("dpcore.topicdp.mechanisms", "topicdp_mechanism", "dpcore.topicdp"),
    ("dpcore", "topicdp_sigma"): ("dpcore.topicdp.mechanisms", "topicdp_sigma", "dpcore.topicdp"),
    ("dpcore", "topicdp_true_epsilon"): ("dpcore.topicdp.mechanisms", "topicdp_true_epsilon", "dpcore.topicdp"),
    ("dpcore", "vips_epsilon"): ("dpcore.topicdp.vips", "vips_epsilon", "dpcore.topicdp"),
    ("dpcore", "vips_errors"): ("dpcore.topicdp.vips_evaluation", "vips_errors", "dpcore.topicdp"),
    ("dpcore", "vips_lda"): ("dpcore.topicdp.vips", "vips_lda", "dpcore.topicdp"),
    ("dpcore", "vips_page_setup"): ("dpcore.topicdp.vips_comparison", "vips_page_setup", "dpcore.topicdp"),
    ("dpcore", "vips_reference_fit"): ("dpcore.topicdp.vips", "vips_reference_fit", "dpcore.topicdp"),
    ("dpcore", "vips_sigma"): ("dpcore.topicdp.vips", "vips_sigma", "dpcore.topicdp"),
    ("dpcore", "vips_sweep"): ("dpcore.topicdp.vips_comparison", "vips_sweep", "dpcore.topicdp"),
    ("dpcore", "worst_case_sensitivity"): ("dpcore.bayesian.statistics", "worst_case_sensitivity", "dpcore.bayesian"),
    ("dpcore.bayesian", "BayesianRelease"): ("dpcore.bayesian.release", "BayesianRelease", "dpcore.bayesian"),
    ("dpcore.bayesian", "BayesianStatistics"): ("dpcore.bayesian.statistics", "BayesianStatistics", "dpcore.bayesian"),
    ("dpcore.bayesian", "CALIBRATION_CHOICES"): (
        "dpcore.mechanisms.gaussian",
        "CALIBRATION_CHOICES",
        "dpcore.mechanisms",
    ),
    ("dpcore.bayesian", "DEFAULT_RHO_GRID"): ("dpcore.bayesian.statistics", "DEFAULT_RHO_GRID", "dpcore.bayesian"),
    ("dpcore.bayesian", "DEFAULT_S_GRID"): ("dpcore.bayesian.statistics", "DEFAULT_S_GRID", "dpcore.bayesian"),
    ("dpcore.bayesian", "EndToEndEvaluation"): ("dpcore.bayesian.end_to_end", "EndToEndEvaluation", "dpcore.bayesian"),
    ("dpcore.bayesian", "EndToEndRelease"): ("dpcore.bayesian.end_to_end", "EndToEndRelease", "dpcore.bayesian"),
    ("dpcore.bayesian", "Guarantee"): ("dpcore.guarantees", "Guarantee", "dpcore.guarantees"),
    ("dpcore.bayesian", "LOCAL_SENSITIVITY_METHODS"): (
        "dpcore.bayesian.statistics",
        "LOCAL_SENSITIVITY_METHODS",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian", "MAX_USERS_CAP"): ("dpcore.bayesian.statistics", "MAX_USERS_CAP", "dpcore.bayesian.statistics"),
    ("dpcore.bayesian", "PreparedBayesianDP"): ("dpcore.bayesian.release", "PreparedBayesianDP", "dpcore.bayesian"),
    ("dpcore.bayesian", "PreparedEndToEnd"): (
        "dpcore.bayesian.end_to_end",
        "PreparedEndToEnd",
        "dpcore.bayesian.end_to_end",
    ),
    ("dpcore.bayesian", "SENSITIVITY_METHODS"): (
        "dpcore.bayesian.statistics",
        "SENSITIVITY_METHODS",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian", "_CHUNK_NNZ"): ("dpcore.bayesian.statistics", "_CHUNK_NNZ", "dpcore.bayesian.statistics"),
    ("dpcore.bayesian", "_brute_force"): ("dpcore.bayesian.statistics", "_brute_force", "dpcore.bayesian.statistics"),
    ("dpcore.bayesian", "_centered_log1p"): (
        "dpcore.bayesian.statistics",
        "_centered_log1p",
        "dpcore.bayesian.statistics",
    ),
    ("dpcore.bayesian", "_check_C"): ("dpcore.bayesian.statistics", "_check_C", "dpcore.bayesian.statistics"),
    ("dpcore.bayesian", "_check_S"): ("dpcore.bayesian.statistics", "_check_S", "dpcore.bayesian.statistics"),
    ("dpcore.bayesian", "_check_items_capped"): (
        "dpcore.bayesian.statistics",
        "_check_items_capped",
        "dpcore.bayesian.statistics",
    ),
    ("dpcore.bayesian", "_check_max_items"): (
        "dpcore.bayesian.statistics",
        "_check_max_items",
        "dpcore.bayesian.statistics",
    ),
    ("dpcore.bayesian", "_check_max_users"): (
        "dpcore.bayesian.statistics",
        "_check_max_users",
        "dpcore.bayesian.statistics",
    ),
    ("dpcore.bayesian", "_check_public"): ("dpcore.bayesian.statistics", "_check_public", "dpcore.bayesian.statistics"),
    ("dpcore.bayesian", "_check_rho"): ("dpcore.bayesian.statistics", "_check_rho", "dpcore.bayesian.statistics"),
    ("dpcore.bayesian", "_check_user_cap"): (
        "dpcore.bayesian.statistics",
        "_check_user_cap",
        "dpcore.bayesian.statistics",
    ),
    ("dpcore.bayesian", "_softmax_of_draw"): (
        "dpcore.bayesian.statistics",
        "_softmax_of_draw",
        "dpcore.bayesian.statistics",
    ),
    ("dpcore.bayesian", "_worst_case"): ("dpcore.bayesian.statistics", "_worst_case", "dpcore.bayesian.statistics"),
    ("dpcore.bayesian", "approximate_dp"): ("dpcore.guarantees", "approximate_dp", "dpcore.guarantees"),
    ("dpcore.bayesian", "as_float_array"): ("dpcore.validation", "as_float_array", "dpcore.validation"),
    ("dpcore.bayesian", "bayesian_dp"): ("dpcore.bayesian.release", "bayesian_dp", "dpcore.bayesian"),
    ("dpcore.bayesian", "bayesian_guarantee"): (
        "dpcore.bayesian.release",
        "bayesian_guarantee",
        "dpcore.bayesian.release",
    ),
    ("dpcore.bayesian", "bayesian_sensitivity"): (
        "dpcore.bayesian.statistics",
        "bayesian_sensitivity",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian", "bayesian_statistics"): (
        "dpcore.bayesian.statistics",
        "bayesian_statistics",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian", "brute_force_sensitivity"): (
        "dpcore.bayesian.statistics",
        "brute_force_sensitivity",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian", "cap_user_items"): ("dpcore.bayesian.statistics", "cap_user_items", "dpcore.bayesian"),
    ("dpcore.bayesian", "check_choice"): ("dpcore.validation", "check_choice", "dpcore.validation"),
    ("dpcore.bayesian", "check_count_matrix"): ("dpcore.bayesian.statistics", "check_count_matrix", "dpcore.bayesian"),
    ("dpcore.bayesian", "check_delta"): ("dpcore.validation", "check_delta", "dpcore.validation"),
    ("dpcore.bayesian", "check_epsilon"): ("dpcore.validation", "check_epsilon", "dpcore.validation"),
    ("dpcore.bayesian", "check_int"): ("dpcore.validation", "check_int", "dpcore.validation"),
    ("dpcore.bayesian", "check_noise_scale"): ("dpcore.validation", "check_noise_scale", "dpcore.validation"),
    ("dpcore.bayesian", "check_probability"): ("dpcore.validation", "check_probability", "dpcore.validation"),
    ("dpcore.bayesian", "check_real"): ("dpcore.validation", "check_real", "dpcore.validation"),
    ("dpcore.bayesian", "check_rng"): ("dpcore.validation", "check_rng", "dpcore.validation"),
    ("dpcore.bayesian", "check_sequence"): ("dpcore.validation", "check_sequence", "dpcore.validation"),
    ("dpcore.bayesian", "clamp_counts"): ("dpcore.bayesian.statistics", "clamp_counts", "dpcore.bayesian"),
    ("dpcore.bayesian", "cross_entropy_score"): (
        "dpcore.bayesian.end_to_end",
        "cross_entropy_score",
        "dpcore.bayesian.end_to_end",
    ),
    ("dpcore.bayesian", "decay_weights"): ("dpcore.bayesian.statistics", "decay_weights", "dpcore.bayesian"),
    ("dpcore.bayesian", "end_to_end_dp"): ("dpcore.bayesian.end_to_end", "end_to_end_dp", "dpcore.bayesian"),
    ("dpcore.bayesian", "end_to_end_guarantee"): (
        "dpcore.bayesian.end_to_end",
        "end_to_end_guarantee",
        "dpcore.bayesian.end_to_end",
    ),
    ("dpcore.bayesian", "gaussian_sigma"): ("dpcore.mechanisms.gaussian", "gaussian_sigma", "dpcore.mechanisms"),
    ("dpcore.bayesian", "local_sensitivity"): ("dpcore.guarantees", "local_sensitivity", "dpcore.guarantees"),
    ("dpcore.bayesian", "prepare_bayesian"): ("dpcore.bayesian.release", "prepare_bayesian", "dpcore.bayesian.release"),
    ("dpcore.bayesian", "prepare_end_to_end"): (
        "dpcore.bayesian.end_to_end",
        "prepare_end_to_end",
        "dpcore.bayesian.end_to_end",
    ),
    ("dpcore.bayesian", "ranked_drops"): ("dpcore._ranking", "ranked_drops", "dpcore._ranking"),
    ("dpcore.bayesian", "resolve_calibration"): (
        "dpcore.mechanisms.gaussian",
        "resolve_calibration",
        "dpcore.mechanisms",
    ),
    ("dpcore.bayesian", "smallest_keys_per_row"): (
        "dpcore.bayesian.statistics",
        "smallest_keys_per_row",
        "dpcore.bayesian.statistics",
    ),
    ("dpcore.bayesian", "softmax"): ("dpcore.bayesian.statistics", "softmax", "dpcore.bayesian"),
    ("dpcore.bayesian", "strict_sensitivity"): ("dpcore.bayesian.statistics", "strict_sensitivity", "dpcore.bayesian"),
    ("dpcore.bayesian", "worst_case_sensitivity"): (
        "dpcore.bayesian.statistics",
        "worst_case_sensitivity",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "BAYESIAN"): ("dpcore.bayesian.experiments", "BAYESIAN", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "BAYESIAN_STRICT"): (
        "dpcore.bayesian.experiments",
        "BAYESIAN_STRICT",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "Corpus"): ("dpcore.text.corpus", "Corpus", "dpcore.text"),
    ("dpcore.bayesian_experiments", "DEFAULT_RHO_GRID"): (
        "dpcore.bayesian.statistics",
        "DEFAULT_RHO_GRID",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "DEFAULT_SETTINGS"): (
        "dpcore.bayesian.experiments",
        "DEFAULT_SETTINGS",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "DEFAULT_S_GRID"): (
        "dpcore.bayesian.statistics",
        "DEFAULT_S_GRID",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "END_TO_END"): ("dpcore.bayesian.experiments", "END_TO_END", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "ExperimentTable"): (
        "dpcore.bayesian.experiments",
        "ExperimentTable",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "KL_SMOOTHING"): ("dpcore.metrics", "KL_SMOOTHING", "dpcore.metrics"),
    ("dpcore.bayesian_experiments", "K_ANONYMITY"): ("dpcore.bayesian.experiments", "K_ANONYMITY", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "LAPLACE"): ("dpcore.bayesian.experiments", "LAPLACE", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "LAPLACE_PUBLIC"): (
        "dpcore.bayesian.experiments",
        "LAPLACE_PUBLIC",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "MECHANISMS"): ("dpcore.bayesian.experiments", "MECHANISMS", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "NgramCounts"): ("dpcore.text.counts", "NgramCounts", "dpcore.text"),
    ("dpcore.bayesian_experiments", "PRIVATE"): ("dpcore.bayesian.experiments", "PRIVATE", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "PRIVATE_BASELINE_GUARANTEE"): (
        "dpcore.bayesian.baselines",
        "PRIVATE_BASELINE_GUARANTEE",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "PUBLIC"): ("dpcore.bayesian.experiments", "PUBLIC", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "PUBLIC_BASELINE_GUARANTEE"): (
        "dpcore.bayesian.baselines",
        "PUBLIC_BASELINE_GUARANTEE",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "PerplexitySetup"): (
        "dpcore.bayesian.evaluation",
        "PerplexitySetup",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "Summary"): ("dpcore.bayesian.experiments", "Summary", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "_BAND"): ("dpcore.bayesian.experiments", "_BAND", "dpcore.bayesian.experiments"),
    ("dpcore.bayesian_experiments", "_check_common"): (
        "dpcore.bayesian.experiments",
        "_check_common",
        "dpcore.bayesian.experiments",
    ),
    ("dpcore.bayesian_experiments", "_check_strict"): (
        "dpcore.bayesian.experiments",
        "_check_strict",
        "dpcore.bayesian.experiments",
    ),
    ("dpcore.bayesian_experiments", "_column"): (
        "dpcore.bayesian.experiments",
        "_column",
        "dpcore.bayesian.experiments",
    ),
    ("dpcore.bayesian_experiments", "_epsilons"): (
        "dpcore.bayesian.experiments",
        "_epsilons",
        "dpcore.bayesian.experiments",
    ),
    ("dpcore.bayesian_experiments", "_mechanism_kls"): (
        "dpcore.bayesian.experiments",
        "_mechanism_kls",
        "dpcore.bayesian.experiments",
    ),
    ("dpcore.bayesian_experiments", "_rows"): ("dpcore.bayesian.experiments", "_rows", "dpcore.bayesian.experiments"),
    ("dpcore.bayesian_experiments", "_strict_statistics"): (
        "dpcore.bayesian.experiments",
        "_strict_statistics",
        "dpcore.bayesian.experiments",
    ),
    ("dpcore.bayesian_experiments", "audit_scores"): ("dpcore.audit.core", "audit_scores", "dpcore.audit"),
    ("dpcore.bayesian_experiments", "bayesian_guarantee"): (
        "dpcore.bayesian.release",
        "bayesian_guarantee",
        "dpcore.bayesian.release",
    ),
    ("dpcore.bayesian_experiments", "bayesian_statistics"): (
        "dpcore.bayesian.statistics",
        "bayesian_statistics",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "cap_user_totals"): (
        "dpcore.bayesian.baselines",
        "cap_user_totals",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "check_choice"): ("dpcore.validation", "check_choice", "dpcore.validation"),
    ("dpcore.bayesian_experiments", "check_count_matrix"): (
        "dpcore.bayesian.statistics",
        "check_count_matrix",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "check_delta"): ("dpcore.validation", "check_delta", "dpcore.validation"),
    ("dpcore.bayesian_experiments", "check_epsilon"): ("dpcore.validation", "check_epsilon", "dpcore.validation"),
    ("dpcore.bayesian_experiments", "check_int"): ("dpcore.validation", "check_int", "dpcore.validation"),
    ("dpcore.bayesian_experiments", "check_probability"): (
        "dpcore.validation",
        "check_probability",
        "dpcore.validation",
    ),
    ("dpcore.bayesian_experiments", "check_real"): ("dpcore.validation", "check_real", "dpcore.validation"),
    ("dpcore.bayesian_experiments", "check_rng"): ("dpcore.validation", "check_rng", "dpcore.validation"),
    ("dpcore.bayesian_experiments", "clopper_pearson_upper"): (
        "dpcore.audit.core",
        "clopper_pearson_upper",
        "dpcore.audit",
    ),
    ("dpcore.bayesian_experiments", "empirical_epsilon_lower_bound"): (
        "dpcore.bayesian.evaluation",
        "empirical_epsilon_lower_bound",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "gaussian_sigma"): (
        "dpcore.mechanisms.gaussian",
        "gaussian_sigma",
        "dpcore.mechanisms",
    ),
    ("dpcore.bayesian_experiments", "k_anonymity_release"): (
        "dpcore.bayesian.baselines",
        "k_anonymity_release",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "kl_divergence"): ("dpcore.metrics", "kl_divergence", "dpcore.metrics"),
    ("dpcore.bayesian_experiments", "kl_vs_epsilon"): (
        "dpcore.bayesian.experiments",
        "kl_vs_epsilon",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "kl_vs_k"): ("dpcore.bayesian.experiments", "kl_vs_k", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "kl_vs_public_quality"): (
        "dpcore.bayesian.experiments",
        "kl_vs_public_quality",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "kl_vs_users"): ("dpcore.bayesian.experiments", "kl_vs_users", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "kl_vs_vocabulary"): (
        "dpcore.bayesian.experiments",
        "kl_vs_vocabulary",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "laplace_guarantee"): (
        "dpcore.bayesian.baselines",
        "laplace_guarantee",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "membership_attack"): (
        "dpcore.bayesian.evaluation",
        "membership_attack",
        "dpcore.bayesian.evaluation",
    ),
    ("dpcore.bayesian_experiments", "membership_inference"): (
        "dpcore.bayesian.evaluation",
        "membership_inference",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "ngram_counts"): ("dpcore.text.counts", "ngram_counts", "dpcore.text"),
    ("dpcore.bayesian_experiments", "normalise_clipped"): (
        "dpcore.bayesian.baselines",
        "normalise_clipped",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "perplexity_setup"): (
        "dpcore.bayesian.evaluation",
        "perplexity_setup",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "perplexity_table"): (
        "dpcore.bayesian.evaluation",
        "perplexity_table",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "prepare_end_to_end"): (
        "dpcore.bayesian.end_to_end",
        "prepare_end_to_end",
        "dpcore.bayesian.end_to_end",
    ),
    ("dpcore.bayesian_experiments", "prepare_laplace"): (
        "dpcore.bayesian.baselines",
        "prepare_laplace",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "prepare_laplace_public"): (
        "dpcore.bayesian.baselines",
        "prepare_laplace_public",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "public_baseline"): (
        "dpcore.bayesian.baselines",
        "public_baseline",
        "dpcore.bayesian",
    ),
    ("dpcore.bayesian_experiments", "softmax"): ("dpcore.bayesian.statistics", "softmax", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "summarise"): ("dpcore.bayesian.experiments", "summarise", "dpcore.bayesian"),
    ("dpcore.bayesian_experiments", "trigram_perplexity"): (
        "dpcore.bayesian.evaluation",
        "trigram_perplexity",
        "dpcore.bayesian",
    ),
    ("dpcore.corpus", "Corpus"): ("dpcore.text.corpus", "Corpus", "dpcore.text"),
    ("dpcore.corpus", "CorpusError"): ("dpcore.text.corpus", "CorpusError", "dpcore.text"),
    ("dpcore.corpus", "Document"): ("dpcore.text.corpus", "Document", "dpcore.text"),
    ("dpcore.corpus", "MAX_UPLOAD_BYTES"): ("dpcore.text.uploads", "MAX_UPLOAD_BYTES", "dpcore.text"),
    ("dpcore.corpus", "PAPER_CACHE_VERSION"): ("dpcore.text.corpus", "PAPER_CACHE_VERSION", "dpcore.text.corpus"),
    ("dpcore.corpus", "SAMPLE_CORPORA"): ("dpcore.text.corpus", "SAMPLE_CORPORA", "dpcore.text"),
    ("dpcore.corpus", "SAMPLE_SIZES"): ("dpcore.text.corpus", "SAMPLE_SIZES", "dpcore.text"),
    ("dpcore.corpus", "UPLOAD_LIMITS"): ("dpcore.text.uploads", "UPLOAD_LIMITS", "dpcore.text"),
    ("dpcore.corpus", "UploadLimits"): ("dpcore.text.corpus", "UploadLimits", "dpcore.text"),
    ("dpcore.corpus", "_ARRAY"): ("dpcore.text.uploads", "_ARRAY", "dpcore.text.uploads"),
    ("dpcore.corpus", "_CHUNK"): ("dpcore.text.uploads", "_CHUNK", "dpcore.text.uploads"),
    ("dpcore.corpus", "_LOADED"): ("dpcore.text.corpus", "_LOADED", "dpcore.text.corpus"),
    ("dpcore.corpus", "_MAX_EXPANSION"): ("dpcore.text.corpus", "_MAX_EXPANSION", "dpcore.text.corpus"),
    ("dpcore.corpus", "_MB"): ("dpcore.text.corpus", "_MB", "dpcore.text.corpus"),
    ("dpcore.corpus", "_NEWLINE"): ("dpcore.text.uploads", "_NEWLINE", "dpcore.text.uploads"),
    ("dpcore.corpus", "_NO_TEXT"): ("dpcore.text.uploads", "_NO_TEXT", "dpcore.text.uploads"),
    ("dpcore.corpus", "_OTHER_FORMATS"): ("dpcore.text.uploads", "_OTHER_FORMATS", "dpcore.text.uploads"),
    ("dpcore.corpus", "_PAPER_ARRAYS"): ("dpcore.text.corpus", "_PAPER_ARRAYS", "dpcore.text.corpus"),
    ("dpcore.corpus", "_SENTENCE_END"): ("dpcore.text.corpus", "_SENTENCE_END", "dpcore.text.corpus"),
    ("dpcore.corpus", "_Seen"): ("dpcore.text.uploads", "_Seen", "dpcore.text.uploads"),
    ("dpcore.corpus", "_TOKEN"): ("dpcore.text.corpus", "_TOKEN", "dpcore.text.corpus"),
    ("dpcore.corpus", "_byte_chunks"): ("dpcore.text.uploads", "_byte_chunks", "dpcore.text.uploads"),
    ("dpcore.corpus", "_column_list"): ("dpcore.text.uploads", "_column_list", "dpcore.text.uploads"),
    ("dpcore.corpus", "_csv_rows"): ("dpcore.text.uploads", "_csv_rows", "dpcore.text.uploads"),
    ("dpcore.corpus", "_format_of"): ("dpcore.text.uploads", "_format_of", "dpcore.text.uploads"),
    ("dpcore.corpus", "_jsonl_rows"): ("dpcore.text.uploads", "_jsonl_rows", "dpcore.text.uploads"),
    ("dpcore.corpus", "_limits_for"): ("dpcore.text.uploads", "_limits_for", "dpcore.text.uploads"),
    ("dpcore.corpus", "_lines"): ("dpcore.text.uploads", "_lines", "dpcore.text.uploads"),
    ("dpcore.corpus", "_mb"): ("dpcore.text.corpus", "_mb", "dpcore.text.corpus"),
    ("dpcore.corpus", "_paper_arrays"): ("dpcore.text.corpus", "_paper_arrays", "dpcore.text.corpus"),
    ("dpcore.corpus", "_short"): ("dpcore.quoting", "quote", "dpcore.quoting"),
    ("dpcore.corpus", "_sniff"): ("dpcore.text.uploads", "_sniff", "dpcore.text.uploads"),
    ("dpcore.corpus", "_text_chunks"): ("dpcore.text.uploads", "_text_chunks", "dpcore.text.uploads"),
    ("dpcore.corpus", "check_choice"): ("dpcore.validation", "check_choice", "dpcore.validation"),
    ("dpcore.corpus", "check_int"): ("dpcore.validation", "check_int", "dpcore.validation"),
    ("dpcore.corpus", "corpus_from_records"): ("dpcore.text.corpus", "corpus_from_records", "dpcore.text"),
    ("dpcore.corpus", "corpus_from_token_arrays"): ("dpcore.text.corpus", "corpus_from_token_arrays", "dpcore.text"),
    ("dpcore.corpus", "data_cache_dir"): ("dpcore.text.corpus", "data_cache_dir", "dpcore.text"),
    ("dpcore.corpus", "iter_table"): ("dpcore.text.uploads", "iter_table", "dpcore.text"),
    ("dpcore.corpus", "load_sample_corpus"): ("dpcore.text.corpus", "load_sample_corpus", "dpcore.text"),
    ("dpcore.corpus", "load_uploaded_corpus"): ("dpcore.text.uploads", "load_uploaded_corpus", "dpcore.text"),
    ("dpcore.corpus", "peek_columns"): ("dpcore.text.uploads", "peek_columns", "dpcore.text"),
    ("dpcore.corpus", "read_table"): ("dpcore.text.uploads", "read_table", "dpcore.text"),
    ("dpcore.corpus", "sample_data_dir"): ("dpcore.text.corpus", "sample_data_dir", "dpcore.text"),
    ("dpcore.corpus", "table_columns"): ("dpcore.text.uploads", "table_columns", "dpcore.text"),
    ("dpcore.corpus", "tokenize"): ("dpcore.text.corpus", "tokenize", "dpcore.text"),
    ("dpcore.dpne", "DEFAULT_K_VALUES"): ("dpcore.dpne.accounting", "DEFAULT_K_VALUES", "dpcore.dpne"),
    ("dpcore.dpne", "DPNE_GUARANTEE"): ("dpcore.dpne.accounting", "DPNE_GUARANTEE", "dpcore.dpne"),
    ("dpcore.dpne", "DPSU_POLICIES"): ("dpcore.dpne.accounting", "DPSU_POLICIES", "dpcore.dpne"),
    ("dpcore.dpne", "DPSU_SINGLE_SCOPE"): ("dpcore.dpne.accounting", "DPSU_SINGLE_SCOPE", "dpcore.dpne.accounting"),
    ("dpcore.dpne", "DpneEvaluation"): ("dpcore.dpne.results", "DpneEvaluation", "dpcore.dpne"),
    ("dpcore.dpne", "DpneLevelDiagnostics"): ("dpcore.dpne.results", "DpneLevelDiagnostics", "dpcore.dpne"),
    ("dpcore.dpne", "DpnePlan"): ("dpcore.dpne.release", "DpnePlan", "dpcore.dpne"),
    ("dpcore.dpne", "DpneRelease"): ("dpcore.dpne.results", "DpneRelease", "dpcore.dpne"),
    ("dpcore.dpne", "DpneRun"): ("dpcore.dpne.results", "DpneRun", "dpcore.dpne"),
    ("dpcore.dpne", "DpsuBaselineRelease"): ("dpcore.dpne.results", "DpsuBaselineRelease", "dpcore.dpne"),
    ("dpcore.dpne", "EVALUATION_ONLY"): ("dpcore.dpne.accounting", "EVALUATION_ONLY", "dpcore.dpne"),
    ("dpcore.dpne", "Guarantee"): ("dpcore.guarantees", "Guarantee", "dpcore.guarantees"),
    ("dpcore.dpne", "KANONYMITY_LABEL"): ("dpcore.dpne.accounting", "KANONYMITY_LABEL", "dpcore.dpne"),
    ("dpcore.dpne", "KAnonymityCoverage"): ("dpcore.dpne.evaluation", "KAnonymityCoverage", "dpcore.dpne"),
    ("dpcore.dpne", "MAX_CONTRIBUTION_LIMIT"): (
        "dpcore.dpne.accounting",
        "MAX_CONTRIBUTION_LIMIT",
        "dpcore.dpne.accounting",
    ),
    ("dpcore.dpne", "MAX_NGRAM_LENGTH"): ("dpcore.text.ngrams", "MAX_NGRAM_LENGTH", "dpcore.text"),
    ("dpcore.dpne", "NgramIndex"): ("dpcore.text.ngrams", "NgramIndex", "dpcore.text"),
    ("dpcore.dpne", "PRUNING_RULES"): ("dpcore.dpne.accounting", "PRUNING_RULES", "dpcore.dpne"),
    ("dpcore.dpne", "PruningChain"): ("dpcore.dpne.evaluation", "PruningChain", "dpcore.dpne"),
    ("dpcore.dpne", "SELECTION_RULES"): ("dpcore.dpne.accounting", "SELECTION_RULES", "dpcore.dpne"),
    ("dpcore.dpne", "STREAM_NOISE"): ("dpcore.mechanisms.keyed", "STREAM_NOISE", "dpcore.mechanisms"),
    ("dpcore.dpne", "STREAM_ORDER"): ("dpcore.mechanisms.keyed", "STREAM_ORDER", "dpcore.mechanisms"),
    ("dpcore.dpne", "STREAM_SELECT"): ("dpcore.mechanisms.keyed", "STREAM_SELECT", "dpcore.mechanisms"),
    ("dpcore.dpne", "STREAM_ZERO_ORDER"): ("dpcore.mechanisms.keyed", "STREAM_ZERO_ORDER", "dpcore.mechanisms"),
    ("dpcore.dpne", "STREAM_ZERO_WEIGHT"): ("dpcore.mechanisms.keyed", "STREAM_ZERO_WEIGHT", "dpcore.mechanisms"),
    ("dpcore.dpne", "TokenCorpus"): ("dpcore.text.ngrams", "TokenCorpus", "dpcore.text"),
    ("dpcore.dpne", "_BLOCK_USERS"): ("dpcore.dpne.selection", "_BLOCK_USERS", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_ENUMERATE_LIMIT"): ("dpcore.dpne.space", "_ENUMERATE_LIMIT", "dpcore.dpne.space"),
    ("dpcore.dpne", "_EXACT_T"): ("dpcore.dpne.accounting", "_EXACT_T", "dpcore.dpne.accounting"),
    ("dpcore.dpne", "_KEEP_POSITIONS"): ("dpcore.dpne.release", "_KEEP_POSITIONS", "dpcore.dpne.release"),
    ("dpcore.dpne", "_LevelHistogram"): ("dpcore.dpne.selection", "_LevelHistogram", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_MAX_POLICY_CUTOFF"): ("dpcore.dpne.accounting", "_MAX_POLICY_CUTOFF", "dpcore.dpne.accounting"),
    ("dpcore.dpne", "_NOISE_BLOCK"): ("dpcore.dpne.selection", "_NOISE_BLOCK", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_NO_ETA"): ("dpcore.dpne.release", "_NO_ETA", "dpcore.dpne.release"),
    ("dpcore.dpne", "_ReleasedSets"): ("dpcore.dpne.results", "_ReleasedSets", "dpcore.dpne.results"),
    ("dpcore.dpne", "_SHARD_POSITIONS"): ("dpcore.dpne.release", "_SHARD_POSITIONS", "dpcore.dpne.release"),
    ("dpcore.dpne", "_ValidSpace"): ("dpcore.dpne.space", "_ValidSpace", "dpcore.dpne.space"),
    ("dpcore.dpne", "_ZERO_CHUNK"): ("dpcore.dpne.space", "_ZERO_CHUNK", "dpcore.dpne.space"),
    ("dpcore.dpne", "_as_index"): ("dpcore.dpne.baselines", "_as_index", "dpcore.dpne.baselines"),
    ("dpcore.dpne", "_as_token_corpus"): ("dpcore.dpne.space", "_as_token_corpus", "dpcore.dpne.space"),
    ("dpcore.dpne", "_check_baseline"): ("dpcore.dpne.baselines", "_check_baseline", "dpcore.dpne.baselines"),
    ("dpcore.dpne", "_check_dpne"): ("dpcore.dpne.release", "_check_dpne", "dpcore.dpne.release"),
    ("dpcore.dpne", "_check_eta"): ("dpcore.dpne.release", "_check_eta", "dpcore.dpne.release"),
    ("dpcore.dpne", "_check_noise_decay"): ("dpcore.dpne.accounting", "_check_noise_decay", "dpcore.dpne.accounting"),
    ("dpcore.dpne", "_check_policy_cutoff"): ("dpcore.dpne.baselines", "_check_policy_cutoff", "dpcore.dpne.baselines"),
    ("dpcore.dpne", "_concat"): ("dpcore.dpne.shards", "_concat", "dpcore.dpne.shards"),
    ("dpcore.dpne", "_decode_rows"): ("dpcore.dpne.results", "_decode_rows", "dpcore.dpne.results"),
    ("dpcore.dpne", "_dpsu_each_length"): ("dpcore.dpne.baselines", "_dpsu_each_length", "dpcore.dpne.baselines"),
    ("dpcore.dpne", "_dpsu_select"): ("dpcore.dpne.selection", "_dpsu_select", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_dpsu_weighted_levels"): (
        "dpcore.dpne.selection",
        "_dpsu_weighted_levels",
        "dpcore.dpne.selection",
    ),
    ("dpcore.dpne", "_expected_weights"): ("dpcore.dpne.evaluation", "_expected_weights", "dpcore.dpne.evaluation"),
    ("dpcore.dpne", "_first_distinct"): ("dpcore.dpne.space", "_first_distinct", "dpcore.dpne.space"),
    ("dpcore.dpne", "_kept_pairs"): ("dpcore.dpne.selection", "_kept_pairs", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_keyed_priority"): ("dpcore.dpne.selection", "_keyed_priority", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_keyed_seed"): ("dpcore.dpne.selection", "_keyed_seed", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_level_candidates"): ("dpcore.dpne.shards", "_level_candidates", "dpcore.dpne.shards"),
    ("dpcore.dpne", "_level_histogram"): ("dpcore.dpne.selection", "_level_histogram", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_limit_contributions"): ("dpcore.dpne.selection", "_limit_contributions", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_merge_items"): ("dpcore.dpne.shards", "_merge_items", "dpcore.dpne.shards"),
    ("dpcore.dpne", "_noisy_release"): ("dpcore.dpne.selection", "_noisy_release", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_noisy_threshold"): ("dpcore.dpne.selection", "_noisy_threshold", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_noisy_values"): ("dpcore.dpne.selection", "_noisy_values", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_policy_gaussian_histogram"): (
        "dpcore.dpne.selection",
        "_policy_gaussian_histogram",
        "dpcore.dpne.selection",
    ),
    ("dpcore.dpne", "_prepare_dpne"): ("dpcore.dpne.release", "_prepare_dpne", "dpcore.dpne.release"),
    ("dpcore.dpne", "_ranked_drops"): ("dpcore._ranking", "ranked_drops", "dpcore._ranking"),
    ("dpcore.dpne", "_released_id_rows"): ("dpcore.dpne.evaluation", "_released_id_rows", "dpcore.dpne.evaluation"),
    ("dpcore.dpne", "_released_sets"): ("dpcore.dpne.results", "_released_sets", "dpcore.dpne.results"),
    ("dpcore.dpne", "_sample_zero_weight"): ("dpcore.dpne.space", "_sample_zero_weight", "dpcore.dpne.space"),
    ("dpcore.dpne", "_shard_bounds"): ("dpcore.dpne.shards", "_shard_bounds", "dpcore.dpne.shards"),
    ("dpcore.dpne", "_shard_histogram"): ("dpcore.dpne.selection", "_shard_histogram", "dpcore.dpne.selection"),
    ("dpcore.dpne", "_sorted_contains"): ("dpcore.dpne.space", "_sorted_contains", "dpcore.dpne.space"),
    ("dpcore.dpne", "_spurious_probability"): (
        "dpcore.dpne.accounting",
        "_spurious_probability",
        "dpcore.dpne.accounting",
    ),
    ("dpcore.dpne", "_uniform_count_below"): ("dpcore.dpne.space", "_uniform_count_below", "dpcore.dpne.space"),
    ("dpcore.dpne", "approximate_dp"): ("dpcore.guarantees", "approximate_dp", "dpcore.guarantees"),
    ("dpcore.dpne", "build_ngram_index"): ("dpcore.text.ngrams", "build_ngram_index", "dpcore.text"),
    ("dpcore.dpne", "check_choice"): ("dpcore.validation", "check_choice", "dpcore.validation"),
    ("dpcore.dpne", "check_contribution_limit"): (
        "dpcore.dpne.accounting",
        "check_contribution_limit",
        "dpcore.dpne.accounting",
    ),
    ("dpcore.dpne", "check_delta"): ("dpcore.validation", "check_delta", "dpcore.validation"),
    ("dpcore.dpne", "check_epsilon"): ("dpcore.validation", "check_epsilon", "dpcore.validation"),
    ("dpcore.dpne", "check_int"): ("dpcore.validation", "check_int", "dpcore.validation"),
    ("dpcore.dpne", "check_real"): ("dpcore.validation", "check_real", "dpcore.validation"),
    ("dpcore.dpne", "check_rng"): ("dpcore.validation", "check_rng", "dpcore.validation"),
    ("dpcore.dpne", "check_sequence"): ("dpcore.validation", "check_sequence", "dpcore.validation"),
    ("dpcore.dpne", "count_valid_kgrams"): ("dpcore.dpne.accounting", "count_valid_kgrams", "dpcore.dpne"),
    ("dpcore.dpne", "dpne"): ("dpcore.dpne.release", "dpne_extract", "dpcore.dpne"),
    ("dpcore.dpne", "dpne_guarantee"): ("dpcore.dpne.accounting", "dpne_guarantee", "dpcore.dpne"),
    ("dpcore.dpne", "dpne_level_seed"): ("dpcore.dpne.selection", "dpne_level_seed", "dpcore.dpne"),
    ("dpcore.dpne", "dpne_noise_scales"): ("dpcore.dpne.accounting", "dpne_noise_scales", "dpcore.dpne"),
    ("dpcore.dpne", "dpne_release_seed"): ("dpcore.dpne.selection", "dpne_release_seed", "dpcore.dpne"),
    ("dpcore.dpne", "dpne_with_evaluation"): ("dpcore.dpne.release", "dpne_with_evaluation", "dpcore.dpne"),
    ("dpcore.dpne", "dpsu_all"): ("dpcore.dpne.baselines", "dpsu_all", "dpcore.dpne"),
    ("dpcore.dpne", "dpsu_even"): ("dpcore.dpne.baselines", "dpsu_even", "dpcore.dpne"),
    ("dpcore.dpne", "dpsu_single"): ("dpcore.dpne.baselines", "dpsu_single", "dpcore.dpne"),
    ("dpcore.dpne", "dpsu_threshold"): ("dpcore.dpne.accounting", "dpsu_threshold", "dpcore.dpne"),
    ("dpcore.dpne", "dpsu_threshold_for_sigma"): ("dpcore.dpne.accounting", "dpsu_threshold_for_sigma", "dpcore.dpne"),
    ("dpcore.dpne", "encode_corpus"): ("dpcore.text.ngrams", "encode_corpus", "dpcore.text"),
    ("dpcore.dpne", "encode_users"): ("dpcore.text.ngrams", "encode_users", "dpcore.text"),
    ("dpcore.dpne", "eta_dependent_level"): ("dpcore.dpne.selection", "eta_dependent_level", "dpcore.dpne"),
    ("dpcore.dpne", "fold_keys"): ("dpcore.mechanisms.keyed", "fold_keys", "dpcore.mechanisms"),
    ("dpcore.dpne", "gaussian_sigma"): ("dpcore.mechanisms.gaussian", "gaussian_sigma", "dpcore.mechanisms"),
    ("dpcore.dpne", "group_by_user"): ("dpcore.text.ngrams", "group_by_user", "dpcore.text.ngrams"),
    ("dpcore.dpne", "kanonymity_coverage"): ("dpcore.dpne.evaluation", "kanonymity_coverage", "dpcore.dpne"),
    ("dpcore.dpne", "keyed_normal"): ("dpcore.mechanisms.keyed", "keyed_normal", "dpcore.mechanisms"),
    ("dpcore.dpne", "keyed_uniform"): ("dpcore.mechanisms.keyed", "keyed_uniform", "dpcore.mechanisms"),
    ("dpcore.dpne", "level_generator"): ("dpcore.mechanisms.keyed", "level_generator", "dpcore.mechanisms"),
    ("dpcore.dpne", "prepare_dpne"): ("dpcore.dpne.release", "prepare_dpne", "dpcore.dpne"),
    ("dpcore.dpne", "pruning_chain"): ("dpcore.dpne.evaluation", "pruning_chain", "dpcore.dpne"),
    ("dpcore.dpne", "release_seed"): ("dpcore.mechanisms.keyed", "release_seed", "dpcore.mechanisms"),
    ("dpcore.dpne", "spurious_threshold"): ("dpcore.dpne.accounting", "spurious_threshold", "dpcore.dpne"),
    ("dpcore.dpne", "zero_weight_draw"): ("dpcore.dpne.space", "zero_weight_draw", "dpcore.dpne.space"),
    ("dpcore.review", "review"): ("dpcore.lab.review", "review_release", "dpcore.lab"),
    ("dpcore.topic_model", "CHAT_FILLER_MIN_SHARE"): (
        "dpcore.topicdp.model",
        "CHAT_FILLER_MIN_SHARE",
        "dpcore.topicdp",
    ),
    ("dpcore.topic_model", "CHAT_FILLER_WORDS"): ("dpcore.topicdp.model", "CHAT_FILLER_WORDS", "dpcore.topicdp"),
    ("dpcore.topic_model", "Corpus"): ("dpcore.text.corpus", "Corpus", "dpcore.text"),
    ("dpcore.topic_model", "DocumentTermData"): ("dpcore.topicdp.model", "DocumentTermData", "dpcore.topicdp"),
    ("dpcore.topic_model", "ENGLISH_STOP_WORDS"): (
        "dpcore.topicdp.model",
        "ENGLISH_STOP_WORDS",
        "dpcore.topicdp.model",
    ),
    ("dpcore.topic_model", "FILLER_WORDS"): ("dpcore.topicdp.model", "FILLER_WORDS", "dpcore.topicdp"),
    ("dpcore.topic_model", "LDA_ENGINES"): ("dpcore.topicdp.model", "LDA_ENGINES", "dpcore.topicdp"),
    ("dpcore.topic_model", "LDA_LEARNING_METHODS"): ("dpcore.topicdp.model", "LDA_LEARNING_METHODS", "dpcore.topicdp"),
    ("dpcore.topic_model", "LdaSettings"): ("dpcore.topicdp.model", "LdaSettings", "dpcore.topicdp"),
    ("dpcore.topic_model", "TOKEN_PATTERN"): ("dpcore.topicdp.model", "TOKEN_PATTERN", "dpcore.topicdp.model"),
    ("dpcore.topic_model", "TOPIC_STOP_WORDS"): ("dpcore.topicdp.model", "TOPIC_STOP_WORDS", "dpcore.topicdp"),
    ("dpcore.topic_model", "TopicKeywordMatrix"): ("dpcore.topicdp.model", "TopicKeywordMatrix", "dpcore.topicdp"),
    ("dpcore.topic_model", "TopicModel"): ("dpcore.topicdp.model", "TopicModel", "dpcore.topicdp"),
    ("dpcore.topic_model", "VOCABULARY_VERSION"): (
        "dpcore.topicdp.model",
        "VOCABULARY_VERSION",
        "dpcore.topicdp.model",
    ),
    ("dpcore.topic_model", "_KERNEL"): ("dpcore.topicdp.fitting", "_KERNEL", "dpcore.topicdp.fitting"),
    ("dpcore.topic_model", "_TOKEN_NAMES"): ("dpcore.topicdp.fitting", "_TOKEN_NAMES", "dpcore.topicdp.fitting"),
    ("dpcore.topic_model", "_canonical_counts"): (
        "dpcore.topicdp.fitting",
        "_canonical_counts",
        "dpcore.topicdp.fitting",
    ),
    ("dpcore.topic_model", "_embed"): ("dpcore.topicdp.fitting", "_embed", "dpcore.topicdp.fitting"),
    ("dpcore.topic_model", "_exp_dirichlet_expectation"): (
        "dpcore.topicdp.fitting",
        "_exp_dirichlet_expectation",
        "dpcore.topicdp.fitting",
    ),
    ("dpcore.topic_model", "_fit_sklearn"): ("dpcore.topicdp.fitting", "_fit_sklearn", "dpcore.topicdp.fitting"),
    ("dpcore.topic_model", "_fit_tomotopy"): ("dpcore.topicdp.fitting", "_fit_tomotopy", "dpcore.topicdp.fitting"),
    ("dpcore.topic_model", "_fit_vb"): ("dpcore.topicdp.fitting", "_fit_vb", "dpcore.topicdp.fitting"),
    ("dpcore.topic_model", "_psi"): ("dpcore.topicdp.fitting", "_psi", "dpcore.topicdp.fitting"),
    ("dpcore.topic_model", "_rows"): ("dpcore.topicdp.fitting", "_rows", "dpcore.topicdp.fitting"),
    ("dpcore.topic_model", "_select"): ("dpcore.topicdp.fitting", "_select", "dpcore.topicdp.fitting"),
    ("dpcore.topic_model", "_token_names"): ("dpcore.topicdp.fitting", "_token_names", "dpcore.topicdp.fitting"),
    ("dpcore.topic_model", "_vb_kernel"): ("dpcore.topicdp.fitting", "_vb_kernel", "dpcore.topicdp.fitting"),
    ("dpcore.topic_model", "align_topics"): ("dpcore.topicdp.fitting", "align_topics", "dpcore.topicdp"),
    ("dpcore.topic_model", "aligned_matrix_distance"): (
        "dpcore.topicdp.fitting",
        "aligned_matrix_distance",
        "dpcore.topicdp",
    ),
    ("dpcore.topic_model", "chat_filler_words"): ("dpcore.topicdp.model", "chat_filler_words", "dpcore.topicdp"),
    ("dpcore.topic_model", "check_choice"): ("dpcore.validation", "check_choice", "dpcore.validation"),
    ("dpcore.topic_model", "check_int"): ("dpcore.validation", "check_int", "dpcore.validation"),
    ("dpcore.topic_model", "check_real"): ("dpcore.validation", "check_real", "dpcore.validation"),
    ("dpcore.topic_model", "default_lda_engine"): ("dpcore.topicdp.model", "default_lda_engine", "dpcore.topicdp"),
    ("dpcore.topic_model", "document_term_data"): ("dpcore.topicdp.model", "document_term_data", "dpcore.topicdp"),
    ("dpcore.topic_model", "fit_topic_model"): ("dpcore.topicdp.fitting", "fit_topic_model", "dpcore.topicdp"),
    ("dpcore.topic_model", "fit_topic_word"): ("dpcore.topicdp.fitting", "fit_topic_word", "dpcore.topicdp"),
    ("dpcore.topic_model", "released_matrix_distance"): (
        "dpcore.topicdp.fitting",
        "released_matrix_distance",
        "dpcore.topicdp",
    ),
    ("dpcore.topic_model", "tomotopy_available"): ("dpcore.topicdp.model", "tomotopy_available", "dpcore.topicdp"),
    ("dpcore.topic_model", "topic_keyword_matrix"): (
        "dpcore.topicdp.fitting",
        "topic_keyword_matrix",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "CURVE_PARAMETERS"): (
        "dpcore.topicdp.experiments",
        "CURVE_PARAMETERS",
        "dpcore.topicdp.experiments",
    ),
    ("dpcore.topicdp", "DocumentTermData"): ("dpcore.topicdp.model", "DocumentTermData", "dpcore.topicdp"),
    ("dpcore.topicdp", "DrawsSummary"): ("dpcore.topicdp.experiments", "DrawsSummary", "dpcore.topicdp"),
    ("dpcore.topicdp", "ErrorCurve"): ("dpcore.topicdp.experiments", "ErrorCurve", "dpcore.topicdp"),
    ("dpcore.topicdp", "Guarantee"): ("dpcore.guarantees", "Guarantee", "dpcore.guarantees"),
    ("dpcore.topicdp", "LdaSettings"): ("dpcore.topicdp.model", "LdaSettings", "dpcore.topicdp"),
    ("dpcore.topicdp", "MATRIX_LAPLACE_GUARANTEE"): (
        "dpcore.topicdp.mechanisms",
        "MATRIX_LAPLACE_GUARANTEE",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "MAX_MATRIX_SIDE"): ("dpcore.topicdp.sampler", "MAX_MATRIX_SIDE", "dpcore.topicdp.sampler"),
    ("dpcore.topicdp", "METRIC_LABELS"): ("dpcore.topicdp.experiments", "METRIC_LABELS", "dpcore.topicdp.experiments"),
    ("dpcore.topicdp", "MatrixRelease"): ("dpcore.topicdp.mechanisms", "MatrixRelease", "dpcore.topicdp"),
    ("dpcore.topicdp", "NoiseComparison"): ("dpcore.topicdp.experiments", "NoiseComparison", "dpcore.topicdp"),
    ("dpcore.topicdp", "SAMPLED_MECHANISMS"): ("dpcore.topicdp.mechanisms", "SAMPLED_MECHANISMS", "dpcore.topicdp"),
    ("dpcore.topicdp", "STAGES"): ("dpcore.topicdp.experiments", "STAGES", "dpcore.topicdp.experiments"),
    ("dpcore.topicdp", "SamplerSettings"): ("dpcore.topicdp.sampler", "SamplerSettings", "dpcore.topicdp"),
    ("dpcore.topicdp", "SamplerSize"): ("dpcore.topicdp.sampler", "SamplerSize", "dpcore.topicdp"),
    ("dpcore.topicdp", "SensitivityDraws"): ("dpcore.topicdp.sampler", "SensitivityDraws", "dpcore.topicdp"),
    ("dpcore.topicdp", "SensitivityResult"): ("dpcore.topicdp.sampler", "SensitivityResult", "dpcore.topicdp"),
    ("dpcore.topicdp", "SigmaStory"): ("dpcore.topicdp.experiments", "SigmaStory", "dpcore.topicdp"),
    ("dpcore.topicdp", "TOPICDP_GUARANTEE"): ("dpcore.topicdp.mechanisms", "TOPICDP_GUARANTEE", "dpcore.topicdp"),
    ("dpcore.topicdp", "TOPICS_CHOICE"): ("dpcore.topicdp.mechanisms", "TOPICS_CHOICE", "dpcore.topicdp"),
    ("dpcore.topicdp", "TOPIC_MECHANISMS"): ("dpcore.topicdp.mechanisms", "TOPIC_MECHANISMS", "dpcore.topicdp"),
    ("dpcore.topicdp", "TOPIC_METRICS"): ("dpcore.topicdp.experiments", "TOPIC_METRICS", "dpcore.topicdp"),
    ("dpcore.topicdp", "TopicModel"): ("dpcore.topicdp.model", "TopicModel", "dpcore.topicdp"),
    ("dpcore.topicdp", "_cache_key"): ("dpcore.topicdp.sampler", "_cache_key", "dpcore.topicdp.sampler"),
    ("dpcore.topicdp", "_check_matrix"): ("dpcore.topicdp.mechanisms", "_check_matrix", "dpcore.topicdp.mechanisms"),
    ("dpcore.topicdp", "_clip_renormalise"): (
        "dpcore.topicdp.mechanisms",
        "_clip_renormalise",
        "dpcore.topicdp.mechanisms",
    ),
    ("dpcore.topicdp", "_draws_agree"): ("dpcore.topicdp.sampler", "_draws_agree", "dpcore.topicdp.sampler"),
    ("dpcore.topicdp", "_grid"): ("dpcore.topicdp.sampler", "_grid", "dpcore.topicdp.sampler"),
    ("dpcore.topicdp", "_model_from_payload"): (
        "dpcore.topicdp.sampler",
        "_model_from_payload",
        "dpcore.topicdp.sampler",
    ),
    ("dpcore.topicdp", "_model_path"): ("dpcore.topicdp.sampler", "_model_path", "dpcore.topicdp.sampler"),
    ("dpcore.topicdp", "_pair_chunk"): ("dpcore.topicdp.sampler", "_pair_chunk", "dpcore.topicdp.sampler"),
    ("dpcore.topicdp", "_ranges"): ("dpcore.topicdp.experiments", "_ranges", "dpcore.topicdp.experiments"),
    ("dpcore.topicdp", "_read_candidates"): ("dpcore.topicdp.sampler", "_read_candidates", "dpcore.topicdp.sampler"),
    ("dpcore.topicdp", "_save"): ("dpcore.topicdp.sampler", "_save", "dpcore.topicdp.sampler"),
    ("dpcore.topicdp", "_select"): ("dpcore.topicdp.fitting", "_select", "dpcore.topicdp.fitting"),
    ("dpcore.topicdp", "_sensitivity_gamma"): (
        "dpcore.topicdp.mechanisms",
        "_sensitivity_gamma",
        "dpcore.topicdp.mechanisms",
    ),
    ("dpcore.topicdp", "_shipped"): ("dpcore.topicdp.sampler", "_shipped", "dpcore.topicdp.sampler"),
    ("dpcore.topicdp", "_verified_draws"): ("dpcore.topicdp.sampler", "_verified_draws", "dpcore.topicdp.sampler"),
    ("dpcore.topicdp", "align_topics"): ("dpcore.topicdp.fitting", "align_topics", "dpcore.topicdp"),
    ("dpcore.topicdp", "analytic_gaussian_sigma"): (
        "dpcore.mechanisms.gaussian",
        "analytic_gaussian_sigma",
        "dpcore.mechanisms",
    ),
    ("dpcore.topicdp", "approximate_dp"): ("dpcore.guarantees", "approximate_dp", "dpcore.guarantees"),
    ("dpcore.topicdp", "as_float_array"): ("dpcore.validation", "as_float_array", "dpcore.validation"),
    ("dpcore.topicdp", "check_choice"): ("dpcore.validation", "check_choice", "dpcore.validation"),
    ("dpcore.topicdp", "check_delta"): ("dpcore.validation", "check_delta", "dpcore.validation"),
    ("dpcore.topicdp", "check_epsilon"): ("dpcore.validation", "check_epsilon", "dpcore.validation"),
    ("dpcore.topicdp", "check_int"): ("dpcore.validation", "check_int", "dpcore.validation"),
    ("dpcore.topicdp", "check_noise_scale"): ("dpcore.validation", "check_noise_scale", "dpcore.validation"),
    ("dpcore.topicdp", "check_real"): ("dpcore.validation", "check_real", "dpcore.validation"),
    ("dpcore.topicdp", "check_rng"): ("dpcore.validation", "check_rng", "dpcore.validation"),
    ("dpcore.topicdp", "check_sensitivity"): ("dpcore.validation", "check_sensitivity", "dpcore.validation"),
    ("dpcore.topicdp", "compare_noise"): ("dpcore.topicdp.experiments", "compare_noise", "dpcore.topicdp"),
    ("dpcore.topicdp", "corrected_topicdp_mechanism"): (
        "dpcore.topicdp.mechanisms",
        "corrected_topicdp_mechanism",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "corrected_topicdp_sigma"): (
        "dpcore.topicdp.mechanisms",
        "corrected_topicdp_sigma",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "error_curve"): ("dpcore.topicdp.experiments", "error_curve", "dpcore.topicdp"),
    ("dpcore.topicdp", "extend_sensitivity_draws"): (
        "dpcore.topicdp.sampler",
        "extend_sensitivity_draws",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "fit_topic_word"): ("dpcore.topicdp.fitting", "fit_topic_word", "dpcore.topicdp"),
    ("dpcore.topicdp", "gaussian_delta"): ("dpcore.mechanisms.gaussian", "gaussian_delta", "dpcore.mechanisms"),
    ("dpcore.topicdp", "gaussian_sigma"): ("dpcore.mechanisms.gaussian", "gaussian_sigma", "dpcore.mechanisms"),
    ("dpcore.topicdp", "kendall_tau_distance"): ("dpcore.metrics", "kendall_tau_distance", "dpcore.metrics"),
    ("dpcore.topicdp", "l1_distance"): ("dpcore.metrics", "l1_distance", "dpcore.metrics"),
    ("dpcore.topicdp", "laplace_break_even_sensitivity"): (
        "dpcore.topicdp.experiments",
        "laplace_break_even_sensitivity",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "load_sensitivity_draws"): (
        "dpcore.topicdp.sampler",
        "load_sensitivity_draws",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "load_topic_model"): ("dpcore.topicdp.sampler", "load_topic_model", "dpcore.topicdp"),
    ("dpcore.topicdp", "matrix_guarantee"): ("dpcore.topicdp.mechanisms", "matrix_guarantee", "dpcore.topicdp"),
    ("dpcore.topicdp", "matrix_laplace_mechanism"): (
        "dpcore.topicdp.mechanisms",
        "matrix_laplace_mechanism",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "matrix_laplace_scale"): ("dpcore.topicdp.mechanisms", "matrix_laplace_scale", "dpcore.topicdp"),
    ("dpcore.topicdp", "mvg_mechanism"): ("dpcore.topicdp.mechanisms", "mvg_mechanism", "dpcore.topicdp"),
    ("dpcore.topicdp", "mvg_sigma"): ("dpcore.topicdp.mechanisms", "mvg_sigma", "dpcore.topicdp"),
    ("dpcore.topicdp", "pair_deltas"): ("dpcore.topicdp.sampler", "pair_deltas", "dpcore.topicdp"),
    ("dpcore.topicdp", "pair_users"): ("dpcore.topicdp.sampler", "pair_users", "dpcore.topicdp.sampler"),
    ("dpcore.topicdp", "pure_dp"): ("dpcore.guarantees", "pure_dp", "dpcore.guarantees"),
    ("dpcore.topicdp", "random_dp"): ("dpcore.guarantees", "random_dp", "dpcore.guarantees"),
    ("dpcore.topicdp", "redraw_releases"): ("dpcore.topicdp.experiments", "redraw_releases", "dpcore.topicdp"),
    ("dpcore.topicdp", "release_all"): ("dpcore.topicdp.experiments", "release_all", "dpcore.topicdp"),
    ("dpcore.topicdp", "release_error_table"): ("dpcore.topicdp.experiments", "release_error_table", "dpcore.topicdp"),
    ("dpcore.topicdp", "release_errors"): ("dpcore.topicdp.experiments", "release_errors", "dpcore.topicdp"),
    ("dpcore.topicdp", "released_matrix_distance"): (
        "dpcore.topicdp.fitting",
        "released_matrix_distance",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "rmse"): ("dpcore.metrics", "rmse", "dpcore.metrics"),
    ("dpcore.topicdp", "sampled_sensitivity"): ("dpcore.topicdp.sampler", "sampled_sensitivity", "dpcore.topicdp"),
    ("dpcore.topicdp", "save_topic_model"): ("dpcore.topicdp.sampler", "save_topic_model", "dpcore.topicdp"),
    ("dpcore.topicdp", "sensitivity_cache_dir"): ("dpcore.topicdp.sampler", "sensitivity_cache_dir", "dpcore.topicdp"),
    ("dpcore.topicdp", "sensitivity_cache_path"): (
        "dpcore.topicdp.sampler",
        "sensitivity_cache_path",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "sensitivity_sampler_size"): (
        "dpcore.topicdp.sampler",
        "sensitivity_sampler_size",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "shipped_cache_dir"): ("dpcore.topicdp.sampler", "shipped_cache_dir", "dpcore.topicdp"),
    ("dpcore.topicdp", "sigma_story"): ("dpcore.topicdp.experiments", "sigma_story", "dpcore.topicdp"),
    ("dpcore.topicdp", "strict_topicdp_mechanism"): (
        "dpcore.topicdp.mechanisms",
        "strict_topicdp_mechanism",
        "dpcore.topicdp",
    ),
    ("dpcore.topicdp", "strict_topicdp_sigma"): ("dpcore.topicdp.mechanisms", "strict_topicdp_sigma", "dpcore.topicdp"),
    ("dpcore.topicdp", "summarise_draws"): ("dpcore.topicdp.experiments", "summarise_draws", "dpcore.topicdp"),
    ("dpcore.topicdp", "topic_keyword_matrix"): ("dpcore.topicdp.fitting", "topic_keyword_matrix", "dpcore.topicdp"),
    ("dpcore.topicdp", "topicdp_mechanism"): ("dpcore.topicdp.mechanisms", "topicdp_mechanism", "dpcore.topicdp"),
    ("dpcore.topicdp", "topicdp_sigma"): ("dpcore.topicdp.mechanisms", "topicdp_sigma", "dpcore.topicdp"),
    ("dpcore.topicdp", "topicdp_true_epsilon"): ("dpcore.topicdp.mechanisms", "topicdp_true_epsilon", "dpcore.topicdp"),
    ("dpcore.vips", "CHAT_FILLER_WORDS"): ("dpcore.topicdp.model", "CHAT_FILLER_WORDS", "dpcore.topicdp"),
    ("dpcore.vips", "Corpus"): ("dpcore.text.corpus", "Corpus", "dpcore.text"),
    ("dpcore.vips", "DEFAULT_CLIP_NORM"): ("dpcore.topicdp.vips", "DEFAULT_CLIP_NORM", "dpcore.topicdp"),
    ("dpcore.vips", "DEFAULT_ITERATIONS"): ("dpcore.topicdp.vips", "DEFAULT_ITERATIONS", "dpcore.topicdp"),
    ("dpcore.vips", "DEFAULT_VOCABULARY_SIZE"): (
        "dpcore.topicdp.vips_inputs",
        "DEFAULT_VOCABULARY_SIZE",
        "dpcore.topicdp",
    ),
    ("dpcore.vips", "DOC_ITERATIONS"): ("dpcore.topicdp.vips", "DOC_ITERATIONS", "dpcore.topicdp.vips"),
    ("dpcore.vips", "DOC_TOLERANCE"): ("dpcore.topicdp.vips", "DOC_TOLERANCE", "dpcore.topicdp.vips"),
    ("dpcore.vips", "GAMMA_START"): ("dpcore.topicdp.vips", "GAMMA_START", "dpcore.topicdp.vips"),
    ("dpcore.vips", "Guarantee"): ("dpcore.guarantees", "Guarantee", "dpcore.guarantees"),
    ("dpcore.vips", "LdaSettings"): ("dpcore.topicdp.model", "LdaSettings", "dpcore.topicdp"),
    ("dpcore.vips", "MAX_EPSILON"): ("dpcore.topicdp.vips", "MAX_EPSILON", "dpcore.topicdp.vips"),
    ("dpcore.vips", "PUBLIC_START_ITERATIONS"): (
        "dpcore.topicdp.vips",
        "PUBLIC_START_ITERATIONS",
        "dpcore.topicdp.vips",
    ),
    ("dpcore.vips", "PersonCounts"): ("dpcore.topicdp.vips_inputs", "PersonCounts", "dpcore.topicdp"),
    ("dpcore.vips", "REFERENCE_ITERATIONS"): ("dpcore.topicdp.vips", "REFERENCE_ITERATIONS", "dpcore.topicdp.vips"),
    ("dpcore.vips", "TOKEN_PATTERN"): ("dpcore.topicdp.model", "TOKEN_PATTERN", "dpcore.topicdp.model"),
    ("dpcore.vips", "TOPIC_STOP_WORDS"): ("dpcore.topicdp.model", "TOPIC_STOP_WORDS", "dpcore.topicdp"),
    ("dpcore.vips", "TopicModel"): ("dpcore.topicdp.model", "TopicModel", "dpcore.topicdp"),
    ("dpcore.vips", "VIPS_ACCOUNTANT"): ("dpcore.topicdp.vips", "VIPS_ACCOUNTANT", "dpcore.topicdp"),
    ("dpcore.vips", "VIPS_STOP_WORDS"): ("dpcore.topicdp.vips_inputs", "VIPS_STOP_WORDS", "dpcore.topicdp"),
    ("dpcore.vips", "VipsErrors"): ("dpcore.topicdp.vips_evaluation", "VipsErrors", "dpcore.topicdp"),
    ("dpcore.vips", "VipsRelease"): ("dpcore.topicdp.vips", "VipsRelease", "dpcore.topicdp"),
    ("dpcore.vips", "VipsStart"): ("dpcore.topicdp.vips", "VipsStart", "dpcore.topicdp"),
    ("dpcore.vips", "VipsVocabulary"): ("dpcore.topicdp.vips_inputs", "VipsVocabulary", "dpcore.topicdp"),
    ("dpcore.vips", "_KERNEL"): ("dpcore.topicdp.vips", "_KERNEL", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_MAX_ITERATIONS"): ("dpcore.topicdp.vips", "_MAX_ITERATIONS", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_PLD_DISCRETISATION"): ("dpcore.topicdp.vips", "_PLD_DISCRETISATION", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_as_vocabulary"): ("dpcore.topicdp.vips_inputs", "_as_vocabulary", "dpcore.topicdp.vips_inputs"),
    ("dpcore.vips", "_clipped_sum"): ("dpcore.topicdp.vips", "_clipped_sum", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_counts_over"): ("dpcore.topicdp.vips", "_counts_over", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_exp_dirichlet"): ("dpcore.topicdp.vips", "_exp_dirichlet", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_fit"): ("dpcore.topicdp.vips", "_fit", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_kernel"): ("dpcore.topicdp.vips", "_kernel", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_noise_multiplier"): ("dpcore.topicdp.vips", "_noise_multiplier", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_noisy_release"): ("dpcore.topicdp.vips", "_noisy_release", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_person_word_statistics_numpy"): (
        "dpcore.topicdp.vips",
        "_person_word_statistics_numpy",
        "dpcore.topicdp.vips",
    ),
    ("dpcore.vips", "_pld_epsilon"): ("dpcore.topicdp.vips", "_pld_epsilon", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_prepare"): ("dpcore.topicdp.vips", "_prepare", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_release"): ("dpcore.topicdp.vips", "_release", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_start_statistics"): ("dpcore.topicdp.vips", "_start_statistics", "dpcore.topicdp.vips"),
    ("dpcore.vips", "_user_norms"): ("dpcore.topicdp.vips", "_user_norms", "dpcore.topicdp.vips"),
    ("dpcore.vips", "align_topics"): ("dpcore.topicdp.fitting", "align_topics", "dpcore.topicdp"),
    ("dpcore.vips", "analytic_gaussian_sigma"): (
        "dpcore.mechanisms.gaussian",
        "analytic_gaussian_sigma",
        "dpcore.mechanisms",
    ),
    ("dpcore.vips", "approximate_dp"): ("dpcore.guarantees", "approximate_dp", "dpcore.guarantees"),
    ("dpcore.vips", "check_delta"): ("dpcore.validation", "check_delta", "dpcore.validation"),
    ("dpcore.vips", "check_int"): ("dpcore.validation", "check_int", "dpcore.validation"),
    ("dpcore.vips", "check_real"): ("dpcore.validation", "check_real", "dpcore.validation"),
    ("dpcore.vips", "check_rng"): ("dpcore.validation", "check_rng", "dpcore.validation"),
    ("dpcore.vips", "check_sequence"): ("dpcore.validation", "check_sequence", "dpcore.validation"),
    ("dpcore.vips", "clipped_statistics"): ("dpcore.topicdp.vips", "clipped_statistics", "dpcore.topicdp"),
    ("dpcore.vips", "contribution_norms"): ("dpcore.topicdp.vips", "contribution_norms", "dpcore.topicdp"),
    ("dpcore.vips", "kendall_tau_distance"): ("dpcore.metrics", "kendall_tau_distance", "dpcore.metrics"),
    ("dpcore.vips", "l1_distance"): ("dpcore.metrics", "l1_distance", "dpcore.metrics"),
    ("dpcore.vips", "no_protection"): ("dpcore.guarantees", "no_protection", "dpcore.guarantees"),
    ("dpcore.vips", "person_contributions"): ("dpcore.topicdp.vips", "person_contributions", "dpcore.topicdp"),
    ("dpcore.vips", "person_counts"): ("dpcore.topicdp.vips_inputs", "person_counts", "dpcore.topicdp"),
    ("dpcore.vips", "public_start"): ("dpcore.topicdp.vips", "public_start", "dpcore.topicdp"),
    ("dpcore.vips", "public_vocabulary"): ("dpcore.topicdp.vips_inputs", "public_vocabulary", "dpcore.topicdp"),
    ("dpcore.vips", "rmse"): ("dpcore.metrics", "rmse", "dpcore.metrics"),
    ("dpcore.vips", "seeded_start"): ("dpcore.topicdp.vips", "seeded_start", "dpcore.topicdp"),
    ("dpcore.vips", "topic_keyword_matrix"): ("dpcore.topicdp.fitting", "topic_keyword_matrix", "dpcore.topicdp"),
    ("dpcore.vips", "vips_epsilon"): ("dpcore.topicdp.vips", "vips_epsilon", "dpcore.topicdp"),
    ("dpcore.vips", "vips_errors"): ("dpcore.topicdp.vips_evaluation", "vips_errors", "dpcore.topicdp"),
    ("dpcore.vips", "vips_guarantee"): ("dpcore.topicdp.vips", "vips_guarantee", "dpcore.topicdp.vips"),
    ("dpcore.vips", "vips_lda"): ("dpcore.topicdp.vips", "vips_lda", "dpcore.topicdp"),
    ("dpcore.vips", "vips_reference_fit"): ("dpcore.topicdp.vips", "vips_reference_fit", "dpcore.topicdp"),
    ("dpcore.vips", "vips_sigma"): ("dpcore.topicdp.vips", "vips_sigma", "dpcore.topicdp"),
}
TOP: frozenset[str] = frozenset(
    {
        "Corpus",
        "CorpusError",
        "Guarantee",
        "LdaSettings",
        "REAL_CORPORA",
        "SAMPLE_CORPORA",
        "audit",
        "bayesian",
        "bayesian_dp",
        "build_ngram_index",
        "compose_releases",
        "corpus_from_records",
        "dpne",
        "dpne_extract",
        "dpsu_all",
        "dpsu_even",
        "dpsu_single",
        "end_to_end_dp",
        "exponential_mechanism",
        "fit_topic_model",
        "gaussian_delta",
        "gaussian_sigma",
        "lab",
        "laplace_mechanism",
        "load_real_corpus",
        "load_sample_corpus",
        "load_uploaded_corpus",
        "mechanisms",
        "ngram_counts",
        "prepare_dpne",
        "review_release",
        "sampled_sensitivity",
        "text",
        "tokenize",
        "topic_keyword_matrix",
        "topicdp",
        "topicdp_mechanism",
        "vips_lda",
    }
)
# END TABLE

ROOT = Path(__file__).resolve().parent.parent
SUFFIXES = {".py", ".md", ".ipynb", ".sh", ".toml", ".txt"}
SKIP_DIRS = {".git", "__pycache__", ".mirror", "node_modules", ".venv", "build", "dist"}
SELF = Path(__file__).resolve()
KEEP = {ROOT / "docs" / "ARCHITECTURE.md"}  # documents the old names on purpose

_FROM = re.compile(
    r"^(?P<indent>[ \t]*)from[ \t]+(?P<mod>\.*[\w.]*)[ \t]+import[ \t]+"
    r"(?P<names>\([^)]*\)|(?:[^\n\\#]|\\\n)*)(?P<comment>[ \t]*#[^\n]*)?$",
    re.M,
)
_IMPORT = re.compile(r"^(?P<indent>[ \t]*)import[ \t]+(?P<mods>dpcore[\w. ,]*?)(?P<comment>[ \t]*#[^\n]*)?$", re.M)
_DOTTED = re.compile(r"(?<![\w.])dpcore(?:\.\w+)+(?::\w+)?")


# --- relative ↔ absolute inside dpcore ---------------------------------------------------------------------------
def module_of(path: Path) -> str | None:
    """``dpcore/a/b.py`` → ``dpcore.a.b`` (``__init__.py`` → the package); None outside dpcore."""
    try:
        rel = path.resolve().relative_to(ROOT)
    except ValueError:
        return None
    if not rel.parts or rel.parts[0] != "dpcore" or rel.suffix != ".py":
        return None
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _package_of(module: str, is_init: bool) -> str:
    return module if is_init else module.rpartition(".")[0]


def absolutize(text: str, module: str, is_init: bool) -> str:
    """``from .x import y`` → ``from dpcore.pkg.x import y`` for a file that is ``module``."""
    package = _package_of(module, is_init)

    def fix(m: re.Match) -> str:
        mod = m.group("mod")
        if not mod.startswith("."):
            return m.group(0)
        dots = len(mod) - len(mod.lstrip("."))
        base = package.split(".")
        base = base[: len(base) - (dots - 1)]
        rest = mod[dots:]
        target = ".".join(base + ([rest] if rest else []))
        return m.group(0).replace(f"from {mod} import", f"from {target} import", 1)

    return _FROM.sub(fix, text)


def relativize(text: str, module: str, is_init: bool) -> str:
    """``from dpcore.pkg.x import y`` → ``from .x import y`` (or ``..``) inside dpcore."""
    package = _package_of(module, is_init).split(".")

    def fix(m: re.Match) -> str:
        mod = m.group("mod")
        if not (mod == "dpcore" or mod.startswith("dpcore.")):
            return m.group(0)
        target = mod.split(".")
        common = 0
        while common < min(len(package), len(target)) and package[common] == target[common]:
            common += 1
        if common == 0:
            return m.group(0)
        dots = "." * (len(package) - common + 1)
        rel = dots + ".".join(target[common:])
        return m.group(0).replace(f"from {mod} import", f"from {rel} import", 1)

    return _FROM.sub(fix, text)


# --- resolving an old dotted path ----------------------------------------------------------------------------------
def _resolve_name(module: str, name: str, internal: bool, in_import: bool = False) -> tuple[str, str] | None:
    """(new module to import from, new name) of ``name`` as seen in old ``module``; None when unknown."""
    hit = NAMES.get((module, name))
    if hit is None:
        return None
    defining, new_name, public = hit
    if (not internal or not in_import) and module == "dpcore" and new_name in TOP:
        return "dpcore", new_name  # (inside dpcore an import must not go through the top level: cycles)
    return (defining if internal else public), new_name


def rewrite_dotted(dotted: str, *, called: bool, internal: bool) -> str:
    """``dpcore.a.b.c`` (old meaning) → the same object's new dotted path; unknown paths are left alone."""
    attr = None
    if ":" in dotted:
        dotted, attr = dotted.split(":")
    parts = dotted.split(".")
    # longest old module prefix
    i = len(parts)
    while i > 1 and ".".join(parts[:i]) not in MODULES:
        i -= 1
    old_mod = ".".join(parts[:i])  # "dpcore" itself when no old module matches
    rest = parts[i:]
    # an old module that was also a function of the top level (dpne, review, ngram_counts, text_profile):
    # ``dpcore.dpne(`` is the function
    if i == 2 and not rest and called and ("dpcore", parts[1]) in NAMES:
        old_mod, rest = "dpcore", [parts[1]]
    new_mod = MODULES.get(old_mod, old_mod)
    if attr is not None and not rest:
        hit = NAMES.get((old_mod, attr))
        if hit:
            return f"{hit[0]}:{hit[1]}"
        return f"{new_mod}:{attr}"
    if rest:
        hit = _resolve_name(old_mod, rest[0], internal or attr is not None)
        if hit:
            mod, name = hit
            out = ".".join([f"{mod}.{name}", *rest[1:]])
            return out + (f":{attr}" if attr else "")
    return ".".join([new_mod, *rest]) + (f":{attr}" if attr else "")


# --- import statements ---------------------------------------------------------------------------------------------
def _split_names(names: str) -> list[tuple[str, str | None]]:
    body = names.strip()
    if body.startswith("("):
        body = body[1:-1]
    body = re.sub(r"#[^\n]*", "", body).replace("\\\n", " ")
    out = []
    for item in body.split(","):
        item = " ".join(item.split())
        if not item:
            continue
        if " as " in item:
            n, a = item.split(" as ")
            out.append((n.strip(), a.strip()))
        else:
            out.append((item, None))
    return out


def rewrite_from(m: re.Match, *, internal: bool, renames: dict[str, str]) -> str:
    mod = m.group("mod")
    if not (mod == "dpcore" or mod.startswith("dpcore.")) or (mod not in MODULES and mod != "dpcore"):
        return m.group(0)
    indent, comment = m.group("indent"), m.group("comment") or ""
    groups: dict[str, list[str]] = {}
    for name, alias in _split_names(m.group("names")):
        sub = f"{mod}.{name}"
        if name != "*" and sub in MODULES and (mod, name) not in NAMES:
            new = MODULES[sub]
            parent, _, last = new.rpartition(".")
            groups.setdefault(parent, []).append(last if (alias or name) == last else f"{last} as {alias or name}")
            continue
        hit = _resolve_name(mod, name, internal, in_import=True)
        if hit is None:
            target, new_name = MODULES.get(mod, mod), name
        else:
            target, new_name = hit
        if alias:
            item = new_name if alias == new_name else f"{new_name} as {alias}"
        else:
            item = new_name
            if new_name != name:
                renames[name] = new_name
        groups.setdefault(target, []).append(item)
    original = [f"{n} as {a}" if a else n for n, a in _split_names(m.group("names"))]
    if list(groups) == [mod] and groups[mod] == original:
        return m.group(0)  # nothing moved: keep the statement as written (parentheses, comments)
    tail = f"  {comment.strip()}" if comment else ""  # a noqa or note holds for every line the import becomes
    lines = [
        f"{indent}from {target} import {', '.join(dict.fromkeys(items))}{tail}" for target, items in groups.items()
    ]
    return "\n".join(lines)


def rewrite_import(m: re.Match, *, internal: bool) -> str:
    out = []
    for item in m.group("mods").split(","):
        item = " ".join(item.split())
        if " as " in item:
            mod, alias = item.split(" as ")
            out.append(f"{MODULES.get(mod, mod)} as {alias}")
        else:
            out.append(MODULES.get(item, item))
    return f"{m.group('indent')}import {', '.join(out)}{m.group('comment') or ''}"


def _rename_tokens(text: str, renames: dict[str, str]) -> str:
    """Bare uses of a renamed function (``dpne(...)`` → ``dpne_extract(...)``), not attributes or strings."""
    if not renames:
        return text
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return text
    lines = text.splitlines(keepends=True)
    edits = []
    prev = None
    for t in toks:
        if t.type == tokenize.NAME and t.string in renames and not (prev and prev.string == "."):
            edits.append((t.start, t.end, renames[t.string]))
        if t.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            prev = t
    for (r0, c0), (_, c1), new in reversed(edits):
        line = lines[r0 - 1]
        lines[r0 - 1] = line[:c0] + new + line[c1:]
    return "".join(lines)


_ALIAS_FORMS = (
    re.compile(
        r"^[ \t]*from[ \t]+dpcore[ \t]+import[ \t]+(?P<name>\w+)(?:[ \t]+as[ \t]+(?P<alias>\w+))?[ \t]*(?:#.*)?$", re.M
    ),
    re.compile(r"^[ \t]*import[ \t]+(?P<mod>dpcore\.[\w.]+)[ \t]+as[ \t]+(?P<alias>\w+)", re.M),
    re.compile(
        r"^[ \t]*(?P<alias>\w+)[ \t]*=[ \t]*importlib\.import_module\([\"'](?P<mod>dpcore\.[\w.]+)[\"']\)", re.M
    ),
)


def module_aliases(text: str) -> dict[str, str]:
    """Names bound to an old dpcore module in ``text``: ``from dpcore import topicdp as tdp``,
    ``import dpcore.topicdp as tdp``, ``tdp = importlib.import_module("dpcore.topicdp")`` → {"tdp": "dpcore.topicdp"}."""
    out = {}
    for form in _ALIAS_FORMS:
        for m in form.finditer(text):
            d = m.groupdict()
            mod = d.get("mod") or f"dpcore.{d['name']}"
            if mod in MODULES and ("dpcore", mod.rpartition(".")[2]) not in NAMES or d.get("mod") in MODULES:
                out[d.get("alias") or d["name"]] = mod
    return out


def rewrite_aliases(text: str, aliases: dict[str, str]) -> str:
    """``tdp._cache_key`` (tdp = old dpcore.topicdp) → ``tdp.sampler._cache_key``: an attribute that moved to a
    submodule of the alias's new package is reached through that submodule (``monkeypatch.setattr(tdp, "x"``
    too: a patch goes to the module that reads the name); a renamed function gets its new name. An attribute that
    moved elsewhere (``tm.fit_topic_model``, tm = old dpcore.topic_model → dpcore.topicdp.fitting) gets a module
    alias of its own, bound right after each line that binds the old alias (``from dpcore.topicdp import fitting``)."""
    for alias, old in aliases.items():
        target = MODULES[old]
        extra: dict[str, str] = {}  # defining module → its new alias in this file

        def alias_for(defining: str) -> str:
            if defining not in extra:
                last = defining.rpartition(".")[2]
                used = re.search(rf"(?<![\w.]){re.escape(last)}\b", text) or last in extra.values()
                extra[defining] = f"{alias}_{last.lstrip('_')}" if used else last
            return extra[defining]

        def new_attr(name: str, patch: bool = False) -> str | None:
            hit = NAMES.get((old, name))
            if hit is None:
                return None
            defining, new_name, public = hit
            if defining == target or (public == target and not patch):
                return new_name
            if defining.startswith(target + "."):
                return f"{defining[len(target) + 1 :]}.{new_name}"
            return f"\0{alias_for(defining)}.{new_name}"  # \0: replaces the alias itself

        def fix_attr(m: re.Match) -> str:
            new = new_attr(m.group(1))
            if new is None:
                return m.group(0)
            return new[1:] if new.startswith("\0") else f"{alias}.{new}"

        def fix_set(m: re.Match) -> str:
            new = new_attr(m.group(2), patch=True)
            if new is None:
                return m.group(0)
            own = new.startswith("\0")
            sub, _, name = new.lstrip("\0").rpartition(".")
            owner = sub if own else alias + ("." + sub if sub else "")
            return f'{m.group(1)}({owner}, "{name}"'

        text = re.sub(rf'(setattr|delattr)\({alias}, "(\w+)"', fix_set, text)
        text = re.sub(rf"(?<![\w.]){alias}\.(\w+)", fix_attr, text)
        if extra:
            bind = re.compile(
                rf"^(?P<indent>[ \t]*)(?:from[ \t]+\S+[ \t]+import[ \t]+[^\n(]*(?<![\w.]){alias}\b[^\n(]*"
                rf"|import[ \t]+\S+[ \t]+as[ \t]+{alias}\b[^\n]*|{alias}[ \t]*=[ \t]*importlib\.import_module\([^\n]*)$",
                re.M,
            )

            def add(m: re.Match) -> str:
                lines = [m.group(0)]
                for defining, name in extra.items():
                    parent, _, last = defining.rpartition(".")
                    lines.append(
                        f"{m.group('indent')}from {parent} import {last}" + (f" as {name}" if name != last else "")
                    )
                return "\n".join(lines)

            text, n = bind.subn(add, text)
            if not n:
                print(
                    f"!! {alias}: could not find where it is bound; add imports of {sorted(extra)} by hand",
                    file=sys.stderr,
                )
    return text


def _code_offsets(text: str) -> set[int] | None:
    """Offsets where a NAME token starts in ``text`` (Python): code, as opposed to strings and comments."""
    try:
        toks = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return {starts[t.start[0] - 1] + t.start[1] for t in toks if t.type == tokenize.NAME}


def rewrite_text(text: str, *, internal: bool, python: bool) -> str:
    renames: dict[str, str] = {}
    aliases = module_aliases(text) if python else {}
    pieces, last = [], 0
    spans = []
    for m in _FROM.finditer(text):
        spans.append((m.start(), m.end(), rewrite_from(m, internal=internal, renames=renames)))
    for m in _IMPORT.finditer(text):
        spans.append((m.start(), m.end(), rewrite_import(m, internal=internal)))
    spans.sort()

    code = _code_offsets(text) if python else None  # offsets of code (not strings or comments) in a .py file

    def dotted(seg: str, base: int) -> str:
        def fix(m: re.Match) -> str:
            nxt = seg[m.end() : m.end() + 1]
            # ``dpcore.dpne`` was a function of the top level: a call, or a value in code (``fn is dpcore.dpne``)
            called = nxt == "(" or (code is not None and nxt != "." and (base + m.start()) in code)
            # a dotted path in code, a docstring or a message names the public place (imports are handled above)
            return rewrite_dotted(m.group(0), called=called, internal=False)

        return _DOTTED.sub(fix, seg)

    for start, end, new in spans:
        if start < last:
            continue
        pieces.append(dotted(text[last:start], last))
        pieces.append(new)
        last = end
    pieces.append(dotted(text[last:], last))
    out = "".join(pieces)
    if python:
        out = _rename_tokens(out, renames)
        out = rewrite_aliases(out, aliases)
    return out


def rewrite_file(path: Path, check: bool = False) -> bool:
    try:
        text = path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return False
    module = module_of(path)
    python = path.suffix == ".py"
    new = text
    if module is not None:
        is_init = path.name == "__init__.py"
        new = absolutize(new, module, is_init)
        new = rewrite_text(new, internal=True, python=True)
        new = relativize(new, module, is_init)
    else:
        new = rewrite_text(new, internal=False, python=python)
    if new != text and not check:
        path.write_text(new, encoding="utf-8")
    return new != text


def iter_files(args: list[str]):
    roots = [Path(a) for a in args] or [ROOT]
    for root in roots:
        if root.is_file():
            yield root
            continue
        for p in sorted(root.rglob("*")):
            if (
                p.is_file()
                and p.suffix in SUFFIXES
                and not (set(p.parts) & SKIP_DIRS)
                and p.resolve() != SELF
                and p.resolve() not in KEEP
            ):
                yield p


def main(argv: list[str]) -> int:
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    changed = [p for p in iter_files(args) if rewrite_file(p, check=check)]
    for p in changed:
        print(p)
    print(f"{len(changed)} file(s) {'would change' if check else 'rewritten'}", file=sys.stderr)
    return 1 if (check and changed) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
