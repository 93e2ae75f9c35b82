"""Print the code tables of mathabx's fonts (matha, mathb, mathx) that build_glyphs.py keeps.

mathabx's Type 1 fonts name their glyphs by slot as a T1 (Cork) text font would ("quotedblleft" at
the slot of "="), so a PDF's text layer says nothing true of them.  What each slot prints is said by
mathabx's own sources in TeX Live, and this script reads it from them:

- mathabx.dcl's \\DeclareMathSymbol, \\DeclareMathDelimiter, \\DeclareMathRadical and
  \\DeclareMathAccent lines (up to its \\endinput): command -> font and slot (the first command
  declared at a slot names it);
- unicode-math-table.tex (TeX Live's unicode-math): command -> Unicode character, with the few
  commands mathabx names otherwise (ALIASES below, ours);
- mathx10.tfm as tftopl prints it: each delimiter's, radical's and big operator's larger sizes
  (NEXTLARGER chains) print as the slot declared, and the pieces of its extensible recipe (VARCHAR TOP,
  MID, BOT, REP) as Unicode's pieces of that delimiter (⎛ ⎜ ⎝ for "("), as TeX's extension font's are
  read (the five sizes of mathx agree).

    python tests/eval/mathabx_layout.py      # prints the tables as build_glyphs.py keeps them

Each table is a string of 256 characters, the slot's character at its code, a space where mathabx
declares nothing.
"""
from __future__ import annotations

import re
import subprocess
import sys
import unicodedata

# Commands mathabx names that unicode-math's table spells otherwise or leaves out, and the ASCII
# characters it declares (TeX's symbol font prints "-" and "*" as − and ∗)
ALIASES = {"-": "−", "*": "∗", "+": "+", "=": "=", "<": "<", ">": ">", "/": "/", "|": "|", "(": "(", ")": ")",
           "[": "[", "]": "]", "emptyset": "∅", "neq": "≠", "notequiv": "≢", "notin": "∉", "notowner": "∌",
           "owns": "∋", "divides": "∣", "notdivides": "∤", "notsign": "\u0338", "varnotsign": "\u0338",
           "leq": "≤", "geq": "≥", "complement": "∁", "diameter": "⌀", "hash": "#", "degree": "°",
           "second": "″", "third": "‴", "fourth": "⁗", "asterisk": "∗", "notasymp": "≭", "nsubset": "⊄",
           "nsupset": "⊅", "neg": "¬", "widehat": "^", "widetilde": "~", "widecheck": "ˇ", "widebar": "¯",
           "widearrow": "→", "wideparen": "⌒", "ring": "˚", "dot": "˙", "ddot": "¨", "dddot": "\u20db",
           "ddddot": "\u20dc", "lbrace": "{", "rbrace": "}", "vert": "|", "Vert": "‖", "vvvert": "⦀",
           "ldbrack": "⟦", "rdbrack": "⟧", "backslash": "\\", "setminus": "∖", "lcorners": "⌜",
           "rcorners": "⌝", "thickvert": "┃", "leftmoon": "☾", "rightmoon": "☽", "fullmoon": "○",
           "newmoon": "●", "varEarth": "♁", "Sun": "☉", "sqbullet": "▪", "coloneq": "≔", "eqcolon": "≕",
           "relbar": "−", "Relbar": "=", "mapstochar": "↦", "Mapstochar": "⤇", "mapsfromchar": "↤",
           "Mapsfromchar": "⤆", "restriction": "↾", "cdotp": "·", "varstar": "✶", "bigast": "∗",
           "sqCap": "⩎", "sqCup": "⩏", "circ": "∘", "bullet": "∙", "diamond": "⋄", "square": "□", "Box": "□",
           "doublecap": "⋒", "doublecup": "⋓", "ntriangleleft": "⋪", "ntriangleright": "⋫", "varhash": "#",
           "oasterisk": "⊛", "varsubsetneq": "⊊", "varsupsetneq": "⊋", "varsubsetneqq": "⫋",
           "varsupsetneqq": "⫌", "circlearrowleft": "↺", "circlearrowright": "↻", "Asterisk": "∗", "ocirc": "⊚"}
# Unicode's pieces of a tall delimiter, by the delimiter and the recipe's part
PIECES = {"(": {"TOP": "⎛", "REP": "⎜", "BOT": "⎝"}, ")": {"TOP": "⎞", "REP": "⎟", "BOT": "⎠"},
          "[": {"TOP": "⎡", "REP": "⎢", "BOT": "⎣"}, "]": {"TOP": "⎤", "REP": "⎥", "BOT": "⎦"},
          "{": {"TOP": "⎧", "MID": "⎨", "BOT": "⎩", "REP": "⎪"}, "}": {"TOP": "⎫", "MID": "⎬", "BOT": "⎭", "REP": "⎪"},
          "⌈": {"TOP": "⎡", "REP": "⎢"}, "⌉": {"TOP": "⎤", "REP": "⎥"}, "⌊": {"BOT": "⎣", "REP": "⎢"},
          "⌋": {"BOT": "⎦", "REP": "⎥"}, "√": {"BOT": "⎷", "REP": "⏐", "TOP": "⏐"}, "|": {"REP": "|"},
          "‖": {"REP": "‖"}}

