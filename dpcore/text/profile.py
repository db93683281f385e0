"""What a corpus's text looks like to DPNE and DPSU: shared k-grams, k-grams per user, activity (issue 20).

Three statistics decide how DPNE fares against DPSU-single on a corpus (003 §3, SPEC §4):

* **distinct k-grams per user** (003 Table 2): a user adds 1/√|U_i| to each of at most Δ0 kept k-grams, so a
  user who holds many more than Δ0 distinct k-grams spreads a small weight over a random Δ0 of them;
* **k-grams used by at least K users**: only a k-gram many users share can gather a weight above the
  threshold ρ; DPNE's pruning (a k-gram is a candidate only when its (k−1)-gram halves were released) then
  concentrates each user's weight on the shared ones, which is how it finds long n-grams DPSU-single misses;
* **activity** (sentences per user, the heavy tail): how much of the text the most active users wrote.

:func:`text_profile` computes them from the per-user k-gram sets of :func:`dpcore.build_ngram_index`. A
*sentence* here is what the :class:`~dpcore.Corpus` keeps: :func:`dpcore.tokenize` splits text at
``. ! ?`` and line breaks (for the real chat corpus a message is one or more sentences). Evaluation only:
every number is computed from the private text, without noise; none of it may be published as a release.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, SimpleNamespace

import numpy as np

from ..errors import UserError
from ..validation import check_int
from .ngrams import NgramIndex, TokenCorpus, build_ngram_index, encode_corpus

__all__ = ["TextProfile", "text_profile", "sentences_per_user", "dpne_vs_dpsu_reason", "reason_length"]

ACTIVITY_QUANTILES = (0.5, 0.9, 0.99)


@dataclass(frozen=True, eq=False)
class TextProfile:
    """:func:`text_profile`'s result (evaluation only: computed from private text without noise).

    Attributes:
      name: the corpus's name (as given, for labels).
      n_users: number of users (users without any token count, holding no k-gram).
      lengths: k = 1 … max_k.
      thresholds: the K values of ``shared``.
      distinct_mean: per k, the mean number of distinct k-grams per user (003 Table 2's statistic).
      distinct_median: per k, the median number of distinct k-grams per user.
      shared: K → per k, the number of distinct k-grams used by at least K distinct users.
      sentences: per user, the number of sentences (what the Corpus keeps; see the module docstring).
      tokens: per user, the number of tokens.
      distinct: k → per user, the number of distinct k-grams.
    """

    name: str
    n_users: int
    lengths: tuple[int, ...]
    thresholds: tuple[int, ...]
    distinct_mean: tuple[float, ...]
    distinct_median: tuple[float, ...]
    shared: Mapping[int, tuple[int, ...]]
    sentences: np.ndarray = field(repr=False)
    tokens: np.ndarray = field(repr=False)
    distinct: Mapping[int, np.ndarray] = field(default_factory=dict, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "shared", MappingProxyType(dict(self.shared)))
        object.__setattr__(self, "distinct", MappingProxyType(dict(self.distinct)))

    def kept_share(self, k: int, cap: int) -> float:
        """Share of the (user, distinct k-gram) pairs left when every user keeps at most ``cap`` of their distinct
        k-grams (DPSU's contribution limit Δ0; BayesianDP's strict L): Σ min(d_u, cap) / Σ d_u."""
        cap = check_int("cap", cap, low=1)
        d = self.distinct[k]
        total = int(d.sum())
        return float(np.minimum(d, cap).sum() / total) if total else 1.0

    def kept_tokens(self, cap: int) -> float:
        """Share of the tokens left when every user keeps at most ``cap`` tokens (the Laplace baseline's W)."""
        cap = check_int("cap", cap, low=1)
        total = int(self.tokens.sum())
        return float(np.minimum(self.tokens, cap).sum() / total) if total else 1.0

    def shared_at(self, k: int, K: int) -> int:
        """Distinct k-grams used by at least K users."""
        if K not in self.shared:
            raise UserError(f"K must be one of {self.thresholds}, got K={K}")
        return self.shared[K][self.lengths.index(k)]

    def top_share(self, n: int = 10) -> float:
        """Share of all sentences written by the ``n`` most active users."""
        total = int(self.sentences.sum())
        return float(np.sort(self.sentences)[::-1][:n].sum() / total) if total else 0.0

    def activity(self) -> dict:
        """Sentences per user: mean, the quantiles of ``ACTIVITY_QUANTILES``, max, and the top 10's share."""
        s = self.sentences
        out = {"mean": float(s.mean()) if s.size else 0.0}
        out.update({f"q{int(q * 100)}": float(np.quantile(s, q)) if s.size else 0.0 for q in ACTIVITY_QUANTILES})
        out.update(max=int(s.max()) if s.size else 0, top10_share=self.top_share(10))
        return out

    def to_dict(self) -> dict:
        """Plain JSON-ready values (:meth:`from_dict` rebuilds the profile exactly)."""
        return {
            "name": self.name,
            "n_users": self.n_users,
            "lengths": list(self.lengths),
            "thresholds": list(self.thresholds),
            "distinct_mean": list(self.distinct_mean),
            "distinct_median": list(self.distinct_median),
            "shared": {str(K): list(v) for K, v in self.shared.items()},
            "sentences": self.sentences.tolist(),
            "tokens": self.tokens.tolist(),
            "distinct": {str(k): v.tolist() for k, v in self.distinct.items()},
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> "TextProfile":
        return cls(
            name=d["name"],
            n_users=int(d["n_users"]),
            lengths=tuple(d["lengths"]),
            thresholds=tuple(d["thresholds"]),
            distinct_mean=tuple(d["distinct_mean"]),
            distinct_median=tuple(d["distinct_median"]),
            shared={int(K): tuple(v) for K, v in d["shared"].items()},
            sentences=np.asarray(d["sentences"], dtype=np.int64),
            tokens=np.asarray(d["tokens"], dtype=np.int64),
            distinct={int(k): np.asarray(v, dtype=np.int64) for k, v in d["distinct"].items()},
        )

    def rows(self) -> list[dict]:
        """One dict per length: k, mean and median distinct k-grams per user, k-grams used by ≥ K users."""
        return [
            {
                "k": k,
                "distinct per user (mean)": self.distinct_mean[i],
                "distinct per user (median)": self.distinct_median[i],
                **{f"used by ≥ {K} users": self.shared[K][i] for K in self.thresholds},
            }
            for i, k in enumerate(self.lengths)
        ]


def sentences_per_user(corpus: TokenCorpus) -> np.ndarray:
    """Sentences per user of a :class:`TokenCorpus` (a sentence starts where the previous one has no token left)."""
    n = corpus.n_tokens
    if n == 0:
        return np.zeros(corpus.n_users, dtype=np.int64)
    starts = np.ones(n, dtype=bool)
    starts[1:] = corpus.run_left[:-1] == 1
    return np.bincount(corpus.user_of[starts], minlength=corpus.n_users).astype(np.int64)


def _first_users(corpus: TokenCorpus, n: int) -> TokenCorpus:
    """The first ``n`` users of a token corpus (its positions are grouped by user, users ascending)."""
    if n >= corpus.n_users:
        return corpus
    end = int(np.searchsorted(corpus.user_of, n))
    return TokenCorpus(
        tokens=corpus.tokens[:end],
        run_left=corpus.run_left[:end],
        user_of=corpus.user_of[:end],
        vocabulary=corpus.vocabulary,
        n_users=n,
    )


def _encode_first(corpus, n: int) -> TokenCorpus:
    """encode_corpus of the corpus's first ``n`` users; a corpus built from token arrays is cut before encoding (the
    100,000-user sample is never encoded whole for a 920-user profile). Token ids differ from a whole-corpus
    encoding, which no statistic here depends on."""
    arrays = getattr(corpus, "token_arrays", None)
    if not arrays or n >= corpus.n_users:
        return _first_users(encode_corpus(corpus), n)
    uo = np.asarray(arrays["user_off"], dtype=np.int64)[: n + 1]
    do = np.asarray(arrays["doc_off"], dtype=np.int64)[: uo[-1] + 1]
    so = np.asarray(arrays["sent_off"], dtype=np.int64)[: do[-1] + 1]
    cut = {
        "words": arrays["words"],
        "tokens": np.asarray(arrays["tokens"])[: so[-1]],
        "sent_off": so,
        "doc_off": do,
        "user_off": uo,
    }
    return encode_corpus(SimpleNamespace(token_arrays=cut))


def _index_for(data, max_k: int, max_users: int | None) -> tuple[NgramIndex, str]:
    if isinstance(data, NgramIndex):
        if max_users is not None:
            raise UserError("max_users needs a Corpus or a TokenCorpus (an index is already built on its users)")
        if data.max_length < max_k:
            raise UserError(f"max_k must be at most the index's max_length {data.max_length}, got max_k={max_k}")
        return data, ""
    if isinstance(data, TokenCorpus):
        return build_ngram_index(data if max_users is None else _first_users(data, max_users), max_k), ""
    name = str(getattr(data, "name", "") or "")
    tc = encode_corpus(data) if max_users is None else _encode_first(data, max_users)
    return build_ngram_index(tc, max_k), name


def text_profile(data, *, max_k: int = 9, ks=(10, 100), max_users: int | None = None) -> TextProfile:
    """The statistics that decide DPNE against DPSU on a corpus (module docstring; issue 20).

    Args:
      data: a :class:`dpcore.Corpus`, a :class:`TokenCorpus`, or an :class:`NgramIndex` with
        ``max_length ≥ max_k`` (reused as is: a page that built the index pays nothing more).
      max_k: the longest length (003 Table 2 goes to 9).
      ks: the thresholds K of "used by at least K users".
      max_users: when given (a Corpus or a TokenCorpus), the profile of its first ``max_users`` users in corpus
        order — to compare two corpora at the same number of users.

    Returns:
      :class:`TextProfile`. Evaluation only: it reads the private text and adds no noise.
    """
    max_k = check_int("max_k", max_k, low=1, high=20)
    ks = tuple(sorted({check_int("K", K, low=1) for K in ks}))
    if not ks:
        raise UserError("ks must hold at least one K, got ks=()")
    if max_users is not None:
        max_users = check_int("max_users", max_users, low=1)
    index, name = _index_for(data, max_k, max_users)
    tc = index.corpus
    n = tc.n_users
    mean: list[float] = []
    median: list[float] = []
    shared: dict[int, list[int]] = {K: [] for K in ks}
    distinct: dict[int, np.ndarray] = {}
    for k in range(1, max_k + 1):
        lev = index.level(k)
        per_user = np.bincount(lev.pair_user, minlength=n).astype(np.int64) if n else np.zeros(0, dtype=np.int64)
        distinct[k] = per_user
        mean.append(float(per_user.mean()) if n else 0.0)
        median.append(float(np.median(per_user)) if n else 0.0)
        for K in ks:
            shared[K].append(int(np.count_nonzero(lev.user_counts >= K)))
    tokens = np.bincount(tc.user_of, minlength=n).astype(np.int64) if tc.n_tokens else np.zeros(n, dtype=np.int64)
    return TextProfile(
        name=name,
        n_users=n,
        lengths=tuple(range(1, max_k + 1)),
        thresholds=ks,
        distinct_mean=tuple(mean),
        distinct_median=tuple(median),
        shared={K: tuple(v) for K, v in shared.items()},
        sentences=sentences_per_user(tc),
        tokens=tokens,
        distinct=distinct,
    )


def reason_length(reached, profile: TextProfile, *, K: int, prefer: int = 4) -> int | None:
    """The length :func:`dpne_vs_dpsu_reason` explains: ``prefer`` (4) when DPNE reached it and some k-gram of that
    length is used by ≥ K users, else the longest such length ≥ 2 below it; None when there is none.
    ``reached``: the lengths DPNE reached (``release.thresholds``)."""
    ok = [k for k in sorted(reached) if 2 <= k <= prefer and k in profile.lengths and profile.shared_at(k, K) > 0]
    return ok[-1] if ok else None


def dpne_vs_dpsu_reason(
    chain_rows: list, profile: TextProfile, *, K: int, contribution_limit: int, k: int | None = None
) -> str:
    """Why DPNE and DPSU-single differ on this text, in words, from one DPNE run's :func:`dpcore.dpne.pruning_chain`
    rows (at the popularity threshold ``K``) and the corpus's :class:`TextProfile` (same users).

    ``k``: the length to explain (default: :func:`reason_length` of the chain's lengths: 4, or the longest below
    it that DPNE reached with a k-gram used by ≥ K users). Evaluation only (it reads the private text).
    """
    by_k = {r["k"]: r for r in chain_rows}
    if k is None:
        k = reason_length(by_k, profile, K=K)
        if k is None:
            return (
                f"DPNE stopped before a length ≥ 2 with a k-gram used by ≥ {K} users: nothing to compare with "
                "DPSU-single at these settings."
            )
    if k not in by_k or k not in profile.distinct:
        raise UserError(f"k must be a length of the chain and of the profile, got k={k}")
    r = by_k[k]
    limit = check_int("contribution_limit", contribution_limit, low=1)
    i = profile.lengths.index(k)
    text = (
        f"{r['popular']:,} {k}-grams are used by ≥ {K} users. A user holds on average "
        f"{profile.distinct_mean[i]:,.0f} distinct {k}-grams (median {profile.distinct_median[i]:,.0f}); "
        f"DPSU-single keeps at most Δ0 = {limit} of them per user ({profile.kept_share(k, limit):.0%} of all "
        f"(user, {k}-gram) pairs) and gives each 1/√(number kept), so the popular ones reach a median weight of "
        f"{r['weight_single']:.2g} against its threshold {r['threshold_single']:.3g}."
    )
    if r["popular"] == 0 or not np.isfinite(r["weight_dpne"]):
        return text + f" None of them is a DPNE candidate at k = {k} in this run."
    text += (
        f" DPNE keeps only the {k}-grams whose (k−1)-gram halves it released ({r['valid']:.0%} of the popular "
        f"ones are such candidates): a user's weight goes to far fewer {k}-grams — {r['gain']:.2g}× more weight "
        f"per popular candidate (median) — so their median weight is {r['weight_dpne']:.2g} against DPNE's "
        f"threshold ρ_{k} = {r['threshold_dpne']:.3g}; it releases {r['released']:.0%} of the popular {k}-grams."
    )
    return text
