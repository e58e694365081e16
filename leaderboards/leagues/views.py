"""Thin league pages: parse, call one service or selector, render.

Every page needs a signed-in member (``access_league``: anyone else gets a 404, so a
league's existence does not leak); the owner's actions answer 403 to other members.
Every form POSTs (CSRF-protected by Django's middleware) and is counted against
``FT_RATE_LEAGUE_ACTIONS`` per user. A refusal is its status page with the reason,
never a server error. The invite page joins only on POST: a GET, which link previews and
prefetchers make on their own, only shows the league's name and a Join button.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, timedelta
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.access import account_view, signed_in
from games.daily import utc_today
from games.dates import FIRST_DAY, parse_day, parse_week
from games.errors import ServiceError
from games.responses import refusal_page
from games.throttles import throttle_check, who
from games.weekly import ONE_WEEK, week_label, week_monday
from leaderboards import selectors as board_selectors
from leaderboards import views as board_views
from leaderboards.leagues import selectors, services
from leaderboards.leagues.access import Purpose, access_league, is_member, may_manage
from leaderboards.leagues.errors import ArenaBounds
from leaderboards.leagues.forms import LeagueArenaForm
from leaderboards.leagues.models import League
from leaderboards.rating.board import rating_board_page

View = Callable[..., HttpResponse]


def _refusals(view: View) -> View:
    """A service's refusal as its status page (429 with ``Retry-After`` when throttled)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except ServiceError as err:
            return refusal_page(request, err, template="leaderboards/leagues/refused.html")

    return wrapped


def _count(request: HttpRequest, action: str) -> None:
    throttle_check(
        name=f"league_{action}",
        rate=settings.FT_RATE_LEAGUE_ACTIONS,
        ident=who(user_id=signed_in(request.user).pk),
        what=_("league actions"),
    )


def _today() -> date:
    return utc_today(timezone.now())


def _league(request: HttpRequest, league_id: int, purpose: Purpose = "view") -> League:
    return access_league(user=signed_in(request.user), league_id=league_id, purpose=purpose)


# Leagues and membership ------------------------------------------------------------------


@account_view
@require_GET
def league_index(request: HttpRequest) -> HttpResponse:
    leagues = selectors.leagues_for_home(user=signed_in(request.user))
    limit = settings.FT_LEAGUES_PER_PLAYER
    return render(request, "leaderboards/leagues/index.html", {"leagues": leagues, "limit": limit})


@account_view
@require_POST
@_refusals
def league_create(request: HttpRequest) -> HttpResponse:
    _count(request, "create")
    league = services.league_create(user=signed_in(request.user), name=request.POST.get("name", ""))
    messages.success(request, _("Your league is ready: share its invite link."))
    return redirect("leaderboards:league", league.pk)


@never_cache
@account_view
@require_GET
@_refusals
def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    return _detail(request, _league(request, league_id))


def _detail(
    request: HttpRequest, league: League, form: LeagueArenaForm | None = None, status: int = 200
) -> HttpResponse:
    """The league's page; ``form``: the owner's arena form with its errors (a 400)."""
    is_owner = may_manage(user=request.user, league=league)
    invite = None
    if is_owner:
        token = selectors.invite_token(league=league)
        invite = request.build_absolute_uri(reverse("leaderboards:league_join", args=[token]))
    members = selectors.league_members(league=league)
    context = {
        "league": league,
        "members": members,
        "invite": invite,
        "is_owner": is_owner,
        "arenas": selectors.league_arenas(league=league),
        "arena_form": (form or LeagueArenaForm()) if is_owner else None,
        "arena_bounds": services.arena_bounds_shown(),
    }
    return render(request, "leaderboards/leagues/detail.html", context, status=status)


@account_view
@require_POST
@_refusals
def league_arena_create(request: HttpRequest, league_id: int) -> HttpResponse:
    """The owner makes one of the league's arenas; a field out of bounds is the page again
    with the form's errors (400), any other refusal its status page."""
    _count(request, "arena")
    league = _league(request, league_id, "manage")
    form = LeagueArenaForm(request.POST)
    if not form.is_valid():
        return _detail(request, league, form, status=400)
    try:
        arena = services.league_arena_create(
            user=signed_in(request.user), league_id=league.pk, **form.cleaned_data
        )
    except ArenaBounds as err:
        form.add_error(None, err.reason)
        return _detail(request, league, form, status=400)
    messages.success(request, _("The arena is made: the league's members can join it now."))
    return redirect("arena", arena_id=arena.pk)


