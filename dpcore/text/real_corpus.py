"""Real people's text: the BYU Chit-Chat Challenge corpus, shipped by the ``chitchat-dataset`` package.

``chitchat-dataset`` 0.9.0 (MIT licence, © 2019 Perception, Control and Cognition Lab, BYU) holds the
Chit-Chat Challenge 2018: 7,168 two-person conversations, 258,145 messages by 1,315 people, each
person with a stable anonymous id (``sender``, a UUID), each conversation started from one of 34
prompts ("What's your favorite smell?"). The data lies inside the installed package: nothing is read
from the network.

How it maps onto a :class:`~dpcore.Corpus` (the unit of privacy is a *person*):

* users = people, in the order of their sender ids (UUIDs: an order that says nothing about them);
* documents = one person's messages in one conversation, in the order of the conversation ids;
* sentences = the messages, each split further at ``. ! ?`` and line breaks by
  :func:`dpcore.tokenize` exactly as uploads and the sample corpora are (n-grams never cross a
  message, nor a sentence within it);
* each document's ``genre`` is its conversation's prompt (``None`` for the 243 conversations without
  one). The prompt is a label for *evaluation only* (does a released topic still match what people
  talked about?): no mechanism reads it and no release contains it.

``which="private"`` and ``which="public"`` are a fixed split **of people**: 70 % / 30 %
(``PRIVATE_SHARE``; 920 / 395 people), chosen by a seeded permutation (``SPLIT_SEED``) of the sorted
sender ids, so no person is in both. The public part stands in for the public data some mechanisms
need (BayesianDP's prior, the vocabulary): it is other people of the same chat, not a published
corpus — a page that names the public data says so.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..validation import check_choice
from .corpus import Corpus, CorpusError, Document, _shipped_public, corpus_from_token_arrays, data_cache_dir, tokenize

__all__ = [
    "REAL_CORPORA",
    "REAL_SPLITS",
    "PRIVATE_SHARE",
    "SPLIT_SEED",
    "REAL_CORPUS_CITATION",
    "load_real_corpus",
    "real_corpus_prompts",
]

REAL_CORPORA = ("chat",)
REAL_SPLITS = ("all", "private", "public")
PRIVATE_SHARE = 0.7
SPLIT_SEED = 20180502  # the challenge's first conversation day; fixed forever (changing it changes every number)
REAL_CORPUS_CITATION = (
    "BYU Perception, Control and Cognition Lab, Chit-Chat Challenge dataset (2018), "
    "chitchat-dataset 0.9.0 on PyPI, MIT licence, https://github.com/BYU-PCCL/chitchat-dataset"
)


def _dataset() -> dict:
    try:
        import chitchat_dataset
    except ImportError:
        raise CorpusError(
            "the real chat corpus needs the chitchat-dataset package: pip install "
            "'chitchat-dataset==0.9.0' (it is a dependency of this project)"
        ) from None
    return chitchat_dataset.Dataset()


_PEOPLE_ARRAYS = ("words_joined", "tokens", "sent_off", "doc_off", "user_off", "doc_genre", "genres", "user_ids")
PEOPLE_CACHE_VERSION = 2


def people_cache_path() -> Path | None:
    """Where the tokenized chat is cached (``data_cache_dir()``), named by what it is derived from: the
    package's data file and the tokenizer's source (dpcore/text/corpus.py and this module). None without the package.

    Tokenizing the 258,145 messages costs ~2–5 s of CPU on every new server; reading the cache ~0.5 s."""
    try:
        import chitchat_dataset
    except ImportError:
        return None
    digest = hashlib.sha256(f"v{PEOPLE_CACHE_VERSION}".encode())
    for path in (
        Path(chitchat_dataset.__file__).with_name("dataset.json"),
        Path(__file__).with_name("corpus.py"),
        Path(__file__),
    ):
        try:
            digest.update(path.read_bytes())
        except OSError:
            return None
    return data_cache_dir() / f"chat-people-{digest.hexdigest()[:16]}.npz"


def _people_arrays(ids, users) -> dict:
    """The people in the compact form of :func:`corpus_from_token_arrays` (token ids, offsets, genre ids)."""
    word_id: dict[str, int] = {}
    genre_id: dict[str | None, int] = {}
    tokens: list[int] = []
    sent_off, doc_off, user_off, doc_genre = [0], [0], [0], []
    for docs in users:
        for doc in docs:
            for sent in doc.sentences:
                tokens.extend(word_id.setdefault(w, len(word_id)) for w in sent)
                sent_off.append(len(tokens))
            doc_off.append(len(sent_off) - 1)
            doc_genre.append(genre_id.setdefault(doc.genre, len(genre_id)))
        user_off.append(len(doc_off) - 1)
    genres = list(genre_id)
    # the words as one string (tokens never hold a line break): an array of strings pads each to the longest (464)
    return {
        "words_joined": np.array("\n".join(word_id)),
        "tokens": np.array(tokens, dtype=np.int32),
        "sent_off": np.array(sent_off, dtype=np.int64),
        "doc_off": np.array(doc_off, dtype=np.int64),
        "user_off": np.array(user_off, dtype=np.int64),
        "doc_genre": np.array(doc_genre, dtype=np.int32),
        # None (no prompt) is stored as the empty string: no prompt of the data set is empty
        "genres": np.array(["" if g is None else g for g in genres], dtype=str),
        "user_ids": np.array(ids, dtype=str),
    }


@lru_cache(maxsize=1)
def _people() -> tuple[tuple[str, ...], tuple[tuple[Document, ...], ...]]:
    """Every person's documents, people sorted by sender id, documents by conversation id (from the disk cache
    when it holds this data and tokenizer's result; a missing, damaged or foreign file is rebuilt)."""
    from .._cache_files import read_npz, write_npz

    path = people_cache_path()
    arrays = read_npz(path, _PEOPLE_ARRAYS) if path is not None else None
    if arrays is not None:
        genres = [g or None for g in arrays["genres"].tolist()]
        corpus = corpus_from_token_arrays(
            str(arrays["words_joined"]).split("\n"),
            arrays["tokens"],
            arrays["sent_off"],
            arrays["doc_off"],
            arrays["user_off"],
            doc_genre=arrays["doc_genre"],
            genres=genres,
            user_ids=arrays["user_ids"].tolist(),
        )
        return corpus.user_ids, corpus.users
    ids, users = _people_from_package()
    if path is not None:
        write_npz(path, _people_arrays(ids, users))  # a read-only home works without the cache
    return ids, users


