"""The arena pages (docs/arenas.md): the list (running, upcoming, finished), an arena with
its standings and Join/Leave (POSTs), each refusal a documented code (docs/protocol.md,
"The arena pages") shown in the player's language. Thin: every write is a service."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from games import services
from games.access import access_arena, account_view, signed_in
from games.arenas.final import arena_final_table
from games.arenas.selectors import arena_lists, arena_view
from games.errors import ServiceError
from games.responses import refusal_page
from games.throttles import RateLimited


def _worded(err: ServiceError) -> ServiceError:
    """The refusal with its reason in the visitor's language, by its code."""
    words = {
        "arena_closed": _("This arena takes no more entries: its last round has opened."),
        "already_entered": _("You are in this arena already."),
        "not_entered": _("You are not in this arena."),
        "not_found": _("There is no such arena."),
    }
    if isinstance(err, RateLimited):
        err.reason = _("Too many joins and leaves: try again in a few minutes.")
    elif err.code in words:
        err.reason = words[err.code]
    return err


@never_cache
@require_GET
def arenas(request: HttpRequest) -> HttpResponse:
    """The site's arenas: running, upcoming and finished (a league's are on its page)."""
    return render(request, "games/arenas.html", {"lists": arena_lists()})


@never_cache
@require_GET
def arena(request: HttpRequest, arena_id: int) -> HttpResponse:
    """One arena: its rounds, the standings (once finished, the kept final table), the
    visitor's round game, Join or Leave; a league's names its league, for members only."""
    try:
        found = access_arena(user=request.user, arena_id=arena_id)
    except ServiceError as err:
        return refusal_page(request, _worded(err))
    arena, viewer = found.arena, getattr(request.user, "pk", None)
    context = {
        "arena": arena,
        "league": found.league,
        "view": arena_view(user=request.user, arena=arena, now=timezone.now()),
        "final": arena_final_table(arena=arena, viewer_id=viewer),
    }
    return render(request, "games/arena.html", context)


@require_POST
@account_view
def arena_join(request: HttpRequest, arena_id: int) -> HttpResponse:
    """Enter the arena (or come back) as the signed-in player, never anyone else."""
    try:
        services.arena_join(user=signed_in(request.user), arena_id=arena_id)
    except ServiceError as err:
        return refusal_page(request, _worded(err))
    return redirect("arena", arena_id=arena_id)


@require_POST
@account_view
def arena_leave(request: HttpRequest, arena_id: int) -> HttpResponse:
    """Leave the arena: no games of the rounds that open from now on."""
    try:
        services.arena_leave(user=signed_in(request.user), arena_id=arena_id)
    except ServiceError as err:
        return refusal_page(request, _worded(err))
    return redirect("arena", arena_id=arena_id)
