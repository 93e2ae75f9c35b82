"""bookrag's navigation adapters (issue 27): outline, reading, quotes, formulas, notation and export
over REST (spec 01's error format), on MCP at /mcp/all, and on the command line.

Sections, top-down: the answers (one function per capability, budgeted by max_tokens, shared by
the three adapters), REST (a Litestar Router rag.py mounts), MCP (tools added to /mcp/all only:
/mcp keeps BeliefCraft's five) and the CLI (subcommands rag.py adds).  Imports the core only.
"""


import json
import sys
from pathlib import Path
from typing import Annotated, Any

import msgspec

from rag_budget import (DEFAULT_MAX_TOKENS, LEVELS, MAX_CONTEXT, MAX_FORMULA_QUERY, MAX_MAX_TOKENS, MAX_PASSAGE,
                        MIN_MAX_TOKENS, TOKEN_RULE, NavigationError, answer_tokens, fit_items, fits, max_tokens_value)
from rag_core import (NONBLANK, ErrorBody, JsonSchema, KnowledgeBase, error_response, error_responses, off_loop,
                      spec01_error_handlers)

# --------------------------------------------------------------------------- answers
"""Answers: each capability's JSON, inside max_tokens; a cut answer says so and how to get the rest."""


def _budgeted(answer: dict, key: str, budget: int, hint: str) -> dict:
    """The answer with as many of answer[key] as fit; truncated and a hint when some are left out."""
    if fits(answer, budget):
        return dict(answer, truncated=False, max_tokens=budget)
    items = answer[key]

    def finish(out: dict, whole: int, cut: bool) -> dict:
        out["truncated"] = True
        out["omitted"] = len(items) - whole
        out["hint"] = hint
        out["max_tokens"] = budget
        return out

    fitted, _, _ = fit_items({k: v for k, v in answer.items() if k != key}, key, items, budget, None, finish)
    return fitted


def outline_answer(kb: KnowledgeBase, depth: Any = None, under: Any = None, with_ids: Any = None,
                   max_tokens: Any = None) -> dict:
    budget = max_tokens_value(max_tokens)
    ids = _flag(with_ids, "with_ids")
    from rag_outline import outline   # the navigation modules load at first use: a quicker start

    answer = outline(kb, "section" if depth is None else depth, under, ids)
    if not fits(answer, budget):
        # Too long at this depth: the deepest shallower outline that fits whole, said so.
        asked = answer["depth"]
        for shallower in reversed(LEVELS[:LEVELS.index(asked)]):
            fewer = outline(kb, shallower, under, ids)
            if answer_tokens(fewer) <= budget - 80:
                return dict(fewer, truncated=True, depth_asked=asked, max_tokens=budget,
                            hint=f"the outline down to {asked} needs more than max_tokens: shown down to "
                                 f"{shallower}; ask for one heading at depth {asked} with under=<id>")
    return _budgeted(answer, "headings", budget,
                     "ask for one part or chapter with under=<id>, a shallower depth, or a larger max_tokens")


def read_answer(kb: KnowledgeBase, **request: Any) -> dict:
    from rag_reading import read

    return read(kb, **request)


def quote_answer(kb: KnowledgeBase, passage: Any, max_tokens: Any = None) -> dict:
    from rag_quotes import check_quote

    budget = max_tokens_value(max_tokens)
    return _budgeted(check_quote(kb, passage), "occurrences", budget, "ask with a larger max_tokens")


def formula_answer(kb: KnowledgeBase, query: Any, k: Any = None, max_tokens: Any = None) -> dict:
    from rag_formulas import search_formulas

    budget = max_tokens_value(max_tokens)
    return _budgeted(search_formulas(kb, query, 5 if k is None else k), "results", budget,
                     "ask for fewer results (k) or with a larger max_tokens")


