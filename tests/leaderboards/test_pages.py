"""The daily board pages, the rows fragment, "Your position" and the Result admin."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, timedelta
from functools import partial

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.daily import day_start, utc_today
from games.models import Deal, Game, User
from leaderboards import selectors
from leaderboards.boards import board_for
from leaderboards.models import Result
from tests.support.pages import mentions

pytestmark = pytest.mark.django_db


def players(count: int, prefix: str = "p") -> list[User]:
    model: type[User] = get_user_model()  # type: ignore[assignment]
    return model.objects.bulk_create([model(username=f"{prefix}{i:03d}") for i in range(count)])


def today() -> date:
    return utc_today(timezone.now())


DAY = date(2026, 10, 14)
MakeResult = Callable[..., Result]


@pytest.fixture
def make_result(make_result: MakeResult) -> MakeResult:
    """The shared factory (conftest) with this module's defaults: a verified ranked win of
    500 points, finished an hour into DAY (the day of every result here)."""
    return partial(
        make_result,
        won=True,
        score=500,
        moves=200,
        duration_ms=600_000,
        finished_at=day_start(DAY) + timedelta(hours=1),
    )


def names_in_table(html: str) -> list[str]:
    """Player names in board order, as the page shows them (the second cell of each row)."""
    return re.findall(r'<td class="num">\d+</td>\s*<td>([^<]+)', html)


# Order ------------------------------------------------------------------------------------


def test_the_board_ranks_won_first_then_score_moves_time_and_earlier_finish(
    client, make_result: MakeResult
) -> None:
    p = {name: u for name, u in zip("abcdefg", players(7), strict=True)}
    noon = day_start(DAY) + timedelta(hours=12)
    make_result(p["a"], DAY, outcome="lost", score=1300)  # a loss, whatever its score, ranks last
    make_result(p["b"], DAY, score=400)
    make_result(p["c"], DAY, score=900, moves=250)
    make_result(p["d"], DAY, score=900, moves=240, duration_ms=500_000)
    make_result(p["e"], DAY, score=900, moves=240, duration_ms=400_000, finished_at=noon)
    make_result(
        p["f"],
        DAY,
        score=900,
        moves=240,
        duration_ms=400_000,
        finished_at=noon - timedelta(minutes=1),
    )
    make_result(p["g"], DAY, outcome="lost", score=100)

    response = client.get(f"/boards/daily/{DAY.isoformat()}/")

    assert response.status_code == 200
    expected = ["p005", "p004", "p003", "p002", "p001", "p000", "p006"]
    assert [r.player_name for r in response.context["board"].rows] == expected
    # f and e are equal results (score, moves, time): they share rank 1 ("1, 1, 3").
    assert [r.rank for r in response.context["board"].rows] == [1, 1, 3, 4, 5, 6, 7]
    assert names_in_table(response.content.decode()) == expected


def test_time_and_result_are_shown_as_players_read_them(client, make_result: MakeResult) -> None:
    (ada, bob) = players(2)
    make_result(ada, DAY, duration_ms=(4 * 60 + 7) * 1000 + 999)
    make_result(bob, DAY, outcome="lost", duration_ms=(3600 + 2 * 60 + 5) * 1000)
    html = client.get(f"/boards/daily/{DAY.isoformat()}/").content.decode()
    assert '<td class="num">4:07</td>' in html and '<td class="num">1:02:05</td>' in html
    assert ">won</td>" in html and ">lost</td>" in html


def test_pending_rejected_and_practice_results_are_not_on_the_board(
    client, make_result: MakeResult
) -> None:
    shown, pending, rejected, practice = players(4)
    make_result(shown, DAY)
    make_result(pending, DAY, status=Result.Status.PENDING, score=1300)
    make_result(rejected, DAY, status=Result.Status.REJECTED, score=1300, reason="forged")
    make_result(practice, DAY, mode=Game.Mode.PRACTICE, score=1300)

    response = client.get(f"/boards/daily/{DAY.isoformat()}/")

    assert [r.player_name for r in response.context["board"].rows] == ["p000"]
    assert response.context["board"].size == 1
    for name in ("p001", "p002", "p003"):
        assert not mentions(response.content, name)


# Your position -----------------------------------------------------------------------------


@pytest.fixture
def board_day() -> date:
    """The day the shared ``redis_boards`` fixture clears: this module's."""
    return DAY


