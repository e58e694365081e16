"""The skill rating on the boards: beside each name on the day, period and league boards."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games.daily import utc_today
from leaderboards.rating.models import PlayerRating
from leaderboards.rating.selectors import ratings_for

pytestmark = pytest.mark.django_db


def _rating_cells(html: str) -> list[str]:
    cells = re.findall(r'<td class="num" data-col="rating">(.*?)</td>', html, re.S)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in cells]


@pytest.fixture
def rated_day(make_result):
    """Yesterday's closed deal: three players, the first two rated by it, the third's
    rating deleted (an unrated player on a board)."""
    from leaderboards.rating.services import ratings_apply

    day = utc_today(timezone.now()) - timedelta(days=1)
    model = get_user_model()
    players = [model.objects.create_user(username=n, password="pw-long-enough-1") for n in "abc"]
    for player, score in zip(players, (900, 500, 100), strict=True):
        make_result(player, day, score=score, revealed=True)
    assert ratings_apply() == 1
    PlayerRating.objects.filter(user=players[2]).delete()
    return day, players


def test_the_daily_board_shows_each_players_rating_and_marks_the_provisional(rated_day) -> None:
    day, players = rated_day
    shown = ratings_for(user_ids=[p.pk for p in players])
    html = Client().get(f"/boards/daily/{day.isoformat()}/").content.decode()
    # One match: everyone is provisional ("?"), the unrated player shows a dash.
    assert _rating_cells(html) == [
        f"{shown[players[0].pk].value}?",
        f"{shown[players[1].pk].value}?",
        "–",
    ]
    assert shown[players[0].pk].value > shown[players[1].pk].value
    assert 'title="provisional"' in html


def test_the_period_and_league_boards_show_the_rating(rated_day, make_league) -> None:
    day, players = rated_day
    shown = ratings_for(user_ids=[p.pk for p in players])
    html = Client().get("/boards/all/").content.decode()
    assert f"{shown[players[0].pk].value}?" in _rating_cells(html)
    assert "–" in _rating_cells(html)

    league, _token = make_league(players[0], players[1])
    client = Client()
    client.force_login(players[0])
    for url in (f"/leagues/{league.pk}/daily/{day.isoformat()}/", f"/leagues/{league.pk}/all/"):
        cells = _rating_cells(client.get(url).content.decode())
        assert cells == [f"{shown[players[0].pk].value}?", f"{shown[players[1].pk].value}?"], url


def test_a_settled_rating_is_shown_without_the_mark(rated_day) -> None:
    day, players = rated_day
    PlayerRating.objects.filter(user=players[0]).update(matches=40, sigma=2.0)
    value = ratings_for(user_ids=[players[0].pk])[players[0].pk].value
    cells = _rating_cells(Client().get(f"/boards/daily/{day.isoformat()}/").content.decode())
    assert cells[0] == str(value)


# The rating board ---------------------------------------------------------------------


def _rate(players, *, ordinals):
    """Ratings written directly: ``ordinals`` per player (mu = ordinal + k sigma), then
    placed on the board as the pass places them."""
    from leaderboards.rating.maths import MODEL, ORDINAL_SIGMAS
    from leaderboards.rating.services import ratings_place

    for player, ordinal in zip(players, ordinals, strict=True):
        sigma = MODEL.sigma
        PlayerRating.objects.update_or_create(
            user=player,
            defaults={
                "mu": ordinal + ORDINAL_SIGMAS * sigma,
                "sigma": sigma,
                "ordinal": ordinal,
                "matches": 3,
            },
        )
    ratings_place()  # as the pass does after it rates


def _names(html: str, testid: str) -> list[tuple[str, str]]:
    table = html.split(f'data-testid="{testid}"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr[^>]*>\s*<td class=\"num\">(\d+)</td>\s*<td>([^<]+)", table)
    return [(rank, name.strip()) for rank, name in rows]


def test_the_rating_board_lists_everyone_best_first_with_shared_ranks() -> None:
    model = get_user_model()
    players = [model.objects.create_user(username=f"r{n}") for n in range(5)]
    _rate(players, ordinals=[3.0, 5.0, 5.0, -1.0, 0.0])
    html = Client().get("/boards/rating/").content.decode()
    assert _names(html, "rating-board") == [
        ("1", "r1"),
        ("1", "r2"),
        ("3", "r0"),
        ("4", "r4"),
        ("5", "r3"),
    ]
    assert "?</abbr>" in html  # three matches: provisional


def test_the_rating_board_pages_and_keeps_ranks_across_a_page_break(monkeypatch) -> None:
    from leaderboards.rating import board

    monkeypatch.setattr(board, "PER_PAGE", 2)
    model = get_user_model()
    players = [model.objects.create_user(username=f"r{n}") for n in range(5)]
    _rate(players, ordinals=[9.0, 7.0, 7.0, 7.0, 1.0])
    client = Client()
    assert _names(client.get("/boards/rating/?page=2").content.decode(), "rating-board") == [
        ("2", "r2"),
        ("2", "r3"),
    ]
    assert _names(client.get("/boards/rating/?page=3").content.decode(), "rating-board") == [
        ("5", "r4")
    ]
    for bad in ("4", "0", "x", "-1"):
        assert client.get(f"/boards/rating/?page={bad}").status_code == 404, bad


def test_the_viewer_sees_their_own_place_with_neighbours(monkeypatch) -> None:
    from leaderboards.rating import board

    monkeypatch.setattr(board, "PER_PAGE", 2)
    model = get_user_model()
    players = [model.objects.create_user(username=f"r{n}") for n in range(7)]
    _rate(players, ordinals=[7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0])
    client = Client()
    client.force_login(players[4])
    html = client.get("/boards/rating/").content.decode()
    assert "You are ranked 5 of 7." in html
    assert _names(html, "rating-position") == [(str(n + 1), f"r{n}") for n in range(2, 7)]
    assert 'class="board-me"' in html.split('data-testid="rating-position"', 1)[1]

    unrated = model.objects.create_user(username="new")
    client.force_login(unrated)
    assert "No rating yet" in client.get("/boards/rating/").content.decode()


def test_a_leagues_rating_board_holds_its_members_only(make_league) -> None:
    model = get_user_model()
    players = [model.objects.create_user(username=f"r{n}") for n in range(4)]
    _rate(players, ordinals=[4.0, 3.0, 2.0, 1.0])
    league, _token = make_league(players[1], players[3])
    client = Client()
    client.force_login(players[3])
    html = client.get(f"/leagues/{league.pk}/rating/").content.decode()
    assert _names(html, "league-rating-board") == [("1", "r1"), ("2", "r3")]
    assert "You are ranked 2 of 2." in html
    client.force_login(players[0])  # not a member: the league does not exist for them
    assert client.get(f"/leagues/{league.pk}/rating/").status_code == 404


@pytest.mark.parametrize("seed", [1, 2])
def test_the_placed_board_equals_the_counted_one_with_ties(seed: int) -> None:
    """The site's board reads the places the pass wrote; a league's counts within it. With
    every player in the "league" the two must agree, page by page and viewer by viewer."""
    import random

    from leaderboards.rating import board
    from leaderboards.rating.maths import MODEL, ORDINAL_SIGMAS

    rng = random.Random(seed)
    model = get_user_model()
    players = [model.objects.create_user(username=f"r{n:02d}") for n in range(23)]
    for player in players:  # few distinct ordinals and matches: ties at every level
        ordinal = rng.choice([-1.0, 0.5, 2.0, 2.0, 4.25])
        PlayerRating.objects.create(
            user=player,
            mu=ordinal + ORDINAL_SIGMAS * MODEL.sigma,
            sigma=MODEL.sigma,
            ordinal=ordinal,
            matches=rng.choice([1, 3, 3, 8]),
        )
    from leaderboards.rating.services import ratings_place

    assert ratings_place() == len(players)
    assert ratings_place() == 0  # nothing moved: nothing written
    everyone = [p.pk for p in players]
    for viewer in (None, *rng.sample(players, 5)):
        for page in range(1, 6):
            placed = board.rating_board_page(page=page, user=viewer, per_page=5)
            counted = board.rating_board_page(page=page, user=viewer, user_ids=everyone, per_page=5)
            assert placed == counted, (viewer, page)
    assert board.rating_board_page(page=6, user=None, per_page=5) is None


def test_a_pass_that_rates_a_deal_places_its_players(rated_day) -> None:
    day, players = rated_day  # rated by the pass; the third player's rating deleted since
    rows = PlayerRating.objects.order_by("board_place").values_list("user_id", "board_place")
    assert list(rows) == [(players[0].pk, 0), (players[1].pk, 1)]
    html = Client().get("/boards/rating/").content.decode()
    assert _names(html, "rating-board") == [("1", "a"), ("2", "b")]
