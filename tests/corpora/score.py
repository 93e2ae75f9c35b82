"""Score a knowledge file against a corpus ground-truth file: per entity type, found / missing / extra.

    python tests/corpora/score.py tests/corpora/stopt.json /tmp/stopt.sqlite [-v]

The ground truth (tests/corpora/*.json) was written by reading the PDFs, independently of the
builder: only numbers and pages are recorded there, never the books' text.
"""

from __future__ import annotations

import json
import sys

import apsw

TYPES = {"algorithms": "algorithm", "equations": "formula", "figures": "figure", "tables": "table"}


def score(truth_path: str, db_path: str) -> dict:
    truth = json.load(open(truth_path))
    db = apsw.Connection(f"file:{db_path}?mode=ro", flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    out = {}
    for key, kind in TYPES.items():
        expected = {(e["number"], e["pdf_page"]) for e in truth.get(key, [])}
        found = {(n, p) for n, p in db.execute("SELECT number, pdf_page FROM chunks WHERE kind = ?", (kind,))}
        exp_numbers = {n for n, _ in expected}
        out[kind] = {
            "expected": len(expected), "found": len(found & expected),
            "missing": sorted(expected - found, key=_order),
            "wrong_page": sorted((n, p) for n, p in found - expected if n in exp_numbers),
            "extra": sorted((n, p) for n, p in found - expected if n not in exp_numbers),
        }
    # printed pages: every found entity's page must be the page label of its pdf page
    labels = {}
    for key in TYPES:
        for e in truth.get(key, []):
            labels[e["pdf_page"]] = e["page"]
    bad = [(k, n, pg, pp) for k, n, pg, pp in db.execute("SELECT kind, number, page, pdf_page FROM chunks WHERE kind != 'text'")
           if pp in labels and labels[pp] is not None and labels[pp] != pg]
    out["printed_page_mismatches"] = bad
    return out


def _order(item):
    number, page = item
    return (page, number)


def main(argv):
    verbose = "-v" in argv
    truth, db = [a for a in argv if not a.startswith("-")][:2]
    result = score(truth, db)
    for kind, r in result.items():
        if kind == "printed_page_mismatches":
            print(f"printed-page mismatches: {len(r)} {r[:5]}")
            continue
        print(f"{kind:10} expected {r['expected']:4}  found {r['found']:4}  missing {len(r['missing']):3}  "
              f"wrong page {len(r['wrong_page']):3}  extra {len(r['extra']):3}")
        if verbose:
            for name in ("missing", "wrong_page", "extra"):
                if r[name]:
                    print(f"   {name}: {r[name][:25]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
