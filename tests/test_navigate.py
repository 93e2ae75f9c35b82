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

from conftest import HTTP, BOOK_PDF, ROOT, require_corpora

import rag_outline
from rag_core import KnowledgeBase


# --------------------------------------------------------------------------- helpers
def folded(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())


def pdf_bookmarks(path) -> tuple[list[tuple[int, str, int, bool]], list[str]]:
    """(depth, title, 1-based PDF page, moved) of every bookmark, and the page labels, as pypdf reads
    them.  moved: the bookmark points at the lower half of a page whose text lacks its title while the
    next page's text has it (hyperref's anchor left behind by a heading that went to the next page)."""
    import pypdf

    reader = pypdf.PdfReader(str(path))
    texts: dict[int, str] = {}

    def text_of(page: int) -> str:
        if page not in texts:
            texts[page] = folded(reader.pages[page - 1].extract_text() or "") if page <= len(reader.pages) else ""
        return texts[page]

    out: list[tuple[int, str, int, bool]] = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                page = reader.get_destination_page_number(item) + 1
                title = folded(item.title)
                top = item.get("/Top")
                low = isinstance(top, (int, float)) and float(top) < float(reader.pages[page - 1].mediabox.height) / 2
                moved = low and bool(title) and title not in text_of(page) and title in text_of(page + 1)
                out.append((depth, item.title, page, moved))

    walk(reader.outline, 0)
    return out, list(reader.page_labels)


def outline_mismatches(pdf, headings: list[dict], printed: dict[int, str] | None = None) -> tuple[int, list[str]]:
    """Bookmarks of the PDF the outline misses or places on other pages: (bookmark count, problems).

    The printed page of a heading's first page is checked against printed ({PDF page: printed page}
    from an answer key) where given, and against the PDF's page labels where they agree with the key
    (aata_2022's labels run four pages off its printed folios: there only the key's pages count)."""
    marks, labels = pdf_bookmarks(pdf)
    printed = printed or {}
    trusted = all(labels[p - 1] == number for p, number in printed.items())
    expected = dict(enumerate(labels, start=1)) if trusted else {}
    expected.update(printed)
    problems = []
    used: set[str] = set()
    for i, (depth, title, page, moved) in enumerate(marks):
        same = [h for h in headings if h["id"] not in used and (folded(h["title"]) == folded(title)
                or folded((h["number"] or "") + h["title"]) == folded(title))]
        if not same:
            problems.append(f"missing {title!r} (PDF page {page})")
            continue
        starts = {page + 1} if moved else {page}
        # A chapter and its first section may share a title and a page: the first unused one is this one.
        h = min(same, key=lambda h: (h["pdf_page_start"] not in starts, abs(h["pdf_page_start"] - page)))
        used.add(h["id"])
        following = next((m for m in marks[i + 1:] if m[0] <= depth), None)
        ends = set()
        if following is not None:
            first = following[2] + (1 if following[3] else 0)
            ends = {first - 1, first}
        label = h.get("page_label_start") or str(h["page_start"])
        start = h["pdf_page_start"]
        if start not in starts or expected.get(start, label) != label:
            problems.append(f"{title!r} starts on PDF page {start} (label {label}), "
                            f"bookmark says {page}{' (heading on the next)' if moved else ''} (printed {expected.get(start)})")
        elif following is not None and h["pdf_page_end"] not in ends:
            problems.append(f"{title!r} ends on PDF page {h['pdf_page_end']}, next bookmark at {following[2]}")
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


