"""bookrag's REST adapters: spec 01 (search, expansion, entities) and spec 03 (lesson-scoped search).

Each adapter is request and response types in spec words, the validation that gives the spec's
messages, one function per route that calls the knowledge base (the CLI calls them too), and, in
the last section, a Litestar Router per spec with its routes and its error format.  rag.create_app
mounts the routers, as it mounts every adapter's.
"""

from __future__ import annotations

import re
import time
from typing import Annotated, Any, Optional, Sequence

import msgspec

from rag_budget import (MAX_MAX_TOKENS, MIN_MAX_TOKENS, REST_MAX_TOKENS, TOKEN_RULE, NavigationError, answer_tokens,
                        cut_to_tokens, fit_items, fits, max_tokens_value)
from rag_core import (  # noqa: F401  (ApiError, ErrorBody, spec01_error_handlers: re-exported for rag.py, tests)
    BLANKS, CLIENT_DECODE_ERRORS, ENTITY_KINDS, NONBLANK, QUERY_PATTERN, RELATIONS, RETRY_AFTER_SECONDS,
    SERVICE_NAME, ApiError, BudgetExceeded, Chunk, ConfigError, ErrorBody, Hit, JsonSchema, KnowledgeBase,
    decode_error_message, env, error_responses, expand_graph, id_is_wellformed, label_text,
    normalize_number, now_iso, off_loop, spec01_error_handlers, validation_detail, whole_number)

# --------------------------------------------------------------------------- spec 01 REST
"""REST adapter (spec 01): /search/semantic, /search/expand-graph, /entity/{type}/{number}."""


SPEC01_TRAVERSE_TYPES = ("formula", "algorithm", "table", "figure", "section", "example",
                         "exercise", "appendix")
SPEC01_FILTER_KEYS = ("chapter", "section", "page_number")
SPEC01_ENTITY_TYPES = ("formula", "algorithm", "table", "figure")
LABEL = {"type": ["string", "integer"], "pattern": NONBLANK}  # a chapter or section: "3", "3.1" or 3
FILTER_VALUE = {"type": ["string", "integer", "null"], "pattern": NONBLANK}


# max_tokens (issue 27): the most tokens an answer may hold; see rag_budget for how they are counted.
MAX_TOKENS_SCHEMA = JsonSchema(type=["integer", "null"], minimum=MIN_MAX_TOKENS, maximum=MAX_MAX_TOKENS,
                               default=REST_MAX_TOKENS, description=f"Most tokens the answer may hold (default "
                               f"{REST_MAX_TOKENS}); a cut answer has truncated, omitted and hint. {TOKEN_RULE}")

# traverse_types: spec 01's values and every entity kind the served book holds (see declare_kinds).
TRAVERSE_TYPES_SCHEMA = JsonSchema(type=["array", "null"], items={"type": "string", "enum": list(SPEC01_TRAVERSE_TYPES)})


def traverse_values(kinds: Sequence[str]) -> tuple[str, ...]:
    """The traverse_types a book accepts: spec 01's, then its other entity kinds."""
    return SPEC01_TRAVERSE_TYPES + tuple(k for k in kinds if k not in SPEC01_TRAVERSE_TYPES)


def declare_kinds(kinds: Sequence[str]) -> None:
    """Make the OpenAPI document list the served book's entity kinds where requests name kinds."""
    TRAVERSE_TYPES_SCHEMA.schema["items"]["enum"] = list(traverse_values(kinds))


class SemanticSearchRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Body of POST /search/semantic."""

    query: Annotated[str, JsonSchema(type="string", minLength=3, maxLength=2000, pattern=QUERY_PATTERN)]
    # an integer 1-20; checked here, not coerced ("5" is an error, as spec 01 says)
    k: Annotated[Any, JsonSchema(type="integer", minimum=1, maximum=20, default=5)] = 5
    traverse_types: Annotated[Optional[list[str]], TRAVERSE_TYPES_SCHEMA] = None
    filters: Annotated[Optional[dict[str, Any]], JsonSchema(
        type=["object", "null"], additionalProperties=False,
        properties={"chapter": FILTER_VALUE, "section": FILTER_VALUE,
                    "page_number": {"type": ["integer", "null"]}})] = None
    max_tokens: Annotated[Any, MAX_TOKENS_SCHEMA] = None


class SearchFiltersOut(msgspec.Struct):
    chapter: str | None = None
    section: str | None = None
    page_number: int | None = None


class DocumentFields(msgspec.Struct):
    """The fields spec 01 gives every chunk it returns, in its order."""

    id: str
    type: str
    content: str
    number: str | None
    title: str | None
    chapter: str | None
    section: str | None
    page_number: int | None


class SemanticResult(DocumentFields, omit_defaults=True):
    """One search result of spec 01; a short result carries the text that follows it (continued)."""

    pdf_page: int | None
    score: float
    continued: str | None = None


class SemanticSearchResponse(msgspec.Struct, omit_defaults=True):
    results: list[SemanticResult]
    total_count: int
    suggestion: str | None = None
    corrected_query: str | None = None
    truncated: bool | None = None     # with omitted and hint: the answer was cut to max_tokens
    omitted: int | None = None
    hint: str | None = None


class ExpandGraphRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Body of POST /search/expand-graph."""

    document_ids: Annotated[list[str], JsonSchema(
        type="array", minItems=1, maxItems=100,
        items={"type": "string", "pattern": r"^[A-Za-z0-9_.:\- ()]{1,128}$"})]
    traverse_types: Annotated[Optional[list[str]], JsonSchema(
        type=["array", "null"], items={"type": "string", "enum": list(RELATIONS)})] = None
    max_tokens: Annotated[Any, MAX_TOKENS_SCHEMA] = None


class Relationship(msgspec.Struct):
    type: str
    target_id: str
    target_type: str
    direction: str  # "outgoing": <target_id> <type> <this document>; "incoming": <this document> <type> <target_id>


class ExpandedDocument(DocumentFields):
    relationships: list[Relationship]


class ExpandGraphResponse(msgspec.Struct, omit_defaults=True):
    expanded_documents: list[ExpandedDocument]
    relationship_count: int
    warnings: list[str] | None = None
    truncated: bool | None = None     # with omitted and hint: the answer was cut to max_tokens
    omitted: int | None = None
    hint: str | None = None


class EntityResponse(msgspec.Struct, omit_defaults=True):
    id: str
    type: str
    number: str | None
    title: str | None
    content: str
    chapter: str | None
    section: str | None
    page_number: int | None
    pdf_page: int | None
    references: list[str]
    cited_by: list[str]
    truncated: bool | None = None     # with hint: content was cut to max_tokens
    hint: str | None = None


class HealthResponse(msgspec.Struct, omit_defaults=True):
    status: str
    service: str
    timestamp: str
    book: str
    counts: dict[str, int]
    # The builder's look at itself: per kind found, gaps, repeated heads; printed pages; dangling references.
    build_report: Optional[dict[str, Any]] = None


def validate_semantic(req: SemanticSearchRequest, kinds: Sequence[str] = ENTITY_KINDS) -> tuple[str, int, dict, list[str]]:
    """Spec 01's validation rules, in its words; returns (query, k, kb filters, kinds)."""
    query = req.query.strip(BLANKS)
    if len(query) < 3:
        raise ApiError(400, "query must be at least 3 characters")
    if len(req.query) > 2000:  # as sent: padding does not buy a longer query
        raise ApiError(400, "query must be at most 2000 characters")
    k = whole_number(req.k)
    if k is None:
        raise ApiError(400, "k must be an integer between 1 and 20")
    if not 1 <= k <= 20:
        raise ApiError(400, "k must be between 1 and 20")
    valid = traverse_values(kinds)
    kinds = []
    for value in req.traverse_types or []:
        if value not in valid:
            raise ApiError(400, f"traverse_types contains invalid value: {value!r}. "
                                f"Valid values: [{', '.join(valid)}]")
        kinds.append(value)
    filters: dict[str, Any] = {}
    for key, value in (req.filters or {}).items():
        if key not in SPEC01_FILTER_KEYS:
            raise ApiError(400, f"filter {key!r} is not supported. "
                                f"Supported filters: {', '.join(SPEC01_FILTER_KEYS)}")
        if value is None:
            continue
        if key == "page_number":
            if whole_number(value) is None:
                raise ApiError(400, "page_number must be an integer")
            # Beyond SQLite's 64-bit integers a number cannot be bound; it is no page of the book
            # either: -2 (no chunk has it) finds nothing, as any other page the book lacks.
            filters["page"] = whole_number(value) if -2**63 <= whole_number(value) < 2**63 else -2
        else:
            label = label_text(value)
            if label is None:
                raise ApiError(400, f"filter {key!r} must be a non-empty string such as \"3\" or \"3.1\"")
            filters[key] = normalize_number(label) or label
    return query, k, filters, kinds


