"""Arenas through their services: a round's open (one fresh deal, a game for every
entrant, one instant), late join and leave, the round's clock on the server, the close,
the points once verification has decided, the sweep and the site's schedule, and the
refusals of the abuse paths."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.arenas.models import Arena, ArenaEntry, ArenaPlay, ArenaRound
from games.errors import (
    AlreadyEntered,
    ArenaClosed,
    Forbidden,
    NotAuthenticated,
    NotEntered,
    RoundNotStarted,
    TimeUp,
)
from games.models import Deal, Game, User
from games.throttles import RateLimited
from leaderboards.services import result_verify
from tests.games.arenas.conftest import act, game_of, play_of

# The verification a finished game queues runs after the commit.
pytestmark = pytest.mark.django_db(transaction=True)
# Opening a round, whatever its entrant count: the reads, the deal, the round, two bulk
# inserts (games, plays) and the live table sent on the commit.
OPEN_STATEMENTS = 14


def _verify_round(arena: Arena, number: int) -> None:
    for play in ArenaPlay.objects.filter(round__arena=arena, round__number=number):
        result_verify(game_id=play.game_id)


def test_a_round_opens_one_fresh_deal_for_every_entrant_at_one_instant(
    arena, user, bob, reserve_deal
) -> None:
    kept = reserve_deal()
    services.arena_join(user=user, arena_id=arena.pk)
    services.arena_join(user=bob, arena_id=arena.pk)
    played = services.arena_round_open(arena=arena, number=1)
    first, second = game_of(arena, 1, user), game_of(arena, 1, bob)
    assert played.deal_id == kept.pk == first.deal_id == second.deal_id
    deal = Deal.objects.get(pk=played.deal_id)
    assert deal.kind == Deal.Kind.DUEL and not deal.is_revealed
    assert (deal.opens_at, deal.closes_at) == (played.opens_at, played.closes_at)
    assert played.closes_at == arena.starts_at + timedelta(minutes=5)
    assert first.mode == second.mode == Game.Mode.ARENA and first.undo_limit == 0
    assert services.arena_round_open(arena=arena, number=1) == played  # once


def test_each_round_draws_a_deal_nobody_has_seen(arena, user, wall_clock) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    one = services.arena_round_open(arena=arena, number=1)
    wall_clock.shift(timedelta(minutes=5))
    two = services.arena_round_open(arena=arena, number=2)
    assert one.deal_id != two.deal_id
    assert {one.deal_id, two.deal_id}.isdisjoint(
        Deal.objects.exclude(kind=Deal.Kind.DUEL).values_list("pk", flat=True)
    )


def test_it_refuses_joining_twice(arena, user) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    with pytest.raises(AlreadyEntered):
        services.arena_join(user=user, arena_id=arena.pk)
    assert ArenaEntry.objects.filter(arena=arena).count() == 1


def test_a_late_joiner_plays_from_the_next_round_never_the_open_one(
    arena, user, bob, wall_clock
) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    services.arena_round_open(arena=arena, number=1)
    wall_clock.shift(timedelta(minutes=1))
    services.arena_join(user=bob, arena_id=arena.pk)
    assert not ArenaPlay.objects.filter(entry__player=bob).exists()
    assert services.arena_round_open(arena=arena, number=1).plays.count() == 1
    wall_clock.shift(timedelta(minutes=4))
    services.arena_round_open(arena=arena, number=2)
    assert game_of(arena, 2, bob).mode == Game.Mode.ARENA


def test_it_refuses_an_entry_once_the_last_round_has_opened(arena, user, bob, wall_clock) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    wall_clock.shift(timedelta(minutes=10))
    services.arena_round_open(arena=arena, number=3)
    with pytest.raises(ArenaClosed):
        services.arena_join(user=bob, arena_id=arena.pk)
    wall_clock.shift(timedelta(minutes=6))
    with pytest.raises(ArenaClosed):
        services.arena_join(user=bob, arena_id=arena.pk)
    assert not ArenaEntry.objects.filter(player=bob).exists()


def test_it_refuses_an_entry_just_before_the_last_round_opens(arena, user, wall_clock) -> None:
    wall_clock.shift(timedelta(minutes=10) - timedelta(seconds=10))  # within the lead
    with pytest.raises(ArenaClosed):
        services.arena_join(user=user, arena_id=arena.pk)


def test_a_player_who_left_gets_no_game_and_may_come_back(arena, user, wall_clock) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    services.arena_leave(user=user, arena_id=arena.pk)
    services.arena_round_open(arena=arena, number=1)
    assert not ArenaPlay.objects.filter(entry__player=user).exists()
    ArenaEntry.objects.filter(player=user).update(points=7)
    wall_clock.shift(timedelta(minutes=2))
    entry = services.arena_join(user=user, arena_id=arena.pk)
    assert entry.left_at is None and entry.points == 7  # the points stay
    wall_clock.shift(timedelta(minutes=3))
    services.arena_round_open(arena=arena, number=2)
    assert game_of(arena, 2, user).mode == Game.Mode.ARENA


def test_it_refuses_leaving_an_arena_you_are_not_in(arena, user) -> None:
    with pytest.raises(NotEntered):
        services.arena_leave(user=user, arena_id=arena.pk)
    services.arena_join(user=user, arena_id=arena.pk)
    services.arena_leave(user=user, arena_id=arena.pk)
    with pytest.raises(NotEntered):
        services.arena_leave(user=user, arena_id=arena.pk)


def test_it_refuses_leaving_an_arena_that_is_over(arena, user, wall_clock) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    wall_clock.shift(timedelta(minutes=16))
    with pytest.raises(ArenaClosed):
        services.arena_leave(user=user, arena_id=arena.pk)


def test_it_limits_joins_and_leaves(arena, user, settings) -> None:
    from ftsite.rates import Rate

    settings.FT_RATE_ARENA_ACTIONS = Rate(4, 600)
    for _ in range(2):
        services.arena_join(user=user, arena_id=arena.pk)
        services.arena_leave(user=user, arena_id=arena.pk)
    with pytest.raises(RateLimited) as refused:
        services.arena_join(user=user, arena_id=arena.pk)
    assert refused.value.retry_after > 0


def test_a_guest_cannot_enter_an_arena(arena) -> None:
    guest = services.guest_create(address="192.0.2.1", device=None)
    with pytest.raises(Exception) as refused:
        services.arena_join(user=guest, arena_id=arena.pk)
    assert getattr(refused.value, "code", None) == "account_required"


def test_an_anonymous_visitor_cannot_enter_an_arena(arena) -> None:
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(NotAuthenticated):
        services.arena_join(user=AnonymousUser(), arena_id=arena.pk)  # type: ignore[arg-type]


def test_it_refuses_a_move_before_the_round_opens(arena, user, settings) -> None:
    settings.FT_ARENA_LEAD_SECONDS = 30
    services.arena_join(user=user, arena_id=arena.pk)
    early = arena.starts_at + timedelta(minutes=5) - timedelta(seconds=30)
    services.arena_round_open(arena=arena, number=2, now=early)
    with pytest.raises(RoundNotStarted) as refused:
        act(game_of(arena, 2, user), move="s")
    assert refused.value.extra["retry_after"] >= 1


def test_it_refuses_a_move_from_the_rounds_close_on(arena, user, wall_clock) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    services.arena_round_open(arena=arena, number=1)
    act(game_of(arena, 1, user), move="s")
    wall_clock.shift(timedelta(minutes=5))
    with pytest.raises(TimeUp):
        act(game_of(arena, 1, user), move="s")


def test_it_refuses_a_third_party_playing_an_entrants_game(arena, user, carol) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    services.arena_round_open(arena=arena, number=1)
    game = game_of(arena, 1, user)
    with pytest.raises(Forbidden):
        services.game_act(user=carol, game_id=game.pk, kind="move", move="s")
    game.refresh_from_db()
    assert game.version == 0


def test_an_arena_game_has_no_undo_and_no_restart(arena, user) -> None:
    from games.services.table import RankedTable

    services.arena_join(user=user, arena_id=arena.pk)
    services.arena_round_open(arena=arena, number=1)
    game = game_of(arena, 1, user)
    assert game.is_strict
    with pytest.raises(RankedTable):
        services.game_restart(user=user, game_id=game.pk)


def test_the_round_is_settled_by_the_boards_order_once_verified(
    arena, user, bob, carol, reserve_deal, classic_win, wall_clock
) -> None:
    reserve_deal()
    for player in (user, bob, carol):
        services.arena_join(user=user if player is user else player, arena_id=arena.pk)
    played = services.arena_round_open(arena=arena, number=1)
    for move in classic_win[1]:
        act(game_of(arena, 1, user), move=move)
    act(game_of(arena, 1, bob), move="s")
    # carol never moves: her game is no result
    assert not services.arena_round_close(round_id=played.pk)  # before the close
    wall_clock.shift(timedelta(minutes=5))
    ArenaPlay.objects.update(verdict="")
    _verify_round(arena, 1)
    assert services.arena_round_close(round_id=played.pk)
    assert game_of(arena, 1, bob).status == Game.Status.RESIGNED  # by the server, at the close
    assert (play_of(arena, 1, user).place, play_of(arena, 1, user).points) == (1, 15)
    assert (play_of(arena, 1, bob).place, play_of(arena, 1, bob).points) == (2, 0)
    assert play_of(arena, 1, carol).points is None
    points = dict(ArenaEntry.objects.values_list("player__username", "points"))
    rounds = dict(ArenaEntry.objects.values_list("player__username", "rounds_played"))
    assert points == {user.username: 15, "bob": 0, "carol": 0}
    assert rounds == {user.username: 1, "bob": 1, "carol": 0}
    assert Deal.objects.get(pk=played.deal_id).is_revealed
    assert services.arena_round_close(round_id=played.pk)  # once
    assert ArenaEntry.objects.get(player=user).points == 15


def test_points_wait_for_the_verdicts(arena, user, bob, wall_clock, monkeypatch) -> None:
    import games.services.arenas as arenas

    for player in (user, bob):
        services.arena_join(user=player, arena_id=arena.pk)
    played = services.arena_round_open(arena=arena, number=1)
    act(game_of(arena, 1, user), move="s")
    wall_clock.shift(timedelta(minutes=5))
    monkeypatch.setattr(arenas, "arena_verdicts", lambda game_ids: {})  # not verified yet
    assert not services.arena_round_close(round_id=played.pk)
    assert ArenaEntry.objects.get(player=user).rounds_played == 0
    assert ArenaRound.objects.get(pk=played.pk).closed_at is not None
    monkeypatch.undo()
    _verify_round(arena, 1)
    assert services.arena_round_close(round_id=played.pk)
    assert ArenaEntry.objects.get(player=user).rounds_played == 1


def test_a_rejected_result_earns_nothing(arena, user, bob, wall_clock) -> None:
    from leaderboards.models import Result

    for player in (user, bob):
        services.arena_join(user=player, arena_id=arena.pk)
    played = services.arena_round_open(arena=arena, number=1)
    act(game_of(arena, 1, user), move="s")
    act(game_of(arena, 1, bob), move="s")
    wall_clock.shift(timedelta(minutes=5))
    services.arena_round_close(round_id=played.pk)
    ArenaRound.objects.update(settled_at=None)
    ArenaPlay.objects.update(verdict="", points=None, place=None)
    ArenaEntry.objects.update(points=0, rounds_played=0)
    _verify_round(arena, 1)
    Result.objects.filter(game__player=bob).update(status=Result.Status.REJECTED)
    assert services.arena_round_close(round_id=played.pk)
    assert play_of(arena, 1, bob).verdict == ArenaPlay.Verdict.REJECTED
    assert play_of(arena, 1, bob).points == 0
    assert ArenaEntry.objects.get(player=bob).rounds_played == 0
    assert play_of(arena, 1, user).place == 1


def test_the_sweep_opens_closes_and_finishes_on_time(arena, user, wall_clock) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    services.arena_sweep()
    assert list(arena.rounds.values_list("number", flat=True)) == [1]
    act(game_of(arena, 1, user), move="s")
    wall_clock.shift(timedelta(minutes=5) - timedelta(seconds=20))  # the lead: round 2 ahead
    services.arena_sweep()
    assert list(arena.rounds.values_list("number", flat=True)) == [1, 2]
    assert ArenaRound.objects.get(number=2).opens_at == arena.starts_at + timedelta(minutes=5)
    wall_clock.shift(timedelta(seconds=20))
    services.arena_sweep()
    assert ArenaRound.objects.get(number=1).settled_at is not None
    wall_clock.shift(timedelta(minutes=11))
    services.arena_sweep()
    services.arena_sweep()
    arena.refresh_from_db()
    assert arena.finished_at is not None
    assert ArenaEntry.objects.get(player=user).rounds_played == 1


def test_the_sweep_skips_a_slot_it_missed_rather_than_play_it_late(arena, user, wall_clock) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    wall_clock.shift(timedelta(minutes=4, seconds=30))  # round 1 has under a minute left
    services.arena_sweep()
    assert list(arena.rounds.values_list("number", flat=True)) == [2]


def test_the_site_schedule_makes_an_arena_every_hour_once(db, settings, wall_clock) -> None:
    settings.FT_ARENA_EVERY_MINUTES = 60
    settings.FT_ARENA_AHEAD_MINUTES = 90
    assert services.arena_schedule() == 1  # 13:00 (12:00 has begun), 14:00 is too far
    assert services.arena_schedule() == 0
    made = Arena.objects.get()
    assert made.starts_at == timezone.now().replace(hour=13, minute=0, second=0, microsecond=0)
    assert made.round_count == settings.FT_ARENA_MINUTES // settings.FT_ARENA_ROUND_MINUTES


def test_it_refuses_an_arena_shorter_than_a_round(db) -> None:
    from games.errors import BadRequest

    with pytest.raises(BadRequest):
        services.arena_create(starts_at=timezone.now(), minutes=3, round_minutes=5)


def test_a_round_nobody_is_in_spends_no_deal(arena, user, reserve_deal) -> None:
    kept = reserve_deal()
    assert services.arena_round_open(arena=arena, number=1) is None
    services.arena_join(user=user, arena_id=arena.pk)
    services.arena_leave(user=user, arena_id=arena.pk)
    services.arena_sweep()
    assert not ArenaRound.objects.exists()
    assert Deal.objects.get(pk=kept.pk).opens_at is None  # still in the reserve


def test_a_game_whose_log_was_packed_while_the_round_waited_still_counts(
    arena, user, bob, wall_clock, monkeypatch
) -> None:
    import games.services.arenas as arenas
    from leaderboards.compaction import log_compact

    for player in (user, bob):
        services.arena_join(user=player, arena_id=arena.pk)
    played = services.arena_round_open(arena=arena, number=1)
    act(game_of(arena, 1, user), move="s")
    act(game_of(arena, 1, bob), move="s")
    wall_clock.shift(timedelta(minutes=5))
    monkeypatch.setattr(arenas, "arena_verdicts", lambda game_ids: {})  # a verdict is late
    assert not services.arena_round_close(round_id=played.pk)
    wall_clock.shift(timedelta(hours=25))
    _verify_round(arena, 1)
    assert log_compact(game_id=game_of(arena, 1, user).pk) is not None
    monkeypatch.undo()
    assert services.arena_round_close(round_id=played.pk)
    rounds = dict(ArenaEntry.objects.values_list("player__username", "rounds_played"))
    assert rounds == {user.username: 1, "bob": 1}


@pytest.mark.parametrize("entrants", [3, 30])
def test_a_rounds_open_takes_as_many_statements_for_thirty_entrants_as_for_three(
    arena, reserve_deal, entrants, django_assert_max_num_queries
) -> None:
    reserve_deal()
    players = User.objects.bulk_create(User(username=f"p{i}") for i in range(entrants))
    ArenaEntry.objects.bulk_create(
        ArenaEntry(arena=arena, player=p, joined_at=timezone.now()) for p in players
    )
    with django_assert_max_num_queries(OPEN_STATEMENTS):
        played = services.arena_round_open(arena=arena, number=1)
    games = Game.objects.filter(arena_play__round=played)
    assert games.count() == entrants
    assert set(games.values_list("player_id", flat=True)) == {p.pk for p in players}
    assert set(games.values_list("deal_id", "mode")) == {(played.deal_id, Game.Mode.ARENA)}
