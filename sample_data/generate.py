"""Seeded synthetic user corpora calibrated on real people's chat (the BYU Chit-Chat corpus's public split).

Issue 20 measured that the previous generator (hand-written e-mail/review phrases over wordfreq words) had
4-31 times fewer k-grams shared by >= 10 users than real chat at the same number of users. This generator
learns its text and its activity from real people instead: ``dpcore.load_real_corpus("chat",
which="public")``, the 395 people of the real corpus's fixed 30 % public split (MIT licence, see
REAL_CORPUS.md). The 920 private people are never read. It is calibrated against the real corpus, not
against any paper's result.

* **Text: an interpolated Kneser-Ney 4-gram model** (``ORDER``; absolute discount ``DISCOUNT`` = 0.75 at
  every order; raw counts at order 4, Kneser-Ney continuation counts below; sentence start/end are tokens),
  with components that share this form: the global model, one per conversation prompt (34 + "no prompt"),
  one for the first and one for the last sentence of a document (openings "hi how are you", closings "it
  was nice talking to you": real documents are conversations). Each component backs off within itself down
  to its own unigram distribution. Sampling is exact for the interpolated model: from the longest context,
  a token stays at a context with probability 1 - D * types / count, else backs off one token.
* **Topics: the real prompts.** A document draws a prompt with the real public popularity; its first
  generated sentence comes from the opening model, its last from the closing model, every other one from
  the prompt's model with probability ``PROMPT_SHARE`` (0.5) and from the global model otherwise. The
  prompt is the document's genre label (``GENRES``), as in the real corpus (evaluation only). A prompt's
  own words (130 words used >= 10 times, at least half of them in that prompt's documents: "peanut",
  "wand", "mozart") are drawn again when a non-prompt component emits them in another prompt's document, so
  they stay as concentrated as in real chat ("peanut" is 184 times as frequent in its prompt's documents as
  in the others; real: 179). LDA's topics follow the prompts only weakly, though (normalised mutual information
  between a document's likeliest of the TopicDP page's 10 topics and its prompt: 0.01 on the classroom
  corpus, 0.07 on the real chat): a 4-gram model forgets after 3 tokens, while a real conversation stays on
  its subject.
* **No copies of anyone's message.** A generated sentence of >= 6 tokens that equals a public message
  written by at most 2 people is drawn again (up to 8 times). Measured on 1,315 users with the real
  activity: 0.13 % of the generated sentences of >= 6 tokens occur verbatim in the real corpus (all 1,315
  people); every one of them was written by >= 3 public people ("what do you like to do for fun") or by
  private people only (chance: the model never saw them). Training data: sentences with a run of 4 equal
  tokens are left out (1,179 public lines, 1,149 of them one person's "a a a a ..." spam).
* **Activity: real people's heavy tail.** A user is a resampled public person: that person's number of
  documents, and for each document the length (in sentences) of one of their documents, drawn with
  replacement (the real public people: median 28 sentences, mean 304, the top 1 % wrote 44 %). That volume is what the
  calibration needs and what the sample corpora cannot afford (100,000 such users would be ~240 M tokens), so
  the sample corpora cap every user at their first ``MAX_SENTENCES`` = 60 sentences (35 % of users are cut;
  ~245 tokens per user; the paper corpus has 24 M tokens). ``max_sentences=None`` keeps the real activity.
* **Calibration** (``tests/test_sample_data.py``; ``python benchmarks/kgram_table.py --calibration``): at
  the real corpus's 1,315 users, distinct k-grams used by >= 10 users, k = 1..6, over the real corpus's:
  1.46, 1.35, 1.33, 1.40, 1.23, 0.73 with the real activity (the issue's target: within a factor of 2);
  with the cap of 60, over the real corpus with every person cut at 60 sentences: 1.24, 1.04, 0.93, 0.71,
  0.22, 0.07: at equal volume the model shares fewer long phrases than real people (every token may back
  off to a shorter context, which breaks a common 5- or 6-word phrase; the real cut corpus has 50 and 14 of
  them), and the real activity's volume (1.25 times the real corpus's tokens) makes up for it.
* **Per-user idiosyncrasies used by exactly one user.** A signature (a name, "ext" and a number that is a
  bijection of the user's index) ends 20 % of a user's documents, a pet phrase (a frame plus a word triple
  that is another bijection of it) starts 20 %; both must never be released. :func:`user_secrets`.
* **A public corpus from a shifted but related distribution** (``public=True``): the same model and
  activity, every prompt's popularity times a fixed log-normal factor (sigma 1; total variation 0.32
  between the private and public prompt mixes) and 70 % of the inner sentences from the prompt model
  instead of 50 %; 98.5 % of the private corpus's tokens are words the public corpus uses.

Sizes: ``classroom`` (shipped gzip JSONL: 3,000 private users, seed 20261121; 2,000 public users, seed
20261122) and ``paper`` (100,000 private and 30,000 public users, same seeds, generated on first use by
``dpcore.load_sample_corpus(..., size="paper")`` and cached as token-id arrays; ~25 s). Users are generated
in blocks of 1,000, each from ``SeedSequence([seed, block])``; a sentence's tokens come from counter-based
uniforms (splitmix64 of the block's key, the sentence's index in its block, the step and the draw), so a
user's kept sentences do not depend on the cap and a corpus is a prefix of any larger corpus with the same
seed and cap: the classroom corpus is the first 3,000 users of the paper corpus. The model is fitted once per
process (about 8 s of CPU); sampling runs at about 2 M tokens per CPU second (numpy: a hash table of contexts and a
guide table per context). No global random state; output is byte-for-byte deterministic.
``python -m sample_data.generate`` rewrites the shipped files.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterator

import numpy as np

__all__ = [
    "PRIVATE_SEED",
    "PUBLIC_SEED",
    "PRIVATE_PATH",
    "PUBLIC_PATH",
    "SIZES",
    "GENRES",
    "ORDER",
    "DISCOUNT",
    "PROMPT_SHARE",
    "MAX_SENTENCES",
    "TokenCorpus",
    "generate",
    "user_secrets",
    "records",
    "write_corpus",
    "tokenize_text",
    "token_corpus",
    "kgram_stats",
    "shared_kgrams",
    "main",
]

HERE = os.path.dirname(os.path.abspath(__file__))
VOCAB_PATH = os.path.join(HERE, "vocabulary_en.tsv")
PRIVATE_PATH = os.path.join(HERE, "private.jsonl.gz")
PUBLIC_PATH = os.path.join(HERE, "public.jsonl.gz")
PRIVATE_SEED, PUBLIC_SEED = 20261121, 20261122
BLOCK = 1_000

ORDER = 4  # 4-gram model: a token is drawn given the 3 tokens before it
DISCOUNT = 0.75  # absolute discount of interpolated Kneser-Ney, every order
PROMPT_SHARE = {False: 0.5, True: 0.7}  # share of inner sentences from the prompt model (private, public)
MAX_TOKENS = 60  # a generated sentence stops here (real chat: 99.9 % of sentences are shorter)
P_PET, P_SIGNATURE = 0.2, 0.2  # a document starts with its writer's pet phrase / ends with their signature
COPY_MIN_TOKENS, COPY_MAX_WRITERS, COPY_ATTEMPTS = 6, 2, 8  # see the module docstring
OWN_MIN_COUNT, OWN_SHARE = 10, 0.5  # a word used >= 10 times, >= half of them in one prompt's documents
REDRAWS = 8  # draws of a token before giving up on an end before the first token / another prompt's word
MAX_RUN = 4  # a training sentence with a run of this many equal tokens is left out (spam: 'a a a a ...')
PROMPT_TILT_SEED = 31  # the public corpus's prompt popularity: real popularity × a fixed log-normal factor

SIZES = {"classroom": {"private": 3_000, "public": 2_000}, "paper": {"private": 100_000, "public": 30_000}}
MAX_SENTENCES = 60  # the sample corpora's cap on a user's sentences (cost; see the module docstring)

# The conversation prompts of the real corpus (the synthetic documents' genre labels, like the real ones');
# None: a conversation without a prompt. tests/test_sample_data.py checks this is the real corpus's set.
GENRES = (
    "Can computers fall in love?",
    "Do you think computers will ever be given the right to vote?",
    "How would the world be different if pets could talk?",
    "How would you define true artificial intelligence?",
    "If a computer becomes indistinguishable from a person, is it murder to turn it off?",
    "If money were no object, how would you spend your time?",
    "If you could relive one day of your life, which would it be and why?",
    "If you had to give a TED talk tomorrow, what would it be about?",
    "If you were in power for a day, how would you try to improve the country?",
    "Is it still catfishing if it's a computer doing it?",
    "Is there something that you don't know that you're embarrassed about not knowing?",
    "Mozart or Beethoven?",
    "What charitable or philanthropic cause are you most passionate about?",
    "What if computers started asking not to be turned off?",
    "What if pigs could fly?",
    "What if the world was made of peanut butter?",
    "What if unicorns were real?",
    "What if you woke up tomorrow morning, and everyone had vanished except you?",
    "What superpower do you wish you had, and why?",
    "What would happen if humans developed faster-than-light space travel?",
    "What would happen if the internet just... stopped working?",
    "What would happen if two computers chatted with each other?",
    "What would you do if you had a flying car?",
    "What would you do if you had a magic wand?",
    "What would you do if you had a million dollars?",
    "What's one thing your best friend doesn't know about you?",
    "What's the best thing that happened to you this year?",
    "What's the craziest thing you've ever done?",
    "What's the last film that truly made an impression on you?",
    "What's the most interesting thing you've learned recently?",
    "What's your favorite smell?",
    "What's your secret superpower? (i.e. What are you really really good at.)",
    "Which intelligent movie computer do you like best? (i.e. Jarvis from Iron Man, HAL from Space Odyssey "
    "2000, the Star Trek Computer, the robot from Interstellar, etc.)",
    "Who is your modern-day hero?",
    None,
)
OPENING, CLOSING = len(GENRES) + 1, len(GENRES) + 2  # model components: first / last sentences of documents

FIRST = (
    "anna james maria david sarah michael laura john emma daniel sophie peter olivia thomas "
    "grace mark lucy paul hannah chris kate robert ellen simon julia adam claire tom nina ben"
).split()
LAST = (
    "smith jones brown taylor wilson davies evans thomas johnson roberts walker wright robinson "
    "thompson white hughes edwards green hall wood harris lewis martin jackson clarke clark "
    "turner hill scott cooper morris ward moore king watson baker"
).split()
PET_FRAMES = ("as always | as ever | and yet | all in all | once again | then again | after all | even so").split(" | ")
N_NUMBERS = 100_003  # signature numbers: an affine bijection of the user index modulo this prime

_M1 = np.uint64(0x9E3779B97F4A7C15)
_M2 = np.uint64(0xBF58476D1CE4E5B9)
_M3 = np.uint64(0x94D049BB133111EB)


def _mix(h: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a bijection of uint64 that spreads every input bit over the output."""
    h = h ^ (h >> np.uint64(30))
    h = h * _M2
    h = h ^ (h >> np.uint64(27))
    h = h * _M3
    return h ^ (h >> np.uint64(31))


