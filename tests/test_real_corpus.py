"""dpcore.load_real_corpus: the BYU Chit-Chat corpus as users → documents → sentences (issue 20)."""

from collections import Counter

import pytest

import dpcore
from dpcore.text.real_corpus import PRIVATE_SHARE, load_real_corpus


@pytest.fixture(scope="module")
def chat():
    return load_real_corpus("chat", which="all")


def test_all_people_and_a_partition_of_them(chat):
    private, public = load_real_corpus(which="private"), load_real_corpus(which="public")
    assert chat.n_users == 1315
    assert (private.n_users, public.n_users) == (920, 395)  # floor(0.7 × 1,315) people are private
    assert private.n_users == int(PRIVATE_SHARE * chat.n_users)
    assert not set(private.user_ids) & set(public.user_ids)
    assert set(private.user_ids) | set(public.user_ids) == set(chat.user_ids)
    assert private.n_tokens + public.n_tokens == chat.n_tokens


def test_documents_are_one_person_in_one_conversation(chat):
    import chitchat_dataset

    data = chitchat_dataset.Dataset()
    pairs = {
        (m["sender"], cid)
        for cid, conv in data.items()
        for turn in conv["messages"]
        for m in turn
        if dpcore.tokenize(m["text"])
    }
    assert chat.n_documents == len(pairs)
    people = {p for p, _ in pairs}
    assert set(chat.user_ids) == people
    assert list(chat.user_ids) == sorted(chat.user_ids)
    # every message's tokens are kept, and no sentence spans two messages
    messages = [m["text"] for conv in data.values() for turn in conv["messages"] for m in turn]
    assert chat.n_tokens == sum(len(t) for m in messages for s in dpcore.tokenize(m) for t in [s])
    assert chat.n_sentences == sum(len(dpcore.tokenize(m)) for m in messages)


def test_prompts_are_labels(chat):
    prompts = Counter(chat.genres())
    assert len([p for p in prompts if p != "(none)"]) == 34
    assert "What's your favorite smell?" in prompts


def test_stable_content_hashes():
    # pinned: chitchat-dataset 0.9.0, people sorted by sender id, documents by conversation id, SPLIT_SEED
    assert load_real_corpus().content_hash.startswith("1ef2fee03b94")
    assert load_real_corpus(which="private").content_hash.startswith("c777e939a779")
    assert load_real_corpus(which="public").content_hash.startswith("a555854223a8")


def test_shared_phrases_as_measured_in_issue_20(chat):
    """Distinct k-grams used by ≥ 10 people, k = 1…6 (issue 20's table, recomputed with sets)."""
    expected = [6181, 19011, 12139, 3304, 683, 169]
    users = chat.user_sentences()
    for k, want in enumerate(expected, start=1):
        c = Counter()
        for sents in users:
            c.update({tuple(s[i : i + k]) for s in sents for i in range(len(s) - k + 1)})
        assert sum(v >= 10 for v in c.values()) == want, k


@pytest.mark.parametrize(
    "kw, msg", [({"name": "reddit"}, "name must be one of"), ({"which": "train"}, "which must be one of")]
)
def test_bad_choices(kw, msg):
    with pytest.raises(ValueError, match=msg):
        load_real_corpus(**kw)


# ------------------------------------------------------------------------------ the tokenized chat on disk
def test_the_disk_cache_gives_the_same_people_and_a_damaged_file_is_rebuilt(tmp_path, monkeypatch):
    from dpcore.text import real_corpus as rc

    monkeypatch.setenv("DPCORE_DATA_CACHE", str(tmp_path))
    rc._people.cache_clear()
    try:
        from_package = dpcore.Corpus(*rc._people_from_package())
        built = dpcore.Corpus(*rc._people())  # tokenizes and writes the cache
        path = rc.people_cache_path()
        assert path.parent == tmp_path and path.exists()
        rc._people.cache_clear()
        cached = rc._people()  # read back from the file
        assert cached[1][0][0].genre == from_package.users[0][0].genre
        for corpus in (built, dpcore.Corpus(*cached)):
            assert corpus.content_hash == from_package.content_hash  # ids, genres (None kept) and every token
        assert (
            sum(d.genre is None for docs in cached[1] for d in docs)
            == sum(d.genre is None for docs in from_package.users for d in docs)
            > 0
        )
        path.write_bytes(path.read_bytes()[:1000])  # truncated: discarded and rebuilt, never a traceback
        rc._people.cache_clear()
        assert dpcore.Corpus(*rc._people()).content_hash == from_package.content_hash
        assert path.stat().st_size > 1000
    finally:
        rc._people.cache_clear()


def test_the_cache_is_named_by_the_data_and_the_tokenizer(tmp_path, monkeypatch):
    from dpcore.text import real_corpus as rc

    monkeypatch.setenv("DPCORE_DATA_CACHE", str(tmp_path))
    first = rc.people_cache_path()
    monkeypatch.setattr(rc, "PEOPLE_CACHE_VERSION", rc.PEOPLE_CACHE_VERSION + 1)
    assert rc.people_cache_path() != first  # a new format or tokenizer source is a new file, never a stale read
