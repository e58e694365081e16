"""Asking for the post-game analysis and running it: who may, when, once per game (the
result is kept), throttled, with its progress on the row and its own queue."""

from __future__ import annotations

from datetime import datetime, timedelta
from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from ftsite.rates import Rate
from games import services
from games.errors import Forbidden, NotAuthenticated, NotFound, SolverLocked
from games.models import Deal, Game, GameAnalysis, User
from games.services import analysis as analysis_service
from games.services.analysis import NothingToAnalyse
from games.throttles import RateLimited
from tests.support.games import LOST, Capture, play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def analysis_budget(settings) -> None:
    settings.FT_ANALYSIS_SECONDS = 20.0
    settings.FT_ANALYSIS_POSITION_SECONDS = 3.0
    settings.FT_RATE_ANALYSES = Rate.parse("100/h")


def lost_game(user: User, capture: Capture) -> Game:
    game = services.game_start_practice(user=user, code=LOST["code"])
    return play(user, game, LOST["moves"].split(), capture)


def resigned_game(user: User, capture: Capture, code: str = "FT1-N-0000007") -> Game:
    game = services.game_start_practice(user=user, code=code)
    return play(user, game, ["s", "s", "resign"], capture)


def ask(user: User | AnonymousUser, game: Game, capture: Capture) -> GameAnalysis:
    """Ask, running the task at the commit (eager Celery, as on the embedded defaults)."""
    with capture(execute=True):
        services.analysis_request(user=user, game_id=game.pk)
    return GameAnalysis.objects.get(game=game)


