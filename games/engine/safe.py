"""Safe home moves: the one definition the solver and the "send safe cards home" option share.

A card X on top of a pile may go home *safely* when

1. every card the build rule lets go onto X (read from the rule set's own build table, so
   the rule is never restated) has all its copies home, and
2. every copy of X's predecessor (same suit, one rank lower) is home.

Aces are always safe (nothing goes onto an ace, nothing precedes it).

Why nothing is lost: by (1) nothing can ever be placed on X again (foundations give
nothing back: with foundation take-back nothing is safe, see below), so X is dead weight
in the tableau: it only covers the card beneath it and fills a column. Take any winning
line L from the position; drop from it every move of X (a run move that carried X on its
top becomes the same move one card shorter: its bottom card and destination are
unchanged) and play X home first. Every other move of L stays legal: its source and
target tops are the same (nothing is ever on X), a column that held only X is now empty
(more room, never less). On the foundations, by (2) both foundations of X's suit are at
least at X's predecessor, so the only card that could want the foundation X now takes is
the other copy of X, and it finds the suit's other foundation at X's predecessor (or it
was home already). So a win exists after the move whenever one existed before, and every
card that could ever have been built on X keeps every move it had: it is home (1).

For the waste, removing the top card changes nothing for the cards beneath it or the
stock, except the grouping of a later multi-card draw after a redeal, so a waste card
counts as safe only when the variant draws one card or no redeal is left.

With foundation take-back (the ``takeback`` option) a card of (1) could come back from a
foundation and want X, so the argument fails: nothing is safe there.

:func:`next_safe_home` is *the* next safe home move of a position, in a fixed order (the
waste, then the columns left to right; the leftmost foundation that takes the card), so the
server that plays the option and the audit that checks its log agree on every step.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING

from .cards import KING
from .errors import IllegalMove
from .notation import TO_FOUNDATION, WASTE, Move, format_move

if TYPE_CHECKING:
    from .game import GameState
    from .rules import RuleSet

#: How a move log writes an undo and a resignation (as games.engine.game does; repeated
#: here as plain strings so this module needs no import of the game module).
_UNDO, _RESIGN = "undo", "resign"


@cache
def needed_home(build: str) -> dict[int, tuple[int, ...]]:
    """``needed_home(build)[x]``: the cards whose every copy must be home before ``x``
    goes home safely (those the build rule lets go onto ``x``, and ``x``'s predecessor)."""
    from .rules import _build_table

    table = _build_table(build)
    cards = [(r << 2) | s for r in range(1, KING + 1) for s in range(4)]
    needed = {}
    for x in cards:
        onto = {c for c in cards if table[(x << 6) | c]}
        if x >> 2 > 1:
            onto.add(x - 4)
        needed[x] = tuple(sorted(onto))
    return needed


@cache
def _suit_foundations(rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(k for k in range(rules.foundations) if rules.foundation_suit(k) == s)
        for s in range(4)
    )


def home_copies(game: GameState, card: int) -> int:
    """How many copies of ``card`` are on the foundations."""
    rank, found = card >> 2, game.found
    return sum(1 for k in _suit_foundations(game.rules)[card & 3] if found[k] >= rank)


def is_safe_home(game: GameState, card: int, src: int) -> bool:
    """Whether sending ``card`` (the top of pile ``src``, 0 the waste) home loses nothing.

    It says nothing about whether the card can go home now (see :func:`next_safe_home`).
    """
    rules = game.rules
    if rules.takeback:
        return False
    if src == WASTE and rules.draw > 1 and game.redeals_left:
        return False
    decks = rules.decks
    return all(home_copies(game, c) >= decks for c in needed_home(rules.build)[card])


def next_safe_home(game: GameState) -> Move | None:
    """The position's next safe home move, or ``None``: the first pile (the waste, then
    the columns left to right) whose top card can go home now and safely, onto the
    leftmost foundation that takes it."""
    found, fsuit = game.found, game.fsuit
    suits = _suit_foundations(game.rules)
    for src, pile in enumerate(game.piles):
        if not pile:
            continue
        card = pile[-1]
        rank = card >> 2
        for k in suits[card & 3]:
            if found[k] + 1 == rank and fsuit[k] == card & 3:
                if is_safe_home(game, card, src):
                    return Move(TO_FOUNDATION, src, k, 1)
                break
    return None


def play_safe_home(game: GameState) -> Iterator[str]:
    """Play the safe home moves, one after another, until none is left (the "send safe
    cards home" option after a player's move): yields each in the notation once played,
    so the caller can read the score it left."""
    move = next_safe_home(game)
    while move is not None:
        game.play_move(move)
        yield format_move(move)
        move = next_safe_home(game)


def automatic_on_top(log: Iterable[tuple[str, bool]], *, undo_limit: int) -> int:
    """How many of the actions still standing at the end of ``log`` (``(move, automatic)``
    pairs, undos and resigns included) are automatic, counted from the last one back to
    the first that is not: what a player's undo takes back with the move they made."""
    if not undo_limit:
        return 0
    standing: deque[bool] = deque(maxlen=undo_limit)  # as the engine's history drops
    for move, automatic in log:
        if move == _UNDO:
            if standing:
                standing.pop()
        elif move != _RESIGN:
            standing.append(automatic)
    count = 0
    for automatic in reversed(standing):
        if not automatic:
            break
        count += 1
    return count


def undo_with_automatic(game: GameState, automatic: int) -> Iterator[bool]:
    """A player's undo: take back the ``automatic`` moves on top of the history and then
    the player's move beneath them, yielding after each whether it was an automatic one;
    or refuse before the first (changing nothing) when the history does not reach that
    far."""
    history = game._history
    if history is None:
        raise IllegalMove("this game has no undo", "no_undo")
    if len(history) <= automatic:
        raise IllegalMove("there is nothing to undo", "nothing_to_undo")
    for left in range(automatic, -1, -1):
        game.undo()
        yield left > 0