def notation_answer(kb: KnowledgeBase, symbol: Any = None, entity: Any = None, max_tokens: Any = None) -> dict:
    from rag_notation import for_entity, listing, lookup

    budget = max_tokens_value(max_tokens)
    if symbol is not None and entity is not None:
        both = {**lookup(kb, symbol), **for_entity(kb, entity)}
        return _budgeted(both, "definitions", budget, "ask with a larger max_tokens")
    if symbol is not None:
        return _budgeted(lookup(kb, symbol), "definitions", budget, "ask with a larger max_tokens")
    if entity is not None:
        return _budgeted(for_entity(kb, entity), "symbols", budget, "ask with a larger max_tokens")
    return _budgeted(listing(kb), "definitions", budget,
                     "look up one symbol with symbol=<LaTeX or Unicode>, or ask with a larger max_tokens")


def _flag(value: Any, name: str) -> bool:
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "1", "yes", "false", "0", "no", ""):
        return value.strip().lower() in ("true", "1", "yes")
    raise NavigationError(f"{name} must be true or false")


# --------------------------------------------------------------------------- REST
"""REST: GET /outline, GET /read, POST /quote/check, POST /search/formula, GET /notation,
GET /llms.txt and GET /book/{file}; errors in spec 01's format."""

_QUERY_PARAMETERS = {
    "outline": ("depth", "under", "with_ids", "max_tokens"),
    "read": ("section", "entity", "context", "page_start", "page_end", "cursor", "max_tokens"),
    "notation": ("symbol", "entity", "max_tokens"),
}

_DOCS = {
    "outline": "The book's parts, chapters, sections and subsections with numbers, titles, printed and PDF page "
               "ranges and the entities each holds (counts; ids with with_ids=true). depth: part, chapter, "
               "section (default), subsection or subsubsection; under: one heading's id or number. " + TOKEN_RULE,
    "read": "Read in order: a section (section=2.1, chapter_3, 'Part II'), an entity's surroundings "
            "(entity=formula_3_2&context=2) or printed pages (page_start=12&page_end=14), as blocks with ids and "
            "printed pages (formulas as LaTeX, algorithms as code), at most max_tokens (default 6000) per answer; "
            "truncated answers carry next_cursor: pass it as cursor= for the next page. " + TOKEN_RULE,
    "quote": "Whether the book contains a passage, exactly or but for case, spacing, hyphenation, ligatures and "
             "LaTeX vs Unicode maths; where (chunk id, printed page); the closest passage when it does not.",
    "formula": "Formula search: a formula written as LaTeX or Unicode maths finds the book's numbered formulas of "
               "that shape (same operators, structure and symbols, whatever the spacing, macros or variable names).",
    "notation": "Notation: what a symbol means (symbol=\\gamma or γ) and where it is defined; entity=formula_3_2 gives "
                "the meanings of the symbols of one formula; neither lists every symbol.",
    "llms": "llms.txt: an index of the book as Markdown files, one per chapter (https://llmstxt.org).",
    "book": "One chapter of the book as Markdown (front.md, chapter_3.md …, as llms.txt lists them): LaTeX maths, "
            "code blocks, printed-page markers and an anchor per entity.",
}


# max_tokens in a request body (query parameters say the same with Litestar's Parameter).
BUDGET_SCHEMA = JsonSchema(type=["integer", "null"], minimum=MIN_MAX_TOKENS, maximum=MAX_MAX_TOKENS,
                           default=DEFAULT_MAX_TOKENS, description=f"Most tokens the answer may hold. {TOKEN_RULE}")


class QuoteRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Body of POST /quote/check."""

    passage: Annotated[Any, JsonSchema(type="string", minLength=1, maxLength=MAX_PASSAGE, pattern=NONBLANK,
                                       description="The sentence or passage to look for")]
    max_tokens: Annotated[Any, BUDGET_SCHEMA] = None


class FormulaRequest(msgspec.Struct, forbid_unknown_fields=True):
    """Body of POST /search/formula."""

    query: Annotated[Any, JsonSchema(type="string", minLength=1, maxLength=MAX_FORMULA_QUERY, pattern=NONBLANK,
                                     description="The formula, as LaTeX or Unicode maths")]
    k: Annotated[Any, JsonSchema(type=["integer", "null"], minimum=1, maximum=50, default=5)] = None
    max_tokens: Annotated[Any, BUDGET_SCHEMA] = None


def navigation_routes(kb: KnowledgeBase):
    """A Litestar Router with the navigation routes, their parameters documented, and spec 01's error body."""
    from typing import Optional

    from litestar import MediaType, Request, Router, get, post
    from litestar.params import JSONBody, Parameter

    def on_navigation_error(_: Request, exc: NavigationError):
        return error_response(exc.status, str(exc))

    def text_param(description: str, longest: int):
        return Annotated[Optional[str], Parameter(description=description, max_length=longest, min_length=1,
                                                  pattern=NONBLANK)]

    Budget = Annotated[Optional[int], Parameter(description=f"Most tokens the answer may hold (default "
                                                            f"{DEFAULT_MAX_TOKENS}). {TOKEN_RULE}",
                                                ge=MIN_MAX_TOKENS, le=MAX_MAX_TOKENS)]
    Depth = Annotated[Optional[str], Parameter(description="Deepest level listed (default section)",
                                               schema_extra={"enum": list(LEVELS)})]
    Heading = text_param("A heading: id (chapter_3, section_2_1), number ('2.1', 'Part II') or title", 300)
    EntityRef = text_param("An entity: id (formula_3_2) or name ('Algorithm 4.1')", 200)
    Page = text_param("A printed page number or label ('12', 'xii')", 12)
    Cursor = Annotated[Optional[str], Parameter(description="next_cursor of a previous answer", max_length=2000,
                                                min_length=1, pattern=r"^[A-Za-z0-9_-]+$")]
    # minimum 0 stated outright: Litestar leaves out a ge of 0 from the document.
    Context = Annotated[Optional[int], Parameter(description="Text chunks either side of the entity (default 2)",
                                                 ge=0, le=MAX_CONTEXT, schema_extra={"minimum": 0})]
    Flag = Annotated[Optional[bool], Parameter(description="List each heading's entity ids")]
    Symbol = text_param("A symbol, as LaTeX (\\gamma, U^\\pi) or Unicode (γ)", 200)
    FileName = Annotated[str, Parameter(description="A file llms.txt lists, e.g. chapter_2.md",
                                        schema_extra={"pattern": r"^[A-Za-z0-9_]{1,100}\.md$"})]

    def only_known(request: Request, route: str) -> None:
        allowed = _QUERY_PARAMETERS[route]
        for name in request.query_params.keys():
            if name not in allowed:
                raise NavigationError(f"query parameter {name!r} is not supported; use {', '.join(allowed)}")

    errors = error_responses(400, 404, 413, 500, 503, body=ErrorBody)

    @get("/outline", summary="The book's outline with page ranges and entities (issue 27)", description=_DOCS["outline"],
         responses=errors)
    async def get_outline(request: Request, depth: Depth = None, under: Heading = None, with_ids: Flag = None,
                          max_tokens: Budget = None) -> dict:
        only_known(request, "outline")
        return await off_loop(outline_answer, kb, depth, under, with_ids, max_tokens)

    @get("/read", summary="Read a section, an entity's surroundings or pages in order (issue 27)",
         description=_DOCS["read"], responses=errors)
    async def get_read(request: Request, section: Heading = None, entity: EntityRef = None, context: Context = None,
                       page_start: Page = None, page_end: Page = None, cursor: Cursor = None,
                       max_tokens: Budget = None) -> dict:
        only_known(request, "read")
        return await off_loop(read_answer, kb, section=section, entity=entity, context=context, page_start=page_start,
                              page_end=page_end, cursor=cursor, max_tokens=max_tokens)

    @post("/quote/check", status_code=200, summary="Is this passage in the book, and where (issue 27)",
          description=_DOCS["quote"], responses=errors)
    async def post_quote(data: JSONBody[QuoteRequest]) -> dict:
        return await off_loop(quote_answer, kb, data.passage, data.max_tokens)

    @post("/search/formula", status_code=200, summary="Formula search by LaTeX or Unicode maths (issue 27)",
          description=_DOCS["formula"], responses=errors)
    async def post_formula(data: JSONBody[FormulaRequest]) -> dict:
        return await off_loop(formula_answer, kb, data.query, data.k, data.max_tokens)

    @get("/notation", summary="What the book's symbols mean and where each is defined (issue 27)",
         description=_DOCS["notation"], responses=errors)
    async def get_notation(request: Request, symbol: Symbol = None, entity: EntityRef = None,
                           max_tokens: Budget = None) -> dict:
        only_known(request, "notation")
        return await off_loop(notation_answer, kb, symbol, entity, max_tokens)

    @get("/llms.txt", summary="llms.txt index of the book as Markdown (issue 27)", description=_DOCS["llms"],
         media_type=MediaType.TEXT, responses=errors)
    async def get_llms_txt() -> str:
        from rag_export import llms_txt

        return await off_loop(llms_txt, kb)

    @get("/book/{name:str}", summary="One chapter as Markdown (issue 27)", description=_DOCS["book"],
         media_type="text/markdown; charset=utf-8", responses=errors)
    async def get_book_file(name: FileName) -> str:
        from rag_export import markdown_of

        return await off_loop(markdown_of, kb, name)

    return Router(path="/", route_handlers=[get_outline, get_read, post_quote, post_formula, get_notation,
                                            get_llms_txt, get_book_file],
                  exception_handlers={**spec01_error_handlers(), NavigationError: on_navigation_error},
                  signature_namespace={"Request": Request, "Any": Any, "QuoteRequest": QuoteRequest,
                                       "FormulaRequest": FormulaRequest, "Depth": Depth, "Heading": Heading,
                                       "Flag": Flag, "Budget": Budget, "EntityRef": EntityRef, "Context": Context,
                                       "Page": Page, "Cursor": Cursor, "Symbol": Symbol, "FileName": FileName})


