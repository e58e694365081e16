"""Safe cards sent home by the server (games.services.play with Game.auto_home): the moves
follow a player's move in the same write, flagged as the server's; an undo takes them back
with the move; a re-sent id answers with them; a client has no way to send the flag."""

from __future__ import annotations

import pytest

from games import selectors, services
from games.engine import GameState
from games.models import Action, Game, User
from games.runtime.live import live_clear

from .conftest import assert_refused

CODE = "FT1-N-0000063"  # column 7 ends with the ace of hearts over the ace of hearts


def start(user: User, *, auto_home: bool = True) -> Game:
    user.table_settings = {"auto_home": auto_home}
    user.save(update_fields=["table_settings"])
    return services.game_start_practice(user=user, code=CODE)


def log_of(game: Game) -> list[tuple[str, bool, str]]:
    rows = Action.objects.filter(game=game).order_by("seq")
    return list(rows.values_list("move", "by_system", "client_id"))


def test_the_option_is_fixed_on_the_game_from_the_players_setting(user: User) -> None:
    assert start(user).auto_home is True
    assert start(user, auto_home=False).auto_home is False


def test_a_move_brings_the_safe_home_moves_in_the_same_write(user: User) -> None:
    game = start(user)
    result = services.game_act(user=user, game_id=game.pk, kind="move", move="s", client_id="c1")
    assert result.action == "s" and result.automatic == ("t7-f2", "t7-f6")
    assert result.version == 3 and result.changes["foundations"]
    assert log_of(game) == [("s", False, "c1"), ("t7-f2", True, ""), ("t7-f6", True, "")]
    game.refresh_from_db()
    assert game.version == 3 and game.score == 20


def test_without_the_option_nothing_moves_by_itself(user: User) -> None:
    game = start(user, auto_home=False)
    result = services.game_act(user=user, game_id=game.pk, kind="move", move="s")
    assert result.automatic == () and result.version == 1


def test_an_undo_takes_back_the_move_with_the_safe_moves_it_caused(user: User) -> None:
    game = start(user)
    services.game_act(user=user, game_id=game.pk, kind="move", move="s", client_id="c1")
    result = services.game_act(user=user, game_id=game.pk, kind="undo", client_id="c2")
    assert result.action == "undo" and result.automatic == ("undo", "undo")
    assert result.version == 6
    assert log_of(game)[3:] == [("undo", True, ""), ("undo", True, ""), ("undo", False, "c2")]
    live_clear()  # the position rebuilt from the log is the deal's again
    board = selectors.game_state(user=user, game_id=game.pk)["board"]
    assert board["stock"] == GameState.from_code(CODE).stock_count
    assert all(f["count"] == 0 for f in board["foundations"])


def test_a_resent_id_is_answered_with_its_safe_moves_and_applies_nothing(user: User) -> None:
    game = start(user)
    services.game_act(user=user, game_id=game.pk, kind="move", move="s", client_id="c1")
    again = services.game_act(user=user, game_id=game.pk, kind="move", move="s", client_id="c1")
    assert again.duplicate and again.automatic == ("t7-f2", "t7-f6") and again.version == 3
    assert len(log_of(game)) == 3


def test_the_log_the_server_writes_passes_the_audit(user: User) -> None:
    from games.engine.audit import Claim, Logged, replay_claim

    game = start(user)
    for kind, move in (("move", "s"), ("undo", None), ("move", "s"), ("resign", None)):
        services.game_act(user=user, game_id=game.pk, kind=kind, move=move)
    game.refresh_from_db()
    rows = Action.objects.filter(game=game).order_by("seq")
    log = [Logged(*row) for row in rows.values_list("seq", "move", "score", "by_system")]
    claim = Claim(
        seed=game.deal.seed,
        variant=game.deal.variant,
        undo_limit=game.undo_limit,
        status=game.status,
        score=game.score,
        moves=game.moves,
        auto_home=True,
    )
    replay_claim(claim, log)


@pytest.mark.parametrize("flag", ["by_system", "automatic"])
def test_a_client_cannot_send_an_action_as_the_servers(ada, practice, flag: str) -> None:
    body = {"type": "move", "move": "s", flag: True}
    response = ada.post(f"/games/{practice['id']}/actions", body)
    assert_refused(response, 422, "bad_field")  # the API names the unknown field
    assert not Action.objects.filter(game_id=practice["id"]).exists()
