"""Thin pages for scorecards, share text and a result's story: parse, call a selector,
render (replays and their analysis: ``leaderboards.replays.views``).

A :class:`~games.errors.ServiceError` is never a server error here: it becomes
its status page (or, for the plain-text share, its status with the reason).
"""

from __future__ import annotations

import uuid

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.access import signed_in
from games.errors import ServiceError
from games.responses import refusal_page
from leaderboards.scorecards import scorecard as scorecard_data
from leaderboards.selectors import rank_of_game
from leaderboards.share import share_text_for_game
from leaderboards.story import result_story


def _site_url(request: HttpRequest) -> str:
    """The site's root URL as this request reached it, for links in share text."""
    return request.build_absolute_uri("/").rstrip("/")


@require_GET
def scorecard(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public scorecard; their own share texts when they look at it."""
    try:
        card = scorecard_data(
            username=username,
            viewer=request.user,
            page=request.GET.get("page", "1"),
            site_url=_site_url(request),
        )
    except ServiceError as err:
        return refusal_page(request, err)
    response = render(request, "scorecards/scorecard.html", {"card": card})
    if card["is_owner"]:
        # The owner's page carries share texts: keep it out of shared caches.
        response["Cache-Control"] = "private"
    return response


@never_cache
@require_GET
def share(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The owner's share text of a daily result, as text/plain; asked for JSON (the
    board's result dialog), ``{"text", "rank", "size"}`` with the player's rank on the
    day's board once it is known (``null`` until the result is ranked)."""
    wants_json = "application/json" in request.headers.get("Accept", "")
    try:
        text = share_text_for_game(
            user=request.user,
            game_id=game_id,
            site_url=_site_url(request),
        )
    except ServiceError as err:
        if wants_json:
            return JsonResponse({"code": err.code, "reason": err.reason}, status=err.status)
        return HttpResponse(err.reason, status=err.status, content_type="text/plain; charset=utf-8")
    if not wants_json:
        return HttpResponse(text, content_type="text/plain; charset=utf-8")
    # Only the game's player gets this far (share_text_for_game asks the funnel).
    position = rank_of_game(user=signed_in(request.user), game_id=game_id)
    rank = position.rank if position else None
    review = position.review if position else None
    return JsonResponse(
        {
            "text": text,
            "rank": rank,
            "size": position.size if position and rank else None,
            "review": review,
        }
    )


@never_cache
@require_GET
def story(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The story of the player's own ranked daily or weekly result, as JSON for the
    board's result dialog (leaderboards.story.result_story); a refusal is
    ``{"code", "reason"}`` with its status (409 while the result is being verified)."""
    try:
        data = result_story(user=request.user, game_id=game_id, site_url=_site_url(request))
    except ServiceError as err:
        return JsonResponse({"code": err.code, "reason": err.reason}, status=err.status)
    return JsonResponse(data)
