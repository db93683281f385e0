"""No release object reaches a private token it did not release (issue 15, item 1).

A release is what a page may publish. Every attribute reachable from it — dataclass fields, public
properties, tuples, lists, sets, dicts (keys and values), numpy string/object arrays, nested objects —
is walked, and no string may be (or contain) a token of the private corpus that the release did not
output. The corpus holds a one-user token "alice_ssn_123" that no DP release at these settings can
output (one user adds at most weight 1 to it, far below the threshold).
"""

import dataclasses

import numpy as np
import pytest
import scipy.sparse as sp

import dpcore
from dpcore.dpne import (
    DpneRelease,
    DpsuBaselineRelease,
    dpne_extract,
    dpne_with_evaluation,
    dpsu_all,
    dpsu_even,
    dpsu_single,
)
from dpcore.text.ngrams import build_ngram_index, encode_users

SECRET = "alice_ssn_123"


def reachable_strings(root, max_nodes=200_000):
    """Every str reachable from ``root`` (keys and values, fields, public non-callable attributes)."""
    out, seen, stack = [], set(), [root]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.append(x)
            continue
        if isinstance(x, bytes):
            out.append(x.decode("utf-8", "replace"))
            continue
        if x is None or isinstance(x, (bool, int, float, complex, np.number, np.bool_)):
            continue
        if id(x) in seen:
            continue
        seen.add(id(x))
        assert len(seen) < max_nodes, "object graph too large to walk"
        if isinstance(x, np.ndarray):
            if x.dtype.kind in "OUS":
                stack.extend(x.ravel().tolist())
            continue
        if sp.issparse(x):
            continue  # numeric only
        if isinstance(x, dict) or hasattr(x, "items") and callable(x.items) and not isinstance(x, type):
            for k, v in x.items():
                stack.append(k)
                stack.append(v)
            continue
        if isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
            continue
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
        if hasattr(x, "__dict__"):
            stack.extend(vars(x).values())
        for name in dir(type(x)):
            if name.startswith("_"):
                continue
            attr = getattr(type(x), name, None)
            if isinstance(attr, (property,)) or type(attr).__name__ == "cached_property":
                stack.append(getattr(x, name))
    return out


def corpus_with_secret():
    """400 users share phrases; one user also writes the secret (its only occurrence)."""
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(8)]
    phrases = [[words[j] for j in rng.integers(0, 8, size=int(rng.integers(2, 5)))] for _ in range(10)]
    users = [[phrases[j] for j in rng.integers(0, 10, size=3)] + [[f"name{i}", "says", "hi"]] for i in range(400)]
    users[17].append(["my", "number", "is", SECRET])
    return users


def unreleased_tokens(users, release):
    vocab = {w for u in users for s in u for w in s}
    released = {w for grams in release.ngrams.values() for g in grams for w in g}
    return vocab - released


def assert_no_leak(release, users):
    hidden = unreleased_tokens(users, release)
    assert SECRET in hidden, "the secret must be unreleased for this test to mean anything"
    strings = reachable_strings(release)
    assert strings, "the walk found no string at all"
    leaked = {s for s in strings if s in hidden}
    assert not leaked, f"{type(release).__name__} reaches unreleased tokens: {sorted(leaked)[:10]}"
    assert not any(SECRET in s for s in strings)


def test_walker_is_not_vacuous():
    users = corpus_with_secret()
    # the walker does find the secret where it is: in the evaluation object and in a token corpus
    rel, ev = dpne_with_evaluation(users, epsilon=4, delta=1e-6, max_length=4, contribution_limit=10, eta=0.05, rng=0)
    assert SECRET in reachable_strings(ev)
    assert SECRET in reachable_strings(encode_users(users))
    assert SECRET in reachable_strings({"a": [(np.array([SECRET], dtype=object),)]})
    assert SECRET in reachable_strings({frozenset({(SECRET,)}): 1})


@pytest.mark.parametrize("pruning", ["both", "single"])
@pytest.mark.parametrize("policy", ["weighted", "policy"])
def test_dpne_release_reaches_no_unreleased_token(pruning, policy):
    users = corpus_with_secret()
    for seed in range(3):
        rel = dpne_extract(
            users,
            epsilon=8,
            delta=1e-6,
            max_length=4,
            contribution_limit=10,
            eta=0.2,
            pruning=pruning,
            policy=policy,
            rng=seed,
        )
        assert isinstance(rel, DpneRelease)
        assert rel.ngrams[1] and rel.ngrams[2]  # something was released
        assert_no_leak(rel, users)


@pytest.mark.parametrize("fn", [dpsu_all, dpsu_even, dpsu_single])
def test_dpsu_baseline_releases_reach_no_unreleased_token(fn):
    users = corpus_with_secret()
    index = build_ngram_index(users, 3)
    for source in (users, index):
        rel = fn(source, epsilon=8, delta=1e-6, max_length=3, contribution_limit=10, rng=1)
        assert isinstance(rel, DpsuBaselineRelease) and rel.ngrams[1]
        assert_no_leak(rel, users)


def test_release_order_does_not_follow_the_corpus():
    """The same set from corpora in another user order gives the same release object content."""
    users = corpus_with_secret()
    kw = dict(epsilon=50, delta=1e-6, max_length=2, contribution_limit=50, eta=1e-9, rng=0)
    a = dpne_extract(users, **kw)
    b = dpne_extract(users[::-1], **kw)
    assert a.sorted_ngrams(1) == sorted(a.ngrams[1])
    # a huge ε releases every shared token whatever the order; nothing depends on the first-seen order
    assert a.ngrams[1] == b.ngrams[1]


