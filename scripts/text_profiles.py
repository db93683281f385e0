"""Write sample_data/text_profiles.json: the text profiles the "What this text looks like" panel shows beside any data.

The panel (dpui/common/text_profile_panel.py) sets the real chat's private part (920 people) beside the chosen data, and on
the chat the synthetic classroom sample's first 920 users. Both are fixed, shipped data, so their profiles
(``dpcore.text.profile``, k = 1…9, K = 10 and 100) ship too: a page that shows another corpus does not load and
index the chat just for the reference column. Each entry carries the corpus's content hash;
tests/test_text_profile.py recomputes both. Run from the repository root::

    python scripts/text_profiles.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import dpcore

OUT = ROOT / "sample_data" / "text_profiles.json"
MAX_K, KS = 9, (10, 100)
REAL_PRIVATE = 920


def shipped_profiles() -> dict:
    """{key: entry} for the two reference profiles (key: "chat-private", "classroom-private-first-920")."""
    chat = dpcore.load_real_corpus("chat", which="private")
    classroom = dpcore.load_sample_corpus("private")
    out = {}
    for key, corpus, max_users in (
        ("chat-private", chat, None),
        (f"classroom-private-first-{REAL_PRIVATE}", classroom, REAL_PRIVATE),
    ):
        p = dpcore.text.text_profile(corpus, max_k=MAX_K, ks=KS, max_users=max_users)
        out[key] = {
            "content_hash": corpus.content_hash,
            "max_users": max_users,
            "max_k": MAX_K,
            "ks": list(KS),
            "profile": p.to_dict(),
        }
    return out


def main() -> None:
    OUT.write_text(
        json.dumps({"generated_by": "scripts/text_profiles.py", "profiles": shipped_profiles()}, separators=(",", ":"))
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {OUT} ({OUT.stat().st_size / 1e3:.0f} kB)")


if __name__ == "__main__":
    main()
