"""Bad input gives a TypeError/ValueError that names the parameter, or a CorpusError on upload (issue 15, item 5).

One test per case of the issue (truncated .gz, string sentences, None tokens, tiny ε in BayesianDP, huge
ints, Δ0 = 1e9, None inputs) and per case found beyond it. Each asserts the exception type and the
words of the message that a person needs (the parameter, the rule or the position, the value).
"""

import gzip
import json
import math
import resource
import time

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.special import ndtri

import dpcore
from dpcore import CorpusError, load_uploaded_corpus
from dpcore.text import read_table

# ------------------------------------------------------------------------------------------- fixtures

JSONL = "\n".join(json.dumps({"user": f"u{i}", "text": "hello world. good day"}) for i in range(5)).encode()
PHRASES = [["the", "cat", "sat"], ["on", "the", "mat"]]
USERS = [PHRASES for _ in range(40)]


def upload(data, name="x.jsonl", user="user", text="text"):
    return load_uploaded_corpus(data, name, user_column=user, text_column=text)


@pytest.fixture(scope="module")
def counts():
    recs = [{"user": f"u{i}", "text": "a b c. b c d"} for i in range(20)]
    private = dpcore.corpus_from_records(recs, user_field="user", text_field="text")
    public = dpcore.corpus_from_records([{"user": "p", "text": "a b c d e"}], user_field="user", text_field="text")
    nc = dpcore.text.ngram_counts(private, public, n=1)
    return nc.user_counts, nc.public_counts


DPNE_KW = dict(epsilon=2, delta=1e-6, max_length=3, contribution_limit=5, eta=0.1, rng=0)


# ------------------------------------------------------------------------------------------- upload path


def test_gzip_upload_still_loads():
    c = upload(gzip.compress(JSONL), "x.jsonl.gz")
    assert c.n_users == 5


@pytest.mark.parametrize("cut", [5, 20, -4, -1])
def test_truncated_gzip_upload_is_a_corpus_error_not_eoferror(cut):
    gz = gzip.compress(JSONL)
    with pytest.raises(CorpusError, match=r"the gzip file is truncated .*upload it again"):
        upload(gz[:cut], "x.jsonl.gz")


def test_gzip_that_expands_beyond_the_limit_is_refused():
    bomb = gzip.compress(b"user,text\n" + b"a,b\n" * 100_000)  # 400 kB out of ~1 kB
    with pytest.raises(CorpusError, match=r"expands to more than 0 MB when decompressed"):
        read_table(bomb, "x.csv.gz", max_bytes=50_000)


def test_corrupt_gzip_is_a_corpus_error():
    with pytest.raises(CorpusError, match=r"looks gzip-compressed but could not be decompressed"):
        upload(b"\x1f\x8b" + b"x" * 40, "x.jsonl.gz")


@pytest.mark.parametrize(
    "data, name, message",
    [
        (b"", "x.jsonl", r"the file is empty"),
        ("user,text\nü,é\n".encode("latin-1"), "x.csv", r"not UTF-8 text \(byte 10 is 0xfc\)"),
        ("user,text\na,b\nc,d\n".encode("utf-16"), "x.csv", r"not UTF-8 text: it is UTF-16"),
        (
            json.dumps([{"user": "a", "text": "b"}, {"user": "c", "text": "d"}]).encode(),
            "x.json",
            r"one JSON array, not JSON Lines",
        ),
        (json.dumps([{"user": "a", "text": "b"}], indent=2).encode(), "x.jsonl", r"one JSON array, not JSON Lines"),
        (b"text\nhello\nworld\n", "x.csv", r"only one column \('text'\).*needs a user column and a text column"),
        (b"user;text\na;hello\nb;world\n", "x.csv", r"only one column: its header 'user;text' contains ';'"),
        (b'user,text\na,"hello\nb,world\n', "x.csv", r"could not be parsed .*every quote"),
        (b"user,text\na,hello\na,world\n", "x.csv", r"1 user\(s\) but at least 2 are needed"),
        (
            b'{"user": "a", "text": {"x": 1}}\n{"user": "b", "text": "hi"}\n',
            "x.jsonl",
            r"row 1: the text column 'text' holds a JSON object, not text",
        ),
        (b'{"user": "a", "text": ["hi"]}\n', "x.jsonl", r"row 1: the text column 'text' holds a JSON array"),
        (b'{"a":' * 50_000 + b"\n", "x.jsonl", r"line 1 nests JSON too deeply"),
        (b"PK\x03\x04" + b"\x00" * 30, "x.csv", r"ZIP archive .*export the sheet as CSV"),
        (b"BZh91AY&SY", "x.csv", r"bzip2-compressed: only gzip"),
    ],
)
def test_upload_problems_are_corpus_errors_with_a_clear_message(data, name, message):
    with pytest.raises(CorpusError, match=message):
        upload(data, name)