def _bayesian_inputs():
    users = corpus_with_secret()
    recs = [{"user": f"u{i}", "text": " . ".join(" ".join(s) for s in u)} for i, u in enumerate(users)]
    private = dpcore.corpus_from_records(recs, user_field="user", text_field="text")
    public = dpcore.corpus_from_records(
        [{"user": f"p{i}", "text": "w0 w1 w2 w3 w4 w5 w6 w7 says hi"} for i in range(5)],
        user_field="user",
        text_field="text",
    )
    return users, dpcore.text.ngram_counts(private, public, n=1)


def test_count_releases_over_the_public_vocabulary_reach_no_private_token():
    """Bayesian, Laplace and k-anonymity releases hold θ over the PUBLIC vocabulary: no string at all
    from the private corpus (the secret is not public, so it cannot even be a column)."""
    users, counts = _bayesian_inputs()
    assert SECRET not in {g[0] for g in counts.vocabulary}
    m, alpha = counts.user_counts, counts.public_counts
    releases = [
        dpcore.bayesian_dp(m, alpha, epsilon=1, delta=1e-5, S=1.0, C=5, rho=0.5, rng=0),
        dpcore.end_to_end_dp(m, alpha, epsilon=1, delta=1e-5, C=5, rng=0),
        dpcore.bayesian.laplace_counts_dp(m, epsilon=1, W=5, rng=0),
        dpcore.bayesian.laplace_public_dp(m, alpha, epsilon=1, W=5, rng=0),
        dpcore.bayesian.k_anonymity_release(m, alpha, K=5),
    ]
    for rel in releases:
        strings = reachable_strings(rel)
        assert not any(SECRET in s for s in strings), type(rel).__name__
        hidden = {w for u in users for s in u for w in s} - {g[0] for g in counts.vocabulary}
        assert not (set(strings) & hidden), type(rel).__name__


def test_matrix_releases_hold_no_words():
    """TopicDP / MVG / Laplace matrix releases hold numbers and labels only; the column words live in
    the TopicKeywordMatrix, which is chosen from the private data without privacy (its guarantee
    says so)."""
    w = np.full((2, 3), 1 / 3)
    for rel in dpcore.topicdp.release_all(w, epsilon=1, delta=1e-5, sensitivity=0.1, rng=0).values():
        strings = reachable_strings(rel)
        allowed = {rel.mechanism} | set(reachable_strings(rel.guarantee))  # the guarantee's own words
        assert all(s in allowed for s in strings), strings


# ------------------------------------------------------------------------------ exact data-dependent numbers


def reachable_numbers(root):
    """Every scalar number reachable from ``root`` (ints, floats, numpy scalars; arrays are noise and skipped)."""
    out, seen, stack = [], set(), [root]
    while stack:
        x = stack.pop()
        if isinstance(x, (bool, np.bool_)) or x is None or isinstance(x, str):
            continue
        if isinstance(x, (int, float, np.integer, np.floating)):
            out.append(float(x))
            continue
        if id(x) in seen or isinstance(x, np.ndarray) or sp.issparse(x):
            continue
        seen.add(id(x))
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
    return sorted(out)


def test_end_to_end_release_holds_no_exact_user_count():
    """Issue 21 item 2: EndToEndRelease held n_train + n_validation, the exact number of users (36 + 4 on D,
    35 + 4 on D minus one user): it told every neighbour apart with certainty. The split sizes now live in the
    evaluation object; the release's integers are the same on D and on D minus one user."""
    users, counts = _bayesian_inputs()
    m, alpha = counts.user_counts, counts.public_counts
    m_minus = m[1:]
    a = dpcore.end_to_end_dp(m, alpha, epsilon=1, delta=1e-5, C=5, rng=0)
    b = dpcore.end_to_end_dp(m_minus, alpha, epsilon=1, delta=1e-5, C=5, rng=0)
    ints_a = [v for v in reachable_numbers(a) if v.is_integer() and v > 1]
    ints_b = [v for v in reachable_numbers(b) if v.is_integer() and v > 1]
    assert ints_a == ints_b, (ints_a, ints_b)
    n = m.shape[0]
    assert not {n, n - 1, round(0.9 * n), round(0.9 * (n - 1))} & set(ints_a)
    # where they went: the evaluation object (evaluation only, never published)
    _, inside = dpcore.bayesian.end_to_end.prepare_end_to_end(m, alpha, C=5, rng=0).release_with_evaluation(
        epsilon=1, delta=1e-5, rng=0
    )
    assert inside.n_train + inside.n_validation == n


def test_dp_count_releases_hold_the_same_numbers_on_neighbours():
    """Strict BayesianDP and Laplace (the DP count releases): every scalar they hold — σ, sensitivity,
    parameters — is the same on D and on D minus one user; only the noisy arrays differ."""
    users, counts = _bayesian_inputs()
    m, alpha = counts.user_counts, counts.public_counts
    for make in (
        lambda x: dpcore.bayesian_dp(
            x,
            alpha,
            epsilon=1,
            delta=1e-5,
            S=1.0,
            C=5,
            rho=0.5,
            rng=0,
            sensitivity="strict",
            max_items=10,
            max_users=1000,
        ),
        lambda x: dpcore.bayesian.laplace_counts_dp(x, epsilon=1, W=5, rng=0),
    ):
        assert reachable_numbers(make(m)) == reachable_numbers(make(m[1:]))