@pytest.mark.corpus_books
@pytest.mark.parametrize("name", CORPUS_WITH_OUTLINES)
def test_outline_of_corpus_books_is_their_pdf_outline(name, tmp_path_factory):
    """Every bookmark of a real book is in the outline with its pages (at most 4 % astray, each listed: a
    heading the builder did not find has only its bookmark, which may point at the page before it)."""
    require_corpora()
    from test_corpora import built, pdf_of

    import json

    from test_corpora import key_of

    _, path, _ = built(name, tmp_path_factory)
    kb = KnowledgeBase(path)
    headings = flat(rag_outline.outline(kb, depth="subsubsection")["headings"])
    key = json.loads(key_of(name).read_text())
    printed = {e["pdf_page"]: e["printed_page"] for e in key["entities"] if e.get("printed_page")}
    count, problems = outline_mismatches(pdf_of(name), headings, printed)
    print(f"{name}: {count} bookmarks, {len(problems)} problems: {problems[:5]}")
    assert count > 0
    assert len(problems) <= 0.04 * count, problems


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
    ({"section": ""}, 400), ({"section": "99"}, 404), ({"entity": "formula_99_1"}, 404),
    ({"entity": "formula_2_1", "context": -1}, 400), ({"entity": "formula_2_1", "context": "many"}, 400),
    ({"page_start": 10_000}, 404), ({"page_start": 20, "page_end": 10}, 404), ({"page_start": [1]}, 400),
    ({"cursor": "not-a-cursor"}, 404), ({"cursor": "eyJhIjoxfQ"}, 404), ({"cursor": 5}, 404),
    ({"section": "2", "max_tokens": 10}, 400), ({"section": "2", "max_tokens": "lots"}, 400)])
def test_reading_refuses_bad_requests_clearly(kb, request_args, status):
    """400 for what no request may hold, 404 for what this book does not (a cursor it never issued too)."""
    import rag_reading

    with pytest.raises(rag_reading.NavigationError) as error:
        rag_reading.read(kb, **request_args)
    assert error.value.status == status and str(error.value)


# --------------------------------------------------------------------------- quote checks
# Commands whose printed form the check cannot know from the source alone (a reference's number, a
# note set elsewhere on the page, a list's item mark): sentences holding them are left out.  Inline
# maths of every kind stays in (fractions, roots, accents).
_UNCHECKABLE = re.compile(r"\\(?:ref|eqref|cite|label|footnote|sidenote|marginnote|"
                          r"item|solution|index|url|href|caption|vspace|hspace|noindent|newline|"
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
    assert found == len(sentences) and placed == found - unplaced, missed


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
    "A joint distri-\nbution P(x1, ..., xn) gives the  probability of every combination of values",
    # a superscript written before its subscript prints the same as after it
    "and $G_{d-1}^{(i)}$ is the return of a $(d-1)$-step run", "and $G^{(i)}_{d-1}$ is the return of a $(d-1)$-step run"])
def test_quotes_match_whatever_their_spelling(kb, spelled):
    import rag_quotes

    answer = rag_quotes.check_quote(kb, spelled)
    assert answer["found"] and answer["match"] == "normalized"
    assert answer["occurrences"][0]["page"] == kb.get(answer["occurrences"][0]["id"]).page


def test_reading_one_scope_by_precedence_and_the_whole_book_by_default(kb):
    import rag_reading

    both = rag_reading.read(kb, section="2.1", entity="formula_5_1", max_tokens=1000)
    assert both["section"]["id"] == "section_2_1"
    book = rag_reading.read(kb, max_tokens=1000)
    assert book["book"] == kb.title and book["first_block"] == 0 and book["truncated"]


def test_quote_check_of_punctuation_alone_finds_nothing(kb):
    import rag_quotes

    assert rag_quotes.check_quote(kb, "... — !")["found"] is False
    assert rag_quotes.check_quote(kb, "the value")["found"] is True


@pytest.mark.parametrize("passage", ["", "   ", 42, None, "x" * 5001])
def test_quote_check_refuses_what_it_cannot_check(kb, passage):
    import rag_quotes

    with pytest.raises(rag_quotes.NavigationError) as error:
        rag_quotes.check_quote(kb, passage)
    assert error.value.status == 400 and str(error.value)


# --------------------------------------------------------------------------- formula search
_EQUATION = re.compile(r"\\begin\{equation\}(.*?)\\end\{equation\}", re.S)
_LABEL = re.compile(r"\\label\{[^}]*\}")


def source_equations() -> list[tuple[str, str]]:
    """(formula id, LaTeX as written) of every numbered equation of the sample book: the n-th
    equation environment of chapter file chNN.tex is equation NN.n (appA.tex: A.n)."""
    out = []
    for tex in sorted((BOOK_PDF.parent / "chapters").glob("*.tex")):
        chapter = "A" if tex.stem.startswith("app") else str(int(tex.stem[2:])) if tex.stem[2:].isdigit() else None
        if chapter is None:
            continue
        for n, match in enumerate(_EQUATION.finditer(tex.read_text()), start=1):
            out.append((f"formula_{chapter}_{n}", _LABEL.sub("", match.group(1)).strip()))
    return out


