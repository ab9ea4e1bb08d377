"""Find Jikaida moves by what players naturally type (for the ``/jikaida move`` autocomplete).

``search_moves(game, choices, typed)`` filters the (canonical move, description) pairs of the
current position and returns the matching ones, best first. Pure: no Discord.

What the text may hold (case-insensitive, words in any order, every word must match):

* a square, global (``c3``) or drin notation (``Mortil C3``, ``mortilc3``, ``mort c3``):
  moves from or to it, moves *from* it first. ``from c3`` / ``to c4`` restrict the side.
  A one-digit square also finds the squares it begins (``c1`` -> ``c16``), ranked after.
* a piece letter (``K P Ka C J H Pk D S``) or name prefix (``pallan``, ``pal``, ``swods``):
  moves of that piece (or promotions to it). An exact letter wins over a name prefix:
  ``p`` is the Pallan, ``pa`` the Pallan and the Paktun. After ``takes``/``x`` a piece
  names the captured piece; after ``promotes`` the promotion choice.
* a move fragment ``c3-c``, ``c3-c4``, ``c3xd4``, ``c3 c4``, ``c3c4``, ``c16-c18=p``,
  ``h1<>``: a prefix of the canonical move (``-`` also accepts captures); an exact
  canonical move comes first.
* ``=P``/``=pallan``/``=`` or ``promote``: promotions; ``takes``/``x``/``capture``: captures;
  ``<>``/``fluttember``/``swap``: the King's Fluttember; a drin name alone (``leem``):
  moves from or to that drin; a lone file letter that is no piece letter (``e``): that file.
* filler words (``to``, ``from``, ``on``, ``at``, ``the``, ``move``, arrows, brackets).

Anything else matches nothing, so an unknown word gives an empty list.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from .jikaida_pieces import CODE, DRINS, NAME

__all__ = ["search_moves"]


class JikaidaPosition(Protocol):
    """What the search reads of a ``games.jikaida.Jikaida`` (which calls it): its pieces by
    square, and its board's geometry (``geo.fronts``: none on the small Pastang board)."""

    geo: Any

    def piece_codes(self) -> dict[str, str]: ...


CODE_NAME = {CODE[k]: NAME[k].lower() for k in CODE}  # "Ka" -> "kapt"
CODE_BY_LOWER = {c.lower(): c for c in CODE_NAME}  # "ka" -> "Ka"
FILES = "abcdefghijkl"

_MOVE_RE = re.compile(r"([a-l]\d{1,2})(<>|[-x])([a-l]\d{1,2})(?:=(\w+))?")
# a from-to fragment as typed (spaces removed): from square, separator, to prefix, promotion
_FRAG_RE = re.compile(r"([a-l]\d{1,2})(<>|<|[-x~>]|→|->)?([a-l]\d{0,2})?(?:=(\w*))?")
_SQUARE_RE = re.compile(r"[a-l]\d{1,2}")
_DRIN_SQ_RE = re.compile(r"\b([a-z]{2,})\s*([a-f])([1-6])\b")
_WORD_RE = re.compile(r"[^\s,;()\[\]{}\"!?.]+")

FILLER = {"on", "at", "the", "move", "moves", "-", "—"}
CAPTURE_WORDS = ("takes", "take", "taking", "captures", "capture", "capturing", "x", "×")
PROMO_WORDS = ("promotes", "promote", "promotion", "promoting")
FLUTTER_WORDS = ("fluttember", "swap", "castle", "castling", "<>", "⇄")

Feat = tuple[str, str, str, str, str, str | None, str | None, str | None, int]
# (move, desc, from, sep, to, promo, mover code, victim code, index)
Pred = Callable[[Feat], int | None]

_PARSED: dict[str, tuple[str, str, str, str | None] | None] = {}


def _parse(move: str) -> tuple[str, str, str, str | None] | None:
    try:
        return _PARSED[move]
    except KeyError:
        m = _MOVE_RE.fullmatch(move)
        out = (m.group(1), m.group(2), m.group(3), m.group(4)) if m else None
        if len(_PARSED) < 50_000:
            _PARSED[move] = out
        return out


def _drin_prefix(word: str) -> str | None:
    """The drin a word starts (``mort`` -> mortil); None when it is no drin prefix."""
    hits = [d for d in DRINS if d.startswith(word)]
    return hits[0] if len(hits) == 1 else None


