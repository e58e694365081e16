"""The hello's position made once a version (``games.payloads._position`` on the game's live
entry): the same version's sockets share it, and a move, here or in another process, is
never answered with an older position."""

from __future__ import annotations

import uuid

import pytest

from games import selectors, services
from games.models import Game, User
from games.payloads import _position_of
from games.runtime import live
from games.runtime.live import live_position, live_position_keep, replay_log
from tests.games.runtime.test_live import CODE, written_elsewhere
from tests.support.games import game_play

pytestmark = pytest.mark.django_db


def fresh_position(game_id: uuid.UUID) -> dict[str, object]:
    """The position replayed from the log alone, nothing held."""
    row = Game.objects.select_related("deal").get(pk=game_id)
    moves = list(row.actions.order_by("seq").values_list("move", flat=True))
    return _position_of(row, replay_log(row, moves))


def hello(user: User, game: Game) -> dict[str, object]:
    return selectors.game_state(user=user, game_id=game.pk)


def test_the_sockets_of_one_version_share_one_position(user: User) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    first, second = hello(user, game), hello(user, game)
    assert second["board"] is first["board"]
    assert second["legal_moves"] is first["legal_moves"]
    assert first["board"] == fresh_position(game.pk)["board"]


def test_a_move_here_is_never_answered_with_the_older_position(user: User) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    before = hello(user, game)
    game_play(user=user, game_id=game.pk, move="s")
    after = hello(user, game)
    assert after["version"] == 1 and after["board"] != before["board"]
    expected = fresh_position(game.pk)
    assert {k: after[k] for k in expected} == expected


def test_a_move_in_another_process_is_never_answered_with_the_older_position(
    user: User,
) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    game_play(user=user, game_id=game.pk, move="s")  # held here at version 1
    at_one = hello(user, game)
    written_elsewhere(game, move="s")  # version 2, unseen by the held entry
    at_two = hello(user, game)
    assert at_two["version"] == 2 and at_two["board"] != at_one["board"]
    expected = fresh_position(game.pk)
    assert {k: at_two[k] for k in expected} == expected


def test_a_position_is_not_kept_for_a_version_the_entry_has_left(user: User) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    game_play(user=user, game_id=game.pk, move="s")  # held at version 1
    old_row = Game.objects.select_related("deal").get(pk=game.pk)
    game_play(user=user, game_id=game.pk, move="s")  # held at version 2
    live_position_keep(old_row, {"board": "version 1's"})
    assert live_position(old_row) is None
    assert live_position(Game.objects.select_related("deal").get(pk=game.pk)) is None


def test_a_forgotten_game_keeps_no_position(user: User) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    game_play(user=user, game_id=game.pk, move="s")
    hello(user, game)
    row = Game.objects.select_related("deal").get(pk=game.pk)
    assert live_position(row) is not None
    live.live_forget(game_id=game.pk)
    assert live_position(row) is None
