"""Reads: what pages, the API and the websocket show. No writes here."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.paginator import Paginator
from django.utils import timezone

from games.access import GameAccess, access_game_role, access_game_role_read
from games.daily import utc_today
from games.engine import EngineError, format_code, parse_code
from games.models import Deal, Game, User
from games.payloads import deal_payload, game_payload
from games.weekly import week_label, week_monday

GAMES_PER_PAGE = 20


def deal_daily_for_day(*, day: date, variant: str = "forty-thieves") -> Deal | None:
    return Deal.objects.filter(kind=Deal.Kind.DAILY, day=day, variant=variant).first()


def deal_weekly_for_week(*, monday: date) -> Deal | None:
    """The weekly challenge of the ISO week starting ``monday``, if it was opened."""
    return Deal.objects.filter(kind=Deal.Kind.WEEKLY, day=monday).first()


def weekly_summary(
    *, user: User | AnonymousUser | None, now: datetime | None = None
) -> dict[str, Any]:
    """This ISO week's challenge as the home page shows it, with the player's game."""
    now = now or timezone.now()
    monday = week_monday(utc_today(now))
    deal = deal_weekly_for_week(monday=monday)
    summary: dict[str, Any] = {
        "monday": monday,
        "week": week_label(monday),
        "deal": None,
        "game": None,
    }
    if deal is None:
        return summary
    summary["deal"] = deal_payload(deal)
    summary["game"] = _ranked_game_summary(user=user, deal=deal)
    return summary


def practice_deal_by_code(*, code: str) -> dict[str, Any] | None:
    """The practice deal a code names, if it was played before (its rating, for the practice
    page); ``None`` for an unknown or malformed code, or a daily deal (never tell them apart)."""
    if not code or len(code) > 48:
        return None
    try:
        rules, seed = parse_code(code.strip())
    except EngineError:
        return None
    deal = Deal.objects.filter(kind=Deal.Kind.PRACTICE, code=format_code(rules, seed)).first()
    return deal_payload(deal) if deal is not None else None


def daily_summary(
    *, user: User | AnonymousUser | None, now: datetime | None = None
) -> dict[str, Any]:
    """Today's deal as the home page and the API show it, with the player's status."""
    now = now or timezone.now()
    deal = deal_daily_for_day(day=utc_today(now))
    summary: dict[str, Any] = {"date": utc_today(now).isoformat(), "deal": None, "game": None}
    if deal is None:
        return summary
    summary["deal"] = deal_payload(deal)
    summary["game"] = _ranked_game_summary(user=user, deal=deal)
    return summary


def _ranked_game_summary(*, user: User | AnonymousUser | None, deal: Deal) -> dict[str, Any] | None:
    """The player's ranked game of a competition deal, as the summaries show it."""
    if user is None or not user.is_authenticated:
        return None
    game = Game.objects.filter(player=user, deal=deal, mode=Game.Mode.RANKED).first()
    if game is None:
        return None
    return {"id": str(game.pk), "status": game.status, "score": game.score, "moves": game.moves}


def game_state(*, user: User | AnonymousUser | None, game_id: object) -> dict[str, Any]:
    """A game's full visible state, for its player or a permitted watcher; ``role`` says
    which (the funnel decided it: the page offers play to the player on it alone)."""
    return _state(access_game_role(user=user, game_id=game_id, purpose="watch"))


def game_state_read(*, user: User | AnonymousUser | None, game: Game | None) -> dict[str, Any]:
    """:func:`game_state` of a game row the caller read (``access.GAME_ROWS``'s columns;
    ``None``: no such game), through the same funnel."""
    return _state(access_game_role_read(user=user, game=game, purpose="watch"))


def _state(access: GameAccess) -> dict[str, Any]:
    payload = game_payload(access.game)
    payload["role"] = access.role
    return payload


def game_list_for_player(*, user: User, page: int = 1) -> dict[str, Any]:
    """The player's own games, newest first, a page at a time."""
    games = Game.objects.filter(player=user).select_related("deal").order_by("-created_at")
    paginator = Paginator(games, GAMES_PER_PAGE)
    current = paginator.get_page(page)
    return {
        "page": current.number,
        "pages": paginator.num_pages,
        "count": paginator.count,
        "games": [
            {
                "id": str(g.pk),
                "mode": g.mode,
                "status": g.status,
                "score": g.score,
                "moves": g.moves,
                "variant": g.deal.variant,
                "day": g.deal.day.isoformat() if g.deal.day else None,
                "code": g.deal.code if g.deal.is_revealed else None,
                "started_at": g.created_at.isoformat(),
                "finished_at": g.finished_at.isoformat() if g.finished_at else None,
                # An abandoned practice start: shown as such, and the player may discard it.
                "not_started": g.mode == Game.Mode.PRACTICE
                and g.status == Game.Status.ACTIVE
                and not g.version,
            }
            for g in current.object_list
        ],
    }


