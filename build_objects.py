"""build_objects.py: a PDF's objects read from its bytes, for what PDFium lists only one index at a time.

PDFium finds the i-th named destination by walking the name tree from its start on every call, so
listing them all through it costs time quadratic in their number (minutes for a manual with fifty
thousand hyperref targets).  This module reads the same destinations in one pass over the tree:
named_destinations(path) gives, in PDFium's order, each destination's name (decoded as PDFium
decodes it), the index of the page it points to and the y its /XYZ view names (as PDFium's float),
and build_glyphs.read_anchors turns them into anchors with PDFium's own page heights.

Sections, top-down: the file (cross-reference tables and streams with their /Prev chains, hybrid
files, object streams, Flate with PNG predictors), the object syntax (one object parsed at an
offset), the document (the catalog, the page tree in order, the name tree and the old /Dests
dictionary), and text (PDF text strings decoded as PDFium decodes them).

The reader is deliberately narrow: whatever it does not handle exactly as PDFium would (an
encrypted file, a cross-reference entry that does not point at its object, a filter other than
Flate, a cycle in a tree, a key that is no string) raises Unsure, and the caller reads through
PDFium instead.  Every loop is bounded by the file's size or the number of objects it holds.
"""

from __future__ import annotations

import re
import struct
import zlib
from dataclasses import dataclass


class Unsure(Exception):
    """The file holds something this reader does not read exactly as PDFium does."""


# --------------------------------------------------------------------------- syntax
"""Syntax: one PDF object parsed from bytes at an offset (names, strings, numbers, arrays, dictionaries,
references); stream data is left to the file section, which knows the lengths."""

_WHITE = b"\x00\t\n\x0c\r "
_SPACE = re.compile(rb"[\x00\t\n\x0c\r ]*")
_HEX_DIGITS = re.compile(rb"[0-9A-Fa-f\x00\t\n\x0c\r ]*")
_STRING_PLAIN = re.compile(rb"[^()\\]*")
_INTEGER = re.compile(rb"[+-]?[0-9]+")
_REAL = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)")
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
MAX_NESTING = 64          # arrays and dictionaries inside one another deeper than this: Unsure


class Name(str):
    """A PDF name, its #xx escapes decoded, its bytes as Latin-1 characters (dictionaries' keys)."""


class String(bytes):
    """A PDF string's bytes, literal or hexadecimal."""


@dataclass(frozen=True, slots=True)
class Ref:
    num: int
    gen: int


class Real(float):
    """A number written with a decimal point."""


def skip_space(data: bytes, pos: int) -> int:
    """The offset of the next token: white space and comments skipped."""
    while True:
        pos = _SPACE.match(data, pos).end()
        if pos < len(data) and data[pos] == 0x25:        # '%': a comment to the end of its line
            ends = [at for at in (data.find(b"\r", pos), data.find(b"\n", pos)) if at >= 0]
            pos = min(ends) if ends else len(data)
            continue
        return pos


# One token: white space skipped, then a name, a literal string without parentheses or escapes, a
# hexadecimal string without white space, a delimiter (the other strings start at theirs), or a run of
# regular characters (a number or a keyword).  A byte above 0x7F outside a string matches nothing, so
# the reader declines: PDFium was seen to read such a name otherwise (an array cut short there).  The branches open with different characters but for the
# strings, whose bodies exclude what ends them, so a token is scanned at most twice: linear.
_TOKEN = re.compile(rb"[\x00\t\n\x0c\r ]*(?:/([^\x00\t\n\x0c\r ()<>\[\]{}/%\x80-\xff]*)|\(([^()\\]*)\)|<([0-9A-Fa-f]*)>"
                    rb"|(<<|>>|[\[\]()<%])|([^\x00\t\n\x0c\r ()<>\[\]{}/%\x80-\xff]+))")
_NAME, _PLAIN_STRING, _PLAIN_HEX, _MARK, _WORD = 1, 2, 3, 4, 5
_KEYWORDS = {b"true": True, b"false": False, b"null": None}
# The shape nearly every destination has, "[12 0 R /XYZ 72 720 null]", bare or as "<< /D [...] >>",
# read in one match (most of the objects a name tree points to, and a token at a time costs): its
# parameters are checked below, and anything else is left to the token reader.  The parameters'
# white space, numbers and nulls share no character, so the match never backtracks far.
_FLAT_DEST = re.compile(rb"[\x00\t\n\x0c\r ]*(<<[\x00\t\n\x0c\r ]*/D[\x00\t\n\x0c\r ]*)?\[[\x00\t\n\x0c\r ]*([0-9]+)"
                        rb"[\x00\t\n\x0c\r ]+([0-9]+)[\x00\t\n\x0c\r ]+R[\x00\t\n\x0c\r ]*/([A-Za-z]+)"
                        rb"((?:[\x00\t\n\x0c\r ]+(?:[-+.0-9]+|null))*)[\x00\t\n\x0c\r ]*\]")
