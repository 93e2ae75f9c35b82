"""bookrag service: answer agents' questions about one textbook from one SQLite file.

The entry point that assembles the parts: the core (rag_core.py: model, ids, knowledge base,
ranking) and one adapter per contract (rag_rest.py specs 01 and 03, rag_mcp.py spec 02,
rag_answers.py specs 04 and 05) become, in the sections below, the Litestar app, the AWS Lambda
handler and the CLI.  Nothing imports this module back; `from rag import KnowledgeBase` keeps
working for scripts, as the core's public names are re-exported here.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import sys
import time
import uuid
from pathlib import Path
from typing import Any, Sequence

from rag_core import (  # noqa: F401  (re-exported: the library API of docs/deployment.md's "Offline")
    CHUNK_KINDS, DEFAULT_DB, DEFAULT_MODEL_DIR, DEFAULT_PORT, ENTITY_KINDS, RELATIONS, SERVICE_NAME,
    CLIENT_DECODE_ERRORS, MAX_BODY_BYTES, Chunk, ConfigError, Embedder, Hit, KnowledgeBase, SearchResult,
    BudgetExceeded, decode_error_message, env, error_responses, now_iso, off_loop, request_budget, search_threads,
)
from rag_navigation import CLI_COMMANDS, CLI_SUMMARY, add_cli_commands, run_cli


# --------------------------------------------------------------------------- app
"""App: the Litestar application serving every adapter over one KnowledgeBase."""

# On a stop signal, requests in flight get this long to finish before the server closes them;
# work that outlives them runs on daemon threads (rag_core.WorkerPool), so nothing holds the exit.
SHUTDOWN_GRACE_SECONDS = 3


class RequestLogMiddleware:
    """X-Request-ID accepted (or generated) and echoed on every response; one JSON log line per request."""

    def __init__(self, app):
        self.app = app
        self.enabled = env("RAG_ACCESS_LOG", "1") not in ("0", "false", "no")

    def __getattr__(self, name: str):
        return getattr(self.app, name)  # the wrapped Litestar app's attributes (state, openapi_schema, …)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1").strip()
        request_id = incoming if re.fullmatch(r"[\w.:-]{1,128}", incoming) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        route = scope.get("path")  # as requested: mounted apps (/mcp) rewrite the scope's path
        started = time.perf_counter()
        status = 500

        async def send_with_id(message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != b"x-request-id"]
                message = {**message, "headers": headers + [(b"x-request-id", request_id.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if self.enabled:
                line = {"ts": now_iso(), "request_id": request_id, "method": scope.get("method"),
                        "route": route, "status": status,
                        "ms": round((time.perf_counter() - started) * 1000, 2)}
                sys.stderr.write(json.dumps(line) + "\n")


class ApiKeyMiddleware:
    """RAG_API_KEY: when set, every route but /health (and CORS preflights) needs the key.

    The key comes as "Authorization: Bearer <key>" or "X-API-Key: <key>" and is compared in
    constant time.  A missing or wrong key gets a 401 in the route's own error format; the key
    itself is never logged or echoed.
    """

    OPEN_PATHS = ("/health",)

    def __init__(self, app, key: str):
        self.app = app
        self.key = key.encode()

    def __getattr__(self, name: str):
        return getattr(self.app, name)

    def _authorized(self, headers: dict) -> bool:
        import hmac

        given = headers.get(b"x-api-key", b"")
        bearer = headers.get(b"authorization", b"")
        if bearer[:7].lower() == b"bearer ":
            given = given or bearer[7:].strip()
        return hmac.compare_digest(given, self.key)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http" or scope.get("path") in self.OPEN_PATHS or scope.get("method") == "OPTIONS":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if self._authorized(headers):
            await self.app(scope, receive, send)
            return
        import msgspec

        from rag_rest import ErrorBody, Spec03Detail, Spec03Error

        message = "missing or wrong API key: send 'Authorization: Bearer <key>' or 'X-API-Key: <key>'"
        path = scope.get("path", "")
        request_id = scope.get("state", {}).get("request_id")
        if path.startswith("/api/rag"):
            body = Spec03Error(error="Unauthorized", details=[Spec03Detail("UNAUTHORIZED", message)],
                               timestamp=now_iso(), request_id=request_id)
        elif path in ("/ask", "/tools") or path.startswith("/tools/"):
            body = {"status": "error", "error": message, "error_type": "unauthorized", "message": message,
                    "fallback_action": "refuse_answer", "timestamp": now_iso()}
        else:
            body = ErrorBody(detail=message, status_code=401, error_code="UNAUTHORIZED", timestamp=now_iso())
        data = msgspec.json.encode(body)
        await send({"type": "http.response.start", "status": 401,
                    "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer"),
                                (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data})


def cors_config():
    """RAG_CORS_ORIGINS: comma-separated origins browsers may call from (default: none)."""
    origins = [o.strip() for o in (env("RAG_CORS_ORIGINS", "") or "").split(",") if o.strip()]
    if not origins:
        return None
    from litestar.config.cors import CORSConfig

    return CORSConfig(allow_origins=origins, allow_methods=["GET", "POST", "OPTIONS"],
                      allow_headers=["Content-Type", "Authorization", "X-API-Key", "X-Request-ID", "X-Session-ID",
                                     "Mcp-Protocol-Version", "Mcp-Session-Id"],
                      expose_headers=["X-Request-ID", "ETag", "Retry-After"], max_age=600)


# JSON Schema keywords whose values are schemas themselves, and Litestar's names for keywords.
_SUBSCHEMA_KEYS = {"items", "additionalProperties", "not", "if", "then", "else"}
_SCHEMA_LIST_KEYS = {"anyOf", "allOf", "oneOf"}
_LITESTAR_SCHEMA_NAMES = {"not": "schema_not", "if": "schema_if", "else": "schema_else"}


def openapi_schema_object(schema: dict):
    """A JSON Schema dict (JSON's own camelCase words) as Litestar's OpenAPI Schema object."""
    from litestar.openapi.spec import Schema

    return Schema(**openapi_schema_fields(schema))


def openapi_schema_fields(schema: dict) -> dict[str, Any]:
    """The keyword arguments of Litestar's Schema for a JSON Schema dict."""
    from litestar.openapi.spec import OpenAPIType

    kwargs: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type":
            value = [OpenAPIType(t) for t in value] if isinstance(value, list) else OpenAPIType(value)
        elif key in _SUBSCHEMA_KEYS and isinstance(value, dict):
            value = openapi_schema_object(value)
        elif key in _SCHEMA_LIST_KEYS:
            value = [openapi_schema_object(v) for v in value]
        elif key == "properties":
            value = {name: openapi_schema_object(v) for name, v in value.items()}
        name = _LITESTAR_SCHEMA_NAMES.get(key) or re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), key)
        kwargs[name] = value
    return kwargs


