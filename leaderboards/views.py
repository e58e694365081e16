"""Thin leaderboard pages: parse the URL, call one selector, render.

Boards are public. A bad or future date is a 404, never a server error.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.daily import utc_today
from games.dates import FIRST_DAY, parse_day, parse_month, parse_week
from games.models import Deal, User
from games.privacy.sightings import request_address
from games.responses import with_retry_after
from games.selectors import deal_daily_for_day
from games.services import DAILY_VARIANT
from games.throttles import RateLimited, throttle_check, who
from games.weekly import ONE_WEEK, week_label, week_monday
from leaderboards import selectors
from leaderboards.archive import archive_month
from leaderboards.dayfiles import day_file_of
from leaderboards.rating.board import rating_board_page


def _today() -> date:
    return utc_today(timezone.now())


def _day_or_404(text: str) -> date:
    day = parse_day(text, today=_today())
    if day is None:
        raise Http404("no board for that date")
    return day


def _user(request: HttpRequest) -> User | None:
    return request.user if request.user.is_authenticated else None


# Daily boards ----------------------------------------------------------------------------


@require_GET
def daily_today(request: HttpRequest) -> HttpResponse:
    return _daily_page(request, _today())


@require_GET
def daily(request: HttpRequest, day: str) -> HttpResponse:
    return _daily_page(request, _day_or_404(day))


def _daily_page(request: HttpRequest, day: date) -> HttpResponse:
    today = _today()
    board = selectors.board_for_day(day=day, variant=DAILY_VARIANT, user=_user(request))
    # Live while results can still arrive: today, and yesterday until its deal is revealed
    # (a game finished just before midnight may be verified after it).
    live = day == today or (day == today - timedelta(days=1) and not board.revealed)
    return render(
        request,
        "leaderboards/daily.html",
        {
            "board": board,
            "live": live,
            "is_today": day == today,
            "previous_day": day - timedelta(days=1) if day > FIRST_DAY else None,
            "next_day": day + timedelta(days=1) if day < today else None,
        },
    )


@never_cache
@require_GET
def daily_rows(request: HttpRequest, day: str) -> HttpResponse:
    """The board's ``<tbody>`` alone: what the live page swaps in after a change."""
    board_day = _day_or_404(day)
    rows = selectors.board_rows(day=board_day, variant=DAILY_VARIANT, user=_user(request))
    return render(
        request, "leaderboards/_rows.html", {"rows": rows, "revealed": _revealed(board_day)}
    )


@never_cache
@require_GET
def daily_position(request: HttpRequest, day: str) -> HttpResponse:
    """The "Your position" block alone (per player, so apart from the shared rows)."""
    board_day = _day_or_404(day)
    position = selectors.board_rank_of(day=board_day, variant=DAILY_VARIANT, user=_user(request))
    return render(
        request,
        "leaderboards/_position.html",
        {"position": position, "revealed": _revealed(board_day)},
    )


def _revealed(day: date) -> bool:
    deal = deal_daily_for_day(day=day, variant=DAILY_VARIANT)
    return deal is not None and deal.is_revealed


# The weekly challenge's boards -------------------------------------------------------------


def _week_or_404(text: str) -> date:
    monday = parse_week(text, today=_today())
    if monday is None:
        raise Http404("no weekly board for that week")
    return monday


@require_GET
def weekly_current(request: HttpRequest) -> HttpResponse:
    return redirect("leaderboards:weekly", week_label(week_monday(_today())))


@require_GET
def weekly(request: HttpRequest, week: str) -> HttpResponse:
    """A week's board of the weekly challenge; any other spelling of the week redirects."""
    monday = _week_or_404(week)
    if week != week_label(monday):
        return redirect("leaderboards:weekly", week_label(monday))
    this_week = week_monday(_today())
    board = selectors.board_for_day(
        day=monday,
        variant=selectors.week_of(monday=monday).variant,
        user=_user(request),
        weekly=True,
    )
    # Live while results can still arrive: this week, and last week until it is revealed.
    live = monday == this_week or (monday == this_week - ONE_WEEK and not board.revealed)
    return render(
        request,
        "leaderboards/weekly.html",
        {
            "board": board,
            "week": week_label(monday),
            "live": live,
            "is_current": monday == this_week,
            "previous_week": week_label(monday - ONE_WEEK) if monday > FIRST_DAY else None,
            "next_week": week_label(monday + ONE_WEEK) if monday < this_week else None,
        },
    )


@never_cache
@require_GET
def weekly_rows(request: HttpRequest, week: str) -> HttpResponse:
    """The week's board ``<tbody>`` alone, for the live page."""
    the_week = selectors.week_of(monday=_week_or_404(week))
    rows = selectors.board_rows(
        day=the_week.monday, variant=the_week.variant, user=_user(request), weekly=True
    )
    return render(request, "leaderboards/_rows.html", {"rows": rows, "revealed": the_week.revealed})