@never_cache
@account_view
@require_http_methods(["GET", "POST"])
@_refusals
def league_join(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "GET":
        # Counted apart from the joins: opening a link again must not use up a join.
        _count(request, "invite")
        league = selectors.league_for_invite(token=token)
        if is_member(
            league_id=league.pk, user_id=signed_in(request.user).pk
        ):  # a member opening it again
            return redirect("leaderboards:league", league.pk)
        return render(request, "leaderboards/leagues/join.html", {"league": league, "token": token})
    _count(request, "join")
    league = services.league_join(user=signed_in(request.user), token=token)
    messages.success(request, _("You are a member of %(name)s.") % {"name": league.name})
    return redirect("leaderboards:league", league.pk)


@account_view
@require_POST
@_refusals
def league_leave(request: HttpRequest, league_id: int) -> HttpResponse:
    _count(request, "leave")
    league = services.league_leave(user=signed_in(request.user), league_id=league_id)
    messages.success(request, _("You have left %(name)s.") % {"name": league.name})
    return redirect("leaderboards:leagues")


@account_view
@require_POST
@_refusals
def league_member_remove(request: HttpRequest, league_id: int, member_id: int) -> HttpResponse:
    _count(request, "remove")
    services.league_member_remove(
        user=signed_in(request.user), league_id=league_id, member_id=member_id
    )
    messages.success(request, _("The member is removed from the league."))
    return redirect("leaderboards:league", league_id)


@account_view
@require_POST
@_refusals
def league_invite_rotate(request: HttpRequest, league_id: int) -> HttpResponse:
    _count(request, "rotate")
    league = services.league_invite_rotate(user=signed_in(request.user), league_id=league_id)
    messages.success(request, _("A new invite link is made; the old one no longer works."))
    return redirect("leaderboards:league", league.pk)


@account_view
@require_POST
@_refusals
def league_delete(request: HttpRequest, league_id: int) -> HttpResponse:
    _count(request, "delete")
    name = services.league_delete(user=signed_in(request.user), league_id=league_id)
    messages.success(request, _("The league %(name)s is deleted.") % {"name": name})
    return redirect("leaderboards:leagues")


# Boards ----------------------------------------------------------------------------------


def _day(text: str | None) -> date:
    day = _today() if text is None else parse_day(text, today=_today())
    if day is None:
        raise Http404("no board for that date")
    return day


@never_cache
@account_view
@require_GET
@_refusals
def league_daily(request: HttpRequest, league_id: int, day: str | None = None) -> HttpResponse:
    league, board_day, today = _league(request, league_id), _day(day), _today()
    board = selectors.league_day_board(league=league, day=board_day, user=signed_in(request.user))
    live = board_day == today or (board_day == today - timedelta(days=1) and not board.revealed)
    previous = board_day - timedelta(days=1) if board_day > FIRST_DAY else None
    following = board_day + timedelta(days=1)
    context = {
        "league": league,
        "board": board,
        "live": live,
        "is_today": board_day == today,
        "previous_day": previous,
        "next_day": following if board_day < today else None,
    }
    return render(request, "leaderboards/leagues/daily.html", context)


@never_cache
@account_view
@require_GET
@_refusals
def league_daily_rows(request: HttpRequest, league_id: int, day: str) -> HttpResponse:
    """The board's ``<tbody>`` alone, for the live page (board-live.js) to swap in."""
    board = selectors.league_day_board(
        league=_league(request, league_id), day=_day(day), user=signed_in(request.user)
    )
    return render(
        request, "leaderboards/_rows.html", {"rows": board.rows, "revealed": board.revealed}
    )


@never_cache
@account_view
@require_GET
@_refusals
def league_weekly(request: HttpRequest, league_id: int, week: str | None = None) -> HttpResponse:
    """The league's board of a week's challenge; another spelling of the week redirects."""
    league, this_week = _league(request, league_id), week_monday(_today())
    monday = this_week if week is None else parse_week(week, today=_today())
    if monday is None:
        raise Http404("no weekly board for that week")
    if week is not None and week != week_label(monday):
        return redirect("leaderboards:league_weekly", league.pk, week_label(monday))
    board = selectors.league_weekly_board(
        league=league, monday=monday, user=signed_in(request.user)
    )
    context = {
        "league": league,
        "board": board,
        "week": week_label(monday),
        "is_current": monday == this_week,
        "previous_week": week_label(monday - ONE_WEEK) if monday > FIRST_DAY else None,
        "next_week": week_label(monday + ONE_WEEK) if monday < this_week else None,
    }
    return render(request, "leaderboards/leagues/weekly.html", context)


@never_cache
@account_view
@require_GET
@_refusals
def league_period(
    request: HttpRequest, league_id: int, kind: board_selectors.PeriodKind
) -> HttpResponse:
    league, by = _league(request, league_id), request.GET.get("by", "wins")
    if by not in board_selectors.SORTS:
        raise Http404("unknown order")
    start = _day(request.GET["start"]) if kind != "all" and "start" in request.GET else _today()
    board = selectors.league_period_board(league=league, kind=kind, start=start, by=by)
    context = {
        "league": league,
        "board": board,
        "kind": kind,
        "sorts": board_selectors.SORTS,
        "min_games": board_selectors.MIN_GAMES_FOR_RATE,
        "previous": board.period.previous(),
        "following": board.period.following(today=_today()),
    }
    return render(request, "leaderboards/leagues/period.html", context)


@never_cache
@account_view
@require_GET
@_refusals
def league_rating(request: HttpRequest, league_id: int) -> HttpResponse:
    """The rating board of the league's members (the site's, narrowed to them)."""
    league = _league(request, league_id)
    board = rating_board_page(
        page=board_views.page_number(request),
        user=signed_in(request.user),
        user_ids=selectors.member_ids(league=league),
    )
    if board is None:
        raise Http404("no such page")
    return render(request, "leaderboards/leagues/rating.html", {"league": league, "board": board})


@never_cache
@account_view
@require_GET
@_refusals
def league_compare(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    members = selectors.league_members(league=league)
    a = request.GET.get("a") or request.user.get_username()
    b = request.GET.get("b") or next((m.username for m in members if m.username != a), a)
    cards = selectors.league_compare(
        league=league, usernames=(a, b), viewer=signed_in(request.user)
    )
    context = {"league": league, "members": members, "cards": cards, "a": a, "b": b}
    return render(request, "leaderboards/leagues/compare.html", context)
