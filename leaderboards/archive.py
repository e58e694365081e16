"""Reads for the archive: a calendar of past days, each closed daily deal with the player's
own results (ranked and archive), its winners' count, its difficulty and its solution link.

An archive game (``Game.Mode.ARCHIVE``) is unranked: its result is never on a board, so the
winners' count reads only verified, on-board ranked wins of the day (the day's board).
"""

from __future__ import annotations

import calendar as pycalendar
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.db.models import Count
from django.utils import timezone

from games import dates
from games.daily import utc_today
from games.models import Deal, Game, User
from games.services import DAILY_VARIANT
from leaderboards.models import Result
from leaderboards.placement import daily_results_on_board


@dataclass(frozen=True)
class ArchiveDay:
    """One day of the archive's calendar; ``deal`` is ``None`` on a day without one."""

    day: date
    deal: Deal | None = None
    closed: bool = False  # the deal may be played from the archive
    winners: int = 0  # verified ranked wins on the day's board
    ranked: str = ""  # the player's ranked outcome ("won", "lost", "resigned") or ""
    archive_games: int = 0  # the player's verified archive games of the deal
    archive_won: bool = False  # whether one of them was won
    archive_active: str = ""  # the id of an unfinished archive game to continue

    @property
    def played(self) -> bool:
        return bool(self.ranked or self.archive_games)


@dataclass(frozen=True)
class ArchiveMonth:
    month: date  # its first day
    weeks: list[list[ArchiveDay | None]] = field(default_factory=list)  # Monday first
    previous: date | None = None
    following: date | None = None

    @property
    def days(self) -> list[ArchiveDay]:
        return [d for week in self.weeks for d in week if d is not None]

    @property
    def weekdays(self) -> list[date]:
        """Monday to Sunday of the month's first week: the calendar's column heads (the
        template names them in the reader's language)."""
        monday = self.month - timedelta(days=self.month.weekday())
        return [monday + timedelta(days=n) for n in range(7)]

    @property
    def any_closed(self) -> bool:
        return any(d.closed for d in self.days)


def archive_month(*, month: date, user: User | None, now: datetime | None = None) -> ArchiveMonth:
    """The calendar of ``month`` (any day of it) up to today: per day the closed daily deal,
    its winners' count and the player's results. Four queries, whatever the month holds."""
    now = now or timezone.now()
    today = utc_today(now)
    first = month.replace(day=1)
    last = date(first.year, first.month, pycalendar.monthrange(first.year, first.month)[1])
    deals = {
        d.day: d
        for d in Deal.objects.filter(
            kind=Deal.Kind.DAILY, variant=DAILY_VARIANT, day__gte=first, day__lte=last
        )
    }
    # The ``archive_winners`` index holds exactly these wins, so the count reads the
    # month's winners, never every result of history.
    board = (
        daily_results_on_board(variant=DAILY_VARIANT)
        .filter(day__gte=first, day__lte=last, won=True)
        .values("day")
        .annotate(n=Count("id"))
    )
    winners = {row["day"]: row["n"] for row in board}
    mine = _player_results(user, [d.pk for d in deals.values()])
    weeks: list[list[ArchiveDay | None]] = []
    for week in pycalendar.Calendar(firstweekday=0).monthdatescalendar(first.year, first.month):
        row: list[ArchiveDay | None] = []
        for day in week:
            if day.month != first.month or day > today:
                row.append(None)
                continue
            deal = deals.get(day)
            if deal is None:
                row.append(ArchiveDay(day=day))
                continue
            closed = deal.has_closed(now)
            row.append(
                ArchiveDay(
                    day=day,
                    deal=deal,
                    closed=closed,
                    # Before the close the day's board is still filling: no count yet.
                    winners=winners.get(day, 0) if closed else 0,
                    **mine.get(deal.pk, {}),
                )
            )
        weeks.append(row)
    earliest = (
        Deal.objects.filter(kind=Deal.Kind.DAILY)
        .order_by("day")
        .values_list("day", flat=True)
        .first()
    )
    previous = _month_before(first)
    following = _month_after(first)
    return ArchiveMonth(
        month=first,
        weeks=weeks,
        previous=previous if earliest is not None and earliest < first else None,
        following=following if following <= today else None,
    )


def _player_results(user: User | None, deal_ids: list[int]) -> dict[int, dict]:
    """Per deal, the player's ranked outcome and archive games (verified results, and an
    unfinished archive game to continue)."""
    if user is None or not user.is_authenticated or not deal_ids:
        return {}
    out: dict[int, dict] = {}
    results = Result.objects.filter(
        player=user, deal_id__in=deal_ids, status=Result.Status.VERIFIED
    ).values_list("deal_id", "ranked", "outcome", "won", "game__mode")
    for deal_id, ranked, outcome, won, mode in results:
        entry = out.setdefault(deal_id, {})
        if ranked:
            entry["ranked"] = outcome
        elif mode == Game.Mode.ARCHIVE:
            entry["archive_games"] = entry.get("archive_games", 0) + 1
            entry["archive_won"] = entry.get("archive_won", False) or won
    active = Game.objects.filter(
        player=user, deal_id__in=deal_ids, mode=Game.Mode.ARCHIVE, status=Game.Status.ACTIVE
    ).values_list("deal_id", "id")
    for deal_id, game_id in active:
        out.setdefault(deal_id, {})["archive_active"] = str(game_id)
    return out


def _month_before(first: date) -> date:
    return date(first.year - 1, 12, 1) if first.month == 1 else date(first.year, first.month - 1, 1)


def _month_after(first: date) -> date:
    return date(first.year + 1, 1, 1) if first.month == 12 else date(first.year, first.month + 1, 1)


def parse_month(text: str) -> date | None:
    """``2026-11`` as the first of that month (:func:`games.dates.parse_month`)."""
    return dates.parse_month(text)
