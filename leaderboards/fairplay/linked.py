"""Linked accounts and scouting: who else, on the same device or the same network and
browser, had seen a deal's stock before a ranked game of it was played.

The links themselves come from ``games.selectors.accounts_linked_to`` (keyed hashes of a
device cookie and of network + user agent, see the privacy page); this module only asks
what those accounts did with the deal.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Count, Min

from games.models import Action, Game, User
from games.selectors import accounts_linked_to
from leaderboards.models import ScoutingPattern


def linked_evidence(*, player_id: int, deal_id: int, before: datetime) -> list[dict[str, Any]]:
    """Every account linked to ``player_id``, with the stock cards of deal ``deal_id`` it
    had turned before ``before`` (per game), and how often it was seen scouting.

    A linked account that turned any card is what holds a result (``turned > 0``); the
    rest is there so a reviewer sees the whole picture. Three queries, however many links.
    """
    links = accounts_linked_to(user_id=player_id)
    if not links:
        return []
    turns = (
        Action.objects.filter(
            game__deal_id=deal_id,
            game__player_id__in=links,
            move="s",
            by_system=False,
            created_at__lt=before,
        )
        .values("game_id", "game__player_id", "game__mode")
        .annotate(turned=Count("id"), first=Min("created_at"))
        .order_by("first")
    )
    games: dict[int, list[dict[str, Any]]] = {}
    for row in turns:
        games.setdefault(row["game__player_id"], []).append(
            {
                "game_id": str(row["game_id"]),
                "mode": row["game__mode"],
                "turned": row["turned"],
                "first_turn_at": row["first"].isoformat(),
            }
        )
    scouting = dict(
        ScoutingPattern.objects.filter(player_id__in=links)
        .values_list("player_id")
        .annotate(n=Count("id"))
    )
    names = dict(User.objects.filter(pk__in=links).values_list("pk", "username"))
    return [
        {
            "user_id": uid,
            "username": names.get(uid, "?"),
            "via": sorted(links[uid]),
            "games": games.get(uid, []),
            "turned": sum(g["turned"] for g in games.get(uid, [])),
            "scouting": scouting.get(uid, 0),
        }
        for uid in sorted(links)
    ]


def scouting_record(*, game: Game, turned: int, stock: int, seconds: float) -> bool:
    """Record a scouting pattern for a finished ranked game when it is one: most of the
    stock turned (``FT_SCOUT_SHARE``), then given up (resigned or lost) within
    ``FT_SCOUT_SECONDS``. Idempotent (one per game). True when recorded now."""
    from django.conf import settings

    if game.status == Game.Status.WON or stock <= 0:
        return False
    if turned < settings.FT_SCOUT_SHARE * stock or seconds > settings.FT_SCOUT_SECONDS:
        return False
    _, created = ScoutingPattern.objects.get_or_create(
        game_id=game.pk,
        defaults={
            "player_id": game.player_id,
            "deal_id": game.deal_id,
            "turned": turned,
            "stock": stock,
            "seconds": seconds,
        },
    )
    return created