_DICT_END = re.compile(rb"[\x00\t\n\x0c\r ]*>>")


def _flat_destination(data, match):
    """(object, offset after it) for a _FLAT_DEST match, or None where the token reader must decide."""
    items = [Ref(int(match.group(2)), int(match.group(3))), Name(match.group(4).decode("latin-1"))]
    for word in match.group(5).split():
        if word == b"null":
            items.append(None)
        elif _INTEGER.fullmatch(word):
            items.append(int(word))
        elif _REAL.fullmatch(word):
            items.append(Real(float(word)))
        else:
            return None
    if match.group(1) is None:
        return items, match.end()
    end = _DICT_END.match(data, match.end())
    return ({Name("D"): items}, end.end()) if end else None


def parse_object(data: bytes, pos: int):
    """(object, offset after it) for the object that starts at or after pos.  Arrays and dictionaries
    are built on a stack of open containers (each a list; a dictionary's keys and values alternate),
    "n g R" becomes a Ref when its R is read."""
    flat = _FLAT_DEST.match(data, pos)
    if flat:
        read = _flat_destination(data, flat)
        if read is not None:
            return read
    open_items: list[tuple[bool, list]] = []          # (is a dictionary, items so far)
    while True:
        # tokens in one scan, until a string or comment the scanner leaves to code below
        restart = None
        for token in _TOKEN.finditer(data, pos):
            if token.start() != pos:
                raise Unsure(f"no object at {pos}")
            pos = token.end()
            kind = token.lastindex
            if kind == _NAME:
                name = token.group(1)
                value = Name((_NAME_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), name) if b"#" in name
                              else name).decode("latin-1"))
            elif kind == _PLAIN_STRING:
                value = String(token.group(2))
            elif kind == _PLAIN_HEX:
                digits = token.group(3)
                value = String(bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode("ascii")))
            elif kind == _WORD:
                word = token.group(5)
                if word.isdigit():
                    value = int(word)
                    if not open_items:
                        # a reference at the top: "12 0 R" read as one object
                        after = _TOKEN.match(data, pos)
                        if after and after.lastindex == _WORD and after.group(5).isdigit():
                            r = _TOKEN.match(data, after.end())
                            if r and r.lastindex == _WORD and r.group(5) == b"R":
                                return Ref(value, int(after.group(5))), r.end()
                elif word in _KEYWORDS:
                    value = _KEYWORDS[word]
                elif word == b"R" and open_items:
                    items = open_items[-1][1]
                    if len(items) < 2 or type(items[-1]) is not int or type(items[-2]) is not int:
                        raise Unsure("an R without its object's number")
                    gen = items.pop()
                    value = Ref(items.pop(), gen)
                elif _INTEGER.fullmatch(word):
                    value = int(word)
                elif _REAL.fullmatch(word):
                    value = Real(float(word))
                else:
                    raise Unsure(f"a token this reader does not know: {word[:20]!r}")
            else:
                mark = token.group(4)
                if mark == b"[" or mark == b"<<":
                    if len(open_items) >= MAX_NESTING:
                        raise Unsure("objects nested too deep")
                    open_items.append((mark == b"<<", []))
                    continue
                if mark == b"]" or mark == b">>":
                    if not open_items or open_items[-1][0] != (mark == b">>"):
                        raise Unsure(f"an unbalanced {mark!r} at {pos}")
                    is_dict, items = open_items.pop()
                    if is_dict:
                        if len(items) % 2 or not all(type(k) is Name for k in items[0::2]):
                            raise Unsure("a dictionary whose keys are not all names")
                        value = dict(zip(items[0::2], items[1::2]))
                    else:
                        value = items
                else:
                    restart = mark
                    break
            if not open_items:
                return value, pos
            open_items[-1][1].append(value)
        if restart is None:
            raise Unsure("the file ends inside an object")
        if restart == b"(":
            value, pos = _literal_string(data, pos)
        elif restart == b"<":
            end = _HEX_DIGITS.match(data, pos).end()
            if data[end:end + 1] != b">":
                raise Unsure("a broken hexadecimal string")
            digits = bytes(b for b in data[pos:end] if b not in _WHITE)
            value, pos = String(bytes.fromhex((digits + b"0" * (len(digits) % 2)).decode("ascii"))), end + 1
        else:                                            # '%': a comment to the end of its line
            ends = [at for at in (data.find(b"\r", pos), data.find(b"\n", pos)) if at >= 0]
            pos = min(ends) if ends else len(data)
            continue
        if not open_items:
            return value, pos
        open_items[-1][1].append(value)


_ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("f"): b"\f",
            ord("("): b"(", ord(")"): b")", ord("\\"): b"\\"}


def _literal_string(data: bytes, pos: int):
    """A literal string's bytes, from just after its '(' (balanced parentheses and escapes)."""
    out = bytearray()
    level = 1
    size = len(data)
    while True:
        end = _STRING_PLAIN.match(data, pos).end()
        out += data[pos:end]
        pos = end
        if pos >= size:
            raise Unsure("the file ends inside a string")
        ch = data[pos]
        if ch == 0x28:
            level += 1
            out.append(ch)
            pos += 1
        elif ch == 0x29:
            level -= 1
            pos += 1
            if level == 0:
                return String(bytes(out)), pos
            out.append(ch)
        else:                                              # a backslash
            pos += 1
            if pos >= size:
                raise Unsure("the file ends inside a string")
            ch = data[pos]
            if ch in _ESCAPES:
                out += _ESCAPES[ch]
                pos += 1
            elif 0x30 <= ch <= 0x37:                       # up to three octal digits
                value, count = 0, 0
                while count < 3 and pos < size and 0x30 <= data[pos] <= 0x37:
                    value = value * 8 + data[pos] - 0x30
                    pos, count = pos + 1, count + 1
                out.append(value & 0xFF)
            elif ch == 0x0D:                               # a line continued: the end of line is dropped
                pos += 2 if data[pos + 1:pos + 2] == b"\n" else 1
            elif ch == 0x0A:
                pos += 1
            else:
                raise Unsure("a string escape this reader does not know")


# --------------------------------------------------------------------------- file
"""File: where each object is (the cross-reference sections from the last one back through /Prev),
and the objects themselves, plain or packed in object streams."""

_OBJECT_HEAD = re.compile(rb"[\x00\t\n\x0c\r ]*([0-9]{1,10})[\x00\t\n\x0c\r ]+([0-9]{1,5})[\x00\t\n\x0c\r ]+obj")
_XREF_ROW = re.compile(rb"[\x00\t\n\x0c\r ]*([0-9]{1,10})[ ]+([0-9]{1,5})[ ]+([nf])")
_SUBSECTION = re.compile(rb"[\x00\t\n\x0c\r ]*([0-9]{1,10})[ \t]+([0-9]{1,10})")
_END_STREAM = re.compile(rb"[\x00\t\n\x0c\r ]*endstream")
_HEADER_NUMBER = re.compile(rb"[0-9]+")
MAX_SECTIONS = 10_000     # cross-reference sections followed back through /Prev


