"""Thin pages for scorecards, share text and replays: parse, call one selector, render.

A :class:`~games.errors.ServiceError` is never a server error here: it becomes
its status page (or, for the plain-text share, its status with the reason).
"""

from __future__ import annotations

import uuid

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.errors import NotAuthenticated, ServiceError
from leaderboards.replays import replay_frames, solution_frames
from leaderboards.scorecards import scorecard as scorecard_data
from leaderboards.share import VerificationPending, share_text_for_game


def _site_url(request: HttpRequest) -> str:
    """The site's root URL as this request reached it, for links in share text."""
    return request.build_absolute_uri("/").rstrip("/")


def _refusal(request: HttpRequest, err: ServiceError) -> HttpResponse:
    status = err.status if 400 <= err.status < 500 else 400
    return render(
        request, "games/refused.html", {"reason": err.reason, "error": err}, status=status
    )


@require_GET
def scorecard(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public scorecard; their own share texts when they look at it."""
    try:
        card = scorecard_data(
            username=username,
            viewer=request.user,  # type: ignore[arg-type]
            page=request.GET.get("page", "1"),
            site_url=_site_url(request),
        )
    except ServiceError as err:
        return _refusal(request, err)
    response = render(request, "scorecards/scorecard.html", {"card": card})
    if card["is_owner"]:
        # The owner's page carries share texts: keep it out of shared caches.
        response["Cache-Control"] = "private"
    return response


@never_cache
@require_GET
def share(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The owner's share text of a daily result, as text/plain."""
    try:
        text = share_text_for_game(
            user=request.user,  # type: ignore[arg-type]
            game_id=game_id,
            site_url=_site_url(request),
        )
    except ServiceError as err:
        return HttpResponse(err.reason, status=err.status, content_type="text/plain; charset=utf-8")
    return HttpResponse(text, content_type="text/plain; charset=utf-8")


@require_GET
def replay(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Step through a finished, verified game; the frames are embedded as JSON."""
    try:
        frames = replay_frames(user=request.user, game_id=game_id)  # type: ignore[arg-type]
    except NotAuthenticated:
        return redirect_to_login(request.get_full_path())
    except VerificationPending as err:
        return render(request, "replays/pending.html", {"reason": err.reason}, status=err.status)
    except ServiceError as err:
        return _refusal(request, err)
    return render(
        request,
        "replays/replay.html",
        {"frames": frames, "game": frames["game"], "steps": frames["steps"]},
    )


@require_GET
def deal_solution(request: HttpRequest, deal_id: int) -> HttpResponse:
    """ "One way to win this deal": a closed daily deal's winning line in the replay viewer."""
    try:
        frames = solution_frames(deal_id=deal_id)
    except ServiceError as err:
        return _refusal(request, err)
    return render(
        request,
        "replays/solution.html",
        {"frames": frames, "deal": frames["deal"], "steps": frames["steps"]},
    )
