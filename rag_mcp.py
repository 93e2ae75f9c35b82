"""bookrag's MCP adapter (spec 02): the official SDK's MCPServer with the book's tools, mounted at /mcp.

The SDK takes about half a second to import, so nothing here is imported at start-up: the app holds
a LazyMCP that builds the server on the first /mcp or /tools request.  Tools are plain functions
whose annotations give their input schemas; the module leaves annotations eager (no `from
__future__ import annotations`) because the types of a tool's arguments are built for the served
book (its entity kinds, its parts, its tag categories) in the function that defines the tool.
"""

import functools
import re
from typing import Any, Sequence

from rag_core import (BLANKS, LINK_RELATIONS, MAX_BODY_BYTES, BudgetExceeded, Chunk, KnowledgeBase, TagVocabulary,
                      chunk_type, env, expand_graph, normalize_number, now_iso, off_loop, whole_number)
from rag_text import TOP_LEVEL_DEF_RE, called_names

# --------------------------------------------------------------------------- MCP (spec 02)
"""MCP adapter (spec 02): the official SDK's MCPServer, stateless JSON, mounted at /mcp."""

# spec 02's EntityType; "figure" is accepted as another name for "image", and every other kind the
# served book numbers (theorem, definition, …) follows them in the tools' enum.
MCP_ENTITY_TYPES = ("formula", "table", "algorithm", "image", "exercise", "example", "figure")


def mcp_entity_types(kinds) -> tuple[str, ...]:
    return MCP_ENTITY_TYPES + tuple(k for k in kinds if k not in MCP_ENTITY_TYPES)


_KIND_OF_MCP_TYPE = {"image": "figure"}
_MCP_TYPE_OF_KIND = {"figure": "image"}


def mcp_document(chunk: Chunk, kb: KnowledgeBase, cosine: float | None = None) -> dict:
    """spec 02's Document {id, content, cosine_similarity, metadata}: lean, no nulls, integer pages."""
    meta: dict[str, Any] = {"chunk_type": chunk_type(chunk.kind)}
    if chunk.number and chunk.kind != "section":
        meta["entity_id"] = chunk.number
    if chunk.title and chunk.kind not in ("text", "section"):
        meta["title"] = chunk.title
    # spec 02 names: section = chapter, subsection = our section, subsubsection = our subsection.
    for ours, theirs in (("part", "part"), ("chapter", "section"), ("section", "subsection"),
                         ("subsection", "subsubsection")):
        if getattr(chunk, ours):
            key = "part" if theirs == "part" else f"{theirs}_number"
            meta[key] = getattr(chunk, ours)
            if getattr(chunk, f"{ours}_title"):
                meta[f"{theirs}_title"] = getattr(chunk, f"{ours}_title")
    if chunk.page is not None:
        meta["page"] = int(chunk.page)
    if chunk.kind != "section":
        refs, _ = kb.references_of(chunk.id)
        grouped: dict[str, list[str]] = {}
        for ref in refs:
            kind, _, number = ref.partition("_")
            if kind in kb.kinds:
                grouped.setdefault(f"referenced_{kind}s", []).append(number.replace("_", "."))
        meta.update(grouped)
    doc: dict[str, Any] = {"id": chunk.id, "content": chunk.content}
    if cosine is not None:
        doc["cosine_similarity"] = round(float(cosine), 4)
    doc["metadata"] = meta
    return doc


def mcp_filters(filters: dict | None, parts: Sequence[str]) -> dict:
    """spec 02 SearchFilters -> knowledge-base filters, with messages that name the allowed values.

    parts: the book's own parts (KnowledgeBase.parts: "I"…"V" and "Appendices" in the sample book)."""
    out: dict[str, Any] = {}
    for key, value in (filters or {}).items():
        if value is None:
            continue
        if key == "part":
            part = str(value).strip()
            match = next((p for p in parts if p.lower() == part.lower()), None)
            if match is None:
                allowed = f"one of {', '.join(parts)}" if parts else "left out: this book has no parts"
                raise ValueError(f"filters.part must be {allowed}; got {part!r}")
            out["part"] = match
        elif key in ("section", "subsection", "subsubsection"):
            number = normalize_number(str(value))
            if number is None:
                raise ValueError(f"filters.{key} must be a number like "
                                 f"{ {'section': '2', 'subsection': '2.3', 'subsubsection': '2.3.1'}[key]!r}")
            out[{"section": "chapter", "subsection": "section", "subsubsection": "subsection"}[key]] = number
        elif key == "page_number":
            if whole_number(value) is None:
                raise ValueError("filters.page_number must be an integer")
            out["page"] = whole_number(value)
        else:
            raise ValueError(f"filters.{key} is not supported; use part, section, subsection, "
                             "subsubsection, page_number")
    return out


