"""Duels through their services: a challenge by link, the start on one fresh deal at one
instant, the clock's flag on the server, a leaver's forfeit, the result by the board's
order, the rematch, and the refusals of the abuse paths."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games import services
from games.duels.models import Duel, DuelSeat
from games.errors import (
    ChallengeExpired,
    ChallengeTaken,
    DuelNotStarted,
    Forbidden,
    InDuel,
    NotFound,
    OwnChallenge,
    TimeUp,
)
from games.models import Deal, Game, User
from games.throttles import RateLimited
from tests.games.duels.conftest import act, link_accounts, seat_game, start_duel

# What follows an action (the progress, the duel settled) runs after the commit.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_challenge_accepted_starts_both_games_on_one_fresh_deal_at_one_instant(
    user, bob, now
) -> None:
    duel = start_duel(user, bob, now)
    assert duel.state == Duel.State.RUNNING and duel.rated
    first, second = seat_game(duel, 0), seat_game(duel, 1)
    assert (first.player, second.player) == (user, bob)
    assert first.deal_id == second.deal_id == duel.deal_id
    deal = Deal.objects.get(pk=duel.deal_id)
    assert deal.kind == Deal.Kind.DUEL and not deal.is_revealed
    assert deal.opens_at == duel.started_at and deal.closes_at == duel.ends_at
    assert duel.ends_at - duel.started_at == timedelta(seconds=600)
    assert first.mode == second.mode == Game.Mode.DUEL and first.undo_limit == 0


def test_each_duel_draws_a_deal_of_its_own_from_the_reserve(user, bob, carol, reserve_deal):
    kept = reserve_deal()
    duel = start_duel(user, bob)
    assert duel.deal_id == kept.pk
    services.duel_sweep()  # nothing due
    dan = User.objects.create_user(username="dan", password="correct horse battery staple")
    other = start_duel(carol, dan)
    assert other.deal_id not in (None, kept.pk)


def test_it_refuses_accepting_your_own_challenge(user) -> None:
    _, token = services.duel_challenge_create(user=user)
    with pytest.raises(OwnChallenge):
        services.duel_challenge_accept(user=user, token=token)


def test_it_refuses_a_third_player_on_a_taken_challenge(user, bob, carol) -> None:
    _, token = services.duel_challenge_create(user=user)
    services.duel_challenge_accept(user=bob, token=token)
    with pytest.raises(ChallengeTaken):
        services.duel_challenge_accept(user=carol, token=token)
    assert DuelSeat.objects.count() == 2


def test_it_refuses_an_expired_challenge(user, bob, now) -> None:
    _, token = services.duel_challenge_create(user=user, now=now)
    with pytest.raises(ChallengeExpired):
        services.duel_challenge_accept(user=bob, token=token, now=now + timedelta(minutes=31))


def test_it_refuses_an_unknown_challenge_link(bob) -> None:
    with pytest.raises(NotFound):
        services.duel_challenge_accept(user=bob, token="not-a-token")


def test_it_refuses_a_second_duel_while_one_runs(user, bob, carol) -> None:
    start_duel(user, bob)
    _, token = services.duel_challenge_create(user=carol)
    with pytest.raises(InDuel):
        services.duel_challenge_accept(user=bob, token=token)


def test_it_refuses_a_challenge_whose_maker_is_in_another_duel(user, bob, carol) -> None:
    _, token = services.duel_challenge_create(user=carol)
    start_duel(carol, bob)
    with pytest.raises(InDuel):
        services.duel_challenge_accept(user=user, token=token)


def test_linked_accounts_may_duel_by_link_but_unrated(user, bob) -> None:
    link_accounts(user, bob)
    assert not start_duel(user, bob).rated


def test_challenges_are_throttled(user, settings) -> None:
    from ftsite.rates import Rate

    settings.FT_RATE_DUELS = Rate.parse("2/min")
    services.duel_challenge_create(user=user)
    services.duel_challenge_create(user=user)
    with pytest.raises(RateLimited):
        services.duel_challenge_create(user=user)


def test_moves_before_the_start_are_refused(user, bob, settings, now) -> None:
    settings.FT_DUEL_COUNTDOWN_SECONDS = 5
    duel = start_duel(user, bob, now)
    with pytest.raises(DuelNotStarted):
        act(seat_game(duel, 0), move="s")


def test_moves_after_the_flag_are_refused_and_the_server_resigns_at_the_flag(
    user, bob, wall_clock
) -> None:
    duel = start_duel(user, bob)
    game = seat_game(duel, 0)
    act(game, move="s")
    wall_clock.shift(timedelta(seconds=601))
    with pytest.raises(TimeUp):
        act(game, move="s")
    services.duel_tick(duel_id=duel.pk)
    duel.refresh_from_db()
    assert duel.state == Duel.State.FINISHED and duel.outcome == Duel.Outcome.ORDER
    game.refresh_from_db()
    assert game.status == Game.Status.RESIGNED
    last = game.actions.order_by("-seq").first()
    assert last.by_system and last.created_at == duel.ends_at
    # The player with a move beats the one without (fewer... a higher score or the same
    # score: the board's order), and the deal is revealed now that both games are over.
    assert Deal.objects.get(pk=duel.deal_id).revealed_at is not None


def test_a_player_away_past_the_grace_period_forfeits(user, bob, wall_clock) -> None:
    duel = start_duel(user, bob)
    services.duel_presence(duel_id=duel.pk, user_id=user.pk, delta=1)
    wall_clock.shift(timedelta(seconds=30))
    services.duel_tick(duel_id=duel.pk)
    assert Duel.objects.get(pk=duel.pk).state == Duel.State.RUNNING  # within the grace
    wall_clock.shift(timedelta(seconds=31))
    services.duel_tick(duel_id=duel.pk)
    duel.refresh_from_db()
    assert duel.state == Duel.State.FINISHED and duel.outcome == Duel.Outcome.FORFEIT
    assert duel.winner == user
    assert seat_game(duel, 1).status == Game.Status.RESIGNED
    assert seat_game(duel, 0).status == Game.Status.ACTIVE  # the winner may play on


def test_the_winner_by_the_boards_order_is_the_one_who_won(
    user, bob, reserve_deal, classic_win
) -> None:
    reserve_deal()
    duel = start_duel(user, bob)
    act(seat_game(duel, 1), move="s")
    act(seat_game(duel, 1), kind="resign")
    game = seat_game(duel, 0)
    for move in classic_win[1]:
        act(game, move=move)
    duel.refresh_from_db()
    assert seat_game(duel, 0).status == Game.Status.WON
    assert duel.state == Duel.State.FINISHED and duel.winner == user
    places = dict(DuelSeat.objects.filter(duel=duel).values_list("seat", "place"))
    assert places == {0: 1, 1: 2}


def test_two_resigns_without_a_move_tie(user, bob) -> None:
    duel = start_duel(user, bob)
    act(seat_game(duel, 0), kind="resign")
    act(seat_game(duel, 1), kind="resign")
    duel.refresh_from_db()
    assert duel.outcome == Duel.Outcome.TIE and duel.winner is None


def test_nobody_plays_the_other_players_game(user, bob) -> None:
    duel = start_duel(user, bob)
    with pytest.raises(Forbidden):
        services.game_act(user=bob, game_id=seat_game(duel, 0).pk, kind="move", move="s")


def test_a_duels_deal_is_secret_no_practice_of_it_and_no_hints(user, bob) -> None:
    duel = start_duel(user, bob)
    deal = Deal.objects.get(pk=duel.deal_id)
    with pytest.raises(Forbidden):
        services.game_start_practice(user=bob, code=deal.code)
    with pytest.raises(Forbidden):
        services.game_hint(user=bob, game_id=seat_game(duel, 1).pk)


def test_a_rematch_is_offered_by_one_and_started_by_the_other(user, bob, carol) -> None:
    duel = start_duel(user, bob)
    act(seat_game(duel, 0), kind="resign")
    act(seat_game(duel, 1), kind="resign")
    offer = services.duel_rematch(user=bob, duel_id=duel.pk)
    assert offer.state == Duel.State.WAITING
    assert services.duel_rematch(user=bob, duel_id=duel.pk).pk == offer.pk
    with pytest.raises(Forbidden):
        services.duel_rematch(user=carol, duel_id=duel.pk)
    started = services.duel_rematch(user=user, duel_id=duel.pk)
    assert started.pk == offer.pk and started.state == Duel.State.RUNNING
    assert started.deal_id != duel.deal_id


def test_a_guest_cannot_duel(db) -> None:
    from games.access import AccountRequired

    guest = services.guest_create(address="192.0.2.1", device=None)
    with pytest.raises(AccountRequired):
        services.duel_challenge_create(user=guest)


def test_the_sweep_flags_a_duel_no_socket_watches(user, bob, wall_clock) -> None:
    duel = start_duel(user, bob)
    for player in (user, bob):
        services.duel_presence(duel_id=duel.pk, user_id=player.pk, delta=1)
    wall_clock.shift(timedelta(seconds=601))
    assert services.duel_sweep() == 1
    duel.refresh_from_db()
    assert duel.state == Duel.State.FINISHED
    assert {seat_game(duel, s).status for s in (0, 1)} == {Game.Status.RESIGNED}


def test_the_sweep_cancels_a_challenge_nobody_accepted(user, bob, wall_clock) -> None:
    _, token = services.duel_challenge_create(user=user)
    wall_clock.shift(timedelta(minutes=31))
    services.duel_sweep()
    assert Duel.objects.get().state == Duel.State.CANCELLED
    with pytest.raises(ChallengeExpired):
        services.duel_challenge_accept(user=bob, token=token)


def test_a_player_back_within_the_grace_period_plays_on(user, bob, wall_clock) -> None:
    duel = start_duel(user, bob)
    for player in (user, bob):
        services.duel_presence(duel_id=duel.pk, user_id=player.pk, delta=1)
    services.duel_presence(duel_id=duel.pk, user_id=bob.pk, delta=-1)
    wall_clock.shift(timedelta(seconds=50))
    services.duel_presence(duel_id=duel.pk, user_id=bob.pk, delta=1)
    wall_clock.shift(timedelta(seconds=50))
    for player in (user, bob):  # their pages ping
        services.duel_heartbeat(duel_id=duel.pk, user_id=player.pk)
    services.duel_tick(duel_id=duel.pk)
    assert Duel.objects.get(pk=duel.pk).state == Duel.State.RUNNING


def test_a_seat_whose_sockets_fell_silent_forfeits_whatever_its_count(
    user, bob, wall_clock
) -> None:
    """A server process killed under bob's socket leaves his count at 1: his silence (no
    ping for the grace period and 30 s more) counts as away."""
    duel = start_duel(user, bob)
    for player in (user, bob):
        services.duel_presence(duel_id=duel.pk, user_id=player.pk, delta=1)
    for _ in range(4):  # ada's page pings every 25 s; bob's is gone
        wall_clock.shift(timedelta(seconds=25))
        services.duel_heartbeat(duel_id=duel.pk, user_id=user.pk)
        services.duel_sweep()
    duel.refresh_from_db()
    assert duel.state == Duel.State.FINISHED and duel.outcome == Duel.Outcome.FORFEIT
    assert duel.winner == user


def test_a_second_acceptance_that_raced_the_first_is_challenge_taken(
    user, bob, carol, monkeypatch
) -> None:
    """Bob's acceptance inserts seat 1 between carol's read of the seats and her insert (two
    requests at once, where no row lock holds them apart): carol's insert meets the seats'
    unique constraint and is refused challenge_taken, never a server error."""
    _, token = services.duel_challenge_create(user=user)
    real_create = DuelSeat.objects.create

    def racing_create(**fields):
        if fields.get("seat") == 1 and fields.get("player") == carol:
            real_create(duel=fields["duel"], seat=1, player=bob)  # the other request's
        return real_create(**fields)

    monkeypatch.setattr(DuelSeat.objects, "create", racing_create)
    with pytest.raises(ChallengeTaken):
        services.duel_challenge_accept(user=carol, token=token)


def test_two_rematch_offers_at_once_make_one_duel(user, bob, monkeypatch) -> None:
    """Both players press Rematch at the same moment: each finds no offer; the second's
    offer meets the first's (one rematch per duel) and accepts it instead."""
    from games.services import duels

    duel = start_duel(user, bob)
    act(seat_game(duel, 0), kind="resign")
    act(seat_game(duel, 1), kind="resign")
    real_offer = duels._rematch_offer

    def racing_offer(*, old, user, now):
        if user == bob:
            real_offer(old=old, user=duel_player(old, 0), now=now)  # ada's, a moment before
        return real_offer(old=old, user=user, now=now)

    def duel_player(old, seat):
        return DuelSeat.objects.select_related("player").get(duel=old, seat=seat).player

    monkeypatch.setattr(duels, "_rematch_offer", racing_offer)
    started = services.duel_rematch(user=bob, duel_id=duel.pk)
    assert started.state == Duel.State.RUNNING
    assert Duel.objects.filter(rematch_of=duel).count() == 1


def test_a_duel_move_s_counts_read_no_seat_once_the_game_has_moved(user, bob) -> None:
    # The seat of a duel's game never changes: read after every move, it cost a third of a
    # duel move (docs/benchmarks.md, "Duels under load"). The first move reads it.
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    duel = start_duel(user, bob)
    game = seat_game(duel, 0)
    act(game, move="s", client_id="m1", version=0)
    with CaptureQueriesContext(connection) as queries:
        act(game, move="s", client_id="m2", version=1)
    assert [q["sql"] for q in queries if "duelseat" in q["sql"]] == []
    act(game, kind="resign", client_id="m3", version=2)  # a finish reads its time once
    assert DuelSeat.objects.get(duel=duel, seat=0).game.status == Game.Status.RESIGNED