def request_schema_plugin():
    """A Litestar OpenAPI plugin: fields marked with JsonSchema, and request structs' own rules.

    A request struct that forbids unknown fields says so (additionalProperties: false); one with a
    `json_schema` class attribute adds those keywords (e.g. which fields a scope requires).
    """
    from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
    from litestar.plugins import OpenAPISchemaPlugin

    from rag_rest import JsonSchema

    structs = StructSchemaPlugin()

    class RequestSchemaPlugin(OpenAPISchemaPlugin):
        def is_plugin_supported_field(self, field_definition) -> bool:
            if any(isinstance(m, JsonSchema) for m in field_definition.metadata):
                return True
            return structs.is_plugin_supported_field(field_definition) and (
                hasattr(field_definition.type_, "json_schema")
                or field_definition.type_.__struct_config__.forbid_unknown_fields)

        def to_openapi_schema(self, field_definition, schema_creator):
            marks = [m for m in field_definition.metadata if isinstance(m, JsonSchema)]
            if marks:
                return openapi_schema_object(marks[0].schema)
            schema = structs.to_openapi_schema(field_definition, schema_creator)
            rules = dict(getattr(field_definition.type_, "json_schema", {}))
            if field_definition.type_.__struct_config__.forbid_unknown_fields:
                rules.setdefault("additionalProperties", False)
            for name, value in openapi_schema_fields(rules).items():
                setattr(schema, name, value)
            # Each alternative repeats the whole object: generators (and readers) that take one
            # branch alone then still see every field's type.
            for branch in schema.any_of or []:
                branch.type = schema.type
                branch.properties = {**(schema.properties or {}), **(branch.properties or {})}
                branch.required = sorted(set(schema.required or []) | set(branch.required or []))
            return schema

    return RequestSchemaPlugin()



