"""Small hand-made positions: name the cards in play, the rest go home.

``layout(columns, stock=..., waste=...)`` puts every card not named onto
the foundations (each pile built from the ace as far as the named cards
allow), so a test shows only the cards its rule is about. Cards above a
named one in its foundation pile cannot go home; ``park=N`` stacks them on
column N (kings at the bottom), else the fixture says which they are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from games.engine import Game, format_card, parse_card, parse_variant
from games.engine.cards import RANKS, SUITS, full_deck


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
def layout() -> Callable[..., Game]:
    def build(
        columns: list[list[str]],
        stock: list[str] = (),  # type: ignore[assignment]
        waste: list[str] = (),  # type: ignore[assignment]
        variant: str = "forty-thieves",
        park: int | None = None,
        **kwargs: object,
    ) -> Game:
        rules = parse_variant(variant)
        columns = columns + [[] for _ in range(rules.columns - len(columns))]
        named = [c for col in columns for c in col] + list(stock) + list(waste)
        tops = foundations_for(variant, named)
        left = leftovers(variant, named, tops)
        if left and park is None:
            raise ValueError(f"also place {' '.join(left)} (or pass park=N)")
        if left:
            columns[park - 1] = left + columns[park - 1]
        return Game.from_layout(
            columns, list(stock), variant, waste=list(waste), foundations=tops, **kwargs
        )

    return build
