"""Text in: corpora (users → documents → sentences → tokens), the shipped and real corpora, uploads,
tokens → k-gram indexes, per-user n-gram counts, streaming input for big corpora and the text profile.

No noise here: everything in this package is an exact, private computation on the corpus.
"""

from __future__ import annotations

from .corpus import (
    SAMPLE_CORPORA,
    SAMPLE_SIZES,
    Corpus,
    CorpusError,
    Document,
    UploadLimits,
    corpus_from_records,
    corpus_from_token_arrays,
    data_cache_dir,
    sample_data_dir,
    shipped_public_hashes,
    tokenize,
)
from .counts import (
    NGRAM_ORDERS,
    NgramCounts,
    ngram_counts,
    sentence_ngrams,
)
from .ngrams import (
    MAX_NGRAM_LENGTH,
    KgramLevel,
    NgramIndex,
    TokenCorpus,
    build_ngram_index,
    encode_corpus,
    encode_users,
    rows_membership,
)
from .profile import (
    TextProfile,
    dpne_vs_dpsu_reason,
    reason_length,
    sentences_per_user,
    text_profile,
)
from .real_corpus import (
    PRIVATE_SHARE,
    REAL_CORPORA,
    REAL_CORPUS_CITATION,
    REAL_SPLITS,
    SPLIT_SEED,
    load_real_corpus,
    real_corpus_prompts,
)
from .samples import load_sample_corpus
from .stream import (
    INPUT_SUFFIXES,
    InputError,
    input_files,
    iter_records,
    read_token_corpus,
)
from .uploads import (
    MAX_UPLOAD_BYTES,
    UPLOAD_LIMITS,
    iter_table,
    load_uploaded_corpus,
    peek_columns,
    read_table,
    table_columns,
)

__all__ = [
    "Corpus",
    "Document",
    "CorpusError",
    "tokenize",
    "corpus_from_records",
    "UploadLimits",
    "load_sample_corpus",
    "shipped_public_hashes",
    "sample_data_dir",
    "SAMPLE_CORPORA",
    "SAMPLE_SIZES",
    "data_cache_dir",
    "corpus_from_token_arrays",
    "read_table",
    "iter_table",
    "peek_columns",
    "table_columns",
    "UPLOAD_LIMITS",
    "load_uploaded_corpus",
    "MAX_UPLOAD_BYTES",
    "REAL_CORPORA",
    "REAL_SPLITS",
    "PRIVATE_SHARE",
    "SPLIT_SEED",
    "REAL_CORPUS_CITATION",
    "load_real_corpus",
    "real_corpus_prompts",
    "encode_corpus",
    "TokenCorpus",
    "KgramLevel",
    "NgramIndex",
    "encode_users",
    "build_ngram_index",
    "rows_membership",
    "MAX_NGRAM_LENGTH",
    "NgramCounts",
    "ngram_counts",
    "sentence_ngrams",
    "NGRAM_ORDERS",
    "INPUT_SUFFIXES",
    "InputError",
    "input_files",
    "iter_records",
    "read_token_corpus",
    "TextProfile",
    "text_profile",
    "sentences_per_user",
    "dpne_vs_dpsu_reason",
    "reason_length",
]