def _drin_to_global(text: str) -> str:
    def sub(m: re.Match[str]) -> str:
        drin = _drin_prefix(m.group(1))
        if drin is None:
            return m.group(0)
        fo, ro = DRINS[drin]
        return f"{FILES[fo + 'abcdef'.index(m.group(2))]}{ro + int(m.group(3))}"

    return _DRIN_SQ_RE.sub(sub, text)


def _piece_codes(word: str) -> list[str]:
    """Piece codes a word names: exact letter first, else name prefixes (plural allowed)."""
    if word in CODE_BY_LOWER:
        return [CODE_BY_LOWER[word]]
    hits = [c for c, n in CODE_NAME.items() if n.startswith(word)]
    if not hits and len(word) > 3 and word.endswith("s"):
        hits = [c for c, n in CODE_NAME.items() if n == word[:-1]]
    return hits


def _promo_match(text: str, promo: str | None) -> int | None:
    if promo is None:
        return None
    if not text:
        return 1
    low = promo.lower()
    if low == text:
        return 3
    if low.startswith(text) or CODE_NAME[promo].startswith(text):
        return 2 if CODE_NAME[promo] == text else 1
    return None


def _square_pred(sq: str, side: str | None) -> Pred:
    """Exact square: from 30 / to 20; a one-digit square also finds the squares it begins."""
    extend = len(sq) == 2 and sq[1] == "1"

    def pred(f: Feat) -> int | None:
        if side != "to" and f[2] == sq:
            return 30
        if side != "from" and f[4] == sq:
            return 20
        if extend:
            if side != "to" and f[2].startswith(sq):
                return 6
            if side != "from" and f[4].startswith(sq):
                return 5
        return None

    return pred


def _area_pred(test: Callable[[str], bool], side: str | None) -> Pred:
    def pred(f: Feat) -> int | None:
        if side != "to" and test(f[2]):
            return 4
        if side != "from" and test(f[4]):
            return 3
        return None

    return pred


def _in_drin(drin: str) -> Callable[[str], bool]:
    fo, ro = DRINS[drin]
    files = set(FILES[fo : fo + 6])

    def test(sq: str) -> bool:
        return sq[0] in files and ro < int(sq[1:]) <= ro + 6

    return test


def _piece_pred(codes: list[str], role: str | None) -> Pred:
    wanted = set(codes)

    def pred(f: Feat) -> int | None:
        if role == "victim":
            return 10 if f[7] in wanted else None
        if role == "promo":
            return 10 if f[5] in wanted else None
        if f[6] in wanted:
            return 10
        if f[5] in wanted:
            return 3
        return None

    return pred


def _frag_pred(frm: str, sep: str | None, to: str, promo: str | None) -> Pred:
    """A typed from-to fragment, matched as a prefix of the canonical move."""
    if sep in ("<", ">", "<>"):
        sep = "<>"
    elif sep in ("→", "->", "~"):
        sep = "-"
    typed = frm + (sep or "") + to + ("" if promo is None else "=" + promo)

    def pred(f: Feat) -> int | None:
        move, _, fs, fsep, ts, fpromo = f[0], f[1], f[2], f[3], f[4], f[5]
        if move.lower() == typed:
            return 1000
        if sep == "<>":
            if (
                fsep != "<>"
                or not {fs, ts} >= {frm}
                or not (ts if fs == frm else fs).startswith(to)
            ):
                return None
        else:
            if fs != frm:
                return None
            if sep == "x" and fsep != "x":
                return None
            if sep == "-" and fsep == "<>":
                return None
            if not ts.startswith(to):
                return None
        score = 300 + (100 if ts == to else 0)
        if promo is not None:
            p = _promo_match(promo, fpromo)
            if p is None:
                return None
            score += 10 * p
        return score

    return pred


def _frag_of(word: str) -> Pred | None:
    m = _FRAG_RE.fullmatch(word)
    if not m or not (m.group(2) or m.group(3) or m.group(4) is not None):
        return None
    return _frag_pred(m.group(1), m.group(2), m.group(3) or "", m.group(4))