def test_csv_with_quoted_newlines_is_read_correctly():
    """A quoted line break is valid CSV: it stays inside the cell (and ends a sentence there)."""
    c = upload(b'user,text\na,"hello there\nworld"\nb,"x\ny"\n', "x.csv")
    assert c.user_ids == ("a", "b")
    assert c.users[0][0].sentences == (("hello", "there"), ("world",))


def test_csv_cell_longer_than_the_csv_module_default_is_read():
    c = upload(b'user,text\na,"' + b"word " * 60_000 + b'"\nb,short\n', "x.csv")
    assert c.n_tokens == 60_001


def test_rows_without_a_user_nan_or_blank_are_skipped():
    c = upload(
        b'{"user": NaN, "text": "hi"}\n{"user": "", "text": "x"}\n{"user": 2, "text": "a"}\n{"user": 3, "text": "b"}\n'
    )
    assert c.user_ids == ("2", "3")


@pytest.mark.parametrize(
    "kwargs, exc, message",
    [
        ({"data": None}, CorpusError, r"data must be bytes, got NoneType"),
        ({"filename": None}, TypeError, r"filename must be a string, got filename=None"),
        ({"user": None}, TypeError, r"user_column must be a column name \(a string\), got user_column=None"),
        ({"text": 3}, TypeError, r"text_column must be a column name \(a string\), got text_column=3"),
    ],
)
def test_upload_arguments_of_the_wrong_kind(kwargs, exc, message):
    args = {"data": JSONL, "filename": "x.jsonl", "user": "user", "text": "text"}
    args.update(kwargs)
    with pytest.raises(exc, match=message):
        load_uploaded_corpus(args["data"], args["filename"], user_column=args["user"], text_column=args["text"])


# ------------------------------------------------------------------------------------------- corpus helpers


@pytest.mark.parametrize(
    "records, exc, message",
    [
        (None, TypeError, r"records must be an iterable of rows .*got records=None"),
        ("abc", TypeError, r"records must be an iterable of rows .*got records='abc'"),
        ({"user": "a"}, TypeError, r"records must be an iterable of rows"),
        (["abc"], CorpusError, r"row 1 is a str, not a record with named columns"),
        ([None], CorpusError, r"row 1 is a NoneType, not a record"),
    ],
)
def test_corpus_from_records_bad_records(records, exc, message):
    with pytest.raises(exc, match=message):
        dpcore.corpus_from_records(records, user_field="user", text_field="text")


def test_corpus_from_records_field_names_must_be_strings():
    with pytest.raises(TypeError, match=r"user_field must be a column name \(a string\), got user_field=None"):
        dpcore.corpus_from_records([{"user": "a", "text": "b"}], user_field=None, text_field="text")


@pytest.mark.parametrize("text", [None, 3, ["a b"]])
def test_tokenize_wants_a_string(text):
    with pytest.raises(TypeError, match=r"text must be a string, got text="):
        dpcore.tokenize(text)


# ------------------------------------------------------------------------------------------- users / tokens


@pytest.mark.parametrize(
    "users, message",
    [
        (None, r"users must be a sequence of users .*got users=None \(NoneType\)"),
        (3, r"users must be a sequence of users .*got users=3 \(int\)"),
        ("the cat", r"users must be a sequence of users .*got users='the cat' \(str\)"),
        ({"u1": [["a"]]}, r"got a mapping \(dict\); pass list\(users.values\(\)\)"),
        (
            ["hello world"],
            r"users\[0\] must be a list of sentences, got the string 'hello world', which would be split "
            r"into characters",
        ),
        (
            [["hello world"]],
            r"users\[0\]\[0\] must be a list of string tokens, got the string 'hello world', which "
            r"would be split into characters",
        ),
        ([[["a"]], [["b"], "c d"]], r"users\[1\]\[1\] must be a list of string tokens, got the string 'c d'"),
        ([None], r"users\[0\] must be a list of sentences, got None \(NoneType\)"),
        ([[["a"], None]], r"users\[0\]\[1\] must be a list of string tokens, got None"),
        ([[["a", None]]], r"tokens must be strings, got users\[0\]\[0\]\[1\]=None \(NoneType\)"),
        ([[["a"]], [["b", "c"], ["d", 4]]], r"tokens must be strings, got users\[1\]\[1\]\[1\]=4 \(int\)"),
        ([[["a", ["b"]]]], r"tokens must be strings, got users\[0\]\[0\]\[1\]=\['b'\] \(list\)"),
    ],
)
def test_encode_users_names_what_is_wrong_and_where(users, message):
    with pytest.raises(TypeError, match=message):
        dpcore.text.encode_users(users)


