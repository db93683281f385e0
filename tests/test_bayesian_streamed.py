"""dpcore.bayesian.streamed (groundwork of issue 43's `python -m dpcore bayes`): the keyed per-user cap does not depend
on the order of the users, blocks of users add up to the whole corpus's totals exactly, and the statistics built from
streamed totals equal those of the whole matrix."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from dpcore.bayesian.streamed import (
    capped_totals,
    keyed_item_cap,
    keyed_strict_statistics,
    statistics_from_totals,
    user_keys_of,
)

V, USERS, C, L, SEED = 40, 300, 3, 5, 1234


@pytest.fixture(scope="module")
def corpus():
    rng = np.random.default_rng(7)
    dense = rng.poisson(0.4, size=(USERS, V)) * (rng.random((USERS, V)) < 0.5)
    ids = [f"user-{i}" for i in range(USERS)]
    item_keys = np.arange(1, V + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    public = rng.poisson(2.0, size=V).astype(float) + 1.0
    return sp.csr_matrix(dense), ids, item_keys, public


def test_keyed_cap_keeps_at_most_L_items_and_follows_the_user_not_the_row(corpus):
    m, ids, item_keys, _ = corpus
    capped = keyed_item_cap(m, max_items=L, seed=SEED, user_keys=user_keys_of(ids), item_keys=item_keys)
    lengths = np.diff(capped.indptr)
    assert lengths.max() <= L and (np.diff(m.indptr) > L).any()
    assert np.array_equal(lengths, np.minimum(np.diff(m.indptr), L))
    order = np.random.default_rng(3).permutation(USERS)
    shuffled = keyed_item_cap(
        m[order], max_items=L, seed=SEED, user_keys=user_keys_of([ids[i] for i in order]), item_keys=item_keys
    )
    assert (shuffled != capped[order]).nnz == 0  # each user keeps the same items wherever their row is
    other_seed = keyed_item_cap(m, max_items=L, seed=SEED + 1, user_keys=user_keys_of(ids), item_keys=item_keys)
    assert (other_seed != capped).nnz > 0


def test_blocks_add_up_to_the_whole_and_give_the_same_statistics(corpus):
    m, ids, item_keys, public = corpus
    keys = user_keys_of(ids)
    kw = dict(C=C, max_items=L, seed=SEED, item_keys=item_keys)
    whole_c, whole_n, whole_users = capped_totals(m, user_keys=keys, **kw)
    parts = [capped_totals(m[a:b], user_keys=keys[a:b], **kw) for a, b in ((0, 97), (97, 250), (250, USERS))]
    assert np.array_equal(sum(p[0] for p in parts), whole_c) and np.array_equal(sum(p[1] for p in parts), whole_n)
    assert sum(p[2] for p in parts) == whole_users == USERS
    direct = keyed_strict_statistics(m, public, user_keys=keys, **kw)
    streamed = statistics_from_totals(whole_c, whole_n, public, n_users=USERS, C=C, max_items=L)
    assert np.array_equal(streamed.counts, direct.counts)
    assert np.array_equal(streamed.users_per_item, direct.users_per_item)
    assert np.allclose(streamed.x_hat, direct.x_hat, rtol=0, atol=0)