_DECLARATION = re.compile(r"^\\DeclareMath(Symbol|Delimiter|Radical|Accent)\{\\?([^{}\s]{1,40})\s*\} *"
                          r"(?:\{[^{}]{0,20}\} *)?\{(math[abx])\} *\{\"([0-9A-Fa-f]{2})\} *"
                          r"(?:\{(math[abx])\} *\{\"([0-9A-Fa-f]{2})\})?")
_UNICODE_MATH = re.compile(r"\\UnicodeMathSymbol\{\"([0-9A-Fa-f]{5})\}\{\\([A-Za-z]{1,40}) *\}")
_PL_LINE = re.compile(r"\((CHARACTER|NEXTLARGER|TOP|MID|BOT|REP) (?:O ([0-7]{1,3})|C (\S))")


def kpse(name: str) -> str:
    return subprocess.run(["kpsewhich", name], capture_output=True, text=True, check=True).stdout.strip()


def declarations() -> list[tuple[str, str, str, int]]:
    """(kind, command, font, slot) in the order mathabx.dcl declares them (a delimiter's or radical's
    large form as a second entry of kind 'Large')."""
    out = []
    with open(kpse("mathabx.dcl"), encoding="latin-1") as f:
        for line in f:
            if line.startswith("\\endinput"):
                break
            m = _DECLARATION.match(line.strip())
            if not m:
                continue
            kind, command, font, slot, large_font, large_slot = m.groups()
            out.append((kind, command, font, int(slot, 16)))
            if large_font:
                out.append(("Large", command, large_font, int(large_slot, 16)))
    return out


def unicode_names() -> dict[str, str]:
    with open(kpse("unicode-math-table.tex"), encoding="utf-8") as f:
        found = {}
        for m in _UNICODE_MATH.finditer(f.read()):
            found.setdefault(m.group(2), chr(int(m.group(1), 16)))
    return found


def recipes(tfm: str) -> tuple[dict[int, int], dict[int, dict[str, int]]]:
    """A TFM's NEXTLARGER links (slot -> next) and extensible recipes (slot -> part -> slot)."""
    text = subprocess.run(["tftopl", kpse(tfm)], capture_output=True, text=True, check=True).stdout
    larger: dict[int, int] = {}
    varchar: dict[int, dict[str, int]] = {}
    slot = -1
    for m in _PL_LINE.finditer(text):
        word, octal, char = m.groups()
        number = int(octal, 8) if octal else ord(char)
        if word == "CHARACTER":
            slot = number
        elif word == "NEXTLARGER":
            larger[slot] = number
        else:
            varchar.setdefault(slot, {})[word] = number
    return larger, varchar


def tables() -> dict[str, list[str]]:
    names = unicode_names()
    larger, varchar = recipes("mathx10.tfm")
    layout = {font: [" "] * 256 for font in ("matha", "mathb", "mathx")}
    missing = []
    pieces: dict[int, str] = {}
    for kind, command, font, slot in declarations():
        ch = ALIASES.get(command) or names.get(command) or (names.get(command[:-2]) if command.endswith("op") else None)
        if not ch:
            missing.append(command)
            continue
        if layout[font][slot] == " ":
            layout[font][slot] = ch
        if font != "mathx":
            continue
        seen = {slot}
        while slot in larger and larger[slot] not in seen:
            slot = larger[slot]
            seen.add(slot)
            if layout[font][slot] == " ":
                layout[font][slot] = ch
        for part, piece in varchar.get(slot, {}).items():
            if ch in PIECES and part in PIECES[ch]:
                pieces.setdefault(piece, PIECES[ch][part])
    for slot, piece in pieces.items():
        layout["mathx"][slot] = piece      # (a recipe's top may be its delimiter's last size: the piece)
    if missing:
        print(f"# not in unicode-math's table, left out: {' '.join(sorted(set(missing)))}", file=sys.stderr)
    return layout


def main() -> None:
    for font, chars in tables().items():
        print(f"_MATHABX_{font[-1].upper()} = (")
        for row in range(0, 256, 32):
            # (combining marks, which print over their neighbours, written as escapes)
            text = "".join(f"\\u{ord(c):04x}" if unicodedata.category(c).startswith("M") else
                           "\\\\" if c == "\\" else c for c in chars[row:row + 32])
            print(f'    "{text}"')
        print(")")


if __name__ == "__main__":
    main()