@pytest.mark.parametrize("fn", [dpcore.dpne_extract, dpcore.dpsu_all, dpcore.dpsu_even, dpcore.dpsu_single])
def test_mechanisms_on_string_sentences_none_tokens_and_none(fn):
    kw = {k: v for k, v in DPNE_KW.items() if fn is dpcore.dpne_extract or k != "eta"}
    with pytest.raises(TypeError, match=r"users\[0\]\[0\] must be a list of string tokens, got the string"):
        fn([["hello world"]] * 50, **kw)
    with pytest.raises(TypeError, match=r"tokens must be strings, got users\[3\]\[0\]\[1\]=None"):
        fn([[["a", "b"]]] * 3 + [[["a", None]]], **kw)
    with pytest.raises(TypeError, match=r"users must be a sequence of users .*got users=None"):
        fn(None, **kw)


def test_build_ngram_index_names_its_own_parameter():
    with pytest.raises(TypeError, match=r"corpus must be a sequence of users .*got corpus=None"):
        dpcore.build_ngram_index(None, 2)
    with pytest.raises(TypeError, match=r"corpus\[0\]\[0\] must be a list of string tokens"):
        dpcore.build_ngram_index([["a b"]], 2)


def test_valid_inputs_still_encode():
    tc = dpcore.text.encode_users([(("a", "b"),), [], [[]], np.array([["c", "a"]])])
    assert tc.vocabulary.tolist() == ["a", "b", "c"] and tc.n_users == 4


