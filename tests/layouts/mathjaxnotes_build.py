"""Print mathjaxnotes.tex as a web page typeset by MathJax, as course notes and books made for the web
are printed to PDF: mathjaxnotes.pdf.

Rebuild (MathJax 3 from the npm registry and Debian's Chromium, neither of them the project's):
    npm install --prefix /tmp/mathjax-npm mathjax@3 && apt-get install chromium
    python3 tests/layouts/mathjaxnotes_build.py /tmp/mathjax-npm/node_modules/mathjax

The page holds the source's paragraphs as they stand (inline maths between $…$) and each equation or
align environment verbatim in a block of its own; MathJax's CommonHTML output sets them with its web
fonts and numbers them as amsmath does ("tags: 'ams'").  The page is served on a loopback port (a
browser does not load web fonts from file:// pages) and printed by headless Chromium, which embeds
each web font as a Type 3 font with no /BaseFont, its name only in the font's descriptor.
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
PDF = HERE / "mathjaxnotes.pdf"
DISPLAY_RE = re.compile(r"(\\begin\{(equation|align)\}.*?\\end\{\2\})", re.S)
SECTION_RE = re.compile(r"\\section\{([^}]*)\}")


def page_of(tex: str) -> str:
    """The web page of the source's body: sections numbered, paragraphs, displays left to MathJax."""
    body = tex[tex.index(r"\begin{document}") + len(r"\begin{document}"):tex.index(r"\end{document}")]
    parts, sections = [], 0
    for k, piece in enumerate(DISPLAY_RE.split(body)):
        if k % 3 == 2:
            continue                     # the environment's name, captured for the back reference
        if k % 3 == 1:
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
    return """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Queues at a pick station</title>
<script>window.MathJax = {tex: {tags: 'ams', inlineMath: [['$', '$']]}};</script>
<script src="mathjax/es5/tex-chtml.js"></script>
<style>body { font-family: serif; max-width: 36em; margin: 2em auto; font-size: 12pt; line-height: 1.45 }
h1 { font-size: 16pt }</style>
</head><body>
""" + "\n".join(parts) + "\n</body></html>\n"


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the page's folder without logging each request."""

    def log_message(self, *args) -> None:
        pass


def main(mathjax: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "notes.html").write_text(page_of(SOURCE.read_text()), encoding="utf-8")
        (root / "mathjax").symlink_to(mathjax.resolve())
        handler = functools.partial(QuietHandler, directory=str(root))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            f"--user-data-dir={root / 'profile'}", "--virtual-time-budget=20000",
                            "--run-all-compositor-stages-before-draw", "--no-pdf-header-footer",
                            f"--print-to-pdf={PDF}", f"http://127.0.0.1:{server.server_port}/notes.html"],
                           check=True, capture_output=True, timeout=300)
        finally:
            server.shutdown()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