def section_of(chunk: Chunk) -> str | None:
    """The deepest numbered heading a chunk sits under (spec 01's `section`)."""
    return chunk.subsubsection or chunk.subsection or chunk.section


def semantic_result(hit: Hit) -> SemanticResult:
    c = hit.chunk
    return SemanticResult(
        id=c.id, type=c.kind, content=c.content, number=c.number, title=c.title,
        chapter=c.chapter, section=section_of(c), page_number=c.page, pdf_page=c.pdf_page,
        score=hit.score, continued=hit.continued,
    )


def kinds_for_traverse(types: Sequence[str]) -> list[str]:
    """spec 01 traverse_types -> chunk kinds ('section'/'appendix' widen to text chunks)."""
    kinds = [t for t in types if t not in ("section", "appendix")]
    if "section" in types or "appendix" in types:
        kinds.append("text")
    return kinds


def semantic_search(kb: KnowledgeBase, req: SemanticSearchRequest) -> SemanticSearchResponse:
    query, k, filters, types = validate_semantic(req, kb.kinds)
    result = kb.search(query, k=k, filters=filters, traverse_kinds=kinds_for_traverse(types))
    hits = result.hits
    if "appendix" in types and "section" not in types:
        hits = [h for h in hits if h.via != "expansion" or h.chunk.kind != "text"
                or (h.chunk.chapter or "").isalpha()]
    response = SemanticSearchResponse(
        results=[semantic_result(h) for h in hits], total_count=len(hits),
        suggestion=result.suggestion, corrected_query=result.corrected_query,
    )
    return within_budget(response, "results", rest_max_tokens(req.max_tokens),
                         "ask for fewer results (k), or read one by id with GET /read?entity=<id>")


def validate_expand(req: ExpandGraphRequest) -> tuple[list[str], list[str]]:
    if not req.document_ids:
        raise ApiError(400, "document_ids must be a non-empty array of ids")
    if len(req.document_ids) > 100:
        raise ApiError(400, "document_ids may hold at most 100 ids")
    for raw in req.document_ids:
        if not isinstance(raw, str) or not id_is_wellformed(raw):
            raise ApiError(400, f"document_ids contains an invalid id: {str(raw)[:80]!r}. "
                                "Ids are letters, digits, '_', '.', ':', '-' (e.g. 'formula_3_2', 'algo_4_1')")
    relations = req.traverse_types if req.traverse_types else list(RELATIONS)
    for rel in relations:
        if rel not in RELATIONS:
            raise ApiError(400, f"traverse_types contains invalid value: {rel!r}. "
                                f"Valid values: [{', '.join(RELATIONS)}]")
    return req.document_ids, relations


def expand_documents(kb: KnowledgeBase, req: ExpandGraphRequest) -> ExpandGraphResponse:
    budget = rest_max_tokens(req.max_tokens)
    ids, relations = validate_expand(req)
    docs, unknown = expand_graph(kb, ids, relations)
    out = []
    count = 0
    for doc in docs:
        c = doc["chunk"]
        rels = [Relationship(**r) for r in doc["relationships"]]
        count += len(rels)
        out.append(ExpandedDocument(id=c.id, type=c.kind, content=c.content, number=c.number,
                                    title=c.title, chapter=c.chapter, section=section_of(c),
                                    page_number=c.page, relationships=rels))
    warnings = [f"document id not found: {u}" for u in unknown] or None
    return within_budget(ExpandGraphResponse(expanded_documents=out, relationship_count=count, warnings=warnings),
                         "expanded_documents", budget, "expand fewer ids at a time, or fewer traverse_types")


