"""Pages that start games: the ranked daily and weekly attempts, the archive's replays of
closed days and practice. Each calls one service of :mod:`games.services.starts` and goes
to the game, or says the service's refusal."""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from datetime import date
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games import dates, selectors, services
from games.access import AccountRequired
from games.daily import utc_today
from games.errors import BadRequest, ServiceError
from games.forms import PracticeForm
from games.models import Game, User
from games.privacy.middleware import DEVICE_COOKIE
from games.privacy.sightings import device_digest, device_token_valid, request_address
from games.responses import refusal_page, with_retry_after
from games.services.practice_pool import PoolEmpty
from games.throttles import RateLimited


def player_or_guest(request: HttpRequest) -> User:
    """The signed-in player (or guest), else a new guest logged into this session
    (``services.guest_create``: throttled per address and device, :class:`RateLimited`)."""
    if request.user.is_authenticated:
        return request.user
    token = request.COOKIES.get(DEVICE_COOKIE)
    device = device_digest(token=token) if token and device_token_valid(token=token) else None
    guest = services.guest_create(address=request_address(request=request), device=device)
    login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    return guest


def _guest_refused(
    request: HttpRequest, err: RateLimited, *, form: PracticeForm | None = None
) -> HttpResponse:
    """A start refused by a limit (guests made, or starts): 429 with ``Retry-After``, the
    practice page saying when to try again and that an account is not limited so."""
    form = form or PracticeForm()
    minutes = max(1, math.ceil(err.retry_after / 60))
    form.add_error(
        None,
        ngettext(
            "Too many new games: try again in %(minutes)d minute, or sign up.",
            "Too many new games: try again in %(minutes)d minutes, or sign up.",
            minutes,
        )
        % {"minutes": minutes},
    )
    response = render(request, "games/practice.html", {"form": form}, status=429)
    return with_retry_after(response, err.retry_after)


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
    except AccountRequired:
        messages.info(
            request, _("Ranked play needs an account. Sign up: your games come with you.")
        )
        return redirect(f"{reverse('signup')}?{urlencode({'next': reverse('home')})}")
    except ServiceError as err:
        messages.error(request, err.reason)
        return redirect("home")
    return redirect("game", game_id=game.pk)


@require_http_methods(["GET", "POST"])
def play_archive(request: HttpRequest, day: str) -> HttpResponse:
    """Start (or continue) an archive game of a closed day's deal, then go to it."""
    if request.method == "GET":
        # Reached after logging in from the archive's button: the start is a POST.
        return redirect("leaderboards:archive")
    try:
        archive_day = _day_from_url(day)  # a bad day makes no guest
        user = player_or_guest(request)
        game = services.game_start_archive(user=user, day=archive_day)
    except RateLimited as err:
        return _guest_refused(request, err)
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
    form = PracticeForm(request.POST)
    if not form.is_valid():
        return render(request, "games/practice.html", {"form": form}, status=400)
    data = form.cleaned_data
    try:
        user = player_or_guest(request)
        if data["action"] == PracticeForm.CODE:
            game = services.game_start_practice(user=user, code=data["code"])
        else:
            game = services.game_start_practice(
                user=user,
                variant=data["variant"],
                winnable=data["winnable"],
                stars=data["stars"],
            )
    except RateLimited as err:
        return _guest_refused(request, err, form=form)
    except PoolEmpty as err:
        # The page says it once, in the reader's language (the template's notice below
        # the form); err.reason is the API's English wording of the same.
        context = {"form": form, "pool_empty": True, "variant": data["variant"]}
        return render(request, "games/practice.html", context, status=err.status)
    except ServiceError as err:
        field = "code" if data["action"] == PracticeForm.CODE else "variant"
        form.add_error(field, err.reason)
        return render(request, "games/practice.html", {"form": form}, status=err.status)
    return redirect("game", game_id=game.pk)


@require_POST
def table_restart(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Restart on a practice or archive table: the same deal as a new game."""
    return _table(request, services.game_restart, game_id)


@require_POST
def table_new_deal(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """New game on a practice or archive table: a random deal of the same variant."""
    return _table(request, services.game_new_deal, game_id)


def _table(request: HttpRequest, start: Callable[..., Game], game_id: uuid.UUID) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("game", args=[game_id]))
    try:
        game = start(user=request.user, game_id=game_id)
    except ServiceError as err:
        # The code's status (409 ranked_table, 429 rate_limited with Retry-After, 404...).
        return refusal_page(request, err, context={"game_id": game_id})
    return redirect("game", game_id=game.pk)
