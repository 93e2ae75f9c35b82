"""Grounded answers and the agent retrieval tool (specs 04 and 05) over rag_core.KnowledgeBase.

Sections: retrieval (the retrieve_content tool: the book, or only the text a user selected),
answering (extractive and deterministic by default; an OpenAI-compatible LLM when configured),
and the routes: answer_routes gives a Litestar Router with /tools, /tools/retrieve_content and
/ask in spec 05's error format, which rag.create_app mounts beside the other adapters' routers
(the MCP tool answer_question is rag_mcp's, over this module's answer).  Imports only the core.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Annotated, Any

import msgspec

from rag_core import (BLANKS, CLIENT_DECODE_ERRORS, NONBLANK, RETRY_AFTER_SECONDS, BudgetExceeded, Chunk, JsonSchema,
                      KnowledgeBase, check_deadline, decode_error_message, env, error_responses, now_iso, off_loop,
                      request_budget, time_budget, whole_number)
from rag_text import CITATION_RE, EQUATION_TAG_RE, QUESTION_REFERENCE_RE, QUESTION_STOPWORDS

# --------------------------------------------------------------------------- retrieval
"""Retrieval: the chunks an answer may use, from the book or from the user's selected text."""

# spec 04's Query: top_k between 1 and 100 (the chunks retrieved; the answer reads the first ANSWER_CHUNKS).
ASK_MAX_TOP_K = 100
# spec 04: confidence "high" when the best chunk's cosine is at least this.
HIGH_CONFIDENCE = 0.3
# Answer only when the book plausibly holds the answer: a clear semantic match, or a fair one whose
# content words the book actually uses (measured on the sample book: its 100 questions score a
# top cosine of 0.30-0.93, median 0.65; off-topic questions 0.11-0.32).
ANSWER_MIN_COSINE = 0.40
ANSWER_FAIR_COSINE = 0.30
REFUSAL = "I couldn't find that information in the book."



@dataclass
class Retrieved:
    """One chunk given to the answer: its text, similarity, metadata (spec 05) and citation."""

    text: str
    score: float
    metadata: dict[str, Any]
    chunk_id: str
    title: str
    headings: str = ""  # the titles of the chapter and sections that hold the chunk


@dataclass
class RetrievalContext:
    """spec 04's RetrievalContext."""

    query: str
    chunks: list[Retrieved]
    query_time_ms: float
    conflicting_info: bool = False
    has_relevant_results: bool = False
    book_words: float = 0.0   # share of the query's content words the book uses
    extra: dict = field(default_factory=dict)


class AnswerError(ValueError):
    """A failure in spec 05's error contract: error_type, message, fallback_action, HTTP status."""

    def __init__(self, status: int, error_type: str, message: str, fallback_action: str = "refuse_answer"):
        super().__init__(message)
        self.status, self.error_type, self.message, self.fallback_action = status, error_type, message, fallback_action

    def body(self) -> dict:
        return {"status": "error", "error": self.message, "error_type": self.error_type, "message": self.message,
                "fallback_action": self.fallback_action, "timestamp": now_iso()}


def chunk_metadata(chunk: Chunk) -> dict[str, Any]:
    """spec 05 metadata {source_url, module, chapter, chunk_index} plus page and title."""
    extra = chunk.extra or {}
    url = extra.get("source_url") or (f"{chunk.source}#page={chunk.pdf_page}" if chunk.source and chunk.pdf_page
                                      else chunk.source or "")
    meta = {"source_url": url, "module": extra.get("module") or chunk.part or "", "chapter": chunk.chapter or "",
            "chunk_index": int(extra.get("chunk_index", chunk.ord))}
    if chunk.page is not None:
        meta["page"] = int(chunk.page)
    title = chunk.title if chunk.kind != "text" else None
    meta["title"] = title or chunk.subsubsection_title or chunk.subsection_title or chunk.section_title \
        or chunk.chapter_title or ""
    if chunk.kind != "text":
        meta["entity"] = f"{chunk.kind} {chunk.number}"
    return meta


def headings_of(chunk: Chunk) -> str:
    return " ".join(t for t in (chunk.chapter_title, chunk.section_title, chunk.subsection_title,
                                chunk.subsubsection_title, chunk.title) if t)


def modules(kb: KnowledgeBase) -> list[str]:
    """The book's module names (a docs tree's top folders, or a PDF book's parts)."""
    return kb.parts()


def content_words(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z][a-z\-]{2,}", text.lower()) if w not in QUESTION_STOPWORDS]


def book_word_share(kb: KnowledgeBase, query: str) -> float:
    words = list(dict.fromkeys(content_words(query)))
    if not words:
        return 0.0
    # A word the book uses only once or twice (in passing) is no evidence that it covers the topic.
    found = sum(1 for w in words if kb.word_frequency(w) >= 3)
    return found / len(words)


def split_passages(text: str, max_words: int = 90) -> list[str]:
    """Selected text as passages: paragraphs, long ones cut at sentence ends."""
    passages = []
    for para in re.split(r"\n\s*\n", text):
        para = " ".join(para.split())
        if not re.search(r"[^\W\d_]", para):
            continue  # no words at all ("---", "1 2 3"): nothing to search
        current: list[str] = []
        for sentence in re.split(r"(?<=[.!?])\s+", para):
            if current and len(" ".join(current + [sentence]).split()) > max_words:
                passages.append(" ".join(current))
                current = []
            current.append(sentence)
        if current:
            passages.append(" ".join(current))
    return passages


def embed_within_budget(kb: KnowledgeBase, passage: str):
    check_deadline()  # up to 200 passages of selected text, one model run each
    return kb.embedder.embed([passage])


