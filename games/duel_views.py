"""The duel pages (docs/duels.md): the hub (challenge a friend, play someone now, your
duels), a challenge's link, the queue's page and its ask, the duel itself (your table
beside the opponent's progress and both clocks), and the rematch. Thin: every write is a
service, every refusal a documented code (docs/protocol.md, "The duel pages")."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games import selectors, services
from games.access import account_view, signed_in
from games.duels.models import DEFAULT_TIME_CONTROL, TIME_CONTROLS, Duel
from games.duels.selectors import duel_list_for_player, duel_read, duel_view
from games.errors import ServiceError
from games.responses import refusal_page, retry_after_of, with_retry_after
from games.signals import duel_ratings
from games.views import game_page_context

#: Where the challenger's page keeps a challenge's link (shown until it is accepted).
SESSION_LINKS = "duel_links"


def _time_control(request: HttpRequest) -> int:
    try:
        value = int(request.POST.get("minutes", "")) * 60
    except ValueError:
        return DEFAULT_TIME_CONTROL
    return value if value in TIME_CONTROLS else DEFAULT_TIME_CONTROL


@require_GET
@account_view
def duels(request: HttpRequest) -> HttpResponse:
    """The hub: "Challenge a friend", "Play someone now" and the player's latest duels."""
    user = signed_in(request.user)
    return render(
        request,
        "games/duels.html",
        {
            "minutes": [t // 60 for t in TIME_CONTROLS],
            "default_minutes": DEFAULT_TIME_CONTROL // 60,
            "rows": duel_list_for_player(user=user),
            "rating": duel_ratings([user.pk])[user.pk],
        },
    )


@require_POST
@account_view
def duel_challenge(request: HttpRequest) -> HttpResponse:
    """Make a challenge and go to its page, which shows the link to send."""
    try:
        duel, token = services.duel_challenge_create(
            user=signed_in(request.user), time_control=_time_control(request)
        )
    except ServiceError as err:
        return refusal_page(request, err)
    links = dict(request.session.get(SESSION_LINKS, {}))
    links[str(duel.pk)] = token
    request.session[SESSION_LINKS] = dict(list(links.items())[-10:])
    return redirect("duel", duel_id=duel.pk)


@never_cache
@account_view
def duel_join(request: HttpRequest, token: str) -> HttpResponse:
    """A challenge's link: who challenges, and Accept (a POST, so a preview never does)."""
    try:
        duel = services.duel_challenge_find(token=token)
        if request.method == "POST":
            duel = services.duel_challenge_accept(user=signed_in(request.user), token=token)
            return redirect("duel", duel_id=duel.pk)
    except ServiceError as err:
        return refusal_page(request, err)
    challenger = duel.seats.select_related("player").first()
    return render(
        request,
        "games/duel_join.html",
        {"duel": duel, "challenger": challenger.player if challenger else None},
    )


@require_GET
@account_view
def duel_queue(request: HttpRequest) -> HttpResponse:
    """The queue's page: its script asks every 2 s and goes to the duel once paired."""
    return render(
        request,
        "games/duel_queue.html",
        {"minutes": _time_control_of_get(request) // 60},
    )


def _time_control_of_get(request: HttpRequest) -> int:
    try:
        value = int(request.GET.get("minutes", "")) * 60
    except ValueError:
        return DEFAULT_TIME_CONTROL
    return value if value in TIME_CONTROLS else DEFAULT_TIME_CONTROL


@require_POST
@never_cache
def duel_queue_ask(request: HttpRequest) -> HttpResponse:
    """Join or ask again (JSON): ``{"duel": url}`` once paired, else ``{"waiting": true}``.
    ``leave=1`` leaves the queue. Refusals: ``{"code", "reason"}`` with their status."""
    try:
        user = signed_in(request.user)
        if request.POST.get("leave") == "1":
            services.duel_queue_leave(user=user)
            return JsonResponse({"waiting": False})
        duel = services.duel_queue_join(user=user, time_control=_time_control(request))
    except ServiceError as err:
        status = err.status if 400 <= err.status < 500 else 400
        answer = JsonResponse({"code": err.code, "reason": err.reason}, status=status)
        return with_retry_after(answer, retry_after_of(err))
    if duel is None:
        return JsonResponse({"waiting": True})
    return JsonResponse({"duel": reverse("duel", args=[duel.pk])})


@never_cache
@require_GET
def duel(request: HttpRequest, duel_id: uuid.UUID) -> HttpResponse:
    """The duel: a player's own table with the duel's panel beside it, or, for a watcher
    and before the start, the panel alone (progress in counts: no board of another)."""
    try:
        found = duel_read(duel_id=duel_id)
        view = duel_view(user=request.user, duel=found)
    except ServiceError as err:
        return refusal_page(request, err)
    context: dict[str, Any] = {
        "duel": found,
        "view": view,
        "duel_config": {
            "socket_path": f"/ws/duels/{found.pk}/",
            "duel": view,
            "rematch_url": reverse("duel_rematch", args=[found.pk]),
        },
        "link": _challenge_link(request, found),
    }
    if view["game_id"] and found.state != Duel.State.WAITING:
        try:
            state = selectors.game_state(user=request.user, game_id=view["game_id"])
        except ServiceError as err:
            return refusal_page(request, err)
        context.update(game_page_context(request, state))
        return render(request, "games/duel_table.html", context)
    return render(request, "games/duel.html", context)


def _challenge_link(request: HttpRequest, duel: Duel) -> str | None:
    token = dict(request.session.get(SESSION_LINKS, {})).get(str(duel.pk))
    if token is None or duel.state != Duel.State.WAITING:
        return None
    return request.build_absolute_uri(reverse("duel_join", args=[token]))


@require_POST
@account_view
def duel_rematch(request: HttpRequest, duel_id: uuid.UUID) -> HttpResponse:
    """Offer a rematch, or accept the other player's offer; to the new duel's page."""
    try:
        offer = services.duel_rematch(user=signed_in(request.user), duel_id=duel_id)
    except ServiceError as err:
        return refusal_page(request, err)
    return redirect("duel", duel_id=offer.pk)