def recall(kb, pairs) -> tuple[float, float, list]:
    import rag_formulas

    first = five = 0
    misses = []
    for want, latex in pairs:
        got = [r["id"] for r in rag_formulas.search_formulas(kb, latex, 5)["results"]]
        first += got[:1] == [want]
        five += want in got
        if got[:1] != [want]:
            misses.append((want, latex[:60], got[:3]))
    return first / len(pairs), five / len(pairs), misses


def test_formula_search_finds_each_equation_of_the_sample_book_by_its_source(kb):
    equations = source_equations()
    assert len(equations) == 125
    at_1, at_5, misses = recall(kb, equations)
    print(f"formula search, sample book: R@1 {at_1:.3f}, R@5 {at_5:.3f}; {misses}")
    assert at_1 >= 0.95 and at_5 == 1.0, misses


@pytest.mark.parametrize("setup", ["cm", "newtx", "lmmath"])
def test_formula_search_on_other_typesetting(setup, formula_cache):
    """Our formula corpus typeset other ways, built (once a session, with test_formula_corpus.py), each
    formula the builder read searched by its source."""
    from conftest import ROOT, require_shared

    require_shared("tools/formula_score.py")
    import formula_fidelity  # tests/eval/formula_fidelity.py (pytest's pythonpath)

    result = formula_fidelity.score(ROOT / "tests" / "formulas" / f"{setup}.pdf",
                                    ROOT / "tests" / "formulas" / f"setup-{setup}.tex", formula_cache)
    kb = KnowledgeBase(result["db"])
    pairs = [("formula_" + r["number"].replace(".", "_"), r["source"]) for r in result["rows"]
             if not r["missing"] and r["service"].strip() and r["source"].strip()]
    at_1, at_5, misses = recall(kb, pairs)
    print(f"formula search, {setup}: {len(pairs)} formulas read, R@1 {at_1:.3f}, R@5 {at_5:.3f}; {misses}")
    assert at_5 >= 0.9, misses


@pytest.mark.parametrize("query, expected", [
    ("P(a) = \\sum_{b} P(a, b)", "formula_2_1"),             # other names for the bound variables
    ("P(x)=\\sum_y P(x,y)", "formula_2_1"),                   # other spacing and braces
    ("P(x) = ∑_y P(x, y)", "formula_2_1"),                    # Unicode maths
    ("yₜ = min(xₜ + aₜ, dₜ)", "formula_1_1"),                 # Unicode subscripts, operator without backslash
    ("G = \\sum_{k=0}^{T-1} r_k", "formula_1_4")])
def test_formula_search_reads_maths_however_written(kb, query, expected):
    import rag_formulas

    assert rag_formulas.search_formulas(kb, query, 1)["results"][0]["id"] == expected


@pytest.mark.parametrize("args", [{"query": ""}, {"query": None}, {"query": "x", "k": 0}, {"query": "x", "k": "5"},
                                  {"query": "x" * 2001}])
def test_formula_search_refuses_bad_queries(kb, args):
    import rag_formulas

    with pytest.raises(rag_formulas.NavigationError) as error:
        rag_formulas.search_formulas(kb, **args)
    assert error.value.status == 400


# --------------------------------------------------------------------------- notation
NOTATION_KEY = ROOT / "tests" / "fixtures" / "notation_key.json"


def test_notation_of_the_sample_book_against_its_key(kb):
    """The symbols chapters 1-2 define (tests/fixtures/notation_key.json, written by reading the source):
    a definition is right when its symbol is the key's and its meaning holds one of the key's words."""
    import json

    import rag_notation

    key = json.loads(NOTATION_KEY.read_text())
    wanted = {rag_notation.symbol_key(e["symbol"]) or e["symbol"]: e["meanings"] for e in key["symbols"]}
    found = [d for d in rag_notation.listing(kb)["definitions"] if kb.get(d["id"]).chapter in key["chapters"]]

    def right(d):
        words = wanted.get(rag_notation.symbol_key(d["symbol"]))
        return words is not None and any(w in d["meaning"].lower() for w in words)

    good = [d for d in found if right(d)]
    precision = len(good) / len(found)
    recall = len({rag_notation.symbol_key(d["symbol"]) for d in good}) / len(wanted)
    print(f"notation, sample book chapters 1-2: {len(found)} definitions, precision {precision:.3f}, "
          f"recall {recall:.3f}; wrong: {[(d['symbol'], d['meaning']) for d in found if not right(d)]}")
    assert precision >= 0.9 and recall >= 0.8
    # Where each is defined: the chunk and its printed page.
    for d in good:
        assert kb.get(d["id"]).page == d["page"]