# ------------------------------------------------------------------------------------------- None everywhere


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: dpcore.mechanisms.sequential_composition(None), r"epsilons must be a sequence, got epsilons=None"),
        (lambda: dpcore.mechanisms.parallel_composition([1.0], 0.5), r"deltas must be a sequence, got deltas=0.5"),
        (lambda: dpcore.mechanisms.gaussian_composition_sigma(None), r"sigmas must be a sequence, got sigmas=None"),
        (lambda: dpcore.dpne.count_valid_kgrams(None, [("a",)]), r"released must be a sequence, got released=None"),
        (lambda: dpcore.dpne.count_valid_kgrams([("a",)], None), r"one_grams must be a sequence, got one_grams=None"),
        (
            lambda: dpcore.dpne.kanonymity_coverage(dpcore.build_ngram_index([[["a"]]], 1), {}, ks=None),
            r"ks must be a sequence, got ks=None",
        ),
        (
            lambda: dpcore.dpne.kanonymity_coverage(dpcore.build_ngram_index([[["a"]]], 1), None),
            r"released must be a DpneRelease, a DpsuBaselineRelease or a mapping",
        ),
        (
            lambda: dpcore.laplace_mechanism(None, epsilon=1, sensitivity=1, rng=0),
            r"value must be a number or an array of numbers, got value=None",
        ),
        (lambda: dpcore.laplace_mechanism("a", epsilon=1, sensitivity=1, rng=0), r"value must be a number"),
        (
            lambda: dpcore.exponential_mechanism(None, epsilon=1, sensitivity=1, rng=0),
            r"utilities must be a number or an array of numbers, got utilities=None",
        ),
        (
            lambda: dpcore.mechanisms.laplace_pdf(None, loc=0, scale=1),
            r"y must be a number or an array of numbers, got y=None",
        ),
        (lambda: dpcore.mechanisms.laplace_pdf(0.0, loc=None, scale=1), r"loc must be a real number, got loc=None"),
        (
            lambda: dpcore.metrics.kl_divergence(None, [0.5, 0.5]),
            r"p must be a number or an array of numbers, got p=None",
        ),
        (
            lambda: dpcore.metrics.l1_distance([0.5, 0.5], None),
            r"b must be a number or an array of numbers, got b=None",
        ),
        (
            lambda: dpcore.metrics.rmse([0.5, 0.5], [0.5]),
            r"a and b must have the same shape, got a.shape=\(2,\) and b.shape=\(1,\)",
        ),
        (lambda: dpcore.metrics.kendall_tau_distance([0.5, np.nan], [0.5, 0.4]), r"a and b must be finite"),
        (
            lambda: dpcore.topicdp_mechanism(None, epsilon=1, delta=1e-5, sensitivity=1, rng=0),
            r"matrix must be a number or an array of numbers, got matrix=None",
        ),
        (
            lambda: dpcore.topicdp.mvg_mechanism(
                np.full((2, 3), 1 / 3), epsilon=1, delta=1e-5, sensitivity=None, rng=0
            ),
            r"sensitivity must be a real number, got sensitivity=None",
        ),
        (lambda: dpcore.fit_topic_model(None), r"data must be a DocumentTermData .*got data=NoneType"),
        (
            lambda: dpcore.bayesian_dp(None, [1, 1], epsilon=1, delta=1e-5, S=1, C=1, rho=1, rng=0),
            r"user_counts must be a scipy.sparse matrix .*NoneType",
        ),
        (lambda: dpcore.text.ngram_counts(None, None), r"private must be a dpcore.Corpus, got private=NoneType"),
        (
            lambda: dpcore.bayesian.k_anonymity_release(sp.csr_matrix(np.ones((2, 2))), None, K=2),
            r"public_counts must be a number or an array of numbers, got public_counts=None",
        ),
        (
            lambda: dpcore.bayesian.laplace_public_dp(sp.csr_matrix(np.ones((2, 2))), None, epsilon=1, W=2, rng=0),
            r"public_counts must be a number or an array of numbers, got public_counts=None",
        ),
        (
            lambda: dpcore.bayesian_dp(
                sp.csr_matrix(np.ones((2, 2))), [10**400, 1], epsilon=1, delta=1e-5, S=1, C=5, rho=0.5, rng=0
            ),
            r"public_counts must be finite, got an integer too large",
        ),
        (
            lambda: dpcore.end_to_end_dp(
                sp.csr_matrix(np.ones((3, 2))), [1, 1], epsilon=1, delta=1e-5, C=1, rng=0, S_grid=None
            ),
            r"S_grid must be a sequence, got S_grid=None",
        ),
    ],
)
def test_none_and_wrong_kinds_name_the_parameter(call, message):
    with pytest.raises((TypeError, ValueError), match=message) as info:
        call()
    assert "object is not iterable" not in str(info.value)


