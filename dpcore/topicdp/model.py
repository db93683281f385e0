"""The topic model behind TopicDP: LDA on a corpus' documents and its m × n topic–keyword matrix.

Thesis 004 §2.1 and SPEC §5: f(D) fits LDA (fixed ``random_state``; engine below) on the
documents; the released matrix W ∈ [0, 1]^{m×n} has the m most prevalent topics as rows and, as
columns, the union of the selected topics' top keywords, truncated or padded to n by overall weight;
every row is renormalised to a probability vector over those n words (thesis §2.1: "the sum of the
entries in each row is 1"; this is also what the Laplace baseline's ℓ1 sensitivity 2m assumes).

Readings taken here (the thesis and SPEC are silent on them):

* **Fixed vocabulary.** The CountVectorizer vocabulary is built once from the whole corpus and kept
  for every fit (the full-corpus release and the 2h fits of the sensitivity sampler), so the fits
  of D and D' share their columns. Words a topic does not use still carry the LDA prior mass.
  Departure: this vocabulary is computed from the private corpus and then held fixed, so, strictly, the
  sampled f is "LDA over this vocabulary" and the vocabulary itself is not covered by the sampled
  sensitivity (the thesis, too, takes its keywords from D without accounting for the choice).
* **Prevalence** of a topic = the number of word tokens LDA assigns to it (scikit-learn: the row
  sums of ``components_``, which needs no extra E-step; tomotopy: n_k).
* **Keyword columns**: each selected topic contributes its top ⌈n/m⌉ words; the union is ranked by
  overall weight Σ_t prevalence_t·β_t,w over the selected topics, truncated to n, and padded with
  the next words by the same weight when the union is smaller than n.
* **Release order** (issue 21 item 3): the m selected topics are released in ascending LDA component
  index — fixed by the seeded initialisation, not by the data — and the n columns in vocabulary order,
  each with its word. The rows carry no label but their position, so TopicDP's Δ_i compares the two
  tables of a sampled pair row by row as released (:func:`released_matrix_distance`). Measured on the
  classroom corpus against the two other choices (prevalence order, Δ_i measured in
  release order; alignment to a public reference fit): sample_data/topicdp_sensitivity/README.md.
* **Topic vocabulary** (issue 11: readable topics). Words are lower-case runs of letters; out go
  :data:`TOPIC_STOP_WORDS` (scikit-learn's ``ENGLISH_STOP_WORDS`` plus the greetings and filler words
  of e-mails and reviews in :data:`FILLER_WORDS`), words in fewer than ``min_df`` documents (rare words:
  often one user's) and words in more than ``max_df`` of the documents (too common to tell topics
  apart); at most ``max_features`` words are kept, the most frequent first.
* **Three engines behind one function** (:func:`fit_topic_word`; ``LdaSettings.engine``):

  - ``"vb"`` (default) — scikit-learn's batch variational Bayes, step for step and with the same
    random numbers, but vectorised over all documents (numpy/scipy only): the same matrix as
    ``"sklearn"`` to ~1e-9 (tests/test_topicdp.py), ~5× faster on the sample corpus.
  - ``"sklearn"`` — ``sklearn.decomposition.LatentDirichletAllocation`` itself (``max_iter`` passes,
    ``max_doc_update_iter``, ``mean_change_tol``; priors α = η = 1/K, its defaults).
  - ``"tomotopy"`` — collapsed Gibbs sampling in tomotopy's compiled sampler (optional extra
    ``[topics]``; imported lazily; without it, asking for it falls back to ``"vb"`` with a warning):
    one thread, ``gibbs_iter`` sweeps, the same fixed priors, no hyper-parameter optimisation; topic
    k's distribution is the posterior mean (n_kw + η)/(n_k + Vη) over the *fixed* vocabulary.

  Why the default is not tomotopy although it is ~25× faster than scikit-learn at the same held-out
  perplexity (benchmarks/bench_topicdp.py, ``engines``): TopicDP needs f(D) and f(D′) of neighbours to
  be close, and Gibbs chains of neighbouring datasets decouple — x and x′ hold different numbers of
  tokens, so after the first sweep the two chains consume the random stream at different offsets and
  end in different modes (on the sample corpus a 10 × 10 Δ_i of ≈ 2 at N = corpus size, against
  ≈ 0.007 for variational Bayes on the same pair; with x′ = x with one token moved, i.e. the same
  token count, the chains stay coupled and Δ_i is 0.03). Variational Bayes from the same seeded start
  is a deterministic, nearly smooth map of the counts, so neighbours stay close.
* **No warm start.** Rubinstein & Aldà's sampler needs f to be one fixed function of the dataset: a fit
  that starts from the full private corpus' fit would make f(D) depend on data outside D (and the
  released matrix is f of that same corpus), which the guarantee does not cover. A start from a public
  fit would be allowed, but it is not built. What makes the two fits of a pair comparable: one
  vocabulary, the same seed (hence the same starting λ for variational Bayes), and the same document
  order (shared users first).
* **Determinism.** Every engine is deterministic for a fixed ``random_state`` and the same input
  (tomotopy with one worker thread); the fits copy and canonicalise their input (sorted indices), so
  the result does not depend on how the count matrix was built.

Topic alignment: LDA returns its topics in an arbitrary order, so two fits are compared after
matching their rows with the Hungarian algorithm (``scipy.optimize.linear_sum_assignment``) on
squared Euclidean distances, which gives the row permutation minimising the Frobenius distance.
"""

