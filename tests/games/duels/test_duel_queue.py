"""\"Play someone now\": the queue pairs near ratings, widens with the wait, never pairs a
player with themselves or a linked account, and is throttled."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ftsite.rates import Rate
from games import services
from games.duels.models import Duel, DuelQueueEntry
from games.signals import duel_ratings_wanted
from games.throttles import RateLimited
from tests.games.duels.conftest import link_accounts

pytestmark = pytest.mark.django_db


@pytest.fixture
def ratings():
    """``ratings[user_id] = shown rating``, answered as leaderboards would."""
    table: dict[int, int] = {}

    def answer(sender, user_ids, **kwargs):
        return {u: table[u] for u in user_ids if u in table}

    duel_ratings_wanted.connect(answer, dispatch_uid="test-ratings")
    yield table
    duel_ratings_wanted.disconnect(dispatch_uid="test-ratings")


def test_two_players_near_in_rating_are_paired_at_once(user, bob) -> None:
    assert services.duel_queue_join(user=user) is None
    duel = services.duel_queue_join(user=bob)
    assert duel is not None and duel.state == Duel.State.RUNNING and duel.rated
    assert {s.player for s in duel.seats.all()} == {user, bob}
    assert not DuelQueueEntry.objects.exists()
    # The first player's next ask finds the duel.
    assert services.duel_queue_join(user=user) == duel


def test_it_never_pairs_a_player_with_themselves(user) -> None:
    assert services.duel_queue_join(user=user) is None
    assert services.duel_queue_join(user=user) is None
    assert DuelQueueEntry.objects.count() == 1 and not Duel.objects.exists()


def test_it_never_pairs_linked_accounts(user, bob, wall_clock) -> None:
    link_accounts(user, bob)
    services.duel_queue_join(user=user)
    assert services.duel_queue_join(user=bob) is None
    wall_clock.shift(timedelta(seconds=61))  # even once the window takes any rating
    assert services.duel_queue_join(user=bob) is None
    assert services.duel_queue_join(user=user) is None
    assert not Duel.objects.exists()


def test_network_alone_does_not_keep_two_players_apart(user, bob) -> None:
    link_accounts(user, bob, kind="address")  # a household: same network, other browsers
    services.duel_queue_join(user=user)
    assert services.duel_queue_join(user=bob) is not None


def test_far_ratings_wait_until_the_window_has_widened(user, bob, ratings, wall_clock) -> None:
    ratings[user.pk], ratings[bob.pk] = 1000, 1400
    services.duel_queue_join(user=user)
    assert services.duel_queue_join(user=bob) is None
    wall_clock.shift(timedelta(seconds=20))  # ada's window: 100 + 10 * 20 = 300 < 400
    assert services.duel_queue_join(user=user) is None  # her page asks every 2 s
    wall_clock.shift(timedelta(seconds=11))  # 410
    assert services.duel_queue_join(user=bob) is not None


def test_the_nearest_rating_is_chosen(user, bob, carol, ratings) -> None:
    ratings.update({user.pk: 1000, bob.pk: 1150, carol.pk: 1020})
    services.duel_queue_join(user=bob)
    services.duel_queue_join(user=carol)
    duel = services.duel_queue_join(user=user)
    assert duel is not None and {s.player for s in duel.seats.all()} == {user, carol}


def test_a_player_whose_page_stopped_asking_is_dropped(user, bob, wall_clock) -> None:
    services.duel_queue_join(user=user)
    wall_clock.shift(timedelta(seconds=31))
    assert services.duel_queue_join(user=bob) is None
    services.duel_sweep()
    assert list(DuelQueueEntry.objects.values_list("player", flat=True)) == [bob.pk]


def test_flooding_the_queue_is_refused(user, settings) -> None:
    settings.FT_RATE_DUEL_QUEUE = Rate.parse("3/min")
    for _ in range(3):
        services.duel_queue_join(user=user)
    with pytest.raises(RateLimited):
        services.duel_queue_join(user=user)


def test_leaving_the_queue(user, bob) -> None:
    services.duel_queue_join(user=user)
    services.duel_queue_leave(user=user)
    assert services.duel_queue_join(user=bob) is None