def get_entity(kb: KnowledgeBase, entity_type: str, number: str, max_tokens: Any = None) -> EntityResponse:
    budget = rest_max_tokens(max_tokens)
    kind = entity_type.strip().lower()
    kind = "figure" if kind == "image" else kind
    if kind not in kb.kinds:
        raise ApiError(400, "entity_type must be one of: " + ", ".join(kb.kinds) + " (or image, for figure)")
    num = normalize_number(number)
    if num is None:
        raise ApiError(400, "number format invalid. Expected format: X.Y or X.YZ (e.g. 3.2, 16.4, A.1)")
    chunk = kb.entity(kind, num)
    if chunk is None:
        raise ApiError(404, f"{kind.capitalize()} {num} not found in knowledge base", "NOT_FOUND")
    refs, cited = kb.references_of(chunk.id)
    response = EntityResponse(id=chunk.id, type=chunk.kind, number=chunk.number, title=chunk.title,
                              content=chunk.content, chapter=chunk.chapter, section=section_of(chunk),
                              page_number=chunk.page, pdf_page=chunk.pdf_page, references=refs,
                              cited_by=cited)
    if fits(msgspec.to_builtins(response), budget):
        return response
    spare = budget - answer_tokens(msgspec.to_builtins(msgspec.structs.replace(response, content=""))) - 60
    content, _ = cut_to_tokens(chunk.content, spare)
    return msgspec.structs.replace(response, content=content, truncated=True,
                                   hint=f"content cut to max_tokens: read the rest with GET /read?entity={chunk.id}")


def rest_max_tokens(value: Any) -> int:
    """A request's max_tokens (None: REST_MAX_TOKENS), or ApiError 400 with the rule."""
    try:
        return max_tokens_value(value, REST_MAX_TOKENS)
    except NavigationError as exc:
        raise ApiError(400, str(exc)) from None


def within_budget(response, field: str, budget: int, hint: str):
    """The response with as many of its `field` items as fit in budget tokens (the first item's
    content cut when not even it fits); truncated, omitted and hint say what was left out."""
    whole = msgspec.to_builtins(response)
    if fits(whole, budget):
        return response
    items = getattr(response, field)

    def cut(item: dict, tokens: int) -> dict | None:
        spare = tokens - answer_tokens(dict(item, content="")) - 8
        text, _ = cut_to_tokens(item.get("content") or "", spare)
        return dict(item, content=text) if text else None

    def finish(answer: dict, kept: int, was_cut: bool) -> dict:
        return dict(answer, truncated=True, omitted=len(items) - kept, hint=hint)

    envelope = {k: v for k, v in whole.items() if k != field}
    answer, kept, was_cut = fit_items(envelope, field, whole[field], budget, cut, finish)
    out = list(items[:kept])
    if was_cut:
        out.append(msgspec.structs.replace(items[0], content=answer[field][-1]["content"]))
    return msgspec.structs.replace(response, **{field: out}, truncated=True, omitted=len(items) - kept, hint=hint)


# --------------------------------------------------------------------------- spec 03 REST
"""Lesson-scoped search (spec 03): POST /api/rag/search with its own error envelope and rate limit."""

SPEC03_SCOPES = ("current_lesson", "current_chapter", "entire_book", "auto")
# scope "auto" (spec 03's multi-level strategy): this many from the lesson, then the chapter, then the book.
AUTO_LEVELS = (("current_lesson", 3), ("current_chapter", 5), ("entire_book", 2))