# ------------------------------------------------------------------------------------------- huge ints


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (
            lambda: dpcore.dpne_extract(USERS, **{**DPNE_KW, "epsilon": 10**400}),
            ValueError,
            r"epsilon must be finite, got epsilon=<an integer with 401 digits> \(too large for a float\)",
        ),
        (
            lambda: dpcore.gaussian_sigma(epsilon=1, delta=1e-5, sensitivity=10**400),
            ValueError,
            r"sensitivity must be finite, got sensitivity=<an",
        ),
        (
            lambda: dpcore.laplace_mechanism([10**400, 1], epsilon=1, sensitivity=1, rng=0),
            ValueError,
            r"value must be finite, got an integer too large for a float in value",
        ),
        (
            lambda: dpcore.exponential_mechanism([10**400, 1], epsilon=1, sensitivity=1, rng=0),
            ValueError,
            r"utilities must be finite, got an integer too large",
        ),
        (
            lambda: dpcore.validation.check_int("n", 10**400, high=3),
            ValueError,
            r"n must be <= 3, got n=<an integer with 401 digits>",
        ),
        (
            lambda: dpcore.bayesian.laplace_counts_dp(
                sp.csr_matrix(np.array([[10**12, 1], [2, 3]])), epsilon=1, W=5, rng=0
            ),
            ValueError,
            r"user_counts: the 1 user\(s\) above W=5 hold 1e\+12 counts in total",
        ),
    ],
)
def test_huge_ints_give_value_errors_not_overflow(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_huge_ints_that_are_meaningful_still_work(counts):
    m, alpha = counts
    for rel in (
        dpcore.bayesian_dp(m, alpha, epsilon=1, delta=1e-5, S=1.0, C=10**30, rho=0.5, rng=10**30),
        dpcore.bayesian_dp(m, alpha, epsilon=1, delta=1e-5, S=1.0, C=2**63, rho=0.5, rng=2**64),
    ):
        assert np.all(np.isfinite(rel.theta)) and rel.theta.sum() == pytest.approx(1.0)
    assert dpcore.bayesian.k_anonymity_release(m, alpha, K=10**30).kept_items == 0
    rel = dpcore.dpne_extract(USERS * 10, **{**DPNE_KW, "epsilon": 20, "contribution_limit": 10**30, "rng": 10**30})
    assert ("the", "cat", "sat") in rel.ngrams[3] and math.isfinite(rel.thresholds[1])


# ------------------------------------------------------------------------------------------- Δ0 without memory


def test_contribution_limit_1e9_uses_no_memory_proportional_to_it():
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.process_time()
    sigma, rho = dpcore.dpne.dpsu_threshold(epsilon=1, delta=1e-5, contribution_limit=10**9)
    rel = dpcore.dpne_extract(USERS, **{**DPNE_KW, "contribution_limit": 10**9})
    base = dpcore.dpsu_even(USERS, epsilon=2, delta=1e-6, max_length=3, contribution_limit=10**9, rng=0)
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 200, grown_mb  # an O(Δ0) float array would be 7.5 GB
    assert time.process_time() - t0 < 10
    assert math.isfinite(rho) and rho > dpcore.dpne.dpsu_threshold(epsilon=1, delta=1e-5, contribution_limit=10**6)[1]
    assert rel.thresholds[1] > 0 and base.thresholds[1] > 0


def exact_rho(sigma, delta, limit):
    t = np.arange(1, limit + 1, dtype=float)
    return float(np.max(1 / np.sqrt(t) - sigma * ndtri(-np.expm1(np.log1p(-delta / 2) / t))))


@pytest.mark.parametrize(
    "sigma, delta", [(0.05, 1e-6), (1.3328, math.exp(-10)), (3.8841, 1e-5), (12.0, 1e-9), (0.5, 0.3)]
)
@pytest.mark.parametrize("limit", [65_536, 65_537, 150_000, 1_000_000])
def test_rho_beyond_the_exact_range_is_a_tight_upper_bound(sigma, delta, limit):
    """Brute force over every t: ρ is never below the exact max (privacy) and at most 1e-4·σ + 1e-6 above."""
    fast, exact = (
        dpcore.dpne.dpsu_threshold_for_sigma(sigma=sigma, delta=delta, contribution_limit=limit),
        exact_rho(sigma, delta, limit),
    )
    assert exact <= fast <= exact + 1e-4 * sigma + 1e-6


# ------------------------------------------------------------------------------------------- tiny ε, overflow


def test_bayesian_theta_is_a_probability_vector_or_a_named_error_for_every_tiny_epsilon(counts):
    """Before: θ was NaN for ε ≤ 1e-308 (classic σ = ∞, h − max h = ∞ − ∞). Now every ε gives a
    probability vector, or (classic, ε < 2.7e-308: σ itself overflows) a ValueError naming ε."""
    m, alpha = counts
    broke = []
    for cal in ("classic", "analytic"):
        for eps in [1e-5, 1e-50, 1e-200, 1e-300, 1e-305, 1e-307, 3e-308, 2e-308, 1e-308, 1e-310, 1e-320, 5e-324]:
            try:
                rel = dpcore.bayesian_dp(m, alpha, epsilon=eps, delta=1e-5, S=1.0, C=5, rho=0.5, rng=1, calibration=cal)
            except ValueError as exc:
                assert f"epsilon={eps!r}" in str(exc) and "use a larger epsilon" in str(exc)
                broke.append((cal, eps))
                continue
            assert np.all(np.isfinite(rel.theta)) and np.all(rel.theta >= 0)
            assert rel.theta.sum() == pytest.approx(1.0, abs=1e-12)
    assert all(cal == "classic" and eps < 2.7e-308 for cal, eps in broke), broke
    assert ("classic", 5e-324) in broke


def test_softmax_of_a_huge_variance_draw_is_a_probability_vector():
    from dpcore.bayesian import softmax
    from dpcore.bayesian.statistics import _softmax_of_draw

    mu = np.array([0.3, -0.1, 0.2, 0.0])
    z = np.array([[0.5, 2.0, -1.0, 1.9], [-3.0, -2.0, -1.0, -1.5]])
    th = _softmax_of_draw(mu, 1e308, z)  # μ + σZ overflows to ±∞
    assert np.all(np.isfinite(th)) and np.allclose(th.sum(axis=1), 1)
    assert th[0, 1] == 1.0 and th[1, 2] == 1.0  # the limit: all mass on argmax Z
    # in the normal range it is the plain softmax of h
    assert np.allclose(_softmax_of_draw(mu, 0.7, z), softmax(mu + 0.7 * z), rtol=0, atol=1e-15)
    # softmax itself: +∞ entries share the mass, −∞ get none
    assert np.allclose(softmax(np.array([np.inf, 1.0, np.inf, -np.inf])), [0.5, 0, 0.5, 0])


def test_sample_theta_with_huge_sigma_stays_finite(counts):
    m, alpha = counts
    prep = dpcore.bayesian.release.prepare_bayesian(m, alpha, S=1.0, C=5, rho=0.5)
    th = prep.sample_theta(epsilon=1e-307, delta=1e-5, rng=0, repetitions=20)
    assert np.all(np.isfinite(th)) and np.allclose(th.sum(axis=1), 1)
    # the same draws as sample_h
    h = prep.sample_h(epsilon=0.5, delta=1e-5, rng=3, repetitions=4)
    assert np.allclose(prep.sample_theta(epsilon=0.5, delta=1e-5, rng=3, repetitions=4), dpcore.bayesian.softmax(h))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: dpcore.gaussian_sigma(epsilon=1e-310, delta=1e-5), r"noise scale σ is infinite .*epsilon=1e-310"),
        (
            lambda: dpcore.gaussian_sigma(epsilon=1, delta=1e-5, sensitivity=1e308),
            r"noise scale σ is infinite .*sensitivity=1e\+308",
        ),
        (
            lambda: dpcore.gaussian_sigma(epsilon=1e300, delta=1e-5, method="analytic"),
            r"epsilon must be <= 1e\+06, got epsilon=1e\+300",
        ),
        (
            lambda: dpcore.mechanisms.laplace_scale(epsilon=1e-320, sensitivity=1),
            r"noise scale b is infinite .*epsilon=1e-320",
        ),
        (
            lambda: dpcore.bayesian.laplace_counts_dp(sp.csr_matrix(np.ones((3, 2))), epsilon=1e-320, W=5, rng=0),
            r"noise scale b is infinite",
        ),
        (
            lambda: dpcore.topicdp.mvg_sigma(epsilon=1e-300, delta=1e-5, m=10, n=10, gamma_f=1, s2=1),
            r"noise scale σ is infinite",
        ),
        (
            lambda: dpcore.topicdp.mvg_sigma(epsilon=1, delta=1e-5, m=10, n=10, gamma_f=1, s2=1e300),
            r"noise scale σ is infinite",
        ),
        (lambda: dpcore.topicdp.sensitivity_sampler_size(gamma=1e-300), r"gamma must be >= 1e-12, got gamma=1e-300"),
        (
            lambda: dpcore.dpne_extract(USERS, **{**DPNE_KW, "noise_decay": 1e-300, "max_length": 30}),
            r"noise_decay=1e-300 with max_length=30 makes some σ_k",
        ),
        (
            lambda: dpcore.dpne_extract(USERS, **{**DPNE_KW, "noise_decay": 1e300, "max_length": 30}),
            r"noise_decay=1e\+300 with max_length=30",
        ),
        (
            lambda: dpcore.dpne_extract(USERS, **{**DPNE_KW, "policy": "policy", "policy_cutoff": 1e308}),
            r"policy_cutoff must be <= 1000, got policy_cutoff=1e\+308",
        ),
        (lambda: dpcore.dpne_extract(USERS, **{**DPNE_KW, "epsilon": 1e300}), r"epsilon must be <= 1e\+06"),
    ],
)
def test_overflowing_noise_scales_are_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_mvg_sigma_stable_form_matches_the_spec_check_value():
    assert dpcore.topicdp.mvg_sigma(epsilon=1, delta=1e-5, m=10, n=10, gamma_f=1, s2=1) == pytest.approx(
        404.8, abs=0.05
    )
    # tiny ε no longer divides by zero: σ grows like 1/ε
    a = dpcore.topicdp.mvg_sigma(epsilon=1e-12, delta=1e-5, m=10, n=10, gamma_f=1, s2=1)
    b = dpcore.topicdp.mvg_sigma(epsilon=1e-13, delta=1e-5, m=10, n=10, gamma_f=1, s2=1)
    assert b / a == pytest.approx(10.0, rel=1e-6)


