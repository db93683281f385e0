"""The basic mechanisms: Laplace, Gaussian (classic and analytic calibration), exponential, composition,
and the keyed draws that make DPNE's randomness a function of (seed, item).

Privacy-critical: each mechanism's module is the one place its noise is calibrated, and :mod:`.noise` the one
place every release's noise is drawn (where a secure sampler would go).
"""

from __future__ import annotations

from .laplace import (
    laplace_scale,
    laplace_variance,
    laplace_mechanism,
    laplace_pdf,
    laplace_privacy_loss,
    laplace_privacy_loss_bound,
)
from .gaussian import (
    gaussian_sigma,
    gaussian_noise_scale,
    check_classic_promise,
    gaussian_delta,
    classic_gaussian_sigma,
    analytic_gaussian_sigma,
    classic_calibration_proven,
    resolve_calibration,
    classic_true_delta,
    GAUSSIAN_METHODS,
    CALIBRATION_CHOICES,
    AUTO_CALIBRATION_THRESHOLD,
)
from .noise import laplace_noise, gaussian_noise, standard_normal_noise, standard_exponential_noise
from .exponential import (
    exponential_mechanism_probabilities,
    exponential_mechanism,
    MAX_EPSILON,
)
from .composition import (
    sequential_composition,
    parallel_composition,
    gaussian_composition_sigma,
)
from .keyed import (
    STREAM_NOISE,
    STREAM_SELECT,
    STREAM_ORDER,
    STREAM_ZERO_WEIGHT,
    STREAM_ZERO_ORDER,
    seed_key,
    release_seed,
    token_keys,
    text_key,
    fold_keys,
    row_keys,
    philox4x64,
    keyed_uniform,
    keyed_normal,
    level_generator,
)

__all__ = [
    "laplace_scale",
    "laplace_variance",
    "laplace_mechanism",
    "laplace_pdf",
    "laplace_privacy_loss",
    "laplace_privacy_loss_bound",
    "gaussian_sigma",
    "gaussian_delta",
    "classic_gaussian_sigma",
    "analytic_gaussian_sigma",
    "classic_calibration_proven",
    "gaussian_noise_scale",
    "check_classic_promise",
    "resolve_calibration",
    "classic_true_delta",
    "GAUSSIAN_METHODS",
    "CALIBRATION_CHOICES",
    "AUTO_CALIBRATION_THRESHOLD",
    "laplace_noise",
    "gaussian_noise",
    "standard_normal_noise",
    "standard_exponential_noise",
    "exponential_mechanism_probabilities",
    "exponential_mechanism",
    "MAX_EPSILON",
    "sequential_composition",
    "parallel_composition",
    "gaussian_composition_sigma",
    "STREAM_NOISE",
    "STREAM_SELECT",
    "STREAM_ORDER",
    "STREAM_ZERO_WEIGHT",
    "STREAM_ZERO_ORDER",
    "seed_key",
    "release_seed",
    "token_keys",
    "text_key",
    "fold_keys",
    "row_keys",
    "philox4x64",
    "keyed_uniform",
    "keyed_normal",
    "level_generator",
]
