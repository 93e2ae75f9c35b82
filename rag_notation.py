"""Notation: the symbols a book defines, what each means, and where it is defined.

Sections, top-down: symbols (a maths span as a look-up key, whatever its spelling), definitions
(read from the prose that introduces a symbol, and from a notation table when the book has one),
and look-ups (by symbol, all of them, or those of one formula).  Core: imports rag_core,
rag_budget, rag_outline and rag_formulas only.  Every pattern runs in linear time.
"""

from __future__ import annotations

import re
from typing import Any

from rag_budget import NavigationError, per_knowledge_base
from rag_core import BLANKS, KnowledgeBase
from rag_formulas import maths_tokens
from rag_outline import all_nodes

# --------------------------------------------------------------------------- symbols
"""Symbols: a maths span's tokens up to its first relation (the "x_t" of "x_t ≥ 0"), as a key."""

_RELATIONS = frozenset(["=", "<", ">", "\\leq", "\\geq", "\\neq", "\\approx", "\\sim", "\\in", "\\propto",
                        "\\equiv", "\\subset", "\\subseteq", "\\rightarrow", "\\leftarrow", ":", ","])
MAX_SYMBOL_TOKENS = 8


def symbol_key(latex: str) -> str | None:
    """The look-up key of a symbol (its canonical maths tokens, space-joined), or None when the span
    is not a symbol (empty, a number, an assignment "γ = 0.9", or a formula longer than a symbol).
    """
    tokens = maths_tokens(latex)
    for i, token in enumerate(tokens):
        if token in _RELATIONS:
            if token == "=" and i + 1 < len(tokens) and tokens[i + 1][:1].isdigit():
                return None
            tokens = tokens[:i]
            break
    if tokens.count("(") != tokens.count(")"):
        return None
    if not tokens or len(tokens) > MAX_SYMBOL_TOKENS or tokens[0][0].isdigit():
        return None
    if not any(t.isalpha() or t.startswith("\\") for t in tokens):
        return None
    return " ".join(tokens)


def symbol_text(latex: str) -> str:
    """The symbol's LaTeX, up to its first relation ("x_{t}" of "x_{t} \\geq 0")."""
    cut = re.split(r"\s*(?:=|<|>|\\leq?\b|\\geq?\b|\\neq\b|\\approx\b|\\sim\b|\\in\b|\\propto\b|,)", latex, maxsplit=1)
    return cut[0].strip()


# --------------------------------------------------------------------------- definitions
"""Definitions: the phrases that introduce a symbol, and notation tables."""

_MATH = r"\$([^$]{1,200})\$"
_ANY_MATH = re.compile(_MATH)
# What a meaning may hold: words up to the end of its clause.
_MEANING = r"([^,;.:$()\n]{3,90})"
_PROSE_PATTERNS = [
    # "where $\gamma$ is the discount factor", "with $\alpha$ the learning rate"
    re.compile(r"\b[Ww]here\s+" + _MATH + r"\s+(?:is|denotes|represents|stands for)\s+" + _MEANING),
    re.compile(r"\b[Ww]ith\s+" + _MATH + r"\s+(?:denoting\s+)?(?=the\s)" + _MEANING),
    # "let $\mathcal{S}$ denote the set of states", "let $x_t \geq 0$ be the number of units"
    re.compile(r"\b[Ll]et\s+" + _MATH + r"\s+(?:be|denote)\s+" + _MEANING),
    # "we write $B$ for the Bellman backup"
    re.compile(r"\b[Ww]rite\s+(?:the\s+\w+\s+)?" + _MATH + r"\s+for\s+" + _MEANING),
    # "$U^\pi$, the value of policy $\pi$" (an apposition right after the symbol)
    re.compile(_MATH + r",\s+(the\s+[^,;.:$()\n]{3,90})"),
    # ": $D$ is tomorrow's demand level", ". $P(x)$ is the prior" (the symbol opens its sentence)
    re.compile(r"(?:^|[.:;]\s)\s*" + _MATH + r"\s+is\s+(?:the\s+|an?\s+)?" + _MEANING),
    # "…, $P(y \mid x)$ the likelihood and $P(x \mid y)$ the posterior"
    re.compile(r"(?:(?<=, )|(?<=\band ))" + _MATH + r"\s+((?:the|one of)\s+[^,;.:$()\n]{3,90})"),
    # "the number of units sold is $$y_t = …$$" (a display naming what it computes)
    re.compile(r"\b[Tt]he\s+(?P<meaning>[a-z][a-z\- ]{2,50}?)\s+is\s+\$\$(?P<symbol>[^$]{1,200})\$"),
]
# "the discount factor $\gamma$", "an unknown rate $\lambda$": a short noun phrase naming the symbol after it.
_NAMED_BEFORE = re.compile(r"(?:\b(?:[Tt]he|[Aa]n?|[Ii]ts|[Tt]heir|[Ee]ach|[Ee]very|[Oo]ur|[a-z]+['’]s)|[,:;(]|"
                           r"\b(?:of|at|for|with|by))"
                           r"\s+((?:[a-z][a-z\-]+\s){0,2}[a-z][a-z\-]+)\s+\$?" + _MATH)
