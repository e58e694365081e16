"""Writes of the skill rating: rating each closed deal once, in deal order, and replaying
from a deal whose standing results changed after it was rated (``docs/ratings.md``).

A deal is rated when it is closed (revealed) and its results are final: every ranked game
on it finished and decided (the close resigns the unfinished ones; their verifications
follow within seconds). Until then the pass waits at that deal, so matches are always
applied in (close, deal id) order and the ratings equal a rebuild from scratch. Held
results are not in the match (they are off the board); a later decision marks the deal
``stale`` (:func:`ratings_mark_stale`) and the next pass replays from it.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from django.db import transaction
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from games.engine.ranking import competition_ranks, tie_floor
from games.models import Deal, Game
from leaderboards.boards import ranked_results
from leaderboards.models import Result
from leaderboards.rating.maths import MODEL, Rating, rate_match
from leaderboards.rating.models import PlayerRating, RatedMatch, RatingHistory

#: pg_advisory_xact_lock key: one rating pass at a time across the workers.
_LOCK_KEY = 0x40_5241_5445  # "@RATE"
_CHUNK = 5000


def ratings_mark_stale(*, deal_id: int) -> None:
    """A result of this deal changed its standing (held, cleared, disqualified): if the
    deal was rated, the next pass replays the ratings from it (inside the caller's
    transaction, so the mark and the decision commit together)."""
    RatedMatch.objects.filter(deal_id=deal_id, stale=False).update(stale=True)


def ratings_apply(*, limit: int | None = None) -> int:
    """The pass (every minute, ``leaderboards.rate_deals``): replay from the earliest stale
    or skipped deal if there is one, then rate the closed deals not yet rated, in order,
    up to the first one whose results are not final yet. Returns how many deals were
    rated; running it again does nothing."""
    with transaction.atomic():
        _lock()
        start = _replay_start()
        if start is not None:
            _replay_from(*start)
    rated = 0
    for deal in _due_deals():
        if limit is not None and rated >= limit:
            break
        if not deal_results_final(deal=deal):
            break  # the next pass resumes here: later deals wait, so the order holds
        if deal_rate(deal=deal):
            rated += 1
    if rated or start is not None:
        ratings_place()
    return rated


def ratings_place() -> int:
    """Write every rating's place on the rating board and its shared rank, as the board
    orders them (:func:`leaderboards.rating.selectors.rating_board`), so a page reads its
    rows and the viewer's by an index instead of counting the players above (issue 37).
    One statement over every rating, after a pass changed any; returns the rows changed."""
    table = PlayerRating._meta.db_table
    with transaction.atomic():
        _lock()
        with transaction.get_connection().cursor() as cursor:
            cursor.execute(PLACE_SQL.format(table=table))
            return cursor.rowcount


#: Ratings' places and ranks from window functions (PostgreSQL, and SQLite >= 3.33).
PLACE_SQL = """
    UPDATE {table} SET board_place = ordered.place, board_rank = ordered.shared
    FROM (
        SELECT id,
               ROW_NUMBER() OVER (ORDER BY ordinal DESC, matches DESC, user_id) - 1 AS place,
               RANK() OVER (ORDER BY ordinal DESC) AS shared
        FROM {table}
    ) AS ordered
    WHERE {table}.id = ordered.id
      AND ({table}.board_place IS NULL OR {table}.board_place <> ordered.place
           OR {table}.board_rank IS NULL OR {table}.board_rank <> ordered.shared)
