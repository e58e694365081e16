"""The sequential fair-play test on the real stack: a ranked finish is verified by the
urgent worker, which enqueues the step of the player's e-process on the ``fairplay``
queue; that worker weighs the win (the real horizon statistic's solver work) and, the
wealth crossing the threshold, puts the player's won results of the window under review.

The player arrives with evidence from earlier days (a wealth of 1,000 after ten games):
whatever today's win weighs, its draw-by-draw bets keep at least 17 % of it (every factor
0: the mean over the pairs of (1 - lam) to the 12 or 6 draws), so the crossing does not
depend on the solver's answers, only on the plumbing this test is about.
"""

from __future__ import annotations

import json
import math
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from games import services
from games.models import Deal, Game, User
from games.solver.horizon import HORIZONS
from leaderboards.fairplay.eprocess import DRAW_BETS
from leaderboards.models import EvidenceStep, FairPlayCheck, PlayerEvidence, Result
from tests.support.games import game_play
from tests.support.waiting import wait_for

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

CLASSIC_WIN = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "classic_win.json").read_text()
)


def yesterdays_win(user: User) -> Result:
    """A verified ranked win of yesterday's daily, already counted by the test."""
    yesterday = timezone.now() - timedelta(days=1)
    deal = services.deal_open_daily(day=yesterday.date())
    game = Game.objects.create(player=user, deal=deal, mode="ranked", status="won")
    result = Result.objects.create(
        game=game, player=user, deal=deal, day=deal.day, variant=deal.variant, ranked=True,
        status="verified", outcome="won", won=True, score=520, moves=300,
        duration_ms=600_000, finished_at=yesterday, verified_at=yesterday, ranked_at=yesterday,
    )  # fmt: skip
    EvidenceStep.objects.create(
        result=result, player=user, day=deal.day, won=True, value=30.0,
        wealth_after=1000.0, applied_at=yesterday,
    )  # fmt: skip
    PlayerEvidence.objects.create(
        player=user, logs=[math.log(1000.0)] * len(HORIZONS) * len(DRAW_BETS), wealth=1000.0,
        peak=1000.0, games=10, started_at=yesterday - timedelta(days=9),
    )  # fmt: skip
    return result


def test_a_ranked_finish_steps_the_test_on_the_fairplay_queue_and_a_crossing_holds(
    workers, user: User
) -> None:
    quiet = {"FT_EVIDENCE": "true", "FT_FORESIGHT_SECONDS": "0", "FT_PACE_CHECK": "false"}
    urgent = workers(**quiet)
    fairplay = workers(queue="fairplay", **quiet)
    earlier = yesterdays_win(user)
    deal = services.deal_open_daily(day=timezone.now().date())
    # The known win's deal, as if dealt at random (uncertified: uniform completions; a
    # certified deal's are drawn on the solver queue, tests/games/test_solver_wiring.py).
    Deal.objects.filter(pk=deal.pk).update(
        seed_hex=CLASSIC_WIN["seed"], solver_verdict="", certify_nodes=None
    )
    game = services.game_start_daily(user=user)
    for move in CLASSIC_WIN["moves"].split():
        game_play(user=user, game_id=game.pk, move=move)
    result = wait_for(lambda: Result.objects.filter(game=game, status="verified").first())
    assert result.won
    step = wait_for(
        lambda: EvidenceStep.objects.filter(result=result, applied_at__isnull=False).first(),
        timeout=240,
    )
    assert step.won and step.detail["draws"], step.detail  # the real weighing ran
    assert step.detail["statistic"] == "horizon" and step.detail["factors"]["8"]
    evidence = PlayerEvidence.objects.get(player=user)
    assert evidence.games == 11 and evidence.crossed_at is not None
    assert math.isclose(step.wealth_after, evidence.wealth) and evidence.wealth >= 100
    for held in (result, earlier):
        held.refresh_from_db()
        assert held.review == "held", held
        assert "evidence" in FairPlayCheck.objects.get(result=held).reasons
    # The step ran on the fair-play worker, never on the urgent one.
    # (a received task is logged as "Task name[id] received"; the start lists names only)
    assert "leaderboards.step_evidence[" in fairplay.text()
    assert "leaderboards.step_evidence[" not in urgent.text()
