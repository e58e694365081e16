"""Reads of leagues: members, the league boards, the compare page, the home page's summary.

A league board is the global board filtered to the league's members, from the same query
(:func:`leaderboards.boards.ranked_results`: verified ranked results, less those held for
fair-play review or disqualified) in the same order (:mod:`leaderboards.ranking`); no rule
is restated here. A league has at most ``FT_LEAGUE_MEMBERS`` members, so the filter runs
in the database on each request and needs no Redis set of its own.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections import defaultdict
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from games.arenas.models import Arena
from games.arenas.selectors import arena_lists
from games.daily import utc_today
from games.engine.ranking import competition_ranks, tie_floor
from games.errors import NotFound
from games.models import Deal, User
from games.selectors import deal_daily_for_day
from games.services import DAILY_VARIANT
from leaderboards.boards import ranked_results
from leaderboards.leagues.errors import InviteInvalid
from leaderboards.leagues.models import League, Membership
from leaderboards.models import Result
from leaderboards.scorecards import scorecard
from leaderboards.selectors import PeriodBoard, PeriodKind, Row, SortBy, period_board, week_of

#: Keeps invite tokens apart from every other HMAC of the server's secret.
INVITE_SALT = "leaderboards.leagues.invite"


@dataclass(frozen=True)
class Member:
    user_id: int
    username: str
    name: str
    is_owner: bool
    joined_at: datetime


@dataclass(frozen=True)
class LeagueDayBoard:
    league: League
    day: date
    deal: Deal | None
    rows: list[Row]
    variant: str = DAILY_VARIANT

    @property
    def revealed(self) -> bool:
        return self.deal is not None and self.deal.is_revealed


@dataclass(frozen=True)
class HomeLeague:
    """One of the player's leagues on the home page, with their place on today's board."""

    league_id: int
    name: str
    members: int
    rank: int | None  # None: no result on today's league board (yet)
    size: int  # results on today's league board


def invite_digest(token: str) -> str:
    """What is stored of an invite token (see ``League.invite_digest``)."""
    return hashlib.sha256(token.encode()).hexdigest()


def invite_token_for(nonce: str) -> str:
    """The invite token of a nonce: its HMAC under the server's secret (43 URL-safe
    characters), so the link can be shown again without being stored."""
    mac = salted_hmac(INVITE_SALT, nonce, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def invite_token(*, league: League) -> str:
    """The league's current invite token (for its owner's page)."""
    return invite_token_for(league.invite_nonce)


def league_for_invite(*, token: str) -> League:
    """The league an invite token opens (the join page's read); a stale or unknown token
    is :class:`InviteInvalid`."""
    # Looked up by the token's digest through the unique index. Comparing by index is not
    # constant-time, but what a timing difference could reveal is a prefix of a SHA-256
    # digest, which says nothing about any token; the final compare_digest is cheap belt
    # and braces against an index that matched loosely (a collation, a trailing space).
    digest = invite_digest(token or "")
    league = League.objects.filter(invite_digest=digest).first()
    if league is None or not secrets.compare_digest(league.invite_digest, digest):
        raise InviteInvalid(
            _(
                "This invite link opens no league: it may be mistyped, or the league's owner"
                " has made a new one. Ask them for the current link."
            )
        )
    return league


def member_ids(*, league: League) -> list[int]:
    return list(Membership.objects.filter(league=league).values_list("user_id", flat=True))


def league_members(*, league: League) -> list[Member]:
    """The members, oldest first (only ever shown to members: see ``access_league``)."""
    memberships = Membership.objects.filter(league=league).select_related("user")
    return [
        Member(
            user_id=m.user_id,
            username=m.user.get_username(),
            name=m.user.public_name,
            is_owner=m.user_id == league.owner_id,
            joined_at=m.joined_at,
        )
        for m in memberships
    ]


def leagues_of(*, user: User) -> list[League]:
    return list(League.objects.filter(memberships__user_id=user.pk).order_by("name", "id"))


def _to_rows(results: Any, *, me: int | None) -> list[Row]:
    results = list(results)
    ranks = competition_ranks([tie_floor(r.sort_key) for r in results])
    return [Row.of(r, rank=rank, me=me) for r, rank in zip(results, ranks, strict=True)]


def league_board_rows(
    *,
    league: League,
    day: date,
    user: User | None,
    variant: str = DAILY_VARIANT,
    weekly: bool = False,
) -> list[Row]:
    """The league's board of ``day``: members' results in board order, ranked 1..n.
    ``weekly``: of the weekly challenge whose Monday is ``day``."""
    results = (
        ranked_results(day, variant, weekly)
        .filter(player_id__in=member_ids(league=league))
        .select_related("player", "player__skill_rating")
    )
    me = user.pk if user is not None and user.is_authenticated else None
    return _to_rows(results, me=me)


def league_day_board(*, league: League, day: date, user: User | None) -> LeagueDayBoard:
    return LeagueDayBoard(
        league=league,
        day=day,
        deal=deal_daily_for_day(day=day, variant=DAILY_VARIANT),
        rows=league_board_rows(league=league, day=day, user=user),
    )


def league_weekly_board(*, league: League, monday: date, user: User | None) -> LeagueDayBoard:
    """The league's board of the weekly challenge of the week starting ``monday``."""
    week = week_of(monday=monday)
    rows = league_board_rows(
        league=league, day=monday, user=user, variant=week.variant, weekly=True
    )
    return LeagueDayBoard(
        league=league, day=monday, deal=week.deal, rows=rows, variant=week.variant
    )


def league_period_board(
    *, league: League, kind: PeriodKind, start: date | None, by: SortBy = "wins"
) -> PeriodBoard:
    """The week/month/all-time board of the league: the global one over members only."""
    return period_board(kind=kind, start=start, by=by, players=member_ids(league=league))


def league_compare(
    *, league: League, usernames: tuple[str, str], viewer: User, now: datetime | None = None
) -> list[dict[str, Any]]:
    """Two members' scorecards, side by side; a non-member's name is ``NotFound`` (the
    compare page must not become a way to look anyone up through a league)."""
    members = {m.username: m for m in league_members(league=league)}
    cards = []
    for username in usernames:
        if username not in members:
            raise NotFound(
                _("%(player)s is not a member of %(league)s.")
                % {"player": username, "league": league.name}
            )
        cards.append(scorecard(username=username, viewer=viewer, now=now))
    return cards


def leagues_for_home(*, user: User | None, now: datetime | None = None) -> list[HomeLeague]:
    """The player's leagues with their rank on each league's board today, in three queries
    (leagues, memberships, today's results) however many leagues they are in."""
    if user is None or not user.is_authenticated:
        return []
    leagues = leagues_of(user=user)
    if not leagues:
        return []
    members: dict[int, set[int]] = defaultdict(set)
    for league_id, user_id in Membership.objects.filter(league__in=leagues).values_list(
        "league_id", "user_id"
    ):
        members[league_id].add(user_id)
    everyone = set().union(*members.values())
    today = utc_today(now or timezone.now())
    ordered: list[Result] = list(
        ranked_results(today, DAILY_VARIANT)
        .filter(player_id__in=everyone)
        .only("id", "player_id", "sort_key")
    )
    out = []
    for league in leagues:
        board = [r for r in ordered if r.player_id in members[league.pk]]
        ranks = competition_ranks([tie_floor(r.sort_key) for r in board])
        rank = next((k for r, k in zip(board, ranks, strict=True) if r.player_id == user.pk), None)
        out.append(
            HomeLeague(
                league_id=league.pk,
                name=league.name,
                members=len(members[league.pk]),
                rank=rank,
                size=len(board),
            )
        )
    return out


def league_export(*, user_id: int) -> list[dict[str, Any]]:
    """The account's memberships, for "download my data"."""
    rows = Membership.objects.filter(user_id=user_id).select_related("league")
    return [
        {
            "league": m.league.name,
            "owner": m.league.owner_id == user_id,
            "joined_at": m.joined_at.isoformat(),
        }
        for m in rows
    ]


def league_arenas(*, league: League, now: datetime | None = None) -> dict[str, list[Arena]]:
    """The league's own arenas for its page: upcoming, running, finished (the latest ten
    of each)."""
    return arena_lists(now=now, limit=10, league_id=league.pk)
