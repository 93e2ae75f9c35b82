"""Formulas exactly as typeset, across typesetting set-ups (issue 24), judged the way held-out books are.

Our formula corpus (tests/formulas: one body of our own maths typeset by the class of the user's book
under LuaLaTeX, pdfLaTeX with Computer Modern, Times and Palatino maths, unicode-math with two OpenType
maths fonts, and two DVI routes; and a chapter of our own written as books in that class are; and two
bodies written later as held-out checks, each under set-ups of its own) is built by build_db.py, served for real, and scored by
../shared/tools/formula_score.py against the LaTeX it was typeset from; the sample book likewise, built by
this checkout.  The scorer is the shared tool, run as it is (tests/eval/formula_fidelity.py).
"""

from __future__ import annotations

import sqlite3

import pytest

from conftest import KNOWLEDGE, ROOT, SHARED, require_shared

import formula_fidelity  # tests/eval/formula_fidelity.py (pytest's pythonpath)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    require_shared("tools/formula_score.py")
    cache = tmp_path_factory.mktemp("formula-corpus")
    return {name: formula_fidelity.score(ROOT / "tests" / "formulas" / f"{name}.pdf",
                                         ROOT / "tests" / "formulas" / f"setup-{name}.tex", cache)
            for name in formula_fidelity.setups()}


SECOND_BODY = ["tufte-b", "cm-b", "newpx-b", "lmmath-b", "stix2-b"]
THIRD_BODY = ["tufte-c", "quarto-c", "ptmx-c", "pagella-c"]


def test_every_set_up_of_the_corpus_is_committed_and_scored(corpus):
    assert set(corpus) >= {"tufte", "tuftechapter", "cm", "newtx", "newpx", "lmmath", "stix2", "dvipdfmx", "dvips",
                           *SECOND_BODY, *THIRD_BODY}
    for name, result in corpus.items():
        # the body's set-ups print all of its equations; the chapter in the class (its formulas in
        # their surroundings: side notes, margin figures, shaded examples) prints its own 26, the
        # second body its 53, the third its 52
        least = {"tuftechapter": 26}.get(name, 53 if name.endswith("-b") else 52 if name.endswith("-c") else 60)
        assert result["equations"] >= least, name


@pytest.mark.parametrize("name", ["tufte", "tuftechapter", "cm", "newtx", "newpx", "lmmath", "stix2", "dvipdfmx", "dvips",
                                  *THIRD_BODY])
def test_corpus_targets_per_set_up(corpus, name):
    """Issue 24's targets: exact >= 90 %, mean similarity >= 0.98, no numbered formula missing or empty.
    The third body (body-c.tex, held out in its turn: 75-85 % exact before any change for it) is
    held to them too."""
    result = corpus[name]
    wrong = [(r["number"], r["similarity"]) for r in result["rows"] if r["source_tokens"] != r["service_tokens"]]
    assert result["missing"] == 0 and result["empty"] == 0, (name, wrong)
    assert result["exact"] >= 0.90, (name, result["exact"], wrong)
    assert result["similarity"] >= 0.98, (name, result["similarity"], wrong)


@pytest.mark.parametrize("name", SECOND_BODY)
def test_second_body_per_set_up(corpus, name):
    """The second body (body-b.tex) was written after the builder had been tuned on the first, as a
    held-out check, and scored 53-58 % exact before any change for it.  It is held to where the
    builder stands on it now (below issue 24's 90 %: what still differs is listed in evaluation.md),
    so that it can only move up: exact >= 75 %, mean similarity >= 0.98, nothing missing or empty."""
    result = corpus[name]
    wrong = [(r["number"], r["similarity"]) for r in result["rows"] if r["source_tokens"] != r["service_tokens"]]
    assert result["missing"] == 0 and result["empty"] == 0, (name, wrong)
    assert result["exact"] >= 0.75, (name, result["exact"], wrong)
    assert result["similarity"] >= 0.98, (name, result["similarity"], wrong)


def test_every_served_formula_parses(corpus, sample):
    """`content` is LaTeX a KaTeX-like converter reads: every formula of every set-up and of the sample book."""
    converter = pytest.importorskip("latex2mathml.converter")
    failed = []
    for db in [result["db"] for result in corpus.values()] + [sample["db"], str(KNOWLEDGE)]:
        for number, content in sqlite3.connect(db).execute("SELECT number, content FROM chunks WHERE kind = 'formula'"):
            try:
                converter.convert(content)
            except Exception as exc:  # the converter's own errors: unbalanced groups, unknown commands
                failed.append((db, number, type(exc).__name__, content[:80]))
    assert not failed, failed


def test_every_formula_has_a_plain_reading(corpus):
    """`extra.text` is what the embedding model reads: the formula's words and symbols in order, no
    LaTeX commands left in it, never empty."""
    bad = []
    for name, result in corpus.items():
        rows = sqlite3.connect(result["db"]).execute(
            "SELECT number, content, json_extract(extra, '$.text') FROM chunks WHERE kind = 'formula'").fetchall()
        assert rows, name
        for number, content, text in rows:
            if not text or not text.strip() or "\\" in text:
                bad.append((name, number, content[:60], text))
    assert not bad, bad


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """The sample book built by this checkout's builder (the committed knowledge file is rebuilt from
    it when the builder changes; its freshness is another test's)."""
    require_shared("tools/formula_score.py")
    return formula_fidelity.score(ROOT / "book" / "book.pdf", ROOT / "book" / "book.tex",
                                  tmp_path_factory.mktemp("formula-sample"))


def test_sample_book_targets(sample):
    """The sample book: exact >= 90 %, mean similarity >= 0.995."""
    result = sample
    assert result["missing"] == 0 and result["empty"] == 0
    assert result["exact"] >= 0.90, result["exact"]
    assert result["similarity"] >= 0.995, result["similarity"]
