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


def arena_verdicts_of(*, game_ids: list[str], **_: Any) -> dict[str, str]:
    """The decided verification verdicts of arena games (``arena_verdicts_wanted``): a
    verified result counts unless it is held for review (it waits) or disqualified (it
    counts as rejected)."""
    from leaderboards.models import Result  # the receivers load with the app registry

    verdicts: dict[str, str] = {}
    rows = Result.objects.filter(game_id__in=game_ids).values_list("game_id", "status", "review")
    for game_id, status, review in rows:
        if status == Result.Status.REJECTED or review == Result.Review.DISQUALIFIED:
            verdicts[str(game_id)] = "rejected"
        elif status == Result.Status.VERIFIED and review != Result.Review.HELD:
            verdicts[str(game_id)] = "verified"
    return verdicts


def arena_league_of(*, league_id: int, user_ids: list[int], **_: Any) -> dict[str, Any] | None:
    """A league's arena asks about its league (``arena_league_wanted``): its name and which
    of ``user_ids`` are its members; ``None`` for no such league."""
    from leaderboards.leagues.models import League, Membership

    name = League.objects.filter(pk=league_id).values_list("name", flat=True).first()
    if name is None:
        return None
    members = Membership.objects.filter(league_id=league_id, user_id__in=user_ids)
    return {"name": name, "members": list(members.values_list("user_id", flat=True))}