def _people_from_package() -> tuple[tuple[str, ...], tuple[tuple[Document, ...], ...]]:
    """Every person's documents, tokenized from the package's data file."""
    data = _dataset()
    by_person: dict[str, list[Document]] = {}
    for conv_id in sorted(data):
        conv = data[conv_id]
        prompt = conv.get("prompt") or None
        sentences: dict[str, list[tuple[str, ...]]] = {}
        for turn in conv["messages"]:
            for message in turn:
                sents = tokenize(message.get("text") or "")
                if sents:
                    sentences.setdefault(message["sender"], []).extend(sents)
        for person, person_sents in sentences.items():
            by_person.setdefault(person, []).append(Document(sentences=tuple(person_sents), genre=prompt))
    ids = tuple(sorted(by_person))
    return ids, tuple(tuple(by_person[p]) for p in ids)


def _split(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices of the private (70 %) and public (30 %) people, each in sender-id order."""
    order = np.random.default_rng(SPLIT_SEED).permutation(n)
    n_private = int(np.floor(PRIVATE_SHARE * n))
    return np.sort(order[:n_private]), np.sort(order[n_private:])


@lru_cache(maxsize=len(REAL_SPLITS))
def _load(name: str, which: str) -> Corpus:
    ids, users = _people()
    if which == "all":
        return Corpus(user_ids=ids, users=users, name=f"real:{name}")
    private, public = _split(len(ids))
    idx = private if which == "private" else public
    return Corpus(user_ids=tuple(ids[i] for i in idx), users=tuple(users[i] for i in idx), name=f"real:{name}:{which}")


def load_real_corpus(name: str = "chat", *, which: str = "all") -> Corpus:
    """Load a corpus of real people's writing (offline; see the module docstring for the mapping).

    Args:
        name: ``"chat"`` — the BYU Chit-Chat Challenge 2018 (1,315 people), from ``chitchat-dataset``.
        which: ``"all"`` (1,315 people), ``"private"`` (920) or ``"public"`` (395): a fixed, seeded
            70 % / 30 % split of people; the two parts partition ``"all"``.

    Returns:
        A :class:`Corpus` whose documents carry their conversation's prompt as ``genre`` (evaluation
        only). Loaded corpora are kept in memory (they are immutable): a second call is free.

    Raises:
        ValueError: ``name`` or ``which`` is not one of the choices.
        CorpusError: the ``chitchat-dataset`` package is not installed.
    """
    check_choice("name", name, REAL_CORPORA)
    check_choice("which", which, REAL_SPLITS)
    corpus = _load(name, which)
    return _shipped_public(corpus) if which == "public" else corpus


def real_corpus_prompts(corpus: Corpus) -> dict[str, int]:
    """Documents per conversation prompt (``"(none)"`` for conversations without one), most used first."""
    return dict(sorted(corpus.genres().items(), key=lambda kv: (-kv[1], kv[0])))