# --------------------------------------------------------------------------- MCP
"""MCP: the navigation tools, for /mcp/all only, with descriptions written for a model."""

MCP_TOOL_DOCS = {
    "get_book_outline": (
        "Table of contents of the book: parts, chapters, sections (and deeper with depth) with their numbers, "
        "titles, printed page ranges (page_start-page_end, what to cite) and PDF pages, and how many formulas, "
        "algorithms, tables, figures, examples and exercises each holds (their ids with with_entity_ids=true). "
        "Use it first to see what the book covers, then read_book a section. Answers stay within max_tokens "
        f"(default {DEFAULT_MAX_TOKENS}); a cut answer says truncated and how to narrow it (under=<chapter id>)."),
    "read_book": (
        "Read the book in order, as a person would: a whole section or chapter (section='2.1', 'chapter_3', "
        "'Part II'), the text around one entity (entity='formula_3_2' or 'Algorithm 4.1', context = text chunks "
        "either side), or printed pages (page_start=12, page_end=14). Returns blocks in reading order with their "
        "ids and printed pages; formulas as LaTeX, algorithms as code. Each answer holds at most max_tokens "
        f"(default {DEFAULT_MAX_TOKENS}); when truncated is true, call again with cursor=next_cursor (and nothing "
        "else) for the next part."),
    "check_quote": (
        "Check a passage before quoting it: says whether the book contains it (verbatim, or normalized: the same "
        "words but for case, spacing, hyphenation, ligatures or LaTeX vs Unicode maths), with the chunk id and "
        "printed page of each place; when it is not in the book, the closest passage and how similar it is. "
        "A changed word is reported as absent."),
    "search_formulas": (
        "Find the book's numbered formulas by writing the formula itself, as LaTeX (\\sum_{y} P(x, y)) or Unicode "
        "maths (∑_y P(x, y)): matches the same operators, structure and symbols whatever the spacing, macro "
        "spelling or names of bound variables. Returns formula ids, numbers, LaTeX and printed pages, best first. "
        "For questions in words use search_knowledge_base."),
    "lookup_notation": (
        "What a symbol means in this book and where it is defined: symbol as LaTeX ('\\gamma', 'U^\\pi') or "
        "Unicode ('γ'); entity='formula_3_2' gives the meanings of the symbols in that formula; with neither, "
        "lists every symbol the book defines (cut to max_tokens)."),
}


