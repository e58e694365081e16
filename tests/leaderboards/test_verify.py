"""Verifying finished games through the services: real games, forged logs, idempotency."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.contrib import admin
from django.db.models import Max, Min
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services as game_services
from games.models import Action, Deal, Game, User
from games.services.starts import game_create
from leaderboards import services
from leaderboards.boards import board_for
from leaderboards.models import Result
from tests.support.games import game_play, game_resign, game_undo, play_all

from .conftest import WON_GAMES, WonGame  # noqa: TID252

pytestmark = pytest.mark.django_db

Capture = Callable[..., object]


def ranked_resigned(user: User, now: datetime, draws: int = 3) -> Game:
    """A ranked daily game: a few draws, then resigned (not verified yet)."""
    game = game_services.game_start_daily(user=user, now=now)
    play_all(user, game, ["s"] * draws)
    game_resign(user=user, game_id=game.pk)
    game.refresh_from_db()
    return game


def practice_won(user: User, won: WonGame) -> Game:
    """A practice game of a real winning log, played to the win (not verified yet)."""
    game = game_services.game_start_practice(user=user, code=won.code)
    return play_all(user, game, won.moves)


def expected_duration_ms(game: Game) -> int:
    # Whole milliseconds in integers, as the verification counts them: through a float,
    # 1.009 s is 1008.999... ms and truncates to 1008 (a failure seen under load).
    return (game.finished_at - game.first_action_at) // timedelta(milliseconds=1)


# Real games, verified on commit -----------------------------------------------------------


@pytest.mark.parametrize("won", WON_GAMES, ids=[g.code for g in WON_GAMES])
def test_a_won_practice_game_is_verified_when_it_finishes(
    user: User, won: WonGame, django_capture_on_commit_callbacks: Capture
) -> None:
    game = game_services.game_start_practice(user=user, code=won.code)
    with django_capture_on_commit_callbacks(execute=True):
        play_all(user, game, won.moves)
    assert game.status == "won"
    result = Result.objects.get(game=game)
    assert (result.status, result.outcome, result.won) == ("verified", "won", True)
    assert (result.score, result.moves) == (won.score, won.move_count)
    assert result.duration_ms == expected_duration_ms(game)
    assert result.finished_at == game.finished_at and result.verified_at is not None
    assert result.reason == "" and result.player == user and result.deal == game.deal
    assert not result.ranked and result.ranked_at is None and result.day is None


def test_the_duration_is_measured_from_the_logs_first_stamp_to_its_finish(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    won = WON_GAMES[0]
    game = game_services.game_start_practice(user=user, code=won.code)
    play_all(user, game, won.moves[:1])
    # The first action was stamped five minutes ago; the game's summary says otherwise
    # (opened three hours ago, first action a minute ago): the log's stamps decide.
    Action.objects.filter(game=game, seq=1).update(created_at=timezone.now() - timedelta(minutes=5))
    Game.objects.filter(pk=game.pk).update(
        created_at=timezone.now() - timedelta(hours=3),
        first_action_at=timezone.now() - timedelta(minutes=1),
    )
    with django_capture_on_commit_callbacks(execute=True):
        play_all(user, game, won.moves[1:])
    result = Result.objects.get(game=game)
    assert result.status == "verified"
    assert 5 * 60_000 <= result.duration_ms < 6 * 60_000
    stamps = Action.objects.filter(game=game).aggregate(first=Min("created_at"))
    assert result.duration_ms == (result.finished_at - stamps["first"]) // timedelta(milliseconds=1)


def test_a_ranked_daily_game_is_verified_and_ranked_when_it_finishes(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    game = game_services.game_start_daily(user=user, now=now)
    with django_capture_on_commit_callbacks(execute=True):
        play_all(user, game, ["s", "s", "s"])
        game_resign(user=user, game_id=game.pk)
    result = Result.objects.get(game=game)
    assert (result.status, result.outcome, result.won) == ("verified", "resigned", False)
    assert result.ranked and result.ranked_at is not None
    assert (result.day, result.variant) == (now.date(), "forty-thieves")
    assert (result.score, result.moves) == (0, 3)
    assert board_for(now.date(), "forty-thieves").rank(result) == 1


def test_a_won_ranked_game_ranks_above_a_resigned_one(
    user: User, bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    # A daily deal whose seed is that of a real winning log (daily seeds are secret).
    won = WON_GAMES[0]
    deal = game_services.deal_open_daily(day=now.date(), variant=won.variant)
    Deal.objects.filter(pk=deal.pk).update(seed_hex=f"{won.seed:032x}")
    deal.refresh_from_db()
    winner = game_create(user=user, deal=deal, mode="ranked")
    loser = game_create(user=bob, deal=deal, mode="ranked")
    with django_capture_on_commit_callbacks(execute=True):
        game_play(user=bob, game_id=loser.pk, move=won.moves[0])
        game_resign(user=bob, game_id=loser.pk)
        play_all(user, winner, won.moves)
    first, second = Result.objects.get(game=winner), Result.objects.get(game=loser)
    assert (first.status, first.won, first.ranked) == ("verified", True, True)
    assert (first.score, first.moves) == (won.score, won.move_count)
    assert second.status == "verified" and not second.won
    board = board_for(now.date(), won.variant)
    assert (board.rank(first), board.rank(second)) == (1, 2)
    assert [e.result_id for e in board.page(0, 10)] == [first.pk, second.pk]


def test_a_lost_practice_game_is_verified_as_lost(
    user: User,
    stuck_code: str,
    stuck_deal: tuple[int, list[str]],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    game = game_services.game_start_practice(user=user, code=stuck_code)
    with django_capture_on_commit_callbacks(execute=True):
        play_all(user, game, stuck_deal[1])
    assert game.status == "lost"
    result = Result.objects.get(game=game)
    assert (result.status, result.outcome, result.won) == ("verified", "lost", False)


def test_a_practice_game_with_undos_is_verified(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    won = WON_GAMES[0]
    game = game_services.game_start_practice(user=user, code=won.code)
    play_all(user, game, won.moves[:10])
    game_undo(user=user, game_id=game.pk)
    with django_capture_on_commit_callbacks(execute=True):
        play_all(user, game, won.moves[9:])
    result = Result.objects.get(game=game)
    assert result.status == "verified", result.reason
    assert (result.score, result.moves) == (
        won.score,
        won.move_count + 2,
    )  # the undo and the move again


# Forged logs --------------------------------------------------------------------------------


def alter_a_move(game: Game) -> None:
    Action.objects.filter(game=game, seq=2).update(move="f1-t1")


def delete_the_last_action(game: Game) -> None:
    Action.objects.filter(game=game).order_by("-seq").first().delete()


def delete_a_middle_action(game: Game) -> None:
    Action.objects.filter(game=game, seq=2).delete()


def add_an_action(game: Game) -> None:
    last = game.actions.aggregate(Max("seq"))["seq__max"]
    Action.objects.create(game=game, seq=last + 1, move="s", score=game.score)


def change_the_score(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(score=game.score + 50)


def change_the_move_count(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(moves=game.moves + 1)


def change_the_status(game: Game) -> None:
    Game.objects.filter(pk=game.pk).update(status="won")


def change_an_actions_score(game: Game) -> None:
    Action.objects.filter(game=game, seq=1).update(score=10)


def undo_in_a_ranked_game(game: Game) -> None:
    Action.objects.filter(game=game, seq=3).update(move="undo")


FORGERIES = {
    "undo in a ranked game": (undo_in_a_ranked_game, "action 3 ('undo') is refused by the rules"),
    "altered move": (alter_a_move, "action 2 ('f1-t1') is refused by the rules"),
    "last action deleted": (delete_the_last_action, "truncated"),
    "middle action deleted": (delete_a_middle_action, "action 2 is numbered 3"),
    "action added": (add_an_action, "comes after the game ended (resigned)"),
    "score changed": (change_the_score, "the game claims score 50; the replay gives 0"),
    "move count changed": (change_the_move_count, "claims move count 4; the replay gives 3"),
    "status changed": (change_the_status, "claims status won; the replay gives resigned"),
    "action score changed": (change_an_actions_score, "action 1 ('s') records score 10"),
}


@pytest.mark.parametrize("forge", FORGERIES.values(), ids=FORGERIES.keys())
def test_a_forged_ranked_log_is_rejected_with_the_reason_and_never_ranked(
    user: User,
    now: datetime,
    forge: tuple[Callable[[Game], None], str],
    django_capture_on_commit_callbacks: Capture,
) -> None:
    forger, reason = forge
    game = ranked_resigned(user, now)  # finished, its verification not run
    assert not Result.objects.exists()
    forger(game)
    with django_capture_on_commit_callbacks(execute=True):
        result = services.result_verify(game_id=game.pk)
    result.refresh_from_db()
    assert result.status == "rejected" and result.verified_at is not None
    assert reason in result.reason
    assert result.ranked_at is None
    assert services.result_rank(result_id=result.pk) is False
    for day in (now.date(), now.date() + timedelta(days=1)):
        board = board_for(day, "forty-thieves")
        assert board.rank(result) is None and board.size() == 0


def test_a_forged_win_is_rejected(user: User, django_capture_on_commit_callbacks: Capture) -> None:
    game = practice_won(user, WON_GAMES[0])
    delete_the_last_action(game)
    with django_capture_on_commit_callbacks(execute=True):
        result = services.result_verify(game_id=game.pk)
    assert result.status == "rejected" and "truncated" in result.reason
    assert result.won  # what the game claimed, kept for the record; boards see the status


def test_an_honest_ranked_game_verified_by_hand_is_ranked_on_commit(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    game = ranked_resigned(user, now)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        result = services.result_verify(game_id=game.pk)
    assert result.status == "verified" and len(callbacks) >= 1
    result.refresh_from_db()
    assert result.ranked_at is not None
    assert board_for(now.date(), "forty-thieves").rank(result) == 1


def test_a_rejected_result_is_shown_in_the_admin_with_its_reason(
    client: Client, user: User, now: datetime
) -> None:
    game = ranked_resigned(user, now)
    change_the_score(game)
    result = services.result_verify(game_id=game.pk)
    assert result.status == "rejected"
    if not admin.site.is_registered(Result):
        pytest.skip("leaderboards.Result is not registered in the admin (no leaderboards/admin.py)")
    root = User.objects.create_superuser("root", "root@example.org", "an admin passphrase 1")
    client.force_login(root)
    changelist = reverse("admin:leaderboards_result_changelist")
    for query in ({}, {"status__exact": "rejected"}):
        listing = client.get(changelist, query)
        assert listing.status_code == 200
        assert list(listing.context["cl"].result_list) == [result]
        assert "the game claims score 50; the replay gives 0" in listing.content.decode()
    verified = client.get(changelist, {"status__exact": "verified"})
    assert list(verified.context["cl"].result_list) == []
    page = client.get(reverse("admin:leaderboards_result_change", args=[result.pk]))
    assert page.status_code == 200
    assert "the game claims score 50; the replay gives 0" in page.content.decode()


# Idempotency ------------------------------------------------------------------------------


def test_verifying_twice_changes_nothing(user: User, now: datetime) -> None:
    game = ranked_resigned(user, now)
    first = services.result_verify(game_id=game.pk)
    again = services.result_verify(game_id=game.pk)
    assert again.pk == first.pk and Result.objects.count() == 1
    assert again.status == "verified" and again.verified_at == first.verified_at
    assert Result.objects.get().verified_at == first.verified_at


def test_verifying_a_rejected_result_again_changes_nothing(user: User, now: datetime) -> None:
    game = ranked_resigned(user, now)
    change_the_score(game)
    first = services.result_verify(game_id=game.pk)
    # Even if the forgery is undone, the decision stands.
    Game.objects.filter(pk=game.pk).update(score=0)
    again = services.result_verify(game_id=game.pk)
    assert (again.pk, again.status, again.reason) == (first.pk, "rejected", first.reason)
    assert again.verified_at == first.verified_at


def test_a_delivery_that_waited_for_the_lock_returns_the_verdict_decided_meanwhile(
    user: User, now: datetime, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two deliveries of one task: the second waits on the game's row lock, and its join
    # (read as of before the wait) misses the result the first committed. Its insert then
    # meets the unique game and it answers with the first one's verdict.
    game = ranked_resigned(user, now)
    first = services.result_verify(game_id=game.pk)
    lock_game = services._lock_game
    monkeypatch.setattr(services, "_lock_game", lambda game_id: (lock_game(game_id)[0], None))
    again = services.result_verify(game_id=game.pk)
    assert (again.pk, again.status, again.verified_at) == (first.pk, "verified", first.verified_at)
    assert Result.objects.count() == 1


def test_ranking_happens_once(user: User, now: datetime) -> None:
    game = ranked_resigned(user, now)
    result = services.result_verify(game_id=game.pk)  # its on-commit ranking never runs here
    assert Result.objects.get().ranked_at is None
    assert services.result_rank(result_id=result.pk) is True
    ranked_at = Result.objects.get().ranked_at
    assert ranked_at is not None
    assert services.result_rank(result_id=result.pk) is False
    assert Result.objects.get().ranked_at == ranked_at
    assert board_for(now.date(), "forty-thieves").size() == 1


def test_a_practice_result_is_verified_but_never_ranked(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    game = practice_won(user, WON_GAMES[1])
    with django_capture_on_commit_callbacks(execute=True):
        result = services.result_verify(game_id=game.pk)
    assert result.status == "verified" and not result.ranked
    assert services.result_rank(result_id=result.pk) is False
    assert Result.objects.get().ranked_at is None


def test_a_practice_game_of_a_daily_deal_is_never_ranked(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    ranked = ranked_resigned(user, now)
    practice = game_services.game_start_practice(user=user, deal_id=ranked.deal_id)
    with django_capture_on_commit_callbacks(execute=True):
        play_all(user, practice, ["s"])
        game_resign(user=user, game_id=practice.pk)
    result = Result.objects.get(game=practice)
    assert result.status == "verified" and not result.ranked and result.ranked_at is None
    assert result.day == now.date()
    assert board_for(now.date(), "forty-thieves").size() == 0


def test_an_unfinished_game_is_not_verified(user: User, now: datetime) -> None:
    game = game_services.game_start_daily(user=user, now=now)
    play_all(user, game, ["s"])
    assert services.result_verify(game_id=game.pk) is None
    assert not Result.objects.exists()


def test_an_unknown_game_is_not_verified(db: None) -> None:
    assert services.result_verify(game_id="00000000-0000-0000-0000-000000000000") is None
    assert not Result.objects.exists()


def test_ranking_an_unknown_result_does_nothing(db: None) -> None:
    assert services.result_rank(result_id=123456) is False


# What the sweep finds -----------------------------------------------------------------------


def test_results_needing_work_finds_old_unverified_games_and_unranked_results(
    user: User, bob: User, now: datetime, make_result: Callable[..., Result]
) -> None:
    finished = ranked_resigned(user, now)  # no result: its verification was lost
    moment = finished.finished_at
    unranked = make_result()
    Result.objects.filter(pk=unranked.pk).update(verified_at=moment)
    ranked = make_result()
    Result.objects.filter(pk=ranked.pk).update(verified_at=moment, ranked_at=moment)
    practice = make_result(ranked=False)
    Result.objects.filter(pk=practice.pk).update(verified_at=moment)
    active = game_services.game_start_practice(user=bob, code=WON_GAMES[0].code)
    play_all(bob, active, ["s"])

    games, results = services.results_needing_work(now=moment + timedelta(minutes=2))
    assert games == [str(finished.pk)]
    assert results == [unranked.pk]

    fresh = services.results_needing_work(now=moment + timedelta(seconds=30))
    assert fresh == ([], [])


def test_results_needing_work_skips_decided_games(user: User, now: datetime) -> None:
    game = ranked_resigned(user, now)
    result = services.result_verify(game_id=game.pk)
    later = game.finished_at + timedelta(minutes=5)
    Result.objects.filter(pk=result.pk).update(verified_at=game.finished_at)
    games, results = services.results_needing_work(now=later)
    assert games == [] and results == [result.pk]  # decided, though still to be ranked


def test_results_needing_work_finds_a_game_whose_result_is_still_pending(
    user: User, now: datetime
) -> None:
    game = ranked_resigned(user, now)
    result = services.result_verify(game_id=game.pk)
    Result.objects.filter(pk=result.pk).update(status="pending", verified_at=None)
    games, _ = services.results_needing_work(now=game.finished_at + timedelta(minutes=2))
    assert games == [str(game.pk)]
