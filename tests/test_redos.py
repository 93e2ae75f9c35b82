"""Linear time by construction (issue 23): no regular expression of ours can backtrack without bound,
and no text-processing entry point on the query path slows down on hostile input.

The first test runs the ReDoS analyser regexploit over every pattern the project's modules write
(literal ones from their source, and the ones they build at run time from the book's words); the
second feeds each query-path entry point the analyser's attack strings and long runs of one
character class, up to the routes' length limits, in a subprocess with a time-out, so that a
regression fails instead of hanging the run.
"""

from __future__ import annotations

import ast
import importlib
import json
import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

from rag_budget import MAX_PASSAGE   # /quote/check's longest passage

ROOT = Path(__file__).resolve().parents[1]
# The project's modules: every top-level .py of the checkout (the library, the builder, the entry points).
MODULES = sorted(p.stem for p in ROOT.glob("*.py"))
SUPER_LINEAR = 2   # regexploit's starriness: 1 is linear, 2 quadratic, 3 cubic, more is exponential
QUERY_LIMIT = 2000         # the longest query any route takes (spec 01 search, /ask)
SELECTED_TEXT_LIMIT = 200_000  # /ask's selected_text


# --------------------------------------------------------------------------- the patterns
"""The patterns: literals in the modules' source, and those the modules compile at import or build."""


def source_patterns() -> list[tuple[str, int, str, int]]:
    """(module file, line, pattern, flags) for every literal pattern passed to the re module."""
    from regexploit.languages.python_node_visitor import PythonNodeVisitor

    found = []
    for path in sorted(ROOT.glob("*.py")):
        visitor = PythonNodeVisitor()
        visitor.visit(ast.parse(path.read_bytes()))
        found += [(path.name, rx.lineno, rx.pattern, rx.flags) for rx in visitor.patterns]
    return found


def runtime_patterns() -> list[tuple[str, int, str, int]]:
    """Compiled patterns the modules hold, and those their pattern factories build for a book."""
    from build_tags import Tag, phrase_pattern
    from rag_core import ENTITY_KINDS
    from rag_text import mention_pattern, reference_pattern

    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            holders = [(attr, value)] + ([(f"{attr}.{a}", v) for a, v in vars(value).items()]
                                         if isinstance(value, type) else [])
            found += [(f"{name}.py", 0, v.pattern, v.flags) for a, v in holders if isinstance(v, re.Pattern)]
    # A book's own kinds and tags become patterns at build or open time.
    kinds = list(ENTITY_KINDS) + ["theorem", "lemma", "definition", "assumption", "box", "listing"]
    built = [reference_pattern(kinds), mention_pattern(kinds),
             phrase_pattern(Tag("VALUE_ITERATION", "algorithms", "MDP", "value iteration"))]
    found += [("(built)", 0, p.pattern, p.flags) for p in built]
    return found


def worst_case(pattern: str, flags: int):
    """regexploit's findings for one pattern (empty: linear), or None when it cannot parse it."""
    from regexploit.ast.sre import SreOpParser
    from regexploit.redos import find

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            parsed = SreOpParser().parse_sre(pattern, flags)
        except Exception:  # a construct the analyser does not model (its parser is not Python's)
            return None
        return list(find(parsed))


def test_no_pattern_is_super_linear():
    """Every pattern regexploit can read rates linear; the message names any that does not."""
    patterns = source_patterns() + runtime_patterns()
    assert len(patterns) > 100, "the scan found too few patterns: is it reading the modules?"
    bad, unread = [], []
    for where, line, pattern, flags in patterns:
        findings = worst_case(pattern, flags)
        if findings is None:
            unread.append((where, line, pattern[:80]))
            continue
        worst = max((f.starriness for f in findings), default=0)
        if worst >= SUPER_LINEAR:
            bad.append(f"{where}:{line} starriness {worst}: {pattern[:160]!r} (attack: {findings[0].example()})")
    assert not bad, "super-linear patterns:\n" + "\n".join(bad)
    # Patterns the analyser cannot read would escape the check: keep them rare (and look at them).
    assert len(unread) <= 3, unread


# --------------------------------------------------------------------------- hostile input
"""Hostile input: every query-path entry point on attack strings, in a subprocess with a time-out."""


