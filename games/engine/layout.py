"""Checks of a hand-made layout (``GameState.from_layout``): what a caller gives must make
the variant's full decks, each card once, with every column's top card face up."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import TYPE_CHECKING

from .cards import KING, format_card, full_deck, parse_card
from .errors import InvalidLayout
from .rules import RuleSet

if TYPE_CHECKING:
    from .game import GameState


def foundation_rank(rules: RuleSet, k: int, top: str | None) -> int:
    if top is None or top == "":
        return 0
    card = parse_card(top)
    if card & 3 != rules.foundation_suit(k):
        raise InvalidLayout(f"foundation f{k + 1} takes {'SHDC'[k % 4]} only, not {top}")
    return card >> 2


@cache
def _sorted_deck(decks: int) -> list[int]:
    """``decks`` full packs, sorted (compared, never changed)."""
    return sorted(full_deck(decks=decks))


def check_layout(game: GameState) -> None:
    """Every card of the variant's deck is somewhere, each copy exactly once."""
    rules = game.rules
    if len(game.found) != rules.foundations:
        raise InvalidLayout(f"{rules.name} has {rules.foundations} foundations")
    if any(not 0 <= r <= KING for r in game.found):
        raise InvalidLayout("a foundation holds from 0 to 13 cards")
    if len(game.piles) != rules.columns + 1:
        raise InvalidLayout(f"{rules.name} has {rules.columns} columns")
    cards = [c for pile in game.piles for c in pile]
    cards += game.stock
    for k, rank in enumerate(game.found):
        cards.extend((r << 2) | game.fsuit[k] for r in range(1, rank + 1))
    # Sorted lists, not Counters, when the layout is right: every deal (a socket's first
    # hello after a start replays its game) checks its layout.
    cards.sort()
    if cards != _sorted_deck(rules.decks):
        held, expected = Counter(cards), Counter(full_deck(decks=rules.decks))
        missing = sorted((expected - held).elements())
        extra = sorted((held - expected).elements())
        parts = []
        if missing:
            parts.append("missing " + " ".join(format_card(c) for c in missing[:8]))
        if extra:
            parts.append("too many " + " ".join(format_card(c) for c in extra[:8]))
        raise InvalidLayout(f"the cards do not make {rules.decks} full decks: {'; '.join(parts)}")
    for i, pile in enumerate(game.piles[1:], start=1):
        if not 0 <= game.down[i] <= max(len(pile) - 1, 0):
            raise InvalidLayout(f"column {i}: its top card must be face up")