# Words that make a phrase before a symbol something other than its name ("the path from $x$").
_NOT_IN_A_NAME = frozenset("by of to in on at for from with as and or is are be than over under into onto "
                           "between given once when if then since until after before whenever where while "
                           "not only also written denoted called".split())
# What a phrase before a display names is the display itself ("the stock balance equation $$x_{t+1} = …$$").
_NAMES_OF_DISPLAYS = frozenset("equation equations formula rule identity inequality expression relation".split())
_TRAILING = frozenset("of the a an at in on for to by with from and or".split())
_STOP_WORDS_RE = re.compile(r"\s(?:which|that|so|when|if|whose|while|because|is|are|was|were|has|have|can|"
                            r"must|will|does|do|then)\s")
_NOTATION_HEADS = re.compile(r"(?i)\b(?:notation|symbols|nomenclature|list of symbols|abbreviations)\b")
_TABLE_ROW = re.compile(_MATH + r"\s+([^$\n]{2,80})")
MAX_MEANING_WORDS = 10


def _meaning(text: str) -> str | None:
    stop = _STOP_WORDS_RE.search(" " + text + " ")
    if stop:
        text = (" " + text)[:stop.start()]
    words = text.split()[:MAX_MEANING_WORDS]
    while words and words[-1].lower() in _TRAILING:
        words.pop()
    meaning = " ".join(words).strip(" -")
    return meaning if len(meaning) >= 3 and any(ch.isalpha() for ch in meaning) else None


class Notation:
    """Every definition the book makes, in reading order, each at its first place."""

    def __init__(self, kb: KnowledgeBase):
        self.definitions: list[dict] = []
        seen: set[tuple[str, str]] = set()
        table_pages = self._notation_pages(kb)
        mentioned: set[str] = set()    # symbols the chapter has printed so far, in reading order
        chapter: Any = None
        rows = kb.db.execute("SELECT id, kind, number, content, page, pdf_page, chapter FROM chunks ORDER BY ord")
        for cid, kind, number, content, page, pdf_page, in_chapter in rows:
            if kind == "formula":
                continue
            if in_chapter != chapter:    # books reuse letters: each chapter introduces its own
                chapter, mentioned = in_chapter, set()
            first_mentions = {}
            for match in _ANY_MATH.finditer(content):
                key = symbol_key(match.group(1))
                if key is not None and key not in mentioned and key not in first_mentions:
                    first_mentions[key] = match.start(1)
            found: list[tuple[str, str, str]] = []
            if pdf_page in table_pages:      # a notation table's rows, and no prose reading of them
                found += [(m.group(1), m.group(2), "table") for m in _TABLE_ROW.finditer(content)]
            for pattern in _PROSE_PATTERNS if pdf_page not in table_pages else ():
                found += [(m.group("symbol"), m.group("meaning"), "prose") if "symbol" in pattern.groupindex
                          else (m.group(1), m.group(2), "prose") for m in pattern.finditer(content)]
            # A noun phrase before a symbol names it where the chapter prints the symbol for the first time.
            found += [(m.group(2), m.group(1), "named") for m in _NAMED_BEFORE.finditer(content)
                      if first_mentions.get(symbol_key(m.group(2))) == m.start(2)
                      and not (content[m.start(2) - 2:m.start(2)] == "$$"
                               and m.group(1).split()[-1] in _NAMES_OF_DISPLAYS)]
            mentioned.update(first_mentions)
            for latex, meaning, how in found:
                key = symbol_key(latex)
                if how == "named" and _NOT_IN_A_NAME.intersection(meaning.lower().split()):
                    continue
                meaning = _meaning(meaning)
                if key is None or meaning is None:
                    continue
                if how == "named" and (len(key.split()) > 6 or any(c.isdigit() for c in meaning)):
                    continue    # a name is a short phrase before a symbol standing alone ("the rate $\lambda$")
                folded = " ".join(meaning.lower().split())
                if (key, folded) in seen or any(key == k for k, m in seen if m == folded):
                    continue
                seen.add((key, folded))
                self.definitions.append({"symbol": symbol_text(latex), "key": key, "meaning": meaning,
                                         "id": cid, "kind": kind, "page": page, "pdf_page": pdf_page,
                                         "source": "notation table" if how == "table" else "prose"})

    @staticmethod
    def _notation_pages(kb: KnowledgeBase) -> set[int]:
        pages: set[int] = set()
        for node in all_nodes(kb):
            if _NOTATION_HEADS.search(node.title) and node.pdf_page_start:
                pages.update(range(node.pdf_page_start, (node.pdf_page_end or node.pdf_page_start) + 1))
        return pages