# ------------------------------------------------------------------------------------------- edges that work


def test_edge_inputs_that_are_valid_still_run(counts):
    kw = dict(epsilon=2, delta=1e-6, max_length=3, contribution_limit=5, eta=0.1, rng=0)
    assert dpcore.dpne_extract([], **kw).total == 0  # no users
    assert dpcore.dpne_extract([[]], **kw).total == 0  # one user without text
    assert dpcore.dpne_extract([[["a"]]] * 50, **kw).ngrams[2] == set()  # a one-word vocabulary
    m, alpha = counts
    rel = dpcore.bayesian_dp(m[:1], alpha, epsilon=1, delta=1e-5, S=1.0, C=5, rho=0.5, rng=0)  # one user
    assert rel.theta.sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    "value, exc, message",
    [
        (0, ValueError, r"epsilon must be > 0, got epsilon=0"),
        (float("nan"), ValueError, r"epsilon must be a number, got epsilon=nan"),
        (float("inf"), ValueError, r"epsilon must be finite, got epsilon=inf"),
        (True, TypeError, r"epsilon must be a real number, got epsilon=True \(bool\)"),
        ("1", TypeError, r"epsilon must be a real number, got epsilon='1' \(str\)"),
    ],
)
def test_epsilon_edge_values_across_mechanisms(value, exc, message, counts):
    m, alpha = counts
    for call in (
        lambda e: dpcore.dpne_extract(USERS, **{**DPNE_KW, "epsilon": e}),
        lambda e: dpcore.bayesian_dp(m, alpha, epsilon=e, delta=1e-5, S=1, C=5, rho=0.5, rng=0),
        lambda e: dpcore.bayesian.laplace_counts_dp(m, epsilon=e, W=5, rng=0),
        lambda e: dpcore.topicdp.matrix_laplace_mechanism(np.full((2, 3), 1 / 3), epsilon=e, rng=0),
    ):
        with pytest.raises(exc, match=message):
            call(value)


