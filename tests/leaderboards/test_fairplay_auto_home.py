"""Fair play and the server's safe cards sent home: the pace check reads only the
player's actions; the analyses replay the whole line, the server's moves included."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import pytest

from games import services as game_services
from games.models import Action, User
from games.services.starts import game_create
from leaderboards.models import FairPlayCheck, Result
from tests.support.games import game_play, game_resign

from .test_fairplay import daily_of_won_log, play  # noqa: TID252

pytestmark = pytest.mark.django_db

Capture = Callable[..., object]


def test_the_pace_check_reads_only_the_players_actions_not_the_safe_cards_sent_home(
    user: User, now: datetime, settings, django_capture_on_commit_callbacks: Capture
) -> None:
    settings.FT_PACE_CHECK = True
    user.table_settings = {"auto_home": True}
    user.save(update_fields=["table_settings"])
    game = game_create(user=user, deal=daily_of_won_log(now), mode="ranked")
    result = play(user, game, ["s"] * 40 + ["resign"], django_capture_on_commit_callbacks)
    automatic = Action.objects.filter(game=game, by_system=True).count()
    assert automatic > 0 and result.status == Result.Status.VERIFIED
    check = FairPlayCheck.objects.get(result=result)  # held: 41 actions at a machine's pace
    assert check.timing["actions"] == 41


def test_the_analyses_replay_the_line_with_the_safe_cards_sent_home(user: User) -> None:
    from games.engine import GameState
    from leaderboards.fairplay.selectors import played_line

    user.table_settings = {"auto_home": True}
    user.save(update_fields=["table_settings"])
    game = game_services.game_start_practice(user=user, code="FT1-N-0000063")  # AH over AH
    for move in ("s", "s"):
        game_play(user=user, game_id=game.pk, move=move)
    game_resign(user=user, game_id=game.pk)
    line = played_line(game_id=game.pk)
    assert line == ["s", "t7-f2", "t7-f6", "s"]
    GameState.from_code("FT1-N-0000063").replay(line)  # legal from the deal, as played