def mcp_kinds(types: Sequence[str] | None) -> list[str]:
    return list(dict.fromkeys(_KIND_OF_MCP_TYPE.get(t, t) for t in types or []))


def related_code(kb: KnowledgeBase, ids: Sequence[str]) -> tuple[str, list[str]]:
    """Python definitions the given algorithms/examples depend on, transitively, callees first."""
    index = code_index(kb)
    order: list[str] = []
    visiting: set[str] = set()
    own: set[str] = set()
    roots: list[str] = []
    for raw in ids:
        chunk = kb.get(raw)
        if chunk is None or chunk.kind not in ("algorithm", "example"):
            continue
        own.update(name for name, (cid, _) in index.items() if cid == chunk.id)
        roots.extend(called_names(chunk.content))

    def visit(name: str) -> None:
        if name in visiting or name in order or name not in index:
            return
        visiting.add(name)
        for callee in called_names(index[name][1]):
            visit(callee)
        order.append(name)

    for name in roots:
        if name not in own:
            visit(name)
    names = [n for n in order if n not in own]
    parts = [f"# {index[n][0]}: {n}\n{index[n][1]}" for n in names]
    return "\n\n".join(parts), [index[n][0] for n in names]


_CODE_INDEXES: dict[tuple[str, str], dict[str, tuple[str, str]]] = {}


def code_index(kb: KnowledgeBase) -> dict[str, tuple[str, str]]:
    """{function or class name: (algorithm id, its source)} over every algorithm (built once per file)."""
    key = (str(kb.path), kb.build_hash)  # a rebuilt file has other code
    if key not in _CODE_INDEXES:
        index: dict[str, tuple[str, str]] = {}
        for cid, content in kb.contents_of_kind("algorithm"):
            for name, source in top_level_definitions(content).items():
                index.setdefault(name, (cid, source))
        _CODE_INDEXES[key] = index
    return _CODE_INDEXES[key]


def top_level_definitions(code: str) -> dict[str, str]:
    """{name: source} of each top-level def/class in an algorithm's code (parsed, else by indentation)."""
    import ast

    try:
        tree = ast.parse(code)
    except SyntaxError:
        blocks, name, lines = {}, None, []
        for line in code.splitlines():
            m = TOP_LEVEL_DEF_RE.match(line)
            if m:
                if name:
                    blocks[name] = "\n".join(lines).rstrip()
                name, lines = m.group(1), [line]
            elif name and (line.startswith((" ", "\t")) or not line.strip()):
                lines.append(line)
        if name:
            blocks[name] = "\n".join(lines).rstrip()
        return blocks
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[node.name] = ast.get_source_segment(code, node) or ""
    return out


