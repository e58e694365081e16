"""New game and Restart on a practice or archive table: a new game each time, the old one
ended as resigned in its own append-only log; never on a ranked table; throttled."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from ftsite.rates import Rate
from games import services
from games.errors import Forbidden
from games.models import Action, Game, PracticePoolDeal, User
from games.services import RankedTable
from games.throttles import RateLimited
from tests.support.games import game_play, game_resign

from .conftest import closed_daily_deal

pytestmark = pytest.mark.django_db

CODE = "FT1-N-0000007"


@pytest.fixture
def practice(user: User) -> Game:
    game = services.game_start_practice(user=user, code=CODE)
    game_play(user=user, game_id=str(game.pk), move="s")
    return game


def log(game: Game) -> list[tuple[int, str]]:
    return list(Action.objects.filter(game=game).values_list("seq", "move"))


def test_restart_deals_the_same_deal_as_a_new_game_and_resigns_the_old(
    user: User, practice: Game
) -> None:
    before = log(practice)
    new = services.game_restart(user=user, game_id=practice.pk)
    assert new.pk != practice.pk and new.deal == practice.deal and new.mode == "practice"
    assert new.version == 0 and not log(new)
    practice.refresh_from_db()
    # The old log only grew: its moves as they were, then the resignation.
    assert practice.status == "resigned" and log(practice) == [*before, (2, "resign")]


def test_restart_of_a_finished_game_leaves_it_untouched(user: User, practice: Game) -> None:
    game_resign(user=user, game_id=str(practice.pk))
    before = log(practice)
    services.game_restart(user=user, game_id=practice.pk)
    assert log(practice) == before


def test_restart_of_an_archive_game_is_an_archive_game(user: User) -> None:
    deal = closed_daily_deal(date(2026, 11, 3))
    game = services.game_start_archive(user=user, day=deal.day)
    new = services.game_restart(user=user, game_id=game.pk)
    assert (new.mode, new.deal) == ("archive", deal)


def test_new_game_is_a_random_deal_of_the_same_variant(user: User, practice: Game) -> None:
    new = services.game_new_deal(user=user, game_id=practice.pk)
    assert new.deal != practice.deal and new.deal.variant == practice.deal.variant
    assert new.mode == "practice"
    practice.refresh_from_db()
    assert practice.status == "resigned"


def test_a_ranked_table_has_neither_and_the_server_refuses_a_forced_one(user: User, now) -> None:
    ranked = services.game_start_daily(user=user, now=now)
    for start in (services.game_restart, services.game_new_deal):
        with pytest.raises(RankedTable) as refused:
            start(user=user, game_id=ranked.pk)
        assert refused.value.code == "ranked_table" and refused.value.status == 409
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{ranked.pk}/").content
    assert b'data-action="restart"' not in page and b'data-action="new-game"' not in page
    response = client.post(f"/games/{ranked.pk}/restart/")
    assert response.status_code == 409
    assert Game.objects.filter(player=user).count() == 1
    ranked.refresh_from_db()
    assert ranked.status == "active" and ranked.version == 0


def test_only_the_player_restarts_a_game(user: User, bob: User, practice: Game) -> None:
    with pytest.raises(Forbidden):
        services.game_restart(user=bob, game_id=practice.pk)
    practice.refresh_from_db()
    assert practice.status == "active"


def test_the_practice_board_offers_both_and_they_go_to_the_new_game(
    user: User, practice: Game
) -> None:
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{practice.pk}/").content
    assert b'data-action="restart"' in page and b'data-action="new-game"' in page
    assert b'data-testid="confirm-table"' in page
    response = client.post(f"/games/{practice.pk}/restart/")
    new = Game.objects.filter(player=user).exclude(pk=practice.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/games/{new.pk}/"
    assert client.get(f"/games/{practice.pk}/restart/").status_code == 405


def test_restarts_are_throttled_with_retry_after(settings, user: User, practice: Game) -> None:
    settings.FT_RATE_TABLE_RESTARTS = Rate.parse("2/10min")
    game = practice
    for _ in range(2):
        game = services.game_restart(user=user, game_id=game.pk)
    with pytest.raises(RateLimited):
        services.game_restart(user=user, game_id=game.pk)
    client = Client()
    client.force_login(user)
    response = client.post(f"/games/{game.pk}/new/")
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    game.refresh_from_db()
    assert game.status == "active"  # a refused restart ends nothing


def test_a_visitor_is_sent_to_sign_in(practice: Game) -> None:
    response = Client().post(f"/games/{practice.pk}/restart/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_new_game_after_a_proven_deal_deals_another_proven_one(user: User) -> None:
    services.practice_pool_fill(variant="little-forty", count=2, max_nodes=400, seeds=[1, 2])
    proven = set(PracticePoolDeal.objects.values_list("deal_id", flat=True))
    game = services.game_start_practice(user=user, variant="little-forty", winnable=True)
    new = services.game_new_deal(user=user, game_id=game.pk)
    assert {game.deal_id, new.deal_id} == proven
    # None left for this player: any random deal of the variant, never a refusal.
    last = services.game_new_deal(user=user, game_id=new.pk)
    assert last.deal_id not in proven and last.deal.variant == "little-forty"
