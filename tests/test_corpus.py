import gzip
import json

import pytest

from dpcore import Corpus, CorpusError, corpus_from_records, load_uploaded_corpus, tokenize
from dpcore.text import Document, read_table, table_columns

CSV = "user,text,extra\nann,Hello there. How are you?,1\nbob,Fine thanks!,2\nann,Another note.,3\n"


def test_tokenize_sentences_and_tokens():
    assert tokenize("Hello, World! It's 2 o'clock.\nNew line") == (
        ("hello", "world"),
        ("it's", "2", "o'clock"),
        ("new", "line"),
    )
    assert tokenize("...!!") == ()


def test_csv_upload_groups_documents_by_user():
    c = load_uploaded_corpus(CSV.encode(), "x.csv", user_column="user", text_column="text")
    assert c.user_ids == ("ann", "bob")
    assert c.n_documents == 3 and c.n_users == 2
    assert c.user_sentences()[0] == [("hello", "there"), ("how", "are", "you"), ("another", "note")]
    assert c.document_users() == [0, 0, 1]
    assert c.n_tokens == 9


def test_jsonl_and_gzip_upload():
    lines = "\n".join(json.dumps({"who": f"u{i % 3}", "body": f"text number {i}."}) for i in range(9))
    for data, name in ((lines.encode(), "f.jsonl"), (gzip.compress(lines.encode()), "f.jsonl.gz")):
        c = load_uploaded_corpus(data, name, user_column="who", text_column="body")
        assert c.n_users == 3 and c.n_documents == 9


def test_content_hash_is_stable_and_content_sensitive():
    a = load_uploaded_corpus(CSV.encode(), "a.csv", user_column="user", text_column="text")
    b = load_uploaded_corpus(CSV.encode(), "b.csv", user_column="user", text_column="text")
    assert a.content_hash == b.content_hash and a == b  # the name does not enter the hash
    changed = load_uploaded_corpus(
        CSV.replace("Fine", "Good").encode(), "a.csv", user_column="user", text_column="text"
    )
    assert changed.content_hash != a.content_hash
    # same tokens, different split into users → different hash
    moved = load_uploaded_corpus(
        CSV.replace("bob,", "ann,").replace("ann,Hello", "bob,Hello").encode(),
        "a.csv",
        user_column="user",
        text_column="text",
    )
    assert moved.content_hash != a.content_hash
    assert len(a.content_hash) == 64


def test_subset_keeps_users_in_given_order():
    c = load_uploaded_corpus(CSV.encode(), "x.csv", user_column="user", text_column="text")
    s = c.subset([1])
    assert s.user_ids == ("bob",) and s.n_documents == 1


@pytest.mark.parametrize(
    "data, name, kwargs, message",
    [
        (b"", "x.csv", {}, "the file is empty"),
        (b"   \n\n", "x.csv", {}, "holds no text"),
        (b"\xff\xfeu\x00s\x00", "x.csv", {}, "not UTF-8"),
        (b"user,text\n", "x.csv", {}, "header but no rows"),
        (b"a\n", "x.txt", {}, "unsupported file type"),
        (b'{"user": 1\n', "x.jsonl", {}, "line 1 is not valid JSON"),
        (b"[1, 2]\n", "x.jsonl", {}, "not an object"),
        (b"x" * 2000, "x.csv", {"max_bytes": 1000}, "too large"),
    ],
)
def test_read_table_errors(data, name, kwargs, message):
    with pytest.raises(CorpusError, match=message):
        read_table(data, name, **kwargs)


def test_wrong_columns_name_the_available_ones():
    with pytest.raises(
        CorpusError, match=r"the text column 'body' is not in the file; its columns are 'user', 'text', 'extra'"
    ):
        load_uploaded_corpus(CSV.encode(), "x.csv", user_column="user", text_column="body")
    with pytest.raises(CorpusError, match="must be different"):
        load_uploaded_corpus(CSV.encode(), "x.csv", user_column="text", text_column="text")


def test_one_user_only_is_rejected_with_reason():
    data = b"user,text\nann,One sentence.\nann,Two sentences.\n"
    with pytest.raises(CorpusError, match=r"1 user\(s\) but at least 2 are needed"):
        load_uploaded_corpus(data, "x.csv", user_column="user", text_column="text")


def test_no_words_anywhere_is_rejected():
    with pytest.raises(CorpusError, match="no usable text"):
        load_uploaded_corpus(b"user,text\nann,...\nbob,!!\n", "x.csv", user_column="user", text_column="text")


def test_corpus_error_is_a_value_error_and_columns_helper():
    assert issubclass(CorpusError, ValueError)
    assert table_columns([{"a": 1}, {"b": 2, "a": 3}]) == ["a", "b"]


def test_duplicate_user_ids_rejected():
    d = Document(sentences=(("a",),))
    with pytest.raises(CorpusError, match="distinct"):
        Corpus(user_ids=("x", "x"), users=((d,), (d,)))


def test_records_missing_field():
    with pytest.raises(CorpusError, match="row 2 has no column 'text'"):
        corpus_from_records([{"user": "a", "text": "hi"}, {"user": "b"}], user_field="user", text_field="text")
