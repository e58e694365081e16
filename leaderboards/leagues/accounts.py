"""What leagues do when a person deletes their account or downloads their data.

A deleted member simply leaves their leagues (the membership rows cascade). A deleted
owner's leagues are not taken from their other members: each passes to its oldest other
member (the one who has been in it longest), and only a league with no other member is
deleted. Either way the league boards the account was on are nudged after the commit.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from games.daily import utc_today
from leaderboards.leagues.broadcast import leagues_nudge
from leaderboards.leagues.models import League, Membership
from leaderboards.leagues.selectors import league_export


def leagues_on_account_delete(*, user_id: int, **_: Any) -> None:
    """Hand over or delete the leagues ``user_id`` owns (inside the deleting transaction),
    and tell the boards of every league they were in once the deletion commits."""
    league_ids = list(
        Membership.objects.filter(user_id=user_id).values_list("league_id", flat=True)
    )
    for league in League.objects.filter(owner_id=user_id).select_for_update():
        heir = (
            Membership.objects.filter(league=league)
            .exclude(user_id=user_id)
            .order_by("joined_at", "id")
            .first()
        )
        if heir is None:
            league_ids.remove(league.pk)  # before delete(), which clears the pk
            league.delete()
        else:
            League.objects.filter(pk=league.pk).update(owner_id=heir.user_id)
    if league_ids:
        today = utc_today(timezone.now())
        transaction.on_commit(lambda: leagues_nudge(league_ids=league_ids, day=today), robust=True)


def leagues_for_export(*, user_id: int, **_: Any) -> dict[str, Any]:
    return {"league_memberships": league_export(user_id=user_id)}