MCP_TOOL_DOCS = {
    "answer_question": (
        "Answer a question from the book only, with inline [n] citations (page_title, module_name, source_url, "
        "module, chapter, page), or refuse with "
        "'answer not found in book'. mode 'selected_text_only' answers only from selected_text. Deterministic: "
        "the same input gives the same answer and output_hash. Returns spec 04's AgentResponse (status, "
        "content, citations, confidence high|low|none, hashes, timings)."),
    "search_knowledge_base": (
        "Search the book 'Algorithms for Decision Making'-style textbook served here. Hybrid semantic and "
        "keyword search over text, formulas, algorithms, tables, figures, examples and exercises; explicit "
        "references such as 'Algorithm 3.2' or 'eq. (4.5)' come first. Optional filters restrict the scope "
        "(part, section = chapter number, subsection, subsubsection, page_number; null means any); "
        "search_tags {bc_concepts, bc_db_tables} boosts results carrying those tags (+0.1 each, names from "
        "get_search_tags_catalog); traverse_types adds the linked entities of those types after the ranked "
        "results. A query may be as short as one character. Returns {result: [Document]} where each "
        "Document has id, content, cosine_similarity and metadata (chunk_type, entity_id, page, section "
        "titles, referenced_* lists)."),
    "expand_graph_by_ids": (
        "Given document ids from an earlier result (any id or alias such as 'algo_4_1' or 'Algorithm 4.1'), "
        "return the linked entities of the requested types: what those documents reference, what references "
        "them, and formulas or functions used in algorithms. Returns {result: [Document]}."),
    "get_entity_by_number": (
        "Fetch one numbered entity directly: entity_type formula, table, algorithm, image (a figure), "
        "exercise or example, and its number such as '3.2', '16.4' or 'A.1'. Returns {result: Document} or "
        "{result: null} when the book has no such entity."),
    "get_related_code_definitions": (
        "For algorithm or example ids, return the Python definitions they depend on in other algorithms "
        "(functions and classes they call, transitively, callees first) as one document, so the code can be "
        "read or run as a whole. Returns one Document: id, content (the code; empty when nothing else is called) "
        "and metadata.source_ids (the algorithms the definitions come from)."),
    "get_search_tags_catalog": (
        "List the search tags this book's knowledge file was built with, for search_knowledge_base's search_tags. "
        "tag_type 'concepts' gives concept tags (bc_concepts), optionally one category's; tag_type 'tables' gives "
        "database table names (bc_db_tables). Returns one Document: content 'Available search_tags <tag_type>', "
        "metadata.items (the tag names), metadata.selected_category and metadata.tag_type."),
}


def create_mcp(kb: KnowledgeBase, answer=None, extra_tools=None):
    """The MCPServer with spec 02's tools (plus get_related_code_definitions) over the knowledge base.

    answer, when given, adds the tool answer_question: a callable (query, mode, selected_text,
    top_k, module_filter) -> spec 04's response that raises ValueError for a question it refuses.
    extra_tools, when given, is called to get more tools, {name: (function, description)}
    (rag_navigation.navigation_tools, on /mcp/all).  Built with the SDK's public API: each tool a
    Tool made from its function, handed to MCPServer.
    """
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.tools import Tool

    # Searches run in the service's worker pool; answer_question may wait seconds on an LLM, so it
    # keeps the SDK's own threads.
    # spec 02's tools take no max_tokens (their arguments are BeliefCraft's): their answers are capped.
    functions = {name: in_worker_pool(capped(fn)) for name, fn in book_tools(kb).items()}
    docs = dict(MCP_TOOL_DOCS)
    if answer is not None:
        functions["answer_question"] = answer_tool(answer)
    for name, (fn, description) in (extra_tools() if extra_tools is not None else {}).items():
        functions[name], docs[name] = in_worker_pool(fn), description
    tools = [strict_arguments(Tool.from_function(fn, name=name, description=docs[name]))
             for name, fn in functions.items()]
    toc = "\n".join(f"{'  ' * row['level']}{'Part ' if row['level'] == 0 else ''}{row['number']} "
                    f"{row['title']} (p. {row['page']})" for row in kb.toc())
    return MCPServer(name="bookrag", version="0.1.0", tools=tools,
                     instructions=(f"Knowledge service for the textbook '{kb.title}'. Cite printed pages from "
                                   f"metadata.page. Contents:\n{toc}"))


