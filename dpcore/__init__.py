"""dpcore — differential privacy mechanisms for text statistics, without any UI.

Usable from a notebook: ``from dpcore import gaussian_sigma, load_sample_corpus``. Every function
that samples takes an explicit ``rng`` (a ``numpy.random.Generator`` or an int seed); parameters are
validated at the public boundary with messages that name the parameter, the rule and the value.
See ``SPEC.md`` (shared) for the formulas and the readings taken where a paper is ambiguous.
"""

from .composition import gaussian_composition_sigma, parallel_composition, sequential_composition
from .corpus import (
    MAX_UPLOAD_BYTES,
    UPLOAD_LIMITS,
    SAMPLE_CORPORA,
    SAMPLE_SIZES,
    Corpus,
    CorpusError,
    Document,
    UploadLimits,
    corpus_from_records,
    corpus_from_token_arrays,
    data_cache_dir,
    load_sample_corpus,
    load_uploaded_corpus,
    iter_table,
    peek_columns,
    read_table,
    sample_data_dir,
    table_columns,
    tokenize,
)
from .quoting import quote
from .real_corpus import REAL_CORPORA, REAL_SPLITS, load_real_corpus
from .text_profile import TextProfile, dpne_vs_dpsu_reason, reason_length, sentences_per_user, text_profile
from .guarantees import (
    GUARANTEE_KINDS,
    Guarantee,
    approximate_dp,
    k_anonymity,
    local_sensitivity,
    no_private_data,
    no_protection,
    pure_dp,
    random_dp,
)
from .exponential import exponential_mechanism, exponential_mechanism_probabilities
from .gaussian import (
    AUTO_CALIBRATION_THRESHOLD,
    CALIBRATION_CHOICES,
    GAUSSIAN_METHODS,
    resolve_calibration,
    analytic_gaussian_sigma,
    classic_calibration_proven,
    classic_gaussian_sigma,
    classic_true_delta,
    gaussian_delta,
    gaussian_sigma,
)
from .laplace import (
    laplace_mechanism,
    laplace_pdf,
    laplace_privacy_loss,
    laplace_privacy_loss_bound,
    laplace_scale,
    laplace_variance,
)
from .metrics import KL_SMOOTHING, kendall_tau_distance, kl_divergence, l1_distance, rmse
from .validation import (
    check_choice,
    check_delta,
    check_epsilon,
    check_int,
    check_probability,
    check_real,
    check_rng,
    check_sensitivity,
)

from .ngrams import NgramIndex, TokenCorpus, build_ngram_index, encode_corpus, encode_users, rows_membership
from .dpne import (
    DPNE_GUARANTEE,
    DPSU_POLICIES,
    EVALUATION_ONLY,
    KANONYMITY_LABEL,
    DpneEvaluation,
    DpneRelease,
    DpneRun,
    DpsuBaselineRelease,
    KAnonymityCoverage,
    DpnePlan,
    PruningChain,
    count_valid_kgrams,
    dpne,
    dpne_noise_scales,
    dpne_with_evaluation,
    dpsu_all,
    dpsu_even,
    dpsu_single,
    dpsu_threshold,
    dpsu_threshold_for_sigma,
    kanonymity_coverage,
    prepare_dpne,
    pruning_chain,
    spurious_threshold,
)

from .ngram_counts import NGRAM_ORDERS, NgramCounts, ngram_counts
from .bayesian import (
    LOCAL_SENSITIVITY_METHODS,
    SENSITIVITY_METHODS,
    BayesianRelease,
    BayesianStatistics,
    EndToEndEvaluation,
    EndToEndRelease,
    PreparedBayesianDP,
    PreparedEndToEnd,
    bayesian_dp,
    bayesian_guarantee,
    bayesian_sensitivity,
    bayesian_statistics,
    brute_force_sensitivity,
    cap_user_items,
    end_to_end_dp,
    end_to_end_guarantee,
    prepare_bayesian,
    prepare_end_to_end,
    strict_sensitivity,
    worst_case_sensitivity,
)
from .bayesian_baselines import (
    K_ANONYMITY_GUARANTEE,
    LAPLACE_GUARANTEE,
    PRIVATE_BASELINE_GUARANTEE,
    PUBLIC_BASELINE_GUARANTEE,
    KAnonymityRelease,
    LaplaceRelease,
    k_anonymity_release,
    laplace_counts_dp,
    laplace_guarantee,
    laplace_public_dp,
    laplace_public_sensitivity,
    private_baseline,
    public_baseline,
)

