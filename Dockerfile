# bookrag service image: runtime only (no PDF libraries, no torch, no test tools).
# Cloud Run sets $PORT; elsewhere the service listens on 8001. Works with a read-only root
# filesystem: the knowledge file is opened read-only and nothing is written at run time.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    HOST=0.0.0.0 \
    PORT=8001 \
    RAG_DB=/app/knowledge.sqlite \
    RAG_MODEL_DIR=/app/models

WORKDIR /app
COPY pyproject.toml README.md rag.py rag_core.py rag_store.py rag_text.py rag_rest.py rag_mcp.py rag_answers.py rag_budget.py rag_outline.py rag_reading.py rag_quotes.py rag_formulas.py rag_notation.py rag_export.py rag_navigation.py build_db.py build_tags.py build_glyphs.py build_objects.py build_pdf.py build_layout.py build_heads.py build_page.py build_roles.py build_markdown.py build_common.py build_math.py build_formula.py ./
RUN pip install . && useradd --uid 10001 --no-create-home --shell /usr/sbin/nologin rag
COPY models/ ./models/
COPY knowledge.sqlite ./

USER 10001
EXPOSE 8001
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s \
  CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ.get('PORT', '8001'), timeout=2)"
CMD ["python", "rag.py", "serve"]
