"""Issue 30, item 5: VIPS-LDA's defaults (B, J) are tuned on public people only, and the published numbers are
the public people's. scripts/vips_tune_public.py reproduces the tuning from the chat's public split (395 people)
without ever loading the private split."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import dpcore
from dpcore.topicdp import vips

ROOT = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("vips_tune_public", ROOT / "scripts" / "vips_tune_public.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def tuned():
    """The script's full sweep at its default seeds, with the private split made unloadable."""
    mod = _script()
    real = dpcore.load_real_corpus
    loads = []

    def public_only(name="chat", *, which="all"):
        loads.append(which)
        if which != "public":
            raise AssertionError(f"the VIPS tuning loaded which={which!r}: it must read public people only")
        return real(name, which=which)

    mp = pytest.MonkeyPatch()
    mp.setattr(dpcore, "load_real_corpus", public_only)
    try:
        s = mod.setup()
        table = mod.sweep(s, seeds=5)
    finally:
        mp.undo()
    return mod, s, table, loads


def test_the_tuning_reads_public_people_only(tuned):
    mod, s, _, loads = tuned
    assert loads and set(loads) == {"public"}
    pub = dpcore.load_real_corpus("chat", which="public")
    assert s["a"].n_users + s["b"].n_users == pub.n_users == 395
    assert not set(s["a"].user_ids) & set(s["b"].user_ids)  # vocabulary/start people ≠ trained-on people
    assert set(s["a"].user_ids) | set(s["b"].user_ids) == set(pub.user_ids)


def test_the_shipped_defaults_are_the_public_tuning_choice(tuned):
    mod, _, table, _ = tuned
    assert set(table) == {(b, j) for b in mod.CLIP_NORMS for j in mod.ITERATIONS}
    assert mod.choose(table) == (vips.DEFAULT_CLIP_NORM, vips.DEFAULT_ITERATIONS)


def test_choose_is_the_smallest_mean_l1():
    mod = _script()
    assert mod.choose({(1.0, 1): [3.0, 1.0], (2.0, 1): [2.0, 1.0], (2.0, 2): [1.0, 1.0]}) == (2.0, 2)
    assert mod.choose({(5.0, 1): [1.0], (2.0, 1): [1.0]}) == (2.0, 1)  # a tie: the smaller B


def test_the_spec_publishes_public_norms_not_the_private_peoples(tuned):
    mod, s, _, _ = tuned
    spec = (ROOT / "docs" / "SPEC_vips.md").read_text()
    for private_number in ("984.7", "985", "21.3", "37,526", "median 5.0,"):  # the 920 private people's
        assert private_number not in spec, private_number
    ns = mod.norm_summary(s["norms"])
    published = f"median {ns['median']:.2f}, 90 % {ns['p90']:.1f}, max {ns['max']:.1f}"
    assert published in spec, published
    assert "scripts/vips_tune_public.py" in spec
