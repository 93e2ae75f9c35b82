"""build_math.py: LaTeX from the glyphs of a typeset formula, by their positions, sizes and fonts.

No model and no guessing from words: TeX sets a formula by fixed rules, and those rules can be read
backwards.  A glyph smaller than its neighbour and raised above its baseline is a superscript,
lowered below it a subscript; a thin horizontal rule with glyphs above and below it is a fraction;
a radical sign with a rule running from its top is a root; a big operator of the extension font
with glyphs stacked above or below it carries limits; a small accent glyph just above a letter
accents it; rows of a display separated by white space are the rows of an `aligned` block.  The
font says what a glyph is: math italic letters are variables, upright letters in a formula are
operator names or roman text, the symbol font's capitals are calligraphic, the AMS blackboard
font's are `\\mathbb`.

The entry points take build_glyphs Words (with their glyph runs) and the page's thin bars:
display_latex() for a displayed formula, inline_latex() for a run of maths inside a line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from build_glyphs import _OMX, Word

# --------------------------------------------------------------------------- symbols
_GREEK = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ϵ": r"\epsilon", "ε": r"\varepsilon",
    "ζ": r"\zeta", "η": r"\eta", "θ": r"\theta", "ϑ": r"\vartheta", "ι": r"\iota", "κ": r"\kappa",
    "λ": r"\lambda", "μ": r"\mu", "µ": r"\mu", "ν": r"\nu", "ξ": r"\xi", "π": r"\pi", "ϖ": r"\varpi",
    "ρ": r"\rho", "ϱ": r"\varrho", "σ": r"\sigma", "ς": r"\varsigma", "τ": r"\tau", "υ": r"\upsilon",
    "ϕ": r"\phi", "φ": r"\varphi", "χ": r"\chi", "ψ": r"\psi", "ω": r"\omega",
    "Γ": r"\Gamma", "Δ": r"\Delta", "Θ": r"\Theta", "Λ": r"\Lambda", "Ξ": r"\Xi", "Π": r"\Pi",
    "Σ": r"\Sigma", "Υ": r"\Upsilon", "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega",
    "∆": r"\Delta", "Ω": r"\Omega", "∏": r"\prod", "∑": r"\sum",
}
_SYMBOLS = {
    "−": "-", "–": "-", "·": r"\cdot", "×": r"\times", "∗": "*", "÷": r"\div", "±": r"\pm", "∓": r"\mp",
    "⊕": r"\oplus", "⊗": r"\otimes", "∘": r"\circ", "∙": r"\bullet", "≡": r"\equiv", "⊆": r"\subseteq",
    "⊇": r"\supseteq", "≤": r"\leq", "≥": r"\geq", "⪯": r"\preceq", "⪰": r"\succeq", "∼": r"\sim",
    "≈": r"\approx", "⊂": r"\subset", "⊃": r"\supset", "≪": r"\ll", "≫": r"\gg", "≺": r"\prec",
    "≻": r"\succ", "←": r"\leftarrow", "→": r"\to", "↑": r"\uparrow", "↓": r"\downarrow",
    "↔": r"\leftrightarrow", "≃": r"\simeq", "⇐": r"\Leftarrow", "⇒": r"\Rightarrow", "⇔": r"\Leftrightarrow",
    "∝": r"\propto", "′": r"\prime", "∞": r"\infty", "∈": r"\in", "∋": r"\ni", "∀": r"\forall",
    "∃": r"\exists", "¬": r"\neg", "∅": r"\emptyset", "∪": r"\cup", "∩": r"\cap", "∧": r"\wedge",
    "∨": r"\vee", "⊢": r"\vdash", "⌊": r"\lfloor", "⌋": r"\rfloor", "⌈": r"\lceil", "⌉": r"\rceil",
    "⟨": r"\langle", "⟩": r"\rangle", "‖": r"\|", "∥": r"\|", "√": r"\sqrt", "∇": r"\nabla",
    "∂": r"\partial", "ℓ": r"\ell", "∑": r"\sum", "∏": r"\prod", "∫": r"\int", "∮": r"\oint",
    "⋃": r"\bigcup", "⋂": r"\bigcap", "⋁": r"\bigvee", "⋀": r"\bigwedge", "≠": r"\neq", "∉": r"\notin",
    "…": r"\dots", "⋯": r"\cdots", "↦": r"\mapsto", "⊤": r"\top", "⊥": r"\perp", "ℏ": r"\hbar",
    "{": r"\{", "}": r"\}", "%": r"\%", "#": r"\#", "&": r"\&", "_": r"\_", "$": r"\$", "~": r"\sim",
    "⋆": r"\star", "†": r"\dagger", "⊮": r"\nVdash", "⊤": r"\top", "ı": r"\imath", "ȷ": r"\jmath",
}
_BIG_OPERATORS = {"∑", "∏", "∫", "∮", "⋃", "⋂", "⋁", "⋀", "⨁", "⨂", "⨀", "∐"}
# Accents as TeX prints them: a small glyph set above its base.
_ACCENTS = {"ˆ": r"\hat", "^": r"\hat", "˜": r"\tilde", "~": r"\tilde", "¯": r"\bar", "\u0304": r"\bar",
            "˙": r"\dot", "¨": r"\ddot", "ˇ": r"\check", "´": r"\acute", "`": r"\grave", "˘": r"\breve",
            "⃗": r"\vec", "\u02c9": r"\bar"}
_RELATIONS = {"=", "<", ">", r"\leq", r"\geq", r"\neq", r"\approx", r"\sim", r"\simeq", r"\equiv", r"\in",
              r"\notin", r"\subset", r"\subseteq", r"\supset", r"\supseteq", r"\propto", r"\to", r"\leftarrow",
              r"\Rightarrow", r"\Leftarrow", r"\Leftrightarrow", r"\mid", r"\ll", r"\gg", r"\prec", r"\succ",
              r"\preceq", r"\succeq", r"\mapsto", ":=", r"\ni", r"\perp", r"\longleftarrow", r"\longrightarrow"}
_OPERATOR_NAMES = {"min", "max", "log", "ln", "exp", "sin", "cos", "tan", "lim", "sup", "inf", "det", "arg",
                   "Pr", "deg", "dim", "ker", "gcd", "sinh", "cosh", "tanh", "liminf", "limsup", "argmax",
                   "argmin", "mod", "lg"}
_OPEN = {"(", "[", r"\{", r"\langle", r"\lfloor", r"\lceil"}
_CLOSE = {")", "]", r"\}", r"\rangle", r"\rfloor", r"\rceil"}
_PIECES = {"⎛": "(", "⎜": "(", "⎝": "(", "⎞": ")", "⎟": ")", "⎠": ")", "⎡": "[", "⎢": "[", "⎣": "[",
           "⎤": "]", "⎥": "]", "⎦": "]", "⎧": "{", "⎨": "{", "⎩": "{", "⎫": "}", "⎬": "}", "⎭": "}",
           "⎪": "|", "⏐": "|", "⎮": "|"}


@lru_cache(maxsize=512)
def _family(font: str) -> str:
    """A font's role in a formula: 'italic' (math italic), 'symbol', 'extension', 'bb' (blackboard),
    'frak', 'bold', 'mono', 'roman' (upright text faces)."""
    name = font.upper()
    if "MATHITALIC" in name or re.match(r"CMMI", name):
        return "bolditalic" if "BOLD" in name or name.startswith("CMMIB") else "italic"
    if "MATHSYMBOL" in name or re.match(r"CMB?SY", name):
        return "symbol"
    if "MATHEXTENSION" in name or name.startswith("CMEX"):
        return "extension"
    if name.startswith("MSBM"):
        return "bb"
    if name.startswith("EUFM"):
        return "frak"
    if re.search(r"MONO|CMTT|COURIER", name):
        return "mono"
    if re.search(r"BOLD|CMBX|-BD", name):
        return "bold"
    return "roman"


def is_math_font(font: str) -> bool:
    return _family(font) in ("italic", "bolditalic", "symbol", "extension", "bb", "frak")


# Characters TeX's OT1 text encoding lacks and takes from the math symbol font: `\{`, `\}`,
# `\textbackslash`, `\textbar`, `\textless`/`\textgreater`.  Around letters of a text face they are
# text (`\SetKwInput{Kw}{input}` in a typewriter face), not maths.
_TEXT_FROM_SYMBOL_FONT = set("\\{}|<>")


def is_math_word(w) -> bool:
    """Whether a word is (part of) a formula: some glyph of it is set in a math font, other than the
    few a text face borrows from the symbol font between its own letters."""
    if not w.spans:
        return is_math_font(w.font)
    math = [s for s in w.spans if is_math_font(s.font.name)]
    if not math:
        return False
    borrowed = all(set(s.text) <= _TEXT_FROM_SYMBOL_FONT for s in math)
    text_letters = any(not is_math_font(s.font.name) and any(c.isalpha() for c in s.text) for s in w.spans)
    return not (borrowed and text_letters)


# --------------------------------------------------------------------------- atoms
@dataclass
class Atom:
    tex: str               # the LaTeX for this atom
    x0: float
    x1: float
    top: float
    bottom: float
    baseline: float
    size: float
    kind: str = "char"     # char, big (operator / delimiter of the extension font), accent, comp
    family: str = "roman"
    ch: str = ""
    tokens: list = field(default_factory=list)   # for composites: the top-level tokens

    @property
    def cx(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def cy(self) -> float:
        return (self.top + self.bottom) / 2


def _char_tex(ch: str, family: str) -> str:
    if family == "extension" and ch.isascii() and ch not in "()[]{}|/\\" and 0 <= ord(ch) < len(_OMX):
        ch = _OMX[ord(ch)]
    ch = _PIECES.get(ch, ch)
    if family == "bb" and ch.isalpha():
        return rf"\mathbb{{{ch}}}"
    if family == "frak" and ch.isalpha():
        return rf"\mathfrak{{{ch}}}"
    if family == "symbol" and "A" <= ch <= "Z":
        return rf"\mathcal{{{ch}}}"
    if ch in _GREEK:
        tex = _GREEK[ch]
    else:
        tex = _SYMBOLS.get(ch, ch)
    if family == "bolditalic" and (ch.isalpha()):
        return rf"\boldsymbol{{{tex}}}"
    return tex


def atoms_of(words: list[Word]) -> list[Atom]:
    """Every glyph of the words as an atom; a run's glyphs share its width in proportion."""
    out = []
    for w in words:
        spans = w.spans or [None]
        for s in spans:
            if s is None:
                text, x0, x1, top, bottom, base, size, font = w.text, w.x0, w.x1, w.top, w.bottom, w.baseline, w.size, w.font
            else:
                text, x0, x1, top, bottom, base, size, font = s.text, s.x0, s.x1, s.top, s.bottom, s.baseline, s.size, s.font.name
            family = _family(font)
            chars = [c for c in text if not c.isspace()]
            if not chars:
                continue
            step = (x1 - x0) / len(chars)
            if family in ("roman", "bold") and len(chars) > 1 and all(c.isascii() and c.isalpha() for c in chars):
                # an upright word in a formula: an operator's name (\max) or roman text (\mathrm{eff})
                word = "".join(chars)
                tex = "\\" + word if word in _OPERATOR_NAMES else rf"\mathrm{{{word}}}"
                out.append(Atom(tex, x0, x1, top, bottom, base, size, kind="char", family="name" if
                                word in _OPERATOR_NAMES else family, ch=word))
                continue
            for k, ch in enumerate(chars):
                a = Atom(_char_tex(ch, family), x0 + k * step, x0 + (k + 1) * step, top, bottom, base, size,
                         family=family, ch=ch)
                if family == "extension" or (ch in _BIG_OPERATORS and bottom - top > size * 1.25):
                    a.kind = "big"
                elif ch in _ACCENTS and (family == "roman" or ch not in "^~`"):
                    a.kind = "accent"
                elif ch == "\u0338" or (ch == "/" and family == "symbol"):
                    a.kind = "negate"      # the symbol font's slash is the negation laid over a relation
                out.append(a)
    return out