def test_it_finds_the_losing_move_of_a_lost_practice_game_and_keeps_it(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    game = lost_game(user, django_capture_on_commit_callbacks)
    assert game.status == Game.Status.LOST
    row = ask(user, game, django_capture_on_commit_callbacks)
    assert row.status == GameAnalysis.Status.DONE
    assert row.result["verdict"] == "exact"
    assert row.result["losing"] == {"seq": LOST["losing_seq"], "move": LOST["losing_move"]}
    assert row.done == row.total == row.result["checked"] > 0
    assert row.started_at and row.finished_at and row.finished_at >= row.started_at
    # A second request reads the kept result: nothing runs again, nothing is counted.
    with mock.patch.object(analysis_service, "analyse") as analyse:
        again = ask(user, game, django_capture_on_commit_callbacks)
    analyse.assert_not_called()
    assert again.result == row.result and again.finished_at == row.finished_at


def test_the_task_writes_its_progress_to_the_row_as_it_goes(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    game = resigned_game(user, django_capture_on_commit_callbacks)
    seen: list[tuple[str, int, int]] = []

    def fake(start, log, *, progress, **kwargs):  # type: ignore[no-untyped-def]
        for done in (1, 2):
            progress(done, 5)
            row = GameAnalysis.objects.get(game=game)
            seen.append((row.status, row.done, row.total))
        return mock.Mock(to_dict=lambda: {"verdict": "never", "checked": 2, "win_step": None})

    with mock.patch.object(analysis_service, "analyse", side_effect=fake):
        row = ask(user, game, django_capture_on_commit_callbacks)
    assert seen == [("running", 1, 5), ("running", 2, 5)]
    assert (row.status, row.done, row.total) == ("done", 2, 2)


def test_the_solver_gets_the_log_and_the_budget_from_the_settings(
    user: User, settings, django_capture_on_commit_callbacks: Capture
) -> None:
    settings.FT_ANALYSIS_SECONDS, settings.FT_ANALYSIS_POSITION_SECONDS = 7.0, 0.5
    game = resigned_game(user, django_capture_on_commit_callbacks)
    Deal.objects.filter(pk=game.deal_id).update(solution="s s t1-t2")
    report = mock.Mock(to_dict=lambda: {"verdict": "at_end", "checked": 1, "win_step": 3})
    with mock.patch.object(analysis_service, "analyse", return_value=report) as analyse:
        ask(user, game, django_capture_on_commit_callbacks)
    (start, log), options = analyse.call_args
    assert log == ["s", "s", "resign"] and start.moves == 0
    assert options["total_seconds"] == 7.0 and options["position_seconds"] == 0.5
    assert options["start_line"] == ["s", "s", "t1-t2"]


# Who may ask, and when ----------------------------------------------------------------------


def test_whoever_may_replay_the_game_may_ask_when_signed_in(
    user: User, bob: User, django_capture_on_commit_callbacks: Capture
) -> None:
    game = resigned_game(user, django_capture_on_commit_callbacks)
    with mock.patch.object(analysis_service, "_enqueue"):
        assert services.analysis_request(user=bob, game_id=game.pk).status == "queued"
    with pytest.raises(NotAuthenticated):
        services.analysis_request(user=AnonymousUser(), game_id=game.pk)


def test_a_game_still_played_a_won_game_and_a_missing_one_are_refused(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    active = services.game_start_practice(user=user, code="FT1-N-0000007")
    with pytest.raises(NotFound):
        services.analysis_request(user=user, game_id=active.pk)
    with pytest.raises(NotFound):
        services.analysis_request(user=user, game_id="00000000-0000-0000-0000-000000000000")
    won = resigned_game(user, django_capture_on_commit_callbacks, code="FT1-N-0000009")
    Game.objects.filter(pk=won.pk).update(status=Game.Status.WON)
    with pytest.raises(NothingToAnalyse) as refused:
        services.analysis_request(user=user, game_id=won.pk)
    assert refused.value.code == "game_won" and refused.value.status == 409
    assert not GameAnalysis.objects.exists()


def test_a_daily_game_waits_for_the_close_even_for_its_player(
    user: User, bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    game = services.game_start_daily(user=user, now=now)
    game = play(user, game, ["s", "resign"], django_capture_on_commit_callbacks)
    with pytest.raises(SolverLocked) as refused:
        services.analysis_request(user=user, game_id=game.pk)
    assert refused.value.code == "day_open"
    with pytest.raises(Forbidden):  # the replay itself is the owner's until the close
        services.analysis_request(user=bob, game_id=game.pk)
    Deal.objects.filter(pk=game.deal_id).update(revealed_at=timezone.now())
    with mock.patch.object(analysis_service, "_enqueue"):
        assert services.analysis_request(user=bob, game_id=game.pk).status == "queued"


# Once per game, throttled, started again only when lost ------------------------------------


def test_new_analyses_are_throttled_but_kept_ones_are_not(
    user: User, settings, django_capture_on_commit_callbacks: Capture
) -> None:
    settings.FT_RATE_ANALYSES = Rate.parse("1/h")
    first = resigned_game(user, django_capture_on_commit_callbacks)
    second = resigned_game(user, django_capture_on_commit_callbacks, code="FT1-N-0000009")
    with mock.patch.object(analysis_service, "_enqueue") as enqueue:
        with django_capture_on_commit_callbacks(execute=True):
            services.analysis_request(user=user, game_id=first.pk)
            services.analysis_request(user=user, game_id=first.pk)  # queued: not counted
        with pytest.raises(RateLimited) as refused:
            services.analysis_request(user=user, game_id=second.pk)
    assert enqueue.call_count == 1
    assert refused.value.code == "rate_limited" and refused.value.retry_after > 0
    assert not GameAnalysis.objects.filter(game=second).exists()


def test_a_failed_or_lost_analysis_is_started_again_on_request(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    game = resigned_game(user, django_capture_on_commit_callbacks)
    with mock.patch.object(analysis_service, "_enqueue") as enqueue:
        services.analysis_request(user=user, game_id=game.pk)
        GameAnalysis.objects.filter(game=game).update(status="failed", reason="boom")
        with django_capture_on_commit_callbacks(execute=True):
            assert services.analysis_request(user=user, game_id=game.pk).status == "queued"
        # Running for longer than its budget: its worker died; a request starts it again.
        long_ago = timezone.now() - timedelta(hours=1)
        GameAnalysis.objects.filter(game=game).update(status="running", started_at=long_ago)
        with django_capture_on_commit_callbacks(execute=True):
            services.analysis_request(user=user, game_id=game.pk)
        # Running for a moment: left alone.
        GameAnalysis.objects.filter(game=game).update(status="running", started_at=timezone.now())
        with django_capture_on_commit_callbacks(execute=True):
            assert services.analysis_request(user=user, game_id=game.pk).status == "running"
    assert enqueue.call_count == 2
    assert GameAnalysis.objects.get(game=game).reason == ""


def test_a_log_that_no_longer_replays_fails_the_analysis_clearly(
    user: User, django_capture_on_commit_callbacks: Capture
) -> None:
    game = resigned_game(user, django_capture_on_commit_callbacks)
    game.actions.filter(seq=1).update(move="f1-t1")  # nothing on the foundation
    row = ask(user, game, django_capture_on_commit_callbacks)
    assert row.status == "failed" and "no longer replays" in row.reason


def test_a_redelivered_task_leaves_a_done_analysis_alone(
    user: User, settings, django_capture_on_commit_callbacks: Capture
) -> None:
    settings.FT_ANALYSIS_SECONDS = 0.5
    game = resigned_game(user, django_capture_on_commit_callbacks)
    row = ask(user, game, django_capture_on_commit_callbacks)
    with mock.patch.object(analysis_service, "analyse") as analyse:
        assert services.analysis_run(game_id=game.pk).result == row.result
    analyse.assert_not_called()
    assert services.analysis_run(game_id="00000000-0000-0000-0000-000000000000") is None


def test_the_task_has_a_queue_of_its_own(settings) -> None:
    from games.tasks import analyse_game

    assert settings.CELERY_TASK_ROUTES[analyse_game.name] == {"queue": "analysis"}
    with mock.patch.object(services, "analysis_run", return_value=None) as run:
        assert analyse_game("g1") is None
    run.assert_called_once_with(game_id="g1")
