"""Thin page views: parse the request, call one service or selector, render.

Game logic belongs in ``games.engine``, decisions in ``games.services`` and
reads in ``games.selectors``. A :class:`~games.errors.ServiceError` is never a
server error here: it becomes a message and a redirect, or a 4xx page.
"""

from __future__ import annotations

import json
import logging
import uuid
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.http import http_date, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from games import selectors, services
from games.access import signed_in
from games.daily import day_end, utc_today
from games.display import variant_title
from games.engine import VARIANTS, GameState, RuleSet
from games.engine.rules import OPTION_LETTERS
from games.errors import NotAuthenticated, NotFound, ServiceError
from games.forms import ActForm
from games.models import Game, User
from games.privacy.middleware import DEVICE_COOKIE_MAX_AGE
from games.refusal_words import refusal_sentence
from games.responses import refusal_page
from games.rules_pictures import rules_pictures
from games.table_settings import settings_of

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

logger = logging.getLogger(__name__)


# Public pages ----------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    """Today's deal: its commitment (never its code), the time left, the player's status."""
    now = timezone.now()
    # Beat opens (certifies) each day's deal ahead of time; opening runs the solver, which
    # may take minutes, so a page view never does it. "Play today's deal" (a POST) may.
    summary = selectors.daily_summary(user=_user(request), now=now)
    deal = summary["deal"]
    closes_at = (
        datetime.fromisoformat(deal["closes_at"])
        if deal and deal["closes_at"]
        else day_end(utc_today(now))
    )
    return render(
        request,
        "home.html",
        {
            "summary": summary,
            "deal": deal,
            "game": summary["game"],
            "closes_at": closes_at,
            # Marked up so static/js/countdown.js can tick it; the words around it
            # stay in the translated sentence.
            "countdown": _countdown_html(closes_at, now),
            **_home_weekly(request, now),
        },
    )


def _home_weekly(request: HttpRequest, now: datetime) -> dict[str, Any]:
    """The home page's weekly challenge entry (``games/_home_weekly.html``)."""
    return {"weekly": selectors.weekly_summary(user=_user(request), now=now)}


def _countdown_html(until: datetime, now: datetime) -> str:
    """The time left, marked up for static/js/countdown.js (home and the ranked table)."""
    return format_html('<span class="countdown" data-countdown>{}</span>', _countdown(until, now))