# --------------------------------------------------------------------------- parsing
def _size(atoms: list[Atom]) -> float:
    sizes = [a.size for a in atoms if a.kind in ("char", "comp")] or [a.size for a in atoms] or [10.0]
    return max(sizes)


def _main_baseline(atoms: list[Atom], size: float) -> float:
    # glyphs vote; a composite (fraction, root) only where no glyph stands on the line by itself
    full = [a for a in atoms if a.kind == "char" and a.size >= size * 0.9] or \
        [a for a in atoms if a.kind == "comp" and a.size >= size * 0.9]
    if not full:
        full = [a for a in atoms if a.kind != "big"] or atoms
    counts: dict[float, int] = {}
    for a in full:
        key = round(a.baseline * 2) / 2
        counts[key] = counts.get(key, 0) + (3 if a.kind == "comp" else 1)
    best = max(counts.items(), key=lambda kv: (kv[1], -kv[0]))[0]
    near = [a.baseline for a in full if abs(a.baseline - best) < 0.6]
    return sum(near) / len(near)


def _within(a: Atom, x0: float, x1: float, pad: float = 0.5) -> bool:
    return x0 - pad <= a.cx <= x1 + pad


def _accents(atoms: list[Atom]) -> list[Atom]:
    """Accent glyphs joined to the letter below them; a slash over a relation negates it."""
    rest = [a for a in atoms if a.kind not in ("accent", "negate")]
    for acc in [a for a in atoms if a.kind in ("accent", "negate")]:
        if acc.kind == "negate":
            target = min((a for a in rest if abs(a.cx - acc.cx) < acc.size * 0.6 and a.kind == "char"
                          and a.tex in _RELATIONS), key=lambda a: abs(a.cx - acc.cx), default=None)
            if target is None and acc.ch == "/":
                acc.kind = "char"          # a slash of its own
                rest.append(acc)
                continue
            if target is not None:
                target.tex = {"=": r"\neq", r"\in": r"\notin", r"\equiv": r"\not\equiv"}.get(target.tex, r"\not" + target.tex)
            continue
        # TeX sets an accent over its base: the two overlap across most of the accent's width (glyphs
        # side by side never do), and the base stands on the accent's baseline or below it.
        width = max(acc.x1 - acc.x0, 0.5)
        below = [a for a in rest if min(a.x1, acc.x1) - max(a.x0, acc.x0) > width * 0.4
                 and a.kind == "char" and a.ch != "√" and a.family != "name"
                 and acc.baseline - 0.5 <= a.baseline < acc.baseline + acc.size]
        if not below:
            if acc.family == "roman" and acc.ch in "^~":
                acc.kind = "char"      # a caret or tilde of the text face, printed on its own
                rest.append(acc)
            continue                   # an accent whose letter is not in this expression
        target = min(below, key=lambda a: (abs(a.cx - acc.cx), a.baseline))
        target.tex = f"{_ACCENTS[acc.ch]}{{{target.tex}}}"
    rest.sort(key=lambda a: a.x0)
    return rest