from .topic_model import (
    LDA_ENGINES,
    TOPIC_STOP_WORDS,
    tomotopy_available,
    LdaSettings,
    TopicModel,
    TopicKeywordMatrix,
    DocumentTermData,
    align_topics,
    document_term_data,
    fit_topic_model,
    released_matrix_distance,
    topic_keyword_matrix,
)
from .topic_prompts import (
    MATCH_RULE,
    PromptMatch,
    PromptSurvival,
    SurvivalCurve,
    match_topics_to_prompts,
    prompt_documents,
    prompt_survival,
    prompt_survival_curve,
)
from .topicdp import (
    DrawsSummary,
    NoiseComparison,
    compare_noise,
    laplace_break_even_sensitivity,
    summarise_draws,
    MATRIX_LAPLACE_GUARANTEE,
    TOPICDP_GUARANTEE,
    TOPIC_MECHANISMS,
    ErrorCurve,
    MatrixRelease,
    SamplerSettings,
    SamplerSize,
    SensitivityDraws,
    SensitivityResult,
    error_curve,
    extend_sensitivity_draws,
    load_sensitivity_draws,
    load_topic_model,
    matrix_laplace_mechanism,
    mvg_mechanism,
    mvg_sigma,
    release_all,
    release_errors,
    sampled_sensitivity,
    save_topic_model,
    sensitivity_sampler_size,
    topicdp_mechanism,
    topicdp_sigma,
    corrected_topicdp_sigma,
    corrected_topicdp_mechanism,
    strict_topicdp_sigma,
    strict_topicdp_mechanism,
    topicdp_true_epsilon,
)

# VIPS-LDA (issue 23): noise on the sufficient statistics of LDA, (ε, δ)-DP per user for the whole matrix
from .vips import (
    VipsErrors,
    VipsRelease,
    VipsStart,
    VipsVocabulary,
    person_counts,
    public_start,
    public_vocabulary,
    seeded_start,
    vips_epsilon,
    vips_errors,
    vips_lda,
    vips_reference_fit,
    vips_sigma,
)
# VIPS-LDA beside TopicDP on the page's one reference table (issue 23 items 2, 4, 6)
from .topic_vips import (
    VipsComparison,
    VipsPageSetup,
    compare_release,
    public_only_release,
    thesis_epsilon_for_l1,
    vips_page_setup,
    vips_sweep,
)

from .review import (
    REVIEW_RULES,
    BudgetStatement,
    NoiseStatement,
    Review,
    ReviewWarning,
    custom_review,
    dpne_budget,
    dpne_users_per_released,
    end_to_end_budget,
    gaussian_noise_in_units,
    laplace_noise_in_units,
    items_per_user,
    log_space_noise_in_units,
    mechanism_guarantees,
    review,
    review_warnings,
    single_budget,
)
from .budget import BudgetEntry, ComposedBudget, budget_entry, compose_releases

# Big corpora (issue 12): keyed draws, streaming input, the batch engines (Spark: dpcore.spark_engine,
# imported on demand; the command line: python -m dpcore).
from .keyed import keyed_normal, keyed_uniform, row_keys, text_key, token_keys
from .stream import InputError, read_token_corpus
from .batch import BatchRelease, run_dpne_local

__version__ = "0.1.0"

# Privacy audit lab (issue 10). ``dpcore.audit`` is the subpackage and is itself callable:
# ``dpcore.audit(mechanism, d, d_prime, trials=..., rng=...)``; ``dpcore.audit.scenarios`` holds the pairs.
from . import audit
from .audit import AuditEvent, AuditResult, audit_scores, run_scenario
from . import exercises  # callable module: dpcore.exercises() returns every lecture exercise (issue 13)
from . import paper_results  # noqa: E402  (paper vs here: the papers' numbers and ours at their settings)
from .specs import replay  # noqa: E402  (issue 22: rebuild and run an export's spec record)
