"""What the server says on a board socket (a day's, a week's, a league's board): its own
kind, defined once as ``games.messages`` defines the game socket's; a ``ping`` is answered
with the game socket's ``PongMessage``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, with_config

# pydantic reads a TypedDict on Python 3.11 only from typing_extensions.
from typing_extensions import TypedDict

from games.messages import PongMessage


@with_config(ConfigDict(strict=True, extra="forbid"))
class BoardMessage(TypedDict):
    """The board changed: fetch its rows again (the result, when one result moved it)."""

    type: Literal["board"]
    result_id: int | None


# Every kind a board socket sends, by its ``type``.
BOARD_MESSAGES: dict[str, type[Any]] = {"board": BoardMessage, "pong": PongMessage}