def retrieve(kb: KnowledgeBase, query: str, top_k: int = 5, selected_text: str | None = None,
             module: str | None = None) -> RetrievalContext:
    """The chunks for a query: from the book (optionally one module), or only from selected_text."""
    import numpy as np

    started = time.perf_counter()
    chunks: list[Retrieved] = []
    corrected = None
    if selected_text is not None:
        passages = split_passages(selected_text)[:200]
        if passages:
            q = np.frombuffer(kb.embedder.embed_query(query), dtype=np.float32)
            # One passage per model run: the same text always gets the same vector.
            vectors = np.vstack([embed_within_budget(kb, p) for p in passages])
            sims = vectors @ q
            for i in sorted(range(len(passages)), key=lambda i: (-float(sims[i]), i))[:top_k]:
                chunks.append(Retrieved(passages[i], round(max(0.0, min(1.0, float(sims[i]))), 4),
                                        {"source_url": "selected_text", "module": "selected_text",
                                         "chapter": "selected_text", "chunk_index": i}, f"selected_{i}",
                                        "selected text"))
        share = 1.0
    else:
        filters = {"part": module} if module else {}
        result = kb.search(query, k=top_k, filters=filters)
        for hit in result.hits:
            meta = chunk_metadata(hit.chunk)
            chunks.append(Retrieved(hit.chunk.content, round(max(0.0, min(1.0, hit.cosine)), 4), meta,
                                    hit.chunk.id, meta["title"], headings_of(hit.chunk)))
        share = book_word_share(kb, result.corrected_query or query)
        corrected = result.corrected_query
    context = RetrievalContext(query, chunks, round((time.perf_counter() - started) * 1000, 3), book_words=share)
    if selected_text is None and corrected:
        context.extra["corrected_query"] = corrected
    if selected_text is None and module:
        context.extra["module"] = module
    context.has_relevant_results = bool(chunks) and max(c.score for c in chunks) >= HIGH_CONFIDENCE
    context.conflicting_info = conflicting(chunks[:3])
    return context


_ASSERTION_RE = re.compile(
    r"\b((?:[a-z][a-z\-]+\s){0,3}[a-z][a-z\-]+)\s+(?:is|are|was|equals|of|=)\s+(?:about\s+|roughly\s+)?"
    r"(-?\d+(?:[.,]\d+)?)\s*(%|percent|units|days|weeks)?", re.IGNORECASE)


def conflicting(chunks: list[Retrieved]) -> bool:
    """True when two of the top chunks give one term two different numbers.

    The rule: statements "<term> is|are|was|equals|of|= <number>" are collected per chunk, the
    term reduced to its last two words; the same term with different numbers in two different
    chunks is a conflict ("the reorder point is 40 units" against "the reorder point is 55
    units").  It does not catch contradictions in words ("rises" vs "falls"), formulas written
    differently, numbers with different units for one term, or conflicts inside a single chunk.
    """
    seen: dict[str, tuple[int, str]] = {}
    for i, chunk in enumerate(chunks):
        for term, number, _unit in _ASSERTION_RE.findall(chunk.text):
            words = [w for w in term.lower().split() if w not in QUESTION_STOPWORDS]
            if not words:
                continue
            key = " ".join(words[-2:])
            value = number.replace(",", ".")
            if key in seen and seen[key][0] != i and float(seen[key][1]) != float(value):
                return True
            seen.setdefault(key, (i, value))
    return False


# --------------------------------------------------------------------------- answering
"""Answering: extractive by default (no network, byte-identical), an OpenAI-compatible LLM if set."""

SYSTEM_INSTRUCTIONS = {  # spec 05's system instructions, word for word
    "grounding_requirement": "Answer only using information from the retrieved book content. Do not use any "
                             "external knowledge.",
    "citation_requirement": "Every answer must cite module/chapter/URL metadata or explicitly state 'answer not "
                            "found in book'.",
    "refusal_behavior": "Refuse to answer when the requested information is not available in the retrieved "
                        "content.",
    "selected_text_mode": "When in selected-text-only mode, only use the provided selected text for answers.",
}
_LLM_CACHE: dict[str, str] = {}
_LLM_LOCK = threading.Lock()


def input_hash(query: str, mode: str, context: RetrievalContext) -> str:
    payload = {"query": query, "mode": mode, "chunks": [[c.chunk_id, c.text] for c in context.chunks]}
    return hashlib.sha256(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def citation_of(chunk: Retrieved) -> dict[str, Any]:
    """spec 04's Citation (page_title, page_url, module_name) and spec 05's (source_url, module, chapter).

    module_name is the module a module_filter names (spec 04), so it equals spec 05's module;
    page_title is the cited entity's caption or the innermost section title; title is kept as
    the earlier name of page_title.
    """
    meta = chunk.metadata
    out = {"page_title": chunk.title, "page_url": meta.get("source_url", ""), "module_name": meta.get("module", ""),
           "source_url": meta.get("source_url", ""), "module": meta.get("module", ""),
           "chapter": meta.get("chapter", ""), "title": chunk.title}
    if "page" in meta:
        out["page"] = meta["page"]
    return out


def cite_label(chunk: Retrieved) -> str:
    meta = chunk.metadata
    if meta.get("module") == "selected_text":
        return f"selected text, passage {meta['chunk_index'] + 1}"
    where = [chunk.title] if chunk.title else []
    if meta.get("chapter"):
        where.append(f"chapter {meta['chapter']}")
    if "page" in meta:
        where.append(f"p. {meta['page']}")
    return ", ".join(where)


# Extractive answers: the sentences of the top chunks that hold what was asked.
ANSWER_CHUNKS = 5        # chunks whose sentences compete for the answer
ANSWER_SENTENCES = 3     # sentences in an answer
EMBED_CANDIDATES = 12    # sentences embedded per answer (about 8 ms each), the lexically best ones
# A sentence's score: weighted shares of the question's terms in it and in its chunk, its cosine to
# the question, the cues below (about 0.1 each), less RANK_STEP per rank of its chunk.  The passage's
# evidence (its terms, its rank) weighs a little more than it did (0.15, 0.03): the sentence that
# answers is often short and names the topic only through its passage.  Measured on the sample book
# (tests/eval/evaluate_answers.py): W_CHUNK_TERMS 0.15-0.30 with RANK_STEP 0.04-0.07 all give
# 0.71-0.74, on odd and even chapters alike; the corpus books' rates do not move; this is the middle.
W_SENTENCE_TERMS, W_CHUNK_TERMS, W_COSINE, RANK_STEP = 0.35, 0.2, 0.5, 0.05
COVER_BONUS = 0.2  # per share of the question's term weight a later sentence adds to the answer
GLOSS_BONUS = 0.2  # the sentence after a chosen display usually says what the display means

_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"\u201c])")
_DEBRIS_RE = re.compile(r"^((?:\S{1,4}\s+){1,8}?)(?=[A-Z][a-z]{2,}\b)")
_WORD_RE = re.compile(r"[^\W_]+(?:_[^\W_]+)*")
_MATH_RE = re.compile(r"[=≤≥<>∑Σ∏∫√±×·∗′|^]|\b(?:min|max|arg|log|ln|exp)\b")
# What a question asks for, read from its wording (any book: these are English question forms).
_ASKS_FORMULA = re.compile(r"\b(?:formulas?|equations?|expressions?|formulated?|computed?|calculated?|measured|"
                           r"update rule|rule for|law of|bound|mass function|density|ratio|gain|score|"
                           r"mean|variance|expectation|expected value|probability of|equivalent|error|deviation)\b",
                           re.IGNORECASE)
