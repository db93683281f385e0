"""Printable exercise sheets: Markdown and self-contained HTML, student and lecturer versions (pure text).

In dpui (issue 22 item 4): the deep links, the page URL paths and the sheets' HTML/CSS are presentation; the
exercises themselves (settings, questions, answers) are :mod:`dpcore.lab.exercises`.

The student sheet holds each exercise's title, question, options (choice exercises), the settings and
the deep link that opens the page at them; never an answer, hint or solution. The lecturer's sheet adds
the answer, the tolerance, the hints and the worked solution. HTML sheets load nothing: no external CSS,
scripts or fonts; formulas are turned into plain text (:func:`latex_to_text`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from urllib.parse import quote

from dpcore.lab.exercises import CHOICE, Exercise

__all__ = ["page_url_path", "exercise_link", "exercise_sheet", "sheet_filename", "latex_to_text"]

DEFAULT_BASE_URL = "http://localhost:8501"


def page_url_path(page: str) -> str:
    """The URL path Streamlit gives a page file: ``"1_Mechanisms_101"`` → ``"Mechanisms_101"``."""
    return re.sub(r"^\d+_", "", page)


def exercise_link(ex: Exercise, base_url: str = DEFAULT_BASE_URL) -> str:
    """The deep link that opens the exercise's page at its settings: ``…/Mechanisms_101?exercise=<id>``."""
    return f"{base_url.rstrip('/')}/{page_url_path(ex.page)}?exercise={quote(ex.id)}"


def sheet_filename(page: str | None, *, lecturer: bool, fmt: str) -> str:
    who = "lecturer" if lecturer else "student"
    ext = {"markdown": "md", "html": "html"}[fmt]
    return f"exercises_{page_url_path(page) if page else 'all_pages'}_{who}.{ext}"


_SYMBOLS = {
    r"\varepsilon": "ε",
    r"\epsilon": "ε",
    r"\delta": "δ",
    r"\Delta": "Δ",
    r"\sigma": "σ",
    r"\rho": "ρ",
    r"\gamma": "γ",
    r"\mu": "μ",
    r"\theta": "θ",
    r"\eta": "η",
    r"\Phi": "Φ",
    r"\odot": "⊙",
    r"\le": "≤",
    r"\ge": "≥",
    r"\cdot": "·",
    r"\sum": "Σ",
    r"\in": "∈",
    r"\infty": "∞",
    r"\times": "×",
    r"\ln": "ln",
    r"\exp": "exp",
    r"\max": "max",
    r"\min": "min",
    r"\lceil": "⌈",
    r"\rceil": "⌉",
    r"\mid": "|",
    r"\Rightarrow": "⇒",
    r"\quad": " ",
    r"\qquad": "  ",
    r"\,": " ",
    r"\;": " ",
    r"\!": "",
    r"\big": "",
    r"\Big": "",
    r"\hat x": "x̂",
    r"\mathcal N": "N",
    r"\mathcal M": "M",
    r"\tfrac12": "½",
}


def latex_to_text(text: str) -> str:
    """Inline LaTeX between $…$ → readable plain text (fractions as a/b, roots as √(…), Greek letters)."""

    def convert(expr: str) -> str:
        s = expr
        for _ in range(4):  # nested \frac / \sqrt
            s = re.sub(r"\\[td]?frac\{([^{}]*)\}\{([^{}]*)\}", r"(\1)/(\2)", s)
            s = re.sub(r"\\sqrt\{([^{}]*)\}", r"√(\1)", s)
            s = re.sub(r"\\(?:text|operatorname|mathrm)\{([^{}]*)\}", r"\1", s)
        for k in sorted(_SYMBOLS, key=len, reverse=True):
            s = s.replace(k, _SYMBOLS[k])
        s = re.sub(r"_\{([^{}]*)\}", r"_\1", s)
        s = re.sub(r"\^\{([^{}]*)\}", r"^(\1)", s)
        s = s.replace("\\{", "{").replace("\\}", "}").replace("{", "").replace("}", "").replace("\\", "")
        s = re.sub(r"\((\w+)\)/\((\w+)\)", r"\1/\2", s)  # (a)/(b) → a/b for single tokens
        return s

    return re.sub(r"\$([^$]+)\$", lambda m: convert(m.group(1)), text)


def _page_title(page: str) -> str:
    return page_url_path(page).replace("_", " ")


def _group(exercises: Sequence[Exercise]) -> dict[str, list[Exercise]]:
    out: dict[str, list[Exercise]] = {}
    for ex in exercises:
        out.setdefault(ex.page, []).append(ex)
    return out