def _join_pieces(atoms: list[Atom]) -> list[Atom]:
    """Pieces of a tall delimiter (top, middle, bottom glyphs stacked) become one delimiter."""
    out: list[Atom] = []
    for a in sorted(atoms, key=lambda a: (a.x0, a.top)):
        if a.kind == "big" and (a.ch in _PIECES or a.tex in ("|", r"\|", "(", ")", "[", "]")):
            for b in out:
                if b.kind == "big" and b.tex == a.tex and abs(b.x0 - a.x0) < 1.0 \
                        and max(a.top, b.top) - min(a.bottom, b.bottom) < 2.0:   # touching, one above the other
                    b.top, b.bottom = min(b.top, a.top), max(b.bottom, a.bottom)
                    break
            else:
                out.append(a)
        else:
            out.append(a)
    return out


def _join_names(atoms: list[Atom]) -> list[Atom]:
    """Operator names set one after the other with a thin space ("arg max") act as one operator."""
    out: list[Atom] = []
    for a in sorted(atoms, key=lambda a: a.x0):
        # the name before it on its own baseline (limits below may come between them in x order)
        b = next((o for o in reversed(out) if abs(o.baseline - a.baseline) < 0.5 and o.size >= a.size * 0.9), None) \
            if a.family == "name" else None
        if b is not None and b.family == "name" and 0 <= a.x0 - b.x1 < a.size * 0.4:
            b.tex, b.ch, b.x1 = b.tex + a.tex, b.ch + a.ch, a.x1
            continue
        out.append(a)
    return out


def _comp(tokens: list[str], x0, x1, top, bottom, baseline, size) -> Atom:
    return Atom(" ".join(tokens), x0, x1, top, bottom, baseline, size, kind="comp", tokens=tokens)


