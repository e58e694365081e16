"""Starting and playing games through the services: the server is the only judge."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from games import selectors, services
from games.errors import (
    BadRequest,
    DayClosed,
    Forbidden,
    GameOver,
    NotAuthenticated,
    NotFound,
    Refused,
    StaleVersion,
)
from games.models import Action, Deal, Game
from games.runtime.live import engine_for
from tests.support.games import game_play, game_resign, game_undo

pytestmark = pytest.mark.django_db


def first_legal_non_draw(game: Game) -> str:
    engine = engine_for(game)
    return next(m for m in engine.legal_moves() if m != "s")


def test_opening_a_daily_deal_is_idempotent_and_publishes_only_a_commitment(now) -> None:
    deal = services.deal_open_daily(day=now.date())
    again = services.deal_open_daily(day=now.date())
    assert deal.pk == again.pk and Deal.objects.count() == 1
    assert len(deal.commitment) == 64 and len(deal.salt) == 32
    assert deal.code.startswith("FT1-N-") and len(deal.code) == 6 + 26
    assert not deal.is_revealed
    assert deal.closes_at - deal.opens_at == timedelta(days=1)


def test_each_day_gets_its_own_secret_seed(now) -> None:
    a = services.deal_open_daily(day=now.date())
    b = services.deal_open_daily(day=now.date() + timedelta(days=1))
    assert a.seed != b.seed
    assert a.code != b.code and len(a.code) == len(b.code) == 32


def test_a_daily_game_starts_on_first_open_and_resumes_after(user, now) -> None:
    game = services.game_start_daily(user=user, now=now)
    again = services.game_start_daily(user=user, now=now)
    assert game.pk == again.pk and game.mode == "ranked" and game.version == 0


def test_a_move_is_logged_durably_with_its_server_time_before_it_is_acknowledged(user, now) -> None:
    game = services.game_start_daily(user=user, now=now)
    result = game_play(user=user, game_id=game.pk, move="s", client_id="m1", version=0)
    assert result.version == 1 and result.changes["stock"] == 63
    action = Action.objects.get(game=game)
    assert (action.seq, action.move, action.client_id) == (1, "s", "m1")
    game.refresh_from_db()
    assert game.version == 1 and game.moves == 1 and game.first_action_at is not None


def test_a_resent_message_id_is_never_applied_twice(user, now) -> None:
    game = services.game_start_daily(user=user, now=now)
    game_play(user=user, game_id=game.pk, move="s", client_id="m1")
    again = game_play(user=user, game_id=game.pk, move="s", client_id="m1")
    assert again.duplicate and again.version == 1
    game.refresh_from_db()
    assert game.version == 1 and engine_for(game).stock_count == 63


def test_an_illegal_move_is_refused_with_the_engines_reason_and_changes_nothing(user) -> None:
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    with pytest.raises(Refused) as caught:
        game_play(user=user, game_id=game.pk, move="t1-f1")
    assert caught.value.code == "illegal_move"
    assert caught.value.reason.startswith("foundation f1 builds spades only")
    with pytest.raises(Refused) as caught:
        game_play(user=user, game_id=game.pk, move="t1-x")
    assert caught.value.code == "invalid_move"
    game.refresh_from_db()
    assert game.version == 0 and not game.actions.exists()


def test_a_stale_version_is_refused(user) -> None:
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    game_play(user=user, game_id=game.pk, move="s")
    with pytest.raises(StaleVersion) as caught:
        game_play(user=user, game_id=game.pk, move="s", version=0)
    assert caught.value.extra == {"version": 1}


def test_ranked_games_have_no_undo_but_practice_games_do(user, now) -> None:
    ranked = services.game_start_daily(user=user, now=now)
    game_play(user=user, game_id=ranked.pk, move="s")
    with pytest.raises(Forbidden, match="ranked games have no undo"):
        game_undo(user=user, game_id=ranked.pk)
    practice = services.game_start_practice(user=user, code="FT1-N-0000007")
    game_play(user=user, game_id=practice.pk, move="s")
    result = game_undo(user=user, game_id=practice.pk)
    assert result.version == 2 and result.moves == 2 and result.changes["stock"] == 64
    assert list(practice.actions.values_list("move", flat=True)) == ["s", "undo"]


def test_resigning_ends_the_game_and_nothing_more_is_accepted(user) -> None:
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    result = game_resign(user=user, game_id=game.pk)
    assert result.status == "resigned"
    with pytest.raises(GameOver):
        game_play(user=user, game_id=game.pk, move="s")
    game.refresh_from_db()
    assert game.finished_at is not None


def test_only_the_owner_may_play(user, bob) -> None:
    game = services.game_start_practice(user=user, code="FT1-N-0000007")
    with pytest.raises(Forbidden):
        game_play(user=bob, game_id=game.pk, move="s")
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(NotAuthenticated):
        game_play(user=AnonymousUser(), game_id=game.pk, move="s")
    with pytest.raises(NotFound):
        game_play(user=user, game_id="not-a-uuid", move="s")


def test_a_bad_practice_code_says_what_a_code_looks_like(user) -> None:
    with pytest.raises(BadRequest, match="it looks like FT1-N-7K3QX2M"):
        services.game_start_practice(user=user, code="hello")
    with pytest.raises(BadRequest, match="is not a variant"):
        services.game_start_practice(user=user, variant="klondike")


def test_a_random_practice_deal_has_a_short_code(user) -> None:
    game = services.game_start_practice(user=user, variant="josephine")
    assert game.deal.code.startswith("FT1-J-") and len(game.deal.code) == 13


def test_a_daily_deal_is_practised_only_after_the_ranked_attempt(user, now) -> None:
    ranked = services.game_start_daily(user=user, now=now)
    with pytest.raises(Forbidden):
        services.game_start_practice(user=user, deal_id=ranked.deal_id)
    game_resign(user=user, game_id=ranked.pk)
    practice = services.game_start_practice(user=user, deal_id=ranked.deal_id)
    assert practice.mode == "practice" and practice.deal_id == ranked.deal_id


def test_closing_the_day_reveals_the_code_and_ends_unfinished_ranked_games(user, bob, now) -> None:
    day = now.date()
    ada_game = services.game_start_daily(user=user, now=now)
    game_play(user=user, game_id=ada_game.pk, move="s")
    with pytest.raises(DayClosed):
        services.deal_close_daily(day=day, now=now)
    assert services.deal_close_daily(day=day, now=now + timedelta(days=1)) == 1
    assert services.deal_close_daily(day=day, now=now + timedelta(days=1)) == 0
    ada_game.refresh_from_db()
    assert ada_game.status == "resigned"
    assert list(ada_game.actions.values_list("move", flat=True)) == ["s", "resign"]
    assert ada_game.deal.is_revealed


def test_a_win_is_recorded_as_won(user) -> None:
    won = json.loads((Path(__file__).parent.parent / "data" / "classic_win.json").read_text())
    game = services.game_start_practice(user=user, code="FT1-N-045DRXRH12V7ARRD8RT69WAGC4")
    *moves, last = won["moves"].split()
    for move in moves:
        game_play(user=user, game_id=game.pk, move=move)
    result = game_play(user=user, game_id=game.pk, move=last)
    assert result.status == "won"


WON_GAMES = Path(__file__).resolve().parents[1] / "data" / "won_games.json"


def test_the_finish_is_offered_in_the_changes_and_the_state_once_nothing_is_left(user) -> None:
    """``can_finish`` turns true in an accepted move's changes and the full state from the
    position on where every card left can go home; then foundation moves alone win."""
    record = json.loads(WON_GAMES.read_text())["games"][0]
    game = services.game_start_practice(user=user, code=record["code"])
    moves = record["moves"].split()
    for n, move in enumerate(moves):
        result = game_play(user=user, game_id=game.pk, move=move, version=n)
        if result.changes["can_finish"]:
            break
    else:
        raise AssertionError("the finish was never offered")
    state = selectors.game_state(user=user, game_id=game.pk)
    assert state["can_finish"] is True and state["board"]["stock"] == 0
    version = result.version
    while result.status == Game.Status.ACTIVE:
        home = next(m for m in state["legal_moves"] if "-f" in m and not m.startswith("f"))
        result = game_play(user=user, game_id=game.pk, move=home, version=version)
        version = result.version
        state = selectors.game_state(user=user, game_id=game.pk)
    assert result.status == Game.Status.WON and result.changes["can_finish"] is False
    assert selectors.game_state(user=user, game_id=game.pk)["can_finish"] is False
