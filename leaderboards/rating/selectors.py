"""Reads of the skill rating for the pages and the API: a player's rating as shown, the
ratings beside a board's names in one query, its history for the chart, the rating board."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from leaderboards.rating.maths import (
    Rating,
    display_uncertainty,
    display_value,
    is_provisional,
)
from leaderboards.rating.models import PlayerRating, RatingHistory


@dataclass(frozen=True)
class ShownRating:
    """A rating as a page shows it: the value, its ± and whether it has settled."""

    value: int
    uncertainty: int
    provisional: bool
    matches: int
    mu: float
    sigma: float

    @classmethod
    def of(cls, *, mu: float, sigma: float, matches: int) -> ShownRating:
        rating = Rating(mu, sigma)
        return cls(
            value=display_value(rating),
            uncertainty=display_uncertainty(rating),
            provisional=is_provisional(sigma=sigma, matches=matches),
            matches=matches,
            mu=mu,
            sigma=sigma,
        )


def rating_of(*, user_id: int) -> ShownRating | None:
    """The player's rating, or ``None`` before their first rated deal."""
    row = PlayerRating.objects.filter(user_id=user_id).values_list("mu", "sigma", "matches")
    found = row.first()
    return None if found is None else ShownRating.of(mu=found[0], sigma=found[1], matches=found[2])


#: What a query of users joins to read their ratings with them (``select_related``), and
#: the columns :func:`rating_of_loaded` reads when the query narrows its fields (``only``).
JOIN = "skill_rating"
JOIN_FIELDS = ("skill_rating__mu", "skill_rating__sigma", "skill_rating__matches")


def rating_of_loaded(user: object) -> ShownRating | None:
    """The rating of a user loaded with ``select_related(JOIN)``: no query of its own
    (the join left it empty for an unrated player, and Django remembers that)."""
    try:
        row = user.skill_rating  # type: ignore[attr-defined]
    except PlayerRating.DoesNotExist:
        return None
    return ShownRating.of(mu=row.mu, sigma=row.sigma, matches=row.matches)


def ratings_for(*, user_ids: Iterable[int]) -> dict[int, ShownRating]:
    """The ratings of a page's players, in one query (none for the unrated)."""
    rows = PlayerRating.objects.filter(user_id__in=set(user_ids)).values_list(
        "user_id", "mu", "sigma", "matches"
    )
    return {u: ShownRating.of(mu=m, sigma=s, matches=n) for u, m, s, n in rows}


def rating_history(
    *, user_id: int, limit: int = 366
) -> tuple[ShownRating | None, list[tuple[datetime, int]]]:
    """The player's rating now and the shown value after each of their last ``limit``
    rated deals, oldest first (the deal's close, the value), in one query: the last
    history row is the current rating. ``(None, [])`` before the first rated deal."""
    rows = list(
        RatingHistory.objects.filter(user_id=user_id)
        .order_by("-closes_at", "-deal_id")
        .values_list("closes_at", "mu", "sigma", "matches")[:limit]
    )
    if not rows:
        return None, []
    _, mu, sigma, matches = rows[0]
    now = ShownRating.of(mu=mu, sigma=sigma, matches=matches)
    return now, [(at, display_value(Rating(m, s))) for at, m, s, _ in reversed(rows)]


def rating_board(*, user_ids: QuerySet | Collection[int] | None = None) -> QuerySet[PlayerRating]:
    """Every rated player, best first (the ordinal, then more matches, then the earlier
    rated); ``user_ids`` narrows it (a league's members). Callers paginate it."""
    rows = PlayerRating.objects.select_related("user")
    if user_ids is not None:
        rows = rows.filter(user_id__in=user_ids)
    return rows.order_by("-ordinal", "-matches", "user_id")