def _structures(atoms: list[Atom], bars: list[tuple]) -> list[Atom]:
    """Roots, fractions, big operators with limits and overlines, innermost first, as composites."""
    atoms = list(atoms)
    bars = sorted(bars, key=lambda b: b[2] - b[0])
    # Roots: a radical sign whose top a bar continues.
    for rad in [a for a in atoms if a.ch == "√"]:
        bar = min((b for b in bars if abs(b[0] - rad.x1) < 1.5 and rad.top - 1.5 <= b[1] <= rad.bottom),
                  key=lambda b: b[1], default=None)   # the radical's own rule is the topmost one it starts
        if bar is None or rad not in atoms:
            continue
        bars.remove(bar)
        inside = [a for a in atoms if a is not rad and _within(a, bar[0], bar[2]) and a.baseline > bar[3]
                  and a.baseline <= rad.bottom + 1]
        index = [a for a in atoms if a is not rad and a not in inside and a.x1 <= rad.x0 + rad.size * 0.6
                 and a.x0 >= rad.x0 - rad.size and a.bottom <= rad.cy and a.size < rad.size * 0.9]
        body = _expr(inside, [b for b in bars if bar[0] - 1 <= b[0] and b[2] <= bar[2] + 1 and b[1] > bar[1]])
        bars = [b for b in bars if not (bar[0] - 1 <= b[0] and b[2] <= bar[2] + 1 and b[1] > bar[1] and b[1] < rad.bottom)]
        tokens = [r"\sqrt"] + (["[", *_expr(index, []), "]"] if index else []) + ["{", *body, "}"]
        base = _main_baseline(inside, _size(inside)) if inside else rad.bottom
        atoms = [a for a in atoms if a is not rad and a not in inside and a not in index]
        atoms.append(_comp(tokens, rad.x0, bar[2], bar[1], max([rad.bottom] + [a.bottom for a in inside]),
                           base, _size(inside) if inside else rad.size))
    # Fractions: the narrowest bar first, so that nested fractions are built inside out.
    for bar in list(bars):
        if bar not in bars:
            continue           # taken inside a wider fraction already
        x0, top, x1, bottom = bar
        width = x1 - x0
        near = [a for a in atoms if _within(a, x0, x1) and a.x0 >= x0 - 2 and a.x1 <= x1 + 2]
        size = _size(near) if near else 10.0
        # loose glyph boxes overlap a bar; baselines do not: a numerator stands on the bar, a denominator
        # hangs from it (a big operator's box is its ink, and its origin is at its top)
        num = [a for a in near if (a.bottom if a.kind == "big" else a.baseline) <= top + 0.5
               and (a.top if a.kind == "big" else a.baseline) > top - size * 2.2]
        den = [a for a in near if (a.top if a.kind == "big" else a.baseline - a.size * 0.5) >= bottom - 0.5
               and (a.top if a.kind == "big" else a.baseline) < bottom + size * 2.4]
        if not num or not den:
            if num and not den and width > 2 and all(a.bottom <= top + 1 for a in num):
                # a rule over glyphs with nothing below it: an overline
                pass
            continue
        bars.remove(bar)
        inner = [b for b in bars if x0 - 1 <= b[0] and b[2] <= x1 + 1]
        tokens = [r"\frac", "{", *_expr(num, [b for b in inner if b[1] < top]), "}",
                  "{", *_expr(den, [b for b in inner if b[1] > top]), "}"]
        bars = [b for b in bars if b not in inner]
        atoms = [a for a in atoms if a not in num and a not in den]
        axis = (top + bottom) / 2
        atoms.append(_comp(tokens, x0, x1, min(a.top for a in num), max(a.bottom for a in den),
                           axis + size * 0.25, size))
    # Big operators of a display with limits stacked above and below them.
    ops = sorted([a for a in atoms if a.kind == "big" and a.ch in _BIG_OPERATORS or a.family == "name"],
                 key=lambda a: a.x0)
    if not ops:
        return atoms
    # each small glyph's nearest operator, once: limits go to the operator they stand under
    biggest = max(o.size for o in ops)
    nearest = {id(a): min(ops, key=lambda o: abs(o.cx - a.cx)) for a in atoms if a.size <= biggest}
    for op in ops:
        width = op.x1 - op.x0
        def limit(a: Atom, below: bool) -> bool:
            if a is op or a.kind == "big" or a.size > op.size * 0.95:
                return False
            if nearest.get(id(a)) is not op:
                return False   # the limits of the operator beside this one
            reach = width * (0.8 if op.kind == "big" else 0.2)
            if not (op.x0 - reach <= a.cx <= op.x1 + reach):
                return False
            # ink, not loose boxes: an extension glyph's box is its ink; a letter's ink sits on its baseline
            op_top, op_bottom = (op.top, op.bottom) if op.kind == "big" else (op.baseline - op.size * 0.7, op.baseline)
            ink_top = a.top if a.kind == "comp" else a.baseline - a.size * 0.7
            ink_bottom = a.bottom if a.kind == "comp" else a.baseline
            if below:
                return op_bottom - 1.5 <= ink_top <= op_bottom + op.size * 0.8
            return op_top - op.size * 0.8 <= ink_bottom <= op_top + 1.5
        lower = _grow([a for a in atoms if limit(a, True)], atoms, op, nearest)
        upper = _grow([a for a in atoms if limit(a, False)], atoms, op, nearest)
        if not lower and not upper:
            continue
        tokens = [op.tex]
        if lower:
            tokens += ["_", "{", *_expr(lower, []), "}"]
        if upper:
            tokens += ["^", "{", *_expr(upper, []), "}"]
        atoms = [a for a in atoms if a is not op and a not in lower and a not in upper]
        comp = _comp(tokens, min([op.x0] + [a.x0 for a in lower + upper]), max([op.x1] + [a.x1 for a in lower + upper]),
                     op.top, op.bottom, op.cy + op.size * 0.25, op.size)
        comp.kind = "comp"
        atoms.append(comp)
    return atoms


def _stack(group: list[Atom], edge: float, up: bool) -> list[Atom]:
    """The glyphs of a numerator (up) or denominator stacked against a bar: those whose box lies within
    reach of the bar or of a glyph already taken."""
    if not group:
        return []
    key = (lambda a: -a.bottom) if up else (lambda a: a.top)
    taken = []
    reach = edge
    for a in sorted(group, key=key):
        gap = (reach - a.bottom) if up else (a.top - reach)
        if gap > a.size * 0.7 and taken:
            break
        if not taken and gap > a.size * 0.9:
            break
        taken.append(a)
        reach = min(reach, a.top) if up else max(reach, a.bottom)
    return taken


def _grow(seed: list[Atom], atoms: list[Atom], op: Atom, nearest: dict) -> list[Atom]:
    """A limit's glyphs: the seed and the small glyphs beside it on its level."""
    if not seed:
        return []
    group = list(seed)
    changed = True
    while changed:
        changed = False
        x0, x1 = min(a.x0 for a in group), max(a.x1 for a in group)
        top, bottom = min(a.top for a in group), max(a.bottom for a in group)
        for a in atoms:
            if a in group or a is op or a.kind == "big" or a.size >= op.size * 0.95:
                continue
            if nearest.get(id(a)) is not op:
                continue
            if abs(a.baseline - group[0].baseline) < a.size * 0.3 and (x0 - a.size * 0.25 <= a.x1 and a.x0 <= x1 + a.size * 0.25):
                group.append(a)
                changed = True
    return group


