"""Spoiler-free share text for a daily result, like Wordle's.

It says the day, the outcome, the score, the move count and the time, and
links to the day's board: never a card, a move or the deal code, so it may be
posted while the day is still open.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.access import access_game
from games.display import format_duration, variant_title
from games.errors import NotFound, ServiceError
from games.models import User
from leaderboards.models import Result

# The leaderboards app owns the board URLs; this is the path the issue names, used
# should its route not be there (it is being built alongside).
DAILY_BOARD_PATH = "/boards/daily/{day}/"

_MARKS = {
    Result.Outcome.WON: "✅",
    Result.Outcome.LOST: "❌",
    Result.Outcome.RESIGNED: "🏳️",
}


class VerificationPending(ServiceError):
    """The game is finished but its log has not been checked yet: try again shortly."""

    code, status = "verification_pending", 409


def share_text(result: Result, *, site_url: str = "") -> str:
    """Two lines: the result, then the link to the day's board.

    Only what the board shows anyway goes in: day, outcome, score, moves, time.
    """
    if result.day is None:
        raise ValueError("only a daily result has share text")
    day = result.day.isoformat()
    outcome = Result.Outcome(result.outcome)
    first = " · ".join(
        [
            f"{variant_title(result.variant)} {day} — {outcome.label} {_MARKS[outcome]} "
            + _("%(score)s pts") % {"score": result.score},
            ngettext("%(moves)s move", "%(moves)s moves", result.moves) % {"moves": result.moves},
            format_duration(result.duration_ms),
        ]
    )
    return f"{first}\n{site_url.rstrip('/')}{daily_board_path(day)}"


def daily_board_path(day: str) -> str:
    """The path of the day's board (``/boards/daily/2026-11-29/``)."""
    try:
        return reverse("leaderboards:daily", kwargs={"day": day})
    except NoReverseMatch:
        return DAILY_BOARD_PATH.format(day=day)


def share_text_for_game(*, user: User | AnonymousUser, game_id: object, site_url: str = "") -> str:
    """The share text of the player's own verified daily result; else a refusal."""
    # The "play" purpose is the funnel's ownership check: only the game's player.
    game = access_game(user=user, game_id=game_id, purpose="play")
    result = Result.objects.filter(game=game).first()
    if not game.is_finished:
        raise NotFound("the game is not finished yet")
    if result is None or result.status == Result.Status.PENDING:
        raise VerificationPending("the game is being verified; try again in a moment")
    if result.status != Result.Status.VERIFIED:
        raise NotFound("this game's log was rejected; it has no result to share")
    if not result.ranked or result.day is None:
        raise NotFound("only a ranked daily result has share text")
    return share_text(result, site_url=site_url)