class RagSearchRequest(msgspec.Struct):
    """Body of POST /api/rag/search (fields loosely typed: spec 03 defines its own error codes)."""

    query: Annotated[Any, JsonSchema(type="string", minLength=1, maxLength=500, pattern=NONBLANK)] = None
    scope: Annotated[Any, JsonSchema(type=["string", "null"], enum=[*SPEC03_SCOPES, None],
                                     default="current_lesson")] = "current_lesson"
    n_results: Annotated[Any, JsonSchema(type=["integer", "null"], minimum=1, maximum=20, default=5)] = 5
    current_chapter: Annotated[Any, JsonSchema(type=["string", "integer", "null"], pattern=NONBLANK)] = None
    current_lesson: Annotated[Any, JsonSchema(type=["string", "integer", "null"], pattern=NONBLANK)] = None

    # What each scope needs besides the query (scope left out means current_lesson).
    json_schema = {"required": ["query"], "additionalProperties": True, "anyOf": [
        {"properties": {"scope": {"type": "string", "enum": ["entire_book", "auto"]}}, "required": ["scope"]},
        {"properties": {"scope": {"type": "string", "const": "current_chapter"}, "current_chapter": LABEL},
         "required": ["scope", "current_chapter"]},
        {"properties": {"scope": {"type": ["string", "null"], "enum": ["current_lesson", None]},
                        "current_chapter": LABEL, "current_lesson": LABEL},
         "required": ["current_chapter", "current_lesson"]},
    ]}


class RagSearchHit(msgspec.Struct):
    chunk_id: str
    content: str
    score: float
    metadata: dict[str, Any]


class RagSearchResponse(msgspec.Struct):
    query: str
    scope: str
    results: list[RagSearchHit]
    total_results: int
    search_time_ms: int


class Spec03Detail(msgspec.Struct, omit_defaults=True):
    code: str
    message: str
    field: str | None = None


class Spec03Error(msgspec.Struct, omit_defaults=True):
    """spec 03's error envelope."""

    error: str
    details: list[Spec03Detail]
    timestamp: str
    request_id: str | None = None
    retry_after: int | None = None


class Spec03Failure(Exception):
    """A spec 03 client error: status and the details list."""

    def __init__(self, status: int, details: list[Spec03Detail]):
        super().__init__(details[0].message)
        self.status, self.details = status, details


def validate_rag_search(req: RagSearchRequest) -> tuple[str, str, int, str | None, str | None]:
    """spec 03's rules; 400 for missing or malformed fields, 422 for the query's length."""
    problems: list[Spec03Detail] = []
    scope = req.scope if req.scope is not None else "current_lesson"
    if not isinstance(scope, str) or scope not in SPEC03_SCOPES:
        problems.append(Spec03Detail("INVALID_SCOPE", "scope must be one of: " + ", ".join(SPEC03_SCOPES), "scope"))
    n = whole_number(req.n_results) if req.n_results is not None else 5
    if n is None or not 1 <= n <= 20:
        problems.append(Spec03Detail("INVALID_N_RESULTS", "n_results must be an integer between 1 and 20",
                                     "n_results"))
    chapter, lesson = req.current_chapter, req.current_lesson
    for name, value in (("current_chapter", chapter), ("current_lesson", lesson)):
        if value is not None and label_text(value) is None:
            problems.append(Spec03Detail("INVALID_FIELD", f"{name} must be a non-empty string", name))
    if scope in ("current_lesson", "current_chapter") and chapter is None:
        problems.append(Spec03Detail("MISSING_REQUIRED_FIELD",
                                     f"current_chapter is required when scope is '{scope}'", "current_chapter"))
    if scope == "current_lesson" and lesson is None:
        problems.append(Spec03Detail("MISSING_REQUIRED_FIELD",
                                     "current_lesson is required when scope is 'current_lesson'", "current_lesson"))
    if req.query is None:
        problems.append(Spec03Detail("MISSING_REQUIRED_FIELD", "query is required", "query"))
    elif not isinstance(req.query, str):
        problems.append(Spec03Detail("INVALID_FIELD", "query must be a string", "query"))
    if problems:
        raise Spec03Failure(400, problems)
    if not req.query.strip(BLANKS) or len(req.query) > 500:  # the length as sent: padding buys nothing
        raise Spec03Failure(422, [Spec03Detail("INVALID_QUERY_LENGTH",
                                               "Query must be between 1 and 500 characters", "query")])
    return req.query.strip(BLANKS), scope, n, label_text(chapter), label_text(lesson)