def _expr(atoms: list[Atom], bars: list[tuple]) -> list[str]:
    """The tokens of one expression: structures first, then a left-to-right walk that hangs smaller,
    raised or lowered glyphs on the glyph before them as super- and subscripts."""
    if not atoms:
        return []
    atoms = _structures(_join_names(_accents(_join_pieces(atoms))), bars)
    if not atoms:
        return []
    cases = _cases(atoms)
    if cases is not None:
        return cases
    size = _size(atoms)
    main = _main_baseline(atoms, size)
    atoms.sort(key=lambda a: (a.x0, a.top))
    tokens: list[str] = []
    i = 0
    last_base: Atom | None = None
    prev: Atom | None = None
    while i < len(atoms):
        a = atoms[i]
        level = _level(a, main, size)
        if level == 0:
            tokens.extend(_base_tokens(a, prev, atoms[i + 1] if i + 1 < len(atoms) else None, size))
            last_base = a
            prev = a
            i += 1
            continue
        # a run of script glyphs: collect until the next glyph on the main level
        j = i
        while j < len(atoms) and _level(atoms[j], main, size) != 0:
            j += 1
        run = atoms[i:j]
        ups = [b for b in run if _level(b, main, size) > 0]
        downs = [b for b in run if _level(b, main, size) < 0]
        if last_base is None or (tokens and tokens[-1] in ("_", "^")):
            tokens.append("{}")
        if downs:
            tokens += ["_", "{", *_expr(downs, []), "}"]
        if ups:
            sup = _expr(ups, [])
            primes = 0
            while primes < len(sup) and sup[primes] == r"\prime":
                primes += 1
            if primes and downs:
                tokens += ["^", "{", *sup, "}"]
            else:
                if primes:
                    tokens.append("'" * primes)
                    sup = sup[primes:]
                if sup:
                    tokens += ["^", "{", *sup, "}"]
        prev = run[-1]
        i = j
    return _dots(_operator_names(tokens))


def _dots(tokens: list[str]) -> list[str]:
    """Three baseline periods in a row are TeX's \\dots; an arrow and a minus joined, its long arrow."""
    out: list[str] = []
    for t in tokens:
        if t == "." and out[-2:] == [".", "."]:
            out[-2:] = [r"\dots"]
        elif t == "-" and out[-1:] == [r"\leftarrow"]:
            out[-1] = r"\longleftarrow"
        elif t == r"\to" and out[-1:] == ["-"]:
            out[-1] = r"\longrightarrow"
        else:
            out.append(t)
    return out


def _cases(atoms: list[Atom]) -> list[str] | None:
    """A tall left brace with rows of glyphs on two or more baselines after it and no closing delimiter:
    `cases`, each row cut into value and condition at its widest space."""
    size = _size(atoms)
    # The extension font's tallest brace has the code of "(" in ASCII, and a layer without its glyph
    # names reports it so: an opening delimiter that nothing closes, before stacked rows, is the brace.
    brace = next((a for a in sorted(atoms, key=lambda a: a.x0) if a.kind == "big" and a.tex in (r"\{", "(")
                  and a.bottom - a.top > size * 1.8), None)
    if brace is None:
        return None
    right = [a for a in atoms if a.x0 >= brace.x1 - 0.5]
    if any(a.kind == "big" and a.tex in (r"\}", ")") for a in right):
        return None
    bases = sorted(a.baseline for a in right if a.kind == "char" and a.size >= size * 0.9)
    rows: list[list[float]] = []
    for b in bases:
        if rows and b - rows[-1][-1] < size * 0.8:
            rows[-1].append(b)
        else:
            rows.append([b])
    if len(rows) < 2:
        return None
    centres = [sum(r) / len(r) for r in rows]
    grouped: list[list[Atom]] = [[] for _ in rows]
    for a in right:
        grouped[min(range(len(rows)), key=lambda k: abs(centres[k] - a.baseline))].append(a)
    lines = []
    for row in grouped:
        row.sort(key=lambda a: a.x0)
        gaps = [(row[k + 1].x0 - row[k].x1, k) for k in range(len(row) - 1)]
        gap, at = max(gaps, default=(0.0, -1))
        if gap > size * 0.9:
            lines.append(_expr(row[:at + 1], []) + ["&"] + _expr(row[at + 1:], []))
        else:
            lines.append(_expr(row, []))
    left = [a for a in atoms if a.x1 <= brace.x0 + 0.5]
    tokens = _expr(left, []) + [r"\begin{cases}"]
    for k, line in enumerate(lines):
        tokens += line + ([r"\\"] if k + 1 < len(lines) else [])
    return tokens + [r"\end{cases}"]


def _level(a: Atom, main: float, size: float) -> int:
    """0 on the main baseline, 1 raised (superscript), -1 lowered (subscript)."""
    if a.kind in ("big", "comp"):
        return 0
    if a.size >= size * 0.88:
        return 0
    if a.baseline < main - size * 0.18:
        return 1
    if a.baseline > main + size * 0.08:
        return -1
    return 1 if a.tex == r"\prime" else 0   # a prime is always raised, however little (a' in a subscript)


def _base_tokens(a: Atom, prev: Atom | None, nxt: Atom | None, size: float) -> list[str]:
    if a.kind == "comp":
        return list(a.tokens)
    if a.family == "name":
        return a.tex.replace("\\", " \\").split()
    tex = a.tex
    if a.ch in ("|", "∣") and a.kind != "big" and prev is not None and nxt is not None:
        # a bar with a relation's space on both sides is "\mid"; tight against its neighbours, a delimiter
        if a.x0 - prev.x1 > size * 0.2 and nxt.x0 - a.x1 > size * 0.2:
            return [r"\mid"]
    if a.family == "roman" and a.ch.isalpha() and a.ch.isascii():
        return ["\x00" + a.ch]      # upright letters: joined into names afterwards
    if a.family == "bold" and a.ch.isalpha():
        return [rf"\mathbf{{{a.ch}}}"]
    return [tex]


