"""Resolve the evaluation questions' LaTeX labels to entity ids and printed pages.

Reads tests/eval/questions/*.json ({question, kind, labels}) and book/build/book.aux (written by
`make book`) and writes tests/eval/questions.json with expected_entities and expected_pages, so
the expected answers always follow the compiled book.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AUX = ROOT / "book" / "build" / "book.aux"
QUESTIONS = ROOT / "tests" / "eval" / "questions"
OUT = ROOT / "tests" / "eval" / "questions.json"
KIND_OF_PREFIX = {"alg": "algorithm", "eq": "formula", "fig": "figure", "tab": "table", "ex": "example",
                  "exr": "exercise", "sec": "section", "ch": "section"}
NEWLABEL = re.compile(r"\\newlabel\{([^}]*)\}\{\{([^}]*)\}\{([^}]*)\}")


def read_labels(aux: Path) -> list[tuple[str, str, str]]:
    return [m.groups() for m in NEWLABEL.finditer(aux.read_text(errors="replace"))]


def section_pages(labels: list[tuple[str, str, str]]) -> dict[str, list[int]]:
    """Page range of each section/chapter label: from its page to where the next non-child starts."""
    heads = [(key, number, int(page)) for key, number, page in labels
             if key.split(":")[0] in ("sec", "ch") and page.isdigit()]
    ranges = {}
    for i, (key, number, start) in enumerate(heads):
        end = start
        for _key2, number2, page2 in heads[i + 1:]:
            if not number2.startswith(number + "."):
                end = max(start, page2)
                break
        else:
            end = start + 3
        ranges[key] = list(range(start, end + 1))
    return ranges


def main() -> int:
    if not AUX.is_file():
        print(f"{AUX} not found: run `make book` first", file=sys.stderr)
        return 2
    labels = read_labels(AUX)
    by_key = {key: (number, page) for key, number, page in labels}
    sections = section_pages(labels)
    out, problems = [], []
    for path in sorted(QUESTIONS.glob("*.json")):
        for i, q in enumerate(json.loads(path.read_text())):
            entities, pages = [], []
            for label in q["labels"]:
                if label not in by_key:
                    problems.append(f"{path.name}: unknown label {label}")
                    continue
                kind = KIND_OF_PREFIX.get(label.split(":")[0])
                number, page = by_key[label]
                if kind == "section":
                    pages.extend(sections.get(label, [int(page)] if page.isdigit() else []))
                else:
                    entities.append(f"{kind}_{number.replace('.', '_')}")
                    if page.isdigit():
                        pages.append(int(page))
            out.append({"id": f"{path.stem}-{i + 1:02d}", "kind": q["kind"], "question": q["question"],
                        "expected_entities": entities, "expected_pages": sorted(set(pages)),
                        "labels": q["labels"]})
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(out)} questions to {OUT.relative_to(ROOT)}")
    for p in problems:
        print("  " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