@pytest.mark.parametrize(
    "delta, message",
    [
        (1, r"delta must be < 1, got delta=1"),
        (1.5, r"delta must be < 1, got delta=1.5"),
        (0, r"delta must be > 0, got delta=0"),
    ],
)
def test_delta_at_or_above_one(delta, message, counts):
    m, alpha = counts
    with pytest.raises(ValueError, match=message):
        dpcore.dpne_extract(USERS, **{**DPNE_KW, "delta": delta})
    with pytest.raises(ValueError, match=message):
        dpcore.bayesian_dp(m, alpha, epsilon=1, delta=delta, S=1, C=5, rho=0.5, rng=0)


# ------------------------------------------------------------------------------------------- issue 21 item 8
# Each input below escaped validation (a TypeError about another parameter, ZeroDivisionError, NaN matrices,
# numpy's "Probabilities contain NaN", OverflowError); each is now refused with a message naming its parameter.


def test_dpne_eta_none_names_eta_not_policy_cutoff():
    # None is a wrong *kind* of value: TypeError, as for every other parameter (dpcore.validation's rule)
    with pytest.raises(TypeError, match=r"eta must be a real number, got eta=None \(NoneType\)"):
        dpcore.dpne_extract(USERS, **{**DPNE_KW, "eta": None})
    with pytest.raises(TypeError, match=r"eta must be a real number"):
        dpcore.dpne.dpne_with_evaluation(USERS, **{**DPNE_KW, "eta": None})


def test_analytic_sigma_with_a_subnormal_sensitivity_names_sensitivity():
    with pytest.raises(
        ValueError,
        match=r"sensitivity must be at least the smallest normal float .*"
        r"got sensitivity=5e-324",
    ):
        dpcore.gaussian_sigma(epsilon=1, delta=1e-5, sensitivity=5e-324, method="analytic")
    # the smallest normal sensitivity still calibrates, and σ scales with it
    tiny = 2.3e-308
    assert dpcore.gaussian_sigma(epsilon=1, delta=1e-5, sensitivity=tiny, method="analytic") / tiny == pytest.approx(
        3.730632, rel=1e-6
    )


def test_topicdp_sigma_with_epsilon_5e_324_names_epsilon():
    with pytest.raises(
        ValueError,
        match=r"epsilon must be large enough that ε′ = ε/\(m·n\) is not 0 .*"
        r"epsilon=5e-324",
    ):
        dpcore.topicdp.topicdp_sigma(epsilon=5e-324, delta=1e-5, sensitivity=1.0, m=10, n=10)


