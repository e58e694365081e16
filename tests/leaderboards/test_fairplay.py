"""Fair play on the ranked board (issue 10): linked accounts and scouting, machine pace,
foresight holds, and the review that clears or disqualifies a held result.

Attack 2 of the issue at the service level: account B turns the whole stock of today's deal
and resigns; account A, seen on the same browser, then plays the deal. A's result is
verified but held, off the board, until a reviewer decides.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from games import services as game_services
from games.models import Action, Deal, Game, User
from games.services.starts import game_create
from games.solver.foresight import Decision, ForesightReport
from leaderboards import services
from leaderboards.boards import board_for
from leaderboards.fairplay import services as fairplay
from leaderboards.fairplay.selectors import review_case, under_review_count
from leaderboards.models import (
    FairPlayCheck,
    PlayerEvidence,
    Result,
    ReviewDecision,
    ScoutingPattern,
)
from leaderboards.scorecards import scorecard
from leaderboards.selectors import board_rank_of
from tests.support.clock import step_perf_counter
from tests.support.games import game_play, game_resign

pytestmark = pytest.mark.django_db

Capture = Callable[..., object]


@dataclass(frozen=True)
class ClassicWin:
    variant: str
    seed: int
    moves: list[str]


_DATA = json.loads((Path(__file__).parents[1] / "data" / "classic_win.json").read_text())
WON = ClassicWin(_DATA["variant"], int(_DATA["seed"], 16), _DATA["moves"].split())


def seen(user: User, *, device: str = "b" * 32, address: str = "203.0.113.7") -> None:
    game_services.sighting_record(
        user_id=user.pk, device_token=device, address=address, user_agent="Firefox/140"
    )


def daily_of_won_log(now: datetime) -> Deal:
    """Today's daily deal, with the seed of a real winning log (daily seeds are secret)."""
    deal = game_services.deal_open_daily(day=now.date(), variant=WON.variant)
    Deal.objects.filter(pk=deal.pk).update(seed_hex=f"{WON.seed:032x}")
    deal.refresh_from_db()
    return deal


def play(user: User, game: Game, moves: list[str], capture: Capture) -> Result:
    with capture(execute=True):
        for move in moves:
            if move == "resign":
                game_resign(user=user, game_id=game.pk)
            else:
                game_play(user=user, game_id=game.pk, move=move)
    return Result.objects.get(game=game)


def scout_then_win(user: User, bob: User, now: datetime, capture: Capture) -> Result:
    """bob turns all 64 cards and resigns; ada, on bob's browser, then wins the deal."""
    deal = daily_of_won_log(now)
    seen(bob)
    seen(user)
    scout = game_create(user=bob, deal=deal, mode="ranked")
    play(bob, scout, ["s"] * 64 + ["resign"], capture)
    winner = game_create(user=user, deal=deal, mode="ranked")
    return play(user, winner, WON.moves, capture)