def _operator_names(tokens: list[str]) -> list[str]:
    """Runs of upright letters: operator names (\\min, \\log) or roman text (\\mathrm{eff})."""
    out: list[str] = []
    run = ""
    for t in tokens + [""]:
        if t.startswith("\x00"):
            run += t[1:]
            continue
        if run:
            if run in _OPERATOR_NAMES:
                out.append("\\" + run if run not in ("argmax", "argmin") else rf"\operatorname*{{{run[:3]}\,{run[3:]}}}")
            else:
                out.append(rf"\mathrm{{{run}}}")
            run = ""
        if t:
            out.append(t)
    return out


# --------------------------------------------------------------------------- rows
def _rows(atoms: list[Atom], bars: list[tuple]) -> list[tuple[list[Atom], list[tuple]]]:
    """A display's rows: bands of height with white space between them.  A band of small glyphs only
    (limits, accents) or of bars only belongs with its neighbour."""
    items = [(a.top, a.bottom, a) for a in atoms] + [(b[1], b[3], b) for b in bars]
    items.sort(key=lambda t: t[0])
    bands: list[list] = []
    bottom = None
    for top, bot, obj in items:
        if bands and top < bottom + 1.0:
            bands[-1].append(obj)
            bottom = max(bottom, bot)
        else:
            bands.append([obj])
            bottom = bot
    size = _size(atoms)

    def full(band) -> bool:
        return any(isinstance(o, Atom) and o.kind == "char" and o.size >= size * 0.88 for o in band)

    merged: list[list] = []
    for k, band in enumerate(bands):
        if all(isinstance(o, Atom) and o.kind == "accent" for o in band) and k + 1 < len(bands):
            bands[k + 1][:0] = band    # accents only: they sit on the letters of the band below
            continue
        if merged and (not full(band) or not full(merged[-1])):
            # small glyphs or rules only: with the band above, unless it hangs over the band below
            merged[-1].extend(band)
        else:
            merged.append(band)
    rows = []
    for band in merged:
        rows.append(([o for o in band if isinstance(o, Atom)], [o for o in band if not isinstance(o, Atom)]))
    return rows


_COMMAND_END = re.compile(r"\\[A-Za-z]+$")


def _render(tokens: list[str]) -> str:
    """Tokens as LaTeX: a space after a command that a letter follows, around relations, after commas."""
    parts: list[str] = []
    last = ""
    for t in tokens:
        if last and t[:1].isalpha() and last[-1:].isalpha() and _COMMAND_END.search(last):
            parts.append(" ")
        elif last and (t in _RELATIONS or t in ("&", r"\\")):
            parts.append(" ")
        parts.append(t)
        if t in _RELATIONS or t in ("&", r"\\", ","):
            parts.append(" ")
        last = t
    return re.sub(r" +", " ", "".join(parts)).strip()


def display_latex(words: list[Word], bars: list[tuple] = ()) -> str:
    """LaTeX for a displayed formula: its words (every line of the display, the equation number left
    out) and the page's thin bars that lie within it.  "" when it cannot be read (the caller keeps
    the text layer): a formula never stops a build."""
    try:
        return _display_latex(words, bars)
    except (ValueError, IndexError, KeyError, ZeroDivisionError):
        return ""


def _display_latex(words: list[Word], bars: list[tuple] = ()) -> str:
    atoms = atoms_of(words)
    if not atoms:
        return ""
    if words:
        x0 = min(w.x0 for w in words) - 2
        x1 = max(w.x1 for w in words) + 2
        top = min(w.top for w in words) - 3
        bottom = max(w.bottom for w in words) + 3
        bars = [b for b in bars if b[0] >= x0 and b[2] <= x1 and top <= b[1] <= bottom]
    rows = _rows(atoms, list(bars))
    if len(rows) == 1:
        return _render(_expr(*rows[0]))
    lines = []
    for row_atoms, row_bars in rows:
        tokens = _expr(row_atoms, row_bars)
        at = next((k for k, t in enumerate(tokens) if t in _RELATIONS), None)
        if at is None:
            tokens = ["&"] + tokens
        else:
            tokens = tokens[:at] + ["&"] + tokens[at:]
        lines.append(_render(tokens))
    return r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"


def inline_latex(words: list[Word], bars=()) -> str:
    """LaTeX for maths within a line of text (one row; the bars of fractions and roots among its glyphs);
    "" when it cannot be read."""
    try:
        return _inline_latex(words, bars)
    except (ValueError, IndexError, KeyError, ZeroDivisionError):
        return ""


def _inline_latex(words: list[Word], bars=()) -> str:
    atoms = atoms_of(words)
    if not atoms:
        return ""
    x0, x1 = min(a.x0 for a in atoms) - 1, max(a.x1 for a in atoms) + 1
    top, bottom = min(a.top for a in atoms) - 1, max(a.bottom for a in atoms) + 1
    inside = [b for b in bars if b[0] >= x0 and b[2] <= x1 and top <= b[1] <= bottom]
    return _render(_expr(atoms, inside))


def math_share(words: list[Word]) -> float:
    """The share of a line's words that are maths: set in a math font, or a lone symbol or digit."""
    if not words:
        return 0.0
    count = 0
    for w in words:
        if is_math_word(w) or not any(c.isascii() and c.isalpha() for c in w.text):
            count += 1
    return count / len(words)


