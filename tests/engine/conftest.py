"""Small hand-made positions: name the cards in play, the rest go home.

``layout(columns, stock=..., waste=...)`` puts every card not named onto
the foundations (each pile built from the ace as far as the named cards
allow), so a test shows only the cards its rule is about. Cards above a
named one in its foundation pile cannot go home; ``park=N`` stacks them on
column N (kings at the bottom), else the fixture says which they are.

The ``test_variant_*`` modules share plain helpers, imported with ``from .conftest
import ...``: ``tableau`` and ``homes`` spell a position out in full, ``column`` and
``shown_cards`` read the player's view, and ``refuse`` checks that a move is refused with
a readable reason and leaves the game as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games.engine import GameState, IllegalMove, format_card, parse_card, parse_variant
from games.engine.cards import full_deck

# Spelled out, not imported from the engine, so known answers do not lean on it.
RANKS = "A23456789TJQK"
SUITS = "SHDC"
ALL_KINGS = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "KC"]


def foundations_for(variant: str, named: list[str]) -> list[str | None]:
    """Foundation tops that hold every card of the deck not in ``named``."""
    rules = parse_variant(variant)
    used = Counter(parse_card(c) for c in named)
    tops: list[str | None] = []
    for k in range(rules.foundations):
        suit = rules.foundation_suit(k)
        copy = k // 4  # 0 for f1-f4, 1 for f5-f8, 2 for f9-f12
        rank = 0
        while rank < 13 and used[((rank + 1) << 2) | suit] <= rules.decks - 1 - copy:
            rank += 1
        tops.append(f"{RANKS[rank - 1]}{SUITS[suit]}" if rank else None)
    return tops


def leftovers(variant: str, named: list[str], tops: list[str | None]) -> list[str]:
    """Cards neither named nor on the foundations, kings first."""
    rules = parse_variant(variant)
    missing = Counter(full_deck(decks=rules.decks))
    missing.subtract(parse_card(c) for c in named)
    for k, top in enumerate(tops):
        rank = parse_card(top) >> 2 if top else 0
        missing.subtract(((r << 2) | rules.foundation_suit(k)) for r in range(1, rank + 1))
    cards = sorted(missing.elements(), key=lambda c: (-(c >> 2), c & 3))
    return [format_card(c) for c in cards]


@pytest.fixture
def layout() -> Callable[..., GameState]:
    def build(
        columns: list[list[str]],
        stock: list[str] = (),  # type: ignore[assignment]
        waste: list[str] = (),  # type: ignore[assignment]
        variant: str = "forty-thieves",
        park: int | None = None,
        **kwargs: object,
    ) -> GameState:
        rules = parse_variant(variant)
        columns = columns + [[] for _ in range(rules.columns - len(columns))]
        named = [c for col in columns for c in col] + list(stock) + list(waste)
        tops = foundations_for(variant, named)
        left = leftovers(variant, named, tops)
        if left and park is None:
            raise ValueError(f"also place {' '.join(left)} (or pass park=N)")
        if left:
            columns[park - 1] = left + columns[park - 1]
        return GameState.from_layout(
            columns, list(stock), variant, waste=list(waste), foundations=tops, **kwargs
        )

    return build


# Helpers for the test_variant_* modules -------------------------------------


def tableau(columns: int, *piles: list[str]) -> list[list[str]]:
    """``piles`` as columns 1, 2, ... (bottom to top), the rest of ``columns`` empty."""
    return [list(pile) for pile in piles] + [[] for _ in range(columns - len(piles))]


def homes(**tops: str | None) -> list[str | None]:
    """Eight complete foundations except those named, e.g. ``homes(f8="9C")``."""
    found: list[str | None] = list(ALL_KINGS)
    for name, top in tops.items():
        found[int(name[1:]) - 1] = top
    return found


def column(game: GameState, number: int) -> dict[str, Any]:
    return game.view()["columns"][number - 1]


def shown_cards(game: GameState) -> Counter[str]:
    """Every card the player's view shows in the columns and on the waste."""
    view = game.view()
    shown = Counter(card for pile in view["columns"] for card in pile["cards"])
    shown.update(view["waste"])
    return shown


def refuse(game: GameState, move: str, reason: str) -> IllegalMove:
    """``move`` is refused as illegal with ``reason`` in its one-sentence message,
    and the game is exactly as before."""
    before = game.dump()
    with pytest.raises(IllegalMove) as info:
        game.play(move)
    message = str(info.value)
    assert reason in message
    assert info.value.reason == message
    assert "\n" not in message
    assert game.dump() == before
    return info.value