def scope_filters(scope: str, chapter: str | None, lesson: str | None) -> dict | None:
    """Knowledge-base filters of a scope: lesson = (chapter, section) of a PDF or a docs tree."""
    if scope == "current_lesson":
        return None if chapter is None or lesson is None else {"chapter": chapter, "section": lesson}
    if scope == "current_chapter":
        return None if chapter is None else {"chapter": chapter}
    return {}


def spec03_metadata(chunk: Chunk) -> dict[str, Any]:
    """spec 03 metadata for a chunk; for a PDF, chapter = chapter number and lesson = section number."""
    extra = chunk.extra or {}

    def number_of(value: str | None, position: int) -> int | None:
        if not value:
            return None
        parts = value.split(".")
        return int(parts[position]) if len(parts) > position and parts[position].isdigit() else None

    from_pdf = chunk.page is not None
    meta: dict[str, Any] = {
        "chapter": chunk.chapter,
        "chapter_number": number_of(chunk.chapter, 0) if from_pdf else extra.get("chapter_number"),
        "chapter_title": chunk.chapter_title,
        "lesson": chunk.section,
        "lesson_number": number_of(chunk.section, 1) if from_pdf else extra.get("lesson_number"),
        "lesson_title": chunk.section_title,
        "file_path": extra.get("file_path") or (f"{chunk.source}#page={chunk.pdf_page}" if chunk.source else None),
        "chunk_index": extra.get("chunk_index", chunk.ord),
        "content_type": extra.get("content_type") or ("code" if chunk.kind == "algorithm" else chunk.kind),
        "heading": extra.get("heading") or chunk.subsubsection_title or chunk.subsection_title
                   or chunk.section_title or chunk.chapter_title,
        "topics": extra.get("topics") or [],
        "difficulty": extra.get("difficulty"),
    }
    if from_pdf:
        meta["page"] = chunk.page
    if extra.get("module"):
        meta["module"] = extra["module"]
    if extra.get("source_url"):
        meta["page_url"] = extra["source_url"]
    if chunk.kind != "text":
        meta["entity_type"], meta["entity_number"] = chunk.kind, chunk.number
    return meta


def rag_search(kb: KnowledgeBase, req: RagSearchRequest) -> RagSearchResponse:
    query, scope, n, chapter, lesson = validate_rag_search(req)
    started = time.perf_counter()
    hits: list[Hit] = []
    if scope == "auto":
        seen: set[str] = set()
        for level, count in AUTO_LEVELS:
            filters = scope_filters(level, chapter, lesson)
            if filters is None:
                continue
            for hit in kb.search(query, k=min(20, count + len(seen)), filters=filters).hits:
                if hit.chunk.id not in seen and sum(1 for h in hits if h.via == level) < count:
                    seen.add(hit.chunk.id)
                    hit.via = level
                    hits.append(hit)
        hits = hits[:n]
    else:
        hits = kb.search(query, k=n, filters=scope_filters(scope, chapter, lesson)).hits
    elapsed = int(round((time.perf_counter() - started) * 1000))
    results = [RagSearchHit(chunk_id=h.chunk.id, content=h.chunk.content, score=h.score,
                            metadata=spec03_metadata(h.chunk) | ({"scope_level": h.via} if scope == "auto" else {}))
               for h in hits]
    return RagSearchResponse(query=req.query, scope=scope, results=results, total_results=len(results),
                             search_time_ms=elapsed)


def rate_limit_setting() -> tuple[str, int]:
    """RAG_RATE_LIMIT "60/minute" (also second, hour, day) -> ("minute", 60)."""
    raw = env("RAG_RATE_LIMIT", "60/minute") or "60/minute"
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(second|minute|hour|day)\s*", raw)
    if not m:
        raise ConfigError(f"RAG_RATE_LIMIT must look like '60/minute' (second, minute, hour or day); got {raw!r}")
    return m.group(2), int(m.group(1))


def session_key(request) -> str:
    """Who a rate limit counts: the X-Session-ID header, else the client address."""
    session = request.headers.get("x-session-id", "").strip()
    if session:
        return "session:" + session[:128]
    client = request.client
    return "address:" + (client.host if client else "unknown")



