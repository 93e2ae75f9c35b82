"""Precision of the builder's search-tag assignments on a sample checked by hand.

    python tests/eval/tag_precision.py KNOWLEDGE_FILE [--sample 32] [--seed 16]

Two samples are judged: the sample book built with the test vocabulary (--sample 32),
    python build_db.py book/book.pdf -o /tmp/tagged.sqlite \
        --tags tests/fixtures/search_tags.json --tables tests/fixtures/search_tables.txt
and knowledge.sqlite, the same book with its own vocabulary (--sample 20).

It draws a seeded sample of (chunk, tag) assignments and prints each with the start of its chunk.
tests/eval/tag_judgments.json holds our verdicts for that sample ("yes": the chunk is about the
tag, not merely mentioning it in passing); the script prints precision over the judged rows,
overall and for literal ("term") and embedding matches, and lists rows nobody has judged yet.
"""

import argparse
import json
import random
import sqlite3
from pathlib import Path

JUDGMENTS = Path(__file__).with_name("tag_judgments.json")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("--sample", type=int, default=32)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    db = sqlite3.connect(args.db)
    rows = db.execute("SELECT t.chunk_id, t.tag, t.how, c.kind, coalesce(c.title, ''), c.content FROM chunk_tags t "
                      "JOIN chunks c ON c.id = t.chunk_id ORDER BY t.chunk_id, t.tag").fetchall()
    random.seed(args.seed)
    sample = random.sample(rows, min(args.sample, len(rows)))
    verdicts = json.loads(JUDGMENTS.read_text()) if JUDGMENTS.exists() else {}
    judged = {"term": [0, 0], "embedding": [0, 0]}
    for chunk_id, tag, how, kind, title, content in sample:
        verdict = verdicts.get(f"{chunk_id} {tag}")
        print(f"[{verdict or '?':3}] {tag:32} {how:9} {chunk_id:28} {title[:40]} | {content[:160]!r}")
        if verdict in ("yes", "no"):
            judged[how][0] += verdict == "yes"
            judged[how][1] += 1
    good = sum(g for g, _ in judged.values())
    total = sum(n for _, n in judged.values())
    print(f"\nprecision {good}/{total} = {good / max(total, 1):.0%}; "
          + ", ".join(f"{how} {g}/{n}" for how, (g, n) in judged.items())
          + f"; {len(sample) - total} unjudged")


if __name__ == "__main__":
    main()
