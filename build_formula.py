"""build_formula.py: a typeset formula read back into LaTeX from its glyphs and rules.

TeX sets mathematics by fixed rules, and a born-digital PDF keeps every glyph's font, size, origin
and ink box exactly, so the rules can be run backwards, the way maths recognisers read a page: a
baseline structure tree.  Pieces of tall delimiters and radicals are joined first; then a radical
sign with the rule running from its top encloses a root, a rule with glyphs standing on it and
hanging from it is a fraction (innermost first), a rule with nothing on the other side an over- or
underline, a small accent glyph above a letter accents it, glyphs stacked above and below a big
operator or an operator name are its limits, matching tall delimiters around rows are a matrix and
an opening brace nothing closes a `cases`.  What is left stands on one or several baselines (the rows
of a multi-line display); along each, a smaller glyph raised or lowered after its base is a super-
or subscript, recursively.  LaTeX is written from that tree.

The alphabet comes from the font and the character, never from the book: maths italic letters are
variables, upright ones operator names or roman text, bold upright `\\mathbf`, bold italic `\\bm`, the
symbol fonts' capitals `\\mathcal`, blackboard fonts `\\mathbb`; OpenType maths fonts say it with the
Unicode maths alphanumerics (𝑥, 𝐱, 𝒙, 𝔼, 𝒮).  Sections: symbols, glyphs, assembly, structure,
rows and scripts, writing, entry points.
"""

from __future__ import annotations

import copy
import hashlib
import heapq
import marshal
import math
import re
import unicodedata
from collections import OrderedDict
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache

from build_common import OPERATOR_NAMES  # noqa: F401  (the readers import it from here too)


# --------------------------------------------------------------------------- symbols
"""Symbols: what a character stands for in LaTeX, and what role it plays in a formula."""

GREEK = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ϵ": r"\epsilon", "ε": r"\varepsilon",
    "ζ": r"\zeta", "η": r"\eta", "θ": r"\theta", "ϑ": r"\vartheta", "ι": r"\iota", "κ": r"\kappa",
    "λ": r"\lambda", "μ": r"\mu", "µ": r"\mu", "ν": r"\nu", "ξ": r"\xi", "π": r"\pi", "ϖ": r"\varpi",
    "ρ": r"\rho", "ϱ": r"\varrho", "σ": r"\sigma", "ς": r"\varsigma", "τ": r"\tau", "υ": r"\upsilon",
    "ϕ": r"\phi", "φ": r"\varphi", "χ": r"\chi", "ψ": r"\psi", "ω": r"\omega", "ϰ": r"\varkappa",
    "Γ": r"\Gamma", "Δ": r"\Delta", "Θ": r"\Theta", "Λ": r"\Lambda", "Ξ": r"\Xi", "Π": r"\Pi",
    "Σ": r"\Sigma", "Υ": r"\Upsilon", "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega", "∆": r"\Delta", "Ω": r"\Omega",
    "ϴ": r"\Theta", "\u2126": r"\Omega", "ǫ": r"\epsilon",
}
SYMBOLS = {
    "−": "-", "–": "-", "·": r"\cdot", "⋅": r"\cdot", "×": r"\times", "∗": "*", "÷": r"\div", "±": r"\pm",
    "∓": r"\mp", "⊕": r"\oplus", "⊗": r"\otimes", "⊙": r"\odot", "∘": r"\circ", "∙": r"\bullet", "≡": r"\equiv",
    "⊆": r"\subseteq", "⊇": r"\supseteq", "≤": r"\leq", "≥": r"\geq", "⩽": r"\leqslant", "⩾": r"\geqslant", "∵": r"\because", "∴": r"\therefore",
    "⪯": r"\preceq", "⪰": r"\succeq", "∼": r"\sim", "≈": r"\approx", "⊂": r"\subset", "⊃": r"\supset",
    "≪": r"\ll", "≫": r"\gg", "≺": r"\prec", "≻": r"\succ", "←": r"\leftarrow", "→": r"\to", "↑": r"\uparrow",
    "↓": r"\downarrow", "↔": r"\leftrightarrow", "≃": r"\simeq", "≅": r"\cong", "⇐": r"\Leftarrow",
    "⇒": r"\Rightarrow", "⇔": r"\Leftrightarrow", "⟵": r"\longleftarrow", "⟶": r"\longrightarrow",
    "⟸": r"\Longleftarrow", "⟹": r"\Longrightarrow", "⟺": r"\Longleftrightarrow", "↦": r"\mapsto",
    "⟼": r"\longmapsto", "↪": r"\hookrightarrow", "↩": r"\hookleftarrow", "↠": r"\twoheadrightarrow",
    "↞": r"\twoheadleftarrow", "⇌": r"\rightleftharpoons", "⇋": r"\leftrightharpoons", "⟂": r"\perp",
    "⇀": r"\rightharpoonup", "⇁": r"\rightharpoondown", "↼": r"\leftharpoonup", "↽": r"\leftharpoondown",
    "∝": r"\propto", "∞": r"\infty", "∈": r"\in", "∋": r"\ni", "∉": r"\notin",
    "∀": r"\forall", "∃": r"\exists", "∄": r"\nexists", "¬": r"\neg", "∅": r"\emptyset", "∪": r"\cup",
    "∩": r"\cap", "∧": r"\wedge", "∨": r"\vee", "⊢": r"\vdash", "⊨": r"\models", "⌊": r"\lfloor",
    "⌋": r"\rfloor", "⌈": r"\lceil", "⌉": r"\rceil", "⟨": r"\langle", "⟩": r"\rangle", "〈": r"\langle",
    "〉": r"\rangle", "‖": r"\|", "∥": r"\|", "∇": r"\nabla", "∂": r"\partial", "ℓ": r"\ell", "ℏ": r"\hbar",
    "∑": r"\sum", "∏": r"\prod", "∐": r"\coprod", "∫": r"\int", "∬": r"\iint", "∭": r"\iiint", "∮": r"\oint",
    "⋃": r"\bigcup", "⋂": r"\bigcap", "⋁": r"\bigvee", "⋀": r"\bigwedge", "⨁": r"\bigoplus",
    "⨂": r"\bigotimes", "⨀": r"\bigodot", "⨄": r"\biguplus", "⨆": r"\bigsqcup", "≠": r"\neq", "…": r"\dots",
    "⋯": r"\cdots", "⋮": r"\vdots", "⋱": r"\ddots", "⊤": r"\top", "⊺": r"\intercal", "⊥": r"\perp",
    "{": r"\{", "}": r"\}", "%": r"\%", "#": r"\#", "&": r"\&", "_": r"\_", "$": r"\$", "⋆": r"\star",
    "★": r"\star", "†": r"\dagger", "‡": r"\ddagger", "ı": r"\imath", "ȷ": r"\jmath", "ℜ": r"\Re", "ℑ": r"\Im",
    "ℵ": r"\aleph", "℘": r"\wp", "♭": r"\flat", "♮": r"\natural", "♯": r"\sharp", "△": r"\triangle",
    "▽": r"\triangledown", "◁": r"\triangleleft", "▷": r"\triangleright", "⊎": r"\uplus", "⊔": r"\sqcup",
    "⊓": r"\sqcap", "⊑": r"\sqsubseteq", "⊒": r"\sqsupseteq", "§": r"\S", "¶": r"\P", "≍": r"\asymp",
    "⊖": r"\ominus", "⊘": r"\oslash", "◯": r"\bigcirc", "⋄": r"\diamond", "≀": r"\wr", "∣": r"\mid",
    "≜": r"\triangleq", "≔": r"\coloneqq", "⊊": r"\subsetneq", "∖": r"\smallsetminus", "⨯": r"\times", "ℕ": r"\mathbb{N}",
    "ℤ": r"\mathbb{Z}", "ℚ": r"\mathbb{Q}", "ℝ": r"\mathbb{R}", "ℂ": r"\mathbb{C}", "ℙ": r"\mathbb{P}",
    "ℍ": r"\mathbb{H}", "′": "'", "″": "''", "‴": "'''", "⃗": r"\vec", "∤": r"\nmid", "≰": r"\nleq",
    "≱": r"\ngeq", "⊈": r"\nsubseteq", "⌣": r"\smile", "⌢": r"\frown", "↼": r"\leftharpoonup",
    "⇀": r"\rightharpoonup", "↽": r"\leftharpoondown", "⇁": r"\rightharpoondown", "⊣": r"\dashv",
    "≺": r"\prec", "⩲": "+", "∶": ":", "∕": "/", "∔": r"\dotplus", "⋉": r"\ltimes", "⋊": r"\rtimes",
    "≲": r"\lesssim", "≳": r"\gtrsim", "⊧": r"\models", "◦": r"\circ", "⧵": r"\setminus", "≦": r"\leqq",
    "≧": r"\geqq", "≐": r"\doteq", "⊲": r"\lhd", "⊳": r"\rhd", "⊏": r"\sqsubset", "⊐": r"\sqsupset",
    "⊩": r"\Vdash", "⊬": r"\nvdash", "≁": r"\nsim", "≇": r"\ncong", "∦": r"\nparallel", "≮": r"\nless",
    "≯": r"\ngtr", "⊋": r"\supsetneq", "↗": r"\nearrow", "↘": r"\searrow", "↖": r"\nwarrow",
    "↙": r"\swarrow", "⇑": r"\Uparrow", "⇓": r"\Downarrow", "↕": r"\updownarrow", "⇕": r"\Updownarrow",
    "↝": r"\leadsto", "∠": r"\angle", "∡": r"\measuredangle", "⊛": r"\circledast", "ℶ": r"\beth",
    "⋈": r"\bowtie", "⊻": r"\veebar", "□": r"\Box", "◇": r"\Diamond", "◊": r"\lozenge", "■": r"\blacksquare",
    "⧫": r"\blacklozenge", "⊡": r"\boxdot", "⊞": r"\boxplus", "⊠": r"\boxtimes", "⊟": r"\boxminus",
    "♢": r"\diamondsuit", "♡": r"\heartsuit", "♠": r"\spadesuit", "♣": r"\clubsuit",
}
BIG_OPERATORS = set("∑∏∐∫∬∭∮⋃⋂⋁⋀⨁⨂⨀⨄⨆")
RELATIONS = {"=", "<", ">", r"\leq", r"\geq", r"\neq", r"\approx", r"\sim", r"\simeq", r"\cong", r"\equiv",
             r"\in", r"\notin", r"\ni", r"\subset", r"\subseteq", r"\supset", r"\supseteq", r"\propto", r"\to",
             r"\leftarrow", r"\Rightarrow", r"\Leftarrow", r"\Leftrightarrow", r"\longleftarrow",
             r"\longrightarrow", r"\Longrightarrow", r"\Longleftarrow", r"\Longleftrightarrow", r"\mid", r"\ll",
             r"\gg", r"\prec", r"\succ", r"\preceq", r"\succeq", r"\mapsto", r"\longmapsto", ":=", r"\perp",
             r"\models", r"\vdash", r"\triangleq", r"\asymp", r"\leftrightarrow", r"\longleftrightarrow", r"\iff", r"\implies", r"\impliedby", r"\gets", r"\coloneqq",
             r"\nleq", r"\ngeq", r"\nmid", r"\not\equiv", r"\subsetneq", r"\uparrow", r"\downarrow", r"\parallel",
             r"\leqslant", r"\geqslant", r"\hookrightarrow", r"\hookleftarrow", r"\twoheadrightarrow",
             r"\twoheadleftarrow", r"\rightleftharpoons", r"\leftrightharpoons", r"\lesssim", r"\gtrsim",
             r"\leqq", r"\geqq", r"\doteq", r"\sqsubset", r"\sqsupset", r"\Vdash", r"\nvdash", r"\nsim",
             r"\ncong", r"\nparallel", r"\nless", r"\ngtr", r"\supsetneq", r"\nearrow", r"\searrow",
             r"\varsubsetneq", r"\varsupsetneq", r"\nsubseteqq", r"\nsupseteqq", r"\subsetneqq", r"\supsetneqq",
             r"\varsubsetneqq", r"\varsupsetneqq", r"\nsubseteq", r"\nsupseteq", r"\nshortmid", r"\nshortparallel",
             r"\nLeftarrow", r"\nRightarrow", r"\nLeftrightarrow", r"\nleftrightarrow",
             r"\nwarrow", r"\swarrow", r"\Uparrow", r"\Downarrow", r"\updownarrow", r"\Updownarrow",
             r"\leadsto", r"\bowtie", r"\eqsim", r"\thicksim", r"\thickapprox", r"\approxeq", r"\succapprox",
             r"\precapprox", r"\curvearrowleft", r"\curvearrowright", r"\backepsilon", r"\shortmid",
             r"\shortparallel"}
BINARIES = {"+", "-", r"\pm", r"\mp", r"\times", r"\cdot", r"\div", r"\cup", r"\cap", r"\wedge", r"\vee",
            r"\oplus", r"\otimes", r"\circ", r"\setminus", "*", r"\star", r"\bullet", r"\smallsetminus", r"\lhd",
            r"\rhd", r"\circledast", r"\veebar", r"\lessdot", r"\gtrdot", r"\ltimes", r"\rtimes"}
TWO_WORD_OPERATORS = {"argmax": r"\operatorname*{arg\,max}", "argmin": r"\operatorname*{arg\,min}",
                      "liminf": r"\liminf", "limsup": r"\limsup", "argsup": r"\operatorname*{arg\,sup}",
                      "arginf": r"\operatorname*{arg\,inf}", "esssup": r"\operatorname*{ess\,sup}",
                      "essinf": r"\operatorname*{ess\,inf}"}
OPENERS = {"(": "(", "[": "[", "{": r"\{", "⟨": r"\langle", "〈": r"\langle", "⌊": r"\lfloor", "⌈": r"\lceil"}
CLOSERS = {")": ")", "]": "]", "}": r"\}", "⟩": r"\rangle", "〉": r"\rangle", "⌋": r"\rfloor", "⌉": r"\rceil"}
FENCES = {"|": "|", "‖": r"\|", "∥": r"\|", "∣": "|", "⏐": "|", "│": "|"}
PAIRS = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "〈": "〉", "⌊": "⌋", "⌈": "⌉", "|": "|", "‖": "‖"}
# Pieces of tall delimiters and radicals (the extension font's), by the delimiter they build.
PIECES = {"⎛": "(", "⎜": "(", "⎝": "(", "⎞": ")", "⎟": ")", "⎠": ")", "⎡": "[", "⎢": "[", "⎣": "[",
          "⎤": "]", "⎥": "]", "⎦": "]", "⎧": "{", "⎨": "{", "⎩": "{", "⎫": "}", "⎬": "}", "⎭": "}",
          "⎪": "⎪", "⏐": "|", "⎮": "|", "⎷": "√", "│": "|", "║": "‖"}
# Accents as TeX prints them: a glyph set above its base (spacing forms and combining marks alike).
ACCENTS = {"ˆ": "hat", "^": "hat", "\u0302": "hat", "˜": "tilde", "~": "tilde", "\u0303": "tilde",
           "¯": "bar", "\u0304": "bar", "ˉ": "bar", "\u0305": "bar", "˙": "dot", "\u0307": "dot", "¨": "ddot",
           "\u0308": "ddot", "ˇ": "check", "\u030c": "check", "˘": "breve", "\u0306": "breve", "´": "acute",
           "\u0301": "acute", "`": "grave", "\u0300": "grave", "⃗": "vec", "\u20d7": "vec", "→": "vec",
           "˚": "mathring", "\u030a": "mathring"}
WIDE = {"hat": "widehat", "tilde": "widetilde", "bar": "overline", "vec": "overrightarrow"}
WIDE_ACCENT = 0.5   # em: a hat or tilde this wide is a wide one (a plain one is a quarter to a third of an em)
# Arrows set over what they span (\overrightarrow{uv}): a relation's arrow read as one glyph, or an
# OpenType maths font's pieces (the shaft's glyphs and the head, U+20D6/U+20D7/U+20E1 in its layer).
OVER_ARROWS = {r"\to": "overrightarrow", r"\longrightarrow": "overrightarrow", r"\leftarrow": "overleftarrow",
               r"\longleftarrow": "overleftarrow", r"\leftrightarrow": "overleftrightarrow",
               r"\longleftrightarrow": "overleftrightarrow"}
# the foot of each extensible delimiter's assembly -> its top hook
PIECE_FEET = {"⎝": "⎛", "⎠": "⎞", "⎣": "⎡", "⎦": "⎤", "⎩": "⎧", "⎭": "⎫"}
ARROW_PIECES = {"\u20d6", "\u20d7", "\u20e1", "\u20d0", "\u20d1"}
PRIMES = {"′": 1, "″": 2, "‴": 3, "'": 1, "’": 1}
DOTS = {".", "·", "⋅", "∙"}


# The letters the maths alphanumerics block leaves to the letterlike symbols (ℓ, ℘, ℜ, ℑ stay symbols).
_LETTERLIKE = {"ℎ": ("it", "h"), "ℬ": ("cal", "B"), "ℰ": ("cal", "E"), "ℱ": ("cal", "F"), "ℋ": ("cal", "H"),
               "ℐ": ("cal", "I"), "ℒ": ("cal", "L"), "ℳ": ("cal", "M"), "ℛ": ("cal", "R"), "ℯ": ("cal", "e"),
               "ℊ": ("cal", "g"), "ℴ": ("cal", "o"), "ℂ": ("bb", "C"), "ℍ": ("bb", "H"), "ℕ": ("bb", "N"),
               "ℙ": ("bb", "P"), "ℚ": ("bb", "Q"), "ℝ": ("bb", "R"), "ℤ": ("bb", "Z"), "ℭ": ("frak", "C"),
               "ℌ": ("frak", "H"), "ℨ": ("frak", "Z")}


@lru_cache(maxsize=None)
def _maths_alphanumeric(ch: str) -> tuple[str, str] | None:
    """A Unicode maths alphanumeric (𝑥, 𝐱, 𝔼, 𝒮, ℎ …) -> (alphabet, plain character), else None."""
    if ch in _LETTERLIKE:
        return _LETTERLIKE[ch]
    if not 0x1D400 <= ord(ch) <= 0x1D7FF:
        return None
    try:
        name = unicodedata.name(ch)
    except ValueError:
        return None
    m = re.match(r"(?:MATHEMATICAL )?(BOLD ITALIC |BOLD SCRIPT |BOLD FRAKTUR |BOLD |ITALIC |SCRIPT |FRAKTUR |"
                 r"DOUBLE-STRUCK ITALIC |DOUBLE-STRUCK |SANS-SERIF BOLD ITALIC |SANS-SERIF BOLD |"
                 r"SANS-SERIF ITALIC |SANS-SERIF |MONOSPACE |BLACK-LETTER )(.*)", name)
    if not m:
        return None
    style = {"BOLD ITALIC ": "bfit", "BOLD SCRIPT ": "cal", "BOLD FRAKTUR ": "frak", "BOLD ": "bf",
             "ITALIC ": "it", "SCRIPT ": "cal", "FRAKTUR ": "frak", "BLACK-LETTER ": "frak",
             "DOUBLE-STRUCK ITALIC ": "bb", "DOUBLE-STRUCK ": "bb", "SANS-SERIF BOLD ITALIC ": "bfsf",
             "SANS-SERIF BOLD ": "bfsf", "SANS-SERIF ITALIC ": "sf", "SANS-SERIF ": "sf", "MONOSPACE ": "tt"}[m.group(1)]
    rest = m.group(2)
    if rest.startswith("DIGIT "):
        digits = {"ZERO": "0", "ONE": "1", "TWO": "2", "THREE": "3", "FOUR": "4", "FIVE": "5", "SIX": "6",
                  "SEVEN": "7", "EIGHT": "8", "NINE": "9"}
        plain = digits.get(rest[6:])
        return (style, plain) if plain else None
    if rest.startswith(("CAPITAL ", "SMALL ")):
        letter = rest.split(" ", 1)[1]
        if len(letter) == 1:
            return style, letter if rest.startswith("CAPITAL") else letter.lower()
        greek = unicodedata.lookup(f"GREEK {'CAPITAL' if rest.startswith('CAPITAL') else 'SMALL'} LETTER "
                                   f"{letter.replace('FINAL SIGMA', 'FINAL SIGMA')}") if not letter.endswith(
            ("SYMBOL", "NABLA", "PARTIAL DIFFERENTIAL")) else None
        return (style, greek) if greek else None
    variants = {"EPSILON SYMBOL": "ϵ", "THETA SYMBOL": "ϑ", "KAPPA SYMBOL": "ϰ", "PHI SYMBOL": "ϕ",
                "RHO SYMBOL": "ϱ", "PI SYMBOL": "ϖ", "NABLA": "∇", "PARTIAL DIFFERENTIAL": "∂",
                "CAPITAL THETA SYMBOL": "ϴ"}
    plain = variants.get(rest)
    return (style, plain) if plain else None


FORMAL_SCRIPT = "(FORMALSCRIPT)"   # a script font's name ends so where it prints \mathscr (build_math)
BODY_FACE = "(BODY)"               # ... and a sans face's where it is the book's own text face (build_math)


def is_script_capital(ch: str) -> bool:
    """A Unicode maths script capital (𝒜, ℬ …): what an OpenType maths font prints for \\mathcal."""
    found = _maths_alphanumeric(ch)
    return found is not None and found[0] == "cal" and found[1].isupper()


@lru_cache(maxsize=4096)
def font_alphabet(font: str, italic: bool, bold: bool = False) -> str:
    """A font's alphabet for the letters it prints in a formula: 'it' (maths italic, a variable),
    'up' (upright), 'bf' (bold upright), 'bfit' (bold italic), 'bb', 'ds', 'bbm' (blackboard: amssymb's,
    dsfont's, bbm's), 'cal' (the capitals of a symbol or script font), 'scr' (a script font marked as
    the book's \\mathscr), 'frak', 'sf', 'tt', or 'ext' (an extension font)."""
    name = font.upper()
    compact = re.sub(r"[-_ ]", "", name)     # families write "Math-Cal", "MathCal", "Math_Cal"
    if re.search(r"CMEX|MATHEXTENSION|^TXEX|^PXEX|^Z?EUEX|ESINT|EXTENSION", name):
        return "ext"
    if re.search(r"^DSROM|^DSSS|^DSTT", name):
        return "ds"      # dsfont's double-struck letters and digits: \mathds, an indicator's 1
    if re.search(r"^BBM", name):
        return "bbm"     # the bbm fonts: \mathbbm
    # (the AMS "symbol B" font and its successors: msbm, txsyb, pxsyb, kpfonts' Kp--M-Syb)
    # (MathJax's and KaTeX's copies of TeX's fonts hold the AMS symbols and blackboard letters in one,
    # "MathJax_AMS", "KaTeX_AMS")
    if re.search(r"MSBM|BLACKBOARD|BBOLD|DOUBLESTRUCK|TXSYB|PXSYB|JKPSYB|(?<![A-Z])SYB(?![A-Z])|(?:MATHJAX|KATEX)_AMS",
                 name):
        return "bb"
    if re.search(r"EUFM|EUFB|FRAKTUR|YFRAK|GOTH", name):
        return "frak"
    if FORMAL_SCRIPT in compact:
        return "scr"     # the formal script beside the book's own calligraphic capitals (build_math.mark_formal_script)
    # (a font named as a symbol font, "MnSymbol10" as TeX's "cmsy10", prints calligraphic capitals;
    # KaTeX spells its calligraphic font "Caligraphic")
    if re.search(r"^CMB?SY|MATHSYMBOLS|^TXSYS|^PXSYS|^TXSYA|^PXSYA|^[TP]XSY$|RSFS|EUSM|EUSB|SCRIPT|CALL?IGR|^ZSCR|MATHCAL|"
                 r"SYMBOLS?\d*$", compact):
        return "cal"
    if re.search(r"MONO|^CMTT|COURIER|^TXTT|^T1XTT|TYPEWRITER|CODE", name):
        return "tt"
    # the name's weight word only: producers flag regular maths and symbol fonts bold (a heavy stem
    # width, a guessed weight), and a bold maths font says so in its name
    # (TeX's font names say "bx" for bold extended and "mb" for maths bold: cmbx12, hfbrbx10, hfbrmb10;
    # txfonts' and pxfonts' a "b" after the family: rtxb, the bold upright Greek of \bm{\Sigma})
    is_bold = bool(re.search(r"BOLD|^CMBX|^CMMIB|^CMBSY|^EURB|MEDI\b|MEDIITAL|SEMIBOLD|DEMI|BLACK|HEAVY|BMI|-BD\b|-BOL\b|MEDIUM|"
                             r"[A-Z]{2}(?:BX|MB)\d{1,2}$|^R?[TP]XB", name)) or (bold and not name)
    # (a nameless font, a Type 3 font of bitmaps, has no flags: its weight is the one its strokes
    # measured, build_glyphs.weigh_nameless_fonts)
    if re.search(r"^CMSS|SANS|HELVETICA|ARIAL|^LMSANS|^SF-|^SFS[SXIO]\d|^NIMBUSSAN", name) and "MATH" not in name \
            and BODY_FACE not in compact:
        # (a bold sans face, \bm{\mathsf{K}}: TeX's cmssbx10, a sans family's Bold)
        return "bfsf" if is_bold else "sf"
    # (Euler's roman is a maths font's letters, upright as drawn but variables all the same)
    is_italic = italic or bool(re.search(r"ITAL|OBLIQUE|^CMMI|MATHITALIC|MI\d*(_GNU)?$|-IT$|SLANT|^CMSL|^CMTI|^EUR[MB]", name))
    if is_bold:
        return "bfit" if is_italic else "bf"
    return "it" if is_italic else "up"


@lru_cache(maxsize=4096)
def web_maths_font(font: str) -> bool:
    """A font of a web page's maths engine (MathJax, KaTeX; Skia names each "MathJax_Main-Regular",
    "KaTeX_Math-Italic"): the engine sets `\\text{…}` in its own roman, as it sets an operator's name,
    and its authors write a bold symbol `\\boldsymbol` (MathJax knows no `\\bm` unless told)."""
    return bool(re.match(r"(?:[A-Z]{6}\+)?(?:MathJax|KaTeX)_", font))


@lru_cache(maxsize=4096)
def is_maths_font(font: str) -> bool:
    """A font only formulas use: TeX's maths italic, symbol, extension and AMS fonts, their
    Type 1 and OpenType successors."""
    if re.fullmatch(r"[a-z]{2,8}B?MI", font):
        return True     # newtxmath's maths italic for a text family it was told to match (ebgMI, cochMI)
    name = font.upper()
    if re.search(r"^CMMI|^CMB?SY|^CMEX|^MSAM|^MSBM|^EUFM|^EUSM|^RSFS|MATH|^TXSY|^PXSY|^TXEX|^PXEX|^NEWTXMI|"
                 r"^NEWPXMI|^NEWTXBMI|^NEWPXBMI|^TXMIA|^PXMIA|^TXBMIA|^PXBMIA|^ZPLM|^ZTMCM|STANDARDSYM|^SYMBOL|"
                 r"^ESINT|^STMARY|^WASY|^EUR[MB]\d", name):
        return True
    return bool(re.search(r"MATHITALIC|MATHSYMBOL|MATHEXTENSION|PAZOMATH", name))


# --------------------------------------------------------------------------- glyphs
"""Glyphs: each printed character with its font, size, origin and exact ink box."""


@dataclass(eq=False)
class Node:
    """A glyph or a structure built from glyphs: its ink box, baseline and size, its LaTeX parts."""

    kind: str                 # sym, word, frac, root, op, accent, line, delim, matrix, cases, script, space
    x0: float
    x1: float
    top: float
    bottom: float
    base: float               # the baseline it stands on (a tall glyph: its axis-centred baseline)
    size: float
    ch: str = ""              # a glyph's character (maths alphanumerics already plain)
    tex: str = ""             # a leaf's LaTeX
    style: str = "up"         # alphabet: it, up, bf, bfit, bb, ds, bbm, cal, scr, frak, sf, tt, ext
    role: str = "ord"         # ord, op, rel, bin, open, close, fence, punct, accent, piece, radical, prime, dot,
                              # unknown (a private-use code, until _drawn_radicals)
    font: str = ""
    adv0: float = 0.0         # the advance box (origin to origin + advance): spaces are gaps between these
    adv1: float = 0.0
    parts: dict = field(default_factory=dict)

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def height(self) -> float:
        return self.bottom - self.top


_DOUBLE_STRUCK = {"bb": r"\mathbb", "ds": r"\mathds", "bbm": r"\mathbbm"}   # by the font that prints them


def _char_tex(ch: str, style: str) -> str:
    """A single character's LaTeX in an alphabet."""
    if ch in GREEK:
        tex = GREEK[ch]
        return rf"\bm{{{tex}}}" if style in ("bf", "bfit", "bfsf") else tex
    if ch.isascii() and ch.isalpha():
        return {"it": ch, "up": rf"\mathrm{{{ch}}}", "bf": rf"\mathbf{{{ch}}}", "bfit": rf"\bm{{{ch}}}",
                "bb": rf"\mathbb{{{ch}}}", "ds": rf"\mathds{{{ch}}}", "bbm": rf"\mathbbm{{{ch}}}",
                "cal": rf"\mathcal{{{ch}}}" if ch.isupper() else ch,
                "scr": rf"\mathscr{{{ch}}}" if ch.isupper() else ch,
                "frak": rf"\mathfrak{{{ch}}}", "sf": rf"\mathsf{{{ch}}}", "bfsf": rf"\bm{{\mathsf{{{ch}}}}}",
                "tt": rf"\mathtt{{{ch}}}"}.get(style, ch)
    if ch.isdigit():
        if style == "bfsf":
            return rf"\bm{{\mathsf{{{ch}}}}}"
        return rf"\mathbf{{{ch}}}" if style in ("bf", "bfit") else (rf"{_DOUBLE_STRUCK[style]}{{{ch}}}"
                                                                     if style in _DOUBLE_STRUCK else ch)
    if ch in ("ℓ", "∂", "∇") and style in ("bf", "bfit"):
        return rf"\bm{{{SYMBOLS[ch]}}}"
    if ch == "\\" and style != "tt":
        return r"\backslash"      # the symbol font's backslash; spaced as a binary operator, \setminus
    if ch == "∅" and style == "bb":
        return r"\varnothing"     # the AMS symbol font's empty set (the round one is \emptyset, in the symbol font)
    return SYMBOLS.get(ch, ch)


def _role(ch: str, tex: str) -> str:
    if ch in BIG_OPERATORS:
        return "op"
    if ch in PIECES:
        return "piece"
    if ch in ("√", "⎷"):
        return "radical"
    if ch in OPENERS:
        return "open"
    if ch in CLOSERS:
        return "close"
    if ch in FENCES:
        return "fence"
    if ch in PRIMES:
        return "prime"
    if ch in ACCENTS and ch not in "^~→":
        return "accent"
    if ch in DOTS:
        return "dot"
    if tex in RELATIONS:
        return "rel"
    if tex in BINARIES:
        return "bin"
    if ch in ",;:!?":
        return "punct"
    return "ord"


_X_HEIGHT = set("acemnorsuvwxzgpqy.,:;-=+−")   # letters whose ink tops out at the x-height (descenders too)
_DESCENDERS = set("gjpqy,;()[]{}|")
# spacing accents a text face prints beside a name (\mathrm{Tr}\hat\rho sets the hat in the run of "Tr"):
# their ink is above the x-height, where the accented letter's top is
_SPACING_ACCENTS = set("ˆ˜¯˙¨´˘ˇ˚")
_LIGATURES = {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}


def _one_glyph_ellipsis(chars: list, boxes) -> tuple[list, object]:
    """Three periods sharing one glyph's box are that glyph, an ellipsis (a font's own ellipsis glyph,
    which the text layer maps to three periods), not three glyphs to split it between."""
    if len(chars) < 3 or "." not in chars:
        return chars, boxes
    out_chars, out_boxes = [], []
    k = 0
    while k < len(chars):
        if chars[k:k + 3] == [".", ".", "."] and boxes[6 * k:6 * k + 6] == boxes[6 * k + 6:6 * k + 12] \
                == boxes[6 * k + 12:6 * k + 18]:
            out_chars.append("…")
            out_boxes += boxes[6 * k:6 * k + 6]
            k += 3
            continue
        out_chars.append(chars[k])
        out_boxes += boxes[6 * k:6 * k + 6]
        k += 1
    return out_chars, out_boxes


def _spread_shared(boxes, count: int) -> list:
    """Characters that share one glyph's box (a ligature the PDF maps to its letters) get equal
    shares of it, side by side."""
    out = list(boxes)
    k = 0
    while k < count:
        m = k + 1
        while m < count and out[6 * m:6 * m + 6] == out[6 * k:6 * k + 6]:
            m += 1
        if m - k > 1:
            a0, a1, top, bottom, i0, i1 = out[6 * k:6 * k + 6]
            n = m - k
            for j in range(n):
                out[6 * (k + j):6 * (k + j) + 6] = (a0 + (a1 - a0) * j / n, a0 + (a1 - a0) * (j + 1) / n, top, bottom,
                                                    i0 + (i1 - i0) * j / n, i0 + (i1 - i0) * (j + 1) / n)
        k = m
    return out


def glyphs_of(words) -> list[Node]:
    """Every glyph of build_glyphs Words as a leaf Node, with its exact boxes where the glyph layer
    kept them (else its share of its run's box)."""
    out: list[Node] = []
    for w in words:
        for s in (w.spans or [None]):
            if s is None:
                text, size, font, italic, bold = w.raw or w.text, w.size, w.font, w.italic, w.bold
                base = w.baseline
                boxes = w.boxes if w.boxes is not None and len(w.boxes) == 6 * len(text) else None
            else:
                text, size, font, italic, bold = s.raw or s.text, s.size, s.font.name, s.font.italic, s.font.bold
                base = s.baseline
                boxes = s.boxes if s.boxes is not None and len(s.boxes) == 6 * len(text) else None
            chars = list(text)
            if not chars:
                continue
            alphabet = font_alphabet(font, italic, bold)
            if (s.overprinted if s is not None else w.overprinted) and alphabet in ("it", "up"):
                alphabet = "bfit" if alphabet == "it" else "bf"      # a poor man's bold
            if boxes is None:
                # a run the glyph layer kept no boxes for (a word of a text face): equal shares of its
                # width, and the ink a letter of its shape has
                r = s if s is not None else w
                step = (r.x1 - r.x0) / len(chars)
                boxes = []
                for k, ch in enumerate(chars):
                    a, b = r.x0 + k * step, r.x0 + (k + 1) * step
                    top = base - size * (0.45 if ch in _X_HEIGHT else 0.7)
                    bottom = base - size * 0.5 if ch in _SPACING_ACCENTS else \
                        base + (size * 0.2 if ch in _DESCENDERS else 0.0)
                    # (an accent's ink is a third of an em wide, in the middle of its share: no wide accent)
                    ink = ((a + b) / 2 - size * 0.15, (a + b) / 2 + size * 0.15) if ch in _SPACING_ACCENTS else (a, b)
                    boxes += (a, b, top, bottom, *ink)
            chars, boxes = _one_glyph_ellipsis(chars, boxes)
            boxes = _spread_shared(boxes, len(chars))
            for k, ch in enumerate(chars):
                if ch.isspace():
                    continue
                # (a private-use code nothing says the meaning of: kept for its place alone, _drawn_radicals)
                unknown = "\ue000" <= ch <= "\uf8ff"
                adv0, adv1, top, bottom, ix0, ix1 = boxes[6 * k:6 * k + 6]
                if ix1 - ix0 < 0.01 or bottom - top < 0.01:      # no ink reported: use the advance box
                    ix0, ix1 = adv0, adv1
                    top, bottom = (top, bottom) if bottom - top >= 0.01 else (base - size * 0.7, base)
                letters = _LIGATURES.get(ch)
                if letters:          # a ligature glyph prints several letters: each its share of it
                    step, istep = (adv1 - adv0) / len(letters), (ix1 - ix0) / len(letters)
                    for m, letter in enumerate(letters):
                        out.append(_leaf(letter, font, alphabet, size, ix0 + m * istep, ix0 + (m + 1) * istep, top,
                                         bottom, base, adv0 + m * step, adv0 + (m + 1) * step))
                    continue
                out.append(_leaf(ch, font, alphabet, size, ix0, ix1, top, bottom, base, adv0, adv1))
                if unknown:
                    out[-1].role, out[-1].tex = "unknown", ""
    return out


# Characters the text layer may give for a glyph that has a maths twin (a font naming its angle
# brackets "angleleft" maps them to the CJK brackets; another's ToUnicode to the deprecated technical ones)
_TWINS = {"\u3008": "⟨", "\u3009": "⟩", "\u2329": "⟨", "\u232a": "⟩"}


# Greek capitals that are drawn as Latin ones: LaTeX has no command for them, so in a formula they are
# the Latin letters a font's map gave a Greek code (Garamond-Math maps its X to Χ), variables.
_LATIN_LOOKALIKES = dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΧ", "ABEZHIKMNOPTX"))


# The AMS blackboard font (MSBM) holds no punctuation: its slots 0x21-0x2F and 0x3A-0x40 are negated
# and strict relations (amssymb declares \\subsetneq at 0x28), which a text layer without a map reads
# as the characters of those codes ("(" for \\subsetneq, "*" for \\nsubseteq) ...
_MSBM_LOWER = dict(zip(map(chr, [*range(0x21, 0x30), *range(0x3A, 0x41)]), (
    r"\varsupsetneq", r"\nsubseteqq", r"\nsupseteqq", r"\subsetneqq", r"\supsetneqq", r"\varsubsetneqq",
    r"\varsupsetneqq", r"\subsetneq", r"\supsetneq", r"\nsubseteq", r"\nsupseteq", r"\nparallel", r"\nmid",
    r"\nshortmid", r"\nshortparallel", r"\nLeftarrow", r"\nRightarrow", r"\nLeftrightarrow", r"\nleftrightarrow",
    r"\divideontimes", r"\varnothing", r"\nexists")))
# ... nor lower-case letters: its slots 0x60-0x7F are symbols too (\\smallsetminus at 0x72)
_MSBM_LOWER.update(zip("`aghijklmnopqrstuvwxyz{|}~\x7f", (
    r"\Finv", r"\Game", r"\eth", r"\eqsim", r"\beth", r"\gimel", r"\daleth", r"\lessdot", r"\gtrdot", r"\ltimes",
    r"\rtimes", r"\shortmid", r"\shortparallel", r"\smallsetminus", r"\thicksim", r"\thickapprox", r"\approxeq",
    r"\succapprox", r"\precapprox", r"\curvearrowleft", r"\curvearrowright", r"\digamma", r"\varkappa", r"\Bbbk",
    r"\hslash", r"\hbar", r"\backepsilon")))


# The AMS symbol font A (MSAM) holds one diamond, \Diamond (\lozenge), at 0x06: its glyph is named
# "diamond", which the Adobe list reads as the suit's black diamond, and other maps as the white one.
_MSAM_DIAMONDS = set("♦♢◊◇")


def _leaf(ch, font, alphabet, size, x0, x1, top, bottom, base, adv0, adv1) -> Node:
    ch = _TWINS.get(ch, ch)
    if ch in _MSAM_DIAMONDS and "MSAM" in font.upper():
        ch = "◇"
    if ch in _MSBM_LOWER and "MSBM" in font.upper():
        tex = _MSBM_LOWER[ch]
        node = Node("sym", x0, x1, top, bottom, base, size, ch=ch, tex=tex, style="up", font=font, adv0=adv0,
                    adv1=adv1)
        node.role = "rel" if tex in RELATIONS else "bin" if tex in BINARIES else "ord"
        return node
    if ch in _LATIN_LOOKALIKES:
        ch, alphabet = _LATIN_LOOKALIKES[ch], ("it" if alphabet == "up" else alphabet)
    style = alphabet
    plain = _maths_alphanumeric(ch)
    if plain is not None:
        style, ch = plain
        ch = _LATIN_LOOKALIKES.get(ch, ch)
        if style in ("cal", "scr") and ch == "l":
            style, ch = "it", "ℓ"     # a script small l is \ell (a font may name its ℓ so: STIX Two's Type 1)
    elif alphabet in ("cal", "scr") and ch.isascii() and ch.isalpha() and ch.islower():
        style = "it"
    extension = style == "ext"
    if extension:
        style = "up"
    tex = _char_tex(ch, style)
    if plain is not None and style == "bfit" and ch.isascii() and ch.isalpha() and ISO_STYLE.get():
        tex = rf"\mathbf{{{ch}}}"     # a book in ISO style sets \mathbf's letters bold italic
    if tex.startswith(r"\bm{") and web_maths_font(font):
        tex = r"\boldsymbol" + tex[3:]
    if plain is not None and style == "bf" and ch in GREEK and alphabet not in ("bf", "bfit") and ch.isupper():
        # an OpenType maths font (one regular font holding every alphabet) tells upright bold Greek
        # (\mathbf, \symbf) from bold italic; a bold Type 1 font's Greek stays \bm, as the class of
        # the user's book writes it (\bm{\Sigma} prints upright there).  Small letters stay \bm: a
        # classic \mathbf leaves small Greek unbolded, so books write a bold \beta with \bm (or a
        # macro of their own made of it, as the user's class's \vect is)
        tex = rf"\mathbf{{{GREEK[ch]}}}"
    node = Node("sym", x0, x1, top, bottom, base, size, ch=ch, tex=tex, style=style, font=font, adv0=adv0,
                adv1=adv1)
    if extension:
        node.parts["ext"] = True
    node.role = _role(ch, tex)
    if alphabet == "ext" and ch in ("^", "~"):
        node.role = "accent"       # the extension font's wide hat and tilde
    hung = ("op", "open", "close", "fence", "piece", "radical", "accent")
    if extension and node.role in hung or node.role in hung[:6] and node.height > size * 1.15:
        # a tall glyph hangs from its origin (TeX's extension font) or straddles the axis: its own
        # baseline is the one its middle sits a quarter em above (an extension font's ordinary
        # symbol, Euler's ∞, stands on its baseline like any other)
        node.base = node.cy + size * 0.25
    return node


# --------------------------------------------------------------------------- assembly
"""Assembly: glyphs that print one symbol together (delimiter pieces, dots, negations, long arrows)."""


def _assemble(nodes: list[Node]) -> list[Node]:
    nodes = _blackboard_digits(nodes)
    nodes = _arrow_pieces(nodes)
    nodes = _stacked_harpoons(nodes)
    nodes = _pieces(nodes)
    _tall_divides(nodes)
    nodes = _negations(nodes)
    nodes = _stacked_relations(nodes)
    _set_minus(nodes)
    nodes = _dot_runs(nodes)
    nodes = _joined_arrows(nodes)
    nodes = _multiple_integrals(nodes)
    return nodes


def _fixed_size(delimiter: Node, content: list[Node], size: float) -> str | None:
    """The fixed size (\\big, \\Big, …) of a delimiter TeX's \\left could not have given the content it
    holds, None where it could: \\left takes the smallest size that covers 0.901 of twice the content's
    reach from the maths axis, or all of it less 5 pt (\\delimiterfactor, \\delimitershortfall), so a
    delimiter well shorter or well taller than that was sized by hand."""
    name = next((name for least, name in BIG_SIZES if delimiter.height >= delimiter.size * least), None)
    if name is None or not content or delimiter.height > delimiter.size * LARGEST_FIXED:
        return None       # (taller than \Bigg: built of pieces to \left's measure)
    axis = delimiter.cy
    reach = max(max(axis - n.top, n.bottom - axis) for n in content)
    wanted = max(2 * reach * 0.901, 2 * reach - 5.0 * size / 10)
    if delimiter.height < wanted - size * FIXED_SIZE_MARGIN or delimiter.height > wanted + size * FIXED_SIZE_MARGIN * 2:
        return name
    return None


LARGEST_FIXED = 3.3       # em: \Bigg is 3 em; a delimiter taller still was grown by \left
FIXED_SIZE_MARGIN = 0.3   # em: a delimiter this much shorter than \left's, or twice this taller, was sized by hand


def _tall_divides(nodes: list[Node]) -> None:
    """A bar a size taller than the text that the font's Unicode map calls U+2223 (DIVIDES, \\mid's
    code point) is a size variant of the delimiter bar (\\bigl\\lvert), whose spacing says the rest."""
    for n in nodes:
        if n.kind == "sym" and n.ch == "∣" and n.tex == r"\mid" and n.height > n.size * 1.15:
            n.tex = "|"


_HARPOON_PAIRS = {("⇀", "↽"): "⇌", ("↼", "⇁"): "⇋"}


def _stacked_harpoons(nodes: list[Node]) -> list[Node]:
    """Two harpoons one over the other in one column are one sign (TeX builds \\rightleftharpoons
    so: ⇀ over ↽)."""
    upper = [n for n in nodes if n.kind == "sym" and n.ch in ("⇀", "↼")]
    if not upper:
        return nodes
    gone: set[int] = set()
    for up in upper:
        low = next((n for n in nodes if (up.ch, n.ch) in _HARPOON_PAIRS and id(n) not in gone
                    and abs(n.cx - up.cx) < up.size * 0.2 and 0 <= n.top - up.bottom < up.size * 0.4), None)
        if low is None:
            continue
        ch = _HARPOON_PAIRS[(up.ch, low.ch)]
        up.ch, up.tex, up.role = ch, SYMBOLS[ch], "rel"
        up.bottom, up.base = low.bottom, low.base
        gone.add(id(low))
    return [n for n in nodes if id(n) not in gone]


def _arrow_pieces(nodes: list[Node]) -> list[Node]:
    """An arrow stretched over what it spans is drawn in pieces end to end at one height (an OpenType
    maths font's shaft glyphs and its head): one arrow accent, pointing where its head is."""
    pieces = sorted((n for n in nodes if n.kind == "sym" and n.ch in ARROW_PIECES), key=lambda n: n.x0)
    if len(pieces) < 2:
        return nodes
    runs: list[list[Node]] = []
    for n in pieces:
        last = runs[-1][-1] if runs else None
        if last is not None and n.x0 <= last.x1 + n.size * 0.1 and abs(n.cy - last.cy) < n.size * 0.15:
            runs[-1].append(n)
        else:
            runs.append([n])
    gone: set[int] = set()
    made: list[Node] = []
    for run in runs:
        if len(run) < 2:
            continue
        right, left = run[-1].ch in ("\u20d7", "\u20e1", "\u20d1"), run[0].ch in ("\u20d6", "\u20e1", "\u20d0")
        ch = "↔" if right and left and run[-1].ch == "\u20e1" else "→" if right else "←"
        x0, x1, top, bottom = _box(run)
        node = Node("sym", x0, x1, top, bottom, run[0].base, run[0].size, ch=ch,
                    tex={"→": r"\to", "←": r"\leftarrow", "↔": r"\leftrightarrow"}[ch], role="accent",
                    font=run[0].font, adv0=run[0].adv0, adv1=run[-1].adv1, parts={"pieces": True})
        gone.update(id(n) for n in run)
        made.append(node)
    return [n for n in nodes if id(n) not in gone] + made


def _multiple_integrals(nodes: list[Node]) -> list[Node]:
    """Integral signs of one size whose inks overlap are one multiple integral: amsmath sets \\iint
    and \\iiint as signs kerned into each other where \\int\\int keeps a space between them."""
    signs = sorted((n for n in nodes if n.kind == "sym" and n.ch == "∫"), key=lambda n: n.x0)
    if len(signs) < 2:
        return nodes
    gone: set[int] = set()
    runs: list[list[Node]] = []
    for n in signs:
        last = runs[-1][-1] if runs else None
        if last is not None and n.x0 < last.x1 and abs(n.base - last.base) < n.size * 0.1 and \
                abs(n.height - last.height) < n.size * 0.1:
            runs[-1].append(n)
        else:
            runs.append([n])
    for run in runs:
        if 2 <= len(run) <= 3:
            keep = run[-1]
            keep.tex, keep.ch = (r"\iint", "∬") if len(run) == 2 else (r"\iiint", "∭")
            keep.x0, keep.adv0 = run[0].x0, run[0].adv0
            gone.update(id(n) for n in run[:-1])
    return [n for n in nodes if id(n) not in gone]


COLUMN_SLACK = 0.2   # pt: two glyphs stand in one column


def _pieces(nodes: list[Node]) -> list[Node]:
    """Pieces of a tall delimiter or radical stacked in one column become one glyph of their height."""
    out: list[Node] = []
    stacks: list[Node] = []
    for n in sorted(nodes, key=lambda n: n.top):
        target = PIECES.get(n.ch)
        extensible = n.role in ("piece", "fence", "radical", "open", "close")
        if target is None and not extensible:
            out.append(n)
            continue
        for s in stacks:
            kind = s.parts["stack"]
            same = kind == (target or n.ch) or target == "⎪" or kind == "⎪" or {kind, target} == {"√", "|"} \
                or (kind == "|" and target is None and n.role == "radical")
            if not (target or n.parts.get("ext") or n.height > n.size * 1.15):
                # an ordinary delimiter glyph joins only its own kind, touching it in its very column:
                # within the stack's width or on one of its edges (OpenType fonts assemble tall
                # delimiters from pieces that map to the delimiter itself, a brace's extenders
                # under its hooks; a matrix cell's own ")" beside its tall one is no piece of it)
                tolerance = n.size * 0.1
                same = kind == n.ch and (s.x0 - tolerance <= n.x0 and n.x1 <= s.x1 + tolerance
                                         or min(abs(s.x0 - n.x0), abs(s.x1 - n.x1)) < tolerance)
            if same and target is None and kind == n.ch and s.parts["count"] == 1 and \
                    abs((s.x1 - s.x0) - (n.x1 - n.x0)) < n.size * 0.02 and abs(s.x0 - n.x0) >= n.size * 0.1:
                # one glyph twice, shifted sideways (\min\bigl\{ over \max\bigl\{ on the next row, a 12 pt
                # class's \bigl a little over 1.15 em tall): an assembly repeats a piece in one column
                same = False
            # stacked: overlapping in x, the new piece below the stack (touching it, not beside it); or
            # the same glyph again in the very column, a little lower: an OpenType assembly whose pieces
            # overlap by most of their height (a \bigl| only a little taller than the bar)
            column = n.ch == s.ch and abs(n.x0 - s.x0) < COLUMN_SLACK and abs(n.x1 - s.x1) < COLUMN_SLACK and \
                n.top - s.top > n.height * 0.05
            # (or the foot of a stack that has its top hook and no foot yet, in its very column, however
            # far below: a browser draws the extender between them by stretching one glyph, which the
            # glyph layer drops, build_glyphs._page_spans)
            awaited = same and n.ch in PIECE_FEET and PIECE_FEET[n.ch] in s.parts["chars"] and \
                not s.parts["chars"] & PIECE_FEET.keys() and abs(n.x0 - s.x0) < COLUMN_SLACK
            if same and min(s.x1, n.x1) - max(s.x0, n.x0) > -n.size * 0.1 and (n.top <= s.bottom + n.size * 0.15 \
                    and (n.cy > s.bottom - n.height * 0.3 or column) or awaited):
                s.top, s.bottom = min(s.top, n.top), max(s.bottom, n.bottom)
                s.x0, s.x1 = min(s.x0, n.x0), max(s.x1, n.x1)
                if kind in ("⎪", "|") and (target not in (None, "⎪", "|") or n.role == "radical"):
                    s.parts["stack"] = target or "√"
                s.parts["count"] += 1
                s.parts["chars"].add(n.ch)
                break
        else:
            n.parts["stack"] = target or n.ch
            n.parts["count"] = 1
            n.parts["chars"] = {n.ch}
            stacks.append(n)
            out.append(n)
    for s in stacks:
        ch = s.parts.pop("stack")
        chars = s.parts.pop("chars")
        # a bracket of its top corner and straight pieces down to its foot may be a ceiling (TeX
        # repeats the straight piece to the other end), or the top of a bracket a display's split cut
        # (_delimited decides, by what the pair holds); a floor's shape is too often a cut bracket's
        # foot (the text layer's split puts the top corner with the line above) to be read as one
        for top, middle, bottom in (("⎡", "⎢", "⎣"), ("⎤", "⎥", "⎦")):
            if middle in chars and top in chars and bottom not in chars and s.parts["count"] >= 3:
                s.parts["corner"] = "top"
        if s.parts.pop("count") == 1 and ch == s.ch:
            continue
        if ch == "⎪":
            ch = "{"
        if ch != s.ch:
            s.ch = ch
            s.tex = _char_tex(ch, "up")
            s.role = _role(ch, s.tex)
        if s.height > s.size * 1.15 and s.role in ("open", "close", "fence", "op", "radical"):
            s.base = s.cy + s.size * 0.25
    return out


# The AMS blackboard font (MSBM, and those laid out after it) has no digits: its slots 0x30-0x39 hold
# negated relations, and `\mathbb{1}` (an indicator) prints the one at slot 0x31.  Set as an ordinary
# symbol (no relation's thick spaces around it) such a glyph is the digit the author asked for.
_MSBM_DIGIT_SLOTS = {"⊬": "0", "⊮": "1", "⊭": "2", "⊯": "3", "⋭": "4", "⋬": "5", "⋪": "6", "⋫": "7",
                     "↚": "8", "↛": "9"}


def _blackboard_digits(nodes: list[Node]) -> list[Node]:
    for n in nodes:
        digit = _MSBM_DIGIT_SLOTS.get(n.ch)
        if digit is None or font_alphabet(n.font, False) != "bb":
            continue      # (msbm and the fonts laid out as it is: newtx's txsyb, newpx's pxsyb)
        after = [m.adv0 - n.adv1 for m in nodes if m is not n and abs(m.base - n.base) < n.size * 0.3
                 and m.adv0 >= n.adv1 - 0.5]
        if after and min(after) < n.size * 0.2:       # no thick space after it: an ordinary symbol
            n.ch, n.style, n.tex, n.role = digit, "bb", rf"\mathbb{{{digit}}}", "ord"
    return nodes


def _negations(nodes: list[Node]) -> list[Node]:
    """A slash laid over a relation negates it (TeX's \\not): ≠, ∉, \\not\\equiv."""
    slashes = [n for n in nodes if n.ch in ("\u0338", "̸", "/")]
    if not slashes:
        return nodes
    gone = set()
    for sl in slashes:
        # the symbol font's negation slash sits over its relation; LaTeX's \notin overlays an ordinary
        # "/" from a text or maths italic font, which then lies within the relation's ink
        negation = sl.ch != "/" or sl.style == "cal"
        # (an OpenType font's combining slash has a box of its own height: it is matched by the
        # relation's middle lying within it, its baseline being no baseline)
        target = min((n for n in nodes if n is not sl and n.role == "rel" and abs(n.cx - sl.cx) < n.size * 0.45
                      and (abs(n.base - sl.base) < n.size * 0.3 or (negation and sl.top <= n.cy <= sl.bottom))
                      and (negation or (n.x0 - 0.3 <= sl.x0 and sl.x1 <= n.x1 + 0.3))),
                      key=lambda n: abs(n.cx - sl.cx), default=None)
        if target is None:
            if sl.ch != "/":
                gone.add(id(sl))
            continue
        bar = _models_bar(nodes, target) if target.tex == "=" else None
        if bar is not None:     # \models is a bar joined to an equals sign: the slash stands over the pair
            target.tex, target.x0, target.adv0 = r"\models", bar.x0, min(bar.adv0, target.adv0)
            gone.add(id(bar))
        target.tex = {"=": r"\neq", r"\in": r"\notin", r"\equiv": r"\not\equiv", r"\leq": r"\nleq",
                      r"\geq": r"\ngeq", r"\subseteq": r"\nsubseteq", r"\mid": r"\nmid"}.get(target.tex,
                                                                                       r"\not" + target.tex)
        target.x0, target.x1 = min(target.x0, sl.x0), max(target.x1, sl.x1)
        gone.add(id(sl))
    return [n for n in nodes if id(n) not in gone]


def _models_bar(nodes: list[Node], sign: Node) -> Node | None:
    """The bar TeX joins to an equals sign to make \\models (\\joinrel: the two overlap), if any."""
    return next((n for n in nodes if n.tex == "|" and abs(n.base - sign.base) < sign.size * 0.3
                 and sign.x0 - n.x1 <= sign.size * 0.12 and n.x0 < sign.x0
                 and min(n.adv1, sign.adv1) - max(n.adv0, sign.adv0) >= sign.size * 0.1), None)


# Relations TeX builds by stacking one sign over another of the same size (plain TeX's \\cong is \\sim
# set over =, \\doteq a dot over =); fonts with a glyph of their own print that instead.
_STACKED = {(r"\sim", "="): r"\cong", (".", "="): r"\doteq", (r"\cdot", "="): r"\doteq"}
DOT_OVER_SCRIPT = 2.1   # the text size over the second-level script size (TeX's 10pt over 5pt), and a margin


SCRIPT_SIZE = 0.85   # of the row's largest glyph size: a glyph smaller than this is set in a script


def _set_minus(nodes: list[Node]) -> None:
    """The symbol font's backslash is \\setminus where a binary operator's spaces (4mu, 0.22 em) stand on
    both sides of it (A \\setminus B), \\backslash where it touches its neighbours (s\\backslash S, a
    manual's "\\;")."""
    slashes = [n for n in nodes if n.kind == "sym" and n.tex == r"\backslash"]
    if not slashes:
        return
    row = max(m.size for m in nodes)
    for n in slashes:
        line = [m for m in nodes if m is not n and abs(m.base - n.base) < n.size * 0.3]
        before = [n.x0 - m.x1 for m in line if m.x1 <= n.x0 + n.size * 0.05]
        after = [m.x0 - n.x1 for m in line if m.x0 >= n.x1 - n.size * 0.05]
        # in a script TeX sets no space around a binary operator: there, a backslash between two
        # operands (a sum's limit S ⊆ N \ {i}) is the set difference all the same
        spaced = before and after and min(before) > n.size * 0.15 and min(after) > n.size * 0.15
        scripted = before and after and n.size < row * SCRIPT_SIZE and min(before) < n.size * 0.3 > min(after)
        if spaced or scripted:
            n.tex, n.role = r"\setminus", "bin"


def _stacked_relations(nodes: list[Node]) -> list[Node]:
    """A sign centred over an equals sign, close above it: one relation (\\cong, \\doteq)."""
    lower = [n for n in nodes if n.kind == "sym" and n.tex == "="]
    upper = [n for n in nodes if n.kind == "sym" and (n.tex, "=") in _STACKED]
    if not lower or not upper:
        return nodes
    gone = set()
    for eq in lower:
        for up in upper:
            tex = _STACKED[(up.tex, eq.tex)]
            if id(up) in gone or abs(up.cx - eq.cx) > eq.size * 0.1:
                continue
            same_size = abs(up.size - eq.size) < eq.size * 0.1
            # plain TeX's \doteq is \buildrel\textstyle.\over=: its dot keeps the text size over an
            # equals sign set in a script (an \underbrace's label), up to twice the sign's size
            text_dot = up.tex == "." and eq.size * 0.9 < up.size < eq.size * DOT_OVER_SCRIPT
            if (same_size or text_dot) and eq.top - eq.size * 0.4 < up.bottom <= eq.top + eq.size * 0.05:
                eq.tex, eq.ch, eq.role = tex, "", "rel"
                eq.x0, eq.x1, eq.top = min(eq.x0, up.x0), max(eq.x1, up.x1), min(eq.top, up.top)
                gone.add(id(up))
                break
    return [n for n in nodes if id(n) not in gone]


DOTS_APART = 0.52  # em: the dots of an ellipsis stand at most this far apart, middle to middle


def _dot_runs(nodes: list[Node]) -> list[Node]:
    """Three dots in a row are one ellipsis: on the baseline \\dots, on the axis \\cdots, stacked
    \\vdots, falling to the right \\ddots (TeX builds the last two from three period glyphs)."""
    dots = sorted((n for n in nodes if n.role == "dot" and n.height < n.size * 0.3), key=lambda n: (n.x0, n.top))
    if len(dots) < 3:
        return nodes
    size = _size(nodes)
    used: set[int] = set()      # dots of a run found
    merged: set[int] = set()    # ... and of an ellipsis made of them
    made: list[Node] = []
    for a in dots:
        if id(a) in used:
            continue
        near = [b for b in dots if b is not a and id(b) not in used and abs(b.size - a.size) < 0.5
                and -a.size * 0.1 <= b.x0 - a.x0 <= a.size * 1.2 and abs(b.top - a.top) <= a.size * 1.2]
        for kind in ("h", "v", "d"):
            chain = [a]
            for _ in range(2):
                last = chain[-1]
                nxt = None
                for b in near:
                    if b in chain:
                        continue
                    dx, dy = b.cx - last.cx, b.cy - last.cy
                    # (a face with a wide full stop, GFS Didot's, sets \ldots' dots just over half an em apart; an
                    # index's leaders and a typewriter face's "..." step further)
                    if kind == "h" and 0.15 * a.size < dx < DOTS_APART * a.size and abs(dy) < 0.05 * a.size:
                        nxt = b
                    elif kind == "v" and abs(dx) < 0.05 * a.size and 0.2 * a.size < dy < 0.6 * a.size:
                        nxt = b
                    elif kind == "d" and 0.2 * a.size < dx < 0.7 * a.size and 0.15 * a.size < dy < 0.6 * a.size:
                        nxt = b
                    if nxt is not None:
                        break
                if nxt is None:
                    break
                chain.append(nxt)
            if len(chain) == 3:
                for c in chain:
                    used.add(id(c))
                if kind == "h" and _periods_typed(chain, size):
                    break     # three full stops as the source typed them, "...": no ellipsis
                merged.update(id(c) for c in chain)
                x0, x1 = min(c.x0 for c in chain), max(c.x1 for c in chain)
                top, bottom = min(c.top for c in chain), max(c.bottom for c in chain)
                if kind == "h":
                    on_axis = a.ch in ("·", "⋅", "∙") or a.bottom < a.base - a.size * 0.15
                    tex, ch, base = (r"\cdots", "⋯", a.base) if on_axis else (r"\dots", "…", a.base)
                else:
                    tex, ch = (r"\vdots", "⋮") if kind == "v" else (r"\ddots", "⋱")
                    base = (top + bottom) / 2 + a.size * 0.25
                made.append(Node("sym", x0, x1, top, bottom, base, a.size, ch=ch, tex=tex, style="up", role="ord",
                                 font=a.font, adv0=x0, adv1=x1))
                break
    return [n for n in nodes if id(n) not in merged] + made


TYPED_PERIODS = 0.04   # em: full stops typed one after another stand no further apart than this, box to box


def _periods_typed(chain: list[Node], size: float) -> bool:
    """Whether three full stops on the baseline are the source's "..." rather than \\dots: TeX sets
    \\ldots (and \\dots between commas) as three \\ldotp, punctuation atoms, a thin space (3mu, a
    sixth of an em) after each in the text and display styles, while typed full stops are ordinary
    atoms set box against box.  Measured between advance boxes, at the formula's own size only: in a
    script TeX puts no thin space after punctuation, and the two print alike."""
    if any(c.ch != "." or c.adv1 <= c.adv0 or c.size < size * 0.95 for c in chain):
        return False
    ordered = sorted(chain, key=lambda c: c.x0)
    return all(abs(b.adv0 - a.adv1) <= a.size * TYPED_PERIODS for a, b in zip(ordered, ordered[1:]))


def _joined_arrows(nodes: list[Node]) -> list[Node]:
    """A minus or equals sign run into an arrow is TeX's long arrow (\\longrightarrow is − and →,
    \\Longleftrightarrow is ⇐ and ⇒ overlapping); the stem of \\mapsto is a glyph of its own set over
    the arrow's tail.  Pairs are joined until none is left (\\longmapsto: the stem, then − and →)."""
    joined = {("-", r"\to"): r"\longrightarrow", (r"\leftarrow", "-"): r"\longleftarrow",
              ("=", r"\Rightarrow"): r"\Longrightarrow", (r"\Leftarrow", "="): r"\Longleftarrow",
              (r"\Leftarrow", r"\Rightarrow"): r"\Longleftrightarrow", (r"\leftarrow", r"\to"): r"\longleftrightarrow",
              (":", "="): ":=", (r"\mapsto", r"\to"): r"\mapsto", (r"\to", r"\mapsto"): r"\mapsto",
              (r"\mapsto", r"\longrightarrow"): r"\longmapsto", (r"\longrightarrow", r"\mapsto"): r"\longmapsto",
              ("\u2e26", r"\to"): r"\hookrightarrow", (r"\leftarrow", "\u2e27"): r"\hookleftarrow",
              ("|", "="): r"\models"}
    nodes = _stretched_arrows(nodes)
    _hooks_read_as_punctuation(nodes)
    for _ in range(3):
        rels = sorted((n for n in nodes if n.kind == "sym" and any(n.tex in pair for pair in joined)),
                      key=lambda n: n.x0)
        gone = set()
        # each with the next on its own baseline (a note's arrow under a long arrow lies between its pieces)
        pairs = []
        for level in _baseline_groups(rels):
            pairs.extend(zip(level, level[1:]))
        for a, b in sorted(pairs, key=lambda ab: ab[0].x0):
            if id(a) in gone or b.x0 - a.x1 > a.size * 0.12:
                continue
            tex = joined.get((a.tex, b.tex))
            if tex is None and {a.tex, b.tex} in ({"-", r"\to"}, {"-", r"\leftarrow"}) and \
                    min(a.adv1, b.adv1) - max(a.adv0, b.adv0) > a.size * JOINREL_MAX:
                # a stretched arrow's shaft may start under its head (\xrightarrow{x}, a short note)
                tex = r"\longrightarrow" if r"\to" in (a.tex, b.tex) else r"\longleftarrow"
            if tex == r"\models" and min(a.adv1, b.adv1) - max(a.adv0, b.adv0) < a.size * 0.1:
                tex = None           # \models joins its bar and sign (\joinrel): a bar set apart is a fence
            if tex == ":=" and a.base < b.base - a.size * 0.015 and a.adv1 > b.adv0 + a.size * 0.02:
                tex = r"\coloneqq"   # mathtools centres the colon on the axis and pulls the sign in (-1.2mu)
            if tex:
                if tex in (r"\longrightarrow", r"\longleftarrow") and \
                        min(a.adv1, b.adv1) - max(a.adv0, b.adv0) > a.size * JOINREL_MAX:
                    b.parts["stretched"] = True      # pieces laid over each other, not \joinrel'd
                b.tex, b.ch, b.role, b.x0, b.x1 = tex, "", "rel", min(a.x0, b.x0), max(a.x1, b.x1)
                b.adv0, b.adv1 = min(a.adv0, b.adv0), max(a.adv1, b.adv1)
                gone.add(id(a))
        if not gone:
            break
        nodes = [n for n in nodes if id(n) not in gone]
    return _spaced_implications(nodes)


def _baseline_groups(nodes: list[Node]) -> list[list[Node]]:
    """Nodes by the baseline they sit on (within a tenth of their size), each group left to right."""
    groups: list[list[Node]] = []
    for n in sorted(nodes, key=lambda n: n.base):
        if groups and n.base - groups[-1][-1].base <= n.size * 0.1:
            groups[-1].append(n)
        else:
            groups.append([n])
    return [sorted(g, key=lambda n: n.x0) for g in groups]


def _hooks_read_as_punctuation(nodes: list[Node]) -> None:
    """The maths italic font's hooks sit at its codes for "," and "-", and a text layer that gives a
    code back as ASCII reads them so.  A comma never stands clear above the baseline, nor a hyphen
    in the maths italic font against an arrow's tail: run into an arrow's end at its height, they
    are the hooks of \\hookrightarrow and \\hookleftarrow."""
    arrows = [n for n in nodes if n.kind == "sym" and n.tex in (r"\to", r"\leftarrow")]
    if not arrows:
        return
    for n in nodes:
        if n.kind != "sym" or n.style != "it" or n.tex not in (",", "-") or n.bottom > n.base - n.size * 0.15:
            continue
        for a in arrows:
            if abs(a.base - n.base) > n.size * 0.1 or not a.top <= (n.top + n.bottom) / 2 <= a.bottom:
                continue
            if n.tex == "," and a.tex == r"\to" and -n.size * 0.12 <= a.x0 - n.x1 <= n.size * 0.12:
                n.tex = n.ch = "\u2e26"   # (build_glyphs.HOOKS)
            elif n.tex == "-" and a.tex == r"\leftarrow" and -n.size * 0.12 <= n.x0 - a.x1 <= n.size * 0.12:
                n.tex = n.ch = "\u2e27"


# \longrightarrow joins its minus and head with \joinrel (their advance boxes overlap by 3mu, 0.17 em);
# the arrows amsmath stretches to a note (\xrightarrow) lay their pieces over each other by 7mu or more.
JOINREL_MAX = 0.22   # em


def _stretched_arrows(nodes: list[Node]) -> list[Node]:
    """An arrow stretched to its notes' width (\\xrightarrow, \\xleftarrow) is an arrow head and a run
    of minus signs, each touching the next, running into it: one arrow (\\longrightarrow carries a
    single minus; a run of dashes with no head, a rule drawn in type, stays as it is)."""
    minus = sorted((n for n in nodes if n.kind == "sym" and n.tex == "-"), key=lambda n: n.x0)
    heads = [n for n in nodes if n.kind == "sym" and n.tex in (r"\to", r"\leftarrow")]
    if len(minus) < 2 or not heads:
        return nodes
    touching = lambda a, b: abs(a.base - b.base) < a.size * 0.1 and a.x0 < b.x0 < a.x1 + a.size * 0.05
    gone: set[int] = set()
    for head in heads:
        chain: list[Node] = []
        right = head.tex == r"\to"
        edge = head
        while True:
            # the piece nearest the edge (the shaft's pieces overlap: the far one may touch it too)
            steps = [m for m in minus if id(m) not in gone and m not in chain and
                     (touching(m, edge) if right else touching(edge, m))]
            step = (max(steps, key=lambda m: m.x0) if right else min(steps, key=lambda m: m.x0)) if steps else None
            if step is None:
                break
            chain.append(step)
            edge = step
        if len(chain) < 2:
            continue
        head.x0, head.x1 = min([head.x0] + [m.x0 for m in chain]), max([head.x1] + [m.x1 for m in chain])
        head.adv0, head.adv1 = min([head.adv0] + [m.adv0 for m in chain]), max([head.adv1] + [m.adv1 for m in chain])
        head.tex, head.ch, head.role = (r"\longrightarrow" if right else r"\longleftarrow"), "", "rel"
        head.parts["stretched"] = True
        gone.update(id(m) for m in chain)
    return [n for n in nodes if id(n) not in gone]


SPACED_RELATION = 0.42   # em each side: a relation's own space (5mu) and a \; more (\iff, \implies)
QUAD_SPACED = 0.85       # em: ... but a quad more on both sides is a \quad written round the arrow: what is
                         # left over a whole number of quads tells the bare arrow from the spaced one
                         # (ink to ink: a prime or a fraction beside it may look further off, so the nearer side decides)
_SPACED_FORMS = {r"\Longleftrightarrow": r"\iff", r"\Longrightarrow": r"\implies", r"\Longleftarrow": r"\impliedby"}


def _spaced_implications(nodes: list[Node]) -> list[Node]:
    """\\iff, \\implies and \\impliedby are long double arrows with a thick space more on either
    side: told from the bare arrows by the glue to their neighbours, advance box to advance box (a
    thick space more, or that and whole quads: `\\quad\\Longrightarrow\\quad` is the bare arrow spaced
    by hand).  A neighbour is whatever stands nearest beside the arrow's height: a script, a big operator;
    an arrow opening or closing a row has one."""
    for n in nodes:
        if n.kind != "sym" or n.tex not in _SPACED_FORMS:
            continue
        beside = [m for m in nodes if m is not n and m.top < n.bottom + n.size * 0.3 and m.bottom > n.top - n.size * 0.3]
        left = max((m.adv1 for m in beside if m.adv1 <= n.adv0 + 0.1), default=None)
        right = min((m.adv0 for m in beside if m.adv0 >= n.adv1 - 0.1), default=None)
        if left is None and right is None:
            continue
        # (at a row's start or end, the one side it has: `\\ \iff b = …` opens an aligned row)
        gap = min(n.adv0 - left if left is not None else math.inf,
                  right - n.adv1 if right is not None else math.inf) / n.size
        gap -= math.floor(gap + 1 - QUAD_SPACED)      # the quads written round it by hand
        if SPACED_RELATION <= gap < QUAD_SPACED:
            n.tex = _SPACED_FORMS[n.tex]
    return nodes


ACCENT_SLACK = 0.15   # em: an accent of one letter stands over it, within this of its ink's ends


# A thin space (3 mu) is a sixth of the symbol font's quad, and that quad is an em or a little less
# (0.88 em in MnSymbol, whose thin space is 0.147 em): letters closer than this are one word, kerned
THIN_SPACE_FLOOR = 0.12


def _words(nodes: list[Node]) -> list[Node]:
    """Upright letters set side by side in one font are a word: an operator's name (\\log, \\max)
    or roman text; words a thin space apart (arg max) or a word space apart in a text face
    (subject to) read as one name."""
    nodes, abbreviations = _abbreviations(nodes)
    nodes, phrases = _bold_phrases(nodes)
    abbreviations += phrases
    text_italic = _text_italic_fonts(nodes)
    letters = sorted((n for n in nodes if n.kind == "sym" and n.ch.isascii() and n.ch.isalpha()
                      and (n.style in ("up", "sf", "bfsf", "tt") or n.style == "it" and n.font in text_italic)),
                     key=lambda n: n.x0)
    # a letter under an accent of its own (an accent no wider than it, over it) is a variable, never
    # part of a name: \bar{y} after n, in a font whose letters are upright (Euler), is no word "ny"
    accents = [n for n in nodes if n.kind == "sym" and n.role == "accent"]
    letters = [n for n in letters if not any(
        n.x0 - n.size * ACCENT_SLACK <= a.x0 and a.x1 <= n.x1 + n.size * ACCENT_SLACK and a.bottom <= n.top + n.size * 0.1
        and n.top - a.bottom < n.size * 0.5 for a in accents)]
    if not letters:
        return nodes + abbreviations
    # an apostrophe of the letters' own font set close between two of them is the word's ("chain's"),
    # written as TeX's text input for it
    for mark in [n for n in nodes if n.kind == "sym" and n.ch in "’'" and n.font in {m.font for m in letters}]:
        near = [m for m in letters if m.font == mark.font and abs(m.base - mark.base) < mark.size * 0.1
                and (0 <= mark.adv0 - m.adv1 < mark.size * THIN_SPACE_FLOOR or
                     0 <= m.adv0 - mark.adv1 < mark.size * THIN_SPACE_FLOOR)]
        if any(m.x0 < mark.x0 for m in near) and any(m.x0 > mark.x0 for m in near):
            mark.ch = mark.tex = "'"
            letters.append(mark)
    letters.sort(key=lambda n: n.x0)
    words: list[Node] = []
    for run in [part for run in _letter_runs(letters) for part in _operator_pair(run)]:
        text = "".join(n.ch for n in run)
        if len(run) == 1 and text not in OPERATOR_NAMES:
            continue
        first, last = run[0], run[-1]
        if first.style != "up" and len(run) == 1:
            continue
        words.append(Node("word", first.x0, last.x1, min(n.top for n in run), max(n.bottom for n in run), first.base,
                          first.size, ch=text, tex=text, style=first.style,
                          role="op" if (text in OPERATOR_NAMES or text in TWO_WORD_OPERATORS) and first.style == "up"
                          else "ord",
                          font=first.font, adv0=first.adv0, adv1=last.adv1, parts={"glyphs": run}))
    # names a thin space apart: arg max, lim sup; phrases of a text face: subject to
    words.sort(key=lambda n: n.x0)
    joined: list[Node] = []
    for w in words:
        prev = next((j for j in reversed(joined) if abs(j.base - w.base) < w.size * 0.1 and j.font == w.font), None)
        if prev is not None and 0 <= w.adv0 - prev.adv1 < w.size * 0.45 and not _between(nodes, prev, w):
            name = prev.ch + w.ch
            # (an operator's name, two-word ones too, never runs on into the word after it: arg max UCB)
            if name in TWO_WORD_OPERATORS and _limits_under_second(prev, w, nodes):
                joined.append(w)
                continue
            if name in TWO_WORD_OPERATORS or (prev.role != "op" and w.ch not in OPERATOR_NAMES):
                spaced = name not in TWO_WORD_OPERATORS
                prev.ch = prev.ch + (" " if spaced else "") + w.ch
                prev.tex = prev.ch
                prev.x1, prev.adv1 = w.x1, w.adv1
                prev.top, prev.bottom = min(prev.top, w.top), max(prev.bottom, w.bottom)
                prev.role = "op" if name in TWO_WORD_OPERATORS else "ord"
                prev.parts["glyphs"] = prev.parts["glyphs"] + w.parts["glyphs"]
                continue
        joined.append(w)
    taken = {id(g) for w in joined for g in w.parts["glyphs"]}
    rest = [n for n in nodes if id(n) not in taken]
    for w in joined:
        if w.role == "op" and w.ch in OPERATOR_NAMES and _without_operand(w, rest, _size(rest or nodes)):
            w.role, w.parts["word"] = "ord", True
    return rest + joined + abbreviations


def _limits_under_second(first: Node, second: Node, nodes: list[Node]) -> bool:
    """Whether the limits under two operator names a thin space apart are centred under the second
    alone: TeX centres a display operator's limits under its own name, so `\\lim\\sup_{n}` (two
    operators, the limits the second's) sets them under "sup", and `\\limsup_{n}` (one name) under
    both words."""
    below = sorted((n for n in nodes if n.size < second.size * 0.85 and n.top >= second.base - second.size * 0.1
                    and n.top - second.bottom < second.size * LIMIT_REACH_NAME), key=lambda n: n.x0)
    # the limits are the run of small glyphs under the names, as far as it runs on unbroken (a limit
    # wider than the names reaches past them; the next operator's limits stand apart)
    run = [n for n in below if first.x0 <= n.cx <= second.x1]
    if not run:
        return False
    x0, x1 = min(n.x0 for n in run), max(n.x1 for n in run)
    for n in below:
        if n.x0 >= x0 and x1 - n.size * 0.1 <= n.x0 <= x1 + n.size * LIMIT_RUN_GAP:
            x1 = max(x1, n.x1)
    for n in reversed(below):
        if n.x1 <= x1 and x0 - n.size * LIMIT_RUN_GAP <= n.x1 <= x0 + n.size * 0.1:
            x0 = min(x0, n.x0)
    centre = (x0 + x1) / 2
    own, both = (second.x0 + second.x1) / 2, (first.x0 + second.x1) / 2
    # (limits that reach under the first name as well are not told apart by their centre: a wide
    # limit under both names, \operatorname*{arg\,max}_{\alpha > 0, \beta > 0}, is the usual case)
    return x0 >= first.x1 - second.size * 0.1 and abs(centre - own) < second.size * 0.2 and \
        abs(centre - both) > second.size * 0.4


LIMIT_REACH_NAME = 0.8   # em: an operator's limit under its name stands this close below it
LIMIT_RUN_GAP = 0.5      # of a script glyph's size: the glyphs of one limit stand closer than this


def _bold_phrases(nodes: list[Node]) -> tuple[list[Node], list[Node]]:
    """Words of a bold face a word space apart in a formula (`\\textbf{State space}` opening a display):
    two runs of bold upright letters or more, each of two letters or more, on one baseline in one font,
    each after the one before by more than a thin space and less than a stretched word space, nothing
    between.  TeX sets no space between \\mathbf letters, so the space is text's: the phrase is
    \\textbf, and read letter by letter it lost its word space ("Statespace").  A single bold word
    stays as its letters (\\mathbf{Ax} and \\textbf{Ax} print alike).  Returns the other nodes and
    the phrases as words."""
    bold = sorted((n for n in nodes if n.kind == "sym" and n.style == "bf" and n.ch.isascii() and n.ch.isalpha()),
                  key=lambda n: n.x0)
    runs = [run for run in _letter_runs(bold) if len(run) >= 2]
    phrases: list[list[list[Node]]] = []
    for run in runs:
        last = phrases[-1][-1][-1] if phrases else None
        first = run[0]
        if last is not None and last.font == first.font and abs(last.base - first.base) < first.size * 0.1 and \
                first.size * THIN_SPACE_FLOOR <= first.adv0 - last.adv1 < first.size * WORD_SPACE_MOST and \
                not _between(nodes, last, first):
            phrases[-1].append(run)
        else:
            phrases.append([run])
    words, taken = [], set()
    for phrase in phrases:
        if len(phrase) < 2:
            continue
        glyphs = [g for run in phrase for g in run]
        first, last = glyphs[0], glyphs[-1]
        text = " ".join("".join(g.ch for g in run) for run in phrase)
        words.append(Node("word", first.x0, last.x1, min(g.top for g in glyphs), max(g.bottom for g in glyphs),
                          first.base, first.size, ch=text, tex=text, style="bf", role="ord", font=first.font,
                          adv0=first.adv0, adv1=last.adv1, parts={"glyphs": glyphs, "word": True}))
        taken.update(id(g) for g in glyphs)
    return [n for n in nodes if id(n) not in taken], words


WORD_SPACE_MOST = 0.45   # em: a stretched word space is narrower than this (as a text face's phrases are joined)


def _abbreviations(nodes: list[Node]) -> tuple[list[Node], list[Node]]:
    """Abbreviations of the text face in a formula ("s.t.", "e.g.", "i.i.d."): two or more upright
    letters each followed, set close, by a full stop of the letter's own font (in \\mathrm{s}.\\mathrm{t}.
    the stops would be the maths font's).  Returns the other nodes and the abbreviations as words."""
    stops = [n for n in nodes if n.kind == "sym" and n.ch == "."]
    if not stops:
        return nodes, []
    letters = sorted((n for n in nodes if n.kind == "sym" and n.style == "up" and n.ch.isascii() and n.ch.isalpha()),
                     key=lambda n: n.x0)

    def close(a: Node, b: Node) -> bool:
        return a.font == b.font and abs(a.base - b.base) < a.size * 0.1 and -a.size * 0.05 <= b.adv0 - a.adv1 < a.size * THIN_SPACE_FLOOR
    pairs = []
    for letter in letters:
        stop = next((t for t in stops if close(letter, t)), None)
        if stop is not None:
            pairs.append((letter, stop))
    words, taken = [], set()
    k = 0
    while k < len(pairs):
        run = [pairs[k]]
        while k + len(run) < len(pairs) and close(run[-1][1], pairs[k + len(run)][0]):
            run.append(pairs[k + len(run)])
        if len(run) >= 2:
            glyphs = [g for pair in run for g in pair]
            first, last = glyphs[0], glyphs[-1]
            text = "".join(g.ch for g in glyphs)
            words.append(Node("word", first.x0, last.x1, min(g.top for g in glyphs), max(g.bottom for g in glyphs),
                              first.base, first.size, ch=text, tex=text, style="up", role="ord", font=first.font,
                              adv0=first.adv0, adv1=last.adv1, parts={"glyphs": glyphs, "word": True}))
            taken.update(id(g) for g in glyphs)
        k += len(run)
    return [n for n in nodes if id(n) not in taken], words


def _without_operand(word: Node, others: list[Node], size: float) -> bool:
    """Whether an operator's name at the formula's own size, set after a number, ends its line with
    nothing after it but punctuation and closers and no limits under it: an operator takes an operand,
    so this is a word (a unit, "7.6 min")."""
    if word.size < size * 0.9:
        return False          # (x_{\max}: a name in a script labels its base)
    # (after a number, as units follow their quantity: "z \to \min", the objective's aim, stays the operator)
    before = [n for n in others if n.x1 <= word.x0 + 0.1 and abs(n.base - word.base) < size * 0.1]
    last = max(before, key=lambda n: n.x1, default=None)
    if last is None or not (last.kind == "sym" and last.ch.isdigit() and word.x0 - last.x1 < size * 0.5):
        return False
    for n in others:
        if n.top < word.bottom + size * 0.2 and n.bottom > word.top - size * 0.2 and n.x1 > word.x1 - 0.1 \
                and not (n.kind == "sym" and n.ch in ",.;:)]}" and n.x0 >= word.x1 - 0.1):
            return False
    return True


def _text_italic_fonts(nodes: list[Node]) -> set[str]:
    """Italic faces that set only words in this formula while another italic face sets its single
    letters: the text's italic, a \\text{for all} or \\text{FIB} set in a theorem's italic (the
    maths italic, CMMI or the like, sets the variables)."""
    italic = sorted((n for n in nodes if n.kind == "sym" and n.style == "it" and n.ch.isascii() and n.ch.isalpha()),
                    key=lambda n: n.x0)
    # (a family by its name less its design size: CMMI7 in a script is the CMMI10 of the row)
    family = {id(n): _FONT_SIZE_SUFFIX.sub("", n.font.split("+")[-1]) for n in italic}
    if len(set(family.values())) < 2:
        return set()
    singles = {family[id(run[0])] for run in _letter_runs(italic) if len(run) == 1}
    return {n.font for n in italic if family[id(n)] not in singles} if singles else set()


def _letter_runs(letters: list[Node]) -> list[list[Node]]:
    """Letters (in x order) in runs: each one of a font set on from the one before on its baseline,
    no wider apart than a thin space (kerns pull letters in)."""
    runs: list[list[Node]] = []
    open_runs: dict[tuple, list[Node]] = {}       # the run each (font, baseline) is extending
    for n in letters:
        key = (n.font, round(n.base))
        run = next((open_runs[k] for k in ((n.font, key[1]), (n.font, key[1] - 1), (n.font, key[1] + 1))
                    if k in open_runs), None)
        last = run[-1] if run else None
        if last is not None and abs(last.base - n.base) < n.size * 0.1 \
                and -n.size * 0.25 < n.adv0 - last.adv1 < n.size * THIN_SPACE_FLOOR:
            run.append(n)
        else:
            run = [n]
            runs.append(run)
            for k in [k for k, v in open_runs.items() if k[0] == n.font and abs(k[1] - key[1]) <= 1]:
                del open_runs[k]
        open_runs[key] = run
    return runs


_FONT_SIZE_SUFFIX = re.compile(r"\d+$")


def _between(nodes: list[Node], left: Node, right: Node) -> bool:
    """Whether a glyph stands in the gap between two words on their line (the hyphen of "to-go")."""
    return any(left.x1 - 0.1 <= n.cx <= right.x0 + 0.1 and n.top < right.bottom and n.bottom > right.top
               for n in nodes if n.kind == "sym" and not (n.style == "up" and n.ch.isascii() and n.ch.isalpha()))


def _operator_pair(run: list[Node]) -> list[list[Node]]:
    """Two operators' names with no space the text layer shows between them (\\log\\Pr) are two
    names: a run that is no name itself but two names one after the other is split between them."""
    text = "".join(n.ch for n in run)
    if text in OPERATOR_NAMES or text in TWO_WORD_OPERATORS:
        return [run]
    for k in range(2, len(run) - 1):
        if text[:k] in OPERATOR_NAMES and text[k:] in OPERATOR_NAMES:
            return [run[:k], run[k:]]
    # a two-word name (arg max) run into the name of what it is taken over (arg max UCB(a)): the
    # limits go under the first
    for k in range(5, len(run) - 1):
        if text[:k] in TWO_WORD_OPERATORS:
            return [run[:k], run[k:]]
    return [run]


# --------------------------------------------------------------------------- structure
"""Structure: roots, fractions, over- and underlines, accents, limits, delimited matrices and cases."""


def _box(nodes: list[Node]) -> tuple[float, float, float, float]:
    return (min(n.x0 for n in nodes), max(n.x1 for n in nodes), min(n.top for n in nodes),
            max(n.bottom for n in nodes))


# The type size of the formula being read (its rows' largest glyphs), set when a formula's glyphs are
# assembled: a row of its own glyphs at a small fraction of it is set in TeX's smallest style.
TEXT_SIZE: ContextVar[float] = ContextVar("TEXT_SIZE", default=0.0)


def _formula_size(nodes: list[Node]) -> float:
    """The formula's size (_size), kept as TEXT_SIZE for the rows read inside it."""
    size = _size(nodes)
    TEXT_SIZE.set(size)
    return size


def _size(nodes: list[Node]) -> float:
    sizes = [n.size for n in nodes if n.role not in ("op", "piece") and n.kind != "space"] or [n.size for n in nodes]
    return max(sizes) if sizes else 10.0


def _composite(kind: str, members: list[Node], base: float, size: float, **parts) -> Node:
    x0, x1, top, bottom = _box(members)
    for extra in ("rule",):
        r = parts.get(extra)
        if r is not None:
            x0, x1, top, bottom = min(x0, r[0]), max(x1, r[2]), min(top, r[1]), max(bottom, r[3])
    return Node(kind, x0, x1, top, bottom, base, size, parts=parts, adv0=x0, adv1=x1)


def upright(rule: tuple) -> bool:
    """An upright thin rule (an array's column rule), not a horizontal one (a fraction's bar)."""
    return rule[2] - rule[0] < rule[3] - rule[1]


def _build(nodes: list[Node], rules: list[tuple]) -> list[Node]:
    """Structures from the inside out: each becomes one node holding its parts (read recursively)."""
    columns = [r for r in rules if upright(r)]
    # a horizontal rule an upright one crosses is an array's (\hline), never a fraction's bar
    crossed = [r for r in rules if not upright(r) and any(r[0] < c[0] < r[2] and c[1] - 1 <= r[1] <= c[3] + 1
                                                          for c in columns)]
    rules = [r for r in rules if not upright(r) and r not in crossed]
    drawn = rules                  # every horizontal rule, whatever takes it below
    nodes, columns = _cell_bars(nodes, columns)
    nodes = _drawn_radicals(nodes, rules)
    nodes = _assembled_radicals(nodes, rules)
    nodes = _words(nodes)
    nodes, rules = _braces(nodes, rules)
    nodes, rules = _roots(nodes, rules)
    nodes = _accents(nodes)
    nodes = _limits(nodes, rules)
    nodes, rules = _fractions(nodes, rules)
    nodes, rules = _lines(nodes, rules)
    nodes = _limits(nodes)
    nodes = _delimited(nodes, columns, drawn, crossed)
    return nodes


def _cell_bars(nodes: list[Node], columns: list[tuple]) -> tuple[list[Node], list[tuple]]:
    """Upright rules drawn in a matrix's cells: a `\\vline` set in a cell draws a rule as tall as its row
    (the bars over and under a column vector's name: `\\vline & \\vline \\\\ \\mathbf{u}_1 & \\mathbf{u}_2
    \\\\ \\vline & \\vline`), an entry of that row: it becomes a node, so the row is kept.  An array's
    column rule (`{c|c}`) is drawn row by row, its pieces end to end, or runs through the middle of the
    delimiters around it; such rules stay rules (_column_spec)."""
    if not columns:
        return nodes, columns
    size = _size(nodes)
    tall = [n for n in nodes if n.role in ("open", "close", "fence") and n.height > size * 1.6]
    bars, kept = [], []
    for r in columns:
        x = (r[0] + r[2]) / 2
        # (end to end: pdfTeX and LuaTeX draw each row's piece of an array's column rule a little
        # into the next row's, where a row's strut meets the next)
        stacked = any(c is not r and abs((c[0] + c[2]) / 2 - x) < 1.0 and
                      (abs(c[1] - r[3]) < 1.0 or abs(c[3] - r[1]) < 1.0 or
                       r[1] < c[1] < r[3] < c[3] or c[1] < r[1] < c[3] < r[3]) for c in columns)
        # (between a tall opening delimiter and a tall closing one that cover it, clear of their middle:
        # the row's strut may reach a little past the delimiters' ink)
        reach = size * CELL_BAR_REACH
        inside = any(o.x1 <= r[0] and o.top - reach <= r[1] and r[3] <= o.bottom + reach and not r[1] < o.cy < r[3]
                     and any(c.x0 >= r[2] and c.top - reach <= r[1] and r[3] <= c.bottom + reach
                             for c in tall if c is not o)
                     for o in tall if o.role != "close")
        if not stacked and inside and r[3] - r[1] <= size * CELL_BAR_HEIGHT:
            # (a row's strut stands 0.7 of its height above the baseline)
            bars.append(Node("sym", r[0], r[2], r[1], r[3], r[1] + (r[3] - r[1]) * 0.7, size, ch="\u2502",
                             tex=r"\vline", style="up", role="ord"))
        else:
            kept.append(r)
    return nodes + bars, kept


CELL_BAR_HEIGHT = 1.6   # em: a cell's \vline is as tall as its row's strut (1.2 em at \arraystretch 1)
CELL_BAR_REACH = 0.3    # em: ... which may stand this far past the ink of the delimiters around it


BRACE_PIECES = set("⏞⏟⎴⎵︷︸")


def _braces(nodes: list[Node], rules: list[tuple]):
    """A horizontal brace (its tips and middle, and the rules between them, one flat run) over or
    under a stretch of a row: \\overbrace{body}^{note} / \\underbrace{body}_{note}, the body on the
    side where the row's full-size glyphs are, the note the small glyphs centred on the other."""
    pieces = [n for n in nodes if n.kind == "sym" and n.ch in BRACE_PIECES]
    if not pieces:
        return nodes, rules
    text = _size(nodes)
    # (the straight runs between a brace's pieces: thin rules on the level of a piece, not a fraction's
    # bar between an overbrace and an underbrace)
    flat = [r for r in rules if r[3] - r[1] < text * 0.2 and any(n.top - 1 <= r[1] and r[3] <= n.bottom + 1 for n in pieces)]
    items = sorted([(n.x0, n.x1, n.top, n.bottom, n) for n in pieces] + [(r[0], r[2], r[1], r[3], r) for r in flat],
                   key=lambda t: t[0])
    # one run: items on one level, each touching the next; or an end and the middle (tips hooked
    # the other way: the other character), with a gap between them that nothing else of the formula
    # fills on that level (a font whose straight runs the text layer does not show); two braces side
    # by side meet end to end, with tips of one character, and stay apart
    others = [n for n in nodes if n.ch not in BRACE_PIECES]
    runs: list[list[tuple]] = []
    for item in items:
        # (the run on the item's level: an aligned block's rows may have braces whose spans overlap,
        # their pieces interleaved from left to right)
        last = next((run for run in reversed(runs) if item[2] < max(t[3] for t in run) + 1
                     and item[3] > min(t[2] for t in run) - 1), None)
        if last is not None and not _closed_brace(last):
            reach = max(t[1] for t in last)
            before = max(last, key=lambda t: t[1])
            if item[0] - reach <= 1.0 or isinstance(item[4], Node) and isinstance(before[4], Node) and \
                    item[4].ch != before[4].ch and not any(
                    n.x1 > reach and n.x0 < item[0] and n.top < item[3] and n.bottom > item[2] for n in others):
                last.append(item)
                continue
        runs.append([item])
    gone: set[int] = set()
    used_rules: list[tuple] = []
    made: list[Node] = []
    spans = [(min(t[0] for t in run), max(t[1] for t in run)) for run in runs]
    for run in runs:
        tips = [t[4] for t in run if isinstance(t[4], Node)]
        x0, x1 = min(t[0] for t in run), max(t[1] for t in run)
        top, bottom = min(t[2] for t in run), max(t[3] for t in run)
        # an OpenType maths font sets a short brace as one glyph (a size variant); TeX's extension
        # font builds every brace of pieces, and a piece alone is no brace; two ends and a middle are
        # one however short (a brace under a single barred letter, \underbrace{\bar L}_{\tilde B})
        whole = len(run) == 1 and tips and not tips[0].parts.get("ext")
        if not tips or (x1 - x0 < text and not whole and len(tips) < 3):
            continue
        pool = [n for n in nodes + made if id(n) not in gone and n.ch not in BRACE_PIECES]
        # (by its middle, within a point of the brace's ends; but a glyph whose ink ends before the brace
        # starts or starts after it ends is the row's, however narrow: the bracket of `E[\underbrace{…}]`,
        # its ink a quarter of a point clear of the brace, its middle within the point; so is one whose ink
        # starts within half a point of its end, where an end piece drawn a little past the body's box
        # reaches over the comma set after it, `\underbrace{… u_i}_{l(…)},`)
        inside = [n for n in pool if x0 - 1 <= n.cx <= x1 + 1 and n.x1 > x0 + BRACE_CLEAR and n.x0 < x1 - BRACE_CLEAR]
        below = [n for n in inside if n.size >= text * 0.8 and n.top >= bottom - 0.5 and n.top - bottom < text]
        above = [n for n in inside if n.size >= text * 0.8 and n.bottom <= top + 0.5 and top - n.bottom < text]
        if not below and not above:
            # a big operator's limit may stand between it and the brace (\\underbrace{\\sum_{j=0}^{n} …}):
            # the body is on the side of an operator within a limit's reach
            reach = text * (1 + LIMIT_REACH)
            ops = [n for n in inside if n.kind == "sym" and n.role == "op" and n.height > text * 1.2]
            below = [o for o in ops if 0 <= o.top - bottom < reach]
            above = [o for o in ops if 0 <= top - o.bottom < reach]
            if bool(below) == bool(above):
                continue
        over = bool(below) and not above
        if below and above:
            # glyphs on both sides at a row's size (a class whose scripts are 0.82 of it): the tip
            # tells, the middle piece standing out past the ends toward the note
            tip = _brace_tip(tips)
            if tip is not None:
                over = tip
                if over:
                    above = []
                else:
                    below = []
        main = _main_base(below if over else above)
        # the body reaches a row's height from the brace, or past a fraction's bar within the brace's
        # span to the fraction's far part (main is then the near part's baseline)
        bars = [r for r in rules if r not in flat and x0 - 1 <= r[0] and r[2] <= x1 + 1]
        # (and past the foot or the head of a big operator in it, by its limits' height)
        tall_ops = [n for n in inside if n.kind == "sym" and n.role == "op" and n.height > text * 1.2
                    and (n.top >= bottom - 0.5 if over else n.bottom <= top + 0.5)]
        if over:
            # (and down a tall delimiter hanging from the brace to its foot: \overbrace{\begin{bmatrix} …)
            fences = [n for n in inside if n.role in ("open", "close") and n.height > text * 1.6
                      and -0.5 <= n.top - bottom < text * 0.6]
            fences = fences if {n.role for n in fences} == {"open", "close"} else []   # (a pair, the brace over both)
            far = max([main + text * 0.5] + [r[3] + text * 1.5 for r in bars if bottom < r[1] < main + text * 0.5]
                      + [o.bottom + text * LIMIT_REACH for o in tall_ops if o.top < main + text * 0.5]
                      + [n.bottom + 0.5 for n in fences])
            body = [n for n in inside if n.top >= bottom - 0.5 and n.top < far and n.cy < far]
            seed = [n for n in pool if n.size < text * 0.92 and n.bottom <= top + 0.5 and top - n.bottom < text * 0.8
                    and x0 - text <= n.cx <= x1 + text]
        else:
            # (and up a tall delimiter standing on the brace to its top: \underbrace{\begin{bmatrix} …)
            fences = [n for n in inside if n.role in ("open", "close") and n.height > text * 1.6
                      and -0.5 <= top - n.bottom < text * 0.6]
            fences = fences if {n.role for n in fences} == {"open", "close"} else []   # (a pair, the brace under both)
            far = min([main - text * 1.5] + [r[1] - text * 1.5 for r in bars if main - text * 1.5 < r[3] < top]
                      + [o.top - text * LIMIT_REACH for o in tall_ops if o.bottom > main - text * 1.5]
                      + [n.top - 0.5 for n in fences])
            body = [n for n in inside if n.bottom <= top + 0.5 and n.bottom > far and n.cy > far]
            if far == main - text * 1.5:
                # (a row's height up, nothing reaching further: a script of the row above, its baseline
                # nearer that row's than the body's, is that row's: the comma of a subscript `v_{h+1,
                # \tilde P}` on an aligned row right over the brace's row, its middle a row's height up)
                upper = [n.base for n in pool if n.kind == "sym" and n.size >= text * 0.95
                         and n.role in ("ord", "open", "close") and n.base < main - text]
                if upper:
                    line = max(upper)
                    body = [n for n in body if n.size >= text * 0.92 or abs(n.base - main) <= abs(n.base - line)]
            seed = [n for n in pool if n.size < text * 0.92 and n.top >= bottom - 0.5 and n.top - bottom < text * 0.8
                    and x0 - text <= n.cx <= x1 + text]
        # (a glyph under another brace beside this one is that brace's note: two braces side by side,
        # \underbrace{A}_{m \times n} \underbrace{P(S)}_{n \times 1}, have notes that nearly touch)
        theirs = lambda n: not x0 - 1 <= n.cx <= x1 + 1 and any(
            o0 - 1 <= n.cx <= o1 + 1 for o0, o1 in spans if (o0, o1) != (x0, x1))
        note = _grow_limit([n for n in seed if n not in body and not theirs(n)],
                           [n for n in pool if n.size < text * 0.92 and n not in body and not theirs(n)])
        if not body:
            continue
        bx0, bx1, btop, bbottom = _box(body)
        # (a fraction's bar reaches a little past its parts' ink: their glyphs' side bearings)
        pad = max(1.0, text * 0.2)
        inner = [r for r in rules if r not in flat and bx0 - pad <= r[0] and r[2] <= bx1 + pad and btop - 1 <= r[1] <= bbottom + 1]
        row = _row_of(body, inner)
        # the brace stands on the row its body is set on: a fraction's baseline, not its near part's
        node = _composite("brace", body + note + tips, _main_base(row) if row else main, text, body=row,
                          note=_row_of(note, []) if note else [], over=over)
        gone.update(id(n) for n in body + note + tips)
        used_rules.extend(t[4] for t in run if not isinstance(t[4], Node))
        made.append(node)
    if not made:
        return nodes, rules
    return [n for n in nodes if id(n) not in gone] + made, [r for r in rules if r not in used_rules]


BRACE_CLEAR = 0.5   # pt: a glyph of the brace's body reaches further in from its ends than this


def _closed_brace(run: list[tuple]) -> bool:
    """Whether a run of brace pieces is a whole brace already: an end, a middle standing out past the
    ends toward the note, and an end of the first one's character and extent after it.  Two braces side
    by side (`\\underbrace{\\mu^\\top}_{…}\\underbrace{g(x)}_{…}`) meet end to end, the second's first end
    touching the first's last.  (A font may print the middle with the ends' character, and the flat
    runs between with a glyph of their own: the middle's extent, not its character, tells it.)"""
    tips = sorted((t[4] for t in run if isinstance(t[4], Node)), key=lambda n: n.x0)
    if len(tips) < 3:
        return False
    first, last = tips[0], tips[-1]
    if last.ch != first.ch or abs(last.top - first.top) > BRACE_SAME or abs(last.bottom - first.bottom) > BRACE_SAME:
        return False
    return any(n.bottom > first.bottom + BRACE_SAME or n.top < first.top - BRACE_SAME for n in tips[1:-1])


BRACE_SAME = 0.3   # pt: two pieces of one extent (a brace's two ends)


def _brace_tip(tips: list[Node]) -> bool | None:
    """Whether a brace built of pieces points up (an overbrace: its middle reaches above its ends),
    False when it points down, None for one not built of two ends and a middle."""
    if len(tips) < 3:
        return None
    tips = sorted(tips, key=lambda n: n.x0)
    ends, middle = (tips[0], tips[-1]), tips[1:-1]
    if min(n.top for n in middle) < min(n.top for n in ends) - 0.5:
        return True
    if max(n.bottom for n in middle) > max(n.bottom for n in ends) + 0.5:
        return False
    return None


LIMIT_REACH = 0.75   # em: a big operator's limit starts within this of its foot (or ends within it of its head)


def _inside(n: Node, x0: float, x1: float, pad: float) -> bool:
    return n.x0 >= x0 - pad and n.x1 <= x1 + pad


INDEX_RUN_GAP = 0.35   # of the index's size: its glyphs set this close are one run (kerns, no spaces)
INDEX_SCRIPT_SHIFT = 0.6   # of the index's size: its last glyph's script is raised or lowered less


def _radical_rule(rad: Node, rules: list[tuple]) -> tuple | None:
    """The rule that continues a radical sign's top (starting at its right edge, level with its top),
    the nearest of any."""
    return min((r for r in rules if abs(r[0] - rad.x1) < rad.size * 0.25 and rad.top - rad.size * 0.2 <= r[1]
                <= rad.top + rad.size * 0.3 and r[2] > rad.x1), key=lambda r: abs(r[1] - rad.top), default=None)


def _drawn_radicals(nodes: list[Node], rules: list[tuple]) -> list[Node]:
    """Glyphs nothing says the meaning of (private-use codes: an OpenType maths font's larger radical
    whose subset holds no "√" to compare it with, build_glyphs.variant_base) read by their place: one
    whose top a rule continues is drawn as TeX draws a radical sign (its rule starts where the sign
    ends, level with its top); the others are left out."""
    out = []
    for n in nodes:
        if n.role != "unknown":
            out.append(n)
        elif _radical_rule(n, rules) is not None:
            out.append(_leaf("√", n.font, n.style, n.size, n.x0, n.x1, n.top, n.bottom, n.base, n.adv0, n.adv1))
    return out


RADICAL_ASSEMBLY_GAP = 1.0   # em: how far under a radical's top piece its foot may start (an extender between)


def _assembled_radicals(nodes: list[Node], rules: list[tuple]) -> list[Node]:
    """A radical taller than a font's largest sign is assembled: a foot (the hook and the rising stroke),
    straight pieces up the stroke's column, and a top piece where the rule starts.  Where the pieces
    are read apart (an OpenType maths font's private-use pieces: Euler Math's, whose straight piece has
    no meaning to read), the top piece, continued by a rule, and a radical sign below it that no rule
    continues, its right end under the top piece and starting within RADICAL_ASSEMBLY_GAP below it, are
    one sign of their joint height (its index stands over the foot's arm, its body under the rule)."""
    radicals = sorted((n for n in nodes if n.role == "radical"), key=lambda n: n.top)
    gone: set[int] = set()
    for top in radicals:
        if id(top) in gone or _radical_rule(top, rules) is None:
            continue
        slack = top.size * 0.25
        feet = [n for n in radicals if n is not top and id(n) not in gone and n.top >= top.bottom - slack
                and n.top - top.bottom <= top.size * RADICAL_ASSEMBLY_GAP and top.x0 - slack <= n.x1 <= top.x1 + slack
                and n.x0 < top.x0 and _radical_rule(n, rules) is None]
        if not feet:
            continue
        foot = min(feet, key=lambda n: n.top)
        gone.add(id(foot))
        top.x0, top.adv0, top.bottom = foot.x0, foot.adv0, foot.bottom
        top.base = top.cy + top.size * 0.25      # a tall sign is centred on the maths axis, as _pieces sets it
    return [n for n in nodes if id(n) not in gone]


def _roots(nodes: list[Node], rules: list[tuple]):
    """A radical sign whose top a rule continues: everything under the rule (above the sign's
    foot) is the root's body; small glyphs over the sign's left arm are its index."""
    radicals = sorted((n for n in nodes if n.role == "radical"), key=lambda n: -(n.x1 - n.x0) * n.height)
    rules = list(rules)
    for rad in radicals:
        if rad not in nodes:
            continue
        rule = _radical_rule(rad, rules)
        if rule is None:
            # OpenType radicals may draw the rule into the glyph's box: what lies under the sign's top
            continue
        rules.remove(rule)
        body = [n for n in nodes if n is not rad and n.cx > rule[0] and n.cx < rule[2] + 0.5 and n.top >= rule[1] - 0.5
                and n.top < rad.bottom]
        # (TeX backs up 10mu after the index, so its last glyph reaches over the sign: a script that
        # ends before the sign begins is a neighbour's, "z_{1-\alpha/2}" before the root of a fraction)
        index = [n for n in nodes if n is not rad and n not in body and n.x1 <= rad.x0 + (rad.x1 - rad.x0) * 0.75 + 1
                 and n.x0 >= rad.x0 - rad.size * 0.9 and n.bottom <= rad.cy + rad.size * 0.1
                 and n.size < rad.size * 0.85 and n.top >= rad.top - rad.size * 0.6]
        if index and max(n.x1 for n in index) <= rad.x0:
            index = []
        if index:
            # an index is set in one size, the smallest style's: a larger glyph over the sign's arm is
            # a script of what stands before the root (\omega^{n-1}\sqrt[n]{a})
            least = min(n.size for n in index)
            index = [n for n in index if n.size <= least * 1.1]
            if max(n.x1 for n in index) <= rad.x0:
                index = []
        if index:
            # an index wider than the sign's arm reaches further left: the glyphs of its run on its
            # baseline, at its size, set tight before it (no space in the smallest style: \sqrt[d+4]);
            # and the script of its last glyph, at its size too (the smallest style's scripts shrink no
            # further: \sqrt[n_{i}]), short of the radicand.  Each side is one walk outward.
            taken = {id(n) for n in index} | {id(n) for n in body} | {id(rad)}
            first, last = min(index, key=lambda n: n.x0), max(index, key=lambda n: n.x1)
            same = [n for n in nodes if id(n) not in taken and abs(n.size - first.size) <= first.size * 0.1]
            edge = first.x0
            for n in sorted((n for n in same if abs(n.base - first.base) <= first.size * 0.1
                             and n.x1 <= first.x0 + 0.5), key=lambda n: -n.x1):
                if n.x1 < edge - first.size * INDEX_RUN_GAP:
                    break
                index.append(n)
                edge = min(edge, n.x0)
            edge = last.x1
            for n in sorted((n for n in same if abs(n.base - last.base) <= last.size * INDEX_SCRIPT_SHIFT
                             and n.x0 >= last.x1 - 0.5 and n.cx < rule[0]), key=lambda n: n.x0):
                if n.x0 > edge + last.size * INDEX_RUN_GAP:
                    break
                index.append(n)
                edge = max(edge, n.x1)
        # (nor is anything a fraction's bar parts from the sign: a numerator's script over a root in the denominator)
        index = [n for n in index if not any(r[0] - 0.5 <= n.cx <= r[2] + 0.5 and n.bottom <= r[1] + 0.5
                                             and r[3] <= rad.top + 0.5 for r in rules)]
        inner = [r for r in rules if rule[0] - 0.5 <= r[0] and r[2] <= rule[2] + 0.5 and rule[1] < r[1] < rad.bottom]
        rules = [r for r in rules if r not in inner]
        content = _row_of(body, inner)
        base = _main_base(content) if content else rad.bottom - rad.size * 0.2
        size = _size(body) if body else rad.size
        node = _composite("root", [rad] + body + index, base, size, rule=rule, body=content,
                          index=_row_of(index, []) if index else None)
        nodes = [n for n in nodes if n is not rad and n not in body and n not in index] + [node]
    return nodes, rules


def _lone_operator(nodes: list[Node]) -> Node | None:
    """A big operator with nothing of its size beside it, only its scripts and a text-style fraction's
    small parts (a cell of a cases block, `\\sum_{j=1}^{p}\\frac{a}{2}`): it sets the row's size, which
    the other glyphs would make a script's, and TeX centres it on the maths axis, so the row's baseline
    lies that far under its middle.  None when the row has a glyph of its own size besides."""
    ops = [n for n in nodes if n.role == "op" and n.kind in ("sym", "op")]
    if not ops:
        return None
    big = max(ops, key=lambda n: n.size)
    glyph = big.parts.get("op", big) if big.kind == "op" else big
    rest = [n for n in nodes if n.role not in ("op", "piece") and n.kind != "space"]
    if glyph.kind != "sym" or not rest or any(n.size >= glyph.size * SCRIPT_SIZE for n in rest):
        return None
    # (a text-style operator: its scripts set beside it a script's step smaller, not a display
    # operator's, whose glyph is larger than the text by more than that step and whose scripts are
    # the text's: \sum\nolimits in a display, or its limits over and under)
    if not any(_set_beside(n, glyph) and n.size >= glyph.size * TEXT_OPERATOR_SCRIPT for n in rest):
        return None
    # (and nothing stands on that baseline but the operator: glyphs set smaller on the row's own
    # baseline are a row of another style, not scripts; a fraction's own baseline is made from its
    # bar, so it says nothing here)
    base = glyph.cy + glyph.size * FRACTION_AXIS
    if any(n.kind != "frac" and abs(n.base - base) < glyph.size * LONE_BASELINE for n in rest):
        return None
    return glyph


LONE_BASELINE = 0.1   # em of the operator: a glyph whose baseline lies this close to the row's stands on it
TEXT_OPERATOR_SCRIPT = 0.6   # of a text-style operator's size: its scripts are set no smaller (0.7 in TeX)


def _main_base(nodes: list[Node]) -> float:
    """The baseline most full-size glyphs of a group stand on."""
    size = _size(nodes)
    lone = _lone_operator(nodes)
    if lone is not None:
        return lone.cy + lone.size * FRACTION_AXIS
    full = [n for n in nodes if n.size >= size * 0.85 and n.role not in ("op", "piece")] or nodes
    # (a fraction whose parts are set small votes only where nothing else is full-size: its own size
    # may be another row's, and an exponent's \frac has its bar high over the row: e^{-\frac{a}{b}})
    small = [n for n in full if n.kind == "frac" and _small_parts(n, size * 0.85)]
    if small and len(small) < len(full):
        full = [n for n in full if not any(n is m for m in small)]
    votes: dict[float, float] = {}
    for n in full:
        key = round(n.base * 2) / 2
        votes[key] = votes.get(key, 0) + (3 if n.kind in ("frac", "root", "matrix", "binom") else 1)
    best = max(votes.items(), key=lambda kv: (kv[1], -kv[0]))[0]
    near = [n.base for n in full if abs(n.base - best) < 0.6]
    return sum(near) / len(near) if near else best


def _stack(candidates: list[Node], edge: float, up: bool, size: float) -> list[Node]:
    """What stands on a rule (up) or hangs from it: the glyphs nearest the rule and those on their
    level (overlapping them vertically: their scripts, a neighbour's parts), no further."""
    if not candidates:
        return []
    key = (lambda n: -n.bottom) if up else (lambda n: n.top)
    ordered = sorted(candidates, key=key)
    first = ordered[0]
    gap0 = (edge - first.bottom) if up else (first.top - edge)
    if gap0 > size * (NESTED_FRACTION_GAP if first.kind == "frac" else 1.0):
        return []
    taken = [first]
    top, bottom = first.top, first.bottom
    changed = True
    while changed:
        changed = False
        for n in ordered:
            if n in taken:
                continue
            near_rule = ((edge - n.bottom) if up else (n.top - edge)) < size * 0.3
            # on their level: beside them and overlapping their height (a script, a minus sign), or,
            # set over or under one of them, overlapping by a good part of the smaller height: not a
            # descender grazing the next row's ascender (a matrix of fractions: one's denominator
            # and the next one's numerator all but touch)
            overlap = min(bottom, n.bottom) - max(top, n.top)
            # (a script over a script is beside, and so is a body whose script, set on past its
            # middle, was taken first: the italic body's box overhangs its subscript's start)
            stacked = n.size >= max(m.size for m in taken) * 0.85 and \
                any(min(m.x1, n.x1) - max(m.x0, n.x0) > 0.3 and not _script_of(m, n) for m in taken)
            # (a script of a glyph taken is on its level, whatever it overlaps: a superscript over a
            # short letter clears the row's x-height, and in the smallest size a subscript is as large
            # as its body and stands under its superscript, e^{-\frac{…}{2\sigma_{i}^{2}}})
            scripted = any(_sets_script(n, m) for m in taken)
            if near_rule or scripted or overlap > 0.1 and (not stacked or
                                                           overlap >= min(n.bottom - n.top, bottom - top) * STACK_OVERLAP):
                taken.append(n)
                top, bottom = min(top, n.top), max(bottom, n.bottom)
                changed = True
    return taken


STACK_OVERLAP = 0.25   # of the smaller height
# em: how far a fraction standing in another's part may be from its rule, ink to rule: \cfrac puts a
# strut (0.7 \baselineskip) in every numerator, so a denominator that is a fraction clears the rule by
# its box, a strut's height over its numerator's baseline, not by its ink (a lone x-height letter)
NESTED_FRACTION_GAP = 1.5


def _sets_script(n: Node, body: Node) -> bool:
    """Whether a glyph stands where TeX sets a script of another: no larger, starting past its middle
    and by its right end, its baseline raised or lowered by a script's shift, its ink touching the
    body's height."""
    shift = abs(n.base - body.base)
    return n.size <= body.size * 1.05 and n.x0 > body.cx and n.x0 - body.x1 < n.size * SCRIPT_KERN and \
        body.size * SCRIPT_SHIFT_MIN < shift < body.size * SCRIPT_SHIFT_MAX and \
        n.bottom >= body.top - body.size * SCRIPT_TOUCH and n.top <= body.bottom + body.size * SCRIPT_TOUCH


SCRIPT_KERN = 0.5        # of the script's size: it starts this close after its body's end, or before it
SCRIPT_SHIFT_MIN = 0.1   # em of the body: a script's baseline is raised or lowered by more than this
SCRIPT_SHIFT_MAX = 0.75  # ... and by less than this (a row under it is a baselineskip away)
SCRIPT_TOUCH = 0.1       # em of the body: the script's ink reaches within this of the body's


def _script_of(script: Node, body: Node) -> bool:
    """Whether a glyph is set as a script of another: smaller, and starting past its middle."""
    return script.size < body.size * SCRIPT_SIZE and script.x0 > body.cx
OVERLINE_GAP = 0.3     # em: an overline clears its part's ink by three rule widths and more


def _row_part(part: list[Node], nodes: list[Node], x0: float, x1: float, rule: tuple | None = None) -> list[Node]:
    """What stands on (or hangs from) a rule, unless it is part of a row that runs on past the rule's
    end: TeX boxes a fraction's numerator and denominator (and an overlined body), so nothing on
    their level crosses the rule's ends; a glyph that does makes the part a piece of the row above or
    below (the closing bar of |z| over the bar of a conjugate), and the rule none of its business.
    A glyph of the fraction's own row (`rule`, a bar: its baseline the maths axis's height under the
    bar's middle, its ink reaching over and under the bar) is neither part's: an italic f set right
    after a fraction reaches back under the bar's end with its tail (TeX Gyre Termes Math's, 0.8 pt
    at 10 pt) and up to the numerator's foot with its top."""
    if not part:
        return part
    _, _, top, bottom = _box(part)
    size = _size(part)
    for n in nodes:
        if n in part or n.top >= bottom - ROW_OVERLAP or n.bottom <= top + ROW_OVERLAP:
            continue
        if rule is not None and n.top < rule[1] and n.bottom > rule[3] and \
                abs(n.base - (rule[1] + rule[3]) / 2 - n.size * FRACTION_AXIS) <= n.size * ROW_AXIS_SLACK:
            continue
        if n.size < size * SCRIPT_SIZE and x1 - n.x0 < n.size * SCRIPT_CUT_IN:
            continue      # the body's script, which an OpenType font's cut-in sets a little under the rule's end
        if n.kind == "sym" and n.role == "op" and n.height > size * 1.5 and n.x0 < x0:
            continue      # a big operator's ink over its own script's rule (an integral's tail, \int_{\underline{A}})
        n0, n1 = _ink_span(n)
        if any(n0 < end - ROW_OVERLAP and n1 > end + ROW_OVERLAP and not _overhangs(n, end, x0, x1)
               for end in (x0, x1)):
            return []
    return part


def _overhangs(n: Node, end: float, x0: float, x1: float) -> bool:
    """Whether an italic letter crosses a rule's end only by its slant's overhang: its middle beyond
    the end, outside the rule, and its ink reaching back past it by less than ITALIC_OVERHANG (the
    foot of an italic B or f set right after `\\overline{A}` or a fraction, the top of a letter right
    before one).  It is the next glyph of the row, set after the rule's box, not a row running on."""
    if not (n.kind == "sym" and n.style == "it" and n.ch.isalpha()):
        return False
    reach = n.size * ITALIC_OVERHANG
    return n.cx > x1 and n.x0 > x1 - reach if end == x1 else n.cx < x0 and n.x1 < x0 + reach


def _ink_span(n: Node) -> tuple[float, float]:
    """A node's ink from left to right: an over- or underlined body's, not its rule's.  TeX draws the
    rule as wide as the body's box, and two side by side (`\\overline{A}\\overline{B}`) overlap by a
    point where the italic letters' boxes are kerned together; the neighbour's rule crossing this
    rule's end is no row running on past it."""
    body = n.parts.get("body") if n.kind == "accent" and n.parts.get("accent") in ("overline", "underline") else None
    return (min(m.x0 for m in body), max(m.x1 for m in body)) if body else (n.x0, n.x1)


ROW_OVERLAP = 0.5   # pt: a glyph crosses a rule's end, or shares a part's level, by more than this
FRACTION_AXIS = 0.25  # em: a fraction's bar stands on the maths axis, this far over its row's baseline
ROW_AXIS_SLACK = 0.1  # em: ... within this
SCRIPT_CUT_IN = 0.3  # em (of the script): how far a script may start back under its body's rule
FLANK_GAP = 2.0     # em: a row's glyphs of one size stand closer than this beside one another (scripts between)
FLANK_TIGHT = 0.3   # em: ... and a glyph this close runs on from its neighbour


def _flanked(part: list[Node], nodes: list[Node], rule: tuple, rules: list[tuple]) -> bool:
    """Whether what stands on a rule has glyphs of its size on its own baseline close beside it on
    both sides, out past the rule's ends and over no rule of their own: it is a piece of the row
    above (a display's sign over an overline in the display under it), not a numerator, which TeX
    raises above its row's baseline in a box of its own."""
    x0, _, x1, _ = rule
    base, size = _main_base(part), _size(part)
    px0, px1, _, _ = _box(part)

    def over_a_rule(n: Node) -> bool:
        return any(r[0] < n.x1 and r[2] > n.x0 and 0 <= r[1] - n.bottom < size for r in rules if r is not rule)

    def beside(n: Node, left: bool, reach: float = FLANK_GAP) -> bool:
        gap = px0 - n.x1 if left else n.x0 - px1
        outside = n.x0 < x0 - ROW_OVERLAP if left else n.x1 > x1 + ROW_OVERLAP
        return n not in part and n.kind != "space" and abs(n.base - base) < ROW_OVERLAP and \
            abs(n.size - size) < size * 0.15 and -ROW_OVERLAP <= gap < size * reach and outside and \
            not over_a_rule(n) and not _a_script(n)

    # (a glyph beside it that is itself a script of a larger glyph of its row is no piece of a row at
    # the part's level: in a matrix of text-style fractions the numerators stand as high as the
    # superscripts of the letters after the fractions, \frac{1}{2}T^{3} & \frac{1}{2}T^{2})
    def _a_script(n: Node) -> bool:
        return any(m is not n and m not in part and _script_of(n, m) and _sets_script(n, m) for m in nodes)
    if any(beside(n, True) for n in nodes) and any(beside(n, False) for n in nodes):
        return True
    # (at a row's start or end, one side: a glyph set on from it as a row's glyphs are, closer than
    # TeX sets anything beside a fraction's box: an align's \overline{Q} under the row above's Q)
    return any(beside(n, left, FLANK_TIGHT) for n in nodes for left in (True, False))


ITALIC_OVERHANG = 0.15   # em: how far an italic letter's ink may run past its box on the right
COLUMN_RULES = 0.1       # em: two fraction bars whose ends lie this close stand in one column (not nested:
                         # a fraction's bar overhangs a nested one's by its null delimiter spaces, 0.12 em each)


FRACTION_REACH = 2.0   # ems of a glyph's own size between it and a rule it may be a part of


def _fractions(nodes: list[Node], rules: list[tuple]):
    """A rule with glyphs standing on it and hanging from it, within its length: a fraction.  The
    shortest rule first, so that nested fractions are built from the inside out."""
    rules = sorted(rules, key=lambda r: r[2] - r[0])
    left = []
    for rule in rules:
        x0, top, x1, bottom = rule
        # (an italic capital's ink may overhang its box past the bar's right end: STIX's V; so may an
        # accent over an italic letter, skewed right with its slant: \tilde{f} ending a numerator)
        inside = [n for n in nodes if n.x0 >= x0 - 1.2 and (n.x1 - n.x0) > 0 and n.x1 <= x1 + (
                      max(1.2, n.size * ITALIC_OVERHANG) if n.kind == "sym" and (
                          n.style == "it" and n.ch.isalpha() or n.role == "accent") or n.kind == "accent" and
                      "rule" not in n.parts else 1.2)]
        # (measured on the glyphs within reach of the rule: another row's, far above or below in the
        # rule's stretch of the page, are no part of it)
        reach = [n for n in inside if top - n.bottom < n.size * FRACTION_REACH and n.top - bottom < n.size * FRACTION_REACH]
        size = _size(reach or inside) if inside else 10.0
        # (nothing drawn stands between a fraction's bar and its parts: past a longer rule lie another
        # fraction's, \frac{s - \underline{s}}{\overline{s} - s} has an underline and an overline
        # next to its bar, each with the other part's glyphs beyond the bar)
        beyond = lambda n, up: any(r is not rule and r[0] <= n.cx <= r[2] and r[2] - r[0] > x1 - x0
                                   and (n.bottom <= r[1] < top if up else bottom < r[1] <= n.top) for r in rules)
        # (between two rules of one length, one over the other, a glyph is the part of the rule it
        # stands nearer: a column of fractions in a matrix sets one's denominator all but touching
        # the next one's numerator, and the denominator's letters would read as the numerator's
        # superscripts, \frac{\partial y}{\partial x} over \frac{\partial y}{\partial z})
        column = [r for r in rules if r is not rule and abs(r[0] - x0) < size * COLUMN_RULES
                  and abs(r[2] - x1) < size * COLUMN_RULES]
        nearer_other = lambda n, up: any(
            (r[3] <= n.top and n.top - r[3] < top - n.bottom) if up else
            (r[1] >= n.bottom and r[1] - n.bottom < n.top - bottom) for r in column)
        above = [n for n in inside if n.bottom <= top + size * 0.12 and not beyond(n, True)
                 and not nearer_other(n, True)]
        below = [n for n in inside if n.top >= bottom - size * 0.12 and not beyond(n, False)
                 and not nearer_other(n, False)]
        num = _row_part(_stack(above, top, True, size), nodes, x0, x1, rule)
        den = _row_part(_stack(below, bottom, False, size), nodes, x0, x1, rule)
        if num and _flanked(num, nodes, rule, rules):
            num = []
        if not num or not den:
            left.append(rule)
            continue
        # a fraction's parts are centred on its rule (or flush with it): a rule much longer than both is
        # something else (a table's rule, an overline over more than this)
        nx0, nx1, _, _ = _box(num)
        dx0, dx1, _, _ = _box(den)
        if min(nx0, dx0) - x0 > size * 1.2 and x1 - max(nx1, dx1) > size * 1.2:
            left.append(rule)
            continue
        if _column_rule(rule, reach, size):
            left.append(rule)
            continue
        # the rules within a part's own height (a nested fraction's; above a numerator, an overline's
        # clearance), not another fraction's below it (a matrix of fractions, a radical's beneath)
        inner = [r for r in rules if r is not rule and x0 - 1 <= r[0] and r[2] <= x1 + 1]
        ny0, ny1, dy0, dy1 = _box(num)[2], _box(num)[3], _box(den)[2], _box(den)[3]
        axis = (top + bottom) / 2
        node = _composite("frac", num + den, axis + size * 0.25, size, rule=rule,
                          num=_row_of(num, [r for r in inner if ny0 - size * OVERLINE_GAP <= r[1] < top]),
                          den=_row_of(den, [r for r in inner if bottom < r[1] <= dy1 + size * OVERLINE_GAP]))
        for part in node.parts["num"] + node.parts["den"]:
            if part.kind == "binom":
                # a fraction's parts are set in text style: \binom prints small there, and one whose parts
                # are the display's own size was written \dbinom
                part.parts["display"] = not part.parts.get("small") and \
                    _size(_leaves(part.parts["num"] + part.parts["den"])) >= size * SMALL_PARTS
                part.parts["small"] = False
        nodes = [n for n in nodes if n not in num and n not in den] + [node]
    _continued_fractions(nodes)
    return nodes, left


def _column_rule(rule: tuple, near: list[Node], size: float) -> bool:
    """Whether a rule with glyphs on it and under it runs past everything near it by an array's
    padding at both ends: an `\\hline` between two rows of a one-column array (a stacked vector
    parted into blocks, `\\left[\\begin{array}{c} … \\\\ \\hline … \\end{array}\\right]`), which TeX draws
    across the column and its \\arraycolsep on each side.  A fraction's bar runs past its wider part's
    box by \\nulldelimiterspace only (1.2 pt), whichever glyphs stand on it."""
    x0, _, x1, _ = rule
    boxed = [n for n in near if n.kind != "space"]
    if not boxed:
        return False
    first = min(min(n.x0, n.adv0) if n.adv1 > n.adv0 else n.x0 for n in boxed)
    last = max(max(n.x1, n.adv1) if n.adv1 > n.adv0 else n.x1 for n in boxed)
    return first - x0 > size * HLINE_OVERHANG and x1 - last > size * HLINE_OVERHANG


HLINE_OVERHANG = 0.3   # em: an \hline runs \arraycolsep (5 pt, 0.45 to 0.5 em) past a column's widest cell;
                       # a fraction's bar \nulldelimiterspace (1.2 pt, 0.12 em) past its wider part


CONTINUED_CHAIN = 3   # fractions, each in the denominator of the one before at its size: a continued fraction
# (two are as often a \frac over a \dfrac, which prints alike: \dfrac is the reading then)


def _continued_fractions(nodes: list[Node]) -> None:
    """A fraction in another's denominator is set a style smaller (its parts in the script size under
    a display's \\frac); \\cfrac keeps every level's parts at the size of the first.  A chain of fractions,
    each in the one before's denominator beside glyphs of its own size, is a continued fraction: \\cfrac."""
    def inner(frac: Node) -> Node | None:
        den = frac.parts.get("den") or []
        glyphs = [n for n in den if n.kind == "sym"]
        nested = [n for n in den if n.kind == "frac"]
        # (its parts' glyphs at the size of the glyphs beside it: a \frac there is set a style smaller)
        parts = [m for m in _leaves(nested[0].parts.get("num", []) + nested[0].parts.get("den", []))
                 if m.kind == "sym"] if len(nested) == 1 else []
        if len(nested) == 1 and glyphs and parts and _size(parts) >= _size(glyphs) * 0.9:
            return nested[0]
        return None

    # (the whole chain at the row's own size: TeX's smallest style stops shrinking, so fractions deep
    # in a \\frac chain keep one size too)
    row = _size([n for n in nodes if n.kind == "sym"] or nodes)
    for frac in [n for n in nodes if n.kind == "frac"]:
        chain = [frac]
        while (step := inner(chain[-1])) is not None:
            chain.append(step)
        if len(chain) >= CONTINUED_CHAIN and min(step.size for step in chain) >= row * 0.9:
            for step in chain:
                step.parts["continued"] = True


LINE_SIDE_MARGIN = 0.2   # em: the other row stands at least this much further from an over- or underline


def _ink_bottom(n: Node) -> float:
    """The bottom of a node's glyphs: an underlined body's, not its rule's."""
    body = n.parts.get("body") if n.kind == "accent" and n.parts.get("accent") == "underline" else None
    return max((m.bottom for m in body), default=n.bottom) if body else n.bottom


def _ink_top(n: Node) -> float:
    """The top of a node's glyphs: an overlined body's, not its rule's."""
    body = n.parts.get("body") if n.kind == "accent" and n.parts.get("accent") == "overline" else None
    return min((m.top for m in body), default=n.top) if body else n.top


def _lines(nodes: list[Node], rules: list[tuple]):
    """A rule over glyphs with nothing standing on it is an overline; under them with nothing
    below, an underline."""
    left = []
    for rule in rules:
        x0, top, x1, bottom = rule
        # (a glyph whose middle is off the rule is beside it: a bar before \overline{X}, its ink a hair
        # from the rule's end)
        inside = [n for n in nodes if _inside(n, x0, x1, 1.0) and n.x1 - n.x0 > 0 and x0 <= n.cx <= x1]
        # (measured on the glyphs within reach of the rule: another row's, far above or below in the
        # rule's stretch of the page, are no part of it)
        reach = [n for n in inside if top - n.bottom < n.size * FRACTION_REACH and n.top - bottom < n.size * FRACTION_REACH]
        size = _size(reach or inside) if inside else 10.0
        under = _row_part(_stack([n for n in inside if n.top >= bottom - size * 0.1], bottom, False, size),
                          nodes, x0, x1)
        over = _row_part(_stack([n for n in inside if n.bottom <= top + size * 0.1], top, True, size), nodes, x0, x1)
        if under and over:
            # rows set close (a cases block's): the rule hugs the glyphs on one side, three rule widths
            # off, and stands far from the other row
            gap_under, gap_over = min(_ink_top(n) for n in under) - bottom, top - max(_ink_bottom(n) for n in over)
            if gap_under <= size * OVERLINE_GAP and gap_over > gap_under * 2 + size * LINE_SIDE_MARGIN:
                over = []
            elif gap_over <= size * OVERLINE_GAP and gap_under > gap_over * 2 + size * LINE_SIDE_MARGIN:
                under = []
        target, kind = (under, "overline") if under and not over else ((over, "underline") if over and not under
                                                                       else (None, None))
        if not target:
            left.append(rule)
            continue
        tx0, tx1, _, _ = _box(target)
        if tx0 - x0 > size * 0.5 or x1 - tx1 > size * 0.5:
            left.append(rule)
            continue
        node = _composite("accent", target, _main_base(target), _size(target), rule=rule, accent=kind,
                          body=_row_of(target, []))
        nodes = [n for n in nodes if n not in target] + [node]
    return nodes, left


def _in_a_row(arrow: Node, nodes: list[Node]) -> bool:
    """An arrow with glyphs of its own size on its baseline close on both sides is a relation of that
    row (a note over a long arrow, \\xrightarrow{k \\to \\infty}), not an accent over what is under it."""
    if arrow.ch != "→":
        return False
    near = [n for n in nodes if n is not arrow and n.top <= arrow.cy <= n.bottom and n.role not in ("open", "close", "fence")
            and abs(n.size - arrow.size) < arrow.size * 0.15]
    return any(0 <= arrow.x0 - n.x1 < arrow.size * 0.6 for n in near) and \
        any(0 <= n.x0 - arrow.x1 < arrow.size * 0.6 for n in near)


def _accents(nodes: list[Node]) -> list[Node]:
    """An accent glyph just above glyphs that its ink overlaps accents them: one glyph \\hat{x}, several
    a wide accent \\widehat{AB}."""
    accents = [n for n in nodes if (n.role == "accent" or (n.ch in ("^", "~", "→") and n.kind == "sym")
                                    or (n.kind == "sym" and n.tex in OVER_ARROWS)) and not _in_a_row(n, nodes)]
    if not accents:
        return nodes
    gone: set[int] = set()
    made: list[Node] = []
    text = _size(nodes)
    # the innermost (lowest) accents first: \hat{\bar{x}} stacks two over one letter
    for acc in sorted(accents, key=lambda a: -a.bottom):
        width = max(acc.x1 - acc.x0, 0.3)
        # (TeX's extension font has one size for every style, and a book set larger than its design size
        # may load it at that size, cmex at 10 pt under 17 pt text: its wide hat's font size says nothing
        # of the letters under it, which stand as far below it as the row's size sets them)
        em = max(acc.size, text) if acc.parts.get("ext") else acc.size
        pool = [n for n in nodes + made if n is not acc and id(n) not in gone and n.role != "accent"]
        under = [n for n in pool if min(n.x1, acc.x1) - max(n.x0, acc.x0) > min(width, n.x1 - n.x0) * 0.3
                 and n.top >= acc.bottom - em * 0.25 and n.top - acc.bottom < em * 0.6
                 and n.kind != "word"]
        if under and acc.x1 - acc.x0 > acc.size:
            # a wide accent over a name and what follows it (\widehat{\log P}): the name too, when most
            # of it lies under the accent
            under += [n for n in pool if n.kind == "word" and min(n.x1, acc.x1) - max(n.x0, acc.x0) > (n.x1 - n.x0) * 0.6
                      and n.top >= acc.bottom - acc.size * 0.25 and n.top - acc.bottom < acc.size * 0.6]
        if not under:
            # a wide accent over a name of several upright letters (\widehat{\mathrm{EIG}}): over most of it
            under = [n for n in pool if n.kind == "word" and acc.x0 - n.size * 0.5 <= n.x0 and n.x1 <= acc.x1 + n.size * 0.5
                     and min(n.x1, acc.x1) - max(n.x0, acc.x0) > (n.x1 - n.x0) * 0.6
                     and n.top >= acc.bottom - acc.size * 0.25 and n.top - acc.bottom < acc.size * 0.6]
        over_arrow = acc.tex in OVER_ARROWS and acc.ch != "→"
        if over_arrow:
            # just below it (TeX sets it a point or two over their ink), not a piece beside it, nor a
            # glyph of the next line under an arrow of its own
            under = [n for n in under if n.cy > acc.bottom and n.top - acc.bottom < acc.size * 0.3]
        if over_arrow and any(n.size < acc.size * 0.95 for n in under):
            continue                   # a note under an arrow (\xrightarrow[…]{}), not what it is set over
        if not under:
            if over_arrow:
                continue
            if acc.role == "accent" and acc.ch in ("^", "~") and not acc.parts.get("ext"):
                acc.role = "ord"
            elif acc.role == "accent":
                gone.add(id(acc))      # an accent whose letter is not in this formula (a neighbour's)
            continue
        # a bracket that rises past the accent's foot, or that the accent's end overhangs by less than
        # half its width, stands beside it (E[\\widehat{f}]), not under it
        under = [n for n in under if not (n.role in ("open", "close", "fence") and (
            n.top < acc.bottom or min(n.x1, acc.x1) - max(n.x0, acc.x0) < (n.x1 - n.x0) * 0.5))] or under
        nearest = min(n.top for n in under)
        under = [n for n in under if n.top - nearest < em * 0.5]
        # a script hangs on the accented letter past the accent's end (\hat{d}_{t}): not under it
        largest = max(n.size for n in under)
        under = [n for n in under if n.size >= largest * 0.85 or n.x1 <= acc.x1 + 0.3] or under
        if len(under) > 1:
            # a script set between the glyphs under a wide accent is under it too (\widehat{\nabla_{\psi} U}),
            # however far it hangs below the accent
            left, right, low = min(n.x0 for n in under), max(n.x1 for n in under), max(n.bottom for n in under)
            under += [n for n in pool if n not in under and n.kind != "word" and n.size < largest * 0.85
                      and left <= n.x0 and n.x1 <= right and acc.bottom <= n.top < low]
        kind = OVER_ARROWS[acc.tex] if over_arrow else ACCENTS.get(acc.ch, "hat")
        if acc.ch == "→" and not acc.parts.get("pieces") and \
                not (acc.size < min(n.size for n in under) * 0.95 or acc.x1 - acc.x0 < acc.size * 0.7):
            if len(under) < 2:
                continue               # an arrow of its own, not the vector accent
            kind = "overrightarrow"    # a full-size arrow over what it spans
        # the extension font's hat and tilde are \\widehat and \\widetilde, over one letter too (its
        # smallest size); \\hat and \\tilde come from the letters' or the text font
        several = len(under) > 1 or under[0].kind == "word"      # (a name's letters are several too)
        # (an OpenType font's \widehat over one letter is a variant of the hat as wide as the letter,
        # twice its plain hat's width and more)
        wide = several or acc.parts.get("ext") and kind in ("hat", "tilde") or acc.parts.get("pieces") or \
            kind in ("hat", "tilde") and acc.x1 - acc.x0 >= acc.size * WIDE_ACCENT
        if several and kind in WIDE:
            kind = WIDE[kind]
        elif wide and kind in ("hat", "tilde"):
            kind = WIDE[kind]
        body = sorted(under, key=lambda n: n.x0)
        node = _composite("accent", body + [acc], _main_base(body), _size(body), accent=kind,
                          body=_row_of(body, []))
        for n in body:
            gone.add(id(n))
        gone.add(id(acc))
        made = [m for m in made if id(m) not in gone]
        made.append(node)
    return [n for n in nodes if id(n) not in gone] + made


LIMIT_SIZE = 0.85   # a limit is set in script style, at most about 0.75 of the row's size; a row's own fonts
LIMIT_TALL = 1.3   # of the row's size: no glyph of a limit is taller than a line of its type
                    # differ by up to a tenth (one scaled to match another's x-height: an unscaled script
                    # capital beside a text face set at 0.92), so a glyph within that of the largest is no limit


def _limits(nodes: list[Node], rules: list[tuple] = ()) -> list[Node]:
    """Glyphs stacked above and below a big operator or an operator's name, centred on it and
    smaller than it, are its limits (a display's \\sum_{i=1}^{n}, \\max_{a})."""
    notes = [w for w in nodes if _is_note_word(w)]
    text = _size(nodes)              # the size of the row's glyphs (a big operator's own says little)
    # (an upright word in a script's size is a script's word, `L_{j}^{\mathrm{cum}}`: in a script TeX sets
    # no limits under a name, the glyph under it is a script of the letter before)
    ops = sorted((n for n in nodes if (n.role == "op" and n.kind != "op") or (n.kind == "word" and n.role != "op"
                                                                              and n.style == "up"
                                                                              and n.size >= text * LIMIT_SIZE)
                  or (n.kind == "sym" and n.role == "rel" and n.tex in RELATIONS) or (notes and _under_a_note(n, notes))
                  or _letter_operator(n, text)),
                 # operators before relations: a limit hanging under a sum may stand over the next
                 # row's relation (an align's rows), whose notes are rarer and set closer
                 key=lambda n: (n.kind == "sym" and n.role == "rel", -n.size))
    if not ops:
        return nodes
    gone: set[int] = set()
    made: list[Node] = []
    # (the big operators of the row itself, not one set in a limit: \substack{… \\ \sum_{i} …} under a name)
    big = [o for o in ops if o.kind == "sym" and o.role == "op" and o.size >= text * LIMIT_SIZE]
    # A big operator with glyphs at its foot that grow into no limit waits for the other big operators
    # of its row: two sums side by side whose limits touch (\sum_{n=0}^\infty \sum_{m=-n}^n) grow one
    # limit under both, which the first lets go (its last glyph, right of the second's foot, reads as
    # that sum's subscript); once the second has taken its own, the first's is left whole.
    later: list[Node] = []
    queue = list(ops)
    while queue:
        op = queue.pop(0)
        if id(op) in gone:
            continue
        ref = op.size if op.kind == "word" else max(op.size, op.height * 0.7)
        # (an operator's name set in a script's size is a limit's word: \\sum_{j=0}^{\\log_b n - 1})
        # (and so is a big operator set in a script's size: \substack{… \\ \sum_{i} \lambda_{i} = 1})
        # (nor is a glyph taller than a line of the row's type: a big delimiter, whose extension font may
        # be set at a smaller size than the text, as LaTeX's 12pt classes set cmex10 without exscale)
        # (nor is a script set beside another big operator: an align's next integral's upper limit,
        # \int_{0}^{T} in display style beside its top, stands right under this one's foot)
        pool = [n for n in nodes if n is not op and id(n) not in gone and n.size < text * LIMIT_SIZE
                and (n.role != "op" or n.size < op.size * LIMIT_SIZE) and n.height < text * LIMIT_TALL
                and not any(o is not op and _set_beside(n, o) for o in big)]
        # the operator's ink: a word's letters sit on its baseline
        top, bottom = (op.top, op.bottom) if op.kind != "word" else (op.base - op.size * 0.7, op.base)
        near_x = lambda n: op.x0 - ref * 0.25 <= n.cx <= op.x1 + ref * 0.25
        (below, above), grown = _limit_groups(op, pool, nodes, rules, top, bottom, ref, near_x)
        if op.kind == "sym" and op.role == "op" and op not in later and not grown[0] and any(
                near_x(n) and bottom - op.size * 0.12 <= n.top <= bottom + ref * 0.75 for n in pool) and any(
                o is not op and o.kind == "sym" and o.role == "op" and id(o) not in gone and o.bottom > op.top
                and o.top < op.bottom for o in ops):
            later.append(op)      # glyphs at its foot make no limit yet: after its neighbour's are taken
            queue.append(op)
            continue
        # two operators side by side have limits that may nearly touch (TeX centres each on its own:
        # \sum_{t}\sum_{j}, \sup_{x}\inf_{y}): a limit grown across both, centred on neither or
        # reaching under the other, is split between them where the glyphs nearer the other operator
        # are centred on that one
        off_centre = (grown[0] and not below) or (grown[1] and not above)
        others = [o for o in nodes if o is not op and o.kind in ("sym", "word") and o.role == "op"
                  and o.top < op.bottom and o.bottom > op.top]
        under_other = [o for o in others if any(g and min(n.x0 for n in g) < o.x1 and max(n.x1 for n in g) > o.x0
                                                 for g in grown)]
        beside = others if off_centre else under_other
        if beside:
            # each glyph of a grown limit goes to the side of the widest gap between the operators'
            # middles (TeX centres each limit on its operator and sets nothing between the two): a
            # bracket closing one limit may stand nearer the other operator's edge
            # (over every small glyph on the group's level, those another operator took already too;
            # for an operator next to this one: one further off parts by nearness, as its limit is
            # no neighbour of this one's)
            small = [n for n in nodes if n is not op and n.size < text * LIMIT_SIZE and n.role != "op"]
            adjacent = [o for o in beside if max(o.x0 - op.x1, op.x0 - o.x1) < text * ADJACENT_OPERATORS]
            levels = [_level_with(group, small) for group in grown]
            bounds = [{id(o): _limits_part(op, o, level) if o in adjacent else
                       _centring_part(op, o, level, _cuts_between(op, o, level))
                       for o in beside} for level in levels]

            def mine(n: Node) -> bool:
                k = 0 if n in grown[0] else 1 if n in grown[1] else None
                for o in beside:
                    if k is not None and bounds[k].get(id(o)) is not None:
                        if (n.cx < bounds[k][id(o)]) != (op.cx < o.cx):
                            return False
                    elif _span_gap(n, o) < _span_gap(n, op):
                        return False
                return True
            apart = [n for n in pool if mine(n)]
            split, _ = _limit_groups(op, apart, nodes, rules, top, bottom, ref, near_x)
            found = [below, above]
            for k in (0, 1):
                rest = [n for n in grown[k] if n not in split[k]]
                if (not found[k] or not off_centre) and split[k] and rest and _limits_of_others(rest, beside):
                    found[k] = split[k]
            below, above = found
        if op.role == "rel" and above and below:
            # an align's rows of annotated steps (\\overset{(b)}{\\leq} over \\overset{(c)}{\\leq}): a note
            # right over the next row's relation, centred on it, is that relation's
            below = [] if _over_another(below, op, nodes, ref) else below
            above = [] if _over_another(above, op, nodes, ref, under=True) else above
        if op.kind == "word" and op.role != "op" and not below:
            continue
        if op.role == "rel" and (not (above or below) or (above and below) or op.size < text * 0.9
                                 or any(n.size > op.size * 0.85 for n in above + below)):
            continue          # a note is set smaller over or under a relation of the row's size
        letter = _letter_operator(op, text)
        if letter and not (below and not above and min(n.top for n in below) >= op.bottom + text * LETTER_LIMIT_DROP
                           and abs(_box(below)[0] + _box(below)[1] - 2 * op.cx) <= text * LETTER_LIMIT_CENTRE * 2
                           and _alone_on_its_level(below, nodes, op, text)):
            if not (notes and _under_a_note(op, notes)):
                continue      # a letter's own subscript, or a row below: no limit centred beneath it
            letter = False
        note = op.kind == "sym" and op.role == "ord" and not letter   # a letter under a note (_under_a_note)
        if note and (below or not above or not all(_is_note_word(n) for n in above)
                                 or min(n.bottom for n in above) > op.top + 0.5):
            continue          # over a letter, only words of text wholly above it (\overset{\text{Nash}}{U})
        if not below and not above:
            side = _side_lines(op, pool, text, rules, nodes) if op.kind == "sym" and op.role == "op" else []
            if len(side) > 1:       # a text-style operator's subscript in lines: \sum_{\substack{…}}
                node = _composite("op", [op] + [n for line in side for n in line], op.base, op.size, op=op,
                                  lower=None, lower_lines=[_row_of(line, []) for line in side], upper=None)
                gone.update(id(n) for n in [op] + [n for line in side for n in line])
                made.append(node)
            continue
        lines = _limit_lines(below, op)
        # (a last line standing right over another big operator, centred on it, is that one's upper
        # limit: a cases block sets the next row's \sum\limits so close that the two limits touch)
        while len(lines) > 1 and _over_another_operator(lines[-1], nodes, op, text):
            lines.pop()
        while lines:      # \substack: more lines of limit under the first, each centred on the operator
            taken = [n for line in lines for n in line]
            edge = _box(lines[-1])[3]
            seed = [n for n in pool if n not in taken and near_x(n) and edge - 0.5 <= n.top <= edge + text * 0.4
                    and not _hangs_on(n, nodes, op, rules) and not _over_operator(n, nodes, op, text)]
            line = _grow_limit(seed, [n for n in pool if n not in taken])
            # (a line that goes on from a neighbour's script is that script: the next row's y_{i}^{(k)})
            if not line or not _centred_on(line, op) \
                    or any(n.top < edge - 0.5 for n in line) \
                    or any(_hangs_on(n, [m for m in nodes if m not in line], op, rules) for n in line):
                break
            lines.append(line)
        below = [n for line in lines for n in line]
        parts = {"op": op, "lower": _row_of(below, []) if len(lines) == 1 else None,
                 "lower_lines": [_row_of(line, []) for line in lines] if len(lines) > 1 else None,
                 "upper": _row_of(above, []) if above else None}
        base = op.base
        node = _composite("op", [op] + below + above, base, op.size, **parts)
        node.role = "rel" if op.role == "rel" else "ord" if note else "op"
        if letter:
            node.parts["letter"] = True
        if note:
            # the letter's own scripts follow its ink, under the note's overhang (\overset{…}{U}^{i})
            node.x0, node.x1, node.adv0, node.adv1 = op.x0, op.x1, op.adv0, op.adv1
        for n in [op] + below + above:
            gone.add(id(n))
        made.append(node)
    return [n for n in nodes if id(n) not in gone] + made


def _set_beside(n: Node, op: Node) -> bool:
    """Whether a glyph is a script set beside a big operator (\\nolimits, an integral's default): smaller,
    starting right of its middle and by the end of its ink, its middle within the operator's height
    (\\int_{0}^{T} in display style: the superscript by the top, the subscript by the foot)."""
    return op.cx <= n.x0 <= op.x1 + op.size * SCRIPT_BESIDE_GAP and op.top < n.cy < op.bottom and \
        n.size < op.size * SCRIPT_SIZE


SCRIPT_BESIDE_GAP = 0.1     # em: where a script beside an operator starts, past its ink at most (less than
                            # the thin space before a small fraction after an operator with limits)
LETTER_LIMIT_DROP = 0.05    # em: a limit under a letter made an operator stands clear of its foot
LETTER_LIMIT_CENTRE = 0.25  # em: ... centred on it (a subscript begins at its right edge)


def _letter_operator(n: Node, text: float) -> bool:
    """Whether a node is a single letter at the row's size that may carry limits as an operator does:
    \\mathop{\\mathbb{E}}_{s' \\sim T} in a display sets its subscript centred beneath the letter.  An
    operator's letter is upright, double-struck or calligraphic, not the maths italic of variables."""
    return n.kind == "sym" and n.role == "ord" and len(n.ch) == 1 and n.ch.isalpha() and n.size >= text * 0.9 \
        and n.style in ("up", "bb", "ds", "bbm", "cal", "scr", "frak", "sf", "bfsf")


def _alone_on_its_level(group: list[Node], nodes: list[Node], op: Node, text: float) -> bool:
    """Whether nothing of the row's size stands beside a limit on its level, within an em: a limit
    hangs under its operator alone; scripts of the row below have its letters beside them."""
    x0, x1, top, bottom = _box(group)
    # (its level is its own line's, below the scripts raised on it: the descender of a letter on the
    # row above, g in \mathop{\mathbb{E}}_{\tau \sim \rho^{\pi}}[g_{\tau}], reaches down beside a
    # limit's superscript, and is no glyph of the limit's line)
    level = max(top, _main_base(group) - _size(group) * LIMIT_LINE_HALF)
    return not any(n is not op and n not in group and n.kind == "sym" and n.size >= text * 0.9
                   and n.role not in ("open", "close", "fence", "op", "piece", "radical")
                   and n.top < bottom and n.bottom > level and n.x1 > x0 - text and n.x0 < x1 + text
                   for n in nodes)


LIMIT_LINE_HALF = 0.5       # em (of the limit): a line's level reaches this far over its baseline


def _is_note_word(n: Node) -> bool:
    """A word of upright text letters (a note set over a symbol: "Nash", "def")."""
    return n.kind == "word" and n.style == "up" and n.role != "op" and len(n.ch) >= 2


def _under_a_note(n: Node, notes: list[Node]) -> bool:
    """Whether a letter at the row's size has a smaller word of text (one of `notes`) standing wholly
    above it and centred on it: a note over a letter, \\overset{\\text{Nash}}{U} (its limits are then
    read as a relation's are)."""
    if n.kind != "sym" or n.role != "ord" or not n.ch.isalpha():
        return False
    return any(w.size < n.size * LIMIT_SIZE and w.bottom <= n.top + 0.5 and n.top - w.bottom < n.size * 0.75
               and n.x0 - 1 <= w.cx <= n.x1 + 1 for w in notes)


def _over_another(group: list[Node], op: Node, nodes: list[Node], ref: float, under: bool = False) -> bool:
    """Whether a note found under a relation (over it, with `under`) stands as near over (under)
    another relation of its size and is centred on that one: its note, not this one's."""
    x0, x1, top, bottom = _box(group)
    middle = (x0 + x1) / 2
    return any(r is not op and r.kind == "sym" and r.role == "rel" and abs(r.size - op.size) < op.size * 0.1
               and abs(r.cx - middle) < ref * 0.25
               and (top - r.bottom if under else r.top - bottom) <= ref * 0.75
               and (top - r.bottom if under else r.top - bottom) >= -op.size * 0.12
               for r in nodes)


def _limit_groups(op: Node, pool: list[Node], nodes: list[Node], rules, top: float, bottom: float, ref: float,
                  near_x) -> tuple[tuple[list[Node], list[Node]], tuple[list[Node], list[Node]]]:
    """The glyphs under and over an operator that are its limits, grown from those next to it; and
    the groups as grown, before those not centred on it were let go."""
    in_band = lambda n: bottom - op.size * 0.12 <= n.top <= bottom + ref * 0.75
    below = [n for n in pool if near_x(n) and in_band(n)
             and not _hangs_on(n, nodes, op, rules) and not _rule_between(rules, op, n)]
    if not below:
        # a limit's glyph with scripts of its own (\pi^{\mathrm{any}}_{h} in a \substack under a
        # letter made an operator, narrower than its limit): the scripts stand under the operator's
        # middle and hang on their nucleus beside it, a glyph of the limit that starts the group
        scripts = [n for n in pool if near_x(n) and in_band(n) and not _rule_between(rules, op, n)]
        nuclei = {id(m): m for m in (_nucleus_of(n, nodes, op, rules) for n in scripts) if m is not None}
        below = [m for m in nuclei.values() if m in pool and in_band(m)
                 and not _hangs_on(m, nodes, op, rules) and not _rule_between(rules, op, m)]
    # (nor what stands nearer another operator's foot than this one's head: an align's rows set an
    # integral's lower limit, or a lim's, just over the upper limit of the next row's)
    feet = [(o, o.bottom if o.kind == "sym" else o.base + o.size * 0.3) for o in nodes
            if o is not op and o.role == "op" and o.kind in ("sym", "word")]
    above = [n for n in pool if near_x(n) and top - ref * 0.75 <= n.bottom <= top + op.size * 0.12
             and not _hangs_on(n, nodes, op, rules) and not _rule_between(rules, n, op)
             and not any(foot < bottom and o.x0 - 1 <= n.cx <= o.x1 + 1 and n.top - foot < top - n.bottom
                         for o, foot in feet)]
    below = _recentred(_grow_limit(below, pool), op, pool)
    above = _recentred(_grow_limit(above, pool), op, pool)
    if above and any(_hangs_from_rule(n, rules, top - max(m.bottom for m in above)) for n in above):
        above = []
    if above and _at_a_foot(above, op, top, feet):
        above = []
    # a group that goes on from a neighbour's script is that script (an exponent over the
    # operator of the row below), not a limit; limits are centred on the operator
    grown = []
    for group in (below, above):
        if any(_hangs_on(n, [m for m in nodes if m not in group], op, rules) for n in group):
            group = []
        grown.append(group)
    kept = [group if group and _centred_on(group, op) else [] for group in grown]
    return (kept[0], kept[1]), (grown[0], grown[1])


def _at_a_foot(group: list[Node], op: Node, top: float, feet: list[tuple[Node, float]]) -> bool:
    """Whether a group over an operator is another operator's script or limit, at the foot of one on
    the row above as large: it reaches into that operator's width and stands nearer its foot than
    this operator's head (a display integral's subscript, kerned in under its slant, stands over the
    next row's integral when an align sets the two on one column; its glyphs right of the integral's
    ink escape the test made on each glyph, so the whole group is judged).  An operator's name in
    the group is the limit's own (\\sum_{j=0}^{\\log_b n - 1})."""
    x0, x1, group_top, group_bottom = _box(group)
    return any(o not in group and o.size >= op.size * LIMIT_SIZE and foot < top and x0 <= o.x1 + 1
               and x1 >= o.x0 - 1 and group_top - foot < top - group_bottom for o, foot in feet)


def _recentred(group: list[Node], op: Node, pool: list[Node]) -> list[Node]:
    """A limit grown off the operator's centre takes in what stands on its baseline on the short side,
    within an em, while that brings it nearer the centre TeX sets it on (`i \\colon \\Delta_i > 0`:
    amsmath's \\colon keeps its 6mu in a script, wider than the limit's own spaces)."""
    if not group:
        return group
    group = list(group)
    base = _main_base(group)
    while True:
        x0, x1, _, _ = _box(group)
        off = (x0 + x1) / 2 - op.cx
        size = max(n.size for n in group)
        if abs(off) < size * 0.2:
            return group
        side = [n for n in pool if n not in group and abs(n.base - base) < size * 0.3 and
                (0 <= x0 - n.x1 < size if off > 0 else 0 <= n.x0 - x1 < size)]
        if not side:
            return group
        more = _grow_limit([max(side, key=lambda n: n.x1) if off > 0 else min(side, key=lambda n: n.x0)],
                           [n for n in pool if n not in group and abs(n.base - base) < size * 0.6])
        nx0, nx1, _, _ = _box(group + more)
        if abs((nx0 + nx1) / 2 - op.cx) >= abs(off):
            return group
        group += [n for n in more if n not in group]


ADJACENT_OPERATORS = 1.5   # em: operators this close side by side have limits that may nearly touch
LIMITS_APART = 0.1         # em (of the limits): two limits side by side stand at least this far apart
WIDEST_GAP = 1.5           # ... and their gap is this many times any gap inside either


def _level_with(group: list[Node], pool: list[Node]) -> list[Node]:
    """The glyphs of `pool` on the level of a group (its height overlapped): both operators' limits."""
    if not group:
        return []
    _, _, top, bottom = _box(group)
    return [n for n in pool if n.top < bottom and n.bottom > top]


def _limits_part(op: Node, other: Node, group: list[Node]) -> float | None:
    """Where the limits of two operators side by side part: the middle of the widest gap between
    the glyphs standing between the operators' middles, when it is plainly the widest (limits wider
    than their operators may touch: then None, and nearness decides)."""
    lo, hi = sorted((op.cx, other.cx))
    between = sorted((n for n in group if lo < n.cx < hi), key=lambda n: n.x0)
    gaps = sorted(((b.x0 - a.x1, (a.x1 + b.x0) / 2) for a, b in zip(between, between[1:])), reverse=True)
    if not gaps:
        return None
    size = _size(between)
    if gaps[0][0] < size * LIMITS_APART or (len(gaps) > 1 and gaps[0][0] < gaps[1][0] * WIDEST_GAP):
        return _centring_part(op, other, group, [g for _, g in gaps])
    # (a gap under either operator's own ink parts no limits: TeX centres each limit on its operator,
    # and a name a quad before a sum, \min \quad \sum_{i=1}, leaves the sum's limit whole)
    if any(o.x0 < gaps[0][1] < o.x1 for o in (op, other)):
        return None
    return gaps[0][1]


def _centring_part(op: Node, other: Node, group: list[Node], cuts: list[float]) -> float | None:
    """Where two big operators' limits part when no gap between them is plainly the widest (a wide
    limit beside a narrow one, \\sum_{\\ell \\in L} \\sum_{p \\in P^{\\ell} : (i, j) \\in p}): the cut that
    leaves each part centred on its own operator, as TeX sets them; None unless one cut does so
    clearly better than the rest, and within a tenth of an em on both sides."""
    left, right = sorted((op, other), key=lambda o: o.cx)
    size = _size(group)
    scored = []
    for cut in cuts:
        # each part's glyphs on its own operator's side, as far out as the cut stands in
        lefts = [n for n in group if n.cx < cut and n.cx > 2 * left.cx - cut - size]
        rights = [n for n in group if n.cx > cut and n.cx < 2 * right.cx - cut + size]
        if not lefts or not rights:
            continue
        off = max(abs((min(n.x0 for n in lefts) + max(n.x1 for n in lefts)) / 2 - left.cx),
                  abs((min(n.x0 for n in rights) + max(n.x1 for n in rights)) / 2 - right.cx))
        scored.append((off, cut))
    scored.sort()
    if not scored or scored[0][0] > size * CENTRED_PARTS or \
            (len(scored) > 1 and scored[1][0] - scored[0][0] < size * CENTRED_PARTS):
        return None
    return scored[0][1]


CENTRED_PARTS = 0.1   # em (of the limits): each limit's middle from its operator's, at the best cut


def _cuts_between(op: Node, other: Node, group: list[Node]) -> list[float]:
    """The middles of the gaps between the glyphs of `group` standing between two operators' middles."""
    lo, hi = sorted((op.cx, other.cx))
    between = sorted((n for n in group if lo < n.cx < hi), key=lambda n: n.x0)
    return [(a.x1 + b.x0) / 2 for a, b in zip(between, between[1:]) if b.x0 > a.x1]


def _limits_of_others(rest: list[Node], others: list[Node]) -> bool:
    """Whether glyphs left over from a limit grown across operators side by side are the others'
    limits: each glyph goes with the operator it stands nearest, and each such group is centred on
    its operator (three sums in a row, \\sum_{i}\\sum_{j}\\sum_{k}, leave two groups over)."""
    groups: dict[int, tuple[Node, list[Node]]] = {}
    for n in rest:
        other = min(others, key=lambda o: _span_gap(n, o))
        groups.setdefault(id(other), (other, []))[1].append(n)
    return all(_centred_on(group, other) for other, group in groups.values())


def _span_gap(n: Node, op: Node) -> float:
    """How far a glyph's middle stands to either side of an operator's width (0 within it)."""
    return max(op.x0 - n.cx, n.cx - op.x1, 0.0)


def _over_operator(n: Node, nodes: list[Node], op: Node, text: float) -> bool:
    """Whether a small glyph stands right over another big operator (its upper limit, a row below)."""
    return any(o is not op and o.role == "op" and o.x0 - 1 <= n.cx <= o.x1 + 1 and -0.5 <= o.top - n.bottom < text * 0.6
               for o in nodes)


def _over_another_operator(line: list[Node], nodes: list[Node], op: Node, text: float) -> bool:
    """Whether a line of small glyphs stands right over another big operator, centred on it."""
    x0, x1, _, bottom = _box(line)
    middle = (x0 + x1) / 2
    return any(o is not op and o.role == "op" and o.x0 - 1 <= middle <= o.x1 + 1
               and -0.5 <= o.top - bottom < text * 0.6 for o in nodes)


def _limit_lines(limit: list[Node], op: Node) -> list[list[Node]]:
    """A limit in lines (\\substack): its largest glyphs on baselines whose inks do not overlap,
    each line centred on the operator; the smaller glyphs (scripts) go with the nearest line."""
    if not limit:
        return []
    big = max(n.size for n in limit)
    main = sorted((n for n in limit if n.size >= big * 0.9), key=lambda n: n.base)
    bands: list[list[Node]] = []
    for n in main:
        if bands and n.base - bands[-1][-1].base < big * 0.3:
            bands[-1].append(n)
        else:
            bands.append([n])
    if len(bands) < 2 or any(_box(a)[3] > _box(b)[2] + 0.5 for a, b in zip(bands, bands[1:])):
        return [limit]
    lines: list[list[Node]] = [[] for _ in bands]
    for n in limit:
        k = min(range(len(bands)), key=lambda i: abs(sum(m.base for m in bands[i]) / len(bands[i]) - n.base))
        lines[k].append(n)
    if any(not _centred_on(line, op) for line in lines):
        return [limit]
    return lines


def _rule_between(rules, upper: Node, lower: Node) -> bool:
    """Whether a rule (a fraction's) runs between two nodes, one above the other: nothing reaches
    across a fraction's rule to be an operator's limit."""
    x0, x1 = max(upper.x0, lower.x0), min(upper.x1, lower.x1)
    return any(r[0] <= x1 and r[2] >= x0 and upper.cy < r[1] < lower.cy for r in rules)


def _hangs_from_rule(n: Node, rules, clearance: float) -> bool:
    """Whether a glyph hangs from a rule over it (a fraction's denominator, under its bar) closer than
    it clears the operator beneath it: a cases row's fraction over the next row's \\log is no limit."""
    return any(r[0] - 1 <= n.x0 and n.x1 <= r[2] + 1 and 0 <= n.top - r[3] < clearance * HUGGED_RULE for r in rules)


HUGGED_RULE = 0.5   # a part nearer its bar than half its clearance over the operator below is the bar's


def _hangs_on(n: Node, nodes: list[Node], op: Node, rules: list[tuple] = ()) -> bool:
    """Whether a small glyph is the script of a larger one just before it (its subscript hanging
    over an operator in the row below, its superscript under one in the row above).  A glyph of a
    fraction's numerator or denominator takes no script past the end of the fraction's bar: TeX
    sets both parts within the bar (\\frac{1}{1-\\gamma}\\min_{w}: the limit's w starts right after γ)."""
    return _nucleus_of(n, nodes, op, rules) is not None


def _nucleus_of(n: Node, nodes: list[Node], op: Node, rules: list[tuple] = ()) -> Node | None:
    """The larger glyph just before a small one whose script it is (see _hangs_on), if any."""
    for m in nodes:
        # an opening delimiter takes no scripts: a limit starting just right of a tall bracket
        # (\Big[\sum_{k=1}) is the operator's
        if m is n or m is op or m.size < n.size * 1.15 or m.role == "open" or _opening_fence(m, nodes):
            continue
        # (a superscript on a short letter may stand wholly over it, y^{(k)}: raised by a script's shift;
        # a subscript starts at its nucleus' width, without the italic correction, tucked under the
        # overhang of a maths italic capital: V_t, cmmi's V reaching 0.22 em past its width)
        tuck = m.size * SUBSCRIPT_TUCK if n.base > m.base + n.size * 0.1 else 0.0
        if -max(n.size * 0.15, tuck) <= n.x0 - m.x1 <= n.size * 0.25 and \
                (m.top - n.size * 0.3 <= n.cy <= m.bottom + n.size * 0.3 or 0 < m.base - n.base <= m.size * 0.7) \
                and not _barred_from(m, n, rules, nodes):
            return m
    return None


SUBSCRIPT_TUCK = 0.25   # em of the nucleus: a subscript may start this far inside its nucleus' ink


def _opening_fence(m: Node, nodes: list[Node]) -> bool:
    """Whether a tall bar opens a pair of bars alike (\\left| … \\right|, \\abs*): one like it stands
    further on at its height, and those before it at its height pair up among themselves."""
    if m.role != "fence" or m.height < m.size * 1.5:
        return False
    alike = [f for f in nodes if f is not m and f.kind == m.kind and f.ch == m.ch
             and abs(f.top - m.top) < m.size * 0.2 and abs(f.bottom - m.bottom) < m.size * 0.2]
    return any(f.x0 > m.x1 for f in alike) and sum(1 for f in alike if f.x1 < m.x0) % 2 == 0


def _barred_from(m: Node, n: Node, rules: list[tuple], nodes: list[Node]) -> bool:
    """Whether `m` is a fraction's part, on one side of a bar within an em of it that ends before `n`
    starts, the bar having glyphs on its other side too (a bar over a letter alone is an overline)."""
    for r in rules:
        if not r[0] - 0.5 <= m.cx <= r[2] + 0.5 or n.x0 < r[2] - 0.5:
            continue
        above = 0 <= m.top - r[3] < m.size and any(
            o is not m and r[0] - 0.5 <= o.cx <= r[2] + 0.5 and 0 <= r[1] - o.bottom < m.size for o in nodes)
        below = 0 <= r[1] - m.bottom < m.size and any(
            o is not m and r[0] - 0.5 <= o.cx <= r[2] + 0.5 and 0 <= o.top - r[3] < m.size for o in nodes)
        if above or below:
            return True
    return False


SUBSTACK_CENTRE = 0.15   # em: the middles of a \substack's lines stand this near each other at most


def _side_lines(op: Node, pool: list[Node], text: float, rules, nodes: list[Node]) -> list[list[Node]]:
    """The lines of a subscript set beside a big operator in text style (a fraction's numerator,
    \\sum_{\\substack{1 \\leq t \\leq T \\ o_t = o}}): the first starts where the operator's ink ends,
    below its middle; each next one stands right under the one before, centred on it, with no rule
    between them (a fraction's bar under its numerator)."""
    seed = [n for n in pool if -0.5 <= n.x0 - op.x1 <= text * 0.25 and n.cy > op.cy]
    barred = lambda x0, x1, y0, y1: any(r[0] < x1 and r[2] > x0 and y0 - 0.5 <= r[1] <= y1 + 0.5 for r in rules)
    others = [o for o in nodes if o is not op and o.kind == "sym" and o.role == "op" and o.top > op.cy]

    def raised_on_other(line: list[Node]) -> bool:
        """The line is another operator's superscript: the next row's integral's upper limit."""
        x0, x1, top, bottom = _box(line)
        return any(-text * 0.5 <= x0 - o.x1 <= text * 0.25 and (top + bottom) / 2 < o.cy
                   and not barred(min(x0, o.x0), max(x1, o.x1), bottom, o.top) for o in others)
    first = _grow_limit(seed[:1] if seed else [], pool)
    lines = [first] if first else []
    while lines:
        x0, x1, _, edge = _box(lines[-1])
        taken = [n for line in lines for n in line]
        seed = [n for n in pool if n not in taken and edge - 0.5 <= n.top < edge + text * 0.4 and x0 - 1 <= n.cx <= x1 + 1
                and not barred(x0, x1, edge, n.top)]
        line = _grow_limit(seed, [n for n in pool if n not in taken])
        # (\substack centres its lines on one another; a line off that centre is another's: the
        # upper limit of an integral on the next row)
        if not line or abs(min(n.x0 for n in line) + max(n.x1 for n in line) - x0 - x1) / 2 > text * SUBSTACK_CENTRE \
                or barred(x0, x1, edge, min(n.top for n in line)) or raised_on_other(line):
            break
        lines.append(line)
    return lines


def _centred_on(group: list[Node], op: Node) -> bool:
    """Whether a group's middle stands within an operator's width (TeX centres limits on it)."""
    return op.x0 - 1 <= (min(n.x0 for n in group) + max(n.x1 for n in group)) / 2 <= op.x1 + 1


def _grow_limit(seed: list[Node], pool: list[Node]) -> list[Node]:
    """A limit's glyphs: the seed and what continues it on its level (and its own scripts)."""
    if not seed:
        return []
    group = list(seed)
    changed = True
    while changed:
        changed = False
        x0, x1, top, bottom = _box(group)
        size = max(m.size for m in group)
        for n in pool:
            if n in group:
                continue
            # (a glyph of the limit's own size sets the gap: a script's script is smaller than its spaces)
            gap = max(n.size, size) * 0.35
            if n.top < bottom and n.bottom > top and x0 - gap <= n.x1 and n.x0 <= x1 + gap:
                group.append(n)
                changed = True
    return group


def _small_binomials(nodes: list[Node], size: float, rules: list[tuple] = ()) -> list[Node]:
    """\\tbinom{m}{k} in a display: a pair of parentheses round two parts set one above the other,
    smaller than the formula's type (text style sets a binomial's parts as scripts), with nothing
    beside them and no rule between (a fraction's, whether or not it was read as one)."""
    pairs = [n for n in nodes if n.kind == "sym" and n.ch in "()"]
    made, used = [], set()
    for left in pairs:
        if left.ch != "(" or id(left) in used:
            continue
        right = min((r for r in pairs if r.ch == ")" and r.x0 >= left.x1 and id(r) not in used
                     and abs(r.top - left.top) < 1 and abs(r.bottom - left.bottom) < 1),
                    key=lambda r: r.x0, default=None)
        if right is None:
            continue
        between = [n for n in nodes if left.x1 <= n.cx <= right.x0 and left.top <= n.cy <= left.bottom
                   and n is not left and n is not right]
        if len(between) < 2 or any(n.kind != "sym" or n.size > size * SMALL_PARTS for n in between):
            continue
        part = max(n.size for n in between)
        # (a part's descender or ascender may reach past parentheses of one fixed size a little)
        if any(n.top < left.top - part * PART_OVERHANG or n.bottom > left.bottom + part * PART_OVERHANG
               for n in between):
            continue
        bases = [n.base for n in between if n.size >= part * 0.9]
        # (rows above or below the parentheses, a taller smallmatrix's, make this no matrix of one row)
        spills = any(left.x1 <= n.cx <= right.x0 and n.kind == "sym" and n.size <= part * 1.1 and n not in between
                     and (0 <= left.top - n.cy < part * 1.5 or 0 <= n.cy - left.bottom < part * 1.5) for n in nodes)
        if max(bases) - min(bases) <= 1 and min(left.size, right.size) > part * 1.1 and not spills:
            # one row of script-size glyphs set a column gap apart: a one-row smallmatrix, "(1 0)"
            cells = _cells_by_gap(between, part)
            if len(cells) > 1:
                made.append(_composite("smallmatrix", [left, right] + between, left.base, size,
                                       rows=[[_scripts(c) for c in cells]], left=left.tex, right=right.tex))
                used.update(id(n) for n in [left, right] + between)
            continue
        upper = [n for n in between if n.cy < left.cy]
        lower = [n for n in between if n.cy >= left.cy]
        if not upper or not lower:
            continue
        if not all(any(n.size >= part * 0.9 for n in g) for g in (upper, lower)):
            continue      # both parts are set in one size: a part wholly smaller is the other's scripts
        if any(max(n.base for n in g if n.size >= part * 0.9) - min(n.base for n in g if n.size >= part * 0.9) > 1
               for g in (upper, lower) if any(n.size >= part * 0.9 for n in g)):
            continue      # each part is one line of type (stacked glyphs in a part are a fraction's)
        if min(n.base for n in lower) - max(n.base for n in upper) < part * 0.4 or \
                min(n.x0 for n in upper) >= max(n.x1 for n in lower) or min(n.x0 for n in lower) >= max(n.x1 for n in upper):
            continue
        if any(left.x1 <= r[0] + 1 and r[2] - 1 <= right.x0 and max(n.bottom for n in upper) - 1 <= r[1]
               and r[3] <= min(n.top for n in lower) + 1 for r in rules):
            continue
        rows = [_cells_by_gap(upper, part), _cells_by_gap(lower, part)]
        if len(rows[0]) > 1 or len(rows[1]) > 1:
            # parts with a column gap inside are a small matrix's rows (\bigl(\begin{smallmatrix} 1 & t \\ 0 & 1 …)
            node = _composite("smallmatrix", [left, right] + between, left.base, size,
                              rows=[[_scripts(c) for c in row] for row in rows], left=left.tex, right=right.tex)
        else:
            node = _composite("binom", [left, right] + between, left.base, size, num=_scripts(upper),
                              den=_scripts(lower), small=True)
        used.update(id(n) for n in [left, right] + between)
        made.append(node)
    return [n for n in nodes if id(n) not in used] + made if made else nodes


SMALL_PARTS = 0.85   # of the formula's size: a text-style binomial's parts are scripts
PART_OVERHANG = 0.45  # of the parts' size: how far they may reach past the parentheses' boxes
SMALL_COLUMN_GAP = 0.3   # of the parts' size: script style adds no space round operators, so a gap this
                         # wide between two glyphs of a part is a column's (smallmatrix)


def _cells_by_gap(nodes: list[Node], size: float) -> list[list[Node]]:
    """A row of script-size glyphs cut where a column gap stands between two of them."""
    cells: list[list[Node]] = []
    for n in sorted(nodes, key=lambda n: n.x0):
        if cells and n.x0 - max(m.x1 for m in cells[-1]) < size * SMALL_COLUMN_GAP:
            cells[-1].append(n)
        else:
            cells.append([n])
    return cells


def _relation_spaced(bar: Node, between: list[Node]) -> bool:
    """Whether a bar between two delimiters stands a relation's thick space (5mu, 0.28 em) from its
    neighbours, measured between advance boxes: TeX's \\Bigm| does on both sides, a \\Big| spaced by
    hand with \\, (3mu, 0.17 em) does not on at least one (PARALLEL_SPACE, as for double bars; a
    script before the bar adds its 0.5 pt).  Where the PDF gives no advance boxes, it is taken as
    spaced."""
    row = [n for n in between if n is not bar and n.kind != "space" and n.bottom > bar.top and n.top < bar.bottom]
    prev = max((n for n in row if n.x1 <= bar.x0 + bar.size * 0.05), key=lambda n: n.x1, default=None)
    nxt = min((n for n in row if n.x0 >= bar.x1 - bar.size * 0.05), key=lambda n: n.x0, default=None)
    if prev is None or nxt is None or bar.adv1 <= bar.adv0:
        return True
    before_end, after_start = _edge_advances(prev)[1], _edge_advances(nxt)[0]
    if before_end is None or after_start is None:
        return True
    return min(bar.adv0 - before_end, after_start - bar.adv1) >= PARALLEL_SPACE * bar.size


def _delimited(nodes: list[Node], columns: list[tuple] = (), rules: list[tuple] = (),
               hlines: list[tuple] = ()) -> list[Node]:
    """Rows between two tall matching delimiters are a matrix (an array, where upright rules
    divide its columns, with an \\hline where a rule they cross runs between two rows); rows after an
    opening brace that nothing closes are `cases`; small parts in parentheses, a text-style binomial
    (`rules`: the formula's other horizontal rules)."""
    size = _size(nodes)
    nodes = _small_binomials(nodes, size, rules)
    tall = sorted([n for n in nodes if n.role in ("open", "fence", "close") and n.height > size * 1.6]
                  + _ruled_brackets(nodes, columns, size), key=lambda n: n.x0)
    if not tall:
        return nodes
    used: set[int] = set()
    made: list[Node] = []
    for left in _inner_first(tall, pairs := _delimiter_pairs(tall, size, nodes)):
        if id(left) in used:
            continue
        partner = pairs.get(id(left))
        between = [n for n in nodes if id(n) not in used and n is not left and n is not partner
                   and n.cx > left.x1 and (partner is None or n.cx < partner.x0)
                   and (n.cy > left.top and n.cy < left.bottom or partner is not None and _past_delimiter_end(n, left, size))]
        if partner is not None:
            between += _operator_scripts(between, [n for n in nodes if id(n) not in used and n.cx > left.x1
                                                   and n.cx < partner.x0 and n not in between], size)
            # (a binomial already read inside the pair is one of its glyphs: `\left[\frac{1}{n!}\sum
            # \binom{n}{j} … \right]`; left out, its gap would part the row into a matrix's cells)
            between += [n for n in made if id(n) not in used and n.kind == "binom" and left.x1 < n.cx < partner.x0
                        and left.top < n.cy < left.bottom]
        if partner is None:
            if left.role == "fence" and left.kind == "sym":
                made.extend(_evaluation_bar(left, nodes, tall))
                continue
            if left.ch != "{" or not between:
                continue
            # (a group already read in its rows, a binomial, is one of its cells)
            between += [n for n in made if id(n) not in used and n.cx > left.x1 and left.top < n.cy < left.bottom]
            between = _cases_rows(left, between, size)
            rows = _matrix_rows(between, size)
            if len(rows) < 2:
                continue
            padded = min(n.x0 for n in between) - left.x1 >= size * ARRAY_EDGE
            if padded and _empty_first_column(left, rows, size):
                # every row opens with `&`: the values' column is empty and the rows stand in the
                # conditions' column, a \quad off the brace (`\begin{cases} & \min_x f \\ & g = 0`)
                cells = [[[], _scripts(sorted(r, key=lambda n: n.x0))] for r in rows]
                node = _composite("cases", [left] + between, left.base, size, rows=cells, spec=None)
                used.update(id(n) for n in [left] + between)
                made.append(node)
                continue
            # (an array's columns are where no row's ink runs; a cases block's two at each row's widest gap)
            cells = _aligned_in_cases([[_scripts(c) for c in _cells(r, between, size, two=not padded)] for r in rows], size)
            node = _composite("cases", [left] + between, left.base, size, rows=cells,
                              spec=_array_spec(cells, "lcr") if padded else None)
            used.update(id(n) for n in [left] + between)
            made.append(node)
            continue
        rows = _matrix_rows(between, size)
        if len(rows) == 1 and (left.ch, partner.ch) in (("(", ")"), ("[", "]")) and _row_vector(rows[0], between, size):
            cells = [[_scripts(c) for c in _cells(rows[0], between, size)]]
            made.append(_composite("matrix", [left, partner] + between, left.base, size, rows=cells, left=left.ch,
                                   right=partner.ch, spec=_column_spec(cells, columns, left, partner)))
            used.update(id(n) for n in [left, partner] + between)
            continue
        if len(rows) < 2 and (left.ch, partner.ch) == ("[", "]") and between and \
                left.parts.get("corner") == partner.parts.get("corner") is not None and \
                all(left.top - size * 0.2 <= n.top and n.bottom <= left.bottom + size * 0.2 for n in nodes
                    if left.x1 <= n.cx <= partner.x0 and n.bottom > left.top - size and n.top < left.bottom + size):
            # around one row that they cover whole (no matrix, nothing above or below them that a
            # display's split could have cut from them), brackets whose straight pieces run from their
            # top corners down are a ceiling's
            left.ch, left.tex = "⌈", r"\lceil"
            partner.ch, partner.tex = "⌉", r"\rceil"
        if len(rows) < 2:
            # \left … \right around one row: a fence as tall as the pair between them is \middle (and
            # the pair is written \left … \right, without which \middle does not parse)
            middles = sorted((n for n in between if n.kind == "sym" and n.role == "fence" and left.kind == "sym"
                              and partner.kind == "sym" and abs(n.top - left.top) < size * 0.3
                              and abs(n.bottom - left.bottom) < size * 0.3
                              and abs(n.height - left.height) < size * MIDDLE_HEIGHT), key=lambda n: n.x0)
            if len(middles) % 2 == 1:
                # (a bar alone carrying limits is an evaluation's, \Big|_{a = μ(s)}, which divides nothing)
                middles = [n for n in middles if not _carries_limits(n, between)]
            # an even number of them, one character, are pairs of their own (\left( \left| … \right| … \right)):
            # \middle divides a group once (a set's "such that")
            if len(middles) % 2 == 0 and len({n.ch for n in middles}) == 1:
                for first, last in zip(middles[::2], middles[1::2]):
                    first.tex, last.tex = r"\left" + FENCES[first.ch], r"\right" + FENCES[last.ch]
                    first.role, last.role = "open", "close"
                middles = []
            fixed = _fixed_size(left, [n for n in between if n not in middles], size) if middles else None
            for n in middles:
                if fixed and not _relation_spaced(n, between):
                    # (a bar of that size set by hand with thin spaces, `\,\Big|\,`, is an ordinary one)
                    n.tex, n.role = fixed + FENCES[n.ch], "ord"
                    continue
                n.tex = (fixed + "m" if fixed else r"\middle") + FENCES[n.ch]
                n.role = "rel"
            if middles and fixed:
                # a pair TeX's \left would not have sized so was sized by hand: \Bigl[ … \Bigm| … \Bigr]
                left.tex, partner.tex = fixed + "l" + left.tex, fixed + "r" + partner.tex
            elif middles and not left.tex.startswith(r"\left"):
                left.tex, partner.tex = r"\left" + left.tex, r"\right" + partner.tex
            continue
        dotted = _dotted_rows(rows, left, partner)
        spread = [n for k, r in enumerate(rows) if k not in dotted for n in r]
        cells = [[_scripts(c) for c in _cells(r, spread, size)] if k not in dotted else [] for k, r in enumerate(rows)]
        for k in dotted:        # (\hdotsfor{n}: one cell across the row's n columns)
            r = rows[k]
            cells[k] = [[Node("sym", min(n.x0 for n in r), max(n.x1 for n in r), min(n.top for n in r),
                              max(n.bottom for n in r), r[0].base, r[0].size, ch="…",
                              tex=r"\hdotsfor{%d}" % max(len(c) for c in cells), style="up", role="ord")]]
        if _binomial(cells, left, partner):
            node = _composite("binom", [left, partner] + between, left.base, size, num=cells[0][0], den=cells[1][0],
                              fence=GENERALISED_FRACTIONS[(left.ch, partner.ch)])
        else:
            spec = _column_spec(cells, columns, left, partner)
            if spec is None and min(n.x0 for n in between) - left.x1 >= size * ARRAY_EDGE \
                    and partner.x0 - max(n.x1 for n in between) >= size * ARRAY_EDGE:
                spec = _array_spec(cells, "clr")     # \left( \begin{array}{cc}: its \arraycolsep at both ends
            # (TeX draws an \hline at the row's strut depth: a subscript's ink may reach it; with no
            # upright rule to cross it, it runs past every cell by the array's padding, _column_rule)
            bx0, bx1, _, _ = _box(between)
            across = list(hlines) + [r for r in rules if r not in hlines and bx0 - r[0] > size * HLINE_OVERHANG
                                     and r[2] - bx1 > size * HLINE_OVERHANG]
            ruled = {k for k in range(len(rows) - 1) if spec and any(
                left.x1 <= r[0] + 1 and r[2] <= partner.x0 + 1 and _main_base(rows[k]) < r[1] <= min(n.top for n in rows[k + 1]) + 1
                for r in across)}
            node = _composite("matrix", [left, partner] + between, left.base, size, rows=cells, left=left.ch,
                              right=partner.ch, spec=spec, hlines=ruled)
        used.update(id(n) for n in [left, partner] + between)
        made.append(node)
    made += _stacked_between(nodes, made, used, size)
    # a closing brace nothing opens, after rows on two or more baselines: what it closes (rcases, or
    # \left. … \right\} round a gathered block), with what follows it on the row of its middle
    for right in tall:
        if id(right) in used or right.role != "close" or right.ch != "}":
            continue
        between = [n for n in nodes if id(n) not in used and n is not right and n.cx < right.x0
                   and right.top <= n.cy <= right.bottom]
        rows = _matrix_rows(between, size) if between else []
        if len(rows) < 2:
            continue
        padded = right.x0 - max(n.x1 for n in between) >= size * ARRAY_EDGE
        cells = [[_scripts(c) for c in _cells(r, between, size, two=not padded)] for r in rows]
        made.append(_composite("rcases", [right] + between, right.base, size, rows=cells,
                               spec=_array_spec(cells, "lcr") if padded else None))
        used.update(id(n) for n in [right] + between)
    return [n for n in nodes if id(n) not in used] + [n for n in made if id(n) not in used]


def _ruled_brackets(nodes: list[Node], columns: list[tuple], size: float) -> list[Node]:
    """Brackets or parentheses of a row's size around an upright rule on their level: a one-row array
    with a column rule (`\\left[\\begin{array}{cc|cc} … \\end{array}\\right]`), which \\left sizes to
    the row's strut, no taller than the text's own brackets.  Read with the tall delimiters, they hold
    a row vector whose column specification the rule gives (_column_spec)."""
    out: list[Node] = []
    for rule in columns:
        mid, cy = (rule[0] + rule[2]) / 2, (rule[1] + rule[3]) / 2
        # (a table's column rule, drawn row by row, has pieces above or below it: not one row's)
        if any(c is not rule and abs((c[0] + c[2]) / 2 - mid) < 1.0 and c[1] <= rule[3] + 1.0 and c[3] >= rule[1] - 1.0
               for c in columns):
            continue
        level = [n for n in nodes if n.kind == "sym" and n.ch in "[]()" and n.height <= size * 1.6
                 and n.top - RULED_REACH * size <= rule[1] and rule[3] <= n.bottom + RULED_REACH * size
                 and abs(n.cy - cy) < n.height * 0.3]
        left = max((n for n in level if n.role == "open" and n.x1 <= mid), key=lambda n: n.x1, default=None)
        right = min((n for n in level if n.role == "close" and n.x0 >= mid), key=lambda n: n.x0, default=None)
        if left is None or right is None or (left.ch, right.ch) not in (("(", ")"), ("[", "]")):
            continue
        # (the pair encloses the rule: no bracket of the row closes between the opening one and the rule,
        # nor opens between the rule and the closing one, `(s, a) | …` in a table's cell)
        if any(n.role == "close" and left.x1 <= n.x0 < mid or n.role == "open" and mid < n.x1 <= right.x0
               for n in nodes if n.kind == "sym" and n.ch in "[]()"):
            continue
        out += [n for n in (left, right) if n not in out]
    return out


RULED_REACH = 0.3   # em: a row's column rule, as tall as its strut, reaches this far past the brackets \left sized to it


# An array keeps its \arraycolsep (5 pt) at its outer edges; amsmath's matrices and `cases` take it
# away (`cases` is an array with @{} at its ends), so their cells start at the delimiter's side bearing.
ARRAY_EDGE = 0.4      # em: cells this far from a delimiter are an array's, written with its column spec


def _dotted_rows(rows: list[list[Node]], left: Node, right: Node) -> set[int]:
    """The rows of a matrix that are dots alone across most of its width (amsmath's \\hdotsfor): they
    bridge its column gaps, so the columns are found from the other rows.  Its dots run on evenly,
    with no column's gap between them (a row of \\cdots cells, one per column, is no such row)."""
    inner = right.x0 - left.x1

    def run_on(r: list[Node]) -> bool:
        r = sorted(r, key=lambda n: n.x0)
        return all(b.x0 - a.x1 < a.size * COLUMN_CUT for a, b in zip(r, r[1:]))

    return {k for k, r in enumerate(rows) if len(rows) > 2 and len(r) >= 2 and
            all(n.kind == "sym" and n.tex in (r"\dots", r"\cdots", ".") for n in r)
            and max(n.x1 for n in r) - min(n.x0 for n in r) >= inner * DOTTED_ROW and run_on(r)}


DOTTED_ROW = 0.7   # of a matrix's inner width: a row of dots this wide is one across its columns
COLUMN_CUT = 0.6   # em: a gap this wide that no row bridges is between a matrix's columns (_cells)


def _stacked_between(nodes: list[Node], made: list[Node], used: set[int], size: float) -> list[Node]:
    """Full-size glyphs stacked on two or more baselines between two matrices, within the height of
    both and clear of each (`[A] [x] \\begin{array}{c} = \\\\ \\leq \\end{array} [b]`): a delimiter-less
    array of their own, not rows of the display.  (A matrix's scripts are smaller, and a relation on
    the main baseline alone is one row.)"""
    matrices = sorted((m for m in made if m.kind == "matrix"), key=lambda m: m.x0)
    out = []
    for a, b in zip(matrices, matrices[1:]):
        top, bottom = max(a.top, b.top), min(a.bottom, b.bottom)
        between = [n for n in nodes if id(n) not in used and n.kind == "sym" and a.x1 <= n.x0 and n.x1 <= b.x0
                   and top <= n.top and n.bottom <= bottom]
        if len(between) < 2 or any(n.size < size * ROW_SIZE for n in between):
            continue
        rows = _matrix_rows(between, size)
        left, right = min(n.x0 for n in between), max(n.x1 for n in between)
        # (one column: every row's ink spans most of the column's width)
        if len(rows) < 2 or any(max(n.x1 for n in r) - min(n.x0 for n in r) < (right - left) * 0.5 for r in rows):
            continue
        cells = [[_scripts(c) for c in _cells(r, between, size)] for r in rows]
        if any(len(row) != 1 for row in cells):
            continue
        out.append(_composite("matrix", between, a.base, size, rows=cells, left=None,
                              right=None, spec=_array_spec(cells, "c"), hlines=set()))
        used.update(id(n) for n in between)
    return out


def _past_delimiter_end(n: Node, delimiter: Node, size: float) -> bool:
    """A script of the first or last row that pokes past the end of the delimiters round the rows
    (T^{\\pi}_{n1} under a bmatrix): TeX lets a delimiter come \\delimitershortfall short of what it
    encloses, half of it at each end, so script-size ink that starts inside and ends within that is
    between them."""
    reach = DELIMITER_SHORTFALL * size / 20
    return n.size < size * LIMIT_SIZE and (
        n.top < delimiter.bottom <= n.cy and n.bottom <= delimiter.bottom + reach or
        n.cy <= delimiter.top < n.bottom and n.top >= delimiter.top - reach)


def _operator_scripts(between: list[Node], others: list[Node], size: float) -> list[Node]:
    """The scripts of a big operator between a pair of delimiters that stick out above or below the
    pair (a display integral taller than the \\Bigl[ around it carries its limits beside it, past
    the bracket's ends), and those of a tall closing delimiter inside the pair (`\\Bigl( … \\Bigl[ …
    \\Bigr]^\\top x \\Bigr)`: the inner bracket as tall as the pair, its script raised to its top): glyphs
    of a script's size set right beside the operator or the delimiter, level with its ink."""
    ops = [m for m in between if m.kind == "sym" and m.height > size * 1.2 and (
        m.role == "op" or m.role in ("close", "fence") and m.x1 > min(n.x0 for n in between) + size)]
    return [n for n in others if n.size < size * SCRIPT_SIZE and any(
        m.x0 < n.x1 and n.x0 <= m.x1 + size * 0.3 and n.cx > m.cx and n.bottom > m.top and n.top < m.bottom
        for m in ops)]


def _array_spec(cells: list[list[list[Node]]], prefer: str) -> str | None:
    """An array's column letters from how its cells line up: flush left, centred or flush right, the
    first of `prefer` among those that fit equally well (cells of one width line up every way:
    hand-made cases are mostly "ll", a matrix's columns "c")."""
    width = max(len(row) for row in cells)
    spec = ""
    for c in range(width):
        boxes = [_box(row[c]) for row in cells if len(row) > c and row[c]]
        if not boxes:
            return None
        spread = _column_spreads(boxes)
        best = min(spread.values())
        # (a column of relations alone, an array's "rcl" middle, is centred)
        relations = all(len(row[c]) == 1 and _relation_xs(row[c][0]) for row in cells if len(row) > c and row[c])
        spec += "c" if relations else next(letter for letter in prefer if spread[letter] <= best + COLUMN_ALIGN)
    return spec


def _row_vector(row: list[Node], between: list[Node], size: float) -> bool:
    """Whether one row between tall delimiters is a matrix of one row (a row vector): cells apart by
    an array's column gap (twice \\arraycolsep, most of an em), none opening or closing with an
    operator, a relation or punctuation (a gap that wide beside them is a \\quad between parts)."""
    cells = [sorted(c, key=lambda n: n.x0) for c in _cells(row, between, size) if c]
    if len(cells) < 2:
        return False
    for a, b in zip(cells, cells[1:]):
        if b[0].x0 - max(n.x1 for n in a) < size * QUAD_GAP:
            return False
    return not any(n.kind == "sym" and n.role in ("rel", "bin", "punct") for c in cells for n in (c[0], c[-1]))


def _delimiter_pairs(tall: list[Node], size: float, nodes: list[Node] = ()) -> dict[int, Node]:
    """Each tall opening delimiter's partner {id(left): right}, in reading order: the first closing
    one of the same extent at its own depth.  Delimiters TeX sizes alike nest (`\\left(` round a
    bmatrix of the same height): an opener of that extent between them waits for its own closer.
    Two bars that both carry limits close two evaluations (`\\left. … \\right|_{z=1} = \\left. …
    \\right|_{z=1}`: two bars of one extent on a row, not an absolute value)."""
    pairs: dict[int, Node] = {}
    claimed: set[int] = set()
    for k, left in enumerate(tall):
        if id(left) in claimed or left.role == "close":
            continue
        alike = [r for r in tall[k + 1:] if id(r) not in claimed and abs(r.top - left.top) < size * 0.4
                 and abs(r.bottom - left.bottom) < size * 0.4]
        closes = [r for r in alike if r.role == "close" or (r.role == "fence" and r.ch == left.ch)]
        partner, inside, taken = None, [], set()
        for r in alike:
            if r.role == "open":
                inside.append(r)
            elif r in closes:
                if not inside and not (r.role == "fence" and _brackets_across(left, r, nodes)):
                    partner = r
                    break
                if r.role == "close" and PAIRS.get(inside.pop().ch) == r.ch:
                    taken.add(id(r))
        # an opener inside that nothing closes (a cases brace) leaves the depth unbalanced: the first closer
        # that no opener inside matched (`\bigg|_{x} = [ … ]`: the bracket's closer is the bracket's own)
        partner = partner or next((r for r in closes if id(r) not in taken
                                   and not (r.role == "fence" and _brackets_across(left, r, nodes))), None)
        if partner is not None and left.role == partner.role == "fence" and nodes and \
                _carries_limits(left, nodes, dropped=True) and _carries_limits(partner, nodes, dropped=True):
            continue      # two evaluations' bars, each carrying its limits
        if partner is not None:
            pairs[id(left)] = partner
            claimed.add(id(partner))
    return pairs


def _brackets_across(left: Node, bar: Node, nodes: list[Node]) -> bool:
    """Whether a bracket of any size on the row between a bar and a later one is left unbalanced
    there: TeX nests what it sets, so two bars with a bracket opened between them and not closed, or
    closed and not opened (an evaluation inside parentheses, `( … \\frac{a}{b} \\bigg\\rvert_{x = 0} )`,
    beside the bars of an absolute value round them), are no pair."""
    depth = 0
    for n in sorted((n for n in nodes if n.kind == "sym" and left.x1 <= n.cx <= bar.x0
                     and left.top <= n.cy <= left.bottom and (n.ch in OPENERS or n.ch in CLOSERS)), key=lambda n: n.x0):
        if n.role == "open":
            depth += 1
        elif n.role == "close":
            if depth == 0:
                return True
            depth -= 1
    return depth > 0


def _inner_first(tall: list[Node], pairs: dict[int, Node]) -> list[Node]:
    """The opening delimiters in the order their groups are read: a group inside another first (a
    matrix in parentheses is a matrix before the parentheses are read, a binomial in a cases row
    before the rows), otherwise left to right."""
    lefts = [n for n in tall if n.role != "close" and not any(id(n) == id(r) for r in pairs.values())]

    def around(left: Node) -> int:
        end = pairs[id(left)].x1 if id(left) in pairs else left.x1
        return sum(1 for other in lefts if other is not left and other.x0 < left.x0 and (
            pairs[id(other)].x1 > end if id(other) in pairs else
            # (a cases brace, which nothing closes, holds what stands right of it level with it: a
            # binomial in one of its rows, perhaps reaching past the brace, is read before the rows are
            # cut; a pair as tall as the brace spans its rows and is read after)
            other.ch == "{" and other.top <= left.cy <= other.bottom and left.height < other.height * CASES_ROW_GROUP))
    return sorted(lefts, key=lambda n: (-around(n), n.x0))


CASES_ROW_GROUP = 0.75   # of a cases brace's height: a group no taller stands in its rows


def _empty_first_column(brace: Node, rows: list[list[Node]], size: float) -> bool:
    """Whether the rows after a cases brace all start a \\quad off it, at one x: `cases` sets its first
    column flush against the brace and its second a \\quad after the first, so rows that each open
    with `&` (the first column empty) start there; an array's first column starts \\arraycolsep
    (half an em) off its delimiter.  A glyph's advance box where the glyph layer kept it."""
    starts = [min(n.adv0 if n.adv1 > n.adv0 else n.x0 for n in row) for row in rows]
    edge = brace.adv1 if brace.adv1 > brace.adv0 else brace.x1
    return max(starts) - min(starts) < size * FLUSH_EDGE and \
        CASES_QUAD[0] * size <= min(starts) - edge <= CASES_QUAD[1] * size


CASES_QUAD = (0.85, 1.2)   # em: where the rows of a cases block with an empty first column start, off the brace


def _cases_rows(brace: Node, between: list[Node], size: float) -> list[Node]:
    """What a `cases` brace holds: its rows, above and below the row its middle stands on.  Where no
    row stands on that middle row, what lies there right of every row is what follows the block
    (`\\end{cases}, \\qquad t = \\gamma t`), not one of its rows."""
    full = [n for n in between if n.size >= size * 0.8]
    middle = [n for n in full if abs(n.base - brace.base) < size * 0.3]
    rows = [n for n in full if abs(n.base - brace.base) >= size * 0.3]
    if not middle or not rows:
        return between
    # a block beside this one on the same baselines (two cases displays a \qquad apart): what stands
    # on the middle row past a \qquad of no row's ink, with rows' ink before it, is what follows
    first = min(middle, key=lambda n: n.x0)
    clear = first.x0 - size * CASES_AFTER
    if any(n.x1 <= clear for n in rows) and not any(n.x0 < first.x0 and n.x1 > clear for n in rows):
        return [n for n in between if n.x0 < first.x0]
    edge = max(n.x1 for n in rows)
    if any(n.x0 <= edge for n in middle):      # a middle row (three rows, or an odd count)
        # what follows the block stands on the middle row too, past every other row's end and a
        # \qquad from the row's own last glyph (its condition's columns start where the others' do)
        middle.sort(key=lambda n: n.x0)
        start = next((b.x0 for a, b in zip(middle, middle[1:]) if b.x0 > edge + size
                      and b.adv0 - a.adv1 >= size * CASES_AFTER), None)
        return between if start is None else [n for n in between if n.x0 < start]
    start = min(n.x0 for n in middle)
    return [n for n in between if n.x0 < start]


MIDDLE_HEIGHT = 0.45  # em: a bar dividing a sized pair is as tall as the pair; the next size down (\bigl|
                      # inside \Bigl( … \Bigr), 0.6 em shorter, may still stand within 0.3 em of both its ends
CASES_AFTER = 1.5   # em: a \qquad (2 em) parts a cases block from what follows it on its middle row


def _aligned_in_cases(rows: list[list[list[Node]]], size: float) -> list[list[list[Node]]]:
    """A `cases` row whose value is a block of lines (an `aligned` in its first cell): its condition
    stands alone on a line of its own, centred between the block's lines, which have no condition.
    A condition never stands without its value, so such a line and as many value-only lines above
    and below it as stand on both sides are one row: the lines an `aligned`, the condition beside it.
    The condition column starts where the conditions of the two-cell rows start."""
    starts = [row[1][0].x0 for row in rows if len(row) == 2 and row[1]]
    if not starts or len(rows) < 3:
        return rows
    column = min(starts)
    lone = [len(row) == 1 and bool(row[0]) for row in rows]
    condition = [one and min(n.x0 for n in row[0]) >= column - size * 0.5 for one, row in zip(lone, rows)]
    value = [one and not cond and max(n.x1 for n in row[0]) < column for one, cond, row in zip(lone, condition, rows)]
    out: list[list[list[Node]]] = []
    k = 0
    while k < len(rows):
        if not condition[k]:
            out.append(rows[k])
            k += 1
            continue
        above = 0
        while k - above - 1 >= 0 and value[k - above - 1] and len(out) > above:
            above += 1
        below = 0
        while k + below + 1 < len(rows) and value[k + below + 1]:
            below += 1
        reach = min(above, below)
        if not reach:
            out.append(rows[k])
            k += 1
            continue
        lines = [row[0] for row in out[len(out) - reach:]] + [row[0] for row in rows[k + 1:k + 1 + reach]]
        del out[len(out) - reach:]
        block = _composite("aligned", [n for line in lines for n in line], rows[k][0][0].base, size,
                           rows=_aligned_cells(lines, size))
        out.append([[block], rows[k][0]])
        k += reach + 1
    return out


def _aligned_cells(lines: list[list[Node]], size: float) -> list[list[list[Node]]]:
    """Lines of an `aligned` block cut at their common alignment point: where the later lines start,
    a node of the first line starts too (`\\min\\Bigl\\{ & d(j), \\\\ & \\min …`); else no point."""
    start = min(n.x0 for n in lines[1])
    if any(abs(min(n.x0 for n in line) - start) > size * 0.25 for line in lines[1:]):
        return [[line] for line in lines]
    first = sorted(lines[0], key=lambda n: n.x0)
    at = min(first[1:], key=lambda n: abs(n.x0 - start), default=None)
    if at is None or abs(at.x0 - start) > size * 0.25:
        return [[line] for line in lines]
    return [[[n for n in first if n.x0 < at.x0], [n for n in first if n.x0 >= at.x0]]] + \
        [[[], line] for line in lines[1:]]


def _column_spec(cells: list[list[list[Node]]], columns: list[tuple], left: Node, right: Node) -> str | None:
    """An array's column specification ("ccc|c") where upright rules stand between a matrix's columns
    (an augmented matrix), each column's letter from how its cells line up (flush right, flush left,
    or centred); None where no rule divides it (a matrix environment's)."""
    width = max(len(row) for row in cells)
    if width < 2 or any(len(row) != width for row in cells):
        return None
    extents = []
    for c in range(width):
        boxes = [_box(row[c]) for row in cells if row[c]]
        if not boxes:
            return None
        extents.append((min(b[0] for b in boxes), max(b[1] for b in boxes), boxes))
    top, bottom = min(left.top, right.top), max(left.bottom, right.bottom)
    after: set[int] = set()
    for rule in columns:
        mid = (rule[0] + rule[2]) / 2
        if not (left.x1 < mid < right.x0 and rule[1] < (top + bottom) / 2 < rule[3]):
            continue
        k = next((k for k in range(width - 1) if extents[k][1] < mid < extents[k + 1][0]), None)
        if k is not None:
            after.add(k)
    if not after:
        return None
    spec = ""
    for c, (_, _, boxes) in enumerate(extents):
        spread = _column_spreads(boxes)
        best = min(spread.values())
        # centred unless one edge lines up while the middles clearly do not (cells of one width line
        # up every way)
        spec += "c" if spread["c"] <= best + COLUMN_ALIGN or spread["c"] < COLUMN_MISALIGNED \
            else min(spread, key=spread.get)
        if c in after:
            spec += "|"
    return spec


def _column_spreads(boxes: list[tuple]) -> dict[str, float]:
    """How far a column's cells stray from lining up on their left edges ("l"), right edges ("r") and
    middles ("c")."""
    return {"l": max(b[0] for b in boxes) - min(b[0] for b in boxes),
            "r": max(b[1] for b in boxes) - min(b[1] for b in boxes),
            "c": max((b[0] + b[1]) / 2 for b in boxes) - min((b[0] + b[1]) / 2 for b in boxes)}


COLUMN_ALIGN = 0.5   # pt: cells lined up on an edge or their middles stand this close to it
COLUMN_MISALIGNED = 1.0   # pt: ... and middles this far apart are not centred


LIST_GAP = 0.8              # em: a comma this far from what follows separates a display's parts (\quad)
DELIMITER_FACTOR = 0.901    # TeX's \delimiterfactor: a \right delimiter covers this share of its group
DELIMITER_SHORTFALL = 5.0   # pt at 10pt: ... or comes at most this short of it (\delimitershortfall)
AXIS_SLACK = 0.1            # of the bar's height: its middle and its group's stand this close, or within
AXIS_SLACK_EM = 0.25        # this share of an em (a fraction's box is off the axis by its parts' heights)


EVALUATED_SHARE = 0.6   # of an evaluation bar's height: what it was grown to cover is at least this tall
FIXED_SIZE_EXCESS = 1.4  # the next size of a delimiter (a font's next variant, or its extensible piece
                         # once more) is less than this much taller than the last: \right| takes the
                         # smallest that covers its group


def _carries_limits(bar: Node, nodes: list[Node], *, dropped: bool = False) -> bool:
    """Whether smaller glyphs stand right after a bar, at its top or its foot: the limits an
    evaluation bar carries as scripts (`\\Big|_{x = 0}`).  With `dropped`, only limits that reach the
    bar's foot or top as TeX drops a script on a delimiter to its depth, set close after it (a
    determinant's entries, small beside a large bar, stand within it, and further)."""
    for n in nodes:
        if n.size >= bar.size * 0.85:
            continue
        kern = n.x0 - bar.x1
        if dropped:
            if n.role != "accent" and -0.5 <= kern < n.size * LIMIT_KERN and \
                    (bar.bottom - BAR_LIMIT_REACH <= n.bottom <= bar.bottom + n.height or
                     bar.top - n.height <= n.top <= bar.top + BAR_LIMIT_REACH):
                return True
        elif -0.5 <= kern < bar.size * 0.3 and \
                (n.top < bar.top + bar.height * 0.35 or n.bottom > bar.bottom - bar.height * 0.35):
            return True
    return False


BAR_LIMIT_REACH = 1.0   # pt: a dropped script reaches this near the bar's end, or past it (the name
                        # LIMIT_REACH is a big operator's, in em)
LIMIT_KERN = 0.4    # of the script's size: it starts this close after the bar (a matrix's first entry,
                    # a letter before its own subscript, stands further)


def _evaluation_bar(bar: Node, nodes: list[Node], tall: list[Node]) -> list[Node]:
    """A tall bar that no bar before it opens closes a group opened by nothing: \\left. … \\right|
    (an evaluation, \\left. \\frac{x^3}{3} \\right|_0^1).  The invisible opening goes after the last
    relation before it on its level, or where that level starts; returned as a node to add."""
    # (a bar before it that carries limits closes an evaluation of its own and opens nothing)
    if any(t is not bar and t.ch == bar.ch and t.x1 <= bar.x0 and abs(t.cy - bar.cy) < bar.height * 0.3
           and not _carries_limits(t, nodes) for t in tall):
        return []
    # an evaluation's bar carries the limits it is evaluated at, as scripts; a bar that divides a set
    # ({A | A B = B A}) carries none
    if not _carries_limits(bar, nodes):
        return []
    level = sorted((n for n in nodes if n is not bar and n.x1 <= bar.x0 and n.top < bar.cy < n.bottom),
                   key=lambda n: n.x0)
    if not level:
        return []
    # the group starts after the last relation, or the last comma a quad sets apart from what follows
    # (a list's next item), outside the brackets before the bar: never inside a pair of parentheses
    depth, starts, signs = 0, [], []
    opened: list[float] = []      # where each bracket still open before the bar ends
    for k, n in enumerate(level):
        if n.kind == "sym" and n.role == "open":
            depth += 1
            opened.append(n.x1)
        elif n.kind == "sym" and n.role == "close":
            depth -= 1
            if opened:
                opened.pop()
        elif n.kind == "sym" and (n.role == "rel" or n.ch == "," and k + 1 < len(level)
                                  and level[k + 1].x0 - n.x1 >= n.size * LIST_GAP):
            starts.append((depth, n))
        elif n.kind == "sym" and n.role == "bin":
            signs.append((depth, n))
    starts = [n for d, n in starts if d == depth]
    # (a bar inside a bracket opened before it, E[… \Big|_{a = μ(s)}], opens nothing outside it)
    after = max(starts, key=lambda n: n.x1) if starts else None
    at = after.x1 + 0.01 if after else opened[-1] + 0.01 if depth > 0 and opened else level[0].x0 - 0.01
    # ... or later, after a + or − of that level, where what follows still holds what the bar was
    # grown to cover (f(x_0) + \left.\frac{\partial f}{\partial x}\right|_{x_0}: the bar measures the
    # fraction alone); where only a short term follows the sign, the bar covers more than it
    # (a sign right after the relation is its term's own: "= -\left.\frac{1}{x}" opens nothing later)
    later = [sign for d, sign in signs if d == depth and sign.x0 > at
             and any(at <= m.cx < sign.x0 for m in level)]
    for sign in sorted(later, key=lambda n: n.x1, reverse=True):
        x = sign.x1 + 0.01
        covered = [n for n in nodes if n is not bar and x <= n.cx < bar.x0 and bar.top <= n.cy <= bar.bottom]
        if covered and max(n.height for n in covered) >= bar.height * EVALUATED_SHARE:
            at, after = x, sign
            break
    # \right| grows to cover what \left. opened (TeX: at least 0.901 of twice the content's reach from
    # the axis, and no more than 5pt short of it); a bar shorter than that is a fixed size, \Big|.  The
    # content is what stands on the bar's row, beside it (an aligned block's other rows are not in it)
    inside = [n for n in nodes if n is not bar and at <= n.cx < bar.x0 and bar.top <= n.cy <= bar.bottom]
    reach = max((max(bar.cy - n.top, n.bottom - bar.cy) for n in inside), default=0.0)
    # (both are centred on the maths axis: a bar off the content's middle is measured on another line
    # than TeX's, and says nothing here)
    middle = (min((n.top for n in inside), default=bar.cy) + max((n.bottom for n in inside), default=bar.cy)) / 2
    required = max(2 * reach * DELIMITER_FACTOR, 2 * reach - DELIMITER_SHORTFALL * bar.size / 10)
    # ... and no taller than the smallest size that covers it: a bar much taller than both that and its
    # font's own size was asked for (-\phi(x) \Big|_{z}^{\infty})
    if abs(middle - bar.cy) < max(bar.height * AXIS_SLACK, bar.size * AXIS_SLACK_EM) and \
            (bar.height < required - 0.5 or bar.height > max(required, bar.size) * FIXED_SIZE_EXCESS):
        return []
    if after is not None and not _null_delimiter_after(after, [n for n in level if n.x0 >= at]):
        # (a unary sign opening the group, `= -\left.\frac{…}{…}\right|`: TeX sets it as an ordinary
        # symbol, no space after it, and the null delimiter after that)
        group = sorted((n for n in level if n.x0 >= at), key=lambda n: n.x0)
        unary = group[0] if group and group[0].kind == "sym" and group[0].role == "bin" and \
            group[0].ch in UNARY_SIGNS else None
        if unary is None or len(group) < 2 or not _null_delimiter_after(unary, group[1:], unary=True):
            return []   # a bar of the size \right would take, set by hand: \frac{U}{I}\bigg\rvert_{a = b}
        at = unary.x1 + 0.01
    bar.tex, bar.role = r"\right" + FENCES[bar.ch], "close"
    return [Node("sym", at, at, bar.cy, bar.cy, bar.base, bar.size, tex=r"\left.", role="open", adv0=at, adv1=at)]


def _null_delimiter_after(sign: Node, group: list[Node], unary: bool = False) -> bool:
    """Whether the group after a relation or a binary sign opens with TeX's \\nulldelimiterspace, the
    1.2 pt that an invisible `\\left.` leaves: the first glyph stands that much further than the sign's
    own space (5mu after a relation, 4mu after a binary sign), measured between advance boxes.  A
    fraction opens with a null delimiter of its own, read up to half of one short at its rule, so a
    second is told from it by a whole one more.  Where the PDF gives no advance boxes, it is taken
    as there (the bar closes a \\left. group, as before)."""
    first = min(group, key=lambda n: n.x0, default=None)
    if first is None or sign.adv1 <= sign.adv0:
        return True
    start = first.x0 if first.kind == "frac" else _edge_advances(first)[0]
    if start is None:
        return True
    space = 0.0 if unary else (THICK_SPACE if sign.role == "rel" else MEDIUM_SPACE) * sign.size
    extra = start - sign.adv1 - space
    return extra >= NULL_DELIMITER * (1.0 if first.kind == "frac" else 0.5)


MEDIUM_SPACE = 4 / 18   # em: TeX's \medmuskip, round a binary sign
UNARY_SIGNS = "-−+"     # a sign that opens a group is unary: an ordinary symbol, no space after it


# A rule-less fraction's parts stand the font's numerator and denominator shifts apart: 1.36 em in the
# Computer Modern metrics and the Type 1 fonts made on them (Palatino, Times).  An array's rows stand
# \arraystretch × \baselineskip apart: 1.2 em in the standard classes, and up to 1.33 em seen in a
# book with a loose leading.  Between the two, a pitch says nothing (a font with tighter shifts, STIX
# Two's 1.27 em, sets binomials that read as matrices).
BINOMIAL_PITCH = 1.34
# The delimiters a rule-less fraction's parts stand in, read so (\binom, and \genfrac's braces:
# Stirling's numbers {n \brace k}), and how \genfrac writes them.  Not brackets: a bracketed column
# vector whose entry carries an accent (\dot{\ell}_{t}) stands a binomial's pitch apart, and is far
# commoner than [n \brack k]
GENERALISED_FRACTIONS = {("(", ")"): None, ("{", "}"): (r"\{", r"\}")}
# But rows of letters and digits in an array stand exactly the book's leading apart (their struts
# decide), to a hundredth of a point: where the parts are set at the size that leading is the book's
# for (between BINOMIAL_LEAST and BINOMIAL_MOST of it), two parts any other pitch in that range apart
# are a binomial's, whatever the font's shifts (an array stretched by \arraystretch stands further).
PITCH_EXACT = 0.1     # pt
BINOMIAL_LEAST = 1.1  # em
BINOMIAL_MOST = 1.5   # em
# The book's leading (\baselineskip) while a formula is read, 0 when the caller does not know it: rows
# exactly that far apart are an array's.
LEADING: ContextVar[float] = ContextVar("LEADING", default=0.0)


def _binomial(cells: list[list[list[Node]]], left: Node, right: Node) -> bool:
    """\\binom{n}{k}, not a column vector: two parts in parentheses (or in braces, which \\genfrac
    writes: Stirling's numbers) at least BINOMIAL_PITCH apart and
    not the book's leading apart, that read as counts (italic letters, digits and signs, with
    scripts); bold entries (a vector's \\mathbf{x}_B) and built structures (fractions, sums,
    matrices) are never a binomial's."""
    if (left.ch, right.ch) not in GENERALISED_FRACTIONS or len(cells) != 2 or any(len(row) != 1 or not row[0] for row in cells):
        return False
    # (a letter may carry an accent, \binom{n + \tilde{y}}{\tilde{y}}: a glyph's, not a rule's)
    if any(n.kind not in ("sym", "script", "accent") or n.kind == "accent" and "rule" in n.parts
           for row in cells for n in row[0]):
        return False
    leaves = _leaves([n for row in cells for n in row[0]])
    for n in leaves:
        if n.kind != "sym" or not (n.style == "it" and n.ch.isalpha() or n.ch.isdigit() or n.tex in ("+", "-")):
            return False
    # the parts' own type size, from their letters and digits (the formula's may be a big operator's,
    # a sign's may come from a symbol font set larger)
    em = max(n.size for n in leaves if n.ch.isalnum())
    pitch = _main_base(cells[1][0]) - _main_base(cells[0][0])
    leading = LEADING.get()
    if leading and abs(pitch - leading) < PITCH_EXACT:
        return False
    if leading and BINOMIAL_LEAST <= leading / em <= BINOMIAL_MOST and em * BINOMIAL_LEAST <= pitch <= em * BINOMIAL_MOST:
        return True       # not the rows of an array at this size: a fraction's shifts (any font's)
    return pitch >= em * BINOMIAL_PITCH


def _leaves(nodes: list[Node]) -> list[Node]:
    """The glyphs under built nodes (a script's nucleus and scripts, …)."""
    out: list[Node] = []
    for n in nodes:
        if n.kind in ("sym", "word"):
            out.append(n)
            continue
        for part in n.parts.values():
            if isinstance(part, Node):
                out.extend(_leaves([part]))
            elif isinstance(part, list):
                out.extend(_leaves([m for m in part if isinstance(m, Node)]))
    return out


def _matrix_rows(nodes: list[Node], size: float) -> list[list[Node]]:
    """Nodes in rows: by the baselines of their full-size members, scripts going with the nearest."""
    return _row_bands(nodes, size)


ROW_SIZE = 0.8    # of the formula's size: a glyph this large sets a row (a matrix set \\small in a display: 0.83)
HUNG_SIZE = 0.85  # ... unless it hangs on a big operator and is smaller than this (a 9 pt class's 7.3 pt scripts: 0.81)


def _row_bands(nodes: list[Node], size: float) -> list[list[Node]]:
    """Nodes in rows by the baselines of their full-size members; every other node goes with the
    row whose baseline is nearest its own."""
    # a big operator's script set midway between two rows (an integral's upper limit, beside its top)
    # goes with the operator it hangs on; so does one barely smaller than the row (a 9 pt class's
    # 7.3 pt scripts), which elsewhere may set a row of its own (a matrix set \\small in a display)
    tall = [n for n in nodes if n.kind == "sym" and n.role == "op" and n.height > size * 1.2
            and n.size > size * SMALLEST_STYLE]

    def hangs(n: Node) -> Node | None:
        if n.size >= size * HUNG_SIZE or n in tall:
            return None
        # (one barely smaller may stand half its height past the operator's end)
        reach = n.size * 0.5 if n.size >= size * ROW_SIZE else 0.0
        on_op = next((o for o in tall if o.top - reach <= n.cy <= o.bottom + reach
                      and o.x0 - size * 0.1 <= n.x0 <= o.adv1 + size * 0.3), None)
        return on_op or (_script_base(n, bases, size) if n.size >= size * ROW_SIZE else None)
    bases = [n for n in nodes if n.kind == "sym" and n.role in ("ord", "close") and n.size >= size * 0.95]
    hung = {id(n): hangs(n) for n in nodes}
    # a fraction, root or matrix stands on a row of its own unless set in the smallest style, where it
    # is a script's (a fraction in an exponent, which an OpenType font raises most of an em)
    full = sorted((n for n in nodes if n.size >= size * ROW_SIZE and hung[id(n)] is None
                   or n.kind in ("frac", "op", "root", "matrix", "cases", "binom") and n.size > size * SMALLEST_STYLE),
                  key=lambda n: n.base)
    if not full:
        return [nodes] if nodes else []
    lines: list[list[float]] = []
    for n in full:
        if lines and n.base - lines[-1][-1] < size * 0.6:
            lines[-1].append(n.base)
        else:
            lines.append([n.base])
    centres = [sum(b) / len(b) for b in lines]
    rows: list[list[Node]] = [[] for _ in centres]
    nearest = lambda y: min(range(len(centres)), key=lambda i: abs(centres[i] - y))
    # a script goes with the letter it is set after when that shows (two blocks side by side whose
    # baselines are a few points apart: c^\top of one nearer the other's baseline than its own)
    letters = bases if len(centres) > 1 else []
    owners = {}
    for n in nodes:
        owner = hung[id(n)]
        if owner is None and letters and n.size < size * ROW_SIZE and n.kind == "sym":
            owner = _script_base(n, letters, size)
        owners[id(n)] = owner
    if letters:
        # (the rest of a script goes with its first glyph: `1/2` after a grown bracket, whose `/2`
        # stands as far from the bracket as from the other row)
        run = sorted((n for n in nodes if n.size < size * ROW_SIZE and n.kind == "sym"), key=lambda n: n.x0)
        for before, n in zip(run, run[1:]):
            if owners[id(n)] is None and owners[id(before)] is not None and abs(n.base - before.base) < n.size * 0.1 \
                    and (0 <= n.x0 - before.x1 <= n.size * 0.3 or _after_advance(n, before, n.size)):
                owners[id(n)] = owners[id(before)]
    for n in nodes:
        owner = owners[id(n)]
        rows[nearest(owner.base if owner is not None else n.base)].append(n)
    return [r for r in rows if r]


def _script_base(n: Node, bases: list[Node], size: float) -> Node | None:
    """The full-size letter, digit or closing delimiter a barely smaller glyph is a script of: it
    starts where that glyph's ink ends, raised or lowered by a script's shift (a class whose scripts
    are 0.82 of its size, \\theta^{m_{ijk}} in a 10.95 pt text face's 9 pt), not a line away.  TeX
    sets a script's box right after its nucleus's box, so where the PDF gives both advance boxes the
    script may start where the nucleus's advance ends: a grown bracket of the extension font has a
    third of an em of side bearing past its ink (`\\right]^{1/2}`)."""
    return next((b for b in bases if (-size * 0.05 <= n.x0 - b.x1 <= size * 0.15 or _after_advance(n, b, size))
                 and (size * 0.2 <= abs(b.base - n.base) <= size * 0.7 or _on_tall_close(n, b, size))), None)


def _after_advance(n: Node, base: Node, size: float) -> bool:
    """Whether a glyph's advance box starts where `base`'s ends (within the reach _script_base allows
    ink), both boxes given by the PDF."""
    return n.adv1 > n.adv0 and base.adv1 > base.adv0 and -size * 0.05 <= n.adv0 - base.adv1 <= size * 0.15


def _on_tall_close(n: Node, close: Node, size: float) -> bool:
    """Whether a glyph after a grown closing delimiter is its superscript or subscript: TeX shifts a
    script on a tall box by the box's height or depth, not by the usual shift, so it stands near the
    delimiter's top or foot, its baseline within the delimiter's height."""
    return close.role == "close" and close.height > size * 1.5 and close.top <= n.base <= close.bottom and \
        abs(n.base - close.base) > size * 0.2


def _full(row: list[Node], size: float) -> list[Node]:
    return [n for n in row if n.size >= size * 0.8] or row


def _cells(row: list[Node], all_nodes: list[Node], size: float, two: bool = False) -> list[list[Node]]:
    """A row of a matrix cut into cells at the column gaps that no row bridges (for `cases`, the
    value and the condition at the widest gap)."""
    row = sorted(row, key=lambda n: n.x0)
    if two:
        gaps = [(row[k + 1].adv0 - row[k].adv1, k) for k in range(len(row) - 1)]
        gap, at = max(gaps, default=(0.0, -1))
        if gap > size * 0.75:
            return [row[:at + 1], row[at + 1:]]
        return [row]
    # column gaps: x stretches no node of any row covers
    spans = sorted((n.x0, n.x1) for n in all_nodes)
    cuts: list[float] = []
    reach = spans[0][1] if spans else 0
    for x0, x1 in spans[1:]:
        if x0 - reach > size * COLUMN_CUT:
            cuts.append((x0 + reach) / 2)
        reach = max(reach, x1)
    cells: list[list[Node]] = [[] for _ in range(len(cuts) + 1)]
    for n in row:
        k = sum(1 for c in cuts if n.cx > c)
        cells[k].append(n)
    return cells


# --------------------------------------------------------------------------- rows and scripts
"""Rows and scripts: along a baseline, a smaller glyph raised or lowered after its base is a script."""


def _row_of(nodes: list[Node], rules: list[tuple]) -> list[Node]:
    """One row (a numerator, a limit, a cell): its structures built, then its scripts attached."""
    if not nodes:
        return []
    nodes = _build(nodes, rules)
    return _scripts(nodes)


def _in_order(nodes: list[Node]) -> list[Node]:
    """Nodes along a row, left to right by their ink; a thin delimiter standing within the left half of
    the node before it comes first: that node's ink reaches back under it (the tail of an italic f
    after a big bar, `\\bigl\\lvert \\hat{f}`), as a node never holds a delimiter it has not taken in."""
    out = sorted(nodes, key=lambda n: (n.x0, n.top))
    for k in range(len(out) - 1):
        a, b = out[k], out[k + 1]
        if b.kind == "sym" and b.role in ("open", "fence") and b.x1 - b.x0 < b.size * 0.2 and \
                a.x0 < b.x0 and b.x1 < (a.x0 + a.x1) / 2:
            out[k], out[k + 1] = b, a
    return out


def _scripts(nodes: list[Node]) -> list[Node]:
    """Walk a row left to right: a node smaller than the row's glyphs and off its baseline hangs on
    the base before it, raised (superscript) or lowered (subscript); script runs are rows of their
    own (nested scripts)."""
    if not nodes:
        return []
    size = _size([n for n in nodes if n.kind != "space"] or nodes)
    lone = _lone_operator(nodes)
    if lone is not None:
        size = lone.size
    main = _main_base(nodes)
    nodes = _in_order(nodes)
    glyphs = [n for n in nodes if n.kind != "space"]
    if glyphs and size <= TEXT_SIZE.get() * SMALLEST_STYLE and all(abs(n.size - size) < size * 0.05 for n in glyphs):
        # in the smallest style scripts keep the row's size, and may outnumber their base
        # (\frac{\theta_{xa}}{\tau} in an exponent): the row starts on its baseline
        main = glyphs[0].base
    out: list[Node] = []
    i = 0
    while i < len(nodes):
        n = nodes[i]
        level = _level(n, main, size, out[-1] if out else None)
        if level == 0 or not out and not (level > 0 and _empty_nucleus(n, nodes[i + 1:], main, size)):
            # a row starts with a base (a script needs something to hang on), but for a superscript set
            # on an empty one
            out.append(n)
            i += 1
            continue
        j = i
        run = []
        levels = []
        pending: list[tuple[float, int]] = []   # run members by where their ink ends (a heap)
        ended = widest = -1                     # the member ending last before the glyph at hand; last of all
        while j < len(nodes):
            m = nodes[j]
            lv = _level(m, main, size, out[-1] if out else None)
            owner = _prime_owner(m, run, levels) if m.role == "prime" and run else None
            if owner is not None:
                lv = levels[owner]
            elif lv == 0:
                # a small glyph near the baseline inside a script run is a script's own script (the
                # i of a \sum_i in an exponent), not a base of this row
                # (a fraction on the row's axis is the row's: a text-style \frac after e^{-x} is set small)
                if not (run and _small(m, size) and m.kind != "frac" and m.x0 <= run[widest].x1 + m.size * 0.5):
                    break
                # (of the script it follows: a sub- and a superscript stack, and its own base ends nearer)
                while pending and pending[0][0] <= m.x0 + m.size * 0.3:
                    _, k = heapq.heappop(pending)
                    ended = k if ended < 0 or run[k].x1 >= run[ended].x1 else ended
                lv = levels[ended if ended >= 0 else widest]
            run.append(m)
            levels.append(lv)
            heapq.heappush(pending, (m.x1, len(run) - 1))
            widest = len(run) - 1 if widest < 0 or m.x1 > run[widest].x1 else widest
            j += 1
        base = out.pop() if out else Node("sym", n.x0, n.x0, n.top, n.bottom, main, size, tex="{}", ch="")
        sub = [m for m, lv in zip(run, levels) if lv < 0]
        sup = [m for m, lv in zip(run, levels) if lv > 0]
        if base.kind == "script":          # more scripts for a base that has some (x^{a}{}_{b} is rare)
            sub = base.parts["sub"] + _scripts(sub) if sub else base.parts["sub"]
            sup = base.parts["sup"] + _scripts(sup) if sup else base.parts["sup"]
            base = base.parts["nucleus"]
        else:
            sub, sup = _scripts(sub), _scripts(sup)
        _script_primes(sub)
        _script_primes(sup)
        node = _composite("script", [base] + run, base.base, base.size, nucleus=base, sub=sub, sup=sup)
        out.append(node)
        i = j
    return _relation_bars(out)


def _empty_nucleus(n: Node, later: list[Node], main: float, size: float) -> bool:
    """Whether a row's first glyph, raised, is a superscript hung on an empty nucleus (`{}^{3}\\!/_{4}`,
    `{}^{14}C`): a glyph of a script's size off the baseline of the full-size glyphs that follow it on
    the row (the row's size is theirs).  A grown delimiter or big operator is placed by where it sits,
    never a script of nothing.  (A lowered glyph first on its row is more often the subscript of a
    nucleus the PDF gives no text for, or a stray piece of the line below, than `{}_{n}C`: it stays.)"""
    if n.kind != "sym" or n.parts.get("ext") or n.role == "op" or n.size >= size * 0.85:
        return False
    return any(m.kind != "space" and m.size >= size * 0.85 and abs(m.base - main) < size * 0.08 for m in later)


# TeX sets a relation between thick spaces (\thickmuskip, 5mu = 0.28 em, which never shrinks) and an
# ordinary symbol with none: a bar with such a gap on both sides is \mid (p(x \mid y)); a bar tight
# against its neighbours is an ordinary | (|x|, p(x|y) as some authors write it).
RELATION_GAP = 0.15       # em, between the bar's advance box and its neighbours' ink
RELATION_GAP_INK = 0.3    # em, ink to ink, where the PDF gave no advance box (a bar's own side bearings)
PARALLEL_GAP = 0.25       # em, ... for a double bar: a relation's 5mu and the neighbour's bearing, more than \,'s 3mu
PARALLEL_SPACE = 0.22     # em, advance box to advance box: between \,'s 3mu (0.17) and a relation's 5mu (0.28)
PARALLEL_PAIR = 0.52      # em, both sides' advance spaces together: a relation's two 5mu (0.56), not \,\|\,'s
RELATION_SPACE = 0.25     # em, advance box to advance box, one side: more than a binary sign's 4mu (0.22)


def _edge_advances(node: Node) -> tuple[float | None, float | None]:
    """Where the advance boxes of a node's first and last glyphs start and end (a structure's own
    box is its ink); None where a glyph has no advance box."""
    leaves: list[Node] = []

    def collect(value) -> None:
        if isinstance(value, Node):
            if value.kind == "sym":
                leaves.append(value)
            else:
                for part in value.parts.values():
                    collect(part)
        elif isinstance(value, (list, tuple)):
            for item in value:
                collect(item)
    collect(node)
    if not leaves:
        return None, None
    first, last = min(leaves, key=lambda n: n.x0), max(leaves, key=lambda n: n.x1)
    return (first.adv0 if first.adv1 > first.adv0 else None), (last.adv1 if last.adv1 > last.adv0 else None)


def _relation_bars(row: list[Node]) -> list[Node]:
    """A plain bar set with a relation's spaces around it is `\\mid`, a double one `\\parallel`."""
    ordered = [n for n in row if n.kind != "space"]
    for k in range(1, len(ordered) - 1):
        n = ordered[k]
        if n.kind != "sym" or n.tex not in ("|", r"\|"):
            continue
        left, right = (n.adv0, n.adv1) if n.adv1 > n.adv0 else (n.x0, n.x1)
        gap = (RELATION_GAP if n.adv1 > n.adv0 else RELATION_GAP_INK) * n.size
        before, after = ordered[k - 1], ordered[k + 1]
        if n.tex != "|":
            _, before_end = _edge_advances(before)
            after_start, _ = _edge_advances(after)
            spaces = (n.adv0 - before_end, after_start - n.adv1) \
                if n.adv1 > n.adv0 and before_end is not None and after_start is not None else None
            if spaces is not None and min(spaces) < PARALLEL_SPACE * n.size:
                # where the glyphs have their advance boxes, the spaces themselves: 5mu a side for
                # \parallel, 3mu for \,\|\, (a script before it adds its 0.5 pt)
                continue
            if spaces is None or sum(spaces) < PARALLEL_PAIR * n.size:
                # (spaces that come to two relation spaces together are \parallel's, whatever the ink)
                gap += (PARALLEL_GAP - RELATION_GAP) * n.size   # a norm's bars spaced by hand (\,\|\,) stay \|
        if left - before.x1 >= gap and after.x0 - right >= gap:
            size = next((name for least, name in BIG_SIZES if n.height >= n.size * least), None)
            gaps = (left - ordered[k - 1].x1, ordered[k + 1].x0 - right)
            if size and n.size * BIG_RELATION_GAP <= min(gaps) and max(gaps) < n.size * LIST_GAP:
                if not _relation_spaced(n, [before, after]):
                    continue   # (a tall bracket's bearing is no space: `\right) \bigg\rvert =` closes a group)
                n.tex = size + "m" + n.tex     # a bar of a fixed big size spaced as a relation: \bigm| (\Bigm\|)
            else:
                n.tex = r"\mid" if n.tex == "|" else r"\parallel"
    _relation_double_bars(ordered)
    return row


def _relation_double_bars(ordered: list[Node]) -> None:
    """A double bar set as a relation where the loop above does not look: one carrying scripts
    (`\\parallel_\\infty`, an author's closing bar of a norm written as the relation), one last on its
    row, one right after another relation.  TeX puts a relation's thick space (5mu) before it, none
    after a relation (`= \\parallel y`: two relations in a row are set close), and a thick space after
    its scripts unless it ends the formula; a norm's bar (`\\|x\\|_2`) stands tight against what it
    closes or opens.  Only the advance boxes tell the spaces from the glyphs' bearings: without them
    the bar stays `\\|`."""
    for k in range(1, len(ordered)):
        n = ordered[k]
        bar = n.parts["nucleus"] if n.kind == "script" else n
        before = ordered[k - 1]
        after_relation = before.kind == "sym" and before.role == "rel"
        if bar.kind != "sym" or bar.tex != r"\|" or bar.adv1 <= bar.adv0 \
                or (n is bar and k < len(ordered) - 1 and not after_relation) \
                or bar.height >= bar.size * BIG_SIZES[-1][0] or before.kind == "sym" and before.role in ("bin", "dot"):
            # (the loop's, a bar of a fixed big size its \bigm\| among them; after a binary sign the
            # space is the sign's own 4mu, a norm's bar closing on a placeholder, \|\cdot\|_{\xi}: TeX
            # sets no relation right after a binary sign, which it would make ordinary)
            continue
        _, before_end = _edge_advances(before)
        if before_end is None:
            continue
        space = bar.adv0 - before_end
        if not (abs(space) < THIN_SPACE_FLOOR * bar.size if after_relation else space >= RELATION_SPACE * bar.size):
            continue
        if k + 1 < len(ordered):
            after_start, _ = _edge_advances(ordered[k + 1])
            _, scripts_end = _edge_advances(n)
            if after_start is None or scripts_end is None or after_start - scripts_end < RELATION_SPACE * bar.size:
                continue
        bar.tex = r"\parallel"


# The heights of TeX's fixed delimiter sizes, in ems of the formula's type: \big 1.2, \Big 1.8, \bigg
# 2.4, \Bigg 3.0; each name is taken from a little under its height (a text bar is about 1 em).
BIG_SIZES = ((2.7, r"\Bigg"), (2.1, r"\bigg"), (1.5, r"\Big"), (1.15, r"\big"))
# ... spaced as a relation by TeX (\bigm: a thick space, 0.28 em, each side, from the bar's box to the
# neighbour's, whose ink may start a hair inside it), not by hand (`\,\big|\,`: a thin space, 0.17 em,
# and the bearings), nor a quad or more apart from what stands beside it (a bar between an array's
# columns, a delimiter left unpaired)
BIG_RELATION_GAP = 0.25


def _script_primes(row: list[Node]) -> None:
    """A prime standing on a script's own baseline after what it marks (`x^{i\\prime}`) is \\prime: an
    apostrophe there would be raised once more.  (One raised above the script is that script's own.)"""
    for k, n in enumerate(row):
        if k and n.kind == "sym" and n.role == "prime" and n.tex and set(n.tex) == {"'"}:
            n.tex = r"\prime" * len(n.tex)


def _small(n: Node, size: float) -> bool:
    """Set smaller than the row's glyphs (a script's size), the extension font's glyphs aside."""
    return n.size < size * 0.85 and not (n.kind == "sym" and (n.parts.get("ext") or n.role == "op"))


def _prime_owner(prime: Node, run: list[Node], levels: list[int]) -> int | None:
    """The glyph of a subscript run whose own prime this is (x_{t'}), by its index in the run: the
    larger glyph whose ink the prime goes on from (not a smaller one stacked under it, \\sum_{a'_{i}},
    nor a superscript stacked over the subscript, \\alpha_{a'}^{(k)}), or the prime before it (the
    second prime of s'' follows the first)."""
    for k in range(len(run) - 1, -1, -1):
        r = run[k]
        if levels[k] >= 0:
            continue
        if r.role == "prime":
            # (on its level: a superscript's prime set over a subscript's, x_{t'}^{s'}, is its own)
            if prime.x0 >= r.x0 and prime.x0 - r.x1 < prime.size * 0.5 and \
                    prime.top < r.bottom and prime.bottom > r.top:
                return k
            continue
        if r.size > prime.size * 1.1 and -prime.size * 0.2 <= prime.x0 - r.x1 < prime.size * 0.5 and \
                _primes_script(prime, r):
            return k
    return None


def _primes_script(prime: Node, script: Node) -> bool:
    """Whether a prime after a subscript is that subscript's own (x_{t'}): it follows the script's
    ink, one size smaller, its foot within the script's height; a base's prime stands over its
    subscript (x'_t), not after it, and a superscript's over the subscript below it (U_{θ}^{π'})."""
    return prime.x0 >= script.x1 - prime.size * 0.2 and prime.size < script.size * 0.9 and \
        prime.bottom >= script.top - prime.size * 0.3


PRIME_REACH = 0.6       # em of the base: a base's own prime starts within its italic correction and a bit
SMALLEST_STYLE = 0.62   # of the formula's size: scriptscript style (5 pt to 10, 6 to 11 or 12); script is 0.7
SCRIPT_STEP_IN_SCRIPT = 0.92   # of a script row's size: a glyph this much smaller in it is its script
SMALLEST_SUB_DROP = 0.12   # of the size: a subscript in the smallest style, its own size, hangs this far at
                           # least (TeX's sub1 in a fraction's numerator in an exponent: 0.15)


def _level(n: Node, main: float, size: float, base: Node | None) -> int:
    """0 on the baseline, 1 raised (superscript), -1 lowered (subscript)."""
    if n.kind == "space":
        return 0
    if n.kind == "sym" and (n.parts.get("ext") or n.role == "op") and (n.size >= size * 0.85 or n.height >= size):
        # TeX's extension font has one size for every style: where the glyph sits tells (one set
        # smaller than the row, Euler's ∞ in a subscript, is told by its size like any other).  A
        # book set larger than the font's design size may load it at that size (cmex at 10 pt under
        # 17 pt text): its glyph is still the row's when its ink is taller than the row's em, which
        # no script's glyph is (a \left[ round a one-row array)
        axis = main - size * 0.25
        if n.cy < axis - size * 0.35 and n.bottom < main - size * 0.1:
            return 1
        if n.cy > axis + size * 0.45 and n.top > main - size * 0.5:
            return -1
        return 0
    if n.role == "prime" and base is not None and n.x0 >= base.x1 - n.size * 0.3 and n.size < base.size * 0.9 \
            and n.bottom < base.base and n.size > base.size * 0.6 and n.x0 - base.x1 < base.size * PRIME_REACH:
        # a prime one size below its base (a smaller one is a script's own prime), right after it: TeX
        # stacks a base's scripts, so its prime starts at the base's edge whatever its subscript (x'_t,
        # x_t'); one further on, past a subscript's own superscript, is that script's (r_{A_h^{(k')}})
        return 1
    # (in a script's own row the step to the smallest style may be less: an OpenType font's scripts at
    # 80 % and its scripts' scripts at 70 %, GFS Neohellenic Math's)
    step = SCRIPT_STEP_IN_SCRIPT if size < TEXT_SIZE.get() * 0.9 else 0.85
    small = n.size < size * step or n.kind == "frac" and _raised_small_fraction(n, main, size, step)
    if not small and size <= TEXT_SIZE.get() * SMALLEST_STYLE and n.size <= size * 1.05:
        # a row in TeX's smallest style (the numerator of a fraction in an exponent): its scripts
        # keep its size, raised less where the style is cramped (a denominator's)
        if n.base < main - size * 0.2:
            return 1
        if n.base > main + size * SMALLEST_SUB_DROP:
            return -1
        return 0
    if not small:
        return 0
    if n.base < main - size * 0.17:
        return 1
    if n.base > main + size * 0.08:
        return -1
    return 0


def _raised_small_fraction(frac: Node, main: float, size: float, step: float) -> bool:
    """Whether a fraction is set small and raised, an exponent (`e^{-\\frac{a}{b}}`): its parts' glyphs
    all a script's step smaller than the row (`size`), its bar higher over the row's baseline than the
    maths axis by a script's shift.  A fraction's own size is that of every glyph within its bar's
    length, which may be another row's (the denominator under a numerator that holds it, the rows of
    the display above and below), so its parts tell how small it is set."""
    rule = frac.parts.get("rule")
    if rule is None or not _small_parts(frac, size * step):
        return False
    return main - (rule[1] + rule[3]) / 2 > size * RAISED_FRACTION


def _small_parts(frac: Node, small: float) -> bool:
    """Whether a fraction's parts are all set smaller than `small`."""
    leaves = [m for m in _leaves(frac.parts.get("num", []) + frac.parts.get("den", [])) if m.kind == "sym"]
    return bool(leaves) and _size(leaves) < small


RAISED_FRACTION = 0.38   # em of the row: a bar this far over the row's baseline is an exponent's (on the row
                         # a bar stands on the maths axis, a quarter em up; an exponent's \\frac has its bar
                         # 0.45 em up in a cramped style, in a denominator, and 0.55 em or more elsewhere)


# --------------------------------------------------------------------------- display rows
"""Display rows: a multi-line display split at its baselines, aligned at a common relation."""


def _display_rows(nodes: list[Node], size: float) -> list[list[Node]]:
    if not nodes:
        return []
    rows = _row_bands(nodes, size)
    return [sorted(r, key=lambda n: n.x0) for r in rows if r]


# --------------------------------------------------------------------------- writing
"""Writing: LaTeX from the tree."""


# Whether the row being written out is set in TeX's display style: a display's own rows and an
# aligned block's are, a fraction's parts (but \dfrac's), a matrix's or `cases`' cells, a script and
# an operator's limits are not.  It tells an operator's name with its limits under it from one
# whose subscript stands beside it, which TeX sets so only in the text style or when told to.
DISPLAY_STYLE: ContextVar[bool] = ContextVar("DISPLAY_STYLE", default=False)
TEXT_STYLE_PARTS = {"frac", "matrix", "cases", "rcases", "smallmatrix", "binom", "op"}
LIMIT_NAMES = {"min", "max", "lim", "sup", "inf", "det", "Pr", "gcd", "liminf", "limsup", "injlim", "projlim"}
BESIDE_SLACK = 0.1   # em of the name: a subscript starting no further left of its end stands beside it


def _tex(n: Node) -> list[str]:
    """A node's LaTeX as tokens."""
    if DISPLAY_STYLE.get() and n.kind in TEXT_STYLE_PARTS and not n.parts.get("display"):
        token = DISPLAY_STYLE.set(False)
        try:
            return _tex(n)
        finally:
            DISPLAY_STYLE.reset(token)
    k = n.kind
    if k == "sym":
        return [n.tex] if n.tex else []
    if k == "word":
        return _word_tex(n)
    if k == "frac":
        command = r"\cfrac" if n.parts.get("continued") else r"\dfrac" if n.parts.get("display") else r"\frac"
        return [command, "{", *_row_tex(n.parts["num"]), "}", "{", *_row_tex(n.parts["den"]), "}"]
    if k == "root":
        index = n.parts.get("index")
        out = [r"\sqrt"]
        if index:
            out += ["[", *_row_tex(index), "]"]
        return out + ["{", *_row_tex(n.parts["body"]), "}"]
    if k == "accent":
        return ["\\" + n.parts["accent"], "{", *_row_tex(n.parts["body"]), "}"]
    if k == "op":
        op = n.parts["op"]
        head = _tex(op)
        if n.parts.get("letter"):      # a letter made an operator, its limit beneath it
            head = [r"\mathop", "{", *head, "}"]
        elif op.role == "rel" or (op.kind == "sym" and op.role == "ord"):    # a relation (a letter) with a note
            over = n.parts.get("upper")
            under = n.parts.get("lower") or [m for line in n.parts.get("lower_lines") or [] for m in line]
            if op.parts.get("stretched") and op.tex in _STRETCHED:     # an arrow as long as its notes
                return [_STRETCHED[op.tex], *(["[", *_row_tex(under), "]"] if under else []),
                        "{", *(_row_tex(over) if over else []), "}"]
            return [r"\overset" if over else r"\underset", "{", *_row_tex(over or under), "}", "{", *head, "}"]
        if op.kind == "word" and op.role != "op":
            head = [r"\operatorname*{" + op.ch + "}"]
        out = list(head)
        if n.parts.get("lower"):
            out += ["_", "{", *_row_tex(n.parts["lower"]), "}"]
        elif n.parts.get("lower_lines"):
            lines = [_row_tex(line) for line in n.parts["lower_lines"]]
            out += ["_", "{", r"\substack", "{", *[t for k, line in enumerate(lines) for t in ([r"\\"] if k else []) + line], "}", "}"]
        if n.parts.get("upper"):
            out += ["^", "{", *_row_tex(n.parts["upper"]), "}"]
        return out
    if k == "script":
        if _beside_limits(n):
            # \sideset{}{'}\sum: scripts at the corner of an operator whose limits stand under and over it
            scripts = _tex(Node("script", n.x0, n.x0, n.top, n.bottom, n.base, n.size,
                                parts={"nucleus": Node("sym", n.x0, n.x0, n.top, n.bottom, n.base, n.size, tex="", ch=""),
                                       "sub": n.parts["sub"], "sup": n.parts["sup"]}))
            return [r"\sideset", "{", "}", "{", *scripts, "}", *_tex(n.parts["nucleus"])]
        token = DISPLAY_STYLE.set(False)       # (a script is set in a script style)
        try:
            return _script_tex(n, token.old_value is True)
        finally:
            DISPLAY_STYLE.reset(token)
    if k == "matrix":
        env = {("(", ")"): "pmatrix", ("[", "]"): "bmatrix", ("|", "|"): "vmatrix", ("‖", "‖"): "Vmatrix",
               ("{", "}"): "Bmatrix"}.get((_BAR_FORMS.get(n.parts["left"], n.parts["left"]),
                                            _BAR_FORMS.get(n.parts["right"], n.parts["right"])))
        body = _rows_tex(n.parts["rows"], n.parts.get("hlines", ()))
        if n.parts["left"] is None:      # an array with no delimiters (_stacked_between)
            return [r"\begin{array}{" + (n.parts.get("spec") or "c") + "}", *body, r"\end{array}"]
        if n.parts.get("spec"):
            return [r"\left" + _delim(n.parts["left"]), r"\begin{array}{" + n.parts["spec"] + "}", *body,
                    r"\end{array}", r"\right" + _delim(n.parts["right"])]
        if env:
            return [r"\begin{" + env + "}", *body, r"\end{" + env + "}"]
        return [r"\left" + _delim(n.parts["left"]), r"\begin{matrix}", *body, r"\end{matrix}",
                r"\right" + _delim(n.parts["right"])]
    if k == "cases":
        if n.parts.get("spec"):
            return [r"\left\{", r"\begin{array}{" + n.parts["spec"] + "}", *_rows_tex(n.parts["rows"]), r"\end{array}",
                    r"\right."]
        _mark_display_fractions(n.parts["rows"], n.size)
        return [r"\begin{cases}", *_rows_tex(n.parts["rows"]), r"\end{cases}"]
    if k == "aligned":
        return [r"\begin{aligned}", *_rows_tex(n.parts["rows"]), r"\end{aligned}"]
    if k == "rcases":
        if n.parts.get("spec"):
            return [r"\left.", r"\begin{array}{" + n.parts["spec"] + "}", *_rows_tex(n.parts["rows"]), r"\end{array}",
                    r"\right\}"]
        if all(len(row) == 2 for row in n.parts["rows"]):
            return [r"\begin{rcases}", *_rows_tex(n.parts["rows"]), r"\end{rcases}"]
        return [r"\left.", r"\begin{gathered}", *_rows_tex(n.parts["rows"]), r"\end{gathered}", r"\right\}"]
    if k == "brace":
        command, mark = (r"\overbrace", "^") if n.parts["over"] else (r"\underbrace", "_")
        out = [command, "{", *_row_tex(n.parts["body"]), "}"]
        return out + [mark, "{", *_row_tex(n.parts["note"]), "}"] if n.parts["note"] else out
    if k == "smallmatrix":
        return [n.parts["left"], r"\begin{smallmatrix}", *_rows_tex(n.parts["rows"]), r"\end{smallmatrix}",
                n.parts["right"]]
    if k == "binom":
        if n.parts.get("fence"):      # braces round a binomial's parts (Stirling's numbers)
            # (the style written out, text for a small one, display otherwise: an empty style prints the
            # same in a display, but KaTeX-like converters want one)
            style = "1" if n.parts.get("small") else "0"
            return [r"\genfrac", *n.parts["fence"], "{", "0pt", "}", "{", style, "}", "{", *_row_tex(n.parts["num"]),
                    "}", "{", *_row_tex(n.parts["den"]), "}"]
        return [r"\tbinom" if n.parts.get("small") else r"\dbinom" if n.parts.get("display") else r"\binom", "{", *_row_tex(n.parts["num"]), "}", "{", *_row_tex(n.parts["den"]), "}"]
    return []


INTEGRALS = set("∫∬∭∮∯∰∱∲∳⨌⨍⨏⨐⨑⨒⨓⨔⨕⨖⨗⨘⨙⨚⨛⨜")


def _script_tex(n: Node, display: bool) -> list[str]:
    """A script node's LaTeX: its nucleus and its scripts (`display`: whether the nucleus stands in a
    row set in the display style)."""
    nucleus = n.parts["nucleus"]
    out = list(_tex(nucleus))
    if display and out == ["\\" + nucleus.ch] and nucleus.kind == "word" and nucleus.ch in LIMIT_NAMES \
            and n.parts["sub"] and min(m.x0 for m in n.parts["sub"]) >= nucleus.x1 - nucleus.size * BESIDE_SLACK:
        # TeX sets a limit-taking name's subscript under it in the display style; one that stands
        # beside it there was told not to (\max\nolimits, \operatorname{max}, {\rm max}), and a bare
        # \max would move it under the name
        out.append(r"\nolimits")
    sup = list(n.parts["sup"])
    primes = 0
    while sup and sup[0].role == "prime":
        primes += PRIMES.get(sup[0].ch, 1)
        sup.pop(0)
    if primes and n.parts["sub"] and sup:
        # (x'_{i}^{2} is a double superscript to TeX: the primes open the superscript, x_{i}^{\prime 2})
        return out + ["_", "{", *_row_tex(n.parts["sub"]), "}", "^", "{", *[r"\prime"] * primes, *_row_tex(sup), "}"]
    if primes:
        out.append("'" * primes)
    if n.parts["sub"]:
        out += ["_", "{", *_row_tex(n.parts["sub"]), "}"]
    if sup:
        out += ["^", "{", *_row_tex(sup), "}"]
    return out


def _beside_limits(n: Node) -> bool:
    """Whether a script node's scripts stand at the corner of a big operator that carries its limits
    under or over it, right where the symbol ends: the symbol's own (\\sideset).  TeX sets no script on
    an operator whose limits it has put under and over it (a second superscript is an error)."""
    op = n.parts["nucleus"]
    if op.kind != "op" or op.parts.get("letter") or not (op.parts.get("lower") or op.parts.get("lower_lines")
                                                         or op.parts.get("upper")):
        return False
    symbol = op.parts["op"]
    # (an integral's scripts stand beside it, and an OpenType font kerns its subscript in under its slant)
    if symbol.kind != "sym" or symbol.role != "op" or symbol.ch in INTEGRALS:
        return False
    # limits centred on the symbol (an OpenType integral's side scripts, kerned under its slant, are not)
    limits = [*(op.parts.get("lower") or []), *[m for line in op.parts.get("lower_lines") or [] for m in line],
              *(op.parts.get("upper") or [])]
    middle = (min(m.x0 for m in limits) + max(m.x1 for m in limits)) / 2
    if abs(middle - symbol.cx) > (symbol.x1 - symbol.x0) * 0.2:
        return False
    scripts = n.parts["sub"] + n.parts["sup"]
    return bool(scripts) and all(abs(m.x0 - symbol.x1) <= m.size * 0.3 for m in scripts)


_STRETCHED = {r"\longrightarrow": r"\xrightarrow", r"\longleftarrow": r"\xleftarrow"}


# An OpenType maths font's double bar may come as U+2225 (PARALLEL TO) where a Type 1 font's is U+2016,
# and its single bar as U+2223 (DIVIDES: Noto Sans Math's) where TeX's is "|".
_BAR_FORMS = {"∥": "‖", "∣": "|"}


def _delim(ch: str) -> str:
    return {"{": r"\{", "}": r"\}", "‖": r"\|", "∥": r"\|", "∣": "|", "⟨": r"\langle", "⟩": r"\rangle", "⌊": r"\lfloor", "⌋": r"\rfloor",
            "⌈": r"\lceil", "⌉": r"\rceil"}.get(ch, ch or ".")


# The face the book's running text is set in (build_pdf sets it while a book is read): a phrase of
# words in another upright face is set in the maths roman, as only an operator's name can be.
TEXT_FACE: ContextVar[str] = ContextVar("TEXT_FACE", default="")


def face_family(font: str) -> str:
    """A font's family as its name says, whatever the subset and the design size (CMR10 and CMR7,
    LMRoman10-Regular and LMRoman7-Regular are one face)."""
    name = re.sub(r"\s*\([^()]*\)", "", font.split("+", 1)[-1])      # (and without the builder's own marks)
    return re.sub(r"\d+", "", name).lower()


ISO_STYLE: ContextVar[bool] = ContextVar("ISO_STYLE", default=False)


@contextmanager
def in_iso_style(iso: bool):
    """Within it, formulas are read knowing whether the book follows ISO 80000-2 in its maths
    (unicode-math's math-style=ISO: capital Greek italic, \\mathbf's letters bold italic), where a
    bold italic letter is a \\mathbf one and not \\bm's."""
    token = ISO_STYLE.set(iso)
    try:
        yield
    finally:
        ISO_STYLE.reset(token)


def is_text_face(font: str) -> bool:
    """Whether a font is the book's text face (in_text_face), whatever its subset and design size."""
    face = TEXT_FACE.get()
    return bool(face) and face_family(font) == face


@contextmanager
def in_text_face(font: str):
    """Within it, formulas are read knowing the book's text face (`font`, a font's name)."""
    token = TEXT_FACE.set(face_family(font) if font else "")
    try:
        yield
    finally:
        TEXT_FACE.reset(token)


def _word_tex(n: Node) -> list[str]:
    if n.style == "it":                  # the text's italic (a \text in a theorem): \text takes the italic on
        return [r"\text{" + n.ch + "}"]
    if n.style in ("sf", "tt"):          # a name set in a sans or typewriter face: \mathsf{left}
        return [rf"\math{n.style}{{" + n.ch.replace(" ", r"\ ") + "}"]
    if n.style == "bfsf":                # in a bold sans face: \bm{\mathsf{left}}
        return [r"\bm{\mathsf{" + n.ch.replace(" ", r"\ ") + "}}"]
    if n.style == "bf" and n.parts.get("word"):   # a bold face's phrase (_bold_phrases)
        return [r"\textbf{" + n.ch + "}"]
    name = n.ch.replace(" ", "")
    if name in TWO_WORD_OPERATORS:
        return [TWO_WORD_OPERATORS[name]]
    if n.ch in OPERATOR_NAMES and not n.parts.get("word"):
        return ["\\" + n.ch]
    if n.parts.get("word"):
        return [r"\text{" + n.ch + "}"]
    if " " in n.ch:
        face = TEXT_FACE.get()
        if n.style == "up" and face and face_family(n.font) != face and not web_maths_font(n.font):
            # words set in the maths roman, not the text's face: an operator's name, whose spaces TeX
            # drops unless they are ties (the user's class's \subjectto is \operatorname{subject~to})
            return [r"\operatorname{" + n.ch.replace(" ", "~") + "}"]
        return [r"\text{" + n.ch + "}"]
    if web_maths_font(n.font):
        return [r"\text{" + n.ch + "}"]      # a word no operator's name in an engine that sets \text so
    return [r"\operatorname{" + n.ch + "}"]


def _mark_display_fractions(rows: list[list[list[Node]]], size: float) -> None:
    """Mark a fraction in a row of `cases` whose parts are set at the row's own size as `\\dfrac`:
    `cases` sets a fraction's parts a style smaller, so its author wrote \\dfrac (or mathtools'
    `dcases`, which prints the same; \\dfrac in `cases` is the commoner spelling and every renderer
    reads it)."""
    for row in rows:
        for cell in row:
            for c in cell:
                if c.kind == "frac" and max((p.size for p in c.parts["num"]), default=0.0) >= size * 0.9:
                    c.parts["display"] = True


def _rows_tex(rows: list[list[list[Node]]], ruled=()) -> list[str]:
    """Rows of cells, `&` between cells and `\\\\` between rows (an `\\hline` after those in `ruled`)."""
    out: list[str] = []
    for k, row in enumerate(rows):
        for c, cell in enumerate(row):
            if c:
                out.append("&")
            tex = _row_tex(cell)
            if not c and tex[:1] == ["["]:
                tex[0] = "{[}"    # a row opening with a bracket: after \\ (or \begin{…}) it would read as an option
            out += tex
        if k + 1 < len(rows):
            out.append(r"\\")
            if k in ruled:
                out.append(r"\hline")
    return out


# TeX's widest automatic maths space is a thick space (5/18 em); a gap of most of an em between two
# pieces of one row was put there on purpose (\quad, an alignment's column gap) and is kept as \quad,
# so "1·9 = 9   2·9 = 2" never reads as "9 2" glued into 92 (beside a relation the gap is a column's:
# eqnarray's).
QUAD_GAP = 0.8   # em
# \bmod sets "mod" between 5mu spaces (0.28 em); amsmath's \mod puts a quad or more before it (12-18mu)
BMOD_GAP = 0.5   # em
# and after it \mod sets two thin spaces (6mu, a third of an em) before its modulus, \bmod its 5mu: a
# glyph that follows "mod" closer than half of that is not their modulus but the next atom after an
# ordinary word (`\text{mod}\{k, T\}`, a remainder's name in a subscript)
MOD_AFTER_GAP = 1 / 6   # em


def _row_tex(nodes: list[Node]) -> list[str]:
    out: list[str] = []
    last: Node | None = None
    ordered = _in_order(nodes)
    for k, n in enumerate(ordered):
        if last is not None and out and n.x0 - last.x1 >= QUAD_GAP * max(n.size, last.size) \
                and "rel" not in (n.role, last.role):   # eqnarray sets its relation column apart
            out.append(r"\quad")
        tokens = _tex(n)
        if n.kind == "word" and len(tokens) == 1:
            tokens = [_spaced_text(tokens[0], n, last, ordered[k + 1] if k + 1 < len(ordered) else None)]
        if tokens == [r"\mod"] and (len(nodes) == 1 or _touches_next(n, ordered[k + 1:])):
            tokens = [r"\mathrm{mod}"]  # a label (a script or limit of the word alone) or an ordinary word
        elif tokens == [r"\mod"] and last is not None and last.role != "open" and \
                n.x0 - last.x1 < BMOD_GAP * n.size:
            tokens = [r"\bmod"]      # a binary operator's spaces, not \mod's quad
        out += tokens
        last = n if last is None or n.x1 > last.x1 else last
    return _modulus(out)


def _touches_next(word: Node, later: list[Node]) -> bool:
    """Whether the next glyph of the row starts closer after `word` than \\mod or \\bmod would set their
    modulus (the advance boxes' gap where both have one, else the inks')."""
    if not later:
        return False
    after = later[0]
    if word.adv1 > word.adv0 and after.adv1 > after.adv0:
        gap = after.adv0 - word.adv1
    else:
        gap = after.x0 - word.x1
    return gap < MOD_AFTER_GAP * word.size


# TeX puts no space between an ordinary atom and the words of a \text (an ordinary atom too), and
# between them and a relation, a binary operator, a big operator or punctuation at most a thick space
# (5/18 em); a gap wider than that by most of an interword space (a text face's is a quarter to a third
# of an em) is a space the words carry inside their box: `\text{ for all } s`, which served without it
# reads "for alls".
TEXT_SPACE_GAP = 0.15     # em more than TeX's own space between the atoms
TEXT_SPACE_MOST = 0.5     # em: an interword space and the bearings beside it stay under half an em (a wider
                          # gap was typed: \enspace, \quad, an alignment's column)
_TEXT_BOX = re.compile(r"\\text(?:bf)?\{[^{}]*\}")


# One word in the upright roman is an operator's name (`\\operatorname{sign}`) or a word of a \\text
# (`\\text{ when }`), and where the text face is the maths roman its glyphs cannot tell which.  TeX sets
# an operator's name a thin space (3/18 em) from an ordinary atom beside it, between the advance boxes;
# a \\text with spaces in its box stands an interword space (a quarter to a third of an em) from
# ordinary atoms on both sides.
WORD_SPACE_GAP = 0.21     # em between advance boxes, over TeX's own space for two ordinary atoms
INK_BEARINGS = 0.1        # em more where a neighbour has no advance box and the gap is the ink's
_OPERATOR_NAME = re.compile(r"\\operatorname\{[A-Za-z]+\}")


def _spaced_apart(word: Node, before: Node | None, after: Node | None) -> bool:
    """Whether a word stands an interword space from each neighbour it has on its row (one at least)."""
    sides = [(left, right) for left, right in ((before, word), (word, after)) if left is not None and
             right is not None and not _inner(left, word.size) and not _inner(right, word.size)]
    def spaced(left: Node, right: Node) -> bool:
        if left.adv1 > left.adv0 and right.adv1 > right.adv0:
            gap, least = (right.adv0 - left.adv1) / word.size, WORD_SPACE_GAP
        else:       # a script, a root: no advance box, the ink's bearings count in the gap
            gap, least = (right.x0 - left.x1) / word.size, WORD_SPACE_GAP + INK_BEARINGS
        return _automatic_space(left, right) + least <= gap < _automatic_space(left, right) + TEXT_SPACE_MOST
    return bool(sides) and all(spaced(l, r) for l, r in sides)


# amsmath's \\implies, \\impliedby and \\iff are their long arrows with a thick space more either side
SPACED_ARROWS = {r"\Longrightarrow", r"\Longleftarrow", r"\Longleftrightarrow", r"\implies", r"\impliedby", r"\iff"}


def _inner(n: Node, size: float) -> bool:
    """Whether a node is an inner atom: a fraction, a matrix, cases or binomial in its delimiters, or a delimiter
    grown taller than the text (a \\left or \\right).  Its ink stands off by more than TeX's space
    (a big bracket's bearing, an array's own column space), so a gap to it tells nothing of a space."""
    return n.kind in ("matrix", "cases", "binom", "frac") or \
        n.kind == "sym" and n.role in ("open", "close", "fence") and n.height > size * 1.2


def _automatic_space(left: Node, right: Node) -> float:
    """TeX's own space, in em, between two atoms of a display row, by their classes."""
    roles = {left.role, right.role}
    if left.tex in SPACED_ARROWS or right.tex in SPACED_ARROWS:
        return 10 / 18
    if "rel" in roles:
        return 5 / 18
    if "bin" in roles:
        return 4 / 18
    if "op" in roles or left.kind == "op" or right.kind == "op" or left.role == "punct":
        return 3 / 18
    return 0.0


def _spaced_text(tex: str, word: Node, before: Node | None, after: Node | None) -> str:
    """A word's `\\text{…}` with the spaces its box holds at either end, told by the gaps to its
    neighbours on the row (a wider gap than a word space was typed as a space of its own)."""
    if _OPERATOR_NAME.fullmatch(tex) and _spaced_apart(word, before, after):
        tex = r"\text{" + tex[len(r"\operatorname{"):]
    if not _TEXT_BOX.fullmatch(tex):
        return tex
    def carries(left: Node, right: Node) -> bool:
        if _inner(left, word.size) or _inner(right, word.size):
            return False
        gap = (right.x0 - left.x1) / word.size
        return _automatic_space(left, right) + TEXT_SPACE_GAP <= gap < _automatic_space(left, right) + TEXT_SPACE_MOST
    head, body = tex[:tex.index("{") + 1], tex[tex.index("{") + 1:-1]
    if before is not None and before.x1 <= word.x0 and carries(before, word) and not body.startswith(" "):
        body = " " + body
    if after is not None and carries(word, after) and not body.endswith(" "):
        body = body + " "
    return head + body + "}"


def _modulus(tokens: list[str]) -> list[str]:
    """"(mod m)" set after a congruence is \\pmod{m} (its quad before it is part of it)."""
    if r"\mod" not in tokens:
        return tokens
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if tokens[i] == "(" and i + 1 < len(tokens) and tokens[i + 1] == r"\mod":
            depth, j = 0, i + 2
            while j < len(tokens) and not (depth == 0 and tokens[j] == ")"):
                depth += tokens[j] in ("{", "(") or -(tokens[j] in ("}", ")"))
                j += 1
            if j < len(tokens) and j > i + 2:
                if out and out[-1] == r"\quad":
                    out.pop()
                out += [r"\pmod", "{", *tokens[i + 2:j], "}"]
                i = j + 1
                continue
        out.append(tokens[i])
        i += 1
    return out


_COMMAND_END = re.compile(r"\\[A-Za-z]+$")


def _one_script_each(tokens: list[str]) -> list[str]:
    """`tokens` with an empty group `{}` put before a second subscript or superscript of one atom
    (`\\mathbb{R}^{n}_{t}^{T}` where the operator between them was not read): TeX and every
    converter refuse a double script, and `content` must parse."""
    out: list[str] = []
    levels = [[False, False, False]]   # per open group: the current atom has a sub, a sup; group is a script
    argument = False                   # the token after _ or ^ is that script's argument
    for t in tokens:
        atom = levels[-1]
        if t == "{":
            levels.append([False, False, argument])
            argument = False
        elif t == "}":
            if len(levels) > 1:
                closed = levels.pop()
                if not closed[2]:
                    levels[-1][:2] = [False, False]     # a group or a command's argument ends an atom
        elif t in ("_", "^"):
            which = 0 if t == "_" else 1
            if atom[which]:
                out.append("{}")
                atom[0] = atom[1] = False
            atom[which] = True
            argument = True
        elif t and set(t) == {"'"}:
            if atom[1]:
                out.append("{}")
                atom[0] = False
            atom[1] = False     # primes are a superscript, and a ^ may follow them
        elif argument:
            argument = False    # a script's single-token argument
        elif t not in (r"\limits", r"\nolimits"):
            atom[0] = atom[1] = False
        out.append(t)
    return out


def render(tokens: list[str]) -> str:
    """Tokens as LaTeX text: a space after a command a letter follows, around relations and `&`."""
    parts: list[str] = []
    last = ""
    for t in _one_script_each(tokens):
        if not t:
            continue
        if last and t[:1].isalpha() and _COMMAND_END.search(last):
            parts.append(" ")
        elif last and (t in RELATIONS or t in ("&", r"\\")) and not last.endswith((" ", "{")):
            parts.append(" ")
        parts.append(t)
        if t in RELATIONS or t in ("&", r"\\", ","):
            parts.append(" ")
        last = t
    return re.sub(r" +", " ", "".join(parts)).strip()


# --------------------------------------------------------------------------- plain reading
"""Plain reading: a formula's LaTeX as words and symbols in order, for an embedding model."""

def _reverse(table: dict) -> dict:
    out: dict[str, str] = {}
    for ch, tex in table.items():
        if len(ch) == 1 and tex.startswith("\\") and not ("\u0300" <= ch <= "\u036f"):
            out.setdefault(tex, ch)
    return out


_PLAIN = {**_reverse(GREEK), **_reverse(SYMBOLS),
          r"\{": "{", r"\}": "}", r"\|": "‖", r"\mid": "|", r"\parallel": "∥", r"\cdot": "·", r"\dots": "…", r"\ldots": "…",
          r"\cdots": "⋯", r"\iff": "⟺", r"\implies": "⟹", r"\impliedby": "⟸", r"\longleftrightarrow": "⟷", r"\le": "≤", r"\ge": "≥", r"\ne": "≠", r"\gets": "←", r"\top": "ᵀ", r"\intercal": "ᵀ",
          r"\lvert": "|", r"\rvert": "|", r"\lVert": "‖", r"\rVert": "‖", r"\quad": " ", r"\qquad": " ",
          r"\,": " ", r"\;": " ", r"\ ": " ", r"\%": "%", r"\&": "&", r"\#": "#", r"\_": "_", "&": " ", "~": " ",
          "-": "−", "*": "*", "'": "′"}
_SPACED = {"=", "<", ">", "≤", "≥", "≠", "≈", "∼", "≃", "≡", "∈", "∉", "⊂", "⊆", "⊃", "⊇", "→", "←", "⇒", "⇔",
           "↦", "∝", "+", "−", "±", "∓", "×", "÷", "∪", "∩", "∧", "∨", "≪", "≫", "⟶", "⟵", ":=", "⟺", "⟹", "⟸", "⟷",
           "≔", "∥", "⩽", "⩾", "∵", "∴", "↪", "↩", "↠", "↞", "⇌", "⇋"}
_DROPPED = {r"\hline", r"\left", r"\right", r"\middle", r"\big", r"\Big", r"\bigg", r"\Bigg", r"\bigl", r"\bigr", r"\Bigl",
            r"\Bigr", r"\bigm", r"\Bigm", r"\biggm", r"\Biggm", r"\displaystyle", r"\textstyle", r"\limits",
            r"\nolimits", r"\!", r"\not"}
_WRAPPERS = {r"\mathop", r"\mathbf", r"\bm", r"\boldsymbol", r"\mathbb", r"\mathds", r"\mathbbm", r"\mathcal", r"\mathfrak", r"\mathrm", r"\mathit",
             r"\mathsf", r"\mathtt", r"\text", r"\operatorname", r"\operatorname*", r"\mathscr", r"\symbfit"}
_ACCENT_MARKS = {"hat": "\u0302", "widehat": "\u0302", "tilde": "\u0303", "widetilde": "\u0303", "bar": "\u0304",
                 "overline": "\u0305", "dot": "\u0307", "ddot": "\u0308", "vec": "\u20d7", "check": "\u030c",
                 "breve": "\u0306", "acute": "\u0301", "grave": "\u0300", "mathring": "\u030a"}
_TOKEN = re.compile(r"\\begin\{[A-Za-z*]+\}|\\end\{[A-Za-z*]+\}|\\operatorname\*|\\[A-Za-z]+|\\.|[{}]|\s+|[^\\{}\s]")


def plain_reading(latex: str) -> str:
    """A formula's LaTeX as a line of words and symbols: Greek and operators as their characters,
    fractions a/b, roots √(x), scripts x_i and x^2, matrix rows separated by ';', alphabets and
    sizes dropped.  (The LaTeX stays the formula's content; this is what an embedding reads.)"""
    tokens = _TOKEN.findall(latex) if latex else []
    out, _ = _plain_group(tokens, 0, None, False)
    out = re.sub(r" +([)\]},;.])", r"\1", re.sub(r" +", " ", out))
    return re.sub(r"([(\[{]) +", r"\1", out).strip()


def _plain_group(tokens: list[str], i: int, stop: str | None, text: bool) -> tuple[str, int]:
    """Read tokens from i up to `stop` ('}' or an \\end{…}); return the text and the index after.
    Inside \\text (text=True) white space is kept; elsewhere the reading spaces relations itself."""
    out = ""
    while i < len(tokens):
        t = tokens[i]
        if t == stop or (stop == "end" and t.startswith(r"\end{")):
            return out, i + 1
        i += 1
        if t.isspace():
            out += " " if text else ""
        elif t == "{":
            inner, i = _plain_group(tokens, i, "}", text)
            out += inner
        elif t in ("_", "^"):
            arg, i = _plain_arg(tokens, i, text)
            arg = arg.strip()
            out += t + (arg if len(arg) <= 1 else f"({arg})") + " "
        elif t in (r"\frac", r"\dfrac", r"\tfrac", r"\cfrac"):
            num, i = _plain_arg(tokens, i, text)
            den, i = _plain_arg(tokens, i, text)
            wrap = lambda s: s.strip() if re.fullmatch(r"[\w′.]+", s.strip()) else f"({s.strip()})"
            out += f"{wrap(num)}/{wrap(den)}"
        elif t in (r"\binom", r"\tbinom", r"\dbinom"):
            top, i = _plain_arg(tokens, i, text)
            bottom, i = _plain_arg(tokens, i, text)
            out += f"C({top.strip()}, {bottom.strip()})"
        elif t in (r"\xrightarrow", r"\xleftarrow"):
            # an arrow with its notes in brackets: over, then under (optional, written first)
            under, i = _plain_optional(tokens, i, text)
            over, i = _plain_arg(tokens, i, text)
            arrow = "→" if t == r"\xrightarrow" else "←"
            out += f" {arrow}[{' '.join(x.strip() for x in (over, under) if x.strip())}] "
        elif t in (r"\overbrace", r"\underbrace", r"\overset", r"\underset", r"\pmod", r"\substack"):
            # a brace's body, then its note in brackets; a relation's note first; "mod m" in brackets
            first, i = _plain_arg(tokens, i, text)
            if t in (r"\overset", r"\underset"):
                second, i = _plain_arg(tokens, i, text)
                out += f" {second.strip()}[{first.strip()}] "
            elif t == r"\pmod":
                out += f" (mod {first.strip()})"
            else:
                out += first.strip() if t == r"\substack" else f"{first.strip()} "
        elif t == r"\genfrac" and i + 1 < len(tokens):
            # a rule-less fraction in braces or brackets ({n \brace k}): its delimiters, then a rule's
            # thickness and a style (no content), then its parts
            opening, closing = tokens[i][-1:], tokens[i + 1][-1:]
            _, i = _plain_arg(tokens, i + 2, text)
            _, i = _plain_arg(tokens, i, text)
            top, i = _plain_arg(tokens, i, text)
            bottom, i = _plain_arg(tokens, i, text)
            out += f"{opening}{top.strip()} {bottom.strip()}{closing}"
        elif t == r"\hdotsfor":
            _, i = _plain_arg(tokens, i, text)      # dots across the row's columns (their count no content)
            out += "…"
        elif t == r"\sqrt":
            index, i = _plain_optional(tokens, i, text)
            body, i = _plain_arg(tokens, i, text)
            index = index.strip()
            out += f"({index})√({body.strip()})" if len(index) > 1 else f"{index}√({body.strip()})"
        elif t.startswith("\\") and t[1:] in _ACCENT_MARKS:
            body, i = _plain_arg(tokens, i, text)
            body = body.strip()
            out += body + _ACCENT_MARKS[t[1:]] if len(body) == 1 else f"{t[1:]}({body})"
        elif t in _WRAPPERS:
            body, i = _plain_arg(tokens, i, t in (r"\text", r"\operatorname", r"\operatorname*", r"\mathrm"))
            out += body if t not in (r"\text",) else f" {body.strip()} "
        elif t.startswith(r"\begin{"):
            env = t[7:-1]
            if env == "array":
                _, i = _plain_arg(tokens, i, True)     # the column specification ("ccc|c") is no content
            body, i = _plain_group(tokens, i, "end", text)
            out += _plain_env(env, body)
        elif t == r"\\":
            out += "; "
        elif t in _DROPPED:
            if t in (r"\left", r"\right", r"\middle") and i < len(tokens) and tokens[i] == ".":
                i += 1             # the invisible delimiter
            continue
        else:
            ch = _PLAIN.get(t, t[1:] if t.startswith("\\") and t[1:].isalpha() else t)
            if ch in _SPACED:
                out += f" {ch} "
            elif ch in (",", ";"):
                out += ch + " "
            elif t.startswith("\\") and t[1:].isalpha() and t not in _PLAIN:
                out += f" {ch} "         # \log, \max and other names read as words
            else:
                out += ch
    return out, i


def _plain_arg(tokens: list[str], i: int, text: bool) -> tuple[str, int]:
    """One argument: a {group} or a single token."""
    while i < len(tokens) and tokens[i].isspace():
        i += 1
    if i >= len(tokens):
        return "", i
    if tokens[i] == "{":
        return _plain_group(tokens, i + 1, "}", text)
    inner, _ = _plain_group([tokens[i]], 0, None, text)
    return inner, i + 1


def _plain_optional(tokens: list[str], i: int, text: bool) -> tuple[str, int]:
    """An optional [argument] (a root's index, an arrow's lower note), or nothing."""
    if i >= len(tokens) or tokens[i] != "[":
        return "", i
    try:
        j = tokens.index("]", i)
    except ValueError:
        return "", i + 1
    inner, _ = _plain_group(tokens[i + 1:j] + ["}"], 0, "}", text)
    return inner, j + 1


def _plain_env(env: str, body: str) -> str:
    rows = [re.sub(r" +", " ", r).strip() for r in body.split(";") if r.strip()]
    brackets = {"pmatrix": "()", "bmatrix": "[]", "vmatrix": "||", "Vmatrix": "‖‖", "Bmatrix": "{}"}
    if env in brackets:
        return brackets[env][0] + "; ".join(rows) + brackets[env][1]
    if env == "cases":
        return "{" + "; ".join(rows) + "}"
    return "; ".join(rows)


# --------------------------------------------------------------------------- entry points
def _set_box(nodes: list[Node]) -> tuple[float, float, float, float]:
    """The glyphs' box (_box) widened to their advance boxes where the PDF gives them: an overline or
    a \\bar drawn as a rule spans its letter's box, which may start a few points before an italic
    capital's ink (\\bar{Y} opening a display)."""
    x0, x1, top, bottom = _box(nodes)
    boxed = [n for n in nodes if n.adv1 > n.adv0]
    if boxed:
        x0, x1 = min(x0, min(n.adv0 for n in boxed)), max(x1, max(n.adv1 for n in boxed))
    return x0, x1, top, bottom


def _rules_within(bars, x0: float, x1: float, top: float, bottom: float, nodes: list[Node] = ()) -> list[tuple]:
    """The page's thin rules among a formula's glyphs (a radical's rule may run a little past them, and a
    fraction's over a fraction runs the inner one's null delimiters, 1.2 pt a side, past its bar; an
    array's `\\hline` runs a column's padding past both ends; an upright rule only has to cross them).
    A fraction's bar is as long as its wider part's box, and a part may open with a space that prints
    nothing (a thin space before an expectation's \\mathsf{E}): a formula that opens with a fraction
    has its bar start up to a thick space before its first glyph (_opening_bar, asked of `nodes`, the
    formula's glyphs)."""
    columns = [tuple(b) for b in bars if upright(b) and x0 - 2 <= b[0] and b[2] <= x1 + 2 and b[1] < bottom
               and b[3] > top]
    out = list(columns)
    wider = []
    for b in bars:
        if upright(b) or not top - 3 <= b[1] <= bottom + 3:
            continue
        if (x0 - 2 <= b[0] or _opening_bar(tuple(b), nodes, x0, columns)) and b[2] <= x1 + 4:
            out.append(tuple(b))
        elif x0 - 2 - NULL_DELIMITER <= b[0] and b[2] <= x1 + 4:
            wider.append(tuple(b))
        elif x0 - ARRAY_PADDING <= b[0] and b[2] <= x1 + ARRAY_PADDING and \
                any(b[0] < c[0] < b[2] and c[1] - 1 <= b[1] <= c[3] + 1 for c in columns):
            out.append(tuple(b))     # an \hline, which an upright rule of the array crosses (the array
                                     # may stand beside more of the display: its rule spans the array only)
    # a bar that runs a null delimiter past both ends of a bar taken (a fraction over a fraction)
    out += [b for b in wider if any(not upright(r) and 0 <= r[0] - b[0] <= NULL_DELIMITER + 0.3
                                    and 0 <= b[2] - r[2] <= NULL_DELIMITER + 0.3 for r in out)]
    return out


NULL_DELIMITER = 1.2   # pt: TeX's \nulldelimiterspace, set on each side of a fraction
THICK_SPACE = 5 / 18   # em: TeX's \thickmuskip (\;), the widest of the spaces a formula's part opens with
PART_GAP = 0.6         # em: a fraction's parts stand closer than this to its bar (TeX's display gaps are 0.2 to 0.4)


def _opening_bar(bar: tuple, nodes: list[Node], x0: float, columns: list[tuple]) -> bool:
    """Whether a rule that starts before a formula's first glyph (`x0`) by more than the 2 pt
    _rules_within allows, but by no more than that and a thick space, is the bar of a fraction the
    formula opens with: glyphs stand on it and hang from it, within its length and close to it, the
    first of them no further in than that from its start; no upright rule crosses it (an array's
    \\hline runs its padding past the array), and a frame's edge (\\boxed) has glyphs on one side only."""
    size = _size(nodes) if nodes else 10.0
    lead = 2 + size * THICK_SPACE
    bx0, btop, bx1, bbottom = bar
    if not x0 - lead <= bx0 < x0 - 2 or any(bx0 < c[0] < bx1 and c[1] - 1 <= btop <= c[3] + 1 for c in columns):
        return False
    within = [n for n in nodes if n.kind != "space" and bx0 <= n.x0 and n.x1 <= bx1 + 1]
    above = [n for n in within if 0 <= btop - n.bottom < size * PART_GAP]
    below = [n for n in within if 0 <= n.top - bbottom < size * PART_GAP]
    return bool(above) and bool(below) and min(n.x0 for n in above + below) <= bx0 + lead


ARRAY_PADDING = 8   # pt: an array's rules run \arraycolsep (5 pt) past its cells' ink


def read(nodes: list[Node], rules: list[tuple], display: bool = True) -> str:
    """LaTeX for glyph nodes and the rules among them: one row, or the rows of a display."""
    if not nodes:
        return ""
    if display:
        return _read_rows(*_structure_of(nodes, rules))
    nodes = _assemble(nodes)
    size = _formula_size(nodes)
    built = _build(nodes, rules)
    _text_style_binomials(built)
    return _read_rows(size, rules, built, [built], display)


def _text_style_binomials(nodes: list[Node]) -> None:
    """A formula in running text is set in TeX's text style, where `\binom` prints its parts at the
    script size, as `\tbinom` does: there a small binomial is what its author wrote `\binom` (a
    display's small one was asked for, `\tbinom`)."""
    for n in nodes:
        if n.kind == "binom" and not n.parts.get("fence"):
            n.parts["small"] = False
        for part in n.parts.values():
            if isinstance(part, Node):
                _text_style_binomials([part])
            elif isinstance(part, list):
                _text_style_binomials([m for m in part if isinstance(m, Node)])


def _structure_of(nodes: list[Node], rules: list[tuple]) -> tuple[float, list[tuple], list[Node], list[list[Node]]]:
    """A display's glyph nodes assembled and built, with the rules among them: its size, the rules,
    the nodes built and their rows (what _read_rows writes out)."""
    nodes = _assemble(nodes)
    size = _formula_size(nodes)
    built = _build(nodes, rules)
    return size, rules, built, _display_rows(built, size)


def _read_rows(size: float, rules: list[tuple], built: list[Node], rows: list[list[Node]], display: bool = True) -> str:
    """read()'s LaTeX from the structure built (its size, the rules among its glyphs, the built nodes,
    their rows)."""
    token = DISPLAY_STYLE.set(display)
    try:
        return _styled_rows(size, rules, built, rows, display)
    finally:
        DISPLAY_STYLE.reset(token)


def _styled_rows(size: float, rules: list[tuple], built: list[Node], rows: list[list[Node]], display: bool) -> str:
    """_read_rows' LaTeX, the style of the rows (display or text) set."""
    table = _ruled_array(rows, rules, size) if display and len(rows) > 1 else None
    if table:
        return render(table)
    if len(rows) <= 1:
        return render(_row_tex(_scripts(rows[0] if rows else built)))
    apart = _blocks_apart(rows, size)
    if apart is not None:
        # two blocks side by side (a programme and its dual), each its own aligned, a \qquad between
        return _aligned_rows(apart[0], size) + r" \qquad " + _aligned_rows(apart[1], size)
    beside = _stack_beside(rows, size)
    if beside is not None:
        # a row standing left of rows stacked beside it, between the first and the last of them:
        # `A\theta = b, \qquad \begin{aligned} … \end{aligned}` (an aligned block centred on the row),
        # or right of them (a programme, then its complementary slackness)
        at, left = beside
        row, others = rows[at], rows[:at] + rows[at + 1:]
        gap = ((min(n.x0 for r in others for n in r) - max(n.x1 for n in row)) if left else
               (min(n.x0 for n in row) - max(n.x1 for r in others for n in r))) / size
        space = r" \qquad " if gap >= 1.5 else r" \quad " if gap >= 0.8 else " "
        if not left:
            return _aligned_rows(others, size) + space + render(_row_tex(_scripts(row)))
        return render(_row_tex(_scripts(row))) + space + _aligned_rows(others, size)
    lead = _side_before_block(rows, size)
    if lead is not None:
        # `Q(x) = \begin{aligned} \min … \\ \text{s.t.} … \end{aligned}`: the left-hand side shares
        # the baseline of the block's middle row, so the text layer reads it after the first row
        at, side, rest = lead
        block = rows[:at] + [rest] + rows[at + 1:]
        return render(_row_tex(_scripts(side))) + " " + _aligned_rows(block, size)
    return _relation_array(rows, size) or _aligned_rows(rows, size)


STACK_BESIDE_GAP = 0.5   # em: a row ends at least this far left of the rows stacked beside it
BLOCKS_APART = 1.5       # em: two blocks side by side stand a \qquad apart, less their bearings
BASELINES_APART = 0.3    # pt: two blocks' rows this far off one baseline are set by two environments


def _blocks_apart(rows: list[list[Node]], size: float) -> tuple[list[list[Node]], list[list[Node]]] | None:
    """Two blocks of two or more rows each set side by side (`\\begin{aligned}…\\end{aligned} \\qquad
    \\begin{aligned}…\\end{aligned}`): a gap of a \\qquad or more that no row's ink crosses parts them,
    and each block stacks its rows on baselines of its own (each centred on the axis by itself), so
    some row of each stands where the other has none.  Rows of one align, whose columns share every
    baseline (a condition column beside its equations), are not parted."""
    spans = sorted((n.x0, n.x1) for row in rows for n in row)
    gaps, reach = [], spans[0][1]
    for x0, x1 in spans[1:]:
        if x0 - reach >= size * BLOCKS_APART:
            gaps.append((x0 - reach, (x0 + reach) / 2))
        reach = max(reach, x1)
    # (a block's own columns may stand as far apart: the gap between blocks is the one fewest rows
    # straddle, and fewer than stand on one side alone)
    best = None
    for width, at in gaps:
        left = [[n for n in row if n.cx < at] for row in rows]
        right = [[n for n in row if n.cx >= at] for row in rows]
        only_left = sum(1 for l, r in zip(left, right) if l and not r)
        only_right = sum(1 for l, r in zip(left, right) if r and not l)
        both = sum(1 for l, r in zip(left, right) if l and r)
        # (or every row straddling it has its two sides on baselines a little apart: two blocks of as many
        # rows, each centred on the axis by itself, whose rows' heights differ; an align's columns share
        # their row's baseline exactly)
        offset = both >= 2 and all(abs(_main_base(l) - _main_base(r)) >= BASELINES_APART
                                   for l, r in zip(left, right) if l and r)
        left, right = [r for r in left if r], [r for r in right if r]
        if len(left) >= 2 and len(right) >= 2 and (only_left and only_right and both < only_left + only_right or offset) \
                and (best is None or (both, -width) < best[0]):
            best = ((both, -width), left, right)
    return None if best is None else (best[1], best[2])


def _stack_beside(rows: list[list[Node]], size: float) -> tuple[int, bool] | None:
    """The index of a row that stands wholly left (or right) of all the other rows, its baseline
    between the first's and the last's, and whether it stands left: the others are a block (aligned,
    gathered) set beside it; else None."""
    if len(rows) < 3:
        return None
    for i in range(1, len(rows) - 1):
        row = rows[i]
        others = [n for k, r in enumerate(rows) if k != i for n in r]
        if not row or not others:
            continue
        left = max(n.x1 for n in row) < min(n.x0 for n in others) - size * STACK_BESIDE_GAP
        right = min(n.x0 for n in row) > max(n.x1 for n in others) + size * STACK_BESIDE_GAP
        if not (left or right):
            continue
        # maths with a relation (an equation the block goes on from, or one set after it), no words of
        # text before its relation (a "then" or "so" between lines is prose; "= 0 for all i" is a
        # condition), and centred on the block, as TeX centres a block on the axis
        ordered = sorted(row, key=lambda n: n.x0)
        rel = _relation_at(ordered)
        if rel is None or any(n.kind == "word" and n.role != "op" for n in (ordered if left else ordered[:rel])):
            continue
        _, _, top, bottom = _box(others)
        axis = _main_base(row) - size * 0.25
        if _main_base(rows[0]) < axis < _main_base(rows[-1]) and abs(axis - (top + bottom) / 2) <= size * STACK_CENTRED:
            return i, left
    return None


STACK_CENTRED = 0.5   # em: a block set beside a row has its middle this near the row's maths axis


def _relation_at(ordered: list[Node]) -> int | None:
    """Where the first relation stands in a row sorted left to right, or None."""
    return next((k for k, n in enumerate(ordered) if n.kind == "sym" and n.role == "rel"), None)


def _first_relation(row: list[Node]) -> Node | None:
    ordered = sorted(row, key=lambda n: n.x0)
    at = _relation_at(ordered)
    return None if at is None else ordered[at]


SIDE_CLEAR = 0.1   # em: the side's relation ends this far before the block (a thick space, 5/18 em, in TeX)


def _side_before_block(rows: list[list[Node]], size: float) -> tuple[int, list[Node], list[Node]] | None:
    """A left-hand side and its relation set before a block of rows (`Q(x) = \\begin{aligned} … \\end{aligned}`):
    on a middle row, maths up to its first relation standing wholly left of every other row, the rest
    of that row starting where the block's rows start, the block centred on the side's axis.  Returns
    the row's index, the side and the row's rest; else None.  (An align's rows share the relation's
    column, so a side there never clears the other rows.)"""
    if len(rows) < 3:
        return None
    for i in range(1, len(rows) - 1):
        ordered = sorted(rows[i], key=lambda n: n.x0)
        rel = _relation_at(ordered)
        if not rel or rel + 1 >= len(ordered) or any(n.kind == "word" and n.role != "op" for n in ordered[:rel]):
            continue
        side, rest = ordered[:rel + 1], ordered[rel + 1:]
        others = [n for k, r in enumerate(rows) if k != i for n in r]
        start = min(n.x0 for n in others)
        # (an align's row whose left part sticks out, `C_p = C_q &= C`: the rest's relation stands in
        # the column of the other rows' relations)
        column = [_first_relation(r) for k, r in enumerate(rows) if k != i]
        own = _first_relation(rest)
        if own is not None and sum(1 for c in column if c is not None and abs(c.x0 - own.x0) <= size * 0.15) >= 2:
            continue
        if max(n.x1 for n in side) >= start - size * SIDE_CLEAR or \
                abs(min(n.x0 for n in rest) - start) > size * STACK_BESIDE_GAP and min(n.x0 for n in rest) < start:
            continue
        _, _, top, bottom = _box(others + rest)
        axis = _main_base(side) - size * 0.25
        if _main_base(rows[0]) < axis < _main_base(rows[-1]) and abs(axis - (top + bottom) / 2) <= size * STACK_CENTRED:
            return i, side, rest
    return None


def _aligned_rows(rows: list[list[Node]], size: float) -> str:
    """Rows as an `aligned` block, each aligned at its first relation where they stand at one x."""
    lines = [_scripts(r) for r in rows]
    texts = [_row_tex(r) for r in lines]
    # align at the first relation of each row when they stand at one x (an `aligned` block)
    marks: list[float | None] = []
    for row in lines:
        rel = next((n for n in sorted(row, key=lambda n: n.x0) if _relation_xs(n)), None)   # (an annotated one too)
        marks.append(rel.x0 if rel is not None else None)
    out = []
    for row, toks, mark in zip(lines, texts, marks):
        if mark is None:
            out.append(render(["&", *toks]) if any(m is not None for m in marks) and row and
                       min(n.x0 for n in row) > min(m for m in marks if m is not None) - size else render(toks))
            continue
        ordered = sorted(row, key=lambda n: n.x0)
        before = _row_tex([n for n in ordered if n.x1 <= mark + 0.5])
        after = _row_tex([n for n in ordered if n.x1 > mark + 0.5])
        out.append(render([*before, "&", *after]))
    return r"\begin{aligned}" + r" \\ ".join(_bracket_guarded(out)) + r"\end{aligned}"


def _bracket_guarded(rows: list[str]) -> list[str]:
    """Rows to join with \\: one opening with a bracket would read as the \\'s option, so it is braced."""
    return ["{[}" + row[1:] if row.startswith("[") else row for row in rows]


ARRAY_RELATION_GAP = 0.6   # em: an array's relation column stands two \arraycolsep (10 pt) from its
                           # neighbours; an aligned block's relation, a thick space (0.28 em)


def _relation_array(rows: list[list[Node]], size: float) -> str | None:
    """Rows of an `array{rcl}` (equations set as an array's three columns, an old way of aligning
    them): each row's first relation in one centred column, standing clear of both its neighbours by
    the array's column gap on every row; None for anything else (an `aligned` block)."""
    if any(n.style == "tt" for row in rows for n in row):
        return None           # (code in a typewriter face, "x = 1", a whole character's width round its =)
    cells = []
    for row in rows:
        ordered = sorted(_scripts(row), key=lambda n: n.x0)
        at = _relation_at(ordered)
        if at is None or at == 0 or at == len(ordered) - 1:
            return None
        rel = ordered[at]
        if rel.x0 - ordered[at - 1].x1 < size * ARRAY_RELATION_GAP or \
                ordered[at + 1].x0 - rel.x1 < size * ARRAY_RELATION_GAP:
            return None
        cells.append((ordered[:at], rel, ordered[at + 1:]))
    middles = [(rel.x0 + rel.x1) / 2 for _, rel, _ in cells]
    if max(middles) - min(middles) > size * 0.15:
        return None
    token = DISPLAY_STYLE.set(False)       # (an array's cells are set in the text style)
    try:
        out = [render([*_row_tex(left), "&", *_row_tex([rel]), "&", *_row_tex(right)]) for left, rel, right in cells]
    finally:
        DISPLAY_STYLE.reset(token)
    return r"\begin{array}{rcl}" + r" \\ ".join(_bracket_guarded(out)) + r"\end{array}"


@dataclass
class NumberedRows:
    """A numbered display block as read: each number's LaTeX, and the block's rows in order as the
    running text shows them (a row's LaTeX, with the number it carries or None)."""

    numbers: dict[str, str]
    shown: list[tuple[str, str | None]]


def _ruled_array(rows: list[list[Node]], rules: list[tuple], size: float) -> list[str] | None:
    """Rows divided into columns by an upright rule that runs down them, with no delimiters around them
    (a payoff table, a tableau): an `array` with its column specification and its `\\hline`s (the
    horizontal rules between rows that run across the whole block)."""
    if any(n.kind == "matrix" for row in rows for n in row):
        return None
    x0 = min(n.x0 for row in rows for n in row)
    x1 = max(n.x1 for row in rows for n in row)
    # the array's \hline runs across it and no further: what stands past its ends on a row (a formula
    # set beside the array, level with its middle row) is the display's, before or after the array
    crossed = [r for r in rules if not upright(r) and r[2] - r[0] > size * 2 and any(
        upright(c) and r[0] < (c[0] + c[2]) / 2 < r[2] and c[1] - 1 <= r[1] <= c[3] + 1 for c in rules)]
    if crossed:
        ax0, ax1 = min(r[0] for r in crossed), max(r[2] for r in crossed)
        before = [n for row in rows for n in row if n.x1 < ax0 - size * 0.3]
        after = [n for row in rows for n in row if n.x0 > ax1 + size * 0.3]
        inner = [[n for n in row if ax0 - size * 0.3 <= n.x1 and n.x0 <= ax1 + size * 0.3] for row in rows]
        if (before or after) and all(inner):
            table = _ruled_array(inner, [r for r in rules if not upright(r) or ax0 - 1 <= r[0] <= ax1 + 1], size)
            if table is not None:
                gap = [r"\quad"] if after and min(n.x0 for n in after) - ax1 >= QUAD_GAP * size else []
                lead = [r"\quad"] if before and ax0 - max(n.x1 for n in before) >= QUAD_GAP * size else []
                return (_beside_array(before, size) + lead if before else []) + table + \
                    (gap + _beside_array(after, size) if after else [])
            return None
    top, bottom = min(n.top for n in rows[0]), max(n.bottom for n in rows[-1])
    # an upright rule is drawn in pieces, one per row: the pieces at one x are one rule
    pieces: dict[int, list[tuple]] = {}
    for r in rules:
        if upright(r) and x0 < (r[0] + r[2]) / 2 < x1:
            pieces.setdefault(round((r[0] + r[2]) / 2), []).append(r)
    columns = [(x - 1, min(p[1] for p in ps), x + 1, max(p[3] for p in ps)) for x, ps in pieces.items()
               if min(p[1] for p in ps) <= top + size and max(p[3] for p in ps) >= bottom - size]
    if not columns:
        return None
    leaves = [n for row in rows for n in row]
    cells = [[_scripts(c) for c in _cells(row, leaves, size)] for row in rows]
    edge = Node("sym", x0 - 1, x0 - 1, top, bottom, 0.0, size)
    spec = _column_spec(cells, columns, edge, Node("sym", x1 + 1, x1 + 1, top, bottom, 0.0, size))
    if spec is None:
        return None
    # a horizontal rule across the block between two rows, beyond their ink on both sides
    lines = [r for r in rules if not upright(r) and r[0] <= x0 + size * 0.3 and r[2] >= x1 - size * 0.3]
    out = [r"\begin{array}{" + spec + "}"]
    for k, row in enumerate(cells):
        for c, cell in enumerate(row):
            if c:
                out.append("&")
            out += _row_tex(cell)
        if k + 1 < len(cells):
            out.append(r"\\")
            # (TeX draws it at the row's strut depth: a subscript's ink may reach it)
            below, next_top = _main_base(rows[k]), min(n.top for n in rows[k + 1])
            if any(below < r[1] <= next_top + 1 for r in lines):
                out.append(r"\hline")
    return out + [r"\end{array}"]


def _beside_array(nodes: list[Node], size: float) -> list[str]:
    """The maths set beside a ruled array in one display, as tokens: its rows are banded by their own
    baselines, within its own extent (an `aligned` of two rows beside a `tabular` centres on the axis
    by itself, its baselines between the array's, which the display's rows, banded across both, mix
    into one row); two or more rows are an `aligned` block."""
    own = _display_rows(nodes, size)
    if len(own) > 1:
        return [_aligned_rows(own, size)]
    return _row_tex(_scripts(nodes))


DROPPED_LABEL = 1.8   # em: a number dropped below its row stands about a line's pitch under it


def numbered_rows(words, bars, labels: list[tuple[str, float]], leading: float = 0.0,
                  edge: float | None = None) -> NumberedRows:
    """LaTeX per equation number for a display block (all its lines, the numbers left out) and the
    baselines its numbers stand on.  One number is the whole block's (a split, an aligned or
    multline block, cases), unless it stands level with one row of separate equations (an align
    whose other rows are \\nonumber): then it is that row's, and the text shows the whole block with
    it; several are each their own row's (align, gather), whose limits and scripts are told from the
    neighbours' by the structure read over the whole block; a row with no number of its own
    (\\nonumber) belongs to none of them, and the text shows it in its place.  `edge`: where a lone
    number at the block's right starts."""
    labels = [tuple(label) for label in labels]
    read = _remembered("rows", words, bars, (tuple(labels), leading, edge),
                       lambda: _numbered_rows(words, bars, labels, leading, edge))
    return NumberedRows(dict(read.numbers), list(read.shown))     # (a caller may change its copy)


def _numbered_rows(words, bars, labels: list[tuple[str, float]], leading: float, edge: float | None) -> NumberedRows:
    if not labels:
        return NumberedRows({}, [])
    if len(labels) == 1:
        whole = display_latex(words, bars, leading)
        own = _own_row(words, bars, labels[0][1], leading, edge)
        return NumberedRows({labels[0][0]: whole if own is None else own}, [(whole, labels[0][0])])
    token = LEADING.set(leading)
    try:
        shaped = _display_structure(words, bars, leading)
        if shaped is None:
            return NumberedRows({number: "" for number, _ in labels}, [])
        size, _, _, rows = shaped
        braced = _numbered_cases(rows, labels, size)
        if braced is not None:
            return braced
        bases = [_main_base(r) for r in rows]
        texts = [render(_row_tex(_scripts(row))) for row in rows]
        out: dict[str, str] = {}
        carried: dict[int, str] = {}
        level = {}
        for number, baseline in labels:
            k = min(range(len(rows)), key=lambda i: abs(bases[i] - baseline))
            if abs(bases[k] - baseline) <= size * LEVEL_ROW:
                level[number] = k
        # a number standing over the block's first row, level with none, was raised over its row (numbers
        # on the left, which amsmath sets above a row that leaves no room): the block's other numbers
        # level with no row are raised too, each over the row below it, never centred nor dropped
        raised = any(name not in level and baseline < bases[0] - size * LEVEL_ROW for name, baseline in labels)

        def row_below(baseline: float, least: float, most: float = float("inf")) -> int | None:
            """The nearest row below a number raised over it (between `least` and `most` under it) that
            no number stands level with or has taken."""
            below = [i for i in range(len(rows)) if least < bases[i] - baseline <= most
                     and i not in level.values() and i not in carried and texts[i]]
            return min(below, key=lambda i: bases[i]) if below else None

        for number, baseline in labels:
            k = level.get(number)
            if k is None and raised:
                k = row_below(baseline, size * LEVEL_ROW)
            elif k is None:
                dropped = [other for name, other in labels if name != number and name not in level]
                pair = _centred_pair(rows, bases, baseline, size, set(level.values()), dropped)
                if pair is not None:
                    # a number centred between two rows that no number stands level with, which start at
                    # one x: the rows of a block (an aligned programme, "maximize … / subject to …") that
                    # is one row of a gather or an align, its number on the block's middle
                    texts[pair] = _aligned_rows(rows[pair:pair + 2], size)
                    texts[pair + 1] = ""
                    out[number] = texts[pair]
                    carried.setdefault(pair, number)
                    continue
                run = _centred_run(rows, baseline, size, {i for i in range(len(rows)) if texts[i] and
                                                          i not in level.values() and i not in carried})
                if run is not None:
                    # a number centred on three rows or more that start at one x, no number level with any:
                    # an aligned block that is one of several equations set one under another (the class's
                    # short skip sets the next display as close as rows), its number on the block's middle
                    first, last = run
                    texts[first] = _aligned_rows(rows[first:last + 1], size)
                    for i in range(first + 1, last + 1):
                        texts[i] = ""
                    out[number] = texts[first]
                    carried.setdefault(first, number)
                    continue
                # a number amsmath dropped to the line below its row (the row left it no room): the
                # nearest row above it that no number stands level with, the pitch counted from the
                # row's foot (the limits under a \prod reach below its baseline)
                above = [i for i in range(len(rows)) if 0 < baseline - bases[i]
                         and baseline - max(bases[i], max(n.bottom for n in rows[i])) <= size * DROPPED_LABEL
                         and i not in level.values()]
                k = max(above, key=lambda i: bases[i]) if above else None
                if k is None:
                    k = _dropped_in_gap(rows, bases, baseline, size, set(level.values()),
                                        [other for name, other in labels if name != number and name not in level])
                if k is not None and k > 0 and k - 1 not in level.values() and k - 1 not in carried and \
                        _aligned_pair(rows[k - 1], rows[k], size):
                    # the number of an aligned block dropped below its last row: the block's
                    texts[k - 1] = _aligned_rows(rows[k - 1:k + 1], size)
                    texts[k] = ""
                    k -= 1
                if k is None:
                    # a number amsmath raised over its row (numbers on the left, where the row left it no
                    # room): the nearest row below it, its baseline within a dropped number's pitch
                    k = row_below(baseline, 0.0, size * DROPPED_LABEL)
            if k is None:
                out[number] = ""
                continue
            out[number] = texts[k]
            carried.setdefault(k, number)
        return NumberedRows(out, [(tex, carried.get(k)) for k, tex in enumerate(texts) if tex])
    except (ValueError, IndexError, KeyError, ZeroDivisionError, RecursionError):
        return NumberedRows({number: "" for number, _ in labels}, [])
    finally:
        LEADING.reset(token)


def _numbered_cases(rows: list[list[Node]], labels: list[tuple[str, float]], size: float) -> NumberedRows | None:
    """A brace before rows that are each numbered (`empheq` with a left brace, `numcases`): the block
    reads as one `cases` that no number stands level with, each number level with one of its rows;
    that row is the number's formula (its cells a quad apart), and the text shows the rows in turn.
    None unless the block is the brace and its rows alone, each number level with a row of its own."""
    if len(rows) != 1 or len(rows[0]) != 1 or rows[0][0].kind != "cases":
        return None
    inner = rows[0][0].parts["rows"]
    bases = [_main_base([n for cell in row for n in cell]) for row in inner]
    taken: dict[int, str] = {}
    for number, baseline in labels:
        k = min(range(len(inner)), key=lambda i: abs(bases[i] - baseline))
        if abs(bases[k] - baseline) > size * LEVEL_ROW or k in taken:
            return None
        taken[k] = number
    texts = []
    for row in inner:
        tokens: list[str] = []
        for cell in row:
            if cell:
                tokens += ([r"\quad"] if tokens else []) + _row_tex(cell)
        texts.append(render(tokens))
    return NumberedRows({number: texts[k] for k, number in taken.items()},
                        [(tex, taken.get(k)) for k, tex in enumerate(texts) if tex])


def _dropped_in_gap(rows: list[list[Node]], bases: list[float], baseline: float, size: float,
                    taken: set[int], dropped: list[float] = ()) -> int | None:
    """The row a number was dropped below when it stands further under that row's foot than a line's
    pitch, but within DROPPED_REACH and clear of the next row's ink (the limits over the next row's
    sums): in the gap between the two rows, no number level with either, it is the upper row's."""
    above = [i for i in range(len(rows)) if bases[i] < baseline and i not in taken]
    if not above:
        return None
    k = max(above, key=lambda i: bases[i])
    foot = max(bases[k], max(n.bottom for n in rows[k]))
    below = [i for i in range(len(rows)) if bases[i] > baseline]
    if below:
        nxt = min(below, key=lambda i: bases[i])
        # (beside the next row's ink is still the gap when that row has a number of its own, level with
        # it or dropped below it, too long for it: wide rows in turn, each number on a line of its own,
        # the next row's fractions reaching up beside the number above; _dropped_below)
        if baseline > min(n.top for n in rows[nxt]) and nxt not in taken and \
                not _dropped_below(rows, bases, nxt, size, dropped):
            return None
    return k if 0 < baseline - foot <= size * DROPPED_REACH else None


def _dropped_below(rows: list[list[Node]], bases: list[float], k: int, size: float, dropped: list[float]) -> bool:
    """Whether another number level with no row stands in the gap under row `k`, above the row after it
    (or under the block's last row): that row's own number, dropped below it."""
    foot = max(bases[k], max(n.bottom for n in rows[k]))
    after = [bases[i] for i in range(len(rows)) if bases[i] > bases[k]]
    limit = min(after) if after else foot + size * DROPPED_REACH
    return any(foot < b <= foot + size * DROPPED_REACH and b < limit - size * LEVEL_ROW for b in dropped)


DROPPED_REACH = 2.5   # em: the furthest a dropped number stands under its row's foot, above the next row


def _centred_pair(rows: list[list[Node]], bases: list[float], baseline: float, size: float,
                  taken: set[int], dropped: list[float] = ()) -> int | None:
    """The first of two neighbouring rows, neither taken by a number level with it, that start at one
    x and whose baselines a number's stands midway between (within PAIR_CENTRE of the midpoint, and
    more than LEVEL_ROW from each); None when no two do, or when another number (of `dropped`, the
    baselines of numbers level with no row) stands dropped below the second row: then each row was
    too wide for its number, and this one is the first row's."""
    for i in range(len(rows) - 1):
        if i in taken or i + 1 in taken or not bases[i] + size * LEVEL_ROW < baseline < bases[i + 1] - size * LEVEL_ROW:
            continue
        foot = max(bases[i + 1], max(n.bottom for n in rows[i + 1]))
        if any(0 < other - bases[i + 1] and other - foot <= size * DROPPED_LABEL and
               (i + 2 >= len(rows) or other < bases[i + 2] - size * LEVEL_ROW) for other in dropped):
            continue
        if abs((bases[i] + bases[i + 1]) / 2 - baseline) <= size * PAIR_CENTRE and \
                (_aligned_pair(rows[i], rows[i + 1], size) or _flush_right_pair(rows[i], rows[i + 1], size)):
            return i
    return None


CENTRED_NUMBER = 0.25   # em: a number's maths axis this close to the middle of its rows' ink is centred on them
                        # (amsmath centres an equation's number on the block it holds; build_math reads it too)


def _centred_run(rows: list[list[Node]], baseline: float, size: float, free: set[int]) -> tuple[int, int] | None:
    """The first and last of the longest run of three rows or more, all `free` (no number level with
    them or taken), that start at one x (an `aligned` block's left column) and on the middle of whose
    ink a number's maths axis stands, as amsmath centres an equation's number on the block it holds;
    None when no run is so centred."""
    axis = baseline - size * FRACTION_AXIS
    best = None
    for i in range(len(rows)):
        if i not in free:
            continue
        low = high = min(n.x0 for n in rows[i])
        top, bottom = min(n.top for n in rows[i]), max(n.bottom for n in rows[i])
        for j in range(i + 1, len(rows)):
            if j not in free:
                break
            start = min(n.x0 for n in rows[j])
            low, high = min(low, start), max(high, start)
            if high - low > size * PAIR_START:
                break
            top, bottom = min(top, min(n.top for n in rows[j])), max(bottom, max(n.bottom for n in rows[j]))
            if j - i >= 2 and abs((top + bottom) / 2 - axis) <= size * CENTRED_NUMBER and \
                    (best is None or j - i > best[1] - best[0]):
                best = (i, j)
    return best


def _flush_right_pair(upper: list[Node], lower: list[Node], size: float) -> bool:
    """Two rows of one block set flush right, ending at one x: a `split` (or `aligned`) whose rows have
    no alignment point sets each in its first column, which amsmath sets flush right."""
    return abs(max(n.x1 for n in upper) - max(n.x1 for n in lower)) <= size * PAIR_START


def _aligned_pair(upper: list[Node], lower: list[Node], size: float) -> bool:
    """Two rows of one aligned block (`\\operatorname*{maximize}_{x} \\quad & f(x) \\ \\text{subject
    to} \\quad & …`): they start at one x, and each has a glyph after a gap of a quad or more that
    starts where the other's does (the block's second column)."""
    return same_columns([(n.x0, n.x1) for n in upper], [(n.x0, n.x1) for n in lower], size, size * PAIR_START)


def column_gaps(spans: list[tuple[float, float]], em: float) -> list[tuple[float, float]]:
    """The gaps of COLUMN_GAP ems or more between glyphs or words (x0, x1), as (where the left part
    ends, where the right part starts): an aligned block's second column, set a quad after its first
    (wider than any word space of justified text)."""
    gaps: list[tuple[float, float]] = []
    reach = None
    for x0, x1 in sorted(spans):
        if reach is not None and x0 > reach:
            gaps.append((reach, x0))
        reach = x1 if reach is None else max(reach, x1)
    widths = sorted(b - a for a, b in gaps)
    # (and markedly wider than the row's other spaces: a scan's or a loose line's word spaces may
    # reach a quad, all of them)
    usual = widths[len(widths) // 2] if len(widths) >= 3 else 0.0
    return [(a, b) for a, b in gaps if b - a >= em * COLUMN_GAP and b - a >= usual * COLUMN_GAP_SPREAD]


def same_columns(one: list[tuple[float, float]], other: list[tuple[float, float]], em: float, slack: float) -> bool:
    """Whether two rows of glyphs or words (x0, x1) are rows of one aligned block: each has a part
    after a quad's gap starting where the other's does (the block's second column), and their first
    parts line up, at their left (flush left) or at the gap (amsmath's first column, set flush right)."""
    left = abs(min(x0 for x0, _ in one) - min(x0 for x0, _ in other)) <= slack
    return any(abs(a[1] - b[1]) <= slack and (left or abs(a[0] - b[0]) <= slack)
               for a in column_gaps(one, em) for b in column_gaps(other, em))


def _relation_xs(n: Node) -> list[float]:
    """Where a relation of a row stands: a relation glyph's left edge, or for a relation with a note
    over it (`\\overset{(a)}{=}`, an annotated step) both the note's box's and the glyph's."""
    if n.kind == "sym" and n.role == "rel":
        return [n.x0]
    if n.kind == "op" and n.parts["op"].role == "rel":
        return [n.x0, n.parts["op"].x0]
    return []


def _continues(row: list[Node], above: list[list[Node]], columns: list[list[float]], size: float,
               edge: float | None = None) -> bool:
    """Whether a row is an alignment's row continuing the ones above (`&\\quad + …` or `&= …` after
    `\\nonumber` rows, an eqnarray's rows under a `\\lefteqn`): it opens with a binary sign or a
    relation, its left side empty, indented from the first row.  A multline's last row, flush right,
    opens so too: so the rows must show an alignment's columns, a row above starting where this one
    does or two on one relation's column; or else this row does not end where a multline's last row
    does, \\multlinetaggap (10 pt) before its number at `edge`, nor (with no number beside it to go
    by) past the first row's end."""
    first = min(row, key=lambda n: n.x0)
    if not (first.kind == "sym" and first.role == "bin" or _relation_xs(first)):
        return False
    if first.x0 < min(n.x0 for n in above[0]) + size * 0.5:
        return False
    starts = [min(n.x0 for n in r) for r in above[1:]]
    aligned = any(abs(x - first.x0) < size * CONTINUED_SLACK for x in starts) or \
        any(any(abs(x - y) < 0.5 for y in other) for i, xs in enumerate(columns) for x in xs for other in columns[i + 1:])
    end = max(n.x1 for n in row)
    if edge is not None:
        return aligned or not MULTLINE_TAG_GAP[0] * size <= edge - end <= MULTLINE_TAG_GAP[1] * size
    return aligned or end <= max(n.x1 for n in above[0])


MULTLINE_TAG_GAP = (0.6, 1.4)   # ems: a multline's last row ends \multlinetaggap (10 pt) before its number


def _multline_last(row: list[Node], last: bool, size: float, edge: float | None) -> bool:
    """Whether a numbered last row may be a multline's, one formula broken over the rows (whose first
    row is flush left and last flush right, both a row's width from the measure's edges when the
    last is long): it opens with a binary sign or a relation, going on from the row above, or it ends
    \\multlinetaggap before its number at `edge`."""
    if not last:
        return False
    first = min(row, key=lambda n: n.x0)
    if first.kind == "sym" and first.role == "bin" or _relation_xs(first):
        return True
    return edge is not None and MULTLINE_TAG_GAP[0] * size <= edge - max(n.x1 for n in row) <= MULTLINE_TAG_GAP[1] * size


CONTINUED_SLACK = 0.2   # ems: a continued row starts this near where a row above it starts
LEVEL_ROW = 0.6      # ems: a number this near a row's baseline stands level with it
PAIR_CENTRE = 0.6    # ems: a block's number from the middle of its two rows' baselines
PAIR_START = 0.3     # ems: two rows of one block (its left column, flush left) start at one x
COLUMN_GAP = 0.8     # ems: the gap before an aligned block's second column (a \quad), wider than a word space
COLUMN_GAP_SPREAD = 1.5   # ... and this many times the row's middle space, where it has three or more


def _own_row(words, bars, baseline: float, leading: float, edge: float | None = None) -> str | None:
    """The one numbered row of a block whose other rows have no number (align, gather or eqnarray
    rows with \\notag), or None when the number is the whole block's.  A number TeX gives a whole
    block (aligned, split, gathered) is centred on it: level with its first or last row it is that
    row's own, when the rows are separate equations: set on one relation's column, or each centred
    on one line (a multline's rows, one formula broken, are neither: flush left, then flush right)."""
    token = LEADING.set(leading)
    try:
        shaped = _display_structure(words, bars, leading, fresh=False)
        if shaped is None:
            return None
        size, _, _, rows = shaped
        if len(rows) < 2:
            return None
        bases = [_main_base(r) for r in rows]
        k = min(range(len(rows)), key=lambda i: abs(bases[i] - baseline))
        if abs(bases[k] - baseline) > size * 0.15 or k not in (0, len(rows) - 1):
            return None
        # (set on one relation's column: some relation of every row stands at one x, the first or
        # not: a row may open with \Longrightarrow before the relation the rows align on)
        rels = [[x for n in row for x in _relation_xs(n)] for row in rows]
        on_column = all(rels) and any(all(any(abs(x - y) < 0.5 for y in other) for other in rels[1:])
                                      for x in rels[0])
        centres = [(min(n.x0 for n in row) + max(n.x1 for n in row)) / 2 for row in rows]
        centred = max(centres) - min(centres) < 1.0
        # (or set flush on one edge: rows that each open at the alignment point, `& y = f \notag \\ & u = g`,
        # start at one x; rows with no alignment point at all end at one x, amsmath sets them flush right.
        # A block numbered whole has its number centred on its rows, level with neither end row)
        # (the glyphs' advance boxes, which TeX lines up, where the glyph layer kept them: their inks
        # stand in by their side bearings, `)` and `0` half a point apart)
        starts = [min(n.adv0 if n.adv1 > n.adv0 else n.x0 for n in row) for row in rows]
        ends = [max(n.adv1 if n.adv1 > n.adv0 else n.x1 for n in row) for row in rows]
        flush = (max(starts) - min(starts) < size * FLUSH_EDGE or max(ends) - min(ends) < size * FLUSH_EDGE) \
            and not _multline_last(rows[k], k == len(rows) - 1, size, edge)
        # (or set in an align's pair of columns, each row with both cells: `\operatorname*{maximize} \quad
        # & f \\ \text{subject to} \quad & g = 0 \notag`, whose second row's relation stands where the
        # first has none; a block amsmath numbers whole, aligned or split, has its number centred)
        paired = all(_aligned_pair(upper, lower, size) for upper, lower in zip(rows, rows[1:]))
        if not (on_column or centred or flush or paired or k and k == len(rows) - 1 and _continues(rows[k], rows[:k], rels[:k], size, edge)):
            return None
        return render(_row_tex(_scripts(_copied(rows[k], {}))))   # (the structure is shared: write out a copy)
    except (ValueError, IndexError, KeyError, ZeroDivisionError, RecursionError):
        return None
    finally:
        LEADING.reset(token)


FLUSH_EDGE = 0.1   # em: rows set flush on one edge end (or start) this close (a delimiter's advance in its
                   # font's widths may differ from TeX's by half a point: newtxmath's parentheses)


# A formula's reading depends only on its glyphs, the page's rules and the book's leading.  The
# structuring walks a book a second time when its numbering has gaps (build_pdf.structure) and meets
# the same formulas again: within remembered_readings(), each is read once.
_READINGS: ContextVar[dict | None] = ContextVar("_READINGS", default=None)


# A display's structure (its glyphs built into rows) is read again only while its block is read
# (display_latex, _own_row, numbered_rows), and those readings are remembered whole: the last few
# structures are kept, not every one (a mathematical book's took some 40 MB).
_STRUCTURES: ContextVar[OrderedDict | None] = ContextVar("_STRUCTURES", default=None)
STRUCTURES_KEPT = 64


@contextmanager
def remembered_readings():
    """Within it, a formula read once is not read again; the memo lives only as long as the block, so
    no reading carries from one book to another."""
    token = _READINGS.set({})
    structures = _STRUCTURES.set(OrderedDict())
    try:
        yield
    finally:
        _STRUCTURES.reset(structures)
        _READINGS.reset(token)


def _glyph_key(words) -> tuple:
    """What glyphs_of reads from the words: every run's characters, font, size, baseline and boxes."""
    key = []
    for w in words:
        for r in (w.spans or [w]):
            font = r.font if r is w else r.font.name
            italic, bold = (w.italic, w.bold) if r is w else (r.font.italic, r.font.bold)
            boxes = r.boxes.tobytes() if hasattr(r.boxes, "tobytes") else r.boxes and tuple(r.boxes)
            key.append((r.raw or r.text, r.text, font, italic, bold, r.size, r.baseline, r.overprinted,
                        r.x0, r.x1, boxes))
    return tuple(key)


def _memo_key(key: tuple):
    """The memo's key for a reading's inputs: a digest of their bytes (marshal's version 2 writes
    equal strings, numbers and tuples as equal bytes, and shares nothing by identity).  The inputs
    themselves hold every glyph's boxes again, more than the readings: a mathematical book's memo
    held some 60 MB of them.  Inputs marshal cannot write are their own key."""
    try:
        return hashlib.blake2b(marshal.dumps(key, 2), digest_size=16).digest()
    except ValueError:
        return key


def _reading_key(kind: str, words, bars, args: tuple):
    return _memo_key((kind, _glyph_key(words), tuple(tuple(b) for b in bars), args))


def _remembered(kind: str, words, bars, args: tuple, read_now):
    memo = _READINGS.get()
    if memo is None:
        return read_now()
    key = _reading_key(kind, words, bars, args)
    if key not in memo:
        memo[key] = read_now()
    return memo[key]


def _display_structure(words, bars, leading: float, fresh: bool = True) -> tuple[float, list[tuple], list[Node], list[list[Node]]] | None:
    """A display's structure before it is written out (_structure_of); None when it has no glyphs.  A
    numbered display is read whole (display_latex) and again for the row its number stands level with
    (_own_row, numbered_rows): within remembered_readings() the glyphs are built into rows once, and
    each reader gets a copy of its own (writing LaTeX out marks nodes); `fresh` false: the structure
    itself, for a reader that only measures it."""
    def shape():
        nodes = glyphs_of(words)
        return _structure_of(nodes, _rules_within(bars, *_set_box(nodes), nodes)) if nodes else None

    structures = _STRUCTURES.get()
    if structures is None:
        return shape()
    key = _reading_key("structure", words, bars, (leading,))
    if key in structures:
        structures.move_to_end(key)
        shaped = structures[key]
    else:
        shaped = structures[key] = shape()
        if len(structures) > STRUCTURES_KEPT:
            structures.popitem(last=False)
    if shaped is None or not fresh:
        return shaped
    copies: dict[int, object] = {}
    return shaped[0], list(shaped[1]), _copied(shaped[2], copies), _copied(shaped[3], copies)


def _copied(value, copies: dict):
    """A copy of nodes, lists, tuples, dicts and sets of them, nested; a node met twice is copied once
    (`copies`: by id), so what two rows share stays shared.  Strings, numbers and the like are kept."""
    kind = type(value)
    if kind is Node:
        done = copies.get(id(value))
        if done is None:
            done = copies[id(value)] = copy.copy(value)
            done.parts = {k: _copied(v, copies) for k, v in value.parts.items()} if value.parts else {}
        return done
    if kind is list:
        return [_copied(v, copies) for v in value]
    if kind is dict:
        return {k: _copied(v, copies) for k, v in value.items()}
    if kind is tuple:
        return tuple(_copied(v, copies) for v in value)
    if kind is set:
        return {_copied(v, copies) for v in value}
    return value


def display_latex(words, bars=(), leading: float = 0.0) -> str:
    """LaTeX for a displayed formula: its words (every line of the display, the equation number left
    out) and the page's thin bars among them; "" when it cannot be read (a formula never stops a build).
    `leading` is the book's distance between lines of running text, when known (it tells an array's
    rows from a binomial's parts)."""
    return _remembered("display", words, bars, (leading,), lambda: _latex(words, bars, True, leading))


def inline_latex(words, bars=(), leading: float = 0.0) -> str:
    """LaTeX for maths within a line of text (one row; the rules of its fractions and roots)."""
    return _remembered("inline", words, bars, (leading,), lambda: _latex(words, bars, False, leading))


def _latex(words, bars, display: bool, leading: float) -> str:
    token = LEADING.set(leading)
    try:
        if display:
            shaped = _display_structure(words, bars, leading)
            return "" if shaped is None else _read_rows(*shaped)
        nodes = glyphs_of(words)
        if not nodes:
            return ""
        return read(nodes, _rules_within(bars, *_set_box(nodes), nodes), display=display)
    except (ValueError, IndexError, KeyError, ZeroDivisionError, RecursionError):
        return ""
    finally:
        LEADING.reset(token)
