"""The story a ranked result tells in the board's result dialog (issue 36), like the result
screens of NYT Games or Wordle: the player's place among those who have finished so far,
the spread of the day's (or the week's) results, the daily streak, and what to do next.

Reads only. The dialog asks for it by URL (``leaderboards:story``, named in the board's
config by ``games.views``), so ``games`` never imports this app; the words are the board
script's (``static/js/board/story-words.js``), this module gives the figures and links.
The number of queries is fixed, however many players the board has
(tests/leaderboards/test_story.py): the spread is one grouped count, not a row per result.

The player's own outcome, score, moves, time and cards home are on the board already (the
finished game's state): the story adds what only the server knows.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Exists, OuterRef
from django.urls import reverse
from django.utils import timezone

from games.access import access_game
from games.daily import utc_today
from games.display import format_duration, variant_title
from games.errors import NotFound
from games.models import Deal, Game, User
from games.services import DAILY_VARIANT
from games.weekly import week_label, week_monday
from leaderboards.boards import board_for, ranked_results
from leaderboards.fairplay.selectors import held_explanation
from leaderboards.models import Result
from leaderboards.share import VerificationPending, daily_board_path, share_text
from leaderboards.streaks import streaks


def result_story(
    *,
    user: User | AnonymousUser,
    game_id: object,
    site_url: str = "",
    now: datetime | None = None,
) -> dict[str, Any]:
    """The story of the player's own verified ranked result (a daily or a weekly game).

    Refusals: the funnel's (only the game's player); an unfinished or rejected game, or
    one that is not ranked, is not found; a result still being verified is
    :class:`~leaderboards.share.VerificationPending` (the dialog asks again).

    ``rank`` and ``size`` are the result's place on its board (``None`` while it is held
    for review, or not on the board yet); ``spread`` counts the board's results by
    ``[score, won, count]``, best first, with ``players`` their sum; ``open`` says whether
    the board still takes results (so the place is "so far"); ``next_deal_at`` is when the
    next deal of the kind opens (the close of this one).
    """
    game = access_game(user=user, game_id=game_id, purpose="play")
    if not game.is_finished:
        raise NotFound("the game is not finished yet")
    result = Result.objects.filter(game=game).first()
    if result is None or result.status == Result.Status.PENDING:
        raise VerificationPending("the game is being verified; try again in a moment")
    if result.status != Result.Status.VERIFIED:
        raise NotFound("this game's log was rejected; it has no result to tell")
    if not result.ranked or result.day is None:
        raise NotFound("only a ranked daily or weekly result has a story")
    now = now or timezone.now()
    deal = game.deal
    rank, size, review = _place(result)
    spread = _spread(result)
    return {
        "kind": "weekly" if result.weekly else "daily",
        "day": result.day.isoformat(),
        "week": week_label(result.day) if result.weekly else None,
        "open": deal.closes_at is not None and now < deal.closes_at,
        "won": result.won,
        "outcome": result.outcome,
        "score": result.score,
        # The verified time (first action to finish), as the board and the share text say.
        "time": format_duration(result.duration_ms),
        # The share text is the daily's (the weekly challenge has its badge instead).
        "text": None if result.weekly else share_text(result, site_url=site_url),
        "rank": rank,
        "size": size,
        "review": review,
        "spread": spread,
        "players": sum(count for _score, _won, count in spread),
        "streak": None if result.weekly else _streak(result, now=now),
        "next_deal_at": deal.closes_at.isoformat() if deal.closes_at else None,
        "server_now": now.isoformat(),
        "links": _links(result, deal),
        "practice": _practice(result, deal),
        "next_ranked": _next_ranked(result, now=now),
    }


def _place(result: Result) -> tuple[int | None, int | None, dict[str, Any] | None]:
    """(rank, board size, review): a held result has its explanation and no place; a
    disqualified one neither."""
    if result.review == Result.Review.HELD:
        return None, None, held_explanation(result=result)
    if result.review == Result.Review.DISQUALIFIED:
        return None, None, None
    assert result.day is not None  # a ranked result's (result_story checked it)
    board = board_for(result.day, result.variant, result.weekly)
    rank = board.rank(result)
    # Verified but not added yet (the board is filled just after the verifying commit).
    return (rank, board.size(), None) if rank is not None else (None, None, None)


def _spread(result: Result) -> list[list[Any]]:
    """The board's results as ``[score, won, count]``, best first: one grouped query. The
    distinct scores are few (multiples of 5 below about 2,000), so the answer stays small
    however many played; the dialog's script bands them (story-words.js)."""
    assert result.day is not None
    rows = (
        ranked_results(result.day, result.variant, result.weekly)
        .order_by()
        .values_list("score", "won")
        .annotate(count=Count("pk"))
        .order_by("-won", "-score")
    )
    return [[score, won, count] for score, won, count in rows]


