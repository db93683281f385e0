"""A tiny sample-data folder with TopicDP sensitivity draws computed here, for tests that need draws.

The shipped draws (``sample_data/topicdp_sensitivity``) are keyed by the shipped corpus's hash, so a
regenerated corpus has none until the sampler is rerun (about 4 minutes at the page defaults). Tests of
the page's behaviour with draws present therefore run on this 40-user corpus: ``tiny_topicdp`` writes it,
runs the sampler for γ = 0.1 (h = 285 pairs, N = 8 users, K = 6 LDA topics, one worker) into a
throw-away cache, and the tests open the page with ``TINY_QUERY`` (the same settings in the URL).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np

WORDS = {
    "sport": "football goal match team player coach league score stadium season".split(),
    "food": "pasta pizza sauce cheese garlic oven recipe dinner tomato bread".split(),
    "money": "invoice payment bank account dollars budget price cost salary refund".split(),
    "travel": "flight hotel airport train ticket luggage passport taxi beach museum".split(),
}
TINY_QUERY = {"topicdp_k": "6", "topicdp_N": "8", "topicdp_workers": "1", "corpus": "classroom"}
"""(``corpus=classroom``: the tiny corpus stands in for the synthetic classroom sample, DPCORE_SAMPLE_DATA.)"""


def write_tiny(path: Path, n_users: int = 40, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    names = list(WORDS)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for u in range(n_users):
            for _ in range(2 + u % 3):
                a, b = WORDS[names[u % 4]], WORDS[names[(u + 1) % 4]]
                words = list(rng.choice(a, 12)) + list(rng.choice(b, 3))
                fh.write(json.dumps({"user": f"u{u:03d}", "genre": "email", "text": " ".join(words) + "."}) + "\n")


def build(root: Path) -> tuple[Path, Path]:
    """Write the corpus to ``root/data`` and the draws to ``root/cache``; return both folders."""
    import dpcore
    from dpcore import topicdp as tdp
    from dpcore.topicdp import LdaSettings, document_term_data

    data, cache = root / "data", root / "cache"
    data.mkdir(parents=True)
    write_tiny(data / "private.jsonl.gz")
    write_tiny(data / "public.jsonl.gz", seed=1)
    rows = [json.loads(x) for x in gzip.open(data / "private.jsonl.gz", "rt")]
    corpus = dpcore.corpus_from_records(rows, user_field="user", text_field="text", genre_field="genre")
    lda = LdaSettings(n_topics=int(TINY_QUERY["topicdp_k"]))
    sampler = tdp.SamplerSettings(sample_users=int(TINY_QUERY["topicdp_N"]))
    tdp.extend_sensitivity_draws(
        document_term_data(corpus, settings=lda),
        n_pairs=dpcore.topicdp.sensitivity_sampler_size(gamma=0.1).h,
        lda=lda,
        sampler=sampler,
        cache_dir=cache,
        workers=1,
    )
    return data, cache
