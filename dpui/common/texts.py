"""Long page texts, kept as Markdown in ``dpui/common/page_texts/<page>.md`` instead of in the page scripts.

A file holds named sections, each opened by a line ``<!-- section: name -->``. ``text(page, name,
**values)`` returns one section with its wrapped lines joined (a paragraph is one line, list items
and headings stay lines of their own); with values it is filled in with ``str.format`` (``{eps:g}``),
so a section that holds literal braces (LaTeX) must be read without values. ``latex(page, name)``
draws a section's lines as one formula each.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import streamlit as st

from dpui.common.presenter import explanation

TEXT_DIR = Path(__file__).resolve().parent / "page_texts"
_SECTION = re.compile(r"^<!-- section: ([\w-]+) -->\s*$", re.MULTILINE)


@functools.cache
def sections(page: str) -> dict[str, str]:
    """All sections of ``page_texts/<page>.md`` by name (read once per process)."""
    raw = (TEXT_DIR / f"{page}.md").read_text(encoding="utf-8")
    parts = _SECTION.split(raw)
    return {name: body.strip() for name, body in zip(parts[1::2], parts[2::2])}


def unwrap(body: str) -> str:
    """Join the wrapped lines of each paragraph or list item; keep blank lines, items and headings."""
    out: list[str] = []
    for line in body.splitlines():
        stripped = line.strip()
        starts_block = not stripped or stripped.startswith(("- ", "#", "|", "* ")) or re.match(r"\d+\. ", stripped)
        if out and out[-1] and not starts_block:
            out[-1] += " " + stripped
        else:
            out.append(stripped)
    return "\n".join(out)


def text(page: str, name: str, **values) -> str:
    """One section, unwrapped and filled in with ``values`` when given."""
    body = unwrap(sections(page)[name])
    return body.format(**values) if values else body


def latex(page: str, name: str) -> None:
    """Draw each non-empty line of a section as its own formula."""
    for line in sections(page)[name].splitlines():
        if line.strip():
            st.latex(line.strip())


def tex_int(x: float) -> str:
    """A whole number with thousands separators for st.latex: ``2{,}800{,}798`` (a bare comma is punctuation in
    TeX and renders as "2, 800, 798", issue 31 item 11)."""
    return f"{x:,.0f}".replace(",", "{,}")


def explain(page: str, name: str, **values) -> None:
    """Draw a page's explanatory section: inline, or collapsed under "How this works" in presenter mode (issue 31:
    on a projector the chart comes first; the lecturer says the explanation)."""
    with explanation():
        st.markdown(text(page, name, **values))
