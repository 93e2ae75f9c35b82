"""The sample book's LaTeX build wrote every numbered entity to book/labels.txt: all must be found."""

from __future__ import annotations

from collections import Counter


def test_every_labelled_entity_is_in_the_knowledge_file_with_its_page(kb, labels):
    rows = kb.db.execute("SELECT kind, number, page, pdf_page FROM chunks WHERE kind != 'text'").fetchall()
    found = {(kind, number): (page, pdf_page) for kind, number, page, pdf_page in rows}
    missing, wrong_page = [], []
    for lab in labels:
        key = (lab["kind"], lab["number"])
        if key not in found:
            missing.append(key)
        elif found[key] != (lab["page"], lab["pdf_page"]):
            wrong_page.append((key, found[key], (lab["page"], lab["pdf_page"])))
    assert not missing, f"{len(missing)} labelled entities missing: {missing[:20]}"
    assert not wrong_page, f"{len(wrong_page)} entities on the wrong page: {wrong_page[:20]}"


def test_no_entities_beyond_the_labels(kb, labels):
    """The parser invents nothing: every entity in the file is one the book labelled."""
    labelled = {(lab["kind"], lab["number"]) for lab in labels}
    rows = kb.db.execute("SELECT kind, number FROM chunks WHERE kind != 'text'").fetchall()
    extra = [r for r in rows if tuple(r) not in labelled]
    assert not extra, extra[:20]


def test_counts_agree(kb, labels):
    assert Counter(lab["kind"] for lab in labels) == Counter(
        {k: v for k, v in kb.counts().items() if k != "text"})


def test_side_notes_are_attached_to_their_paragraph(kb):
    """Every \\sidenote of the LaTeX source sits, numbered and whole, inside a text chunk."""
    import re

    from conftest import ROOT

    notes = []
    for tex in sorted((ROOT / "book" / "chapters").glob("*.tex")):
        notes += re.findall(r"\\sidenote\{((?:[^{}]|\{[^{}]*\})*)\}", tex.read_text())
    assert len(notes) >= 8
    chunks = [c for (c,) in kb.db.execute("SELECT content FROM chunks WHERE kind = 'text'")]
    for number, note in enumerate(notes, start=1):
        words = [w for w in re.sub(r"\$[^$]*\$|\\\w+", " ", note).split() if w.isalpha()][:6]
        owner = [c for c in chunks if f"[Side note] {number} " in c]
        assert len(owner) == 1, (number, note[:60])
        text = owner[0].split(f"[Side note] {number} ", 1)[1]
        at = 0
        for word in words:  # the note's words, in order
            at = text.find(word, at)
            assert at >= 0, (number, word, text[:120])
            at += len(word)


def test_book_counts_meet_the_minimums(client):
    counts = client.get("/health").json()["counts"]
    minimum = {"algorithm": 24, "formula": 60, "figure": 8, "table": 8, "example": 16, "exercise": 24}
    assert all(counts[k] >= v for k, v in minimum.items()), counts


def test_lettered_and_appendix_numbers():
    import build_heads
    from rag_core import normalize_number
    from rag_text import MENTION_RE

    assert build_heads.EQ_NUMBER_RE.match("(5.142a)").group(1) == "5.142a"
    assert build_heads.EQ_NUMBER_RE.match("(A.3)").group(1) == "A.3"
    assert normalize_number("5.142a") == "5.142a" and normalize_number("b.3") == "B.3"
    mentions = [(m.group("word"), m.group("nums")) for m in MENTION_RE.finditer(
        "see equations (5.142a) and (5.142b), and Table B.3")]
    assert mentions == [("equations", "(5.142a) and (5.142b)"), ("Table", "B.3")]
