"""Search tags: the files build_db.py reads, the vocabulary a book gives itself, assignment, and the
core's boost (+0.1 per shared tag over k + 10 candidates)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

from build_tags import TagsError, book_concepts, read_tables_file, read_tags_file, tag_name
from conftest import BOOK_PDF, KNOWLEDGE, ROOT, TAGS_FILE
from rag_core import TAG_BOOST, TAG_POOL, KnowledgeBase


def test_tags_file_in_beliefcraft_format_with_optional_descriptions_and_tables(tmp_path):
    path = tmp_path / "tags.json"
    path.write_text(json.dumps({"tags": {"PLANNING": ["VALUE_ITERATION", {"name": "ROLLOUT",
                                                                        "description": "simulate a base policy"}]},
                                "tables": ["orders"]}))
    tags = read_tags_file(path)
    assert [(t.name, t.type, t.category) for t in tags] == [
        ("VALUE_ITERATION", "concepts", "PLANNING"), ("ROLLOUT", "concepts", "PLANNING"), ("orders", "tables", None)]
    assert tags[0].text == "value iteration" and tags[1].text == "rollout: simulate a base policy"


def test_table_lists_as_json_or_lines(tmp_path):
    as_json = tmp_path / "tables.json"
    as_json.write_text('["orders", "stock_levels"]')
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text('{"tables": ["orders", {"name": "stock_levels", "description": "on-hand units"}]}')
    lines = tmp_path / "tables.txt"
    lines.write_text("# tables\norders\n\n  stock_levels  \n")
    for path in (as_json, wrapped, lines):
        assert [t.name for t in read_tables_file(path)] == ["orders", "stock_levels"]


@pytest.mark.parametrize("content, words", [
    ("not json", "not valid JSON"),
    ('{"tags": []}', '"tags"'),
    ('{"tags": {"A": []}}', "non-empty list"),
    ('{"tags": {"A": ["bad;name"]}}', "bad;name"),
    ('{"tags": {"A": [42]}}', "name"),
])
def test_bad_tags_file_is_refused_before_any_work(tmp_path, content, words):
    path = tmp_path / "tags.json"
    path.write_text(content)
    with pytest.raises(TagsError, match=None) as info:
        read_tags_file(path)
    assert words in str(info.value) and str(path) in str(info.value)
    out = tmp_path / "out.sqlite"
    proc = subprocess.run([sys.executable, str(ROOT / "build_db.py"), str(BOOK_PDF), "-o", str(out),
                           "--tags", str(path)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "tags.json" in proc.stderr and "stage read" not in proc.stderr
    assert not out.exists()


def test_missing_tables_file_is_a_clear_error(tmp_path):
    proc = subprocess.run([sys.executable, str(ROOT / "build_db.py"), str(BOOK_PDF), "-o", str(tmp_path / "o.sqlite"),
                           "--tables", str(tmp_path / "nope.txt")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "nope.txt" in proc.stderr and "cannot be read" in proc.stderr


def test_tag_names_from_headings():
    assert tag_name("The newsvendor model") == "NEWSVENDOR_MODEL"
    assert tag_name("Setup costs and (s,S) policies") == "SETUP_COSTS_AND_S_S_POLICIES"
    assert tag_name("Joint, marginal and conditional distribu- tions") == "JOINT_MARGINAL_AND_CONDITIONAL_DISTRIBUTIONS"
    assert book_concepts([]) == []


def test_without_a_tags_file_the_book_gives_its_own_vocabulary():
    kb = KnowledgeBase(KNOWLEDGE)
    vocabulary = kb.vocabulary
    assert vocabulary.source == "book" and vocabulary.tables == []
    assert "INVENTORY_CONTROL" in vocabulary.concepts and "MARKOV_DECISION_PROCESSES" in vocabulary.concepts
    assert "NEWSVENDOR_MODEL" in vocabulary.concepts["INVENTORY_CONTROL"]
    assert not any(t.startswith("EXERCISES") for t in vocabulary.all_concepts)
    tagged = kb.db.execute("SELECT count(DISTINCT chunk_id) FROM chunk_tags").fetchone()[0]
    assert tagged > 50


def test_tags_file_vocabulary_and_assignments(tagged_db):
    kb = KnowledgeBase(tagged_db)
    expected = json.loads(TAGS_FILE.read_text())["tags"]
    assert list(kb.vocabulary.concepts) == list(expected)
    assert kb.vocabulary.source == "search_tags.json"
    assert kb.vocabulary.tables == ["inventory_levels", "purchase_orders", "demand_history", "stock_counts",
                                    "suppliers"]
    with sqlite3.connect(tagged_db) as db:
        rows = dict(db.execute("SELECT how, count(*) FROM chunk_tags GROUP BY how").fetchall())
        # A literal mention tags its chunk: the Thompson sampling algorithm carries THOMPSON_SAMPLING.
        algo = db.execute("SELECT id FROM chunks WHERE kind = 'algorithm' AND lower(title) LIKE '%thompson%'").fetchone()
        assert algo and ("THOMPSON_SAMPLING",) in db.execute(
            "SELECT tag FROM chunk_tags WHERE chunk_id = ?", algo).fetchall()
    assert rows.get("term", 0) > 50 and rows.get("embedding", 0) > 20
    report = kb.build_report["tags"]
    assert report["concepts"] == sum(len(v) for v in expected.values()) and report["tables"] == 5
    assert kb.vocabulary.canonical("concepts", ["q_learning", "nope"]) == (["Q_LEARNING"], ["nope"])


def test_boost_is_a_tenth_per_shared_tag_over_k_plus_ten(tagged_db):
    kb = KnowledgeBase(tagged_db)
    query, tags, k = "updating beliefs from observations", ["PARTICLE_FILTER", "BELIEF_UPDATE"], 5
    pool = kb.search(query, k=k + TAG_POOL).hits
    shared = kb.tags_of([h.chunk.id for h in pool])
    boosted = {h.chunk.id: h.score + TAG_BOOST * len(set(tags) & shared[h.chunk.id]) for h in pool}
    got = [h.chunk.id for h in kb.search(query, k=k, tags=tags).hits]
    assert len(got) == k and set(got) <= set(boosted)
    # Ordered by boosted score (scores are rounded to 4 places: allow that much).
    for a, b in zip(got, got[1:]):
        assert boosted[a] >= boosted[b] - 1e-3
    outside = [i for i in boosted if i not in got]
    assert all(boosted[i] <= min(boosted[g] for g in got) + 1e-3 for i in outside)
    assert got != [h.chunk.id for h in pool[:k]]  # the tags changed the ranking
    assert [h.chunk.id for h in kb.search(query, k=k, tags=[]).hits] == [h.chunk.id for h in pool[:k]]


def test_info_lists_the_search_tags(tagged_db):
    proc = subprocess.run([sys.executable, str(ROOT / "rag.py"), "--db", str(tagged_db), "info"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    tags = json.loads(proc.stdout)["search_tags"]
    assert tags["source"] == "search_tags.json" and list(tags["concepts"]) == list(
        json.loads(TAGS_FILE.read_text())["tags"]) and len(tags["tables"]) == 5


def test_assignments_are_repeatable(fresh_build):
    """A fresh build gives the committed file's tags: phrase matches exactly (they come from the text),
    embedding matches nearly (vectors differ in the last digits between CPUs)."""
    path, _ = fresh_build

    def rows(db_path, how):
        with sqlite3.connect(db_path) as db:
            return set(db.execute("SELECT chunk_id, type, tag FROM chunk_tags WHERE how = ?", (how,)))

    assert rows(path, "term") == rows(KNOWLEDGE, "term")
    fresh, committed = rows(path, "embedding"), rows(KNOWLEDGE, "embedding")
    assert len(fresh & committed) >= 0.9 * max(len(fresh), len(committed))
