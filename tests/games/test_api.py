"""The HTTP JSON API: the websocket's twin over the same services, refusals and payloads."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.engine import Game as Engine
from games.models import ApiToken, Deal, Game, User
from games.services.tokens import API_TOKENS_PER_USER

pytestmark = pytest.mark.django_db

API = "/api/v1"


class Api:
    """A JSON client for one caller: a bearer token, a session, or nobody."""

    def __init__(self, client: Client, token: str | None = None) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **params: Any) -> Any:
        return self.client.get(API + path, params, headers=self.headers)

    def post(self, path: str, body: Any = None, *, raw: str | None = None) -> Any:
        data = raw if raw is not None else ("" if body is None else json.dumps(body))
        return self.client.post(
            API + path, data, content_type="application/json", headers=self.headers
        )

    def delete(self, path: str) -> Any:
        return self.client.delete(API + path, headers=self.headers)


def token_for(user: User, name: str = "bot") -> str:
    return services.api_token_create(user=user, name=name)[1]


@pytest.fixture
def ada(user: User) -> Api:
    return Api(Client(), token_for(user))


@pytest.fixture
def bob_api(bob: User) -> Api:
    return Api(Client(), token_for(bob))


@pytest.fixture
def anonymous() -> Api:
    return Api(Client())


@pytest.fixture
def practice(ada: Api) -> dict[str, Any]:
    """ada's practice game of deal 7, whose first column shows the king of clubs."""
    response = ada.post("/games", {"mode": "practice", "code": "FT1-N-0000007"})
    assert response.status_code == 201
    return response.json()


@pytest.fixture
def daily(ada: Api) -> dict[str, Any]:
    response = ada.post("/games", {"mode": "daily"})
    assert response.status_code == 201
    return response.json()