@pytest.fixture(params=["database", "redis"])
def board_backend(request: pytest.FixtureRequest) -> str:
    """Both board stores: the database, and Redis when it is reachable."""
    if request.param == "redis":
        request.getfixturevalue("redis_boards")
    return request.param


def test_a_player_far_down_sees_their_rank_and_two_neighbours_each_side(
    client, board_backend: str, make_result: MakeResult
) -> None:
    everyone = players(160)
    # Scores 1600, 1590, ...: player i is ranked i + 1.
    results = [make_result(u, DAY, score=1600 - 10 * i) for i, u in enumerate(everyone)]
    board = board_for(DAY, "forty-thieves")
    board.clear()
    for result in results:
        board.add(result)
    client.force_login(everyone[149])

    response = client.get(f"/boards/daily/{DAY.isoformat()}/")

    position = response.context["board"].position
    assert (position.rank, position.size) == (150, 160)
    assert [(r.rank, r.player_name) for r in position.rows] == [
        (148, "p147"),
        (149, "p148"),
        (150, "p149"),
        (151, "p150"),
        (152, "p151"),
    ]
    assert [r.is_me for r in position.rows] == [False, False, True, False, False]
    assert len(response.context["board"].rows) == 100  # the top 100 only
    html = response.content.decode()
    assert "Your position" in html and "You are ranked 150 of 160." in html
    assert 'class="board-me"' in html


def test_the_position_of_the_first_and_the_last_is_not_padded(
    client, make_result: MakeResult
) -> None:
    first, second, last = players(3)
    for i, user in enumerate((first, second, last)):
        make_result(user, DAY, score=900 - i)
    position = selectors.board_rank_of(day=DAY, variant="forty-thieves", user=first)
    assert position is not None and [r.rank for r in position.rows] == [1, 2, 3]
    position = selectors.board_rank_of(day=DAY, variant="forty-thieves", user=last)
    assert position is not None and [r.rank for r in position.rows] == [1, 2, 3]


def test_a_pending_result_is_shown_as_being_verified_and_a_visitor_sees_no_block(
    client, user, make_result: MakeResult
) -> None:
    make_result(user, DAY, status=Result.Status.PENDING)
    anonymous = client.get(f"/boards/daily/{DAY.isoformat()}/").content.decode()
    assert "Your position" not in anonymous
    client.force_login(user)
    html = client.get(f"/boards/daily/{DAY.isoformat()}/").content.decode()
    assert "Your result is being verified" in html


# Revealing --------------------------------------------------------------------------------


def test_replays_and_the_deal_code_appear_only_once_the_day_is_revealed(
    client, user, make_result: MakeResult
) -> None:
    result = make_result(user, DAY)
    deal = Deal.objects.get(pk=result.deal_id)
    url = f"/boards/daily/{DAY.isoformat()}/"

    before = client.get(url).content.decode()
    assert deal.commitment in before
    assert deal.code not in before and deal.salt not in before
    assert "/replay/" not in before
    assert deal.code not in client.get(url + "rows/").content.decode()

    deal.revealed_at = day_start(DAY + timedelta(days=1))
    deal.save(update_fields=["revealed_at"])
    after = client.get(url).content.decode()
    assert deal.commitment in after and deal.code in after and deal.salt in after
    assert f'href="/games/{result.game_id}/replay/"' in after
    assert f'href="/games/{result.game_id}/replay/"' in client.get(url + "rows/").content.decode()


