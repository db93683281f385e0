"""Tests for dpcore.topicdp.prompts (issue 20 item 3): released topics matched to conversation prompts, before and
after noise; and the Done-when of issue 20 on the real chat corpus (stop words, ≥ 6 of 10 topics matched)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

import dpcore
from dpcore import topicdp as tdp
from dpcore.text import corpus_from_records
from dpcore.topicdp import fitting as tm_fit
from dpcore.topicdp import model as tm
from dpcore.topicdp import prompts as tp

WORDS = {
    "sport": "football goal match team player coach league score stadium season".split(),
    "food": "pasta pizza sauce cheese garlic oven recipe dinner tomato bread".split(),
    "money": "invoice payment bank account dollars budget price cost salary refund".split(),
    "travel": "flight hotel airport train ticket luggage passport taxi beach museum".split(),
}
PROMPTS = {
    "sport": "Who is your favourite team?",
    "food": "What did you cook?",
    "money": "How do you save?",
    "travel": "Where would you fly?",
}


def labelled_corpus(n_users: int = 80, seed: int = 0):
    rng = np.random.default_rng(seed)
    names = list(WORDS)
    records = []
    for u in range(n_users):
        for d in range(3):
            topic = names[(u + d) % 4]
            words = list(rng.choice(WORDS[topic], 12)) + list(rng.choice(WORDS[names[(u + d + 1) % 4]], 2))
            records.append({"user": f"u{u:03d}", "text": " ".join(words), "prompt": PROMPTS[topic]})
    return corpus_from_records(records, user_field="user", text_field="text", genre_field="prompt", name="labelled")


@pytest.fixture(scope="module")
def fitted():
    corpus = labelled_corpus()
    lda = tm.LdaSettings(n_topics=4, min_df=1, max_df=1.0, max_iter=30)
    model = tm_fit.fit_topic_model(tm.document_term_data(corpus, settings=lda), settings=lda)
    table = tm_fit.topic_keyword_matrix(model, m=4, n=8)
    return corpus, model, table, tp.prompt_documents(corpus, model.words)


def _brute_force(matrix, words, corpus):
    """The rule of MATCH_RULE recomputed document by document, with dicts."""
    import re

    prompts = sorted({d.genre for docs in corpus.users for d in docs if d.genre})
    counts = {}
    for docs in corpus.users:
        for doc in docs:
            tokens = re.findall(tm.TOKEN_PATTERN, doc.text().lower())
            use = [tokens.count(w) for w in words]
            if not doc.genre or not any(use):
                continue
            scores = [sum(u * matrix[t][j] for j, u in enumerate(use)) for t in range(len(matrix))]
            t = scores.index(max(scores))
            counts[(t, doc.genre)] = counts.get((t, doc.genre), 0) + 1
    total = sum(counts.values())
    lift = np.zeros((len(matrix), len(prompts)))
    for t in range(len(matrix)):
        in_t = sum(v for (tt, _), v in counts.items() if tt == t)
        for j, p in enumerate(prompts):
            in_p = sum(v for (_, pp), v in counts.items() if pp == p)
            if in_t and in_p:
                lift[t, j] = (counts.get((t, p), 0) / in_t) / (in_p / total)
    rows, cols = linear_sum_assignment(-lift)
    out = {}
    for t, j in zip(rows, cols):
        ok = lift[t, j] >= 2 and counts.get((t, prompts[j]), 0) >= 10
        out[t] = (prompts[j] if ok else None, lift[t, j], counts.get((t, prompts[j]), 0))
    out["sorted"] = total
    return out


def test_planted_topics_match_their_prompts_and_agree_with_brute_force(fitted):
    corpus, model, table, docs = fitted
    match = tp.match_topics_to_prompts(table.matrix, table.words, docs)
    assert match.matched == 4
    assert sorted(match.label(t) for t in range(4)) == sorted(PROMPTS.values())
    for t in range(4):  # each topic's top word belongs to the planted topic of its prompt
        planted = next(k for k, v in PROMPTS.items() if v == match.label(t))
        assert model.words[int(np.argmax(model.topic_word[table.topics[t]]))] in WORDS[planted]
    brute = _brute_force(table.matrix.tolist(), table.words, corpus)
    for t in range(4):
        assert brute[t][0] == match.label(t)
        assert brute[t][1] == pytest.approx(match.lift[t]) and brute[t][2] == match.documents[t]
    assert match.sorted_documents == brute["sorted"] > 200  # documents that use a keyword (of 240)


def test_rule_thresholds_lift_and_documents():
    """A pair with lift ≥ 2 but fewer than 10 documents of its prompt is not matched; one with 10 is."""
    x = np.array([[1, 0]] * 10 + [[0, 1]] * 30)
    for n_first, expect in ((10, 1), (9, 0)):
        prompt = np.array([0] * n_first + [1] * (10 - n_first) + [1] * 30)
        got = tp._match(np.array([[0.9, 0.1], [0.1, 0.9]]), x, prompt, 2)
        assert sum(p is not None for p in got[0]) >= expect
        assert (got[0][0] == 0) == (expect == 1)
    flat = np.array([0, 1] * 20)  # same mix of prompts in both topics: lift 1, nothing matched
    assert tp._match(np.array([[0.9, 0.1], [0.1, 0.9]]), x, flat, 2)[0] == (None, None)


def test_noise_keeps_topics_only_near_chance_and_a_noiseless_release_keeps_all(fitted):
    corpus, model, table, docs = fitted
    loud = tdp.release_all(table.matrix, epsilon=0.05, delta=1e-5, sensitivity=1.0, rng=0, gamma=0.1)
    s = tp.prompt_survival(table, docs, loud, draws=30, rng=1)
    assert s.before.matched == 4 and 0 <= s.chance < 2
    assert all(v <= s.chance + 1.0 for v in s.kept.values())
    quiet = tdp.release_all(table.matrix, epsilon=1e6, delta=1e-5, sensitivity=1e-6, rng=0, gamma=0.1)
    q = tp.prompt_survival(table, docs, {k: quiet[k] for k in ("TopicDP corrected", "Laplace")}, draws=5, rng=1)
    assert q.kept["TopicDP corrected"] == 4 and q.kept["Laplace"] == 4
    assert "4 of the 4 topics match a distinct prompt" in q.sentence()


def test_survival_curve_is_seeded_and_first_epsilon(fitted):
    corpus, model, table, docs = fitted
    a = tp.prompt_survival_curve(
        table, docs, sensitivity=1.0, delta=1e-5, gamma=0.1, epsilons=(1, 1e4), draws=4, seed=3
    )
    b = tp.prompt_survival_curve(
        table, docs, sensitivity=1.0, delta=1e-5, gamma=0.1, epsilons=(1, 1e4), draws=4, seed=3
    )
    assert a.kept == b.kept and set(a.kept) == set(tdp.TOPIC_MECHANISMS)
    assert a.kept["TopicDP strict"][-1] >= a.kept["TopicDP strict"][0]
    need = 0.5 * a.before.matched
    first = a.first_epsilon("TopicDP strict")
    assert first is None or a.kept["TopicDP strict"][a.epsilons.index(first)] >= need


def test_validation(fitted):
    corpus, model, table, docs = fitted
    with pytest.raises(ValueError, match="one column per word"):
        tp.match_topics_to_prompts(table.matrix[:, :3], table.words, docs)
    with pytest.raises(ValueError, match="words must be in the documents' vocabulary"):
        tp.match_topics_to_prompts(table.matrix, ("zzz",) + table.words[1:], docs)
    with pytest.raises(TypeError, match="docs must be PromptDocuments"):
        tp.match_topics_to_prompts(table.matrix, table.words, None)
    with pytest.raises(ValueError, match="draws must be >= 1"):
        tp.prompt_survival(table, docs, {}, draws=0, rng=0)


# ------------------------------------------------------------------ issue 20, Done when (real chat corpus)


@pytest.fixture(scope="module")
def real():
    corpus = dpcore.load_real_corpus("chat", which="private")
    lda = tm.LdaSettings()
    model = tm_fit.fit_topic_model(tm.document_term_data(corpus, settings=lda), settings=lda)
    return corpus, model


def test_real_corpus_top5_keywords_are_never_stop_words(real):
    """No top-5 keyword of the 10 released topics is a stop word: neither of the stated list nor of the
    document-frequency rule recomputed on the public split (so a list that drifts from its rule is caught)."""
    corpus, model = real
    public_fillers = tm.chat_filler_words(dpcore.load_real_corpus("chat", which="public"))
    table = tm_fit.topic_keyword_matrix(model, m=10, n=10)
    for t in table.topics:
        top5 = {model.words[j] for j in np.argsort(-model.topic_word[t])[:5]}
        assert not top5 & tm.TOPIC_STOP_WORDS and not top5 & public_fillers, top5
        assert not top5 & {"haha", "hahaha", "lol", "oh", "thats", "yeah", "like", "just"}, top5
    assert not set(table.words) & tm.TOPIC_STOP_WORDS


def test_real_corpus_six_of_ten_topics_match_a_distinct_prompt(real):
    """Before noise, at least 6 of the 10 most prevalent topics match a distinct prompt (dpcore.topicdp.prompts
    .MATCH_RULE: sorted by the table's keywords, Hungarian pairing, lift ≥ 2 and ≥ 10 conversations)."""
    corpus, model = real
    table = tm_fit.topic_keyword_matrix(model, m=10, n=10)
    match = tp.match_topics_to_prompts(table.matrix, table.words, tp.prompt_documents(corpus, model.words))
    assert match.matched >= 6, [(match.label(t), round(match.lift[t], 2), match.documents[t]) for t in range(10)]
    labels = [match.label(t) for t in range(10) if match.label(t)]
    assert len(set(labels)) == len(labels)  # distinct


def test_shipped_real_corpus_model_is_the_fit(real):
    """The shipped LDA fit of the real private split (so the page opens without fitting) is this fit."""
    corpus, model = real
    shipped = tdp.load_topic_model(corpus.content_hash, lda=tm.LdaSettings(), cache_dir=tdp.shipped_cache_dir())
    assert shipped is not None, "run: nice -n 10 python scripts/topicdp_ship.py --corpus real"
    assert np.allclose(shipped.topic_word, model.topic_word, rtol=1e-4, atol=1e-9)
