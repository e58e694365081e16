"""Sign-ups racing for one new name on the real stack (issue 37: four sessions posting the
same new username at once, two on each daphne process, got one 302 and three 500s, an
``IntegrityError`` at the save; through the guest's conversion too). Each session reads
its form (and CSRF token) first; the four posts then leave together. One account is made;
the three others get the form again saying the name is taken, never a server error."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from games.models import Game, User
from tests.support.servers import Server

from .conftest import post_form

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(120),
]

PASSWORD = "correct horse battery staple"
TAKEN = "A user with that username already exists."
SESSIONS = 4


def session_on(server: Server, *, guest: bool) -> requests.Session:
    http = requests.Session()
    http.headers.update({"Referer": server.http, "Accept-Language": "en"})
    if guest:  # a practice start makes the session's guest
        started = post_form(
            http, server.http, "/practice/", {"action": "code", "code": "FT1-N-0000007"}
        )
        assert started.status_code == 302, started.text[:300]
    return http


def sign_ups_at_once(
    servers: tuple[Server, Server], name: str, *, guest: bool
) -> list[requests.Response]:
    """``SESSIONS`` sign-ups for ``name``, alternating between the two processes, posted
    together (each waits at a barrier with its form read and its token in hand)."""
    places = [servers[n % 2] for n in range(SESSIONS)]
    sessions = [session_on(server, guest=guest) for server in places]
    ready = threading.Barrier(SESSIONS)

    def sign_up(http: requests.Session, server: Server) -> requests.Response:
        page = http.get(f"{server.http}/accounts/signup/", timeout=10)
        token = page.text.split('name="csrfmiddlewaretoken" value="', 1)[1].split('"', 1)[0]
        data = {
            "csrfmiddlewaretoken": token,
            "username": name,
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
        ready.wait(timeout=30)
        return http.post(
            f"{server.http}/accounts/signup/", data=data, allow_redirects=False, timeout=30
        )

    with ThreadPoolExecutor(SESSIONS) as pool:
        return list(pool.map(sign_up, sessions, places))


@pytest.mark.parametrize("guest", [False, True], ids=["visitors", "guests"])
def test_of_four_sign_ups_for_one_name_one_wins_and_three_are_told_it_is_taken(
    servers: tuple[Server, Server], guest: bool
) -> None:
    name = f"race-{uuid.uuid4().hex[:8]}"
    answers = sign_ups_at_once(servers, name, guest=guest)
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200, 200, 200, 302], [(a.status_code, a.text[:300]) for a in answers]
    for answer in answers:
        if answer.status_code == 200:
            assert TAKEN in answer.text
    account = User.objects.get(username=name)
    assert not account.is_guest
    if guest:
        # The winner's guest became the account with its game; the losers stay guests.
        assert Game.objects.filter(player=account).count() == 1
        assert User.objects.filter(is_guest=True, games__isnull=False).distinct().count() >= 3
