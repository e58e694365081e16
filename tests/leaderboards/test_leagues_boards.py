"""League boards: the global board's verified results filtered to members, in its order."""

from __future__ import annotations

import pytest

from leaderboards.leagues import selectors
from leaderboards.models import Result
from leaderboards.selectors import period_board_size

pytestmark = pytest.mark.django_db


def test_the_league_board_lists_only_members_in_the_global_order(
    user, bob, carol, make_league, make_result, board_day
):
    league, _ = make_league(user, bob)
    make_result(user, won=False, score=400)
    make_result(bob, won=True, score=1000)
    make_result(carol, won=True, score=1360)  # not a member: on the site's board only
    rows = selectors.league_board_rows(league=league, day=board_day, user=user)
    assert [(r.rank, r.player_name, r.is_me) for r in rows] == [(1, "bob", False), (2, "ada", True)]


def test_equal_results_share_a_rank_on_the_league_board_and_the_home_summary(
    user, bob, carol, make_league, make_result, board_day, now
):
    league, _ = make_league(user, bob, carol)
    for player in (user, bob):  # equal: same score, moves and time
        make_result(player, won=True, score=900, moves=200, duration_ms=300_000)
    make_result(carol, won=True, score=900, moves=201, duration_ms=300_000)
    rows = selectors.league_board_rows(league=league, day=board_day, user=user)
    assert sorted((r.rank, r.player_name) for r in rows) == [(1, "ada"), (1, "bob"), (3, "carol")]
    today = now.date()
    make_result(bob, day=today, won=True, score=800, duration_ms=60_000)
    make_result(user, day=today, won=True, score=800, duration_ms=60_400)  # same second
    [home] = selectors.leagues_for_home(user=user, now=now)
    assert (home.rank, home.size) == (1, 2)


@pytest.mark.parametrize("review", [Result.Review.HELD, Result.Review.DISQUALIFIED])
def test_a_result_held_for_review_stays_off_the_league_board(
    user, bob, make_league, make_result, board_day, review
):
    league, _ = make_league(user, bob)
    make_result(user, won=True, score=900)
    held = make_result(bob, won=True, score=1200)
    Result.objects.filter(pk=held.pk).update(review=review)
    rows = selectors.league_board_rows(league=league, day=board_day, user=user)
    assert [r.player_name for r in rows] == ["ada"]


def test_pending_rejected_and_practice_results_are_not_on_the_league_board(
    user, bob, make_league, make_result, board_day
):
    league, _ = make_league(user, bob)
    make_result(user, status=Result.Status.PENDING)
    make_result(bob, status=Result.Status.REJECTED, reason="forged")
    make_result(bob, day=None, won=True)
    assert selectors.league_board_rows(league=league, day=board_day, user=user) == []


def test_the_weekly_challenge_board_lists_members_weekly_results_only(
    user, bob, carol, make_league, make_result, make_weekly_deal, board_day
):
    from games.weekly import week_monday, weekly_variant

    league, _ = make_league(user, bob)
    monday = week_monday(board_day)
    deal = make_weekly_deal(monday, weekly_variant(monday), 2)
    for player, score in ((user, 700), (bob, 900), (carol, 1500)):
        make_result(player, deal=deal, won=True, score=score)
    make_result(user, day=monday, won=True, score=2000)  # the Monday's daily: another board
    board = selectors.league_weekly_board(league=league, monday=monday, user=user)
    assert [(r.player_name, r.is_me) for r in board.rows] == [("bob", False), ("ada", True)]
    assert board.deal == deal and board.variant == deal.variant and not board.revealed


def test_the_period_boards_count_members_only(
    user, bob, carol, make_league, make_result, board_day
):
    league, _ = make_league(user, bob)
    make_result(user, won=True)
    make_result(carol, won=True)
    for kind in ("week", "month", "all"):
        board = selectors.league_period_board(league=league, kind=kind, start=board_day)
        assert [r.player_name for r in board.rows] == ["ada"], kind
        members = [user.pk, bob.pk]
        assert period_board_size(kind=kind, start=board_day, players=members) == 1


def test_the_home_summary_gives_the_players_rank_in_each_league_today(
    user, bob, carol, make_league, make_result, now
):
    first, _ = make_league(user, bob, name="Alpha")
    make_league(carol, user, name="Beta")
    make_league(bob, name="Gamma")  # ada is not in it
    today = now.date()
    make_result(bob, day=today, won=True, score=1000)
    make_result(user, day=today, won=True, score=800)
    summary = selectors.leagues_for_home(user=user, now=now)
    assert [(h.name, h.rank, h.size, h.members) for h in summary] == [
        ("Alpha", 2, 2, 2),
        ("Beta", 1, 1, 2),
    ]
    assert summary[0].league_id == first.pk
    assert [h.rank for h in selectors.leagues_for_home(user=carol, now=now)] == [None]
    assert selectors.leagues_for_home(user=None) == []


def test_the_compare_page_needs_both_players_in_the_league(user, bob, carol, make_league):
    from games.errors import NotFound

    league, _ = make_league(user, bob)
    cards = selectors.league_compare(league=league, usernames=("ada", "bob"), viewer=user)
    assert [c["player"]["username"] for c in cards] == ["ada", "bob"]
    with pytest.raises(NotFound, match="carol is not a member"):
        selectors.league_compare(league=league, usernames=("ada", "carol"), viewer=user)