def test_end_to_end_dp_with_epsilon_5e_324_names_epsilon(counts):
    m, alpha = counts
    with pytest.raises(ValueError, match=r"epsilon must be large enough to split .*epsilon=5e-324"):
        dpcore.end_to_end_dp(m, alpha, epsilon=5e-324, delta=1e-5, C=1, rng=0)


def test_topicdp_mechanism_with_epsilon_1e_320_names_epsilon_not_nan():
    w = np.full((2, 3), 1 / 3)
    with pytest.raises(ValueError, match=r"noise scale σ is infinite .*epsilon=1e-320"):
        dpcore.topicdp.topicdp_mechanism(w, epsilon=1e-320, delta=1e-5, sensitivity=0.1, rng=0)
    # a finite σ too large to draw (σ·Z and the row sums overflow) is refused too, never NaN rows
    with pytest.raises(ValueError, match=r"noise scale σ = .* is too large to draw .*epsilon=1e-300"):
        dpcore.topicdp.topicdp_mechanism(w, epsilon=1e-300, delta=1e-5, sensitivity=0.1, rng=0)


def test_matrix_laplace_with_epsilon_1e_320_names_epsilon_not_nan():
    w = np.full((2, 3), 1 / 3)
    with pytest.raises(ValueError, match=r"noise scale b is infinite .*epsilon=1e-320"):
        dpcore.topicdp.matrix_laplace_mechanism(w, epsilon=1e-320, rng=0)
    rel = dpcore.topicdp.matrix_laplace_mechanism(w, epsilon=1e-290, rng=0)  # b = 4e290: drawable
    assert np.all(np.isfinite(rel.matrix)) and np.allclose(rel.matrix.sum(axis=1), 1)


def test_exponential_mechanism_with_epsilon_1e308_names_epsilon():
    with pytest.raises(ValueError, match=r"epsilon must be <= 1e\+06, got epsilon=1e\+308"):
        dpcore.exponential_mechanism([1.0, 2.0, 3.0], epsilon=1e308, sensitivity=1.0, rng=0)


def test_exponential_probabilities_do_not_overflow_inside_the_allowed_range():
    # ε/(2Δu) = 5e311 overflows; the shifted form gives the limit: all mass on the best candidate
    p = dpcore.mechanisms.exponential_mechanism_probabilities([1.0, 3.0, 2.0], epsilon=1e6, sensitivity=1e-306)
    assert p.tolist() == [0.0, 1.0, 0.0]
    u = np.array([0.3, -1.2, 2.5, 0.0])
    expect = np.exp(0.7 * u / 2) / np.exp(0.7 * u / 2).sum()  # the textbook formula where it is finite
    assert np.allclose(
        dpcore.mechanisms.exponential_mechanism_probabilities(u, epsilon=0.7, sensitivity=1.0),
        expect,
        rtol=1e-14,
        atol=0,
    )


def test_dpsu_threshold_with_contribution_limit_10_400_names_it():
    with pytest.raises(ValueError, match=r"contribution_limit must be at most 1e300 .*<an integer with 401 digits>"):
        dpcore.dpne.dpsu_threshold(epsilon=1.0, delta=1e-5, contribution_limit=10**400)
    with pytest.raises(ValueError, match=r"contribution_limit must be at most 1e300"):
        dpcore.dpne_extract(USERS, **{**DPNE_KW, "contribution_limit": 10**400})
    assert math.isfinite(
        dpcore.dpne.dpsu_threshold(epsilon=1.0, delta=1e-5, contribution_limit=10**300)[1]
    )  # the largest accepted


def test_strict_sensitivity_with_huge_caps_names_max_users():
    with pytest.raises(ValueError, match=r"max_users must be at most 1e12 .*<an integer with 301 digits>"):
        dpcore.bayesian.strict_sensitivity(S=1e-3, C=10**300, max_items=5, max_users=10**300)
    # a huge C with a sensible cap is computed exactly (the product C·N_max stays an integer inside the log)
    g = dpcore.bayesian.strict_sensitivity(S=1e-3, C=10**300, max_items=4, max_users=10**12)
    assert g == pytest.approx(2 * (300 * math.log(10) + 1e-303 * 312 * math.log(10)), rel=1e-12)


def test_mvg_sigma_with_gamma_f_1e308_names_gamma_f():
    with pytest.raises(ValueError, match=r"gamma_f must be <= 1e\+150, got gamma_f=1e\+308"):
        dpcore.topicdp.mvg_sigma(epsilon=1, delta=1e-5, m=2, n=2, gamma_f=1e308, s2=1.0)
