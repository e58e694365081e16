"""Pages that start games: the ranked daily and weekly attempts, the archive's replays of
closed days and practice. Each calls one service of :mod:`games.services.starts` and goes
to the game, or says the service's refusal."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from games import dates, selectors, services
from games.daily import utc_today
from games.errors import BadRequest, ServiceError
from games.forms import PracticeForm
from games.models import Game


@require_http_methods(["GET", "POST"])
def play_daily(request: HttpRequest) -> HttpResponse:
    """Start (or resume) today's ranked game, then go to it."""
    return _play_ranked(request, services.game_start_daily)


@require_http_methods(["GET", "POST"])
def play_weekly(request: HttpRequest) -> HttpResponse:
    """Start (or resume) this week's ranked weekly challenge, then go to it."""
    return _play_ranked(request, services.game_start_weekly)


def _play_ranked(request: HttpRequest, start: Callable[..., Game]) -> HttpResponse:
    if request.method == "GET":
        # Reached after logging in from the home page's button: the start is a POST.
        return redirect("home")
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        game = start(user=request.user)
    except ServiceError as err:
        messages.error(request, err.reason)
        return redirect("home")
    return redirect("game", game_id=game.pk)


@require_http_methods(["GET", "POST"])
def play_archive(request: HttpRequest, day: str) -> HttpResponse:
    """Start (or continue) an archive game of a closed day's deal, then go to it."""
    if request.method == "GET" or not request.user.is_authenticated:
        # Reached after logging in from the archive's button: the start is a POST.
        return redirect("leaderboards:archive")
    try:
        game = services.game_start_archive(user=request.user, day=_day_from_url(day))
    except ServiceError as err:
        messages.error(request, err.reason)
        return redirect("leaderboards:archive")
    return redirect("game", game_id=game.pk)


def _day_from_url(text: str) -> date:
    """A ``YYYY-MM-DD`` day from a URL (:func:`games.dates.parse_day`), or the refusal a
    bad one gets."""
    day = dates.parse_day(text, today=utc_today(timezone.now()))
    if day is None:
        raise BadRequest(f"{text[:20]!r} is not a day of the archive: write it as YYYY-MM-DD")
    return day


@require_http_methods(["GET", "POST"])
def practice(request: HttpRequest) -> HttpResponse:
    """Start a practice game of a deal code or of a random deal of a variant."""
    if request.method == "GET":
        code = request.GET.get("code", "")
        form = PracticeForm(initial={"code": code})
        deal = selectors.practice_deal_by_code(code=code)
        return render(request, "games/practice.html", {"form": form, "deal": deal})
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = PracticeForm(request.POST)
    if not form.is_valid():
        return render(request, "games/practice.html", {"form": form}, status=400)
    data = form.cleaned_data
    try:
        if data["action"] == PracticeForm.CODE:
            game = services.game_start_practice(user=request.user, code=data["code"])
        else:
            game = services.game_start_practice(user=request.user, variant=data["variant"])
    except ServiceError as err:
        field = "code" if data["action"] == PracticeForm.CODE else "variant"
        form.add_error(field, err.reason)
        return render(request, "games/practice.html", {"form": form}, status=err.status)
    return redirect("game", game_id=game.pk)