@pytest.mark.parametrize("spelled", ["\\gamma", "γ", "$\\gamma$"])
def test_notation_look_up_by_latex_or_unicode(kb, spelled):
    import rag_notation

    answer = rag_notation.lookup(kb, spelled)
    assert answer["found"] and answer["definitions"]
    assert any("discount" in d["meaning"] for d in answer["definitions"]), answer


def test_notation_of_a_formula(kb):
    import rag_notation

    symbols = rag_notation.for_entity(kb, "formula_1_1")["symbols"]
    keys = {rag_notation.symbol_key(s["symbol"]) for s in symbols}
    assert {"x _ t", "a _ t", "d _ t"} <= keys


def test_notation_table_of_a_corpus_book(tmp_path_factory):
    """kaobook's documentation ends with a notation table ("c Speed of light …, h Planck constant")."""
    require_corpora()
    from test_corpora import built

    import rag_notation

    _, path, _ = built("kaobook_doc", tmp_path_factory)
    kb = KnowledgeBase(path)
    table = {d["symbol"]: d for d in rag_notation.listing(kb)["definitions"] if d["source"] == "notation table"}
    print(f"notation, kaobook_doc: {len(table)} symbols from its notation table")
    assert "speed of light" in table["c"]["meaning"].lower() and "planck" in table["h"]["meaning"].lower()
    assert table["c"]["page"] == 32 and table["c"]["pdf_page"] == 40


@pytest.mark.parametrize("symbol", ["", "   ", "x" * 201, 7])
def test_notation_refuses_what_is_not_a_symbol(kb, symbol):
    import rag_notation

    with pytest.raises(rag_notation.NavigationError) as error:
        rag_notation.lookup(kb, symbol)
    assert error.value.status == 400


def test_notation_of_a_number_is_empty(kb):
    import rag_notation

    answer = rag_notation.lookup(kb, "0.5")
    assert not answer["found"] and answer["note"]


# --------------------------------------------------------------------------- export and llms.txt
def test_export_writes_every_chapter_with_anchors_pages_maths_and_code(kb, tmp_path):
    import rag_export

    written = rag_export.export(kb, tmp_path)
    names = {p.name for p in written}
    chapters = [r[0] for r in kb.db.execute("SELECT number FROM sections WHERE level = 1")]
    assert {f"chapter_{n}.md" for n in chapters} <= names and "llms.txt" in names
    text = {p.name: p.read_text() for p in written if p.suffix == ".md"}
    # Every numbered entity has one anchor, in its chapter's file.
    for cid, chapter in kb.db.execute("SELECT id, chapter FROM chunks WHERE kind != 'text'"):
        holders = [name for name, body in text.items() if f'<a id="{cid}"></a>' in body]
        assert holders == [f"chapter_{chapter}.md"], (cid, holders)
    for name, body in text.items():
        pages = [int(p) for p in re.findall(r"<!-- page (\d+) \(PDF page \d+\) -->", body)]
        assert pages == sorted(pages), name
        assert body.count("```") % 2 == 0, name
    assert "$$" in text["chapter_2.md"] and "```\ndef " in text["chapter_2.md"]
    index = (tmp_path / "llms.txt").read_text()
    assert index.startswith(f"# {kb.title}") and "(chapter_2.md)" in index


# --------------------------------------------------------------------------- served: REST
def test_served_outline_is_the_pdf_outline(fresh_build):
    """Served from a fresh build (the builder stores the PDF's bookmarks; "A short history" keeps its "A")."""
    import httpx

    from conftest import start_server

    proc, base = start_server("--db", str(fresh_build[0]))
    try:
        body = HTTP.get(base + "/outline", params={"depth": "subsubsection", "max_tokens": 100_000}).json()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert not body["truncated"]
    count, problems = outline_mismatches(BOOK_PDF, flat(body["headings"]))
    assert count >= 70 and not problems, problems


