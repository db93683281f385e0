"""Seeded synthetic user corpora whose statistics resemble real user text (e-mails and reviews).

The mechanisms of the dashboard (BayesianDP n-gram counts, DPNE / DPSU n-gram extraction, TopicDP
on LDA) react to a few properties of real data, so these are what the generator models and what
``tests/test_sample_data.py`` checks:

* **Heavy-tailed activity.** A user writes ``S = ceil(2 / U)`` sentences, ``U ~ Uniform(0, 1]``
  (a Pareto tail with exponent 1, capped at 1,500): the median user writes 4 sentences, the top 1 %
  write 200 or more. Sentences are grouped into documents of ``Geometric(0.3)`` sentences (1, 2, ...; mean 3.3).
* **Real English words with real frequencies.** Words come from ``vocabulary_en.tsv`` (the 20,000
  most frequent English words of wordfreq, CC BY-SA 4.0, derived once by ``make_vocabulary.py``).
  A "fresh" token is a function word (45 %, frequency ∝ wordfreq), a word of the document's topic
  (25 %, ∝ wordfreq), any other English word (24 %, ∝ wordfreq: Zipfian), one of the user's ten
  favourite words (5 %) or a number (1 %). Fresh text is therefore mostly unique to its writer.
* **Shared phrases of Zipfian popularity.** 45 % of sentences carry a phrase of 2-12 words (as the
  whole sentence, its start or its end): e-mail boilerplate and review cliches written by hand, and
  per topic a long tail of 400 generated phrases; phrase popularity is Zipf (exponent 1.05).
* **Per-user idiosyncrasies used by exactly one user.** Every user has a signature line (name,
  role, company and a unique extension number; e-mail writers end 70 % of their e-mails with it)
  and a pet phrase (a frame plus a word triple that is a bijection of the user's index); both are
  used by that user only and must never be released. :func:`user_secrets` returns them.
* **Latent topics.** 12 topics (6 e-mail: meetings, invoices, travel, projects, hiring, IT
  support; 6 reviews: phones/battery, clothing/fit, delivery, kitchen, audio, books) with their own
  vocabularies and phrases. A user has a Dirichlet(0.3) mixture over the topics of each genre; a
  document draws its topic from it and 85 % of its sentences stay on that topic.
* **A public corpus from a shifted distribution** (``public=True``): 70 % reviewers instead of
  40 %, a different topic prior, 10 % of the phrases absent and the others' popularity reshuffled
  locally, and a slightly flatter word distribution.

Sizes: ``classroom`` (shipped gzip JSONL: 3,000 private users, seed 20261121; 2,000 public users,
seed 20261122) and ``paper`` (100,000 private and 30,000 public users, same seeds, generated on
first use by ``dpcore.load_sample_corpus(..., size="paper")`` and cached as token-id arrays).
Users are generated in blocks of 1,000, each from ``SeedSequence([seed, block])``, so a corpus is
a prefix of any larger corpus with the same seed: the classroom corpus is the first 3,000 users of
the paper corpus. Randomness comes only from ``numpy.random.Generator`` objects (no global state);
output is byte-for-byte deterministic. ``python -m sample_data.generate`` rewrites the shipped files.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterator

import numpy as np

__all__ = [
    "PRIVATE_SEED", "PUBLIC_SEED", "PRIVATE_PATH", "PUBLIC_PATH", "SIZES", "TOPICS", "FUNCTION_WORDS",
    "TokenCorpus", "generate", "user_secrets", "records", "write_corpus", "tokenize_text", "main",
]

HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB_PATH = os.path.join(HERE, "vocabulary_en.tsv")
PRIVATE_PATH = os.path.join(HERE, "private.jsonl.gz")
PUBLIC_PATH = os.path.join(HERE, "public.jsonl.gz")
PRIVATE_SEED, PUBLIC_SEED = 20261121, 20261122
BANK_SEED = 7  # the shared "language" (generated phrases): the same for private and public corpora
SIZES = {"classroom": {"private": 3_000, "public": 2_000}, "paper": {"private": 100_000, "public": 30_000}}
BLOCK = 1_000
MAX_SENTENCES = 1_500
GENRES = ("email", "review")

FUNCTION_WORDS = tuple("""the to and of a in i is for that you it on with this was be as are have at not
but from my or we an they so if will would can all do about just there what me your our more when
one up out some no by has had very also which been get were their them than then only us how any
could should did really too much now here still after before because over into well back may even
these those other its his her he she who going got make need want know think""".split())

TOPICS = {
    "meetings": ("email", "meeting agenda calendar schedule call room slot minutes invite availability "
                 "tuesday thursday monday friday afternoon morning conference zoom reschedule attendees "
                 "discuss presentation slides notes update weekly sync teams"),
    "invoices": ("email", "invoice payment amount account bank transfer receipt balance overdue due "
                 "vat tax billing refund charge paid accounts finance budget expense claim purchase "
                 "order statement credit quote supplier"),
    "travel": ("email", "flight hotel trip booking airport train ticket arrival departure visa "
               "luggage reservation itinerary taxi passport delayed gate boarding conference rental "
               "car check city travel night"),
    "projects": ("email", "project deadline milestone deliverable draft review report client scope "
                 "timeline progress task team release feedback requirements plan status estimate "
                 "launch design document phase"),
    "hiring": ("email", "candidate interview position role salary offer resume application recruiter "
               "hiring onboarding contract references manager experience skills start benefits "
               "notice vacancy shortlist job"),
    "it_support": ("email", "password laptop login server access network printer email account "
                   "update install software error vpn ticket reset screen issue backup device "
                   "support restart files admin"),
    "phones": ("review", "battery phone screen charger charging camera case charge cable apps "
               "battery life hours usb display signal android iphone storage speaker fast day "
               "photos mode"),
    "clothing": ("review", "size fit jacket shoes fabric colour small large material comfortable "
                 "sleeves wash shirt dress jeans waist length tight loose medium cotton pair wear "
                 "stitching"),
    "delivery": ("review", "delivery package arrived seller shipping box courier refund return "
                 "damaged tracking parcel days late order service customer replacement week "
                 "packaging door contacted"),
    "kitchen": ("review", "blender kettle coffee machine toaster pan cooking lid water clean "
                "dishwasher handle kitchen heat oven knife steel plastic cups minutes rice boil"),
    "audio": ("review", "headphones sound bass noise ear ears bluetooth earbuds volume cancelling "
              "music microphone pairing cable comfortable quality wireless treble calls case battery"),
    "books": ("review", "book story characters author chapter novel plot read reading ending writing "
              "series pages character twist romance fiction chapters sequel narrator"),
}

GENRE_PHRASES = {
    "email": """hope you are doing well | please let me know if you have any questions | thanks in advance |
    looking forward to hearing from you | sorry for the late reply | let me know what you think |
    please find attached | thank you for your help | have a great weekend | best regards |
    kind regards | many thanks | just a quick reminder that | i will get back to you as soon as possible |
    as discussed on the call | please see below | thanks for getting back to me | let me know if that works |
    could you please confirm | i hope this helps | feel free to reach out if you need anything else |
    thank you for your patience | i am out of the office until monday | please do not hesitate to contact me |
    apologies for any inconvenience | thanks again | speak soon | all the best | see you tomorrow |
    just following up on my previous email | i wanted to check in | any update on this would be appreciated |
    happy to discuss further | cheers | have a good one | thanks for the quick response""",
    "review": """would highly recommend | five stars | value for money | does exactly what it says |
    works as advertised | would not buy again | waste of money | great quality for the price |
    very happy with my purchase | arrived on time | exactly as described | better than expected |
    not worth the money | i would definitely buy again | does the job | highly recommended |
    good value | stopped working after a few weeks | cheap and cheerful | my husband loves it |
    bought this as a gift | you get what you pay for | can not fault it | overall very pleased |
    looks great | easy to use | would give zero stars if i could | one star | fast delivery |
    great product | love it | very disappointed | do not buy | perfect""",
}

TOPIC_PHRASES = {
    "meetings": "can we move the meeting to | does that time work for you | i have sent you a calendar invite | let us find a slot next week",
    "invoices": "please find the invoice attached | the payment is now overdue | could you send me a receipt | payment has been made",
    "travel": "my flight has been delayed | the hotel is booked | i land at | see you at the airport",
    "projects": "the deadline is end of next week | here is the latest draft | we are on track | can you review the report",
    "hiring": "we would like to invite you for an interview | thank you for your application | the position has been filled | please send your cv",
    "it_support": "have you tried turning it off and on again | i can not log in | please reset my password | the server is down",
    "phones": "the battery lasts all day | charges really fast | the screen is bright and clear | the camera is amazing",
    "clothing": "fits true to size | order a size up | the material feels cheap | very comfortable to wear",
    "delivery": "the package arrived damaged | took weeks to arrive | the seller was very helpful | still waiting for a refund",
    "kitchen": "easy to clean | makes great coffee | the lid does not fit | boils water in minutes",
    "audio": "the sound quality is great | the noise cancelling works well | the bass is a bit weak | comfortable for hours",
    "books": "could not put it down | the ending was a let down | i loved the characters | can not wait for the next one",
}

FIRST = ("anna james maria david sarah michael laura john emma daniel sophie peter olivia thomas "
         "grace mark lucy paul hannah chris kate robert ellen simon julia adam claire tom nina ben").split()
LAST = ("smith jones brown taylor wilson davies evans thomas johnson roberts walker wright robinson "
        "thompson white hughes edwards green hall wood harris lewis martin jackson clarke clark "
        "turner hill scott cooper morris ward moore king watson baker").split()
ROLES = ("account manager | project manager | senior accountant | office manager | sales director | "
         "software engineer | hr partner | operations lead | marketing assistant | data analyst").split(" | ")
COMPANIES = ("northwind | brightline | acme | bluepeak | greenfield | silverstone | oakridge | "
             "riverside | summit | redwood | harbour | lakeside").split(" | ")
PET_FRAMES = ("as i always say | in the words of my gran | you know what they say | mark my words | "
              "as we used to say | long story short | between you and me | to cut a long story short").split(" | ")

P_KIND = np.array([0.45, 0.25, 0.24, 0.05, 0.01])  # function, topic, general, favourite, number
P_MODE = np.array([0.55, 0.15, 0.15, 0.15])  # no phrase, phrase first, phrase last, phrase alone


def _split(text: str) -> list[str]:
    return [p.strip() for p in text.replace("\n", " ").split("|") if p.strip()]


def _zipf(n: int, s: float) -> np.ndarray:
    w = 1.0 / np.arange(1, n + 1) ** s
    return w / w.sum()


@dataclass
class _Bank:
    """Everything shared by all users of one corpus: vocabulary ids, word and phrase distributions."""

    words: list[str]
    ids: dict[str, int]
    func_ids: np.ndarray
    func_p: np.ndarray
    gen_ids: np.ndarray
    gen_p: np.ndarray
    topic_ids: list[np.ndarray]
    topic_p: list[np.ndarray]
    topic_genre: np.ndarray  # 0 e-mail, 1 review
    genre_phr: list[list[tuple[int, ...]]]
    genre_phr_p: list[np.ndarray]
    topic_phr: list[list[tuple[int, ...]]]
    topic_phr_p: list[np.ndarray]
    num_base: int


def _load_vocab() -> tuple[list[str], np.ndarray]:
    words, freq = [], []
    with open(VOCAB_PATH, encoding="ascii") as fh:
        for line in fh:
            if not line.startswith("#"):
                w, f = line.rstrip("\n").split("\t")
                words.append(w)
                freq.append(float(f))
    return words, np.array(freq)


@lru_cache(maxsize=2)
def _bank(public: bool) -> _Bank:
    vocab, freq = _load_vocab()
    words = list(vocab)
    ids = {w: i for i, w in enumerate(words)}
    fmap = dict(zip(vocab, freq))

    def wid(w: str) -> int:
        if w not in ids:
            ids[w] = len(words)
            words.append(w)
        return ids[w]

    def phrase(text: str) -> tuple[int, ...]:
        return tuple(wid(w) for w in tokenize_text(text)[0])

    alpha = 0.9 if public else 1.0  # the public corpus has a slightly flatter word distribution
    func_ids = np.array([wid(w) for w in FUNCTION_WORDS])
    func_p = np.array([fmap.get(w, 1.0) for w in FUNCTION_WORDS]) ** alpha
    topic_words = [list(dict.fromkeys(v.split())) for _, v in TOPICS.values()]
    topic_ids = [np.array([wid(w) for w in tw]) for tw in topic_words]
    topic_p = [np.array([fmap.get(w, 2.0) for w in tw]) ** (0.6 * alpha) for tw in topic_words]
    taken = set(FUNCTION_WORDS) | {w for tw in topic_words for w in tw}
    gen = [i for i, w in enumerate(vocab) if w not in taken]
    gen_ids = np.array(gen)
    gen_p = freq[gen_ids] ** alpha

    # generated phrases: one shared "language" (BANK_SEED) for private and public corpora
    r = np.random.default_rng(BANK_SEED)
    gp, fp = gen_p / gen_p.sum(), func_p / func_p.sum()
    topic_phr = []
    for t, (hand, tid, tp) in enumerate(zip(TOPIC_PHRASES.values(), topic_ids, topic_p)):
        phr = [phrase(x) for x in _split(hand)]
        tp = tp / tp.sum()
        for _ in range(400):
            n = int(r.integers(3, 9))
            kind = r.choice(3, n, p=[0.45, 0.3, 0.25])
            toks = np.where(kind == 0, func_ids[r.choice(len(fp), n, p=fp)],
                            np.where(kind == 1, tid[r.choice(len(tp), n, p=tp)], gen_ids[r.choice(len(gp), n, p=gp)]))
            phr.append(tuple(int(x) for x in toks))
        topic_phr.append(phr)
    genre_phr = [[phrase(x) for x in _split(GENRE_PHRASES[g])] for g in GENRES]
    phrase("hi at ext")
    for lst in (FIRST, LAST, ROLES, COMPANIES, PET_FRAMES):
        for x in lst:
            phrase(x)

    def popularity(n: int, shift_seed: int) -> np.ndarray:
        p = _zipf(n, 1.05)
        if public:  # drop 10 % of the phrases, reshuffle the rest locally (ranks move by a few places)
            rs = np.random.default_rng(shift_seed)
            p = p * (rs.random(n) >= 0.10)
            order = np.argsort(np.arange(n) + rs.normal(0, 3, n), kind="stable")
            p = p[order]
        return p / p.sum()

    num_base = len(words)
    words.extend(str(i) for i in range(100_003))
    return _Bank(
        words=words, ids=ids, func_ids=func_ids, func_p=func_p / func_p.sum(), gen_ids=gen_ids,
        gen_p=gen_p / gen_p.sum(), topic_ids=topic_ids, topic_p=[p / p.sum() for p in topic_p],
        topic_genre=np.array([GENRES.index(g) for g, _ in TOPICS.values()]),
        genre_phr=genre_phr, genre_phr_p=[popularity(len(x), 100 + i) for i, x in enumerate(genre_phr)],
        topic_phr=topic_phr, topic_phr_p=[popularity(len(x), 200 + i) for i, x in enumerate(topic_phr)],
        num_base=num_base,
    )


def _perm(i: int, n: int, a: int, b: int) -> int:
    """A bijection of range(n) for prime n (affine map), so neighbouring users get unrelated values."""
    return (a * i + b) % n


def user_secrets(user: int, *, public: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """User ``user``'s signature line and pet phrase (as tokens): each is used by that user only.

    Unique by construction for ``user < 100,003``: the signature ends in ``ext N`` with ``N`` an
    affine bijection of the index; the pet phrase ends in a word triple that is another bijection of
    it (200 words, 8,000,000 triples). Both depend on the user's index only, not on the seed.
    """
    bank = _bank(public)
    k = _perm(user, 100_003, 7_919 if not public else 10_477, 12_345)
    sig = (FIRST[k % len(FIRST)], LAST[(k // 31) % len(LAST)], *ROLES[(k // 7) % len(ROLES)].split(),
           "at", COMPANIES[(k // 11) % len(COMPANIES)], "ext", str(k))
    j = _perm(user, 8_000_009, 1_299_709, 4_242) % 8_000_000
    quirky = bank.gen_ids[2_000:2_200]  # 200 mid-frequency English words
    triple = tuple(bank.words[quirky[x]] for x in (j % 200, (j // 200) % 200, j // 40_000))
    pet = tuple(PET_FRAMES[user % len(PET_FRAMES)].split()) + triple
    return sig, pet


@dataclass(frozen=True, eq=False)
class TokenCorpus:
    """A corpus as flat arrays: ``tokens[sent_off[s]:sent_off[s+1]]`` is sentence ``s``; documents are
    ``doc_off`` ranges of sentences, users ``user_off`` ranges of documents; ``words[id]`` is a token."""

    words: list[str]
    tokens: np.ndarray  # int32
    sent_off: np.ndarray  # int64, n_sentences + 1
    doc_off: np.ndarray  # int64, n_documents + 1 (in sentences)
    doc_genre: np.ndarray  # int8 index into GENRES
    doc_topic: np.ndarray  # int8 index into TOPICS (generator metadata, not part of the corpus)
    user_off: np.ndarray  # int64, n_users + 1 (in documents)

    @property
    def n_users(self) -> int:
        return len(self.user_off) - 1

    def user_sentences(self, u: int) -> list[list[str]]:
        s0, s1 = self.doc_off[self.user_off[u]], self.doc_off[self.user_off[u + 1]]
        w, t, o = self.words, self.tokens, self.sent_off
        return [[w[x] for x in t[o[s]:o[s + 1]]] for s in range(s0, s1)]


def _block(bank: _Bank, seed: int, block: int, n_users: int, public: bool):
    """Users ``block*BLOCK ... block*BLOCK + n_users - 1``; returns per-sentence token lists etc."""
    r = np.random.default_rng(np.random.SeedSequence([seed, block]))
    n_topics = len(TOPICS)
    # user-level draws
    n_sent = np.minimum(np.ceil(2.0 / (1.0 - r.random(n_users))), MAX_SENTENCES).astype(int)
    review_user = r.random(n_users) < (0.7 if public else 0.4)
    prior = np.ones(n_topics) * 0.3
    if public:
        prior = prior * np.array([0.5, 1.5, 1.0, 0.7, 1.3, 1.0, 1.4, 0.6, 1.0, 1.2, 0.8, 1.0])
    mix = np.stack([r.dirichlet(prior[bank.topic_genre == g], n_users) for g in (0, 1)], 1)  # users x 2 x 6
    fav = bank.gen_ids[r.choice(len(bank.gen_ids), (n_users, 10), p=bank.gen_p)]
    # documents: 1 + ... sentences each (numpy geometric counts trials: >= 1, mean 1/0.3)
    sizes = r.geometric(0.3, int(n_sent.sum())).tolist()
    doc_user, doc_len, i = [], [], 0
    for u, left in enumerate(n_sent.tolist()):
        while left > 0:
            m = min(left, sizes[i])
            i += 1
            left -= m
            doc_user.append(u)
            doc_len.append(m)
    doc_user, doc_len = np.array(doc_user), np.array(doc_len)
    n_d = len(doc_len)
    doc_genre = np.where(r.random(n_d) < 0.85, review_user[doc_user], ~review_user[doc_user]).astype(int)
    first_topic = np.array([np.flatnonzero(bank.topic_genre == g)[0] for g in (0, 1)])

    def draw_topic(users, genres):
        cum = mix[users, genres].cumsum(axis=1)
        k = np.minimum((r.random(len(users))[:, None] > cum).sum(axis=1), 5)
        return first_topic[genres] + k

    doc_topic = draw_topic(doc_user, doc_genre)
    # sentence-level draws
    sent_doc = np.repeat(np.arange(n_d), doc_len)
    n_s = len(sent_doc)
    g_s = doc_genre[sent_doc]
    s_topic = np.where(r.random(n_s) < 0.85, doc_topic[sent_doc], draw_topic(doc_user[sent_doc], g_s))
    mode = r.choice(4, n_s, p=P_MODE)
    flen = np.clip(np.round(np.exp(r.normal(np.where(mode == 0, np.log(11), np.log(6)), 0.5))), 2, 40).astype(int)
    flen[mode == 3] = 0
    from_genre = r.random(n_s) < 0.4
    phr = np.empty(n_s, dtype=int)
    for g in (0, 1):
        sel = from_genre & (g_s == g)
        phr[sel] = r.choice(len(bank.genre_phr[g]), sel.sum(), p=bank.genre_phr_p[g])
    for t in range(n_topics):
        sel = ~from_genre & (s_topic == t)
        phr[sel] = r.choice(len(bank.topic_phr[t]), sel.sum(), p=bank.topic_phr_p[t])
    # fresh tokens, all at once
    n_f = int(flen.sum())
    tok_topic = np.repeat(s_topic, flen)
    tok_user = np.repeat(doc_user[sent_doc], flen)
    kind = r.choice(5, n_f, p=P_KIND)
    tok = bank.func_ids[r.choice(len(bank.func_ids), n_f, p=bank.func_p)]
    gen = bank.gen_ids[r.choice(len(bank.gen_ids), n_f, p=bank.gen_p)]
    tok = np.where(kind == 2, gen, tok)
    for t in range(n_topics):
        sel = (kind == 1) & (tok_topic == t)
        tok[sel] = bank.topic_ids[t][r.choice(len(bank.topic_ids[t]), sel.sum(), p=bank.topic_p[t])]
    sel = kind == 3
    tok[sel] = fav[tok_user[sel], r.integers(0, 10, sel.sum())]
    sel = kind == 4
    tok[sel] = bank.num_base + np.minimum(np.floor(np.exp(r.uniform(0, np.log(100_003), sel.sum()))), 100_002).astype(int)
    fresh = tok.tolist()
    # per-user extras: greeting, closing + signature (e-mail), pet phrase
    greet = r.random(len(doc_len)) < 0.6
    sign = r.random(len(doc_len)) < 0.7
    pet_doc = r.random(len(doc_len)) < 0.25
    greet_name = r.choice(len(FIRST), len(doc_len), p=_zipf(len(FIRST), 1.0))
    closing = r.choice(len(bank.genre_phr[0]), len(doc_len), p=bank.genre_phr_p[0])
    return doc_user, doc_genre, doc_topic, doc_len, mode, flen, phr, from_genre, s_topic, fresh, greet, sign, pet_doc, greet_name, closing


def generate(n_users: int, *, seed: int = PRIVATE_SEED, public: bool = False,
             progress: Callable[[float], None] | None = None) -> TokenCorpus:
    """Generate ``n_users`` users as a :class:`TokenCorpus` (deterministic for a seed)."""
    bank = _bank(public)
    ids = bank.ids
    hi = ids["hi"]
    tokens: list[int] = []
    sent_off, doc_off, user_off = [0], [0], [0]
    genres, topics = [], []
    n_blocks = -(-n_users // BLOCK)
    for b in range(n_blocks):
        nb = min(BLOCK, n_users - b * BLOCK)
        (doc_user, doc_genre, doc_topic, doc_len, mode, flen, phr, from_genre, s_topic, fresh,
         greet, sign, pet_doc, greet_name, closing) = _block(bank, seed, b, BLOCK, public)  # whole blocks: prefixes agree
        secrets = [user_secrets(b * BLOCK + u, public=public) for u in range(nb)]  # only the kept users
        secrets = [(tuple(ids[w] if w in ids else bank.num_base + int(w) for w in s),
                    tuple(ids[w] for w in p)) for s, p in secrets]
        s = f = 0
        ext, app = tokens.extend, sent_off.append
        for d in range(len(doc_len)):
            u, g = doc_user[d], doc_genre[d]
            if u >= nb:
                break
            if g == 0 and greet[d]:
                ext((hi, ids[FIRST[greet_name[d]]]))
                app(len(tokens))
            if pet_doc[d]:
                ext(secrets[u][1])
                app(len(tokens))
            for _ in range(doc_len[d]):
                m, L = mode[s], flen[s]
                p = (bank.genre_phr[g] if from_genre[s] else bank.topic_phr[s_topic[s]])[phr[s]]
                if m == 1 or m == 3:
                    ext(p)
                ext(fresh[f:f + L])
                if m == 2:
                    ext(p)
                f += L
                s += 1
                app(len(tokens))
            if g == 0 and sign[d]:
                ext(bank.genre_phr[0][closing[d]])
                app(len(tokens))
                ext(secrets[u][0])
                app(len(tokens))
            doc_off.append(len(sent_off) - 1)
            genres.append(g)
            topics.append(doc_topic[d])
            if d + 1 == len(doc_len) or doc_user[d + 1] != u:  # the user's last document
                user_off.append(len(doc_off) - 1)
        if progress is not None:
            progress((b + 1) / n_blocks)
    return TokenCorpus(words=bank.words, tokens=np.array(tokens, dtype=np.int32),
                       sent_off=np.array(sent_off, dtype=np.int64), doc_off=np.array(doc_off, dtype=np.int64),
                       doc_genre=np.array(genres, dtype=np.int8), doc_topic=np.array(topics, dtype=np.int8),
                       user_off=np.array(user_off, dtype=np.int64))


def _sentence_text(words: list[str], ids, r: float) -> str:
    text = " ".join("I" if w == "i" else w for w in (words[x] for x in ids))
    end = "?" if r < 0.08 else "!" if r < 0.14 else "."
    return text[:1].upper() + text[1:] + end


def records(tc: TokenCorpus, *, seed: int = 0) -> Iterator[dict]:
    """The corpus as JSON-lines records ``{"user", "genre", "text"}``, one per document; the text
    tokenises back to exactly the generated tokens (see :func:`tokenize_text`)."""
    punct = np.random.default_rng(seed).random(len(tc.sent_off))
    toks, so, do = tc.tokens, tc.sent_off, tc.doc_off
    for u in range(tc.n_users):
        for d in range(tc.user_off[u], tc.user_off[u + 1]):
            text = " ".join(_sentence_text(tc.words, toks[so[s]:so[s + 1]], punct[s]) for s in range(do[d], do[d + 1]))
            yield {"user": f"u{u:06d}", "genre": GENRES[tc.doc_genre[d]], "text": text}


def write_corpus(path: str, n_users: int, *, seed: int, public: bool = False) -> int:
    """Write a gzip'd JSONL corpus (gzip mtime 0: byte-for-byte deterministic); returns the number of documents."""
    n = 0
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        for rec in records(generate(n_users, seed=seed, public=public), seed=seed):
            gz.write((json.dumps(rec, ensure_ascii=True) + "\n").encode("ascii"))
            n += 1
    return n


