"""Text in: corpora (users → documents → sentences → tokens), the shipped and real corpora, uploads,
tokens → k-gram indexes, per-user n-gram counts, streaming input for big corpora and the text profile.

No noise here: everything in this package is an exact, private computation on the corpus.
"""

from __future__ import annotations

from .corpus import (
    Corpus,
    Document,
    CorpusError,
    tokenize,
    corpus_from_records,
    UploadLimits,
    shipped_public_hashes,
    sample_data_dir,
    SAMPLE_CORPORA,
    SAMPLE_SIZES,
    data_cache_dir,
    corpus_from_token_arrays,
)
from .samples import load_sample_corpus
from .uploads import (
    read_table,
    iter_table,
    peek_columns,
    table_columns,
    UPLOAD_LIMITS,
    load_uploaded_corpus,
    MAX_UPLOAD_BYTES,
)
from .real_corpus import (
    REAL_CORPORA,
    REAL_SPLITS,
    PRIVATE_SHARE,
    SPLIT_SEED,
    REAL_CORPUS_CITATION,
    load_real_corpus,
    real_corpus_prompts,
)
from .ngrams import (
    encode_corpus,
    TokenCorpus,
    KgramLevel,
    NgramIndex,
    encode_users,
    build_ngram_index,
    rows_membership,
    MAX_NGRAM_LENGTH,
)
from .counts import (
    NgramCounts,
    ngram_counts,
    sentence_ngrams,
    NGRAM_ORDERS,
)
from .stream import (
    INPUT_SUFFIXES,
    InputError,
    input_files,
    iter_records,
    read_token_corpus,
)
from .profile import (
    TextProfile,
    text_profile,
    sentences_per_user,
    dpne_vs_dpsu_reason,
    reason_length,
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
