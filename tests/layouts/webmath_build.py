"""Print mathjaxnotes.tex as a web page whose maths MathJax or KaTeX typesets, as course notes and books
made for the web are printed to PDF: mathjaxnotes.pdf and katexnotes.pdf.

Rebuild (MathJax 3 and KaTeX from the npm registry, Debian's Chromium; none of them the project's):
    npm install --prefix /tmp/webmath mathjax@3 katex@0.16 && apt-get install chromium
    python3 tests/layouts/webmath_build.py mathjax /tmp/webmath/node_modules/mathjax
    python3 tests/layouts/webmath_build.py katex /tmp/webmath/node_modules/katex

The page holds the source's paragraphs as they stand (inline maths between $…$) and each equation or
align environment in a block of its own.  MathJax's CommonHTML output numbers them as amsmath does
("tags: 'ams'"); KaTeX numbers nothing by itself, so each equation and each align row gets its number
as a \\tag, counted as amsmath counts them.  The page is served on a loopback port (a browser does not
load web fonts from file:// pages) and printed by headless Chromium, which embeds each web font as a
Type 3 font with no /BaseFont, its name only in the font's descriptor.
"""

from __future__ import annotations

import functools
import html
import http.server
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "mathjaxnotes.tex"
DISPLAY_RE = re.compile(r"(\\begin\{(equation|align)\}.*?\\end\{\2\})", re.S)
SECTION_RE = re.compile(r"\\section\{([^}]*)\}")
HEADS = {
    "mathjax": """<script>window.MathJax = {tex: {tags: 'ams', inlineMath: [['$', '$']]}};</script>
<script src="engine/es5/tex-chtml.js"></script>""",
    "katex": """<link rel="stylesheet" href="engine/dist/katex.min.css">
<script src="engine/dist/katex.min.js"></script>
<script src="engine/dist/contrib/auto-render.min.js"></script>""",
}
# KaTeX renders the page once it is loaded: $…$ inline, the environments as displays
KATEX_RUN = r"""<script>renderMathInElement(document.body, {throwOnError: false, delimiters: [
  {left: "$", right: "$", display: false},
  {left: "\\begin{equation}", right: "\\end{equation}", display: true},
  {left: "\\begin{align}", right: "\\end{align}", display: true}]});</script>"""


def tagged(display: str, first: int) -> tuple[str, int]:
    """An equation or align environment with a \\tag on each numbered line (KaTeX numbers none), and the
    next number."""
    kind = re.match(r"\\begin\{(\w+)\}", display).group(1)
    inner = display[len(rf"\begin{{{kind}}}"):-len(rf"\end{{{kind}}}")]
    rows = [inner] if kind == "equation" else inner.split(r"\\")
    out = []
    for row in rows:
        out.append(row.rstrip() + rf" \tag{{{first}}}")
        first += 1
    return rf"\begin{{{kind}}}" + r" \\".join(out) + rf"\end{{{kind}}}", first


def page_of(tex: str, engine: str) -> str:
    """The web page of the source's body: sections numbered, paragraphs, displays left to the engine."""
    body = tex[tex.index(r"\begin{document}") + len(r"\begin{document}"):tex.index(r"\end{document}")]
    parts, sections, number = [], 0, 1
    for k, piece in enumerate(DISPLAY_RE.split(body)):
        if k % 3 == 2:
            continue                     # the environment's name, captured for the back reference
        if k % 3 == 1:
            if engine == "katex":
                piece, number = tagged(piece, number)
            parts.append(f'<div class="display">{html.escape(piece, quote=False)}</div>')
            continue
        for paragraph in re.split(r"\n\s*\n", piece):
            paragraph = paragraph.strip()
            if not paragraph:
                continue
            heading = SECTION_RE.fullmatch(paragraph)
            if heading:
                sections += 1
                parts.append(f"<h1>{sections} {html.escape(heading.group(1))}</h1>")
            else:
                parts.append("<p>" + html.escape(paragraph.replace("--", "\u2013"), quote=False) + "</p>")
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Queues at a pick station</title>
{HEADS[engine]}
<style>body {{ font-family: serif; max-width: 36em; margin: 2em auto; font-size: 12pt; line-height: 1.45 }}
h1 {{ font-size: 16pt }}</style>
</head><body>
""" + "\n".join(parts) + ("\n" + KATEX_RUN if engine == "katex" else "") + "\n</body></html>\n"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the page's folder without logging each request."""

    def log_message(self, *args) -> None:
        pass


def main(engine: str, package: Path) -> None:
    pdf = HERE / f"{engine}notes.pdf"
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "notes.html").write_text(page_of(SOURCE.read_text(), engine), encoding="utf-8")
        (root / "engine").symlink_to(package.resolve())
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(root)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            f"--user-data-dir={root / 'profile'}", "--virtual-time-budget=20000",
                            "--run-all-compositor-stages-before-draw", "--no-pdf-header-footer",
                            f"--print-to-pdf={pdf}", f"http://127.0.0.1:{server.server_port}/notes.html"],
                           check=True, capture_output=True, timeout=300)
        finally:
            server.shutdown()


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
