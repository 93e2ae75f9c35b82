"""Build sphinxdoc.pdf, a short manual on inventory decisions printed by Sphinx's LaTeX builder.

    python3 -m venv /tmp/sphinx-venv && /tmp/sphinx-venv/bin/pip install sphinx matplotlib
    apt-get install latexmk texlive-latex-extra texlive-fonts-recommended tex-gyre
    /tmp/sphinx-venv/bin/python tests/layouts/sphinxdoc_build.py   # then: python3 tests/layouts/sphinxdoc_key.py

Sphinx (not the project's venv: a venv of its own) turns the reStructuredText sources under
sphinxdoc/ into LaTeX with its `sphinxmanual` class (report-based; fncychap chapter heads, fancyhdr
running heads and feet, roman front matter and contents, `numfig` captions "Fig. 2.1:", "Table 2.1:",
"Listing 2.1:", equations numbered "(2.1)" by chapter) and latexmk runs pdflatex on it.  The four
figures are drawn here with matplotlib (two as PDF, two as PNG) before the build.  SOURCE_DATE_EPOCH
is fixed (with FORCE_SOURCE_DATE for pdfTeX), so the PDF is the same byte for byte on each run.

Sphinx numbers no statements: they are typed with their numbers, as authors of Sphinx manuals do,
as admonitions titled "Definition 2.1 (Reorder point)", as `.. rubric::` heads "Theorem 1.3 (...)"
or as bold run-in paragraphs "**Example 2.4.**"; each carries a label (`.. _def-reorder-point:`)
so LaTeX's .aux gives its page, from which sphinxdoc_key.py writes the key.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE / "sphinxdoc"
OUT = Path(os.environ.get("SPHINXDOC_BUILD", "/tmp/sphinxdoc-build"))
EPOCH = "1704067200"   # 2024-01-01


def figures() -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from statistics import NormalDist

    matplotlib.rcParams.update({"font.size": 10, "svg.hashsalt": "sphinxdoc", "pdf.compression": 6})
    img = SRC / "images"
    img.mkdir(exist_ok=True)
    pdf_meta = {"CreationDate": None, "Producer": None, "Creator": None}
    png_meta = {"Software": None}

    # Fig. 1.1: ordering, holding and total cost against Q.
    qs = [20 + 2 * i for i in range(240)]
    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    ax.plot(qs, [50 * 1200 / q for q in qs], "--", label="ordering")
    ax.plot(qs, [3 * q / 2 for q in qs], ":", label="holding")
    ax.plot(qs, [50 * 1200 / q + 3 * q / 2 for q in qs], "-", label="total")
    ax.set_ylim(0, 1600)
    ax.set_xlabel("order size Q")
    ax.set_ylabel("annual cost")
    ax.legend(frameon=False)
    fig.tight_layout()
    fig.savefig(img / "costcurves.pdf", metadata=pdf_meta)
    plt.close(fig)

    # Fig. 2.1: the safety factor against the service level.
    alphas = [0.5 + 0.0049 * i for i in range(100)]
    fig, ax = plt.subplots(figsize=(5.0, 3.0))
    ax.plot(alphas, [NormalDist().inv_cdf(a) for a in alphas], "-k")
    ax.set_xlabel("cycle service level")
    ax.set_ylabel("safety factor z")
    ax.grid(True, linewidth=0.3)
    fig.tight_layout()
    fig.savefig(img / "safetyfactor.png", dpi=150, metadata=png_meta)
    plt.close(fig)

    # Fig. 3.1: the newsvendor's expected cost, normal demand (300, 80), cu = 9, co = 4.
    N = NormalDist(300, 80)
    def g(q):
        z = (q - 300) / 80
        loss = 80 * (NormalDist().pdf(z) - z * (1 - NormalDist().cdf(z)))
        return 4 * (q - 300 + loss) + 9 * loss
    qs = list(range(100, 560, 4))
    fig, ax = plt.subplots(figsize=(5.5, 3.2))
    ax.plot(qs, [g(q) for q in qs], "-")
    qstar = N.inv_cdf(9 / 13)
    ax.plot([qstar], [g(qstar)], "o")
    ax.annotate("optimum", (qstar, g(qstar)), xytext=(qstar + 40, g(qstar) + 300),
                arrowprops={"arrowstyle": "->"})
    ax.set_xlabel("order size Q")
    ax.set_ylabel("expected cost g(Q)")
    fig.tight_layout()
    fig.savefig(img / "newsvendor.pdf", metadata=pdf_meta)
    plt.close(fig)

    # Fig. 4.1: stock on hand under continuous and weekly review.
    import random
    rng = random.Random(7)
    demand = [max(0, round(rng.gauss(30, 10))) for _ in range(70)]
    def run(review):
        stock, pipe, out = 200, [], []
        for day, d in enumerate(demand):
            stock += sum(q for t, q in pipe if t == day)
            pipe = [(t, q) for t, q in pipe if t > day]
            stock = max(0, stock - d)
            pos = stock + sum(q for _, q in pipe)
            if review is None and pos <= 110:
                pipe.append((day + 2, 120))
            elif review is not None and day % review == 0:
                pipe.append((day + 2, 319 - pos))
            out.append(stock)
        return out
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(5.5, 3.8), sharex=True)
    a1.step(range(70), run(None), where="post")
    a1.set_ylabel("continuous")
    a2.step(range(70), run(7), where="post")
    a2.set_ylabel("weekly")
    a2.set_xlabel("day")
    fig.tight_layout()
    fig.savefig(img / "review.png", dpi=150, metadata=png_meta)
    plt.close(fig)


def main() -> int:
    figures()
    env = dict(os.environ, SOURCE_DATE_EPOCH=EPOCH, FORCE_SOURCE_DATE="1", LATEXMKOPTS="-quiet")
    if OUT.exists():
        shutil.rmtree(OUT)
    sphinx_build = Path(sys.executable).with_name("sphinx-build")
    subprocess.run([str(sphinx_build), "-M", "latexpdf", str(SRC), str(OUT), "-q"], env=env, check=True)
    latex = OUT / "latex"
    shutil.copy(latex / "inventory.pdf", HERE / "sphinxdoc.pdf")
    shutil.copy(latex / "inventory.aux", HERE / "sphinxdoc" / "inventory.aux.txt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
