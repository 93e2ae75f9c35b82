"""The source itself: checks on the project's modules as code, not as behaviour.

A module-level name bound twice (a constant defined for one rule, then again, with another value and
another unit, for a later rule far below it) silently changes the first rule: Python looks a global
up when a function runs, so every function sees the last binding.  One such pair (a big operator's
limit reach in em, and an evaluation bar's in points) went unnoticed for a session.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(ROOT.glob("*.py"))


def top_level_bindings(tree: ast.Module) -> dict[str, list[int]]:
    """Each name a module binds at its top level (assignments, functions, classes) and the lines."""
    seen: dict[str, list[int]] = {}
    for node in tree.body:
        names: list[str] = []
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        for name in names:
            seen.setdefault(name, []).append(node.lineno)
    return seen


def test_no_module_binds_a_top_level_name_twice():
    assert len(MODULES) > 10
    twice = {f"{path.name}:{name}": lines for path in MODULES
             for name, lines in top_level_bindings(ast.parse(path.read_text(), str(path))).items() if len(lines) > 1}
    assert not twice, f"names bound twice at module level (the later binding wins everywhere): {twice}"


def test_the_check_sees_a_second_binding():
    tree = ast.parse("LIMIT = 0.75\ndef f():\n    return LIMIT\nLIMIT = 1.0\n")
    assert top_level_bindings(tree)["LIMIT"] == [1, 4]