# Dates and navigation ---------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["", "rows/", "position/"])
def test_a_bad_or_future_date_is_a_404(client, suffix: str) -> None:
    tomorrow = (today() + timedelta(days=1)).isoformat()
    for text in ("2026-02-30", "yesterday", "20261014", "2026-10-1", "2026-W42-3", tomorrow):
        assert client.get(f"/boards/daily/{text}/{suffix}").status_code == 404, text


def test_today_is_live_and_links_back_but_not_forward(client) -> None:
    response = client.get("/boards/daily/")
    assert response.status_code == 200
    html = response.content.decode()
    day = today().isoformat()
    assert f'data-socket-path="/ws/boards/daily/{day}/"' in html
    assert f'data-rows-url="/boards/daily/{day}/rows/"' in html
    assert "js/board-live.js" in html
    assert f"/boards/daily/{(today() - timedelta(days=1)).isoformat()}/" in html
    assert f"/boards/daily/{(today() + timedelta(days=1)).isoformat()}/" not in html
    assert client.get("/boards/").url == "/boards/daily/"


def test_a_past_closed_day_is_browsable_and_not_live(client, user, make_result: MakeResult) -> None:
    result = make_result(user, DAY)
    Deal.objects.filter(pk=result.deal_id).update(revealed_at=day_start(DAY + timedelta(days=1)))
    html = client.get(f"/boards/daily/{DAY.isoformat()}/").content.decode()
    assert "data-board-live" not in html and "board-live.js" not in html
    assert 'href="/boards/daily/2026-10-13/"' in html and 'href="/boards/daily/2026-10-15/"' in html


def test_the_rows_fragment_is_the_board_body_alone(client, make_result: MakeResult) -> None:
    for i, user in enumerate(players(3)):
        make_result(user, DAY, score=100 + i)
    response = client.get(f"/boards/daily/{DAY.isoformat()}/rows/")
    assert response.status_code == 200
    html = response.content.decode().strip()
    assert html.startswith('<tbody id="board-rows">') and html.endswith("</tbody>")
    assert names_in_table(html) == ["p002", "p001", "p000"]
    assert "no-cache" in response["Cache-Control"]


def test_the_position_fragment_follows_the_signed_in_player(
    client, user, make_result: MakeResult
) -> None:
    make_result(user, DAY)
    client.force_login(user)
    html = client.get(f"/boards/daily/{DAY.isoformat()}/position/").content.decode()
    assert "You are ranked 1 of 1." in html


def test_the_nav_links_to_the_leaderboards(client) -> None:
    html = client.get("/").content.decode()
    assert 'href="/boards/daily/"' in html and "Leaderboards" in html


# Admin -------------------------------------------------------------------------------------


def test_the_result_admin_lists_searches_and_highlights_rejections(
    user, bob, make_result: MakeResult
) -> None:
    model: type[User] = get_user_model()  # type: ignore[assignment]
    admin = model.objects.create_superuser(username="root", password="x")
    rejected = make_result(user, DAY, status=Result.Status.REJECTED, reason="score mismatch")
    make_result(bob, DAY)
    client = Client()
    client.force_login(admin)

    listing = client.get("/admin/leaderboards/result/")
    assert listing.status_code == 200
    html = listing.content.decode()
    assert '<strong style="color: #b3261e">score mismatch</strong>' in html

    for query in ("ada", str(rejected.game_id)):
        found = client.get("/admin/leaderboards/result/", {"q": query})
        assert found.status_code == 200 and found.context["cl"].result_count == 1, query
    assert client.get("/admin/leaderboards/result/", {"q": "not-a-uuid"}).status_code == 200
    assert (
        client.get("/admin/leaderboards/result/", {"status__exact": "rejected"}).status_code == 200
    )

    change = client.get(f"/admin/leaderboards/result/{rejected.pk}/change/")
    assert change.status_code == 200 and "score mismatch" in change.content.decode()
    assert client.get("/admin/leaderboards/result/add/").status_code == 403
    # Read-only: a POST changes nothing.
    client.post(f"/admin/leaderboards/result/{rejected.pk}/change/", {"score": 1})
    rejected.refresh_from_db()
    assert rejected.score == 500