_ASKS_QUANTITY = re.compile(r"\bhow (?:much|many|large|likely|wide|long|big|often|high|low)\b|"
                            r"\bwhat (?:profit|value|probability|fraction|share|level|number)\b|"
                            r"\b(?:which|what) \w+ (?:does|should|will)\b.*\b(?:next|order|choose|pick|try)\b|"
                            r"\bworked\b|\bexample of\b|^\s*example\b",
                            re.IGNORECASE)
_ASKS_DEFINITION = re.compile(r"^\s*(?:what (?:is|are|does)|define|state|explain|describe|why)\b", re.IGNORECASE)
_ASKS_REASON = re.compile(r"^\s*why\b|\bwhy (?:is|are|does|do|should|must|can)\b", re.IGNORECASE)
_BECAUSE = re.compile(r"\b(?:because|since|so that|therefore|hence|thus|which is why|so)\b", re.IGNORECASE)
_DEFINING = re.compile(r"\b(?:is|are) (?:called|defined|known as)\b|\bdefined (?:as|by)\b|\bmeans\b|"
                       r"\brefers to\b|\b(?:says|states|guarantees|implies) that\b", re.IGNORECASE)
# A signpost announces what a chapter or section will do; it answers nothing itself.
_SIGNPOST_RE = re.compile(r"^(?:this|the next|the following|the present) (?:chapter|section|part|appendix)\b|"
                          r"^(?:chapter|section|part) [\dA-Z.]+ (?:presents|introduces|develops|treats|shows|covers)\b|"
                          r"^in this (?:chapter|section)\b", re.IGNORECASE)
_CODE_RE = re.compile(r"\bdef \w+\(|\"\"\"|\breturn\b.*=|\bfor \w+ in range\(")


def stem(word: str) -> str:
    """A light English stem so that "orders", "ordered" and "ordering" meet "order"."""
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4 and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word


@lru_cache(maxsize=16384)
def terms(text: str) -> frozenset[str]:
    """Stemmed lower-case words of a text; an identifier (tol_bnd) also gives its parts."""
    out = set()
    for token in _WORD_RE.findall(text.lower()):
        out.add(stem(token))
        if "_" in token:
            out.update(stem(part) for part in token.split("_") if part)
    return frozenset(out)


def query_terms(kb: KnowledgeBase, texts: list[str]) -> dict[str, float]:
    """The question's content terms with their rarity in the book (inverse collection frequency).

    A word the book never uses carries no weight unless it looks like an identifier (digits or
    underscores): a misspelling must not make every sentence look like a partial match.
    """
    total = kb.word_total()
    weights: dict[str, float] = {}
    for text in texts:
        for token in _WORD_RE.findall(text.lower()):
            if token in QUESTION_STOPWORDS or len(token) < 2 or (len(token) < 3 and not any(c.isdigit() for c in token)):
                continue
            freq = kb.word_frequency(token)
            if not freq and not re.search(r"[\d_]", token):
                continue
            weight = math.log((total + 1) / (freq + 1))
            for t in {stem(token)} | ({stem(p) for p in token.split("_") if p} if "_" in token else set()):
                weights[t] = max(weights.get(t, 0.0), weight)
    return weights


@lru_cache(maxsize=4096)
def sentences(text: str) -> tuple[str, ...]:
    """A chunk's text as sentences; an equation number stays with the display it numbers."""
    text = re.sub(r"\[(?:Side note|Drawing)\][^\n]*", "", text)
    pieces = _SENTENCE_END_RE.split(" ".join(text.split()))
    out: list[str] = []
    for piece in pieces:
        tag = EQUATION_TAG_RE.match(piece)
        if tag and out:  # "(6.4) The optimal order ..." : the number closes the previous display
            out[-1] += " " + tag.group(0)
            piece = piece[tag.end():].strip()
        debris = _DEBRIS_RE.match(piece)
        if debris and not re.search(r"[^\W\d_]{4,}", debris.group(1)):
            piece = piece[debris.end(1):]  # "n=1 n=1 The first condition ...": a display's leftovers
        if piece:
            out.append(piece)
    return tuple(out)


def readable(sentence: str) -> bool:
    """Prose, or a display that carries its equation number; not a run of extraction debris."""
    if not 25 <= len(sentence) <= 600:
        return False
    chars = [ch for ch in sentence if not ch.isspace()]
    letters = sum(ch.isalpha() for ch in chars) / max(1, len(chars))
    # Worked numbers count as words ("a posterior with mean 48/3.25 ≈ 14.77"); stray symbols do not.
    words = sum(ch.isalnum() or ch in ".,;:" for ch in chars) / max(1, len(chars))
    return (letters > 0.45 and words > 0.8) or letters > 0.6 or (letters > 0.25 and bool(EQUATION_TAG_RE.search(sentence)))


def overlap(a: str, b: str) -> float:
    """Share of the shorter sentence's terms that the other one also has."""
    ta, tb = terms(a), terms(b)
    return len(ta & tb) / max(1, min(len(ta), len(tb)))


@lru_cache(maxsize=8192)
def _sentence_vector(embedder, sentence: str):
    return embedder.embed([sentence])[0]


def sentence_vector(kb: KnowledgeBase, sentence: str):
    """A sentence's embedding, computed alone (so always the same) and kept for the next question."""
    return _sentence_vector(kb.embedder, sentence)


@dataclass
class Asks:
    """What a question asks for, read from its English form (and its typo-corrected form)."""

    formula: bool       # a formula, rule, bound, mean …: a display or an equation number answers
    number: bool        # how much / how many / a worked example: a number or a formula answers
    definition: bool    # what is / define: a defining sentence answers
    reason: bool        # why: a reason answers
    exercise: bool      # it asks about an exercise or its solution
    code: bool          # it asks about code, or how to do something
    references: list[tuple[str, str]]   # the entities it names: ("figure", "3.7"), ("equation", "2.12")