def navigation_tools(kb: KnowledgeBase) -> dict[str, tuple[Any, str]]:
    """The navigation tools over a knowledge base, {name: (function, description)}; their annotations
    are their input schemas.  The MCP adapter (rag_mcp.create_mcp) serves them on /mcp/all."""
    from typing import Annotated, Literal

    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import Field

    Budget = Annotated[int | None, Field(description=f"Most tokens the answer may hold (default {DEFAULT_MAX_TOKENS}, "
                                                     f"{MIN_MAX_TOKENS}-{MAX_MAX_TOKENS}); {TOKEN_RULE}")]

    def text(description: str, longest: int = 300):
        return Annotated[str | None, Field(description=description, max_length=longest)]

    def tool_errors(fn):
        import functools

        @functools.wraps(fn)
        def run(**arguments):
            try:
                return fn(**arguments)
            except NavigationError as exc:       # a tool error the model can read: it says what to send
                raise ToolError(str(exc)) from None
        return run

    def get_book_outline(
            depth: Annotated[Literal["part", "chapter", "section", "subsection", "subsubsection"],
                             Field(description="Deepest level to list (default section)")] = "section",
            under: text("Only this heading and what it holds: an id (chapter_3) or number ('3', '2.1', "
                        "'Part II')") = None,
            with_entity_ids: Annotated[bool, Field(description="Also list each heading's entity ids")] = False,
            max_tokens: Budget = None) -> dict[str, Any]:
        return outline_answer(kb, depth, under, with_entity_ids, max_tokens)

    def read_book(
            section: text("A heading to read whole: id (section_2_1), number ('2.1', '3', 'Part II') or title") = None,
            entity: text("An entity to read in context: id (formula_3_2) or name ('Algorithm 4.1')", 200) = None,
            context: Annotated[int | None, Field(description="With entity: text chunks either side, 0-20 "
                                                             "(default 2)")] = None,
            page_start: text("First printed page to read (e.g. '12' or 'xii')", 12) = None,
            page_end: text("Last printed page to read (default: page_start)", 12) = None,
            cursor: text("next_cursor of the previous answer, to continue (alone)", 2000) = None,
            max_tokens: Budget = None) -> dict[str, Any]:
        return read_answer(kb, section=section, entity=entity, context=context, page_start=page_start,
                           page_end=page_end, cursor=cursor, max_tokens=max_tokens)

    def check_quote(
            passage: Annotated[str, Field(description="The sentence or passage to look for", max_length=MAX_PASSAGE)],
            max_tokens: Budget = None) -> dict[str, Any]:
        return quote_answer(kb, passage, max_tokens)

    def search_formulas(
            query: Annotated[str, Field(description="The formula, as LaTeX or Unicode maths", max_length=MAX_FORMULA_QUERY)],
            k: Annotated[int | None, Field(description="Number of formulas, 1-50 (default 5)")] = 5,
            max_tokens: Budget = None) -> dict[str, Any]:
        return formula_answer(kb, query, k, max_tokens)

    def lookup_notation(
            symbol: text("The symbol, as LaTeX (\\gamma, U^\\pi) or Unicode (γ)", 200) = None,
            entity: text("A formula's id or name, for the meanings of its symbols", 200) = None,
            max_tokens: Budget = None) -> dict[str, Any]:
        return notation_answer(kb, symbol, entity, max_tokens)

    return {fn.__name__: (tool_errors(fn), MCP_TOOL_DOCS[fn.__name__])
            for fn in (get_book_outline, read_book, check_quote, search_formulas, lookup_notation)}