class PdfFile:
    """A PDF's objects by number, each parsed when first asked for."""

    def __init__(self, data):
        """`data`: the file's bytes, or a memory map of it (only slices, find and regular expressions are used)."""
        self.data = data
        head = data.find(b"%PDF-", 0, 1024)
        if head < 0:
            raise Unsure("no PDF header")
        self.base = head                 # offsets count from the header, as readers do
        self.where: dict[int, tuple] = {}   # number -> ("at", offset) | ("in", stream number, index) | ("free",)
        self.trailer: dict = {}
        self.objects: dict[int, object] = {}
        self.streams: dict[int, tuple[bytes, list[tuple[int, int]]]] = {}
        self._read_sections()
        if "Encrypt" in self.trailer:
            raise Unsure("an encrypted file")

    # ---- cross-reference sections
    def _read_sections(self) -> None:
        at = self.data.rfind(b"startxref")
        if at < 0:
            raise Unsure("no startxref")
        offset, _ = parse_object(self.data, at + len(b"startxref"))
        seen = set()
        while isinstance(offset, int) and offset not in seen:
            if len(seen) > MAX_SECTIONS:
                raise Unsure("too many cross-reference sections")
            seen.add(offset)
            trailer = self._read_section(self.base + offset)
            for key, value in trailer.items():
                self.trailer.setdefault(key, value)
            offset = trailer.get("Prev")

    def _read_section(self, pos: int) -> dict:
        """One section's entries (older sections never override newer ones); its trailer."""
        data = self.data
        at = skip_space(data, pos)
        if data[at:at + 4] == b"xref":
            rows, trailer = self._xref_table(at + 4)
            used = [(num, entry) for num, entry in rows if entry[0] != "free"]
            for num, entry in used:
                self.where.setdefault(num, entry)
            if isinstance(trailer.get("XRefStm"), int):
                # a hybrid file: the stream lists the objects packed in object streams, which the
                # table leaves out or marks free
                stream_rows, _ = self._xref_stream(self.base + trailer["XRefStm"])
                for num, entry in stream_rows:
                    self.where.setdefault(num, entry)
            for num, entry in rows:
                self.where.setdefault(num, entry)
            return trailer
        rows, trailer = self._xref_stream(pos)
        for num, entry in rows:
            self.where.setdefault(num, entry)
        return trailer

    def _xref_table(self, pos: int):
        data = self.data
        rows = []
        while True:
            at = skip_space(data, pos)
            if data[at:at + 7] == b"trailer":
                trailer, _ = parse_object(data, at + 7)
                if not isinstance(trailer, dict):
                    raise Unsure("a trailer that is no dictionary")
                return rows, trailer
            head = _SUBSECTION.match(data, pos)
            if not head:
                raise Unsure("a broken cross-reference table")
            first, count = int(head.group(1)), int(head.group(2))
            pos = head.end()
            for k in range(count):
                row = _XREF_ROW.match(data, pos)
                if not row:
                    raise Unsure("a broken cross-reference row")
                pos = row.end()
                if row.group(3) == b"n":
                    rows.append((first + k, ("at", int(row.group(1)))))
                else:
                    rows.append((first + k, ("free",)))

    def _xref_stream(self, pos: int):
        num, header, body = self._object_at(pos)
        if not isinstance(header, dict) or header.get("Type") != "XRef" or body is None:
            raise Unsure("startxref points at no cross-reference")
        data = self._decode(header, body)
        widths = header.get("W")
        if not isinstance(widths, list) or len(widths) != 3 or not all(isinstance(w, int) and 0 <= w <= 8 for w in widths):
            raise Unsure("a cross-reference stream's /W")
        size = header.get("Size")
        index = header.get("Index", [0, size])
        if not isinstance(index, list) or len(index) % 2 or not all(isinstance(v, int) for v in index):
            raise Unsure("a cross-reference stream's /Index")
        row_size = sum(widths)
        if row_size == 0 or sum(index[1::2]) * row_size > len(data) or min(index, default=0) < 0:
            raise Unsure("a cross-reference stream shorter than its /Index says")
        rows, at = [], 0
        w0, w1, w2 = widths
        for first, count in zip(index[0::2], index[1::2]):
            for k in range(count):
                if at + row_size > len(data):
                    raise Unsure("a cross-reference stream too short")
                kind = int.from_bytes(data[at:at + w0], "big") if w0 else 1
                field2 = int.from_bytes(data[at + w0:at + w0 + w1], "big")
                field3 = int.from_bytes(data[at + w0 + w1:at + row_size], "big")
                at += row_size
                if kind == 1:
                    rows.append((first + k, ("at", field2)))
                elif kind == 2:
                    rows.append((first + k, ("in", field2, field3)))
                elif kind == 0:
                    rows.append((first + k, ("free",)))
        return rows, header

    # ---- objects
    def _object_at(self, pos: int):
        """(number, object, stream bytes or None) of the indirect object at an offset."""
        head = _OBJECT_HEAD.match(self.data, pos)
        if not head:
            raise Unsure("a cross-reference entry that points at no object")
        value, at = parse_object(self.data, head.end())
        body = None
        if isinstance(value, dict):
            at = skip_space(self.data, at)
            if self.data[at:at + 6] == b"stream":
                at += 6
                if self.data[at:at + 2] == b"\r\n":
                    at += 2
                elif self.data[at:at + 1] in (b"\n", b"\r"):
                    at += 1
                length = value.get("Length")
                if isinstance(length, Ref):
                    length = self.get(length.num)
                if not isinstance(length, int) or length < 0 or not _END_STREAM.match(self.data, at + length):
                    raise Unsure("a stream whose /Length does not end it")
                body = self.data[at:at + length]
        return int(head.group(1)), value, body

    def get(self, num: int):
        """Object `num` (None for a free or missing one, as a reference to it reads)."""
        if num in self.objects:
            return self.objects[num]
        self.objects[num] = None          # a reference back to an object being read reads as null
        entry = self.where.get(num)
        value = None
        if entry is None or entry[0] == "free":
            value = None
        elif entry[0] == "at":
            found, value, _ = self._object_at(self.base + entry[1])
            if found != num:
                raise Unsure("a cross-reference entry that points at another object")
        else:
            value = self._packed(entry[1], entry[2], num)
        self.objects[num] = value
        return value

    def resolve(self, value):
        """A value with a reference followed (once: a reference to a reference stays one)."""
        return self.get(value.num) if isinstance(value, Ref) else value

    def _packed(self, stream_num: int, index: int, num: int):
        if stream_num not in self.streams:
            entry = self.where.get(stream_num)
            if not entry or entry[0] != "at":
                raise Unsure("an object stream that is not where the table says")
            found, header, body = self._object_at(self.base + entry[1])
            if found != stream_num or not isinstance(header, dict) or body is None:
                raise Unsure("an object stream that is no stream")
            data = self._decode(header, body)
            count, first = header.get("N"), header.get("First")
            if not isinstance(count, int) or not isinstance(first, int):
                raise Unsure("an object stream's /N or /First")
            numbers = _HEADER_NUMBER.findall(data, 0, first)
            if len(numbers) < 2 * count:
                raise Unsure("an object stream's header")
            offsets = [(int(numbers[2 * k]), first + int(numbers[2 * k + 1])) for k in range(count)]
            self.streams[stream_num] = (data, offsets)
        data, offsets = self.streams[stream_num]
        if index >= len(offsets) or offsets[index][0] != num:
            raise Unsure("an object not where its object stream says")
        value, _ = parse_object(data, offsets[index][1])
        return value

    def _decode(self, header: dict, body: bytes) -> bytes:
        """A stream's data: none, or Flate with or without a PNG predictor, else Unsure."""
        filters = self.resolve(header.get("Filter"))
        parms = self.resolve(header.get("DecodeParms"))
        if isinstance(filters, list):
            if len(filters) > 1:
                raise Unsure("a chain of filters")
            filters = filters[0] if filters else None
            parms = parms[0] if isinstance(parms, list) and parms else parms
        if filters is None:
            return body
        if filters not in ("FlateDecode", "Fl"):
            raise Unsure("a filter other than Flate")
        try:
            data = zlib.decompressobj().decompress(body)
        except zlib.error:
            raise Unsure("a Flate stream that does not inflate") from None
        parms = self.resolve(parms)
        predictor = parms.get("Predictor", 1) if isinstance(parms, dict) else 1
        if predictor == 1:
            return data
        colors, columns = parms.get("Colors", 1), parms.get("Columns", 1)
        if parms.get("BitsPerComponent", 8) != 8 or not isinstance(colors, int) or not isinstance(columns, int) \
                or colors < 1 or columns < 1:
            raise Unsure("a predictor over other than bytes")
        if predictor == 2:
            return _unpredict_tiff(data, colors * columns, colors)
        if not isinstance(predictor, int) or predictor < 10:
            raise Unsure("a predictor of unknown kind")
        return _unpredict_png(data, colors * columns, colors)


