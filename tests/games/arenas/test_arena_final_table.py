"""An arena's final table (docs/arenas.md, "The final table"): kept at the finish as a
record that says it was verified, listing the results verification refused, written once
and never again, shown on the arena's page and linked from the scorecards."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.arenas.final import record_digest
from games.arenas.models import Arena, ArenaEntry, ArenaPlay, ArenaRound
from leaderboards.models import Result
from leaderboards.services import result_verify
from tests.games.arenas.conftest import act, game_of

pytestmark = pytest.mark.django_db(transaction=True)


def _played_round(arena: Arena, players, wall_clock, *, win=None) -> ArenaRound:
    """Round 1 with a move by each player (``win``: ada wins the deal), closed."""
    for player in players:
        services.arena_join(user=player, arena_id=arena.pk)
    played = services.arena_round_open(arena=arena, number=1)
    if win is not None:
        for move in win:
            act(game_of(arena, 1, players[0]), move=move)
    for player in players[0 if win is None else 1 :]:
        act(game_of(arena, 1, player), move="s")
    wall_clock.shift(timedelta(minutes=5))
    services.arena_round_close(round_id=played.pk)
    return played


def _decided_again(played: ArenaRound, *, then) -> None:
    """Undo the round's settling and verify its games again, ``then(...)`` before it is
    settled anew (a verdict changed by review)."""
    ArenaRound.objects.filter(pk=played.pk).update(settled_at=None)
    ArenaPlay.objects.update(verdict="", points=None, place=None)
    ArenaEntry.objects.update(points=0, rounds_played=0)
    for play in ArenaPlay.objects.filter(round=played):
        result_verify(game_id=play.game_id)
    then()


def _finish(arena: Arena, wall_clock) -> Arena:
    wall_clock.shift(timedelta(minutes=11))
    services.arena_sweep()
    services.arena_sweep()
    arena.refresh_from_db()
    return arena


def test_the_finish_keeps_a_verified_final_table(
    arena, user, bob, reserve_deal, classic_win, wall_clock
) -> None:
    reserve_deal()
    _played_round(arena, [user, bob], wall_clock, win=classic_win[1])
    arena = _finish(arena, wall_clock)
    record = arena.final_table
    assert arena.finished_at is not None and record["verified"] is True
    assert [(r["rank"], r["player"], r["points"]) for r in record["rows"]] == [
        (1, user.pk, 15),
        (2, bob.pk, 0),
    ]
    assert record["results_counted"] == 2 and record["excluded"] == []
    assert record["digest"] == record_digest(record)
    page = Client().get(reverse("arena", args=[arena.pk])).content.decode()
    final = page.split('data-testid="arena-final"')[1].split("</section>")[0]
    assert 'data-verified="yes"' in final and 'data-testid="arena-final-verified"' in final
    assert "ada" in final.split('data-testid="arena-final-table"')[1]
    assert 'data-testid="arena-final-none-excluded"' in final
    card = Client().get(reverse("leaderboards:scorecard", args=["bob"])).content.decode()
    section = card.split('data-testid="scorecard-arenas"')[1].split("</section>")[0]
    assert f'href="{reverse("arena", args=[arena.pk])}#final-table"' in section


def test_a_result_that_failed_verification_is_excluded_and_shown_so(
    arena, user, bob, wall_clock
) -> None:
    played = _played_round(arena, [user, bob], wall_clock)

    def reject_bob() -> None:
        Result.objects.filter(game__player=bob).update(status=Result.Status.REJECTED)
        assert services.arena_round_close(round_id=played.pk)

    _decided_again(played, then=reject_bob)
    arena = _finish(arena, wall_clock)
    record = arena.final_table
    assert record["verified"] is True
    assert record["excluded"] == [{"round": 1, "player": bob.pk}]
    assert record["results_counted"] == 1
    bobs = next(r for r in record["rows"] if r["player"] == bob.pk)
    assert (bobs["points"], bobs["rounds_played"]) == (0, 0)
    page = Client().get(reverse("arena", args=[arena.pk])).content.decode()
    excluded = page.split('data-testid="arena-final-excluded"')[1].split("</ul>")[0]
    assert "Round 1" in excluded and "bob" in excluded


def test_no_place_is_final_while_a_result_waits_for_review(arena, user, bob, wall_clock) -> None:
    played = _played_round(arena, [user, bob], wall_clock)

    def hold_bob() -> None:
        Result.objects.filter(game__player=bob).update(review=Result.Review.HELD)
        assert not services.arena_round_close(round_id=played.pk)

    _decided_again(played, then=hold_bob)
    arena = _finish(arena, wall_clock)
    assert arena.finished_at is None and arena.final_table is None
    assert not services.arena_finish(arena_id=arena.pk)
    page = Client().get(reverse("arena", args=[arena.pk])).content.decode()
    assert 'data-testid="arena-final"' not in page


def test_an_arena_is_not_finished_before_its_end(arena, user, bob, wall_clock) -> None:
    _played_round(arena, [user, bob], wall_clock)  # round 1 settled, rounds 2 and 3 to come
    assert not services.arena_finish(arena_id=arena.pk)
    arena.refresh_from_db()
    assert arena.finished_at is None and arena.final_table is None


def test_the_record_never_changes_once_final(arena, user, bob, wall_clock) -> None:
    _played_round(arena, [user, bob], wall_clock)
    arena = _finish(arena, wall_clock)
    kept, finished = arena.final_table, arena.finished_at
    # A later change of the entries (any cause) and further finishes leave it alone.
    ArenaEntry.objects.filter(player=bob).update(points=99, rounds_played=9)
    assert not services.arena_finish(arena_id=arena.pk)
    wall_clock.shift(timedelta(minutes=1))
    services.arena_sweep()
    arena.refresh_from_db()
    assert (arena.final_table, arena.finished_at) == (kept, finished)
    page = Client().get(reverse("arena", args=[arena.pk])).content.decode()
    assert ">99<" not in page.split('data-testid="arena-final-table"')[1].split("</table>")[0]


def test_a_record_altered_by_hand_is_not_shown_as_verified(arena, user, bob, wall_clock) -> None:
    _played_round(arena, [user, bob], wall_clock)
    arena = _finish(arena, wall_clock)
    record = arena.final_table
    record["rows"][0]["points"] += 10
    Arena.objects.filter(pk=arena.pk).update(final_table=record)
    page = Client().get(reverse("arena", args=[arena.pk])).content.decode()
    final = page.split('data-testid="arena-final"')[1].split("</section>")[0]
    assert 'data-verified="no"' in final and 'data-testid="arena-final-unverified"' in final