def read_question(query: str, corrected: str | None) -> Asks:
    asked = " ".join([query, corrected or ""])
    return Asks(
        formula=bool(_ASKS_FORMULA.search(asked)), number=bool(_ASKS_QUANTITY.search(asked)),
        definition=bool(_ASKS_DEFINITION.search(asked)), reason=bool(_ASKS_REASON.search(asked)),
        exercise=bool(re.search(r"\bexercises?\b|\bsolutions?\b", asked, re.IGNORECASE)),
        # Code answers a question about code, or one asking how to do something (a procedure).
        code=bool(re.search(r"\w_\w|\w\(|\bcode\b|\bfunction\b|\bcommand\b|\bimplement|\bsteps?\b|"
                            r"\bprocedure\b|^\s*how (?:do|can|should|would) (?:i|we|you|one|an? \w+)\b",
                            asked, re.IGNORECASE)),
        references=[({"fig": "figure", "eq": "equation"}.get(k.lower().rstrip("."), k.lower().rstrip(".")),
                      n.replace(":", ".")) for k, n in QUESTION_REFERENCE_RE.findall(asked)])


@dataclass
class Candidate:
    """A sentence that competes for the answer: its score, its passage's index, its index there."""

    score: float
    passage: int
    index: int
    sentence: str

    @property
    def order(self) -> tuple[int, int]:
        return self.passage, self.index


def extractive_answer(kb: KnowledgeBase, query: str, context: RetrievalContext) -> tuple[str, list[Retrieved]]:
    """The sentences of the top chunks that answer the question, with [n] citations.

    Every sentence of the top ANSWER_CHUNKS chunks is a candidate.  Its score adds
    - the share of the question's content terms it contains, each weighted by its rarity in the
      book (inverse collection frequency), so "newsvendor" counts for more than "order", and
      less so the share its chunk and the chunk's section titles contain (a formula rarely
      repeats the name of its topic);
    - what the question asks for (sentence_cues): a question about a formula, rule or bound
      favours a sentence holding a display or its equation number; "how much / how many / how
      likely" favours a sentence with a number; "what is / define / why" a defining sentence;
      "Figure 3.7" or "equation 2.12" the sentence that names that entity or carries "(2.12)";
    - the cosine between the sentence (embedded alone) and the question, for the
      EMBED_CANDIDATES sentences best on the above;
    - a small preference for higher-ranked chunks.
    A formula entity among the chunks (its display alone) is replaced by the passage that prints
    it, whose sentences say what the display is; a text chunk's last sentence cut short by a
    display or a page goes on with the first sentence of the section's next text chunk.
    When the question asks for a formula or a quantity, the displays that the top chunks cite by
    number ("the critical fractile rule (6.4)") compete too: the passage that prints display (6.4)
    often answers better than the passages that use it.
    The best ANSWER_SENTENCES are returned in reading order; returns (text, the chunks cited).
    """
    import numpy as np

    corrected = context.extra.get("corrected_query")
    weights = query_terms(kb, [query] + ([corrected] if corrected and corrected != query else []))
    asks = read_question(query, corrected)
    considered, ranks, printed = answer_passages(kb, context, asks)
    in_book = bool(considered) and considered[0].metadata.get("module") != "selected_text"
    # Equation numbers the top chunks' captions cite: the display printing one is what they point to.
    pointed = {tag for c in considered[:3] for tag in EQUATION_TAG_RE.findall(c.title)} \
        if asks.formula or asks.number else set()
    # Within the passages at hand, a term most sentences share (the topic) tells them apart less
    # than one few sentences have (the aspect asked about).
    unit_terms = [terms(u) for c in considered for u in sentences(c.text)]
    n_units = max(1, len(unit_terms))
    weights = {t: w * math.log(1 + n_units / (1 + sum(t in ut for ut in unit_terms))) for t, w in weights.items()}
    total_weight = sum(weights.values()) or 1.0
    candidates = []
    for ci, chunk in enumerate(considered):
        check_deadline()
        around = terms(f"{chunk.headings} {chunk.text}")
        topical = sum(w for t, w in weights.items() if t in around) / total_weight
        kind, _, number = chunk.metadata.get("entity", "").partition(" ")
        for si, sentence in enumerate(passage_units(kb, chunk, kind, number, ci in printed, in_book)):
            if not readable(sentence):
                continue
            found = terms(sentence)
            lexical = sum(w for t, w in weights.items() if t in found) / total_weight
            bonus = sentence_cues(sentence, si, kind, number, asks, pointed)
            candidates.append(Candidate(W_SENTENCE_TERMS * lexical + W_CHUNK_TERMS * topical + bonus
                                        - RANK_STEP * ranks[ci], ci, si, sentence))
    if not candidates:
        return "", []
    q = np.frombuffer(kb.embedder.embed_query(corrected or query), dtype=np.float32)  # typos fixed
    candidates.sort(key=lambda c: (-c.score, *c.order))
    for cand in candidates[:EMBED_CANDIDATES]:
        cand.score += W_COSINE * float(sentence_vector(kb, cand.sentence) @ q)
    best = choose_sentences(candidates, weights, total_weight)
    used = list(dict.fromkeys(c.passage for c in best))
    parts = [f"{c.sentence} [{used.index(c.passage) + 1}]" for c in best]
    return " ".join(parts), [considered[ci] for ci in used]


def answer_passages(kb: KnowledgeBase, context: RetrievalContext, asks: Asks
                    ) -> tuple[list[Retrieved], list[int], set[int]]:
    """The passages whose sentences compete, the rank each counts as, and the formula entities read
    in their printing passage instead: the top chunks, the passages printing the formulas among them,
    and, for a formula or quantity question, the passages printing the displays they cite."""
    considered = context.chunks[:ANSWER_CHUNKS]
    ranks = list(range(len(considered)))
    printed: set[int] = set()  # formula entities whose printing passage is among the candidates
    in_book = bool(considered) and considered[0].metadata.get("module") != "selected_text"
    if in_book:
        # A numbered display found on its own (a formula entity) is read in the passage that prints it:
        # the sentence leading into it and the one after say what it is for.
        for ci, found in printing_passages(kb, considered, module=context.extra.get("module")):
            printed.add(ci)
            if found is not None:
                considered.append(found)
                ranks.append(ci)
    if (asks.formula or asks.number) and in_book:
        shown = cited_displays(kb, considered, module=context.extra.get("module"))
        considered = considered + shown
        ranks += [1] * len(shown)  # a display cited by a top chunk ranks just below the first
    return considered, ranks, printed