# --------------------------------------------------------------------------- tables
def _cell_text(words: list[Word], bars=()) -> str:
    """A cell's words: text as printed, runs of maths as $…$."""
    out: list[str] = []
    run: list[Word] = []

    def is_math(w: Word) -> bool:
        return is_math_word(w) or bool(w.spans and len({round(s.baseline, 1) for s in w.spans}) > 1)

    def flush() -> None:
        if run:
            latex = inline_latex(run, bars)
            if latex:
                out.append(f"${latex}$")
            run.clear()

    for w in words:
        if is_math(w) or (run and not any(c.isascii() and c.isalpha() for c in w.text)):
            run.append(w)
        else:
            flush()
            out.append(w.text)
    flush()
    return " ".join(out).replace("|", r"\|")


def _continues(above: list[str], row: list[str]) -> bool:
    """Whether a row with an empty first cell is the wrapped continuation of the row above: each of its
    cells goes on from the cell above it (that cell ends in a hyphen or an open parenthesis, or the
    new line starts in lower case, as a sentence goes on)."""
    pairs = [(a, b) for a, b in zip(above, row) if b]
    if not pairs:
        return False
    return all(a and (a.endswith("-") or a.count("(") > a.count(")") or b[:1].islower()) for a, b in pairs)


def _join_wrapped(a: str, b: str) -> str:
    if not b:
        return a
    if a.endswith("-") and b[:1].islower():
        return a[:-1] + b          # a word hyphenated at the line's end
    return f"{a} {b}".strip()


def table_markdown(lines: list, bars=()) -> str:
    """The rows of a tabular (build_glyphs Lines) as a Markdown table.  Cells are runs of words with
    column space between them; columns come from the rows with the most cells; a cell that spans
    several columns (a merged cell) is repeated in each."""
    # a line holding only an operator or delimiter of the extension font, or glyphs smaller than the
    # text beside it, inside another line's height, belongs to that line (a sum's sign, its limits)
    # lines with the most words (a table's rows) are hosts first; pieces join them
    lines = sorted([l for l in lines if l.words], key=lambda l: (-len(l.words), l.top))

    def fraction_bars(line) -> list:
        """Bars just above or below the line's words, each word within one: the line holds numerators
        or denominators."""
        near = [b for b in bars if b[0] < line.x1 and b[2] > line.x0
                and line.top - line.size * 0.6 <= b[1] <= line.bottom + line.size * 0.6]
        covered = all(any(b[0] - 1 <= (w.x0 + w.x1) / 2 <= b[2] + 1 for b in near) for w in line.words)
        return near if covered else []

    pieces = [l for l in lines if math_share(l.words) == 1.0 and fraction_bars(l)]
    kept: list = []
    for line in lines:
        if line in pieces:
            continue
        host = next((k for k in kept if k.top - 1 <= (line.top + line.bottom) / 2 <= k.bottom + 1), None)
        minor = host is not None and all(_family(w.font) == "extension" or w.size < host.size * 0.9 for w in line.words)
        if minor:
            host.words = host.words + line.words
        else:
            kept.append(type(line)(list(line.words), line.page))
    for line in pieces:
        # the row whose height the fraction's bar crosses
        host = next((k for k in kept for b in fraction_bars(line) if k.top + 1 < b[1] < k.bottom - 1), None)
        if host is not None:
            host.words = host.words + line.words
        else:
            kept.append(type(line)(list(line.words), line.page))
    rows = []
    for line in sorted(kept, key=lambda l: l.top):
        words = sorted(line.words, key=lambda w: w.x0)
        if not words:
            continue
        cells = [[words[0]]]
        for w in words[1:]:
            if w.x0 - cells[-1][-1].x1 > max(w.size, cells[-1][-1].size) * 0.75:
                cells.append([w])
            else:
                cells[-1].append(w)
        rows.append(cells)
    if not rows:
        return ""
    # Columns: the x ranges the rows' cells cover; a gap no cell covers (or only one row's, a merged
    # cell, when there are enough rows to tell) separates two columns.
    cells_x = sorted(((c[0].x0, c[-1].x1) for r in rows for c in r))
    allowed = 1 if len(rows) >= 4 else 0
    edges = sorted({x for c in cells_x for x in c})
    bounds: list[float] = []
    start = None          # the left end of the current stretch of uncovered space
    for a, b in zip(edges, edges[1:]):
        mid = (a + b) / 2
        free = sum(1 for x0, x1 in cells_x if x0 < mid < x1) <= allowed
        if free and start is None:
            start = a
        if not free and start is not None:
            if a - start >= 2 and any(x1 <= start + 0.01 for _, x1 in cells_x):
                bounds.append((start + a) / 2)
            start = None
    widest = len(bounds) + 1

    def columns(cell) -> list[int]:
        x0, x1 = cell[0].x0, cell[-1].x1
        first = sum(1 for b in bounds if b < x0 + 1)
        last = sum(1 for b in bounds if b < x1 - 1)
        if last < first:
            last = first
        if last > first and not (x0 < bounds[first] - 2 and x1 > bounds[last - 1] + 2):
            last = first
        return list(range(first, last + 1))

    table = []
    for r in rows:
        out = [""] * widest
        spans_of = [columns(cell) for cell in r]
        for k, cell in enumerate(r):
            cols = spans_of[k]
            if k + 1 < len(r):   # a cell reaching into the next cell's column is not a merged cell
                cols = [c for c in cols if c < spans_of[k + 1][0]] or cols[:1]
            text = _cell_text(cell, bars)
            for c in cols:
                out[c] = f"{out[c]} {text}".strip() if out[c] else text
        if table and not out[0] and _continues(table[-1], out):
            # a cell wrapped onto a second line (a paragraph column): its line continues the row above
            table[-1] = [_join_wrapped(a, b) for a, b in zip(table[-1], out)]
            continue
        table.append(out)
    md = ["| " + " | ".join(table[0]) + " |", "|" + "---|" * widest]
    md += ["| " + " | ".join(r) + " |" for r in table[1:]]
    return "\n".join(md)


# --------------------------------------------------------------------------- inline maths in prose