def test_it_holds_a_result_whose_linked_account_turned_the_deals_stock_first(
    user: User, bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    result = scout_then_win(user, bob, now, django_capture_on_commit_callbacks)
    assert (result.status, result.won, result.review) == ("verified", True, "held")
    check = FairPlayCheck.objects.get(result=result)
    assert check.reasons == ["linked"]
    (link,) = check.linked
    assert (link["username"], link["turned"], link["scouting"]) == ("bob", 64, 1)
    assert link["via"] == ["address", "device", "network"] and link["games"][0]["mode"] == "ranked"
    # Off the public board, counted as under review, and its player is told.
    board = board_for(now.date(), WON.variant)
    assert board.rank(result) is None and board.size() == 1  # bob's resign is there
    assert under_review_count(day=now.date(), variant=WON.variant) == 1
    assert board_rank_of(day=now.date(), variant=WON.variant, user=user).status == "under_review"
    decision = ReviewDecision.objects.get(result=result)
    assert decision.by is None and "bob (same address/device/network; 64 cards" in decision.why


def test_it_records_a_quick_ranked_attempt_that_turned_most_of_the_stock_as_scouting(
    bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    deal = daily_of_won_log(now)
    game = game_create(user=bob, deal=deal, mode="ranked")
    play(bob, game, ["s"] * 48 + ["resign"], django_capture_on_commit_callbacks)
    pattern = ScoutingPattern.objects.get(player=bob)
    assert (pattern.turned, pattern.stock) == (48, 64)


def test_it_does_not_call_a_short_look_at_the_stock_scouting(
    bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    deal = daily_of_won_log(now)
    game = game_create(user=bob, deal=deal, mode="ranked")
    play(bob, game, ["s"] * 10 + ["resign"], django_capture_on_commit_callbacks)
    assert not ScoutingPattern.objects.exists()


def test_it_does_not_hold_a_player_whose_link_never_saw_the_stock(
    user: User, bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    deal = daily_of_won_log(now)
    seen(bob)
    seen(user)
    game = game_create(user=user, deal=deal, mode="ranked")
    result = play(user, game, WON.moves, django_capture_on_commit_callbacks)
    assert result.review == "" and board_for(now.date(), WON.variant).rank(result) == 1
    check = FairPlayCheck.objects.get(result=result)
    assert check.reasons == [] and check.linked[0]["turned"] == 0


def test_it_holds_a_win_scouted_from_another_browser_on_the_network_by_stock_turns_alone(
    user: User, bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    # Issue 19's attack 3: a fresh cookie jar and another browser string, same address.
    deal = daily_of_won_log(now)
    seen(bob, device="B" * 32)
    game_services.sighting_record(
        user_id=user.pk, device_token="A" * 32, address="203.0.113.9", user_agent="Chrome/150"
    )
    scout = game_create(user=bob, deal=deal, mode="ranked")
    play(bob, scout, ["s"] * 64 + ["resign"], django_capture_on_commit_callbacks)
    game = game_create(user=user, deal=deal, mode="ranked")
    result = play(user, game, WON.moves, django_capture_on_commit_callbacks)
    assert result.review == "held"
    (link,) = FairPlayCheck.objects.get(result=result).linked
    assert link["via"] == ["address"] and link["signs"] == ["stock_only"]


def test_it_does_not_hold_a_win_whose_network_neighbour_played_the_deal_like_a_person(
    user: User, bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    # A household: bob, on another browser of the same network, turns the stock and plays
    # the cards it shows (the first 40 moves of the winning line), then gives up.
    deal = daily_of_won_log(now)
    seen(bob, device="B" * 32)
    seen(user, device="A" * 32)
    scout = game_create(user=bob, deal=deal, mode="ranked")
    play(bob, scout, WON.moves[:40] + ["resign"], django_capture_on_commit_callbacks)
    assert Action.objects.filter(game=scout, move="s").exists()
    game = game_create(user=user, deal=deal, mode="ranked")
    result = play(user, game, WON.moves, django_capture_on_commit_callbacks)
    assert result.review == ""
    (link,) = FairPlayCheck.objects.get(result=result).linked
    assert link["via"] == ["address", "network"] and link["signs"] == []


def test_a_network_neighbour_deleted_while_the_deal_was_open_holds_the_win(
    user: User, bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    # The same neighbour as above, but bob turns most of the stock, then deletes his
    # account before ada plays.
    deal = daily_of_won_log(now)
    seen(bob, device="B" * 32)
    seen(user, device="A" * 32)
    scout = game_create(user=bob, deal=deal, mode="ranked")
    opening = WON.moves[:40]
    more = ["s"] * (48 - opening.count("s"))
    play(bob, scout, opening + more + ["resign"], django_capture_on_commit_callbacks)
    game_services.account_delete(user=bob, password="correct horse battery staple")
    game = game_create(user=user, deal=deal, mode="ranked")
    result = play(user, game, WON.moves, django_capture_on_commit_callbacks)
    assert result.review == "held"
    (link,) = FairPlayCheck.objects.get(result=result).linked
    assert link["user_id"] is None and link["via"] == ["address", "network"]
    assert link["signs"] == ["deleted_while_open"] and link["turned"] > 0


def test_a_network_neighbour_who_turned_a_card_and_left_holds_nothing(
    user: User, bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    # An honest neighbour looks at one card of the daily, then deletes the account the same
    # day: that told nobody the stock, so the later players of the network stay ranked.
    deal = daily_of_won_log(now)
    seen(bob, device="B" * 32)
    seen(user, device="A" * 32)
    scout = game_create(user=bob, deal=deal, mode="ranked")
    play(bob, scout, ["s", "resign"], django_capture_on_commit_callbacks)
    game_services.account_delete(user=bob, password="correct horse battery staple")
    game = game_create(user=user, deal=deal, mode="ranked")
    result = play(user, game, WON.moves, django_capture_on_commit_callbacks)
    assert result.review == ""
    (link,) = FairPlayCheck.objects.get(result=result).linked
    assert link["user_id"] is None and link["signs"] == [] and link["turned"] == 1


def test_a_network_link_without_a_sign_holds_with_the_players_own_evidence(settings) -> None:
    from leaderboards.fairplay.linked import link_verdict

    settings.FT_LINK_OWN_EVIDENCE = 20
    weak = [{"via": ["address", "network"], "turned": 30, "signs": []}]
    assert not link_verdict(weak).hold
    assert not link_verdict(weak, own_evidence=19.9).hold
    verdict = link_verdict(weak, own_evidence=20.0)
    assert verdict.hold and verdict.weak == weak and verdict.holding == []
    # A link that turned nothing never holds, whatever the evidence.
    assert not link_verdict([{"via": ["device"], "turned": 0, "signs": []}], own_evidence=1e6).hold


@pytest.mark.parametrize(
    ("on", "wealth", "held"), [(True, 25.0, True), (True, 3.0, False), (False, 25.0, False)]
)
def test_a_network_neighbour_without_a_sign_holds_a_win_once_the_players_evidence_is_high(
    user: User,
    bob: User,
    now: datetime,
    django_capture_on_commit_callbacks: Capture,
    settings,
    monkeypatch: pytest.MonkeyPatch,
    on: bool,
    wealth: float,
    held: bool,
) -> None:
    # The household of the test above, but the player's own sequential test has already
    # built evidence: the screen reads it, and only with the test on and past the bar.
    settings.FT_EVIDENCE, settings.FT_LINK_OWN_EVIDENCE = on, 20
    # Only the evidence before this game counts at the screen; its own step (on the fairplay
    # queue, after the commit) is another test's.
    monkeypatch.setattr(services, "_enqueue_evidence", lambda result_id: None)
    PlayerEvidence.objects.create(player=user, wealth=wealth, peak=wealth, started_at=now)
    deal = daily_of_won_log(now)
    seen(bob, device="B" * 32)
    seen(user, device="A" * 32)
    scout = game_create(user=bob, deal=deal, mode="ranked")
    play(bob, scout, WON.moves[:40] + ["resign"], django_capture_on_commit_callbacks)
    game = game_create(user=user, deal=deal, mode="ranked")
    result = play(user, game, WON.moves, django_capture_on_commit_callbacks)
    assert (result.review == "held") is held
    assert ("linked" in FairPlayCheck.objects.get(result=result).reasons) is held


# Machine pace -------------------------------------------------------------------------------


def test_it_holds_a_win_played_at_a_machines_pace(
    user: User, now: datetime, settings, django_capture_on_commit_callbacks: Capture
) -> None:
    settings.FT_PACE_CHECK = True
    game = game_create(user=user, deal=daily_of_won_log(now), mode="ranked")
    result = play(user, game, WON.moves, django_capture_on_commit_callbacks)
    assert result.review == "held"
    check = FairPlayCheck.objects.get(result=result)
    assert check.reasons == ["machine"] and check.timing["machine"] is True
    assert check.timing["actions"] == len(WON.moves) and "ms" in check.timing["reason"]


def test_it_does_not_hold_a_game_played_at_a_persons_pace(
    user: User, now: datetime, settings, django_capture_on_commit_callbacks: Capture
) -> None:
    settings.FT_PACE_CHECK = True
    game = game_create(user=user, deal=daily_of_won_log(now), mode="ranked")
    for move in WON.moves[:-1]:
        game_play(user=user, game_id=game.pk, move=move)
    # Restamp the log as a person plays: 0.4 to 3.1 s between moves, never regular.
    start = now - timedelta(hours=1)
    gaps = [400, 1800, 650, 3100, 900, 1200, 700]
    at = start
    for seq in range(1, len(WON.moves)):
        at += timedelta(milliseconds=gaps[seq % len(gaps)])
        Action.objects.filter(game=game, seq=seq).update(created_at=at)
    result = play(user, game, WON.moves[-1:], django_capture_on_commit_callbacks)
    assert result.review == "", FairPlayCheck.objects.get(result=result).timing


# Foresight ----------------------------------------------------------------------------------


def fake_report(*, suspicious: bool) -> ForesightReport:
    decision = Decision(
        seq=12,
        move="t3-t5",
        alternative="s",
        true_value=1.0,
        info_value=0.2,
        alternative_info_value=0.6,
        board={"columns": [{"down": 0, "cards": ["QH", "TS"]}], "foundations": [], "waste": []},
    )
    return ForesightReport(
        statistic=9.5 if suspicious else 0.3,
        threshold=4.0,
        suspicious=suspicious,
        decisions=80,
        evidence=(decision,) if suspicious else (),
        seconds=1.0,
        complete=True,
        method="test",
    )


def ranked_win(user: User, now: datetime, capture: Capture) -> Result:
    game = game_create(user=user, deal=daily_of_won_log(now), mode="ranked")
    return play(user, game, WON.moves, capture)


def test_a_suspicious_foresight_report_takes_a_ranked_win_off_the_board(
    user: User, now: datetime, monkeypatch, django_capture_on_commit_callbacks: Capture
) -> None:
    result = ranked_win(user, now, django_capture_on_commit_callbacks)
    board = board_for(now.date(), WON.variant)
    assert board.rank(result) == 1
    calls = []

    def analyse(*args: object, **kwargs: object) -> ForesightReport:
        calls.append(args)
        return fake_report(suspicious=True)

    monkeypatch.setattr(fairplay, "analyse_foresight", analyse)
    with django_capture_on_commit_callbacks(execute=True):
        fairplay.result_analyse_foresight(result_id=result.pk)
    result.refresh_from_db()
    assert result.review == "held" and board.rank(result) is None
    check = FairPlayCheck.objects.get(result=result)
    assert check.reasons == ["foresight"] and check.foresight_statistic == 9.5
    seed, variant, log = calls[0]
    assert (seed, variant, list(log)) == (WON.seed, WON.variant, WON.moves)
    # Analysed once: a redelivered task changes nothing.
    fairplay.result_analyse_foresight(result_id=result.pk)
    assert len(calls) == 1
    case = review_case(result_id=result.pk)
    assert case.decisions_shown[0]["columns"][0]["cards"] == ["Q♥", "10♠"]


def test_an_unremarkable_foresight_report_leaves_the_win_on_the_board(
    user: User, now: datetime, monkeypatch, django_capture_on_commit_callbacks: Capture
) -> None:
    result = ranked_win(user, now, django_capture_on_commit_callbacks)
    monkeypatch.setattr(
        fairplay, "analyse_foresight", lambda *a, **k: fake_report(suspicious=False)
    )
    fairplay.result_analyse_foresight(result_id=result.pk)
    result.refresh_from_db()
    assert result.review == "" and board_for(now.date(), WON.variant).rank(result) == 1


def test_the_real_analysis_runs_on_a_verified_win_within_its_budget(
    user: User, now: datetime, monkeypatch, django_capture_on_commit_callbacks: Capture
) -> None:
    result = ranked_win(user, now, django_capture_on_commit_callbacks)
    # the analyses' clock (and the solver's) stepped a millisecond a look, not the
    # machine's (tests/support/clock.py): the same report however loaded it is
    step_perf_counter(monkeypatch, tick=0.001)
    fairplay.result_analyse_foresight(result_id=result.pk, max_seconds=0.5)
    check = FairPlayCheck.objects.get(result=result)
    report = ForesightReport.from_dict(check.foresight)
    assert report.complete and report.decisions > 0 and report.threshold > 0
    assert report.seconds <= 0.5 and check.solver_copy["seconds"] <= 0.5 + 0.01


def test_it_holds_a_win_that_plays_the_solvers_line_on_the_true_deal(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    result = ranked_win(user, now, django_capture_on_commit_callbacks)
    # The classic win's moves are the solver's line on its deal: the deal's certified line.
    Deal.objects.filter(pk=result.deal_id).update(solution=" ".join(WON.moves))
    with django_capture_on_commit_callbacks(execute=True):
        fairplay.result_analyse_foresight(result_id=result.pk, max_seconds=0.5)
    result.refresh_from_db()
    check = FairPlayCheck.objects.get(result=result)
    assert result.review == "held" and "solver_copy" in check.reasons
    assert check.solver_copy["share"] == 1.0
    assert "solver's line" in ReviewDecision.objects.filter(result=result).last().why
    assert board_for(now.date(), WON.variant).rank(result) is None


def test_only_verified_ranked_wins_are_analysed(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    game = game_create(user=user, deal=daily_of_won_log(now), mode="ranked")
    result = play(user, game, ["s", "resign"], django_capture_on_commit_callbacks)
    assert fairplay.result_analyse_foresight(result_id=result.pk) is None


def test_a_verified_ranked_win_enqueues_its_analysis_when_it_is_on(
    user: User, now: datetime, settings, monkeypatch, django_capture_on_commit_callbacks: Capture
) -> None:
    settings.FT_FORESIGHT_SECONDS = 0.2
    queued = []
    monkeypatch.setattr(services, "_enqueue_foresight", queued.append)
    result = ranked_win(user, now, django_capture_on_commit_callbacks)
    assert queued == [result.pk]


# Review -------------------------------------------------------------------------------------


def test_clearing_a_held_result_puts_it_on_the_board_and_records_who_and_why(
    user: User, bob: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    result = scout_then_win(user, bob, now, django_capture_on_commit_callbacks)
    staff = User.objects.create_user(username="referee", is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        fairplay.result_review_decide(
            result_id=result.pk, decision="cleared", by=staff, why="siblings, separate play"
        )
    result.refresh_from_db()
    assert result.review == "cleared" and result.ranked_at is not None
    assert board_for(now.date(), WON.variant).rank(result) == 1
    last = ReviewDecision.objects.filter(result=result).last()
    assert (last.decision, last.by, last.why) == ("cleared", staff, "siblings, separate play")


def test_disqualifying_takes_a_result_off_every_board_and_marks_the_scorecard(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    result = ranked_win(user, now, django_capture_on_commit_callbacks)
    staff = User.objects.create_user(username="referee", is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        fairplay.result_review_decide(
            result_id=result.pk, decision="disqualified", by=staff, why="played the solver's line"
        )
    board = board_for(now.date(), WON.variant)
    assert board.rank(result) is None and board.size() == 0
    card = scorecard(username=user.username, now=now)
    assert card["stats"]["played"] == 0
    assert card["history"]["items"][0]["review"] == "disqualified"
    assert board_rank_of(day=now.date(), variant=WON.variant, user=user).status == "disqualified"
    # The sweep never puts it back, and neither does a rebuild.
    assert services.results_needing_work(now=now + timedelta(hours=1))[1] == []
    services.boards_rebuild()
    assert board.rank(result) is None


@pytest.mark.parametrize(
    ("decision", "why", "code"),
    [
        ("cleared", "  ", "bad_request"),
        ("banned", "x", "bad_request"),
        ("held", "x", "bad_request"),
    ],
)
def test_it_refuses_a_decision_without_a_reason_or_of_an_unknown_kind(
    user: User, now: datetime, decision: str, why: str, code: str,
    django_capture_on_commit_callbacks: Capture,
) -> None:  # fmt: skip
    from games.errors import ServiceError

    result = ranked_win(user, now, django_capture_on_commit_callbacks)
    with pytest.raises(ServiceError) as refused:
        fairplay.result_review_decide(result_id=result.pk, decision=decision, by=user, why=why)
    assert refused.value.code == code and refused.value.reason


def test_it_refuses_the_same_decision_twice(
    user: User, now: datetime, django_capture_on_commit_callbacks: Capture
) -> None:
    from games.errors import Conflict

    result = ranked_win(user, now, django_capture_on_commit_callbacks)
    fairplay.result_review_decide(result_id=result.pk, decision="disqualified", by=user, why="x")
    with pytest.raises(Conflict):
        fairplay.result_review_decide(
            result_id=result.pk, decision="disqualified", by=user, why="y"
        )
