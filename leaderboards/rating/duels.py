"""The duel rating (docs/ratings.md, "The duel rating"): each rated duel is one match of
two players in the skill rating's Gaussian filter (``leaderboards.rating.maths``), apart from
the skill rating of the daily and weekly deals.

Games announces a decided duel once both its games are over (``duel_finished``); this
waits until both games' results are decided by the replay (``leaderboards.services.
result_verify``) and rates the duel on the verified results, never on the games' own
summary: the places come from ``games.duels.outcome.duel_places`` (the board's order from
the duel's start) with a rejected result counted as a loss, like a forfeit. Rated once
(``RatedDuel``); the sweep re-enqueues a duel whose results were not ready yet.
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games.duels.models import Duel, DuelSeat
from games.duels.outcome import Standing, duel_places
from leaderboards.models import Result
from leaderboards.rating.maths import Rating, display_value, rate_match
from leaderboards.rating.models import DuelRating, RatedDuel

#: How far back the sweep looks for finished duels that were not rated yet.
SWEEP_DAYS = 2

# Win trading (one account losing on purpose to another to lift its rating). What is
# detected, from the duels alone: a *thrown* duel, lost by resigning (the player's own
# resign, not the server's flag) or by forfeit after fewer than THROWN_MOVES moves; and
# how often the same two accounts meet. A thrown duel rates only if the same loser has not
# thrown a rated duel to the same winner in the last THROWN_DAYS days; and at most
# PAIR_PER_DAY duels of the same two accounts count per 24 hours, however they end. The
# rest are played and shown, and rated as nothing (``RatedDuel.skipped = "trading"``).
THROWN_MOVES = 10
THROWN_DAYS = 7
PAIR_PER_DAY = 3


def duel_rate(*, duel_id: object) -> bool:
    """Rate a finished, rated duel once both its results are decided; ``True`` when it
    moved the ratings now. Idempotent (``RatedDuel``)."""
    try:
        pk = uuid.UUID(str(duel_id))
    except ValueError:
        return False
    duel = Duel.objects.filter(pk=pk, state=Duel.State.FINISHED, rated=True).first()
    if duel is None or duel.started_at is None or RatedDuel.objects.filter(duel=duel).exists():
        return False
    seats = list(DuelSeat.objects.filter(duel=duel).order_by("seat"))
    found = Result.objects.filter(game_id__in=[s.game_id for s in seats])
    results = {r.game_id: r for r in found}
    decided = (Result.Status.VERIFIED, Result.Status.REJECTED)
    mine = [results.get(s.game_id) if s.game_id else None for s in seats]
    if len(seats) != 2 or any(r is None or r.status not in decided for r in mine):
        return False  # a verification still to come: the sweep asks again
    standings = [_standing(seat, r, duel) for seat, r in zip(seats, mine, strict=True) if r]
    places = [] if all(s.forfeited for s in standings) else duel_places(standings)
    skipped = "" if places else "forfeits"
    if places and _trading(duel, seats, places, list(mine)):
        places, skipped = [], "trading"
    try:
        with transaction.atomic():
            RatedDuel.objects.create(duel=duel, places=places, skipped=skipped)
            if places:
                _apply(seats, places)
    except IntegrityError:  # rated meanwhile by another delivery
        return False
    return bool(places)


def _thrown(seat: DuelSeat, result: Result | None) -> bool:
    """Whether ``seat`` lost in a way that costs nothing to arrange: a resign of its own or
    a forfeit, before ``THROWN_MOVES`` moves."""
    if result is None or result.moves >= THROWN_MOVES:
        return False
    return seat.forfeited or result.outcome == "resigned"


def _trading(
    duel: Duel, seats: list[DuelSeat], places: list[int], results: list[Result | None]
) -> bool:
    """Whether the win-trading rules leave this duel unrated (see ``THROWN_MOVES``)."""
    assert duel.ended_at is not None
    players = {s.player_id for s in seats}
    pair = RatedDuel.objects.filter(duel__seats__player_id=seats[0].player_id).filter(
        duel__seats__player_id=seats[1].player_id,
        duel__ended_at__gte=duel.ended_at - timedelta(days=1),
    )
    if pair.exclude(skipped="trading").exclude(places=[]).count() >= PAIR_PER_DAY:
        return True
    if places == [1, 1]:
        return False
    loser = places.index(2)
    if not _thrown(seats[loser], results[loser]):
        return False
    winner_id = seats[1 - loser].player_id
    since = duel.ended_at - timedelta(days=THROWN_DAYS)
    earlier = RatedDuel.objects.filter(
        duel__ended_at__gte=since, duel__winner_id=winner_id, skipped=""
    ).exclude(places=[])
    for rated in earlier.filter(duel__seats__player_id=seats[loser].player_id).select_related(
        "duel"
    ):
        old = {s.player_id: s for s in rated.duel.seats.all()}
        if set(old) != players:
            continue
        thrower = old[seats[loser].player_id]
        if thrower.game_id is None:
            continue
        result = Result.objects.filter(game_id=thrower.game_id).first()
        if _thrown(thrower, result):
            return True
    return False


def _standing(seat: DuelSeat, result: Result, duel: Duel) -> Standing:
    assert duel.started_at is not None
    lost = seat.forfeited or result.status != Result.Status.VERIFIED
    elapsed = (result.finished_at - duel.started_at) // timedelta(milliseconds=1)
    return Standing(
        forfeited=lost,
        won=result.won,
        score=result.score,
        moves=result.moves,
        duration_ms=max(0, int(elapsed)),
    )


def _apply(seats: list[DuelSeat], places: list[int]) -> None:
    rows = []
    for seat in seats:
        row, _ = DuelRating.objects.select_for_update().get_or_create(user_id=seat.player_id)
        rows.append(row)
    order = sorted(range(len(seats)), key=lambda i: places[i])
    new = rate_match(
        [Rating(mu=rows[i].mu, sigma=rows[i].sigma) for i in order], [places[i] for i in order]
    )
    for i, rating in zip(order, new, strict=True):
        row = rows[i]
        row.mu, row.sigma, row.ordinal = rating.mu, rating.sigma, rating.ordinal
        row.duels += 1
        row.save(update_fields=["mu", "sigma", "ordinal", "duels", "updated_at"])


def duel_rate_of_game(*, game_id: object) -> bool:
    """:func:`duel_rate` of the duel a verified game belongs to (its verdict may have been
    the last one the duel's rating waited for)."""
    seat = DuelSeat.objects.filter(game_id=str(game_id)).values_list("duel_id", flat=True).first()
    return seat is not None and duel_rate(duel_id=seat)


def duel_ratings_rebuild() -> int:
    """Forget every duel rating and rate every finished rated duel again from its verified
    results, in the order they ended (``manage.py rebuild_duel_ratings``); returns how many
    moved the ratings. The win-trading rules read the duels rated before, so the order
    gives the same skips as the incremental passes."""
    with transaction.atomic():
        RatedDuel.objects.all().delete()
        DuelRating.objects.all().delete()
    rated = 0
    for pk in (
        Duel.objects.filter(state=Duel.State.FINISHED, rated=True)
        .order_by("ended_at", "pk")
        .values_list("pk", flat=True)
        .iterator()
    ):
        rated += duel_rate(duel_id=pk)
    return rated


def duels_needing_rating() -> list[str]:
    """Finished rated duels of the last days not rated yet (the sweep's)."""
    since = timezone.now() - timedelta(days=SWEEP_DAYS)
    return [
        str(pk)
        for pk in Duel.objects.filter(
            state=Duel.State.FINISHED, rated=True, ended_at__gte=since, rating_done__isnull=True
        ).values_list("pk", flat=True)[:1000]
    ]


def duel_ratings_shown(*, user_ids: list[int], **_: Any) -> dict[int, int]:
    """The shown duel ratings of ``user_ids`` (the ``duel_ratings_wanted`` receiver: the
    queue pairs by them and the duel page shows them); players without one are left out."""
    return {
        row.user_id: display_value(Rating(mu=row.mu, sigma=row.sigma))
        for row in DuelRating.objects.filter(user_id__in=user_ids)
    }
