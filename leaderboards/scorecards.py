"""Reads for a player's public scorecard: counts, streaks, calendar, history, charts.

Only VERIFIED results count anywhere here: a pending claim may still be
rejected, and a rejected one never happened. Played/won/lost, streaks, the
calendar, the scores and both charts are about ranked daily games (practice
deals can be replayed until won, so their scores say little); the history
lists practice games too.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.core.paginator import Paginator
from django.db.models import Avg, Count, Max, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from games.access import is_self
from games.arenas.selectors import arena_finishes_for_player
from games.daily import utc_today
from games.display import format_duration, variant_title
from games.duels.models import Duel, DuelSeat
from games.duels.selectors import duel_list_for_player
from games.errors import NotFound
from games.models import Game, User
from games.weekly import week_label
from leaderboards import charts
from leaderboards.fairplay.selectors import held_explanation
from leaderboards.models import Result
from leaderboards.rating.chart import rating_chart
from leaderboards.rating.models import DuelRating
from leaderboards.rating.selectors import ShownRating, rating_history
from leaderboards.share import share_text
from leaderboards.streaks import day_outcomes, streaks

HISTORY_PER_PAGE = 20
CALENDAR_WEEKS = 12
# Enough to see a trend; more points would crowd the chart at phone width.
CHART_GAMES = 90


def scorecard(
    *,
    username: str,
    viewer: User | AnonymousUser | None = None,
    page: int | str = 1,
    now: datetime | None = None,
    site_url: str = "",
) -> dict[str, Any]:
    """Everything the scorecard page shows for ``username``; unknown players are NotFound.

    ``viewer`` decides only whether share texts are included (the player's own).
    """
    player = User.objects.filter(username=username, is_active=True, is_guest=False).first()
    if player is None:
        raise NotFound("there is no such player")
    today = utc_today(now or timezone.now())
    is_owner = is_self(viewer=viewer, user_id=player.pk)
    verified = Result.objects.filter(player=player, status=Result.Status.VERIFIED)
    if not (is_owner or getattr(viewer, "is_staff", False)):
        # A held result is private until decided (issue 19): others see nothing of it, in
        # the numbers as in the history; a disqualification is public.
        verified = verified.exclude(review=Result.Review.HELD)
    # A disqualified result counts nowhere; one under review counts for its player (it is
    # theirs until a reviewer decides) and shows as "under review" in the history.
    # The daily numbers: ranked daily games only (the weekly challenge has its badges and
    # its variant's row below; archive and practice games are never ranked).
    ranked = verified.filter(ranked=True, weekly=False, day__isnull=False).exclude(
        review=Result.Review.DISQUALIFIED
    )
    totals = ranked.aggregate(
        played=Count("pk"),
        won=Count("pk", filter=Q(won=True)),
        average=Avg("score"),
        best=Max("score"),
    )
    # A ranked result always has its day (or its week's Monday).
    days = [(day, won) for day, won in ranked.values_list("day", "won") if day is not None]
    current, best = streaks(days, today=today)
    played, won = totals["played"], totals["won"]
    return {
        "player": {"username": player.get_username(), "name": player.public_name},
        "is_owner": is_owner,
        "today": today,
        "stats": {
            "played": played,
            "won": won,
            "lost": played - won,  # lost and resigned alike
            "win_percent": round(100 * won / played) if played else None,
            "average_score": round(totals["average"]) if totals["average"] is not None else None,
            "best_score": totals["best"],
            "current_streak": current,
            "best_streak": best,
        },
        "calendar": calendar(day_outcomes(days), today=today),
        "history": history(verified, page=page, for_owner=is_owner, site_url=site_url),
        "charts": _charts(ranked),
        "weekly_badges": weekly_badges(verified),
        "variants": variant_stats(verified),
        "rating": rating_card(user_id=player.pk),
        "duels": duel_card(player=player),
        # Finished arenas played, their final places (linked to each table) and wins.
        "arenas": arena_finishes_for_player(user=player),
    }


def rating_card(*, user_id: int) -> dict[str, Any] | None:
    """The skill rating as the scorecard shows it, with its chart; ``None`` before the
    player's first rated deal (docs/ratings.md)."""
    shown, points = rating_history(user_id=user_id)
    if shown is None:
        return None
    labels = charts.Labels(
        title=_("Rating over time"),
        description=_("The rating after each of the last %(n)s rated deals.") % {"n": len(points)},
        x_axis=_("Deal"),
        y_axis=_("Rating"),
        empty=_("No rated deals yet"),
    )
    return {"shown": shown, "chart": mark_safe(rating_chart(points, labels=labels))}


#: The finished duels the scorecard lists, newest first (all of them: /duels/ for one's own).
RECENT_DUELS = 5


def duel_card(*, player: User) -> dict[str, Any] | None:
    """The player's duels as the scorecard shows them: the duel rating (apart from the
    skill rating, docs/ratings.md), the record of finished duels and the latest of them;
    ``None`` for a player who has finished none."""
    finished = DuelSeat.objects.filter(player=player, duel__state=Duel.State.FINISHED)
    record = finished.aggregate(
        played=Count("pk"),
        won=Count("pk", filter=Q(duel__winner=player)),
        tied=Count("pk", filter=Q(duel__outcome=Duel.Outcome.TIE)),
    )
    if not record["played"]:  # one query for most players: a duel rating needs a duel
        return None
    row = DuelRating.objects.filter(user=player).values_list("mu", "sigma", "duels").first()
    # A waiting or running duel is left out: the list is of results.
    recent = [
        {
            "duel": entry["duel"],
            "opponent": entry["opponent"],
            "outcome": "tie"
            if entry["tie"]
            else ("won" if entry["duel"].winner_id == player.pk else "lost"),
        }
        for entry in duel_list_for_player(user=player, limit=4 * RECENT_DUELS)
        if entry["duel"].state == Duel.State.FINISHED
    ][:RECENT_DUELS]
    return {
        "rating": ShownRating.of(mu=row[0], sigma=row[1], matches=row[2]) if row else None,
        "played": record["played"],
        "won": record["won"],
        "tied": record["tied"],
        "lost": record["played"] - record["won"] - record["tied"],
        "recent": recent,
    }


def weekly_badges(verified: Any) -> list[dict[str, Any]]:
    """A badge per weekly challenge won: verified ranked weekly wins on their board (one
    held for review earns it once cleared), newest first."""
    wins = (
        verified.filter(ranked=True, weekly=True, won=True)
        .exclude(review__in=(Result.Review.HELD, Result.Review.DISQUALIFIED))
        .order_by("-day")
        .values_list("day", "variant")
    )
    return [
        {
            "monday": monday,
            "week": week_label(monday),
            "variant": variant_title(variant),
            "url": reverse("leaderboards:weekly", args=[week_label(monday)]),
        }
        for monday, variant in wins
    ]


def variant_stats(verified: Any) -> list[dict[str, Any]]:
    """Per variant, every verified game of the player (daily, weekly, archive, practice;
    a disqualified one counts nowhere): games, wins and the best score, by variant name."""
    rows = (
        verified.exclude(review=Result.Review.DISQUALIFIED)
        .values("variant")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(won=True)), best=Max("score"))
        .order_by("variant")
    )
    return [
        {
            "variant": row["variant"],
            "title": variant_title(row["variant"]),
            "games": row["games"],
            "wins": row["wins"],
            "best_score": row["best"],
        }
        for row in rows
    ]


