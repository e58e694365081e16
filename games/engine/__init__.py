"""The Forty Thieves rules engine: pure Python, no Django.

>>> from games.engine import GameState
>>> game = GameState.from_code("FT1-N-0000007")
>>> game.play("s")
>>> game.view()["stock"]
63
"""

from __future__ import annotations

from .cards import format_card, parse_card
from .deal import deal_cards, format_code, parse_code
from .errors import (
    EngineError,
    IllegalMove,
    InvalidCard,
    InvalidCode,
    InvalidLayout,
    InvalidMove,
    UnknownVariant,
)
from .game import RESIGN, UNDO, UNDO_LIMIT, GameState
from .notation import Move, format_move, parse_move
from .rules import VARIANTS, RuleSet, format_variant, parse_variant

__all__ = [
    "RESIGN",
    "UNDO",
    "UNDO_LIMIT",
    "VARIANTS",
    "EngineError",
    "GameState",
    "IllegalMove",
    "InvalidCard",
    "InvalidCode",
    "InvalidLayout",
    "InvalidMove",
    "Move",
    "RuleSet",
    "UnknownVariant",
    "deal_cards",
    "format_card",
    "format_code",
    "format_move",
    "format_variant",
    "parse_card",
    "parse_code",
    "parse_move",
    "parse_variant",
]
