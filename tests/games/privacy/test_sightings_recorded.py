"""Where fair-play sightings are recorded: the middleware for pages and the API (signed-in
users only, once per ``FT_SIGHTING_EVERY``, behind trusted proxies only from their
header) and the game socket for its player. (The digests, linking and pruning:
test_sightings.py.)"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from ftsite.asgi import application
from games import services
from games.models import Sighting, User
from games.privacy.middleware import DEVICE_COOKIE
from games.privacy.sightings import (
    address_digest,
    device_digest,
    network_digest,
)
from games.socket.sighting_batch import sightings_flush
from tests.support.sockets import ORIGIN, ask, cookie_of, db, receive, run_async

from ..conftest import (
    OTHER_UA,
    UA,
    Api,
    a_token,
    kinds_of,
    practice_game,
    token_for,
)

pytestmark = pytest.mark.usefixtures("empty_cache")


# The middleware --------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_sets_the_device_cookie_once_httponly_and_lax(client: Client) -> None:
    first = client.get(reverse("rules"))
    cookie = first.cookies[DEVICE_COOKIE]
    assert len(cookie.value) == 32
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert cookie["max-age"] == 400 * 24 * 60 * 60
    assert not cookie["secure"]  # the embedded default serves plain http
    second = client.get(reverse("rules"))
    assert DEVICE_COOKIE not in second.cookies
    assert client.cookies[DEVICE_COOKIE].value == cookie.value


@pytest.mark.django_db
def test_it_replaces_a_malformed_device_cookie(client: Client) -> None:
    client.cookies[DEVICE_COOKIE] = "not-a-token"
    response = client.get(reverse("rules"))
    assert response.cookies[DEVICE_COOKIE].value != "not-a-token"


@pytest.mark.django_db
def test_it_does_not_record_an_anonymous_visitor(client: Client, records: list) -> None:
    client.get(reverse("rules"), HTTP_USER_AGENT=UA)
    client.get(reverse("rules"), HTTP_USER_AGENT=UA)
    assert records == [] and not Sighting.objects.exists()


@pytest.mark.django_db
def test_it_records_a_signed_in_user_once_per_interval(
    client: Client, user: User, records: list, wall_clock: time_machine.Traveller
) -> None:
    client.cookies[DEVICE_COOKIE] = token = a_token()
    client.force_login(user)
    for _ in range(3):
        assert client.get(reverse("rules"), HTTP_USER_AGENT=UA).status_code == 200
    assert len(records) == 1
    assert records[0]["device_token"] == token and records[0]["address"] == "127.0.0.1"
    assert kinds_of(user) == ["address", "device", "network"]

    # Another browser on the same device is another (user, device, network): recorded.
    client.get(reverse("rules"), HTTP_USER_AGENT=OTHER_UA)
    assert len(records) == 2

    wall_clock.shift(timedelta(seconds=601))
    client.get(reverse("rules"), HTTP_USER_AGENT=OTHER_UA)
    assert len(records) == 3


@pytest.mark.django_db
def test_it_records_the_user_who_just_logged_in(client: Client, user: User) -> None:
    client.cookies[DEVICE_COOKIE] = a_token()
    response = client.post(
        reverse("login"),
        {"username": "ada", "password": "correct horse battery staple"},
        HTTP_USER_AGENT=UA,
    )
    assert response.status_code == 302
    assert kinds_of(user) == ["address", "device", "network"]


@pytest.mark.django_db
def test_it_records_an_api_tokens_user_once_per_interval(user: User, records: list) -> None:
    api = Api(Client(), token_for(user))
    api.client.cookies[DEVICE_COOKIE] = a_token()
    assert api.get("/games").status_code == 200
    assert api.get("/games").status_code == 200
    assert len(records) == 1 and records[0]["user_id"] == user.pk


@pytest.mark.django_db
def test_a_client_without_cookies_is_recorded_by_network_only(user: User) -> None:
    Api(Client(), token_for(user)).get("/games")
    assert kinds_of(user) == ["address", "network"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "forwarded", ["garbage", ",,,", "203.0.113.7:443", "\u00ff\u00fe", "1.2.3.4, , "]
)
def test_a_garbage_forwarded_for_header_does_not_fail_the_page(
    settings, client: Client, user: User, forwarded: str
) -> None:
    settings.FT_TRUSTED_PROXIES = 1
    client.cookies[DEVICE_COOKIE] = a_token()
    client.force_login(user)
    response = client.get(reverse("rules"), HTTP_X_FORWARDED_FOR=forwarded, HTTP_USER_AGENT=UA)
    assert response.status_code == 200
    assert kinds_of(user) == ["device"]


@pytest.mark.django_db
def test_behind_a_trusted_proxy_it_takes_the_forwarded_address(
    settings, client: Client, user: User, records: list
) -> None:
    settings.FT_TRUSTED_PROXIES = 1
    client.force_login(user)
    client.get(reverse("rules"), HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    assert records[0]["address"] == "203.0.113.7"


@pytest.mark.django_db
def test_a_client_around_the_proxy_is_recorded_at_its_own_address(
    settings, user: User, records: list
) -> None:
    settings.FT_TRUSTED_PROXIES = 1
    client = Client(REMOTE_ADDR="198.51.100.9")  # not in FT_TRUSTED_PROXY_NETWORKS
    client.force_login(user)
    client.get(reverse("rules"), HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert records[0]["address"] == "198.51.100.9"


@pytest.mark.django_db
def test_a_failing_record_does_not_fail_the_page(
    client: Client, user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**kwargs: Any) -> int:
        raise RuntimeError("the database is away")

    monkeypatch.setattr(services, "sighting_record", broken)
    client.force_login(user)
    assert client.get(reverse("rules")).status_code == 200


# The game socket -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("empty_channel_layer")
@run_async
async def test_the_game_socket_records_its_player(user: User) -> None:
    game = await db(practice_game)(user)
    token = a_token()
    cookie = await db(cookie_of)(user) + f"; {DEVICE_COOKIE}={token}".encode()
    headers = [*ORIGIN, (b"cookie", cookie), (b"user-agent", UA.encode())]
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    ws.scope["client"] = ["203.0.113.7", 50000]  # read once the application starts
    connected, _ = await ws.connect()
    assert connected
    assert (await receive(ws))["type"] == "hello"
    # The sighting is queued after the hello and written with the process's next batch.
    assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
    await sightings_flush()
    sightings = await db(lambda: dict(Sighting.objects.values_list("kind", "digest")))()
    assert sightings == {
        "device": device_digest(token=token),
        "network": network_digest(address="203.0.113.7", user_agent=UA),
        "address": address_digest(address="203.0.113.7"),
    }
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("empty_channel_layer")
@run_async
async def test_the_game_socket_takes_the_forwarded_address_only_from_the_proxy(
    settings, user: User
) -> None:
    settings.FT_TRUSTED_PROXIES = 1
    game = await db(practice_game)(user)
    cookie = await db(cookie_of)(user)
    recorded = []
    for peer in ("10.0.0.5", "198.51.100.9"):  # the proxy, then a client around it
        headers = [*ORIGIN, (b"cookie", cookie), (b"user-agent", UA.encode())]
        headers.append((b"x-forwarded-for", b"6.6.6.6, 203.0.113.7"))
        ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
        ws.scope["client"] = [peer, 50000]
        connected, _ = await ws.connect()
        assert connected and (await receive(ws))["type"] == "hello"
        assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
        await ws.disconnect()
        await sightings_flush()
        recorded.append(
            await db(
                lambda: set(
                    Sighting.objects.filter(kind="network").values_list("digest", flat=True)
                )
            )()
        )
    assert recorded[0] == {network_digest(address="203.0.113.7", user_agent=UA)}
    assert recorded[1] - recorded[0] == {network_digest(address="198.51.100.9", user_agent=UA)}


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("empty_channel_layer")
@run_async
async def test_a_reconnecting_socket_records_its_sighting_once_per_period(
    user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A socket opens on every reconnect (a storm after a deploy): like pages, it writes
    a (user, device, network) at most once per FT_SIGHTING_EVERY seconds."""
    from games.socket import sighting_batch

    written: list[int] = []
    real = sighting_batch.sightings_record_due_many

    def spy(**kwargs: Any) -> int:
        touched = real(**kwargs)
        written.append(touched)
        return touched

    monkeypatch.setattr(sighting_batch, "sightings_record_due_many", spy)
    game = await db(practice_game)(user)
    cookie = await db(cookie_of)(user) + f"; {DEVICE_COOKIE}={a_token()}".encode()
    for _batch in range(2):  # the first batch, then a reconnect after it was written
        for _ in range(3):
            headers = [*ORIGIN, (b"cookie", cookie), (b"user-agent", UA.encode())]
            ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
            ws.scope["client"] = ["203.0.113.7", 50000]
            connected, _ = await ws.connect()
            assert connected and (await receive(ws))["type"] == "hello"
            assert await ask(ws, {"type": "ping"}) == {"type": "pong"}
            await ws.disconnect()
        await sighting_batch.sightings_flush()
    assert sum(written) == 3 and written.count(3) == 1, written
    # One write of its three digests: device, network + browser, and network alone.
    assert await db(lambda: Sighting.objects.filter(user=user).count())() == 3


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("empty_channel_layer")
@run_async
async def test_the_socket_writes_its_players_sighting_before_the_first_move(user: User) -> None:
    """The fair-play screen of a finished game reads its player's sightings: a move (so a
    finish) never goes ahead of the socket's own sighting, whatever the batch's timer."""
    from games.socket import sighting_batch

    game = await db(practice_game)(user)
    cookie = await db(cookie_of)(user) + f"; {DEVICE_COOKIE}={a_token()}".encode()
    headers = [*ORIGIN, (b"cookie", cookie), (b"user-agent", UA.encode())]
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
    ws.scope["client"] = ["203.0.113.7", 50000]
    connected, _ = await ws.connect()
    assert connected and (await receive(ws))["type"] == "hello"
    assert await ask(ws, {"type": "ping"}) == {"type": "pong"}  # not an action: still queued
    assert sighting_batch._pending and not await db(Sighting.objects.exists)()
    answer = await ask(ws, {"type": "move", "id": "m1", "move": "s", "version": 0})
    assert answer["type"] == "accepted", answer
    assert await db(lambda: Sighting.objects.filter(user=user).count())() == 3
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
def test_a_batch_outlives_an_account_deleted_since_its_socket_connected(user: User) -> None:
    from games.privacy.services import Seen, sightings_record_due_many

    gone = User.objects.create_user(username="gone", password="x" * 12)
    seen = [
        Seen(user_id=u.pk, device_token=a_token(), address="203.0.113.7", user_agent=UA)
        for u in (gone, user)
    ]
    gone.delete()
    assert sightings_record_due_many(seen=seen) == 3  # the living user's three digests
    assert set(Sighting.objects.values_list("user_id", flat=True)) == {user.pk}
    # The gone account's marker was not noted: nothing claims it was recorded.
    assert sightings_record_due_many(seen=seen[1:]) == 0


# The privacy page ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_privacy_page_says_what_is_kept_and_for_how_long(settings, client: Client) -> None:
    settings.FT_SIGHTING_DAYS = 45
    response = client.get(reverse("privacy"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "deleted 45 days after" in html
    assert "ft_device" in html and "sessionid" in html and "csrftoken" in html
    assert reverse("privacy") in client.get(reverse("home")).content.decode()
