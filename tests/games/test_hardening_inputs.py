"""Issue 21's server errors from client input, each as it was found: a year-1 date on a
board, the archive or a league page, a NUL byte in a path, a form, an API body or a socket
message id, the weekly board of week 1 of year 1, and a server error under ``/api/v1/``
answered as an HTML page. Each is now a 404 or 400 that says what was wrong (the fuzz tier,
``tests/integration/test_fuzz.py``, walks every URL pattern the same way on PostgreSQL,
where a NUL is a server error and not only a refusal)."""

from __future__ import annotations

import pytest
from django.test import Client

from games import selectors
from games.models import User
from tests.support.sockets import ask, db, join, run_async

from .conftest import Api, assert_refused, practice_game

YEAR_ONE_PAGES = [
    "/boards/daily/0001-01-01/",
    "/boards/daily/0001-01-01/rows/",
    "/boards/daily/0001-01-01/position/",
    "/archive/0001-01/",
    "/archive/0000-01/",
    "/boards/week/?start=0001-01-01",
    "/boards/week/?start=0001-01-07",
    "/boards/month/?start=0001-01-01",
    "/boards/weekly/0001-W01/",
    "/boards/weekly/0001-01-01/",
    "/boards/weekly/0001-W01/rows/",
    "/boards/daily/9999-12-31/",
]


@pytest.mark.parametrize("path", YEAR_ONE_PAGES)
def test_it_answers_a_date_the_site_never_served_with_a_404(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(
    "suffix",
    [
        "daily/0001-01-01/",
        "daily/0001-01-01/rows/",
        "weekly/0001-W01/",
        "week/?start=0001-01-01",
        "month/?start=0001-01-07",
    ],
)
def test_a_league_page_answers_a_year_one_date_with_a_404(
    client: Client, user: User, make_league, suffix: str
) -> None:
    league, _ = make_league(user)
    client.force_login(user)
    assert client.get(f"/leagues/{league.pk}/{suffix}").status_code == 404


@pytest.mark.django_db
def test_the_first_days_board_has_no_link_to_a_day_before_it(client: Client) -> None:
    page = client.get("/boards/daily/2000-01-03/")
    assert page.status_code == 200
    assert b'rel="prev"' not in page.content


def test_it_refuses_a_nul_in_a_path_with_a_404(client: Client) -> None:
    assert client.get("/players/%00/").status_code == 404
    assert client.get("/leagues/join/a%00b/").status_code == 404


def test_it_refuses_a_nul_in_a_query_with_a_400(client: Client) -> None:
    assert client.get("/boards/week/", {"by": "wins\x00"}).status_code == 400


def test_it_refuses_a_nul_in_a_form_field_with_a_400(client: Client, user: User) -> None:
    client.force_login(user)
    response = client.post("/leagues/new/", {"name": "a\x00b"})
    assert response.status_code == 400
    assert b"NUL" in response.content


def test_a_cookie_holding_a_nul_is_ignored(client: Client) -> None:
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    assert client.get("/rules/").status_code == 200


def test_the_api_refuses_a_nul_in_an_action_id_as_json(ada: Api, practice: dict) -> None:
    response = ada.post(
        f"/games/{practice['id']}/actions", {"type": "move", "move": "s", "id": "a\x00b"}
    )
    body = assert_refused(response, 400, "bad_field")
    assert "body.id" in body["reason"] and "NUL" in body["reason"]


def test_the_api_refuses_a_lone_surrogate_in_a_body(ada: Api, practice: dict) -> None:
    raw = '{"type": "move", "move": "s", "id": "\\ud800"}'
    assert_refused(ada.post(f"/games/{practice['id']}/actions", raw=raw), 400, "bad_field")


def test_the_api_refuses_a_nul_in_a_token_name(user: User) -> None:
    client = Client()
    client.force_login(user)
    assert_refused(Api(client).post("/tokens", {"name": "t\x00"}), 400, "bad_field")


def test_the_api_answers_json_for_a_path_with_a_nul(ada: Api) -> None:
    assert_refused(ada.get("/games/%00"), 404, "not_found")


def test_the_api_answers_a_server_failure_as_json(user: User, monkeypatch) -> None:
    def broken(**_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(selectors, "game_state", broken)
    api = Api(Client(raise_request_exception=False))
    response = api.get("/games/00000000-0000-0000-0000-000000000000")
    body = assert_refused(response, 500, "server_error")
    assert "boom" not in body["reason"]


@pytest.mark.django_db(transaction=True)
@run_async
async def test_the_socket_refuses_a_nul_in_a_message_id(user: User) -> None:
    game = await db(practice_game)(user)
    ws, _ = await join(game.pk, user)
    refused = await ask(ws, {"type": "move", "id": "a\x00b", "move": "s"})
    assert (refused["type"], refused["code"], refused["id"]) == ("refused", "bad_field", None)
    assert "NUL" in refused["reason"]
    refused = await ask(ws, {"type": "move", "id": "\ud800", "move": "s"})
    assert refused["code"] == "bad_field" and "surrogate" in refused["reason"]
    await ws.disconnect()
