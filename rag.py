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
import hashlib
import json
import os
import re
import sys
import time
import uuid
from pathlib import Path
from typing import Annotated, Any, Optional, Sequence

from rag_core import (  # noqa: F401  (re-exported: the library API of README's "Offline")
    CHUNK_KINDS, DEFAULT_DB, DEFAULT_MODEL_DIR, DEFAULT_PORT, ENTITY_KINDS, RELATIONS, SERVICE_NAME,
    CLIENT_DECODE_ERRORS, MAX_BODY_BYTES, Chunk, ConfigError, Embedder, Hit, KnowledgeBase, SearchResult,
    decode_error_message, env, error_responses, now_iso, off_loop, search_threads,
)


# --------------------------------------------------------------------------- app
"""App: the Litestar application serving every adapter over one KnowledgeBase."""


_ERROR_CODES = {400: "INVALID_PARAMETER", 401: "UNAUTHORIZED", 404: "NOT_FOUND",
                405: "METHOD_NOT_ALLOWED", 413: "PAYLOAD_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE",
                429: "RATE_LIMIT_EXCEEDED", 500: "INTERNAL_ERROR"}


def _validation_detail(exc: Any) -> str:
    """Turn a framework validation error into one sentence naming the field."""
    extra = getattr(exc, "extra", None) or []
    if isinstance(extra, list) and extra and isinstance(extra[0], dict):
        item = extra[0]
        key = str(item.get("key") or "").removeprefix("$.") or "body"
        message = str(item.get("message") or "invalid value")
        if "unknown field" in message:
            name = message.split("`")[1] if "`" in message else key
            return f"unknown field {name!r} in request body"
        if "missing required field" in message:
            name = message.split("`")[1] if "`" in message else key
            return f"{name} is required"
        if key == "k":
            return "k must be an integer between 1 and 20"
        return f"{key}: {message}"
    text = str(getattr(exc, "detail", "") or exc)
    return text if text else "invalid request body"


# What the JSON decoder raises on hostile bodies (too deeply nested, not UTF-8) besides its own error.
SEARCH_MAX_AGE = 86400      # spec 01: agents cache search and expansion for 24 hours
ENTITY_MAX_AGE = 604800     # and entities for 7 days


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

    return {"search_threads": search_threads(), "rate_limit": rate_limit_setting()}



# The API docs pages' scripts, styles and icon, served by the service itself (no CDN): the files
# come from the PyPI package fastapi-offline, located without importing it (that would import FastAPI).
DOCS_ASSETS_PATH = "/schema/assets"


def docs_assets_dir() -> Path:
    """The folder of Swagger UI's and ReDoc's files in the installed fastapi-offline package."""
    from importlib.util import find_spec

    spec = find_spec("fastapi_offline")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError("the package fastapi-offline (the API docs' scripts) is missing: pip install -e .")
    return Path(list(spec.submodule_search_locations)[0]) / "static"


def docs_assets_router():
    """GET /schema/assets/<file>: the docs pages' assets, cached for a day."""
    from litestar.datastructures import CacheControlHeader
    from litestar.static_files import create_static_files_router

    return create_static_files_router(path=DOCS_ASSETS_PATH, directories=[docs_assets_dir()],
                                      cache_control=CacheControlHeader(max_age=86400, public=True),
                                      include_in_schema=False, name="docs_assets")


