"""The move notation, shared by move logs, the websocket protocol and the API.

* ``s`` turns the stock (one card, or the variant's draw count) onto the waste.
* ``r`` turns the waste back over as the stock, where the variant allows.
* ``<src>-<dst>`` moves a card: src ``w`` (waste top), ``tN`` (top of column
  N, 1-based) or ``fK`` (top of foundation K, with take-back); dst ``tN`` or
  ``fK``. Variants that move runs append the count: ``t3-t5x3``.

A parsed move is a :class:`Move` of small ints, so the game never re-reads
text on its hot path. Piles are numbered as the game stores them: 0 is the
waste and 1..N the columns; foundations are numbered 0..F-1.

>>> parse_move("t3-f1")
Move(kind=3, src=3, dst=0, count=1)
>>> format_move(parse_move("W-T10"))
'w-t10'
>>> format_move(parse_move("t3-t5x3"))
't3-t5x3'
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import InvalidMove

DRAW, REDEAL, TO_COLUMN, TO_FOUNDATION, FROM_FOUNDATION, FOUNDATION_TO_FOUNDATION = range(6)
WASTE = 0


class Move(NamedTuple):
    """One action: ``kind`` and, for card moves, source, destination and count."""

    kind: int
    src: int = 0
    dst: int = 0
    # A move's card count reads as move.count (tuple.count, shadowed, is never used).
    count: int = 1  # type: ignore[assignment]  # shadows tuple.count on purpose


DRAW_MOVE = Move(DRAW)
REDEAL_MOVE = Move(REDEAL)

_PATTERN = re.compile(r"(w|[tf][1-9][0-9]?)-([tf][1-9][0-9]?)(?:x([1-9][0-9]{0,2}))?")
EXPECTED = (
    "expected s, r, or <from>-<to> such as t3-f1, w-t10 or t3-t5x3 (from w, tN or fN; to tN or fN)"
)
_CACHE: dict[str, Move] = {}


def parse_move(text: str) -> Move:
    """Read one move; refuses anything outside the notation with the expected form.

    Surrounding spaces and upper case are accepted; the canonical form is
    what :func:`format_move` writes.

    >>> parse_move("t0-f1")
    Traceback (most recent call last):
    ...
    games.engine.errors.InvalidMove: 't0-f1' is not a move: expected s, r, or <from>-<to> ...
    """
    try:
        move = _CACHE.get(text)
    except TypeError:  # unhashable input: refused below with a readable reason
        move = None
    if move is not None:
        return move
    if not isinstance(text, str):
        raise InvalidMove(f"a move is text in the notation, not {type(text).__name__}")
    clean = text.strip().lower()
    if clean == "s":
        move = DRAW_MOVE
    elif clean == "r":
        move = REDEAL_MOVE
    else:
        match = _PATTERN.fullmatch(clean)
        if match is None:
            # The rule "notation" with the text lets a page say it in the player's language.
            raise InvalidMove(f"{text!r} is not a move: {EXPECTED}", "notation", text=text)
        src, dst, count = match.groups()
        n = int(count) if count else 1
        if src[0] == "f" and n != 1:
            raise InvalidMove(f"{text!r}: a foundation gives up one card at a time")
        if dst[0] == "f" and n != 1:
            raise InvalidMove(
                f"{text!r}: a foundation takes one card at a time", "foundation_one_card"
            )
        if src == "w":
            kind = TO_FOUNDATION if dst[0] == "f" else TO_COLUMN
            s = WASTE
        elif src[0] == "t":
            kind = TO_FOUNDATION if dst[0] == "f" else TO_COLUMN
            s = int(src[1:])
        else:
            kind = FOUNDATION_TO_FOUNDATION if dst[0] == "f" else FROM_FOUNDATION
            s = int(src[1:]) - 1
        d = int(dst[1:]) - 1 if dst[0] == "f" else int(dst[1:])
        move = Move(kind, s, d, n)
    if len(_CACHE) < 10_000:  # the set of valid moves is small; bound it anyway
        _CACHE[text] = move
    return move


def format_move(move: Move) -> str:
    """The canonical text of a move (the inverse of :func:`parse_move`)."""
    kind, src, dst, count = move
    if kind == DRAW:
        return "s"
    if kind == REDEAL:
        return "r"
    if kind in (FROM_FOUNDATION, FOUNDATION_TO_FOUNDATION):
        source = f"f{src + 1}"
    else:
        source = "w" if src == WASTE else f"t{src}"
    target = f"f{dst + 1}" if kind in (TO_FOUNDATION, FOUNDATION_TO_FOUNDATION) else f"t{dst}"
    suffix = f"x{count}" if count > 1 else ""
    return f"{source}-{target}{suffix}"


def pile_name(src: int) -> str:
    """How messages name a pile: ``the waste`` or ``column N``."""
    return "the waste" if src == WASTE else f"column {src}"
