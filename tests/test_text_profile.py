"""dpcore.text.profile: distinct k-grams per user, k-grams used by ≥ K users, activity (issue 20 item 4)."""

from collections import Counter

import numpy as np
import pytest

import dpcore
from dpcore import corpus_from_records
from dpcore.text import text_profile


def _corpus(users: list[list[str]], name="worked"):
    """One record (one document) per user; each string is split into sentences by dpcore.tokenize."""
    return corpus_from_records(
        [{"user": f"u{i}", "text": " ".join(texts)} for i, texts in enumerate(users)],
        user_field="user",
        text_field="text",
        name=name,
    )


WORKED = [["a b c.", "a b."], ["a b c d."], ["b c."]]


def test_worked_example():
    p = text_profile(_corpus(WORKED), max_k=4, ks=(2, 3))
    # distinct k-grams per user: u0 {a,b,c} {ab,bc} {abc}; u1 {a,b,c,d} {ab,bc,cd} {abc,bcd} {abcd}; u2 {b,c} {bc}
    # (u0's "c a" would cross a sentence: not a bigram; u0 writes "a b" twice: one distinct bigram)
    assert p.distinct_mean == pytest.approx((3.0, 2.0, 1.0, 1 / 3))
    assert p.distinct_median == (3.0, 2.0, 1.0, 0.0)
    # used by ≥ 2 users: {a, b, c}, {ab, bc}, {abc}, {}; by ≥ 3 users: {b, c}, {bc}, {}, {}
    assert p.shared == {2: (3, 2, 1, 0), 3: (2, 1, 0, 0)}
    assert p.shared_at(2, 3) == 1 and p.shared_at(1, 2) == 3
    assert p.sentences.tolist() == [2, 1, 1] and p.tokens.tolist() == [5, 4, 2]
    assert p.top_share(1) == pytest.approx(2 / 4)
    act = p.activity()
    assert act["mean"] == pytest.approx(4 / 3) and act["q50"] == 1.0 and act["max"] == 2 and act["top10_share"] == 1.0
    assert p.n_users == 3 and p.lengths == (1, 2, 3, 4) and p.thresholds == (2, 3) and p.name == "worked"
    assert p.rows()[1] == {
        "k": 2,
        "distinct per user (mean)": 2.0,
        "distinct per user (median)": 2.0,
        "used by ≥ 2 users": 2,
        "used by ≥ 3 users": 1,
    }


def test_kept_shares_of_the_worked_example():
    p = text_profile(_corpus(WORKED), max_k=4, ks=(2,))
    # distinct words per user 3, 4, 2: a cap of 2 keeps 2 + 2 + 2 of 9; tokens 5, 4, 2: a cap of 3 keeps 3 + 3 + 2 of 11
    assert p.kept_share(1, 2) == pytest.approx(6 / 9) and p.kept_share(1, 10) == 1.0
    assert p.kept_tokens(3) == pytest.approx(8 / 11) and p.kept_tokens(100) == 1.0
    assert [p.distinct[k].tolist() for k in (1, 2, 3, 4)] == [[3, 4, 2], [2, 3, 1], [1, 2, 0], [0, 1, 0]]
    with pytest.raises(ValueError, match="cap must be"):
        p.kept_share(1, 0)


def _chain_row(k, **kw):
    return {
        "k": k,
        "popular": 12,
        "valid": 0.25,
        "released": 0.5,
        "threshold_dpne": 6.5,
        "threshold_single": 7.25,
        "weight_dpne": 9.5,
        "weight_single": 0.125,
        "gain": 40.0,
        **kw,
    }


