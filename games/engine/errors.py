"""Errors the engine raises: each a ``ValueError`` carrying a readable reason.

Every error has a stable ``code`` (for protocols and APIs) and a one-sentence
``reason`` (for people). The message of the exception is the reason itself:

>>> try:
...     raise IllegalMove("nothing goes onto an ace", "onto_ace", card="7H", onto="AS")
... except ValueError as err:
...     print(err.code, "-", err, "-", err.rule, err.params)
illegal_move - nothing goes onto an ace - onto_ace {'card': '7H', 'onto': 'AS'}

A refusal of the rules also names the ``rule`` that stands in the way (stable, like the
code) and its ``params`` (JSON-ready: cards as ``"7H"``, piles as ``{"kind": "column",
"n": 3}``), so a page can say it in the player's own language; ``reason`` stays the
English sentence for everyone else (logs, the API, a page that does not know the rule).
"""

from __future__ import annotations

from typing import Any


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""

    code = "engine_error"

    def __init__(self, reason: str, rule: str | None = None, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.params: dict[str, Any] = params
        #: Where in a replayed log the refused entry stands (0-based; ``GameState.replay``).
        self.index: int | None = None


class InvalidMove(EngineError):
    """The text is not a move in the notation (or names no pile of this layout)."""

    code = "invalid_move"


class IllegalMove(EngineError):
    """The move is well formed but the rules forbid it in this position."""

    code = "illegal_move"


class InvalidCard(EngineError):
    """The text is not a card such as ``TH`` or ``AS``."""

    code = "invalid_card"


class InvalidCode(EngineError):
    """The text is not a deal code such as ``FT1-N-7K3QX2M``."""

    code = "invalid_code"


class UnknownVariant(EngineError):
    """The variant name or one of its options is not known."""

    code = "unknown_variant"


class InvalidLayout(EngineError):
    """A layout or a dumped state does not describe a legal position of its variant."""

    code = "invalid_layout"