from __future__ import annotations

import hashlib
import warnings
from dataclasses import asdict, dataclass

import numpy as np
from scipy.sparse import csr_matrix

from ..errors import UserError
from ..text.corpus import Corpus
from ..validation import check_choice, check_int, check_real

__all__ = [
    "LDA_ENGINES",
    "LDA_LEARNING_METHODS",
    "FILLER_WORDS",
    "CHAT_FILLER_WORDS",
    "CHAT_FILLER_MIN_SHARE",
    "TOPIC_STOP_WORDS",
    "chat_filler_words",
    "default_lda_engine",
    "tomotopy_available",
    "LdaSettings",
    "DocumentTermData",
    "TopicModel",
    "TopicKeywordMatrix",
    "document_term_data",
]


LDA_LEARNING_METHODS = ("batch", "online")
LDA_ENGINES = ("vb", "tomotopy", "sklearn")

FILLER_WORDS = frozenset(
    """
hi hello hey dear thanks thank regards cheers best kind kindly sincerely please pls ok okay yes yeah
hope hoping just like really quite pretty bit lot lots thing things stuff way ve ll don didn doesn isn
wasn won wouldn couldn shouldn im ive id dont cant make makes made making use used using uses get gets
getting got let lets know knew think thought want wanted need needs needed going go goes went come came
say said says tell told look looking looks good great nice sure maybe actually definitely really
doing done sorry ext
""".split()
)
"""Greetings, fillers, generic verbs and signature residue ("ext" of a phone extension) of e-mails and
reviews, kept out of the topic vocabulary beside scikit-learn's list: on the sample corpora they were
top keywords of several topics ("hope", "thanks", "make", "ext") without saying what a topic is about."""


ENGLISH_STOP_WORDS = frozenset(
    """
a about above across after afterwards again against all almost alone along already also although
always am among amongst amoungst amount an and another any anyhow anyone anything anyway anywhere
are around as at back be became because become becomes becoming been before beforehand behind being
below beside besides between beyond bill both bottom but by call can cannot cant co con could
couldnt cry de describe detail do done down due during each eg eight either eleven else elsewhere
empty enough etc even ever every everyone everything everywhere except few fifteen fifty fill find
fire first five for former formerly forty found four from front full further get give go had has
hasnt have he hence her here hereafter hereby herein hereupon hers herself him himself his how
however hundred i ie if in inc indeed interest into is it its itself keep last latter latterly least
less ltd made many may me meanwhile might mill mine more moreover most mostly move much must my
myself name namely neither never nevertheless next nine no nobody none noone nor not nothing now
nowhere of off often on once one only onto or other others otherwise our ours ourselves out over own
part per perhaps please put rather re same see seem seemed seeming seems serious several she should
show side since sincere six sixty so some somehow someone something sometime sometimes somewhere
still such system take ten than that the their them themselves then thence there thereafter thereby
therefore therein thereupon these they thick thin third this those though three through throughout
thru thus to together too top toward towards twelve twenty two un under until up upon us very via
was we well were what whatever when whence whenever where whereafter whereas whereby wherein
whereupon wherever whether which while whither who whoever whole whom whose why will with within
without would yet you your yours yourself yourselves
""".split()
)
"""scikit-learn's ``ENGLISH_STOP_WORDS`` (318 words), copied here: importing it from scikit-learn loads
pandas, which dpcore must not (tests/test_dependencies.py); tests/test_topicdp.py checks the copy."""

CHAT_FILLER_MIN_SHARE = 0.10
"""The document-frequency rule behind :data:`CHAT_FILLER_WORDS`: a word (two or more letters, not in
scikit-learn's list) used in at least this share of the documents of the real chat corpus's *public*
split is a chat filler."""

