"""The synthetic generator's n-gram model (:mod:`dpcore.text.synthetic` samples it): its constants, its hashing
and its fit on the real chat corpus's public split (``load_real_corpus("chat", which="public")``; about 8 s of
CPU, once per process). Split from ``synthetic.py`` by concept (the fit vs. the sampling); see that module's
docstring for the model and its calibration.
"""

from __future__ import annotations

from typing import Any

import os
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .real_corpus import load_real_corpus

HERE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "sample_data")
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
    corpus = load_real_corpus("chat", which="public")
    counts = Counter(t for docs in corpus.users for d in docs for s in d.sentences for t in s)
    words = [""] + [w for w, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]
    if len(words) >= 1 << 20:
        raise RuntimeError("the n-gram model packs token ids in 20 bits")
    ids = {w: i for i, w in enumerate(words)}
    fit = _fit_sequence(corpus, ids)
    key, tok, cnt, lev, cmp_ = _context_rows(fit)
    first = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    last = np.r_[first[1:], len(key)] - 1
    types = last - first + 1
    total = np.add.reduceat(cnt, first)
    disc = np.where(lev[first] > 0, DISCOUNT, 0.0)  # the empty context keeps its counts undiscounted
    row = np.repeat(np.arange(len(first)), types)
    within = _within_row_cumulative(cnt, first, last, types, total, disc, row)
    level0 = np.full(len(GENRES) + 3, -1, dtype=np.int64)
    l0 = lev[first] == 0
    level0[cmp_[first][l0]] = np.flatnonzero(l0)
    owner = _prompt_owner(len(words), fit)
    n_model = len(words)
    number_ids = _add_extra_words(words, ids)
    person_docs = np.array([len(docs) for docs in corpus.users], dtype=np.int64)
    cum = row + within
    # guide table: entry i of a row with n entries points at the first entry whose cum exceeds row + i / n
    guide = np.searchsorted(cum, row + (np.arange(len(row)) - first[row]) / types[row], side="right")
    guide = np.minimum(guide, last[row])
    table_key, table_row = _hash_table(key[first])
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
        rare_sentences=_rare_sentence_hashes(corpus, ids),
        owner=np.r_[owner, np.full(len(words) - len(owner), -1)],
        prompt_docs=np.bincount(np.array(fit.doc_genre), minlength=len(GENRES)),
        person_docs=person_docs,
        person_first=np.cumsum(np.r_[0, person_docs[:-1]]),
        doc_sents=np.array([len(d.sentences) for docs in corpus.users for d in docs], dtype=np.int64),
        ids=ids,
        number_ids=number_ids,
    )


@dataclass(frozen=True, eq=False)
class _FitSequence:
    """The public split as one token sequence (each sentence after ORDER − 1 start pads, then an end token) and
    its targets: every token and the end of every sentence, with the sentence's prompt component and position
    component (OPENING, CLOSING, 0), and each document's GENRES index."""

    seq: np.ndarray
    tpos: np.ndarray
    target: np.ndarray
    prompt_comp: np.ndarray
    pos_comp: np.ndarray
    doc_genre: list[int]


def _fit_sequence(corpus, ids: dict) -> _FitSequence:
    genre_index = {g: i for i, g in enumerate(GENRES)}
    pad = ORDER - 1
    seq: list[int] = []
    sent_len, sent_comp, sent_pos, doc_genre = [], [], [], []
    for docs in corpus.users:
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
    seq_a = np.array(seq, dtype=np.int64)
    sent_len_a = np.array(sent_len, dtype=np.int64)
    # targets: every token and the end of every sentence; context j = the j tokens before (0 = start padding)
    start = np.cumsum(np.r_[0, sent_len_a[:-1] + pad + 1]) + pad
    n_t = sent_len_a + 1
    tpos = np.repeat(start, n_t) + np.arange(n_t.sum()) - np.repeat(np.cumsum(np.r_[0, n_t[:-1]]), n_t)
    return _FitSequence(
        seq=seq_a,
        tpos=tpos,
        target=seq_a[tpos],
        prompt_comp=np.repeat(np.array(sent_comp, dtype=np.int64), n_t),
        pos_comp=np.repeat(np.array(sent_pos, dtype=np.int64), n_t),
        doc_genre=doc_genre,
    )


def _context_rows(fit: _FitSequence) -> tuple[np.ndarray, ...]:
    """(key, tok, count, level, component) of every (context, token) entry of every component and order, sorted by
    (key, token): raw counts at the highest order, Kneser-Ney continuation counts below."""
    seq_a, tpos, prompt_comp, pos_comp = fit.seq, fit.tpos, fit.prompt_comp, fit.pos_comp
    # components: the global model (every target), the prompt's, the first / last sentences of documents
    parts: list[tuple[np.ndarray, Any]] = [
        (np.zeros_like(fit.target), slice(None)),
        (prompt_comp, slice(None)),
        (pos_comp[pos_comp > 0], pos_comp > 0),
    ]
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
    return key, tok, cnt, lev, cmp_


def _within_row_cumulative(cnt, first, last, types, total, disc, row) -> np.ndarray:
    """The cumulative discounted probability of each entry within its row (1.0 at the row's last entry)."""
    p = (cnt - disc[row]) / (total - disc * types)[row]
    # cumulative probability within each row: one cumsum that drops the previous rows' 1.0 at each row's
    # start (so the running sum stays in [0, 1] and keeps full precision), minus its drift at the row's start
    step = p.copy()
    step[first[1:]] -= 1.0
    within = np.cumsum(step)
    within -= np.repeat(within[first] - p[first], types)
    within[last] = 1.0
    return within


def _prompt_owner(n_words: int, fit: _FitSequence) -> np.ndarray:
    """A prompt's own words: used >= OWN_MIN_COUNT times, at least OWN_SHARE of them in that prompt's documents
    (the GENRES index of the owner per word, −1 for none)."""
    target, prompt_comp = fit.target, fit.prompt_comp
    by_prompt = np.zeros((n_words, len(GENRES)), dtype=np.int64)
    np.add.at(by_prompt, (target[target > 0], prompt_comp[target > 0] - 1), 1)
    by_prompt[:, GENRES.index(None)] = 0  # "no prompt" owns nothing
    total_use = np.bincount(target, minlength=n_words)
    return np.where(
        (total_use >= OWN_MIN_COUNT) & (by_prompt.max(axis=1) >= OWN_SHARE * total_use), by_prompt.argmax(axis=1), -1
    )


def _add_extra_words(words: list[str], ids: dict) -> np.ndarray:
    """Add the signature and pet-phrase words and the signature numbers to ``words`` / ``ids`` (in place) and
    return the id of str(n) for n < N_NUMBERS."""
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
    return number_ids


def _rare_sentence_hashes(corpus, ids: dict) -> np.ndarray:
    """Messages that fewer than three people wrote (>= COPY_MIN_TOKENS tokens): never generated verbatim. Their
    hashes, sorted."""
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
    return np.unique(_sentence_hash(mat, lens))


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