def _unpredict_tiff(data: bytes, width: int, step: int) -> bytes:
    """Rows of `width` bytes whose each sample was written as its difference from the one `step` before."""
    out = bytearray(data)
    for start in range(0, len(out), width):
        for i in range(start + step, min(start + width, len(out))):
            out[i] = (out[i] + out[i - step]) & 0xFF
    return bytes(out)


def _unpredict_png(data: bytes, width: int, step: int) -> bytes:
    """Rows of `width` bytes, each after its PNG filter byte, unfiltered (`step` bytes a pixel)."""
    out = bytearray()
    prior = bytearray(width)
    for at in range(0, len(data) - width, width + 1):
        kind, row = data[at], bytearray(data[at + 1:at + 1 + width])
        if kind == 1:
            for i in range(step, width):
                row[i] = (row[i] + row[i - step]) & 0xFF
        elif kind == 2:
            for i in range(width):
                row[i] = (row[i] + prior[i]) & 0xFF
        elif kind == 3:
            for i in range(width):
                row[i] = (row[i] + ((row[i - step] if i >= step else 0) + prior[i]) // 2) & 0xFF
        elif kind == 4:
            for i in range(width):
                left, up = (row[i - step] if i >= step else 0), prior[i]
                corner = prior[i - step] if i >= step else 0
                guess = left + up - corner
                pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                row[i] = (row[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        elif kind != 0:
            raise Unsure("a PNG predictor row of unknown kind")
        out += row
        prior = row
    return bytes(out)


# --------------------------------------------------------------------------- document
"""Document: the catalog, the pages in order, and the named destinations as PDFium lists them."""

NAME_TREE_DEPTH = 32      # PDFium reads a name tree no deeper than this
PAGE_TREE_DEPTH = 1024


@dataclass(frozen=True, slots=True)
class Destination:
    name: str
    page: int              # 0-based index (-1: not a page of the document)
    y: float | None        # the /XYZ view's top, as a 32-bit float (None: no /XYZ or no top)


def page_numbers(pdf: PdfFile, root: dict) -> dict[int, int]:
    """Object number of each page -> its 0-based index, by the page tree walked in order."""
    pages = pdf.resolve(root.get("Pages"))
    out: dict[int, int] = {-1: 0}
    if not isinstance(pages, dict):
        return out
    stack = [(root.get("Pages"), pages, 0)]
    seen: set[int] = set()
    index = 0
    while stack:
        ref, node, depth = stack.pop()
        if isinstance(ref, Ref):
            if ref.num in seen:
                raise Unsure("a cycle in the page tree")
            seen.add(ref.num)
        if "Kids" not in node:
            if isinstance(ref, Ref):
                out.setdefault(ref.num, index)
            index += 1
            continue
        kids = pdf.resolve(node["Kids"])
        if not isinstance(kids, list) or depth >= PAGE_TREE_DEPTH:
            raise Unsure("a page tree node this reader does not follow")
        for kid in reversed(kids):
            child = pdf.resolve(kid)
            if isinstance(child, dict):
                stack.append((kid, child, depth + 1))
    out[-1] = index          # how many pages the walk found
    return out


def named_destinations(data, limit: int) -> tuple[list[Destination], int]:
    """What PDFium's FPDF_GetNamedDest gives for indexes 0 to limit - 1, in that order: the catalog's
    /Names /Dests tree depth first, then the old /Dests dictionary by its keys' bytes.  An entry that is
    no destination (a value neither an array nor a dictionary with an array /D) takes its index but
    gives nothing, as PDFium gives it no destination.  Also how many pages the page tree holds.
    Unsure where PDFium might read otherwise."""
    pdf = PdfFile(data)
    root = pdf.resolve(pdf.trailer.get("Root"))
    if not isinstance(root, dict):
        raise Unsure("no catalog")
    numbers = page_numbers(pdf, root)
    out: list[Destination] = []
    index = 0
    names = pdf.resolve(root.get("Names"))
    tree = pdf.resolve(names.get("Dests")) if isinstance(names, dict) else None
    if isinstance(tree, dict):
        for key, value in _name_tree(pdf, tree):
            if index >= limit:
                return out, numbers[-1]
            index += 1
            dest = _destination(pdf, pdf.resolve(value), numbers, pdf_text(key))
            if dest:
                out.append(dest)
    old = pdf.resolve(root.get("Dests"))
    if isinstance(old, dict):
        for key in sorted(old):              # Latin-1 characters sort as their bytes
            if index >= limit:
                return out, numbers[-1]
            index += 1
            dest = _destination(pdf, pdf.resolve(old[key]), numbers, pdf_text(key.encode("latin-1")))
            if dest:
                out.append(dest)
    return out, numbers[-1]


def _name_tree(pdf: PdfFile, root: dict):
    """(key, value) pairs of a name tree, leaves in order; Unsure on what PDFium might count otherwise."""
    stack = [(root, 0)]
    seen: set[int] = set()
    while stack:
        node, depth = stack.pop()
        if depth > NAME_TREE_DEPTH:
            raise Unsure("a name tree deeper than PDFium reads")
        if id(node) in seen:
            raise Unsure("a cycle in the name tree")
        seen.add(id(node))
        pairs = pdf.resolve(node.get("Names"))
        if isinstance(pairs, list):
            for at in range(0, len(pairs) - 1, 2):
                key, value = pdf.resolve(pairs[at]), pairs[at + 1]
                if not isinstance(key, String):
                    raise Unsure("a name tree key that is no string")
                if isinstance(value, Ref) and pdf.get(value.num) is None:
                    raise Unsure("a name tree value that refers to nothing")
                yield key, value
            continue
        kids = pdf.resolve(node.get("Kids"))
        if not isinstance(kids, list):
            continue
        for kid in reversed(kids):
            child = pdf.resolve(kid)
            if isinstance(child, dict):
                stack.append((child, depth + 1))


def _destination(pdf: PdfFile, value, numbers: dict[int, int], name: str) -> Destination | None:
    if isinstance(value, dict):
        value = pdf.resolve(value.get("D"))
    if not isinstance(value, list):
        return None
    page = -1
    target = pdf.resolve(value[0]) if value else None
    if isinstance(target, bool) or target is None:
        page = -1
    elif isinstance(target, dict):
        if not isinstance(value[0], Ref):
            raise Unsure("a destination whose page is a direct dictionary")
        page = numbers.get(value[0].num, -1)
    elif isinstance(target, Real):
        page = int(target)
    elif isinstance(target, int):
        page = target
    y = None
    kind = pdf.resolve(value[1]) if len(value) >= 5 else None
    if isinstance(kind, Name) and kind == "XYZ":
        top = pdf.resolve(value[3])
        if isinstance(top, (int, float)) and not isinstance(top, bool):
            y = struct.unpack("f", struct.pack("f", float(top)))[0]
    return Destination(name, page, y)


# --------------------------------------------------------------------------- text
"""Text: a PDF text string as PDFium decodes it (UTF-16 with a byte order mark, UTF-8 with one, else
PDFDocEncoding), then as read_anchors reads PDFium's UTF-16 (trailing NULs dropped)."""

# PDFDocEncoding where it differs from Latin-1 (the PDF reference's table D.2; what PDFium gives for
# the bytes the table leaves undefined was read off PDFium: tests/test_anchors.py checks all 256)
_DOC_ENCODING = {
    0x18: 0x02D8, 0x19: 0x02C7, 0x1A: 0x02C6, 0x1B: 0x02D9, 0x1C: 0x02DD, 0x1D: 0x02DB, 0x1E: 0x02DA, 0x1F: 0x02DC,
    0x80: 0x2022, 0x81: 0x2020, 0x82: 0x2021, 0x83: 0x2026, 0x84: 0x2014, 0x85: 0x2013, 0x86: 0x0192, 0x87: 0x2044,
    0x88: 0x2039, 0x89: 0x203A, 0x8A: 0x2212, 0x8B: 0x2030, 0x8C: 0x201E, 0x8D: 0x201C, 0x8E: 0x201D, 0x8F: 0x2018,
    0x90: 0x2019, 0x91: 0x201A, 0x92: 0x2122, 0x93: 0xFB01, 0x94: 0xFB02, 0x95: 0x0141, 0x96: 0x0152, 0x97: 0x0160,
    0x98: 0x0178, 0x99: 0x017D, 0x9A: 0x0131, 0x9B: 0x0142, 0x9C: 0x0153, 0x9D: 0x0161, 0x9E: 0x017E, 0xA0: 0x20AC,
    0x7F: 0x0000, 0x9F: 0x0000, 0xAD: 0x0000,     # undefined in the table: PDFium gives NUL
}


def pdf_text(raw: bytes) -> str:
    if raw[:2] in (b"\xfe\xff", b"\xff\xfe"):
        order = "utf-16-be" if raw[:2] == b"\xfe\xff" else "utf-16-le"
        text = raw[2:len(raw) - (len(raw) % 2)].decode(order, "surrogatepass")
        if "\x1b" in text:
            raise Unsure("a UTF-16 string with a language escape")
    elif raw[:3] == b"\xef\xbb\xbf":
        try:
            text = raw[3:].decode("utf-8")
        except UnicodeDecodeError:
            raise Unsure("a UTF-8 string that is not UTF-8 (PDFium drops what Python would replace)") from None
    else:
        text = raw.decode("latin-1").translate(_DOC_ENCODING)
    # PDFium hands the name over as UTF-16LE, which read_anchors decodes and strips of trailing NULs
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace").rstrip("\x00")
