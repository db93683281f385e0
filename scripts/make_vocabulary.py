"""Derive ``sample_data/vocabulary_en.tsv`` from wordfreq, once (run by a maintainer, never by the app).

    pip install wordfreq && python3 scripts/make_vocabulary.py

The output lists the 20,000 most frequent English words of wordfreq 3.1.1's ``large`` list whose
spelling is lower-case a-z with an optional inner apostrophe ("don't"), with their frequency (per
million words, three significant digits). A few offensive words are left out (``_BLOCK``). The
generator (``dpcore/text/synthetic.py``) reads only this file, so neither the app nor CI needs wordfreq.

Attribution and licence of the derived file: word frequencies from wordfreq by Robyn Speer
(https://github.com/rspeer/wordfreq, doi:10.5281/zenodo.7199437), which combines Wikipedia,
SUBTLEX, OpenSubtitles, Google Books, NewsCrawl, GlobalVoices, Twitter and Reddit data; the
wordfreq data is redistributable under CC BY-SA 4.0, so ``vocabulary_en.tsv`` is CC BY-SA 4.0 too
(see ``sample_data/VOCABULARY_LICENSE.md``).
"""

from __future__ import annotations

import os
import re

N_WORDS = 20_000
_OK = re.compile(r"^(?:[a-z]+(?:'[a-z]+)?)$")
_BLOCK = {
    "fuck",
    "fucking",
    "fucked",
    "shit",
    "bitch",
    "cunt",
    "dick",
    "pussy",
    "nigga",
    "nigger",
    "fag",
    "faggot",
    "whore",
    "slut",
    "porn",
    "cock",
    "asshole",
    "bullshit",
    "retard",
    "retarded",
    "motherfucker",
    "fuckin",
    "dickhead",
    "tits",
    "boobs",
    "sex",
    "sexy",
    "rape",
    "nazi",
    "shite",
    "prostitute",
    "prostitutes",
    "prostitution",
    "naked",
    "nude",
    "penis",
    "vagina",
    "anal",
    "orgasm",
    "hentai",
    "milf",
    "horny",
    "erotic",
    "dildo",
    "masturbation",
    "bastard",
    "bastards",
    "cum",
    "fap",
    "gt",
    "lt",
    "amp",
    "nbsp",
    "http",
    "https",
    "www",
    "com",
    "html",
    "php",
    "jpg",
    "png",
    "url",
    "hitler",
    "kill",
    "killed",
    "killing",
    "murder",
    "suicide",
    "dead",
    "death",
    "die",
    "rapist",
    "fucks",
    "shitty",
    "slutty",
    "cocks",
    "dicks",
    "porno",
    "xxx",
    "sexual",
    "sexually",
    "lesbian",
}
OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "sample_data", "vocabulary_en.tsv")


def main() -> int:
    import wordfreq

    rows = []
    for w in wordfreq.top_n_list("en", 60_000, wordlist="large"):
        if _OK.match(w) and w not in _BLOCK and (len(w) > 1 or w in ("a", "i")):
            rows.append((w, wordfreq.word_frequency(w, "en", wordlist="large") * 1e6))
        if len(rows) == N_WORDS:
            break
    with open(OUT, "w", encoding="ascii", newline="\n") as fh:
        fh.write("# word\tper_million  (wordfreq 3.1.1 'large' English list, CC BY-SA 4.0; see make_vocabulary.py)\n")
        for w, f in rows:
            fh.write(f"{w}\t{f:.3g}\n")
    print(f"wrote {len(rows)} words to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