def passage_units(kb: KnowledgeBase, chunk: Retrieved, kind: str, number: str, printed: bool,
                  in_book: bool) -> list[str]:
    """A passage's sentences as they compete: a display alone is one unit with its number, a captioned
    entity leads with its caption, a last sentence cut short goes on in the book's next chunk."""
    units = list(sentences(chunk.text))
    if kind == "formula" and printed:
        return []  # its display is read in the passage that prints it
    if kind == "formula" and units:
        # A display on its own: one unit, with the number the book prints beside it.
        return [" ".join(chunk.text.split()) + ("" if f"({number})" in chunk.text else f" ({number})")]
    if kind and chunk.title and not " ".join(chunk.text.split()).startswith(chunk.title[:40]):
        # An algorithm's or a listing's caption says what it does; its body is code.
        units = [f"{kind.capitalize()} {number}: {chunk.title}"] + units
    if units and not kind and in_book and unfinished(units[-1]):
        # The chunk ends inside a sentence (a display or a page cut it): the sentence goes on in
        # the next chunk of the section, which often holds the part that answers.
        joined = f"{units[-1]} {continuation(kb, chunk.chunk_id)}".strip()
        if readable(joined):  # not when the two make a run too long to read as one sentence
            units[-1] = joined
    return units


def sentence_cues(sentence: str, si: int, kind: str, number: str, asks: Asks, pointed: set[str]) -> float:
    """What a sentence offers for what the question asks (about 0.1 a cue), less what tells against it."""
    bonus = 0.0
    if _CODE_RE.search(sentence) and not asks.code:
        bonus -= 0.20  # a listing's body answers a question about code, rarely a question in prose
    has_tag = bool(EQUATION_TAG_RE.search(sentence))
    has_math = has_tag or len(_MATH_RE.findall(sentence)) >= 2
    has_number = bool(re.search(r"\d", CITATION_RE.sub("", EQUATION_TAG_RE.sub("", sentence))))
    if asks.formula and has_math:
        bonus += 0.10 + (0.05 if has_tag else 0.0)
    if asks.number and (has_number or has_math):
        bonus += 0.10
    if has_tag and any(prints_display(sentence, tag) for tag in pointed):
        bonus += 0.10
    if (asks.formula or asks.number) and not (has_number or has_math):
        bonus -= 0.10  # asked for a quantity, it states none
    if asks.definition and _DEFINING.search(sentence):
        bonus += 0.05
    if asks.reason and _BECAUSE.search(sentence):
        bonus += 0.05
    if kind == "exercise" and not asks.exercise:
        bonus -= 0.10  # an exercise asks or drills; the exposition states
    if sentence.count(" | ") >= 4 and not asks.references:
        bonus -= 0.10  # a table's cells read as a run of words
    if _SIGNPOST_RE.search(sentence):
        bonus -= 0.10
    if sentence.endswith("?"):
        bonus -= 0.15  # a question (an exercise's) does not answer one
    elif sentence[-1] in ",;" or (sentence[-1].isalpha() and not has_tag):
        bonus -= 0.05  # a fragment cut off by the chunk or the extraction
    for ref_kind, ref_number in asks.references:
        if ref_kind == "equation" and (prints_display(sentence, f"({ref_number})")
                                       or (kind == "formula" and number == ref_number)):
            bonus += 0.25  # the display itself
        elif ref_kind == "equation" and f"({ref_number})" in sentence:
            bonus += 0.10  # a sentence that uses it
        elif kind == ref_kind and number == ref_number and si == 0:
            bonus += 0.30  # the named entity's own caption or first sentence
        elif re.search(rf"\b{re.escape(ref_kind)}\w*\.?\s*{re.escape(ref_number)}\b", sentence, re.IGNORECASE):
            bonus += 0.10  # a sentence that mentions it
    return bonus


def choose_sentences(candidates: list[Candidate], weights: dict[str, float], total_weight: float) -> list[Candidate]:
    """The ANSWER_SENTENCES best candidates, each next one the best that does not repeat what the answer
    already says (and gains for the question's terms not yet covered, or for glossing a chosen display);
    in reading order."""
    pool = sorted(candidates, key=lambda c: (-c.score, *c.order))
    best: list[Candidate] = []
    while pool and len(best) < ANSWER_SENTENCES:
        covered = set().union(*(terms(b.sentence) for b in best)) if best else set()

        def novel(c: Candidate) -> float:
            seen = max((overlap(c.sentence, b.sentence) for b in best), default=0.0)
            gloss = any(b.passage == c.passage and c.index == b.index + 1 and EQUATION_TAG_RE.search(b.sentence)
                        for b in best)
            # A question in two parts needs both: terms of the question not yet answered count again.
            has = terms(c.sentence)
            gain = sum(w for t, w in weights.items() if t in has and t not in covered) / total_weight \
                if best else 0.0
            return c.score - 0.3 * seen + (GLOSS_BONUS if gloss else 0.0) + COVER_BONUS * gain
        pick = max(pool, key=lambda c: (novel(c), -c.passage, -c.index))
        best.append(pick)
        pool.remove(pick)
    return sorted(best, key=lambda c: c.order)


def prints_display(text: str, tag: str) -> bool:
    """True when text prints the display numbered tag: "... = ρ . (6.4)", not "rule (6.4)"."""
    for m in re.finditer(re.escape(tag), text):
        before = text[:m.start()].rstrip()
        if not before or not before[-1].isalnum():
            return True
    return False


def unfinished(sentence: str) -> bool:
    """True when a chunk's last sentence stops short: no full stop, question mark or equation number."""
    end = sentence.rstrip()
    return bool(end) and end[-1] not in ".!?" and not EQUATION_TAG_RE.search(end[-12:])


_CONTINUATIONS: dict[tuple[str, str], str] = {}