# --------------------------------------------------------------------------- routes
"""Routes: spec 01's and spec 03's handlers as Litestar routers, each answering errors in its spec's format."""

SEARCH_MAX_AGE = 86400      # spec 01: agents cache search and expansion for 24 hours
ENTITY_MAX_AGE = 604800     # and entities for 7 days
def cached(kb: KnowledgeBase, request, body: Any, max_age: int):
    """A 200 with Cache-Control and an ETag (build hash + request), or 304 when the client has it."""
    import hashlib

    from litestar import MediaType, Response

    data = msgspec.json.encode(body)  # once: the ETag is a hash of the bytes that are sent
    key = hashlib.sha1(f"{request.method} {request.url.path} ".encode() + data).hexdigest()
    etag = f'W/"{kb.build_hash[:16]}-{key[:16]}"'
    headers = {"Cache-Control": f"public, max-age={max_age}", "ETag": etag}
    wanted = request.headers.get("if-none-match", "")
    if etag in [t.strip() for t in wanted.split(",")] or wanted.strip() == "*":
        return Response(content=b"", status_code=304, headers=headers)
    return Response(content=data, headers=headers, media_type=MediaType.JSON)


def spec01_routes(kb: KnowledgeBase):
    """A Litestar Router: spec 01's three routes and GET /health (spec 02's), in spec 01's error format."""
    from litestar import Request, Response, Router, get, post
    from litestar.params import JSONBody, Parameter

    # Path parameters as documented (docs only: our own checks give spec 01's messages); we also accept
    # other spellings ("Algorithm", "eq", "(3.2)"), these are the canonical ones.
    declare_kinds(kb.kinds)
    EntityTypeParam = Annotated[str, Parameter(description="Entity type: spec 01's four, and every other kind the "
                                                           "book numbers (image is another name for figure)",
                                               schema_extra={"enum": [*kb.kinds, "image"]})]
    EntityNumberParam = Annotated[str, Parameter(description="Printed number, e.g. 3.2 or A.1",
                                                 schema_extra={"pattern": r"^(?:[A-Za-z]|[0-9]+)(?:\.[0-9]+)*[a-z]?$"})]
    # max_tokens (issue 27): a whole number in range (the framework's check, in spec 01's error format).
    MaxTokensParam = Annotated[Optional[int], Parameter(
        description=f"Most tokens the answer may hold (default {REST_MAX_TOKENS}); a cut answer has truncated and "
                    f"hint. {TOKEN_RULE}", ge=MIN_MAX_TOKENS, le=MAX_MAX_TOKENS)]

    @get("/health", summary="Service status, the book's title and counts per chunk type",
         responses=error_responses(500, body=ErrorBody))
    async def health() -> HealthResponse:
        return HealthResponse(status="ok", service=SERVICE_NAME, timestamp=now_iso(), book=kb.title,
                              counts=kb.counts(), build_report=kb.build_report)

    @post("/search/semantic", status_code=200, summary="Hybrid search over the book (spec 01)",
          responses=error_responses(400, 401, 413, 500, 503, body=ErrorBody, cached=True))
    async def search_semantic(request: Request, data: JSONBody[SemanticSearchRequest]) -> Response[SemanticSearchResponse]:
        return cached(kb, request, await off_loop(semantic_search, kb, data), SEARCH_MAX_AGE)

    @post("/search/expand-graph", status_code=200, summary="One hop along the reference graph (spec 01)",
          responses=error_responses(400, 401, 413, 500, body=ErrorBody, cached=True))
    async def search_expand_graph(request: Request, data: JSONBody[ExpandGraphRequest]) -> Response[ExpandGraphResponse]:
        return cached(kb, request, expand_documents(kb, data), SEARCH_MAX_AGE)

    @get("/entity/{entity_type:str}/{number:str}", summary="A numbered entity by type and number (spec 01)",
         responses=error_responses(400, 401, 404, 500, body=ErrorBody, cached=True))
    async def entity(request: Request, entity_type: EntityTypeParam, number: EntityNumberParam,
                     max_tokens: MaxTokensParam = None) -> Response[EntityResponse]:
        return cached(kb, request, get_entity(kb, entity_type, number, max_tokens), ENTITY_MAX_AGE)

    # Handlers' annotations are strings (deferred); these names live in this function.
    return Router(path="/", route_handlers=[health, search_semantic, search_expand_graph, entity],
                  exception_handlers=spec01_error_handlers(),
                  signature_namespace={"Request": Request, "Response": Response, "JSONBody": JSONBody,
                                       "EntityTypeParam": EntityTypeParam, "EntityNumberParam": EntityNumberParam,
                                       "MaxTokensParam": MaxTokensParam})


