"""How books and queries write the things bookrag looks for: references, stop words, code calls.

One home for each piece of syntax that the builder and the service both read: how a reference to a
numbered thing is written ("Algorithm 5.3", "eq. (4.10)", "see Figures 2.1 and 2.2", "(5.11)",
"Section 4.2"), which words carry no topic, and how code defines and calls functions.  Patterns
only: what a match means (a kind, a normalised number, an id) is rag_core's id rules.  Every
pattern runs in linear time (one quantifier per character class in sequence, no nesting).
Imports nothing of the project; rag_core.py, the adapters and the builder import it.
"""

from __future__ import annotations

import re
from typing import Iterable

# --------------------------------------------------------------------------- references
"""References: the words that name a kind, and how a number follows them."""

# Words agents and books write for a kind, singular, plural and abbreviated (rag_core.normalize_kind).
KIND_ALIASES = {
    "formula": "formula", "formulas": "formula", "equation": "formula", "equations": "formula",
    "eq": "formula", "eqs": "formula", "eqn": "formula", "eqns": "formula", "numbered_formula": "formula",
    "algorithm": "algorithm", "algorithms": "algorithm", "algo": "algorithm", "algos": "algorithm",
    "alg": "algorithm",
    "table": "table", "tables": "table", "tab": "table", "numbered_table": "table",
    "figure": "figure", "figures": "figure", "fig": "figure", "figs": "figure", "image": "figure",
    "captioned_image": "figure",
    "example": "example", "examples": "example", "ex": "example",
    "exercise": "exercise", "exercises": "exercise", "exr": "exercise", "exer": "exercise",
    "theorem": "theorem", "theorems": "theorem", "thm": "theorem",
    "lemma": "lemma", "lemmas": "lemma", "lemmata": "lemma", "lem": "lemma",
    "proposition": "proposition", "propositions": "proposition", "prop": "proposition",
    "corollary": "corollary", "corollaries": "corollary", "cor": "corollary",
    "definition": "definition", "definitions": "definition", "def": "definition", "defn": "definition",
    "remark": "remark", "remarks": "remark", "rem": "remark",
    "box": "box", "boxes": "box", "listing": "listing", "listings": "listing", "lst": "listing",
}

# A printed number: a chapter (or appendix letter) and dotted parts, with an optional letter ("5.12a").
NUMBER = r"(?:[A-Z]|\d+)(?:\.\d+)*[a-z]?"
NUMBER_RE = re.compile(rf"^{NUMBER}$")
# A section's number: a chapter and one to three further parts ("4.2", "4.2.1", "A.3").
SECTION_NUMBER = r"(?:[A-Z]|\d+)(?:\.\d+){1,3}"


def reference_pattern(kinds: Iterable[str]):
    """A query's explicit references to entities of these kinds: 'Algorithm 3.2', 'eq. (3.4)',
    'Thm 5.1', 'Assumption 2.1' (the book's own kinds), with the aliases agents use.
    Groups: the word, the number."""
    words = set(KIND_ALIASES) | set(kinds) | {k + "s" for k in kinds}
    alternation = "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))
    return re.compile(rf"\b({alternation})\.?\s*\(?((?:[A-Z](?![A-Za-z])|\d+)(?:\.\d+)*[a-z]?)\)?(?!\w|\.\d)",
                      re.IGNORECASE)


# A query naming a section outright: 'Section 4.2.1', '§ 4.2', 'sec. 3.1'.
SECTION_REFERENCE_RE = re.compile(rf"(?:\b[Ss]ection|\bsec\.|§)\s*({SECTION_NUMBER})\b")

# Running text mentioning numbered things, one or a list of them: "Algorithm 5.3", "eq. (4.10)",
# "Figs. 2.1 and 2.2", "Tables 3.1–3.3".  Groups: word, nums (split the list with MENTIONED_NUMBER_RE).
MENTION_WORDS = (r"algorithms?|algos?|equations?|eqs?\.?|eqn\.?|formulas?|figures?|figs?\.?|"
                 r"tables?|examples?|exercises?")
MENTIONED_NUMBER = r"\(?(?:[A-Z](?![A-Za-z])|\d+)(?:\.\d+)*[a-z]?\)?(?![\w.]\d)"
MENTIONED_NUMBER_RE = re.compile(MENTIONED_NUMBER)
_MENTIONED_NUMBERS = r"\s*(?P<nums>" + MENTIONED_NUMBER + r"(?:\s*(?:,|and|or|to|–|-)\s*" + MENTIONED_NUMBER + r")*)"
MENTION_RE = re.compile(rf"(?P<word>{MENTION_WORDS}){_MENTIONED_NUMBERS}", re.IGNORECASE)