def calendar(
    outcomes: dict[date, bool], *, today: date, weeks: int = CALENDAR_WEEKS
) -> list[list[dict[str, Any]]]:
    """``weeks`` weeks of days ending with the week of ``today``, as 7 rows
    (Monday first) of one cell per week, oldest first: the layout of the grid.

    Each cell is ``{day, state, title}`` with state ``won``, ``lost``, ``none``
    (not played) or ``future``; ``title`` says the same in words.
    """
    start = today - timedelta(days=today.weekday() + 7 * (weeks - 1))
    rows: list[list[dict[str, Any]]] = []
    for weekday in range(7):
        row = []
        for week in range(weeks):
            day = start + timedelta(days=7 * week + weekday)
            if day > today:
                state, words = "future", ""
            elif day not in outcomes:
                state, words = "none", _("not played")
            elif outcomes[day]:
                state, words = "won", _("won")
            else:
                state, words = "lost", _("lost")
            title = f"{day.isoformat()}: {words}" if words else day.isoformat()
            row.append({"day": day, "state": state, "title": title})
        rows.append(row)
    return rows


def history(
    verified: Any,
    *,
    page: int | str = 1,
    for_owner: bool = False,
    site_url: str = "",
) -> dict[str, Any]:
    """The player's verified games, ranked and practice, newest first, 20 a page;
    ``for_owner``: the page is the player's own (share texts, review notes).

    A replay link is offered for a daily deal's game only once the day has
    closed: before that, a public page must not lead anyone to the deal's cards. Its
    owner has it at once (their own cards: games.access.access_replay lets them), as
    the result dialog does.
    """
    results = verified.select_related("deal", "game").order_by("-finished_at", "-pk")
    paginator = Paginator(results, HISTORY_PER_PAGE)
    current = paginator.get_page(page)  # out of range or junk: the nearest valid page
    items = []
    for result in current.object_list:
        deal = result.deal
        replayable = not deal.is_competition or deal.is_revealed or for_owner
        items.append(
            {
                "game_id": str(result.game_id),
                "ranked": result.ranked,
                # "daily", "weekly", "archive" (a closed daily played again), "duel" or
                # "practice".
                "kind": _history_kind(result),
                "day": result.day,
                "variant": variant_title(result.variant),
                "code": deal.code if deal.is_revealed else None,
                "outcome": result.outcome,
                "outcome_label": Result.Outcome(result.outcome).label,
                "won": result.won,
                "review": result.review,
                "review_label": result.get_review_display() if result.review else "",
                # Its player is told why it is held and what happens next.
                "review_note": held_explanation(result=result) if for_owner else None,
                "score": result.score,
                "moves": result.moves,
                "time": format_duration(result.duration_ms),
                "finished_at": result.finished_at,
                "replay_url": (
                    reverse("leaderboards:replay", args=[result.game_id]) if replayable else None
                ),
                "share": (
                    share_text(result, site_url=site_url)
                    if for_owner and result.ranked and not result.weekly and result.on_board
                    else None
                ),
            }
        )
    return {
        "page": current.number,
        "pages": paginator.num_pages,
        "count": paginator.count,
        "has_previous": current.has_previous(),
        "has_next": current.has_next(),
        "items": items,
    }


