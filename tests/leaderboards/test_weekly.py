"""The weekly challenge's results: verified and ranked on the week's own board (never the
Monday's daily board, a period board or the daily stats), its pages, badges and the
per-variant stats of the scorecard."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime

import pytest
from django.test import Client

from games import services as game_services
from games.models import Game, User
from games.weekly import week_label, week_monday
from leaderboards import selectors, services
from leaderboards.boards import board_for, board_key, ranked_results
from leaderboards.models import Result
from leaderboards.scorecards import scorecard
from tests.support.games import game_resign, play_all

from .conftest import WON_GAMES, WonGame  # noqa: TID252

pytestmark = pytest.mark.django_db

Capture = Callable[..., object]
CLASSIC = "forty-thieves"


@pytest.fixture
def won() -> WonGame:
    return WON_GAMES[0]  # a josephine deal


@pytest.fixture
def this_monday(now: datetime) -> date:
    return week_monday(now.date())


def weekly_win(user: User, now: datetime, won: WonGame, capture: Capture) -> Game:
    with capture(execute=True):
        game = game_services.game_start_weekly(user=user, now=now)
        return play_all(user, game, won.moves)


def test_a_weekly_win_is_verified_and_ranked_on_the_weeks_own_board(
    board_kind: str,
    user: User,
    bob: User,
    now: datetime,
    this_monday: date,
    won: WonGame,
    make_weekly_deal,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    if board_kind == "redis":
        from leaderboards.boards import redis_client

        redis_client().delete(board_key(this_monday, won.variant, weekly=True))
    make_weekly_deal(this_monday, won.variant, won.seed)
    game = weekly_win(user, now, won, django_capture_on_commit_callbacks)
    assert game.status == Game.Status.WON
    with django_capture_on_commit_callbacks(execute=True):
        other = game_services.game_start_weekly(user=bob, now=now)
        game_resign(user=bob, game_id=other.pk)
    result = Result.objects.get(game=game)
    assert result.status == "verified" and result.ranked and result.weekly
    assert result.ranked_at is not None and (result.day, result.variant) == (
        this_monday,
        won.variant,
    )
    board = board_for(this_monday, won.variant, weekly=True)
    assert board.size() == 2 and board.rank(result) == 1
    page = selectors.board_for_day(day=this_monday, variant=won.variant, user=user, weekly=True)
    assert [r.player_id for r in page.rows] == [user.pk, bob.pk] and page.position.rank == 1
    # Not on the Monday's daily boards (any variant), nor on a period board.
    assert board_for(this_monday, won.variant).size() == 0
    assert not ranked_results(this_monday, won.variant).exists()
    assert board_for(this_monday, CLASSIC).size() == 0
    assert selectors.board_rank_of(day=this_monday, variant=won.variant, user=user) is None
    for kind in ("week", "month", "all"):
        assert selectors.period_board(kind=kind, start=this_monday).rows == []
    assert selectors.rank_of_game(user=user, game_id=game.pk).rank == 1
    if board_kind == "redis":
        board.clear()
        services.boards_rebuild()
        assert board_for(this_monday, won.variant, weekly=True).size() == 2
        board.clear()


def test_the_scorecard_gives_a_weekly_badge_and_keeps_the_daily_numbers_apart(
    user: User,
    now: datetime,
    this_monday: date,
    won: WonGame,
    make_weekly_deal,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    make_weekly_deal(this_monday, won.variant, won.seed)
    weekly_win(user, now, won, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        daily = game_services.game_start_daily(user=user, now=now)
        game_resign(user=user, game_id=daily.pk)
    card = scorecard(username=user.username, viewer=user, now=now)
    assert (card["stats"]["played"], card["stats"]["won"]) == (1, 0)
    [badge] = card["weekly_badges"]
    assert badge["week"] == week_label(this_monday) and badge["variant"] == "Josephine"
    variants = {row["variant"]: row for row in card["variants"]}
    assert variants["josephine"]["games"] == 1 and variants["josephine"]["wins"] == 1
    assert variants["josephine"]["best_score"] == won.score
    assert variants[CLASSIC]["games"] == 1 and variants[CLASSIC]["wins"] == 0
    kinds = [item["kind"] for item in card["history"]["items"]]
    assert sorted(kinds) == ["daily", "weekly"]
    page = Client().get(f"/players/{user.username}/").content.decode()
    assert 'data-testid="weekly-badge"' in page and 'data-variant="josephine"' in page
    assert f"/boards/weekly/{week_label(this_monday)}/" in page


def test_a_held_weekly_win_earns_no_badge_and_is_off_the_board(
    user: User, this_monday: date, make_weekly_deal, make_result
) -> None:
    deal = make_weekly_deal(this_monday, "josephine", 2)
    make_result(
        user, deal=deal, won=True, score=900, moves=300, duration_ms=1,
        finished_at=datetime.now(UTC), review=Result.Review.HELD,
    )  # fmt: skip
    card = scorecard(username=user.username)
    assert card["weekly_badges"] == []
    assert board_for(this_monday, deal.variant, weekly=True).size() == 0


# Pages ------------------------------------------------------------------------------------


def test_the_weekly_board_page_shows_the_weeks_deal_and_board(
    client: Client,
    user: User,
    now: datetime,
    this_monday: date,
    won: WonGame,
    make_weekly_deal,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    deal = make_weekly_deal(this_monday, won.variant, won.seed)
    weekly_win(user, now, won, django_capture_on_commit_callbacks)
    assert client.get("/boards/weekly/")["Location"] == f"/boards/weekly/{week_label(this_monday)}/"
    page = client.get(f"/boards/weekly/{week_label(this_monday)}/")
    text = page.content.decode()
    assert page.status_code == 200 and user.public_name in text
    assert "Josephine" in text and deal.commitment in text
    assert deal.code not in text and "data-board-live" in text
    week = week_label(this_monday)
    assert f'data-socket-path="/ws/boards/weekly/{week}/"' in text
    assert f'data-rows-url="/boards/weekly/{week}/rows/"' in text
    assert f'data-position-url="/boards/weekly/{week}/position/"' in text
    rows = client.get(f"/boards/weekly/{week_label(this_monday)}/rows/").content.decode()
    assert user.public_name in rows and "Replay" not in rows  # not before the close


def test_any_day_of_a_week_redirects_to_its_iso_week(client: Client, db: None) -> None:
    response = client.get("/boards/weekly/2026-12-03/")
    assert response.status_code == 302 and response["Location"] == "/boards/weekly/2026-W49/"


@pytest.mark.parametrize("week", ["2026-W60", "x", "3000-W01", "2026-13-01"])
def test_a_bad_or_future_week_is_a_404(client: Client, db: None, week: str) -> None:
    assert client.get(f"/boards/weekly/{week}/").status_code == 404
    assert client.get(f"/boards/weekly/{week}/rows/").status_code == 404


def test_a_past_week_without_a_deal_says_so(client: Client, db: None) -> None:
    text = client.get("/boards/weekly/2020-W10/").content.decode()
    assert "No weekly challenge was opened for this week yet." in text


def test_the_result_dialog_links_the_weekly_game_to_its_board(
    client: Client, user: User, now: datetime, this_monday: date
) -> None:
    game = game_services.game_start_weekly(user=user, now=now)
    client.force_login(user)
    text = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/boards/weekly/{this_monday.isoformat()}/" in text
    assert "Weekly challenge" in text


def test_a_weekly_board_key_never_names_a_daily_board() -> None:
    day = date(2026, 11, 30)
    assert board_key(day, "lucas", weekly=True) != board_key(day, "lucas")
    assert board_key(day, "lucas", weekly=True).startswith("ft:board:weekly:")


@pytest.mark.django_db(transaction=True)
def test_the_live_weekly_socket_hears_of_its_weeks_results_only(
    user: User, this_monday: date, won: WonGame, make_weekly_deal, make_result
) -> None:
    from channels.testing import WebsocketCommunicator

    from ftsite.asgi import application
    from leaderboards import broadcast
    from tests.support.sockets import ORIGIN, db, run_async

    deal = make_weekly_deal(this_monday, won.variant, won.seed)
    result = make_result(
        user, deal=deal, won=True, score=900, moves=300, duration_ms=1,
        finished_at=datetime.now(UTC),
    )  # fmt: skip
    label = week_label(this_monday)

    @run_async
    async def scenario() -> None:
        weekly = WebsocketCommunicator(application, f"/ws/boards/weekly/{label}/", ORIGIN)
        assert (await weekly.connect())[0]
        daily = WebsocketCommunicator(
            application, f"/ws/boards/daily/{this_monday.isoformat()}/", ORIGIN
        )
        assert (await daily.connect())[0]
        await db(broadcast.board_changed)(result)
        assert (await weekly.receive_json_from())["result_id"] == result.pk
        assert await daily.receive_nothing(timeout=0.05)
        bad = WebsocketCommunicator(application, "/ws/boards/weekly/2026-W60/", ORIGIN)
        await bad.connect()
        assert (await bad.receive_output())["code"] == 4404
        for ws in (weekly, daily, bad):
            await ws.disconnect()

    scenario()