def _bridges(w: Word) -> bool:
    """A word in the text face that goes on a formula when it stands next to one: a relation or operator
    sign, a number, a bracket, an operator's name ("γ = 0.9", "x + 1", "arg max")."""
    if w.text in _OPERATOR_NAMES:
        return True
    return not any(c.isalpha() for c in w.text) and not re.fullmatch(r"[.,;:!?]+", w.text) \
        and not re.fullmatch(r"\(\d+(\.\d+)*[a-z]?\)[.,;:]?", w.text)   # an equation's number in brackets


def prose_with_math(words: list[Word], bars=()) -> str:
    """A line of prose with its runs of maths as $…$: a run starts at a word set in a math font and takes
    in the signs and numbers beside it; punctuation of the text face at its end stays outside."""
    out: list[str] = []
    k = 0
    n = len(words)
    while k < n:
        w = words[k]
        if not is_math_word(w):
            out.append(w.text)
            k += 1
            continue
        start = k
        # signs and numbers just before the maths ("1 − p" where only p is italic)
        while start > 0 and len(out) > 0 and _bridges(words[start - 1]) and out[-1] == words[start - 1].text:
            start -= 1
            out.pop()
        end = k + 1
        while end < n and (is_math_word(words[end]) or (_bridges(words[end]) and (
                end + 1 < n and is_math_word(words[end + 1]) or re.fullmatch(r"[\d.,]+[.,;:]?|[=<>+−×·]", words[end].text)))):
            end += 1
        run = words[start:end]
        tail = ""
        last = run[-1]
        spans = last.spans or []
        # the text face's full stop or comma after a formula belongs to the sentence
        if spans and not is_math_font(spans[-1].font.name) and re.fullmatch(r"[.,;:]+", spans[-1].text):
            tail = spans[-1].text
            run = run[:-1] + [_without_last_span(last)]
        elif not spans and re.search(r"[.,;:]$", last.text) and not is_math_word(last):
            tail = last.text[-1]
            run = run[:-1] + [_word_like(last, last.text[:-1])]
        latex = inline_latex([r for r in run if r is not None and r.text], bars)
        out.append(f"${latex}${tail}" if latex else "".join(r.text for r in run if r is not None) + tail)
        k = end
    return " ".join(out)


def _without_last_span(w: Word) -> Word | None:
    spans = w.spans[:-1]
    if not spans:
        return None
    return Word("".join(s.text for s in spans), spans[0].x0, spans[-1].x1, min(s.top for s in spans),
                max(s.bottom for s in spans), w.size, w.bold, w.mono, w.italic, w.font, w.baseline, spans)


def _word_like(w: Word, text: str) -> Word:
    return Word(text, w.x0, w.x1, w.top, w.bottom, w.size, w.bold, w.mono, w.italic, w.font, w.baseline, [])


# --------------------------------------------------------------------------- typeset algorithms
def algorithm_text(lines: list, bars=()) -> str:
    """Pseudocode set in text and math faces, line by line: each line indented by its distance from the
    body's left edge (a space per half em), its keywords and comments as printed, its maths as $…$."""
    lines = [l for l in lines if l.words]
    if not lines:
        return ""
    left = min(l.x0 for l in lines)
    sizes = sorted(l.size for l in lines)
    em = sizes[len(sizes) // 2] or 10.0
    out = []
    for line in lines:
        indent = " " * max(0, round((line.x0 - left) / (em * 0.5)))
        out.append(indent + prose_with_math(sorted(line.words, key=lambda w: w.x0), bars))
    return "\n".join(out)


from build_formula import display_latex, inline_latex  # noqa: E402,F811  (the new reader)


# --------------------------------------------------------------------------- display blocks
def is_prose_line(line, column: tuple[float, float], body: float) -> bool:
    """A line of running text, not a display row: it starts at the column's left edge (or runs to
    its right edge) and holds several words of letters in a text face."""
    words = [w for w in line.words if re.fullmatch(r"[A-Za-z][a-z]+[,.;:]?|[a-z]", w.text)
             and not is_math_word(w)]
    left, right = column
    starts_left = line.x0 <= left + body * 1.5
    full = starts_left and line.x1 >= right - body * 2
    if line.x0 <= left + body and words:
        return True       # flush with the column and worded: text, a list item, a line of pseudocode
    return (len(words) >= 3 and (starts_left or full)) or (len(words) >= 6 and len(words) >= len(line.words) * 0.7)


def ink_extent(line) -> tuple[float, float]:
    """The top and bottom of a line's ink (its glyphs' exact boxes where the glyph layer kept them;
    a word's box otherwise)."""
    top, bottom = float("inf"), float("-inf")
    for w in line.words:
        runs = w.spans or [w]
        for r in runs:
            boxes = r.boxes
            if boxes is not None and len(boxes) >= 6:
                for k in range(0, len(boxes), 6):
                    if boxes[k + 3] - boxes[k + 2] > 0.01:
                        top = min(top, boxes[k + 2])
                        bottom = max(bottom, boxes[k + 3])
            else:
                top, bottom = min(top, r.top), max(bottom, r.bottom)
    if top > bottom:
        return line.top, line.bottom
    return top, bottom


def display_lines(lines: list, at: int, column: tuple[float, float], body: float) -> list[int]:
    """The lines that make up the display around lines[at] (a line holding an equation number):
    the lines above and below it that are not prose, overlap the text column and follow one
    another without the space TeX leaves around a display; other numbered rows of the block are
    in it too (the caller assigns rows to numbers).  Indexes into `lines`, top to bottom."""
    anchor = lines[at]
    block = [at]
    gap = body * 0.75
    left, right = column

    def fits(line) -> bool:
        return line.page == anchor.page and line.x1 > left and line.x0 < right and \
            not is_prose_line(line, column, body)

    top, bottom = ink_extent(anchor)
    j = at - 1
    while j >= 0 and fits(lines[j]) and top - ink_extent(lines[j])[1] < gap:
        block.insert(0, j)
        top = min(top, ink_extent(lines[j])[0])
        j -= 1
    j = at + 1
    while j < len(lines) and fits(lines[j]) and ink_extent(lines[j])[0] - bottom < gap:
        block.append(j)
        bottom = max(bottom, ink_extent(lines[j])[1])
        j += 1
    return block