def _uniform(key: np.uint64, ids: np.ndarray, step: int, slot: int) -> np.ndarray:
    """Counter-based uniforms in [0, 1): one per id, a function of (block key, id, step, slot) only, so a
    sentence's draws do not depend on which other sentences are generated (capping a user keeps the rest)."""
    x = (ids.astype(np.uint64) << np.uint64(16)) | np.uint64((step << 4) | slot)
    return (_mix(x ^ key) >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)


def _context_keys(comp: np.ndarray, ctx: list[np.ndarray]) -> list[np.ndarray]:
    """Row keys of the contexts of length 0 .. len(ctx) (``ctx[0]`` is the token just before, ``ctx[1]``
    the one before it, ...) in the model component ``comp``: a 64-bit hash (collisions checked at fit)."""
    with np.errstate(over="ignore"):
        h = comp.astype(np.uint64) + np.uint64(1)
        out = [_mix(h * _M1)]
        for j, c in enumerate(ctx, start=1):
            h = h * _M1 + c.astype(np.uint64) + np.uint64(1)
            out.append(_mix(h * _M1 + np.uint64(j)))
    return out


# ------------------------------------------------------------------------------------------------ the model


@dataclass(frozen=True, eq=False)
class _Model:
    """The interpolated Kneser-Ney n-gram model (components: global, one per prompt, openings, closings) and
    the real activity it samples.

    A *row* is one context (component, length j, the j tokens before); its entries are the tokens seen after
    it, ``tok[first:last+1]``, with ``cum`` = row index + cumulative discounted probability (so one
    ``searchsorted`` over all rows samples within a row). ``stay`` is the probability of drawing from the row
    rather than backing off to the context one token shorter (1 - D · types / count).
    """

    words: list[str]  # id 0 = "" (sentence start/end), then the public split's words (most frequent first), extras
    n_model_words: int
    keys: np.ndarray  # uint64, sorted
    stay: np.ndarray
    last: np.ndarray  # int64: the row's last entry
    cum: np.ndarray  # float64 per entry
    tok: np.ndarray  # int32 per entry
    level0: np.ndarray  # the empty context's row, per component (0 = global, 1 + GENRES index = that prompt)
    prompt_docs: np.ndarray  # real public documents per GENRES index
    person_docs: np.ndarray  # documents per real public person
    person_first: np.ndarray  # index of that person's first document in doc_sents
    doc_sents: np.ndarray  # sentences per real public document
    ids: dict  # word -> id (model words and extras)
    number_ids: np.ndarray  # id of str(n), n < N_NUMBERS
    first: np.ndarray  # int64: the row's first entry
    guide: np.ndarray  # int64 per entry: guide table (entry i of a row of n: the first entry with cum > i / n)
    table_key: np.ndarray  # uint64 open-addressing hash table of the row keys (0 = empty slot)
    table_row: np.ndarray  # int64: the row of each slot
    owner: np.ndarray  # int64 per word: the GENRES index of the prompt the word belongs to, -1 for none
    rare_sentences: (
        np.ndarray
    )  # uint64, sorted: hashes of public sentences >= COPY_MIN_TOKENS by <= COPY_MAX_WRITERS people


