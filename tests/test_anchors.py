"""Named destinations read from the file itself (build_objects) against PDFium's own listing.

build_glyphs.read_anchors reads the name tree in one pass; PDFium's FPDF_GetNamedDest, index by
index, is the reference it must equal: every name, page and height, in order.  The files: the
sample book, a document we typeset with some 2,800 destinations (tests/layouts/manytargets.tex,
pdfTeX's object streams and compressed cross-reference stream), and small PDFs written here, each
holding a structure TeX does not write (an old-style /Dests dictionary, a name tree of several
leaves, an incremental update, a hybrid-reference file, a cross-reference stream with a PNG
predictor).  Where the file's reading declines (Unsure), read_anchors must still give PDFium's
answer, and say how many it left unread when there are too many to ask PDFium for.
How long each reading takes is measured by tests/bench/bench_anchors.py, not here.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from build_glyphs import MAX_ANCHORS, _anchors_by_index, _open, read_anchors
from build_objects import Unsure, named_destinations
from conftest import BOOK_PDF, ROOT

TARGETS_PDF = ROOT / "tests" / "layouts" / "manytargets.pdf"


def both_readings(path: Path):
    """(the file's own reading, PDFium's) of one PDF's anchors, as (name, page, top) rows."""
    doc = _open(path)
    try:
        mine, unread = read_anchors(doc, str(path))
        theirs, _ = _anchors_by_index(doc, MAX_ANCHORS)
    finally:
        doc.close()
    assert unread == 0
    return [(a.name, a.page, a.top) for a in mine], [(a.name, a.page, a.top) for a in theirs]


def assert_read_from_file(path: Path, at_least: int) -> None:
    """The file's own reading succeeds (no fallback hides a difference) and equals PDFium's."""
    found, _ = named_destinations(path.read_bytes(), MAX_ANCHORS)
    assert len(found) >= at_least
    mine, theirs = both_readings(path)
    assert len(mine) >= at_least
    assert mine == theirs


@pytest.mark.parametrize("path", [BOOK_PDF, TARGETS_PDF], ids=["book", "manytargets"])
def test_typeset_documents_read_as_pdfium_reads_them(path):
    assert_read_from_file(path, 600)


def test_thousands_of_targets_keep_their_names_and_heights():
    mine, _ = both_readings(TARGETS_PDF)
    names = {name for name, _, _ in mine}
    assert len(mine) > 2700
    assert {"line.1", "line.1800", "equation.1.1", "equation.1.900"} <= names
    assert all(top is not None for _, _, top in mine)     # hyperref's /XYZ views name their top


# ---------------------------------------------------------------- PDFs written here

def write_pdf(path: Path, objects: dict[int, bytes], root: int = 1, update: dict[int, bytes] | None = None) -> None:
    """A PDF of the given objects (number -> body) with a classic cross-reference table; `update`
    appends an incremental update (a second table whose /Prev points at the first)."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")

    def section(bodies: dict[int, bytes], prev: int | None) -> int:
        offsets = {}
        for num, body in sorted(bodies.items()):
            offsets[num] = len(out)
            out.extend(b"%d 0 obj\n%s\nendobj\n" % (num, body))
        start = len(out)
        out.extend(b"xref\n0 1\n0000000000 65535 f \n")
        for num in sorted(offsets):
            out.extend(b"%d 1\n%010d 00000 n \n" % (num, offsets[num]))
        size = max(list(objects) + list(update or {})) + 1
        out.extend(b"trailer\n<< /Size %d /Root %d 0 R%s >>\nstartxref\n%d\n%%%%EOF\n"
                   % (size, root, b" /Prev %d" % prev if prev is not None else b"", start))
        return start

    first = section(objects, None)
    if update:
        section(update, first)
    path.write_bytes(bytes(out))


PAGES = {
    2: b"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 800] >>",
    4: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 500 700] >>",
    5: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 600] >>",
}


def test_name_tree_leaves_and_old_style_dictionary(tmp_path):
    """Two leaves under /Kids, values as arrays, references and dictionaries with /D, names in
    UTF-16 and PDFDocEncoding and with escapes, values that are no destination, a page given as a
    number; then the catalog's old /Dests dictionary, which PDFium lists after the tree, by key."""
    objects = dict(PAGES)
    objects.update({
        1: b"<< /Type /Catalog /Pages 2 0 R /Dests 6 0 R /Names << /Dests 7 0 R >> >>",
        6: b"<< /zeta [3 0 R /XYZ 0 500 0] /alpha 8 0 R /beta << /D [4 0 R /FitH 300] >> "
           b"/gamma [1 /XYZ null 123.456789 null] /delta << /D 9 0 R >> /eps [7 /XYZ 1 2 3] >>",
        7: b"<< /Kids [10 0 R 11 0 R] >>",
        8: b"[5 0 R /XYZ 10 20.5 null]",
        9: b"[3 0 R /XYZ 10 77 null]",
        10: b"<< /Limits [(a) (m)] /Names [(a1) [3 0 R /XYZ 1 2 3] (b\\(x\\)\\101) 12 0 R (<FEFF>) [4 0 R /Fit] "
            b"<FEFF00e900c4> [5 0 R /XYZ 0 1000 0] (c) 13 0 R (e) 7] >>",
        11: b"<< /Limits [(n) (z)] /Names [(n) << /D [3 0 R /XYZ 0 -5.25 0] >> (\\223x) [4 0 R /XYZ 0 0.1 0] "
            b"(short) [4 0 R /XYZ] (num) [2 /XYZ 0 100.0000001 0] (pages) [2 0 R /XYZ 0 5 0]] >>",
        12: b"<< /D [4 0 R /XYZ 0 400.123 null] >>",
        13: b"(not a destination)",
    })
    path = tmp_path / "trees.pdf"
    write_pdf(path, objects)
    assert_read_from_file(path, 12)
    mine, _ = both_readings(path)
    names = [name for name, _, _ in mine]
    assert names[:2] == ["a1", "b(x)A"] and "éÄ" in names and "\ufb01x" in names
    assert names[-6:] == ["alpha", "beta", "delta", "eps", "gamma", "zeta"]   # the old dictionary, by key