def check_settings() -> dict[str, Any]:
    """The environment's settings, parsed at start-up: a bad one stops the start with one line."""
    from rag_rest import rate_limit_setting

    return {"search_threads": search_threads(), "rate_limit": rate_limit_setting(), "request_budget": request_budget()}



# The API docs pages' scripts, styles and icon, served by the service itself (no CDN).  The files
# come from the PyPI package openapi-ui-bundles (Apache-2.0), made only to ship them: Swagger UI's
# and ReDoc's release files, each with its own licence, and no web framework.
DOCS_ASSETS_PATH = "/schema/assets"


def docs_assets_dirs() -> list[Path]:
    """The folders of Swagger UI's and ReDoc's files in the installed openapi-ui-bundles package."""
    try:
        from openapi_ui_bundles import redoc, swagger_ui
    except ImportError:
        raise ConfigError("the package openapi-ui-bundles (the API docs' scripts) is missing: pip install -e .") from None
    return [Path(swagger_ui.static_path), Path(redoc.static_path)]


def docs_assets_router():
    """GET /schema/assets/<file>: the docs pages' assets, cached for a day."""
    from litestar.datastructures import CacheControlHeader
    from litestar.static_files import create_static_files_router

    return create_static_files_router(path=DOCS_ASSETS_PATH, directories=docs_assets_dirs(),
                                      cache_control=CacheControlHeader(max_age=86400, public=True),
                                      include_in_schema=False, name="docs_assets")


def offline_docs_plugins() -> list:
    """ReDoc at /schema (and /schema/redoc), Swagger UI at /schema/swagger, the document at
    /schema/openapi.json and .yaml: every page loads its scripts from the service, none from a CDN."""
    from litestar.openapi.plugins import JsonRenderPlugin, RedocRenderPlugin, SwaggerRenderPlugin, YamlRenderPlugin

    favicon = f"<link rel='icon' type='image/png' href='{DOCS_ASSETS_PATH}/favicon-32x32.png'>"
    return [
        RedocRenderPlugin(path=["/", "/redoc"], js_url=f"{DOCS_ASSETS_PATH}/redoc.standalone.js",
                          google_fonts=False, favicon=favicon),
        SwaggerRenderPlugin(path="/swagger", js_url=f"{DOCS_ASSETS_PATH}/swagger-ui-bundle.js",
                            css_url=f"{DOCS_ASSETS_PATH}/swagger-ui.css",
                            standalone_preset_js_url=f"{DOCS_ASSETS_PATH}/swagger-ui-standalone-preset.js",
                            favicon=favicon),
        JsonRenderPlugin(), YamlRenderPlugin(),
    ]


def _without_pydantic_plugins(litestar_class):
    """Litestar that skips its default pydantic and attrs plugins (only msgspec types here).

    Litestar adds them whenever pydantic is installed (the MCP SDK needs it), and importing them
    takes about 0.1 s of the cold start; the MCP SDK, mounted as plain ASGI, never uses them.
    """

    class App(litestar_class):
        @staticmethod
        def _get_default_plugins(plugins: list) -> list:
            from litestar.plugins.core import MsgspecDIPlugin

            return [*plugins, MsgspecDIPlugin()]

    return App