_SENT = re.compile(r"[.!?\n]+")
_TOK = re.compile(r"[a-z0-9']+")


def tokenize_text(text: str) -> list[list[str]]:
    """The tokeniser of ``dpcore.corpus.tokenize`` (lower-case, split at . ! ? and line breaks)."""
    return [t for t in (_TOK.findall(c) for c in _SENT.split(text.lower())) if t]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--users", type=int, help="write one corpus of this many users to --out")
    ap.add_argument("--out")
    ap.add_argument("--public", action="store_true")
    ap.add_argument("--seed", type=int)
    a = ap.parse_args(argv)
    if a.users is None:
        jobs = [(PRIVATE_PATH, SIZES["classroom"]["private"], PRIVATE_SEED, False),
                (PUBLIC_PATH, SIZES["classroom"]["public"], PUBLIC_SEED, True)]
    else:
        seed = a.seed if a.seed is not None else (PUBLIC_SEED if a.public else PRIVATE_SEED)
        jobs = [(a.out, a.users, seed, a.public)]
    for path, n, seed, public in jobs:
        docs = write_corpus(path, n, seed=seed, public=public)
        print(f"wrote {path}: {n} users, {docs} documents")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def kgram_stats(tc: TokenCorpus, max_k: int = 9) -> dict[int, dict[str, float]]:
    """Per length k: mean distinct k-grams per user (003's Table 2 statistic), the number of
    distinct k-grams and the share of them used by exactly one user. k-grams never cross sentences;
    a k-gram is identified by a 64-bit polynomial hash of its token ids (collisions are negligible)."""
    t = tc.tokens.astype(np.uint64)
    n = len(t)
    sent_len = np.diff(tc.sent_off)
    pos_in_sent = np.arange(n) - np.repeat(tc.sent_off[:-1], sent_len)
    left_in_sent = np.repeat(sent_len, sent_len) - pos_in_sent  # tokens from here to the sentence end
    user_of_doc = np.repeat(np.arange(tc.n_users), np.diff(tc.user_off))
    user_of_sent = np.repeat(user_of_doc, np.diff(tc.doc_off))
    user = np.repeat(user_of_sent, sent_len).astype(np.uint64)
    h = np.zeros(n, dtype=np.uint64)
    out = {}
    with np.errstate(over="ignore"):
        for k in range(1, max_k + 1):
            h[: n - k + 1] = h[: n - k + 1] * np.uint64(1_000_003) + t[k - 1:] + np.uint64(1)
            ok = left_in_sent >= k
            hk = h[ok]
            pair_key = hk * np.uint64(0x9E3779B97F4A7C15) + user[ok]  # (k-gram, user) as one 64-bit key
            first = np.unique(pair_key, return_index=True)[1]
            per_gram = np.unique(hk[first], return_counts=True)[1]
            out[k] = {"per_user": len(first) / tc.n_users, "distinct": int(len(per_gram)),
                      "one_user_share": float((per_gram == 1).mean()) if len(per_gram) else 0.0,
                      "users_ge_100": int((per_gram >= 100).sum())}
    return out
