"""One person, one attempt: what fair play keeps of a deleted account, and the refusal of a
second ranked attempt on a device (or under a name) whose deleted account already made one.

Deleting an account removes everything that is the person's (``games.accounts.services``),
except, when the account had played a competition deal that is still open, what fair play
needs to stop the deletion from freeing that deal's attempt or hiding a scout: keyed hashes
of its name and sightings and which open deals it played (``games.models.DeletedAccount``).
It is kept until the last of those deals has closed plus ``FT_SIGHTING_DAYS`` and pruned
with the sightings. See docs/fairplay.md ("One person, one attempt") and /privacy/.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Count, Min, Q
from django.utils import timezone

from games.errors import Conflict
from games.models import (
    Action,
    Deal,
    DeletedAccount,
    DeletedPlay,
    DeletedSighting,
    Game,
    Sighting,
    User,
)
from games.privacy.sightings import DEVICE, NAME, name_digest


class AttemptUsed(Conflict):
    """A ranked start on a deal whose one attempt this person already used, under an
    account they have deleted since (same browser, or same name)."""

    code = "attempt_used"


def _open_plays(*, user: User, now: datetime) -> list[dict[str, Any]]:
    """The user's games of competition deals still open at ``now`` that count: every
    ranked game, and any game that turned a stock card. One query for the games, one for
    their counts."""
    games = list(
        Game.objects.filter(
            player=user, deal__kind__in=(Deal.Kind.DAILY, Deal.Kind.WEEKLY)
        ).select_related("deal")
    )
    games = [g for g in games if not g.deal.has_closed(now)]
    if not games:
        return []
    counts = {
        row["game_id"]: row
        for row in Action.objects.filter(game__in=games, by_system=False)
        .values("game_id")
        .annotate(
            turned=Count("id", filter=Q(move="s")),
            card_moves=Count("id", filter=~Q(move__in=("s", "undo", "resign"))),
            first_turn=Min("created_at", filter=Q(move="s")),
        )
    }
    plays = []
    for game in games:
        row: Mapping[str, Any] = counts.get(game.pk, {})
        turned = row.get("turned", 0)
        if game.mode != Game.Mode.RANKED and not turned:
            continue
        plays.append(
            {
                "deal": game.deal,
                "mode": game.mode,
                "status": game.status,
                "turned": turned,
                "card_moves": row.get("card_moves", 0),
                "started_at": game.created_at,
                "first_turn_at": row.get("first_turn"),
                "finished_at": game.finished_at,
            }
        )
    return plays


def deleted_account_keep(*, user: User, now: datetime | None = None) -> DeletedAccount | None:
    """Before ``user`` is deleted (in the deletion's transaction): keep what fair play
    needs, when the account played an open competition deal; ``None`` (nothing kept)
    otherwise. Sightings are kept only within their own retention window."""
    now = now or timezone.now()
    plays = _open_plays(user=user, now=now)
    if not plays:
        return None
    last_close = max(p["deal"].closes_at or now for p in plays)
    kept = DeletedAccount.objects.create(
        name_digest=name_digest(username=user.get_username()),
        joined_at=user.date_joined,
        deleted_at=now,
        keep_until=max(last_close, now) + timedelta(days=settings.FT_SIGHTING_DAYS),
    )
    DeletedPlay.objects.bulk_create(DeletedPlay(account=kept, **play) for play in plays)
    cutoff = now - timedelta(days=settings.FT_SIGHTING_DAYS)
    DeletedSighting.objects.bulk_create(
        DeletedSighting(account=kept, kind=kind, digest=digest, last_seen=seen)
        for kind, digest, seen in Sighting.objects.filter(
            user=user, last_seen__gte=cutoff
        ).values_list("kind", "digest", "last_seen")
    )
    return kept


def deletion_keeps(*, user: User, now: datetime | None = None) -> dict[str, Any]:
    """What deleting ``user`` now would keep for fair play, for the data download's terms:
    the open competition deals that would be kept (and until when), and of what kinds."""
    now = now or timezone.now()
    plays = _open_plays(user=user, now=now)
    until = None
    if plays:
        last_close = max(p["deal"].closes_at or now for p in plays)
        until = (max(last_close, now) + timedelta(days=settings.FT_SIGHTING_DAYS)).isoformat()
    return {
        "terms": (
            "Deleting this account removes everything above. Only if it played a daily deal"
            " or weekly challenge that is still open, fair play keeps, until the last of those"
            " deals has closed plus the sightings' days: keyed hashes (HMAC) of the username"
            " and of the browsers and networks it was seen on, and which of those deals it"
            " played and how far (cards turned, other moves, when). No name, address, browser"
            " string or move is kept. See /privacy/."
        ),
        "sighting_days": settings.FT_SIGHTING_DAYS,
        "would_keep_until": until,
        "open_deals": [
            {
                "kind": p["deal"].kind,
                "day": p["deal"].day.isoformat() if p["deal"].day else None,
                "variant": p["deal"].variant,
                "mode": p["mode"],
                "turned": p["turned"],
                "card_moves": p["card_moves"],
            }
            for p in plays
        ],
    }


def deleted_accounts_prune(*, now: datetime | None = None) -> int:
    """Delete what was kept of deleted accounts past ``keep_until``; returns how many."""
    now = now or timezone.now()
    deleted, _ = DeletedAccount.objects.filter(keep_until__lt=now).delete()
    return deleted


def ranked_attempt_check(*, user: User, deal: Deal) -> None:
    """Refuse (``attempt_used``) a new ranked attempt of ``deal`` by ``user`` when an account
    deleted since, seen on one of ``user``'s browsers or under ``user``'s name, already made
    one: deleting an account never frees its attempt, and a re-registration is never a
    fresh one. A live account on the same browser is not refused but linked (its result is
    screened, and held with the evidence; see leaderboards.fairplay.linked)."""
    from games.selectors import deleted_accounts_linked_to

    linked = deleted_accounts_linked_to(user=user)
    strong = [pk for pk, kinds in linked.items() if kinds & {DEVICE, NAME}]
    if not strong:
        return
    played = DeletedPlay.objects.filter(
        account_id__in=strong, deal=deal, mode=Game.Mode.RANKED
    ).exists()
    if played:
        raise AttemptUsed(
            "this deal's one ranked attempt was already made from this browser or under this"
            " name, by an account deleted since; you can practise it after the close"
        )