def test_served_reading_pages_by_cursor_within_budget(client):
    from rag_budget import answer_tokens

    whole = client.get("/read", params={"section": "3", "max_tokens": 100_000}).json()
    seen, answer, pages = [], client.get("/read", params={"section": "3", "max_tokens": 1000}).json(), 1
    while True:
        assert answer_tokens(answer) <= 1000
        seen += [b["id"] for b in answer["blocks"] if not b.get("continued")]
        if not answer["truncated"]:
            break
        answer = client.get("/read", params={"cursor": answer["next_cursor"], "max_tokens": 1000}).json()
        pages += 1
    assert pages > 3 and seen == [b["id"] for b in whole["blocks"]]


@pytest.mark.parametrize("method, path, payload", [
    ("GET", "/outline", {"depth": "paragraph"}), ("GET", "/outline", {"with_ids": "maybe"}),
    ("GET", "/outline", {"under": "x" * 400}), ("GET", "/outline", {"unknown": "1"}),
    ("GET", "/read", {"section": " "}), ("GET", "/read", {"context": "99", "entity": "formula_2_1"}),
    ("GET", "/read", {"max_tokens": "-5", "section": "2"}), ("GET", "/read", {"max_tokens": "lots"}),
    ("POST", "/quote/check", {"passage": ""}), ("POST", "/quote/check", {"text": "a passage"}),
    ("POST", "/quote/check", ["not", "an", "object"]), ("POST", "/search/formula", {"query": "x", "k": 100}),
    ("POST", "/search/formula", {"query": 5}), ("GET", "/notation", {"symbol": "x" * 201})])
def test_served_navigation_refuses_bad_input_in_spec_01_format(client, method, path, payload):
    if method == "GET":
        response = client.get(path, params=payload)
    else:
        response = client.post(path, json=payload)
    assert response.status_code == 400, response.text
    body = response.json()
    assert set(body) == {"detail", "status_code", "error_code", "timestamp"}
    assert body["status_code"] == 400 and body["error_code"] == "INVALID_PARAMETER" and body["detail"]


@pytest.mark.parametrize("path, params", [("/read", {"section": "99.9"}), ("/read", {"entity": "formula_99_1"}),
                                          ("/read", {"page_start": "9999"}), ("/outline", {"under": "42"}),
                                          ("/read", {"cursor": "abc"}), ("/read", {"page_start": "20", "page_end": "10"}),
                                          ("/notation", {"entity": "formula_99_1"}), ("/book/chapter_99.md", {})])
def test_served_navigation_says_what_the_book_lacks(client, path, params):
    response = client.get(path, params=params)
    assert response.status_code == 404 and response.json()["error_code"] == "NOT_FOUND"


def test_served_quote_formula_notation_and_llms_txt(client):
    quote = client.post("/quote/check", json={
        "passage": "a JOINT distri-\nbution P(x₁, …, xₙ) gives the probability of every combination of values"}).json()
    assert quote["found"] and quote["occurrences"][0]["page"] == 13
    absent = client.post("/quote/check", json={
        "passage": "A joint distribution gives the likelihood of every pair of values."}).json()
    assert not absent["found"] and absent["closest"]["page"] == 13
    formula = client.post("/search/formula", json={"query": "P(a) = ∑_b P(a, b)", "k": 3}).json()
    assert formula["results"][0]["id"] == "formula_2_1" and formula["results"][0]["page_number"] == 14
    notation = client.get("/notation", params={"symbol": "\\gamma"}).json()
    assert any("discount" in d["meaning"] for d in notation["definitions"])
    listing = client.get("/notation", params={"max_tokens": 1000}).json()
    assert listing["truncated"] and listing["hint"] and listing["omitted"] > 0
    index = client.get("/llms.txt")
    assert index.status_code == 200 and index.headers["content-type"].startswith("text/plain")
    chapter = client.get("/book/chapter_2.md")
    assert chapter.status_code == 200 and '<a id="algorithm_2_1"></a>' in chapter.text


