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