notation_of = per_knowledge_base(Notation)


# --------------------------------------------------------------------------- look-ups
"""Look-ups: one symbol (LaTeX or Unicode), every symbol, or the symbols of one formula."""


def _public(definition: dict) -> dict:
    return {k: v for k, v in definition.items() if k != "key"}


def lookup(kb: KnowledgeBase, symbol: Any) -> dict:
    """The meanings of a symbol, as LaTeX (\\gamma, U^\\pi) or Unicode (γ, Uπ): exact first, then the
    symbol with scripts (x_t for x)."""
    if not isinstance(symbol, str) or not symbol.strip(BLANKS) or len(symbol) > 200:
        raise NavigationError("symbol must be a symbol as LaTeX (\\gamma, U^\\pi) or Unicode (γ), at most 200 characters")
    key = symbol_key(symbol.strip(BLANKS).strip("$"))
    if key is None:     # a number, an assignment, a whole formula: no symbol the book could define
        return {"symbol": symbol, "definitions": [], "with_scripts": [], "found": False,
                "note": "not a symbol: write one, such as \\gamma, x_t or U^\\pi"}
    notation = notation_of(kb)
    exact = [d for d in notation.definitions if d["key"] == key]
    # The symbol with scripts or arguments: x_t and x_{t+1} for x, U^π(s) for U^π.
    related = [d for d in notation.definitions if d["key"] != key and d["key"].startswith(key + " ")]
    return {"symbol": symbol, "definitions": [_public(d) for d in exact],
            "with_scripts": [_public(d) for d in related][:20],
            "found": bool(exact or related)}


def listing(kb: KnowledgeBase) -> dict:
    definitions = notation_of(kb).definitions
    return {"definitions": [_public(d) for d in definitions], "total_count": len(definitions)}


def symbols_in(kb: KnowledgeBase, latex: str) -> list[dict]:
    """The definitions of the symbols a formula uses (each symbol's token run found in the formula)."""
    tokens = maths_tokens(latex)
    text = " " + " ".join(tokens) + " "
    out, keys = [], set()
    for d in notation_of(kb).definitions:
        if d["key"] not in keys and f" {d['key']} " in text:
            keys.add(d["key"])
            out.append(_public(d))
    return out


def for_entity(kb: KnowledgeBase, ref: Any) -> dict:
    if not isinstance(ref, str) or not ref.strip(BLANKS) or len(ref) > 200:
        raise NavigationError("entity must be an id or a name such as formula_3_2 or 'Equation 3.2'")
    chunk = kb.get(ref)
    if chunk is None:
        raise NavigationError(f"no entity {ref!r} in this book", status=404)
    return {"entity": chunk.id, "symbols": symbols_in(kb, chunk.content)}
