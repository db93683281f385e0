"""Issue 33 item 3: one threshold path. The local DPNE engine computes ρ_k with accounting.spurious_threshold, the
function the Spark engine, the CLI and the exercises call — checked without Java."""

from __future__ import annotations

import numpy as np

import dpcore.dpne.release as local
import dpcore.dpne.spark_engine as spark
from dpcore.dpne import accounting, prepare_dpne
from dpcore.text.ngrams import encode_users


def _users():
    rng = np.random.default_rng(2)
    words = [f"w{i}" for i in range(25)]
    return [[[words[j] for j in rng.choice(25, size=5, p=None)] for _ in range(4)] for _ in range(200)]


def test_the_engines_share_one_threshold_function():
    assert local.spurious_threshold is accounting.spurious_threshold
    assert spark.spurious_threshold is accounting.spurious_threshold


def test_local_engine_thresholds_are_spurious_threshold(monkeypatch):
    """Every ρ_k (k ≥ 2) of a local run is spurious_threshold(σ_k, η, |S_{k−1}|, |V_k|), and it comes from that
    call: a changed function moves the local engine's release (the trap of issue 33)."""
    tc = encode_users(_users())
    plan = prepare_dpne(tc, epsilon=8.0, delta=1e-4, max_length=4, contribution_limit=10, rng=1)
    release, evaluation = plan.run(0.05)
    levels = [d for d in evaluation.levels if d.k >= 2 and d.valid_count]
    assert len(levels) >= 2
    for d in levels:
        want = accounting.spurious_threshold(d.sigma, 0.05, d.previous_size, d.valid_count)
        assert release.thresholds[d.k] == want == d.threshold
    calls = []

    def shifted(sigma_k, eta, previous_size, valid_count):
        calls.append((sigma_k, eta, previous_size, valid_count))
        return accounting.spurious_threshold(sigma_k, eta, previous_size, valid_count) + 1.0

    monkeypatch.setattr(local, "spurious_threshold", shifted)
    moved, _ = plan.run(0.05)
    assert calls and moved.thresholds[2] == release.thresholds[2] + 1.0