CHAT_FILLER_WORDS = frozenset(
    """
able actually awesome bad best better big byu chat class cool crazy day definitely did didn different does
doing don dont favorite feel fun getting going good got great guess haha hahaha hard heard hello hey hi
interesting just kind know life like little ll lol long lot love make makes maybe mean need new nice oh ok
people person pretty probably really right say school seen sorry sounds stuff super sure talk talking thats
thing things think thought time true try use ve want way went work world wow yeah year yes
""".split()
)
"""Chat fillers (issue 20 item 3), found by a document-frequency rule, not chosen by hand: every word that at
least :data:`CHAT_FILLER_MIN_SHARE` = 10 % of the documents (one person's messages in one conversation) of
``load_real_corpus("chat", which="public")`` use, beyond scikit-learn's list — 93 words, 49 of them new
beside :data:`FILLER_WORDS`: laughter and interjections ("haha", "hahaha", "lol", "oh", "wow", "thats"), and
the words every chat drifts to whatever its prompt ("people", "time", "school", "class", "byu", "love",
"favorite"). A word in one conversation of ten says nothing about which conversation it is; on the real
corpus they were 4–7 of the top-10 keywords of most topics. Recomputed from the public split by
:func:`chat_filler_words` (tests/test_topicdp.py checks that this list is exactly its output). It is public
data (other people than the private split's), so the list costs no privacy."""

TOPIC_STOP_WORDS = ENGLISH_STOP_WORDS | FILLER_WORDS | CHAT_FILLER_WORDS
"""Words never used as topic keywords: scikit-learn's ``ENGLISH_STOP_WORDS`` ∪ :data:`FILLER_WORDS` ∪
:data:`CHAT_FILLER_WORDS` (one list for every corpus: on the synthetic corpora the chat fillers are generic
words too)."""

TOKEN_PATTERN = r"(?u)\b[a-z][a-z]+\b"
"""A word: two or more letters (after lower-casing)."""

VOCABULARY_VERSION = hashlib.sha256((TOKEN_PATTERN + " " + " ".join(sorted(TOPIC_STOP_WORDS))).encode()).hexdigest()[
    :12
]
"""Fingerprint of the token pattern and stop-word list: part of every cache key (they change the
vocabulary, hence every Δ_i)."""


def chat_filler_words(corpus: Corpus, *, min_share: float = CHAT_FILLER_MIN_SHARE) -> frozenset[str]:
    """The document-frequency rule of :data:`CHAT_FILLER_WORDS`: the words of :data:`TOKEN_PATTERN` (after
    lower-casing) that at least ``min_share`` of ``corpus``'s documents use, minus scikit-learn's
    ``ENGLISH_STOP_WORDS``. Run on the real chat corpus's public split it gives :data:`CHAT_FILLER_WORDS`."""
    import re

    share = check_real("min_share", min_share, low=0.0, high=1.0, low_inclusive=False)
    if not isinstance(corpus, Corpus):
        raise TypeError(f"corpus must be a dpcore Corpus, got corpus={type(corpus).__name__}")
    pattern = re.compile(TOKEN_PATTERN)
    texts = corpus.document_texts()
    df: dict[str, int] = {}
    for text in texts:
        for word in set(pattern.findall(text.lower())):
            df[word] = df.get(word, 0) + 1
    need = share * len(texts)
    return frozenset(w for w, c in df.items() if c >= need and w not in ENGLISH_STOP_WORDS)


def default_lda_engine() -> str:
    """The engine used when none is named: ``"vb"`` (see the module docstring for why not tomotopy)."""
    return "vb"


def tomotopy_available() -> bool:
    """True when the optional engine (``pip install "dp-text-dashboard[topics]"``) can be imported."""
    try:
        import tomotopy  # noqa: F401 (imported only to see whether the optional package is installed)
    except ImportError:
        return False
    return True


