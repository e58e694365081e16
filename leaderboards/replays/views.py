"""Thin pages for replays, their post-game analysis and a deal's solution: parse, call a
selector, render.

A :class:`~games.errors.ServiceError` is never a server error here: it becomes
its status page.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from games import services
from games.duels.selectors import duel_read, duel_seats
from games.errors import Forbidden, NotAuthenticated, ServiceError
from games.responses import refusal_page, retry_after_of, with_retry_after
from leaderboards.replays.frames import analysis_frames, replay_frames, solution_frames
from leaderboards.share import VerificationPending


@require_GET
def replay(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Step through a finished, verified game on the board; the frames and the post-game
    analysis (its state, or its result) are embedded as JSON."""
    try:
        frames = replay_frames(user=request.user, game_id=game_id)
        analysis = analysis_frames(user=request.user, game_id=game_id)
    except NotAuthenticated:
        return redirect_to_login(request.get_full_path())
    except VerificationPending as err:
        return render(request, "replays/pending.html", {"reason": err.reason}, status=err.status)
    except ServiceError as err:
        return refusal_page(request, err)
    return render(
        request,
        "replays/replay.html",
        {
            "frames": frames,
            "game": frames["game"],
            "steps": frames["steps"],
            "board_state": _board_state(frames),
            "analysis": analysis,
        },
    )


@require_GET
def duel_replay(request: HttpRequest, duel_id: uuid.UUID) -> HttpResponse:
    """A duel's two games side by side, each on its own board, once both are over and the
    deal is revealed (before that a watcher could relay the stock: 403); the keyboard and
    a step's link drive both viewers together. Anyone with the duel's link may look."""
    try:
        duel = duel_read(duel_id=duel_id)
        if duel.deal is None or duel.deal.revealed_at is None:
            raise Forbidden("a duel's boards are shown once both its games are over")
        sides = []
        for seat in duel_seats(duel):
            assert seat.game_id is not None  # a revealed deal: both games were dealt
            frames = replay_frames(user=request.user, game_id=seat.game_id)
            sides.append(
                {
                    "seat": seat.seat,
                    "frames_id": f"replay-data-{seat.seat}",
                    "name": seat.player.public_name,
                    "place": seat.place,
                    "frames": frames,
                    "steps": frames["steps"],
                    "board_state": _board_state(frames),
                }
            )
    except VerificationPending as err:
        return render(request, "replays/pending.html", {"reason": err.reason}, status=err.status)
    except ServiceError as err:
        return refusal_page(request, err)
    return render(request, "replays/duel.html", {"duel": duel, "sides": sides})


def _board_state(frames: dict[str, Any]) -> dict[str, Any]:
    """What the board's table template reads: the first frame's piles, seen by a watcher."""
    return {"board": frames["initial"], "role": "watcher"}


@never_cache
@require_http_methods(["GET", "POST"])
def analysis(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """A game's post-game analysis as JSON (the replay page polls it); POST asks for it.

    Refusals are JSON ``{"code", "reason"}`` with their status (429 with ``Retry-After``).
    A form POST without JavaScript goes back to the replay, or to the refusal page.
    """
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        if request.method == "POST":
            services.analysis_request(user=request.user, game_id=game_id)
        data = analysis_frames(user=request.user, game_id=game_id)
    except ServiceError as err:
        if not wants_json:
            return refusal_page(request, err)
        response = JsonResponse(
            {"code": err.code, "reason": err.reason, **err.extra}, status=err.status
        )
        return with_retry_after(response, retry_after_of(err))
    if request.method == "POST" and not wants_json:
        return redirect(reverse("leaderboards:replay", args=[game_id]) + "#analysis")
    return JsonResponse(data)


@require_GET
def deal_solution(request: HttpRequest, deal_id: int) -> HttpResponse:
    """ "One way to win this deal": a closed daily deal's winning line in the replay viewer."""
    try:
        frames = solution_frames(deal_id=deal_id)
    except ServiceError as err:
        return refusal_page(request, err)
    return render(
        request,
        "replays/solution.html",
        {
            "frames": frames,
            "deal": frames["deal"],
            "steps": frames["steps"],
            "board_state": _board_state(frames),
        },
    )