def continuation(kb: KnowledgeBase, chunk_id: str) -> str:
    """The first sentence of the next text chunk of chunk_id's section in reading order, or ""."""
    key = (f"{kb.path}:{kb.build_hash}", chunk_id)
    if key not in _CONTINUATIONS:
        # The next text chunk of the same section in reading order (a display's own entity, which
        # FOLLOWS may put between them, repeats text the passage prints).
        after = kb.next_in_section(chunk_id, text_only=True)
        first = sentences(after.content) if after else ()
        if len(_CONTINUATIONS) > 4096:
            _CONTINUATIONS.clear()
        _CONTINUATIONS[key] = first[0] if first else ""
    return _CONTINUATIONS[key]


def printing_passages(kb: KnowledgeBase, chunks: list[Retrieved], module: str | None = None
                      ) -> list[tuple[int, Retrieved | None]]:
    """(index, passage) for each formula entity among chunks: the text passage that prints its display.

    A formula entity holds the display alone; the passage that prints it, "(2.12)" following the
    formula's last symbol, also holds the sentence that introduces it and the one that explains it.
    The passage is None when it is among chunks already.
    """
    have = {c.chunk_id for c in chunks}
    out: list[tuple[int, Retrieved | None]] = []
    for ci, chunk in enumerate(chunks):
        kind, _, number = chunk.metadata.get("entity", "").partition(" ")
        if kind != "formula" or not number:
            continue
        tag = f"({number})"
        rows = kb.passages_containing(tag, module)
        for rowid, chunk_id, content in rows:
            if not prints_display(content, tag):
                continue
            if chunk_id in have:  # already a candidate (a hit, or another display's passage)
                out.append((ci, None))
                break
            found = kb.chunks_by_rowid([rowid]).get(rowid)
            if found is not None:
                meta = chunk_metadata(found)
                out.append((ci, Retrieved(found.content, chunk.score, meta, found.id, meta["title"],
                                          headings_of(found))))
                have.add(chunk_id)
            break
    return out


def cited_displays(kb: KnowledgeBase, chunks: list[Retrieved], limit: int = 3,
                   module: str | None = None) -> list[Retrieved]:
    """The passages that print the displays the top chunks cite by number, e.g. "(6.4)".

    A passage prints a display when the number follows the formula's last symbol or punctuation,
    not a word that cites it ("equation (6.4)", "rule (6.4)").  At most `limit` passages, captions'
    citations first.
    """
    have = {c.chunk_id for c in chunks}
    tags: list[str] = []
    # A caption's citations first ("The critical fractile rule (6.4) applied to ..."), then the text's.
    for text in [c.title for c in chunks[:3]] + [c.text for c in chunks[:3]]:
        for tag in EQUATION_TAG_RE.findall(text):
            if tag not in tags:
                tags.append(tag)
    rowids: list[int] = []
    for tag in tags[:4]:
        rows = kb.passages_containing(tag, module)
        for rowid, chunk_id, content in rows:
            if chunk_id in have or rowid in rowids:
                continue
            if prints_display(content, tag):
                rowids.append(rowid)
            if rowid in rowids:
                break
        if len(rowids) >= limit:
            break
    found = kb.chunks_by_rowid(rowids)
    out = []
    for rowid in rowids:
        chunk = found.get(rowid)
        if chunk is not None:
            meta = chunk_metadata(chunk)
            out.append(Retrieved(chunk.content, 0.0, meta, chunk.id, meta["title"], headings_of(chunk)))
    return out


def llm_answer(query: str, context: RetrievalContext, mode: str, key: str) -> str:
    """An OpenAI-compatible chat completion grounded in the chunks; cached by input hash."""
    with _LLM_LOCK:
        if key in _LLM_CACHE:
            return _LLM_CACHE[key]
    numbered = "\n\n".join(f"[{i + 1}] {cite_label(c)}\n{c.text}" for i, c in enumerate(context.chunks))
    rules = "\n".join(f"{i + 1}. {rule}" for i, rule in enumerate(SYSTEM_INSTRUCTIONS.values()))
    system = (f"You answer questions about a textbook.\nRULES:\n{rules}\nCite sources inline as [n]. "
              f"If the answer is not in the CONTEXT, reply exactly: answer not found in book."
              + ("\nSelected-text-only mode is ON." if mode == "selected_text_only" else ""))
    body = {"model": env("RAG_LLM_MODEL", "gpt-4o-mini"), "temperature": 0.1,
            "messages": [{"role": "system", "content": system},
                         {"role": "user", "content": f"CONTEXT:\n{numbered}\n\nUSER QUESTION: {query}"}]}
    base = (env("OPENAI_BASE_URL", "https://api.openai.com/v1") or "").rstrip("/")
    request = urllib.request.Request(base + "/chat/completions", data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              "Authorization": f"Bearer {env('OPENAI_API_KEY', '')}"})
    with urllib.request.urlopen(request, timeout=float(env("RAG_LLM_TIMEOUT", "30"))) as resp:
        data = json.loads(resp.read())
    text = data["choices"][0]["message"]["content"].strip()
    with _LLM_LOCK:
        _LLM_CACHE[key] = text
    return text