@dataclass(frozen=True)
class LdaSettings:
    """Everything that determines f(D) besides the data (part of every cache key).

    Attributes:
      engine: ``"tomotopy"`` (collapsed Gibbs) or ``"sklearn"`` (variational Bayes); ``None`` (the
        default) picks :func:`default_lda_engine` when the settings are made, so the stored value — and
        every cache key — names the engine that really fits.
      n_topics: number of LDA topics K (the matrix's m is at most K).
      gibbs_iter: Gibbs sweeps over all tokens (tomotopy only).
      max_iter, learning_method, max_doc_update_iter, mean_change_tol: scikit-learn LDA settings
        (scikit-learn only).
      max_features, min_df, max_df: CountVectorizer vocabulary limits (built once on the corpus).
      random_state: the LDA seed, identical for every fit (SPEC §5: same seed for D and D').
      vocabulary_version: fingerprint of :data:`TOPIC_STOP_WORDS` (set automatically).
    """

    engine: str | None = None
    n_topics: int = 10
    gibbs_iter: int = 30
    max_iter: int = 10
    learning_method: str = "batch"
    max_doc_update_iter: int = 10
    mean_change_tol: float = 1e-2
    max_features: int = 1000
    min_df: int = 5
    max_df: float = 0.5
    random_state: int = 0
    vocabulary_version: str = VOCABULARY_VERSION

    def __post_init__(self):
        if self.engine is None:
            object.__setattr__(self, "engine", default_lda_engine())
        check_choice("engine", self.engine, LDA_ENGINES)
        if self.engine == "tomotopy" and not tomotopy_available():
            warnings.warn(
                "engine='tomotopy' asked for but tomotopy is not installed: falling back to "
                "engine='vb' (scikit-learn's batch variational Bayes)",
                RuntimeWarning,
                stacklevel=3,
            )
            object.__setattr__(self, "engine", "vb")
        check_int("n_topics", self.n_topics, low=2, high=50)
        check_int("gibbs_iter", self.gibbs_iter, low=1, high=5000)
        check_int("max_iter", self.max_iter, low=1, high=500)
        check_choice("learning_method", self.learning_method, LDA_LEARNING_METHODS)
        check_int("max_doc_update_iter", self.max_doc_update_iter, low=1, high=1000)
        check_real("mean_change_tol", self.mean_change_tol, low=0.0)
        check_int("max_features", self.max_features, low=10, high=100_000)
        check_int("min_df", self.min_df, low=1)
        check_real("max_df", self.max_df, low=0.0, high=1.0)
        check_int("random_state", self.random_state, low=0)

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, eq=False)
class DocumentTermData:
    """The corpus as a document–term count matrix over a fixed vocabulary, grouped by user.

    ``user_rows[u]`` are the rows of ``counts`` holding user u's documents.
    """

    counts: csr_matrix
    words: tuple[str, ...]
    user_rows: tuple[np.ndarray, ...]
    corpus_hash: str

    @property
    def n_users(self) -> int:
        return len(self.user_rows)

    def rows_of(self, users) -> np.ndarray:
        """Row indices of the documents of ``users`` (a user may repeat: resampling with replacement)."""
        return np.concatenate([self.user_rows[int(u)] for u in users])


@dataclass(frozen=True, eq=False)
class TopicModel:
    """A fitted LDA: ``topic_word[k]`` is topic k's distribution over ``words``; ``prevalence[k]``
    the number of tokens assigned to topic k."""

    topic_word: np.ndarray
    prevalence: np.ndarray
    words: tuple[str, ...]
    settings: LdaSettings
    corpus_hash: str = ""

    @property
    def n_topics(self) -> int:
        return self.topic_word.shape[0]


@dataclass(frozen=True, eq=False)
class TopicKeywordMatrix:
    """The released query f(D): an m × n row-stochastic matrix and what its rows and columns are.

    ``topics`` are indices into the model's topics — the m most prevalent, in release order (ascending LDA
    component index, not by prevalence); ``words`` the column words (in vocabulary order).
    """

    matrix: np.ndarray
    topics: tuple[int, ...]
    words: tuple[str, ...]

    @property
    def shape(self) -> tuple[int, int]:
        return self.matrix.shape


def document_term_data(corpus: Corpus, *, settings: LdaSettings = LdaSettings()) -> DocumentTermData:
    """Count matrix of ``corpus.document_texts()`` over a vocabulary fixed once on the whole corpus.

    Raises:
      ValueError: the corpus has fewer than two users or no word survives the vocabulary limits.
    """
    from sklearn.feature_extraction.text import CountVectorizer

    if not isinstance(corpus, Corpus):
        raise TypeError(f"corpus must be a dpcore Corpus, got corpus={type(corpus).__name__}")
    if corpus.n_users < 2:
        raise UserError(f"the corpus must have >= 2 users for topic mining, got {corpus.n_users}")
    texts = corpus.document_texts()
    # min_df / max_df relative to a tiny corpus can leave nothing: relax them so a small upload works.
    min_df = min(settings.min_df, max(1, len(texts) // 20))
    max_df = settings.max_df if len(texts) >= 20 else 1.0
    vec = CountVectorizer(
        max_features=settings.max_features,
        min_df=min_df,
        max_df=max_df,
        stop_words=sorted(TOPIC_STOP_WORDS),
        token_pattern=TOKEN_PATTERN,
    )
    try:
        counts = vec.fit_transform(texts).tocsr()
    except ValueError:
        raise UserError(
            "no word is left for topic mining after the vocabulary limits (stop words, min_df, max_df): "
            "the corpus needs more text"
        ) from None
    users = np.asarray(corpus.document_users())
    order = np.argsort(users, kind="stable")
    bounds = np.searchsorted(users[order], np.arange(corpus.n_users + 1))
    user_rows = tuple(order[bounds[u] : bounds[u + 1]] for u in range(corpus.n_users))
    return DocumentTermData(
        counts=counts, words=tuple(vec.get_feature_names_out()), user_rows=user_rows, corpus_hash=corpus.content_hash
    )
