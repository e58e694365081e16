"""The rating board: every rated player best first, a page at a time, and the viewer's
own place with neighbours, as the other boards show it (``/boards/rating/``, a league's
``/leagues/<id>/rating/``).

The order is :func:`leaderboards.rating.selectors.rating_board`'s (the ordinal, then more
matches, then the earlier user id); equal ordinals share a rank (1, 1, 3), as equal results
do on the day boards. A rank is 1 + the players with a higher ordinal.

The site's board reads each rating's place and rank as the rating pass wrote them
(``PlayerRating.board_place``, ``board_rank``: ratings change only at the pass), so a page,
the viewer's place and the board's size are index reads whatever its size (issue 37: the
count of the players above a mid-table viewer took 200 ms at 100,000). A league's board,
a few dozen members, counts within the league: one count per page, the same few queries
for ten members or a thousand.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.db.models import Q, QuerySet

from games.models import User
from leaderboards.rating.models import PlayerRating
from leaderboards.rating.selectors import ShownRating, rating_board

PER_PAGE = 100
NEIGHBOURS = 2  # rows above and below the viewer's own in "Your position"


@dataclass(frozen=True)
class RatingRow:
    rank: int
    player_id: int
    player_name: str
    rating: ShownRating
    is_me: bool = False


@dataclass(frozen=True)
class RatingPosition:
    """The viewer's rank on the board (``None``: not rated yet) and the rows around it."""

    rank: int | None
    size: int
    rows: list[RatingRow] = field(default_factory=list)


@dataclass(frozen=True)
class RatingBoard:
    page: int  # from 1
    pages: int  # at least 1 (an empty board has one empty page)
    size: int
    rows: list[RatingRow]
    position: RatingPosition | None  # None for a visitor


def rating_board_page(
    *,
    page: int = 1,
    user: User | None,
    user_ids: QuerySet | list[int] | None = None,
    per_page: int | None = None,
) -> RatingBoard | None:
    """Page ``page`` of the board (``None`` past its last page); ``user_ids`` narrows it
    to a league's members. ``user``: whose position to show (a visitor has none)."""
    per_page = per_page or PER_PAGE
    if user_ids is None:
        return _site_page(page=page, user=user, per_page=per_page)
    board = rating_board(user_ids=user_ids)
    size = board.count()
    pages = max(1, math.ceil(size / per_page))
    if page < 1 or page > pages:
        return None
    me = user.pk if user is not None and user.is_authenticated else None
    rows = _ranked(board, start=(page - 1) * per_page, count=per_page, me=me)
    position = None if me is None else _position(board, me=me, size=size)
    return RatingBoard(page=page, pages=pages, size=size, rows=rows, position=position)


def _ranked(
    board: QuerySet[PlayerRating], *, start: int, count: int, me: int | None
) -> list[RatingRow]:
    """Rows ``start`` to ``start + count`` of the board with their shared ranks: the first
    row's by a count (it may tie with the row before the slice), the others from it."""
    found = list(board[start : start + count])
    rows: list[RatingRow] = []
    for offset, pr in enumerate(found):
        if offset == 0:
            rank = board.filter(ordinal__gt=pr.ordinal).count() + 1
        elif pr.ordinal != found[offset - 1].ordinal:
            rank = start + offset + 1  # everyone above is strictly higher
        shown = ShownRating.of(mu=pr.mu, sigma=pr.sigma, matches=pr.matches)
        rows.append(RatingRow(rank, pr.user_id, pr.user.public_name, shown, pr.user_id == me))
    return rows


def _position(board: QuerySet[PlayerRating], *, me: int, size: int) -> RatingPosition:
    mine = board.filter(user_id=me).values_list("ordinal", "matches").first()
    if mine is None:
        return RatingPosition(rank=None, size=size)
    ordinal, matches = mine
    # The viewer's place in the order: everyone sorted before them.
    ahead = Q(ordinal__gt=ordinal) | Q(ordinal=ordinal, matches__gt=matches)
    place = board.filter(ahead | Q(ordinal=ordinal, matches=matches, user_id__lt=me)).count()
    start = max(place - NEIGHBOURS, 0)
    rows = _ranked(board, start=start, count=place + 1 + NEIGHBOURS - start, me=me)
    rank = next(row.rank for row in rows if row.is_me)
    return RatingPosition(rank=rank, size=size, rows=rows)


def _site_page(*, page: int, user: User | None, per_page: int) -> RatingBoard | None:
    """The site's board from the places the last pass wrote. Its size is the last place
    + 1: an account deleted since leaves a gap until the next pass (a page one row short)."""
    placed = PlayerRating.objects.filter(board_place__isnull=False).select_related("user")
    last = placed.order_by("-board_place").values_list("board_place", flat=True).first()
    size = 0 if last is None else last + 1
    pages = max(1, math.ceil(size / per_page))
    if page < 1 or page > pages:
        return None
    me = user.pk if user is not None and user.is_authenticated else None
    start = (page - 1) * per_page
    shown = placed.filter(board_place__gte=start, board_place__lt=start + per_page)
    rows = [_placed_row(pr, me=me) for pr in shown.order_by("board_place")]
    position = None
    if me is not None:
        mine = placed.filter(user_id=me).values_list("board_place", "board_rank").first()
        place, rank = mine if mine is not None else (None, None)
        if place is None:  # not rated yet
            position = RatingPosition(rank=None, size=size)
        else:
            around = placed.filter(
                board_place__gte=place - NEIGHBOURS, board_place__lte=place + NEIGHBOURS
            ).order_by("board_place")
            near = [_placed_row(pr, me=me) for pr in around]
            position = RatingPosition(rank=rank, size=size, rows=near)
    return RatingBoard(page=page, pages=pages, size=size, rows=rows, position=position)


def _placed_row(pr: PlayerRating, *, me: int | None) -> RatingRow:
    shown = ShownRating.of(mu=pr.mu, sigma=pr.sigma, matches=pr.matches)
    rank = pr.board_rank or 0  # filtered on board_place, which the pass sets with it
    return RatingRow(rank, pr.user_id, pr.user.public_name, shown, pr.user_id == me)
