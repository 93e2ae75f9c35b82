"""Token budgets: how answers are counted, cut to a client's max_tokens, and continued by cursor.

Sections, top-down: errors the navigation modules raise, counting tokens, fitting answers into a
budget, and cursors.  Core: imports rag_core only; the adapters turn NavigationError into their
own error format (spec 01's for REST, a tool error for MCP, a message and exit code on the CLI).

How tokens are counted (the one rule every max_tokens follows): an answer's tokens are those of
its JSON text as sent, counted as the larger of two measures: the WordPiece tokens of the embedding
model's own tokenizer (models/tokenizer.json, no truncation), and one token per 4 bytes of UTF-8.
WordPiece splits every symbol and rare word apart, so LaTeX and code count high; the byte measure
keeps Unicode-heavy text from counting low.  Both run above what the BPE tokenizers of agent
clients report for English prose, so an answer inside its max_tokens fits the client's budget too.
"""

from __future__ import annotations

import base64
import json
import math
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

from rag_core import DEFAULT_MODEL_DIR, whole_number

# --------------------------------------------------------------------------- request limits
"""Request limits of the navigation routes, here so that the routes' documents need not load the modules."""

LEVELS = ("part", "chapter", "section", "subsection", "subsubsection")   # an outline's depths, outermost first
MAX_CONTEXT = 20          # text chunks either side of an entity a reading may ask for
MAX_FORMULA_QUERY = 2000  # characters of a formula search's query
MAX_PASSAGE = 5000        # characters of a passage to check


# --------------------------------------------------------------------------- errors
"""Errors: what a navigation request got wrong, with the HTTP status an adapter should send."""


class NavigationError(ValueError):
    """A bad request (status 400) or a thing the book does not hold (status 404); the message says which."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


# --------------------------------------------------------------------------- per knowledge base
"""Per knowledge base: what the navigation modules build once from a knowledge file (its folded
text, formula index, notation, outline), kept while the KnowledgeBase lives."""


def per_knowledge_base(build: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """build(kb), computed once per KnowledgeBase object (thread-safe; forgotten with the object)."""
    import functools
    import weakref

    cache: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
    lock = threading.Lock()

    @functools.wraps(build)
    def get(kb):
        value = cache.get(kb)
        if value is None:
            with lock:
                value = cache.get(kb)
                if value is None:
                    value = cache[kb] = build(kb)
        return value

    return get


# --------------------------------------------------------------------------- counting tokens
"""Counting: the one token measure every max_tokens uses (see the module docstring)."""

TOKEN_RULE = ("tokens are counted on the answer's JSON text as the larger of the embedding model's WordPiece "
              "tokens and one per 4 bytes of UTF-8; both run above GPT/Claude counts for prose")
DEFAULT_MAX_TOKENS = 6000      # default for every navigation answer and MCP tool: far below 25,000
REST_MAX_TOKENS = 16_000      # spec 01's routes: its answers are bounded anyway (k <= 20), expansions are not
MIN_MAX_TOKENS = 400           # smaller budgets cannot hold one block beside the answer's own fields
MAX_MAX_TOKENS = 100_000
_tokenizers: dict[str, Any] = {}
_tokenizer_lock = threading.Lock()


def _tokenizer(model_dir: Path | str = DEFAULT_MODEL_DIR):
    """The model's tokenizer without truncation (a copy of its own: the embedder's truncates)."""
    key = str(model_dir)
    if key not in _tokenizers:
        with _tokenizer_lock:
            if key not in _tokenizers:
                from tokenizers import Tokenizer

                tokenizer = Tokenizer.from_file(str(Path(model_dir) / "tokenizer.json"))
                tokenizer.no_truncation()
                tokenizer.no_padding()
                _tokenizers[key] = tokenizer
    return _tokenizers[key]


def count_tokens(text: str, model_dir: Path | str = DEFAULT_MODEL_DIR) -> int:
    """Tokens of a text by TOKEN_RULE ([CLS]/[SEP] left out: they are the model's, not the text's)."""
    if not text:
        return 0
    wordpiece = len(_tokenizer(model_dir).encode(text, add_special_tokens=False).ids)
    return max(wordpiece, math.ceil(len(text.encode("utf-8")) / 4))


def json_text(value: Any) -> str:
    """An answer as the adapters send it (compact JSON, Unicode kept), the text tokens are counted on."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def answer_tokens(value: Any) -> int:
    return count_tokens(json_text(value))


def fits(value: Any, max_tokens: int) -> bool:
    """Whether an answer is within max_tokens; free for short ones: a text never counts more tokens
    than characters (a WordPiece token spans one or more; 4 bytes of UTF-8 hold at least one)."""
    text = json_text(value)
    return len(text) <= max_tokens or count_tokens(text) <= max_tokens


def max_tokens_value(value: Any, default: int = DEFAULT_MAX_TOKENS) -> int:
    """A client's max_tokens, checked: a whole number in [MIN_MAX_TOKENS, MAX_MAX_TOKENS]; None gives default."""
    if value is None:
        return default
    number = whole_number(value)
    if isinstance(value, str) and value.strip().isdigit():
        number = int(value.strip())
    if number is None or not MIN_MAX_TOKENS <= number <= MAX_MAX_TOKENS:
        raise NavigationError(f"max_tokens must be a whole number between {MIN_MAX_TOKENS} and {MAX_MAX_TOKENS}")
    return number


# --------------------------------------------------------------------------- fitting answers
"""Fitting: keep an answer's list of items inside max_tokens, cut the one that does not fit, say so."""


