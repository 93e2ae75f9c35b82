"""Score a knowledge file against an answer key: per kind, found on the right PDF page, printed page right.

    python tests/corpora/score.py ../shared/corpora/keys/aata_2022.json /tmp/aata.sqlite [-v]
    python tests/corpora/score.py tests/corpora/stopt.json /tmp/stopt.sqlite
    python tests/corpora/score.py book/labels.txt knowledge.sqlite

Three kinds of key are read: the corpus keys beside the PDFs (`keys/NAME.json`: every numbered
entity with its type, number as printed, PDF page and printed page, and the pages the key
covers), our own ground truth for the two keyless corpus books (`tests/corpora/*.json`), and the
sample book's `labels.txt`, written by LaTeX itself.  The keys were made by reading the PDFs,
independently of the builder; this script only compares.

An entity is found when the file holds an entity of that kind whose number (as stored, or as
printed, `extra.printed_number`) is the key's, on the key's PDF page.  Its printed page is right
when the file's `page_label` (the page number as printed) equals the key's (pages that print
none are not judged).  Extras are entities the key does not list, of the kinds the key lists, on the pages it
covers: a key speaks only for its own kinds and pages.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import apsw

_OLD_TYPES = {"algorithms": "algorithm", "equations": "formula", "figures": "figure", "tables": "table"}


def load_key(path: str | Path) -> dict:
    """Any key as {"entities": [{type, number, pdf_page, printed_page}], "pages": (first, last) | None}."""
    path = Path(path)
    if path.suffix == ".txt":   # the sample book's labels: kind|number|page|pdf page|label
        entities = []
        for line in path.read_text().splitlines():
            kind, number, page, pdf_page, _ = line.split("|")
            entities.append({"type": "formula" if kind == "equation" else kind, "number": number,
                             "pdf_page": int(pdf_page), "printed_page": page})
        return {"entities": entities, "pages": None}
    data = json.loads(path.read_text())
    if "entities" in data:
        covered = data.get("covered_pdf_pages")
        return {"entities": data["entities"], "pages": tuple(covered) if covered else None}
    entities = []
    for key, kind in _OLD_TYPES.items():
        for e in data.get(key, []):
            entities.append({"type": kind, "number": e["number"], "pdf_page": e["pdf_page"],
                             "printed_page": None if e.get("page") is None else str(e["page"])})
    return {"entities": entities, "pages": None}


def found_entities(db_path: str | Path) -> list[dict]:
    db = apsw.Connection(f"file:{db_path}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    try:
        columns = {row[1] for row in db.execute("PRAGMA table_info(chunks)")}
        label = "page_label" if "page_label" in columns else "page"
        rows = db.execute(f"SELECT kind, number, pdf_page, {label}, extra FROM chunks "
                          "WHERE kind != 'text' AND number IS NOT NULL").fetchall()
    finally:
        db.close()
    out = []
    for kind, number, pdf_page, page, extra in rows:
        printed = (json.loads(extra) if extra else {}).get("printed_number") or number
        out.append({"type": kind, "number": number, "printed": printed, "pdf_page": pdf_page, "page": page})
    return out


def score(key_path: str | Path, db_path: str | Path) -> dict:
    """{kind: {expected, found, right_printed, judged_printed, missing, wrong_page, extra}, "_all": …}."""
    key = load_key(key_path)
    found = found_entities(db_path)
    first, last = key["pages"] or (1, 10 ** 9)
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for f in found:
        by_kind[f["type"]].append(f)
    result: dict[str, dict] = {}
    matched: set[int] = set()
    for e in key["entities"]:
        r = result.setdefault(e["type"], {"expected": 0, "found": 0, "right_printed": 0, "judged_printed": 0,
                                          "missing": [], "wrong_page": [], "extra": []})
        r["expected"] += 1
        candidates = [f for f in by_kind.get(e["type"], []) if e["number"] in (f["number"], f["printed"])]
        here = [f for f in candidates if f["pdf_page"] == e["pdf_page"]]
        if here:
            r["found"] += 1
            matched.add(id(here[0]))
            if e.get("printed_page") not in (None, ""):
                r["judged_printed"] += 1
                r["right_printed"] += str(here[0]["page"]) == str(e["printed_page"])
        elif candidates:
            r["wrong_page"].append((e["number"], e["pdf_page"], [c["pdf_page"] for c in candidates]))
            matched.update(id(c) for c in candidates)
        else:
            r["missing"].append((e["number"], e["pdf_page"]))
    keyed_kinds = set(result)
    keyed = {(e["type"], e["number"]) for e in key["entities"]}
    others: dict[str, int] = defaultdict(int)
    for f in found:
        if id(f) in matched or not first <= (f["pdf_page"] or 0) <= last:
            continue
        if (f["type"], f["number"]) in keyed or (f["type"], f["printed"]) in keyed:
            continue
        if f["type"] in keyed_kinds:
            result[f["type"]]["extra"].append((f["number"], f["pdf_page"]))
        else:
            others[f["type"]] += 1
    total = {"expected": sum(r["expected"] for r in result.values()),
             "found": sum(r["found"] for r in result.values()),
             "right_printed": sum(r["right_printed"] for r in result.values()),
             "judged_printed": sum(r["judged_printed"] for r in result.values()),
             "extra": sum(len(r["extra"]) for r in result.values()), "other_kinds": dict(others)}
    result["_all"] = total
    return result


def passes(result: dict) -> list[str]:
    """What falls short of issue 15's bars (empty when the book meets them all)."""
    problems = []
    total = result["_all"]
    if total["found"] < 0.97 * total["expected"]:
        problems.append(f"found {total['found']}/{total['expected']} on the right PDF page (< 97%)")
    for kind, r in result.items():
        if kind != "_all" and r["expected"] >= 5 and r["found"] < 0.90 * r["expected"]:
            problems.append(f"{kind}: found {r['found']}/{r['expected']} (< 90%)")
    if total["judged_printed"] and total["right_printed"] < 0.99 * total["judged_printed"]:
        problems.append(f"printed page right on {total['right_printed']}/{total['judged_printed']} (< 99%)")
    if total["extra"] > 0.01 * total["expected"]:
        problems.append(f"{total['extra']} entities the key does not list (> 1% of {total['expected']})")
    return problems


def table(name: str, result: dict) -> str:
    lines = [f"{name}: kind, expected, found on the right PDF page, printed page right (of judged), extra"]
    for kind, r in sorted(result.items()):
        if kind == "_all":
            continue
        lines.append(f"  {kind:12} {r['expected']:5} {r['found']:5} {r['right_printed']:5}/{r['judged_printed']:<5}"
                     f" {len(r['extra']):4}")
    t = result["_all"]
    lines.append(f"  {'all':12} {t['expected']:5} {t['found']:5} {t['right_printed']:5}/{t['judged_printed']:<5}"
                 f" {t['extra']:4}" + (f"   (other kinds found, not keyed: {t['other_kinds']})" if t["other_kinds"] else ""))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    verbose = "-v" in argv
    key, db = [a for a in argv if not a.startswith("-")][:2]
    result = score(key, db)
    print(table(Path(key).stem, result))
    if verbose:
        for kind, r in sorted(result.items()):
            if kind == "_all":
                continue
            for name in ("missing", "wrong_page", "extra"):
                if r[name]:
                    print(f"  {kind} {name}: {r[name][:30]}")
    for problem in passes(result):
        print("  below the bar:", problem)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