def test_navigation_routes_are_in_the_openapi_document(client):
    paths = client.get("/schema/openapi.json").json()["paths"]
    for path in ("/outline", "/read", "/quote/check", "/search/formula", "/notation", "/llms.txt", "/book/{name}"):
        assert path in paths, path
    assert "400" in paths["/read"]["get"]["responses"] and "max_tokens" in paths["/read"]["get"]["description"]


# --------------------------------------------------------------------------- served: MCP
def mcp_session(base: str, path: str, calls):
    import asyncio

    from mcp import Client

    async def go():
        async with Client(base + path) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            results = [await client.call_tool(name, args) for name, args in calls]
            return tools, results

    return asyncio.run(go())


def test_mcp_keeps_five_tools_and_all_adds_navigation(server):
    default, _ = mcp_session(server, "/mcp", [])
    assert set(default) == {"search_knowledge_base", "expand_graph_by_ids", "get_entity_by_number",
                            "get_related_code_definitions", "get_search_tags_catalog"}
    everything, _ = mcp_session(server, "/mcp/all", [])
    navigation = {"get_book_outline", "read_book", "check_quote", "search_formulas", "lookup_notation"}
    assert navigation <= set(everything)
    for name in navigation:
        tool = everything[name]
        assert len(tool.description) > 150 and tool.input_schema["additionalProperties"] is False
        assert "max_tokens" in tool.input_schema["properties"]


def test_mcp_navigation_tools_answer_within_budget(server):
    from rag_budget import answer_tokens

    calls = [("get_book_outline", {"depth": "chapter"}),
             ("read_book", {"section": "2.1", "max_tokens": 600}),
             ("check_quote", {"passage": "A Bayesian network is a directed acyclic graph whose nodes are random "
                                         "variables"}),
             ("search_formulas", {"query": "y_t = \\min(x_t + a_t, d_t)", "k": 2}),
             ("lookup_notation", {"symbol": "γ"}),
             ("read_book", {"cursor": "nonsense"})]
    _, results = mcp_session(server, "/mcp/all", calls)
    outline_, reading, quote, formula, notation, bad = results
    assert [h["id"] for h in outline_.structured_content["headings"]][:2] == ["chapter_1", "part_I"]
    page = reading.structured_content
    assert page["truncated"] and answer_tokens(page) <= 600
    _, more = mcp_session(server, "/mcp/all", [("read_book", {"cursor": page["next_cursor"], "max_tokens": 600})])
    assert more[0].structured_content["first_block"] >= page["first_block"]
    assert quote.structured_content["found"] and quote.structured_content["occurrences"][0]["page"] == 14
    assert formula.structured_content["results"][0]["id"] == "formula_1_1"
    assert notation.structured_content["definitions"]
    assert bad.is_error and "cursor not found" in bad.content[0].text


def test_mcp_default_tools_stay_under_8000_tokens(server):
    """The five spec 02 tools take no max_tokens (their contract is fixed): their largest answers are cut."""
    from rag_budget import answer_tokens

    ids = [r[0] for r in KnowledgeBase(ROOT / "knowledge.sqlite").db.execute(
        "SELECT id FROM chunks WHERE kind != 'text' ORDER BY ord LIMIT 100")]
    calls = [("search_knowledge_base", {"query": "policy value iteration Bellman", "k": 20,
                                        "traverse_types": ["formula", "algorithm", "table", "example"]}),
             ("expand_graph_by_ids", {"document_ids": ids, "traverse_types": ["formula", "algorithm", "example",
                                                                              "table", "exercise", "image"]}),
             ("get_related_code_definitions", {"document_ids": ids[:50]})]
    _, results = mcp_session(server, "/mcp", calls)
    sizes = [answer_tokens(r.structured_content) for r in results]
    print(f"largest MCP answers (tokens): {dict(zip([c[0] for c in calls], sizes))}")
    assert max(sizes) <= 8000
    expanded = results[1].structured_content["result"]
    assert expanded[-1]["metadata"].get("truncated") or answer_tokens(results[1].structured_content) < 7000


