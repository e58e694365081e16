"""The archive: a closed daily deal played again, unranked, with undo and hints."""

from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from ftsite.rates import Rate
from games import services
from games.errors import DayNotClosed, NoDeal
from games.models import Game, User
from games.payloads import game_payload
from games.throttles import RateLimited
from tests.support.games import game_play, game_resign, game_undo

pytestmark = pytest.mark.django_db

YESTERDAY = timedelta(days=1)


def test_it_starts_an_unranked_archive_game_of_a_closed_day(
    user: User, now: datetime, make_daily_deal
) -> None:
    deal = make_daily_deal(now.date() - YESTERDAY)
    game = services.game_start_archive(user=user, day=deal.day, now=now)
    assert (game.mode, game.deal, game.status) == (Game.Mode.ARCHIVE, deal, "active")
    assert game.undo_limit > 0


def test_it_refuses_a_day_that_has_not_closed_with_day_not_closed(
    user: User, now: datetime
) -> None:
    today = services.deal_open_daily(day=now.date())
    with pytest.raises(DayNotClosed) as refused:
        services.game_start_archive(user=user, day=today.day, now=now)
    assert refused.value.code == "day_not_closed" and "not closed" in refused.value.reason
    assert not Game.objects.filter(mode=Game.Mode.ARCHIVE).exists()


def test_it_refuses_a_day_without_a_deal_with_no_deal(user: User, now: datetime) -> None:
    with pytest.raises(NoDeal) as refused:
        services.game_start_archive(user=user, day=date(2001, 1, 1), now=now)
    assert refused.value.code == "no_deal" and refused.value.status == 404


def test_it_counts_a_day_closed_by_the_clock_before_its_reveal_as_closed(
    user: User, now: datetime, make_daily_deal
) -> None:
    deal = make_daily_deal(now.date() - YESTERDAY, revealed=False)
    game = services.game_start_archive(user=user, day=deal.day, now=now)
    assert game.mode == Game.Mode.ARCHIVE


def test_it_continues_the_unfinished_archive_game_of_the_day(
    user: User, now: datetime, make_daily_deal
) -> None:
    deal = make_daily_deal(now.date() - YESTERDAY)
    first = services.game_start_archive(user=user, day=deal.day, now=now)
    assert services.game_start_archive(user=user, day=deal.day, now=now) == first
    game_resign(user=user, game_id=first.pk)
    second = services.game_start_archive(user=user, day=deal.day, now=now)
    assert second != first and second.mode == Game.Mode.ARCHIVE


def test_an_archive_game_has_undo_and_hints_like_practice(
    user: User, now: datetime, make_daily_deal
) -> None:
    deal = make_daily_deal(now.date() - YESTERDAY)
    game = services.game_start_archive(user=user, day=deal.day, now=now)
    game_play(user=user, game_id=game.pk, move="s")
    payload = game_payload(Game.objects.get(pk=game.pk))
    assert payload["mode"] == "archive" and payload["can_undo"] and payload["solver_help"]
    undone = game_undo(user=user, game_id=game.pk)
    assert undone.action == "undo" and undone.moves == 2
    assert services.game_hint_begin(user=user, game_id=game.pk).game_id == str(game.pk)


def test_archive_moves_are_not_refused_by_the_day_closed_rule(
    user: User, now: datetime, make_daily_deal
) -> None:
    deal = make_daily_deal(now.date() - YESTERDAY, revealed=False)  # closed by the clock
    game = services.game_start_archive(user=user, day=deal.day, now=now)
    assert game_play(user=user, game_id=game.pk, move="s").version == 1


def test_it_throttles_archive_starts_with_the_practice_starts(
    user: User, now: datetime, make_daily_deal, settings
) -> None:
    settings.FT_RATE_PRACTICE_STARTS = Rate.parse("2/min")
    deal = make_daily_deal(now.date() - YESTERDAY)
    for _ in range(2):
        game = services.game_start_archive(user=user, day=deal.day, now=now)
        game_resign(user=user, game_id=game.pk)
    with pytest.raises(RateLimited) as refused:
        services.game_start_archive(user=user, day=deal.day, now=now)
    assert refused.value.code == "rate_limited"


# The page's button ------------------------------------------------------------------------


def test_the_play_button_starts_an_archive_game_and_goes_to_it(
    client: Client, user: User, make_daily_deal
) -> None:
    deal = make_daily_deal(date.today() - timedelta(days=3))
    client.force_login(user)
    response = client.post(f"/play/archive/{deal.day.isoformat()}/")
    game = Game.objects.get(mode=Game.Mode.ARCHIVE)
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200 and b'data-testid="archive-mark"' in page.content
    assert b'data-action="undo"' in page.content


@pytest.mark.parametrize("day", ["2026-13-01", "yesterday", "2026-1-1", "2001-01-01"])
def test_the_play_button_refuses_a_bad_or_unknown_day_with_a_message(
    client: Client, user: User, day: str
) -> None:
    client.force_login(user)
    response = client.post(f"/play/archive/{day}/")
    assert response.status_code == 302 and response["Location"] == "/archive/"
    assert [m.message for m in get_messages(response.wsgi_request)]
    assert not Game.objects.exists()


def test_the_play_button_sends_visitors_and_gets_back_to_the_archive(client: Client) -> None:
    assert client.post("/play/archive/2026-11-01/")["Location"] == "/archive/"
    assert client.get("/play/archive/2026-11-01/")["Location"] == "/archive/"