# API tokens ----------------------------------------------------------------
# Appended as its own section (imports included) so it merges cleanly with work above.

from games.models import ApiToken  # noqa: E402


def api_token_list(*, user: User) -> list[dict[str, Any]]:
    """The player's API tokens, newest first, without anything secret (only the prefix)."""
    return [
        {
            "id": t.pk,
            "name": t.name,
            "prefix": t.prefix,
            "created_at": t.created_at.isoformat(),
            "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None,
        }
        for t in ApiToken.objects.filter(user=user).order_by("-created_at", "-pk")
    ]


# Fair-play sightings -------------------------------------------------------
# Appended as its own section (imports included) so it merges cleanly with work above.

from datetime import timedelta  # noqa: E402

from django.conf import settings  # noqa: E402
from django.db.models import Q  # noqa: E402

from games.models import Sighting  # noqa: E402


def sightings_of(*, user_id: int) -> dict[str, list[str]]:
    """The user's own sighting digests within the retention window, by kind: what
    :func:`accounts_linked_to` and :func:`deleted_accounts_linked_to` look for in others
    (one indexed query; a caller asking both reads it once and hands it to each)."""
    cutoff = timezone.now() - timedelta(days=settings.FT_SIGHTING_DAYS)
    mine: dict[str, list[str]] = {}
    rows = Sighting.objects.filter(user_id=user_id, last_seen__gte=cutoff)
    for kind, digest in rows.values_list("kind", "digest"):
        mine.setdefault(kind, []).append(digest)
    return mine


def accounts_linked_to(
    *, user_id: int, mine: dict[str, list[str]] | None = None
) -> dict[int, set[str]]:
    """The other accounts seen on one of ``user_id``'s devices, or on one of its networks
    with the same browser, mapped to the kinds that link them (``{"device", "network"}``).

    Two indexed queries, whatever the size of the table: the user's own digests (by the
    unique user/kind/digest index), then who else has them (by the kind/digest index).
    Only sightings within the retention window count, even before the daily prune.
    """
    cutoff = timezone.now() - timedelta(days=settings.FT_SIGHTING_DAYS)
    kept = Sighting.objects.filter(last_seen__gte=cutoff)
    if mine is None:
        mine = sightings_of(user_id=user_id)
    if not mine:
        return {}
    shared = Q()
    for kind, digests in mine.items():
        shared |= Q(kind=kind, digest__in=digests)
    linked: dict[int, set[str]] = {}
    # A guest never plays a competition deal (ranked or open), so it is no one's scout;
    # its sightings are not even recorded, and any left from before are not links.
    others = kept.filter(shared).exclude(user_id=user_id).exclude(user__is_guest=True)
    for other, kind in others.values_list("user_id", "kind"):
        linked.setdefault(other, set()).add(kind)
    return linked


def deleted_accounts_linked_to(
    *, user: User, mine: dict[str, list[str]] | None = None
) -> dict[int, set[str]]:
    """Deleted accounts still kept for fair play (``games.models.DeletedAccount``) that
    share a sighting with ``user`` (``device``, ``network``, ``address``) or ``user``'s name
    (``name``): their ids, with the kinds that link them. Two indexed queries."""
    from games.models import DeletedAccount, DeletedSighting
    from games.privacy.sightings import NAME, name_digest

    now = timezone.now()
    if mine is None:
        mine = sightings_of(user_id=user.pk)
    linked: dict[int, set[str]] = {}
    if mine:
        shared = Q()
        for kind, digests in mine.items():
            shared |= Q(kind=kind, digest__in=digests)
        rows = DeletedSighting.objects.filter(shared, account__keep_until__gte=now)
        for account_id, kind in rows.values_list("account_id", "kind"):
            linked.setdefault(account_id, set()).add(kind)
    same_name = DeletedAccount.objects.filter(
        name_digest=name_digest(username=user.get_username()), keep_until__gte=now
    ).values_list("pk", flat=True)
    for account_id in same_name:
        linked.setdefault(account_id, set()).add(NAME)
    return linked