@lru_cache(maxsize=1)
def _model() -> _Model:
    """Fit the model on the real chat corpus's public split (deterministic; about 8 s of CPU, once per process)."""
    from dpcore.text.real_corpus import load_real_corpus

    corpus = load_real_corpus("chat", which="public")
    counts = Counter(t for docs in corpus.users for d in docs for s in d.sentences for t in s)
    words = [""] + [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    if len(words) >= 1 << 20:
        raise RuntimeError("the n-gram model packs token ids in 20 bits")
    ids = {w: i for i, w in enumerate(words)}
    genre_index = {g: i for i, g in enumerate(GENRES)}
    pad = ORDER - 1
    seq: list[int] = []
    sent_len, sent_comp, sent_pos, sent_person, doc_genre = [], [], [], [], []
    for person, docs in enumerate(corpus.users):
        for d in docs:
            if d.genre not in genre_index:
                raise ValueError(f"the real corpus has a prompt that GENRES lacks: {d.genre!r}")
            g = genre_index[d.genre]
            doc_genre.append(g)
            last = len(d.sentences) - 1
            for i, s in enumerate(d.sentences):
                if _longest_run(s) >= MAX_RUN:  # spam ("a a a a ..."): left out of the fit
                    continue
                seq.extend([0] * pad)
                seq.extend(ids[t] for t in s)
                seq.append(0)
                sent_len.append(len(s))
                sent_comp.append(g + 1)
                sent_pos.append(OPENING if i == 0 else CLOSING if i == last else 0)
                sent_person.append(person)
    seq_a = np.array(seq, dtype=np.int64)
    sent_len_a = np.array(sent_len, dtype=np.int64)
    # targets: every token and the end of every sentence; context j = the j tokens before (0 = start padding)
    start = np.cumsum(np.r_[0, sent_len_a[:-1] + pad + 1]) + pad
    n_t = sent_len_a + 1
    tpos = np.repeat(start, n_t) + np.arange(n_t.sum()) - np.repeat(np.cumsum(np.r_[0, n_t[:-1]]), n_t)
    target = seq_a[tpos]
    prompt_comp = np.repeat(np.array(sent_comp, dtype=np.int64), n_t)
    pos_comp = np.repeat(np.array(sent_pos, dtype=np.int64), n_t)
    # components: the global model (every target), the prompt's, the first / last sentences of documents
    parts = [(np.zeros_like(target), slice(None)), (prompt_comp, slice(None)), (pos_comp[pos_comp > 0], pos_comp > 0)]
    keys, toks, cnts, levels, comps, ctxs = [], [], [], [], [], []
    for j in range(ORDER):
        for c, sel in parts:
            tp = tpos[sel]
            ctx = [seq_a[tp - i] for i in range(1, j + 1)]  # ctx[0] = the token just before
            h, t = _context_keys(c, ctx)[j], seq_a[tp]
            if j < ORDER - 1:  # lower orders: Kneser-Ney continuation counts (distinct tokens seen before)
                sub = (t << 20) | seq_a[tp - j - 1]  # token ids < 2**20
                o = np.lexsort((sub, h))
                one = o[np.r_[True, (h[o][1:] != h[o][:-1]) | (sub[o][1:] != sub[o][:-1])]]
                h, t, c, ctx = h[one], t[one], c[one], [x[one] for x in ctx]
            o = np.lexsort((t, h))  # the highest order: raw counts
            hs, ts = h[o], t[o]
            st = np.flatnonzero(np.r_[True, (hs[1:] != hs[:-1]) | (ts[1:] != ts[:-1])])
            rep = o[st]
            keys.append(hs[st])
            toks.append(ts[st])
            cnts.append(np.diff(np.r_[st, len(o)]).astype(np.float64))
            levels.append(np.full(len(st), j))
            comps.append(c[rep])
            ctxs.append(np.stack([x[rep] for x in ctx] + [np.full(len(st), -1)] * (ORDER - 1 - j), axis=1))
    key, tok, cnt, lev, cmp_, cx = (np.concatenate(x) for x in (keys, toks, cnts, levels, comps, ctxs))
    order = np.lexsort((tok, key))
    key, tok, cnt, lev, cmp_, cx = key[order], tok[order], cnt[order], lev[order], cmp_[order], cx[order]
    same = key[1:] == key[:-1]  # one key, one context: else two contexts collided in the hash
    if np.any(same & ((lev[1:] != lev[:-1]) | (cmp_[1:] != cmp_[:-1]) | np.any(cx[1:] != cx[:-1], axis=1))):
        raise RuntimeError("context hash collision in the n-gram model")
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    last = np.r_[first[1:], len(key)] - 1
    types = last - first + 1
    total = np.add.reduceat(cnt, first)
    disc = np.where(lev[first] > 0, DISCOUNT, 0.0)  # the empty context keeps its counts undiscounted
    row = np.repeat(np.arange(len(first)), types)
    p = (cnt - disc[row]) / (total - disc * types)[row]
    # cumulative probability within each row: one cumsum that drops the previous rows' 1.0 at each row's
    # start (so the running sum stays in [0, 1] and keeps full precision), minus its drift at the row's start
    step = p.copy()
    step[first[1:]] -= 1.0
    within = np.cumsum(step)
    within -= np.repeat(within[first] - p[first], types)
    within[last] = 1.0
    level0 = np.full(len(GENRES) + 3, -1, dtype=np.int64)
    l0 = lev[first] == 0
    level0[cmp_[first][l0]] = np.flatnonzero(l0)
    # a prompt's own words: used >= OWN_MIN_COUNT times, at least OWN_SHARE of them in that prompt's documents
    by_prompt = np.zeros((len(words), len(GENRES)), dtype=np.int64)
    np.add.at(by_prompt, (target[target > 0], prompt_comp[target > 0] - 1), 1)
    by_prompt[:, genre_index[None]] = 0  # "no prompt" owns nothing
    total_use = np.bincount(target, minlength=len(words))
    owner = np.where(
        (total_use >= OWN_MIN_COUNT) & (by_prompt.max(axis=1) >= OWN_SHARE * total_use), by_prompt.argmax(axis=1), -1
    )
    # extras: signature and pet-phrase words, signature numbers
    n_model = len(words)
    for w in [*FIRST, *LAST, "ext", *" ".join(PET_FRAMES).split(), *_quirky_words()]:
        if w not in ids:
            ids[w] = len(words)
            words.append(w)
    number_ids = np.empty(N_NUMBERS, dtype=np.int64)
    for n in range(N_NUMBERS):
        digits = str(n)
        if digits not in ids:
            ids[digits] = len(words)
            words.append(digits)
        number_ids[n] = ids[digits]
    person_docs = np.array([len(docs) for docs in corpus.users], dtype=np.int64)
    cum = row + within
    # guide table: entry i of a row with n entries points at the first entry whose cum exceeds row + i / n
    guide = np.searchsorted(cum, row + (np.arange(len(row)) - first[row]) / types[row], side="right")
    guide = np.minimum(guide, last[row])
    table_key, table_row = _hash_table(key[first])
    # messages that fewer than three people wrote (>= COPY_MIN_TOKENS tokens): never generated verbatim
    writers: dict[tuple[str, ...], set[int]] = {}
    for person, docs in enumerate(corpus.users):
        for d in docs:
            for sent in d.sentences:
                if len(sent) >= COPY_MIN_TOKENS:
                    writers.setdefault(sent, set()).add(person)
    rare = [sent for sent, who in writers.items() if len(who) <= COPY_MAX_WRITERS]
    lens = np.array([len(x) for x in rare], dtype=np.int64)
    mat = np.zeros((len(rare), int(lens.max())), dtype=np.int64)
    mat[np.arange(mat.shape[1])[None, :] < lens[:, None]] = [ids[t] for sent in rare for t in sent]
    rare_hashes = np.unique(_sentence_hash(mat, lens))
    return _Model(
        words=words,
        n_model_words=n_model,
        keys=key[first],
        stay=1.0 - disc * types / total,
        last=last,
        cum=cum,
        tok=tok.astype(np.int32),
        level0=level0,
        first=first,
        guide=guide,
        table_key=table_key,
        table_row=table_row,
        rare_sentences=rare_hashes,
        owner=np.r_[owner, np.full(len(words) - len(owner), -1)],
        prompt_docs=np.bincount(np.array(doc_genre), minlength=len(GENRES)),
        person_docs=person_docs,
        person_first=np.cumsum(np.r_[0, person_docs[:-1]]),
        doc_sents=np.array([len(d.sentences) for docs in corpus.users for d in docs], dtype=np.int64),
        ids=ids,
        number_ids=number_ids,
    )


def _hash_table(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An open-addressing (linear probing) table of the distinct, well-mixed, non-zero ``keys``: at most half
    full, so a lookup reads about 1.5 slots; the slot of a key is its low bits."""
    if np.any(keys == 0):
        raise RuntimeError("a context key is 0, the empty-slot marker")
    size = 1 << int(np.ceil(np.log2(2 * len(keys) + 1)))
    mask = np.uint64(size - 1)
    table_key = np.zeros(size, dtype=np.uint64)
    table_row = np.full(size, -1, dtype=np.int64)
    pending = np.arange(len(keys))
    slot = (keys & mask).astype(np.int64)
    while len(pending):
        free = table_key[slot] == 0
        won_slot, at = np.unique(slot[free], return_index=True)  # one key per free slot and round
        winners = pending[free][at]
        table_key[won_slot] = keys[winners]
        table_row[won_slot] = winners
        lost = np.ones(len(pending), dtype=bool)
        lost[np.flatnonzero(free)[at]] = False
        pending, slot = pending[lost], (slot[lost] + 1) & int(mask)
    return table_key, table_row


def _lookup(m: _Model, q: np.ndarray) -> np.ndarray:
    """The rows of the keys ``q`` (-1: no such context)."""
    mask = len(m.table_key) - 1
    slot = (q & np.uint64(mask)).astype(np.int64)
    out = np.full(len(q), -1, dtype=np.int64)
    pending = np.arange(len(q))
    while len(pending):
        k = m.table_key[slot]
        hit = k == q[pending]
        out[pending[hit]] = m.table_row[slot[hit]]
        go_on = ~hit & (k != 0)
        pending, slot = pending[go_on], (slot[go_on] + 1) & mask
    return out


def _draw(m: _Model, row: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The entry of ``row`` whose cumulative probability interval holds ``u`` (the guide table gives the start,
    a short forward scan the rest): the same entry as ``searchsorted(cum, row + u, "right")``."""
    n = m.last[row] - m.first[row] + 1
    e = m.guide[m.first[row] + np.minimum((u * n).astype(np.int64), n - 1)]
    v = row + u
    todo = np.flatnonzero((m.cum[e] <= v) & (e < m.last[row]))
    while len(todo):
        e[todo] += 1
        todo = todo[(m.cum[e[todo]] <= v[todo]) & (e[todo] < m.last[row[todo]])]
    return e


def _sentence_hash(mat: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each row's first ``lens`` token ids."""
    h = np.zeros(len(mat), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for c in range(int(lens.max()) if len(lens) else 0):
            on = c < lens
            h[on] = h[on] * _M1 + mat[on, c].astype(np.uint64) + np.uint64(1)
        return _mix(h + lens.astype(np.uint64))


def _longest_run(s) -> int:
    best = run = 1
    for a, b in zip(s, s[1:]):
        run = run + 1 if a == b else 1
        best = max(best, run)
    return best


@lru_cache(maxsize=1)
def _quirky_words() -> tuple[str, ...]:
    """200 mid-frequency English words (ranks 3,001-3,200 of ``vocabulary_en.tsv``): pet-phrase triples."""
    words = []
    with open(VOCAB_PATH, encoding="ascii") as fh:
        for line in fh:
            if not line.startswith("#"):
                words.append(line.split("\t")[0])
    return tuple(words[3000:3200])


def _sample(
    m: _Model, key: np.uint64, ids: np.ndarray, comp: np.ndarray, prompt: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Sentences ``ids`` (their counters) from component ``comp`` each, in documents of ``prompt`` (GENRES
    index): a token matrix and the lengths. Outside the prompt components, a word that belongs to another
    prompt (``m.owner``) is drawn again, as is an end before the first token."""
    n = len(ids)
    out = np.zeros((n, MAX_TOKENS), dtype=np.int32)
    lens = np.full(n, MAX_TOKENS, dtype=np.int64)
    ctx = [np.zeros(n, dtype=np.int64) for _ in range(ORDER - 1)]  # ctx[0] = the last token
    active = np.arange(n)
    masked = (comp == 0) | (comp > len(GENRES))  # global, opening and closing components
    for t in range(MAX_TOKENS):
        if len(active) == 0:
            break
        a_ids, a_comp = ids[active], comp[active]
        hashes = _context_keys(a_comp, ctx)
        row = m.level0[a_comp]
        pend = np.arange(len(active))
        for j in range(ORDER - 1, 0, -1):  # from the longest context down: stay there, or back off
            at = _lookup(m, hashes[j][pend])
            take = at >= 0
            take[take] = _uniform(key, a_ids[pend[take]], t, j) < m.stay[at[take]]
            row[pend[take]] = at[take]
            pend = pend[~take]
        w = m.tok[_draw(m, row, _uniform(key, a_ids, t, 0))]
        a_masked, a_prompt = masked[active], prompt[active]
        for attempt in range(1, REDRAWS + 1):
            own = m.owner[w]
            bad = np.flatnonzero((t == 0) & (w == 0) | a_masked & (own >= 0) & (own != a_prompt))
            if len(bad) == 0:
                break
            if attempt > REDRAWS // 2:  # the same row again and again: draw from the component's unigrams
                row[bad] = m.level0[a_comp[bad]]
            w[bad] = m.tok[_draw(m, row[bad], _uniform(key, a_ids[bad], MAX_TOKENS + attempt, 0))]
        if t == 0:
            w[w == 0] = 1  # never reached in practice (each attempt ends with probability < 0.05)
        end = w == 0
        lens[active[end]] = t
        keep = ~end
        active = active[keep]
        out[active, t] = w[keep]
        ctx = [w[keep].astype(np.int64)] + [c[keep] for c in ctx[:-1]]
    return out, lens


# ------------------------------------------------------------------------------------------------ users


def _perm(i: int, n: int, a: int, b: int) -> int:
    """A bijection of range(n) for prime n (affine map), so neighbouring users get unrelated values."""
    return (a * i + b) % n


def user_secrets(user: int, *, public: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """User ``user``'s signature and pet phrase (as tokens): each is used by that user only.

    Unique by construction for ``user < 100,003``: the signature is a name and ``ext N`` with ``N`` an affine
    bijection of the index; the pet phrase is a frame and a word triple that is another bijection of it
    (200 words, 8,000,000 triples). Both depend on the user's index only, not on the seed.
    """
    k = _perm(user, N_NUMBERS, 7_919 if not public else 10_477, 12_345)
    sig = (FIRST[k % len(FIRST)], LAST[(k // 31) % len(LAST)], "ext", str(k))
    j = _perm(user, 8_000_009, 1_299_709, 4_242) % 8_000_000
    quirky = _quirky_words()
    triple = (quirky[j % 200], quirky[(j // 200) % 200], quirky[j // 40_000])
    return sig, tuple(PET_FRAMES[user % len(PET_FRAMES)].split()) + triple


@dataclass(frozen=True, eq=False)
class TokenCorpus:
    """A corpus as flat arrays: ``tokens[sent_off[s]:sent_off[s+1]]`` is sentence ``s``; documents are
    ``doc_off`` ranges of sentences, users ``user_off`` ranges of documents; ``words[id]`` is a token."""

    words: list[str]
    tokens: np.ndarray  # int32
    sent_off: np.ndarray  # int64, n_sentences + 1
    doc_off: np.ndarray  # int64, n_documents + 1 (in sentences)
    doc_genre: np.ndarray  # int8 index into GENRES (the document's prompt)
    doc_topic: np.ndarray  # int8: the same (kept for callers that read the generator's topic)
    user_off: np.ndarray  # int64, n_users + 1 (in documents)

    @property
    def n_users(self) -> int:
        return len(self.user_off) - 1

    def user_sentences(self, u: int) -> list[list[str]]:
        s0, s1 = self.doc_off[self.user_off[u]], self.doc_off[self.user_off[u + 1]]
        w, t, o = self.words, self.tokens, self.sent_off
        return [[w[x] for x in t[o[s] : o[s + 1]]] for s in range(s0, s1)]


def _prompt_p(m: _Model, public: bool) -> np.ndarray:
    p = m.prompt_docs.astype(np.float64)
    if public:  # shifted: every prompt's popularity times a fixed log-normal factor (sigma 1)
        p = p * np.exp(np.random.default_rng(PROMPT_TILT_SEED).normal(0.0, 1.0, len(p)))
    return p / p.sum()


def _block(m: _Model, seed: int, block: int, n_users: int, public: bool, max_sentences: int | None):
    """Users ``block*BLOCK ... + n_users - 1`` (n_users <= BLOCK): (sentence lengths, tokens, sentences per
    document, document prompts, documents per user)."""
    ss = np.random.SeedSequence([seed, block])
    r = np.random.default_rng(ss)
    key = np.uint64(ss.generate_state(1, np.uint64)[0])
    # activity: every user is a real public person's profile (their number of documents, and for each document
    # the length of one of that person's documents, drawn with replacement); all draws for a whole block
    person = r.integers(len(m.person_docs), size=BLOCK)
    n_docs = m.person_docs[person]
    doc_user = np.repeat(np.arange(BLOCK), n_docs)
    n_d = len(doc_user)
    pick = m.person_first[person[doc_user]] + (r.random(n_d) * n_docs[doc_user]).astype(np.int64)
    doc_len = m.doc_sents[pick]
    doc_genre = r.choice(len(GENRES), n_d, p=_prompt_p(m, public))
    pet = r.random(n_d) < P_PET
    sig = r.random(n_d) < P_SIGNATURE
    from_prompt = r.random(int(doc_len.sum() + pet.sum() + sig.sum())) < PROMPT_SHARE[public]
    # sentences: [pet phrase] generated... [signature]; kind 0 generated, 1 pet phrase, 2 signature
    per_doc = doc_len + pet + sig
    doc_start = np.cumsum(np.r_[0, per_doc[:-1]])
    n_s = int(per_doc.sum())
    kind = np.zeros(n_s, dtype=np.int8)
    kind[doc_start[pet]] = 1
    kind[(doc_start + per_doc - 1)[sig]] = 2
    sent_doc = np.repeat(np.arange(n_d), per_doc)
    sent_user = doc_user[sent_doc]
    user_first = np.cumsum(np.r_[0, np.bincount(sent_user, minlength=BLOCK)[:-1]])
    keep = sent_user < n_users
    if max_sentences is not None:
        keep &= np.arange(n_s) - user_first[sent_user] < max_sentences
    comp = np.where(from_prompt, doc_genre[sent_doc] + 1, 0)
    comp[doc_start + per_doc - 1 - sig] = CLOSING  # a document's last generated sentence is a closing,
    comp[doc_start + pet] = OPENING  # its first an opening (a one-sentence document: an opening)
    idx = np.flatnonzero(keep)
    kind, sent_doc, sent_user = kind[idx], sent_doc[idx], sent_user[idx]
    gen = kind == 0
    comp = comp[idx[gen]]
    counters = idx[gen].astype(np.uint64)
    prompt = doc_genre[sent_doc[gen]]
    out, lens = _sample(m, key, counters, comp, prompt)
    for attempt in range(1, COPY_ATTEMPTS + 1):  # a copy of a message fewer than 3 people wrote: draw again
        copy = lens >= COPY_MIN_TOKENS
        copy[copy] = np.isin(_sentence_hash(out[copy], lens[copy]), m.rare_sentences)
        redraw = np.flatnonzero(copy)
        if len(redraw) == 0:
            break
        out[redraw], lens[redraw] = _sample(
            m, key, counters[redraw] | np.uint64(attempt << 44), comp[redraw], prompt[redraw]
        )
    secrets = {}
    for u in np.unique(sent_user[~gen]).tolist():
        s, p = user_secrets(block * BLOCK + u, public=public)
        secrets[u] = (
            np.array([*(m.ids[w] for w in s[:-1]), m.number_ids[int(s[-1])]], dtype=np.int32),
            np.array([m.ids[w] for w in p], dtype=np.int32),
        )
    length = np.empty(len(idx), dtype=np.int64)
    length[gen] = lens
    special = np.flatnonzero(~gen)
    for i in special.tolist():
        length[i] = len(secrets[int(sent_user[i])][0 if kind[i] == 2 else 1])
    off = np.cumsum(np.r_[0, length])
    tokens = np.empty(int(off[-1]), dtype=np.int32)
    g_off = off[:-1][gen]
    flat = out[np.arange(MAX_TOKENS)[None, :] < lens[:, None]]
    tokens[np.repeat(g_off, lens) + np.arange(len(flat)) - np.repeat(np.cumsum(np.r_[0, lens[:-1]]), lens)] = flat
    for i in special.tolist():
        tokens[off[i] : off[i + 1]] = secrets[int(sent_user[i])][0 if kind[i] == 2 else 1]
    docs, sents_per_doc = np.unique(sent_doc, return_counts=True)
    docs_per_user = np.bincount(doc_user[docs], minlength=BLOCK)[:n_users]
    return length, tokens, sents_per_doc, doc_genre[docs], docs_per_user


def generate(
    n_users: int,
    *,
    seed: int = PRIVATE_SEED,
    public: bool = False,
    max_sentences: int | None = MAX_SENTENCES,
    progress: Callable[[float], None] | None = None,
) -> TokenCorpus:
    """Generate ``n_users`` users as a :class:`TokenCorpus` (deterministic for a seed).

    ``max_sentences`` caps every user's sentences (their first ones are kept; the kept sentences are the same
    as without the cap); ``None``: no cap, the real people's activity.
    """
    m = _model()
    parts = []
    n_blocks = -(-n_users // BLOCK)
    for b in range(n_blocks):
        parts.append(_block(m, seed, b, min(BLOCK, n_users - b * BLOCK), public, max_sentences))
        if progress is not None:
            progress((b + 1) / n_blocks)
    length, tokens, spd, genre, dpu = (np.concatenate([p[i] for p in parts]) for i in range(5))
    return TokenCorpus(
        words=m.words,
        tokens=tokens,
        sent_off=np.cumsum(np.r_[0, length]),
        doc_off=np.cumsum(np.r_[0, spd]),
        doc_genre=genre.astype(np.int8),
        doc_topic=genre.astype(np.int8),
        user_off=np.cumsum(np.r_[0, dpu]),
    )


# ------------------------------------------------------------------------------------------------ text files


def _sentence_text(words: list[str], ids, r: float) -> str:
    text = " ".join("I" if w == "i" else w for w in (words[x] for x in ids))
    end = "?" if r < 0.08 else "!" if r < 0.14 else "."
    return text[:1].upper() + text[1:] + end


def records(tc: TokenCorpus, *, seed: int = 0) -> Iterator[dict]:
    """The corpus as JSON-lines records ``{"user", "genre", "text"}``, one per document (``genre``: the
    prompt, or null); the text tokenises back to exactly the generated tokens (see :func:`tokenize_text`)."""
    punct = np.random.default_rng(seed).random(len(tc.sent_off))
    toks, so, do = tc.tokens, tc.sent_off, tc.doc_off
    for u in range(tc.n_users):
        for d in range(tc.user_off[u], tc.user_off[u + 1]):
            text = " ".join(
                _sentence_text(tc.words, toks[so[s] : so[s + 1]], punct[s]) for s in range(do[d], do[d + 1])
            )
            yield {"user": f"u{u:06d}", "genre": GENRES[tc.doc_genre[d]], "text": text}


def write_corpus(
    path: str, n_users: int, *, seed: int, public: bool = False, max_sentences: int | None = MAX_SENTENCES
) -> int:
    """Write a gzip'd JSONL corpus (gzip mtime 0: byte-for-byte deterministic); returns the number of documents."""
    n = 0
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        for rec in records(generate(n_users, seed=seed, public=public, max_sentences=max_sentences), seed=seed):
            gz.write((json.dumps(rec, ensure_ascii=True) + "\n").encode("ascii"))
            n += 1
    return n


_SENT = re.compile(r"[.!?\n]+")
_TOK = re.compile(r"[a-z0-9']+")


def tokenize_text(text: str) -> list[list[str]]:
    """The tokeniser of ``dpcore.text.tokenize`` (lower-case, split at . ! ? and line breaks)."""
    return [t for t in (_TOK.findall(c) for c in _SENT.split(text.lower())) if t]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--users", type=int, help="write one corpus of this many users to --out")
    ap.add_argument("--out")
    ap.add_argument("--public", action="store_true")
    ap.add_argument("--seed", type=int)
    ap.add_argument(
        "--max-sentences",
        type=int,
        default=MAX_SENTENCES,
        help=f"cap on a user's sentences (default {MAX_SENTENCES}; 0: the real people's activity)",
    )
    a = ap.parse_args(argv)
    if a.users is None:
        jobs = [
            (PRIVATE_PATH, SIZES["classroom"]["private"], PRIVATE_SEED, False),
            (PUBLIC_PATH, SIZES["classroom"]["public"], PUBLIC_SEED, True),
        ]
    else:
        seed = a.seed if a.seed is not None else (PUBLIC_SEED if a.public else PRIVATE_SEED)
        jobs = [(a.out, a.users, seed, a.public)]
    for path, n, seed, public in jobs:
        docs = write_corpus(path, n, seed=seed, public=public, max_sentences=a.max_sentences or None)
        print(f"wrote {path}: {n} users, {docs} documents")
    return 0


# ------------------------------------------------------------------------------------------------ statistics


def token_corpus(corpus) -> TokenCorpus:
    """A :class:`dpcore.Corpus` as a :class:`TokenCorpus` (its own vocabulary; genres as GENRES indices, -1
    for a genre outside GENRES), so that the statistics below run on the real corpus and uploads too."""
    a = corpus.token_arrays
    if a is not None:
        words, tokens = list(a["words"]), np.asarray(a["tokens"])
        sent_off, doc_off, user_off = a["sent_off"], a["doc_off"], a["user_off"]
    else:
        ids: dict[str, int] = {}
        toks: list[int] = []
        so, do, uo = [0], [0], [0]
        for docs in corpus.users:
            for d in docs:
                for s in d.sentences:
                    toks.extend(ids.setdefault(w, len(ids)) for w in s)
                    so.append(len(toks))
                do.append(len(so) - 1)
            uo.append(len(do) - 1)
        words, tokens = list(ids), np.array(toks, dtype=np.int32)
        sent_off, doc_off, user_off = (np.array(x, dtype=np.int64) for x in (so, do, uo))
    index = {g: i for i, g in enumerate(GENRES)}
    genre = np.array([index.get(d.genre, -1) for docs in corpus.users for d in docs], dtype=np.int8)
    return TokenCorpus(
        words=words,
        tokens=tokens,
        sent_off=np.asarray(sent_off),
        doc_off=np.asarray(doc_off),
        doc_genre=genre,
        doc_topic=genre,
        user_off=np.asarray(user_off),
    )


def _kgram_users(tc: TokenCorpus, max_k: int) -> Iterator[tuple[int, int, np.ndarray]]:
    """Per length k: (k, number of distinct (user, k-gram) pairs, users per distinct k-gram). k-grams never
    cross sentences; a k-gram is a 64-bit polynomial hash of its token ids (collisions are negligible)."""
    t = tc.tokens.astype(np.uint64)
    n = len(t)
    sent_len = np.diff(tc.sent_off)
    pos_in_sent = np.arange(n) - np.repeat(tc.sent_off[:-1], sent_len)
    left_in_sent = np.repeat(sent_len, sent_len) - pos_in_sent  # tokens from here to the sentence end
    user_of_doc = np.repeat(np.arange(tc.n_users), np.diff(tc.user_off))
    user_of_sent = np.repeat(user_of_doc, np.diff(tc.doc_off))
    user = np.repeat(user_of_sent, sent_len).astype(np.uint64)
    h = np.zeros(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for k in range(1, max_k + 1):
            h[: n - k + 1] = h[: n - k + 1] * np.uint64(1_000_003) + t[k - 1 :] + np.uint64(1)
            ok = left_in_sent >= k
            hk = h[ok]
            pair_key = hk * np.uint64(0x9E3779B97F4A7C15) + user[ok]  # (k-gram, user) as one 64-bit key
            first = np.unique(pair_key, return_index=True)[1]
            yield k, len(first), np.unique(hk[first], return_counts=True)[1]


def kgram_stats(tc: TokenCorpus, max_k: int = 9) -> dict[int, dict[str, float]]:
    """Per length k: mean distinct k-grams per user (003's Table 2 statistic), the number of distinct
    k-grams, the share of them used by exactly one user, and the numbers used by >= 10 and >= 100 users."""
    out = {}
    for k, pairs, per_gram in _kgram_users(tc, max_k):
        out[k] = {
            "per_user": pairs / tc.n_users,
            "distinct": int(len(per_gram)),
            "one_user_share": float((per_gram == 1).mean()) if len(per_gram) else 0.0,
            "users_ge_10": int((per_gram >= 10).sum()),
            "users_ge_100": int((per_gram >= 100).sum()),
        }
    return out


def shared_kgrams(tc: TokenCorpus, *, min_users: int = 10, max_k: int = 6) -> list[int]:
    """The number of distinct k-grams used by at least ``min_users`` users, k = 1 .. max_k (issue 20's
    calibration statistic)."""
    return [int((per_gram >= min_users).sum()) for _, _, per_gram in _kgram_users(tc, max_k)]


if __name__ == "__main__":
    raise SystemExit(main())
