"""The close of a daily deal is final, and an open daily gives no solver help.

Attack 1 of issue 10: a client that sent the server's old close-of-day id before the close
must not keep its ranked game open, and nothing a player sends after the close may change a
ranked game. Until the close, practising the daily (allowed after the ranked attempt) gives
no hints and no dead-end notice.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.test import Client

from games import services
from games.errors import DayClosed, SolverLocked
from games.models import Action, Deal, Game, User
from games.payloads import game_payload
from games.services.play import _dead_end_check
from tests.support.games import game_play, game_resign
from tests.support.sockets import ask, db, join, run_async

from .conftest import Api, token_for

pytestmark = pytest.mark.django_db

TOMORROW = timedelta(days=1)


def test_it_refuses_a_ranked_move_once_the_deal_has_closed_before_any_reveal(
    user: User, now: datetime
) -> None:
    # Yesterday's deal: its close has passed by the clock, but no beat has revealed it yet.
    game = services.game_start_daily(user=user, now=now - TOMORROW)
    assert game.deal.revealed_at is None
    with pytest.raises(DayClosed) as refused:
        game_play(user=user, game_id=game.pk, move="s", client_id="late-1")
    assert refused.value.code == "day_closed" and "closed" in refused.value.reason
    with pytest.raises(DayClosed):
        game_resign(user=user, game_id=game.pk, client_id="late-2")
    assert not Action.objects.filter(game=game).exists()


def test_it_ends_a_game_whose_player_used_the_servers_old_close_id(
    user: User, now: datetime
) -> None:
    game = services.game_start_daily(user=user, now=now)
    game_play(user=user, game_id=game.pk, move="s", client_id="system:day-closed")
    assert services.deal_close_daily(day=now.date(), now=now + TOMORROW) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.RESIGNED
    resign = game.actions.get(seq=2)
    assert (resign.move, resign.client_id, resign.by_system) == ("resign", "", True)
    assert game.actions.get(seq=1).by_system is False
    # The player plays the revealed line: every move is refused, nothing is applied.
    with pytest.raises(DayClosed):
        game_play(user=user, game_id=game.pk, move="s", client_id="after")


def test_a_resent_id_from_before_the_close_is_answered_but_nothing_new_is_applied(
    user: User, now: datetime
) -> None:
    game = services.game_start_daily(user=user, now=now)
    first = game_play(user=user, game_id=game.pk, move="s", client_id="c1")
    services.deal_close_daily(day=now.date(), now=now + TOMORROW)
    again = game_play(user=user, game_id=game.pk, move="s", client_id="c1")
    assert again.duplicate and again.version == first.version
    assert Action.objects.filter(game=game).count() == 2  # the move and the server's resign


def test_closing_twice_or_after_a_finish_changes_nothing(user: User, now: datetime) -> None:
    game = services.game_start_daily(user=user, now=now)
    game_resign(user=user, game_id=game.pk)
    assert services.game_resign_at_close(game_id=game.pk) is None
    assert services.deal_close_daily(day=now.date(), now=now + TOMORROW) == 1
    assert list(game.actions.values_list("by_system", flat=True)) == [False]


def test_the_api_refuses_a_ranked_move_after_the_close_with_day_closed(
    user: User, now: datetime
) -> None:
    game = services.game_start_daily(user=user, now=now - TOMORROW)
    api = Api(Client(), token_for(user))
    response = api.post(f"/games/{game.pk}/actions", {"type": "move", "move": "s", "id": "x1"})
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "day_closed"


@pytest.mark.django_db(transaction=True)
@run_async
async def test_the_socket_refuses_a_ranked_move_after_the_close_with_day_closed(
    user: User, now: datetime
) -> None:
    game = await db(services.game_start_daily)(user=user, now=now - TOMORROW)
    ws, _ = await join(game.pk, user)
    answer = await ask(ws, {"type": "move", "id": "x1", "move": "s"})
    assert answer["type"] == "refused" and answer["code"] == "day_closed", answer
    assert answer["id"] == "x1"
    await ws.disconnect()


# No solver help on an open daily -------------------------------------------------------


def practice_of_open_daily(user: User, now: datetime) -> Game:
    ranked = services.game_start_daily(user=user, now=now)
    game_resign(user=user, game_id=ranked.pk)
    return services.game_start_practice(user=user, deal_id=ranked.deal_id)


def test_it_refuses_hints_on_a_daily_deal_until_its_day_closes(
    user: User, now: datetime, settings
) -> None:
    settings.FT_HINT_SECONDS = 0.05
    practice = practice_of_open_daily(user, now)
    with pytest.raises(SolverLocked) as refused:
        services.game_hint(user=user, game_id=practice.pk)
    assert refused.value.code == "day_open" and refused.value.status == 403
    assert game_payload(practice)["solver_help"] is False
    services.deal_close_daily(day=now.date(), now=now + TOMORROW)
    practice.refresh_from_db()
    practice.deal.refresh_from_db()
    assert services.game_hint(user=user, game_id=practice.pk).move is not None
    assert game_payload(practice)["solver_help"] is True


def test_it_gives_no_dead_end_notice_on_an_open_daily() -> None:
    from games.engine import GameState

    engine = GameState.from_seed(7, undo_limit=0)
    engine.replay(["s"] * engine.stock_count)  # the stock spent: where the check would run
    open_daily = Game(deal=Deal(kind=Deal.Kind.DAILY), mode=Game.Mode.PRACTICE)
    assert _dead_end_check(open_daily, engine) is None
    practice = Game(deal=Deal(kind=Deal.Kind.PRACTICE), mode=Game.Mode.PRACTICE)
    assert _dead_end_check(practice, engine) is not None  # the same position elsewhere is asked


def test_the_board_of_an_open_daily_practice_has_no_hint_button(
    user: User, now: datetime, client: Client
) -> None:
    practice = practice_of_open_daily(user, now)
    client.force_login(user)
    page = client.get(f"/games/{practice.pk}/").content.decode()
    assert 'data-action="hint"' not in page and 'data-action="undo"' in page