def mention_pattern(kinds: Iterable[str]):
    """Mentions in running text of numbered things: the usual words ("eq.", "Figs.") and every kind the
    book itself numbers ("by Theorem 5.2", "see Definitions 2.4 and 2.5", "Assumption 3.1")."""
    words = {re.escape(k) + "s?" for k in kinds if k.isalpha()} | {re.escape(k) + "es" for k in kinds if k.endswith("x")}
    extra = "|".join(sorted(words, key=len, reverse=True))
    if not extra:
        return MENTION_RE
    return re.compile(rf"\b(?P<word>{MENTION_WORDS}|{extra}|thms?\.?|lems?\.?|props?\.?|cors?\.?|defs?\.?|defns?\.?)"
                      + _MENTIONED_NUMBERS, re.IGNORECASE)


# Running text mentioning the book's divisions: "Sections 4.2", "§ 4.2", "Chapter 5", "Appendix B", "Part II".
SECTION_MENTION_RE = re.compile(rf"(?:\b[Ss]ections?|§)\s*({SECTION_NUMBER})")
CHAPTER_MENTION_RE = re.compile(r"\b[Cc]hapters?\s+(\d+|[A-Z])\b")
APPENDIX_MENTION_RE = re.compile(r"\bAppendix\s+([A-Z])\b")
PART_MENTION_RE = re.compile(r"\bPart\s+([IVX]+)\b")

# An equation named by its number alone, in parentheses: "by (4.10)".  In running text the builder
# takes only chapter.number with a dot (so "(1, 2)" or "(2:3)" is not an equation); as an equation's
# printed tag, which the answerer looks for in a sentence, any depth and a colon too ("(1:1)").
EQUATION_MENTION_RE = re.compile(r"(?<![\w.])\(((?:[A-Z]|\d+)\.\d+[a-z]?)\)")
EQUATION_TAG_RE = re.compile(r"\((?:[A-Z]|\d+)(?:[.:]\d+)+[a-z]?\)")

# A question naming an entity, as the answerer reads it: the word as written, the number with dots or
# colons ("Figure 3.7", "equation (2.12)", "Theorem A.1").  Groups: word, number.
QUESTION_REFERENCE_RE = re.compile(r"\b(figure|fig\.|table|algorithm|theorem|lemma|corollary|proposition|definition|"
                                   r"example|listing|remark|exercise|equation|eq\.)\s*\(?"
                                   r"((?-i:[A-Z])(?:[.:]\d+)+|\d+(?:[.:]\d+)*)\b\)?", re.IGNORECASE)
# A number that only names a part of the book ("chapter 6", "Algorithm 6.1") or a footnote mark
# ("earned.7"): not a quantity.
CITATION_RE = re.compile(r"\b(?:chapters?|sections?|parts?|pages?|p\.|figures?|fig\.|tables?|algorithms?|theorems?|"
                         r"lemmas?|corollary|examples?|exercises?|listings?|equations?|eq\.)\s*\(?[A-Z]?[\d.:]+\)?"
                         r"|\w\.?\d+$", re.IGNORECASE)


# --------------------------------------------------------------------------- stop words
"""Stop words: words that carry no topic."""

# A query made of these and one rare term is a lookup of that term (rag_core.dense_weight); two
# content words side by side that are not these also search as a phrase (rag_core.fts_query).
STOPWORDS = frozenset("""a about an and are as at be by can do does for from how i in is it its me of on or
show tell that the their then there these this to what when where which who why will with""".split())

# The answerer weighs a question's words against the sentences that could answer it, so it sets
# aside more of a question's wrapping too: pronouns, "explain", "give", "how much".  It keeps "that"
# as a term: its sentence weights were tuned so, and setting it aside changes a sample-book answer.
QUESTION_STOPWORDS = frozenset(STOPWORDS | set("""into my our should them use used using was we would you
your between explain give much many""".split())) - {"that"}


# --------------------------------------------------------------------------- code
"""Code: the functions and classes a piece of code defines and the names it calls."""

DEF_RE = re.compile(r"^\s*(?:def|class)\s+([A-Za-z_]\w*)", re.MULTILINE)   # at any indentation
TOP_LEVEL_DEF_RE = re.compile(r"(?:def|class)\s+([A-Za-z_]\w*)")            # matched at a line's start
CALL_RE = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*\(")        # f(...), not obj.f(...)
METHOD_CALL_RE = re.compile(r"\.([A-Za-z_]\w*)\s*\(")          # obj.f(...)
_NOT_CALLS = ("def", "class", "return", "print")


def called_names(code: str) -> list[str]:
    """Names a piece of code calls (plain calls and method calls), in order of first use."""
    names = CALL_RE.findall(code) + METHOD_CALL_RE.findall(code)
    return list(dict.fromkeys(n for n in names if n not in _NOT_CALLS))