def offline_docs_plugins() -> list:
    """ReDoc at /schema (and /schema/redoc), Swagger UI at /schema/swagger, the document at
    /schema/openapi.json and .yaml: every page loads its scripts from the service, none from a CDN."""
    from litestar.openapi.plugins import JsonRenderPlugin, RedocRenderPlugin, SwaggerRenderPlugin, YamlRenderPlugin

    favicon = f"<link rel='icon' type='image/png' href='{DOCS_ASSETS_PATH}/favicon.png'>"
    PRESET_IN_BUNDLE = "bundled:standalone-preset"  # a marker: the page's tag for it is removed

    class OfflineSwagger(SwaggerRenderPlugin):
        """Swagger UI from its one bundle: the bundle carries the standalone preset, so the page
        needs no second script (Litestar's page always links one, from a CDN unless told otherwise)."""

        def render(self, request, openapi_schema) -> bytes:
            page = super().render(request, openapi_schema)
            return page.replace(f'<script src="{PRESET_IN_BUNDLE}" crossorigin></script>'.encode(), b"")

    return [
        RedocRenderPlugin(path=["/", "/redoc"], js_url=f"{DOCS_ASSETS_PATH}/redoc.standalone.js",
                          google_fonts=False, favicon=favicon),
        OfflineSwagger(path="/swagger", js_url=f"{DOCS_ASSETS_PATH}/swagger-ui-bundle.js",
                       css_url=f"{DOCS_ASSETS_PATH}/swagger-ui.css",
                       standalone_preset_js_url=PRESET_IN_BUNDLE, favicon=favicon),
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
    """Build the Litestar app around one KnowledgeBase (opened now unless given).

    bind_host (default: env HOST) is the address the server listens on; /mcp's Host check follows
    it (rag_mcp.mcp_host_policy)."""
    from contextlib import asynccontextmanager
    from typing import AsyncIterator

    from litestar import Litestar, MediaType, Request, Response, Router, asgi, get, post
    from litestar.middleware.rate_limit import RateLimitConfig
    from litestar.params import JSONBody, Parameter
    from litestar.types import Receive, Scope, Send
    from litestar.exceptions import HTTPException, ValidationException
    from litestar.openapi import OpenAPIConfig
    import msgspec

    from rag_answers import answer, answer_routes
    from rag_mcp import LazyMCP
    from rag_navigation import add_navigation_tools, navigation_routes
    from rag_rest import (ApiError, EntityResponse, ErrorBody, ExpandGraphRequest, ExpandGraphResponse,
                          HealthResponse, RagSearchRequest, RagSearchResponse, SemanticSearchRequest,
                          SemanticSearchResponse, Spec03Detail, Spec03Error, Spec03Failure, declare_kinds,
                          expand_documents, get_entity, rag_search, semantic_search, session_key)

    settings = check_settings()  # a bad setting stops the start, not the first request
    if kb is None:
        kb = KnowledgeBase(db_path or env("RAG_DB", str(DEFAULT_DB)), env("RAG_MODEL_DIR", str(DEFAULT_MODEL_DIR)))

    # Path parameters as documented (docs only: our own checks give spec 01's messages); we also accept
    # other spellings ("Algorithm", "eq", "(3.2)"), these are the canonical ones.
    declare_kinds(kb.kinds)
    EntityTypeParam = Annotated[str, Parameter(description="Entity type: spec 01's four, and every other kind the "
                                                           "book numbers (image is another name for figure)",
                                               schema_extra={"enum": [*kb.kinds, "image"]})]
    # max_tokens (issue 27), checked by get_entity so that a bad value gets spec 01's message.
    MaxTokensParam = Annotated[Optional[str], Parameter(
        description="Most tokens the answer may hold (default 16000); a cut answer has truncated and hint. "
                    "Tokens: the larger of the model's WordPiece count and UTF-8 bytes / 4",
        schema_extra={"pattern": r"^[0-9]+$"})]
    EntityNumberParam = Annotated[str, Parameter(description="Printed number, e.g. 3.2 or A.1",
                                                 schema_extra={"pattern": r"^(?:[A-Za-z]|[0-9]+)(?:\.[0-9]+)*[a-z]?$"})]

    def error_response(status: int, detail: str, code: str | None = None, headers: dict | None = None) -> Response:
        body = ErrorBody(detail=detail, status_code=status, error_code=code or _ERROR_CODES.get(status, "ERROR"),
                         timestamp=now_iso())
        return Response(content=body, status_code=status, media_type=MediaType.JSON, headers=headers)

    def on_api_error(_: Request, exc: ApiError) -> Response:
        return error_response(exc.status, exc.detail, exc.code)

    def on_validation(_: Request, exc: ValidationException) -> Response:
        return error_response(400, _validation_detail(exc))

    def on_http(_: Request, exc: HTTPException) -> Response:
        detail = exc.detail if exc.status_code != 500 else "internal error"
        return error_response(exc.status_code, str(detail), headers=exc.headers)  # e.g. Allow on a 405

    def on_crash(_: Request, exc: Exception) -> Response:
        if isinstance(exc, CLIENT_DECODE_ERRORS):  # the JSON decoder on hostile input: the client's fault
            return error_response(400, decode_error_message(exc))
        return error_response(500, "internal error: the request could not be completed", "INTERNAL_ERROR")

    @get("/health", summary="Service status, the book's title and counts per chunk type",
         responses=error_responses(500, body=ErrorBody))
    async def health() -> HealthResponse:
        return HealthResponse(status="ok", service=SERVICE_NAME, timestamp=now_iso(), book=kb.title,
                              counts=kb.counts(), build_report=kb.build_report)

    def cached(request: Request, body: Any, max_age: int) -> Response:
        """A 200 with Cache-Control and an ETag (build hash + request), or 304 when the client has it."""
        data = msgspec.json.encode(body)  # once: the ETag is a hash of the bytes that are sent
        key = hashlib.sha1(f"{request.method} {request.url.path} ".encode() + data).hexdigest()
        etag = f'W/"{kb.build_hash[:16]}-{key[:16]}"'
        headers = {"Cache-Control": f"public, max-age={max_age}", "ETag": etag}
        wanted = request.headers.get("if-none-match", "")
        if etag in [t.strip() for t in wanted.split(",")] or wanted.strip() == "*":
            return Response(content=b"", status_code=304, headers=headers)
        return Response(content=data, headers=headers, media_type=MediaType.JSON)

    @post("/search/semantic", status_code=200, summary="Hybrid search over the book (spec 01)",
          responses=error_responses(400, 401, 413, 500, body=ErrorBody, cached=True))
    async def search_semantic(request: Request, data: JSONBody[SemanticSearchRequest]) -> Response[SemanticSearchResponse]:
        return cached(request, await off_loop(semantic_search, kb, data), SEARCH_MAX_AGE)

    @post("/search/expand-graph", status_code=200, summary="One hop along the reference graph (spec 01)",
          responses=error_responses(400, 401, 413, 500, body=ErrorBody, cached=True))
    async def search_expand_graph(request: Request, data: JSONBody[ExpandGraphRequest]) -> Response[ExpandGraphResponse]:
        return cached(request, expand_documents(kb, data), SEARCH_MAX_AGE)

    @get("/entity/{entity_type:str}/{number:str}", summary="A numbered entity by type and number (spec 01)",
         responses=error_responses(400, 401, 404, 500, body=ErrorBody, cached=True))
    async def entity(request: Request, entity_type: EntityTypeParam, number: EntityNumberParam,
                     max_tokens: MaxTokensParam = None) -> Response[EntityResponse]:
        return cached(request, get_entity(kb, entity_type, number, max_tokens), ENTITY_MAX_AGE)

    import logging

    logging.getLogger("mcp").setLevel(logging.WARNING)  # our request log says what happened
    mcp = LazyMCP(kb, answer=functools.partial(answer, kb), bind_host=bind_host or env("HOST"),
                  extra_tools=lambda server, pool: add_navigation_tools(server, kb, pool))

    @asgi("/mcp", is_mount=True, copy_scope=True)
    async def mcp_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
        # Stateless JSON only: no GET event stream (an idle stream would bill a serverless
        # instance) and no sessions to DELETE.
        if scope["type"] == "http" and scope["method"] in ("GET", "DELETE"):
            body = msgspec.json.encode(ErrorBody(
                detail=f"{scope['method']} is not supported on /mcp: POST JSON-RPC requests",
                status_code=405, error_code="METHOD_NOT_ALLOWED", timestamp=now_iso()))
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

    @asynccontextmanager
    async def run_mcp(_app) -> AsyncIterator[None]:
        async with mcp.running():
            yield

    def spec03_error(request: Request, status: int, error: str, details: list[Spec03Detail],
                     retry_after: int | None = None, headers: dict | None = None) -> Response:
        body = Spec03Error(error=error, details=details, timestamp=now_iso(),
                           request_id=request.scope.get("state", {}).get("request_id"), retry_after=retry_after)
        return Response(content=body, status_code=status, media_type=MediaType.JSON, headers=headers)

    def on_spec03_failure(request: Request, exc: Spec03Failure) -> Response:
        return spec03_error(request, exc.status, "Invalid request" if exc.status == 400 else "Validation error",
                            exc.details)

    def on_spec03_http(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 429:
            reset = int((exc.headers or {}).get("RateLimit-Reset", "1") or 1)
            return spec03_error(request, 429, "Rate limit exceeded", [Spec03Detail(
                "RATE_LIMIT_EXCEEDED", f"Too many search requests. Try again in {reset} seconds.")],
                retry_after=reset, headers={**(exc.headers or {}), "Retry-After": str(reset)})
        if exc.status_code >= 500:
            return on_spec03_crash(request, exc)
        code = "INVALID_JSON" if "JSON" in str(exc.detail) else "INVALID_REQUEST"
        return spec03_error(request, exc.status_code, "Invalid request", [Spec03Detail(code, str(exc.detail))])

    def on_spec03_validation(request: Request, exc: ValidationException) -> Response:
        return spec03_error(request, 400, "Invalid request", [Spec03Detail("INVALID_JSON", _validation_detail(exc))])

    def on_spec03_crash(request: Request, exc: Exception) -> Response:
        if isinstance(exc, CLIENT_DECODE_ERRORS):
            return spec03_error(request, 400, "Invalid request", [Spec03Detail("INVALID_JSON",
                                                                               decode_error_message(exc))])
        return spec03_error(request, 500, "Search failed", [Spec03Detail(
            "SEARCH_ERROR", "An error occurred during search. Please try again.")])

    @post("/search", status_code=200, summary="Lesson-, chapter- or book-scoped search (spec 03)",
          responses=error_responses(400, 401, 413, 422, 429, 500, body=Spec03Error))
    async def api_rag_search(data: JSONBody[RagSearchRequest]) -> RagSearchResponse:
        return await off_loop(rag_search, kb, data)

    unit, count = settings["rate_limit"]
    rag_router = Router(
        path="/api/rag", route_handlers=[api_rag_search],
        middleware=[RateLimitConfig(rate_limit=(unit, count), identifier_for_request=session_key).middleware],
        exception_handlers={Spec03Failure: on_spec03_failure, ValidationException: on_spec03_validation,
                            HTTPException: on_spec03_http, Exception: on_spec03_crash},
    )

    app = _without_pydantic_plugins(Litestar)(
        route_handlers=[health, search_semantic, search_expand_graph, entity, mcp_endpoint, rag_router,
                        answer_routes(kb, mcp.list_tools), navigation_routes(kb), docs_assets_router()],
        lifespan=[run_mcp],
        # Handlers' annotations are strings (deferred); these names live in this function.
        signature_namespace={"Request": Request, "Response": Response, "Scope": Scope, "Receive": Receive,
                             "Send": Send, "JSONBody": JSONBody, "EntityTypeParam": EntityTypeParam,
                             "EntityNumberParam": EntityNumberParam, "MaxTokensParam": MaxTokensParam,
                             "HealthResponse": HealthResponse,
                             "SemanticSearchRequest": SemanticSearchRequest,
                             "SemanticSearchResponse": SemanticSearchResponse,
                             "ExpandGraphRequest": ExpandGraphRequest, "ExpandGraphResponse": ExpandGraphResponse,
                             "EntityResponse": EntityResponse, "RagSearchRequest": RagSearchRequest,
                             "RagSearchResponse": RagSearchResponse},
        exception_handlers={ApiError: on_api_error, ValidationException: on_validation,
                            HTTPException: on_http, Exception: on_crash},
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
"""CLI: serve, search, entity, expand — each a thin call into the functions above."""


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
                            log_level="warning")
    sock = config.bind_socket()
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    Multiprocess(config, sockets=[sock]).run()


def main(argv: Sequence[str] | None = None) -> int:
    from rag_navigation import CLI_SUMMARY, add_cli_commands, run_cli
    from rag_rest import ApiError, ExpandGraphRequest, SemanticSearchRequest, expand_documents, get_entity, \
        semantic_search

    # --db and --models work before or after the command ("rag.py --db X serve", "rag.py serve --db X").
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS, metavar="FILE",
                        help=f"knowledge file to read (env RAG_DB; default: {DEFAULT_DB.name} beside rag.py)")
    common.add_argument("--models", default=argparse.SUPPRESS, metavar="DIR",
                        help="embedding model directory (env RAG_MODEL_DIR; default: models/ beside rag.py)")
    formatter = argparse.RawDescriptionHelpFormatter
    kinds = ", ".join(ENTITY_KINDS)
    parser = argparse.ArgumentParser(
        prog="rag.py", parents=[common], formatter_class=formatter,
        description="bookrag: serve a textbook's knowledge file over REST and MCP, or query it from the "
                    "command line with no server.",
        epilog=f"""\
commands:
  serve    serve REST (specs 01, 03, 04/05), MCP at /mcp (and /mcp/all) and /health over HTTP
  search   hybrid search of the book, printed as a table (or --json)
  entity   one numbered entity by kind and number (JSON)
  expand   documents one hop along the graph from ids (JSON)
  info     what the file holds: counts, entity kinds, the build report (JSON)
{CLI_SUMMARY}

entity kinds: {kinds} (also: image for figure),
              and whatever else the book numbers (`rag.py info` lists them)
relations:    {", ".join(RELATIONS)}

examples:
  rag.py serve                                     # http://127.0.0.1:8001, the sample book
  rag.py --db dm.sqlite serve --host 0.0.0.0 --port 8080
  rag.py search "inventory control (s,S) policy" -k 3
  rag.py entity formula 4.3
  rag.py expand algorithm_5_3 --relations USES_IN REFERENCED_BY

`rag.py COMMAND --help` describes each command's arguments.""")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, summary: str, example: str):
        return sub.add_parser(name, help=summary, description=summary, parents=[common], formatter_class=formatter,
                              epilog=f"example:\n  {example}")

    serve = command("serve", "Serve REST and MCP over HTTP until interrupted.",
                    "rag.py --db dm.sqlite serve --host 0.0.0.0 --port 8080 --workers 2")
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
                     'rag.py search "CVaR tail risk" -k 3 --chapter 4')
    search.add_argument("query", help="what to look for: a question, words, or a reference such as 'Algorithm 5.3'")
    search.add_argument("-k", type=int, default=5, help="number of results, 1-20 (default: %(default)s)")
    search.add_argument("--chapter", help="only this chapter, e.g. 4 or A (default: the whole book)")
    search.add_argument("--json", action="store_true", help="print spec 01's JSON response instead of a table")
    ent = command("entity", "Print one numbered entity with its references, as JSON (spec 01's /entity).",
                  "rag.py entity algorithm 5.3")
    ent.add_argument("entity_type", metavar="ENTITY_TYPE", help=f"one of: {kinds} (also: image for figure)")
    ent.add_argument("number", help="its number as printed, e.g. 3.2, 16.4 or A.1")
    exp = command("expand", "Print the documents one hop along the graph from the given ids, as JSON "
                            "(spec 01's /search/expand-graph).",
                  "rag.py expand algorithm_5_3 'Algorithm 3.2' --relations USES_IN REFERENCED_BY")
    exp.add_argument("ids", nargs="+", metavar="ID",
                     help="document ids or aliases: formula_3_2, algo_4_1, 'Algorithm 4.1', chunk ids from search")
    exp.add_argument("--relations", nargs="+", default=None, choices=RELATIONS, metavar="RELATION",
                     help=f"relations to follow (default: all): {', '.join(RELATIONS)}")
    info = command("info", "Print what the knowledge file holds, as JSON: title, source, counts per kind, the "
                           "entity kinds it answers for, its search tags, and the builder's report (gaps, "
                           "printed pages).",
                   "rag.py --db dm.sqlite info")
    add_cli_commands(command)
    for cmd in (ent, exp, info):
        cmd.add_argument("--json", action="store_true", help="accepted for symmetry: the output is always JSON")
    args = parser.parse_args(argv)
    args.db = getattr(args, "db", None) or env("RAG_DB", str(DEFAULT_DB))
    args.models = getattr(args, "models", None) or env("RAG_MODEL_DIR", str(DEFAULT_MODEL_DIR))

    try:
        kb = KnowledgeBase(args.db, args.models)
        if args.command == "serve":
            import uvicorn

            # Settings are checked before the "serving" line: by create_app here, or, with workers
            # (each builds its own app from the environment), by the supervisor before it forks.
            if args.workers == 1:
                app = create_app(kb, bind_host=args.host)
            else:
                check_settings()
            print(f"bookrag: serving {kb.title!r} from {args.db} on http://{args.host}:{args.port}"
                  + (f" with {args.workers} workers" if args.workers > 1 else ""), file=sys.stderr)
            if args.workers > 1:
                os.environ["RAG_DB"], os.environ["RAG_MODEL_DIR"] = str(args.db), str(args.models)
                os.environ["HOST"] = args.host  # each worker's /mcp Host check follows the bind address
                kb = None  # opened above only to fail fast; the supervisor itself needs no model
                serve_workers(args.workers, args.host, args.port)
            else:
                uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
            return 0
        if args.command == "search":
            filters = {"chapter": args.chapter} if args.chapter else None
            resp = semantic_search(kb, SemanticSearchRequest(query=args.query, k=args.k, filters=filters))
            if args.json:
                _print_json(resp)
            else:
                if resp.suggestion:
                    print(resp.suggestion)
                for r in resp.results:
                    label = f"{r.type} {r.number}" if r.number else r.type
                    head = r.content.replace("\n", " ")[:100]
                    print(f"{r.score:.3f}  p.{r.page_number}  {r.id:28} {label:16} {head}")
            return 0
        if args.command == "info":
            _print_json({"title": kb.title, "source": kb.meta.get("source"), "pages": int(kb.meta.get("pages", 0)),
                         "schema_version": kb.meta.get("schema_version"), "content_hash": kb.meta.get("content_hash"),
                         "counts": kb.counts(), "kinds": list(kb.kinds),
                         "search_tags": {"source": kb.vocabulary.source, "concepts": kb.vocabulary.concepts,
                                         "tables": kb.vocabulary.tables},
                         "build_report": kb.build_report})
            return 0
        if args.command == "entity":
            _print_json(get_entity(kb, args.entity_type, args.number))
            return 0
        if args.command == "expand":
            _print_json(expand_documents(kb, ExpandGraphRequest(document_ids=args.ids,
                                                                traverse_types=args.relations)))
            return 0
        navigated = run_cli(kb, args)
        if navigated is not None:
            return navigated
    except ConfigError as exc:
        print(f"bookrag: error: {exc}", file=sys.stderr)
        return 2
    except ApiError as exc:
        print(f"bookrag: {exc.detail}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