def assert_refused(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code and body["reason"], body
    return body


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
        "type", "id", "version", "action", "changes", "score", "moves", "status", "duplicate"
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
    assert Engine.load(Game.objects.get(pk=practice["id"]).state).stock_count == 63


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
    assert_refused(ada.post(path, {"type": "move", "move": "t1-x"}), 422, "invalid_move")
    assert_refused(ada.post(path, {"type": "move", "move": "undo"}), 422, "invalid_move")
    assert ada.get(f"/games/{practice['id']}").json()["version"] == 0


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


# Authentication ---------------------------------------------------------------------------


def test_without_credentials_the_private_operations_answer_401(anonymous, practice) -> None:
    for response in (
        anonymous.get("/games"),
        anonymous.post("/games", {"mode": "daily"}),
        anonymous.post(f"/games/{practice['id']}/actions", {"type": "move", "move": "s"}),
        anonymous.get("/tokens"),
        anonymous.post("/tokens", {"name": "x"}),
    ):
        refusal = assert_refused(response, 401, "not_authenticated")
        assert "Bearer" in refusal["reason"] and response["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("header", ["Bearer nonsense", "Bearer ft_forged", "Bearer ", "Bearer é"])
def test_a_bad_token_is_401_even_on_public_operations(header) -> None:
    client = Client(headers={"Authorization": header})
    assert_refused(client.get(f"{API}/games"), 401, "not_authenticated")
    assert_refused(client.get(f"{API}/daily"), 401, "not_authenticated")
    refusal = client.post(f"{API}/games", {"mode": "daily"}, content_type="application/json")
    assert assert_refused(refusal, 401, "not_authenticated")["reason"].startswith("the API token")


def test_a_token_is_created_by_session_used_listed_and_revoked(user) -> None:
    site = Client()
    site.force_login(user)
    response = site.post(f"{API}/tokens", {"name": "my bot"}, content_type="application/json")
    assert response.status_code == 201
    created = response.json()
    raw = created["token"]
    assert raw.startswith("ft_") and len(raw) > 40 and created["name"] == "my bot"
    assert raw not in "".join(ApiToken.objects.values_list("digest", flat=True))

    bot = Api(Client(), raw)
    assert bot.post("/games", {"mode": "practice"}).status_code == 201
    listed = bot.get("/tokens").json()
    assert [t["id"] for t in listed] == [created["id"]]
    assert listed[0]["prefix"] == raw[:8] and listed[0]["last_used_at"] is not None
    assert raw not in json.dumps(listed)

    assert bot.delete(f"/tokens/{created['id']}").status_code == 204
    assert_refused(bot.get("/games"), 401, "not_authenticated")
    assert site.get(f"{API}/tokens").json() == []


def test_a_token_cannot_mint_tokens_nor_revoke_anothers(user, bob) -> None:
    bot = Api(Client(), token_for(user))
    assert_refused(bot.post("/tokens", {"name": "child"}), 401, "not_authenticated")
    bobs_token, _ = services.api_token_create(user=bob, name="bob's")
    assert_refused(bot.delete(f"/tokens/{bobs_token.pk}"), 404, "not_found")
    assert ApiToken.objects.filter(user=bob).exists()
    assert_refused(bot.delete("/tokens/0"), 422, "bad_field")


def test_a_token_notes_its_last_use_at_most_once_a_minute(user) -> None:
    token, raw = services.api_token_create(user=user, name="")
    start = timezone.now()
    assert services.api_token_authenticate(raw=raw, now=start) == user
    services.api_token_authenticate(raw=raw, now=start + timedelta(seconds=30))
    token.refresh_from_db()
    assert token.last_used_at == start
    services.api_token_authenticate(raw=raw, now=start + timedelta(seconds=61))
    token.refresh_from_db()
    assert token.last_used_at == start + timedelta(seconds=61)


def test_an_inactive_users_token_stops_working(user) -> None:
    raw = token_for(user)
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert services.api_token_authenticate(raw=raw) is None


def test_a_session_needs_the_csrf_token_on_unsafe_methods_but_not_to_read(user) -> None:
    site = Client(enforce_csrf_checks=True)
    site.force_login(user)
    assert site.get(f"{API}/games").status_code == 200
    refused = site.post(f"{API}/games", {"mode": "daily"}, content_type="application/json")
    refusal = assert_refused(refused, 403, "csrf_failed")
    assert "X-CSRFToken" in refusal["reason"]
    assert not Game.objects.exists()

    secret = "k" * 32  # any 32-character secret: cookie and header must agree
    site.cookies["csrftoken"] = secret
    response = site.post(
        f"{API}/games",
        {"mode": "daily"},
        content_type="application/json",
        headers={"X-CSRFToken": secret},
    )
    assert response.status_code == 201


def test_a_bearer_token_needs_no_csrf_token(user) -> None:
    client = Client(
        enforce_csrf_checks=True, headers={"Authorization": f"Bearer {token_for(user)}"}
    )
    response = client.post(f"{API}/games", {"mode": "daily"}, content_type="application/json")
    assert response.status_code == 201


def test_an_anonymous_post_is_told_to_authenticate_not_about_csrf() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(f"{API}/games", {"mode": "daily"}, content_type="application/json")
    assert_refused(response, 401, "not_authenticated")


def test_tokens_are_capped_per_user(user) -> None:
    for _ in range(API_TOKENS_PER_USER):
        token_for(user)
    site = Client()
    site.force_login(user)
    response = site.post(f"{API}/tokens", {}, content_type="application/json")
    assert_refused(response, 409, "conflict")
    too_long = site.post(f"{API}/tokens", {"name": "n" * 61}, content_type="application/json")
    assert_refused(too_long, 422, "bad_field")


# OpenAPI ----------------------------------------------------------------------------------


def test_the_openapi_schema_lists_every_operation_with_summaries_and_error_shapes() -> None:
    schema = Client().get(f"{API}/openapi.json").json()
    assert schema["info"]["title"] == "Forty Thieves API" and schema["info"]["version"] == "1"
    assert set(schema["paths"]) == {
        f"{API}/daily",
        f"{API}/games",
        f"{API}/games/{{game_id}}",
        f"{API}/games/{{game_id}}/actions",
        f"{API}/games/{{game_id}}/hint",
        f"{API}/games/{{game_id}}/resign",
        f"{API}/tokens",
        f"{API}/tokens/{{token_id}}",
    }
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            where = f"{method.upper()} {path}"
            assert operation["summary"] and operation["description"] and operation["tags"], where
            assert any(s.startswith("2") for s in operation["responses"]), where
            errors = [r for s, r in operation["responses"].items() if s.startswith("4")]
            assert errors, where
            for response in errors:
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref.endswith("/ErrorOut"), where
    assert set(schema["components"]["securitySchemes"]) == {"TokenAuth", "SessionAuth"}
    assert {} in schema["paths"][f"{API}/daily"]["get"]["security"]


def test_the_interactive_docs_are_served() -> None:
    response = Client().get(f"{API}/docs")
    assert response.status_code == 200 and b"openapi.json" in response.content


def test_fuzzing_the_read_operations_never_causes_a_server_error(user, practice) -> None:
    """Schemathesis, in-process over WSGI: valid and invalid inputs to every GET, signed in
    and anonymous, answer anything but a 5xx."""
    schemathesis = pytest.importorskip("schemathesis")
    from django.core.wsgi import get_wsgi_application
    from hypothesis.errors import Unsatisfiable
    from schemathesis.checks import not_a_server_error

    schema = schemathesis.openapi.from_wsgi(f"{API}/openapi.json", get_wsgi_application())
    callers = [{"Authorization": f"Bearer {token_for(user, 'fuzz')}"}, {}]
    runs = []
    for result in schema.include(method="GET").get_all_operations():
        operation = result.ok()
        for mode in schemathesis.GenerationMode:
            runs += [(operation.as_strategy(mode), mode, headers) for headers in callers]
        if "{game_id}" in operation.path:  # also the real game, not only unknown ids
            fixed = operation.as_strategy(path_parameters={"game_id": practice["id"]})
            runs += [(fixed, schemathesis.GenerationMode.POSITIVE, h) for h in callers]
    assert len(runs) == 4 * 4 + 2

    for strategy, mode, headers in runs:
        try:
            _no_server_error(strategy, headers, not_a_server_error)()
        except Unsatisfiable:
            # An operation without parameters (GET /daily) has no invalid input to make.
            assert mode == schemathesis.GenerationMode.NEGATIVE


def _no_server_error(strategy: Any, headers: dict[str, str], check: Any) -> Any:
    """A Hypothesis test calling the app with each case of ``strategy``."""
    from hypothesis import HealthCheck, given, settings

    @settings(
        max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(case=strategy)
    def run(case: Any) -> None:
        case.call_and_validate(checks=[check], headers=headers)

    return run