def _history_kind(result: Result) -> str:
    if result.ranked:
        return "weekly" if result.deal.is_weekly else "daily"
    if result.game.mode == Game.Mode.DUEL:
        return "duel"
    if result.game.mode == Game.Mode.ARENA:
        return "arena"
    return "archive" if result.game.mode == Game.Mode.ARCHIVE else "practice"


def _charts(ranked: Any) -> dict[str, SafeString]:
    recent = list(ranked.order_by("-day", "-pk").values_list("day", "score", "won")[:CHART_GAMES])
    points = [charts.Point(day=d, score=s, won=w) for d, s, w in recent]
    scores = list(ranked.values_list("score", flat=True))
    results_labels = charts.Labels(
        title=_("Daily results"),
        description=_(
            "Score of each of the last %(n)s daily games; a dot is a win, a cross a loss."
        )
        % {"n": len(points)},
        x_axis=_("Day"),
        y_axis=_("Score"),
        empty=_("No daily games yet"),
        won=_("won"),
        lost=_("lost"),
    )
    histogram_labels = charts.Labels(
        title=_("Score distribution"),
        description=_("How many daily games scored in each band of 100 points."),
        x_axis=_("Score"),
        y_axis=_("Games"),
        empty=_("No daily games yet"),
    )
    # Safe to mark: the chart functions escape every piece of text they embed.
    return {
        "results": mark_safe(
            charts.results_chart(points, labels=results_labels, chart_id="chart-results")
        ),
        "scores": mark_safe(
            charts.score_histogram(scores, labels=histogram_labels, chart_id="chart-scores")
        ),
    }
