"""The games a process holds between actions (games.runtime.live) and the one guarded write per
action (games.services.log): another process's writes are never overwritten, a write
that fails leaves no engine ahead of its log, and the store stays bounded."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.utils import timezone

from games import services
from games.errors import Refused
from games.models import Action, Game, User
from games.runtime import live
from games.runtime.live import engine_for, live_game
from games.services.log import Entry, log_append
from tests.support.games import game_play, game_resign

pytestmark = pytest.mark.django_db

CODE = "FT1-N-0000007"


def written_elsewhere(game: Game, *, move: str, client_id: str = "") -> None:
    """What another server process does: one guarded write, unseen by this process."""
    row = Game.objects.get(pk=game.pk)
    engine = engine_for(row).copy()
    engine.play(move)
    entry = Entry(
        seq=row.version + 1,
        move=move,
        client_id=client_id,
        by_system=False,
        score=engine.score,
        moves=engine.moves,
        status="active",
        at=timezone.now(),
        finished_at=None,
    )
    assert log_append(
        game_id=row.pk, expected_version=row.version, player_id=row.player_id, entry=entry
    )


def test_an_action_after_another_process_wrote_is_judged_on_the_rebuilt_game(user: User) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    game_play(user=user, game_id=game.pk, move="s")  # this process holds it now
    written_elsewhere(game, move="s")
    result = game_play(user=user, game_id=game.pk, move="s")
    assert result.version == 3 and result.changes["stock"] == 61
    assert list(Action.objects.filter(game=game).values_list("seq", "move")) == [
        (1, "s"),
        (2, "s"),
        (3, "s"),
    ]


def test_the_version_guard_refuses_a_write_for_an_old_version(user: User) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    game_play(user=user, game_id=game.pk, move="s")
    stale = Entry(
        seq=1,
        move="s",
        client_id="late",
        by_system=False,
        score=0,
        moves=1,
        status="active",
        at=timezone.now(),
        finished_at=None,
    )
    assert log_append(game_id=game.pk, expected_version=0, player_id=user.pk, entry=stale) is False
    assert Action.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == 1


def test_the_player_guard_refuses_a_write_for_a_game_that_changed_hands(
    user: User, bob: User
) -> None:
    """A copy that still names the old player (a guest's game brought to an account on
    another process) writes nothing, whatever its version."""
    game = services.game_start_practice(user=user, code=CODE)
    Game.objects.filter(pk=game.pk).update(player=bob)
    line = Entry(
        seq=1,
        move="s",
        client_id="",
        by_system=False,
        score=0,
        moves=1,
        status="active",
        at=timezone.now(),
        finished_at=None,
    )
    assert log_append(game_id=game.pk, expected_version=0, player_id=user.pk, entry=line) is False
    assert not Action.objects.filter(game=game).exists()
    assert log_append(game_id=game.pk, expected_version=0, player_id=bob.pk, entry=line)


def test_a_resent_id_another_process_applied_is_answered_not_applied_again(user: User) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    game_play(user=user, game_id=game.pk, move="s", client_id="c1")
    written_elsewhere(game, move="s", client_id="c2")  # the client's first try of c2
    again = game_play(user=user, game_id=game.pk, move="s", client_id="c2")
    assert again.duplicate and again.version == 2
    assert Game.objects.get(pk=game.pk).version == 2


def test_a_write_that_fails_leaves_no_engine_ahead_of_the_log(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    game_play(user=user, game_id=game.pk, move="s")

    def lost_connection(**_: object) -> bool:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr("games.services.play.log_append", lost_connection)
    with pytest.raises(OperationalError):
        game_play(user=user, game_id=game.pk, move="s")
    monkeypatch.undo()
    # The engine that played the lost move was dropped: the next move starts from the log.
    result = game_play(user=user, game_id=game.pk, move="s")
    assert result.version == 2 and result.changes["stock"] == 62


def test_a_refused_move_leaves_the_held_engine_as_it_was(user: User) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    with pytest.raises(Refused):
        game_play(user=user, game_id=game.pk, move="t1-f1")
    held = live_game(game_id=game.pk)
    assert held.engine.view() == engine_for(Game.objects.get(pk=game.pk)).view()


def test_the_store_keeps_at_most_its_limit_of_games(user: User, settings) -> None:
    settings.FT_LIVE_GAMES = 2
    games = [services.game_start_practice(user=user, code=CODE) for _ in range(3)]
    for game in games:
        live_game(game_id=game.pk)
    assert set(live._entries) == {games[1].pk, games[2].pk}


def test_a_game_is_rebuilt_from_its_log_alone(user: User) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    for move in ("s", "s", "undo", "s"):
        services.game_act(
            user=user, game_id=game.pk, kind="move" if move != "undo" else "undo", move=move
        )
    held = live_game(game_id=game.pk).engine.dump()
    live.live_clear()
    rebuilt = live_game(game_id=game.pk).engine.dump()
    assert rebuilt == held  # the take-back history too


def test_an_old_copy_never_refuses_what_the_log_allows(user: User) -> None:
    # Played here, then in another process: this process's copy is three versions behind.
    game = services.game_start_practice(user=user, code=CODE)
    for i in range(3):
        game_play(user=user, game_id=game.pk, move="s", client_id=f"a{i}")
    for i in range(3):
        written_elsewhere(game, move="s", client_id=f"b{i}")
    # The client's version is the log's: applied, not refused as stale.
    result = game_play(user=user, game_id=game.pk, move="s", client_id="c1", version=6)
    assert result.version == 7 and not result.duplicate
    # And an id the other process applied, re-sent here with its version, is answered.
    written_elsewhere(game, move="s", client_id="b9")
    again = game_play(user=user, game_id=game.pk, move="s", client_id="b9", version=7)
    assert again.duplicate and again.version == 8


def test_a_read_gets_its_own_copy_of_the_held_engine(user: User) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    game_play(user=user, game_id=game.pk, move="s")
    row = Game.objects.get(pk=game.pk)
    read = engine_for(row)
    read.play("s")  # a reader's change never reaches the engine the actions use
    assert live_game(game_id=game.pk).engine.stock_count == 63 and read.stock_count == 62


def test_a_game_read_for_its_hello_is_held_for_its_first_action(
    user: User, django_assert_num_queries
) -> None:
    """The socket's hello reads the state (engine_for); the first action then finds the
    game held instead of loading it while its player waits (a cold process)."""
    game = services.game_start_practice(user=user, code=CODE)
    game_play(user=user, game_id=game.pk, move="s")
    live.live_clear()  # a process that has just started
    row = Game.objects.select_related("deal", "player").get(pk=game.pk)
    with django_assert_num_queries(1):  # the log, once
        first = engine_for(row)
    with django_assert_num_queries(0):  # held since: neither a sync nor the action reads
        assert engine_for(row).view() == first.view()
        entry = live_game(game_id=game.pk)
    assert entry.game.version == 1 and entry.game is not row
    assert entry.client_ids == set(
        Action.objects.filter(game=game).values_list("client_id", flat=True)
    ) - {""}
    assert game_play(user=user, game_id=game.pk, move="s").version == 2
    row.refresh_from_db()
    assert row.version == 2


def test_a_finished_game_read_for_a_page_is_not_held(user: User) -> None:
    game = services.game_start_practice(user=user, code=CODE)
    game_resign(user=user, game_id=game.pk)
    live.live_clear()
    engine_for(Game.objects.select_related("deal", "player").get(pk=game.pk))
    assert game.pk not in live._entries


def _played_elsewhere(user: User, turns: int) -> Game:
    """A game another process played (this one holds nothing of it): its row, read anew."""
    game = services.game_start_practice(user=user, code=CODE)
    for n in range(turns):
        game_play(user=user, game_id=game.pk, move="s", client_id=f"c{n}")
    live.live_clear()
    return Game.objects.select_related("deal", "player").get(pk=game.pk)


def test_games_read_together_are_held_as_each_connect_would_hold_it(
    user: User, bob: User, django_assert_num_queries
) -> None:
    mine, bobs = _played_elsewhere(user, 3), _played_elsewhere(bob, 2)
    new = Game.objects.select_related("deal", "player").get(
        pk=services.game_start_practice(user=user).pk
    )
    with django_assert_num_queries(2):  # each played game's log (SQLite: one by one)
        live.live_hold_many([mine, bobs, new])
    for game in (mine, bobs):
        alone = live.replay_log(
            game, list(Action.objects.filter(game=game).values_list("move", flat=True))
        )
        with django_assert_num_queries(0):  # held at the row's version: no log read
            held = engine_for(game)
        assert held.view() == alone.view() and held.moves == game.version
    assert live_game(game_id=mine.pk).client_ids == {"c0", "c1", "c2"}
    assert new.pk not in live._entries  # version 0: nothing to read, nothing held ahead


def test_one_game_alone_is_left_to_its_own_read(user: User, django_assert_num_queries) -> None:
    game = _played_elsewhere(user, 2)
    with django_assert_num_queries(0):
        live.live_hold_many([game])
    assert game.pk not in live._entries


def test_a_held_or_finished_game_is_not_read_again(
    user: User, bob: User, django_assert_num_queries
) -> None:
    held, done = _played_elsewhere(user, 2), _played_elsewhere(bob, 1)
    engine_for(held)  # held now
    game_resign(user=bob, game_id=done.pk)
    done = Game.objects.select_related("deal", "player").get(pk=done.pk)
    live.live_clear()
    engine_for(held)
    with django_assert_num_queries(0):
        live.live_hold_many([held, done])
    assert done.pk not in live._entries
