# Sphinx configuration of the sphinxdoc layout (tests/layouts/sphinxdoc_build.py builds it).
project = "Inventory Decisions"
author = "The bookrag authors"
copyright = "2024, The bookrag authors"
release = "2.1"
version = "2.1"
language = "en"
root_doc = "index"
exclude_patterns = ["_build"]
extensions = ["sphinx.ext.mathjax"]
numfig = True
numfig_secnum_depth = 1
math_numfig = True
math_eqref_format = "({number})"
today_fmt = "%B %d, %Y"
latex_engine = "pdflatex"
latex_documents = [("index", "inventory.tex", "Inventory Decisions",
                    "The bookrag authors", "manual")]
latex_elements = {
    "papersize": "a4paper",
    "pointsize": "11pt",
    "figure_align": "htbp",
}
latex_show_urls = "no"
latex_domain_indices = False
