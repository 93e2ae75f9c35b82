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


# --------------------------------------------------------------------------- reading in order
def read_all(kb, budget: int, **scope) -> tuple[list[dict], int, int]:
    """Every page of a reading by cursor: (blocks joined back, pages, largest answer in tokens)."""
    import rag_reading
    from rag_budget import answer_tokens

    answer = rag_reading.read(kb, max_tokens=budget, **scope)
    pages, largest, joined = 1, answer_tokens(answer), {}
    order: list[str] = []
    while True:
        for block in answer["blocks"]:
            if block["id"] not in joined:
                order.append(block["id"])
                joined[block["id"]] = dict(block)
            else:
                assert block.get("continued"), block
                joined[block["id"]]["text"] += block["text"]
        if not answer["truncated"]:
            return [joined[i] for i in order], pages, largest
        assert answer["hint"] and answer["next_cursor"]
        answer = rag_reading.read(kb, max_tokens=budget, cursor=answer["next_cursor"])
        pages += 1
        largest = max(largest, answer_tokens(answer))


@pytest.mark.parametrize("budget", [400, 1500])
def test_reading_a_chapter_in_pages_gives_it_whole(kb, budget):
    """Paged by any budget, a chapter comes back whole, in order, no answer over its max_tokens."""
    import rag_reading

    whole = rag_reading.read(kb, section="chapter_2", max_tokens=100_000)
    assert not whole["truncated"] and whole["block_count"] == len(whole["blocks"]) > 20
    blocks, pages, largest = read_all(kb, budget, section="2")
    assert pages > 1 and largest <= budget
    assert [(b["id"], b["text"]) for b in blocks] == [(b["id"], b["text"]) for b in whole["blocks"]]
    # In reading order, pages never go back; every display of the chapter is shown once, by id.
    assert [b["pdf_page"] for b in blocks] == sorted(b["pdf_page"] for b in blocks)
    shown = [i for b in blocks for i in b.get("holds", [])] + [b["id"] for b in blocks]
    formulas = [r[0] for r in kb.db.execute("SELECT id FROM chunks WHERE kind = 'formula' AND chapter = '2'")]
    assert sorted(f for f in shown if f.startswith("formula_")) == sorted(formulas)


def test_reading_shows_algorithms_as_code_and_entities_with_pages(kb):
    import rag_reading

    answer = rag_reading.read(kb, entity="Algorithm 2.1", context=1)
    ids = [b["id"] for b in answer["blocks"]]
    assert "algorithm_2_1" in ids and len(ids) >= 3
    algorithm = answer["blocks"][ids.index("algorithm_2_1")]
    assert "```" in algorithm["text"] and "def " in algorithm["text"]
    assert algorithm["page"] == kb.get("algorithm_2_1").page
    pages = rag_reading.read(kb, page_start=13, page_end=14)
    assert pages["blocks"] and all(13 <= b["page"] <= 14 for b in pages["blocks"])


@pytest.mark.parametrize("request_args, status", [
    ({}, 400), ({"section": "2", "entity": "formula_2_1"}, 400), ({"section": ""}, 400),
    ({"section": "99"}, 404), ({"entity": "formula_99_1"}, 404), ({"entity": "formula_2_1", "context": -1}, 400),
    ({"entity": "formula_2_1", "context": "many"}, 400), ({"page_start": 10_000}, 404),
    ({"page_start": 20, "page_end": 10}, 400), ({"page_start": [1]}, 400), ({"cursor": "not-a-cursor"}, 400),
    ({"cursor": "eyJhIjoxfQ"}, 400), ({"section": "2", "max_tokens": 10}, 400),
    ({"section": "2", "max_tokens": "lots"}, 400)])
def test_reading_refuses_bad_requests_clearly(kb, request_args, status):
    import rag_reading

    with pytest.raises(rag_reading.NavigationError) as error:
        rag_reading.read(kb, **request_args)
    assert error.value.status == status and str(error.value)
