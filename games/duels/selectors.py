"""Reads of duels: a duel as its page and its socket show it (counts, never a card)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.duels.messages import DuelView, SeatView
from games.duels.models import Duel, DuelSeat
from games.errors import NotFound
from games.models import Game, User
from games.runtime.live import engine_for
from games.signals import duel_ratings


def duel_read(*, duel_id: object) -> Duel:
    """The duel ``duel_id`` names (anyone with its link may watch it); ``NotFound``."""
    try:
        pk = uuid.UUID(str(duel_id))
    except ValueError:
        raise NotFound(f"{duel_id!r} is not a duel id") from None
    duel = Duel.objects.select_related("deal").filter(pk=pk).first()
    if duel is None:
        raise NotFound("there is no such duel")
    return duel


def duel_seats(duel: Duel) -> list[DuelSeat]:
    return list(duel.seats.select_related("player", "game").order_by("seat"))


def duel_view(*, user: User | AnonymousUser | None, duel: Duel) -> DuelView:
    """The duel as ``user`` sees it: the seats' counts, the clock, the viewer's own seat
    and game; the deal's code only once both games are over (it is revealed then)."""
    seats = duel_seats(duel)
    viewer = getattr(user, "pk", None)
    mine = next((s for s in seats if s.player_id == viewer and viewer is not None), None)
    ratings = duel_ratings([s.player_id for s in seats])
    deal = duel.deal
    return DuelView(
        id=str(duel.pk),
        state=duel.state,  # type: ignore[typeddict-item]
        rated=duel.rated,
        variant=duel.variant,
        time_control=duel.time_control,
        started_at=_iso(duel.started_at),
        ends_at=_iso(duel.ends_at),
        ended_at=_iso(duel.ended_at),
        server_now=_iso(timezone.now()) or "",
        outcome=duel.outcome,
        role="player" if mine is not None else "watcher",
        seat=mine.seat if mine is not None else None,
        game_id=str(mine.game_id) if mine is not None and mine.game_id else None,
        commitment=deal.commitment or None if deal is not None else None,
        code=deal.code if deal is not None and _revealed(duel) else None,
        grace_seconds=settings.FT_DUEL_GRACE_SECONDS,
        seats=[
            _seat_view(s, duel, ratings.get(s.player_id, 0), revealed=_revealed(duel))
            for s in seats
        ],
    )


def _revealed(duel: Duel) -> bool:
    return duel.deal is not None and duel.deal.revealed_at is not None


def _seat_view(seat: DuelSeat, duel: Duel, rating: int, *, revealed: bool) -> SeatView:
    game = seat.game
    home = stock = 0
    if game is not None:
        engine = engine_for(game)
        home, stock = engine.home, len(engine.stock)
    return SeatView(
        seat=seat.seat,
        name=seat.player.public_name,
        rating=rating,
        home=home,
        stock=stock,
        score=game.score if game else 0,
        moves=game.moves if game else 0,
        version=game.version if game else 0,
        status=game.status if game else None,  # type: ignore[typeddict-item]
        time_ms=duel_time_ms(duel, game),
        connected=seat.sockets > 0,
        forfeited=seat.forfeited,
        place=seat.place,
        replay_game_id=str(seat.game_id) if revealed and seat.game_id else None,
    )


def duel_time_ms(duel: Duel, game: Game | None) -> int | None:
    """A finished game's time in the duel: from the duel's start to its finish."""
    if game is None or game.finished_at is None or duel.started_at is None:
        return None
    return max(0, int((game.finished_at - duel.started_at).total_seconds() * 1000))


def duel_list_for_player(*, user: User, limit: int = 20) -> list[dict[str, Any]]:
    """The player's latest duels, newest first, with the opponent and the place."""
    rows = []
    seats = (
        DuelSeat.objects.filter(player=user)
        .select_related("duel")
        .order_by("-duel__created_at")[:limit]
    )
    for seat in seats:
        other = (
            DuelSeat.objects.filter(duel_id=seat.duel_id)
            .exclude(player=user)
            .select_related("player")
            .first()
        )
        rows.append(
            {
                "duel": seat.duel,
                "opponent": other.player.public_name if other else None,
                "place": seat.place,
                "tie": seat.duel.outcome == Duel.Outcome.TIE,
            }
        )
    return rows


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None