def answer(kb: KnowledgeBase, query: Any, mode: Any = "full_book", selected_text: Any = None, top_k: Any = 5,
           module_filter: Any = None) -> dict:
    """One response satisfying spec 04's AgentResponse and spec 05's Response Generation Contract."""
    started = time.perf_counter()
    query, mode, selected_text, top_k, module_filter = validate_ask(kb, query, mode, selected_text, top_k,
                                                                    module_filter)
    try:
        with time_budget(request_budget()):  # retrieval and the extractive answer; not an LLM's wait
            context = retrieve(kb, query, top_k, selected_text if mode == "selected_text_only" else None,
                               module_filter)
            extractive = extractive_answer(kb, query, context)
    except BudgetExceeded as exc:
        raise AnswerError(503, "service_unavailable", str(exc), "retry") from None
    except Exception as exc:  # the knowledge base failed: spec 05's service_unavailable
        raise AnswerError(503, "service_unavailable", f"retrieval failed: {type(exc).__name__}", "retry") from None
    generated = time.perf_counter()
    top = max((c.score for c in context.chunks), default=0.0)
    confidence = "none" if not context.chunks else ("high" if top >= HIGH_CONFIDENCE else "low")
    key = input_hash(query, mode, context)
    response: dict[str, Any] = {"query": query, "mode": mode, "status": "success", "content": "", "answer": "",
                                "citations": [], "confidence": confidence, "refusal_reason": None,
                                "conflicting_info": context.conflicting_info, "error": None,
                                "input_hash": key, "deterministic": True}
    answerable = bool(context.chunks) and (top >= ANSWER_MIN_COSINE or (
        top >= ANSWER_FAIR_COSINE and context.book_words >= 0.5))
    if not answerable:
        response.update(status="refused", content=REFUSAL, answer=REFUSAL, refusal_reason="answer not found in book")
        if not context.chunks:
            response.update(error_type="empty_results", fallback_action="refuse_answer")
    else:
        text, used = extractive
        llm_error = None
        if env("OPENAI_API_KEY"):
            try:
                text = llm_answer(query, context, mode, key)
                used = [c for i, c in enumerate(context.chunks) if f"[{i + 1}]" in text]
                if "answer not found in book" in text.lower():
                    used = []
            except (OSError, urllib.error.URLError, ValueError, KeyError, IndexError, TypeError) as exc:
                llm_error = f"LLM unavailable ({type(exc).__name__}); extractive answer given"
                response.update(error_type="connection_error", fallback_action="use_default_response")
        if not used:
            response.update(status="refused", content=REFUSAL, answer=REFUSAL,
                            refusal_reason="answer not found in book")
        else:
            cited = used
            sources = "\n".join(f"[{n + 1}] {cite_label(c)}" for n, c in enumerate(cited))
            content = f"{text}\n\nSources:\n{sources}"
            response.update(content=content, answer=content, citations=[citation_of(c) for c in cited],
                            error=llm_error)
    response["output_hash"] = hashlib.sha256(response["content"].encode()).hexdigest()
    done = time.perf_counter()
    response.update(retrieval_time_ms=context.query_time_ms,
                    generation_time_ms=round((done - generated) * 1000, 3),
                    total_time_ms=round((done - started) * 1000, 3))
    return response


def validate_ask(kb: KnowledgeBase, query, mode, selected_text, top_k, module_filter):
    if not isinstance(query, str) or not query.strip(BLANKS):
        raise AnswerError(400, "invalid_query", "query must be a non-empty string")
    if len(query) > 2000:
        raise AnswerError(400, "invalid_query", "query must be at most 2000 characters")
    mode = "full_book" if mode is None else mode
    if mode not in ("full_book", "selected_text_only"):
        raise AnswerError(400, "invalid_query", "mode must be 'full_book' or 'selected_text_only'")
    if mode == "selected_text_only" and (not isinstance(selected_text, str) or not selected_text.strip(BLANKS)):
        raise AnswerError(400, "invalid_query", "selected_text is required when mode is 'selected_text_only'")
    if selected_text is not None and (not isinstance(selected_text, str) or len(selected_text) > 200_000):
        raise AnswerError(400, "invalid_query", "selected_text must be a string of at most 200000 characters")
    top_k = whole_number(top_k)
    if top_k is None or not 1 <= top_k <= ASK_MAX_TOP_K:
        raise AnswerError(400, "invalid_query", f"top_k must be an integer between 1 and {ASK_MAX_TOP_K}")
    if module_filter is not None:
        valid = modules(kb)
        if module_filter not in valid:
            raise AnswerError(400, "invalid_query", f"module_filter must be one of: {', '.join(valid)}")
    return query.strip(BLANKS), mode, selected_text, top_k, module_filter


def retrieve_content(kb: KnowledgeBase, query: Any, top_k: Any = 5, selected_text_only: Any = False,
                     selected_text_content: Any = None) -> dict:
    """spec 05's retrieval tool: {chunks: [{text, score, metadata}], empty_retrieval, conflicting_info}."""
    if not isinstance(query, str) or not query.strip(BLANKS):
        raise AnswerError(400, "invalid_query", "query must be a non-empty string")
    top_k = whole_number(top_k)
    if top_k is None or not 1 <= top_k <= 10:
        raise AnswerError(400, "invalid_query", "top_k must be an integer between 1 and 10")
    if not isinstance(selected_text_only, bool):
        raise AnswerError(400, "invalid_query", "selected_text_only must be true or false")
    if selected_text_content is not None and not isinstance(selected_text_content, str):
        raise AnswerError(400, "invalid_query", "selected_text_content must be a string")
    if selected_text_only and (not isinstance(selected_text_content, str) or not selected_text_content.strip(BLANKS)):
        raise AnswerError(400, "invalid_query", "selected_text_content is required when selected_text_only is true")
    context = retrieve(kb, query.strip(BLANKS)[:2000], top_k, selected_text_content if selected_text_only else None)
    return {"chunks": [{"text": c.text, "score": c.score, "metadata": c.metadata} for c in context.chunks],
            "empty_retrieval": not context.chunks, "conflicting_info": context.conflicting_info}


# --------------------------------------------------------------------------- routes
"""Routes: /tools (OpenAI function schemas), /tools/retrieve_content, /ask; MCP answer_question."""

RETRIEVE_CONTENT_TOOL = {  # spec 05's Tool Schema Contract, as written there
    "type": "function",
    "function": {
        "name": "retrieve_content",
        "description": "Search the book content for information relevant to the user's query and return the "
                       "most relevant chunks with their metadata.",
        "parameters": {
            "type": "object",
            "properties": {
                "query": {"type": "string",
                          "description": "The user's question or query to search for in the book content"},
                "top_k": {"type": "integer", "description": "Number of results to return (default: 5)",
                          "minimum": 1, "maximum": 10, "default": 5},
                "selected_text_only": {"type": "boolean",
                                       "description": "Whether to restrict search to selected text only",
                                       "default": False},
                "selected_text_content": {"type": "string", "description": "The specific text content to "
                                          "search within when selected_text_only is true"},
            },
            "required": ["query"],
        },
    },
}


