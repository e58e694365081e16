"""``manage.py compact_logs`` (issue 37): finished, verified games' logs packed into one
blob each, and every reader of a log (verification, the replay, the live engine, the day
file, fair play's line, the account export) answering exactly as it did from the rows."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction

from games import services as game_services
from games.accounts.services import account_export
from games.engine import format_code, parse_variant
from games.logcodec import LogCorrupt
from games.logs import game_log
from games.models import Action, CompactLog, Deal, Game, Sighting, User
from games.runtime.live import engine_for, live_clear
from games.services import deals as deal_services
from leaderboards.compaction import log_compact, logs_compact, logs_compactable
from leaderboards.dayfiles import day_file_data
from leaderboards.fairplay.linked import linked_evidence
from leaderboards.fairplay.selectors import played_line
from leaderboards.models import Result
from leaderboards.replays.frames import replay_frames
from leaderboards.services import result_verify
from tests.support.games import game_resign, game_undo, play_all

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]
WON = json.loads((Path(__file__).parent.parent / "data" / "won_games.json").read_text())["games"]


@pytest.fixture
def played(
    settings,
    now: datetime,
    make_daily_deal: Callable[..., Deal],
    classic_win: tuple[int, list[str]],
    django_capture_on_commit_callbacks: Capture,
) -> list[Game]:
    """A closed daily deal's win and resign, and a practice win of another variant with
    take-backs in its log, all verified (on commit) as the site verifies them."""
    settings.FT_FORESIGHT_SECONDS = 0
    deal = make_daily_deal(now.date(), revealed=False)
    Deal.objects.filter(pk=deal.pk).update(code=format_code(parse_variant(deal.variant), deal.seed))
    winner, quitter, learner = (
        User.objects.create_user(username=name, password="x" * 12)
        for name in ("winner", "quitter", "learner")
    )
    won = WON[2]
    moves = won["moves"].split()
    with django_capture_on_commit_callbacks(execute=True):
        practice = game_services.game_start_practice(user=learner, code=won["code"])
        win = play_all(winner, game_services.game_start_daily(user=winner, now=now), classic_win[1])
        quit_ = play_all(quitter, game_services.game_start_daily(user=quitter, now=now), ["s"] * 3)
        game_resign(user=quitter, game_id=quit_.pk)
        play_all(learner, practice, moves[:5])
        game_undo(user=learner, game_id=practice.pk)
        game_undo(user=learner, game_id=practice.pk)
        play_all(learner, practice, moves[3:])
        deal_services.deal_close_daily(day=now.date(), now=now + timedelta(days=1))
    games = [
        Game.objects.select_related("deal", "player").get(pk=g.pk) for g in (win, quit_, practice)
    ]
    assert all(g.result.status == Result.Status.VERIFIED for g in games)
    assert Action.objects.filter(game=practice, move="undo").count() == 2
    return games


def later(now: datetime) -> datetime:
    return now + timedelta(days=3)


def readings(games: list[Game]) -> dict[str, object]:
    """What each reader of a log answers for ``games``."""
    live_clear()
    out: dict[str, object] = {
        "day file": {**day_file_data(deal=games[0].deal), "generated_at": None},
        "export": [account_export(user=g.player)["games"] for g in games],
    }
    for game in games:
        key = str(game.pk)
        out[key + " log"] = game_log(game_id=game.pk)
        out[key + " replay"] = replay_frames(user=game.player, game_id=game.pk)
        out[key + " line"] = played_line(game_id=game.pk)
        out[key + " engine"] = engine_for(game).dump()
        live_clear()
        with transaction.atomic():  # verified again from scratch, then as it was
            Result.objects.filter(game=game).delete()
            again = result_verify(game_id=game.pk)
            assert again is not None
            out[key + " verified"] = (
                again.status,
                again.reason,
                again.duration_ms,
                again.finished_at,
            )
            transaction.set_rollback(True)
    return out


def test_packing_leaves_every_reader_answering_the_same(played: list[Game], now: datetime) -> None:
    before = readings(played)
    rows = Action.objects.count()
    done = logs_compact(now=later(now))
    assert (done.games, done.skipped) == (3, 0)
    assert not Action.objects.filter(game__in=played).exists()
    assert CompactLog.objects.count() == 3
    assert done.blob_bytes < rows * 12
    assert readings(played) == before


def test_a_second_run_packs_nothing_and_changes_nothing(played: list[Game], now: datetime) -> None:
    logs_compact(now=later(now))
    blobs = dict(CompactLog.objects.values_list("game_id", "data"))
    again = logs_compact(now=later(now))
    assert (again.games, again.skipped) == (0, 0)
    assert {k: bytes(v) for k, v in CompactLog.objects.values_list("game_id", "data")} == {
        k: bytes(v) for k, v in blobs.items()
    }


def test_it_packs_in_bounded_batches_and_resumes(played: list[Game], now: datetime) -> None:
    first = logs_compact(now=later(now), batch=1, limit=2)
    assert first.games == 2
    assert logs_compact(now=later(now), batch=1).games == 1


def test_it_leaves_recent_unverified_and_open_deal_games(played: list[Game], now: datetime) -> None:
    win, quit_, practice = played
    assert logs_compactable(now=now + timedelta(hours=1)) == []  # finished too lately
    Result.objects.filter(game=quit_).update(status=Result.Status.PENDING)
    Deal.objects.filter(pk=practice.deal_id).update(closes_at=later(now) + timedelta(days=1))
    assert logs_compactable(now=later(now)) == [win.pk]


def test_a_log_that_does_not_match_its_game_is_left_as_it_is(
    played: list[Game], now: datetime
) -> None:
    win = played[0]
    rows = Action.objects.filter(game=win).count()
    Game.objects.filter(pk=win.pk).update(version=rows + 1)
    done = logs_compact(now=later(now))
    assert (done.games, done.skipped) == (2, 1)
    assert Action.objects.filter(game=win).count() == rows
    assert not CompactLog.objects.filter(game=win).exists()


def test_a_damaged_blob_is_refused_never_read_short(played: list[Game], now: datetime) -> None:
    logs_compact(now=later(now))
    win = played[0]
    blob = bytearray(CompactLog.objects.get(game=win).data)
    blob[len(blob) // 2] ^= 0x40
    CompactLog.objects.filter(game=win).update(data=bytes(blob))
    with pytest.raises(LogCorrupt):
        game_log(game_id=win.pk)
    with pytest.raises(LogCorrupt):
        played_line(game_id=win.pk)


def test_the_command_says_what_it_packed(played: list[Game], now: datetime, settings) -> None:
    settings.FT_COMPACT_AFTER_HOURS = 1
    out = io.StringIO()
    # The deal closed at the end of its day; the clock of the unit tier is pinned at noon.
    Deal.objects.update(closes_at=now - timedelta(hours=2))
    Game.objects.update(finished_at=now - timedelta(hours=2))
    call_command("compact_logs", "--batch", "2", stdout=out)
    assert "Packed 3 games' logs" in out.getvalue()
    assert CompactLog.objects.count() == 3


def test_the_command_refuses_a_batch_below_one() -> None:
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="--batch"):
        call_command("compact_logs", "--batch", "0")


def test_a_linked_accounts_packed_game_counts_as_its_rows_did(
    played: list[Game], now: datetime
) -> None:
    """Fair play's linked accounts (``linked_evidence``): a scout's games of the deal,
    their cards turned and moves, the same from the packed log as from the rows."""
    win, quit_, _ = played
    for player in (win.player, quit_.player):
        Sighting.objects.create(
            user=player, kind=Sighting.Kind.DEVICE, digest="d" * 64, first_seen=now, last_seen=now
        )

    def evidence() -> list[dict]:
        return linked_evidence(player_id=win.player_id, deal=win.deal, before=later(now), stock=64)

    before = evidence()
    assert before and before[0]["games"][0]["turned"] == 3
    assert log_compact(game_id=quit_.pk) is not None
    assert not Action.objects.filter(game=quit_).exists()
    assert evidence() == before


def test_beat_packs_the_due_logs_every_ten_minutes_off_the_verification_queue(
    played: list[Game], now: datetime, wall_clock, settings
) -> None:
    from leaderboards import tasks

    entry = next(
        e
        for e in settings.CELERY_BEAT_SCHEDULE.values()
        if e["task"] == "leaderboards.compact_logs"
    )
    assert entry["schedule"].minute == set(range(0, 60, 10))
    assert settings.CELERY_TASK_ROUTES["leaderboards.compact_logs"] == {"queue": "solver"}
    assert tasks.compact_logs.delay().get() == 0  # not due yet: the day has just closed
    wall_clock.move_to(later(now))
    assert tasks.compact_logs.delay(limit=2).get() == 2  # a run's limit holds
    assert tasks.compact_logs.delay().get() == 1
    assert not Action.objects.filter(game__in=played).exists()