def _streak(result: Result, *, now: datetime) -> dict[str, int]:
    """The daily streak as the player's scorecard counts it (leaderboards.scorecards):
    verified ranked daily games, a disqualified one nowhere, one held for review for its
    player (it is theirs until decided)."""
    days = (
        Result.objects.filter(
            player_id=result.player_id,
            status=Result.Status.VERIFIED,
            ranked=True,
            weekly=False,
            day__isnull=False,
        )
        .exclude(review=Result.Review.DISQUALIFIED)
        .values_list("day", "won")
    )
    current, best = streaks(
        ((day, won) for day, won in days if day is not None), today=utc_today(now)
    )
    return {"current": current, "best": best}


def _links(result: Result, deal: Deal) -> dict[str, str]:
    """The board the result is on, and the player's replay (theirs at once: the replay
    waits for the close only for everyone else, games.access.access_replay)."""
    assert result.day is not None
    board = (
        reverse("leaderboards:weekly", args=[week_label(result.day)])
        if result.weekly
        else daily_board_path(result.day.isoformat())
    )
    return {"board": board, "replay": reverse("leaderboards:replay", args=[result.game_id])}


def _practice(result: Result, deal: Deal) -> dict[str, Any]:
    """What "practise" offers: this very deal once its code is out (a closed daily is
    played again from the archive, a closed weekly by its code); before that a random deal
    of the same variant, since the deal is secret while its board is open."""
    if deal.is_revealed and result.day is not None:
        if result.weekly:
            query = urlencode({"code": deal.code})
            return {"deal": True, "method": "get", "url": f"{reverse('practice')}?{query}"}
        url = reverse("play_archive", args=[result.day.isoformat()])
        return {"deal": True, "method": "post", "url": url, "fields": {}}
    return {
        "deal": False,
        "method": "post",
        "url": reverse("practice"),
        "fields": {"action": "random", "variant": result.variant},
        "variant": variant_title(result.variant),
    }


def _next_ranked(result: Result, *, now: datetime) -> dict[str, str] | None:
    """The other ranked game the player can still play now: after a daily, this week's
    challenge; after the weekly, today's deal (one query, ``None`` once it is played or
    closed). It leads to the page that starts it, which says first that it is one try."""
    today = utc_today(now)
    if result.weekly:
        deals = Deal.objects.filter(kind=Deal.Kind.DAILY, day=today, variant=DAILY_VARIANT)
        kind, url = "daily", reverse("home")
    else:
        deals = Deal.objects.filter(kind=Deal.Kind.WEEKLY, day=week_monday(today))
        kind, url = "weekly", reverse("leaderboards:weekly_current")
    played = Game.objects.filter(
        deal=OuterRef("pk"), player_id=result.player_id, mode=Game.Mode.RANKED
    )
    deal = deals.filter(closes_at__gt=now).annotate(played=Exists(played)).first()
    if deal is None or deal.played:
        return None
    return {"kind": kind, "url": url}
