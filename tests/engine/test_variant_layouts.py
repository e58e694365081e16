"""Known deals and pile names for each member of the Forty Thieves family: for seed 12345
every variant deals the shape documented in ``docs/deals.md`` (columns, face-down cards,
stock, foundations, deal code), variants sharing a deck and layout deal the same cards, and
a move naming a column or foundation the variant's layout lacks is refused as invalid
without changing the game.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.engine import GameState, InvalidMove

from .conftest import RANKS, SUITS, shown_cards


def full_deck(packs: int) -> Counter[str]:
    return Counter(r + s for r in RANKS for s in SUITS for _ in range(packs))


def cards_held(state: dict[str, Any]) -> Counter[str]:
    held = Counter(card for pile in state["columns"] for card in pile)
    held.update(state["waste"])
    held.update(state["stock"])
    held.update(
        RANKS[r] + SUITS[k % 4] for k, rank in enumerate(state["foundations"]) for r in range(rank)
    )
    return held


# Deals for seed 12345 ------------------------------------------------------

#: name, letter, packs, columns, cards per column, face down per column, stock (docs/deals.md).
DEALS = [
    ("forty-thieves", "N", 2, 10, 4, 0, 64),
    ("josephine", "J", 2, 10, 4, 0, 64),
    ("limited", "L", 2, 12, 3, 0, 68),
    ("indian", "I", 2, 10, 3, 1, 74),
    ("streets", "S", 2, 10, 4, 0, 64),
    ("sixty-thieves", "X", 3, 12, 5, 0, 96),
    ("lucas", "C", 2, 13, 3, 0, 57),
    ("maria", "M", 2, 9, 4, 0, 68),
    ("number-ten", "T", 2, 10, 4, 2, 64),
    ("rank-and-file", "R", 2, 10, 4, 3, 64),
    ("little-forty", "F", 2, 10, 4, 0, 64),
]


@pytest.mark.parametrize(
    ("name", "letter", "packs", "columns", "per_column", "down", "stock"),
    DEALS,
    ids=[deal[0] for deal in DEALS],
)
def test_seed_12345_deals_the_documented_layout(
    name: str, letter: str, packs: int, columns: int, per_column: int, down: int, stock: int
) -> None:
    game = GameState.from_seed(12345, name)
    view, state = game.view(), game.dump()

    assert game.code == f"FT1-{letter}-0000C1S"
    assert view["variant"] == name
    assert len(view["columns"]) == len(state["columns"]) == columns
    for seen, cards in zip(view["columns"], state["columns"], strict=True):
        assert len(cards) == per_column
        assert seen == {"down": down, "cards": cards[down:]}
    assert view["stock"] == len(state["stock"]) == stock
    assert view["waste"] == []
    assert (view["score"], view["moves"], view["won"], view["stuck"]) == (0, 0, False, False)
    assert view["redeals_left"] == (3 if name == "little-forty" else 0)
    assert game.legal_moves()[0] == "s"

    foundations = view["foundations"]
    assert [f["suit"] for f in foundations] == list(SUITS * packs)
    if name == "lucas":
        assert [f["top"] for f in foundations] == ["AS", "AH", "AD", "AC"] * 2
        assert [f["count"] for f in foundations] == [1] * 8
        dealt = [c for pile in state["columns"] for c in pile] + state["stock"]
        assert not [c for c in dealt if c[0] == "A"]
    else:
        assert [(f["top"], f["count"]) for f in foundations] == [(None, 0)] * (4 * packs)

    assert cards_held(state) == full_deck(packs)
    hidden = Counter(c for pile in state["columns"] for c in pile[:down]) + Counter(state["stock"])
    visible = Counter(c for pile in state["columns"] for c in pile[down:])
    assert shown_cards(game) == visible
    assert sum(hidden.values()) == stock + columns * down


def test_variants_with_the_same_deck_and_layout_deal_the_same_cards() -> None:
    """docs/deals.md: the variant does not enter the hash, only the seed does."""
    same = ["forty-thieves", "josephine", "streets", "little-forty", "number-ten", "rank-and-file"]
    deals = {name: GameState.from_seed(12345, name).dump() for name in same}
    for name in same:
        assert deals[name]["columns"] == deals["forty-thieves"]["columns"], name
        assert deals[name]["stock"] == deals["forty-thieves"]["stock"], name


def test_a_deal_code_names_the_variant_options_and_seed() -> None:
    game = GameState.from_seed(12345, "josephine+kings+redeal2")
    assert game.code == "FT1-JK2-0000C1S"
    again = GameState.from_code("FT1-JK2-0000C1S")
    assert again.dump() == game.dump()
    assert again.variant == "josephine+kings+redeal2"


# Piles a layout lacks -----------------------------------------------------------


@pytest.mark.parametrize("name", [deal[0] for deal in DEALS])
def test_a_move_naming_a_pile_the_layout_lacks_is_invalid(name: str) -> None:
    game = GameState.from_seed(12345, f"{name}+takeback")
    columns = len(game.view()["columns"])
    foundations = len(game.view()["foundations"])
    before = game.dump()
    for text in (
        f"t1-t{columns + 1}",
        f"t{columns + 1}-t1",
        f"w-t{columns + 1}",
        f"t1-f{foundations + 1}",
        f"w-f{foundations + 1}",
        f"f{foundations + 1}-t1",
        f"f1-t{columns + 1}",
    ):
        with pytest.raises(InvalidMove, match="names a pile this layout lacks"):
            game.play(text)
        assert game.dump() == before


@pytest.mark.parametrize("text", ["f9-t1", "f1-t11"])
def test_a_foundation_move_naming_a_missing_pile_is_invalid_without_takeback(text: str) -> None:
    game = GameState.from_seed(12345, "forty-thieves")
    with pytest.raises(InvalidMove, match="names a pile this layout lacks"):
        game.play(text)