# --------------------------------------------------------------------------- budgets on spec 01's routes
@pytest.mark.parametrize("budget", [400, 1200, 3000])
def test_search_expand_and_entity_answers_stay_within_max_tokens(client, budget):
    from rag_budget import answer_tokens

    search = client.post("/search/semantic", json={"query": "value iteration and policy evaluation", "k": 20,
                                                   "traverse_types": ["formula", "algorithm"], "max_tokens": budget})
    ids = [r["id"] for r in client.post("/search/semantic", json={"query": "Bellman backup", "k": 10}).json()["results"]]
    expand = client.post("/search/expand-graph", json={"document_ids": ids, "max_tokens": budget})
    entity = client.get("/entity/algorithm/5.1", params={"max_tokens": budget})
    for response in (search, expand, entity):
        assert response.status_code == 200
        body = response.json()
        assert answer_tokens(body) <= budget
        if body.get("truncated"):
            assert body["hint"]
    assert search.json()["truncated"] and search.json()["omitted"] > 0 and search.json()["results"]


def test_spec_01_answers_unchanged_when_they_fit(client):
    body = client.post("/search/semantic", json={"query": "newsvendor critical ratio", "k": 3}).json()
    assert set(body) <= {"results", "total_count", "suggestion", "corrected_query"}
    assert "truncated" not in client.get("/entity/formula/2.1").json()


@pytest.mark.parametrize("value", [0, 399, 100_001, "many", 4.5, True])
def test_max_tokens_out_of_range_is_a_spec_01_error(client, value):
    response = client.post("/search/semantic", json={"query": "value iteration", "max_tokens": value})
    assert response.status_code == 400 and "max_tokens" in response.json()["detail"]


# --------------------------------------------------------------------------- command line
def run_cli(*args: str) -> tuple[int, str, str]:
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, str(ROOT / "rag.py"), *args], capture_output=True, text=True, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


def test_cli_navigation_commands(tmp_path):
    import json

    code, out, _ = run_cli("outline", "--depth", "chapter")
    assert code == 0 and json.loads(out)["headings"][0]["id"] == "chapter_1"
    code, out, _ = run_cli("read", "2.1", "--max-tokens", "600")
    page = json.loads(out)
    assert code == 0 and page["truncated"]
    code, out, _ = run_cli("read", "--cursor", page["next_cursor"], "--max-tokens", "600")
    assert code == 0 and json.loads(out)["first_block"] >= 1
    code, out, _ = run_cli("quote", "A Bayesian network is a directed acyclic graph")
    assert code == 0 and json.loads(out)["found"]
    code, out, _ = run_cli("formula", "P(x) = \\sum_y P(x, y)", "-k", "1")
    assert code == 0 and json.loads(out)["results"][0]["id"] == "formula_2_1"
    code, out, _ = run_cli("notation", "γ")
    assert code == 0 and json.loads(out)["definitions"]
    code, out, _ = run_cli("export", str(tmp_path / "md"))
    assert code == 0 and (tmp_path / "md" / "llms.txt").is_file() and (tmp_path / "md" / "chapter_9.md").is_file()
    code, _, err = run_cli("read", "99.9")
    assert code == 1 and "no heading" in err