def tool_types(kb: KnowledgeBase):
    """The tools' argument and result types for the served book: its entity kinds, parts and tag categories."""
    from types import SimpleNamespace
    from typing import Annotated, Literal

    from pydantic import ConfigDict, Field
    from typing_extensions import NotRequired, TypedDict

    parts = kb.parts()
    part_help = f"One of {', '.join(parts)}; null for any" if parts else "The book has no parts: leave null"
    # Functional TypedDicts: the fields' descriptions and enums are the served book's.
    # Every filter field is nullable: null means "no filter" (LLMs fill optional fields with null).
    SearchFilters = TypedDict("SearchFilters", {
        "part": Annotated[str | None, Field(description=part_help)],
        "section": Annotated[str | None, Field(description="Chapter number, e.g. '2'; null for any")],
        "subsection": Annotated[str | None, Field(description="Section number, e.g. '2.3'; null for any")],
        "subsubsection": Annotated[str | None, Field(description="Subsection number, e.g. '2.3.1'; null for any")],
        "page_number": Annotated[int | None, Field(description="Printed page number; null for any")],
    }, total=False)
    SearchFilters.__pydantic_config__ = ConfigDict(extra="forbid")
    SearchTags = TypedDict("SearchTags", {
        "bc_concepts": Annotated[list[Annotated[str, Field(max_length=80)]] | None, Field(
            description="Concept tags (names from get_search_tags_catalog with tag_type 'concepts'); each one a "
                        "result shares adds 0.1 to its score", max_length=50)],
        "bc_db_tables": Annotated[list[Annotated[str, Field(max_length=80)]] | None, Field(
            description="Database table names (from get_search_tags_catalog with tag_type 'tables'); each one a "
                        "result shares adds 0.1 to its score", max_length=50)],
    }, total=False)
    SearchTags.__pydantic_config__ = ConfigDict(extra="forbid")
    Document = TypedDict("Document", {
        "id": str, "content": str, "cosine_similarity": NotRequired[float], "metadata": dict[str, Any],
    })
    concepts = kb.vocabulary.concepts
    return SimpleNamespace(
        SearchFilters=SearchFilters, SearchTags=SearchTags, Document=Document,
        # Results are {"result": ...} objects, so structuredContent and the JSON text block are the same.
        ListResult=TypedDict("ListResult", {"result": list[Document]}),
        EntityResult=TypedDict("EntityResult", {"result": Document | None}),
        EntityType=Literal[mcp_entity_types(kb.kinds)],
        # The category enum is the loaded vocabulary's (a file with no concept tags takes any name).
        Category=Literal[tuple(concepts)] if concepts else str,
        Ids=Annotated[list[Annotated[str, Field(max_length=128)]],
                      Field(description="Document ids from earlier results", max_length=100)],
    )