def test_incremental_update_overrides_the_older_objects(tmp_path):
    objects = dict(PAGES)
    objects.update({
        1: b"<< /Type /Catalog /Pages 2 0 R /Names << /Dests 6 0 R >> >>",
        6: b"<< /Names [(first) [3 0 R /XYZ 0 700 null] (second) 7 0 R] >>",
        7: b"[4 0 R /XYZ 0 600 null]",
    })
    update = {
        6: b"<< /Names [(first) [5 0 R /XYZ 0 100 null] (second) 7 0 R (third) 8 0 R] >>",
        8: b"[3 0 R /XYZ 0 50 null]",
    }
    path = tmp_path / "updated.pdf"
    write_pdf(path, objects, update=update)
    assert_read_from_file(path, 3)
    mine, _ = both_readings(path)
    assert mine[0] == ("first", 3, 500.0)


def stream_object(num: int, header: bytes, data: bytes) -> bytes:
    packed = zlib.compress(data)
    return b"%d 0 obj\n<< %s /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream\nendobj\n" % (
        num, header, len(packed), packed)


def png_up_rows(rows: list[bytes]) -> bytes:
    """Rows written with the PNG 'Up' filter (each byte as its difference from the byte above)."""
    out, prior = bytearray(), bytes(len(rows[0]))
    for row in rows:
        out += b"\x02" + bytes((b - a) & 0xFF for a, b in zip(prior, row))
        prior = row
    return bytes(out)


def packed_file(path: Path, hybrid: bool) -> None:
    """Pages as plain objects; the catalog, the name tree and a destination packed in an object stream
    (9), listed by a cross-reference stream: the file's only one, or (hybrid) one a classic table's
    trailer names with /XRefStm."""
    packed = {1: b"<< /Type /Catalog /Pages 2 0 R /Names << /Dests 6 0 R >> >>",
              6: b"<< /Names [(in.stream) 7 0 R (plain) 8 0 R] >>",
              7: b"<< /D [4 0 R /XYZ 0 321.5 null] >>"}
    out = bytearray(b"%PDF-1.5\n")
    offsets = {}
    for num, body in sorted(PAGES.items()):
        offsets[num] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (num, body)
    offsets[8] = len(out)
    out += b"8 0 obj\n[5 0 R /XYZ 0 12 null]\nendobj\n"
    bodies, head = b"", b""
    for num, body in packed.items():
        head += b"%d %d " % (num, len(bodies))
        bodies += body + b"\n"
    offsets[9] = len(out)
    out += stream_object(9, b"/Type /ObjStm /N %d /First %d" % (len(packed), len(head)), head + bodies)

    def row(kind: int, a: int, b: int) -> bytes:
        return bytes([kind]) + a.to_bytes(4, "big") + b.to_bytes(2, "big")

    rows = [row(0, 0, 65535)]
    for num in range(1, 11):
        if num in packed:
            rows.append(row(2, 9, list(packed).index(num)))
        elif num in offsets:
            rows.append(row(1, offsets[num], 0))
        else:
            rows.append(row(1, len(out), 0))          # 10: the cross-reference stream itself
    parms = b"/DecodeParms << /Predictor 12 /Columns 7 >>"
    if not hybrid:
        start = len(out)
        out += stream_object(10, b"/Type /XRef /Size 11 /W [1 4 2] /Root 1 0 R " + parms, png_up_rows(rows))
        out += b"startxref\n%d\n%%%%EOF\n" % start
    else:
        stream_at = len(out)
        out += stream_object(10, b"/Type /XRef /Size 11 /W [1 4 2] " + parms, png_up_rows(rows))
        start = len(out)
        # the table lists the plain objects and marks the packed ones free, as hybrid files do
        out += b"xref\n0 11\n0000000000 65535 f \n"
        for num in range(1, 11):
            at = offsets.get(num, stream_at if num == 10 else None)
            out += b"%010d 00000 n \n" % at if at is not None else b"0000000000 00001 f \n"
        out += b"trailer\n<< /Size 11 /Root 1 0 R /XRefStm %d >>\nstartxref\n%d\n%%%%EOF\n" % (stream_at, start)
    path.write_bytes(bytes(out))


