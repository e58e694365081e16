"""What leaderboards does when games announces something (see ``games.signals``)."""

from __future__ import annotations

from typing import Any


def verify_when_finished(*, game_id: str, **_: Any) -> None:
    """A game finished and committed: queue its verification (the sweep catches a loss)."""
    from leaderboards.tasks import verify_game  # tasks import the services, which import apps

    verify_game.delay(game_id)


def rate_when_duel_finished(*, duel_id: str, **_: Any) -> None:
    """A duel decided and both its games over: queue its rating (it waits for both
    results to be verified; the sweep asks again until they are)."""
    from leaderboards.tasks import rate_duel

    rate_duel.delay(duel_id)