def book_tools(kb: KnowledgeBase) -> dict[str, Any]:
    """spec 02's five tools over the knowledge base, by name; their annotations are their input schemas."""
    from typing import Annotated, Literal

    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import Field

    T = tool_types(kb)
    vocabulary, parts = kb.vocabulary, kb.parts()

    def search_knowledge_base(
            query: Annotated[str, Field(description="Text query for semantic search", max_length=2000)],
            k: Annotated[int | None, Field(description="Number of results, 1-20 (default 5)")] = 5,
            traverse_types: Annotated[list[T.EntityType] | None,
                                      Field(description="Entity types to add via links")] = None,
            filters: Annotated[T.SearchFilters | None, Field(description="Metadata filters; null for none")] = None,
            search_tags: Annotated[T.SearchTags | None, Field(
                description="Tags that boost results carrying them (see get_search_tags_catalog); null for none")] = None,
    ) -> T.ListResult:
        # On MCP a query of one or two characters ("MC", "Q") is a search; only a blank one is refused.
        if not query or not query.strip(BLANKS):
            raise ToolError("query must not be empty")
        k = 5 if k is None else k  # null, as LLMs send for optional fields, is the default
        if not 1 <= k <= 20:
            raise ToolError("k must be between 1 and 20")
        try:
            kb_filters = mcp_filters(filters, parts)
            tags = mcp_search_tags(vocabulary, search_tags)
        except ValueError as exc:
            raise ToolError(str(exc)) from None
        result = kb.search(query.strip(BLANKS)[:2000], k=k, filters=kb_filters,
                           traverse_kinds=mcp_kinds(traverse_types), tags=tags)
        docs = []
        for h in result.hits:
            doc = mcp_document(h.chunk, kb, h.cosine)
            if h.continued:   # a short hit with the text that follows it, as on REST
                doc["metadata"]["continued"] = h.continued
            docs.append(doc)
        return {"result": docs}

    def expand_graph_by_ids(
            document_ids: T.Ids,
            traverse_types: Annotated[list[T.EntityType], Field(description="Types of linked objects to retrieve")],
    ) -> T.ListResult:
        if not document_ids:
            raise ToolError("document_ids must be a non-empty list of ids")
        kinds = set(mcp_kinds(traverse_types))
        docs, _unknown = expand_graph(kb, document_ids[:100], LINK_RELATIONS + ("RELATED_TO",))
        out = []
        for d in docs:
            if d["chunk"].kind in kinds:
                doc = mcp_document(d["chunk"], kb)
                # How it was reached, as seen from the requested document (the REST convention).
                doc["metadata"]["relationships"] = d["relationships"]
                out.append(doc)
        return {"result": out}

    def get_entity_by_number(
            entity_type: Annotated[T.EntityType, Field(description="Type of entity")],
            number: Annotated[str, Field(description="Entity number, e.g. '3.2' or 'A.1'", max_length=32)],
    ) -> T.EntityResult:
        num = normalize_number(number)
        if num is None:
            raise ToolError(f"number {number!r} is not an entity number; expected e.g. '3.2', '16.4' or 'A.1'")
        chunk = kb.entity(_KIND_OF_MCP_TYPE.get(entity_type, entity_type), num)
        return {"result": mcp_document(chunk, kb) if chunk else None}

    def get_related_code_definitions(document_ids: T.Ids) -> T.Document:
        if not document_ids:
            raise ToolError("document_ids must be a non-empty list of algorithm or example ids")
        code, sources = related_code(kb, document_ids[:50])
        # One Document, as BeliefCraft's tool returns: empty content when nothing else is called.
        return {"id": "code_for_" + "_".join(kb.resolve_id(i) or i for i in document_ids[:5]),
                "content": code, "metadata": {"chunk_type": "code", "source_ids": sources}}

    def get_search_tags_catalog(
            tag_type: Annotated[Literal["concepts", "tables"], Field(description="Which tags to list")],
            category: Annotated[T.Category | None, Field(
                description="Concepts only: one category's tags; null or left out for every concept")] = None,
    ) -> T.Document:
        if tag_type == "tables":
            items, category = list(vocabulary.tables), None
        elif category:
            if category not in vocabulary.concepts:
                raise ToolError(f"category {category!r} is not one of {', '.join(vocabulary.concepts) or 'none'}")
            items = list(vocabulary.concepts[category])
        else:
            items = vocabulary.all_concepts
        return {"id": f"search_tags_{tag_type}" + (f"_{category}" if category else ""),
                "content": f"Available search_tags {tag_type}",
                "metadata": {"tag_type": tag_type, "selected_category": category, "items": items}}

    return {fn.__name__: fn for fn in (search_knowledge_base, expand_graph_by_ids, get_entity_by_number,
                                       get_related_code_definitions, get_search_tags_catalog)}


def answer_tool(answer):
    """The tool answer_question over an answerer (query, mode, selected_text, top_k, module_filter) -> dict."""
    from typing import Annotated, Literal

    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import Field

    def answer_question(
            query: Annotated[str, Field(description="The question", max_length=2000)],
            mode: Annotated[Literal["full_book", "selected_text_only"], Field(description="Where to look")] = "full_book",
            selected_text: Annotated[str | None, Field(
                description="The text to answer from in selected_text_only mode")] = None,
            top_k: Annotated[int, Field(description="Chunks to retrieve, 1-100")] = 5,
            module_filter: Annotated[str | None, Field(
                description="Restrict to one module (or part) of the book")] = None,
    ) -> dict[str, Any]:
        try:
            return answer(query, mode, selected_text, top_k, module_filter)
        except ValueError as exc:  # a question the answerer refuses to take: the tool error says why
            raise ToolError(str(exc)) from None

    return answer_question


def strict_arguments(tool):
    """The tool with additionalProperties: false in its inputSchema, and an unknown argument a tool
    error that names it (the SDK would otherwise drop it silently).  FuncMetadata's fields are read
    on each call, so the stricter argument model takes effect as it is assigned."""
    from pydantic import ConfigDict

    base = tool.fn_metadata.arg_model
    strict = type(base.__name__, (base,), {"model_config": ConfigDict(**base.model_config, extra="forbid"),
                                           "__module__": base.__module__})
    tool.fn_metadata.arg_model = strict
    tool.parameters = strict.model_json_schema(by_alias=True)
    return tool


