"""The shipped table of VIPS-LDA's noise multipliers: it covers the app's grids, each entry is what the calibration
gives (bit for bit) and keeps the accountant's ε within the target; without the file every z is calibrated."""

import random

import pytest

from dpcore.topicdp import vips
from dpui.common.sidebar import DELTA_OPTIONS, EPSILON_OPTIONS


def test_the_table_covers_the_pages_grids():
    table = vips._shipped_noise_multipliers()
    assert set(table) == {(e, d, j) for e in EPSILON_OPTIONS for d in DELTA_OPTIONS for j in range(1, 6)}


@pytest.mark.parametrize("draw", range(4))
def test_a_shipped_entry_is_the_calibration_and_within_epsilon(draw):
    table = vips._shipped_noise_multipliers()
    (e, d, j), z = random.Random(draw).choice(sorted(table.items()))
    assert vips._calibrate_noise_multiplier(e, d, j) == z
    assert vips.vips_epsilon(sigma=z, delta=d, iterations=j) <= e
    assert vips.vips_epsilon(sigma=z * (1 - 1e-5), delta=d, iterations=j) > e  # the smallest such z (to 1e-5)
    assert vips.vips_sigma(epsilon=e, delta=d, iterations=j, clip_norm=2.0) == 2.0 * z


def test_a_missing_table_means_calibrating(monkeypatch):
    monkeypatch.setattr(vips, "NOISE_TABLE", "no_such_file.json")
    vips._shipped_noise_multipliers.cache_clear()
    vips._noise_multiplier.cache_clear()
    try:
        assert vips._shipped_noise_multipliers() == {}
        assert vips._noise_multiplier(1.0, 1e-5, 1) == vips._calibrate_noise_multiplier(1.0, 1e-5, 1)
    finally:
        vips._shipped_noise_multipliers.cache_clear()
        vips._noise_multiplier.cache_clear()