def spec03_routes(kb: KnowledgeBase, rate_limit: tuple[str, int]):
    """A Litestar Router: POST /api/rag/search with its rate limit, in spec 03's error envelope."""
    from litestar import MediaType, Request, Response, Router, post
    from litestar.exceptions import HTTPException, ValidationException
    from litestar.middleware.rate_limit import RateLimitConfig
    from litestar.params import JSONBody

    def spec03_error(request: Request, status: int, error: str, details: list[Spec03Detail],
                     retry_after: int | None = None, headers: dict | None = None) -> Response:
        body = Spec03Error(error=error, details=details, timestamp=now_iso(),
                           request_id=request.scope.get("state", {}).get("request_id"), retry_after=retry_after)
        return Response(content=body, status_code=status, media_type=MediaType.JSON, headers=headers)

    def on_failure(request: Request, exc: Spec03Failure) -> Response:
        return spec03_error(request, exc.status, "Invalid request" if exc.status == 400 else "Validation error",
                            exc.details)

    def on_http(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 429:
            reset = int((exc.headers or {}).get("RateLimit-Reset", "1") or 1)
            return spec03_error(request, 429, "Rate limit exceeded", [Spec03Detail(
                "RATE_LIMIT_EXCEEDED", f"Too many search requests. Try again in {reset} seconds.")],
                retry_after=reset, headers={**(exc.headers or {}), "Retry-After": str(reset)})
        if exc.status_code >= 500:
            return on_crash(request, exc)
        code = "INVALID_JSON" if "JSON" in str(exc.detail) else "INVALID_REQUEST"
        return spec03_error(request, exc.status_code, "Invalid request", [Spec03Detail(code, str(exc.detail))])

    def on_validation(request: Request, exc: ValidationException) -> Response:
        return spec03_error(request, 400, "Invalid request", [Spec03Detail("INVALID_JSON", validation_detail(exc))])

    def on_budget(request: Request, exc: BudgetExceeded) -> Response:
        return spec03_error(request, 503, "Search timed out", [Spec03Detail("TIME_BUDGET_EXCEEDED", str(exc))],
                            retry_after=RETRY_AFTER_SECONDS, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})

    def on_crash(request: Request, exc: Exception) -> Response:
        if isinstance(exc, CLIENT_DECODE_ERRORS):
            return spec03_error(request, 400, "Invalid request", [Spec03Detail("INVALID_JSON",
                                                                               decode_error_message(exc))])
        return spec03_error(request, 500, "Search failed", [Spec03Detail(
            "SEARCH_ERROR", "An error occurred during search. Please try again.")])

    @post("/search", status_code=200, summary="Lesson-, chapter- or book-scoped search (spec 03)",
          responses=error_responses(400, 401, 413, 422, 429, 500, 503, body=Spec03Error))
    async def api_rag_search(data: JSONBody[RagSearchRequest]) -> RagSearchResponse:
        return await off_loop(rag_search, kb, data)

    unit, count = rate_limit
    return Router(
        path="/api/rag", route_handlers=[api_rag_search],
        middleware=[RateLimitConfig(rate_limit=(unit, count), identifier_for_request=session_key).middleware],
        exception_handlers={Spec03Failure: on_failure, ValidationException: on_validation,
                            HTTPException: on_http, BudgetExceeded: on_budget, Exception: on_crash},
        signature_namespace={"JSONBody": JSONBody, "Request": Request, "Response": Response},
    )