def create_app(kb: KnowledgeBase | None = None, db_path: Path | str | None = None, bind_host: str | None = None):
    """The Litestar app: every adapter's routes over one KnowledgeBase (opened now unless given).

    Each adapter module gives a Router with its routes and its own error format: rag_rest's spec 01
    (whose format is also the app's, for unknown routes) and spec 03, rag_answers' specs 04 and 05,
    rag_mcp's /mcp.  bind_host (default: env HOST) is the address the server listens on; /mcp's
    Host check follows it (rag_mcp.mcp_host_policy)."""
    import logging
    from contextlib import asynccontextmanager

    from litestar import Litestar
    from litestar.openapi import OpenAPIConfig

    from rag_answers import answer, answer_routes
    from rag_mcp import LazyMCP, mcp_routes
    from rag_navigation import navigation_routes, navigation_tools
    from rag_rest import spec01_error_handlers, spec01_routes, spec03_routes

    settings = check_settings()  # a bad setting stops the start, not the first request
    if kb is None:
        kb = KnowledgeBase(db_path or env("RAG_DB", str(DEFAULT_DB)), env("RAG_MODEL_DIR", str(DEFAULT_MODEL_DIR)))
    logging.getLogger("mcp").setLevel(logging.WARNING)  # our request log says what happened
    mcp = LazyMCP(kb, answer=functools.partial(answer, kb), bind_host=bind_host or env("HOST"),
                  extra_tools=functools.partial(navigation_tools, kb))

    @asynccontextmanager
    async def run_mcp(_app):
        async with mcp.running():
            yield

    app = _without_pydantic_plugins(Litestar)(
        route_handlers=[spec01_routes(kb), spec03_routes(kb, settings["rate_limit"]),
                        answer_routes(kb, mcp.list_tools), mcp_routes(mcp), navigation_routes(kb),
                        docs_assets_router()],
        lifespan=[run_mcp],
        exception_handlers=spec01_error_handlers(),
        openapi_config=OpenAPIConfig(title="bookrag", version="0.1.0",
                                     description=f"Knowledge service for {kb.title}",
                                     render_plugins=offline_docs_plugins()),
        plugins=[request_schema_plugin()],
        request_max_body_size=MAX_BODY_BYTES,
        cors_config=cors_config(),
    )
    app.state.kb = kb
    key = env("RAG_API_KEY")
    served = ApiKeyMiddleware(app, key) if key else app
    # Outside the whole app, so that responses made from exceptions anywhere (a 429 raised by the
    # rate limiter, or a 401) carry the request id and are logged with their real status.
    return RequestLogMiddleware(served)


# --------------------------------------------------------------------------- serverless
"""AWS Lambda: API Gateway HTTP API / function URL events (payload 2.0, and 1.0) to the ASGI app."""


class LambdaAdapter:
    """Runs the app in one event loop per container; the ASGI lifespan starts once, on the first event.

    Lambda freezes the process between invocations; the loop and the started lifespan (which
    holds the MCP session manager, startable once per process) survive, so warm invocations
    reuse them.
    """

    def __init__(self):
        import asyncio

        self.loop = asyncio.new_event_loop()
        self.app = None

    def _start(self) -> None:
        import asyncio

        self.app = create_app()
        started = asyncio.Event()
        queue: asyncio.Queue = asyncio.Queue()

        async def receive():
            return await queue.get()

        async def send(message):
            if message["type"] in ("lifespan.startup.complete", "lifespan.startup.failed"):
                self.startup = message
                started.set()

        async def run_lifespan():
            await queue.put({"type": "lifespan.startup"})
            await self.app({"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, receive, send)

        self._lifespan = self.loop.create_task(run_lifespan())  # keeps running: shutdown never comes
        self.loop.run_until_complete(started.wait())
        if self.startup["type"] != "lifespan.startup.complete":
            raise ConfigError(f"startup failed: {self.startup.get('message', '')}")

    def __call__(self, event: dict, context: Any = None) -> dict:
        import base64

        if self.app is None:
            self._start()
        http = (event.get("requestContext") or {}).get("http") or {}
        method = http.get("method") or event.get("httpMethod") or "GET"
        path = event.get("rawPath") or event.get("path") or "/"
        query = event.get("rawQueryString")
        if query is None:
            query = "&".join(f"{k}={v}" for k, v in (event.get("queryStringParameters") or {}).items())
        headers = [(k.lower().encode("latin-1"), str(v).encode("latin-1"))
                   for k, v in (event.get("headers") or {}).items()]
        if event.get("cookies"):
            headers.append((b"cookie", "; ".join(event["cookies"]).encode("latin-1")))
        body = event.get("body") or ""
        body = base64.b64decode(body) if event.get("isBase64Encoded") else body.encode()
        source = http.get("sourceIp") or ((event.get("requestContext") or {}).get("identity") or {}).get("sourceIp")
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method.upper(),
                 "scheme": "https", "path": path, "raw_path": path.encode(), "query_string": query.encode(),
                 "root_path": "", "headers": headers, "client": (source or "0.0.0.0", 0),
                 "server": ("lambda", 443), "state": {}}
        response: dict = {"status": 500, "headers": [], "body": b""}
        sent = False

        async def receive():
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message):
            if message["type"] == "http.response.start":
                response["status"], response["headers"] = message["status"], message.get("headers", [])
            elif message["type"] == "http.response.body":
                response["body"] += message.get("body", b"")

        self.loop.run_until_complete(self.app(scope, receive, send))
        out_headers: dict[str, str] = {}
        for k, v in response["headers"]:
            key = k.decode("latin-1").lower()
            out_headers[key] = f"{out_headers[key]},{v.decode('latin-1')}" if key in out_headers else v.decode("latin-1")
        text_like = out_headers.get("content-type", "").startswith(("application/json", "text/"))
        payload = response["body"]
        return {"statusCode": response["status"], "headers": out_headers,
                "body": payload.decode() if text_like else base64.b64encode(payload).decode(),
                "isBase64Encoded": not text_like}


