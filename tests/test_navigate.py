"""Navigation for agents (issue 27): the outline, reading in order, budgets and quote checks.

The outline is checked against each PDF's own bookmarks read by another library (pypdf): every
bookmark is a heading of the outline, starting on the bookmark's PDF page with that page's printed
label, and ending on the page before the next bookmark of its depth or above (or on that page,
when the next heading starts part-way down it).  The sample book is built fresh (its committed
knowledge file predates the stored bookmarks); corpus books are built once per session.
"""

from __future__ import annotations

import re
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


# --------------------------------------------------------------------------- quote checks
# Commands whose printed form the check cannot know from the source alone (a reference's number, a
# fraction's layout, a note set elsewhere on the page): sentences holding them are left out.
_UNCHECKABLE = re.compile(r"\\(?:ref|eqref|cite|label|footnote|sidenote|marginnote|frac|sqrt|hat|bar|tilde|"
                          r"widehat|overline|item|solution|index|url|href|caption|vspace|hspace|noindent|newline|"
                          r"par|S)\b|%|\\\\")
_SIMPLE_BRACES = ("\\emph{", "\\texttt{", "\\textbf{", "_{", "^{", "\\mathrm{", "\\mathcal{")
_SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z])")


def source_sentences() -> list[str]:
    """The sample book's sentences as its author wrote them (book/chapters/*.tex, LaTeX and all): the
    prose paragraphs outside environments and displays, split at sentence ends."""
    out: list[str] = []
    root = BOOK_PDF.parent / "chapters"
    for tex in sorted(root.glob("ch*.tex")) + sorted(root.glob("app*.tex")):
        depth, display, paragraph = 0, False, []

        def flush():
            text = " ".join(paragraph)
            paragraph.clear()
            for sentence in _SENTENCE_END.split(text):
                sentence = sentence.strip()
                rest = sentence
                for opener in _SIMPLE_BRACES:
                    rest = rest.replace(opener, "")
                if len(sentence) >= 40 and not _UNCHECKABLE.search(sentence) and sentence.count("$") % 2 == 0 \
                        and "{" not in rest and sentence.count("{") == sentence.count("}"):
                    out.append(sentence)

        for line in tex.read_text().splitlines():
            line = line.strip()
            if line.startswith("\\begin"):
                depth += 1
                flush()
            elif line.startswith("\\end"):
                depth = max(depth - 1, 0)
            elif line.startswith("\\[") or display:
                display = not line.endswith("\\]")
                flush()
            elif depth or not line or line.startswith("\\"):
                flush()
            else:
                paragraph.append(line)
        flush()
    return out


_LONG_WORD = re.compile(r"(?<![\\$\w])[a-z]{6,}(?![\w}])")


def altered_sentences(sentences: list[str], count: int = 100) -> list[str]:
    """Sentences that read like the book but are not in it: a real sentence with its longest word
    swapped for the longest word of another sentence ("a regional parameters has to decide …")."""
    out = []
    for i in range(0, len(sentences), max(len(sentences) // count, 1)):
        sentence, donor = sentences[i], sentences[(i * 7 + 3) % len(sentences)]
        words = _LONG_WORD.findall(sentence)
        others = [w for w in _LONG_WORD.findall(donor) if w not in words]
        if words and others:
            out.append(sentence.replace(max(words, key=len), max(others, key=len), 1))
        if len(out) == count:
            break
    return out


def test_every_sentence_of_the_sample_book_is_found_on_its_page(kb):
    """The author's sentences (LaTeX source) against the text read from the PDF: found, on the printed
    page where pypdf reads the sentence's start (a chunk running onto the next page counts both)."""
    import pypdf

    import rag_quotes

    sentences = source_sentences()
    reader = pypdf.PdfReader(str(BOOK_PDF))
    labels = list(reader.page_labels)
    pages = [rag_quotes.fold(page.extract_text() or "") for page in reader.pages]
    found, placed, unplaced, missed = 0, 0, 0, []
    for sentence in sentences:
        answer = rag_quotes.check_quote(kb, sentence)
        if not answer["found"]:
            missed.append((sentence, answer["closest"]))
            continue
        found += 1
        start = rag_quotes.fold(sentence)[:30]
        truth = {labels[i] for i, text in enumerate(pages) if start in text}
        where = answer["occurrences"][0]
        span = {str(p) for p in range(where["page"], where.get("page_end", where["page"]) + 1)}
        if not truth:
            unplaced += 1
        elif truth & span:
            placed += 1
        else:
            missed.append((sentence, f"on pages {sorted(span)}, printed on {sorted(truth)}"))
    print(f"quote check: {len(sentences)} sentences, {found} found, {placed} on their page "
          f"({unplaced} not placed by pypdf); missed: {missed}")
    assert len(sentences) >= 500
    assert found >= 0.99 * len(sentences) and placed == found - unplaced, missed


def test_sentences_not_in_the_book_are_reported_absent_with_the_closest(kb):
    import rag_quotes

    altered = altered_sentences(source_sentences())
    assert len(altered) == 100
    answers = [rag_quotes.check_quote(kb, s) for s in altered]
    wrongly_found = [s for s, a in zip(altered, answers) if a["found"]]
    assert not wrongly_found
    # The closest passage is the sentence it was made from: most of it matches.
    close = [a["closest"]["similarity"] for a in answers if a["closest"]]
    assert len(close) == 100 and sorted(close)[50] >= 0.6


@pytest.mark.parametrize("spelled", [
    "a joint DISTRIBUTION $P(x_1,\\dots,x_n)$ gives the probability of every combination of values",
    "A joint distribution P(x₁, …, xₙ) gives the probability of every combination of values.",
    "A joint distri-\nbution P(x1, ..., xn) gives the  probability of every combination of values"])
def test_quotes_match_whatever_their_spelling(kb, spelled):
    import rag_quotes

    answer = rag_quotes.check_quote(kb, spelled)
    assert answer["found"] and answer["match"] == "normalized"
    assert answer["occurrences"][0]["page"] == kb.get(answer["occurrences"][0]["id"]).page


@pytest.mark.parametrize("passage", ["", "   ", "the value", 42, None, "x" * 5001])
def test_quote_check_refuses_what_it_cannot_check(kb, passage):
    import rag_quotes

    with pytest.raises(rag_quotes.NavigationError) as error:
        rag_quotes.check_quote(kb, passage)
    assert error.value.status == 400 and str(error.value)