def mcp_search_tags(vocabulary: TagVocabulary, search_tags: dict | None) -> list[str]:
    """search_tags {bc_concepts, bc_db_tables} -> the knowledge base's tag names; unknown names are an error."""
    tags: list[str] = []
    for key, tag_type in (("bc_concepts", "concepts"), ("bc_db_tables", "tables")):
        names = (search_tags or {}).get(key) or []
        known, unknown = vocabulary.canonical(tag_type, names)
        if unknown:
            raise ValueError(f"search_tags.{key}: unknown tag(s) {', '.join(map(repr, unknown[:10]))}; "
                             f"get_search_tags_catalog(tag_type='{tag_type}') lists the valid ones")
        tags += known
    return tags


def capped(tool):
    """The tool with its answer kept under rag_budget.MCP_ANSWER_TOKENS (its schema unchanged)."""
    from rag_budget import cap_tool_result

    @functools.wraps(tool)
    def run(**arguments):
        return cap_tool_result(tool(**arguments))

    return run


def in_worker_pool(tool):
    """An async tool that runs the sync one in the service's worker pool (rag.off_loop).

    Left sync, the SDK would run each call in a thread of its own (up to 40 at once), each with
    its own SQLite connection; the shared pool keeps MCP and REST searches on one core each.
    The SDK reads the signature through __wrapped__, so the tool's schema is unchanged.
    """
    from mcp.server.mcpserver.exceptions import ToolError

    @functools.wraps(tool)
    async def run(**arguments):
        try:
            return await off_loop(tool, **arguments)
        except BudgetExceeded as exc:  # a tool error the model can read: it says to retry
            raise ToolError(str(exc)) from None

    return run


class LazyMCP:
    """The MCP servers, built and started on first use of /mcp or /tools, not at start-up.

    Two tool lists over one knowledge base: "default" (served at /mcp) has exactly BeliefCraft's
    five shared tools, plus answer_question when RAG_MCP_ANSWER_TOOL=1; "all" (served at /mcp/all)
    adds answer_question and the extra tools (the navigation tools of rag_navigation).  Importing the MCP SDK takes about half a second, most of the service's
    cold start; agents that only use REST never pay it.  The session managers' task groups must be
    entered and left in one task, so a task started in the app's lifespan waits for the first
    request, builds the servers, runs their session managers, and stops at shutdown.
    """

    def __init__(self, kb: KnowledgeBase, answer=None, bind_host: str | None = None, extra_tools=None):
        import asyncio

        self.kb = kb
        self.answer = answer
        self.extra_tools = extra_tools     # more tools for /mcp/all only (create_mcp's extra_tools)
        self.bind_host = bind_host
        self.servers: dict = {}
        self._apps: dict = {}
        self.error: Exception | None = None
        self.needed, self.ready, self.stop = asyncio.Event(), asyncio.Event(), asyncio.Event()

    def running(self):
        """The lifespan part: an async context that owns the MCP task."""
        import asyncio
        from contextlib import asynccontextmanager

        @asynccontextmanager
        async def lifespan():
            task = asyncio.create_task(self._run())
            try:
                yield
            finally:
                self.stop.set()
                await task

        return lifespan()

    async def _run(self) -> None:
        import asyncio
        from contextlib import AsyncExitStack

        needed, stop = asyncio.create_task(self.needed.wait()), asyncio.create_task(self.stop.wait())
        await asyncio.wait({needed, stop}, return_when=asyncio.FIRST_COMPLETED)
        needed.cancel()
        stop.cancel()
        if self.stop.is_set():
            return
        try:
            security = mcp_transport_security(self.bind_host)
            on_default = answer_tool_on_default()
            self.servers = {"default": create_mcp(self.kb, self.answer if on_default else None),
                            "all": create_mcp(self.kb, self.answer, self.extra_tools)}
            async with AsyncExitStack() as stack:
                for name, server in self.servers.items():
                    self._apps[name] = server.streamable_http_app(
                        streamable_http_path="/", stateless_http=True, json_response=True,
                        transport_security=security, max_request_body_size=MAX_BODY_BYTES)
                    await stack.enter_async_context(server.session_manager.run())
                self.ready.set()
                await self.stop.wait()
        except Exception as exc:  # reported to every waiting request instead of hanging them
            self.error = exc
            self.ready.set()

    async def app(self, name: str = "default"):
        """The MCP ASGI app of one tool list ("default" or "all"), starting the servers on the first call."""
        self.needed.set()
        await self.ready.wait()
        if self.error is not None:
            raise RuntimeError(f"the MCP server could not start: {self.error}")
        return self._apps[name]

    async def list_tools(self, name: str = "all"):
        await self.app(name)
        return await self.servers[name].list_tools()