_lambda_adapter: LambdaAdapter | None = None


def handler(event: dict, context: Any = None) -> dict:
    """AWS Lambda entry point (`rag.handler`): one adapter per container, reused while warm."""
    global _lambda_adapter
    if _lambda_adapter is None:
        _lambda_adapter = LambdaAdapter()
    return _lambda_adapter(event, context)


# --------------------------------------------------------------------------- CLI
"""CLI (`bookrag`, or `python rag.py`): serve, search, entity, expand, info, build — each a thin
call into the functions above, the REST adapter's, or the builder's."""


def _print_json(obj: Any) -> None:
    import msgspec

    sys.stdout.write(msgspec.json.format(msgspec.json.encode(obj), indent=2).decode() + "\n")


def serve_workers(workers: int, host: str, port: int) -> None:
    """uvicorn's multi-process mode over one listening socket that has TCP_NODELAY set.

    uvicorn binds that socket itself as socket.socket(family) (proto 0), and asyncio sets
    TCP_NODELAY only on accepted sockets whose proto is TCP; without it a response written in two
    parts waits for the client's delayed ACK, about 40 ms a request.  Linux copies the option
    from the listening socket to every connection it accepts.
    """
    import socket

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    config = uvicorn.Config("rag:create_app", factory=True, workers=workers, host=host, port=port,
                            log_level="warning", timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS)
    sock = config.bind_socket()
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    Multiprocess(config, sockets=[sock]).run()


CLI_EPILOG = """\
commands:
  serve    serve REST (specs 01, 03, 04/05), MCP at /mcp (and /mcp/all) and /health over HTTP
  search   hybrid search of the book, printed as a table (or --json)
  entity   one numbered entity by kind and number (JSON)
  expand   documents one hop along the graph from ids (JSON)
  info     what the file holds: counts, entity kinds, the build report (JSON)
  build    build a knowledge file from a PDF or a Markdown docs tree (build_db.py; needs the [build] extra)
{navigation}

entity kinds: {kinds} (also: image for figure),
              and whatever else the book numbers (`%(prog)s info` lists them)
relations:    {relations}

examples:
  %(prog)s serve                                     # http://127.0.0.1:8001, the sample book
  %(prog)s --db dm.sqlite serve --host 0.0.0.0 --port 8080
  %(prog)s search "inventory control (s,S) policy" -k 3
  %(prog)s entity formula 4.3
  %(prog)s expand algorithm_5_3 --relations USES_IN REFERENCED_BY
  %(prog)s build dm.pdf --title "Algorithms for Decision Making"

`%(prog)s COMMAND --help` describes each command's arguments."""


