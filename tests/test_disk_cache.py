"""The disk layer under the releases' caches (issue 29 item 5; dpui.common.disk_cache).

What it must do: keep the default seed's releases on a shipped corpus on disk, keyed like the in-memory cache, so the
processes of deploy/serve_class.py share a warm-up; read back exactly what was stored under exactly that key; and
never write private-mode noise (a per-session secret seed), another seed's noise or an upload's release.
"""

from __future__ import annotations

import pickle

import pytest
from replay_env import opened

import dpcore
from dpui.common import disk_cache
from dpui.common.disk_cache import ENV, disk_shared

DPNE = "3_DP_ngram_extraction.py"
EPS = "0.015"  # a grid value no other test opens the page at: the in-memory cache has not seen it


def _entries(folder):
    return sorted(folder.rglob("*.pkl"))


def test_round_trip_and_key_check(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, str(tmp_path))
    calls = []

    def compute(value):
        def f():
            calls.append(value)
            return {"released": [value]}

        return f

    assert disk_shared("ns", "key-a", compute(1), share=True) == {"released": [1]}
    # another process (a new compute): read from disk, not recomputed
    assert disk_shared("ns", "key-a", compute(2), share=True) == {"released": [1]}
    assert calls == [1]
    # a file under the same name with another key inside is not returned (the key is compared, not just its hash)
    (path,) = _entries(tmp_path)
    path.write_bytes(pickle.dumps(("key-b", {"released": ["other"]})))
    assert disk_shared("ns", "key-a", compute(3), share=True) == {"released": [3]}
    # a corrupt file is recomputed
    path.write_bytes(b"not a pickle")
    assert disk_shared("ns", "key-a", compute(4), share=True) == {"released": [4]}
    # share=False never touches the disk
    assert disk_shared("ns", "key-z", compute(5), share=False) == {"released": [5]}
    assert len(_entries(tmp_path)) == 1
    assert calls == [1, 3, 4, 5]


def test_switched_off_and_unwritable(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, "off")
    assert disk_cache.release_cache_dir() is None
    assert disk_shared("ns", "k", lambda: 7, share=True) == 7
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    monkeypatch.setenv(ENV, str(blocked))
    assert disk_shared("ns", "k", lambda: 8, share=True) == 8  # the page still answers


def test_source_fingerprint_names_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, str(tmp_path))
    folder = disk_cache.release_cache_dir()
    assert folder.parent == tmp_path and folder.name == disk_cache.source_fingerprint()
    assert len(folder.name) == 16


@pytest.mark.parametrize(
    "query",
    [{"noise": "private"}, {"seed": "3"}],
    ids=["private-mode noise", "another seed"],
)
def test_page_never_writes_private_or_other_seeds(tmp_path, monkeypatch, query):
    monkeypatch.setenv(ENV, str(tmp_path))
    opened(DPNE, corpus="classroom", eps=EPS, **query)
    assert _entries(tmp_path) == []


def test_page_writes_default_seed_keyed_like_memory(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, str(tmp_path))
    opened(DPNE, corpus="classroom", eps=EPS, delta="1e-05")
    entries = _entries(tmp_path)
    names = {p.parent.name for p in entries}
    assert "dpne_run" in names, entries
    corpus_hash = dpcore.load_sample_corpus("private", size="classroom").content_hash
    for p in entries:
        key, value = pickle.loads(p.read_bytes())
        # the in-memory cache's key: the corpus hash, then the spec's key (a hash of every field, seed and ε too)
        first, second = key.split("|")
        assert first == corpus_hash and len(second) == 64
        assert value is not None
        if p.parent.name == "dpne_run":  # stored without the token corpus (25 MB on the chat), put back on reading
            assert value.evaluation.corpus is None and value.release.epsilon == 0.015


def test_a_disk_hit_still_prepares_what_the_next_epsilon_needs(tmp_path, monkeypatch):
    """A release read from disk (a lecture's default seed after a warm-up) must still leave the ε-free parts in memory:
    otherwise the first ε that is not on disk draws the selections inside a slider move (issue 29: 0.6-2.3 s)."""
    import dataclasses

    from dpcore.dpne.results import DpneRun
    from dpcore.specs import DpneSpec
    from dpui.dpne import data

    monkeypatch.setenv(ENV, str(tmp_path))
    monkeypatch.setattr(data, "shareable", lambda seed, corpus: True)  # a seed of its own: no other test warmed it
    corpus = dpcore.load_sample_corpus("private", size="classroom")
    spec = DpneSpec(corpus="classroom", seed=7_310_443, epsilon=2.0, delta=1e-5)
    h = corpus.content_hash
    tc = data.token_corpus(h, corpus)
    index = data.ngram_index(h, corpus)
    # what a warm-up in another process left on disk, keyed as the page keys it
    sizes = spec.dpsu_baselines(index)
    disk_shared("dpsu_baselines", f"{h}|{spec.key(without=DpneSpec.BASELINE_INDEPENDENT)}", lambda: sizes, share=True)
    release, evaluation = spec.prepare(tc).run(spec.eta)
    run_key = f"{h}|{spec.key(without=('eta_grid',))}"
    disk_shared("dpne_run", run_key, lambda: DpneRun(release, dataclasses.replace(evaluation, corpus=None)), share=True)

    calls = {"dpsu_plans": 0, "unigram": 0}
    for name in calls:
        original = getattr(DpneSpec, name)

        def counted(self, *a, _name=name, _original=original, **kw):
            calls[_name] += 1
            return _original(self, *a, **kw)

        monkeypatch.setattr(DpneSpec, name, counted)

    assert data.baseline_sizes(spec, corpus) == sizes  # read from disk ...
    assert data.dpne_run(spec, corpus).release.ngrams == release.ngrams
    assert calls == {"dpsu_plans": 1, "unigram": 1}  # ... and the ε-free parts prepared all the same

    moved = spec.replace(epsilon=3.0)  # not on disk: only the noise is drawn
    assert data.baseline_sizes(moved, corpus) == moved.dpsu_baselines(index, moved.dpsu_plans(index))
    data.dpne_run(moved, corpus)
    assert calls == {"dpsu_plans": 2, "unigram": 1}  # the one extra: the recomputation in the line above
