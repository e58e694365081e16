"""The pictures of the rules page (/rules/): a deal as it opens, and one example of each way
a card moves, as positions that the board's own renderer draws (static/js/rules-pictures.js
hands them to static/js/board/render.js, the table's BoardView, as if they were games).

The deal is the engine's (a practice code anyone can play from the page). Each example is
a small position and one move; the position after it is computed here, and
tests/games/test_rules_pictures.py checks each move against the engine's classic rules, so
a picture can never show a move the table would refuse.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import GameState

#: The deal the layout's picture shows: a practice code, so the page can offer to play it.
DEAL_CODE = "FT1-N-0000007"


@dataclass(frozen=True)
class Example:
    """A position (columns bottom first, at most one foundation) and the move the picture
    shows: the exposed card of ``source`` goes to ``target`` ("t2", or "f1" for the
    foundation)."""

    columns: tuple[tuple[str, ...], ...]
    source: str
    target: str
    foundation_suit: str | None = None
    foundation_top: str | None = None


EXAMPLES: dict[str, Example] = {
    # 7♠ from the second column onto 8♠: same suit, one rank lower.
    "build": Example(columns=(("KH", "9C", "8S"), ("4D", "3C", "7S")), source="t2", target="t1"),
    # The first column is empty: any exposed card may fill it, here 5♥.
    "space": Example(columns=((), ("QC", "6D", "5H")), source="t2", target="t1"),
    # 4♥ goes home onto the hearts foundation, whose top is 3♥.
    "home": Example(
        columns=(("TS", "4H"),),
        source="t1",
        target="f1",
        foundation_suit="H",
        foundation_top="3H",
    ),
}


def _board(
    columns: list[list[str]], example: Example, foundation_top: str | None
) -> dict[str, Any]:
    """A position as the board's state carries it (games.engine.GameState.view)."""
    foundations = []
    if example.foundation_suit:
        foundations = [{"suit": example.foundation_suit, "top": foundation_top}]
    return {
        "columns": [{"down": 0, "cards": cards} for cards in columns],
        "foundations": foundations,
        "waste": [],
        "stock": 0,
    }


def example_positions(example: Example) -> dict[str, dict[str, Any]]:
    """The position before the example's move and the one after it."""
    columns = [list(cards) for cards in example.columns]
    before = _board([list(c) for c in columns], example, example.foundation_top)
    card = columns[int(example.source[1:]) - 1].pop()
    top = example.foundation_top
    if example.target.startswith("f"):
        top = card
    else:
        columns[int(example.target[1:]) - 1].append(card)
    return {"before": before, "after": _board(columns, example, top)}


def rules_pictures() -> dict[str, Any]:
    """Everything the rules page's pictures draw, ready for ``json_script``."""
    deal = GameState.from_code(DEAL_CODE).view()
    return {
        "code": DEAL_CODE,
        "deal": {key: deal[key] for key in ("columns", "foundations", "waste", "stock")},
        "examples": {name: example_positions(ex) for name, ex in EXAMPLES.items()},
    }