def cli_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The command line: global --db and --models (before or after the command), one sub-parser per command."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS, metavar="FILE",
                        help=f"knowledge file to read (env RAG_DB; default: {DEFAULT_DB.name} beside rag.py)")
    common.add_argument("--models", default=argparse.SUPPRESS, metavar="DIR",
                        help="embedding model directory (env RAG_MODEL_DIR; default: models/ beside rag.py)")
    formatter = argparse.RawDescriptionHelpFormatter
    kinds = ", ".join(ENTITY_KINDS)
    parser = argparse.ArgumentParser(
        prog=prog, parents=[common], formatter_class=formatter,
        description="bookrag: serve a textbook's knowledge file over REST and MCP, or query it from the "
                    "command line with no server.",
        epilog=CLI_EPILOG.format(kinds=kinds, relations=", ".join(RELATIONS), navigation=CLI_SUMMARY))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, summary: str, example: str):
        return sub.add_parser(name, help=summary, description=summary, parents=[common], formatter_class=formatter,
                              epilog=f"example:\n  {parser.prog} {example}")

    serve = command("serve", "Serve REST and MCP over HTTP until interrupted.",
                    "--db dm.sqlite serve --host 0.0.0.0 --port 8080 --workers 2")
    serve.add_argument("--host", default=env("HOST", "127.0.0.1"),
                       help="address to bind (env HOST; default: %(default)s; 0.0.0.0 for every interface). /mcp "
                            "accepts only localhost Host headers on a loopback address and any Host otherwise, "
                            "unless RAG_MCP_ALLOWED_HOSTS lists the names to accept")
    serve.add_argument("--port", type=int, default=int(env("PORT", str(DEFAULT_PORT))),
                       help="port to listen on (env PORT; default: %(default)s)")
    serve.add_argument("--workers", type=int, default=int(env("WEB_CONCURRENCY", "1")),
                       help="worker processes (env WEB_CONCURRENCY; default: %(default)s); each loads the "
                            "model (~100 MB); one worker already searches on every core")
    search = command("search", "Search the book from the file (no server): ranked results, one per line.",
                     'search "CVaR tail risk" -k 3 --chapter 4')
    search.add_argument("query", help="what to look for: a question, words, or a reference such as 'Algorithm 5.3'")
    search.add_argument("-k", type=int, default=5, help="number of results, 1-20 (default: %(default)s)")
    search.add_argument("--chapter", help="only this chapter, e.g. 4 or A (default: the whole book)")
    search.add_argument("--json", action="store_true", help="print spec 01's JSON response instead of a table")
    ent = command("entity", "Print one numbered entity with its references, as JSON (spec 01's /entity).",
                  "entity algorithm 5.3")
    ent.add_argument("entity_type", metavar="ENTITY_TYPE", help=f"one of: {kinds} (also: image for figure)")
    ent.add_argument("number", help="its number as printed, e.g. 3.2, 16.4 or A.1")
    exp = command("expand", "Print the documents one hop along the graph from the given ids, as JSON "
                            "(spec 01's /search/expand-graph).",
                  "expand algorithm_5_3 'Algorithm 3.2' --relations USES_IN REFERENCED_BY")
    exp.add_argument("ids", nargs="+", metavar="ID",
                     help="document ids or aliases: formula_3_2, algo_4_1, 'Algorithm 4.1', chunk ids from search")
    exp.add_argument("--relations", nargs="+", default=None, choices=RELATIONS, metavar="RELATION",
                     help=f"relations to follow (default: all): {', '.join(RELATIONS)}")
    info = command("info", "Print what the knowledge file holds, as JSON: title, source, counts per kind, the "
                           "entity kinds it answers for, its search tags, and the builder's report (gaps, "
                           "printed pages).",
                   "--db dm.sqlite info")
    add_cli_commands(command)
    for cmd in (ent, exp, info):
        cmd.add_argument("--json", action="store_true", help="accepted for symmetry: the output is always JSON")
    # No options of its own (prefix_chars that no argument starts with): "build --help" is build_db's.
    build = sub.add_parser("build", add_help=False, prefix_chars="\0",
                           help="build a knowledge file (build_db.py's arguments)",
                           description="Build a knowledge file: every argument goes to build_db.py.")
    build.add_argument("build_args", nargs=argparse.REMAINDER, metavar="ARGS",
                       help="build_db.py's arguments (`build --help` lists them)")
    return parser