@never_cache
@require_GET
def weekly_position(request: HttpRequest, week: str) -> HttpResponse:
    the_week = selectors.week_of(monday=_week_or_404(week))
    position = selectors.board_rank_of(
        day=the_week.monday, variant=the_week.variant, user=_user(request), weekly=True
    )
    return render(
        request,
        "leaderboards/_position.html",
        {"position": position, "revealed": the_week.revealed},
    )


# Day files: a closed deal's ranked games, for anyone to re-check --------------------------


@require_GET
def daily_games(request: HttpRequest, day: str) -> HttpResponse:
    board_day = _day_or_404(day)
    return _day_file(request, deal_daily_for_day(day=board_day, variant=DAILY_VARIANT))


@require_GET
def weekly_games(request: HttpRequest, week: str) -> HttpResponse:
    return _day_file(request, selectors.week_of(monday=_week_or_404(week)).deal)


def _day_file(request: HttpRequest, deal: Deal | None) -> HttpResponse:
    """The file (gzip when the client takes it), 304 for a copy the client holds, 404 while
    the deal is open, 429 past ``FT_RATE_DAY_FILES`` per address."""
    try:
        throttle_check(
            name="day_files",
            rate=settings.FT_RATE_DAY_FILES,
            ident=who(address=request_address(request=request)),
            what="day file downloads",
        )
    except RateLimited as err:
        refusal = {"code": err.code, "reason": err.reason, "retry_after": err.retry_after}
        return with_retry_after(JsonResponse(refusal, status=429), err.retry_after)
    answer = day_file_of(deal=deal)
    if answer.pending:
        reason = "the day's file is being prepared; try again in a moment"
        refusal = {"code": "day_file_pending", "reason": reason, "retry_after": answer.retry_after}
        return with_retry_after(JsonResponse(refusal, status=503), answer.retry_after)
    found = answer.file
    if found is None:
        reason = "a day's games are published once its deal has closed"
        return JsonResponse({"code": "not_found", "reason": reason}, status=404)
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "")
    held = request.headers.get("If-None-Match", "")
    response = (
        HttpResponse(status=304)
        if found.etag in held
        else HttpResponse(found.gzipped if gzipped else found.body, "application/json")
    )
    if gzipped and response.status_code == 200:
        response["Content-Encoding"] = "gzip"
    response["ETag"], response["Vary"] = found.etag, "Accept-Encoding"
    response["Cache-Control"] = "public, max-age=300"
    response["Content-Disposition"] = f'inline; filename="{found.filename}"'
    return response


# The archive ------------------------------------------------------------------------------


@require_GET
def archive(request: HttpRequest, month: str | None = None) -> HttpResponse:
    """The archive: a month's calendar of closed daily deals to play again (unranked)."""
    # By default the month of the latest closed day (yesterday's): on the 1st, today's
    # month has no closed deal yet and would show an empty calendar.
    latest_closed = _today() - timedelta(days=1)
    first = latest_closed.replace(day=1) if month is None else parse_month(month, today=_today())
    if first is None:
        raise Http404("no archive for that month")
    data = archive_month(month=first, user=_user(request))
    return render(request, "leaderboards/archive.html", {"archive": data})


# Period boards ---------------------------------------------------------------------------


@require_GET
def period(request: HttpRequest, kind: selectors.PeriodKind) -> HttpResponse:
    by = request.GET.get("by", "wins")
    if by not in selectors.SORTS:
        raise Http404("unknown order")
    today = _today()
    start = today
    if kind != "all" and "start" in request.GET:
        start = _day_or_404(request.GET["start"])
    board = selectors.period_board(kind=kind, start=start, by=by)
    previous, following = board.period.previous(), board.period.following(today=today)
    return render(
        request,
        "leaderboards/period.html",
        {
            "board": board,
            "kind": kind,
            "sorts": selectors.SORTS,
            "min_games": selectors.MIN_GAMES_FOR_RATE,
            "last_day": board.period.end - timedelta(days=1) if board.period.end else None,
            "iso_week": board.period.start.isocalendar() if board.period.start else None,
            "previous": previous,
            "following": following,
            "is_current": board.period.end is None or board.period.end > today,
        },
    )


# The rating board -----------------------------------------------------------------------


def page_number(request: HttpRequest) -> int:
    """``?page=`` as a number from 1; anything else is a 404 (as a page past the last)."""
    text = request.GET.get("page", "1")
    if not text.isdigit() or len(text) > 6:
        raise Http404("no such page")
    return int(text)


@require_GET
def rating(request: HttpRequest) -> HttpResponse:
    """Every rated player, best first, a hundred a page, and the viewer's own place."""
    board = rating_board_page(page=page_number(request), user=_user(request))
    if board is None:
        raise Http404("no such page")
    return render(request, "leaderboards/rating.html", {"board": board})