def fit_items(envelope: dict, key: str, items: Sequence[dict], max_tokens: int,
              cut_text: Callable[[dict, int], dict | None] | None = None,
              finish: Callable[[dict, int, bool], dict] | None = None) -> tuple[dict, int, bool]:
    """envelope with envelope[key] = as many of items (in order) as fit in max_tokens.

    Returns (answer, how many items it holds whole, whether one more item was cut and included in
    part).  cut_text(item, tokens), when given, returns a shorter copy of an item with at most about
    that many tokens (None when nothing useful fits): it is used only when not even the first item
    fits whole, so that every answer carries something.  finish(answer, whole, cut) adds the fields
    that depend on the cut (truncated, next_cursor, hint); the finished answer is what is checked
    against max_tokens, dropping items from the end until it fits.
    """
    finish = finish or (lambda answer, whole, cut: answer)
    answer = finish(dict(envelope, **{key: []}), 0, False)
    used = answer_tokens(answer) + 2
    kept: list[dict] = []
    for item in items:
        cost = answer_tokens(item) + 1
        if used + cost > max_tokens:
            break
        kept.append(item)
        used += cost
    cut = False
    allowance = max_tokens - used - 4
    if len(kept) < len(items) and not kept and cut_text is not None:
        part = cut_text(items[0], allowance)
        if part is not None:
            kept.append(part)
            cut = True
    # Sums of parts can differ from the whole by a token at each join: check the whole; a cut item is
    # cut shorter by what the whole is over, whole items are dropped from the end.
    for _ in range(len(kept) + 8):
        whole = len(kept) - (1 if cut else 0)
        answer = finish(dict(envelope, **{key: list(kept)}), whole, cut)
        over = answer_tokens(answer) - max_tokens
        if not kept or over <= 0:
            return answer, whole, cut
        if cut and len(kept) == 1:
            allowance -= over + 2
            part = cut_text(items[0], allowance) if allowance > 0 else None
            kept = [part] if part is not None else []
            cut = part is not None
        else:
            kept.pop()
            cut = False
    return finish(dict(envelope, **{key: []}), 0, False), 0, False


def cut_to_tokens(text: str, tokens: int) -> tuple[str, int]:
    """The longest prefix of text, ended at a blank where possible, with at most about `tokens` tokens;
    returns (prefix, its length in characters).  Binary search over the length: O(n log n) counting."""
    if tokens <= 0 or not text:
        return "", 0
    if count_tokens(text) <= tokens:
        return text, len(text)
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if count_tokens(text[:middle]) <= tokens:
            low = middle
        else:
            high = middle - 1
    blank = text.rfind(" ", max(0, low - 200), low)
    end = blank if blank > 0 else low
    return text[:end], end


# --------------------------------------------------------------------------- cursors
"""Cursors: opaque strings that carry a paged answer's request and where its next page starts."""


def encode_cursor(state: dict) -> str:
    raw = json.dumps(state, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: Any, expected_keys: Sequence[str]) -> dict:
    """The state a cursor carries; NavigationError 404 for anything this service did not issue (a cursor
    names a page of an answer: one the service never gave is not found)."""
    bad = NavigationError("cursor not found: pass next_cursor from a previous answer unchanged", status=404)
    if not isinstance(cursor, str) or not 0 < len(cursor) <= 2000:
        raise bad
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        state = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise bad from None
    if not isinstance(state, dict) or set(state) != set(expected_keys):
        raise bad
    return state


# --------------------------------------------------------------------------- tool answers
"""Tool answers: the MCP tools whose arguments are fixed by their contract (spec 02) take no
max_tokens; their answers are kept under MCP_ANSWER_TOKENS instead, and a cut one says so in the
metadata of its last document."""

MCP_ANSWER_TOKENS = 7000   # with the JSON-RPC envelope, under 8,000 tokens


def cap_tool_result(result: Any, max_tokens: int = MCP_ANSWER_TOKENS) -> Any:
    """A spec 02 tool result ({"result": [Document]}, {"result": Document|None} or a Document) inside
    max_tokens: documents dropped from the end, or one document's content cut at a blank."""
    if not isinstance(result, dict) or fits(result, max_tokens):
        return result
    if isinstance(result.get("result"), list):
        docs = result["result"]

        def finish(answer: dict, whole: int, cut: bool) -> dict:
            if answer["result"]:
                last = dict(answer["result"][-1])
                last["metadata"] = dict(last.get("metadata") or {}, truncated=True,
                                        omitted_results=len(docs) - len(answer["result"]),
                                        hint="answer cut to fit the token budget: ask for fewer results (k), "
                                             "or fetch a document by id (get_entity_by_number, read_book)")
                answer["result"] = answer["result"][:-1] + [last]
            return answer

        def shorter(doc: dict, tokens: int) -> dict | None:
            return _cut_document(doc, tokens)

        fitted, _, _ = fit_items({k: v for k, v in result.items() if k != "result"}, "result", docs, max_tokens,
                                 shorter, finish)
        return fitted
    document = result.get("result") if isinstance(result.get("result"), dict) else result
    cut = _cut_document(document, max_tokens - (answer_tokens(result) - answer_tokens(document)) - 80)
    if cut is None:
        return result
    return dict(result, result=cut) if document is not result else cut


def _cut_document(doc: dict, tokens: int) -> dict | None:
    """A Document with its content cut to about `tokens` tokens overall, marked truncated."""
    content = doc.get("content")
    if not isinstance(content, str):
        return None
    spare = tokens - answer_tokens(dict(doc, content="")) - 60
    text, _ = cut_to_tokens(content, spare)
    if not text:
        return None
    metadata = dict(doc.get("metadata") or {}, truncated=True,
                    hint="content cut to fit the token budget: read it whole with read_book(entity=<id>) on /mcp/all")
    return dict(doc, content=text, metadata=metadata)
