"""The arena socket in the connection's language (the account's, else the language
cookie, else Accept-Language), the codes unchanged; and a league's arena socket open to
the league's members only (4404 to anyone else, as its page is a 404)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.utils import timezone, translation

from ftsite.asgi import application
from games.models import User
from games.socket.listening import scope_language
from leaderboards.leagues import services as league_services
from tests.support.sockets import ORIGIN, close_code, cookie_of, db, run_async

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("empty_channel_layer"),
]

WRONG = "an arena socket only listens: moves go over your round's game socket"
BINARY = "messages are JSON text frames, not binary"


def worded(language: str, text: str) -> str:
    with translation.override(language):
        translated = translation.gettext(text)
    assert translated != text  # the catalog has it: otherwise nothing here is tested
    return translated


async def opened(path: str, user=None, extra=()) -> WebsocketCommunicator:
    headers = [*ORIGIN, *extra]
    if user is not None:
        headers.append((b"cookie", await db(cookie_of)(user)))
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect()
    assert connected
    return ws


async def refused_move(ws: WebsocketCommunicator) -> dict:
    await ws.send_to(text_data=json.dumps({"type": "move", "id": "m1", "move": "s"}))
    return json.loads(await ws.receive_from())


@run_async
async def test_a_refusal_is_worded_in_the_account_s_language(arena, user) -> None:
    await db(User.objects.filter(pk=user.pk).update)(language="it")
    ws = await opened(f"/ws/arenas/{arena.pk}/", user, [(b"accept-language", b"nl")])
    await ws.receive_from()
    refused = await refused_move(ws)
    assert refused["code"] == "wrong_socket" and refused["id"] == "m1"
    assert refused["reason"] == worded("it", WRONG)
    await ws.send_to(bytes_data=b"\x00")
    binary = json.loads(await ws.receive_from())
    assert binary["code"] == "bad_json" and binary["reason"] == worded("it", BINARY)
    await ws.disconnect()


@pytest.mark.parametrize(
    ("headers", "language"),
    [
        ([(b"accept-language", b"fi-FI,fi;q=0.9,en;q=0.5")], "fi"),
        ([(b"cookie", f"{settings.LANGUAGE_COOKIE_NAME}=nl".encode())], "nl"),
        ([], "en"),
    ],
)
@run_async
async def test_a_visitor_s_refusal_follows_the_cookie_or_the_browser(
    arena, headers, language
) -> None:
    ws = await opened(f"/ws/arenas/{arena.pk}/", extra=headers)
    await ws.receive_from()
    refused = await refused_move(ws)
    assert refused["code"] == "wrong_socket"
    expected = WRONG if language == "en" else worded(language, WRONG)
    assert refused["reason"] == expected
    await ws.disconnect()


@run_async
async def test_a_too_fast_socket_is_told_in_its_language(arena, user, settings) -> None:
    from ftsite.rates import Rate

    settings.FT_RATE_SOCKET_PACE = Rate.parse("1/10s")
    await db(User.objects.filter(pk=user.pk).update)(language="fi")
    ws = await opened(f"/ws/arenas/{arena.pk}/", user)
    await ws.receive_from()
    await ws.send_to(text_data='{"type":"ping"}')
    assert json.loads(await ws.receive_from())["type"] == "pong"
    await ws.send_to(text_data='{"type":"ping"}')
    refused = json.loads(await ws.receive_from())
    assert refused["code"] == "rate_limited" and refused["retry_after"] > 0
    template = worded("fi", "too fast: send it again in %(seconds)s s")
    assert refused["reason"] == template % {"seconds": f"{refused['retry_after']:g}"}
    await ws.disconnect()


def test_the_language_of_a_scope_prefers_the_account_then_cookie_then_browser(user) -> None:
    def scope(who, **headers: str) -> dict:
        return {"user": who, "headers": [(k.encode(), v.encode()) for k, v in headers.items()]}

    from django.contrib.auth.models import AnonymousUser

    user.language = "fi"
    assert scope_language(scope(user, cookie="django_language=nl")) == "fi"
    cookie = f"{settings.LANGUAGE_COOKIE_NAME}=nl"
    assert scope_language(scope(AnonymousUser(), cookie=cookie, **{"accept-language": "it"})) == (
        "nl"
    )
    assert scope_language(scope(AnonymousUser(), **{"accept-language": "de, it;q=0.8"})) == "it"
    assert scope_language(scope(AnonymousUser(), **{"accept-language": "xx"})) == "en"


@run_async
async def test_a_league_arena_socket_is_for_its_members_only(
    user, bob, carol, make_league, wall_clock
) -> None:
    league, _ = await db(make_league)(user, bob)
    start = timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=10)
    arena = await db(league_services.league_arena_create)(
        user=user,
        league_id=league.pk,
        starts_at=start,
        minutes=30,
        round_minutes=5,
        variant="forty-thieves",
    )
    member = await opened(f"/ws/arenas/{arena.pk}/", bob)
    assert json.loads(await member.receive_from())["type"] == "standings"
    await member.disconnect()
    for outsider in (carol, None):
        ws = await opened(f"/ws/arenas/{arena.pk}/", outsider)
        assert await close_code(ws) == 4404
        await ws.disconnect()