def test_reason_quotes_the_chain_and_the_profile():
    p = text_profile(_corpus(WORKED), max_k=4, ks=(2,))
    assert (
        dpcore.text.reason_length({1: 0, 2: 0, 3: 0}, p, K=2) == 3
    )  # 4 not reached: the longest below, with a popular k-gram
    assert dpcore.text.reason_length({1: 0, 2: 0, 3: 0, 4: 0}, p, K=2) == 3  # no 4-gram is used by 2 users
    assert dpcore.text.reason_length({1: 0}, p, K=2) is None
    text = dpcore.text.dpne_vs_dpsu_reason([_chain_row(2), _chain_row(3)], p, K=2, contribution_limit=1)
    assert text.startswith("12 3-grams are used by ≥ 2 users. A user holds on average 1 distinct 3-grams (median 1)")
    assert f"({p.kept_share(3, 1):.0%} of all (user, 3-gram) pairs)" in text
    assert "median weight of 0.12 against its threshold 7.25" in text
    assert "(25% of the popular ones are such candidates)" in text and "40× more weight" in text
    assert "median weight is 9.5 against DPNE's threshold ρ_3 = 6.5; it releases 50% of the popular 3-grams" in text
    assert "nothing to compare" in dpcore.text.dpne_vs_dpsu_reason([_chain_row(1)], p, K=2, contribution_limit=1)
    with pytest.raises(ValueError, match="k must be a length of the chain"):
        dpcore.text.dpne_vs_dpsu_reason([_chain_row(2)], p, K=2, contribution_limit=1, k=3)


def test_reason_on_the_real_chat_at_table_4s_epsilon():
    """On the chat's 920 people at ε = 4: DPSU-single keeps a few % of the people's distinct 4-grams and its popular
    4-grams stay far below its threshold; pruning raises their weight many-fold (issue 20: why DPNE finds 4-grams)."""
    index = dpcore.build_ngram_index(dpcore.text.encode_corpus(dpcore.load_real_corpus("chat", which="private")), 6)
    rel = dpcore.dpne_extract(index, epsilon=4.0, delta=1e-6, max_length=6, contribution_limit=50, eta=0.01, rng=0)
    p = text_profile(index, max_k=6, ks=(10,))
    k = dpcore.text.reason_length(rel.thresholds, p, K=10)
    row = dpcore.dpne.pruning_chain(index, rel, K=10, lengths=(k,)).rows[0]
    assert k == 4 and p.kept_share(4, 50) < 0.1 and row["weight_single"] < row["threshold_single"] / 10
    assert row["gain"] > 10 and row["weight_dpne"] > row["threshold_dpne"]
    assert f"{row['popular']:,} 4-grams are used by ≥ 10 users" in dpcore.text.dpne_vs_dpsu_reason(
        [row], p, K=10, contribution_limit=50
    )


def _brute(users_sentences, max_k, ks):
    """Literal recomputation with Python sets, user by user."""
    per_user = {k: [] for k in range(1, max_k + 1)}
    users_of = {k: Counter() for k in range(1, max_k + 1)}
    for sents in users_sentences:
        for k in range(1, max_k + 1):
            grams = {tuple(s[i : i + k]) for s in sents for i in range(len(s) - k + 1)}
            per_user[k].append(len(grams))
            users_of[k].update(grams)
    mean = tuple(float(np.mean(per_user[k])) for k in per_user)
    median = tuple(float(np.median(per_user[k])) for k in per_user)
    shared = {K: tuple(sum(v >= K for v in users_of[k].values()) for k in per_user) for K in ks}
    sentences = [len(s) for s in users_sentences]
    tokens = [sum(len(x) for x in s) for s in users_sentences]
    return mean, median, shared, sentences, tokens


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_brute_force_agrees(seed):
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(12)]
    records = []
    for u in range(60):
        for _ in range(int(rng.integers(1, 4))):  # documents
            sents = [
                " ".join(rng.choice(words[: 4 + u % 9], size=int(rng.integers(1, 9)))) + "."
                for _ in range(int(rng.integers(1, 5)))
            ]
            records.append({"user": f"u{u:02d}", "text": " ".join(sents)})
    corpus = corpus_from_records(records, user_field="user", text_field="text")
    ks = (1, 3, 10)
    p = text_profile(corpus, max_k=6, ks=ks)
    mean, median, shared, sentences, tokens = _brute(corpus.user_sentences(), 6, ks)
    assert p.distinct_mean == pytest.approx(mean) and p.distinct_median == median
    assert dict(p.shared) == shared
    assert p.sentences.tolist() == sentences and p.tokens.tolist() == tokens
    # the first 25 users only, and the same numbers from a prebuilt index
    sub = text_profile(corpus, max_k=6, ks=ks, max_users=25)
    mean, median, shared, sentences, _ = _brute(corpus.user_sentences()[:25], 6, ks)
    assert sub.n_users == 25 and sub.distinct_mean == pytest.approx(mean) and dict(sub.shared) == shared
    index = dpcore.build_ngram_index(dpcore.text.encode_corpus(corpus), 8)
    again = text_profile(index, max_k=6, ks=ks)
    assert again.distinct_mean == p.distinct_mean and dict(again.shared) == dict(p.shared)
    assert again.sentences.tolist() == p.sentences.tolist()