def _countdown(until: datetime, now: datetime) -> str:
    """``HH:MM`` left until ``until`` (never negative)."""
    minutes = max(0, int((until - now).total_seconds()) // 60)
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


#: What the rules page says about a variant besides its facts, which come from its
#: ``RuleSet``: its name in the page's language and how it plays. A variant missing here
#: still gets its row, under the engine's title.
VARIANT_NOTES: dict[str, tuple[StrOrPromise, StrOrPromise]] = {
    "forty-thieves": (
        gettext_lazy("Forty Thieves (classic)"),
        gettext_lazy("The yardstick: strict building and no run moves make every space precious."),
    ),
    "josephine": (
        gettext_lazy("Josephine"),
        gettext_lazy(
            "Much easier: the long single-card shuffles that sink classic games disappear, "
            "though the suit rule still demands planning."
        ),
    ),
    "limited": (
        gettext_lazy("Limited"),
        gettext_lazy(
            "Easier: two extra columns, each shorter, so cards are reached and spaces opened "
            "sooner."
        ),
    ),
    "indian": (
        gettext_lazy("Indian"),
        gettext_lazy(
            "Much easier: a card has six possible targets instead of two, which outweighs "
            "the hidden cards."
        ),
    ),
    "streets": (
        gettext_lazy("Streets"),
        gettext_lazy("Clearly easier: a card has four possible targets instead of two."),
    ),
    "sixty-thieves": (
        gettext_lazy("Sixty Thieves"),
        gettext_lazy(
            "Longer and even harder: deeper columns and a huge one-pass stock under the same "
            "strict rules."
        ),
    ),
    "lucas": (
        gettext_lazy("Lucas"),
        gettext_lazy(
            "Easier: no digging for aces, and thirteen short columns give more places to "
            "build and quicker spaces."
        ),
    ),
    "maria": (
        gettext_lazy("Maria"),
        gettext_lazy(
            "Easier than classic thanks to colour building, although one column fewer means "
            "less room early on."
        ),
    ),
    "number-ten": (
        gettext_lazy("Number Ten"),
        gettext_lazy(
            "Easier to move cards around, but twenty hidden cards mean some columns must be "
            "dug out blind."
        ),
    ),
    "rank-and-file": (
        gettext_lazy("Rank and File"),
        gettext_lazy(
            "Like Number Ten with thirty hidden cards: run moves help a lot, but the opening "
            "is largely guesswork."
        ),
    ),
    "little-forty": (
        gettext_lazy("Little Forty"),
        gettext_lazy(
            "One of the easiest: loose building, run moves and four passes through the stock "
            "forgive many mistakes, even if drawing in threes buries cards."
        ),
    ),
}

#: The column rules in words, keyed as ``games.engine.rules.BUILD_RULES``.
BUILD_WORDS = {
    "same-suit": gettext_lazy("Down by the same suit"),
    "other-suit": gettext_lazy("Down by any suit except the card’s own"),
    "alternate-colour": gettext_lazy("Down by alternating colour"),
}


#: The options in words, keyed by the option's family (``redeal1`` and ``redeal2`` are the
#: redeals): its name, its rule and what it does to the game.
OPTION_NOTES: dict[str, tuple[StrOrPromise, StrOrPromise, StrOrPromise]] = {
    "kings": (
        gettext_lazy("Kings only in spaces"),
        gettext_lazy("Only a king, or a run headed by a king, may fill an empty column."),
        gettext_lazy("Harder: a space can no longer serve as a parking place for any card."),
    ),
    "redeal": (
        gettext_lazy("Redeals"),
        gettext_lazy(
            "Once the stock is empty, the waste may be turned back over as a new stock, once"
            " or twice (notation r)."
        ),
        gettext_lazy(
            "Easier: cards buried in the waste get another chance, at the expense of tradition."
        ),
    ),
    "takeback": (
        gettext_lazy("Foundation take-back"),
        gettext_lazy(
            "The top card of a foundation may be moved back to a column, for −15 points each time."
        ),
        gettext_lazy(
            "Slightly easier: a card sent up too early can come back to serve as a landing place."
        ),
    ),
}


def rules(request: HttpRequest) -> HttpResponse:
    """The rules; the variants and options tables are the engine's ``VARIANTS`` and
    ``OPTION_LETTERS``, so a new variant or option appears on the page by itself. The
    analysis's budget comes from the settings."""
    context = {
        "variants": [_variant_row(r) for r in VARIANTS.values()],
        "options": _option_rows(),
        "analysis_seconds": f"{settings.FT_ANALYSIS_SECONDS:g}",
        "analysis_position_seconds": f"{settings.FT_ANALYSIS_POSITION_SECONDS:g}",
        "pictures": rules_pictures(),
    }
    return render(request, "rules.html", context)


def _variant_row(rules: RuleSet) -> dict[str, Any]:
    title, plays = VARIANT_NOTES.get(rules.name, (rules.title, ""))
    return {
        "rules": rules,
        "title": title,
        "plays": plays,
        "build": BUILD_WORDS.get(rules.build, rules.build),
        # The stock as the engine deals it (after the layout and any aces put out).
        "stock": GameState.from_seed(0, rules.spec).view()["stock"],
    }


def _option_rows() -> list[dict[str, Any]]:
    """One row per family of the engine's options, in its order; an option without words
    here still gets its row, under its own name."""
    families = dict.fromkeys(option.rstrip("0123456789") for option in OPTION_LETTERS)
    rows = []
    for family in families:
        name, rule, effect = OPTION_NOTES.get(family, (family, "", ""))
        rows.append({"option": family, "name": name, "rule": rule, "effect": effect})
    return rows


def privacy(request: HttpRequest) -> HttpResponse:
    """What is kept about a person and why; the retention figures come from the settings."""
    return render(
        request,
        "privacy.html",
        {
            "sighting_days": settings.FT_SIGHTING_DAYS,
            "guest_days": settings.FT_GUEST_DAYS,
            "device_cookie_days": DEVICE_COOKIE_MAX_AGE // (24 * 60 * 60),
            "reset_hours": max(1, settings.PASSWORD_RESET_TIMEOUT // 3600),
        },
    )


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico: the site's icon is an SVG among the static files (base.html links it)."""
    return redirect(static("favicon.svg"), permanent=True)


#: What ``never_cache`` writes, written directly: for the probes, asked every few seconds by
#: every balancer, parsing and re-joining the header was a twelfth of a probe's cost.
PROBE_CACHE_CONTROL = "max-age=0, no-cache, no-store, must-revalidate, private"


def _probe_answer(body: str, status: int = 200) -> HttpResponse:
    response = HttpResponse(body, status=status, content_type="text/plain")
    response["Expires"] = http_date()
    response["Cache-Control"] = PROBE_CACHE_CONTROL
    return response


@require_GET
def livez(request: HttpRequest) -> HttpResponse:
    """Liveness: "ok" while the process serves requests, whatever its database says. For a
    supervisor that restarts a process which stopped answering: restarting every process
    because PostgreSQL is down would only add a cold start to the outage (docs/operations.md,
    "Health checks")."""
    return _probe_answer("ok")


@require_GET
def healthz(request: HttpRequest) -> HttpResponse:
    """Readiness, for the load balancer and compose healthchecks: "ok" once the database
    answers (a round trip on every call: never from a cache)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("health check: the database does not answer")
        return _probe_answer("database unavailable", status=503)
    return _probe_answer("ok")


# Playing ---------------------------------------------------------------------


@require_GET
def game(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The board page: the visible state embedded as JSON; ``static/js/board`` plays it.

    Everything the page shows comes from ``game_state`` (the engine's player view), so
    the stock's order and face-down cards never reach the browser. The plain one-move
    form stays in a collapsed block for players without JavaScript.
    """
    try:
        state = selectors.game_state(user=request.user, game_id=game_id)
    except NotAuthenticated:
        return redirect_to_login(request.get_full_path())
    except ServiceError as err:
        return refusal_page(request, err)
    return render(request, "games/game.html", game_page_context(request, state))


def game_page_context(request: HttpRequest, state: dict[str, Any]) -> dict[str, Any]:
    """What the board page's template needs for a game's ``state`` (the duel page shows
    the same board: ``games.duel_views``)."""
    # The funnel gave the viewer's role with the state: only the player may play.
    may_play = state["status"] == "active" and state["role"] == "player"
    form = ActForm(initial={"version": state["version"], "client_id": uuid.uuid4().hex})
    code = state["deal"]["code"]  # a practice deal's, or a daily's once its day has closed
    practice_link = (
        request.build_absolute_uri(f"{reverse('practice')}?{urlencode({'code': code})}")
        if code
        else None
    )
    return {
        "state": state,
        "state_json": json.dumps(state, indent=2, ensure_ascii=False),
        "deal": state["deal"],
        "may_play": may_play,
        "form": form,
        "board_config": {**_board_config(state, practice_link), **_table_config(request)},
        "practice_link": practice_link,
        "closes_in": _ranked_countdown(state, timezone.now()),
        # The raw state and the one-move form are for staff and developers (?dev=1);
        # players without JavaScript get the form in a <noscript>.
        "show_dev": request.user.is_staff or request.GET.get("dev") == "1",
    }


def _ranked_countdown(state: dict[str, Any], now: datetime) -> str | None:
    """The time left on the player's own ranked table, marked up for countdown.js (the
    table says it is ranked, one attempt and when it closes: issue 36); else ``None``."""
    closes_at = state["deal"].get("closes_at")
    if state["mode"] != "ranked" or state["role"] != "player" or not closes_at:
        return None
    if state["status"] != "active":
        return None
    until = datetime.fromisoformat(closes_at)
    return _countdown_html(until, now)


def _table_config(request: HttpRequest) -> dict[str, Any]:
    """The table's settings as the account keeps them (signed in: they win over the
    browser's copy) and where the settings panel saves them; a visitor's live in the
    browser only (static/js/board/settings.js)."""
    user = request.user
    if not user.is_authenticated:
        return {"table_settings": None, "settings_url": None}
    return {
        "table_settings": settings_of(user.table_settings),
        "settings_url": reverse("api:table_settings_put"),
    }


def _board_config(state: dict[str, Any], practice_link: str | None = None) -> dict[str, Any]:
    """What the board script needs besides the state: URLs and the server's clock.

    The server's "now" lets the timer count from ``first_action_at`` even when the
    visitor's clock is off. The board's words come from the JavaScript catalog
    (``/jsi18n/``, loaded by base.html), not from here. A practice game's share text
    (result.js) names its deal and links to it.
    """
    game_id = state["id"]
    try:
        story_url = reverse("leaderboards:story", args=[game_id])
    except NoReverseMatch:  # the story belongs to another app; the board copes
        story_url = f"/games/{game_id}/story/"
    try:
        daily_board_url = reverse("leaderboards:daily_today")
    except NoReverseMatch:
        daily_board_url = "/boards/daily/"
    return {
        "socket_path": f"/ws/games/{game_id}/",
        # The result's story (its place, the day's spread, the streak, the share text) is
        # a ranked daily or weekly result's, never an archive game's of its deal.
        "story_url": story_url
        if state["mode"] == Game.Mode.RANKED and state["deal"]["kind"] in ("daily", "weekly")
        else None,
        "daily_board_url": daily_board_url,
        "server_now": timezone.now().isoformat(),
        "practice": (
            {
                "code": state["deal"]["code"],
                "link": practice_link,
                "variant": variant_title(state["deal"]["variant"]),
            }
            if state["mode"] != Game.Mode.RANKED and practice_link
            else None
        ),
    }


@login_required
@require_POST
def game_act(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Apply one action from the plain form, then show the game again with the outcome."""
    form = ActForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect("game", game_id=game_id)
    data = form.cleaned_data
    try:
        result = services.game_act(
            user=signed_in(request.user),
            game_id=game_id,
            kind=data["type"],
            move=data["move"],
            client_id=data["client_id"] or "",
            version=data["version"],
        )
    except NotFound as err:
        return refusal_page(request, err)
    except ServiceError as err:
        # A refused move, undo in a ranked game, a stale page, a finished game... in the
        # player's language, as the board's script would say it.
        messages.error(request, refusal_sentence(err=err))
        return redirect("game", game_id=game_id)
    if result.duplicate:
        messages.info(request, _("That action was already applied."))
    else:
        messages.success(
            request,
            _("Accepted %(action)s: score %(score)s, %(moves)s moves, %(status)s.")
            % {
                "action": result.action,
                "score": result.score,
                "moves": result.moves,
                "status": _(result.status),
            },
        )
    return redirect("game", game_id=game_id)


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    """The player's games, newest first, a page at a time."""
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        page = 1
    listing = selectors.game_list_for_player(user=signed_in(request.user), page=page)
    return render(request, "games/my_games.html", {"listing": listing})


@login_required
@require_POST
def game_discard(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Discard an abandoned practice start (no move yet), back to "My games"."""
    try:
        services.game_discard_unstarted(user=signed_in(request.user), game_id=game_id)
    except ServiceError as err:
        messages.error(request, err.reason)
        return redirect("my_games")
    messages.success(request, _("The practice game was discarded."))
    return redirect("my_games")


# Helpers ---------------------------------------------------------------------


def _user(request: HttpRequest) -> User | None:
    return request.user if request.user.is_authenticated else None
