import math

import pytest

from dpcore.mechanisms import gaussian_composition_sigma, parallel_composition, sequential_composition


def test_sequential_and_parallel():
    assert sequential_composition([2 / 3, 1 / 3], [1e-6, 0]) == (pytest.approx(1.0), pytest.approx(1e-6))
    assert parallel_composition([0.5, 2.0], [1e-5, 1e-7]) == (2.0, 1e-5)
    assert sequential_composition([1.0]) == (1.0, 0.0)


def test_gaussian_composition_inverse_square_sum():
    sig = [1.0, 2.0, 2.0]
    assert gaussian_composition_sigma(sig) == pytest.approx(1 / math.sqrt(1 + 0.25 + 0.25))
    # T equal releases with σ√T compose to σ
    assert gaussian_composition_sigma([3.0 * math.sqrt(4)] * 4) == pytest.approx(3.0)


def test_bad_inputs():
    with pytest.raises(ValueError, match=r"epsilons\[1\] must be > 0"):
        sequential_composition([1.0, 0.0])
    with pytest.raises(ValueError, match="one entry per epsilon"):
        sequential_composition([1.0], [0.1, 0.1])
    with pytest.raises(ValueError, match="empty"):
        parallel_composition([])
