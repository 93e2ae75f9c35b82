"""Formula search: a query written as maths (LaTeX or Unicode) finds the book's formulas of that shape.

Sections, top-down: maths tokens (one spelling for LaTeX macros, Unicode signs, spacing and sizing
commands), shapes (the tokens with variable letters renamed in order of appearance, so that bound
variables' names do not count), and the index and search (n-grams of both, weighted by rarity,
compared by cosine).  Core: imports rag_core and rag_budget only.  Linear-time tokenising.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from typing import Any

from rag_budget import MAX_FORMULA_QUERY, NavigationError, per_knowledge_base
from rag_core import BLANKS, KnowledgeBase, whole_number

# --------------------------------------------------------------------------- maths tokens
"""Maths tokens: a formula as a sequence of signs in one spelling, whichever way it was typed."""

# Commands that only size, space or style what follows: they print nothing of their own.
_SILENT = frozenset("""left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr middle displaystyle
textstyle scriptstyle limits nolimits quad qquad mathrm mathbf mathit mathsf mathtt mathcal mathscr mathbb
mathds mathbbm mathfrak boldsymbol bm text textrm textit textbf operatorname mbox hbox nonumber label tag notag cr
phantom vphantom hphantom hline""".split())
# Other spellings of one sign.
_ALIASES = {"le": "leq", "ge": "geq", "ne": "neq", "to": "rightarrow", "gets": "leftarrow", "lvert": "|",
            "rvert": "|", "vert": "|", "mid": "|", "lVert": "‖", "rVert": "‖", "Vert": "‖", "|": "‖",
            "lbrace": "{", "rbrace": "}", "{": "{", "}": "}", "ldots": "…", "dots": "…", "cdots": "…",
            "dotsc": "…", "dotsb": "…", "langle": "⟨", "rangle": "⟩", "varepsilon": "epsilon", "epsilon": "epsilon",
            "vartheta": "theta", "varphi": "phi", "phi": "phi", "varrho": "rho", "lnot": "neg", "land": "wedge",
            "lor": "vee", "colon": ":", "dfrac": "frac", "tfrac": "frac", "cfrac": "frac", "leqslant": "leq", "geqslant": "geq",
            "cdot": "cdot", "ast": "*", "parallel": "‖"}
_OPERATOR_NAMES = frozenset("min max log ln exp sin cos tan lim sup inf arg argmax argmin det dim ker Pr var "
                            "Var Cov E mod gcd".split())
_GREEK = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau "
          "upsilon phi chi psi omega").split()
# Unicode signs as the command that prints them.
_UNICODE_SIGNS = {"≤": "leq", "≥": "geq", "≠": "neq", "≈": "approx", "∼": "sim", "∝": "propto", "≡": "equiv",
                  "→": "rightarrow", "←": "leftarrow", "↦": "mapsto", "⇒": "Rightarrow", "∈": "in", "∉": "notin",
                  "⊂": "subset", "⊆": "subseteq", "∪": "cup", "∩": "cap", "∑": "sum", "∏": "prod", "∫": "int",
                  "∞": "infty", "∂": "partial", "∇": "nabla", "×": "times", "⋅": "cdot", "·": "cdot", "±": "pm",
                  "∣": "|", "⊥": "perp", "∀": "forall", "∃": "exists", "¬": "neg", "∧": "wedge", "∨": "vee",
                  "√": "sqrt", "−": "-", "∅": "emptyset", "…": "…", "ϵ": "epsilon", "ε": "epsilon", "ϕ": "phi",
                  "φ": "phi", "ϑ": "theta", "ℓ": "ell", "⊤": "top", "∘": "circ", "⊗": "otimes", "⊕": "oplus"}
for _i, _name in enumerate(_GREEK):
    _UNICODE_SIGNS.setdefault(chr(0x3B1 + _i + (1 if _i >= 17 else 0)), _name)
    _UNICODE_SIGNS.setdefault(chr(0x391 + _i + (1 if _i >= 17 else 0)), _name.capitalize())
_SUBSCRIPTS = dict(zip("₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢⱼ", "0123456789+-=()aeoxhklmnpstij"))
_SUPERSCRIPTS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿᵀ", "0123456789+-=()inT"))

_TOKEN_RE = re.compile(r"\\([A-Za-z]+)|\\(.)|([A-Za-z]+)|(\d+(?:\.\d+)?)|(\S)")
MAX_QUERY = MAX_FORMULA_QUERY


def _unicode_as_latex(text: str) -> str:
    """Unicode maths as LaTeX words: γ -> \\gamma, ≤ -> \\leq, xₜ -> x_t, x² -> x^2, 𝒮 -> S."""
    out = []
    for ch in text:
        if ch in _SUBSCRIPTS:
            out.append("_" + _SUBSCRIPTS[ch])
        elif ch in _SUPERSCRIPTS:
            out.append("^" + _SUPERSCRIPTS[ch])
        elif ch in _UNICODE_SIGNS:
            sign = _UNICODE_SIGNS[ch]
            out.append(f" \\{sign} " if sign.isalpha() else sign)
        elif ord(ch) > 127:
            plain = unicodedata.normalize("NFKC", ch)
            out.append(_UNICODE_SIGNS.get(plain, plain) if len(plain) == 1 and plain in _UNICODE_SIGNS else plain)
        else:
            out.append(ch)
    return "".join(out).replace("...", "…")


def maths_tokens(text: str) -> list[str]:
    """A formula's signs in order, in one spelling: commands by their canonical name, letters one by
    one (an operator's name whole), numbers whole; braces, spacing and sizing dropped; trailing
    punctuation dropped."""
    tokens: list[str] = []
    for command, escaped, letters, number, other in _TOKEN_RE.findall(_unicode_as_latex(text)):
        if command:
            if command in _SILENT:
                continue
            name = _ALIASES.get(command, command)
            tokens.append(name if not name.isalpha() or name in _OPERATOR_NAMES else "\\" + name)
        elif escaped:
            if escaped in ",;:! ":
                continue                      # thin, medium and thick spaces
            tokens.append(_ALIASES.get(escaped, escaped))
        elif letters:
            if letters in _OPERATOR_NAMES:
                tokens.append(letters)
            else:
                tokens.extend(letters)
        elif number:
            tokens.append(number)
        elif other in "{}$&":
            continue
        else:
            tokens.append(_UNICODE_SIGNS.get(other, other) if other in "|" else other)
    while tokens and tokens[-1] in (",", ".", ";"):
        tokens.pop()
    return tokens


def shape(tokens: list[str]) -> list[str]:
    """The tokens with each Latin letter renamed by order of first appearance (v1, v2, …): the
    formula's shape, whatever its variables are called."""
    names: dict[str, str] = {}
    out = []
    for token in tokens:
        if len(token) == 1 and token.isascii() and token.isalpha():
            names.setdefault(token, f"v{len(names) + 1}")
            out.append(names[token])
        else:
            out.append(token)
    return out


def grams(tokens: list[str], longest: int = 3) -> Counter:
    out: Counter = Counter()
    for n in range(1, longest + 1):
        for i in range(len(tokens) - n + 1):
            out[" ".join(tokens[i:i + n])] += 1
    return out


# --------------------------------------------------------------------------- index and search
"""Index and search: every numbered formula's n-grams, raw and as shape, weighted by rarity (idf)."""


class FormulaIndex:
    """The book's formulas as weighted n-gram vectors, built on first use."""

    def __init__(self, kb: KnowledgeBase):
        rows = list(kb.db.execute("SELECT id, number, content, page, pdf_page FROM chunks WHERE kind = 'formula' "
                                  "ORDER BY ord"))
        self.rows = rows
        raw = [grams(maths_tokens(r[2])) for r in rows]
        shaped = [grams(shape(maths_tokens(r[2]))) for r in rows]
        self.idf_raw, self.idf_shape = _idf(raw), _idf(shaped)
        self.raw = [_weigh(g, self.idf_raw) for g in raw]
        self.shaped = [_weigh(g, self.idf_shape) for g in shaped]

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        tokens = maths_tokens(query)
        q_raw = _weigh(grams(tokens), self.idf_raw)
        q_shape = _weigh(grams(shape(tokens)), self.idf_shape)
        scored = [(i, 0.5 * _cosine(q_raw, self.raw[i]) + 0.5 * _cosine(q_shape, self.shaped[i]))
                  for i in range(len(self.rows))]
        scored.sort(key=lambda pair: (-pair[1], pair[0]))
        return [pair for pair in scored[:k] if pair[1] > 0]


def _idf(documents: list[Counter]) -> dict[str, float]:
    seen: Counter = Counter()
    for document in documents:
        seen.update(document.keys())
    total = len(documents) or 1
    return {gram: math.log(1 + total / count) for gram, count in seen.items()}


def _weigh(counts: Counter, idf: dict[str, float]) -> dict[str, float]:
    # A gram the book never prints still counts against the query's length (weight of the rarest).
    rarest = max(idf.values(), default=1.0)
    vector = {gram: (1 + math.log(n)) * idf.get(gram, rarest) for gram, n in counts.items()}
    norm = math.sqrt(sum(v * v for v in vector.values())) or 1.0
    return {gram: v / norm for gram, v in vector.items()}


def _cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(gram, 0.0) for gram, v in a.items())


formula_index = per_knowledge_base(FormulaIndex)


def search_formulas(kb: KnowledgeBase, query: Any, k: Any = 5) -> dict:
    """The book's numbered formulas nearest in shape and symbols to a formula written as LaTeX or Unicode."""
    if not isinstance(query, str) or not query.strip(BLANKS):
        raise NavigationError("query must be a formula, as LaTeX (\\sum_{i} P(x_i)) or Unicode maths (∑ᵢ P(xᵢ))")
    if len(query) > MAX_QUERY:
        raise NavigationError(f"query must be at most {MAX_QUERY} characters")
    count = whole_number(k) if k is not None else 5
    if count is None or not 1 <= count <= 50:
        raise NavigationError("k must be a whole number between 1 and 50")
    index = formula_index(kb)
    results = []
    for i, score in index.search(query, count):
        cid, number, content, page, pdf_page = index.rows[i]
        results.append({"id": cid, "type": "formula", "number": number, "latex": content, "page_number": page,
                        "pdf_page": pdf_page, "score": round(score, 4)})
    return {"query": query, "results": results, "total_count": len(results)}