def mcp_routes(mcp: "LazyMCP"):
    """A Litestar Router: the MCP servers mounted at /mcp (the default tools) and /mcp/all (every tool).

    The app runs mcp.running() in its lifespan; the servers start on the first request."""
    import json

    from litestar import Router, asgi
    from litestar.types import Receive, Scope, Send

    @asgi("/mcp", is_mount=True, copy_scope=True)
    async def mcp_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        # Stateless JSON only: no GET event stream (an idle stream would bill a serverless
        # instance) and no sessions to DELETE.  The 405 body is spec 01's error shape, as on REST.
        if scope["type"] == "http" and scope["method"] in ("GET", "DELETE"):
            body = json.dumps({"detail": f"{scope['method']} is not supported on /mcp: POST JSON-RPC requests",
                               "status_code": 405, "error_code": "METHOD_NOT_ALLOWED",
                               "timestamp": now_iso()}, separators=(",", ":")).encode()
            await send({"type": "http.response.start", "status": 405,
                        "headers": [(b"content-type", b"application/json"), (b"allow", b"POST"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        # /mcp: the default tool list; /mcp/all: every tool, answer_question included.
        tools = "default"
        if scope["type"] == "http" and scope.get("path", "").rstrip("/") == "/all":
            tools = "all"
            scope["path"] = "/"
        if scope["type"] == "http" and scope.get("path", "") == "":
            scope["path"] = "/"
        await (await mcp.app(tools))(scope, receive, send)

    return Router(path="/", route_handlers=[mcp_endpoint],
                  signature_namespace={"Scope": Scope, "Receive": Receive, "Send": Send})


def answer_tool_on_default() -> bool:
    """RAG_MCP_ANSWER_TOOL=1 puts answer_question on /mcp's list too (it is always on /mcp/all)."""
    return (env("RAG_MCP_ANSWER_TOOL", "0") or "0").strip().lower() in ("1", "true", "yes", "on")


LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


def is_loopback(host: str | None) -> bool:
    """True for a bind address only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    import ipaddress

    if host is None:
        return True
    host = host.strip().strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def mcp_host_policy(bind_host: str | None) -> list[str] | None:
    """The Host names /mcp accepts, or None for any Host.

    RAG_MCP_ALLOWED_HOSTS, when set, wins ("*" means any).  Otherwise a service bound to a loopback
    address (the default 127.0.0.1, or not bound at all: tests, Lambda) accepts only localhost names,
    which stops DNS-rebinding pages in a browser on this machine; a service bound to any other
    address (0.0.0.0 or :: in a container, a LAN address) is meant to be reached by other names, such
    as a compose service name (rag-service:8001), and accepts any Host.
    """
    hosts = [h.strip() for h in (env("RAG_MCP_ALLOWED_HOSTS", "") or "").split(",") if h.strip()]
    if hosts:
        return None if "*" in hosts else hosts
    return list(LOOPBACK_HOSTS) if is_loopback(bind_host) else None


def mcp_transport_security(bind_host: str | None = None):
    """Host/Origin checks for /mcp by mcp_host_policy."""
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = mcp_host_policy(bind_host)
    if hosts is None:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    allowed = hosts + [f"{h}:*" for h in hosts if ":" not in h.strip("[]") or h.startswith("[")]
    origins = [f"{scheme}://{h}" for h in allowed for scheme in ("http", "https")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=allowed,
                                     allowed_origins=origins)
