"""Navigation for agents (issue 27): the outline, reading in order, budgets and quote checks.

The outline is checked against each PDF's own bookmarks read by another library (pypdf): every
bookmark is a heading of the outline, starting on the bookmark's PDF page with that page's printed
label, and ending on the page before the next bookmark of its depth or above (or on that page,
when the next heading starts part-way down it).  The sample book is built fresh (its committed
knowledge file predates the stored bookmarks); corpus books are built once per session.
"""

from __future__ import annotations

import unicodedata

import pytest

from conftest import BOOK_PDF, CORPORA, require_corpora

import rag_outline
from rag_core import KnowledgeBase


# --------------------------------------------------------------------------- helpers
def folded(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())


def pdf_bookmarks(path) -> tuple[list[tuple[int, str, int]], list[str]]:
    """(depth, title, 1-based PDF page) of every bookmark, and the page labels, as pypdf reads them."""
    import pypdf

    reader = pypdf.PdfReader(str(path))
    out: list[tuple[int, str, int]] = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                out.append((depth, item.title, reader.get_destination_page_number(item) + 1))

    walk(reader.outline, 0)
    return out, list(reader.page_labels)


def outline_mismatches(pdf, headings: list[dict]) -> tuple[int, list[str]]:
    """Bookmarks of the PDF the outline misses or places on other pages: (bookmark count, problems)."""
    marks, labels = pdf_bookmarks(pdf)
    problems = []
    for i, (depth, title, page) in enumerate(marks):
        same = [h for h in headings if folded(h["title"]) == folded(title)
                or folded((h["number"] or "") + h["title"]) == folded(title)]
        if not same:
            problems.append(f"missing {title!r} (PDF page {page})")
            continue
        h = min(same, key=lambda h: abs(h["pdf_page_start"] - page))
        following = next((m[2] for m in marks[i + 1:] if m[0] <= depth), None)
        label = h.get("page_label_start") or str(h["page_start"])
        if h["pdf_page_start"] != page or label != labels[page - 1]:
            problems.append(f"{title!r} starts on PDF page {h['pdf_page_start']} (label {label}), "
                            f"bookmark says {page} ({labels[page - 1]})")
        elif following is not None and h["pdf_page_end"] not in (following - 1, following):
            problems.append(f"{title!r} ends on PDF page {h['pdf_page_end']}, next bookmark at {following}")
    return len(marks), problems


def flat(headings: list[dict]) -> list[dict]:
    out = []
    for h in headings:
        out.append(h)
        out.extend(flat(h.get("children", [])))
    return out


# --------------------------------------------------------------------------- outline
def test_outline_of_the_sample_book_is_its_pdf_outline(fresh_build):
    path, _ = fresh_build
    kb = KnowledgeBase(path)
    headings = flat(rag_outline.outline(kb, depth="subsubsection")["headings"])
    count, problems = outline_mismatches(BOOK_PDF, headings)
    print(f"sample book: {count} bookmarks, {len(problems)} problems")
    assert count >= 70 and not problems, problems
    # Entities are counted where the builder placed them; a chapter's counts are its sections' and its own.
    chapter = next(h for h in headings if h["id"] == "chapter_2")
    assert chapter["entities"]["formula"] >= 10
    assert sum(c["entities"].get("formula", 0) for c in chapter["children"]) <= chapter["entities"]["formula"]


CORPUS_WITH_OUTLINES = ["tufte_sample_book", "kaobook_doc", "algorithm2e_doc", "glpk_manual", "datatool_user",
                        "aata_2022", "reportlab_userguide", "lyryx_linear_algebra_2017"]


@pytest.mark.parametrize("name", CORPUS_WITH_OUTLINES)
def test_outline_of_corpus_books_is_their_pdf_outline(name, tmp_path_factory):
    """Every bookmark of a real book is in the outline with its pages (at most 2 % astray, each listed)."""
    require_corpora()
    from test_corpora import built, pdf_of

    _, path, _ = built(name, tmp_path_factory)
    kb = KnowledgeBase(path)
    headings = flat(rag_outline.outline(kb, depth="subsubsection")["headings"])
    count, problems = outline_mismatches(pdf_of(name), headings)
    print(f"{name}: {count} bookmarks, {len(problems)} problems: {problems[:5]}")
    assert count > 0
    assert len(problems) <= 0.02 * count, problems


def test_outline_depth_and_subtree(fresh_build):
    kb = KnowledgeBase(fresh_build[0])
    chapters = rag_outline.outline(kb, depth="chapter")
    levels = {h["level"] for h in flat(chapters["headings"])}
    assert levels == {"part", "chapter"}
    under = rag_outline.outline(kb, depth="subsection", under="3", with_ids=True)
    assert [h["id"] for h in under["headings"]] == ["chapter_3"]
    ids = under["headings"][0]["entity_ids"]
    assert ids and all(i.split("_")[1] == "3" for i in ids)
    with pytest.raises(rag_outline.NavigationError) as error:
        rag_outline.outline(kb, depth="paragraph")
    assert error.value.status == 400
    with pytest.raises(rag_outline.NavigationError) as error:
        rag_outline.outline(kb, under="99.9")
    assert error.value.status == 404