# --------------------------------------------------------------------------- CLI
"""CLI: rag.py outline | read | quote | formula | notation | export."""

CLI_COMMANDS = ("outline", "read", "quote", "formula", "notation", "export")
CLI_SUMMARY = """\
  outline  the book's outline with printed page ranges and entity counts (JSON)
  read     a section, an entity's surroundings or printed pages in reading order (JSON, paged by --max-tokens)
  quote    is a passage in the book, and where (JSON)
  formula  formulas of the shape of a LaTeX or Unicode formula (JSON)
  notation what a symbol means and where it is defined; all of them without a symbol (JSON)
  export   the book as Markdown, one file per chapter, with llms.txt"""


def add_cli_commands(command) -> None:
    """Add the navigation subcommands; command(name, summary, example) makes one (rag.py's helper)."""
    out = command("outline", "Print the book's outline: headings with printed and PDF page ranges and entity counts.",
                  "rag.py outline --depth chapter")
    out.add_argument("--depth", default="section", help="part, chapter, section (default), subsection or subsubsection")
    out.add_argument("--under", help="only this heading: an id (chapter_3) or number ('2.1', 'Part II')")
    out.add_argument("--ids", action="store_true", help="list each heading's entity ids")
    rd = command("read", "Print a section, an entity's surroundings or pages in reading order, one page of "
                         "--max-tokens at a time (--cursor continues).", "rag.py read 2.1 --max-tokens 2000")
    rd.add_argument("section", nargs="?", help="heading id, number or title")
    rd.add_argument("--entity", help="an entity to read in context (formula_3_2, 'Algorithm 4.1')")
    rd.add_argument("--context", type=int, help="with --entity: text chunks either side (default 2)")
    rd.add_argument("--pages", help="printed pages: 12 or 12-14")
    rd.add_argument("--cursor", help="next_cursor of a previous answer")
    qt = command("quote", "Check whether the book contains a passage, and where.",
                 'rag.py quote "A joint distribution gives the probability of every combination of values"')
    qt.add_argument("passage")
    fm = command("formula", "Find the book's formulas of the shape of a formula.", "rag.py formula '\\sum_y P(x, y)'")
    fm.add_argument("query")
    fm.add_argument("-k", type=int, default=5, help="number of formulas (default: %(default)s)")
    nt = command("notation", "What a symbol means and where it is defined (every symbol without one).",
                 "rag.py notation '\\gamma'")
    nt.add_argument("symbol", nargs="?")
    nt.add_argument("--entity", help="the symbols of one formula")
    ex = command("export", "Write the book as Markdown, one file per chapter, and llms.txt, into a folder.",
                 "rag.py export book-md/")
    ex.add_argument("folder")
    for cmd in (out, rd, qt, fm, nt):
        cmd.add_argument("--max-tokens", type=int, default=None, help=f"answer budget (default {DEFAULT_MAX_TOKENS})")


def run_cli(kb: KnowledgeBase, args) -> int | None:
    """Run a navigation subcommand (exit 0, or 1 for a bad request); None when args.command is not one of them."""
    try:
        if args.command == "outline":
            result: Any = outline_answer(kb, args.depth, args.under, args.ids, args.max_tokens)
        elif args.command == "read":
            first, _, last = (args.pages or "").partition("-")
            result = read_answer(kb, section=args.section, entity=args.entity, context=args.context,
                                 page_start=first or None, page_end=last or None, cursor=args.cursor,
                                 max_tokens=args.max_tokens)
        elif args.command == "quote":
            result = quote_answer(kb, args.passage, args.max_tokens)
        elif args.command == "formula":
            result = formula_answer(kb, args.query, args.k, args.max_tokens)
        elif args.command == "notation":
            result = notation_answer(kb, args.symbol, args.entity, args.max_tokens)
        elif args.command == "export":
            from rag_export import export

            for path in export(kb, Path(args.folder)):
                print(path)
            return 0
        else:
            return None
    except NavigationError as exc:
        print(f"bookrag: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0
