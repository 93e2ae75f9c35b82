"""Formulas exactly as typeset, across typesetting set-ups (issue 24), judged the way held-out books are.

Our formula corpus (tests/formulas: one body of our own maths typeset by the class of the user's book
under LuaLaTeX, pdfLaTeX with Computer Modern, Times and Palatino maths, unicode-math with two OpenType
maths fonts, and two DVI routes; and a chapter of our own written as books in that class are; and twelve
bodies written later as held-out checks, each under set-ups of its own) is built by build_db.py, served for real, and scored by
../shared/tools/formula_score.py against the LaTeX it was typeset from; the sample book likewise, built by
this checkout.  The scorer is the shared tool, run as it is (tests/eval/formula_fidelity.py).
"""

from __future__ import annotations

import sqlite3

import pytest

from conftest import KNOWLEDGE, ROOT, SHARED, score_formula_corpus, started_work, require_shared

import formula_fidelity  # tests/eval/formula_fidelity.py (pytest's pythonpath)

pytestmark = pytest.mark.formula_corpus   # scored in the background, run after the other tests (conftest)


@pytest.fixture(scope="module")
def corpus(formula_cache):
    """Every set-up scored: started with the session (conftest), or now."""
    require_shared("tools/formula_score.py")
    return started_work("formula_corpus", lambda: score_formula_corpus(formula_cache))


SECOND_BODY = ["tufte-b", "cm-b", "newpx-b", "lmmath-b", "stix2-b"]
THIRD_BODY = ["tufte-c", "quarto-c", "ptmx-c", "pagella-c"]
FOURTH_BODY = ["tufte-d", "kp-d", "termes-d", "fourier-d"]
FIFTH_BODY = ["tufte-e", "euler-e", "libertinus-e", "charter-e"]
SIXTH_BODY = ["tufte-f", "fira-f", "cmbright-f", "garamond-f", "libertine-f"]
SEVENTH_BODY = ["tufte-g", "bonum-g", "stix2t1-g", "schola-g"]
EIGHTH_BODY = ["tufte-h", "ncm-h", "utopia-h"]
NINTH_BODY = ["tufte-i", "lm-i", "erewhon-i"]
TENTH_BODY = ["tufte-j", "cochineal-j", "dejavu-j"]
ELEVENTH_BODY = ["tufte-k", "fouriernc-k", "xits-k"]
TWELFTH_BODY = ["tufte-l", "mathspec-l", "arev-l"]
THIRTEENTH_BODY = ["tufte-m", "pxfonts-m", "concrete-m"]
FOURTEENTH_BODY = ["tufte-n", "asana-n", "stix1-n"]
FIFTEENTH_BODY = ["tufte-o", "twocol-o", "kpotf-o"]
SIXTEENTH_BODY = ["tufte-p", "tcb-p", "neohellenic-p"]
SEVENTEENTH_BODY = ["tufte-q", "txfonts-q", "eulermath-q"]
EIGHTEENTH_BODY = ["tufte-r", "anttor-r", "xcharter-r"]
NINETEENTH_BODY = ["tufte-s", "cmbook-s", "multicol-s"]
TWENTIETH_BODY = ["tufte-t"]
TWENTY_FIRST_BODY = ["tufte-u", "mlmodern-u", "mnsymbol-u"]
TWENTY_SECOND_BODY = ["tufte-v", "kpsans-v"]
TWENTY_THIRD_BODY = ["tufte-w"]
TWENTY_FOURTH_BODY = ["tufte-x"]
TWENTY_FIFTH_BODY = ["tufte-y", "newtx-y"]
TWENTY_SIXTH_BODY = ["tufte-z", "amsbook-z"]
TWENTY_SEVENTH_BODY = ["tufte-aa", "stixrep-aa"]
TWENTY_EIGHTH_BODY = ["tufte-ab", "timescm-ab"]
TWENTY_NINTH_BODY = ["tufte-ac", "termesmem-ac"]
THIRTIETH_BODY = ["tufte-ad", "pandoc-ad"]
THIRTY_FIRST_BODY = ["tufte-ae", "garamond-ae"]
THIRTY_SECOND_BODY = ["tufte-af", "libertinus-af"]
THIRTY_THIRD_BODY = ["tufte-ag", "firamath-ag"]
THIRTY_FOURTH_BODY = ["tufte-ah", "iwona-ah"]
THIRTY_FIFTH_BODY = ["tufte-ai", "mathastext-ai"]
THIRTY_SIXTH_BODY = ["tufte-aj", "classicthesis-aj"]
THIRTY_SEVENTH_BODY = ["tufte-ak", "acmart-ak"]
THIRTY_EIGHTH_BODY = ["tufte-al", "ieee-al"]
THIRTY_NINTH_BODY = ["tufte-am", "llncs-am"]
FORTIETH_BODY = ["tufte-an", "revtex-an"]
FORTY_FIRST_BODY = ["tufte-ao", "elsarticle-ao"]
FORTY_SECOND_BODY = ["tufte-ap", "tuftebook-ap"]
FORTY_THIRD_BODY = ["tufte-aq", "notosans-aq"]
FORTY_FOURTH_BODY = ["tufte-ar", "microtype-ar"]
FORTY_FIFTH_BODY = ["tufte-as", "concrete-as"]
FORTY_SIXTH_BODY = ["tufte-at", "jmlr-at"]
FORTY_SEVENTH_BODY = ["tufte-au", "baskerville-au"]
FORTY_EIGHTH_BODY = ["tufte-av", "aastex-av"]
FORTY_NINTH_BODY = ["tufte-aw", "newtxsf-aw"]
FIFTIETH_BODY = ["tufte-ax", "mnras-ax"]
FIFTY_FIRST_BODY = ["tufte-ay", "amsart-ay"]
FIFTY_SECOND_BODY = ["tufte-az", "thesis-az"]
FIFTY_THIRD_BODY = ["tufte-ba", "achemso-ba"]
FIFTY_FOURTH_BODY = ["tufte-bb", "memoir-bb"]
FIFTY_FIFTH_BODY = ["tufte-bc", "onehalf-bc"]
FIFTY_SIXTH_BODY = ["tufte-bd", "amsproc-bd"]
FIFTY_SEVENTH_BODY = ["tufte-be", "aomart-be"]
FIFTY_EIGHTH_BODY = ["tufte-bf", "ncmreg-bf"]
FIFTY_NINTH_BODY = ["tufte-bg", "sansmath-bg"]
SIXTIETH_BODY = ["tufte-bh", "gfsdidot-bh"]
SIXTY_FIRST_BODY = ["tufte-bi", "kplight-bi"]
SIXTY_SECOND_BODY = ["tufte-bj", "lmart-bj"]
SIXTY_THIRD_BODY = ["tufte-bk", "xchartertx-bk"]
SIXTY_FOURTH_BODY = ["tufte-bl", "cmreport-bl"]
SIXTY_FIFTH_BODY = ["tufte-bm", "stickstoo-bm"]
SIXTY_SIXTH_BODY = ["tufte-bn", "scrbook-bn"]
SIXTY_SEVENTH_BODY = ["tufte-bo", "leqno-bo"]
SIXTY_EIGHTH_BODY = ["tufte-bp", "dvipsgs-bp"]
SIXTY_NINTH_BODY = ["tufte-bq", "kaobook-bq"]
SEVENTIETH_BODY = ["tufte-br", "elegant-br"]
SEVENTY_FIRST_BODY = ["tufte-bs", "stixmath-bs"]
SEVENTY_SECOND_BODY = ["tufte-bt", "octavo-bt"]
SEVENTY_THIRD_BODY = ["tufte-bu", "ncmbook-bu"]
SEVENTY_FOURTH_BODY = ["tufte-bv", "eulerlua-bv"]
SEVENTY_FIFTH_BODY = ["tufte-bw", "eulerpx-bw"]
SEVENTY_SIXTH_BODY = ["tufte-bx", "mdutopia-bx"]
SEVENTY_SEVENTH_BODY = ["tufte-by", "tuftexe-by"]
SEVENTY_EIGHTH_BODY = ["tufte-bz", "fourierps-bz"]
SEVENTY_NINTH_BODY = ["tufte-ca", "amspazo-ca"]
EIGHTIETH_BODY = ["tufte-cb", "libertinetx-cb"]
EIGHTY_FIRST_BODY = ["tufte-cc", "kurierext-cc"]
EIGHTY_SECOND_BODY = ["tufte-cd", "notofleqn-cd"]
EIGHTY_THIRD_BODY = ["tufte-ce", "artemisia-ce"]
EIGHTY_FOURTH_BODY = ["tufte-cf", "mathabx-cf"]
EIGHTY_FIFTH_BODY = ["tufte-cg", "ebgaramond-cg"]
EIGHTY_SIXTH_BODY = ["tufte-ch", "cairo-ch"]
EIGHTY_SEVENTH_BODY = ["tufte-ci", "berenis-ci"]
EIGHTY_EIGHTH_BODY = ["tufte-cj", "iso-cj"]
EIGHTY_NINTH_BODY = ["tufte-ck", "tagged-ck"]
NINETIETH_BODY = ["tufte-cl", "garamondmath-cl"]
NINETY_FIRST_BODY = ["tufte-cm", "fdsymbol-cm"]
NINETY_SECOND_BODY = ["tufte-cn", "boisik-cn"]
NINETY_THIRD_BODY = ["tufte-co", "mathpple-co"]
NINETY_FOURTH_BODY = ["tufte-cp", "kerkis-cp"]
NINETY_FIFTH_BODY = ["tufte-cq", "baskervaldx-cq"]
# set-ups of a route, not a body: a PDF typeset as another set-up's and then re-written by Ghostscript's
# pdfwrite (setup-gsnewtx-y.tex), with the set-up it re-writes
REWRITTEN = {"gsnewtx-y": "newtx-y", "gscm-b": "cm-b"}
# numbered equations each body prints (the chapter in the class, its formulas in their surroundings:
# side notes, margin figures, shaded examples, its own 26)
EQUATIONS = {"": 60, "b": 53, "c": 52, "d": 58, "e": 39, "f": 22, "g": 26, "h": 18, "i": 27, "j": 31, "k": 31, "l": 41, "m": 39, "n": 40, "o": 50, "p": 39, "q": 53, "r": 52, "s": 50, "t": 55, "u": 49, "v": 53, "w": 54, "x": 59, "y": 60, "z": 57, "aa": 60, "ab": 59, "ac": 61, "ad": 60, "ae": 61, "af": 59, "ag": 60, "ah": 64, "ai": 63, "aj": 66, "ak": 61, "al": 60, "am": 63, "an": 65, "ao": 62,
             "ap": 64, "aq": 64, "ar": 63, "as": 64, "at": 64, "au": 65, "av": 66, "aw": 64,
             "ax": 66, "ay": 65, "az": 64, "ba": 62, "bb": 59, "bc": 61, "bd": 57, "be": 60, "bf": 63, "bg": 59, "bh": 65, "bi": 71, "bj": 66, "bk": 66, "bl": 68, "bm": 69, "bn": 68, "bo": 61, "bp": 62, "bq": 69, "br": 63, "bs": 69, "bv": 61, "bu": 62, "bt": 68, "bw": 68, "bx": 70, "by": 66, "ca": 62, "cb": 65, "bz": 58, "cc": 60, "cd": 58, "ce": 62, "cf": 57, "cg": 62, "ch": 61, "ci": 68, "ck": 60, "cj": 65, "cl": 60, "cm": 61, "cn": 60, "co": 62, "cp": 61, "cq": 60}


def test_every_set_up_of_the_corpus_is_committed_and_scored(corpus):
    assert set(corpus) >= {"tufte", "tuftechapter", "cm", "newtx", "newpx", "lmmath", "stix2", "dvipdfmx", "dvips",
                           *SECOND_BODY, *THIRD_BODY, *FOURTH_BODY, *FIFTH_BODY, *SIXTH_BODY,
                           *SEVENTH_BODY, *EIGHTH_BODY, *NINTH_BODY, *TENTH_BODY,
                           *ELEVENTH_BODY, *TWELFTH_BODY, *THIRTEENTH_BODY, *FOURTEENTH_BODY,
                           *FIFTEENTH_BODY, *SIXTEENTH_BODY, *SEVENTEENTH_BODY,
                           *EIGHTEENTH_BODY, *NINETEENTH_BODY, *TWENTIETH_BODY, *TWENTY_FIRST_BODY,
                           *TWENTY_SECOND_BODY, *TWENTY_THIRD_BODY, *TWENTY_FOURTH_BODY,
                           *TWENTY_FIFTH_BODY, *TWENTY_SIXTH_BODY,
                           *TWENTY_SEVENTH_BODY, *TWENTY_EIGHTH_BODY,
                           *TWENTY_NINTH_BODY, *THIRTIETH_BODY, *THIRTY_FIRST_BODY,
                           *THIRTY_SECOND_BODY, *THIRTY_THIRD_BODY, *THIRTY_FOURTH_BODY,
                           *THIRTY_FIFTH_BODY, *THIRTY_SIXTH_BODY, *THIRTY_SEVENTH_BODY,
                           *THIRTY_EIGHTH_BODY, *THIRTY_NINTH_BODY, *FORTIETH_BODY,
                           *FORTY_FIRST_BODY,
                           *FORTY_SECOND_BODY,
                           *FORTY_THIRD_BODY,
                           *FORTY_FOURTH_BODY,
                           *FORTY_FIFTH_BODY,
                           *FORTY_SIXTH_BODY,
                           *FORTY_SEVENTH_BODY,
                           *FORTY_EIGHTH_BODY,
                           *FORTY_NINTH_BODY,
                           *FIFTIETH_BODY,
                           *FIFTY_FIRST_BODY,
                           *FIFTY_SECOND_BODY,
                           *FIFTY_THIRD_BODY,
                           *FIFTY_FOURTH_BODY,
                           *FIFTY_FIFTH_BODY,
                           *FIFTY_SIXTH_BODY,
                           *FIFTY_SEVENTH_BODY,
                           *FIFTY_EIGHTH_BODY,
                           *FIFTY_NINTH_BODY,
                           *SIXTIETH_BODY,
                           *SIXTY_FIRST_BODY,
                           *SIXTY_SECOND_BODY,
                           *SIXTY_THIRD_BODY,
                           *SIXTY_FOURTH_BODY,
                           *SIXTY_FIFTH_BODY,
                           *SIXTY_SIXTH_BODY,
                           *SIXTY_SEVENTH_BODY,
                           *SIXTY_EIGHTH_BODY,
                           *SIXTY_NINTH_BODY,
                           *SEVENTIETH_BODY,
                           *SEVENTY_FIRST_BODY,
                           *SEVENTY_SECOND_BODY,
                           *SEVENTY_THIRD_BODY,
                           *SEVENTY_FOURTH_BODY,
                           *SEVENTY_FIFTH_BODY,
                           *SEVENTY_SIXTH_BODY,
                           *SEVENTY_SEVENTH_BODY,
                           *SEVENTY_EIGHTH_BODY,
                           *SEVENTY_NINTH_BODY,
                           *EIGHTIETH_BODY,
                           *EIGHTY_FIRST_BODY,
                           *EIGHTY_SECOND_BODY,
                           *EIGHTY_THIRD_BODY,
                           *EIGHTY_FOURTH_BODY,
                           *EIGHTY_FIFTH_BODY,
                           *EIGHTY_SIXTH_BODY,
                           *EIGHTY_SEVENTH_BODY,
                           *EIGHTY_EIGHTH_BODY,
                           *EIGHTY_NINTH_BODY,
                           *NINETIETH_BODY,
                           *NINETY_FIRST_BODY,
                           *NINETY_SECOND_BODY,
                           *NINETY_THIRD_BODY,
                           *NINETY_FOURTH_BODY,
                           *NINETY_FIFTH_BODY,
                           *REWRITTEN}
    for name, result in corpus.items():
        body = name.rsplit("-", 1)[1] if "-" in name else ""     # "y", "aa" for the twenty-seventh, "ab" for the twenty-eighth
        least = 26 if name == "tuftechapter" else EQUATIONS[body]
        assert result["equations"] >= least, name


def test_every_set_up_the_makefile_lists_has_a_recipe_a_source_and_a_committed_pdf():
    """`make NAME` rebuilds every set-up: a rule list that lost a line's continuation in a merge would
    leave the set-ups before it without a recipe, and `make` would say there is nothing to be done."""
    import re
    import shutil
    import subprocess
    if shutil.which("make") is None:
        pytest.skip("no `make` on this machine")
    folder = ROOT / "tests" / "formulas"
    listed = re.search(r"^SETUPS = (.*?)\n\.PHONY", (folder / "Makefile").read_text(), re.S | re.M)
    names = listed.group(1).replace("\\", " ").split()
    assert len(names) > 190 and len(set(names)) == len(names)
    run = subprocess.run(["make", "-n", "-C", str(folder), *names, "TUFTE_CLASS_DIR=/nonexistent"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    printed = run.stdout
    for name in names:
        assert (folder / f"{name}.pdf").is_file(), name
        assert (folder / f"setup-{name}.tex").is_file(), name
        # every recipe names the set-up (setup-$@.tex, $@.pdf); a target without one prints nothing of it
        assert f"{name}.pdf" in printed or f"setup-{name}" in printed, name
    assert "Nothing to be done" not in printed


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


@pytest.mark.parametrize("name", FOURTH_BODY + FIFTH_BODY + SIXTH_BODY + SEVENTH_BODY + EIGHTH_BODY + NINTH_BODY
                         + TENTH_BODY + ELEVENTH_BODY + TWELFTH_BODY + THIRTEENTH_BODY + FOURTEENTH_BODY + FIFTEENTH_BODY
                         + SIXTEENTH_BODY + SEVENTEENTH_BODY + EIGHTEENTH_BODY + NINETEENTH_BODY + TWENTIETH_BODY
                         + TWENTY_FIRST_BODY + TWENTY_SECOND_BODY + TWENTY_THIRD_BODY + TWENTY_FOURTH_BODY
                         + TWENTY_FIFTH_BODY + TWENTY_SIXTH_BODY + TWENTY_SEVENTH_BODY
                         + TWENTY_EIGHTH_BODY + TWENTY_NINTH_BODY + THIRTIETH_BODY
                         + THIRTY_FIRST_BODY + THIRTY_SECOND_BODY
                         + THIRTY_THIRD_BODY + THIRTY_FOURTH_BODY
                         + THIRTY_FIFTH_BODY + THIRTY_SIXTH_BODY + THIRTY_SEVENTH_BODY
                         + THIRTY_EIGHTH_BODY + THIRTY_NINTH_BODY + FORTIETH_BODY
                         + FORTY_FIRST_BODY
                         + FORTY_SECOND_BODY
                         + FORTY_THIRD_BODY
                         + FORTY_FOURTH_BODY
                         + FORTY_FIFTH_BODY
                         + FORTY_SIXTH_BODY
                         + FORTY_SEVENTH_BODY
                         + FORTY_EIGHTH_BODY
                         + FORTY_NINTH_BODY
                         + FIFTIETH_BODY
                         + FIFTY_FIRST_BODY
                         + FIFTY_SECOND_BODY
                         + FIFTY_THIRD_BODY
                         + FIFTY_FOURTH_BODY
                         + FIFTY_FIFTH_BODY
                         + FIFTY_SIXTH_BODY
                         + FIFTY_SEVENTH_BODY
                         + FIFTY_EIGHTH_BODY
                         + FIFTY_NINTH_BODY
                         + SIXTIETH_BODY
                         + SIXTY_FIRST_BODY
                         + SIXTY_SECOND_BODY
                         + SIXTY_THIRD_BODY
                         + SIXTY_FOURTH_BODY
                         + SIXTY_FIFTH_BODY
                         + SIXTY_SIXTH_BODY
                         + SIXTY_SEVENTH_BODY
                         + SIXTY_EIGHTH_BODY
                         + SIXTY_NINTH_BODY
                         + SEVENTIETH_BODY
                         + SEVENTY_FIRST_BODY
                         + SEVENTY_SECOND_BODY
                         + SEVENTY_THIRD_BODY
                         + SEVENTY_FOURTH_BODY
                         + SEVENTY_FIFTH_BODY
                         + SEVENTY_SIXTH_BODY
                         + SEVENTY_SEVENTH_BODY
                         + SEVENTY_EIGHTH_BODY
                         + SEVENTY_NINTH_BODY
                         + EIGHTIETH_BODY
                         + EIGHTY_FIRST_BODY
                         + EIGHTY_SECOND_BODY
                         + EIGHTY_THIRD_BODY
                         + EIGHTY_FOURTH_BODY
                         + EIGHTY_FIFTH_BODY
                         + EIGHTY_SIXTH_BODY
                         + EIGHTY_SEVENTH_BODY
                         + EIGHTY_EIGHTH_BODY
                         + EIGHTY_NINTH_BODY
                         + NINETIETH_BODY
                         + NINETY_FIRST_BODY
                         + NINETY_SECOND_BODY
                         + NINETY_THIRD_BODY
                         + NINETY_FOURTH_BODY
                         + NINETY_FIFTH_BODY)
def test_later_bodies_per_set_up(corpus, name):
    """The fourth to twenty-sixth bodies, each held out in its turn (first scores 5-57 %, 39-72 %, 0-73 %,
    62-69 %, 28-33 %, 56-67 %, 58-77 %, 10-68 %, 24-78 %, 64-85 %, 22-78 %, 64-78 %, 26-85 %, 23-72 %,
    14-90 %, 94-96 %, 78 %, 43-94 %, 45-81 %, 89 %, 95 %, 88 % and 98-100 % exact; mnsymbol-u, the twenty-first body under
    MnSymbol, was added later and measured no held-out score), held where the builder stands on them so that they can only move up,
    nothing missing or empty.  The fourth's floor is lower: it spells its bold Greek \\boldsymbol, which prints what the
    user's class writes \\bm, and the reader writes \\bm (16-18 of its 58 formulas differ in that
    alone); the sixth's too: its OpenType set-ups spell \\bm as \\symbfit, and Fira Math prints no
    glyph for ⊤, ⋮, ⋱ or ⪰ and its \\mathcal as plain letters; the eighth's most of all: 8 of its 18
    formulas spell bold Greek \\boldsymbol (and under New Computer Modern, which has no bold maths
    version, \\boldsymbol prints the regular letter), two more \\Biggl and \\stackrel; the ninth's: 4 of
    its 27 formulas hold \\vect{0}, which the class prints bold and formula_score.py reads as a plain 0;
    the tenth's: \\vect{0} again (3 of 31), \\land for \\wedge, \\underset{x}{\\operatorname{minimize}} (the reader
    writes \\operatorname*{minimize}_{x}, which prints the same), and under unicode-math the upright
    bold Greek of classvect.sty, which unicode-math writes \\mathbf and the judge reads as \\bm; the
    eleventh's: that bold Greek again under XITS Math, \\stackrel for \\overset, primes written after a
    subscript (x_{b}', printed as x'_{b}), \\hdotsfor; the twelfth's: \\Biggl where the reader writes the
    delimiter bare (formula_score.py drops \\left and \\Bigl but keeps \\Biggl), scripts the judge
    orders otherwise (Q^{\\pi_{k}}_{h}), \\gets; and under Arev its maths letters a, i, w, x, I in the
    font's private-use code points (U+EB80 plus the letter), which name no letter a reader can know;
    the thirteenth's: rcases round rows that TeX set as a gathered block would be, a dcases block
    (served as cases with \\dfrac rows, which print the same and which authors write more often), and under Concrete
    Math the upright bold Greek of classvect.sty; the fourteenth's: \\underset{…}{\\operatorname{arg\\,max}}
    (printed as \\operatorname*{arg\\,max}_{…}), \\vect{0} and \\vect{1}, and under XeLaTeX with Asana Math
    its big operators, large delimiters and braces, which the font keeps at private-use code points
    (U+10FExx-U+10FFxx) and its embedded subset names no glyph of (no post or cmap table); the
    fifteenth's: \\vect{0} and \\vect{1} again, \\genfrac written for a brace-delimited stack (read as
    the Bmatrix it prints as), \\sideset's prime, \\varnothing where the font's empty set is the same
    glyph, and under KpMath the upright bold Greek of classvect.sty; the sixteenth's: primes written
    after a subscript, \\gets, \\vect{0} and \\vect{1}, and under GFS Neohellenic Math the upright bold
    Greek of classvect.sty; the seventeenth's: \\vect{0}, an array's column spec and \\intertext words the
    judge counts as maths, \\Biggl, \\implies for \\Longrightarrow, and under XeLaTeX with Euler Math its
    big operators and larger delimiters, which its embedded subset maps to private-use code points
    (U+E1D3 for the display sum); the eighteenth's: \\vect{0}, \\Biggl, \\gets, and under XCharter Math
    the upright bold Greek of classvect.sty; the nineteenth's: \\vect{0}; the twentieth's: \\gets (seven of
    its 55), \\vect{0} and \\vect{1} and \\underset{…}{minimize}; the twenty-first's: \\gets; the twenty-second's: \\bigg| after a
    fraction where \\right| would be as tall (the reader writes \\left. … \\right|),
    \\xrightarrow over a short label, \\stackrel, and under XeLaTeX with KpMath-Sans its big
    operators, large delimiters and radicals, which the font keeps at private-use code points; the
    twenty-third's: \\vect{0} and \\underset{…}{\\text{minimize}}; the twenty-fourth's: an \\eqref in a
    cases row's words, which the judge keeps as the command where the page prints its number; the
    twenty-fifth's: primes written after a subscript (y_{j}'), \\Biggl, and an align's \\notag row under its numbered first row, which prints as an
    aligned[t] block would (the reader gives the whole block the number); the twenty-seventh's (tufte-aa,
    stixrep-aa: 78 % and 77 % exact when first measured; stixrep-aa numbers its equations (1-4)):
    \\square and \\lozenge, which \\Box and \\Diamond print too, \\land, \\Bigm|, a prime after a subscript,
    and a row "\\ [c …]" the judge reads as an option of \\ and drops; the twenty-eighth's (tufte-ab,
    timescm-ab, the book class with Times text over Computer Modern maths: 93 % and 92 % when first
    measured) and the twenty-ninth's (tufte-ac, termesmem-ac, memoir with TeX Gyre Termes Math: 95 % and
    89 %): primes after a subscript, a cases block of \\dfrac rows, \\widetilde over one letter of an
    OpenType font; the thirtieth's (tufte-ad, pandoc-ad, the article class as Pandoc sets it under
    XeLaTeX: 92 % and 92 % when first measured): \\mathbf{\\Lambda}, which the class's bold face prints
    as a filled box and Latin Modern's Type 1 bold as \\bm{\\Lambda} prints; the thirty-first's (tufte-ae,
    and garamond-ae, the book class with EB Garamond and newtxmath's Garamond maths, its numbers on
    the left: 100 % and 97 % exact when first measured, two formulas lost then: a display on a page's
    last line split by its fractions, a number at a list item's indent read into its row); the
    thirty-second's (tufte-af, and libertinus-af, KOMA's scrbook at 10pt with Libertinus text over
    libertinust1math's Type 1 maths under pdfLaTeX: 98 % and 98 % exact when first measured, held to
    the default floor): a prime on a \\sum's index read onto the \\sum, a parenthesis closing a limit
    under \\max read after the next operator; the
    thirty-third's (tufte-ag, and firamath-ag, KOMA's report class with Fira Sans and Fira Math under
    LuaLaTeX: 92 % and 92 % exact when first measured): \\Big\\vert and \\Bigm\\vert read as
    \\middle|, a cases block of \\dfrac rows, a prime in a subscript (\\alpha_{a'}) read as one after
    it, an align's \\notag first row read into the numbered row under it, and under the class a side
    note's display lost to the display beside it; the thirty-fourth's (tufte-ah, and iwona-ah, KOMA's
    scrbook at 11pt under pdfLaTeX with Iwona's text and its own Type 1 maths, numbered by section: 91 %
    and 31 % exact when first measured, nothing missing or empty): \\vect{0}, \\text{exp} in a
    subscript (the reader writes \\exp) and \\ast (written *), which print the same, a split row of
    pmatrices broken into lines, a cases block whose \\frac row took the next row's \\log x into its
    denominator, and under Iwona its maths extension font, embedded under the text's name
    (Iwona-Regular) with a ToUnicode map of 20 codes, read by code rather than by its glyph names:
    display sums, products, integrals and unions as X, Y, Z and [, radicals as p, q, r, \\bigl and
    \\Bigl delimiters lost or read as letters (h i, n o), a wide hat as c, an overbrace's pieces as
    z } | {, a cases brace as ( with its rows lost; and its calligraphic capitals (glyphs named
    F.kali) as plain letters
    (all of it but the script capitals read right since: 94 % and 91 %); the thirty-fifth's (tufte-ai, and mathastext-ai, the
    article class at 11pt under pdfLaTeX with Charter text and mathastext, which sets the maths letters
    and digits in the text font while the symbols and big operators stay Computer Modern's: 89 % and
    76 % exact when first measured): an array's \\hline dropped, \\Bigm| read as \\middle|, a cases
    block of \\dfrac rows, \\dotsb read as \\cdots, \\mathbin{\\triangle} read bare, and an \\overbrace
    over three sums whose lower limits fall out of it into a row of their own, with \\frac{\\log m}{2}
    read as \\log 2m; under mathastext also two displays too wide for their number (it drops below
    them) served as the page's text, a multline's first row lost, a vmatrix's cells scrambled, a
    product's superscript and two integrals' limits lifted into rows of their own, a subscript's own
    subscript flattened, \\bigm| read as |, \\binom read as a pmatrix, and, unseen by the judge, every
    maths italic letter (Charter Italic) served as \\mathrm and letter subscripts as \\operatorname{ijk};
    the thirty-sixth's (tufte-aj, and classicthesis-aj, KOMA's report class at 11pt under pdfLaTeX
    with the classicthesis style's defaults: Palatino text with old-style figures, so that the
    equation numbers print in old-style digits, over mathpazo's Pazo Math, numbered by chapter: 95 %
    and 95 % exact when first measured, nothing missing or empty, all 66 numbers read): an array's
    column spec the judge counts as maths (the reader writes the bmatrix it prints as), an \\overbrace
    over a \\sum whose lower limit's = is read out of the limit and after the brace, and an
    \\underbrace under a \\sum whose upper limit \\log_{b} n - 1 is read as a \\log raised before the
    \\sum and bn - 1, the brace lost to loose pieces and its label set in a row of its own; unseen by
    the judge, under the class \\phi and \\epsilon served as \\varphi and \\varepsilon, and \\text words in
    a theorem's italic run into the letters beside them (\\text{if } f(n) served as iff(n));
    the thirty-seventh's (body-ak.tex, a search appendix and a chapter on online planning for a
    grocer's delivery vans, written to fit a two-column page; tufte-ak, and acmart-ak, the ACM's
    master article class as a sigconf paper sets it, two columns at 9 pt under pdfLaTeX with Linux
    Libertine text over newtxmath's Libertine maths, numbered by section: 95 % and 77 % exact when
    first measured, nothing missing or empty): an \\operatorname*{arg\\,min} whose limit holds a
    subscripted a_{1:n} torn apart, an \\overbrace over a \\sum with a limit set over the wrong span
    (its brace glyph served in a row of its own, and under acmart its label lost), \\Bigm| read as
    \\middle|; under acmart also \\mathbf, which newtxmath takes from Libertine's semibold
    (LinLibertineTZ), served as \\mathrm or plain (\\mathbf{1} as 1), and two bold capitals before a
    bold letter merged into \\operatorname{Ax} and \\operatorname{Qx}, \\bm{\\Sigma} (a bold upright
    capital) served as \\mathbf{\\Sigma}, and an integral's limits lifted into rows of their own;
    the thirty-eighth's (body-al.tex, two chapters on multiagent state uncertainty and collaborative
    agents for two distribution centres that share a pool of trucks and see their own stock only,
    written to fit a two-column page; tufte-al, and ieee-al, the IEEE's IEEEtran class as a journal
    sets it, two columns of 252 pt at 10 pt under pdfLaTeX with newtxtext and newtxmath's Times,
    numbered by section in Arabic figures: 92 % and 87 % exact, mean similarity 0.959 and 0.961 when
    first measured, nothing empty; under the class one formula missing, the example float's array of
    plain figures read as the text's lines, which its floor allows until it is read): scripts on
    scripts, U_{i}^{(\\pi_{1}^{(j)}, \\pi_{2}^{(l)})}, torn into rows of a smallmatrix, an aligned
    programme whose rows of words (\\operatorname*{maximize} ..., "subject to the Bellman equations,")
    were read as text, leaving its last two rows, an align whose two \\notag rows the reader serves with
    the numbered row under one number, where the judge scores that row alone, and \\Bigm| read as
    \\middle|; under IEEEtran also the linear programme's first rows lost and the \\substack of one sum
    read into the last row's scripts, \\mathsf served as \\mathrm and \\operatorname, newtxmath's
    \\mathbb{1} served as U+22AE, the code its font's ToUnicode map gives it, and the first line of the
    paragraph under an \\underbrace's label read as a row of the display; unseen by the judge, under the
    class \\epsilon and \\varphi served as \\varepsilon and \\phi;
    the thirty-ninth's (body-am.tex, a chapter on hidden Markov models and one on structured models
    of time for a dairy's milk deliveries, written beside the thirty-eighth; tufte-am, and llncs-am,
    Springer's Lecture Notes class as its proceedings set a paper, 10pt Computer Modern under
    pdfLaTeX in a 12.2 cm text block, with the class's own theorem and definition (both italic),
    numbered by section: 89 % and 89 % exact when first measured, mean similarity 0.990 and 0.989,
    nothing missing or empty, all 63 numbers read): a \\sum under a two-row \\substack in a
    fraction's numerator lost with its first row and its summand (the numerator served as o_{t} = o),
    a \\widehat over \\log P served as \\log \\hat{P}, the text line under a display whose
    \\underbrace label hangs low read into it as a second row, \\bigm| read as | (its \\bigl
    pair the judge drops), and \\vect{0}; under llncs also its trellis array read without its
    vertical rules and \\hline and with cells run together (20.02880.1568), and, unseen by the judge,
    which ignores &, the cells of every matrix run together, since llncs sets \\arraycolsep to
    1.4 pt (a pmatrix's 0.3 & 0 served as 0.30, a bmatrix's p & -p as p-p);
    the fortieth's (body-an.tex, a chapter on imitation learning and one on model-based methods for a
    parcel depot's dispatching, written to fit a two-column page beside the forty-first; tufte-an, and
    revtex-an, the American Physical Society's revtex4-2 as Physical Review D sets an article, two
    columns of 246 pt at 10 pt Computer Modern under pdfLaTeX, numbered by section in Arabic figures:
    94 % and 91 % exact, mean similarity 0.999 and 0.981 when first measured, nothing missing or
    empty, all 65 numbers read; now 97 % and 97 %, the cases block of \\dfrac rows, the prime on a
    superscript (U_{\\hat{\\bm{\\theta}}}^{\\pi'}), revtex's aligned programme (\\operatorname*{maximize}
    with "subject to" rows, once read as its limit alone) and the rows of a gather's cases block read
    twice all read as printed): \\Biggl[ ... \\Biggr] read as plain brackets and \\vect{0}; unseen by
    the judge, under the class \\phi and \\epsilon served as \\varphi and \\varepsilon, and \\text{if }
    in cases rows as \\operatorname{if}."""
    result = corpus[name]
    wrong = [(r["number"], r["similarity"]) for r in result["rows"] if r["source_tokens"] != r["service_tokens"]]
    # none missing: leqno-bo's two missing at first (6.7 in a list item, 6.9 under a wide hat), kaobook-bq's
    # empty side-note display (1.6, in the margin left of the text), tufte-bs's side note 2.7 (an overfull row
    # beside it ran past the note's measure, where its number ends) and tufte-bx's side note 1.13 (its
    # \overline{X}_{n} taken for a drawing's stroke, the display for the drawing's text) now read.  But for
    # boisik-cn, all of whose fonts are nameless bitmaps: since a nameless font's bold is read from its strokes,
    # its definitions, theorem and algorithms are found by their bold heads, and its display (2.2), whose
    # maths reads as letters ("xc axhE"), is taken for a line of the prose after Definition 2.1
    assert result["missing"] <= (1 if name == "boisik-cn" else 0) and result["empty"] == 0, (name, wrong)
    # the forty-first body (body-ao.tex, a chapter on learning a model and one on imitation learning for a chain
    # of pharmacies; tufte-ao, and elsarticle-ao, Elsevier's class as a preprint at 12pt under pdfLaTeX with
    # Computer Modern, numbered by section): 95 % and 95 % exact, mean similarity 0.998 and 0.998 when first
    # measured, nothing missing or empty, all 62 numbers read; its \substack under an arg min with a sum in its
    # second line now read
    # the forty-second body (body-ap.tex, a chapter on online planning and one on offline belief-state planning for a
    # heating-oil distributor's tankers; tufte-ap, and tuftebook-ap, the original tufte-book class under pdfLaTeX with
    # its defaults, Palatino by mathpazo): 89 % and 88 % exact, mean similarity 0.980 and 0.975 when first measured,
    # nothing empty, one formula missing under each (a side note's \left\lceil ... \right\rceil over a nested
    # fraction, served as the note's text), now 95 % and 95 %, nothing missing; still differing: scripts written
    # superscript first with a script inside (\widehat{U}^{\pi_{0}}_{d}), which the judge reorders into another
    # sequence than the same scripts written subscript first, as the reader serves them, and an en dash read as a
    # minus
    # the forty-third body (body-aq.tex, a chapter on online belief-state planning and one on controller
    # abstractions for a fleet of electric buses; tufte-aq, and notosans-aq, KOMA's report class under
    # LuaLaTeX with Noto Sans text and Noto Sans Math's alphabets and symbols over Latin Modern Math,
    # numbered by chapter): 81 % and 75 % exact, mean similarity 0.987 and 0.984 when first measured,
    # nothing missing or empty, all 64 numbers read, now 84 % and 84 %; eight of the ten left spell bold
    # Greek \boldsymbol, which prints what the reader writes \bm (as the fourth body), one a \textsc name
    # and one an \eqref the page prints as (2.2)
    # the forty-fourth body (body-ar.tex, a chapter on exploration and exploitation and one on beliefs over
    # continuous states for a coastguard station's drone patrol and a drifting life raft; tufte-ar, and
    # microtype-ar, the book class at 11pt under pdfLaTeX with Latin Modern and microtype's font expansion,
    # numbered by chapter): 82.5 % and 82.5 % exact, mean similarity 0.967 and 0.967 when first measured,
    # nothing empty, all 63 numbers read; under both one formula missing, the example float's alignat's second
    # row \hat{\theta}_{B} + \sqrt{\frac{2 \ln 20}{4}} ... (1.31), which under microtype-ar is read as a row
    # "2 \ln 20" of the first (1.30); a \sum under a limit with \colon (i \colon \Delta_{i} > 0) torn
    # apart; \Bigm| read as \middle|; an align's \notag first row served with the numbered row under it; a
    # bmatrix under an \underbrace with its last row and the brace read as a row of their own; a Jacobian
    # evaluated under \bigg|_{\vect{\mu}_{p}} scrambled into a matrix with the bar; primes written after a
    # subscript (\vect{\mu}_{b}'), served before it; and under the class \vect{\epsilon} lost
    # the forty-fifth body (body-as.tex, a chapter on approximate value functions and one on evaluating a policy from
    # experience for a hydroelectric reservoir's releases; tufte-as, and concrete-as, the book class in the setting of
    # Concrete Mathematics, ccfonts' Concrete Roman text (Type 3 bitmaps through dvips and ps2pdf) over eulervm's Euler
    # maths, numbered by chapter): 86 % and 52 % exact, mean similarity 0.990 and 0.907 when first measured (53 %,
    # 0.912 under concrete-as once the set-up had Concrete's 7pt italic made, which dvips had set in cmr10's bitmaps:
    # two \underbrace labels in a theorem), nothing missing or empty, all 64 numbers read; under both an expectation
    # under \mathop with its limit set under it read apart from the \mathbb{E}, a fraction of \underline and \overline
    # bounds garbled, an aligned set beside an equation's first part reordered, \dotsm and \dotsb served as \cdots,
    # \stackrel as \overset, \bigm| as \middle|, \underset{...}{\operatorname{minimize}} as
    # \operatorname*{minimize}_{...}; under concrete-as also the limits of most display sums and products lost (or
    # their upper limit), those of \max, \sup and \operatorname*{arg\,min} torn apart, the first lines of two multlines
    # and a split lost, an aligned programme's first and last rows and an aligned definition's second row lost, two
    # arrays' rows lost, \check and \bar dropped, \ddot and \dot read as empty superscripts, a \sqrt's index torn,
    # \vdots scattered into scripts, and the ff ligature of Concrete's text dropped (eff, difference); all but the first
    # two (the limits, the rows, the accents, the ligature; not the index) were the text font's size read as 1 pt,
    # the Type 3 fonts' "1 Tf", and their glyph names unread: 84 %, 0.988 once a Type 3 font's em came from its
    # letters' ink and its glyphs from its dictionary's names
    # the forty-sixth body (body-at.tex, a chapter on games played once and one on Markov games for two tyre dealers
    # who price winter tyres against each other through a season, ending in a two-retailer inventory pricing game;
    # tufte-at, and jmlr-at, the Journal of Machine Learning Research's jmlr class with its defaults under pdfLaTeX,
    # 11pt Computer Modern, numbered straight through): 92.2 % and 95.3 % exact, mean similarity 0.967 and 0.983 when
    # first measured, nothing empty, all 64 numbers read but three; under both the numbered display inside the table
    # float (a welfare W(\pi) as a double \sum in a minipage cell) missing, read as the table's cells, its limits in
    # a row of their own; a ratio whose numerator is \overline{W}(s) - W(\vect{\pi})(s) and denominator
    # \overline{W}(s) torn apart (served as \frac{\overline{W}(s) W(\bm{\pi})(s)}{(s)} \frac{-}{W}); a linear
    # programme's \vect{1} and \vect{0}, which the reader serves bold as printed and the judge reads plain (as
    # \vect{0} in the ninth body); under the class also the side note's display, a geometric mean under \sqrt[T]
    # over a \prod, missing, served as the note's text, and \Bigm| read as \middle|
    # the forty-seventh body (body-au.tex, a chapter on bandits and Gittins indices and one on Bayesian optimisation
    # with Gaussian-process surrogates and the knowledge gradient of a supplier test, for a farm-machinery parts
    # wholesaler's bearing foundries and its reorder rule; tufte-au, and baskerville-au, KOMA's scrbook at 11pt under
    # pdfLaTeX with BaskervilleF text over newtxmath's Baskerville maths, numbered by chapter): 89 % and 83 % exact,
    # mean similarity 0.996 and 0.994 when first measured, nothing missing or empty, all 65 numbers read; under both
    # primes written after a subscript (\tau_{i}', m_{i}', x_{d}') served before it (four formulas), and \Bigm| and
    # \biggm| read as \middle| (two formulas under the class, five under baskerville-au, where the class read three
    # of them right); under the class also a \sqrt[n_{i}] whose index's subscript was read as n and the i set after
    # the radicand's y_{ij}; under baskerville-au also newtxmath's \mathbb{1} served as U+22AE (two formulas), the
    # code its font's ToUnicode map gives it, as under ieee-al (both bodies since: the two missing displays found, in
    # a table's minipage cell and in a side note under a root built of pieces; the fraction over \overline{W} whole;
    # \sqrt[n_{i}] whole; newtx's blackboard 1 read as msbm's; left: primes after subscripts, and \Bigm| where
    # \;\middle|\; prints alike)
    # the forty-eighth body (body-av.tex, a chapter on constrained decision processes, their Lagrangian, occupancy
    # measures and chance constraints and one on risk measures and risk in the Bellman equation, for a regional blood
    # bank's platelet orders under a shortage limit; tufte-av, and aastex-av, the American Astronomical Society's
    # aastex631 class in its twocolumn option under pdfLaTeX with Computer Modern, numbered straight through): 97.0 %
    # and 97.0 % exact, mean similarity 0.977 and 0.970 when first measured, nothing empty, all 66 numbers read but one
    # under the class and two under aastex-av, so that both fail the "nothing missing" assertion until they are read;
    # under both the side note's display, Cantelli's inequality with a fraction \frac{\sigma_{U}^{2}}{\sigma_{U}^{2} +
    # \tau^{2}}, missing, served as the note's text with the fraction's parts scattered (under aastex-av the footnote
    # at the left column's foot read line by line between the rows of the right column's alignat); under the class also the
    # numbered display in the table float's minipage cell read with the cells above it in its column ("coherent
    # (2.1), not subadditive (2.2), ...") as rows of an aligned over it; under aastex-av also the first display, the
    # tuple (\mathcal{S}, \mathcal{A}, T, R, \mathbf{C}, \gamma, \mathbf{b}) beside \mathbf{C} = (C_{1}, \dots,
    # C_{K}), missing, served as the paragraph's inline maths with the second \mathbf{C} as a text letter; unseen by
    # the judge, under aastex-av the cells of a bmatrix row and a pmatrix row run together ([x_{t, 1}x_{t, 2}\cdots
    # x_{t, m}], (0\cdots055)), and under both \text{if } and \text{(monotone)} served as \operatorname (since: all
    # three displays found and the table's display whole, 100 % under both)
    # the forty-ninth body (body-aw.tex, a chapter on identifying a warehouse's model by least squares, certainty
    # equivalence and linear-quadratic control with the Riccati recursion, and one on Kalman filtering of demand and
    # model predictive control with constraints for a paint warehouse's replenishment; tufte-aw, and newtxsf-aw,
    # KOMA's scrartcl at 11pt under pdfLaTeX with Helvetica text over newtxsf's sans-serif maths, numbered by
    # section): 93.8 % and 70.3 % exact, mean similarity 0.999 and 0.992 when first measured, nothing missing or
    # empty, all 64 numbers read; under both \Biggl ... \Biggr pairs (\Biggl[, \Biggl(, \Biggl\{) served as bare
    # delimiters, which the judge keeps (three formulas each); under the class also \vect{0}, which it prints bold
    # and the judge reads plain (one); under newtxsf-aw the upright bold capital Greek of \vect{\Theta} and
    # \bm{\Sigma} served as plain \Theta and \Sigma (twelve formulas; the bold small Greek read right), newtxsf's
    # \mathbb{E} served as the letter Å (four), \mathbf{0} served as a plain 0 (two), and the hats of
    # \hat{\mathbf{A}} and \hat{\mathbf{B}} in a block bmatrix's cells and of \hat{\mathbf{A}}^{2} lost (one)
    # (since: newtxsf's bold Greek and \mathbb{E} read, 92.2 %; left: the \Biggl pairs, \mathbf{0}, the hats)
    # the fiftieth body (body-ax.tex, a chapter on policy gradients (the likelihood ratio, REINFORCE with a baseline,
    # reward-to-go, the policy gradient theorem, softmax and Gaussian policies, entropy) and one on actor-critic methods
    # (TD errors, generalised advantages, the natural gradient, trust regions, clipped surrogates, deterministic policy
    # gradients) for a garden centre's pricing and replenishment agent; tufte-ax, and mnras-ax, the Monthly Notices of
    # the RAS's mnras class in two columns with fleqn under pdfLaTeX with newtxtext's and newtxmath's Times, numbered
    # straight through): 97.0 % and 95.5 % exact, mean similarity 0.991 and 0.985 when first measured, nothing missing
    # or empty, all 66 numbers read; under both the deterministic policy gradient's evaluation bar
    # \Big|_{\vect{a} = \vect{\mu}_{\vect{\theta}}(\vect{s})} served as \left. ... \right|_{...} with the \left. at the
    # formula's start, outside the \Bigl[ it closes inside, whose "." the judge keeps; under the class also the
    # trust-region programme, an aligned of \operatorname*{maximize} and "subject to" rows as a gather's second row,
    # served as its first row alone, the "subject to" row set as an unnumbered display in the text; under mnras-ax also
    # the natural gradient's programme, an aligned of \operatorname*{maximize}_{\Delta \vect{\theta}} and "subject to"
    # rows, read as the paragraph's text with inline maths ("maximize $\nabla ...$ subject to $\overline{2} ...$"), its
    # \tfrac{1}{2}'s 2 read under an \overline and the formula served as the limit \Delta\bm{\theta} and \underline{1}
    # alone, and the trust-region programme served with the surrogate's fraction from the gather's first row (2.15, 48)
    # as a first row of its own; unseen by the judge, under the class \epsilon and \phi served as \varepsilon and
    # \varphi, \text{if } and \text{(score)} as \operatorname, and the natural programme's first row without its &
    # (since: the gather's numbers, centred between or dropped below the two rows of an aligned block, take both rows;
    # a flush-left aligned block's rows, each with a word after a quad where the other's starts, are display rows; an
    # evaluation bar inside a bracket opens nothing outside it and divides nothing: 100 % under both)
    # the fifty-first body (body-ay.tex, a chapter on conjugate Bayesian models of demand (Gamma-Poisson, Beta-binomial,
    # Normal-Normal and Normal-Inverse-Gamma, the negative binomial and Student's t predictives, a price regression,
    # empirical Bayes and partial pooling across stores, James-Stein) and one on computing posteriors and ordering
    # (Metropolis-Hastings, Gibbs sampling, variational inference and the ELBO, the newsvendor's critical fractile,
    # Thompson sampling with censored sales) for a hardware chain's patio heaters; tufte-ay, and amsart-ay, the AMS's
    # amsart at 10pt under pdfLaTeX with Latin Modern, amsthm, equations numbered by section on the left (leqno)):
    # 90.8 % and 90.8 % exact, mean similarity 0.989 and 0.983 when first measured, nothing empty; under the class all
    # 65 numbers read, under amsart-ay one missing (5.4); under both \binom{\alpha_{n} + \tilde{y} - 1}{\tilde{y}} and
    # \binom{\tilde{m}}{j} in a display's main line served as a one-column pmatrix (the \binom inside a \sum under
    # \biggl\{ ... \biggr\} read right), and the apostrophe of \text{(the chain's hyperprior)}, which prints as a
    # right quote, served as ’ (its words split as \text{the chain}’\mathrm{s}\operatorname{hyperprior}); under the
    # class also mathpazo's \varpi served as the letter v (two formulas), the class's bold upright \vect{\epsilon}
    # lost (served "+\quad,"), and the Normal-Normal display in the table float's minipage cell served with the
    # table's other rows (Gamma-Poisson, Beta-binomial and their posteriors, as \operatorname words) as rows of an
    # aligned before it; under amsart-ay also that cell's display, numbered on the left, read as table text (the
    # fraction's numerator \underline'd in one row, "(5.4) \mu_{n} =" and the denominator in the next), so 5.4 is
    # missing, and \parallel, the same glyph as \| in Latin Modern, served as \| (two formulas); unseen by the
    # judge, under both \text{if } and \text{const} as \operatorname, the pooled order's aligned programme with its
    # first row's & lost and the second's moved past the sum, an alignat's column & served as a ", "; under the class
    # \phi served as \varphi; under amsart-ay the subscripts y_{jt} inside the marginal likelihood's first fraction
    # served as y_{\text{jt}}
    # (since: a cell's display with its number dropped below it, or on its left, read from its own lines; \binom with
    # accented parts; PazoMath's "pi1" as \varpi; Euler's bold ϵ at its low code; the apostrophe inside its \text; a
    # double bar whose spaces are a relation's as \parallel: 100 % under both)
    # the fifty-second body (body-az.tex, a chapter on multi-echelon inventory (echelon stock, echelon base-stock
    # policies, the Clark-Scarf recursion and per-stage fractiles, risk pooling and the square-root law, lateral
    # transshipments) and one on lot sizes and networks ((s, S) policies and their renewal-reward cost, the EOQ with
    # quantity discounts and a finite production rate, the economic lot scheduling problem and power-of-two cycles, a
    # network's dynamic programme, the approximate and fluid linear programmes) for a garden-tool maker's depot and
    # warehouses; tufte-az, and thesis-az, a doctoral thesis's report class at 12pt under pdfLaTeX with Latin Modern,
    # setspace's \doublespacing and one-inch margins, numbered by chapter): 100 % and 92.2 % exact, mean similarity
    # 1.000 and 0.991 when first measured, nothing missing or empty, all 64 numbers read; under thesis-az a big
    # delimiter (\Bigl[, \Bigl\{, \biggl(, \Bigl() just after a display \sum or \min with limits read into the
    # operator's lower limit, the upper limit set twice (\sum_{[_{t = 1}^{T}}^{T}, \sum_{i_{= 1}^{n}(}^{n},
    # \min_{\mathbf{u}_{\in \mathcal{U}(\mathbf{x})}\{}) (four formulas), an aligned programme whose "subject to"
    # row (ELSP's) or whose third row ("for all \vect{x} and all ...", the approximate LP's) was served as the
    # paragraph's text, the formula cut to its first row or two; unseen by the judge, under both \text{if } and
    # \text{otherwise} served as \operatorname, \mathrm{SS}_{\text{apart}} as \operatorname{SS}_{\operatorname{apart}},
    # \text{cost of a cycle} split as \text{cost of}\mathrm{a}\operatorname{cycle}; under the class \varphi served as
    # \phi and \bm{\phi} as \bm{\varphi}; under thesis-az \frac{2 K D}{i c_{k}} under a \sqrt as \text{KD} and
    # \text{ic}_{k}
    # (since: a big delimiter is no limit, the 12pt class's 10pt extension font notwithstanding; the thesis's doubled
    # leading is its leading, and its programmes' rows of words, their first column flush right or empty, display
    # rows: 100 % under both)
    # the fifty-third body (body-ba.tex, a chapter on partially observable decisions (belief updates over a hidden
    # demand regime, alpha vectors and the convex value, pruning, point-based value iteration, the QMDP, fast informed
    # and lower bounds) and one on particle filters, Kalman filtering of a demand level, the value of information and a
    # Bayesian adaptive order, for a wholesaler's bottled water; tufte-ba, and achemso-ba, the ACS's achemso class as
    # its template sets a manuscript (journal=jacsat, manuscript=article), double spaced at 12pt under pdfLaTeX in
    # Computer Modern (T1), equations numbered straight through, sections unnumbered): 95.2 % and 93.5 % exact, mean
    # similarity 0.979 and 0.990 when first measured, all 62 numbers read under both, nothing missing or empty; under
    # both the preposterior choice \underset{\text{survey or not}}{\max} \Bigl\{ \underbrace{\operatorname{EVSI} -
    # c_{z}}_{\text{survey}}, \; 0 \Bigr\} served as \max\quad\{\operatorname{EVSI}\underline{-c}_{z}, 0\}: the note
    # under \max lost and the \underbrace read as an \underline on "-c" with its label lost (2.22, 47); under the class
    # the example float's three-column alignat, its number dropped below the row, served as its number "(1.25)" alone,
    # and the steady gain's \cfrac{1}{1 + \cfrac{r}{\bar{P}}} served as \frac (the inner fraction prints at display
    # size, which \frac would not); under achemso-ba that \cfrac, made tall by the manuscript's double spacing, read
    # as three rows of an aligned, "1", the main line ending "= ." and "1 + \frac{r}{\bar{P}}", its rule lost (36), the
    # pruning programme's third row (\mathbf{1}^\top \vect{b} = 1, \vect{b} \geq \mathbf{0}), an aligned continuation
    # row with no word before its &, dropped (12), and the fast informed bound's multline served as its second line
    # alone, its first (\alpha_{a}^{(k+1)}(s) = R(s, a)) lost (19); tufte-ba's 1.25, served as its number alone, has no
    # plain reading (extra.text empty), so test_every_formula_has_a_plain_reading fails until that row is read
    # (since: the number dropped a line's pitch below the alignat's row finds it, the \underset note's and the
    # \underbrace's words are the display's, and under achemso-ba the programme's third row and the multline's first
    # line are read: 96.8 % under both; left: \cfrac two levels deep, which prints as a \frac over a \dfrac and is
    # read so (the judge keeps \underset{...}{\max}, served as \max_{...}, which prints the same))
    # the fifty-fourth body (body-bb.tex, a chapter on tabular reinforcement learning (TD(0), Q-learning, SARSA and
    # expected SARSA, epsilon-greedy, Boltzmann and UCB exploration, Robbins-Monro step sizes, eligibility traces) and
    # one on function approximation (linear features and the semi-gradient, the TD fixed point, LSTD, deep Q-networks
    # with replay and target networks, the Huber loss, prioritized replay, double Q-learning, fitted Q iteration) for
    # bicycle shops' evening orders of inner tubes; tufte-bb, and memoir-bb, the memoir class under LuaLaTeX with the
    # options leqno and fleqn (numbers on the left, displays flush left at \mathindent), Libertinus Serif and
    # Libertinus Math by unicode-math, numbered by chapter): 89.8 % and 15.3 % exact, mean similarity 0.988 and 0.222
    # when first measured, nothing empty; under the class all 59 numbers read, under memoir-bb 43 of 59 missing (every
    # display whose number stands alone at the left margin; of those read, mostly rows of a block or a float), so
    # that memoir-bb fails the "nothing missing" assertion until left-hand numbers are read; under the class an
    # align's two rows with \text{(Q-learning)} and \text{(SARSA)} both served under the first number (1.5), the
    # paragraph's inline "$n_{t}(s, a)$:" read as a first row of the schedule's display (1.18), the side note's
    # \sqrt[T]{\prod_{t=1}^{T} ...} read with its index as a superscript of a bare radical and the product's upper
    # limit lost (1.19), a nested \frac in a \frac's denominator served as \cfrac (2.12), and primes written after a
    # subscript (s_{i}', \ell_{\kappa}') served before it (2.25, 2.26); under memoir-bb also subequations' two rows
    # served together under b (1.23b, 2.23b), the example float's alignat rows run together with the paragraph's line
    # above (1.27, 1.28) and with the bmatrices scattered (2.29), the importance weight served as \beta alone (2.21)
    # and the fitted Q programme's superscript (k) read into a \substack under the \sum (2.25)
    # (since: a number on the left a tag's separation before maths opening with a relation, one in a block's column of
    # numbers on the left whatever its row, one missed on a second look and one raised over its row in a table's cell
    # are read, and continued fractions need three levels again: 91.5 % and 84.7 %, nothing missing)
    # (then: a number between two rows takes both only when no other stands dropped below the second, a paragraph's
    # last line of inline maths stays prose, numbers raised over their rows on the left, a script on a grown delimiter,
    # no script past a fraction's bar, a superscript over a short letter: 94.9 % and 96.6 %; left: primes after a
    # subscript, judge-only, and the side note's root over a \prod, whose limit the page's foot line overprints)
    # the fifty-fifth body (body-bc.tex, a chapter on smoothing demand (simple exponential smoothing, Brown's, Holt's
    # and Holt-Winters' methods, forecast errors and safety stock over a lead time) and one on ARIMA models with the
    # backshift operator, Croston's method for intermittent demand, accuracy measures and quantile regression with the
    # pinball loss, for a supplier of flour, yeast and baking trays to bakeries; tufte-bc, and onehalf-bc, KOMA's
    # scrreprt at 11pt under pdfLaTeX with Palatino (newpxtext, newpxmath), setspace's \onehalfspacing, equations
    # numbered within section, (2.1.3)): 91.8 % and 98.4 % exact, mean similarity 0.960 and 0.999 when first
    # measured, nothing empty; under both Brown's forecast writes its primes after a subscript (\ell_{t}'), which
    # prints as the reader's \ell'_{t} (judge-only, 1.5 and 1.1.5, onehalf-bc's only inexact formula); under the
    # class one number missing, the side note's random-sum variance (1.22, \operatorname{Var}\Bigl[ \sum ... \Bigr]
    # ..., 30 pt wider than the margin), not served at all, so the strict missing check fails for tufte-bc; the
    # gather's second row (\sigma_{L} = \sqrt{...} = \sigma \sqrt{L} \quad \text{if the errors are ...}), too wide
    # for the text column and its number dropped below it, served as "|\quad2" under 1.20 while 1.19 took a stray
    # "\\ |" row; the example float's alignat, both numbers dropped below their rows by the "(tonnes)" column, served
    # its MAE row nowhere and 2.32 as the RMSE row in plain text (2.33 the RMSE row proper)
    # (since: the side note's display, its number dropped below a display set flush left past the measure, is read:
    # 93.4 % and 98.4 %, nothing missing; left: the gather row with a tall root over a display sum and a \text clause,
    # and the example float's alignat with a "(tonnes)" column)
    # (then: the line just above a number dropped on the right is its row, the radical's pieces with it: 96.7 % and
    # 98.4 %; left: primes after a subscript and the "(tonnes)" alignat)
    # the fifty-sixth body (body-bd.tex, a chapter on lot sizing over a planning horizon (the uncapacitated programme,
    # the zero-inventory property, the Wagner-Whitin recursion in a \boxed display and its shortest path with
    # \xrightarrow, Silver-Meal, least unit cost and part-period balancing in an align with \intertext and
    # \shortintertext, the economic production quantity with an evaluation bar, a rotation with \pmod and \bmod, the
    # capacitated problem in a flalign, the facility location model, (l, S) inequalities under \substack sums) and one
    # on Lagrangian relaxation with subgradient steps, bills of materials, MRP netting and echelon costs, (s, S)
    # policies with K-convexity, dcases and renewal masses, periodic review under \MoveEqLeft and rolling horizons,
    # for a plant that presses and fires ceramic tiles, weighted toward rarer amsmath constructs (\tag{} and \tag*{},
    # \notag mid-align, alignat, subequations, multline, \overset, \underset and \stackrel, \mathfrak, \mathscr,
    # \mathsf, \mathclap); tufte-bd, with mathrsfs, and amsproc-bd, the AMS's proceedings class amsproc at 10pt under
    # pdfLaTeX in Computer Modern, numbers on the left, equations numbered within section, (2.3)): 93.0 % and 94.7 %
    # exact, mean similarity 0.997 and 0.997 when first measured, nothing missing or empty, all 57 numbers read
    # (four more rows carry a \tag and are not scored); under both \vect{0} under a \max, which the judge reads as a
    # plain 0 (2.4, 5.4), \underset{m \in ...}{\operatorname{arg\,min}} served as \operatorname*{arg\,min}_{m \in
    # ...}, which prints the same (2.15, 6.6), and dcases served as cases with its brace, which the judge drops from
    # dcases alone (2.19, 7.4): judge-only all three; under the class the gap's \underline{Z} in a fraction's
    # denominator served as a bare Z (2.9).  Unseen by the judge, the tagged rows: the \tag*{(the lot size of
    # Harris)} display served as text with its radicand and its \lim's limit split off, under both, as the EPQ
    # display's radicand under amsproc-bd; the \stackrel{\text{(planning horizon)}}{\geq} of (PH) and the
    # \stackrel{\text{def}}{=} of (WW-4) lose their labels to the text.  A first run with the \intertext written
    # straight after a row's \label, without \\ (which amsmath accepts), had the judge run the two rows around it
    # together and number the rest of the chapter one behind the page (64.3 % under the class); the body writes \\
    # before it, as the earlier bodies do
    # (since: the underline in the denominator is read: 94.7 % and 94.7 %, the judge-only three left)
    # the fifty-seventh body (body-be.tex, a chapter on protecting capacity for late demand (the newsvendor with a
    # price, Littlewood's rule, expected marginal seat revenue, bid prices from a network's linear programme) and one on
    # pricing over time and customer choice (dynamic pricing as an MDP, the fluid limit, the multinomial logit, its
    # fitting, the choice-based programme), for a ferry company selling car-deck places and cabins between three ports,
    # weighted toward two-dimensional displays: matrices with dots, an augmented matrix and a partitioned basis in
    # array, vmatrix, \underbrace/\overbrace labels, \sideset, \substack limits, \sqrt[n], evaluation bars, \binom,
    # delimiters of several sizes; tufte-be, and aomart-be, the Annals of Mathematics' aomart at its 11pt under pdfLaTeX
    # with its defaults: Computer Modern with yhmath's extensible symbols (yhcmex) and cmtiup's italic, equations
    # numbered within section on the left, (2.3)): 88.3 % and 75.0 % exact, mean similarity 0.979 and 0.971 when first
    # measured, nothing missing or empty; under both \underline{A} as a lower limit served as a plain A (1.4 under
    # both), \sideset{}{'}\sum served with its prime after the limits, \sum_{j = 1}^{n}{}' (1.15, 3.4), the \left. of an
    # evaluation bar not written (judge-only, 2.9, 6.3), the second \underbrace's label n \times 1 set beside the
    # first's under the first brace (2.28, 9.1), and the primal and its dual as two aligned side by side served as their
    # "s.t." rows alone under the class (1.18) and as one aligned of two rows with the two objectives run together under
    # aomart-be (4.2); under the class also the log-likelihood's outer \Biggl( ... \Biggr) served bare (2.22) and column
    # generation's \operatorname*{arg\,max}_{S \subseteq \mathcal{N}} \Bigl\{ ... \Bigr\} served as its two limits
    # alone, "S \subseteq \mathcal{N}\quad j \in S" (2.30); under aomart-be the glyphs yhmath's yhcmex adds to cmex10's,
    # sizes of delimiters and radicals, are not read as what they draw: radicals served as \lceil (3.5, 8.6) or, with an
    # index, as \dots^{n} (6.6), tall brackets and parentheses as Latin-1 letters (ñ ô, Ç å, Å ã, Ñ é, á ë, and one
    # \Downarrow), which also split a matrix beside its prefix into an aligned of rows (4.4 the augmented matrix, 4.5
    # the partitioned basis, 4.7 a bmatrix under \det, 6.5 \binom, 7.7 the Jacobian's pmatrix, 8.1 and 8.2 the
    # log-likelihood's sized and \left ... \right parentheses)
    # (since: yhmath's extension font read through its layout, underlines under an integral's script, the second
    # brace's own note, column generation's row whose number dropped below it: 93.3 % and 93.3 %; left: \sideset, the
    # \left. of the evaluation bar and \Biggl (judge-only), and the primal beside its dual)
    # the fifty-eighth body (body-bf.tex, a chapter on moving feed through a network (minimum-cost flow with its
    # incidence matrix, residual network and dual, the transportation problem, its dual and complementary slackness, a
    # cost table with row labels and the northwest corner rule, Bellman's equations, Bellman-Ford, Dijkstra's labels
    # and Johnson's reweighting) and one on designing the network (capacitated facility location with single sourcing
    # and its Lagrangian, multi-commodity flow in arc and path form, Benders decomposition of a two-stage design), for
    # a maker of animal feed shipping pellets from three mills to farm-supply depots, weighted toward long multi-row
    # displays: eqnarray and eqnarray* with \nonumber and \mbox rows, aligns of four and five rows with \notag rows,
    # programmes with "s.t." and "for all" text columns, rows continued with &\quad +, aligned inside cases, split,
    # multline, \intertext after \\; tufte-bf, and ncmreg-bf, KOMA's scrbook at 11pt under XeLaTeX with NewCM10 text
    # and New Computer Modern Math in its Regular weight by unicode-math, numbered by chapter): 88.9 % and 92.1 %
    # exact, mean similarity 0.993 and 0.995 when first measured, nothing missing or empty, all 63 numbers read; under
    # both an aligned inside cases read with the case's condition, set at the aligned's middle, as a row between the
    # aligned's two rows (1.26 Bellman-Ford's \min\Bigl\{ ... \Bigr\} and "if j \neq s", 2.28 the Benders cut and
    # "if Q(...) < \infty", whose second aligned row is run into the next case), the block-angular system's relations,
    # an array{c} of = over \leq between the matrices, served as an aligned whose rows hold "=" before and "\leq"
    # after the matrices (2.17; the judge also counts the array's column spec c), and \vect{0} under a \min and a
    # \max, which the judge reads as a plain 0 (judge-only, 2.22, 2.23); under the class also the transportation
    # objective's first \sum_{i=1}^{m} read with its lower limit's i under the \min before it (1.12, served
    # \min_{i}\sum^{m}_{= 1}) and the path form's second \sum under p \in P^{\ell} : (i, j) \in p read with its p
    # in the first \sum's limit (2.19, \sum_{\ell \in Lp}\sum_{\in P^{\ell} ...}).  Unseen by the judge, which scores
    # only the numbered row: a row continued with &\quad + under a \nonumber row is served as its continuation alone
    # (1.23 "+7\cdot80+...", 2.6 "+\sum_{j \in J}\lambda_{j}(...)"), the first row kept in the text as an
    # unnumbered display; under both \text{s.t.} served as \mathrm{s}.\mathrm{t}., \text{otherwise} and a cost
    # table's \text{Ashby} as \operatorname, and an eqnarray's \mbox{for a cycle that lowers the cost.} as
    # \operatorname{for}\mathrm{a}\text{...}; under the class \epsilon served as \varepsilon and \text{where the weak
    # form has} as "weakform"
    # (since: the limits of sums side by side parted where each is centred, never under an operator's ink: 92.1 %
    # and 92.1 %; left: the aligned inside cases, the relations array between matrices and \vect{0}, judge-only)
    # the fifty-ninth body (body-bg.tex, a chapter on prices along a chain (the Stackelberg wholesale price game, double
    # marginalisation and a two-part tariff, Cournot and Bertrand competition between chains with payoff tables,
    # quantity leadership) and one on contracts, bargaining and hidden information (the newsvendor chain, buy-back and
    # revenue-sharing contracts, Nash bargaining and Rubinstein's shares, screening with two types and a continuum,
    # Bayes' rule and a signalling game), for an olive oil mill selling through grocery chains, weighted toward the ways
    # other authors write displays and their numbers: seven plain-TeX $$ ... \eqno(\theequation) $$ and \leqno displays
    # numbered by hand after \addtocounter{equation}{1} (not scored: the judge numbers environments only, and steps its
    # counter with the \addtocounter, so that its numbers and the page's agree), two equation* rows tagged (1.16') and
    # (1.16''), \[ ... \] and displaymath between numbered displays, a display right after a section heading, two
    # numbered displays with nothing between, inline \frac, \sum and \binom next to displays; tufte-bg, and sansmath-bg,
    # the standard book class at 12pt under pdfLaTeX set wholly in Computer Modern Sans with sansmathfonts' Type 1
    # sans-serif maths fonts (cmssmi, cmsssy, cmssex, cmsmf, ssmsb), equations numbered by chapter): 94.9 % and 6.8 %
    # exact, mean similarity 0.992 and 0.850 when first measured, nothing missing or empty, all 59 scored numbers and
    # the seven hand-numbered ones read; under the class the inline fraction on the line above (1.16), set alone on its
    # line with the word "gives", taken into the display as an aligned's first row, the payoff table as an array with a
    # column rule and an \hline beside a bmatrix of pairs served as an aligned of rows with the table's rule and \hline
    # dropped and its last row after the bmatrix (1.20), and \int_{\underline{t}}^{t} served as \int_{t}^{t} (2.28);
    # under sansmath-bg the fonts, whose letters' and large symbols' glyphs are named as the T1 text encoding names its
    # codes (and the ToUnicode maps with them), are not read as what they draw: cmssmi's Greek letters, comma and full
    # stop read at their codes as a text font's (\pi as \imath, \alpha as a cedilla, \beta as an ogonek, \lambda as an
    # en dash, \theta as a low quote, \delta as a guillemet, \nu as a zero-width non-joiner, \phi as "ffi", \rho as
    # \jmath, \psi dropped, \partial as @, "," as ";" and "." as a trailing ":"), cmssex's big operators and delimiters
    # as letters and other symbols (\sum as X, \prod as Y, \int as Z, \bigl( as \coprod, \Bigl( as quotes, \Bigl\{ ...
    # \Bigr\} as n ... o, a bmatrix's brackets as \lceil and -, a cases brace as 8 < :, an \underbrace's pieces), and
    # the sans operator names and bold letters (max, arg max, lim, Pr, d, \mathbf) served as \mathsf; four formulas read
    # exactly (1.6, 2.20-2.22).  Unseen by the judge: the tagged rows (1.16') and (1.16'') served as one unnumbered
    # aligned in the paragraph's text with their tags as "\quad(1.16')" in the rows
    # (since: sansmathfonts' maths italic and extension fonts read through TeX's layouts where their maps are shown
    # wrong, every sans face of a sans book its roman, the inline fraction's paragraph line kept out of 1.16 and the
    # underline under 2.28's integral: 98.3 % and 88.1 %; left: the payoff array beside its bmatrix, and under
    # sansmath-bg the symbols font, which calls itself "ComputerModernSans-Regular"; then \psi, at the maths italic's
    # code 0x20, which its map gives as a space, read as a glyph, not white space: 91.5 %, 0.986)
    # the sixtieth body (body-bh.tex, a chapter on estimating demand from sales (estimators' bias, variance and mean
    # squared error, correlated days, shrinkage, maximum likelihood and the Fisher information, the Cramer-Rao bound,
    # demand censored by stock-outs with its likelihood, an exponential estimate, expectation-maximisation and the
    # Kaplan-Meier product, the bootstrap, Gamma-Poisson and Beta-binomial updates) and one on tests, intervals and
    # large samples (a z-test's rejection region and power, the Neyman-Pearson lemma, the generalised likelihood ratio,
    # intervals by test inversion, the delta method, the DKW inequality, quantiles and the newsvendor's arg min, the
    # essential supremum, kernel density estimates and their bandwidth, convergence in probability, the laws of large
    # numbers, the central limit theorem, Berry-Esseen and the iterated logarithm), for a hardware chain's de-icing
    # salt, weighted toward probability and statistics notation as other authors write it: \Pr and \mathbb{P},
    # \operatorname{Var}, \mid and \left[ ... \,\middle|\, ... \right], \overset{\text{iid}}{\sim}, \xrightarrow{d}
    # and \xrightarrow{\;p\;}, \propto, \coloneqq, set-builder braces with a colon and with \middle|, \mathbb{1}\{ ... \},
    # O, o and O_p, \limsup and \liminf, \operatorname*{ess\,sup}, \iint, \int\limits, \mathrm{d}F(x), \binom, aligns
    # with \nonumber rows and an \intertext after \\; tufte-bh, and gfsdidot-bh, the standard report class at 11pt under
    # pdfLaTeX with the gfsdidot package (GFS Didot text and maths letters, GFS Olga's small Greek, pxfonts' symbols and
    # big operators, \ell from pxfonts' maths italic), equations numbered by chapter): 93.8 % and 87.7 % exact, mean
    # similarity 0.992 and 0.988 when first measured, nothing missing or empty, all 65 numbers read; under both
    # \,\middle|\, served as a plain | (1.17 in the algorithm float, 1.30, 2.8; the judge keeps \middle, drops \left and
    # \right), and the power function's last row, "&\qquad + \Phi(...)" under two \nonumber rows, served with those
    # rows as a three-row aligned where the judge scores the numbered row alone (2.3); under gfsdidot-bh \dots (the
    # ellipsis of GFS Didot's full stops) served as ". . ." (1.1, 1.22, 1.30, 1.32), GFS Olga's \vartheta as \theta
    # (1.27) and pxfonts' \notin (Pxsyc's code 60) as < (2.8)
    # (since: an ellipsis's dots up to 0.52 em apart, pxfonts' "nelement": 93.8 % and 92.3 %; left: \middle and the
    # continued row, judge-only, and Olga's \vartheta)
    # the sixty-first body (body-bi.tex, a chapter on failures, renewals and replacement (failure rates and reliability,
    # the Weibull life, renewal functions and the renewal theorems, age, block and minimal-repair replacement, a
    # Weibull plot and likelihood) and one on spares for repairable parts (the (S-1, S) policy and Palm's theorem,
    # expected backorders, availability and a spares budget, marginal allocation, METRIC and VARI-METRIC for a depot
    # and its bases, indentured parts), with an appendix chapter (the Poisson and negative binomial distributions and
    # Palm's theorem in transient form), for a container terminal's quay cranes, weighted toward numbered equations in
    # the places books put them: an appendix after \appendix numbered (A.1) to (A.11), equations in enumerate items,
    # two numbered equations side by side in a pair of minipages, a theorem whose statement crosses a page break, a
    # figure float, subequations whose parent number is referenced, two equation* rows tagged \tag{\ref{...}$'$} and
    # \tag{\ref{...}$''$} (not scored), an equation ending a page and the next opening the following one, a
    # full-width multline, proofs ending in a display before the QED mark; tufte-bi, and kplight-bi, the standard
    # report class at 11pt under LuaLaTeX with KpRoman-Light text and KpMath-Light by unicode-math, equations numbered
    # by chapter): 94.4 % and 90.1 % exact, mean similarity 0.980 and 0.972 when first measured, nothing empty, all
    # eleven appendix numbers read; under both one number missing, the left of the two minipages' equations (1.6,
    # R_{\mathrm{s}}(t) = \prod ...), served with its subscripts read as superscripts and its number as "\quad(1.6)\quad"
    # inside the right one's formula (1.7), so that the strict missing check fails for both until it is read; under
    # both \mathrm{mod} as a superscript served as the operator \mod (2.23, 2.24); under kplight-bi also the line
    # after an enumerate item's display ("which falls with age when the hazard rises.") taken into it as an aligned's
    # second row (1.8), the end of the line before a theorem item's display ("t satisfies") taken as its first row
    # (1.20), and classvect's upright bold Greek under unicode-math (\vect{\mu}, \vect{\lambda}) served as \mathbf,
    # which the judge reads as \bm (2.15, 2.23).  Unseen by the judge: the tagged rows served as unnumbered displays
    # in the text with "\quad(1.23')" and "\quad(1.23'')" in them, and under the class the second one's fraction
    # \frac{c_{f}}{\mathrm{MTTF}} broken, c_{f} an aligned's row and MTTF left in the prose
    # (since: the minipages' displays read apart, the left one's number found on a second look a quad after its
    # maths, and under kplight-bi the item's sentence and its paragraph line kept out of the displays: 97.2 % and
    # 95.8 %, nothing missing; left: ^{\mathrm{mod}} served as \mod, and \mathbf for classvect's bold Greek)
    # the sixty-second body (body-bj.tex, lecture notes of one lecture in six sections on approximate dynamic
    # programming for a two-echelon inventory system (a distribution centre shipping a test kit to pharmacies: the
    # state and its transitions, expected shortfalls, Bellman's operator and its contraction, value iteration's
    # error and count, linear architectures with histogram features, a ridge fit, recursive least squares,
    # post-decision states, a sampled value and its smoothing, step sizes, a constant step's variance, Kesten's
    # rule, projected slopes, TD(0), TD(lambda), the projected Bellman equation, LSTD, greedy policies' loss, fair
    # shares, an echelon base-stock benchmark, common random numbers, a perfect-information bound), weighted
    # toward how lecture notes write derivations: chains of \overset{(a)}{\leq} and \overset{\text{(b)}}{=}
    # relations followed by "where (a) follows from ...", two splits inside equations, four aligns whose \nonumber
    # rows lead to a numbered last row, an align of three rows continued with "&\quad +" whose \left[ ... \right.
    # on the first row is closed by \left. ... \right] on the last, \stackrel{\text{def}}{=}, \mathbf{1}\{ ... \},
    # \Pr, \operatorname{Var} and \operatorname{Cov}, norms and inner products with subscripts, \nabla_{\vect{\theta}},
    # \widehat, \xrightarrow{\text{a.s.}}, \limsup and \liminf, floors and ceilings, \coloneqq; tufte-bj, and
    # lmart-bj, the standard article class at 10pt under pdfLaTeX with Latin Modern (lmodern, T1), equations
    # numbered by section, (2.5)): 83.3 % and 83.3 % exact, mean similarity 0.953 and 0.953 when first measured,
    # nothing missing or empty, all 66 numbers read, the two chains in splits exactly.  Under both: the four aligned
    # chains that end in a numbered row under \nonumber rows (1.24, 1.41, 1.54, 1.60; 3.4, 4.11, 5.9, 6.3 under
    # lmart-bj) and the "&\quad +" align
    # (1.35; 4.5) served whole as an aligned where the judge scores the numbered row alone (similarity 0.31-0.54),
    # inside them the chains' rows served without their alignment points (1.41's last row with one at its second
    # "="), the \left[ ... \right. pair as plain brackets, and in the greedy policies' chain (1.60; 6.3) the
    # annotation \overset{(b)}{\leq} read as "( \leq^{b)}"; \Biggm| under \Biggl[ ... \Biggr] served as
    # \left[ ... \middle| ... \right] (1.9, the judge keeps \middle); \stackrel{\text{def}}{=} served as
    # \overset{\operatorname{def}}{=} (1.31; 4.1); the class's bold upright \vect{\Xi} served as a plain \Xi (1.50;
    # 5.5); \Biggl( ... \Biggr) and \Biggl[ ... \Biggr] served bare (1.55, 1.66; 5.10, 6.9).  Under tufte-bj also
    # \xrightarrow{\text{a.s.}} served as \overset{\mathrm{a}.\mathrm{s}.}{\longrightarrow} (1.38); under lmart-bj
    # also \Bigm| under \Bigl[ ... \Bigr] served as \middle| (4.4, read exactly under the class as 1.34)
    # (since: a numbered row on an annotated relation's column, or continuing the rows above, served alone, the notes
    # over consecutive rows' relations each kept by its own: 89.4 % and 89.4 %, mean similarity 0.998; left: \Biggl,
    # \Biggm, \stackrel, \vect{\Xi} (the class prints it in the regular weight), \left. of the continued row, and
    # \xrightarrow{\text{a.s.}}, whose arrow is as long as \longrightarrow)
    # the sixty-third body (body-bk.tex, a chapter with exercises on Markov chains for a service desk's spare stock (an
    # (s, S) rule as a chain, transition matrices written out with \cdots, \vdots and \ddots, \mathbf{P}^{(n)} and
    # matrix powers, a two-state chain's powers through \det of a vmatrix and \operatorname{diag}, a limit pmatrix of
    # \dfrac entries, the period as a \gcd, recurrence, the stationary distribution, ergodic averages in a gather, an
    # absorbing ticket chain with bmatrices of fractions, binomial, Poisson and compound generating functions) and one
    # on birth, death and the desk's queue (generators, Kolmogorov's equations in a gather, the tridiagonal
    # birth-death generator, \vect{\pi}^{\top}\mathbf{Q} = \vect{0}^{\top}, the product of \lambda_{i-1} / \mu_{i},
    # M/M/1 with \overset{d}{=} and a Laplace transform under \left( \frac{\mu}{\mu + s} \right)^{n + 1}, Little's
    # law, the M/M/c law in cases, Erlang C as a nested fraction with a \displaystyle sum below, Erlang B, its
    # recursion, square-root staffing, terminals, spares and repairers in an alignat{2} with text columns, the M/G/1
    # queue's transforms with \int_{0}^{\infty} e^{-st} \, dB(t), an upper Hessenberg matrix), weighted toward
    # two-dimensional displays and exercises: numbered equations in the exercises' enumerate items, a \tag{$\ast$}
    # display (not scored), displays in a theorem, a definition, the example and algorithm floats and a side note;
    # tufte-bk, and xchartertx-bk, the standard book class at 11pt under pdfLaTeX with XCharter text and newtxmath's
    # xcharter option (Charter maths letters over newtx's symbols, Type 1), equations numbered by chapter): 97.0 % and
    # 97.0 % exact, mean similarity 0.999 and 0.999 when first measured, nothing missing or empty, all 66 numbers
    # read; under both the same two: \vect{0}^{\top} served as \mathbf{0}^{\top}, which the judge reads as a plain 0
    # (judge-only, 2.6), and the words "\text{ min}" after a number read as the operator \min (2.23, "7.6 \min")
    # the sixty-fourth body (body-bl.tex, an older-style operations research textbook's chapter on networks of queues
    # (routing and the traffic equations, Jackson's product form, the M/M/c marginal, Gordon-Newell's law with a
    # \substack sum, Buzen's convolution, mean value analysis with Schweitzer's estimate, asymptotic bounds, two-moment
    # approximations) and one on production planning (an aggregate planning programme, chase and level plans, the EOQ
    # and EPQ, Wagner and Whitin's recursion, Silver-Meal, capacitated lot sizing, a quadratic cost with linear decision
    # rules, clearing functions and MRP), for a bicycle frame works, weighted toward the LaTeX idioms of the 1990s and
    # 2000s: eqnarray rows with & = & and \label in the rows, \lefteqn first rows under \nonumber, hand-made cases
    # \left\{ \begin{array}{ll} ... \end{array} \right. with \mbox{if } words, groups \left. \begin{array}{rcl} ...
    # \end{array} \right\}, an array{rcl} of two equations in one equation, a matrix as \left( \begin{array}{cccc} ...
    # \right), \hbox words, \displaystyle in fractions and arrays, \sum\nolimits, \int\limits, $$ ... $$ and \[ ... \]
    # between numbered displays (\over, \choose, \atop, \buildrel, \rm, \bf, \cal, \it, \mathop and \mathrel only
    # inline and in unnumbered displays: the judge keeps them as tokens); tufte-bl, and cmreport-bl, the standard report
    # class at 12pt under pdfLaTeX in plain Computer Modern (OT1) with amsmath and amssymb, equations numbered by
    # section, (2.3.4)): 86.8 % and 85.3 % exact, mean similarity 0.981 and 0.972 when first measured, nothing missing
    # or empty, all 68 numbers read.  Under both: the column spec of each array counted by the judge and not served:
    # the routing matrix \left( \begin{array}{cccc} ... \right) served as a pmatrix (1.3, 1.1.3), the two hand-made
    # cases \left\{ \begin{array}{ll} ... \right. served as cases (1.10, 1.2.2; 2.17, 2.2.8), the array{rcl} of L and W
    # served as an aligned (1.13, 1.2.5) and the capacitated group \left. \begin{array}{l} ... \right\} served as
    # \left. \begin{gathered} ... \end{gathered} \right\} (2.20, 2.2.11, with an & in the gathered that LaTeX would
    # reject, unseen); and the eqnarray rows continued under a \lefteqn first row (\nonumber) served with that row as a
    # two-row aligned, where the judge scores the numbered row alone: the time in the shop (1.14, 1.2.6), the
    # Wagner-Whitin batch cost (2.15, 2.2.6), the quadratic cost (2.21, 2.3.1), and under cmreport-bl the aggregate
    # objective too (2.1.1; under the class its row "+ c_{O} O_{t} + ..." is served alone, exact).  The group of the
    # asymptotic bounds, \left. \begin{array}{rcl} X(N) & \leq & \min ... \\ T(N) & \geq & \max ... \end{array}
    # \right\} \quad N = 1, 2, \dots, served under the class as an rcases, whose right brace the judge does not see
    # (1.27, also without the \left. and the spec), and under cmreport-bl misread: "T(N) \geq \max" before a Bmatrix
    # whose rows are the two braces' contents, the first row's X(N) \leq \min lost (1.3.11).  Unseen by the judge:
    # \mbox and \hbox words and \mathrm labels served as \operatorname ("\operatorname{if}", "0.86\operatorname{days}",
    # X_{\operatorname{pwc}}, \overset{\operatorname{def}}{=}), the spaces at a word's edge lost ("\text{for every
    # station}j"), \int\limits served as \int with its limits as scripts, and \mathit{WIP} as WIP (the class) or
    # \text{WIP} (cmreport-bl)
    # (since: arrays in their delimiters told by their padding and written with their column letters, an indented
    # row opening with a relation served alone unless it ends where a multline's last row does, two \bigl\{ on
    # rows one under the other no longer one brace: 98.5 % and 98.5 %; left: the array{rcl} set without
    # delimiters, served as an aligned (1.13; 1.2.5))
    # the sixty-fifth body (body-bm.tex, a chapter in the manner of the user's class's own books on constrained
    # optimisation (constrained problems, Lagrange multipliers and the KKT conditions, weak duality, lot sizes under a
    # floor-space constraint, count, quadratic and linear penalties, the penalty method and the augmented Lagrangian,
    # barriers, linear programmes in general, standard and equality form, a roster, reduced costs and the ratio test,
    # the dual, rounding) and one on decisions and surrogate models (expected utility, exponential and power utilities,
    # the certainty equivalent, a booking decision, the value of information, a Gaussian process surrogate with noisy
    # observations, its likelihood and hyperparameters, probability and expected improvement, a safe problem, sampling
    # plans), for a warehouse, written with the class's OWN maths macros as its real books are: \minprob, \minimize,
    # \maximize, \subjectto, \argmin, \argmax, \paren, \brock, \curly, \norm, \abs, \anglebrackets, \ceil, \floor,
    # \card (starred and not), \Expectation, \Variance, \trace, \sign, \Normal, \Uniform, \gaussian, \R, \N,
    # \params, \noisy, \mat, \vect, \transpose, \for, \true, \false and \dset; tufte-bm, whose set-up loads
    # classmath.sty (the class's maths macros restated, made under LaTeX only where not yet defined, so nothing under the
    # class) because the judge reads a class only beside the main file, where the class is never committed: with it the
    # judge's tokens for all 69 formulas are the ones it reads with the real class and vector.sty beside the main file;
    # and stickstoo-bm, the standard book class at 10pt under pdfLaTeX with STIX Two text (stickstoo) and newtxmath's
    # stix2 option, whose preamble defines the same names its own way (\DeclareMathOperator*, \text{subject to}, a
    # \minprob with \underset{...}{\text{minimize}}, \DeclarePairedDelimiter with plain ( ) and [ ], \intercal),
    # equations numbered by chapter): 49.3 % and 84.1 % exact, mean similarity 0.958 and 0.985 when first measured,
    # nothing missing or empty, all 69 numbers read (typeset first with the side note's display, 1.18, overprinted by
    # the algorithm float's margin caption and so missing, 47.8 %: the float was moved a paragraph on before this
    # score and the PDFs committed).  Under the class the judge expands \paren{x} and \paren*{x} to
    # \lparen x \rparen, \brock to \lbrack x \rbrack (tokens it keeps as such), which no reading of the page tells from
    # ( ) and [ ]: 28 formulas differ in that alone (1.3, 1.13-1.16, 1.23, 1.27, 2.1, 2.3-2.6, 2.8-2.10, 2.12, 2.13,
    # 2.15-2.17, 2.19, 2.20, 2.22, 2.23, 2.29, 2.30, 2.32, 2.37), two in that and \gets served as \leftarrow (1.21 and
    # 2.24, in the algorithm floats), one in \gets alone (1.20), all judge-only (62 of 69 exact if the judge read
    # \lparen as "(", 65 with \gets as \leftarrow too); \subjectto (\operatorname{subject~to}, tokens "s u b j e c t
    # \simto") and \minprob's aligned read exactly wherever the rows stand apart.  Misread under the class: the \abs*
    # round a \sum_{i=1}^{n} (1.11), the sum's index i served as a subscript of the left bar and the limit "= 1" as the
    # sum's ("|_{i}\sum^{n}_{= 1}"); p_{\mathrm{log}} served as p_{\log} (1.22, under both set-ups, the same print); and
    # under both set-ups two displays that set two blocks side by side: the standard and equality forms, two \minprob
    # beside each other (1.25), served as one aligned whose rows take the two blocks' lines in turn (under stickstoo-bm
    # also the first block's c^{\intercal} lost, its \intercal set before the first row), and the dual's aligned
    # beside its complementary slackness (1.29), served with that equation as the aligned's second row between
    # "maximize" and "subject to".  Under stickstoo-bm the rest is judge-only: the author's
    # \underset{\vect x}{\text{minimize}} served as \operatorname*{minimize}_{\mathbf{x}} (1.1, 1.3, 1.24), \gets as
    # \leftarrow (1.20, 1.21, 2.24), and \mathbf{\Sigma} (his \mat) as \bm{\Sigma} (2.14, 2.37), the same bold
    # upright letter
    # (since: a tall bar opening a pair takes no script (1.11), two blocks side by side, each on baselines of its own,
    # are read as two aligned blocks (1.25 under the class), and a row right of a block is set after it (1.29, the
    # dual, then complementary slackness): 52.2 % and 85.5 %, mean similarity 0.968 and 0.990; under stickstoo-bm 1.25
    # is parted too, at a gap inside its first block whose transpose the rows misplace, and reads 0.67)
    # the sixty-sixth body (body-bn.tex, two chapters of a textbook on decisions under uncertainty for a firm that
    # stocks spare parts and sizes its pump-rebuild workshops: two-stage stochastic programmes with recourse
    # (\min_{\vect x \in X} \vect c^\top \vect x + \mathbb{E}_{\xi}\bigl[ Q(\vect x, \xi) \bigr], the recourse function as
    # \left\{ ... \;\middle|\; ... \right\}, the newsvendor as a recourse problem and its critical quantile, the
    # extensive form with a \substack-limited \min and its block-angular bmatrix of zeros, \cdots, \vdots and
    # \ddots, its size under two \underbrace labels, a \substack scenario sum, a capacity programme in an align
    # with \Biggl( ... \Biggr), complete recourse inside a definition, the recourse function's primal and dual as a
    # duality pair, the subgradient inequality inside a theorem, the L-shaped master in an aligned, its cuts,
    # bounds under two \underbrace labels and the method in the algorithm float, WS and RP in a gather, EEV with
    # \operatorname*{arg\,min}, EVPI and VSS in subequations, a worked newsvendor in the example float with a
    # cases CDF, sample average approximation with a side note's sample size and a multline of bounds) and on risk
    # and robustness (VaR and CVaR with (Z - t)^{+}, the scenario CVaR programme in an align whose constraint row is
    # \nonumber, a mean-CVaR objective under three \overbrace labels, coherence in a split inside a theorem, a
    # chance constraint and its big-M scenario switches, the min-max robust problem, box, ellipsoidal and budgeted
    # uncertainty sets as \{ \xi \mid ... \} and \left\{ ... \;\middle|\; ... \right\} in a gather, box and
    # ellipsoidal counterparts, the budget's protection function as a primal-dual pair, its counterpart in a
    # \left\{ \begin{aligned} ... \right. block, a violation bound inside a theorem, the adjustable min-max-min,
    # an affine decision rule under \underbrace labels, a block lower-triangular bmatrix, min-max regret, a worked
    # budget in the example float with bmatrices, a sup inside a min, moment and Wasserstein ambiguity sets, the
    # Wasserstein sup-inf dual, Scarf's bound and rule in cases with \dfrac, the minimax theorem, and the moment
    # set's sup-inf dual in a split with a \substack \inf); tufte-bn, and scrbook-bn, KOMA-Script's scrbook at 11pt
    # under pdfLaTeX with scholax's Type 1 TeX Gyre Schola text and newtxmath's ncf option (New Century Schoolbook
    # maths letters over newtx's symbols; this newtxmath has no scholax option), equations numbered by chapter):
    # 92.6 % and 89.7 % exact (63 and 61 of 68), mean similarity 0.990 (0.98999) and 0.991 when first measured,
    # nothing missing or empty, all 68 numbers read (1.28a-c too).  Under both: the extensive form's size with
    # two \underbrace labels (1.10): under the class both braces and both labels lost ("n_{1} + Kn_{2}"),
    # under scrbook-bn the braces kept but the first label cut to "first" (\operatorname{first}, "stage" lost)
    # and the second label lost; the capacity programme's \Biggl( ... \Biggr) served as bare ( ) (1.12; the judge
    # keeps \Biggl, the print is the same big parenthesis); the algorithm float's \gets served as \leftarrow
    # (1.24, judge-only); and the scenario CVaR programme (2.3), whose \nonumber constraint row "s.t. s_{k} \geq
    # Z_{k} - t, ..." is served with the numbered objective row as one two-row aligned where the judge scores the
    # numbered row alone.  \left\{ ... \middle| ... \right\} at the delimiters' smallest sizes: under the class
    # the ellipsoid (2.11) served as \{ ... \mid ... \} (normal-size braces, the same print; the recourse function
    # 1.2 and the moment set 2.26 read \middle exactly), under scrbook-bn the recourse function (1.2), the
    # ellipsoid (2.11) and the moment set (2.26) served as \{ ... \bigm| ... \} (the braces bare, the bar \bigm),
    # which the judge tells from \middle| though the print is the same
    # the sixty-seventh body (body-bo.tex, an operations textbook's chapter on demand forecasting and estimation for a
    # hardware wholesaler's inventory: demand \sim \mathcal{N}(\mu, \sigma^{2}), sample moments with \overline,
    # intervals with \pm and z_{1-\alpha/2}, lead-time variance with \operatorname{Var} and \operatorname{Cov}, a
    # binomial count with \binom; regression in matrix form, \hat{\vect{\beta}} = (X^\top X)^{-1} X^\top \vect{y},
    # the hat matrix, R^{2} under a \tag{R}, prediction intervals, weighted least squares; the likelihood as a \prod,
    # log-likelihoods, \widehat{\sigma^{2}}, Poisson and negative binomial demand, asymptotic normality in a theorem,
    # AIC, BIC and the likelihood ratio in a gather; exponential smoothing, Holt's and Holt-Winters' recursions in
    # subequations, \tilde{d}_{t}, error measures and the tracking signal in an align with an \intertext; lag
    # polynomials factored as \prod, ARIMA, (1 - L)^{d} as a binomial sum, psi-weights and forecast intervals;
    # reorder points, the newsvendor quantile, the normal loss function, a list item's display, a rule in cases and
    # \widehat{\mathrm{CSL}}, with \vect, a theorem, a definition, the example and algorithm floats and a
    # footnote; tufte-bo, and leqno-bo, the standard article class at 11pt under XeLaTeX with leqno and fleqn
    # (numbers at the left margin, displays flush left), Libertinus Serif and Libertinus Math by unicode-math,
    # equations numbered by section, (2.5), subequations (4.3a)): 98.4 % and 68.9 % exact, mean similarity 0.999
    # and 0.953 when first measured, nothing empty, under leqno-bo two missing, all 61 numbers (and the tagged R)
    # numbered alike by LaTeX and the judge.  Under both: \gets in the algorithm float's display served as
    # \leftarrow (1.35; 4.10), the same arrow, judge-only, the only inexact formula under the class.  Under leqno-bo
    # 16 formulas differ only in classvect.sty's upright bold Greek (\vect{\beta}, \vect{\varepsilon},
    # \vect{\theta}, \vect{\phi}: \symbfup under unicode-math), which the judge reads as \bm and the reader serves
    # as \mathbf{\beta}, the same glyph (2.2-2.8, 2.10, 2.11, 3.1-3.3, 3.6-3.8, 5.12), as for the tenth body: 59 of
    # 61 exact without the two spellings.  Missing under leqno-bo: the display inside a list item (6.7), its number
    # at the left margin and the display at the item's indent plus \mathindent, served inside the list's text
    # chunk as $$(6.7)\operatorname{MSE}(...) = ...$$, the number read as the formula's first tokens and no formula
    # 6.7; and \widehat{\mathrm{CSL}} = 1 - \frac{K}{N} \pm z_{1-\alpha/2} \sqrt{\frac{K (N - K)}{N^{3}}} (6.9),
    # the wide hat over upright letters, read as prose: "(6.9) CSL $= 1-\quad\pm z_{1-\alpha/2}\sqrt{},$" then a
    # display $$\frac{K}{N}\quad\overline{\frac{\overline{K(N-K)}}{N^{3}}}$$ (the radical's bar and the hat as
    # overlines), under the class read exactly (1.56).  Unseen by the judge, under both: in the rule's Poisson row
    # (1.55; 6.8) the term \frac{(\hat{\lambda}_{i} L)^{k}}{k!}, set in text style after e^{-\hat{\lambda}_{i} L},
    # served inside that exponent
    # the sixty-eighth body (body-bp.tex, a textbook's chapter on capacity control (two fares, the expected revenue of a
    # protection level and its difference in a split, Littlewood's rule inside a theorem, the normal protection level
    # with \lceil \rceil, nested classes' dynamic programme, EMSR-a and EMSR-b, a table float with a tabular of four
    # fares and two numbered equations after it, the deterministic linear programme and its dual in an aligned,
    # complementary slackness, the bid-price rule in cases, a bid price as \left. \frac{\partial V}{\partial c_{i}}
    # \right|_{...}, an upper bound inside a theorem, bid-price control with three numbered equations between the
    # algorithm float's \State lines, overbooking with a side note's binomial sum and a \biggl\lfloor ... \biggr\rfloor
    # limit) and one on dynamic pricing and choice (linear and exponential response, the dynamic programme over time
    # and remaining capacity V_{t}(c) = \max_{p} \{ \lambda(p) [p + V_{t-1}(c - 1)] + ... \}, its boundary conditions,
    # the marginal value \Delta V_{t}(c) inside a definition, a first-order condition with a \left. ... \right|_{p =
    # p^{*}} bar, monotone marginal values in an align inside a theorem, backward induction with three numbered
    # equations in the algorithm float, the fluid problem and run-out prices, a price ladder in cases, multinomial and
    # nested logit as fractions of sums of exponentials, revenue-ordered assortments, equal markups, choice-based
    # control, a choice-based linear programme in a split, a logit's log-likelihood in an align with a \nonumber row,
    # unconstraining with \lceil \rceil and the delta method), for a short-sea freight line's container slots, with
    # \vect, two example floats, two theorems, a definition and a side note; tufte-bp, and dvipsgs-bp, the standard
    # book class at 10pt with mathpazo (Palatino text and Pazo maths, Type 1) through latex, dvips and Ghostscript's
    # ps2pdf, equations numbered by chapter, (2.7)): 88.7 % and 87.1 % exact, mean similarity 0.995 and 0.993 when
    # first measured, nothing missing or empty, all 62 numbers read.  Under both the same seven, judge-only: \vect 0
    # in the linear programme's bounds and its dual's sign constraints, printed bold and served as \mathbf{0}, which
    # the judge reads as a plain 0 (1.17, 1.18, 1.24), and \gets in the two algorithm floats served as \leftarrow, the
    # same arrow (1.26, 2.10, 2.11, 2.12).  Misread under dvipsgs-bp alone: the first-order condition (2.6), a display
    # as wide as the measure, \left. \frac{d}{dp} \lambda(p) (p - z) \right|_{p = p^{*}} = ... , p^{*}(z) = z +
    # \frac{1}{\alpha}, served as "d\lambda(p)(p-z)| = ... = z+\underline{1}": every glyph below the main baseline
    # lost (the fraction's dp, the bar's subscript p = p^{*}, the last fraction's \alpha), so that the first
    # fraction is its numerator alone and the last one's rule an underline
    # the sixty-ninth body (body-bq.tex, a decision-making textbook's chapter on stocking decisions as Markov decision
    # processes (a parts counter's weekly shelf: lost-sales dynamics, the transition T(s' \mid s, a) in cases from demand,
    # Poisson demand, the reward and expected sales in an align, a side note's numbered display, the utility inside a
    # definition with \Bigm|, the policy's Bellman equation, \vect{U}^{\pi} = (\mat{I} - \gamma \mat{T}^{\pi})^{-1}
    # \vect{R}^{\pi}, the Neumann series, a worked evaluation with bmatrices in the example float, the Bellman equation with
    # \max_{a \in \mathcal{A}(s)} and \sum_{s'}, Q, \operatorname*{arg\,max}, the Bellman operator, contraction inside a
    # theorem and its proof in a split, stopping and greedy-loss bounds with sup norms, value iteration with three
    # numbered equations in the algorithm float, a table float with a numbered equation after its tabular, policy
    # iteration in an align and its algorithm float, a cost recursion with a \nonumber row, base-stock and (s, S) rules
    # in cases, K-convexity inside a definition) and one on uncertain stock and learned demand (an observation model in
    # cases, the belief update b'(s') \propto O(o \mid a, s') \sum_{s} T(s' \mid s, a) b(s), its normaliser, its vector
    # form with \operatorname{diag}, a worked update in the example float, the belief-state Bellman equation, alpha
    # vectors, QMDP and its bound, Q-learning, the TD error, Robbins-Monro sums, epsilon-greedy and softmax in
    # subequations (2.16a-b), Sarsa, the Q-learning algorithm float, \vect{\theta}^\top \vect{\beta}(s), fitted value
    # iteration, the normal equations with a bmatrix of rows, a \limsup bound, linear Q-learning, LSTD), with \vect and
    # the class's \mat, two theorems, two definitions and side notes; tufte-bq, and kaobook-bq, which was to be the
    # kaobook class but is, kaobook not being in this TeX Live, the standard book class at 10pt under pdfLaTeX with a
    # kaobook-wide outer margin from geometry and the sidenotes package's margin notes, Computer Modern, equations
    # numbered by chapter): 81.2 % and 76.8 % exact (56 and 53 of 69), mean similarity 0.994 and 0.979 when first
    # measured, nothing missing, under kaobook-bq one empty, all 69 numbers read alike by LaTeX and the judge.  Under
    # both the same 13, judge-only: \gets in the three algorithm floats' displays and in the update rules written with
    # it in the prose (Q-learning, Sarsa, the fit and linear Q-learning) served as \leftarrow, the same arrow (1.25-1.27,
    # 1.34, 1.35, 2.13, 2.17-2.19, 2.22, 2.25), and \vect{1}, printed bold and served as \mathbf{1}, which the judge
    # reads as a plain 1 (1.15, 2.5).  Under kaobook-bq alone, three misread, two where the margin column stands left of
    # the text (an even page): the side note's display \min(y, D) = \sum_{k=1}^{y} \mathbb{I}\{D \geq k\} (1.6), set in
    # the margin beside the definition, served empty, its glyphs read into the definition's prose ("... Markov decision
    # process with $\min(y, D) = \sum\mathbb{I}\{D \geq k\},$ the states ..." and its number as the text "(1.6)"); the
    # utility (1.7), whose \sum's upper limit \infty, level with the note's last line, is served in the text chunk after
    # that line ("... gives (1.5). $\infty$") and lost from the formula ("\sum_{t = 0}\gamma^{t}"); and the reward (1.4),
    # as wide as the measure so that its number drops to a line of its own, served with the upper limits y and y-1 of
    # the two sums of the display under it (1.5, read exactly too) as stray subscripts ("r_{y} \mathbb{E}[...] - K
    # \mathbb{I}\{_{y}a_{-1} > 0\}")
    # the seventieth body (body-br.tex, a textbook's chapter on contracts in a two-stage supply chain (the integrated
    # newsvendor with expected sales as q - \int_{0}^{q} F(x) \, dx, leftovers and lost sales in an align, the
    # wholesale-price contract, the Stackelberg problem \max_{w \geq c} \, \max_{q \in Q_{R}(w)} with an
    # \operatorname*{arg\,max} follower, double marginalisation inside a framed theorem with \tfrac in a fraction and a
    # proof holding a split, buy-back contracts with a coordinating price inside a framed proposition and its proof,
    # revenue sharing in an align and a side note, a price-setting leader and follower with \max_{w} \, \max_{p}, a
    # two-part tariff in cases with a \dfrac bound, the bullwhip ratio \frac{\operatorname{Var}(O)}{\operatorname{Var}(D)}
    # inside a framed definition, moving-average and smoothing ratios, a product over stages, a worked bullwhip in
    # the example float) and one on games among retailers (payoff tables as arrays with a column rule and \hline, the
    # payoff matrices as pmatrices, the Nash inequalities in a framed definition, an array beside pmatrices on one
    # line, the indifference point, best responses in cases with [0, 1] and \tfrac rows, competing newsvendors, a
    # framed theorem with a proof's contraction, Cournot best responses in cases with \dfrac, a leader over two
    # followers \max_{w} \, \max_{q_{1}, q_{2}}, Bertrand prices, the price of anarchy with a \text between two
    # fractions, a trigger strategy, the pooled newsvendor's coalition value, the Shapley value with
    # \sum_{S \subseteq N \setminus \{i\}} \frac{|S|! \, (n - |S| - 1)!}{n!}, its \binom form under a \substack, the
    # core in a framed proposition and its proof, Shapley shares with \dfrac and Nash bargaining), for a maker of
    # winter tyres and its garages, with \vect; tufte-br, its theorems, propositions and definition framed by the
    # class's mdframed, and elegant-br, which was to be the elegantbook class but is not in this TeX Live (Debian
    # packages no elegantbook.cls), so the standard book class at 11pt under pdfLaTeX with what elegantbook's English
    # mode loads, newtxtext's TermesX and newtxmath, and tcolorbox frames with a title tab as elegantbook draws them,
    # equations numbered by chapter): 93.7 % and 93.7 % exact (59 of 63), mean similarity 0.985 and 0.986 when first
    # measured, nothing missing or empty, all 63 numbers read.  The same four under both.  Judge-only: the mixed best
    # response (2.6), whose cases row "[0, 1] & \text{if } y = \tfrac{1}{2}" the judge reads as an option of the \\
    # before it and drops ([0, 1] served, as printed), and the contraction (2.10), primes written after a subscript
    # (q_{j}', printed and served as q'_{j}).  Misread: the brand game (2.4), an array with a column rule and \hline
    # beside "and" and two pmatrices on one line, served as an aligned block of the array's rows as words and pairs,
    # the rule and \hline lost (the judge also counts the column spec c|cc), the pmatrices joined to the array's
    # middle row and its last row "brand 2 (4, 3) (2, 5)" set after the matrices' line; and the price of anarchy
    # (2.15), "\mathrm{PoA} = \frac{\max ...}{\min ...}, \qquad \text{which for the Cournot garages is} \quad
    # \frac{(a - w)^{2} / 4}{2 (a - w)^{2} / 9} = \frac{9}{8}", wider than the measure (by 26pt under the class, 18pt
    # under elegant-br), split into
    # three: the two numerators served as a display of their own (the second one's rule as \underline), the middle
    # line with its words as prose ("PoA = , which for the Cournot garages is ="), the two denominators as the
    # numbered formula with the rules as \overline (and under the class the first sum's upper limit n lost), and the
    # last fraction 9/8, which reaches past the measure, as a side note "9 . 8"
    # the seventy-first body (body-bs.tex, a textbook's chapter on stock in continuous time (the sawtooth and its area
    # \int_{0}^{T} I(t) \, \mathrm{d}t with a \left. ... \right|_{0}^{T} bar, the lot size by calculus, planned
    # backorders with two cases blocks side by side, their areas in an align and first-order conditions in a split,
    # a Hessian of pmatrices inside a theorem, a finite production rate with a \dfrac in a root's fraction,
    # discounting with \mathrm{e}^{-\rho t} and a \cfrac, ageing stock with \sqrt[3]{...} and a double integral)
    # and one on random demand and control in continuous time (the Laplace transform of compound lead-time demand,
    # moments as evaluation bars in a gather, the Bromwich integral, Cauchy's \oint, a side note's two displays,
    # the renewal-reward limit \lim_{t \to \infty} \frac{1}{t} \mathbb{E}[C(t)] inside a theorem, an
    # \operatorname*{ess\,sup} inside a definition, an \iint, the Brownian approximation's value function with
    # \biggm|, its backward equation, roots, a multline, a density with a fraction in its exponent, the forward
    # equation in a split, a transform under \Biggl( \Biggr), more cube roots, a table float with a numbered
    # equation after its tabular, a Hamiltonian and Pontryagin's conditions in a four-row align, Euler-Lagrange,
    # \dot{x} and \ddot{x}, a vector Hamiltonian, a block system of pmatrices, a Riccati equation, three numbered
    # equations in the algorithm float), for a distributor of heating oil, with \vect, two example floats, a
    # theorem in each chapter, a definition and a side note; tufte-bs, and stixmath-bs, KOMA-Script's scrreprt at
    # 11pt under XeLaTeX with STIX 1.1 text and STIX Math 1.1 by unicode-math (the one OpenType maths font here
    # no set-up loaded; Erewhon Math, asked for, is erewhon-i's), equations numbered by chapter, (2.7)): 91.3 %
    # and 87.0 % exact (63 and 60 of 69), mean similarity 0.982 and 0.992 when first measured, one missing under
    # the class, nothing empty, all 69 numbers read alike by LaTeX and the judge.  Under both: the backorder
    # paths (1.8), two cases blocks side by side on one line, I(t) = \begin{cases} ... \end{cases} \qquad B(t) =
    # \begin{cases} ... \end{cases}, served as one cases block whose rows pair the two blocks' rows (I's first row
    # with B's first, "B(t) = \{" between them as a row of its own, I's second with B's second); the mean of
    # lead-time demand (2.3), = -\left. \frac{d \tilde{F}(s)}{ds} \right|_{s = 0}, served with the invisible
    # \left. before the minus (the same print; the judge orders the tokens); the value function's \biggm| (2.14)
    # served as \middle| (the same bar); the hitting time's \exp\Biggl( ... \Biggr) (2.21) served with bare
    # parentheses (the judge keeps \Biggl); and the boundary conditions' \left. ( ... ) \right|_{t = T} (2.34)
    # served as ( ... )|_{t = T} with no \left. (the same print).  Missing under the class alone: the side note's
    # \Pi(z) = \Bigl( \frac{b}{b + \lambda (1 - z)} \Bigr)^{a} (2.7), in the margin, read into the side note's
    # text chunk as "$$b^{a}$$ $\Pi(z) = (\quad)$ , (2.7) $\overline{b+\lambda(1-z)}$": the fraction's numerator
    # and the exponent lifted out, its rule an overline over the denominator, no formula 2.7 (2.8, the note's
    # second display, read exactly).  Under stixmath-bs alone: the two integrals that open the align's rows
    # (1.9, 1.10) swap limits across the rows, \int_{T}^{T} in the first and \int^{0}_{0} in the second (the
    # first row's lower 0 given to the second, the second's upper T to the first: STIX's tall upright-limit
    # integral brings the two rows' limits within reach of each other); the side note's \binom{n + a - 1}{n} (2.8)
    # served as a pmatrix (the same print, no rule between the rows); and the backward equation (2.15),
    # \frac{\partial V}{\partial t} + \mu \frac{\partial V}{\partial x} + \frac{\sigma^{2}}{2} \frac{\partial^{2}
    # V}{\partial x^{2}} + c(x) = 0, V(x, T) = \phi(x), served as "\partial V + \mu \partial V + \frac{\sigma^{2}}{2}
    # \partial^{2} V + c(x) = 0, ..." over a second aligned row "\overline{\partial t} \quad \overline{\partial x}
    # \quad \overline{\partial x^{2}}": the three \partial fractions lost, numerators on the baseline, rules as
    # overlines over the denominators (\frac{\sigma^{2}}{2} between them read; the Euler-Lagrange equation's
    # \partial fractions, 2.30, read exactly)
    # the seventy-second body (body-bt.tex, a textbook's chapter on queues at a parts counter (Little's law as a limit
    # inside a theorem and \boxed{L = \lambda W}, balance equations in a gather, \rho \coloneqq \lambda / \mu, the
    # generating function and moments in a split, a dcases waiting-time law, birth and death as products in an align,
    # a side note's display, stability inside a definition, several clerks in cases and dcases, the Erlang C formula
    # with \sum_{k=0}^{c-1} \frac{(\lambda/\mu)^{k}}{k!}, an alignat, the Erlang B formula, its recursion in a gather
    # and a \cfrac continued fraction, an algorithm float's numbered display, a table float of service levels with
    # inline maths in its tabular, \dfrac and \tfrac in one display) and one on service levels for stock (Palm's
    # theorem, ready and fill rates in a definition and a theorem, the base-stock cost in an align with
    # \shortintertext, subequations, lost sales with Erlang's loss in a gather and a multline, the machine-repair law
    # with \binom in dcases, Engset's formula with \dbinom, generating functions as a \prod, a kit's availability with
    # \vect{c}^{\top} \vect{S}, \operatorname*{arg\,max}, Panjer's recursion, a negative binomial, a boxed summary in
    # an unnumbered empheq, since the judge numbers no empheq, a three-row alignat programme, two example floats), for
    # a dealer in spare parts for farm machinery, with \vect; tufte-bt, and octavo-bt, the octavo class's crown
    # octavo page (89 mm text block) at 10pt under pdfLaTeX with Utopia text by erewhon and newtxmath's utopia maths,
    # chapters numbered by secnumdepth 0 and equations by chapter, (2.7)): 92.6 % and 91.2 % exact (63 and 62 of 68),
    # mean similarity 0.996 and 0.987 when first measured, nothing missing or empty, all 68 numbers read alike by
    # LaTeX and the judge.  Under both the same five, three of them judge-only: the two dcases blocks (1.11, the wait's
    # law, and 1.18, the M/M/c law), served as cases with \dfrac rows, whose brace the judge counts as a \{ token
    # where it keeps none for dcases (the same print); the continued fraction's \dotsb (1.29) served as \cdots, which
    # the judge reads as \dots (the same dots).  Misread: Engset's \dbinom (2.16), display-size binomials in a
    # fraction's numerator and denominator, served as \binom, which there would print smaller (the size not read
    # as a \dbinom); and the machine-repair law (2.14), \binom inside dcases rows,
    # served with each binomial taken apart into rows of the cases block, "N \\ (\quad) r^{n} p_{0}, & ..." and
    # "n \\ N \\ (\quad) \dfrac{n!}{c! c^{n-c}} ..." and a last row "n": the tall parentheses read as an empty
    # pair, the upper and lower entries as rows of their own (2.15's \binom in a plain equation and the negative
    # binomial's, 2.24, read exactly).  Under octavo-bt alone: the worked
    # wait (1.25), wider than the example float's box on the narrow page (13.6 pt overfull, its number dropped to a
    # line of its own), served as its fraction \frac{0.647}{30 - 24} alone, the rest lost
    # the seventy-fourth body (body-bv.tex, a textbook's chapter on learning demand while stocking (Bayes' rule under
    # \propto, the Poisson likelihood and the Gamma density with \Gamma(\alpha), its update in an align, a posterior
    # mean as a weighted average, a display of \quad-separated parts ending in a \text condition, the negative
    # binomial predictive in a split under \left( ... \right), a side note's Gamma identity, the Beta density and its
    # update in cases, a pmatrix covariance, \bm{\Lambda} and \bm{\Sigma} with \operatorname{tr} and \det, a
    # Kronecker product, the newsvendor with unknown demand under \operatorname*{arg\,min} and an \inf over a set, a
    # critical fractile inside a theorem, the cost of not knowing under \left[ ... \right] round fractions, a censored
    # likelihood in cases, a \limsup with absolute values, an example float and a table float with a numbered
    # equation) and one on bandits for stocking decisions (regret with \mathscr{R}, counts with \mathbb{1}, Hoeffding,
    # the upper confidence bound \bar{\mu}_{a} + \sqrt{\frac{2 \ln t}{N_{a}}}, its regret inside a theorem with
    # \mathcal{O}(\cdot), a minimax \inf \sup over a \mathfrak class, the Lai-Robbins \liminf, \lesssim, Thompson
    # sampling's probability matching under \Bigm|, two numbered equations in the algorithm float, linear bandits
    # with \lVert \cdot \rVert_{\mathbf{V}_{t}} and \lVert \cdot \rVert_{2}, the elliptical potential with \det and
    # \operatorname{tr}, Kronecker features, projected order steps, a second example float), for an online coffee
    # roaster, with \vect; tufte-bv (mathrsfs added for \mathscr), and eulerlua-bv, the standard book class at 10pt
    # under LuaLaTeX with TeX Gyre Pagella text and unicode-math's Euler Math set upright (eulermath-q sets it under
    # XeLaTeX in amsart), equations numbered by chapter, (2.7)): 96.7 % and 73.8 % exact (59 and 45 of 61), mean
    # similarity 0.999 and 0.990 when first measured, nothing missing or empty, all 61 numbers read alike by LaTeX and
    # the judge.  Under both: the posterior's concentration (1.29), \Pr\Bigl( \bigl| \lambda - \lambda_{0} \bigr| >
    # \varepsilon \Bigm| y_{1:n} \Bigr), its absolute-value bars served as two more \Bigm| condition bars
    # (\Pr\Bigl(\Bigm|\lambda-\lambda_{0}\Bigm| > ...), where the judge drops \bigl and \bigr and keeps \Bigm; and
    # probability matching (2.11), \Pr\Bigl( ... \Bigm| \mathfrak{F}_{t-1} \Bigr), served as \left( ... \middle| ...
    # \right) (the same print; the judge keeps \Bigm).  Under eulerlua-bv alone: the bold capital Greek of \bm (here
    # \symbfup, as unicode-math has no \bm) served as \mathbf{\Sigma} and \mathbf{\Lambda} (1.15-1.19; the same upright
    # bold glyphs, while \vect{\mu} reads as \bm{\mu}); \mathscr{R} served as \mathcal{R} (2.1, 2.6, 2.7, 2.10,
    # 2.15, 2.16, 2.21, 2.27: unicode-math prints both from the one script alphabet, U+211B); and the normal
    # posterior mean (1.23), \frac{n_{0} m_{0} + n \bar{y}_{n}}{n_{0} + n}, whose upright n and barred y in the
    # numerator ran together into \operatorname{ny}_{n}, the bar lost (the same \bar{y}_{n} in 1.6, not after a
    # letter, reads)
    # the seventy-third body (body-bu.tex, a textbook's chapter on linear programmes for stocking a network of
    # warehouses (flow conservation with sums under \substack{j : (i,j) \in \mathcal{A}}, the minimum-cost flow
    # programme with \operatorname*{minimize}_{x} and \text{s.t.}, an incidence matrix in cases and as a bmatrix with
    # \cdots, \vdots and \ddots, a two-echelon programme in an aligned block, an alignat system with its coefficients
    # in columns, the standard form, reduced costs, the ratio test with a two-row \substack and an \underset arg min,
    # a system under a big left brace \left\{ \begin{array}{l} ... \end{array} \right., two simplex tableaux as
    # arrays with vertical rules and \hline, a pivot as \xrightarrow{...}, the pivot rule in cases with \dfrac rows,
    # the example float with an \overset arrow, Bland's rule, a bounded ratio test, Cayley's count) and one on
    # duality and prices in multi-echelon stock (primal and dual side by side as two aligned blocks, the Lagrangian
    # and its infimum in cases, weak and strong duality inside a theorem, the depot's primal and dual in an alignat,
    # complementary slackness, \vect{0} \leq \vect{x} \perp ... \geq \vect{0}, the optimality system under a big left
    # brace, node potentials with cases, a side note, the two-echelon Lagrangian in a split and its dual, prices with
    # \stackrel, \underset and \overset, a two-stage programme in a multline, a block-angular bmatrix, echelon stocks
    # in a gather, a table float holding two numbered displays after its tabular, shadow prices and ranges, a
    # piecewise-linear cost in cases, transshipment rows in an align with two-row \substack sums, shortest-path
    # prices), for a distributor of spare parts, with \vect; tufte-bu, and ncmbook-bu, KOMA-Script's scrartcl at 11pt
    # under LuaLaTeX with NewCM10 Book text and NewCMMath-Book.otf by unicode-math (Berenis ADF Pro Math, asked for,
    # has no MATH table, so unicode-math falls back to Latin Modern Math), the body's chapters as numbered sections,
    # equations numbered by chapter, (2.7)): 71.0 % and 71.0 % exact (44 of 62), mean similarity 0.982 and 0.981 when
    # first measured, nothing missing or empty, all 62 numbers read alike by LaTeX and the judge (the example's and the
    # table float's too).  The same 18 under both.  Judge-only, the same print: \vect{0} and \vect{1}, printed bold and
    # served \mathbf{0} and \mathbf{1}, which the judge reads as a plain 0 and 1 (1.5, 1.6, 1.15, 1.18, 2.5, 2.7, 2.9,
    # 2.10, 2.18, 2.25); a one-row \substack{j : (i,j) \in \mathcal{A}} under \sum, served as a plain subscript, the
    # judge keeping the \substack (1.1-1.3); \underset{i : \bar{a}_{iq} > 0}{\operatorname{arg\,min}} served as
    # \operatorname*{arg\,min}_{i : \bar{a}_{iq} > 0} (1.19); \stackrel{\text{def}}{=} served as \overset{def}{=} and
    # \underset{\text{local} / \text{central}}{\min} as \min_{local / central} (2.16).  Markup: \bar{c}_{\text{exp}}
    # served as \bar{c}_{\exp}, the operator (the same upright letters), and under the class the \overset{\text{pivot}}
    # on \Longrightarrow served over \implies (1.27).  Misread: the primal and dual side by side (2.1), two aligned
    # blocks on one line, served as one aligned block whose rows pair the two blocks' rows ("minimize c^T x maximize
    # b^T y", "s.t. Ax = b, s.t. A^T y <= c,", "x >= 0, y free"); and the two-stage programme (2.17), a multline whose
    # first line (\operatorname*{minimize}_{s, y^{\omega}, v^{\omega}} and three sums with limits) is lost from the
    # formula: under the class read into the paragraph before it as prose ("minimize $\sum h_{k}s_{k}+\sum
    # p_{\omega}\sum(...)$" after a display "$$K\quad S\quad K$$" of the sums' upper limits), under ncmbook-bu dropped,
    # and under both the operator's subscript and the sums' lower limits set as stray scripts in the second line
    # ("s^{, y^{\omega}, v^{\omega} k = 0} s.t. s_{k}^{\omega} +^{= 1} ...")
    # the seventy-fifth body (body-bw.tex, a textbook's chapter on stock levels as a Markov chain (the weekly (s, S)
    # chain in cases, its transition matrix as a pmatrix of \frac entries and a depletion bmatrix with \cdots,
    # \vdots and \ddots, a path's probability as a \prod, Chapman-Kolmogorov sums, \mathbf{P}^{n} and forward and
    # backward equations in a gather, a two-step sum in an align with \tfrac, classes and the period under \gcd inside
    # a definition, \bm{\pi}^{\top} \mathbf{P} = \bm{\pi}^{\top} and balance with \sum_{i \neq j} in an align, the
    # convergence theorem with \lim_{n \to \infty} \mathbf{P}^{n} = \vect{e} \bm{\pi}^{\top}, a balance system under
    # \left\{ \begin{aligned} ... \end{aligned} \right., a long-run cost under \Biggl( ... \Biggr), detailed balance and
    # a birth-and-death chain as \prod ratios, \det(\lambda \mathbf{I} - \mathbf{P}), a vmatrix, P^n of a two-state
    # chain in closed form, the spectral sum, an example float and a table float with a numbered fill rate) and one on
    # absorbing chains, passage times and mixing (the canonical form and its powers as \left[ \begin{array}{c|c} ...
    # \hline ... \end{array} \right], the fundamental matrix (\mathbf{I} - \mathbf{Q})^{-1} inside a theorem, absorption
    # times and probabilities in a gather, a worked paint tin's blocks as three pmatrices, hitting probabilities and
    # times in cases, the gambler's ruin in an aligned block, first passages and their generating functions in a
    # gather, a side note's display, \lVert \mu - \nu \rVert_{\mathrm{TV}} under \max_{A}, d(n) under \max_{x}, the
    # Dobrushin coefficient, a \lceil ... \rceil mixing bound, spectral bounds inside a theorem, a split under
    # \Biggl( ... \Biggr), two numbered equations in the algorithm float, a second example float, a multline), for a
    # ship chandler on an island supplied by a weekly ferry, with \vect; tufte-bw, and eulerpx-bw, the memoir class at
    # 10pt in its chappell chapter style under pdfLaTeX with Palatino text by newpxtext and the eulerpx package (Euler
    # Roman letters and digits, newpxmath's symbols and operators, \leq as \leqslant), equations numbered by chapter,
    # (2.7)): 92.6 % and 88.2 % exact (63 and 60 of 68), mean similarity 0.999 and 0.997 when first measured, nothing
    # missing or empty, all 68 numbers read alike by LaTeX and the judge (the side note's, the theorems', the
    # definition's, the examples', the table's and the algorithm's too).  Under both, the same five: \Biggl( ... \Biggr)
    # round the long-run cost's bracket (1.23), round the birth-and-death normaliser (1.25) and twice in the spectral
    # proof's split (2.27), and \Biggl[ ... \Biggr] round the season's expected cost in the multline (2.32), all served
    # as bare ( ) and [ ] (the same print at that size; the judge keeps \Biggl, as for bs 2.21); and the mean return
    # time's F_{ii}'(1) (2.18), served F'_{ii}(1), the prime set before the subscript (the same print).  Under
    # eulerpx-bw alone, three cases blocks whose rows open with a text-style \sum (newpxmath's): the transition
    # probabilities (1.3), \sum_{k \geq y_{i}} a_{k} served as a row "\sum" of its own and a row "k_{\geq y_{i}} a_{k}"
    # (the subscript's k taken for a letter on the baseline, the rest as its subscript); the hitting probabilities
    # (2.8), \sum_{j} p_{ij} h_{j}^{A} served as "\sum \\ j p_{ij} h_{j}^{A}", the subscript j a letter of its own in
    # the next row; and the hitting times (2.9), 1 + \sum_{j \notin A} p_{ij} k_{j}^{A} served as "\sum \\ 1 + &
    # j_{\notin A} p_{ij} k_{j}^{A} \quad if i \notin A": the \sum lifted into a row above, 1 + left in the first
    # column and the condition pushed out of its column (0.943); under the class all three read exactly, and
    # eulerpx-bw's display-style sums outside cases (1.7, 1.17, 1.18 with \sum_{i \neq j}) read
    # the seventy-sixth body (body-bx.tex, a textbook's chapter on estimating by simulation (an (s, S) recursion in
    # cases with demand drawn \stackrel{\text{iid}}{\sim}, a weekly cost with \mathbb{1}, the sample mean
    # \widehat{\theta}_{n} = \overline{X}_{n} = \frac{1}{n} \sum_{i=1}^{n} X_{i}, the strong law with \text{a.s.}, the
    # sample variance in an align, Welford's recursion, the central limit theorem \sqrt{n} (\widehat{\theta}_{n} -
    # \theta) \xrightarrow{d} \mathcal{N}(0, \sigma^{2}) inside a theorem, intervals with \pm and z_{1 - \alpha / 2},
    # a side note's Chebyshev bound, Student's t, a sample size, Berry-Esseen, stockout indicators, a fill rate's
    # delta method in a split, autocovariances, batch means in a gather inside a definition, MSER's warm-up under
    # \operatorname*{arg\,min}, an example float) and one on reducing variance and optimising by simulation
    # (antithetic pairs with \overset{\text{iid}}{\sim}, common random numbers with a paired interval after a table
    # float's tabular, control variates \frac{\operatorname{Cov}(X, Y)}{\operatorname{Var}(Y)} in an align and a
    # vector of controls with a pmatrix covariance, importance sampling with \frac{f(x)}{g(x)} and
    # \mathbb{E}_{g}[\cdot], exponential tilting, a season's likelihood ratio as a \prod, self-normalised weights and
    # the effective sample size in a gather, sample average approximation under \operatorname*{arg\,min}, an order
    # statistic, a budgeted programme with \text{s.t.} in an aligned block, its consistency inside a theorem, an
    # optimality gap in a multline, a quantile's limit law, stochastic gradients with \nabla_{\theta}, the score
    # function, Robbins-Monro steps under \Pi_{\Theta}, Polyak averaging, finite differences, a vector step, two
    # numbered equations in the algorithm float, two more example floats), for a chain of hardware stores stocking
    # for winter, with \vect; tufte-bx, and mdutopia-bx, the standard book class at 11pt under pdfLaTeX with
    # mathdesign's Utopia text and maths (its garamond option, asked for, needs URW's Garamond No. 8, not here, and
    # its other unused options commercial fonts), equations numbered by chapter, (2.7), the PDF then re-saved by
    # PDFium (pdfium_resave.py): object streams unpacked, a classic cross-reference table, a fresh /ID): 95.7 % and
    # 91.4 % exact (67 and 64 of 70), mean similarity 0.985 and 0.998 when first measured, one missing under the
    # class, nothing empty, all 70 numbers read alike by LaTeX and the judge.  Under both: the (s, S) recursion's
    # \stackrel{\text{iid}}{\sim} (1.1) served as \overset{\text{iid}}{\sim} (the same print; the judge keeps the
    # spelling); and the optimality gap's multline (2.29), whose D_{i}' (a prime after the subscript) was served as
    # D'_{i} (the same print: TeX stacks the prime over the subscript either way; the judge orders the tokens).
    # Missing under the class alone: the side note's Chebyshev bound (1.13), pushed down the margin to the page's
    # foot, read into a side-note text chunk as plain glyphs, "σ 2 Pr ( |Xn − θ| ≥ ε ) ≤ 2 . (1.13) nε" (the
    # fraction \frac{\sigma^{2}}{n \varepsilon^{2}} taken apart, its numerator before the line and its denominator
    # after the number, the bar over X lost), no formula 1.13.  Under
    # mdutopia-bx alone: the same bound in its footnote (1.13), | \overline{X}_{n} - \theta |, served as
    # \overline{|} X_{n} - \theta | (at footnote size the overline over X was given to the bar before it); and
    # three displays that open with Utopia's \overline{Y} (1.21, the time average, 1.24, the batch means, and
    # 1.26, the batch-means interval) served with a plain Y, the overline lost (perhaps because the bar over the
    # slanted Y starts left of its ink, where the display begins; \overline{Y} inside a display, 1.22 and 1.25, and
    # \overline{X} opening one, 1.12 and 1.14, read exactly)
    # the seventy-seventh body (body-by.tex, a textbook's chapter on approximate value functions for replenishment (the
    # stocking problem as an MDP with lost-sales dynamics, the transition in cases, the Bellman equation, state counts as
    # \prod, the linear value function \widehat{U}_{\bm{\theta}}(s) = \bm{\theta}^{\top} \bm{\beta}(s), a transposed
    # feature row bmatrix, polynomial and radial bases, fitted value iteration's backup and least squares under
    # \operatorname*{arg\,min}_{\bm{\theta}}, the normal equations beside a bmatrix of feature rows, a ridge fit, a
    # sampled backup, two numbered equations in the algorithm float, the projection in \lVert \cdot \rVert_{\vect \xi} and
    # a contraction inside a theorem, a worked fit in the example float, post-decision states inside a definition, their
    # values in a gather, a multline recursion, an ADP step in an align, concave slopes projected as an assignment in
    # cases, a table float with a numbered rule after its tabular) and one on learning to replenish from experience
    # (TD(0) as an assignment with \leftarrow, TD error and semi-gradient step, n-step and lambda-returns in a gather,
    # traces in cases and as vectors in an align, LSTD, Q^{*} with \max_{a'}, Q-learning and Sarsa as assignments,
    # epsilon-greedy in cases, a side note's softmax in the margin, counts with \mathbb{1}\{\cdot\}, step-size sums, a
    # convergence probability inside a theorem, linear Q-learning, a worked update in a second example float, a softmax
    # policy, the likelihood ratio trick in a split, the trajectory's log-probability, the policy gradient with
    # r_{\text{to-go}}^{(k)} under \mathbb{E}_{\tau}\Bigl[ ... \Bigr], a baseline, softmax and Gaussian scores, the
    # advantage, actor and critic steps in an align with a \nonumber row, generalised advantages, three numbered
    # equations in a second algorithm float), for a wholesaler of garden supplies, with \vect for Latin vectors and \bm
    # for the parameters; tufte-by, and tuftexe-by, the original tufte-book class at its defaults under XeLaTeX with TeX
    # Gyre Pagella text and TeX Gyre Pagella Math by unicode-math (tuftebook-ap sets tufte-book under pdfLaTeX with
    # mathpazo), its running heads letter-spaced by fontspec's LetterSpace, chapters numbered and equations by chapter,
    # (2.7), the side note in the margin): 100 % and 100 % exact (66 of 66), mean similarity 1.000 and 1.000 when first
    # measured, nothing missing or empty, all 66 numbers read alike by LaTeX and the judge (the examples', the table's,
    # both algorithms', the theorems', the definition's and the margin side note's too).  No formula inexact under
    # either set-up: the judge reads \text{if } served as \operatorname{if}, \text{to-go} as \operatorname{to}-\operatorname{go}
    # and the align's third row "\qquad \text{with } \delta = ..." (2.33; the \nonumber row before it belongs to no
    # number) alike, and the bold Greek of \bm (\symbfit under unicode-math) and of \vect{\xi} reads as \bm
    # the seventy-eighth body (body-bz.tex, a textbook's chapter on pricing perishable stock (linear, power and kinked
    # demand curves, the kinked one in cases, elasticities as fractions, revenue through the elasticity, log-linear
    # models with \ln and \exp and a retransformation, least squares, a Poisson log-likelihood and its \nabla in an
    # align, exponential and logit curves, a worked price cut in the example float, cross-price demand, a pricing
    # programme under \operatorname*{maximize}_{p_{1}, \dots, p_{n}} with its constraints in an aligned block, its
    # Lagrangian, the KKT conditions with \nabla_{\vect p} and complementary slackness in a gather inside a theorem,
    # a markup inside a definition, a Hessian of \dfrac second partials \frac{\partial^{2} R}{\partial p_{i}
    # \partial p_{j}} as a pmatrix, its determinant as a vmatrix, Cramer's prices, a bordered vmatrix, a sell-out
    # price in cases with \dfrac rows, random sales with \min and an \int) and one on markdowns as stock ages
    # (decaying demand under two \underbrace notes, the season's revenue with (\cdot)^{+}, a first-order condition,
    # a markdown schedule, monotone markdowns inside a theorem, a clearance price of two \underbrace terms, a
    # salvage rule, depth lifts, a markdown schedule in a table float with a numbered average after its tabular, a
    # dynamic programme in an align, a Poisson expectation, a one-sale recursion, monotone policies inside a
    # definition, a multline recursion, an \operatorname*{arg\,max} in the algorithm float, an intensity-control
    # equation, Gallego and van Ryzin's closed form with \ln of a ratio, a side note's O(\sqrt{x}) gap, a second
    # example float, a multi-product condition with a Jacobian, the logit's Jacobian in cases and a split), for a
    # greengrocery chain's soft fruit and cut flowers, with \vect; tufte-bz, and fourierps-bz, the memoir class at
    # 11pt with fourier (Utopia text, Fourier-GUTenberg maths, Type 1) through latex, dvips and Ghostscript's
    # ps2pdf, equations numbered by chapter, (2.7), its side note as a footnote and its own example float): 96.6 %
    # and 96.6 % exact (56 of 58), mean similarity 1.000 and 1.000 (0.9997) when first measured, nothing missing or
    # empty, all 58 numbers read alike by LaTeX and the judge (the examples', the table's, the algorithm's, the
    # theorems', the definitions' and the side note's too).  Inexact under both, and alike: the two stationarity
    # conditions that end in \vect 0, the KKT gradient (1.20, ... + \vect \mu^{*} = \vect 0) and the several
    # products' condition (2.23, ... (\vect p_{t} - \vect \lambda) = \vect 0), served ending in \mathbf{0} as the
    # PDF prints it, where the judge reads \vect{0} as a plain 0 (the ninth and seventy-third bodies' \vect{0})
    # the seventy-ninth body (body-ca.tex, a textbook's chapter on locating yards and designing networks as integer
    # programmes (the uncapacitated location problem with \sum_{j \in J} x_{ij} = 1 and \forall i \in I conditions in
    # a four-row alignat, y_{j} \in \{0, 1\}, two constraint rows named by \tag{demand} and \tag{aggregate link} in an
    # align (not scored), the weak linking row, the strong and weak relaxations as \mathcal{P}_{S} and
    # \mathcal{P}_{W} under \Bigl\{ ... \Bigr\}, \mathcal{P}_{S} \subseteq \mathcal{P}_{W} with \setminus inside a
    # theorem and a short proof with two displays, a side note, capacities, a minimum count of yards under
    # \biggl\lceil ... \biggr\rceil, single sourcing, big-M rows and the smallest M, either-or rows in an align,
    # precedence, a fixed-charge cost in cases, the p-median, covering sets N_{i} \subseteq J, set and maximal
    # covering, a worked choice of yards with a pmatrix of costs in the example float, multi-commodity flow
    # conservation with a three-case cases, design linking, cut-set inequalities over \delta^{+}(S) with
    # S \subseteq N and their \lceil D(S) / u \rceil rounding, modules under \biggl\lfloor ... \biggr\rfloor) and one
    # on relaxations and bounds (the Lagrangian relaxation and its per-site values, a subequations group, 2.3a and
    # 2.3b, the Lagrangian dual \max_{\bm{\lambda} \geq \mathbf{0}} \min_{\mathbf{x}, \mathbf{y}}, the bound chain
    # with \operatorname{conv}, a subgradient inside a definition, the projected subgradient step and Polyak's step
    # with \lVert \cdot \rVert^{2}, convergence with \Longrightarrow inside a theorem, Chvatal-Gomory cuts with
    # \bigl\lfloor \vect{w}^{\top} \vect{a}_{j} \bigr\rfloor, Gomory's fractional cut, a knapsack set, the cover
    # inequality and a proof of it with two displays, the extended cover with \setminus, cover separation under
    # \min_{\vect{z} \in \{0, 1\}^{n}}, a table float with a numbered gap after its tabular, the branching
    # dichotomy with \lfloor y_{j}^{*} \rfloor and \lceil y_{j}^{*} \rceil, node and global bounds, pruning in a
    # cases of \text rows, the gap, reduced-cost fixing, \operatorname*{arg\,min} of |y_{j}^{*} - \frac{1}{2}|,
    # pseudocost scores, the tree's size and a worked branching in a second example float), for a distributor of
    # building materials choosing where to open yards, with \vect for Latin vectors and \bm for the multipliers;
    # tufte-ca, and amspazo-ca, amsart at 11pt under pdfLaTeX with mathpazo's sc option (Palatino text and Pazo
    # maths) and eucal's Euler script for \mathcal, the body's chapters as numbered sections and equations by
    # chapter, (2.7), set on the left as amsart does, its side note as a footnote): 100 % and 98.4 % exact (62 and
    # 61 of 62), mean similarity 1.000 and 0.999 when first measured, nothing missing or empty, all 62 numbers read
    # alike by LaTeX and the judge (the subequations' 2.3a and 2.3b, the examples', the table's, the theorems', the
    # definition's and the proofs' too; the two \tag rows are set apart).  One formula inexact, under amspazo-ca
    # only: 2.16, the display that ends the cover inequality's proof, "\sum_{j \in C} x_{j} \leq |C| - 1.", served
    # with amsthm's end-of-proof square, which amsart sets at the right of the line below the display, taken into
    # the formula: "\sum _ j \in C x _ j \leq | C | - 1 . \Box" for "\sum _ j \in C x _ j \leq | C | - 1" (under
    # tufte-ca the same display and its square read exactly)
    # the eightieth body (body-cb.tex, a textbook's chapter on state-space models of demand and the Kalman filter (the
    # local level with \mathcal{N}(0, \sigma_{\varepsilon}^{2}), a local linear trend and a quarterly season as bmatrix
    # systems, the state and observation equations in a four-column align, \operatorname{diag} and a block bmatrix, the
    # Gaussian density with \det and \exp\left( -\frac{1}{2} \cdots \right) inside a definition, a partitioned
    # Gaussian and its conditional inside a theorem, prediction and update with \hat{\vect{x}}_{t \mid t-1}, ^{\top}
    # and inverses, the gain \mathbf{K}_{t}, the Joseph form, the information filter, three numbered equations in
    # the algorithm float written with \gets, the steady-state gain, exponential smoothing as an infinite sum, a side
    # note, a worked update in the example float, the prediction-error decomposition, the log-likelihood with \log
    # \det, \operatorname*{arg\,max}, a diffuse start, \operatorname{AIC}, a table float with a numbered ratio after its
    # tabular) and one on smoothing and forecasting (the Rauch-Tung-Striebel recursions in an align, an EM step in a
    # split, missing weeks in cases, h-step forecasts in a gather, lead-time demand's variance in a multline with a
    # triple sum, an order-up-to level with \Phi^{-1} inside a theorem, Holt-Winters' updates in an align, the forecast
    # with \left\lfloor ... \right\rfloor, the multiplicative form, the innovations form with a 6x6 bmatrix,
    # forecastability with \lvert \lambda_{i}(\mathbf{D}) \rvert inside a definition, a renormalisation with
    # \leftarrow and a second example float), for a chain of garden centres, with \vect; tufte-cb, and libertinetx-cb,
    # the standard book class at 10pt under pdfLaTeX with Linux Libertine text and newtxmath's libertine maths (Type
    # 1; acmart-ak has them from its class in two columns, no set-up loads the option itself), equations numbered by
    # chapter, (2.7)): 93.8 % and 95.4 % exact (61 and 62 of 65), mean similarity 0.996 and 0.999 when first
    # measured, nothing missing or empty, all 65 numbers read alike by LaTeX and the judge (the algorithm's, the
    # examples', the table's, the theorems' and the definitions' too).  Under both: the three numbered equations in
    # the algorithm float (1.23, 1.24, 1.25), written with \gets, served with \leftarrow, the arrow \gets is let to
    # and prints as (the judge keeps \gets as a token of its own; everything else in the three read exactly).  Under
    # the class alone: the ratio after the table float's tabular (1.38), \hat{q} = \frac{\hat{\sigma}_{\eta}^{2}}
    # {\hat{\sigma}_{\varepsilon}^{2}} \approx 0.23, \; 0.06, \; 0.06, served as "\hat{\sigma}^{2} \hat{q} =
    # \frac{\eta}{\hat{\sigma}_{\varepsilon}^{2}} \approx ...": the numerator's \hat{\sigma} and its superscript 2
    # lifted out in front of the formula, only the subscript \eta left above the rule (libertinetx-cb read it exactly)
    # the eighty-first body (body-cc.tex, a textbook's chapter on dynamic lot sizing (the inventory balance, a cost with
    # \mathbf{1}\{x_{t} > 0\}, cumulative demands, the zero-inventory property inside a theorem, the count of plans
    # with \binom, a run's cost as \sum_{k=j}^{t-1} h_{k} \sum_{\ell=k+1}^{t} d_{\ell} and the constant-cost double
    # sum in a split, Wagner and Whitin's forward recursion in a gather under \min_{1 \leq j \leq t}, its
    # \operatorname*{arg\,min}, the backward recursion in an align under \min_{t \in \{j, j+1, \dots, T\}}, a side
    # note, two numbered displays in the algorithm float written with \leftarrow, the shortest-path network
    # \mathcal{N} and \mathcal{A} = \{ (j, t + 1) : 1 \leq j \leq t \leq T \} and its labels under
    # \min_{j : (j, i) \in \mathcal{A}}, a path as a set of arcs, regeneration points with \implies and \forall
    # inside a definition, the planning horizon theorem, a lower envelope in a multline with an \underbrace, a
    # bmatrix of run costs with \cdot entries and an align of \min\{ ... \} in the example float, a table float
    # with a numbered ratio after its tabular) and one on heuristics, horizons and formulations (Silver-Meal's cost
    # per period and its stopping week as \min\{ ... : ... \}, Groff's rule, least unit cost, part-period
    # balancing under \operatorname*{arg\,min} of | ... |, the periodic order quantity with \left\lfloor ...
    # \right\rfloor and \left\lceil ... \right\rceil, a worst-case ratio with \sup inside a definition, a rolling
    # schedule's loss, the mixed-integer programme as a four-row align with "minimize" and "subject to" rows and
    # \forall conditions, the facility-location reformulation, the (\ell, S) inequalities inside a theorem and
    # their separation as a set-builder, backlogging in cases, nested \min operators, a capacity row, a Lagrangian
    # relaxation with \vect{\lambda} and its dual, a subgradient step and a second example float), for a workshop
    # welding bicycle frames in weekly batches, with \vect; tufte-cc, and kurierext-cc, extsizes' extbook class at
    # 14pt under pdfLaTeX with Kurier text and, by kurier's math option, Kurier's own Type 1 maths (no set-up
    # loaded extsizes or Kurier before), equations numbered by chapter, (2.7)): 100 % and 95.0 % exact (60 and 57
    # of 60), mean similarity 1.000 and 0.999 when first measured, nothing missing or empty, all 60 numbers read
    # alike by LaTeX and the judge (the algorithm's, the examples', the table's, the theorems' and the
    # definitions' too).  Under kurierext-cc alone, the three displays with calligraphic capitals (1.18, the
    # network's \mathcal{N} and \mathcal{A}; 1.19, the labels' \min_{j : (j, i) \in \mathcal{A}}; 1.20, the path's
    # \subseteq \mathcal{A}) served with plain N and A: Kurier's calligraphic capitals are glyphs named A.kali,
    # N.kali... in a symbol font that is Kurier-Italic re-encoded (sy-kurierrz), a font whose name says neither
    # symbol nor script, so they read as italic letters (0.971, 0.989, 0.992; everything else in them exact)
    # the eighty-second body (body-cd.tex, a textbook's chapter on the risk-averse newsvendor (the cost with (\cdot)^{+},
    # the expected cost as \int_{0}^{q} and \int_{q}^{\infty}, Leibniz's rule, the critical fractile F^{-1} inside a
    # theorem, the left quantile as an \inf, \Phi^{-1} and \phi, \operatorname{VaR}_{\alpha} inside a definition, CVaR as
    # \inf_{\eta \in \mathbb{R}} \left\{ \eta + \frac{1}{1-\alpha} \mathbb{E}[(X-\eta)^{+}] \right\} and as a tail
    # integral, the joint minimisation inside a theorem, the CVaR order's conditions and closed form, mean-variance
    # objectives in a gather, an exponential utility and a certainty equivalent, a worked order in the example float,
    # a service-level programme in a split with "subject to", its Lagrangian and a four-row align of KKT conditions
    # with \text{} words) and one on robust stocking (an ambiguity set inside a definition with
    # \operatorname*{arg\,min} and \sup_{\mathbb{Q} \in \mathcal{P}}, the moment set, Scarf's bound with \sqrt inside a
    # theorem, the worst-case cost and Scarf's order \mu + \frac{\sigma}{2} ( \sqrt{b/h} - \sqrt{h/b} ), a table float
    # with a numbered gap after its tabular, the moment dual in a multline, a piecewise bound in cases with \dfrac, a
    # Wasserstein ball and its dual, a KL dual, the worst-case CVaR, minimax regret, three numbered equations in the
    # algorithm float written with \gets, a second example float and a gather of the orders), for a wholesaler of
    # winter coats and umbrellas, with \vect; tufte-cd, and notofleqn-cd, KOMA-Script's scrreprt at 11pt with fleqn
    # under pdfLaTeX with notomath's Noto Serif text and newtxmath's Noto maths (Type 1, loaded by no set-up before),
    # equations numbered by chapter, (2.7), set flush left): 94.8 % and 96.6 % exact (55 and 56 of 58), mean
    # similarity 0.984 and 0.998 when first measured, nothing missing or empty, all 58 numbers read alike by LaTeX and
    # the judge (the algorithm's, the examples', the table's, the theorems' and the definitions' too).  Under both:
    # two of the three numbered equations in the algorithm float (2.22, 2.23), written with \gets, served with
    # \leftarrow, the arrow \gets is let to and prints as (the judge keeps \gets as a token of its own; the third,
    # 2.21, has no arrow and read exactly; everything else in the two read exactly).  Under the class alone: the
    # first display in the example float (1.23), "\beta = \frac{18}{26} \approx 0.692, \qquad q^{*} = 5000 + 1200 \,
    # \Phi^{-1}(0.692) \approx ... \approx 5602.", wider than the shaded box, so that amsmath set its number on a line
    # of its own below it: served as "\frac{18}{26}" alone, the rest left in the example's text chunk as inline
    # maths, "$\beta = \approx 0.692, \quad q^{*} = 5000+1200\Phi^{-1}$ (0.692) ..." (notofleqn-cd read it exactly)
    # the eighty-third body (body-ce.tex, a textbook's chapter on stock as a Markov process in continuous time (the
    # Markov property, the generator in cases with \lim_{h \to 0^{+}}, the base-stock generator as a tridiagonal
    # bmatrix with \cdots, \vdots and \ddots, the Kolmogorov equations in an align, e^{\mathbf{Q} t} as a series,
    # uniformisation and its truncation bound under \Bigl\lVert ... \Bigr\rVert_{\infty}, a numbered display in the
    # algorithm float written with \gets, holding times and a path's probability as \prod, events as \bigcup and
    # \bigcap with limits, balance equations in a three-row gather, a product solution under \Biggl( ... \Biggr),
    # Erlang's loss and its recursion, \lim_{t \to \infty} inside a theorem, a two-state exponential as bmatrices,
    # a worked loss in the example float, a block-tridiagonal generator of \mathbf{A}_{k} blocks, the matrix-geometric
    # solution, a phase-type generator as \left[ \begin{array}{c|c} ... \hline ... \end{array} \right], its
    # distribution and moments in a gather, an Erlang stage bmatrix and a side note's display) and one on
    # transforms, long runs and decisions (Laplace transforms with \int_{0}^{\infty} e^{-s t} ... \, \mathrm{d}t, the
    # resolvent, lead-time demand's generating function, its moments in a split inside an equation, the final value
    # theorem, the deviation matrix, discounted and average costs, Poisson's equation, \limsup inside a definition,
    # \liminf = \limsup, a continuous-time decision process's optimality equation and its uniformised forms, passage
    # times, a season's survival as \bigcap and \prod, a table float with a numbered display after its tabular, a
    # Kronecker sum, a block-triangular \exp\left( ... \right) and a sensitivity integral, a second example float),
    # for a dealer in irrigation pumps and spare motors, with \vect, a theorem in each chapter, a definition and a side
    # note; tufte-ce, and artemisia-ce, the DVI route (latex, then dvipdfmx) with the standard report class at 12pt
    # and gfsartemisia, GFS Artemisia text over its maths set-up (txfonts' Type 1 maths letters and symbols with
    # Artemisia's digits), which no set-up loaded, equations numbered by chapter, (2.7)): 71.0 % and 74.2 % exact
    # (44 and 46 of 62), mean similarity 0.968 and 0.978 when first measured, nothing missing or empty, all 62
    # numbers read alike by LaTeX and the judge.  Under both: eleven formulas holding \vect{1} or \vect{0} (1.17,
    # 1.23, 1.33, 1.34, 1.35, 1.36, 2.7, 2.9, 2.10, 2.17, 2.18), which the class prints bold and the builder serves
    # as \mathbf 1 and \mathbf 0, read by the judge from the source as a plain 1 and 0 (as for the ninth body:
    # everything else in them read exactly); the forward equation's p_{ij}'(t) (1.7) and the transform's
    # \hat{f}_{L}'(0) and \hat{f}_{L}''(0) in the split (2.5), served with the primes before the subscripts,
    # p'_{ij}(t) and \hat{f}'_{L}(0) (the same print); the algorithm float's display (1.12), written with \gets,
    # served with \leftarrow (the same arrow); the truncated Poisson's normaliser (1.21), \Biggl( \sum ... \Biggr)^{-1},
    # served with bare parentheses; and the example float's second display (1.29), the two costs
    # C(6) \approx 0.4 \times 2.47 + ... \approx 6.6, \qquad C(8) \approx ... \approx 3.1, wider than the box's
    # measure (57pt over under the class, 13pt under artemisia-ce) so that its number drops to the next line: served
    # as the bare number "(1.29)", the formula itself lost.  Under the class alone: the example float's first
    # display (1.28), \sum_{k=0}^{6} \frac{4^{k}}{k!} = 1 + 4 + ... = 48.56, \qquad \beta(6) = \frac{5.69}{48.56}
    # \approx 0.117, also wider than the shaded box (30pt) with its number on the next line, served as
    # "k _ = 0 ^ 6 \frac 4 ^ k k ! \frac 5 . 6 9 4 8 . 5 6": the \sum glyph and every number on the baseline lost,
    # only the two fractions and the limits kept (artemisia-ce, where it fits, read it exactly); and the discounted
    # cost (2.8), v_{i} = \mathbb{E}_{i}\Bigl[ \int_{0}^{\infty} ... \Bigr], served as "\int 0 ... ]^{\infty}":
    # the integral's limits come apart, the lower one set on the baseline after \int and the upper one moved past
    # the closing bracket as its superscript (artemisia-ce read it exactly)
    # the eighty-fourth body (body-cf.tex, a textbook's chapter on periodic review with a set-up cost (the one-period
    # cost L(y) = \mathbb{E}[...] as two \int and as two \sum, its derivative and the critical fractile, the week's cost
    # with \delta(y - x) in cases, the recursion C_{n}(x) = \min_{y \geq x} \{ K \delta(y - x) + ... + \alpha
    # \mathbb{E}[C_{n-1}(y - D)] \} and its G_{n} form, K-convexity inside a definition, its tangent and chord forms,
    # expectation keeping it inside a theorem with a proof as a three-row split of integrals, s and S under
    # \operatorname*{arg\,min}, the inequality chain, Scarf's theorem with the policy in cases and a proof with a cases
    # display, sets of levels with \emptyset, \subseteq and \cap, an example float) and one on long runs and
    # computation (the renewal-reward average \lim_{N \to \infty} \frac{1}{N} \sum, the cycle length with \mathbb{P},
    # the renewal mass recursion, the (s, S) average cost as a ratio of sums, two aligns of conditions and bounds with
    # \leq, \geq and \leqslant, three numbered displays in the algorithm float written with \gets, sup norms with
    # \lVert ... \rVert_{\infty} and a gather of error bounds, a side note's display with \Pr, Odoni's bounds, a span, a
    # Wasserstein bound with \lvert ... \rvert, a table float with a numbered ratio after it, a fill rate, a "subject
    # to" problem, the normal loss function, a joint set-up cost, a can-order policy in cases, a weighted norm, a
    # \bigcup trigger set and a second example float), for a wholesaler of garden fertiliser, with \vect, two theorems,
    # a definition, two proofs and a side note; tufte-cf, and mathabx-cf, the standard book class at 11pt under
    # pdfLaTeX with Latin Modern text and mathabx's symbols, relations, big operators and delimiters loaded after
    # amsmath and amssymb (no set-up loaded mathabx), equations numbered by chapter, (2.7)): 94.7 % and 0.0 % exact
    # (54 and 0 of 57), mean similarity 0.998 and 0.618 when first measured, nothing missing or empty, all 57 numbers
    # read alike by LaTeX and the judge.  Under the class: only the algorithm float's three displays (2.12, 2.13,
    # 2.14), written with \gets and served with \leftarrow (the same arrow; the judge does not take the two as one).
    # Under mathabx-cf every formula is inexact, for one cause: mathabx's Type 1 fonts (TeX-matha, -mathb, -mathx)
    # carry the glyph names of the T1 (Cork) text encoding by slot, not names of maths symbols, and the builder reads
    # those names: = is served as a left double quote, ( ) as p q, [ ] as r s (or, as \bigl[ \bigr] and other sized
    # delimiters from mathx, as left and right double quotes and a per-mille sign at the display's start), \{ \} as
    # t u (sized ones as "!" and ")" or a visible-space sign), \leq, \geq, < and > as d with caron, e with caron, a
    # with breve and a with ogonek, \leqslant as \leq's glyph, \neq as a per-mille sign, \in as P, \cap as X,
    # \subseteq as D with caron, \emptyset as H, \infty as 8, \approx as a guillemet, \circ as a double acute,
    # \Longrightarrow as u with grave and n with acute, \gets as a capital eth, / as \{, the prime of g'(y) as
    # a superscript 1 (1.10); + and - are lost altogether, and the
    # star superscript of s^{*}, S^{*} and g^{*} with them; \sum, \int and \bigcup come out as y or r with
    # diaeresis or caron, z with dot and d with caron, lifted to the display's start with their limits parted from
    # them; the \sqrt's radical is served as a stray c (or a) before the formula and the root lost; the cases brace
    # is served as "#" and the row with the left-hand side put second (1.15, 1.16, 2.31: y^{*}_{n}(x) read as
    # y_{\mathring n}).  Letters, digits, \frac, \mathbb, \mathcal, \mathbf, \lVert ... \rVert and \lvert ... \rvert
    # (from Latin Modern's symbols) and the \min, \max and \Pr operators are read right in every formula.
    # Now the builder reads a font named as mathabx's matha, mathb or mathx by its slots, in code tables printed
    # from mathabx's own sources (tests/eval/mathabx_layout.py: mathabx.dcl, unicode-math's table, mathx10.tfm's
    # larger sizes and extensible pieces), mathx as an extension font: 93.0 % exact (53 of 57), 0.996.  Left: the
    # three \gets displays (as under the class) and 2.10's \leqslant, which mathabx prints as \leq's glyph.
    # the eighty-fifth body (body-cg.tex, a textbook's chapter on contracts between a supplier and a retailer (the
    # integrated newsvendor's profit with \mathbb{E}[\min(q, D)] and \mathbb{E}[(q - D)^{+}], the leftover as
    # \int_{0}^{q} F(x) \, \mathrm{d}x, the critical fractile F^{-1}\Bigl( \frac{p - c}{p - v} \Bigr), the chain's best
    # response under \operatorname*{arg\,max}, the Stackelberg leader's \max_{w} \; \pi_{S}(w, q^{*}(w)), the
    # generalised failure rate inside a definition, the equilibrium inside a theorem, double marginalisation's 3/4 as
    # a fraction of fractions, buyback profits in an align, the coordination condition in an aligned inside an
    # equation, revenue sharing with \bar{F} under an integral, a table float with a numbered display after its
    # tabular, coordination inside a theorem, two displays in the example float, a rebate in cases, a side note's
    # display) and one on games in the channel (best responses, the Nash inequalities with \forall s_{i} \in S_{i},
    # \; \forall i \in N inside a definition, a payoff bimatrix as an array with a vertical rule, an \hline, \text
    # headers and pairs, a pmatrix of pairs, a mixed equilibrium with \implies, the simplex and bilinear payoffs with
    # \vect and ^{\top}, Cournot and Stackelberg retailers in a gather, a repeated game's trigger condition with
    # \iff, Nash bargaining, a pooling game with \Phi^{-1} and \phi, the core with \forall S \subseteq N, the Shapley
    # value \sum_{S \subseteq N \setminus \{i\}} \frac{|S|! \, (n - |S| - 1)!}{n!} and its \binom form under a two-row
    # \substack, convexity inside a theorem, the Shapley weights in cases in a second example float, a numbered
    # display in the algorithm float, screening with an align and a multline, first-order conditions in a split),
    # for a maker of board games and the toy shops that sell them, with \vect; tufte-cg, and ebgaramond-cg,
    # KOMA-Script's scrbook at 11pt under pdfLaTeX with EB Garamond text and ebgaramond-maths, EB Garamond's own Type
    # 1 maths letters and digits over Computer Modern's symbols (loaded by no set-up before; \partial from cmmi, which
    # the package leaves out), equations numbered by chapter, (2.7)): 98.4 % and 98.4 % exact (61 and 61 of 62), mean
    # similarity 0.9995 and 0.9995 when first measured, nothing missing or empty, all 62 numbers read alike by LaTeX
    # and the judge (the table's 1.20 before the theorem's 1.21, the example's 2.26-2.28 before 2.29, the
    # algorithm's 2.30, the side note's 1.27).  Under both, the one inexact formula is the coordination condition in
    # an aligned (1.16), "\frac{p - w}{p - b} = \frac{p - c}{p - v} \\ \iff \quad b = p - (p - v) \frac{p - w}{p - c}",
    # served with \Longleftrightarrow for \iff (0.969): the arrow \iff prints (amsmath's \; \Longleftrightarrow \;),
    # so the same print, but the judge keeps \iff as a token of its own; the trigger condition (2.14), whose \iff
    # stands between two sides of one line, was read exactly, as were the two \implies of 2.5 and 2.10; here the
    # arrow opens the aligned's second row (after the \\, followed by \quad), with no thick space on its left,
    # which is perhaps why the builder did not write it back as \iff (everything else in 1.16 read exactly)
    # the eighty-sixth body (body-ch.tex, a textbook's chapter on positioning safety stock in assembly networks (the
    # inbound service time \max_{i \in \mathcal{P}(j)} s_{i}, the net replenishment time, bounded demand and the base
    # stock S_{j} = \mu_{j} \tau_{j} + z \sigma_{j} \sqrt{\tau_{j}}, derived demand as sums over \mathcal{S}(i), the
    # positioning programme as a five-row align with \forall (i, j) \in \mathcal{A}, extreme points inside a theorem,
    # decoupling stages inside a definition, a serial line, echelon stock, a dynamic programme over a spanning tree in
    # a gather under \min_{0 \leq s_{j} \leq s^{\mathrm{in}} + T_{j}}, nested \min under \Bigl\{ ... \Bigr\}, a side
    # note's display, two numbered displays in the algorithm float, nested maxima under a root in a multline) and one
    # on distribution networks and risk pooling (pooled deviations \sqrt{\sum_{i} \sum_{k} \rho_{ik} \sigma_{i}
    # \sigma_{k}}, \operatorname{cov}, a 3x3 covariance bmatrix, \vect{e}^{\top} \vect{\Sigma} \vect{e}, pooling inside
    # a theorem, \widehat{\operatorname{cov}} in a gather, a table float with a numbered display after its tabular, a
    # warehouse's service time in cases, echelon base stocks in an align, fair shares, postponement, commonality,
    # service levels in a gather), for a maker of electric bicycles, with \vect, two example floats; tufte-ch, and
    # cairo-ch, the standard book class at 10pt under pdfLaTeX with newpxtext and newpxmath, equations numbered by
    # chapter, (2.7), its PDF re-written by Poppler's Cairo back end (pdftocairo -pdf), which no set-up did before):
    # 100 % and 37.7 % exact (61 and 23 of 61), mean similarity 1.000 and 0.950 when first measured, nothing missing
    # or empty, all 61 numbers read alike by LaTeX and the judge.  The class read everything exactly.  Under
    # cairo-ch every inexact formula (38) comes from what Cairo did to the extension font txexs (setup-cairo-ch.tex):
    # its glyphs moved into a subset declared /WinAnsiEncoding and renamed after their slots, or into a subset
    # numbered from 0 whose ToUnicode gives control codes and U+FFFD.  Display sums served as "Õ" or \mathop Õ (the
    # glyph now /Otilde at 0xD5): 1.6, 1.7, 1.14, 1.17, 1.18, 1.19, 1.21, 2.1, 2.4, 2.9, 2.10, 2.12, 2.15, 2.16, 2.18,
    # 2.20, 2.21, 2.23, 2.25; text-style sums in fractions and cases rows as "Í" (/Iacute): 2.2, 2.17, 2.21, 2.22,
    # 2.24 (2.2, 2.22 and 2.24 differ in that alone).  Radicals taller than the text's served as letters, \sqrt{...}
    # as "q ...", "p ...", "r ...", "s ...", "t ...", the tallest with "v _ n n n" in front (the radical's pieces, now
    # /p, /q, /r, /s, /t, /v): 1.5, 1.7, 1.15, 1.19, 1.21, 1.31, 2.1, 2.4, 2.8, 2.9, 2.15, 2.16, 2.17, 2.18, 2.23
    # (1.5 and 1.15 in that alone; the sums' upper limits n lost into the radical's pieces in 2.1, 2.4, 2.23).
    # Sized delimiters: \bigl\{ ... \bigr\} served as "] ... [" (1.12, 1.13, in that alone); \bigl( ... \bigr) and
    # \Bigl( ... \Bigr) with the left one lost and the right one as "\{" (1.14, 1.28, 1.30, 1.31, 2.7, 2.8, 2.20,
    # 2.28, 2.29) or both lost (2.4, 2.12, 2.21); \Bigl\{ ... \Bigr\} as "n ... o" (1.24, 1.30; in 1.24 the inner
    # \min's limits moved in front of it); \bigl[ ... \bigr] as "\} ... (" (2.3, 2.29).  The cases brace of the
    # warehouse's choice (2.17) lost, "s_{0}^{*} =" moved into the second row as "s _ 0 = (" and a "*" left in
    # front.  \widehat{\operatorname{cov}} (2.10, 2.11) served as "cov^{d}" (the wide hat now /d), and in 2.11 the
    # denominator's \hat{\sigma}_{i} \hat{\sigma}_{k} as "\sigma i \sigma k".  The double sums under a root (2.15)
    # and a double sum over \mathcal{S}(j) (2.25) with their lower limits read in front of the operators.  The
    # align's first row (2.19) served with "_ n" twice, the upper limits of the second row's two sums (2.20, served
    # without them)
    # Now read from what the re-written PDF still carries: the WinAnsi-encoded subset of an extension font keeps
    # the glyphs at their own codes (txexs's display sum at 0xD5, its radicals at 0x70-0x76), read in TeX's
    # extension layout and txexs's above 127 (tests/eval/txexs_layout.py); the subset numbered from 0 keeps its
    # glyphs' names in its program's own encoding ("parenleftbig"), which outrank its map's control codes and
    # U+FFFD.  98.4 % exact (60 of 61), 0.999: left, 2.11's denominator \hat{\sigma}_{i} \hat{\sigma}_{k}, joined into
    # one word with its hats and scripts and served as "\sigma i \sigma k".
    # the eighty-seventh body (body-ci.tex, a textbook's chapter on queueing approximations at a bottled-gas
    # distributor's order desk and filling line (Poisson arrivals, Little's law as three limits inside a theorem, the
    # single clerk's balance equations, a geometric law in an array piecewise definition, its generating function in
    # an eqnarray* and its moments with \left. ... \right|_{z=1} bars, rows with \nonumber, a service level inside a
    # definition with \Longleftrightarrow, birth and death as \prod_{k=1}^{n} {\lambda_{k-1} \over \mu_{k}}, the
    # Erlang C formula with \sum_{k=0}^{c-1} {(\lambda/\mu)^{k} \over k!} and \displaystyle in a fraction of
    # fractions, Erlang B and its recursion, a \tag{ASA} and a \tag{B$'$}, the algorithm float's numbered update, the
    # example float, square-root staffing with \lim_{a \to \infty}, a side note's display, a table float with a
    # numbered display after its tabular) and one on service levels for stock seen through queues (Palm's theorem
    # with \lim_{t \to \infty}, ready rate and backorders in a three-row eqnarray, Erlang's loss for lost sales,
    # a finite pool with {N \choose n} in an array piecewise law, Engset's formula with {N - 1 \choose s}, the
    # binomial's Poisson limit, a \prod of binomial factors, Pollaczek-Khinchine with a transform and a derivative
    # bar, Kingman and Allen-Cunneen with \approx, a \tag{$\ast$}, traffic equations with \vect{\lambda} and
    # (\mathbf{I} - \mathbf{R}^{\top})^{-1}, Jackson's product form, a second example float), written the way older
    # textbooks write LaTeX: eqnarray with &=&, plain-TeX {a \over b} and {n \choose k}; tufte-ci, and berenis-ci,
    # the standard book class at 11pt under XeLaTeX with the Berenis ADF Pro text fonts and unicode-math: the brief's
    # "OpenType maths font" Berenis ADF Pro Math has no MATH table, so TeX Gyre Pagella Math sets the maths with
    # Berenis ADF Pro Math's upright letters, Greek and digits and the Berenis text italic's letters taken by
    # range= (setup-berenis-ci.tex), equations numbered by chapter, (2.7)): 26.5 % and 25.0 % exact (18 and 17 of
    # 68), mean similarity 0.950 and 0.949 when first measured, nothing missing or empty, all 68 numbers read alike
    # by LaTeX and the judge (each eqnarray row its own number, the \nonumber rows none, the three \tag'ged displays
    # counted apart; the algorithm's 1.30, the example's 1.31-1.32, the side note's 1.36, the table's 1.38).  Most of
    # the loss is the judge's: formula_score.py keeps a plain-TeX {a \over b} as the tokens "a \over b" and
    # {n \choose k} as "n \choose k", while the builder serves the \frac and \binom that print the same, so that 47
    # formulas under each set-up (1.1, 1.3-1.5, 1.7, 1.11-1.15, 1.17-1.18, 1.20-1.25, 1.27-1.29, 1.31-1.32, 1.34-1.37,
    # 2.1-2.3, 2.6-2.7, 2.9, 2.11-2.14, 2.18-2.23, 2.26-2.28, 2.30) and 2.10 ({N \choose n} alone) differ in that
    # alone or in part.  With the source's \over and \choose written as \frac and \binom (a copy, not committed,
    # scored against the same served formulas) they are 94.1 % and 91.2 % exact, similarity 0.997 and 0.996.  What
    # is left: the evaluation bars' opening \left. dropped where the bar closes a fraction or a parenthesis
    # (1.12, whose two bars both lost the "."; 2.16 "\left. G'(z) \right|_{z=1}" served as "G'(z) |_{z=1}"; and
    # under berenis-ci 2.17's "\left. \left( ... \right) \right|_{z=1}" as "( ... ) |_{z=1}"), while 1.13's bar
    # was read with its "."; the algorithm's \gets served as \leftarrow (1.30), which prints the same; the
    # network's \vect{1}^{\top} (2.28) served as \mathbf{1}^{\top}, which the judge reads as a plain 1 in the
    # source (as the class's \vect{0} elsewhere); and under berenis-ci the finite pool's array law (2.11), whose
    # first row's exponent n of \left( {\gamma \over \mu} \right)^{n} was served at the end of the display,
    # after two empty delimiters, ". . ^ n"
    # the eighty-ninth body (body-ck.tex, a textbook's chapter on two-stage stochastic programmes for capacity and
    # stock (the recourse problem as "\min_{\vect{y}} \quad & \vect{q}^\top \vect{y} \\ \text{s.t.} \quad & ..." in an
    # aligned beside "Q(\vect{x}, \xi) =", \mathbb{E}_{\xi}, scenario sums \sum_{\omega \in \Omega} p_{\omega}
    # Q(\vect{x}, \xi_{\omega}), the extensive form in subequations, a block-angular bmatrix with \vdots and \ddots,
    # \operatorname*{argmin}, \mathbf{1}, EEV in a gather, a table float, a split under a root) and one on chance
    # constraints, duality and decomposition (\Pr\{ ... \} \geq 1 - \alpha, Boole's bound with \bigcup, big-M rows in
    # subequations, a value at risk as an \inf, \mathcal{L} Lagrangians, KKT conditions with \vect{\lambda}^{*} in a
    # gather, \min \sup = \max \inf, optimality cuts, the L-shaped method's two displays in the algorithm float, CVaR
    # and a robust \sup), for a maker of packaged ice cream, with \vect, two example floats; tufte-ck, and
    # tagged-ck, a tagged PDF (\DocumentMetadata{testphase=phase-II, pdfversion=1.7}, the standard article class
    # at 11pt with lmodern, under LuaLaTeX: pdfLaTeX's tagging stopped on this body with "required tag missing";
    # a structure tree and BDC ... EMC marked content around every paragraph's text, displays included), which
    # no set-up did before): 78.3 % exact under both (47 of 60), mean similarity 0.989 under both when first
    # measured, nothing missing or empty, all 60 numbers read alike by LaTeX and the judge (the tagged set-up
    # numbered by section at first, \let\chapter\section, which the judge does not follow, was re-set as
    # ncmbook-bu does before the score was taken).  The same 13 formulas differ under both, so the marked content
    # cost nothing.  Ten differ by \vect{0} alone or with others: the class prints it bold, the builder serves
    # \mathbf{0} and the judge reads \vect{0} as a plain 0 (1.1, 1.3, 1.6b, 1.9, 2.9, 2.11, 2.14, 2.16, 2.19, 2.26;
    # 0.957-0.993).  Two are the recourse problems written "Q(\vect{x}, \xi) = \begin{aligned} \min_{\vect{y}} \quad
    # & ... \\ \text{s.t.} \quad & ... \end{aligned}" (1.2, 0.773) and "Q(x, D) = \begin{aligned} \min_{y, w} ...
    # \end{aligned}" (1.10, 0.811): the builder serves the aligned block's first row, "\min_{y} q^T y", in front of
    # the left-hand side "Q(x, \xi) =", which TeX centres between the rows, and the rest after it (1.2 also has a
    # \vect{0}).  One is \gets in the algorithm float (2.21, 0.973), served as \leftarrow, the same arrow, which the
    # judge keeps apart
    # the ninetieth body (body-cl.tex, a textbook's chapter on stocking a warehouse that holds many products on one
    # floor of limited volume as a Markov decision process (stock dynamics "\bigl( ... \bigr)^{+}, \quad \text{for
    # all } t \in \{1, \dots, T\},", a capacity and a budget on one row with \qquad, a stage cost in an align with a
    # \notag row, \mathbf{1}\{\vect{u} \neq \vect{0}\} and \max\{0, ...\}, Poisson and normal demand with
    # e^{-\frac{(z - \mu_{i})^{2}}{2 \sigma_{i}^{2}}}, \Pr( . \mid . ), a median with d_{i,(\frac{N}{2})} and \tfrac,
    # \mathbb{E}^{\pi} \!\left[ ... \;\middle|\; ... \right], Bellman's equation in an aligned inside an equation,
    # a terminal value in cases, \operatorname*{arg\,max}_{a \in \mathcal{A}(s)}, a state count with \dfrac under
    # \biggl\lfloor ... \biggr\rfloor, \left[ S_{t} - x \right]^{+} and \underset{y \geq 0}{\operatorname{argmin}}
    # inside a theorem, a definition, a Lagrangian price for the floor, its slackness in a gathered, a table float,
    # Scarf's rule with nested radicals, an example float with a bmatrix of fractions) and one on approximate
    # dynamic programming for it (the post-decision state, separable piecewise-linear values with \bar{v}_{t,i}^{k},
    # a linear programme in an align broken by an \intertext, sampled slopes \hat{\vartheta}_{t,i}^{n}, step sizes,
    # a projection in cases, the algorithm float's two displays, a second example float, features as a transposed
    # bmatrix row of fractions, least squares with \lVert ... \rVert_{2}^{2}, recursive least squares in an align,
    # temporal differences, the approximate linear programme in an aligned, its sampled violations under a two-row
    # \substack with \left[ ... \right]^{+}, a bound inside a theorem, Boltzmann exploration, a Monte Carlo interval
    # and a service rate with a \mathbf{1}_{\{ ... \}} indicator), for a wholesaler of paints and varnishes, with
    # \vect; tufte-cl, and garamondmath-cl, KOMA's scrbook at 11pt under LuaLaTeX with EB Garamond text and
    # unicode-math's Garamond-Math, which only garamond-f had set before, under XeLaTeX in memoir): 91.7 % exact
    # under the class (55 of 60), 88.3 % under garamondmath-cl (53), mean similarity 0.996 and 0.994 when first
    # measured, nothing missing or empty, all 60 numbers read alike by LaTeX and the judge.  Five formulas differ
    # under both, each by a spelling that prints the same: a prime after a subscript, x_{i}' and \ell_{i}'(y_{i}),
    # served x'_{i} and \ell'_{i} (1.7, 1.21; 0.977, 0.981); \underset{y \geq 0}{\operatorname{argmin}} and
    # \underset{\vect{\theta}}{\operatorname{argmin}} served as \operatorname*{arg\,min}_{...}, which sets the limit
    # under the name as \underset does (1.16, 2.19; 0.897, 0.942); \vect{0} served as \mathbf{0}, which the judge
    # reads as a plain 0 (2.3, 0.990).  Under garamondmath-cl two more are misread: the normal density's exponent
    # (1.6), e^{-\frac{(z - \mu_{i})^{2}}{2 \sigma_{i}^{2}}}, served "\frac{(z-\mu_{i})^{2}}{2\sigma^{2}}_{i}", the
    # denominator's \sigma losing its subscript to the fraction (0.941); and the features' row (2.18), whose
    # \frac{\vect{v}^{\top} \vect{y}}{V} (twice) is served "\frac{\mathbf{v}\mathbf{y}}{V}^{\top}", the numerator's
    # transpose read as the fraction's superscript (0.918)
    # the ninety-first body (body-cm.tex, a textbook's chapter on perishable stock, platelets in a blood bank, as a
    # vector of ages (a transposed pmatrix row, \overset{\text{def}}{=}, \underbrace{...}_{\text{issued}}, FIFO and
    # LIFO issuing with nested ( . )^{+}, a shift matrix with \vdots and \ddots, a partitioned matrix in an array
    # {c|c} with \hline, cases with \text{otherwise}, decay as \prod_{j=1}^{a-1}, binomial spoilage, a thinning
    # matrix, a transition law under a two-row \substack, balance equations in \left\{ \begin{aligned} ... \end{aligned}
    # \right., double sums, a double integral, a multline, \lim_{n \to \infty} with \Biggl[ ... \Biggr], a table
    # float, negative binomial requests with \binom, an example float with a bmatrix of fractions and a side note)
    # and one on policies for it (base stock, a subequations group (2.3a-c) with \lfloor ... \rfloor^{+}, a
    # continued fraction with \cfrac and a fraction three deep, a geometric mean under \sqrt[n]{...}, \sup and \inf
    # over \mathfrak sets, a split, a definition, an alignat linear programme, block matrices with zero blocks, a
    # gather, least squares with \langle ... \rangle, a Frobenius distance \lVert ... \rVert_{F}, \overbrace, the
    # algorithm float's two displays, a double sum over two banks' demands and a second example float), with
    # \vect; tufte-cm, and fdsymbol-cm, the standard report class at 11pt with leqno under pdfLaTeX, Latin Modern
    # with fdsymbol's symbols, big operators and delimiters, which no set-up had before): 86.9 % exact under the
    # class (53 of 61), 83.6 % under fdsymbol-cm (51), mean similarity 0.997 and 0.976 when first measured,
    # nothing missing or empty, all 61 numbers read alike by LaTeX and the judge.  Eight formulas differ under
    # both by spellings that print the same: \vect{1} and \vect{0}, served \mathbf{1} and \mathbf{0}, which the
    # judge reads as plain digits (1.18, 2.1, 2.10, 2.14, 2.23, 2.26); \Biggl[ ... \Biggr] served bare (1.22,
    # 0.980); a prime after a subscript, \theta_{i,a}', served \theta'_{i,a} (2.18, 0.982).  Under the class one
    # of them is misread too: the side note beside 1.18 ends in "$135\,751$.", and its last line is glued to the display
    # as "^{135751.}" (0.940).  Under fdsymbol-cm two: fdsymbol's brace pieces are not joined into a brace, so
    # \underbrace (1.3, 0.331) and \overbrace (2.20, 0.321) are served as rows of their glyphs (Í Ò Ñ Ï, Ì Ò Ð Î)
    # in an aligned beside the formula, the labels as scripts of a piece, and 1.3's D_{t} and \bar{X}_{t} lose
    # their subscripts to the pieces
    # the ninety-second body (body-cn.tex, a textbook's chapter on stock that cannot be counted (a belief over a
    # bin's level on the simplex, its prediction through sales and binomial shrinkage with the monus \mathbin{\dot{-}},
    # Bayes' update b'(s') \propto O(o \mid a, s') \sum_{s} T(s' \mid s, a) b(s) and its normalized form, nested
    # \mathbb{E}_{s' \sim T(\cdot \mid s, a)}, censored sales in cases with \text{if }, an empty-bin report in \left\{
    # \begin{aligned} ... \end{aligned} \right. beside a side note, an example float with pmatrix columns of fractions,
    # an audit's likelihood through \Phi, the information gain, \Pr\left( ... \middle| ... \right), a table float, particles,
    # a Kalman filter with the normal density written out, \mat gains with inverses and transposes, a split of the
    # likelihood with \det and \operatorname{tr}, an algorithm float with \leftarrow) and one on reordering without a count
    # (a definition, the belief-state Bellman equation, \operatorname*{arg\,max}, alpha vectors in a split, pruning,
    # QMDP, the fast informed bound, blind vectors, point-based backups and a theorem on their error, a second algorithm
    # float, a threshold rule with \lceil ... \rceil, stochastic dominance under \mathrel, forward search, Hoeffding's
    # bound, a second example float), with \vect and \mat; tufte-cn, and boisik-cn, the standard book class at 11pt
    # under pdfLaTeX with boisik's Baskerville-like text and maths, Metafont fonts pdfTeX embeds as Type 3 bitmaps with
    # no font names, glyphs named /a<code> and no ToUnicode, which no set-up had before): 85.0 % exact under the class
    # (51 of 60), mean similarity 0.997; 0.0 % under boisik-cn, 0.653: every code is read as the character it would
    # be in ASCII (\sum as X, | as j, minus as x, \in as 2, \{ \} as f g, a prime as ^{0}, commas as ;), the Greek
    # letters below code 32 dropped, big operators and delimiters' pieces (8 < > of a brace, B @ A C of parentheses)
    # served as letters; nothing missing or empty under either.  Under the class eight formulas differ by spellings
    # that print the same: \vect{0} and \vect{1} (1.2, 1.29, 2.8), \mathbin{\dot{-}} and \mathrel{\succeq_{\mathrm{st}}}
    # served bare (1.4, 1.5, 2.23), \middle| served | (1.18), a prime after a subscript (1.27); one is misread: in the
    # point-based algorithm float the previous line's last words "and $s$" are glued before the display (2.19, 0.938)
    # the ninety-third body (body-co.tex, a textbook's chapter on estimating a stocking policy's cost by simulation
    # (Monte Carlo means \hat{\mu}_{n} and the sample variance with \frac{1}{n} \sum_{i=1}^{n} inside \left( ... \right)^{2},
    # \xrightarrow{\text{a.s.}} and \xrightarrow{\;d\;} in an aligned with \quad\text{and}\quad, the interval with
    # z_{1 - \alpha/2} \sqrt{\frac{\hat{\sigma}_{n}^{2}}{n}}, \lfloor ... \rfloor, a stockout frequency with \mathbf{1}\{ ... \} and
    # \stackrel{\text{iid}}{\sim}, Chebyshev's bound as an align of \leq chains, a quantile in cases, bootstrap intervals with
    # \widehat{\operatorname{Var}}, importance sampling with \frac{p(x \mid \theta)}{q(x)} and \prod_{t=1}^{T}, control
    # variates with a bmatrix covariance and \operatorname{Cov}, antithetic pairs under \overset{d}{=}, common random numbers,
    # a table float and an example float) and one on learning a stock level from samples (sample average approximation of
    # a newsvendor, its quantile in cases, an align of its bias, Robbins-Monro and Kiefer-Wolfowitz iterations with their
    # step-size sums inside a theorem, averaging, policy gradients with \nabla_{\vect{\theta}} \log \pi_{\vect{\theta}}(a_{t}
    # \mid s_{t}) inside a definition, REINFORCE with a baseline, an algorithm float with \leftarrow and one \gets, a
    # uniform bound), with \vect and \mat; tufte-co, and mathpple-co, the standard book class at 11pt under pdfLaTeX with
    # psnfss's palatino text and mathpple's maths, Palatino's letters and Euler's Greek slanted over Computer Modern's symbols,
    # which no set-up had before): 85.5 % exact under the class (53 of 62), mean similarity 0.997; 83.9 % under mathpple-co
    # (52 of 62), 0.997; nothing missing or empty under either.  Under both by spellings that print the same:
    # \stackrel{\text{iid}}{\sim} served \overset{\operatorname{iid}}{\sim} (1.7, 1.13, 1.18), \;\big|\; served \bigm| (1.16),
    # \vect{1} and \vect{0} (1.30, 2.21), a prime after a subscript (2.7); under mathpple-co \varsigma served \sigma, the
    # glyph mathpple prints for both (2.16, 2.19, 2.25).  Under the class two are misread: \xrightarrow{\text{a.s.}}, whose
    # short note leaves it one minus and a head, as \longrightarrow is, served \overset{\text{a.s.}}{\longrightarrow }
    # (1.4, 0.961; 2.4, 0.969); mathpple-co reads both exactly
    # the ninety-fourth body (body-cp.tex, a textbook's chapter on lot sizing over a horizon (the uncapacitated programme
    # as an array with \min and \text{s.t.} rows, \quad \forall t \in \{1, \dots, T\}, big-M terms M y_{t}, \mathbb{Z}_{+} and
    # \in \{0, 1\}, a set-up indicator in cases, the zero-inventory property inside a theorem, a run's cost as \sum_{\tau = j+1}^{t}
    # \sum_{k=\tau+1}^{t} h_{\tau} d_{k}, Wagner and Whitin's recursion under \min_{0 \leq j < t} \Bigl\{ ... \Bigr\},
    # \operatorname*{arg\,min}, \mathcal{O}(T^{2}), an algorithm float with \leftarrow, Silver-Meal and part-period rules, a
    # periodic order quantity with \lfloor ... \rfloor and \lceil ... \rceil, a table float, rolling horizons in a subequations
    # group with \underline{I} and \bigl( ... \bigr)^{+}, an example float) and one on capacity and several levels (the capacitated
    # programme as a numbered alignat, its LP relaxation with \vect{0} \leq \vect{y} \leq \vect{1}, \overline{z} and \underline{z},
    # (l, S) inequalities inside a theorem, a set-up count under \Biggl\lceil ... \Biggr\rceil, relax-and-fix in cases, a
    # Lagrangian relaxation, MRP netting with a pmatrix product structure, (\mat{I} - \mat{A})^{-1} and \substack, echelon
    # stock inside a definition, the economic lot scheduling problem with a common cycle, power-of-two cycles), with \vect
    # and \mat; tufte-cp, and kerkis-cp, KOMA's scrreprt at 11pt under pdfLaTeX with Kerkis, a Bookman-like face, and
    # kmath's Kerkis maths letters over txfonts' symbols, which no set-up had before): 90.2 % exact under the class (55 of
    # 61), mean similarity 0.988; 86.9 % under kerkis-cp (53 of 61), 0.996; nothing missing or empty under either.  Under
    # both by spellings that print the same or the judge's reading: \vect{0}, \vect{1} and \mat{0} served \mathbf{0} and
    # \mathbf{1} (2.7, 2.15, 2.24), and relax-and-fix's second row, which the judge reads as \\[ 0, 1 ]'s optional space and
    # drops (2.12, served {[}0, 1] as printed); under kerkis-cp the array's column specification (1.2).  Misread: under
    # both the set-up count's \Biggl\lceil ... \Biggr\rceil served \lceil ... \rceil (2.11, 0.978); under the class the
    # uncapacitated programme's array served as its one row beside the number (1.2, 0.416); under kerkis-cp \epsilon
    # served ϸ (2.8, 0.966) and \max_{j : a_{ji} > 0} L_{j}^{\mathrm{cum}} served L^{\operatorname*{cum}_{j}} (2.21, 0.961).
    # Now 90.2 %, 0.997 and 88.5 %, 0.997: an array's row set further above than rows stand joins its block when its
    # columns line up with the block's top row's (1.2, 0.987), and a word in a script's size takes no limits (2.21)
    # the ninety-fifth body (body-cq.tex, a textbook's chapter on spares for repairable units at one depot (Palm's theorem
    # with \frac{m^{x} e^{-m}}{x!}, \operatorname{EBO}(s) and \operatorname{VBO}(s) as sums \sum_{x = s + 1}^{\infty} (x - s) \, p(x), fill and
    # ready rates as \mathbb{P}\{ X \leq s - 1 \}, a normal loss with \approx, \partial derivatives in the pipeline mean, a
    # gamma mixture \int_{0}^{\infty} \frac{\lambda^{x} e^{-\lambda}}{x!} g(\lambda) \, \mathrm{d}\lambda and the negative binomial with \binom,
    # availability as \prod_{i=1}^{I} \Bigl( 1 - \frac{\operatorname{EBO}_{i}(s_{i})}{N Z_{i}} \Bigr)^{Z_{i}}, its logarithm in a split
    # and \simeq, \inf and \sup over budgets, greedy ratios \frac{\Delta_{i}(s_{i})}{c_{i}} under \operatorname*{arg\,max}, an
    # algorithm float with \leftarrow, a table float, a convexity theorem, an example float) and one on a workshop feeding
    # several depots (a bmatrix of failure rates, an align of the workshop's delay \mathbb{E}[D_{0}] and the depots' METRIC
    # pipelines, nested \sum_{j=1}^{J} in fractions, the depots' variance in a multline and its variance-to-mean ratio, a
    # fitted negative binomial, \left\lfloor ... \right\rfloor, a subequations group over two levels, a transshipment rule
    # in cases, pooling with \Pr, integer convexity inside a definition, the greedy rule's optimality and gap inside a
    # theorem, a Lagrangian bound under \sup_{\mu \geq 0}, an example float), with \vect and \mat; tufte-cq, and
    # baskervaldx-cq, the standard book class at 11pt under pdfLaTeX with Baskervaldx's text and newtxmath's baskervaldx
    # maths, which no set-up had before): 100.0 % exact under both (60 of 60), mean similarity 1.000; nothing missing or
    # empty, no formula inexact
    # the eighty-eighth body (body-cj.tex, a textbook's chapter on continuous review in continuous time (the net
    # stock as \int_{0}^{t} \mathrm{d}R(s) - \int_{0}^{t} \lambda(s) \, \mathrm{d}s with \Lambda(t), N(t)^{+} and N(t)^{-},
    # a long-run average as a \lim of \mathbb{E}[C_{T}], compound Poisson lead-time demand and its Laplace transform
    # inside \exp\Bigl( ... \Bigr), moments from an evaluation bar, a Gamma lead time with \Gamma(\alpha), a mixture
    # integral, a variance split into two \underbrace terms, the (r, Q) policy's double integrals in an align, its
    # partial derivatives in a split, joint convexity inside a theorem, \Psi(z) and \Phi(z), the lot and the reorder
    # point in a gather, \xrightarrow{\text{round up}} in an example float, discounting as a transform, ageing in a
    # multline, the Bromwich integral with \mathrm{i}, a definition) and one on several items reviewed together (a
    # vector diffusion with \boldsymbol{\mu} and \vect{\Sigma}, a 3x3 covariance pmatrix, the SDE with \mathrm{d}\vect{y},
    # inner products, \lVert ... \rVert and \operatorname{tr}, the generator with \nabla and \partial, boundary
    # conditions as an aligned inside \left\{ ... \right., \iint and \oint, a lower bound inside a theorem, joint
    # replenishment with \operatorname{diag}, a side note, a Lagrangian with \Phi^{-1}, a limit under
    # \xrightarrow{\; \lambda \to \infty \;}, a characteristic function, a second example float with pmatrix columns,
    # a Hamiltonian in a gather and a 2x2 linear system with \det), for a supplier of hydraulic spare parts to mines, in
    # European engineering notation, with \vect; tufte-cj, and iso-cj, KOMA's scrbook at 11pt under LuaLaTeX with
    # Libertinus Serif and Libertinus Math by unicode-math in ISO style (math-style=ISO, bold-style=ISO: Greek
    # capitals italic, bold Latin bold italic; \mathbf made \symbf by mathbf=sym, \boldsymbol \let to \symbf),
    # equations numbered by chapter, (2.7)): 81.5 % and 64.6 % exact (53 and 42 of 65), mean similarity 0.979 and
    # 0.959 when first measured, one missing under the class, nothing empty, the 65 numbers read alike by LaTeX and the
    # judge.  (A run before, of a body whose \mathbf{\Sigma} printed nothing under the class's mathpazo \mathbf, read
    # 75.4 % and 64.6 %: the body now writes \vect{\Sigma}.)  Under both: the evaluation bar (1.10),
    # (-1)^{n} \left. \frac{...}{...} \right|_{s = 0}, served with the invisible \left. before (-1)^{n}; \boldsymbol{\mu},
    # \boldsymbol{\lambda} and \boldsymbol{\omega} served as \bm (2.1, 2.3, 2.4, 2.5, 2.7, 2.17, 2.23, 2.24, 2.26), the
    # same print, the spelling the fourth and eighth bodies met; \vect{0} (2.22) served as \mathbf{0}, which is what
    # \vect prints, the judge keeping a digit under \vect plain.  Missing under the class alone: the first display of
    # the example float (1.24), too wide for the shaded box, set across into the margin with its number (1.24) on a
    # line of its own below it.  Under iso-cj: every bold Latin letter (\mathbf, \vect), bold italic in ISO style,
    # served as \bm (2.1, 2.3-2.7, 2.10, 2.11, 2.14, 2.15, 2.17-2.19, 2.21-2.24, 2.26, 2.31), and \vect{\Sigma}, bold
    # upright, served as \mathbf{\Sigma} (2.1, 2.2, 2.4-2.8, 2.21), the judge's \vect of a Greek capital reading \bm;
    # the evaluation bar (1.10) broken, its fraction lost: "d ^ n \tilde f" moved in front of the formula, the rule an
    # overline over the denominator and the bar as a "|" after (-1)^{n}; \xrightarrow{\text{round up}} (1.25) served
    # as \longrightarrow, its label lost.
    exact, similar = (0.55, 0.97) if name in FOURTH_BODY else (0.65, 0.97) if name in SIXTH_BODY else \
        (0.80, 0.98) if name in SEVENTH_BODY else (0.40, 0.94) if name in EIGHTH_BODY else \
        (0.65, 0.98) if name in NINTH_BODY else (0.55, 0.97) if name in TENTH_BODY else \
        (0.60, 0.95) if name in ELEVENTH_BODY else (0.25, 0.92) if name == "arev-l" else \
        (0.80, 0.99) if name in TWELFTH_BODY else (0.80, 0.99) if name == "concrete-m" else \
        (0.85, 0.99) if name in THIRTEENTH_BODY else \
        (0.80, 0.98) if name == "asana-n" else (0.90, 0.99) if name in FOURTEENTH_BODY else \
        (0.70, 0.98) if name == "kpotf-o" else (0.85, 0.99) if name in FIFTEENTH_BODY else \
        (0.70, 0.98) if name == "neohellenic-p" else (0.85, 0.99) if name in SIXTEENTH_BODY else \
        (0.50, 0.955) if name == "eulermath-q" else (0.70, 0.97) if name in SEVENTEENTH_BODY else \
        (0.75, 0.98) if name == "xcharter-r" else (0.85, 0.99) if name in EIGHTEENTH_BODY else \
        (0.95, 0.99) if name in NINETEENTH_BODY else (0.80, 0.97) if name in TWENTIETH_BODY else \
        (0.95, 0.995) if name in TWENTY_FIRST_BODY else (0.78, 0.965) if name == "kpsans-v" else \
        (0.90, 0.995) if name in TWENTY_SECOND_BODY + TWENTY_THIRD_BODY else \
        (0.95, 0.995) if name in TWENTY_FOURTH_BODY else (0.90, 0.99) if name in TWENTY_FIFTH_BODY else \
        (0.98, 0.995) if name in TWENTY_SIXTH_BODY else (0.85, 0.99) if name in TWENTY_SEVENTH_BODY else \
        (0.90, 0.995) if name in TWENTY_EIGHTH_BODY + TWENTY_NINTH_BODY else (0.90, 0.99) if name in THIRTIETH_BODY else \
        (0.95, 0.995) if name in THIRTY_FIRST_BODY + THIRTY_SECOND_BODY else \
        (0.85, 0.99) if name in THIRTY_THIRD_BODY else (0.85, 0.985) if name in THIRTY_FOURTH_BODY else \
        (0.85, 0.99) if name == "mathastext-ai" else (0.85, 0.985) if name in THIRTY_FIFTH_BODY else \
        (0.90, 0.985) if name in THIRTY_SIXTH_BODY else \
        (0.90, 0.985) if name == "acmart-ak" else (0.90, 0.99) if name in THIRTY_SEVENTH_BODY else \
        (0.90, 0.98) if name == "tufte-al" else (0.90, 0.98) if name == "ieee-al" else \
        (0.90, 0.99) if name in THIRTY_NINTH_BODY else \
        (0.93, 0.995) if name in FORTIETH_BODY else (0.92, 0.995) if name in FORTY_FIRST_BODY else \
        (0.92, 0.995) if name in FORTY_SECOND_BODY else (0.80, 0.985) if name in FORTY_THIRD_BODY else \
        (0.85, 0.98) if name in FORTY_FOURTH_BODY else \
        (0.82, 0.98) if name == "tufte-as" else (0.80, 0.98) if name == "concrete-as" else \
        (0.93, 0.99) if name == "tufte-at" else (0.95, 0.99) if name == "jmlr-at" else \
        (0.87, 0.99) if name == "tufte-au" else (0.83, 0.99) if name == "baskerville-au" else \
        (0.97, 0.995) if name == "tufte-av" else (0.97, 0.995) if name == "aastex-av" else \
        (0.90, 0.99) if name == "tufte-aw" else (0.89, 0.99) if name == "newtxsf-aw" else \
        (0.98, 0.995) if name in FIFTIETH_BODY else \
        (0.98, 0.995) if name in FIFTY_FIRST_BODY else \
        (0.98, 0.995) if name in FIFTY_SECOND_BODY else \
        (0.96, 0.99) if name == "tufte-ba" else (0.95, 0.99) if name == "achemso-ba" else \
        (0.94, 0.995) if name == "tufte-bb" else (0.96, 0.995) if name == "memoir-bb" else \
        (0.96, 0.99) if name == "tufte-bc" else (0.98, 0.99) if name == "onehalf-bc" else \
        (0.94, 0.995) if name == "tufte-bd" else (0.94, 0.995) if name == "amsproc-bd" else \
        (0.93, 0.99) if name == "tufte-be" else (0.93, 0.99) if name == "aomart-be" else \
        (0.92, 0.99) if name == "tufte-bf" else (0.92, 0.99) if name == "ncmreg-bf" else \
        (0.98, 0.995) if name == "tufte-bg" else (0.91, 0.985) if name == "sansmath-bg" else \
        (0.93, 0.99) if name == "tufte-bh" else (0.92, 0.99) if name == "gfsdidot-bh" else \
        (0.97, 0.995) if name == "tufte-bi" else (0.95, 0.995) if name == "kplight-bi" else \
        (0.89, 0.995) if name == "tufte-bj" else (0.89, 0.995) if name == "lmart-bj" else \
        (0.96, 0.995) if name == "tufte-bk" else (0.96, 0.995) if name == "xchartertx-bk" else \
        (0.98, 0.995) if name == "tufte-bl" else (0.98, 0.995) if name == "cmreport-bl" else \
        (0.86, 0.98) if name == "tufte-bl" else (0.85, 0.97) if name == "cmreport-bl" else \
        (0.52, 0.965) if name == "tufte-bm" else (0.85, 0.99) if name == "stickstoo-bm" else \
        (0.92, 0.985) if name == "tufte-bn" else (0.89, 0.99) if name == "scrbook-bn" else \
        (0.98, 0.995) if name == "tufte-bo" else (0.68, 0.95) if name == "leqno-bo" else \
        (0.88, 0.99) if name == "tufte-bp" else (0.87, 0.99) if name == "dvipsgs-bp" else \
        (0.81, 0.99) if name == "tufte-bq" else (0.76, 0.975) if name == "kaobook-bq" else \
        (0.93, 0.985) if name == "tufte-br" else (0.93, 0.985) if name == "elegant-br" else \
        (0.91, 0.98) if name == "tufte-bs" else (0.86, 0.99) if name == "stixmath-bs" else \
        (0.92, 0.995) if name == "tufte-bt" else (0.91, 0.985) if name == "octavo-bt" else \
        (0.70, 0.98) if name == "tufte-bu" else (0.70, 0.98) if name == "ncmbook-bu" else \
        (0.96, 0.995) if name == "tufte-bv" else (0.73, 0.985) if name == "eulerlua-bv" else \
        (0.92, 0.995) if name == "tufte-bw" else (0.88, 0.995) if name == "eulerpx-bw" else \
        (0.95, 0.985) if name == "tufte-bx" else (0.91, 0.995) if name == "mdutopia-bx" else \
        (1.00, 1.000) if name == "tufte-by" else (1.00, 1.000) if name == "tuftexe-by" else \
        (0.96, 0.995) if name == "tufte-bz" else (0.96, 0.995) if name == "fourierps-bz" else \
        (1.00, 1.000) if name == "tufte-ca" else (0.98, 0.995) if name == "amspazo-ca" else \
        (0.93, 0.995) if name == "tufte-cb" else (0.95, 0.995) if name == "libertinetx-cb" else \
        (1.00, 1.000) if name == "tufte-cc" else (0.95, 0.995) if name == "kurierext-cc" else \
        (0.94, 0.980) if name == "tufte-cd" else (0.96, 0.995) if name == "notofleqn-cd" else \
        (0.70, 0.965) if name == "tufte-ce" else (0.74, 0.975) if name == "artemisia-ce" else \
        (0.94, 0.995) if name == "tufte-cf" else (0.92, 0.995) if name == "mathabx-cf" else \
        (0.98, 0.995) if name == "tufte-cg" else (0.98, 0.995) if name == "ebgaramond-cg" else \
        (1.00, 1.000) if name == "tufte-ch" else (0.98, 0.995) if name == "cairo-ch" else \
        (0.26, 0.945) if name == "tufte-ci" else (0.25, 0.945) if name == "berenis-ci" else \
        (0.78, 0.985) if name == "tufte-ck" else (0.78, 0.985) if name == "tagged-ck" else \
        (0.91, 0.995) if name == "tufte-cl" else (0.88, 0.990) if name == "garamondmath-cl" else \
        (0.86, 0.995) if name == "tufte-cm" else (0.83, 0.975) if name == "fdsymbol-cm" else \
        (0.85, 0.995) if name == "tufte-cn" else (0.00, 0.64) if name == "boisik-cn" else \
        (0.85, 0.995) if name == "tufte-co" else (0.83, 0.995) if name == "mathpple-co" else \
        (0.90, 0.995) if name == "tufte-cp" else (0.88, 0.995) if name == "kerkis-cp" else \
        (1.00, 1.000) if name == "tufte-cq" else (1.00, 1.000) if name == "baskervaldx-cq" else \
        (0.81, 0.975) if name == "tufte-cj" else (0.64, 0.955) if name == "iso-cj" else \
        (0.75, 0.98)
    assert result["exact"] >= exact, (name, result["exact"], wrong)
    assert result["similarity"] >= similar, (name, result["similarity"], wrong)


@pytest.mark.parametrize("name", sorted(REWRITTEN))
def test_a_pdf_rewritten_by_ghostscript_reads_as_the_pdf_it_rewrote(corpus, name):
    """Ghostscript's pdfwrite re-writes the fonts with ToUnicode maps of its own making, which for maths
    fonts contradict the glyph names the fonts keep: 𝐴 read "ý", ≤ "f", Γ a control code, π and σ both
    "Ã" (1.4 % of the first body's formulas exact when first read so).  The names, each candidate's
    advance and outline read them back: every formula as the PDF before the re-write reads it."""
    result, before = corpus[name], corpus[REWRITTEN[name]]
    assert result["missing"] == 0 and result["empty"] == 0, name
    assert _formulas(result) == _formulas(before), name
    assert result["exact"] == before["exact"], (name, result["exact"], before["exact"])


def _formulas(result) -> dict[str, str]:
    return dict(sqlite3.connect(result["db"]).execute("SELECT number, content FROM chunks WHERE kind = 'formula'"))


def _text(result) -> str:
    rows = sqlite3.connect(result["db"]).execute("SELECT content FROM chunks WHERE kind = 'text' ORDER BY ord")
    return "\n".join(c for (c,) in rows)


def _prose(result) -> str:
    """The text chunks and the statements and examples, in reading order: every chunk of running text."""
    rows = sqlite3.connect(result["db"]).execute(
        "SELECT content FROM chunks WHERE kind NOT IN ('formula', 'table', 'algorithm', 'figure') ORDER BY ord")
    return "\n".join(c for (c,) in rows)


def test_what_the_later_bodies_print_is_read_from_the_fonts_and_the_geometry(corpus):
    """The constructs the fourth and fifth bodies brought, each read from the evidence the PDF carries."""
    kp, dvips, euler, charter = (_formulas(corpus[n]) for n in ("kp-d", "dvips", "euler-e", "charter-e"))
    # a Type 1 maths font whose name says nothing (kpfonts) told by its glyph names: the double bar
    # from its extension font; RSFS beside the symbol font's capitals is \mathscr ...
    assert r"\|\mathscr{B}U-\mathscr{B}U'\|_{\infty}" in kp["1.24"], kp["1.24"]
    # ... and the only calligraphic font of a book (mathptmx) stays \mathcal
    assert r"\mathcal{X}" in dvips["1.8"] and r"\mathscr" not in dvips["1.8"], dvips["1.8"]
    # mathdesign names its letters with their alphabet ("Acal", "Ebbb") and its ceiling at code 160
    assert r"\mathcal{R}" in charter["1.19"] and r"\mathbb{E}" in charter["1.1"], (charter["1.19"], charter["1.1"])
    assert r"\max\{0, \lceil\frac{S-x}{q}\rceil\}" in charter["1.28"], charter["1.28"]
    # Euler's upright letters are variables; its ∞ (in its extension font) a subscript like any other
    assert r"\|x\|_{\infty} = \operatorname*{ess\,sup}_{t \in [0, T]}|x(t)|" in euler["1.27"], euler["1.27"]
    assert r"\lim_{n \to \infty}P^{n}" in euler["1.16"], euler["1.16"]
    # dsfont's indicator; an arrow stretched to its note; arrows over what they span
    assert r"\mathds{1}" in euler["1.8"], euler["1.8"]
    for name in FIFTH_BODY:
        found = _formulas(corpus[name])
        assert r"\xrightarrow{d}" in found["1.13"], (name, found["1.13"])
        assert r"c(\overrightarrow{uv})" in found["1.24"], (name, found["1.24"])
        # a fraction in an exponent keeps its own scripts (TeX's smallest style keeps their size)
        assert r"e^{-\frac{(x-\mu)^{2}}{2\sigma^{2}}}" in found["1.6"], (name, found["1.6"])
        # a payoff table: an upright rule down its rows makes an array, the rule it crosses an \hline
        assert found["1.25"].startswith(r"\begin{array}{c|cc} & a_{1} & a_{2} \\ \hline s_{1}"), (name, found["1.25"])
    # an augmented matrix: an array with its rule; a binomial in a font with tight fraction shifts
    assert r"\left[\begin{array}{ccc|c}" in _formulas(corpus["cm-b"])["2.4"]
    assert r"\binom{n}{w}" in _formulas(corpus["termes-d"])["1.6"]
    # kpfonts' "symbol B" font is blackboard bold, as msbm is
    assert r"\mathbb{E}[\theta \mid w, \ell]" in kp["1.5"], kp["1.5"]
    # an overline over a numerator's letter clears it by more than a point
    for name in FIFTH_BODY:
        found = _formulas(corpus[name])["1.13"]
        assert r"\frac{\overline{X}_{n}-\mu}{\sigma}" in found, (name, found)
    # an OpenType brace's extenders lie under its hooks, narrower than they: one brace, one `cases`
    lmmath = _formulas(corpus["lmmath"])["2.9"]
    assert lmmath.startswith(r"F(x) = \begin{cases}0 & x < 0") and r"1 & x > 2\end{cases}" in lmmath, lmmath


def test_what_the_sixth_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The sixth body's constructs: a matrix of fractions (one's denominator all but touching the next
    one's numerator), braces that close rows nothing opens (rcases; \\left. … \\right\\} round a
    gathered block), limits of two operators' names side by side, hooked, two-headed and harpoon
    arrows by their glyph names, bold in a sans-serif book's own face, TeX's "bx" fonts, and Greek
    capitals a maths font gives for Latin ones."""
    jacobian = r"\begin{bmatrix}\frac{\partial u}{\partial x} & \frac{\partial u}{\partial y} \\ \frac{\partial v}{\partial x} & \frac{\partial v}{\partial y}\end{bmatrix}"
    games = r"\sup_{x \in X}\inf_{y \in Y}u(x, y) \leq \inf_{y \in Y}\sup_{x \in X}u(x, y)"
    for name in SIXTH_BODY:
        found = _formulas(corpus[name])
        first = "2" if name == "cmbright-f" else "1"      # lecture notes number by section
        jac, game = found[f"{first}.6" if first == "1" else "2.1"], found["1.8" if first == "1" else "2.3"]
        assert jacobian in jac, (name, jac)
        assert games in game, (name, game)
        if name != "cmbright-f":
            assert r"\begin{rcases}u_{\max}, & e > e_{0}" in found["1.20"], (name, found["1.20"])
            assert found["1.19"].startswith(r"\left.\begin{gathered}\mathbf{P} = "), (name, found["1.19"])
    tufte, fira, garamond, cmbright = (_formulas(corpus[n]) for n in ("tufte-f", "fira-f", "garamond-f", "cmbright-f"))
    assert r"A \hookrightarrow B" in tufte["1.17"] and r"B \twoheadrightarrow B/A" in tufte["1.17"], tufte["1.17"]
    assert r"A \rightleftharpoons B" in tufte["1.18"] and r"A \rightleftharpoons B" in cmbright["4.3"]
    assert fira["1.1"].startswith(r"\mathbf{h}^{(l+1)} = \sigma(\mathbf{W}^{(l)}"), fira["1.1"]
    assert r"\operatorname{ReLU}(x) = \max(0, x)" in fira["1.2"], fira["1.2"]
    assert cmbright["1.1"].startswith(r"\mathbf{h}^{(l+1)}"), cmbright["1.1"]
    assert garamond["1.14"].startswith("H(X) = "), garamond["1.14"]


def test_what_the_seventh_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The seventh body's constructs: relations TeX builds from two signs (\\models from a bar and an
    equals sign, \\cong from a tilde set over one), a prime on a script's own baseline (\\prime), a
    subscript's double prime under a sum in a denominator, \\bmod by its spacing, a fraction in an
    exponent that an OpenType font raises most of an em, a limit alone on a page's last line (no roman
    folio "m"), an italic f whose tail reaches back under the big bar before it, STIX Two's script small
    l (\\ell), the AMS blackboard font's \\smallsetminus, a double-barred matrix in an OpenType font."""
    sections = (("1", 1), ("2", 5), ("3", 12), ("4", 18))     # where the article's sections start

    def number(name: str, n: int) -> str:
        if name != "stix2t1-g":
            return f"1.{n}"
        section, first = [(s, f) for s, f in sections if f <= n][-1]
        return f"{section}.{n - first + 1}"

    for name in SEVENTH_BODY:
        found = _formulas(corpus[name])
        expected = {1: r"\sum_{s'' \in \mathcal{S}}O(o \mid a, s'')", 9: r"\begin{Vmatrix}1 & \Delta t \\ 0 & 1\end{Vmatrix}",
                    10: r"e^{-\frac{(x-\mu)^{2}}{2\sigma^{2}}}", 13: r"U^{i}(\pi^{i\prime}, \pi^{-i}) \Leftrightarrow \pi \models",
                    16: r"\mathcal{C}\smallsetminus\{C\}", 17: r"i_{t+1} = (i_{t}+1)\bmod k, \quad t \equiv i_{t}\pmod{k}",
                    20: r"\sum_{m}M_{m}^{\dagger}M_{m} = I", 21: r"\hat{f}^{(n)}(\omega)", 22: r"\mathcal{H}_{1} \cong \mathcal{H}_{2}",
                    23: r"\coprod_{j}\ell_{x_{i_{j}}}", 24: r"0^{\circ} \leq \theta \leq 90^{\circ}"}
        for n, latex in expected.items():
            got = found[number(name, n)]
            assert latex in got, (name, n, got)


def test_what_the_eighth_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The eighth body's constructs: a two-word operator's name never runs on into the name after it
    (`\\operatorname*{arg\\,max}_{…}\\operatorname{UCB}(a)`, with or without a space the text layer
    shows), what follows a `cases` block on the row of its middle stays out of its rows, and
    mathdesign's extension bars (named "bardblex") are a norm's."""
    for name in EIGHTH_BODY:
        found = _formulas(corpus[name])
        search = "1.2"
        annealing = "4.4" if name == "utopia-h" else "1.18"
        assert r"\operatorname*{arg\,max}_{a \in \{1, \dots, k\}}\operatorname{UCB}(a)" in found[search], (name, found[search])
        assert found[annealing].endswith(r"\end{cases}, \quad t^{(k+1)} = \gamma t^{(k)}"), (name, found[annealing])
    utopia = _formulas(corpus["utopia-h"])["2.6"]
    assert r"\|\tilde{\mathbf{x}}^{(i)}\|_{\infty} \leq 3" in utopia, utopia


def test_what_the_ninth_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The ninth body's constructs, written with the class's \\vect: an equation number amsmath drops
    to the line below its row (the row's "(complementary slackness)" is its own, not a tag); "(1.5b)" on
    a page's last line is no folio "1"; a sum's limit that hangs over the next row's relation is the
    sum's; the AMS symbol font's \\Box (a glyph with no Unicode) and \\Diamond; a text-style binomial
    in a display (\\tbinom); a big bar spaced as a relation (\\bigm|); an evaluation bar of a fixed size
    (\\Big|) opens no \\left. group; upright bold small Greek (\\vect{\\mu}) is \\bm in a Type 1 font and
    in an OpenType one (unicode-math) alike, as books write a bold small Greek letter."""
    for name in NINTH_BODY:
        found = _formulas(corpus[name])
        bold_mu = r"\bm{\mu}"
        assert found["1.5b"] == r"\nabla_{\mathbf{d}}f(\mathbf{x}+\alpha\mathbf{d}) \geq \sigma\nabla_{\mathbf{d}}f(\mathbf{x})", name
        assert rf"{bold_mu} \leftarrow {bold_mu}+\sum_{{i = 1}}^{{m}}" in found["1.8"], (name, found["1.8"])
        assert r"+\sum_{j}\lambda_{j}\nabla h_{j}(\mathbf{x}^{*}) = \mathbf{0}" in found["1.11"], (name, found["1.11"])
        assert found["1.12"].startswith(r"\mathbf{g}(\mathbf{x}^{*}) \leq \mathbf{0}"), (name, found["1.12"])
        assert found["1.13"].startswith(rf"{bold_mu} \geq \mathbf{{0}}, \quad{bold_mu}\odot\mathbf{{g}}(\mathbf{{x}}^{{*}}) = \mathbf{{0}}"), \
            (name, found["1.13"])
        if name != "erewhon-i":   # (Erewhon Math's first larger bar is under the 1.15 em taken as \big: \mid)
            assert r"\mathbf{G}\bm{\beta}\bigm|\|\bm{\beta}\|_{\infty} \leq 1\}" in found["1.17"], (name, found["1.17"])
        assert r"\psi = \Box\neg" in found["1.19"] and r"\models \Box(p \implies \Diamond q)" in found["1.19"], (name, found["1.19"])
        assert r"= \tbinom{m}{k}p^{k}(1-p)^{m-k}" in found["1.24"], (name, found["1.24"])
        assert r"P(C > c)dc" in found["1.26"] and r"\left." not in found["1.26"], (name, found["1.26"])


def test_what_the_tenth_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The tenth body's constructs: a bmatrix inside \\left( … \\right) whose delimiters TeX sized
    alike pairs with its own brackets, not the parenthesis; the extension font's hat is \\widehat over
    one letter too, and a bracket beside it is not under it; "2ℓ" on a page's last line (a fraction's
    denominator) is no folio; a brace's note whose ink touches the brace's glyph box is its note."""
    for name in TENTH_BODY:
        found = _formulas(corpus[name])
        assert r"\mathcal{N}(\begin{bmatrix}\mathbf{m}(X^{*}) \\ \mathbf{m}(X)\end{bmatrix}, \begin{bmatrix}" in found["1.11"], \
            (name, found["1.11"])
        # (unicode-math's \widehat over one letter is a variant of the font's hat, twice \hat's width)
        hat = r"\widehat"
        assert found["1.25"].startswith(hat + r"{f}(z) = \sum_{i = 1}^{k}"), (name, found["1.25"])
        assert r"\mathbb{E}[" + hat + r"{f}] = \theta_{1}" in found["1.25"], (name, found["1.25"])
        assert found["1.26"].startswith(r"\operatorname{Var}[" + hat + r"{f}] = "), (name, found["1.26"])
    cochineal = _formulas(corpus["cochineal-j"])
    assert r"{2\ell^{2}}" in cochineal["1.9"], cochineal["1.9"]
    assert r"\underbrace{\mathbf{y}^{\top}\tilde{\mathbf{K}}^{-1}\mathbf{y}}_{\text{data fit}}" in cochineal["1.14"], cochineal["1.14"]


def test_what_the_eleventh_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The eleventh body's constructs: a chain of fractions each in the one before's denominator at one
    size is \\cfrac (a \\frac chain shrinks); on the DVI route through Ghostscript, fonts whose text
    map gives their codes back ("X" for a display sum, 161 for TeX's code 0), read in TeX's extension
    and symbol layouts; three sums side by side whose limits nearly touch each keep their own; a
    smallmatrix (script-size parts a column gap apart) is no binomial; a note with an arrow in it over
    a long arrow is \\xrightarrow's, not a \\vec; an array's header row of words set a column gap apart
    is the array's."""
    for name in ELEVENTH_BODY:
        found = _formulas(corpus[name])
        assert r"\xrightarrow{k \to \infty}U^{*}" in found["1.9"], (name, found["1.9"])
        assert r"(\begin{smallmatrix}1 & \Delta t \\ 0 & 1\end{smallmatrix})" in found["1.18"], (name, found["1.18"])
        assert r"(\begin{smallmatrix}1 & 0\end{smallmatrix})" in found["1.18"], (name, found["1.18"])
        assert found["1.28"].startswith(r"\begin{array}{r|cc} & \mathtt{coop} & \mathtt{defect} \\ \hline"), (name, found["1.28"])
        assert r"+\sum_{i = 1}^{n}\sum_{j = 1}^{q_{i}}\sum_{k = 1}^{r_{i}}\ln" in found["1.6"], (name, found["1.6"])
        assert found["1.19"] == r"P_{\infty} = q+\cfrac{r}{1+\cfrac{r}{q+\cfrac{r}{1+\cdots}}}", (name, found["1.19"])
        assert r"\prod_{i = 1}^{n}P(x_{i} \mid \operatorname{pa}(x_{i}))" in found["1.1"], (name, found["1.1"])
        assert r"= \bigcup_{a \in \mathcal{A}}\bigcup_{o \in \mathcal{O}}\{" in found["1.14"], (name, found["1.14"])
        assert found["1.9"].startswith(r"\|U_{k+1}-U^{*}\|_{\infty} \leq \gamma\|U_{k}-U^{*}\|_{\infty}"), (name, found["1.9"])
        assert found["1.10"].startswith(r"\begin{Vmatrix}\gamma T_{11} & \gamma T_{12} \\ \gamma T_{21}"), (name, found["1.10"])
    # a chain of \frac, its levels shrinking to the smallest style, stays \frac
    assert r"\varphi = 1+\frac{1}{1+\frac{1}{1+\frac{1}{1+\cdots}}}" in _formulas(corpus["cochineal-j"])["1.21"]


def test_what_the_twelfth_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The twelfth body's constructs: an array whose column rule runs through its header of words (over
    an \\hline) keeps that header; an overline over a run of a text italic's letters (mathpazo's, the
    class's) is over it, the letters' ink told from their shapes where the glyph layer keeps no boxes;
    equations numbered inside an algorithm box; matrices of fractions, a \\vdots column, a determinant.
    And from the older bodies: the maths italic font's hook read as a comma joins its arrow
    (\\hookrightarrow, CM Bright's text map gives the hook's code back as ","), and on the DVI routes
    an extension glyph whose box is the font's whole bounding box is placed by its ink (\\widehat)."""
    for name in TWELFTH_BODY:
        found = _formulas(corpus[name])
        assert found["1.35"] == (r"\begin{array}{c|cc} & \operatorname{stag} & \operatorname{hare} \\ \hline"
                                 r"\operatorname{stag} & 4, 4 & 0, 3 \\ \operatorname{hare} & 3, 0 & 3, 3\end{array}"), \
            (name, found["1.35"])
        assert r"\begin{vmatrix}1-\gamma p & -\gamma(1-p) \\ -\gamma q & 1-\gamma(1-q)\end{vmatrix}" in found["1.19"], \
            (name, found["1.19"])
        assert r"\begin{bmatrix}\frac{1}{2} & \frac{1}{2} & 0 \\ \frac{1}{3}" in found["1.18"], (name, found["1.18"])
        assert r"= \sum_{\ell = t}^{d}\gamma^{\ell-t}r_{\ell}^{(" in found["1.26"], (name, found["1.26"])   # in the box
    for name in ("tufte-l", "mathspec-l"):
        found = _formulas(corpus[name])
        assert r"\overline{xy} = \max\{\underline{x}\underline{y}, " in found["1.20"], (name, found["1.20"])
        assert found["1.26"] == r"G_{t}^{(i)} = \sum_{\ell = t}^{d}\gamma^{\ell-t}r_{\ell}^{(i)}", (name, found["1.26"])
    assert _formulas(corpus["cmbright-f"])["4.2"] == r"\iota:A \hookrightarrow B, \quad\pi:B \twoheadrightarrow B/A"
    for name in ("dvips", "dvipdfmx"):
        found = _formulas(corpus[name])
        assert found["1.25"].startswith(r"\widehat{AB} = \widetilde{CD}, "), (name, found["1.25"])


def test_what_the_thirteenth_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The thirteenth body's constructs: a full-width display (the class's fullwidth) numbered at the
    full width's edge, out in the margin; the AMS blackboard font's \\subsetneq and \\nsubseteq where a
    text map gives their codes back as "(" and "*"; pxfonts' calligraphic capitals, its \\neq, \\iint and
    \\doteq (glyph names of a font printed through its own encoding); \\left. opened right before what
    an evaluation bar measures; dcases (fractions at the row's own size); \\,\\|\\, in a divergence
    (thin spaces, not \\parallel's)."""
    for name in THIRTEENTH_BODY:
        found = _formulas(corpus[name])
        assert found["1.35"].startswith(r"|\hat{Q}(s, a)-Q^{\pi}(s, a)| \leq \frac{\sum_{i = 1}^{m}N_{i}"), (name, found.get("1.35"))
        assert found["1.2"] == r"\mathcal{F}_{\operatorname{lin}} \subsetneq \mathcal{F}_{\operatorname{poly}}, " \
                               r"\quad\{U^{*}\} \nsubseteq \mathcal{F}_{\operatorname{poly}}", (name, found["1.2"])
        assert r"\sum_{\substack{i, j \\ i \neq j}}c_{i}c_{j}" in found["1.16"], (name, found["1.16"])
        assert found["1.17"].startswith(r"\iint_{\mathcal{D}}k(\mathbf{x}, \mathbf{y})"), (name, found["1.17"])
        assert r"\Pr(\hat{\mu}_{n} \geq \mu+" in found["1.26"] and r"\doteq e^{-nI(" in found["1.26"], (name, found["1.26"])
        assert found["1.10"].startswith(r"f(x) \approx f(x_{0})+\left.\frac{\partial f}{\partial x}\right|_{x = x_{0}}"), \
            (name, found["1.10"])
        assert found["1.22"].startswith(r"\alpha_{k} = \begin{cases}\dfrac{\alpha_{0}}{1+k/\tau} & k < K"), (name, found["1.22"])
        assert r"D_{\operatorname{KL}}(\pi_{" in found["1.32"] and r"\parallel" not in found["1.32"], (name, found["1.32"])


def test_what_the_fourteenth_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The fourteenth body's constructs: a number on the left half an em from a formula too wide to
    centre; a cases row of words within the height of a brace built from parts; a note of words wider
    than its brace; \\tbinom whose parts reach past its parentheses; a note under a long arrow built of
    a minus and a head; displays in a table's cells beside row heads set level with their parts."""
    stix1, tufte = _formulas(corpus["stix1-n"]), _formulas(corpus["tufte-n"])
    assert stix1["3.3"].startswith(r"R_{\operatorname{ser}} = \prod_{i = 1}^{n}p_{i}, "), stix1.get("3.3")
    # (the last row's "if" stands nearer its neighbours in STIX 1 than TeX's own space and a word space's
    # share, so it stays an upright name there: \operatorname{if} prints the same word)
    for found, cases, word in ((stix1, "2.2", r"\operatorname{if}"), (tufte, "1.11", r"\text{if }")):
        assert found[cases].endswith(r"\text{take another observation} & " + word + r"a < \Lambda_{n} < b.\end{cases}"), \
            found[cases]
    for found in (stix1, tufte):
        assert found["1.6"].endswith(r"\underbrace{\mathbb{E}[(X-x^{*})^{+}]}_{\text{expected gain of one more offer}}"), found["1.6"]
        assert found["1.7"].endswith(r"= \tbinom{N}{j}q^{j}(1-q)^{N-j}"), found["1.7"]
        assert r"\underset{n \to \infty}{\longrightarrow" in found["1.5"], found["1.5"]
    assert tufte["1.26"] == r"C(T) = \frac{c_{p}R(T)+c_{f}(1-R(T))}{\int_{0}^{T}R(t)dt}", tufte["1.26"]
    assert tufte["1.27"] == r"\bar{C}(T) = \frac{c_{p}+c_{f}M(T)}{T}", tufte["1.27"]
    assert "/" in stix1["3.2"] and "\u2215" not in stix1["3.2"], stix1["3.2"]


def test_what_the_fifteenth_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The fifteenth body's constructs: a numerator's script over a root in the denominator (no index);
    binomials in a fraction's parts (\\binom, not \\tbinom); a script's own script after a stacked
    sub- and superscript; a wide hat over an upright name; in two columns, equation numbers at a
    column's foot and head (no running line, though their shape recurs there)."""
    tufte, twocol, kp = (_formulas(corpus[n]) for n in FIFTEENTH_BODY)
    assert tufte["1.2"] == r"\lim_{n \to \infty}\Pr(|\hat{\mu}_{n}-\mu| \leq \frac{z_{1-\alpha/2}\sigma}{\sqrt{n}}) = 1-\alpha", tufte["1.2"]
    for found in (tufte, kp, twocol):
        assert found["1.7"] == r"\Pr(K = k) = \frac{\binom{M}{k}\binom{N-M}{n-k}}{\binom{N}{n}}", found["1.7"]
    assert r"\|\mathbf{x}\|_{\mathbf{M}^{-1}}^{2}" in kp["1.45"], kp["1.45"]
    assert tufte["1.37"].startswith(r"\widehat{\operatorname{EIG}}(d) = "), tufte["1.37"]
    assert twocol["1.6"].startswith(r"\begin{aligned}\hat{\mu}_{\operatorname{anti}} & = \frac{1}{2}(f(U)+f(1-U)), "), twocol["1.6"]
    assert twocol["3.4"].startswith(r"\begin{aligned}I(X;Y) & = H(X)-H(X \mid Y)"), twocol["3.4"]


def test_what_the_sixteenth_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The sixteenth body's constructs: numbered rows in framed statements (a tcolorbox's numbers at the
    frame's inner edge), a number alone centred on a split in a shaded float, an align's integral limits
    kept with their own rows; under GFS Neohellenic Math (a font whose ascent is 3.5 em) lines where their
    ink is, its scripts' scripts at 70 % against its scripts' 80 %, numbers set alone above their rows
    (leqno with fleqn) and an integral's upper limit midway between two rows."""
    tufte, tcb, neo = (_formulas(corpus[n]) for n in SIXTEENTH_BODY)
    assert tcb["1.15"] == r"= \int_{0}^{\bar{v}}(v-\frac{1-F(v)}{f(v)})X_{i}(v)f(v)\mathrm{d}v", tcb["1.15"]
    assert tcb["1.19"] == r"= \frac{n-1}{n+1}+r^{n}-\frac{2n}{n+1}r^{n+1},", tcb["1.19"]
    assert tufte["1.10"].startswith(r"\begin{aligned}\mathbb{E}[\beta(v_{(1)})] & = \frac{n-1}{n}\int_{0}^{1}"), tufte.get("1.10")
    assert neo["1.17"] == r"\mathbf{x}^{*}(\mathbf{v}) = \operatorname*{arg\,max}_{\mathbf{x} \in \mathcal{X}}\sum_{i = 1}^{n}\varphi_{i}(v_{i})x_{i}", neo["1.17"]
    assert neo["1.36"] == r"p_{j_{i}} \leftarrow p_{j_{i}}+v_{i}-\max_{j \neq j_{i}}\{a_{ij}-p_{j}\}+\epsilon", neo["1.36"]
    assert neo["1.23a"].endswith(r"\geq u_{i}(\theta'_{i}, \bm{\theta}_{-i};\theta_{i}),"), neo["1.23a"]
    assert neo["1.23b"].endswith(r"\geq 0"), neo["1.23b"]
    assert neo["1.13"] == r"P_{i}(v) = P_{i}(0)+vX_{i}(v)-\int_{0}^{v}X_{i}(t)\mathrm{d}t", neo["1.13"]


def test_what_the_seventeenth_body_prints_is_read_from_the_fonts_and_the_geometry(corpus):
    """The seventeenth body's constructs: `\\left(` straight before a pmatrix's own parenthesis (two
    glyphs at the extension font's code 32, which the text layer keeps one of); txfonts' bold upright
    Greek, from a font whose name says nothing of its weight but whose descriptor does; and Euler Math's
    display sum, which its map sends to the Private Use Area and whose subset holds no text-size sum to
    compare it with, read by its strokes (build_glyphs.drawn_operator)."""
    tufte, txfonts, euler = (_formulas(corpus[n]) for n in SEVENTEENTH_BODY)
    for found, number in ((tufte, "1.16"), (txfonts, "1.3.2")):
        assert r"\sim \mathcal{N}(\begin{pmatrix}\hat{\mathbf{x}}_{t|t-1}" in found[number], found[number]
        assert found[number].endswith(r"\end{pmatrix})"), found[number]
    assert txfonts["1.3.3"] == r"\mathbf{K}_{t} = \bm{\Sigma}_{t|t-1}\mathbf{C}^{\top}\mathbf{S}_{t}^{-1},", txfonts["1.3.3"]
    assert r"\bm{\Phi}^{T}\bm{\Phi}" in txfonts["1.5.3"] and txfonts["1.5.3"].endswith(r"\bm{y}\end{aligned}"), txfonts["1.5.3"]
    assert r"}\sum_{t = 1}^{T}(" in euler["43"], euler["43"]


def test_what_the_eighteenth_body_prints_is_read_the_same_through_ghostscript(corpus):
    """The eighteenth body through latex, dvips and ps2pdf with Antykwa Toruńska's Type 1 maths:
    Ghostscript embeds every font as CFF and names an extension font's and a symbol font's faces
    "AntykwaTorunska-Regular" and "…-Italic", so only the glyph names in the compact program's own
    tables say which is which (sums, sized delimiters, calligraphic capitals); and its stem-width
    weights (744) do not make the regular face bold (a prose line starting "Table 1.1 lists" had
    been read as a caption, and the displays under it as the table's).  What the user's class reads,
    it reads."""
    tufte, anttor = (_formulas(corpus[n]) for n in ("tufte-r", "anttor-r"))
    for number in ("1.1", "1.7", "1.28", "1.31", "1.41", "1.46", "1.47"):
        assert anttor.get(number) == tufte[number], (number, anttor.get(number), tufte[number])
    assert r"\sum_{s \in \mathcal{S}}" in anttor["1.1"], anttor["1.1"]


def test_what_the_nineteenth_body_prints_is_found_wherever_it_stands(corpus):
    """The nineteenth body's surroundings: a display in a footnote (at the page's foot, or a side note
    in the user's class) is a formula like any other; a table cell's equation whose number amsmath set
    on a line of its own below it, flush right at the cell's measure; and an align's \\notag rows,
    shown in the text with their numbered neighbours though another display follows at once."""
    for name in NINETEENTH_BODY:
        found, text = _formulas(corpus[name]), _text(corpus[name])
        table, note = ("42", "43") if name == "multicol-s" else ("1.42", "1.43")
        assert found.get(table) == r"S = \mu(T+L)+z\sigma\sqrt{T+L}", (name, found.get(table))
        assert found.get(note) == r"e_{t} = d_{t}-\hat{d}_{t}", (name, found.get(note))
        assert r"g(S) = h\mathbb{E}[(S-X)^{+}]" in text and r"n(S) = \sum_{x > S}(x-S)\Pr(X = x)" in text, name
        # the note's own text shows its display as the running text shows one (multicol's footnote is
        # read as its first line only, the rest in the column's text: docs/formulas.md)
        if name != "multicol-s":
            assert rf"[Footnote] 1The error of period $t$ is $${found.get(note)}$$ ({note}) and a good" in text \
                or rf"[Side note] 1 The error of period $t$ is $${found.get(note)}$$ ({note}) and a good" in text, name


def test_a_side_notes_display_is_read_in_the_margin(corpus):
    """The twentieth body's side note holds a numbered display with a fraction: its bar is typeset, not
    a drawing in the margin whose labels the note's lines would be, the numerator's exponent set on a
    line of its own does not start a new note (a note's mark stands at the column's left edge), and the
    display is read within the margin column."""
    found = _formulas(corpus["tufte-t"])
    display = r"\operatorname{Var}(\hat{A}_{t}) \approx \sigma_{r}^{2}\frac{1-\gamma^{2H}}{1-\gamma^{2}}"
    assert found.get("1.26") == display, found.get("1.26")
    # the note's text holds its maths as LaTeX, the display in its place
    assert rf"of variance $\sigma_{{r}}^{{2}}$ , the variance" in _text(corpus["tufte-t"])
    assert rf"roughly $${display}$$ (1.26) which is why" in _text(corpus["tufte-t"])


def test_a_radical_a_bar_across_the_margins_edge_and_latin_moderns_heirs(corpus):
    """What the twenty-first body brought: a side note's display under a radical (the radical's bar,
    which starts at the sign's top right, is typeset, not a drawing in the margin); a full-width display
    whose last fraction stands across the margin's edge (its denominator, wholly in the margin, is the
    fraction's, for the bar it stands under starts in the text block); accents over letters in prose
    maths; and MLModern, whose maths fonts keep Latin Modern's names and TeX's layouts behind a prefix
    of their own (its sums and products)."""
    tufte, mlmodern = (_formulas(corpus[n]) for n in ("tufte-u", "mlmodern-u"))
    assert tufte.get("1.24") == r"\operatorname{SE}(\hat{p}) = \sqrt{\frac{\hat{p}(1-\hat{p})}{m}}", tufte.get("1.24")
    assert tufte["2.11"].endswith(r"\prod_{k = 1}^{r_{i}}\frac{\Gamma(\alpha_{ijk}+m_{ijk})}{\Gamma(\alpha_{ijk})}"), tufte["2.11"]
    assert tufte["2.11"].startswith(r"P(G \mid D) = \frac{P(G)}{"), tufte["2.11"]
    # an accent TeX sets on a short letter's own baseline (its ink high in its box) is the letter's in
    # prose maths too, also with the full stop glued to it
    assert r"Maximum likelihood gives $\hat{\theta} = 0$ after a quarter" in _text(corpus["tufte-u"])
    assert r"squared errors $\sum_{t}(d_{t}-\hat{d}_{t})^{2}$ over the record" in _text(corpus["tufte-s"])
    sample = "\n".join(c for (c,) in sqlite3.connect(KNOWLEDGE).execute("SELECT content FROM chunks WHERE kind = 'text'"))
    assert r"so that $U_{d} = B^{d}\hat{U}$. Since" in sample
    # (the source's \phi: LuaLaTeX's PazoMath carries no ToUnicode map and is read by its glyph names; pdfTeX's
    # glyphtounicode map gives MLModern's "phi" the Adobe list's U+03C6, read as \varphi, which the judge aliases)
    for found, phi in ((tufte, r"\phi"), (mlmodern, r"\varphi")):
        assert found["1.3"] == r"P(x_{1}, \dots, x_{n}) = \prod_{i = 1}^{n}P(x_{i} \mid \operatorname{pa}(x_{i}))", found["1.3"]
        assert found["1.10"] == r"\psi(x) = \sum_{y \in \mathcal{X}_{Y}}" + phi + "(x, y)", found["1.10"]


def test_braces_over_fractions_evaluation_bars_and_a_sentences_end(corpus):
    """What the twenty-second body brought: an \\underbrace under a fraction takes the whole fraction
    (its numerator past the bar) and stands on the row's baseline; a bar much taller than what it
    evaluates is a size asked for (\\Big|), not a \\right| grown to cover it; a line flush with the
    column that ends in words and a comma ends the sentence that leads to a display, no row of it; and a
    side note's display whose text-size radical's box is taller than its ink."""
    found = _formulas(corpus["tufte-v"])
    assert found["2.1"] == (r"C(Q, b) = \underbrace{\frac{K\lambda}{Q}}_{\operatorname{ordering}}"
                            r"+\underbrace{\frac{h(Q-b)^{2}}{2Q}}_{\operatorname{holding}}"
                            r"+\underbrace{\frac{pb^{2}}{2Q}}_{\operatorname{backorders}}."), found["2.1"]
    assert found["2.12"] == r"\int_{z}^{\infty}x\phi(x)dx = -\phi(x)|_{z}^{\infty} = \phi(z),", found["2.12"]
    assert found["2.20"] == r"\|\mathbf{x}_{k+1}-\mathbf{x}_{k}\|_{\infty} \leq \varepsilon.", found["2.20"]
    assert found.get("2.27") == r"\beta = 1-\frac{\sigma\sqrt{T+L}G(z)}{\mu T}.", found.get("2.27")


def test_a_cases_brace_a_fraction_over_a_fraction_and_a_margin_captions_display(corpus):
    """What the twenty-third body brought: a `cases` brace's parts join by their advance boxes (their
    ink does not line up), so its second row, long text and all, stays in it; a fraction over a fraction,
    whose bar runs the inner one's null delimiters past the inner bar; a display in a margin figure's
    caption, numbered in the book's sequence."""
    found = _formulas(corpus["tufte-w"])
    assert found["1.21"].startswith(r"\bar{f}_{k} = \begin{cases}") and "every elite sample fails" in found["1.21"], found["1.21"]
    assert found["1.11"].startswith(r"\frac{\frac{\sigma}{\sqrt{m}}}{p} = \sqrt{\frac{1-p}{mp}}"), found["1.11"]
    assert found.get("2.12") == r"J_{\operatorname{out}} = \frac{c-w_{1}J_{\operatorname{cost}}}{w_{2}}", found.get("2.12")


def test_notes_over_letters_rows_of_relations_and_framed_displays_read_once(corpus):
    """What the twenty-fourth body and MnSymbol brought: a word of text set over a letter is a note on
    it (\\overset{\\text{Nash}}{U}), not an exponent of the glyph before; a number after a row of
    relations and no prose (stacked fractions' middle row, "= 2 = .") numbers a display inside a shaded
    example; every line of a display inside a frame (numerator and denominator rows) gives way to the
    display, once; an accent TeX raises over a capital (the NFKC form of "˜" is a space and a combining
    tilde) is the letter's in prose maths; a numbered step's "5:" stays out of the maths after it and a
    comma inside the brackets a formula opened stays in it; a tag in words stands after its display; a
    bold letter with a maths prime glued to it is maths.  MnSymbol's calligraphic capitals are plain letters in a font named as a symbol font, and its
    symbol font's quad, smaller than an em, makes a thin space (between \\operatorname*{arg\\,max} and
    the name after it) narrower than the reader's old floor for a gap inside a word."""
    found = _formulas(corpus["tufte-x"])
    assert found.get("4.7") == (r"\frac{\Pi_{1}+\Pi_{2}}{\Pi_{\operatorname{mono}}} = \frac{\frac{2(\alpha-c)^{2}}{9\beta}}"
                                r"{\frac{(\alpha-c)^{2}}{4\beta}} = \frac{8}{9}."), found.get("4.7")
    assert r"+\gamma\overset{\operatorname{Nash}}{U}^{i}(\mathbf{Q}(s'))" in found["4.13"], found["4.13"]
    chunks = dict(((kind, number), content) for kind, number, content in sqlite3.connect(corpus["tufte-x"]["db"]).execute(
        "SELECT kind, number, content FROM chunks WHERE kind IN ('example', 'algorithm')"))
    example = chunks[("example", "4.1")]
    assert example.count("$$") == 6 and r"\underline" not in example and "$4\\beta$" not in example, example
    algorithm = chunks[("algorithm", "1.1")]
    assert r"3: return $\tilde{U}(s)$" in algorithm and r"5: $N(s, a) \leftarrow 0$" in algorithm, algorithm
    assert r"draw $(s', r) \sim G(s, a)$" in algorithm and "\n$$Q(s, a)" in algorithm, algorithm
    # a bold letter with a prime glued to it, after a step's number, is maths
    assert r"4: $\mathbf{b}' \leftarrow$ Update" in chunks[("algorithm", "2.1")], chunks[("algorithm", "2.1")]
    text = _text(corpus["tufte-x"])
    assert r"it uses an estimate $\tilde{U}$ of the value" in text
    assert r"\text{ and all }\pi'^{i}.$$ (NE)" in text
    mnsymbol = _formulas(corpus["mnsymbol-u"])
    assert mnsymbol["1.10"] == r"\psi(x) = \sum_{y \in \mathcal{X}_{Y}}\phi(x, y)", mnsymbol["1.10"]
    assert mnsymbol["2.14"] == r"a^{*} = \operatorname*{arg\,max}_{a \in \mathcal{A}}\operatorname{EU}(a \mid o)", mnsymbol["2.14"]


def test_displays_whole_a_dropped_delimiter_and_rows_that_open_with_words(corpus):
    """What the twenty-fifth body brought: PDFium reads an extension font's code 32 (TeX's tallest "(")
    as white space and drops the glyph, putting a space of its own at its origin, so a column vector's
    opening parenthesis had been lost; a display row set in that opens with a word a quad from its
    maths ("minimize  ∑ U(s)", "subject to  U(s) ≥ …") is no prose line, so an optimisation problem in
    the text face's roman stays whole; a display inside a box is read with the book's leading (rows of
    an array stand exactly that far apart; a binomial's parts do not); and, in the running text, a line
    inside the box of a display row (a radical's numerator) joins that display."""
    tufte, newtx = (_formulas(corpus[n]) for n in TWENTY_FIFTH_BODY)
    assert (r"\begin{pmatrix}0.37 & 0.36 \\ 0.27 & 0.46\end{pmatrix}\begin{pmatrix}2 \\ 5\end{pmatrix} = "
            r"\begin{pmatrix}34.79 \\ 38.90\end{pmatrix}") in tufte["1.9"], tufte["1.9"]
    assert newtx["1.16"].startswith(r"\begin{aligned}\operatorname*{minimize}_{U}"), newtx["1.16"]
    assert r"\text{subject to}" in newtx["1.16"] and r"T(s' \mid s, a)U(s')" in newtx["1.16"], newtx["1.16"]
    for name in ("tufte-r", "anttor-r"):
        assert (r"$$a^{*} = \operatorname*{arg\,max}_{a \in \mathcal{A}}[Q(h, a)+c\sqrt{\frac{\ln N(h)}{N(h, a)}}]$$ (UCT)"
                in _text(corpus[name])), name


def test_negations_lines_between_close_rows_and_statements_that_end_with_a_display(corpus):
    """What the twenty-sixth and twenty-seventh bodies brought: a slash over \\models (a bar joined to an
    equals sign, or STIX Two's combining slash, whose box is its own) negates the whole relation; an
    over- or underline between two close rows of a cases block belongs to the row it hugs, and a sign
    of the display above, pressed between its row's glyphs, is no numerator over an overline below; an
    OpenType \\bigl| built of two overlapping bars is one bar; a backslash between a script's operands
    is \\setminus; a row that opens with a bracket is written {[} (after \\\\ it would be an option); a
    display row set in that opens with words and goes on in maths ("subject to x_t ∈ X") is no sentence
    of prose; a list item's first line (its mark, then words) is no row of the display above it.  In the
    running text, an upright statement ends where a display closes its sentence and an indented
    paragraph follows, and a head's own line, set in past the head, opens no paragraph of its own."""
    tufte, stix = (_formulas(corpus[n]) for n in TWENTY_SEVENTH_BODY)
    for found in (tufte, stix):
        assert r"\tau, t\not\models" in found["1.13"] and r"\not\models\psi" in found["1.19"], found["1.19"]
        assert found["2.5"].count(r"\underline{a}") == 3 and found["2.5"].count(r"\overline{a}") == 3, found["2.5"]
        assert r"\begin{cases}{[}c" in found["2.5"] and r"\\ {[}c" in found["2.5"], found["2.5"]
        assert r"\text{subject to}" in found["1.16"] and r"\in \mathcal{X}" in found["1.16"], found["1.16"]
    assert tufte["2.13"].endswith(r"\overline{\mathbf{h}}_{k-1}+\mathbf{b}_{k},"), tufte["2.13"]
    assert r"\max(\mathbf{0}, \overline{\mathbf{z}}_{k})" in tufte["2.14"], tufte["2.14"]
    assert r"\mathcal{N}\setminus\{i\}" in tufte["2.21"], tufte["2.21"]
    assert r"\log|2\pi\bm{\Sigma}|" in stix["1.17"] and r"|\mathbf{d}^{\top}\mathbf{g}_{i}|" in stix["2.10"], stix["2.10"]
    assert stix["1.32"].startswith(r"\begin{aligned}\overline{p}_{"), stix["1.32"]
    assert _formulas(corpus["amsbook-z"])["1.5.5"].endswith(r"{\mathbf{s}^{\top}\mathbf{y}}."), "amsbook-z 1.5.5"
    for name in TWENTY_FIFTH_BODY:
        statements = dict(((kind, number), content) for kind, number, content in sqlite3.connect(corpus[name]["db"]).execute(
            "SELECT kind, number, content FROM chunks WHERE kind = 'definition'"))
        least_squares, divergence = statements[("definition", "2.1")], statements[("definition", "4.1")]
        assert least_squares.endswith(r"\end{bmatrix}.$$ (2.9)") and "ridge" not in least_squares, (name, least_squares)
        assert least_squares.startswith(r"Given targets $u_{1}, \dots, u_{m}$ at the states $s_{1}, \dots, s_{m}$, the least"), name
        assert divergence.endswith("$$ (4.2)") and "symmetric" not in divergence, (name, divergence)


def test_examples_boxed_with_their_caption_under_the_box_and_scripts_by_a_margin_caption(corpus):
    """A statement float whose caption ("Example 1.1: Title.", with a colon, as a caption is set) stands
    right under a frame of four rules (the float package's boxed style) is that statement, its text
    the frame's; the frame's sides are no array's rules, so the prose under a display in it stays
    prose.  A prime or an exponent of the main column a hair off the baseline of a margin caption
    beside it is the main line's script, not a word of the caption (the class's Example 3.1 had been
    lost to it)."""
    for name, numbers in (("newtx-y", {"1.1", "3.1"}), ("amsbook-z", {"1.1"}), ("stixrep-aa", {"1.1", "2.1"}),
                          ("tufte-y", {"1.1", "3.1"})):
        examples = dict(sqlite3.connect(corpus[name]["db"]).execute(
            "SELECT number, content FROM chunks WHERE kind = 'example'"))
        assert set(examples) == numbers, (name, sorted(examples))
    newtx = dict(sqlite3.connect(corpus["newtx-y"]["db"]).execute("SELECT number, content FROM chunks WHERE kind = 'example'"))
    assert newtx["1.1"].startswith("A warehouse is either short") and "Example 1.1" not in newtx["1.1"], newtx["1.1"]
    stix = dict(sqlite3.connect(corpus["stixrep-aa"]["db"]).execute("SELECT number, content FROM chunks WHERE kind = 'example'"))
    assert stix["1.1"].count("$$") == 2 and "A direct sample has the variance" in stix["1.1"], stix["1.1"]
    tufte = dict(sqlite3.connect(corpus["tufte-y"]["db"]).execute("SELECT number, content FROM chunks WHERE kind = 'example'"))
    assert "$s' = s+a+w$" in tufte["3.1"] and "$-s^{2}$" in tufte["3.1"], tufte["3.1"]


def test_rows_past_a_number_set_between_them_a_limit_at_the_foot_and_an_array_beside_a_formula(corpus):
    """What the twenty-eighth and twenty-ninth bodies brought: a split whose number stands between its
    second and third rows keeps its third row (the walk down goes on from the lowest ink the block
    has, not from the number's); an integral's lower limit on a page's last line, inside the box of
    the line above, is no folio; an array's \\hline spans the array only, so a formula set beside it,
    level with its middle row, stands after it, not in a column of its own; a script between the
    glyphs under a wide accent is under it too."""
    for name in TWENTY_EIGHTH_BODY:
        found = _formulas(corpus[name])
        assert found["2.2"].count(r"\\") == 2 and found["2.2"].endswith(r"R(\tau)].\end{aligned}"), (name, found["2.2"])
        assert r"\Gamma(z) = \int_{0}^{\infty}x^{z-1}e^{-x}dx." in found["1.20"], (name, found["1.20"])
    for name in TWENTY_NINTH_BODY:
        found = _formulas(corpus[name])
        assert found["1.10"].startswith(r"\begin{array}{cc|c}f & d & "), (name, found["1.10"])
        assert found["1.10"].endswith(r"\end{array}\quad P(d^{1} \mid c^{1}) = 0.12+0.24 = 0.36."), (name, found["1.10"])
        assert r"\\ \hline f^{0} & d^{0} & 0.58" in found["1.10"], (name, found["1.10"])
        assert found["2.11"].endswith(r"\widehat{\nabla_{\bm{\psi}}U}."), (name, found["2.11"])
    assert _formulas(corpus["termesmem-ac"])["1.17"].endswith(r"= 7,"), _formulas(corpus["termesmem-ac"])["1.17"]


def test_left_numbers_inside_a_list_and_before_a_wide_display(corpus):
    """What the thirty-first body brought (numbers on the left, leqno): inside a list amsmath sets the
    number at the list's indent, the left edge of its lines, well apart from the display; before a
    display too wide to centre it stands a little over an em from maths whose vectors are the text
    face's bold letters (nearly all maths, not all); newtxmath's maths italic for a text family
    (ebgMI, cochMI) is a maths font."""
    found = _formulas(corpus["garamond-ae"])
    assert found.get("1.26") == r"|u_{k+1, j}-u_{k, j}| \leq \Delta u_{j}, \quad j = 1, \dots, m.", found.get("1.26")
    assert found.get("1.22", "").startswith(r"\tilde{\mathbf{x}}_{k+1} = \mathbf{A}_{k}\tilde{\mathbf{x}}_{k}"), found.get("1.22")
    assert r"h\frac{\partial f}{\partial\mathbf{x}}" in found["1.22"], found["1.22"]


def test_limits_side_by_side_primes_in_scripts_and_a_side_notes_number(corpus):
    """What the thirty-second and thirty-third bodies brought: the limits of two operators side by side
    part at the widest gap between them (a bracket closing max's limit, nearer min's edge, stays with
    max); a script's letter keeps its prime, whatever is stacked under it (\\sum_{a'_{i}}) or over it
    (\\alpha_{a'}^{(k)}); a side note's equation number, set in the note's size beside a limit of the
    main column's display, is the note's, not a full-width display's; an align row's number level
    with it is that row's when the rows share a relation's column, whatever relation opens a row."""
    assert r"\max_{\pi_{1} \in \Delta(\mathcal{A}_{1})}\min_{a_{2} \in \mathcal{A}_{2}}" in \
        _formulas(corpus["libertinus-af"])["2.4"], _formulas(corpus["libertinus-af"])["2.4"]
    assert r"{\sum_{a'_{i} \in \mathcal{A}_{i}}\exp" in _formulas(corpus["tufte-af"])["1.18"], _formulas(corpus["tufte-af"])["1.18"]
    fira = _formulas(corpus["firamath-ag"])
    assert fira["2.8"].endswith(r"\alpha_{a'}^{(k)}(s')."), fira["2.8"]
    assert _formulas(corpus["tufte-ag"]).get("2.15") == r"|B_{m}| = \binom{m+n-1}{n-1}", _formulas(corpus["tufte-ag"]).get("2.15")
    # an align's \notag first row: the number, level with the second row, is that row's (its rows set
    # on one relation's column, the second opening with \Longrightarrow before it)
    for name in THIRTY_THIRD_BODY:
        row = _formulas(corpus[name])["2.29"]
        assert row.startswith(r"\Longrightarrow \frac{\partial\mathbf{u}}") and "\\\\" not in row, (name, row)


def test_braces_over_operators_bars_under_limits_and_fonts_read_from_the_pdf(corpus):
    """What the thirty-fourth to thirty-seventh bodies brought: a brace's body holds its operators'
    limits and no row beyond it (an underbrace under a row of tall matrices, an underbrace whose sum's
    upper limit nears it); a fraction's denominator is no limit of the \\log under it (cases rows); a
    one-row matrix between tall delimiters is a row vector; an augmented matrix keeps its \\hline; a
    limit's words in a script's size (\\log_b n - 1) and its scripts' scripts (a_{1:n}) stay in the
    limit; a 9 pt class's 7.3 pt scripts are scripts, not rows; a family's heavier cut (Libertine's
    semibold) is bold; and a maths extension font printed under its text face's name (Iwona) reads
    through its own font dictionary's glyph names."""
    ah = _formulas(corpus["tufte-ah"])
    assert ah["1.14"].startswith(r"\begin{aligned}\mathbf{x}^{\top}\mathbf{A}\mathbf{x} & = \begin{pmatrix}x_{1} & x_{2}\end{pmatrix}"
                                 r"\begin{pmatrix}4 & 1 \\ 1 & 3\end{pmatrix}"), ah["1.14"]
    assert r"\underbrace{3x_{1}^{2}+(x_{1}+x_{2})^{2}+2x_{2}^{2}}" in ah["1.14"], ah["1.14"]
    for name, number in (("tufte-ah", "2.7b"), ("iwona-ah", "2.2.4b")):
        assert _formulas(corpus[name])[number].endswith(
            r"\begin{cases}\frac{x^{1-\lambda}-1}{1-\lambda} & \text{if }\lambda \neq 1, \\ \log x & "
            r"\text{if }\lambda = 1, \end{cases}"), (name, _formulas(corpus[name])[number])
    iwona = _formulas(corpus["iwona-ah"])
    assert iwona["1.1.1"] == r"\mu(\bigcup_{i = 1}^{\infty}E_{i}) = \sum_{i = 1}^{\infty}\mu(E_{i}).", iwona["1.1.1"]
    assert r"\sqrt[3]{|x_{1}-y_{1}|^{3}+|x_{2}-y_{2}|^{3}}" in iwona["1.3.4"], iwona["1.3.4"]
    ai = _formulas(corpus["tufte-ai"])
    assert r"\begin{array}{ccc|c}C & P & D & \phi \\ \hline" in ai["1.4"], ai["1.4"]
    assert r"\underbrace{\frac{\log m}{2}\sum_{i = 1}^{n}" in ai["2.25"] and "⏟" not in ai["2.25"], ai["2.25"]
    for name in THIRTY_SIXTH_BODY:
        assert r"\underbrace{\sum_{j = 0}^{\log_{b}n-1}a^{j}f(n/b^{j})}_{\text{inner nodes}}" in \
            _formulas(corpus[name])["2.12"], (name, _formulas(corpus[name])["2.12"])
    assert r"\operatorname*{arg\,min}_{a_{1:n}:s_{n+1} \in \mathcal{G}}\sum_{k = 1}^{n}" in \
        _formulas(corpus["tufte-ak"])["1.5"], _formulas(corpus["tufte-ak"])["1.5"]
    acm = _formulas(corpus["acmart-ak"])
    assert r"\int_{\bar{t}_{j}}^{\infty}(t-\bar{t}_{j})p_{j}(t)dt" in acm["9.8"], acm["9.8"]
    assert acm["9.4"].startswith(r"\mathbf{x}_{k+1} = \mathbf{A}\mathbf{x}_{k}+\mathbf{B}u_{k}"), acm["9.4"]


def test_scripts_of_scripts_rows_of_words_arrays_of_figures_and_notes_under_braces(corpus):
    """What the thirty-eighth and thirty-ninth bodies brought: a parenthesised superscript whose own
    scripts are smaller is no small matrix (U_i^{(\\pi_1^{(j)}, \\pi_2^{(l)})}); an aligned block's row of
    words (\\text{subject to} & \\text{the Bellman equations}) keeps its rows above and below together;
    an array of figures in an example box, its column rule running through its numbered row, is that
    formula; a paragraph's line under a brace's low note is no row of the display; a wide accent over
    a name and a letter covers both."""
    al = _formulas(corpus["tufte-al"])
    assert al["1.19"] == r"u_{i}^{jl} = U_{i}^{(\pi_{1}^{(j)}, \pi_{2}^{(l)})}(b_{0}).", al["1.19"]
    assert al["2.25"].startswith(r"\begin{aligned}\operatorname*{maximize}_{U, \psi, \eta}") and \
        r"\text{subject to}" in al["2.25"] and r"\eta_{i} \geq 0.\end{aligned}" in al["2.25"], al["2.25"]
    assert al.get("2.29", "").startswith(r"\begin{array}{c|cccc}y & (0, 0) & (0, 1)"), al.get("2.29")
    assert "With independent" not in _formulas(corpus["ieee-al"])["7.4"], _formulas(corpus["ieee-al"])["7.4"]
    for name, numbers in (("tufte-am", ("2.8", "2.28")), ("llncs-am", ("7.5", "11.2"))):
        found = _formulas(corpus[name])
        assert found[numbers[0]].startswith(r"\widehat{\log P}(o_{1:T})"), (name, found[numbers[0]])
        assert "Expectation" not in found[numbers[1]] and "\\\\" not in found[numbers[1]], (name, found[numbers[1]])


def test_substacks_beside_operators_ceilings_and_rows_in_narrow_columns(corpus):
    """What the fortieth to forty-third bodies brought: a text-style sum's subscript in two lines is a
    \\substack (in a numerator), and so is an arg min's whose second line holds a script-size sum; an
    aligned programme's worded rows in a journal's narrow column; a ceiling built of pieces around a
    nested fraction, in a side note too, whose words stay in order; an overline under the row above's
    letter is no fraction; what follows a cases block on its middle row; a multline's first row with a
    script word; a fraction's subscript in the smallest style; a bar mapped to U+2223 as a vmatrix's
    and a \\bigl\\lvert's; the text's italic words in a theorem; \\dfrac rows in cases."""
    for name, number in (("tufte-am", "1.26b"), ("llncs-am", "5.3b")):
        assert _formulas(corpus[name])[number] == r"\hat{O}(o \mid s) = \frac{\sum_{\substack{1 \leq t \leq T \\ o_{t} = o}}" \
            r"\gamma_{t}(s)}{\sum_{t = 1}^{T}\gamma_{t}(s)},", (name, _formulas(corpus[name])[number])
    for name, number in (("tufte-ao", "2.17"), ("elsarticle-ao", "8.5")):
        assert r"\operatorname*{arg\,min}_{\substack{\bm{\lambda} \geq \mathbf{0} \\ \sum_{i}\lambda_{i} = 1}}" \
            in _formulas(corpus[name])[number], (name, _formulas(corpus[name])[number])
    an = _formulas(corpus["revtex-an"])["4.4"]
    assert an.startswith(r"\begin{aligned}\operatorname*{maximize}_{t, \bm{\phi}}") and r"\text{subject to}" in an, an
    ieee = _formulas(corpus["ieee-al"])["10.2"]
    assert r"\text{subject to}\quad\text{the Bellman equations}" in ieee, ieee
    for name in FORTY_SECOND_BODY:
        ap = _formulas(corpus[name])
        assert ap["1.5"].startswith(r"d \geq \lceil\frac{\ln\frac{"), (name, ap["1.5"])
        assert ap["1.32"].startswith(r"\overline{Q}(\mathbf{s}, \mathbf{a}_{2})"), (name, ap["1.32"])
        assert r"\end{cases}\quad\widetilde{U}(\mathbf{b})" in ap["2.23"], (name, ap["2.23"])
    assert "within $\\epsilon$ of the infinite one, it is enough that" in _text(corpus["tufte-ap"])
    # (the class's text italic is TeX Gyre Pagella's, its maths italic URW Palladio's; tufte-book sets both
    # in one family, where the words stay letters)
    assert r"U_{\text{FIB}}(\mathbf{b})" in _formulas(corpus["tufte-ap"])["2.8"], _formulas(corpus["tufte-ap"])["2.8"]
    assert r"\operatorname*{arg\,max}_{\mathbf{a}_{1:d}}\min_{" in _formulas(corpus["tuftebook-ap"])["1.28"]
    for name in FORTY_THIRD_BODY:
        aq = _formulas(corpus[name])
        assert r"e^{\frac{\theta_{xa}}{\tau}}" in aq["2.15"], (name, aq["2.15"])
        assert aq["2.12"].startswith(r"K = \lceil\frac{\log\frac{"), (name, aq["2.12"])
        assert aq["1.21"] == r"\bar{\kappa} = \sqrt[d]{N_{\operatorname{tree}}},", (name, aq["1.21"])
    noto = _formulas(corpus["notosans-aq"])
    assert r"\begin{vmatrix}1-\gamma p" in noto["2.25"], noto["2.25"]
    assert noto["1.17"].startswith(r"\sup_{b}|\widehat{U}(b)-U^{*}(b)| \leq"), noto["1.17"]
    y = _formulas(corpus["tufte-y"])["5.10"]
    assert y.startswith(r"q_{j}^{*}(\lambda) = \begin{cases}F_{j}^{-1}(1-\dfrac{\lambda}{r_{j}})"), y
    # the forty-fourth body: a limit off its sum's centre (amsmath's \colon), an alignat row ending in words
    # at the column's edge, a brace under a matrix; the thirty-eighth's hand-sized \Bigl[ … \Bigm| … \Bigr]
    for name in FORTY_FOURTH_BODY:
        ar = _formulas(corpus[name])
        assert r"\leq \sum_{i:\Delta_{i} > 0}\frac{8\ln h}{\Delta_{i}}" in ar["1.15"], (name, ar["1.15"])
        assert ar.get("1.31", "").startswith(r"\hat{\theta}_{B}+\sqrt{\frac{2\ln20}{4}}"), (name, ar.get("1.31"))
        assert r"\underbrace{\begin{bmatrix}1 & 0 & \Delta t & 0 \\ " in ar["2.2"] and \
            r"0 & 0 & 0 & 1\end{bmatrix}}_{\mathbf{T}_{s}}" in ar["2.2"], (name, ar["2.2"])
    al = _formulas(corpus["tufte-al"])["2.3"]
    assert r"\mathbb{E}\Bigl[\sum_{t = 0}^{h-1}" in al and r"\Bigm|b_{0}" in al, al


def test_letters_in_the_text_face_make_rows_scripts_and_braces(corpus):
    """Under mathastext the maths letters are the text face's and its scripts 0.82 of the text: a
    script at a script's shift after a letter is no row (\\theta_{ijk}^{m_{ijk}}), a brace whose tip
    points up is an overbrace though glyphs of a row's size stand on both sides, a multline's first
    row (its letters the text face's, set in by its gap) is no prose, and a number dropped below a row
    with limits under it is that row's."""
    found = _formulas(corpus["mathastext-ai"])
    assert found["5.1"].endswith(r"\theta_{\operatorname{ijk}}^{\mathrm{m}_{\operatorname{ijk}}}."), found["5.1"]
    assert found["9.3"].startswith(r"\operatorname{BIC}(\mathrm{G}) = \overbrace{\sum_{\mathrm{i} = 1}^{\mathrm{n}}"), found["9.3"]
    assert found["3.7"].startswith(r"\begin{aligned}\mathrm{P}(\mathrm{x}_{\mathrm{i}} \mid \mathbf{x}_{-\mathrm{i}}) & \propto"), found["3.7"]
    assert found["6.4"].startswith(r"\operatorname{mode}(\theta \mid \mathrm{m}, \mathrm{n}) = \begin{cases}"), found["6.4"]
    assert found["2.3"].startswith(r"\mathrm{b}_{\operatorname{ij}}(\mathrm{x}_{\mathrm{i}}, \mathrm{x}_{\mathrm{j}}) \propto"), found["2.3"]


def test_a_numbered_block_shows_every_row_in_the_text(corpus):
    """A row tagged in words ("(Fisher)") is no part of the numbered row above it, and the running text
    shows it; a \\nonumber row of an align stays in the text between its numbered neighbours."""
    for name in FOURTH_BODY:
        result = corpus[name]
        assert "Fisher" not in _formulas(result)["1.36"], name
        assert "(Fisher)" in _text(result), name
    for name in FIFTH_BODY:
        text = _text(corpus[name])
        # Holt's trend row carries no number of its own
        assert r"b_{t} & = \beta" in text or r"b_{t} = \beta" in text, name


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
def sample(fresh_build):
    """The sample book built by this checkout's builder (the session's build, which test_build compares
    with the committed knowledge file), served and scored."""
    require_shared("tools/formula_score.py")
    return formula_fidelity.score_knowledge(fresh_build[0], ROOT / "book" / "book.tex")


def test_sample_book_targets(sample):
    """The sample book: exact >= 90 %, mean similarity >= 0.995."""
    result = sample
    assert result["missing"] == 0 and result["empty"] == 0
    assert result["exact"] >= 0.90, result["exact"]
    assert result["similarity"] >= 0.995, result["similarity"]


def test_bitmap_fonts_letter_operators_root_indices_and_blocks_beside_a_row(corpus):
    """The forty-fifth body under Concrete's Type 3 bitmap fonts reads as it does under the user's class:
    an expectation made an operator keeps the limit centred under it (\\mathop{\\mathbb{E}}_{s \\sim \\mu});
    a root's index wider than the sign's arm is whole (\\sqrt[d+4]); an underline and an overline next to
    a fraction's bar are no fractions of their own; and an aligned block set beside a row, centred on it,
    follows that row."""
    for name in FORTY_FIFTH_BODY:
        found = _formulas(corpus[name])
        assert r"\gamma\mathop{\mathbb{E}}_{\mathbf{s}' \sim T(\cdot|\mathbf{s}, a)}[" in found["1.3"], (name, found["1.3"])
        assert r"\hat{\sigma}\sqrt[d+4]{\frac{4}{(d+2)n}}" in found["1.10"], (name, found["1.10"])
        assert r"\frac{s_{i}-\underline{s}_{i}}{\overline{s}_{i}-\underline{s}_{i}}" in found["1.15"], (name, found["1.15"])
        assert found["2.16"].startswith(r"\mathbf{A}\bm{\theta} = \mathbf{b}, \qquad \begin{aligned}\mathbf{A} & = "
                                        r"\mathop{\mathbb{E}}_{s \sim \mu}["), (name, found["2.16"])


def test_displays_in_a_cells_minipage_and_a_side_note_root_indices_and_blackboard_digits(corpus):
    """The forty-sixth and forty-seventh bodies' constructs: a display numbered in a table's minipage cell
    (its number at the cell's edge, or set below it when the display is too wide) and one in a side note
    under a root whose sign is built of pieces are found and read whole; a root's index keeps its own
    subscript (\\sqrt[n_{i}]); newtx's blackboard font, laid out as msbm, prints \\mathbb{1} at the slot of
    a negated relation."""
    for name in FORTY_SIXTH_BODY:
        found = _formulas(corpus[name])
        number = "1.20" if name == "tufte-at" else "20"
        assert found[number] == r"W(\pi) = \sum_{\mathbf{a} \in \mathcal{A}}\pi(\mathbf{a})\sum_{i = 1}^{n}R^{i}(\mathbf{a})", \
            (name, found.get(number))
    side = _formulas(corpus["tufte-at"])["1.29"]
    assert side.startswith(r"\bar{p} = \sqrt[T]{\prod_{t = 1}^{T}p_{t}} = \exp("), side
    for name in FORTY_SEVENTH_BODY:
        found = _formulas(corpus[name])
        assert found["1.14"].startswith(r"\tilde{L}_{i} = \sqrt[n_{i}]{\prod_{j = 1}^{n_{i}}y_{ij}} = "), (name, found["1.14"])
        assert found["1.3"] == r"N_{i}(t) = \sum_{s = 1}^{t}\mathbb{1}\{a_{s} = i\},", (name, found["1.3"])


def test_a_footnote_in_the_gutter_a_side_notes_fraction_and_sans_serif_bold_greek(corpus):
    """The forty-eighth and forty-ninth bodies' constructs: a two-column class's footnote, set 11 pt past
    its column into the gutter, keeps its display whole (it had been read line by line between the other
    column's rows); a side note's fraction whose denominator's last script came in the line beside it is
    typeset; a display a narrow tag's gap before its number, maths but for a bold letter of the text
    face, is numbered; a table's other rows are not rows of a cell's display; newtxsf's bold Greek
    (named "-bol") is \\bm and its blackboard E (a glyph named "bbE" the text layer reads as Å) is \\mathbb."""
    cantelli = r"\Pr(U-\mu_{U} \geq \tau) \leq \frac{\sigma_{U}^{2}}{\sigma_{U}^{2}+\tau^{2}},"
    tufte, aastex = _formulas(corpus["tufte-av"]), _formulas(corpus["aastex-av"])
    assert tufte["1.32"] == cantelli and aastex["32"] == cantelli, (tufte.get("1.32"), aastex.get("32"))
    assert aastex["1"].startswith(r"\mathcal{M} = (\mathcal{S}, \mathcal{A}, T, R, \mathbf{C}, \gamma, \mathbf{b})"), aastex["1"]
    assert tufte["2.11"] == r"\varrho_{\kappa}(Z) = \mu+\kappa\sqrt[p]{\mathbb{E}[(Z-\mu)_{+}^{p}]}", tufte["2.11"]
    sans = _formulas(corpus["newtxsf-aw"])
    assert sans["2.3"] == r"\mathbf{Z}^{\top}\mathbf{Z}\hat{\bm{\Theta}} = \mathbf{Z}^{\top}\mathbf{X}',", sans["2.3"]
    assert r"= \mathbb{E}[\bm{\Theta}" in sans["2.6"], sans["2.6"]


def test_aligned_programmes_cell_displays_double_spacing_and_glyph_names(corpus):
    """The fiftieth to fifty-third bodies' constructs: an aligned programme of "maximize" and "subject
    to" rows, as a gather's row with its number centred between the two, or set flush left in a
    journal's column (fleqn); a cell's display whose number stands below it or on its left (leqno);
    \\binom with accented parts; PazoMath's \\varpi (named "pi1"); Euler's bold ϵ at its low code; a
    double bar spaced as a relation (\\parallel); under double spacing (a thesis), a big delimiter
    after a \\sum set in a 12pt class's 10pt extension font and a programme's rows of words; a number
    dropped a line's pitch below a wide row in a float; an \\underbrace whose note's words stand on
    its own line, under a note in words under a \\max."""
    ax, mnras = _formulas(corpus["tufte-ax"]), _formulas(corpus["mnras-ax"])
    assert ax["2.16"].startswith(r"\begin{aligned}\operatorname*{maximize}_{\bm{\theta}}\quad L_{\bm{\theta}_{k}}(\bm{\theta}) \\ "
                                 r"\text{subject to}\quad\bar{D}"), ax["2.16"]
    assert mnras["44"].startswith(r"\begin{aligned}\operatorname*{maximize}_{\Delta\bm{\theta}}"), mnras["44"]
    assert r"\text{subject to}\quad\frac{1}{2}\Delta\bm{\theta}^{\top}" in mnras["44"], mnras["44"]
    assert r"\left." not in ax["2.25"] and r"(\mathbf{s}, \mathbf{a})|_{\mathbf{a} = " in ax["2.25"], ax["2.25"]
    ay, amsart = _formulas(corpus["tufte-ay"]), _formulas(corpus["amsart-ay"])
    cell = r"\mu_{n} = \frac{\tau_{0}^{-2}\mu_{0}+n\sigma^{-2}\bar{y}}{\tau_{0}^{-2}+n\sigma^{-2}}"
    assert ay["1.23"] == cell and amsart["5.4"] == cell, (ay.get("1.23"), amsart.get("5.4"))
    assert r"\binom{\alpha_{n}+\tilde{y}-1}{\tilde{y}}\varpi^{\alpha_{n}}(1-\varpi)^{\tilde{y}}" in ay["1.8"], ay["1.8"]
    assert r"\mathbf{X}\mathbf{w}+\bm{\epsilon}," in ay["1.20"], ay["1.20"]
    assert r"(\text{the chain's hyperprior})" in ay["1.24"], ay["1.24"]
    assert amsart["9.1"].startswith(r"D_{\operatorname{KL}}(q \parallel p(\cdot \mid \mathbf{y}))"), amsart["9.1"]
    thesis = _formulas(corpus["thesis-az"])
    assert thesis["2.16"] == r"C(T) = \sum_{i = 1}^{n}(\frac{K_{i}}{T}+\frac{h_{i}d_{i}T}{2}(1-\rho_{i})),", thesis["2.16"]
    assert r"\text{subject to}\quad\text{the runs can be sequenced on one line}, \\ T_{i} & > 0" in thesis["2.19"], thesis["2.19"]
    ba, achemso = _formulas(corpus["tufte-ba"]), _formulas(corpus["achemso-ba"])
    assert ba["1.25"].startswith(r"b'(\operatorname{quiet}) \approx 0.171,"), ba["1.25"]
    assert r"\{\underbrace{\operatorname{EVSI}-c_{z}}_{\operatorname{survey}}, 0\}" in ba["2.22"], ba["2.22"]
    assert achemso["12"].endswith(r"\\ \mathbf{1}^{\top}\mathbf{b} & = 1, \quad\mathbf{b} \geq \mathbf{0}.\end{aligned}"), achemso["12"]


def test_numbers_on_the_left_beside_flush_left_displays_and_a_side_notes_overfull_display(corpus):
    """The fifty-fourth and fifty-fifth bodies' constructs: under leqno with fleqn (memoir) a number at
    the left margin stands less than an em before its display, which opens with maths and a relation
    (43 of 59 numbers had been missed); a row whose first word is a bold vector in the text face is
    numbered by its place in the block's column of numbers; a number raised over its row in a
    table's cell; a side note's display set flush left past its measure, its number dropped below it
    (a name, \\operatorname{Var}, set against its bracket opens no sentence)."""
    memoir, tufte, multicol = _formulas(corpus["memoir-bb"]), _formulas(corpus["tufte-bc"]), _formulas(corpus["multicol-s"])
    assert memoir["1.2"] == r"G_{t} = \sum_{k = 0}^{\infty}\gamma^{k}r_{t+k+1} = r_{t+1}+\gamma G_{t+1}.", memoir["1.2"]
    assert memoir["2.8"] == r"\mathbf{w}_{\operatorname{TD}} = \mathbf{A}^{-1}\mathbf{b}.", memoir["2.8"]
    assert memoir["1.20"].startswith(r"\alpha_{n} = \alpha_{0}\frac{1+\frac{c}{\alpha_{0}}\frac{n}{N_{0}}}"), memoir["1.20"]
    assert memoir["1.25"].startswith(r"Q(s, a) \leftarrow Q(s, a)+\alpha("), memoir["1.25"]
    assert tufte["1.22"].startswith(r"\operatorname{Var}[\sum_{h = 1}^{L}D_{h}] = \mathbb{E}[L]"), tufte["1.22"]
    assert multicol["42"] == r"S = \mu(T+L)+z\sigma\sqrt{T+L}", multicol["42"]


def test_rows_too_wide_raised_numbers_side_by_side_limits_and_fonts_whose_names_say_nothing(corpus):
    """The fifty-fourth to fifty-ninth bodies' constructs: a number dropped below a row its \\text clause
    made too wide (the row's radical a line of pieces of its own); two such rows each keeping their own
    number; numbers raised over their rows on the left (subequations, an alignat with a text column); a
    paragraph line made taller by an inline fraction kept out of the display after it; a script on a
    grown delimiter and a limit starting right after a denominator; underlines under an integral's
    subscript and in a denominator; limits of operators side by side parted where each is centred;
    yhmath's extension font and sansmathfonts' maths fonts, whose glyph names say nothing true."""
    f = {name: _formulas(corpus[name]) for name in ("tufte-bc", "tufte-bb", "memoir-bb", "tufte-bg", "tufte-be",
                                                     "tufte-bd", "tufte-bf", "aomart-be", "sansmath-bg")}
    assert f["tufte-bc"]["1.20"].startswith(r"\sigma_{L} = \sqrt{\sum_{h = 1}^{L}\sigma_{h}^{2}} = \sigma\sqrt{L}\quad"), \
        f["tufte-bc"]["1.20"]
    assert f["tufte-bc"]["1.19"] == r"\hat{D}_{L} = \sum_{h = 1}^{L}\hat{d}_{t+h|t},", f["tufte-bc"]["1.19"]
    assert f["tufte-bb"]["1.5"].startswith(r"Q(s_{t}, a_{t}) \leftarrow Q(s_{t}, a_{t})+\alpha[r_{t+1}+\gamma\max_{a'}"), \
        f["tufte-bb"]["1.5"]
    assert "SARSA" not in f["tufte-bb"]["1.5"] and f["tufte-bb"]["1.6"].startswith(r"Q(s_{t}, a_{t}) \leftarrow"), \
        (f["tufte-bb"]["1.5"], f["tufte-bb"]["1.6"])
    assert f["tufte-bb"]["1.18"] == r"\alpha_{t}(s, a) = \frac{1}{(1+n_{t}(s, a))^{\omega}}, \quad\frac{1}{2} < \omega \leq 1.", \
        f["tufte-bb"]["1.18"]
    assert f["memoir-bb"]["1.23a"].startswith(r"e_{t}(s) = \begin{cases}\gamma\lambda e_{t-1}(s)+1"), f["memoir-bb"]["1.23a"]
    assert f["memoir-bb"]["1.23b"].startswith(r"e_{t}(s) = \begin{cases}1 & "), f["memoir-bb"]["1.23b"]
    assert f["memoir-bb"]["1.28"].startswith(r"Q(1, 0) = 7.2+0.1(8.85-7.2) = 7.365."), f["memoir-bb"]["1.28"]
    assert f["memoir-bb"]["2.21"] == r"w_{i} = (\frac{1}{N}\cdot\frac{1}{P(i)})^{\beta}/\max_{j}w_{j}.", f["memoir-bb"]["2.21"]
    assert r"\frac{1}{1-\gamma}\min_{\mathbf{w} \in \mathbb{R}^{d}}" in f["memoir-bb"]["2.10"], f["memoir-bb"]["2.10"]
    assert f["tufte-bg"]["1.16"].startswith(r"q^{C} = \frac{\alpha-w}{n+1}, \quad"), f["tufte-bg"]["1.16"]
    assert r"\int_{\underline{A}}^{z}" in f["tufte-be"]["1.4"], f["tufte-be"]["1.4"]
    assert r"\frac{\bar{Z}-\underline{Z}}{\underline{Z}}" in f["tufte-bd"]["2.9"], f["tufte-bd"]["2.9"]
    assert f["tufte-be"]["2.28"].startswith(r"\mathbf{Q}(S) = \underbrace{\mathbf{A}}_{m\times n}\underbrace{\mathbf{P}(S)}_{n\times1}"), \
        f["tufte-be"]["2.28"]
    assert f["tufte-bf"]["1.12"] == r"z^{*} = \min\quad\sum_{i = 1}^{m}\sum_{j = 1}^{n}c_{ij}x_{ij}", f["tufte-bf"]["1.12"]
    assert f["tufte-bf"]["2.19"].startswith(r"\sum_{\ell \in L}\sum_{p \in P^{\ell}:(i, j) \in p}f_{p} \leq u_{ij}"), \
        f["tufte-bf"]["2.19"]
    assert f["aomart-be"]["6.6"].startswith(r"\delta = \sqrt[n]{\frac{p_{n}}{p_{0}}}"), f["aomart-be"]["6.6"]
    assert r"\begin{array}{c|c}" in f["aomart-be"]["4.5"] and r"\hline" in f["aomart-be"]["4.5"], f["aomart-be"]["4.5"]
    assert f["sansmath-bg"]["1.14"] == r"\pi_{i}(q_{i}, \mathbf{q}_{-i}) = (\alpha-q_{i}-Q_{-i}-w)q_{i}, \quad Q_{-i} = \sum_{j \neq i}q_{j}.", \
        f["sansmath-bg"]["1.14"]
    assert f["sansmath-bg"]["1.3"] == r"\frac{\partial\pi_{R}}{\partial p} = a-2bp+bw = 0 \Longrightarrow p^{*}(w) = \frac{a+bw}{2b}.", \
        f["sansmath-bg"]["1.3"]


def test_annotated_chains_continued_rows_arrays_in_their_delimiters_and_aligned_values_in_cases(corpus):
    """The sixty-second to sixty-fourth bodies' constructs: an align's numbered row under \\nonumber rows
    served alone, as LaTeX numbers it, where it stands on an annotated relation's column
    (\\overset{(b)}{=}) or continues the rows above with a sign or a relation (an eqnarray's rows under a
    \\lefteqn), while a multline's last row, ending \\multlinetaggap before its number, keeps the whole
    display; notes over consecutive rows' relations each kept by its own; an array in delimiters told
    from a matrix or cases by the \\arraycolsep it keeps at its edges, with its column letters; an
    aligned block as a cases row's value; \\sideset's prime on a sum, never on an integral's scripts; a
    fence whose would-be closer another bracket inside matched; a word in a script alone; the user's
    class's \\subjectto, a phrase in the maths roman, read with its tie; two blocks side by side, each on
    baselines of its own, and a row set right of a block after it; a tall bar that opens a pair taking no
    script."""
    f = {name: _formulas(corpus[name]) for name in ("tufte-bj", "tufte-bh", "tufte-ar", "tufte-az", "tufte-bi",
                                                     "tufte-bl", "cmreport-bl", "cm", "tufte-bf", "tufte-be", "lmmath",
                                                     "tuftechapter", "tufte-bm")}
    assert f["tufte-bj"]["1.60"] == r"\overset{(d)}{\leq }\gamma\|V^{\tilde{\mu}}-V^{*}\|_{\infty}+2\gamma\varepsilon,", \
        f["tufte-bj"]["1.60"]
    assert f["tufte-bj"]["1.24"].startswith(r"\overset{(b)}{= }-2\bm{\Phi}^{\top}"), f["tufte-bj"]["1.24"]
    assert f["tufte-bj"]["1.35"].startswith(r"+\gamma\bar{V}^{n-1}"), f["tufte-bj"]["1.35"]
    assert f["tufte-bh"]["2.3"].startswith(r"+\Phi(-z_{1-\alpha/2}"), f["tufte-bh"]["2.3"]
    assert f["tufte-ar"]["1.25"] == r"+(1-\rho)\gamma V_{\lambda}(\alpha, \beta+1)\},", f["tufte-ar"]["1.25"]
    assert f["tufte-az"]["1.25"].startswith(r"\begin{aligned}C(x_{1}, x_{2}) & = \mathbb{E}["), f["tufte-az"]["1.25"]
    assert f["tufte-bi"]["2.19"].startswith(r"\begin{aligned}\operatorname{Var}[X_{j}]"), f["tufte-bi"]["2.19"]
    for name in ("tufte-bl", "cmreport-bl"):
        rows = f[name]["2.15" if name == "tufte-bl" else "2.2.6"]
        assert rows == r"= K+h\sum_{s = i+1}^{j}(s-i)d_{s}, \quad1 \leq i \leq j \leq T,", (name, rows)
        between = f[name]["1.27" if name == "tufte-bl" else "1.3.11"]
        assert between.startswith(r"\left.\begin{array}{rcl}X(N) & \leq & \min\{N/D, 1/D_{\max}\} \\ T(N) & \geq & "
                                  r"\max\{D, ND_{\max}\}\end{array}\right\}"), (name, between)
    assert f["tufte-bl"]["1.10"].startswith(r"\pi_{j}(n) = \left\{\begin{array}{ll}\pi_{j}(0)\frac"), f["tufte-bl"]["1.10"]
    assert f["tufte-bl"]["1.3"].startswith(r"\mathbf{P} = \left(\begin{array}{cccc}0 & 1 & 0 & 0"), f["tufte-bl"]["1.3"]
    assert f["cm"]["2.5"] == r"\mathbf{z} = \left(\begin{array}{c}\mathbf{x}_{B} \\ \mathbf{x}_{N}\end{array}\right)", f["cm"]["2.5"]
    assert r"\\ \begin{aligned}\min\{& d^{(k)}(j), \\ & \min_{i:(i, j) \in A}(d^{(k)}(i)+c_{ij})\}\end{aligned} & " \
        in f["tufte-bf"]["1.26"], f["tufte-bf"]["1.26"]
    assert f["tufte-bf"]["2.28"].startswith(r"\begin{cases}\begin{aligned}\eta_{\omega} \geq & Q("), f["tufte-bf"]["2.28"]
    assert r"\sideset{}{'}\sum_{j = 1}^{n}r_{j}" in f["tufte-be"]["1.15"], f["tufte-be"]["1.15"]
    assert f["lmmath"]["2.12"] == r"|\int_{a}^{b}f(x)dx| \leq \int_{a}^{b}|f(x)|dx", f["lmmath"]["2.12"]
    # (the source's bar is \bigg|, sized by hand: no \left. before the fraction, which would leave
    # \nulldelimiterspace after the equals sign's space)
    assert r"\frac{\partial\mathbf{h}}{\partial\mathbf{s}}|_{\bm{\mu}_{p}} = \begin{bmatrix}" in f["tufte-ar"]["2.13"], \
        f["tufte-ar"]["2.13"]
    assert f["tufte-bi"]["2.23"].startswith(r"\bm{\lambda}^{\mathrm{mod}} = "), f["tufte-bi"]["2.23"]
    assert r"\operatorname{subject~to}\quad\mathbf{c}^{\top}\mathbf{q}" in f["tuftechapter"]["4.13"], f["tuftechapter"]["4.13"]
    # the class's own \minprob and \subjectto; two of them side by side; \abs* round a sum
    assert r"\operatorname{subject~to}\quad\mathbf{x} & \in \mathcal{X}" in f["tufte-bm"]["1.1"], f["tufte-bm"]["1.1"]
    assert r"\end{aligned} \qquad \begin{aligned}\operatorname*{minimize}_{\mathbf{x}, \mathbf{s}}" in f["tufte-bm"]["1.25"], \
        f["tufte-bm"]["1.25"]
    assert r"_{\mu \geq 0}|\sum_{i = 1}^{n}a_{i}q_{i}(\mu)-A|" in f["tufte-bm"]["1.11"], f["tufte-bm"]["1.11"]
    assert r"\end{aligned} \qquad \mu_{i}(b_{i}-\langle\mathbf{a}_{i}, \mathbf{x}^{*}\rangle) = 0" in f["tufte-bm"]["1.29"], \
        f["tufte-bm"]["1.29"]


def test_dropped_numbers_units_relation_arrays_left_margins_and_brace_notes(corpus):
    """The sixty-sixth to seventy-first bodies' constructs and what older ones showed beside them: numbers
    amsmath dropped below rows too wide for them, each the row's above; a name without an operand after a
    number read as a unit; a script taken to the letter it is set after, so that two programmes side by
    side part at the right gap; an array{rcl} told from an aligned block by its column gaps; an OpenType
    font's bold small Greek as \\bm; a text-style fraction after a script run kept on its row; numbers on
    the left inside a list and beside a word under a maths accent; a display's scattered denominators no
    prose; brace notes on their braces' line; a side note in an outer margin on the left; a part running
    past its bar by an italic letter's overhang."""
    f = {name: _formulas(corpus[name]) for name in ("tufte-bc", "tufte-bk", "xchartertx-bk", "tufte-bl", "cmreport-bl",
                                                     "stickstoo-bm", "leqno-bo", "tufte-bo", "dvipsgs-bp", "tufte-bn",
                                                     "scrbook-bn", "kaobook-bq", "stixmath-bs")}
    assert f["tufte-bc"]["2.32"].startswith(r"\operatorname{MAE} = \frac{1}{5}(4.0+3.2+5.8+1.0+1.3) = 3.06"), \
        f["tufte-bc"]["2.32"]
    for name in ("tufte-bk", "xchartertx-bk"):
        assert f[name]["2.23"].endswith(r"\approx 7.6\text{ min}."), (name, f[name]["2.23"])
    for name, number in (("tufte-bl", "1.13"), ("cmreport-bl", "1.2.5")):
        assert f[name][number].startswith(r"\begin{array}{rcl}L & = & \sum_{j = 1}^{J}"), (name, f[name][number])
    assert f["stickstoo-bm"]["1.25"].startswith(
        r"\begin{aligned}\operatorname*{minimize}_{\mathbf{x}}\quad\mathbf{c}^{\intercal}\mathbf{x} \\ "), \
        f["stickstoo-bm"]["1.25"]
    assert r"\end{aligned} \qquad \begin{aligned}\operatorname*{minimize}_{\mathbf{x}, \mathbf{s}}" \
        in f["stickstoo-bm"]["1.25"], f["stickstoo-bm"]["1.25"]
    assert f["leqno-bo"]["2.4"] == r"\hat{\bm{\beta}} = (X^{\top}X)^{-1}X^{\top}\mathbf{y}.", f["leqno-bo"]["2.4"]
    assert r"e^{-\hat{\lambda}_{i}L}\frac{(\hat{\lambda}_{i}L)^{k}}{k!} \geq 1-\alpha" in f["tufte-bo"]["1.55"], \
        f["tufte-bo"]["1.55"]
    assert f["leqno-bo"]["6.7"].startswith(r"\operatorname{MSE}(\alpha, \beta, \gamma) = \frac{1}{n-m}"), \
        f["leqno-bo"]["6.7"]
    assert f["leqno-bo"]["6.9"].startswith(r"\widehat{\operatorname{CSL}} = 1-\frac{K}{N}\pm"), f["leqno-bo"]["6.9"]
    assert f["dvipsgs-bp"]["2.6"].startswith(r"\left.\frac{d}{dp}\lambda(p)(p-z)\right|_{p = p^{*}} = "), \
        f["dvipsgs-bp"]["2.6"]
    assert f["dvipsgs-bp"]["2.6"].endswith(r"p^{*}(z) = z+\frac{1}{\alpha},"), f["dvipsgs-bp"]["2.6"]
    for name in ("tufte-bn", "scrbook-bn"):
        assert r"\underbrace{n_{1}}_{\text{first stage}}+\underbrace{Kn_{2}}_{\text{one copy per scenario}}" \
            in f[name]["1.10"], (name, f[name]["1.10"])
    assert f["kaobook-bq"]["1.6"] == r"\min(y, D) = \sum_{k = 1}^{y}\mathbb{I}\{D \geq k\},", f["kaobook-bq"]["1.6"]
    assert r"\sum_{t = 0}^{\infty}\gamma^{t}R(s_{t}, a_{t})" in f["kaobook-bq"]["1.7"], f["kaobook-bq"]["1.7"]
    assert f["stixmath-bs"]["2.15"].startswith(
        r"\frac{\partial V}{\partial t}+\mu\frac{\partial V}{\partial x}+\frac{\sigma^{2}}{2}"), f["stixmath-bs"]["2.15"]


def test_note_displays_blocks_side_by_side_binomials_in_rows_and_abbreviations(corpus):
    """The seventy-second to seventy-fourth bodies' constructs and the older ones they showed: a side note's
    display beside an overfull row, numbered where the note's prose lines end; a note's binomial told from
    an array by the note's own leading; two cases blocks side by side; a number dropped above the next row's
    limits; a bar inside a sized pair dividing it only when as tall; an accented letter in no name; two
    aligned blocks parted by their rows' baselines; a multline's first row no prose; binomials in cases
    rows and \\dbinom in a fraction; abbreviations of the text face as one \\text word; the Euler extension
    font's sums; overlines in notes; a proof's end mark kept out of its display."""
    f = {name: _formulas(corpus[name]) for name in ("tufte-bs", "stixmath-bs", "kaobook-bq", "tufte-bv", "eulerlua-bv",
                                                     "tufte-bu", "ncmbook-bu", "tufte-bt", "kpsans-v", "tufte-d",
                                                     "eulerpx-bw", "tufte-bx", "mdutopia-bx", "amspazo-ca")}
    assert f["tufte-bs"]["2.7"] == r"\Pi(z) = (\frac{b}{b+\lambda(1-z)})^{a},", f["tufte-bs"]["2.7"]
    assert f["stixmath-bs"]["2.8"] == r"\Pr(D = n) = \binom{n+a-1}{n}q^{a}(1-q)^{n}.", f["stixmath-bs"]["2.8"]
    for name in ("tufte-bs", "stixmath-bs"):
        assert f[name]["1.8"].startswith(r"I(t) = \begin{cases}S-Dt & "), (name, f[name]["1.8"])
        assert r"\end{cases}\quad B(t) = \begin{cases}0 & " in f[name]["1.8"], (name, f[name]["1.8"])
    assert f["kaobook-bq"]["1.4"] == r"R(s, a) = r\mathbb{E}[\min(y, D)]-K\mathbb{I}\{a > 0\}-ca-h\mathbb{E}[(y-D)^{+}],", \
        f["kaobook-bq"]["1.4"]
    assert f["tufte-bv"]["1.29"].startswith(
        r"\lim_{n \to \infty}\Pr\Bigl(|\lambda-\lambda_{0}| > \varepsilon\Bigm|y_{1:n}\Bigr) = 0"), f["tufte-bv"]["1.29"]
    assert r"+n\bar{y}_{n}" in f["eulerlua-bv"]["1.23"], f["eulerlua-bv"]["1.23"]
    for name in ("tufte-bu", "ncmbook-bu"):
        assert r"\\ \text{s.t.}\quad\mathbf{A}\mathbf{x} & = \mathbf{b}, \\ \mathbf{x} & \geq \mathbf{0},\end{aligned} " \
            r"\qquad \begin{aligned}\operatorname*{maximize}_{\mathbf{y}}" in f[name]["2.1"], (name, f[name]["2.1"])
        assert f[name]["2.17"].startswith(
            r"\begin{aligned}\operatorname*{minimize}_{s, y^{\omega}, v^{\omega}}\sum_{k = 0}^{K}h_{k}s_{k}"), \
            (name, f[name]["2.17"])
    assert f["tufte-bt"]["2.14"] == (r"p_{n} = \begin{cases}\binom{N}{n}r^{n}p_{0}, & 0 \leq n \leq c, \\ "
                                     r"\binom{N}{n}\dfrac{n!}{c!c^{n-c}}r^{n}p_{0}, & c < n \leq N.\end{cases}"), \
        f["tufte-bt"]["2.14"]
    assert f["tufte-bt"]["2.16"] == r"E(N, c, r) = \frac{\dbinom{N-1}{c}r^{c}}{\sum_{k = 0}^{c}\dbinom{N-1}{k}r^{k}}.", \
        f["tufte-bt"]["2.16"]
    assert r"\frac{C(t)}{t}\xrightarrow{\text{a.s.}}\frac{\mathbb{E}[R_{1}]}{\mathbb{E}[T_{1}]}" in f["kpsans-v"]["6.5"], \
        f["kpsans-v"]["6.5"]
    assert r"\quad\text{e.g. }\alpha_{k} = \frac{1}{k}" in f["tufte-d"]["1.56"], f["tufte-d"]["1.56"]
    # (the Euler extension font's text-size sum in a cases row; an overline in a side note and in a footnote; a
    # proof's end mark under the display)
    assert r"\\ 1+\sum_{j \notin A}p_{ij}k_{j}^{A} & \text{if }i \notin A." in f["eulerpx-bw"]["2.9"], \
        f["eulerpx-bw"]["2.9"]
    for name in ("tufte-bx", "mdutopia-bx"):
        assert f[name]["1.13"].startswith(r"\Pr(|\overline{X}_{n}-\theta| \geq "), (name, f[name]["1.13"])
    assert f["amspazo-ca"]["2.16"] == r"\sum_{j \in C}x_{j} \leq |C|-1.", f["amspazo-ca"]["2.16"]


def test_scripts_inside_a_fractions_part_and_a_side_notes_last_line_beside_limits(corpus):
    """What the ninetieth and ninety-first bodies brought: a script of a glyph in a fraction's part stays
    in the part, a superscript over a short letter (\\frac{\\mathbf{v}^{\\top}\\mathbf{y}}{V}) and, at the
    second script level, a subscript under its superscript (e^{-\\frac{…}{2\\sigma_{i}^{2}}}); a side note's
    last line standing a point off the height of a display's upper limits is the note's, not the display's
    (words either side of the margin's edge are one full-width line only on one baseline)."""
    for name in NINETIETH_BODY:
        found = _formulas(corpus[name])
        assert found["1.6"].endswith(r"{2\sigma_{i}^{2}}}."), (name, found["1.6"])
        assert found["2.18"].count(r"\frac{\mathbf{v}^{\top}\mathbf{y}}{V}") == 2, (name, found["2.18"])
    found = _formulas(corpus["tufte-cm"])
    assert found["1.18"].endswith(r"(k-\mathbf{1}^{\top}\mathbf{x}-q)^{+}."), found["1.18"]


def test_a_possessive_after_inline_maths_is_the_texts(corpus):
    """`$i$'s` in running text: the apostrophe and the letters after it are the text face's, glued to the
    formula's last glyph, and TeX's maths would have set a prime from its symbol font; the word stays prose
    as `$n$-tuples` does (it was served `$i’\\mathrm{s}$`)."""
    assert "of customer $i$’s demand" in _text(corpus["amspazo-ca"])
    assert "of week $t$’s demand" in _text(corpus["amsproc-bd"])


def test_the_left_side_of_an_inline_relation_in_the_texts_bold(corpus):
    """Under the user's class \\mathbf is the text face's bold, so `$\\mathbf{A}\\mathbf{x} \\leq \\mathbf{b}$` printed a
    word of bold text before the relation the formula was found to open on, and was served "Ax $\\leq
    \\mathbf{b}$"; bold or italic letters right before a relation a formula opens on are its left side,
    as those right after one are its right side."""
    assert r"of the rows of $\mathbf{A}\mathbf{x} \leq \mathbf{b}$" in _text(corpus["tufte-ca"])
    assert r"the same solution with $\mathbf{P}(0) = \mathbf{I}$" in _text(corpus["tufte-ce"])
    # a superscript plus in the text face's figures, set against the bracket and glued to the sentence's comma
    assert r"stock $S(q) = (q-D)^{+}$, since" in _text(corpus["tufte-cd"])
    # an upright e of the text's roman with the formula's superscript set small and raised against it
    assert r"incurred at time $t$ is worth $\mathrm{e}^{-\rho t}$ of" in _text(corpus["tufte-bs"])
    # an operator's name in the text's roman glued to its argument's brace, before the formula's maths
    assert r"$\lfloor z\rfloor^{+}$ is $\max\{0, \lfloor z\rfloor\}$." in _text(corpus["tufte-cm"])
    # the sentence's comma between two formulas, in the text face (Pagella) where the formulas' own commas
    # and figures are the maths fonts' (Palladio), a word space after it
    assert r"they are Legendre’s, $b_{1} = 1$, $b_{2} = z$, $b_{3} =" in _text(corpus["tufte-j"])
    # an upright capital Greek letter alone in a sentence, in the roman the text shares with the maths
    assert r"a finite set $\Gamma$ of alpha" in _text(corpus["kp-d"])
    # a figure with a slash after the relation, and an argument in the text's bold inside the brackets the formula opened
    assert r"For $\alpha < 1/2$ the" in _text(corpus["tufte-ck"])
    assert r"again: $s(s\mathbf{I}-\mathbf{Q})^{-1}$ tends" in _text(corpus["tufte-ce"])


def test_a_display_integral_the_subset_holds_no_text_integral_for_is_read_by_its_outline(corpus):
    """KpMath-Sans (kpsans-v) and Euler Math (eulermath-q) set a display integral at a private-use code
    of their own, and neither subset holds a text-size integral to compare it with (variant_base): the
    glyph was dropped and its limits hung on nothing ("_{0}^{T}N(t)dt").  An integral is one tall
    narrow stroke hooked out to the right at its top and to the left at its bottom
    (build_glyphs.drawn_integral)."""
    sans, euler = _formulas(corpus["kpsans-v"]), _formulas(corpus["eulermath-q"])
    assert r"\frac{1}{T}\int_{0}^{T}N(t)dt = \lambda W" in sans["2.4"], sans["2.4"]
    assert sans["5.2"].startswith(r"\int_{z}^{\infty}x\phi(x)dx"), sans["5.2"]
    assert r"(\int_{0}^{\Delta}e^{" in euler["3"], euler["3"]


def test_a_tall_brackets_thin_arms_are_seen_at_its_outlines_edges(corpus):
    """Euler Math's \\Biggl[ and \\Biggr] (eulermath-q, 3 em tall, at private-use codes its subset holds no
    text-size bracket for) keep arms a thirtieth of their height thick: sampled only at the middles of
    its rows, the outline was a bare stem, no bracket at all, and the pair was dropped.  The top and bottom
    rows are sampled at the box's edges too (build_glyphs.outline_cells), and square_bracket reads them."""
    euler = _formulas(corpus["eulermath-q"])
    assert r"\mathbb{E}[\sum_{t = 0}^{N-1}" in euler["40"], euler["40"]
    assert r"\|_{\mathbf{R}}^{2}] & = \operatorname{tr}" in euler["40"], euler["40"]


def test_a_radical_assembled_of_pieces_is_one_sign(corpus):
    """Euler Math (eulermath-q) assembles the radical of \\sqrt[r]{\\prod_{i=1}^{r}\\sigma_{i}}, taller than
    its largest sign, from a foot, a straight piece and a top piece, each at a private-use code: the top
    piece, which the rule continues, was read as the sign and the foot as a second one, so the index
    went up as the foot's script and the product's limit under the root ("\\sqrt^{r}\\prod_{i=1}^{\\sqrt{r}}").
    The top piece and the foot under it, which no rule continues, are one sign
    (build_formula._assembled_radicals)."""
    euler = _formulas(corpus["eulermath-q"])
    assert r"= \sqrt[r]{\prod_{i = 1}^{r}\sigma_{i}} = " in euler["51"], euler["51"]


def test_inline_maths_in_running_text_read_again(corpus):
    """More rules for where an inline formula starts and ends, from the fonts and the geometry."""
    # the sentence's brackets around a formula, in the text face (Pagella), where the maths takes its own
    # brackets and signs from another face (Computer Modern's roman): "few ($F$)", not "few $(F)$"
    assert r"classed as few ($F$) or many ($M$) crates" in _prose(corpus["tufte-am"])
    assert r"is low ($L$), adequate ($A$) or" in _prose(corpus["tufte-ao"])
    # a formula broken after its relation: a figure or bold letter of the text face opening the next line is
    # its right side, and a bracket of the text face there closes the one the line above left open, even
    # where the break came after a bar that pairs with none (the relation `\mid`)
    assert r"combination $\mathbf{w} \geq \mathbf{0}$ of the rows" in _prose(corpus["amspazo-ca"])
    assert r"t) = \mathcal{N}(d \mid mt+c, \sigma^{2})$, and the" in _prose(corpus["mlmodern-u"])
    # the sentence's comma glued to a formula's last figures in the text face (Cochineal's and Times's
    # figures serve the maths), a word space after it where a formula's own comma has a thin space
    assert r"Legendre’s, $b_{1} = 1$, $b_{2} = z$, $b_{3}" in _prose(corpus["cochineal-j"])
    assert r"with $\sigma_{1} = 30$, $\sigma_{2} = 40$, $\sigma_{3} = 0$ and" in _prose(corpus["elegant-br"])


def test_a_symbol_font_drawn_in_a_text_faces_program_is_told_by_its_widths(corpus):
    """Kurier (kurierext-cc) and Iwona (iwona-ah) draw their symbol fonts in their text italic's program:
    three dictionaries share the name "Kurier-Italic", one of them naming its glyphs "N.kali", "minus",
    "element", and the ToUnicode map gives a calligraphic capital as its plain letter.  Nothing the text
    layer reports told that dictionary's glyphs from the italic's own, so \\mathcal{N} was served as N.
    The font is tied to its dictionary by the widths its glyphs take (every /Widths entry it was seen to
    take, none contradicted): a maths font's dictionary makes it the maths symbol font
    (build_glyphs._Raw._maths_dictionary)."""
    kurier, iwona = _formulas(corpus["kurierext-cc"]), _formulas(corpus["iwona-ah"])
    assert kurier["1.18"].startswith(r"\mathcal{N} = \{1, 2, \dots, T+1\}, \quad\mathcal{A} = \{"), kurier["1.18"]
    assert r"\min_{j:(j, i) \in \mathcal{A}}" in kurier["1.19"], kurier["1.19"]
    assert r"E \in \mathcal{F}," in iwona["1.2.1"], iwona["1.2.1"]
    assert r"\sup_{s \in \mathcal{S}}|U(s)|" in iwona["1.3.5"], iwona["1.3.5"]


def test_inline_maths_in_running_text_a_third_round(corpus):
    """A third round of rules for where an inline formula starts and ends, from the fonts and the geometry."""
    # a script set small against a few letters of the text face, no space between: lowered, a subscript,
    # which prose never sets (`\mathsf{H}_0` in Computer Modern's sans, `\operatorname{EBO}_0` in the roman);
    # raised, after a lone bold letter or opening on a bracket (a note's mark does neither)
    assert r"When $\mathsf{H}_{0}$ holds, the ratio" in _prose(corpus["tufte-n"])
    assert r"gives $\operatorname{EBO}_{0}(3) = 0.672$ and" in _prose(corpus["tufte-bi"])
    assert r"payoff matrices $\mathbf{R}^{1}$ and $\mathbf{R}^{2}$ choose" in _prose(corpus["tufte-d"])
    assert r"the elite samples $\mathbf{x}^{(1)}$ to" in _prose(corpus["tufte-z"])
    # where the maths sets its signs, figures and brackets in a face of its own (mathpazo's roman and
    # Computer Modern's brackets under a Pagella text), a bracket, a number, a roman word or a comma, colon
    # or dots in such a face are the maths' -- unless that face sets prose (a side note's roman, the
    # small capitals whose oldstyle figures number an algorithm's steps, a font with no name)
    q = _prose(corpus["tufte-q"])
    assert r"The pair $(\mathbf{A}, \mathbf{B})$ is controllable" in q
    assert r"observable pair $(\mathbf{Q}^{1/2}, \mathbf{A})$, to the" in q
    assert r"A fit near $100$ says the model" in q and r"one near $0$ says it" in q
    assert r"For rewards in $[0, 1]$ Hoeffding" in _prose(corpus["tufte-m"])
    assert r"Let $\mathbf{0}$ be an equilibrium" in _prose(corpus["tufte-ae"])
    assert r"the fill rate is $\operatorname{FR}(2) = p(0)+p(1) \approx 0.558$, while" in _prose(corpus["tufte-cq"])
    o = _prose(corpus["tufte-o"])
    assert r"samples $x^{(1)}, \dots, x^{(n)}$ from $p$" in o and r"variances $s_{1}^{2}, s_{2}^{2}$ are" in o
    assert r"$$d \geq \lceil" in _prose(corpus["tuftebook-ap"])
    assert r"Definition 1.1 (Approximate value iteration)" in _prose(corpus["concrete-as"])
    # the sentence's marks around a formula: a closing bracket of the text face that closes none of the
    # formula's, a number's comma before it, the comma glued to an accented letter, a question mark
    assert r"(stage 1, $T_{1} = 6$ days, $h_{1} = 4$) goes" in _prose(corpus["tufte-ch"])
    assert r"($1.96$ for $\alpha = 0.05$):" in _prose(corpus["tufte-co"])
    assert r"forecast $\hat{d}$," in _prose(corpus["tufte-ac"])
    assert r"foundries $i = 1, \dots, K$. A trial" in _prose(corpus["baskerville-au"])   # (a list's comma before \dots)
    assert r"below a target $\alpha$? The" in _prose(corpus["tufte-v"])
    # a bold operand after a binary sign, the sentence's comma glued to it
    assert r"along $\mathbf{y}-\mathbf{Q}\mathbf{s}$, which" in _prose(corpus["tufte-z"])


def test_inline_maths_in_running_text_a_fourth_round(corpus):
    """A fourth round: where the maths takes its roman from a face of its own (mathpazo's under a Pagella
    text), the glyphs of that face beside a formula are the formula's, though prose comes after them."""
    # a few letters of the maths' roman raised against a formula's letter: its superscript (a note's mark
    # is the text face's)
    assert r"than ordering $q^{\mathrm{S}}$" in _prose(corpus["tufte-cd"])
    assert r"bought at $c^{\mathrm{O}}$ an hour" in _prose(corpus["tufte-cp"])
    # an ellipsis of the maths' periods closing a formula, prose after it
    assert r"demands $t_{(1)} < t_{(2)} < \dots$ seen in full" in _prose(corpus["tufte-bh"])
    assert r"histories $h = a_{1}o_{1}a_{2}o_{2}\dots$ keeps" in _prose(corpus["tufte-r"])
    # the maths' exclamation mark glued to a formula: a factorial, not the sentence's
    assert r"tell apart all $n!$ orders" in _prose(corpus["tufte-aj"])
    assert r"\lambda^{x}/x!$ of each day" in _prose(corpus["tufte-w"])
    # a word of letters in a face that sets no prose, upright or a bold or italic of another family than
    # the text's (mathpazo's roman and bold, Computer Modern's sans, under a Pagella text): the maths' own,
    # a formula alone or the formula's beside one; a word glued to a glyph of another face ("Beta(2,")
    # says nothing of which faces set the line's prose
    assert r"variance $\operatorname{Var}(\hat{d}) = \alpha\sigma^{2}/(2-\alpha)$" in _prose(corpus["tufte-bo"])
    assert r"Its bias $\operatorname{bias}(\hat{\theta}) \coloneqq" in _prose(corpus["tufte-bh"])
    assert r"draw from $\operatorname{Beta}(2, 2)$ beats" in _prose(corpus["tufte-au"])
    assert r"the robust programme $\min_{\mathbf{x}}\max_{\omega}" in _prose(corpus["tufte-ck"])
    assert r"in the weeks $t \equiv 0\pmod{R}$ and" in _prose(corpus["tufte-bd"])
    assert r"each has $\operatorname{EBO}(1) = e^{-1} \approx 0.368$;" in _prose(corpus["tufte-cq"])
    assert r"for all vectors $\mathbf{x}$, $\mathbf{y}$ and scalars" in _prose(corpus["tufte-ah"])
    assert r"network $\mathsf{B} \to \mathsf{A} \leftarrow \mathsf{E}$ a burglary" in _prose(corpus["tufte-k"])
    # an order relation (`\preceq`) a formula opens on takes its left side, as `\leq` does
    assert r"An inequality $\mathbf{A}\mathbf{x} \preceq \mathbf{b}$ becomes" in _prose(corpus["cochineal-j"])


def test_inline_maths_in_running_text_a_fifth_round(corpus):
    """A fifth round: where a formula starts and ends told by the faces of the glyphs around it (the
    sentence's marks and words glued to it in the faces of prose, the maths' own signs and names)."""
    # capitals alone spell no prose: Computer Modern's sans setting "NP" and "PSPACE" is the maths' face,
    # and a word of prose hyphenated to such a name stays outside the formula
    assert r"A language is $\mathsf{NP}$-hard when every language in $\mathsf{NP}$ reduces" in _prose(corpus["tufte-aj"])
    assert r"horizon is $\mathsf{PSPACE}$-complete, while" in _prose(corpus["tufte-al"])
    # a sign of the maths' face glued before figures of the maths' face: a signed number
    assert r"matrix $\mathbf{A}$ has a $+1$ in row $i$" in _prose(corpus["tufte-bu"])
    # a comma and an ellipsis of the maths' roman close a list, though prose comes after
    assert r"The samples $\mathbf{x}^{(1)}, \mathbf{x}^{(2)}, \dots$ form a Markov chain" in _prose(corpus["tufte-ac"])
    assert r"Let $\hat{v}^{1}, \hat{v}^{2}, \dots$ be independent" in _prose(corpus["tufte-bj"])
    # a word of prose glued before a formula by a hyphen or a dash stays prose
    assert r"equilibrium. Level-$k$ reasoning" in _prose(corpus["tufte-af"])
    assert r"the cell Bexley–$D_{1}$ under" in _prose(corpus["tufte-bf"])
    # a word of prose glued after a formula ends it, and so does a word space between two letters, which
    # TeX's maths never sets: the next formula is another
    assert r"$K$-convex $g$ is $(aK)$-convex." in _prose(corpus["tufte-cf"])
    assert r"With $G$ $K$-convex, the optimal policy" in _prose(corpus["tufte-bq"])
    # the sentence's comma in a theorem's italic, and after the maths' figures in a line set tight
    assert r"does not depend on $K$, $D$ or $h$" in _prose(corpus["tufte-s"])
    assert r"for all $a \geq 0$, $b > 0$ and $y$" in _prose(corpus["tufte-az"])
    assert r"regimes are $0.1$, $0.3$ and $0.7$." in _prose(corpus["tufte-ba"])


def test_inline_maths_in_running_text_a_sixth_round(corpus):
    """A sixth round: the two forms of epsilon and phi read by the names TeX's Type 1 fonts give their
    glyphs, and the words a text face's italic spells in a theorem read as prose where that italic
    serves as the maths italic too."""
    # LuaTeX writes TeX's Type 1 fonts without a ToUnicode map: PazoMath's "epsilon1" is the lunate
    # \epsilon, its "phi" the stroked \phi and "phi1" the open \varphi (the Adobe list reads phi and phi1
    # the other way round)
    assert r"with probability $\epsilon$, and then it reports" in _prose(corpus["tufte-aa"])
    assert r"the virtual value is $\varphi(v) = 2v-1$." in _prose(corpus["tufte-p"])
    assert r"$\Diamond\phi \equiv \top\mathcal{U}\phi$" in _prose(corpus["tufte-aa"])
    # mathpazo's Latin maths letters are the text's Palatino italic: a theorem's words in it are prose,
    # its lone letters maths
    assert "The strong relaxation lies inside the weak one, and the inclusion is strict" in _prose(corpus["amspazo-ca"])
    assert r"Let $G$ be convex with" in _prose(corpus["mathpple-co"])
    assert "The programme (1.2) has an optimal plan that satisfies" in _prose(corpus["kerkis-cp"])
    # TeX takes a formula's period and comma from one maths font: a comma of the text face after a
    # decimal point of the maths italic is the sentence's
    assert r"weighs these by $0.1$, $0.8$ and $0.1$:" in _prose(corpus["kaobook-bq"])
    assert r"the shares $A_{11} = 0.55$, $A_{12} = 0.40$, $A_{21} = 0.35$ and" in _prose(corpus["jmlr-at"])
    assert r"with $\alpha = 0.3$, $\beta^{*} = 0.1$ and $\gamma = 0.2$." in _prose(corpus["libertinetx-cb"])
    # a subscript of the text's family after a maths font's letter is the formula's, and the text face's
    # comma after it the sentence's; where the maths' letters are the text's italic (Baskerville's maths),
    # its comma may be the text face's too, and the list stays one formula
    assert r"parameters $\mu_{0}$, $\kappa_{0}$, $\alpha_{0}$ and $\beta_{0}$" in _prose(corpus["amsart-ay"])
    assert r"foundries $a_{1}, a_{2}, \dots$ is what" in _prose(corpus["baskerville-au"])
    # an operator's name in the text's roman carrying a limit of the text's italic stays maths
    assert r"and $\min_{x}f(x)$ all stay within the line." in _prose(corpus["dvips"])


def test_inline_maths_in_running_text_a_seventh_round(corpus):
    """A seventh round: the sentence's brackets round a lone letter whatever face the maths takes its
    brackets from, and a binomial in running text written as its author did, `\\binom`."""
    # TeX's maths sets no bracket round a lone variable: brackets of the text face round a letter and
    # its scripts are the sentence's (Computer Modern's, whose maths brackets are the text's roman; the
    # subscript's figure of the text's family at the script size; a bracket a space apart from mathpazo's f)
    assert r"a calm line ($c$) and a rush ($r$), and two docks" in _prose(corpus["revtex-an"])
    assert r"few ($F$) or many ($M$) crates" in _prose(corpus["llncs-am"])
    assert r"and stocked ($s_{2}$), and two orders, small ($a_{1}$) and large" in _prose(corpus["aastex-av"])
    assert r"near ($n$) and far ($f$). Over a week" in _prose(corpus["tufte-an"])
    assert r"at cost 2 a unit ($x_{1}$) or by express" in _prose(corpus["ncmbook-bu"])
    # running text is set in TeX's text style, where \binom prints its parts small, as \tbinom does
    assert r"there are $\binom{2n-1}{n}$ different ones" in _prose(corpus["tufte-bh"])
    assert r"There are $\binom{n}{2}$ pairs of chains" in _prose(corpus["tufte-bg"])
    assert r"among the pharmacies in $\binom{x_{0}+J}{J}$ ways" in _prose(corpus["tufte-bj"])
    # a book whose prose is Latin sets a Greek letter only in its maths, from whatever face: GFS Didot's,
    # EB Garamond's and mathspec's maths print the text face's own Greek
    assert r"which for the Poisson rate is $I(\lambda) = 1/\lambda$. No unbia" in _prose(corpus["gfsdidot-bh"])
    assert r"and writing $\lambda$ for that fraction," in _prose(corpus["ebgaramond-cg"])
    assert r"made every $\Delta t$ and reward is discounted at a rate $\lambda$, the" in _prose(corpus["mathspec-l"])
    assert r"for a water pump, $1/\lambda$" in _prose(corpus["iwona-ah"])
    # unicode-math under math-style=upright leaves the variables at ASCII codes in the OpenType maths
    # font, which prints its other alphabets at the maths alphanumerics' codes and no italic letter there:
    # Euler's upright letters are variables, not \mathrm
    assert r"Each bag left over costs $c_{o}$, the beans" in _prose(corpus["eulerlua-bv"])
    assert r"output from the $p$ outputs and" in _prose(corpus["eulermath-q"])
    # the sentence's mark glued to a word the text layer reads before a glyph stacked over or under it
    # (a wide accent's word before its letter, a subscript before its superscript), right of every glyph
    # of the formula
    assert r"the weeks it has sampled, $\widehat{\mathbf{F}}$, with a small" in _prose(corpus["tufte-ax"])
    assert r"and costs $c_{ij}^{\ell}$, and the commodities" in _prose(corpus["tufte-bf"])
    # a colon glued to a formula's figures, a word space after it, is the sentence's: TeX's maths sets
    # its colon as a relation, spaced
    assert r"derivatives at $z = 1$: $\mathbb{E}[D] = " in _prose(corpus["tufte-bk"])
    # where the maths takes its brackets and commas from faces of its own, a name of the text face between
    # them is the formula's (`$(\mathrm{low}, \mathrm{low})$` with Computer Modern's brackets and mathpazo's
    # comma under a Pagella text)
    assert r"the joint action $(\operatorname{low}, \operatorname{low})$ alone remains" in _prose(corpus["tufte-at"])
    # a letter of the text's italic glued to an argument in upright brackets is a function applied, where
    # the maths italic is a text family's (Kurier's, mathpazo's Palatino with Computer Modern's brackets)
    assert r"Let $F(t)$ be the least cost" in _prose(corpus["kurierext-cc"])
    assert r"with a prior $p(\mathbf{z})$ and an encoder" in _prose(corpus["classicthesis-aj"])


def test_inline_maths_in_running_text_an_eighth_round(corpus):
    """An eighth round: where a formula's brackets, commas and colons end, told by their faces and the
    spaces TeX sets beside them; a name the maths applies, a queue's name and a wide accent's neighbour."""
    # where the maths takes its brackets, braces and commas from faces of its own, a name of the text face
    # closing on the maths' bracket or brace is the formula's though the sentence's comma is glued to it
    # (`$(\mathrm{small}, \mathrm{small})$,` with Computer Modern's brackets and mathpazo's comma under a
    # Pagella text; `$\{\mathrm{empty}, \mathrm{full}\}$,` with the symbol font's braces) ...
    assert r"joint actions $(\operatorname{small}, \operatorname{small})$, $(" in _prose(corpus["tufte-at"])
    assert r"$\mathcal{S} = \{\operatorname{empty}, \operatorname{full}\}$, and a belief" in _prose(corpus["tufte-cn"])
    # ... and, whatever the bracket's face, a name a thin space after the maths italic's comma (Computer Modern)
    assert r"Both $(\operatorname{small}, \operatorname{large})$ and $(" in _prose(corpus["jmlr-at"])
    # a comma of the text face after a formula's closing bracket is the sentence's: TeX's maths takes its
    # comma from the maths italic
    assert r"states $(0, 0)$, $(1, 0)$ and $(0, 1)$, where" in _prose(corpus["fdsymbol-cm"])
    # a colon ending a line is a relation TeX broke the formula after: the formula goes on overleaf
    assert r"Let $H^{A} = \inf\{n \geq 0: X_{n} \in A\}$ be the hitting" in _prose(corpus["tufte-bw"])
    # where the maths sets its figures and brackets in faces of its own, the text face's bracket and
    # figures are the sentence's, and so are the commas inside that bracket
    assert r"at stage 2 ($T_{2} = 2$, $h_{2} = 10$), quoted" in _prose(corpus["tufte-ch"])
    assert r"are $A \to B$ ($4$), $A \to C$ ($9$), $B \to C$ ($2$)" in _prose(corpus["tufte-ak"])
    assert r"standard normal ($1.96$ for $\alpha = 0.05$)" in _prose(corpus["tufte-co"])
    assert r"into the depot (node $1$), and arc $b$" in _prose(corpus["tufte-az"])
    # a word set against a maths font's glyph, no space between, is a name the maths applies, not prose
    assert r"with $\mathbf{O}_{o} = \operatorname{diag}(O(o \mid 1)" in _prose(corpus["tufte-ba"])
    # letters of the text face and its slash before the maths italic's letter are a name of prose
    assert r"is an M/M/$c$ queue" in _prose(corpus["tufte-v"])
    assert r"is an M/M/$c$ queue" in _prose(corpus["kpsans-v"])
    # the sentence's next word, glued by the text layer to the wide accent reaching over it
    assert r"a candidate $\widehat{S}$ is from the best" in _prose(corpus["tufte-bx"])
    # a script glued to a lone bold letter or to an upright e, the sentence's comma after it at the text's size
    assert r"utopia point $\mathbf{y}^{\operatorname{goal}}$, measuring" in _prose(corpus["tufte-j"])
    assert r"an integral against $\mathrm{e}^{-\rho t}$, which" in _prose(corpus["iso-cj"])
    # an absolute value in the text's italic between the maths' bars is a relation's left side
    assert r"for $|z| < 1/\rho$," in _prose(corpus["berenis-ci"])
    # a colon standing apart from the formula before it (a relation's space, or `\colon`'s) is the formula's
    assert r"$\mathcal{P}(j) = \{i:(i, j) \in \mathcal{A}\}$ and its" in _prose(corpus["cairo-ch"])
    assert r"A function $g:\mathbb{R} \to \mathbb{R}$ is" in _prose(corpus["mathabx-cf"])


def test_a_hyphen_after_inline_maths_at_a_lines_end_is_the_compounds(corpus):
    """A compound's hyphen right after a formula ("$K$-convex"), where TeX broke the line after it: the
    text face's hyphen touching the formula's last glyph is no minus of the maths (a maths font's, a
    binary sign's space before it), and no word is split there, so it stays when the lines are joined."""
    assert r"every stage’s cost-to-go is $K$-convex, and" in _prose(corpus["tufte-s"])
    assert r"the sum of a $K$-convex and" in _prose(corpus["multicol-s"])
    assert r"The $\epsilon$-constraint" in _prose(corpus["dejavu-j"])


def test_inline_maths_in_running_text_a_ninth_round(corpus):
    """A ninth round: where a formula's start and end stand, told by the faces of its commas, slashes and
    brackets, the spaces beside its figures and names, and the ellipsis between its terms."""
    # an operator's name inside the brackets the formula opened, in the text's roman, is the formula's
    assert r"so that $T(n) = \Theta(n\log n)$. The same" in _prose(corpus["classicthesis-aj"])
    # an ellipsis between a formula's terms: the comma before it, a first term of the text's figures and a
    # last one closing the maths' brace are the formula's
    assert r"a set of players $N = \{1, \dots, n\}$, a set" in _prose(corpus["ebgaramond-cg"])
    assert r"revenue from classes $1, \dots, j$ when" in _prose(corpus["dvipsgs-bp"])
    assert r"independent copies $X_{1}, \dots, X_{n}$ of the" in _prose(corpus["mdutopia-bx"])
    # a word of prose the text layer glued across a space to the formula's first letter is the sentence's
    assert r"and the first $d$ terms of" in _prose(corpus["libertinetx-cb"])
    assert r"over a lead time $T$ is" in _prose(corpus["octavo-bt"])
    assert r"and let $V$ be a continuously" in _prose(corpus["garamond-ae"])
    assert r"in place of $c$, and" in _prose(corpus["ebgaramond-cg"])
    # a letter of the text's italic applied to an argument in upright brackets, the symbol font's braces inside
    assert r"earn $v(\{1\}) = 8$, $v(\{2\}) = 10$," in _prose(corpus["ebgaramond-cg"])
    # the mark ending a proof, a quad or more after the formula, is not the formula's
    assert "with equality for $S = N$. □" in _prose(corpus["elegant-br"])
    # where the maths' figures and the sentence's brackets are one face, the text's: the bracket the
    # sentence opened and its commas are the sentence's
    assert r"stage 2 ($T_{2} = 2$, $h_{2} = 10$), quoted" in _prose(corpus["cairo-ch"])
    assert r"days, $h_{1} = 4$) goes" in _prose(corpus["cairo-ch"])
    assert r"normal (1.96 for $\alpha = 0.05$):" in _prose(corpus["mathpple-co"])
    # a comma or slash of the maths italic (the text's italic) after an upright figure is a formula's
    assert r"water pumps, $(4, 7)$ and $(6, 4)$, are" in _prose(corpus["iwona-ah"])
    assert r"The map $x \mapsto 1+1/x$ is a contraction on $[3/2, 2]$ with" in _prose(corpus["iwona-ah"])
    # a compound's words hyphenated between two formulas stay prose between them
    assert r"of a $k$-out-of-$n$ arrangement" in _prose(corpus["kplight-bi"])
    # inside the brackets the formula opened, a closing bracket set against its last glyph is its own
    assert r"the minimum in $(TV')(\mathbf{s})$. Then" in _prose(corpus["lmart-bj"])
    # a letter with its raised script in one word is the left side of the relation the formula opens on
    assert r"in $w$ is $\mathrm{e}^{0.6} \approx 1.822$, so" in _prose(corpus["fourierps-bz"])
    # a binary sign's left operand inside the bracket it opens, the text's bracket and italic or bold letter
    assert r"short by the factor $(n-1)/n$ on average" in _prose(corpus["gfsdidot-bh"])
    assert r"more than the $(a-w)^{2}/9$ of the" in _prose(corpus["ebgaramond-cg"])
    assert r"demand $\mathbf{d}$ is $(\mathbf{I}-\mathbf{R})^{-1}\mathbf{d}$." in _prose(corpus["amsproc-bd"])
    # the text face's upright Delta coded as the increment sign is a Greek letter of the maths, as Δ is
    assert r"84 for $\Delta = 4$, in place" in _prose(corpus["lmart-bj"])
    assert r"sampled every $\Delta$ seconds" in _prose(corpus["txfonts-q"])


def test_inline_maths_in_running_text_a_tenth_round(corpus):
    """A tenth round: an inline formula's two-dimensional parts (a big operator's limits and scripts, a root's
    sign, a display-style fraction's numerator and denominator, an accent over a script, a script over a
    script) kept on the line they belong to and written from the glyphs' geometry."""
    # a big operator's limits set over and under it, and its scripts beside it, that founded lines of their own
    assert r"whose weights satisfy $\sum_{i = 1}^{m}w^{(i)} = 1$. A sighting" in _prose(corpus["tufte-ar"])
    assert r"that is when $\sum_{k}\alpha_{k}$ diverges" in _prose(corpus["pxfonts-m"])
    assert r"with $\sum_{j = 1}^{n}q_{j} \leq w$. The day" in _prose(corpus["tufte-y"])
    # ... a script of the text's italic set against a summation sign, the operator's
    assert r"satisfy $\sum_{k = 1}^{\infty}\alpha_{k} = \infty$ and" in _prose(corpus["classicthesis-aj"])
    # ... and a name that takes limits with its limit under it, and its operand
    assert r"As $\lim_{n \to \infty}\operatorname{Var}[\hat{\mu}_{n}] = 0$, the estimate" in _prose(corpus["pxfonts-m"])
    # a radical sign or a summation sign a font hangs off the line's baseline joins the line
    assert r"shrinks as $1/\sqrt{n}$, so halving" in _prose(corpus["mdutopia-bx"])
    assert r"the cost $\sum_{j}h_{j}z\sigma_{j}\sqrt{\tau_{j}}$ decides how" in _prose(corpus["cairo-ch"])
    assert r"$-(c_{t}-c_{s}-\sum_{k = s}^{t-1}h_{k})x_{t} < 0$" in _prose(corpus["kurierext-cc"])
    # a display-style fraction's numerator and denominator in a gap of a line of prose, and a text-style
    # fraction whose numerator carries its own script
    assert r"receives the share $\frac{W_{h}S_{h}}{\sum_{g}W_{g}S_{g}}$ of the" in _prose(corpus["kpotf-o"])
    assert r"the running average $\frac{1}{n}\sum_{j = 1}^{n}u_{j}$" in _prose(corpus["concrete-m"])
    assert r"and $q^{C} = \frac{\alpha-w-(n-1)q^{C}}{2}$ gives" in _prose(corpus["sansmath-bg"])
    # an accent over a script, on the script's baseline, and over a Greek letter glued to a name
    assert r"the fixed points of $T_{\tilde{\mu}}$ and $T$" in _prose(corpus["lmart-bj"])
    assert r"\delta_{\hat{d}_{i}}$ of the past" in _prose(corpus["notofleqn-cd"])
    # a script over a subscript, and upright capitals raised over a lone letter of the maths
    assert r"$u_{i}^{\operatorname{open}}$ on day" in _prose(corpus["acmart-ak"])
    assert r"because $V^{\operatorname{PI}}$ is concave" in _prose(corpus["dvipsgs-bp"])
    assert r"than ordering $q^{\mathrm{S}}$" in _prose(corpus["notofleqn-cd"])