class AskRequest(msgspec.Struct):
    """Body of POST /ask: spec 05's Query Processing Contract plus spec 04's top_k and module_filter."""

    query: Annotated[Any, JsonSchema(type="string", minLength=1, maxLength=2000, pattern=NONBLANK)] = None
    mode: Annotated[Any, JsonSchema(type=["string", "null"], enum=["full_book", "selected_text_only", None],
                                    default="full_book")] = "full_book"
    selected_text: Annotated[Any, JsonSchema(type=["string", "null"], maxLength=200_000)] = None
    top_k: Annotated[Any, JsonSchema(type="integer", minimum=1, maximum=ASK_MAX_TOP_K, default=5,
                                     description="chunks to retrieve (spec 04's Query: 1-100)")] = 5
    module_filter: Annotated[Any, JsonSchema(type=["string", "null"],
                                             description="a module of a docs tree (GET /health lists them)")] = None

    # selected_text_only needs the selected text; a module_filter must name one of the book's modules.
    json_schema = {"required": ["query"], "anyOf": [
        {"properties": {"mode": {"type": ["string", "null"], "enum": ["full_book", None]},
                        "module_filter": {"type": "null"}}},
        {"properties": {"mode": {"type": "string", "const": "selected_text_only"},
                        "selected_text": {"type": "string", "maxLength": 200_000, "pattern": NONBLANK},
                        "module_filter": {"type": "null"}}, "required": ["mode", "selected_text"]},
    ]}


class AskCitation(msgspec.Struct):
    """One source of an answer: spec 04's Citation and spec 05's citation in one object."""

    page_title: str
    module_name: str
    source_url: str
    module: str
    chapter: str
    page_url: str | None = None
    title: str | None = None
    page: int | None = None


class AskResponse(msgspec.Struct):
    """200 of POST /ask: spec 04's AgentResponse and spec 05's Response Generation Contract."""

    query: str
    mode: str
    status: Annotated[str, msgspec.Meta(extra_json_schema={"enum": ["success", "refused", "error"]})]
    content: str
    answer: str
    citations: list[AskCitation]
    confidence: Annotated[str, msgspec.Meta(extra_json_schema={"enum": ["high", "low", "none"]})]
    refusal_reason: str | None
    conflicting_info: bool
    error: str | None
    input_hash: str
    output_hash: str
    deterministic: bool
    retrieval_time_ms: float
    generation_time_ms: float
    total_time_ms: float
    error_type: str | None = None
    fallback_action: str | None = None


class RetrieveContentRequest(msgspec.Struct):
    """Body of POST /tools/retrieve_content (spec 05's tool arguments)."""

    query: Annotated[Any, JsonSchema(type="string", minLength=1, pattern=NONBLANK)] = None
    top_k: Annotated[Any, JsonSchema(type="integer", minimum=1, maximum=10, default=5)] = 5
    selected_text_only: Annotated[Any, JsonSchema(type="boolean", default=False)] = False
    selected_text_content: Annotated[Any, JsonSchema(type=["string", "null"])] = None

    json_schema = {"required": ["query"], "anyOf": [
        {"properties": {"selected_text_only": {"type": "boolean", "const": False}}},
        {"properties": {"selected_text_only": {"type": "boolean", "const": True}, "selected_text_content": {
            "type": "string", "pattern": NONBLANK}}, "required": ["selected_text_only", "selected_text_content"]},
    ]}


class AnswerErrorBody(msgspec.Struct):
    """The error body of /ask and /tools routes (spec 05's error types)."""

    status: str
    error: str
    error_type: str
    message: str
    fallback_action: str
    timestamp: str


def answer_routes(kb: KnowledgeBase, list_mcp_tools):
    """A Litestar Router with the spec 04/05 routes and their error contract."""
    from litestar import MediaType, Request, Response, Router, get, post
    from litestar.exceptions import HTTPException, ValidationException
    from litestar.params import JSONBody

    errors = error_responses(400, 401, 413, 503, body=AnswerErrorBody)

    def error(status: int, err: AnswerError) -> Response:
        return Response(content=err.body(), status_code=status, media_type=MediaType.JSON)

    def on_answer_error(_: Request, exc: AnswerError) -> Response:
        response = error(exc.status, exc)
        if exc.fallback_action == "retry":
            response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response

    def on_bad_body(_: Request, exc: Exception) -> Response:
        detail = getattr(exc, "detail", "") or "request body must be a JSON object"
        return error(400, AnswerError(400, "invalid_query", f"invalid request body: {detail}"))

    def on_http(_: Request, exc: HTTPException) -> Response:
        if exc.status_code >= 500:
            return on_crash(_, exc)
        return error(exc.status_code, AnswerError(exc.status_code, "invalid_query", str(exc.detail)))

    def on_budget(request: Request, exc: BudgetExceeded) -> Response:
        return on_answer_error(request, AnswerError(503, "service_unavailable", str(exc), "retry"))

    def on_crash(_: Request, exc: Exception) -> Response:
        if isinstance(exc, CLIENT_DECODE_ERRORS):  # the JSON decoder on hostile input
            return error(400, AnswerError(400, "invalid_query", decode_error_message(exc)))
        return error(503, AnswerError(503, "service_unavailable", "the service could not answer; try again", "retry"))

    @get("/tools", summary="OpenAI function-tool schemas of retrieve_content and the MCP tools (spec 05)",
         responses=errors)
    async def tools() -> list[dict]:
        return [RETRIEVE_CONTENT_TOOL] + [openai_tool(t.name, t.description or "", t.input_schema)
                                          for t in await list_mcp_tools()]

    @post("/tools/retrieve_content", status_code=200, summary="The retrieve_content tool (spec 05)",
          responses=errors)
    async def tool_retrieve_content(data: JSONBody[RetrieveContentRequest]) -> dict:
        return await off_loop(retrieve_content, kb, data.query, data.top_k, data.selected_text_only,
                              data.selected_text_content)

    # /ask may wait seconds on an LLM: a thread of its own, not one of the search pool's.
    @post("/ask", status_code=200, summary="A grounded answer with citations, or a refusal (specs 04 and 05)",
          responses=errors, sync_to_thread=True)
    def ask(data: JSONBody[AskRequest]) -> Response[AskResponse]:
        return Response(content=answer(kb, data.query, data.mode, data.selected_text, data.top_k, data.module_filter),
                        status_code=200, media_type=MediaType.JSON)

    return Router(path="/", route_handlers=[tools, tool_retrieve_content, ask],
                  exception_handlers={AnswerError: on_answer_error, BudgetExceeded: on_budget,
                                      ValidationException: on_bad_body, HTTPException: on_http, Exception: on_crash},
                  signature_namespace={"JSONBody": JSONBody, "Request": Request, "Response": Response})


def openai_tool(name: str, description: str, schema: dict) -> dict:
    """An MCP tool as an OpenAI function-tool schema."""
    return {"type": "function", "function": {"name": name, "description": description, "parameters": schema}}