"""


def ratings_rebuild() -> int:
    """Forget every rating and rate every closed deal again from the results (the
    source of truth), in deal order. Returns how many deals were rated."""
    with transaction.atomic():
        _lock()
        RatedMatch.objects.all().delete()  # and, by cascade, the history
        PlayerRating.objects.all().delete()
    return ratings_apply()


def deal_results_final(*, deal: Deal) -> bool:
    """Whether every ranked game on the deal has finished and its result is decided."""
    undecided = Game.objects.filter(deal_id=deal.pk, mode=Game.Mode.RANKED).exclude(
        result__status__in=[Result.Status.VERIFIED, Result.Status.REJECTED]
    )
    return deal.revealed_at is not None and not undecided.exists()


def deal_rate(*, deal: Deal) -> bool:
    """Rate one closed deal as one match, once: True if it was rated now. The standing
    results are the board's (:func:`leaderboards.boards.ranked_results`: verified, ranked,
    neither held nor disqualified) in its order, equal results sharing a place."""
    assert deal.closes_at is not None and deal.day is not None, "a competition deal"
    with transaction.atomic():
        _lock()
        if RatedMatch.objects.filter(deal_id=deal.pk).exists():
            return False
        players, places = deal_standings(deal=deal)
        match = RatedMatch.objects.create(deal=deal, closes_at=deal.closes_at, players=len(players))
        if len(players) >= 2:
            _apply(match, players, places)
    return True


def deal_standings(*, deal: Deal) -> tuple[list[int], list[int]]:
    """The deal's players in the board's order and their shown places (1, 1, 3). A player
    counts once, at their best (a board holds one ranked result a player; this guards it)."""
    assert deal.day is not None
    rows = ranked_results(deal.day, deal.variant, deal.is_weekly).values_list(
        "player_id", "sort_key"
    )
    seen: set[int] = set()
    players: list[int] = []
    ties: list[int] = []
    for player_id, key in rows.iterator(chunk_size=_CHUNK):
        if player_id not in seen:
            seen.add(player_id)
            players.append(player_id)
            ties.append(tie_floor(key))
    return players, competition_ranks(ties)


def _apply(match: RatedMatch, players: list[int], places: list[int]) -> None:
    current = dict(_ratings_of(players))
    before = [current.get(p, (Rating(), 0))[0] for p in players]
    after = rate_match(before, places)
    counts = [current.get(p, (r, 0))[1] + 1 for p, r in zip(players, after, strict=True)]
    rows = [
        PlayerRating(user_id=p, mu=r.mu, sigma=r.sigma, ordinal=r.ordinal, matches=n)
        for p, r, n in zip(players, after, counts, strict=True)
    ]
    PlayerRating.objects.bulk_create(
        rows,
        batch_size=_CHUNK,
        update_conflicts=True,
        unique_fields=["user"],
        update_fields=["mu", "sigma", "ordinal", "matches", "updated_at"],
    )
    RatingHistory.objects.bulk_create(
        (
            RatingHistory(
                user_id=p,
                match=match,
                deal_id=match.deal_id,
                closes_at=match.closes_at,
                place=place,
                mu=r.mu,
                sigma=r.sigma,
                ordinal=r.ordinal,
                matches=n,
            )
            for p, place, r, n in zip(players, places, after, counts, strict=True)
        ),
        batch_size=_CHUNK,
    )


def _ratings_of(players: list[int]) -> Iterator[tuple[int, tuple[Rating, int]]]:
    for lo in range(0, len(players), _CHUNK):
        chunk = PlayerRating.objects.filter(user_id__in=players[lo : lo + _CHUNK])
        for user_id, mu, sigma, matches in chunk.values_list("user_id", "mu", "sigma", "matches"):
            yield user_id, (Rating(mu, sigma), matches)


def _due_deals() -> QuerySet[Deal]:
    return Deal.objects.filter(
        kind__in=(Deal.Kind.DAILY, Deal.Kind.WEEKLY),
        revealed_at__isnull=False,
        closes_at__isnull=False,
        rated_match__isnull=True,
    ).order_by("closes_at", "id")


def _replay_start() -> tuple[datetime, int] | None:
    """Where the ratings must be replayed from: the earliest stale rated deal, or a closed
    deal left unrated behind a later rated one (closed late), whichever comes first."""
    latest = RatedMatch.objects.order_by("-closes_at", "-deal_id").first()
    if latest is None:
        return None
    stale = RatedMatch.objects.filter(stale=True).order_by("closes_at", "deal_id").first()
    behind = (
        _due_deals()
        .filter(
            Q(closes_at__lt=latest.closes_at) | Q(closes_at=latest.closes_at, id__lt=latest.deal_id)
        )
        .first()
    )
    starts = [(m.closes_at, m.deal_id) for m in (stale,) if m is not None]
    if behind is not None:
        assert behind.closes_at is not None
        starts.append((behind.closes_at, behind.pk))
    return min(starts) if starts else None


def _replay_from(closes_at: datetime, deal_id: int) -> None:
    """Undo every rated deal from (``closes_at``, ``deal_id``) on: their history goes, and
    each player they touched returns to their last rating before it (or to none)."""
    later = RatedMatch.objects.filter(
        Q(closes_at__gt=closes_at) | Q(closes_at=closes_at, deal_id__gte=deal_id)
    )
    touched = list(
        RatingHistory.objects.filter(match__in=later).values_list("user_id", flat=True).distinct()
    )
    later.delete()
    kept = RatingHistory.objects.filter(user_id=OuterRef("user_id")).order_by(
        "-closes_at", "-deal_id"
    )
    count = (
        RatingHistory.objects.filter(user_id=OuterRef("user_id"))
        .values("user_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    for lo in range(0, len(touched), _CHUNK):
        PlayerRating.objects.filter(user_id__in=touched[lo : lo + _CHUNK]).update(
            mu=Coalesce(Subquery(kept.values("mu")[:1]), Value(MODEL.mu)),
            sigma=Coalesce(Subquery(kept.values("sigma")[:1]), Value(MODEL.sigma)),
            ordinal=Coalesce(Subquery(kept.values("ordinal")[:1]), Value(Rating().ordinal)),
            matches=Coalesce(Subquery(count), Value(0)),
        )
    for lo in range(0, len(touched), _CHUNK):
        PlayerRating.objects.filter(user_id__in=touched[lo : lo + _CHUNK], matches=0).delete()


def _lock() -> None:
    """One pass at a time (PostgreSQL; SQLite has one writer anyway), until the commit."""
    connection = transaction.get_connection()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK_KEY])