def test_shared_phrases_of_the_real_chat_as_in_issue_20():
    """Issue 20's table, k-grams used by ≥ 10 of the chat's 1,315 people (tests/test_real_corpus.py recomputes them
    with sets), and the heavy tail of the activity: the 10 most active people wrote 41 % of the messages, 39.9 % of
    the sentences (a message is one or more sentences), and the median person a tenth of the mean."""
    chat = dpcore.load_real_corpus("chat", which="all")
    p = text_profile(chat, max_k=6, ks=(10,))
    assert p.shared[10] == (6181, 19011, 12139, 3304, 683, 169)
    assert p.n_users == 1315
    per_person = sorted((len(s) for s in chat.user_sentences()), reverse=True)
    assert p.top_share(10) == pytest.approx(sum(per_person[:10]) / sum(per_person)) == pytest.approx(0.399, abs=5e-4)
    assert p.activity()["q50"] == 25.0 and p.activity()["mean"] == pytest.approx(np.mean(per_person))


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"max_k": 0}, "max_k must be"),
        ({"ks": ()}, "ks must hold at least one K"),
        ({"ks": (0,)}, "K must be"),
        ({"max_users": 0}, "max_users must be"),
    ],
)
def test_bad_arguments(kw, message):
    with pytest.raises(ValueError, match=message):
        text_profile(_corpus(WORKED), **kw)


def test_index_too_short_or_with_max_users():
    index = dpcore.build_ngram_index(dpcore.text.encode_corpus(_corpus(WORKED)), 2)
    with pytest.raises(ValueError, match="max_k must be at most the index's max_length 2"):
        text_profile(index, max_k=3)
    with pytest.raises(ValueError, match="max_users needs a Corpus or a TokenCorpus"):
        text_profile(index, max_k=2, max_users=1)
    with pytest.raises(ValueError, match="K must be one of"):
        text_profile(index, max_k=2, ks=(2,)).shared_at(1, 5)


def test_first_users_of_a_token_array_corpus_are_cut_before_encoding():
    """The paper-size sample is cut to its first users without encoding it whole: the same profile as the subset's."""
    from dpcore.text import synthetic as gen

    t = gen.generate(300, seed=2)
    corpus = dpcore.text.corpus_from_token_arrays(t.words, t.tokens, t.sent_off, t.doc_off, t.user_off)
    assert corpus.token_arrays
    cut = text_profile(corpus, max_k=5, ks=(2, 10), max_users=120)
    whole = text_profile(corpus.subset(range(120)), max_k=5, ks=(2, 10))
    token = text_profile(dpcore.text.encode_corpus(corpus), max_k=5, ks=(2, 10), max_users=120)
    for p in (cut, token):
        assert p.n_users == 120 and p.distinct_mean == whole.distinct_mean and dict(p.shared) == dict(whole.shared)
        assert p.sentences.tolist() == whole.sentences.tolist() and p.tokens.tolist() == whole.tokens.tolist()


def test_shipped_reference_profiles_recompute():
    """sample_data/text_profiles.json (scripts/text_profiles.py) holds exactly what dpcore.text.text_profile computes now,
    on the corpora whose content hashes it names; the panel reads it only for those."""
    import importlib.util
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("text_profiles", root / "scripts" / "text_profiles.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    shipped = json.loads((root / "sample_data" / "text_profiles.json").read_text())["profiles"]
    fresh = script.shipped_profiles()
    assert set(shipped) == set(fresh) == {"chat-private", "classroom-private-first-920"}
    for key, entry in fresh.items():
        assert shipped[key] == json.loads(json.dumps(entry)), f"{key}: rerun python scripts/text_profiles.py"
    from dpui.common import text_profile_panel as panel

    chat = panel.reference(panel.CHAT_KEY)
    assert chat is not None and chat.to_dict() == fresh["chat-private"]["profile"]
    classroom = dpcore.load_sample_corpus("private")
    assert panel.reference(panel.CLASSROOM_KEY, classroom).to_dict() == fresh["classroom-private-first-920"]["profile"]
    assert panel.reference(panel.CLASSROOM_KEY, dpcore.load_real_corpus("chat", which="private")) is None  # wrong hash
