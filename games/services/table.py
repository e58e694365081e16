"""New game and Restart on a practice or archive table.

Both leave the old game as it is in the log: an unfinished one ends as resigned (an
ordinary ``resign`` action through ``game_act``), never rewritten or reset, because the
log is append-only and is the game. Restart deals the same deal again as a new game; New
game starts a random deal of the same variant. Neither exists for a ranked game: a
Restart would be a second attempt at the competition (refused ``ranked_table``).
"""

from __future__ import annotations

from django.conf import settings

from games.access import access_game
from games.engine import RESIGN
from games.errors import Conflict
from games.models import Game, PracticePoolDeal, User
from games.services.play import game_act
from games.services.practice_pool import PoolEmpty
from games.services.starts import game_create, game_start_practice
from games.throttles import throttle_check, who


class RankedTable(Conflict):
    """New game or Restart asked on a ranked game (one attempt per player and deal)."""

    code = "ranked_table"


def _table_game(*, user: User, game_id: object) -> Game:
    """The player's own unranked game, counted against ``FT_RATE_TABLE_RESTARTS``."""
    game = access_game(user=user, game_id=game_id, purpose="play")
    if game.mode == Game.Mode.DUEL:
        raise RankedTable("a duel's game has one attempt: no restart or new deal")
    if game.mode == Game.Mode.ARENA:
        raise RankedTable("an arena round's game has one attempt: no restart or new deal")
    if game.mode == Game.Mode.RANKED:
        raise RankedTable(
            f"a ranked game of {game.deal.competition_label} has one attempt: no restart"
            " or new deal from its table"
        )
    throttle_check(
        name="table",
        rate=settings.FT_RATE_TABLE_RESTARTS,
        ident=who(user_id=user.pk),
        what="new games and restarts",
    )
    return game


def _end(*, user: User, game: Game) -> None:
    game.refresh_from_db(fields=["status"])
    if not game.is_finished:
        game_act(user=user, game_id=game.pk, kind=RESIGN)


def game_restart(*, user: User, game_id: object) -> Game:
    """The same deal from the start, as a new game of the same mode (practice or
    archive); the old game, if unfinished, ends as resigned."""
    game = _table_game(user=user, game_id=game_id)
    new = game_create(user=user, deal=game.deal, mode=game.mode)
    _end(user=user, game=game)
    return new


def game_new_deal(*, user: User, game_id: object) -> Game:
    """A practice game of a new random deal of the same variant; the old game, if
    unfinished, ends as resigned. Counted as a practice start too. A game of a proven
    deal (the "winnable deals only" pool) is followed by another proven deal when one is
    ready, else by any random deal."""
    game = _table_game(user=user, game_id=game_id)
    # Started first: a start refused (the practice limit) leaves the old game as it was.
    new = _next_deal(user=user, game=game)
    _end(user=user, game=game)
    return new


def _next_deal(*, user: User, game: Game) -> Game:
    variant = game.deal.variant
    if PracticePoolDeal.objects.filter(deal_id=game.deal_id).exists():
        try:
            return game_start_practice(user=user, variant=variant, winnable=True)
        except PoolEmpty:
            pass
    return game_start_practice(user=user, variant=variant)