def _compile(text: str, board_squares: bool) -> list[Pred] | None:
    """Predicates for the words of ``text``; None when some word can mean nothing."""
    if board_squares:
        text = _drin_to_global(text)
    words = _WORD_RE.findall(text)
    # merge "c3 c4" / "c3 - c4" / "c3 x d4" into one fragment
    merged: list[str] = []
    for w in words:
        if _SQUARE_RE.fullmatch(w) and merged:
            if _SQUARE_RE.fullmatch(merged[-1]):
                merged[-1] += "-" + w
                continue
            if (
                len(merged) >= 2
                and merged[-1] in ("-", "x", "→", "->", "<>")
                and _SQUARE_RE.fullmatch(merged[-2])
            ):
                sep = merged.pop()
                merged[-1] += ("-" if sep in ("→", "->") else sep) + w
                continue
        merged.append(w)
    preds: list[Pred] = []
    side: str | None = None  # "from"/"to" for the next square
    role: str | None = None  # "victim"/"promo" for the next piece
    for w in merged:
        w = w.replace("’", "'")
        if w.endswith("'s"):
            w = w[:-2]
        if w in ("to", "→", "->"):
            side = "to"
            continue
        if w == "from":
            side = "from"
            continue
        if w in CAPTURE_WORDS or (len(w) >= 3 and any(c.startswith(w) for c in CAPTURE_WORDS)):
            preds.append(lambda f: 5 if f[3] == "x" else None)
            role = "victim"
            continue
        if len(w) >= 4 and any(p.startswith(w) for p in PROMO_WORDS):
            preds.append(lambda f: 5 if f[5] is not None else None)
            role = "promo"
            continue
        if w in FLUTTER_WORDS or (len(w) >= 2 and "fluttember".startswith(w)):
            preds.append(lambda f: 5 if f[3] == "<>" else None)
            continue
        if w in FILLER:
            continue
        if w.startswith("="):
            body = w[1:]
            if body and not any(
                c.lower().startswith(body) or n.startswith(body)
                for c, n in CODE_NAME.items()
                if c != "K"
            ):
                return None
            preds.append(lambda f, body=body: _promo_match(body, f[5]))
            role = None
            continue
        if _SQUARE_RE.fullmatch(w):
            preds.append(_square_pred(w, side))
            side = None
            continue
        frag = _frag_of(w)
        if frag is not None:
            preds.append(frag)
            side = None
            continue
        alts: list[Pred] = []
        codes = _piece_codes(w)
        if codes:
            alts.append(_piece_pred(codes, role))
            role = None
        if w not in CODE_BY_LOWER:
            drin = _drin_prefix(w) if board_squares else None
            if drin is not None:
                alts.append(_area_pred(_in_drin(drin), side))
            if len(w) == 1 and w in FILES:
                alts.append(_area_pred(lambda sq, w=w: sq[0] == w, side))
        if not alts:
            return None
        side = None
        if len(alts) == 1:
            preds.append(alts[0])
        else:

            def either(f: Feat, alts: list[Pred] = alts) -> int | None:
                best = None
                for a in alts:
                    s = a(f)
                    if s is not None and (best is None or s > best):
                        best = s
                return best

            preds.append(either)
    return preds


def _features(game: JikaidaPosition, choices: Sequence[tuple[str, str]]) -> list[Feat]:
    pieces = game.piece_codes()  # square -> "YS"
    out: list[Feat] = []
    for i, (move, desc) in enumerate(choices):
        p = _parse(move)
        if p is None:
            out.append((move, desc, "", "", "", None, None, None, i))
            continue
        frm, sep, to, promo = p
        mover = pieces.get(frm)
        victim = pieces.get(to) if sep == "x" else None
        out.append((move, desc, frm, sep, to, promo, mover and mover[1:], victim and victim[1:], i))
    return out


def _run(preds: list[Pred], feats: list[Feat]) -> dict[int, int]:
    scores: dict[int, int] = {}
    for f in feats:
        total = 0
        for pred in preds:
            s = pred(f)
            if s is None:
                break
            total += s
        else:
            scores[f[8]] = total
    return scores


def search_moves(
    game: JikaidaPosition, choices: Sequence[tuple[str, str]], typed: str
) -> list[tuple[str, str]]:
    """The ``choices`` (canonical move, description) matching ``typed``, best first.

    Empty input returns every choice in the given order. Ties keep the given order.
    """
    text = " ".join(typed.lower().split())
    if not text:
        return list(choices)
    board_squares = bool(game.geo.fronts)
    feats = _features(game, choices)
    scores: dict[int, int] = {}
    preds = _compile(text, board_squares)
    if preds:
        scores = _run(preds, feats)
    # the whole input as one fragment typed with spaces ("c3 c", "c16 - c18 = p")
    compact = text.replace(" ", "")
    if compact != text or not preds:
        frag = _frag_of(_drin_to_global(text).replace(" ", "") if board_squares else compact)
        if frag is not None:
            for i, s in _run([frag], feats).items():
                if s > scores.get(i, -1):
                    scores[i] = s
    order = sorted(scores, key=lambda i: (-scores[i], i))
    return [choices[i] for i in order]