def attack_strings(limit: int) -> dict[str, str]:
    """Named strings of at most `limit` characters: the analyser's attacks on every pattern it flags
    at all, long runs of one character class, and alternations of classes."""
    strings: dict[str, str] = {}
    for where, line, pattern, flags in source_patterns() + runtime_patterns():
        for finding in worst_case(pattern, flags) or []:
            prefix = finding.example_prefix or ""
            killer = finding.killer.example() if finding.killer else "!"
            repeated = finding.repeated_character.example()
            body = repeated * max(1, (limit - len(prefix) - len(killer)) // max(1, len(repeated)))
            strings[f"regexploit {where}:{line}"] = (prefix + body + killer)[:limit]
    runs = {"digits": "0", "capitals": "A", "lower": "a", "spaces": " ", "dots": ".", "parens": "(",
            "backslashes": "\\", "dollars": "$", "hyphens": "-", "underscores": "_", "greek": "γ",
            "newlines": "\n", "zero-width": "\u200b"}
    for name, ch in runs.items():
        strings[f"run of {name}"] = ch * limit
    alternations = {"camel digits": "aB0", "word space": "ab ", "reference": "Algorithm 1.", "section": "§1.",
                    "eq parens": "(1.1)", "dotted number": "1.", "camel": "aBc", "tag": "[1]", "mixed": "x_1^2 ",
                    "sentence": "Ab. ", "hyphenated": "ab-", "script group": "^{", "script pair": "^{a}_",
                    "command script": "^\\alpha_"}
    for name, unit in alternations.items():
        strings[f"repeat {name}"] = (unit * (limit // len(unit) + 1))[:limit]
    strings["camel then digits"] = ("aB" + "0" * limit + "Cd_")[:limit]
    return strings


PROBE = textwrap.dedent('''
    import json, sys, time
    from rag_core import (KnowledgeBase, explicit_references, fts_query, identifier_index_terms, identifiers,
                          query_profile, section_references)
    from rag_rest import (ApiError, RagSearchRequest, SemanticSearchRequest, Spec03Failure, validate_rag_search,
                          validate_semantic)
    from rag_answers import sentences, split_passages, terms, validate_ask
    from rag_mcp import mcp_filters
    from rag_formulas import search_formulas
    from rag_quotes import check_quote

    strings, long_strings, passages, db = json.loads(sys.stdin.read())
    kb = KnowledgeBase(db)

    def quietly(fn, *args):
        try:
            fn(*args)
        except (ApiError, Spec03Failure, ValueError):  # a refusal is an answer too (AnswerError is a ValueError)
            pass

    entry_points = {
        "fts_query": lambda s: fts_query(s),
        "identifiers": lambda s: identifiers(s),
        "identifier_index_terms": lambda s: identifier_index_terms(s),
        "explicit_references": lambda s: explicit_references(s, kb.kinds, kb.reference_re),
        "section_references": lambda s: section_references(s),
        "query_profile": lambda s: query_profile(kb.reader, kb.embedder, s),
        "correct_query": lambda s: kb.ranker.correct(s),
        "validate_semantic": lambda s: quietly(validate_semantic, SemanticSearchRequest(query=s), kb.kinds),
        "validate_rag_search": lambda s: quietly(validate_rag_search,
                                                 RagSearchRequest(query=s[:500], scope="entire_book")),
        "validate_ask": lambda s: quietly(validate_ask, kb, s, "full_book", None, 5, None),
        "mcp_filters": lambda s: quietly(mcp_filters, {"part": s, "section": s}, kb.parts()),
        "sentences": lambda s: sentences(s),
        "terms": lambda s: terms(s),
        "check_quote": lambda s: quietly(check_quote, kb, s),
        "search_formulas": lambda s: quietly(search_formulas, kb, s),
    }
    long_entry_points = {"split_passages": split_passages, "sentences": sentences, "terms": terms}
    worst = {}
    for label, s in strings.items():
        for name, fn in entry_points.items():
            started = time.perf_counter()
            fn(s)
            worst[f"{name} on {label}"] = time.perf_counter() - started
    for label, s in long_strings.items():
        for name, fn in long_entry_points.items():
            started = time.perf_counter()
            fn(s)
            worst[f"{name} on {label} ({len(s)} chars)"] = time.perf_counter() - started
    for label, s in passages.items():     # the quote check takes longer text than a query
        started = time.perf_counter()
        quietly(check_quote, kb, s)
        worst[f"check_quote on {label} ({len(s)} chars)"] = time.perf_counter() - started
    print(json.dumps(worst))
''')

# Far above what linear work on these lengths takes (milliseconds); far below what backtracking takes.
PER_CALL_BOUND = 2.0
WHOLE_RUN_BOUND = 240


def test_query_path_stays_fast_on_hostile_input():
    strings = attack_strings(QUERY_LIMIT)
    long_strings = {k: v for k, v in attack_strings(SELECTED_TEXT_LIMIT).items()
                    if k.startswith(("run of", "repeat"))}
    passages = attack_strings(MAX_PASSAGE)
    payload = json.dumps([strings, long_strings, passages, str(ROOT / "knowledge.sqlite")])
    try:
        out = subprocess.run([sys.executable, "-c", PROBE], input=payload, capture_output=True, text=True,
                             cwd=ROOT, timeout=WHOLE_RUN_BOUND)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the query path did not finish {len(strings)} hostile strings in {WHOLE_RUN_BOUND} s")
    assert out.returncode == 0, out.stderr[-3000:]
    seconds = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(seconds) >= 15 * len(strings)
    slow = {k: round(v, 3) for k, v in seconds.items() if v > PER_CALL_BOUND}
    assert not slow, slow
