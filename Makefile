# Convenience targets; each is a plain command a user can run by hand too.
PY ?= .venv/bin/python

.PHONY: venv serve test book formulas anchors knowledge eval bench

venv:
	python3 -m venv .venv && .venv/bin/pip install -q -e '.[build,test]'

serve:
	$(PY) rag.py serve

test:
	$(PY) -m pytest -q

# The sample book: PDF and its labels file (type|number|page|pdf page|label), both committed.
book:
	# A fixed date makes the PDF byte-reproducible (pdfTeX embeds dates and an id).
	cd book && SOURCE_DATE_EPOCH=1767225600 FORCE_SOURCE_DATE=1 latexmk -pdf -interaction=nonstopmode -halt-on-error -outdir=build book.tex
	cp book/build/book.pdf book/book.pdf
	cp book/build/book.lbl book/labels.txt
	$(PY) book/tools/resolve_questions.py

# The formula corpus (tests/formulas): one body typeset by several set-ups, PDFs committed.  The
# tufte set-up needs the class of the user's book: TUFTE_CLASS_DIR=/path/to/a/clone (see its Makefile).
formulas:
	$(MAKE) -C tests/formulas

# A document of some 2,800 named destinations (tests/test_anchors.py), committed with its source.
anchors:
	cd tests/layouts && SOURCE_DATE_EPOCH=1767225600 FORCE_SOURCE_DATE=1 pdflatex -interaction=nonstopmode -halt-on-error manytargets.tex
	cd tests/layouts && rm -f manytargets.aux manytargets.log manytargets.out

knowledge:
	$(PY) build_db.py book/book.pdf --output knowledge.sqlite

eval:
	$(PY) tests/eval/evaluate.py

bench:
	$(PY) tests/bench/bench_search.py
