"""The basic mechanisms: Laplace, Gaussian (classic and analytic calibration), exponential, composition,
and the keyed draws that make DPNE's randomness a function of (seed, item).

Privacy-critical: each mechanism's module is the one place its noise is calibrated and drawn.
"""

from __future__ import annotations

from .composition import (
    gaussian_composition_sigma,
    parallel_composition,
    sequential_composition,
)
from .exponential import (
    MAX_EPSILON,
    exponential_mechanism,
    exponential_mechanism_probabilities,
)
from .gaussian import (
    AUTO_CALIBRATION_THRESHOLD,
    CALIBRATION_CHOICES,
    GAUSSIAN_METHODS,
    analytic_gaussian_sigma,
    check_classic_promise,
    classic_calibration_proven,
    classic_gaussian_sigma,
    classic_true_delta,
    gaussian_delta,
    gaussian_noise_scale,
    gaussian_sigma,
    resolve_calibration,
)
from .keyed import (
    STREAM_NOISE,
    STREAM_ORDER,
    STREAM_SELECT,
    STREAM_ZERO_ORDER,
    STREAM_ZERO_WEIGHT,
    fold_keys,
    keyed_normal,
    keyed_uniform,
    level_generator,
    philox4x64,
    release_seed,
    row_keys,
    seed_key,
    text_key,
    token_keys,
)
from .laplace import (
    laplace_mechanism,
    laplace_pdf,
    laplace_privacy_loss,
    laplace_privacy_loss_bound,
    laplace_scale,
    laplace_variance,
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