@pytest.mark.parametrize("hybrid", [False, True], ids=["xref-stream", "hybrid"])
def test_object_streams_and_cross_reference_streams(tmp_path, hybrid):
    path = tmp_path / "packed.pdf"
    packed_file(path, hybrid)
    assert_read_from_file(path, 2)
    mine, _ = both_readings(path)
    assert mine == [("in.stream", 2, 700 - 321.5), ("plain", 3, 600 - 12.0)]


# ---------------------------------------------------------------- where the file's reading declines

def test_a_broken_cross_reference_falls_back_to_pdfium(tmp_path):
    """Offsets that point beside their objects: PDFium rebuilds the table, this reader declines, and
    read_anchors gives PDFium's reading; bounded, it says how many it left unread."""
    objects = dict(PAGES)
    names = b" ".join(b"(n%03d) [%d 0 R /XYZ 0 %d null]" % (k, 3 + k % 3, 10 * k) for k in range(40))
    objects.update({1: b"<< /Type /Catalog /Pages 2 0 R /Names << /Dests 6 0 R >> >>",
                    6: b"<< /Names [" + names + b"] >>"})
    path = tmp_path / "shifted.pdf"
    write_pdf(path, objects)
    data = path.read_bytes()
    path.write_bytes(data.replace(b"%PDF-1.4\n", b"%PDF-1.4\n% some bytes the table does not know of\n", 1))
    with pytest.raises(Unsure):
        named_destinations(path.read_bytes(), MAX_ANCHORS)
    mine, theirs = both_readings(path)
    assert len(theirs) == 40 and mine == theirs
    doc = _open(path)
    try:
        some, unread = _anchors_by_index(doc, 15)
    finally:
        doc.close()
    assert [a.name for a in some] == [f"n{k:03d}" for k in range(15)] and unread == 25


def test_every_byte_of_a_name_decodes_as_pdfium_decodes_it(tmp_path):
    """PDFDocEncoding, byte by byte (names 'A', the byte, 'B'), and strings with byte order marks."""
    objects = dict(PAGES)
    entries = [b"<41%02X42> [3 0 R /XYZ 0 %d 0]" % (b, b) for b in range(256)]
    entries += [b"<EFBBBF63C3A9> [4 0 R /Fit]", b"<FFFE6300E900> [4 0 R /Fit]", b"<FEFF4E1B0041> [4 0 R /Fit]",
                b"<FEFFD800> [4 0 R /Fit]", b"(a\\000) [4 0 R /Fit]", b"<FEFF00410042004> [4 0 R /Fit]"]
    objects.update({1: b"<< /Type /Catalog /Pages 2 0 R /Names << /Dests 6 0 R >> >>",
                    6: b"<< /Names [" + b" ".join(entries) + b"] >>"})
    path = tmp_path / "bytes.pdf"
    write_pdf(path, objects)
    assert_read_from_file(path, 262)


def test_damaged_files_are_read_as_pdfium_reads_them_or_declined(tmp_path):
    """Bytes changed, cut or inserted at random (a fixed seed) in the files above: the file's reading
    either declines (Unsure) or gives exactly what PDFium gives."""
    import random

    seeds = []
    for hybrid in (False, True):
        packed_file(tmp_path / "seed.pdf", hybrid)
        seeds.append((tmp_path / "seed.pdf").read_bytes())
    objects = dict(PAGES)
    objects.update({1: b"<< /Type /Catalog /Pages 2 0 R /Dests 7 0 R /Names << /Dests 6 0 R >> >>",
                    6: b"<< /Kids [8 0 R] >>", 7: b"<< /old [5 0 R /XYZ 0 9 null] >>",
                    8: b"<< /Names [(a) [3 0 R /XYZ 1 2 3] <FEFF00e9> << /D [4 0 R /XYZ 0 5 0] >> (c) [5 0 R /Fit]] >>"})
    write_pdf(tmp_path / "seed.pdf", objects)
    seeds.append((tmp_path / "seed.pdf").read_bytes())
    rng = random.Random(26)
    read = declined = 0
    for k in range(600):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data))
            change = rng.random()
            if change < 0.5:
                data[at] = rng.randrange(256)
            elif change < 0.7:
                del data[at:at + rng.randint(1, 20)]
            else:
                data[at:at] = bytes(rng.choice(b"()<>[]/%\\ 0123456789Rn") for _ in range(rng.randint(1, 10)))
        try:
            named_destinations(bytes(data), MAX_ANCHORS)
        except Unsure:
            declined += 1
            continue
        path = tmp_path / f"damaged{k}.pdf"
        path.write_bytes(bytes(data))
        try:
            _open(path).close()
        except Exception:
            continue                      # PDFium cannot open it either: nothing to compare
        mine, theirs = both_readings(path)
        assert mine == theirs, k
        read += 1
    assert read >= 5 and declined > 100