def _markdown(exercises, *, title, lecturer, base_url) -> str:
    lines = [f"# {title}", ""]
    lines.append(
        "Lecturer's version: answers, hints and worked solutions."
        if lecturer
        else "Open each link: the page shows the question and checks your answer."
    )
    lines.append("")
    number = 0
    for page, items in _group(exercises).items():
        lines += [f"## {_page_title(page)}", ""]
        for ex in items:
            number += 1
            lines += [f"### {number}. {ex.title}", ""]
            try:
                sol = ex.solved()
            except ValueError as exc:  # e.g. TopicDP's sampled sensitivities missing for this corpus
                lines += [
                    f"*Not available for the current data: {exc}*",
                    "",
                    f"Link: <{exercise_link(ex, base_url)}>",
                    "",
                ]
                continue
            lines += [ex.question_text(sol), ""]
            if ex.kind == CHOICE:
                lines += [f"{chr(ord('a') + i)}) {opt}" for i, opt in enumerate(sol.options)] + [""]
            lines += [f"Settings: {ex.settings_text()}", "", f"Link: <{exercise_link(ex, base_url)}>", ""]
            if lecturer:
                tol = "" if ex.kind == CHOICE else f" (accepted within ±{ex.tolerance():.{max(ex.decimals, 2)}g})"
                lines += [f"**Answer:** {ex.format_answer(sol)}{tol}", ""]
                for i, h in enumerate(ex.hint_texts(sol)):
                    lines += [f"*Hint {i + 1}:* {h}", ""]
                lines += [f"**Solution.** {ex.solution_text(sol)}", ""]
    return "\n".join(lines).rstrip() + "\n"


_CSS = (
    "body{font-family:Georgia,serif;max-width:46em;margin:2em auto;padding:0 1em;line-height:1.45;color:#111}"
    "h1{font-size:1.6em}h2{border-bottom:1px solid #999;margin-top:1.6em}h3{font-size:1.1em;margin-bottom:.3em}"
    ".meta{font-size:.85em;color:#444}.answer{border-left:3px solid #2a7;padding-left:.6em}"
    "ol.options{list-style-type:lower-alpha}a{color:#035;word-break:break-all}"
    "@media print{a{color:#000}.exercise{break-inside:avoid}}"
)


def _inline(text: str) -> str:
    """Plain text with **bold** and *italic* Markdown → escaped HTML."""
    s = html.escape(latex_to_text(text))
    s = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", s)
    s = re.sub(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", r"<em>\1</em>", s)
    return s


def _html(exercises, *, title, lecturer, base_url) -> str:
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        "<p class='meta'>"
        + (
            "Lecturer's version: answers, hints and worked solutions."
            if lecturer
            else "Open each link: the page shows the question and checks your answer."
        )
        + "</p>",
    ]
    number = 0
    for page, items in _group(exercises).items():
        out.append(f"<h2>{html.escape(_page_title(page))}</h2>")
        for ex in items:
            number += 1
            link = exercise_link(ex, base_url)
            out.append(f"<div class='exercise' id='{html.escape(ex.id)}'><h3>{number}. {html.escape(ex.title)}</h3>")
            try:
                sol = ex.solved()
            except ValueError as exc:  # e.g. TopicDP's sampled sensitivities missing for this corpus
                out.append(
                    f"<p><em>Not available for the current data: {html.escape(str(exc))}</em></p>"
                    f"<p class='meta'>Link: <a href='{html.escape(link, quote=True)}'>{html.escape(link)}</a>"
                    "</p></div>"
                )
                continue
            out.append(f"<p>{_inline(ex.question_text(sol))}</p>")
            if ex.kind == CHOICE:
                out.append("<ol class='options'>" + "".join(f"<li>{_inline(o)}</li>" for o in sol.options) + "</ol>")
            out.append(
                f"<p class='meta'>Settings: {html.escape(ex.settings_text())}<br>"
                f"Link: <a href='{html.escape(link, quote=True)}'>{html.escape(link)}</a></p>"
            )
            if lecturer:
                tol = "" if ex.kind == CHOICE else f" (accepted within ±{ex.tolerance():.{max(ex.decimals, 2)}g})"
                out.append(f"<div class='answer'><p><strong>Answer:</strong> {_inline(ex.format_answer(sol))}{tol}</p>")
                out += [f"<p><em>Hint {i + 1}:</em> {_inline(h)}</p>" for i, h in enumerate(ex.hint_texts(sol))]
                out.append(f"<p><strong>Solution.</strong> {_inline(ex.solution_text(sol))}</p></div>")
            out.append("</div>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def exercise_sheet(
    exercises: Sequence[Exercise],
    *,
    lecturer: bool = False,
    fmt: str = "markdown",
    base_url: str = DEFAULT_BASE_URL,
    title: str | None = None,
) -> str:
    """A printable sheet of ``exercises`` as Markdown (``fmt="markdown"``) or self-contained HTML (``"html"``).

    Args:
      exercises: the exercises, in order (e.g. :func:`exercises_for_page` or every exercise).
      lecturer: False for the student version (questions, settings, links only); True adds answers,
        tolerances, hints and worked solutions.
      fmt: ``"markdown"`` or ``"html"``.
      base_url: the app's address, for the deep links.
      title: the sheet's heading (default names the pages).
    """
    if fmt not in ("markdown", "html"):
        raise ValueError(f"fmt must be 'markdown' or 'html', got fmt={fmt!r}")
    exercises = list(exercises)
    if not exercises:
        raise ValueError("exercises must hold at least one exercise, got none")
    if title is None:
        names = list(dict.fromkeys(_page_title(ex.page) for ex in exercises))
        title = "Exercises: " + (names[0] if len(names) == 1 else "all pages")
        if lecturer:
            title += " (lecturer's version)"
    build = _markdown if fmt == "markdown" else _html
    return build(exercises, title=title, lecturer=lecturer, base_url=base_url)
