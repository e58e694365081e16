"""The one funnel for permission checks on games: who may play, who may watch."""

from __future__ import annotations

import uuid
from typing import Literal

from games.errors import Forbidden, NotAuthenticated, NotFound
from games.models import Deal, Game, User

Purpose = Literal["play", "watch"]


def access_game(
    *, user: User | None, game_id: object, purpose: Purpose, lock: bool = False
) -> Game:
    """The game ``user`` may ``play`` (its owner only) or ``watch``; else a refusal.

    ``user=None`` is the system itself (closing a day), which may play any game.
    Watching: the owner always; a game of a daily deal that has not closed,
    only players who have finished their own ranked attempt at it; any other
    game, anyone with its link (it is unguessable).
    """
    try:
        pk = uuid.UUID(str(game_id))
    except ValueError:
        raise NotFound(f"{game_id!r} is not a game id") from None
    games = Game.objects.select_related("deal", "player")
    if lock:
        games = games.select_for_update(of=("self",))
    game = games.filter(pk=pk).first()
    if game is None:
        raise NotFound("there is no such game")
    if user is None:
        return game
    if purpose == "play":
        if not user.is_authenticated:
            raise NotAuthenticated("sign in to play")
        if game.player_id != user.pk:
            raise Forbidden("only the game's player may play it")
        return game
    if (user.is_authenticated and game.player_id == user.pk) or may_watch_deal(user, game.deal):
        return game
    raise Forbidden("a daily game can be watched once you have finished your own attempt")


def may_watch_deal(user: User, deal: Deal) -> bool:
    """Whether ``user`` may see other players' games of ``deal`` as they happen."""
    if deal.is_revealed:
        return True
    if not user.is_authenticated:
        return False
    return (
        Game.objects.filter(player=user, deal=deal, mode=Game.Mode.RANKED)
        .exclude(status=Game.Status.ACTIVE)
        .exists()
    )
