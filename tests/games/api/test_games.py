"""The HTTP JSON API's games, the websocket's twin over the same services: the daily summary
never reveals the deal before it closes, bad start requests and malformed actions are
refused with a code naming the problem, other players' games are forbidden, and moves,
undo and resign answer as the socket does.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Deal, Game, User
from games.runtime.live import engine_for

from ..conftest import Api, assert_refused, token_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def bob_api(bob: User) -> Api:
    return Api(Client(), token_for(bob))


@pytest.fixture
def daily(ada: Api) -> dict[str, Any]:
    response = ada.post("/games", {"mode": "daily"})
    assert response.status_code == 201
    return response.json()


# Daily ------------------------------------------------------------------------------------


def test_the_daily_summary_is_public_and_says_nothing_before_the_deal_opens(anonymous) -> None:
    body = anonymous.get("/daily").json()
    assert body == {"date": timezone.now().date().isoformat(), "deal": None, "game": None}


def test_the_daily_summary_shows_the_commitment_and_with_auth_your_game(
    ada, anonymous, daily
) -> None:
    public = anonymous.get("/daily").json()
    assert public["deal"]["commitment"] and public["deal"]["opens_at"]
    assert public["deal"]["closes_at"] and public["game"] is None
    mine = ada.get("/daily").json()
    assert mine["game"] == {"id": daily["id"], "status": "active", "score": 0, "moves": 0}


def test_a_daily_game_and_the_daily_summary_never_reveal_the_deal_before_it_closes(
    ada, anonymous, daily
) -> None:
    deal = Deal.objects.get(kind=Deal.Kind.DAILY)
    ada.post(f"/games/{daily['id']}/actions", {"type": "move", "move": "s", "id": "1"})
    answers = [
        ada.get("/daily"),
        anonymous.get("/daily"),
        ada.get(f"/games/{daily['id']}"),
        ada.get("/games"),
        ada.post("/games", {"mode": "daily"}),
    ]
    for response in answers:
        text = response.content.decode()
        for secret in (deal.code, deal.seed_hex, deal.salt, deal.code.split("-")[-1]):
            assert secret not in text, (response.request["PATH_INFO"], secret)
    assert daily["deal"]["code"] is None and daily["deal"]["salt"] is None


# Starting games ---------------------------------------------------------------------------


def test_starting_the_daily_game_answers_201_then_200_with_the_same_game(ada, daily) -> None:
    assert daily["mode"] == "ranked" and daily["version"] == 0 and daily["legal_moves"]
    again = ada.post("/games", {"mode": "daily"})
    assert again.status_code == 200 and again.json()["id"] == daily["id"]


def test_a_practice_game_starts_from_a_code_with_the_full_visible_state(practice) -> None:
    assert practice["mode"] == "practice" and practice["can_undo"] is False
    assert practice["deal"]["code"] == "FT1-N-0000007"
    assert practice["board"]["columns"][0]["cards"] == ["6S", "6H", "KS", "KC"]
    assert practice["board"]["stock"] == 64


def test_a_practice_game_starts_from_a_variant_or_a_finished_daily_deal(ada, daily) -> None:
    response = ada.post("/games", {"mode": "practice", "variant": "josephine"})
    assert response.status_code == 201 and response.json()["deal"]["variant"] == "josephine"
    deal_id = daily["deal"]["id"]
    refused = ada.post("/games", {"mode": "practice", "deal_id": deal_id})
    assert_refused(refused, 403, "forbidden")
    ada.post(f"/games/{daily['id']}/resign")
    response = ada.post("/games", {"mode": "practice", "deal_id": deal_id})
    assert response.status_code == 201 and response.json()["deal"]["id"] == deal_id


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"mode": "tournament"}, 422, "bad_field", "body.mode"),
        ({}, 422, "missing_field", "body.mode"),
        ({"mode": "practice", "code": 7}, 422, "bad_field", "body.code"),
        ({"mode": "practice", "deal_id": "three"}, 422, "bad_field", "body.deal_id"),
        ({"mode": "practice", "deal_id": 10**30}, 422, "bad_field", "body.deal_id"),
        ({"mode": "daily", "code": "FT1-N-0000007"}, 422, "bad_field", "body.code"),
        ({"mode": "practice", "code": "x", "variant": "josephine"}, 422, "bad_field", "body"),
        ({"mode": "practice", "code": "FT1-N-0000007", "winnable": True}, 422, "bad_field", "body"),
        ({"mode": "practice", "stars": 6}, 422, "bad_field", "body.stars"),
        ({"mode": "practice", "winnable": "yes please"}, 422, "bad_field", "body.winnable"),
        ([1, 2], 422, "bad_field", "body"),
        ({"mode": "practice", "code": "not-a-code"}, 400, "bad_request", None),
        ({"mode": "practice", "variant": "spider"}, 400, "bad_request", None),
        ({"mode": "practice", "deal_id": 999}, 404, "not_found", None),
    ],
)
def test_a_bad_start_request_is_refused_with_a_code_naming_the_problem(
    ada, body, status, code, field
) -> None:
    refusal = assert_refused(ada.post("/games", body), status, code)
    if field is not None:
        assert refusal["reason"].startswith(field)
        assert field in [e["field"] for e in refusal["errors"]]


def test_a_missing_field_is_named(ada, practice) -> None:
    refusal = assert_refused(
        ada.post(f"/games/{practice['id']}/actions", {"type": "move"}), 422, "missing_field"
    )
    assert refusal["reason"] == "body.move: this field is required"


@pytest.mark.parametrize("raw", ["{not json", '{"mode": "daily"', "\xff"])
def test_a_body_that_is_not_json_is_a_400_not_a_crash(ada, raw) -> None:
    refusal = assert_refused(ada.post("/games", raw=raw), 400, "bad_json")
    assert "JSON" in refusal["reason"]


# Reading games ----------------------------------------------------------------------------


def test_your_games_are_listed_newest_first_a_page_at_a_time(ada, daily, practice) -> None:
    body = ada.get("/games").json()
    assert (body["page"], body["pages"], body["count"]) == (1, 1, 2)
    assert [g["id"] for g in body["games"]] == [practice["id"], daily["id"]]
    assert body["games"][1]["code"] is None  # the daily deal is still a secret
    assert ada.get("/games", page=99).json()["page"] == 1
    assert_refused(ada.get("/games", page=0), 422, "bad_field")
    assert_refused(ada.get("/games", page="x"), 422, "bad_field")


def test_a_game_reads_back_as_the_same_state_its_start_answered(ada, practice) -> None:
    assert ada.get(f"/games/{practice['id']}").json() == practice


def test_anyone_with_the_link_may_read_a_practice_game_without_signing_in(
    anonymous, bob_api, practice
) -> None:
    assert anonymous.get(f"/games/{practice['id']}").json()["id"] == practice["id"]
    assert bob_api.get(f"/games/{practice['id']}").status_code == 200


def test_another_players_daily_game_is_forbidden_until_you_finished_yours(
    bob_api, anonymous, daily
) -> None:
    assert_refused(bob_api.get(f"/games/{daily['id']}"), 403, "forbidden")
    assert_refused(anonymous.get(f"/games/{daily['id']}"), 401, "not_authenticated")
    bobs = bob_api.post("/games", {"mode": "daily"}).json()
    bob_api.post(f"/games/{bobs['id']}/resign")
    assert bob_api.get(f"/games/{daily['id']}").status_code == 200


def test_an_unknown_game_is_404_and_a_malformed_id_is_a_named_bad_field(ada) -> None:
    assert_refused(ada.get("/games/00000000-0000-0000-0000-000000000000"), 404, "not_found")
    refusal = assert_refused(ada.get("/games/not-a-uuid"), 422, "bad_field")
    assert refusal["reason"].startswith("path.game_id")
    assert_refused(ada.post("/games/not-a-uuid/resign"), 422, "bad_field")


# Playing ----------------------------------------------------------------------------------


def test_a_move_answers_the_websockets_accepted_message(ada, practice) -> None:
    response = ada.post(
        f"/games/{practice['id']}/actions", {"type": "move", "move": "s", "id": "c1", "version": 0}
    )
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {
        "type", "id", "version", "action", "automatic", "changes", "score", "moves", "status",
        "duplicate",
    }  # fmt: skip
    assert body["type"] == "accepted" and body["id"] == "c1" and body["version"] == 1
    assert body["action"] == "s" and body["changes"]["stock"] == 63
    assert body["status"] == "active" and body["duplicate"] is False
    assert "legal_moves" in body["changes"]


def test_a_resent_id_is_answered_again_but_applied_once(ada, practice) -> None:
    path = f"/games/{practice['id']}/actions"
    ada.post(path, {"type": "move", "move": "s", "id": "c1"})
    again = ada.post(path, {"type": "move", "move": "s", "id": "c1"}).json()
    assert again["duplicate"] is True and again["version"] == 1 and again["changes"] == {}
    assert engine_for(Game.objects.get(pk=practice["id"])).stock_count == 63


def test_undo_takes_back_a_practice_move_but_a_ranked_game_has_none(ada, practice, daily) -> None:
    ada.post(f"/games/{practice['id']}/actions", {"type": "move", "move": "s"})
    undone = ada.post(f"/games/{practice['id']}/actions", {"type": "undo", "version": 1})
    assert undone.status_code == 200 and undone.json()["changes"]["stock"] == 64
    refusal = ada.post(f"/games/{daily['id']}/actions", {"type": "undo"})
    assert_refused(refusal, 403, "forbidden")


def test_a_refused_move_answers_422_with_the_engines_code_and_reason(ada, practice) -> None:
    path = f"/games/{practice['id']}/actions"
    illegal = assert_refused(ada.post(path, {"type": "move", "move": "t1-f1"}), 422, "illegal_move")
    assert illegal["reason"].startswith("foundation f1 builds spades only")
    assert illegal["rule"] == "foundation_suit" and illegal["params"]["card"] == "KC"
    assert_refused(ada.post(path, {"type": "move", "move": "t1-x"}), 422, "invalid_move")
    assert_refused(ada.post(path, {"type": "move", "move": "undo"}), 422, "invalid_move")
    assert ada.get(f"/games/{practice['id']}").json()["version"] == 0


def test_a_refusal_carries_a_message_in_the_callers_language(ada, practice) -> None:
    """`message` says the refusal as the site does, in the language asked for; `reason`
    stays English for scripts."""
    path = f"/api/v1/games/{practice['id']}/actions"
    for language, words in (
        ("nl", "De schoppenfundering neemt alleen schoppen aan, niet de klaverenheer."),
        ("en", "The spades foundation takes only spades, not the king of clubs."),
    ):
        answer = ada.client.post(
            path,
            json.dumps({"type": "move", "move": "t1-f1"}),
            content_type="application/json",
            headers={**ada.headers, "Accept-Language": language},
        ).json()
        assert answer["message"] == words
        assert answer["reason"].startswith("foundation f1 builds spades only")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"type": "jump"}, "body.type"),
        ({"type": "move", "move": 5}, "body.move"),
        ({"type": "move", "move": "s", "version": "new"}, "body.version"),
        ({"type": "move", "move": "s", "version": -1}, "body.version"),
        ({"type": "move", "move": "s", "id": "x" * 65}, "body.id"),
        ({"type": "undo", "move": "s"}, "body.move"),
        ("move", "body"),
    ],
)
def test_a_malformed_action_is_a_bad_field_naming_it(ada, practice, body, field) -> None:
    refusal = assert_refused(ada.post(f"/games/{practice['id']}/actions", body), 422, "bad_field")
    assert refusal["reason"].startswith(field), refusal


def test_a_stale_version_is_409_with_the_servers_version(ada, practice) -> None:
    path = f"/games/{practice['id']}/actions"
    refusal = assert_refused(
        ada.post(path, {"type": "move", "move": "s", "version": 5}), 409, "stale_version"
    )
    assert refusal["version"] == 0


def test_resigning_ends_the_game_and_later_actions_are_409_game_over(ada, daily) -> None:
    response = ada.post(f"/games/{daily['id']}/resign", {"id": "r1", "version": 0})
    assert response.status_code == 200
    assert response.json()["status"] == "resigned" and response.json()["action"] == "resign"
    path = f"/games/{daily['id']}/actions"
    assert_refused(ada.post(path, {"type": "move", "move": "s"}), 409, "game_over")
    assert_refused(ada.post(path, {"type": "resign"}), 409, "game_over")


def test_resigning_through_the_action_endpoint_and_without_a_body(ada, practice, daily) -> None:
    by_action = ada.post(f"/games/{practice['id']}/actions", {"type": "resign", "id": "r"})
    assert by_action.json()["status"] == "resigned"
    assert ada.post(f"/games/{daily['id']}/resign").json()["status"] == "resigned"


def test_another_players_game_cannot_be_played(bob_api, practice) -> None:
    path = f"/games/{practice['id']}"
    assert_refused(bob_api.post(f"{path}/actions", {"type": "move", "move": "s"}), 403, "forbidden")
    assert_refused(bob_api.post(f"{path}/resign"), 403, "forbidden")
    assert Game.objects.get(pk=practice["id"]).version == 0


def test_a_winnable_practice_deal_comes_from_the_pool_or_says_it_is_empty(ada) -> None:
    from games import services

    empty = assert_refused(
        ada.post("/games", {"mode": "practice", "variant": "little-forty", "winnable": True}),
        404,
        "pool_empty",
    )
    assert "random deal" in empty["reason"]
    services.practice_pool_fill(variant="little-forty", count=1, max_nodes=400, seeds=[3])
    body = {"mode": "practice", "variant": "little-forty", "winnable": True, "stars": 1}
    response = ada.post("/games", body)
    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=response.json()["id"])
    assert game.deal.pool_entry.stars == 1 and game.deal.variant == "little-forty"