# --------------------------------------------------------------------------- budgets on every corpus book
def heavy_mcp_calls(path) -> list[tuple[str, dict]]:
    """Each MCP tool with default budgets on the largest input its book allows."""
    book = KnowledgeBase(path)
    # The 100 chunks that cite the most: the widest expansion the tool can be asked for.
    citing = [r[0] for r in book.db.execute("SELECT src FROM edges WHERE rel = 'REFERENCES' GROUP BY src "
                                            "ORDER BY count(*) DESC, src LIMIT 100")]
    code = [r[0] for r in book.db.execute("SELECT id FROM chunks WHERE kind IN ('algorithm', 'example', 'listing') "
                                          "ORDER BY length(content) DESC LIMIT 50")]
    biggest = book.db.execute("SELECT kind, number FROM chunks WHERE number IS NOT NULL AND kind != 'text' "
                              "ORDER BY length(content) DESC LIMIT 1").fetchone()
    longest_chapter = book.db.execute("SELECT chapter FROM chunks WHERE chapter IS NOT NULL GROUP BY chapter "
                                      "ORDER BY sum(length(content)) DESC LIMIT 1").fetchone()
    passage = " ".join(r[0] for r in book.db.execute("SELECT content FROM chunks WHERE kind = 'text' "
                                                     "ORDER BY length(content) DESC LIMIT 3"))[:5000]
    kinds = ["formula", "algorithm", "table", "image", "example", "exercise"]
    calls = [("search_knowledge_base", {"query": "definition theorem example of the method", "k": 20,
                                        "traverse_types": kinds}),
             ("expand_graph_by_ids", {"document_ids": citing or ["chunk"], "traverse_types": kinds}),
             ("get_search_tags_catalog", {"tag_type": "concepts"}),
             ("get_book_outline", {"depth": "subsubsection"}),
             ("lookup_notation", {}),
             ("check_quote", {"passage": passage}),
             ("search_formulas", {"query": "x = \\sum_{i} a_i", "k": 50}),
             ("answer_question", {"query": "What is the main method of this book?"})]
    if code:
        calls.append(("get_related_code_definitions", {"document_ids": code}))
    if biggest:
        kind = {"figure": "image"}.get(biggest[0], biggest[0])
        calls.append(("get_entity_by_number", {"entity_type": kind, "number": biggest[1]}))
    if longest_chapter:
        calls.append(("read_book", {"section": longest_chapter[0]}))
    return calls


@pytest.mark.corpus_books
@pytest.mark.parametrize("name", ["aata_2022", "algorithm2e_doc", "datatool_user", "glpk_manual", "kaobook_doc",
                          "lyryx_linear_algebra_2017", "reportlab_userguide", "tufte_sample_book", "stopt",
                          "derivations"])
def test_no_mcp_answer_over_8000_tokens_on_corpus_books(name, tmp_path_factory):
    """Issue 27's target: with default arguments, no MCP tool answer of /mcp/all over 8,000 tokens."""
    require_corpora()
    from test_corpora import built

    from conftest import start_server
    from rag_budget import answer_tokens

    _, path, _ = built(name, tmp_path_factory)
    proc, base = start_server("--db", str(path))
    try:
        calls = heavy_mcp_calls(path)
        _, results = mcp_session(base, "/mcp/all", calls)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    sizes = {}
    for (tool, _), result in zip(calls, results):
        assert not result.is_error, (tool, result.content[0].text if result.content else "")
        sizes[tool] = answer_tokens(result.structured_content)
    print(f"{name}: largest MCP answers (tokens) {sizes}")
    assert max(sizes.values()) <= 8000, sizes


# --------------------------------------------------------------------------- docs/navigation.md, run
DOCS = ROOT / "docs" / "navigation.md"
_SHELL_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)


def docs_lines() -> list[str]:
    return [line for block in _SHELL_BLOCK.findall(DOCS.read_text()) for line in block.splitlines() if line.strip()]


def test_docs_show_one_example_of_each_capability():
    lines = docs_lines()
    for route in ("/outline", "/read", "/quote/check", "/search/formula", "/notation", "/llms.txt", "/book/"):
        assert any(route in line for line in lines if line.startswith("curl ")), route
    for command in ("outline", "read", "quote", "formula", "notation", "export"):
        assert any(line.startswith(f".venv/bin/bookrag {command} ") for line in lines), command


def test_docs_examples_answer_as_written(server, tmp_path):
    """Every curl line against the served app, every bookrag line with this checkout's rag.py."""
    import json
    import shlex
    import subprocess
    import sys

    for line in docs_lines():
        words = shlex.split(line.replace("localhost:8001", server.removeprefix("http://")))
        if words[0] == "curl":
            proc = subprocess.run(words + ["-w", "\n%{http_code}"], capture_output=True, text=True, timeout=60)
            body, _, status = proc.stdout.rpartition("\n")
            assert status == "200", (line, body[:500])
            if "/book/" not in line and "llms.txt" not in line:
                json.loads(body)
        else:
            assert words[0] == ".venv/bin/bookrag", line
            args = [str(tmp_path / "md") if w == "/tmp/book-md" else w for w in words[1:]]
            proc = subprocess.run([sys.executable, str(ROOT / "rag.py"), *args], capture_output=True, text=True,
                                  timeout=120)
            assert proc.returncode == 0, (line, proc.stderr[-500:])
