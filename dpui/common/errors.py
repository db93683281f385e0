"""Turn a user's mistake into a message on screen, never a traceback; show text from users as text.

Streamlit renders the body of ``st.error``, ``st.warning``, ``st.caption`` and ``st.markdown`` as Markdown
(links, images, emoji and colour directives, LaTeX, autolinks). Text that came from a user (a file name, a
column name, a cell, a URL parameter) and dpcore's plain-text messages that quote it
(:func:`dpcore.quoting.quote`) go through :func:`plain_text` first, so they display as the characters they are
and never as an image the browser fetches or a link (issue 25).
"""

from __future__ import annotations

import logging
import re
import uuid
from contextlib import contextmanager
from typing import NoReturn

import streamlit as st

from dpcore.errors import UserError
from dpcore.quoting import quote

__all__ = [
    "user_errors",
    "show_error",
    "show_internal_error",
    "InternalError",
    "plain_text",
    "user_value",
    "MAX_MESSAGE",
]

_LOG = logging.getLogger(__name__)

MAX_MESSAGE = 2000
"""Longest message an alert shows (characters); dpcore's messages are far shorter, this is a backstop."""

# ASCII punctuation that can open a Markdown / GFM / Streamlit construct anywhere in a line: code, emphasis,
# links and images, HTML and autolinks, entities, LaTeX, strikethrough, tables, headings, directives.
_ALWAYS = re.compile(r"([\\`*\[\]<$~|&#])")
_UNDERSCORE = re.compile(r"(?<![0-9A-Za-z])_|_(?![0-9A-Za-z])")  # emphasis; max_users (intraword) stays
# Streamlit turns some text into links or icons *after* parsing (GFM autolink literals: http://…, www.…, a@b.c;
# emoji and icon shortcodes :smile:, :material/…:), where a backslash escape is already gone: a WORD JOINER
# (U+2060, invisible, zero width) inside the pattern breaks it and the text reads the same.
WORD_JOINER = "\u2060"
_TEXT_LINKS = re.compile(r"(?i)(?=://)|(?<=www)(?=\.)|(?=@)|(?<=:)(?=[\w+-])")
_BLOCK = re.compile(r"(?m)^(\s*)([->+=]|\d+[.)])")  # quotes, lists, setext headings at the start of a line


def plain_text(text, *, inline: bool = False) -> str:
    """``text`` as Markdown that displays exactly these characters (no link, image, emoji, formula or
    formatting of any kind). ``inline=True`` for one line put inside a sentence (a line start there is not
    the start of a Markdown line, so list and quote markers need no escape)."""
    s = str(text)
    s = _ALWAYS.sub(r"\\\1", s)
    s = _UNDERSCORE.sub(r"\\_", s)
    s = _TEXT_LINKS.sub(WORD_JOINER, s)
    if inline and "\n" not in s and "\r" not in s:
        return s
    return _BLOCK.sub(lambda m: m.group(1) + (m.group(2)[:-1] + "\\" + m.group(2)[-1]), s)


def user_value(value, limit: int = 80) -> str:
    """A value from a user (file or column name, URL parameter) for a Markdown label: shortened, control
    characters escaped (:func:`dpcore.quoting.quote`, without quotes around a string) and :func:`plain_text`."""
    return plain_text(quote(value, limit, bare=True), inline=True)


def show_error(message, *, icon: str = "⚠️") -> None:
    """``st.error`` of a plain-text message (from dpcore, or quoting user data): shown as text, at most
    :data:`MAX_MESSAGE` characters."""
    text = str(message)
    if len(text) > MAX_MESSAGE:
        text = text[: MAX_MESSAGE - 1] + "…"
    st.error(plain_text(text), icon=icon)


class InternalError(Exception):
    """What the page shows of a fault of the app: a short reference to the log entry, no traceback."""


def show_internal_error(exc: BaseException) -> str:
    """Log ``exc`` with its traceback under a short reference and show the reference (never the message:
    it is not written for the user and may say anything, e.g. bytes of a damaged file); returns it."""
    ref = uuid.uuid4().hex[:8]
    _LOG.error("internal error %s: %s: %s", ref, type(exc).__name__, exc, exc_info=exc)
    # st.exception of an exception that was never raised shows its one line and no traceback; AppTest sees it
    # in at.exception, so a test that a page runs cleanly still fails on a fault caught here
    st.exception(
        InternalError(
            f"Something went wrong inside the app (not in what you chose or uploaded). Reference {ref} "
            "(the server's log has the details). Try again, or change a setting."
        )
    )
    return ref


@contextmanager
def user_errors(*, stop: bool = True):
    """Show dpcore's message for a value the user gave (:class:`dpcore.errors.UserError`: a bad parameter, a
    bad upload) with ``st.error`` and stop this run; anything else is a fault of the app (issue 34).

    Only :class:`~dpcore.errors.UserError` (and its subclasses such as ``CorpusError``) is the user's
    mistake: those are the messages dpcore writes for people, shown as plain text (they may quote user
    data): :func:`show_error`. Any other exception — a ``ValueError`` that dpcore did not raise for the user's
    input included (a ``UnicodeDecodeError`` from a damaged cache, a numpy error) — is logged with its
    traceback and shown as an internal error with a short reference (:func:`show_internal_error`), and
    the run stops.
    """
    try:
        yield
    except UserError as exc:
        show_error(exc)
        if stop:
            _stop()
    except Exception as exc:  # noqa: BLE001 — a fault: logged with its traceback, shown by reference only
        show_internal_error(exc)
        _stop()


def _stop() -> NoReturn:
    """Stop this run, with ε in the sidebar even when the page stops before the body that draws it."""
    from dpui.common.sidebar import draw_pending_epsilon  # (the sidebar imports this module)

    draw_pending_epsilon()
    st.stop()