def serve_command(kb: KnowledgeBase, args: argparse.Namespace) -> int:
    """Serve until interrupted: one process (the default) or uvicorn's workers over one socket."""
    import uvicorn

    # Settings are checked before the "serving" line: by create_app here, or, with workers
    # (each builds its own app from the environment), by the supervisor before it forks.
    app = create_app(kb, bind_host=args.host) if args.workers == 1 else None
    if app is None:
        check_settings()
    print(f"bookrag: serving {kb.title!r} from {args.db} on http://{args.host}:{args.port}"
          + (f" with {args.workers} workers" if args.workers > 1 else ""), file=sys.stderr)
    if app is None:
        del kb  # opened only to fail fast: the supervisor itself needs no model
        os.environ["RAG_DB"], os.environ["RAG_MODEL_DIR"] = str(args.db), str(args.models)
        os.environ["HOST"] = args.host  # each worker's /mcp Host check follows the bind address
        serve_workers(args.workers, args.host, args.port)
    else:
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                    timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS)
    return 0


def search_command(kb: KnowledgeBase, args: argparse.Namespace) -> int:
    """Spec 01's search from the file: one line per result, or its JSON."""
    from rag_rest import SemanticSearchRequest, semantic_search

    filters = {"chapter": args.chapter} if args.chapter else None
    resp = semantic_search(kb, SemanticSearchRequest(query=args.query, k=args.k, filters=filters))
    if args.json:
        _print_json(resp)
        return 0
    if resp.suggestion:
        print(resp.suggestion)
    for r in resp.results:
        label = f"{r.type} {r.number}" if r.number else r.type
        head = r.content.replace("\n", " ")[:100]
        print(f"{r.score:.3f}  p.{r.page_number}  {r.id:28} {label:16} {head}")
    return 0


def file_info(kb: KnowledgeBase) -> dict[str, Any]:
    """What a knowledge file holds: title, source, counts, entity kinds, search tags, the build report."""
    return {"title": kb.title, "source": kb.meta.get("source"), "pages": int(kb.meta.get("pages", 0)),
            "schema_version": kb.meta.get("schema_version"), "content_hash": kb.meta.get("content_hash"),
            "counts": kb.counts(), "kinds": list(kb.kinds),
            "search_tags": {"source": kb.vocabulary.source, "concepts": kb.vocabulary.concepts,
                            "tables": kb.vocabulary.tables},
            "build_report": kb.build_report}


def entity_command(kb: KnowledgeBase, args: argparse.Namespace) -> int:
    from rag_rest import get_entity

    _print_json(get_entity(kb, args.entity_type, args.number))
    return 0


def expand_command(kb: KnowledgeBase, args: argparse.Namespace) -> int:
    from rag_rest import ExpandGraphRequest, expand_documents

    _print_json(expand_documents(kb, ExpandGraphRequest(document_ids=args.ids, traverse_types=args.relations)))
    return 0


def info_command(kb: KnowledgeBase, args: argparse.Namespace) -> int:
    _print_json(file_info(kb))
    return 0


def build_command(build_args: list[str], prog: str) -> int:
    """`build ARGS`: build_db.py's command line, imported only here (the service never imports the builder)."""
    try:
        import build_db
    except ModuleNotFoundError as exc:
        print(f"{prog}: error: building needs the [build] extra ({exc.name} is missing): "
              "pip install 'bookrag[build]'", file=sys.stderr)
        return 2
    return build_db.main(build_args, prog=f"{prog} build")


COMMANDS = {"serve": serve_command, "search": search_command, "entity": entity_command,
            "expand": expand_command, "info": info_command,
            **{name: run_cli for name in CLI_COMMANDS}}     # outline, read, quote, … (rag_navigation)


def main(argv: Sequence[str] | None = None) -> int:
    """The `bookrag` command (and `python rag.py`): exit 0, 1 for a bad request, 2 for a bad setting or file."""
    from rag_rest import ApiError

    prog = Path(sys.argv[0]).name if argv is None else "bookrag"
    args = cli_parser(prog).parse_args(argv)
    if args.command == "build":
        return build_command(args.build_args, prog)
    args.db = getattr(args, "db", None) or env("RAG_DB", str(DEFAULT_DB))
    args.models = getattr(args, "models", None) or env("RAG_MODEL_DIR", str(DEFAULT_MODEL_DIR))
    try:
        return COMMANDS[args.command](KnowledgeBase(args.db, args.models), args)
    except ConfigError as exc:
        print(f"bookrag: error: {exc}", file=sys.stderr)
        return 2
    except ApiError as exc:
        print(f"bookrag: {exc.detail}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
