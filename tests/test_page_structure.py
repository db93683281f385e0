"""The shape of the app's files: short pages, texts in Markdown, every referenced text section present."""

import re
from pathlib import Path

import pytest

from dpui.common import texts

ROOT = Path(__file__).resolve().parent.parent
PAGE_FILES = [ROOT / "app.py"] + sorted((ROOT / "pages").glob("*.py"))
UI_FILES = PAGE_FILES + sorted((ROOT / "dpui").rglob("*.py"))


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.name)
def test_no_page_over_200_lines(path):
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= 200, f"{path.name} has {n} lines; move loaders, figures or texts into dpui (docs/CONTRIBUTING_PAGES.md)"


def test_pages_folder_holds_pages_only():
    # every .py in pages/ becomes a page in Streamlit's multipage mode: helpers belong in dpui/
    for path in (ROOT / "pages").glob("*.py"):
        assert re.match(r"\d+_\w+\.py$", path.name), path.name
        assert "st.set_page_config(" in path.read_text(encoding="utf-8"), path.name


def test_every_text_section_used_exists():
    calls = re.compile(r"""\b(?:text|latex)\(\s*"(\w+)",\s*(f?)"([\w{}-]+)\"""")
    found = 0
    for path in UI_FILES:
        for page, is_f, name in calls.findall(path.read_text(encoding="utf-8")):
            sections = texts.sections(page)
            if is_f:  # f"{kind}_note": check the pattern matches at least one section
                pattern = re.sub(r"\\\{\w+\\\}", r"\\w+", re.escape(name))
                assert any(re.fullmatch(pattern, s) for s in sections), (path.name, name)
            else:
                assert name in sections, f"{path.name} uses text({page!r}, {name!r}); not in page_texts/{page}.md"
            found += 1
    assert found >= 20  # the pages really read their texts from the Markdown files


def test_sections_unwrap_and_fill_in(tmp_path, monkeypatch):
    (tmp_path / "demo.md").write_text(
        "# a title line before the first section is ignored\n"
        "<!-- section: para -->\nOne paragraph\nwrapped over lines with ε = {eps:g}.\n\nA second one.\n"
        "<!-- section: items -->\n- first item\n  continued\n- second item\n"
        "<!-- section: formula -->\n\\frac{a}{b}\n\\sum_i x_i\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(texts, "TEXT_DIR", tmp_path)
    texts.sections.cache_clear()
    try:
        assert set(texts.sections("demo")) == {"para", "items", "formula"}
        assert texts.text("demo", "para", eps=0.5) == "One paragraph wrapped over lines with ε = 0.5.\n\nA second one."
        assert texts.text("demo", "items") == "- first item continued\n- second item"
        assert texts.text("demo", "formula") == "\\frac{a}{b} \\sum_i x_i"  # braces kept when no values are given
        with pytest.raises(KeyError):
            texts.text("demo", "missing")
    finally:
        texts.sections.cache_clear()
