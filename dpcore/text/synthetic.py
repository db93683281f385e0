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
``python3 -m dpcore.text.synthetic`` rewrites the shipped files (in ``sample_data/``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
from dataclasses import dataclass
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

from .synthetic_model import (
    _M1 as _M1,
)
from .synthetic_model import (
    _M2 as _M2,
)
from .synthetic_model import (
    _M3 as _M3,
)
from .synthetic_model import (
    BLOCK as BLOCK,
)
from .synthetic_model import (
    CLOSING as CLOSING,
)
from .synthetic_model import (
    COPY_ATTEMPTS as COPY_ATTEMPTS,
)
from .synthetic_model import (
    COPY_MAX_WRITERS as COPY_MAX_WRITERS,
)
from .synthetic_model import (
    COPY_MIN_TOKENS as COPY_MIN_TOKENS,
)
from .synthetic_model import (
    DISCOUNT as DISCOUNT,
)
from .synthetic_model import (
    FIRST as FIRST,
)
from .synthetic_model import (
    GENRES as GENRES,
)
from .synthetic_model import (
    HERE as HERE,
)
from .synthetic_model import (
    LAST as LAST,
)
from .synthetic_model import (
    MAX_RUN as MAX_RUN,
)
from .synthetic_model import (
    MAX_SENTENCES as MAX_SENTENCES,
)
from .synthetic_model import (
    MAX_TOKENS as MAX_TOKENS,
)
from .synthetic_model import (
    N_NUMBERS as N_NUMBERS,
)
from .synthetic_model import (
    OPENING as OPENING,
)
from .synthetic_model import (
    ORDER as ORDER,
)
from .synthetic_model import (
    OWN_MIN_COUNT as OWN_MIN_COUNT,
)
from .synthetic_model import (
    OWN_SHARE as OWN_SHARE,
)
from .synthetic_model import (
    P_PET as P_PET,
)
from .synthetic_model import (
    P_SIGNATURE as P_SIGNATURE,
)
from .synthetic_model import (
    PET_FRAMES as PET_FRAMES,
)
from .synthetic_model import (
    PRIVATE_PATH as PRIVATE_PATH,
)
from .synthetic_model import (
    PRIVATE_SEED as PRIVATE_SEED,
)
from .synthetic_model import (
    PROMPT_SHARE as PROMPT_SHARE,
)
from .synthetic_model import (
    PROMPT_TILT_SEED as PROMPT_TILT_SEED,
)
from .synthetic_model import (
    PUBLIC_PATH as PUBLIC_PATH,
)
from .synthetic_model import (
    PUBLIC_SEED as PUBLIC_SEED,
)
from .synthetic_model import (
    REDRAWS as REDRAWS,
)
from .synthetic_model import (
    SIZES as SIZES,
)
from .synthetic_model import (
    VOCAB_PATH as VOCAB_PATH,
)
from .synthetic_model import (
    _context_keys as _context_keys,
)
from .synthetic_model import (
    _draw as _draw,
)
from .synthetic_model import (
    _hash_table as _hash_table,
)
from .synthetic_model import (
    _longest_run as _longest_run,
)
from .synthetic_model import (
    _lookup as _lookup,
)
from .synthetic_model import (
    _mix as _mix,
)
from .synthetic_model import (
    _Model as _Model,
)
from .synthetic_model import (
    _model as _model,
)
from .synthetic_model import (
    _quirky_words as _quirky_words,
)
from .synthetic_model import (
    _sentence_hash as _sentence_hash,
)
from .synthetic_model import (
    _uniform as _uniform,
)


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
