"""Pages and sockets apart, through the real processes: nginx (the repository's template)
sends /ws/ to daphne and every page to gunicorn (``ftsite.gunicorn``, ``ftsite.wsgi``),
which serves visitors' pages from the Redis page store (``ftsite.pagecache``).

No player's page or token reaches another client; each visitor's token is its own and is
accepted by a form; a result landing shows on the next visitor's page; and the pages are
answered by gunicorn alone (with the socket process stopped, the last test).
"""

from __future__ import annotations

import http.client
import re
import uuid
from collections.abc import Iterator
from email.message import Message
from http.cookies import SimpleCookie

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.middleware.csrf import _unmask_cipher_token
from django.utils import timezone
from websockets.asyncio.client import connect

from ftsite import pagecache
from games import services
from games.models import User
from leaderboards.services import result_verify
from load.players import session_cookie
from tests.integration.conftest import server_env
from tests.integration.test_proxy import (
    SECURITY_HEADERS,
    nginx_installed,  # noqa: F401 (a module fixture)
)
from tests.support.games import game_resign
from tests.support.proxy import Proxy, start_proxy
from tests.support.servers import Server, start_pages, start_server

pytestmark = [
    pytest.mark.integration,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]{64})"')


@pytest.fixture(scope="module")
def stack(
    django_db_setup: None, static_collected: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Proxy, Server, Server]]:
    """nginx in front of one daphne (the sockets) and one gunicorn (the pages, 2 workers
    of 2 threads), sharing the test database and the tier's Redis (the page store)."""
    from django.conf import settings

    env = server_env() | {
        "FT_TRUSTED_PROXIES": "1",
        "FT_TRUSTED_PROXY_NETWORKS": "127.0.0.1/32",
        "FT_PAGE_CACHE_SECONDS": "60",
        "FT_PAGES_WORKERS": "2",
        "FT_PAGES_THREADS": "2",
    }
    logs = tmp_path_factory.mktemp("pages")
    sockets = start_server(env, logs, ready_path="/rules/")
    try:
        pages = start_pages(env, logs)
        try:
            proxy = start_proxy(
                [sockets.port], settings.BASE_DIR / "staticfiles", logs, pages=[pages.port]
            )
            try:
                yield proxy, sockets, pages
            finally:
                proxy.stop()
        finally:
            pages.stop()
    finally:
        sockets.stop()


def get(proxy: Proxy, path: str, cookie: str = "") -> tuple[int, Message, str]:
    conn = http.client.HTTPSConnection("127.0.0.1", proxy.port, context=proxy.ssl_context())
    try:
        conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        answer = conn.getresponse()
        return answer.status, answer.headers, answer.read().decode()
    finally:
        conn.close()


def post(proxy: Proxy, path: str, body: str, cookie: str) -> int:
    conn = http.client.HTTPSConnection("127.0.0.1", proxy.port, context=proxy.ssl_context())
    headers = {
        "Cookie": cookie,
        "Content-Type": "application/x-www-form-urlencoded",
        "Origin": f"https://127.0.0.1:{proxy.port}",
        "Referer": f"https://127.0.0.1:{proxy.port}/",
    }
    try:
        conn.request("POST", path, body=body, headers=headers)
        return conn.getresponse().status
    finally:
        conn.close()


def csrf_cookie(headers: Message) -> str:
    jar: SimpleCookie = SimpleCookie()
    for value in headers.get_all("set-cookie") or []:
        jar.load(value)
    return jar["csrftoken"].value


def varies(headers: Message) -> set[str]:
    """Every name of every Vary header (the app's and nginx's come as separate headers)."""
    return {
        name.strip().lower() for value in headers.get_all("vary") or [] for name in value.split(",")
    }


def secrets_of(html: str) -> set[str]:
    found = TOKEN.findall(html)
    assert found, "the page has no form token"
    return {_unmask_cipher_token(token) for token in found}


def stored(proxy: Proxy, path: str) -> bool:
    """Whether the store holds the page of ``path`` at the current generation."""
    generation, page = pagecache.store_read(f"ft:page:127.0.0.1:{proxy.port}:en:{path}")
    return page is not None and page[0] == generation


@pytest.fixture(autouse=True)
def page_store_on(page_store_off: None, settings) -> None:
    """This process bumps the servers' store (a result verified here, as a worker would)."""
    settings.FT_PAGE_CACHE_SECONDS = 60


@pytest.fixture
def ada() -> User:
    user = User.objects.create(username=f"ada-{uuid.uuid4().hex[:8]}")
    user.password = PBKDF2PasswordHasher().encode("x" * 16, "pagesalt", iterations=1000)
    user.save()
    return user


def test_no_player_s_page_or_token_reaches_another_client(stack, ada: User) -> None:
    proxy, _, _ = stack
    pagecache.pages_stale()
    signed_in = session_cookie(ada)
    status, _, page = get(proxy, "/", signed_in)
    assert status == 200 and ada.username in page
    assert not stored(proxy, "/")  # a signed-in page is never stored
    status, first_headers, first = get(proxy, "/")
    assert status == 200 and ada.username not in first
    assert stored(proxy, "/")
    status, second_headers, second = get(proxy, "/")
    assert status == 200 and ada.username not in second
    first_secret, second_secret = csrf_cookie(first_headers), csrf_cookie(second_headers)
    assert first_secret != second_secret
    assert secrets_of(first) == {first_secret} and secrets_of(second) == {second_secret}
    assert TOKEN.sub("", first) == TOKEN.sub("", second)  # the same page, its own token
    for name in SECURITY_HEADERS:  # the app's headers on a stored page as on a rendered one
        assert second_headers[name] is not None and second_headers[name] == first_headers[name]
    assert varies(second_headers) == varies(first_headers) >= {"cookie", "accept-language"}
    # The signed-in player still gets her own page, not the stored one.
    status, _, again = get(proxy, "/", signed_in)
    assert status == 200 and ada.username in again and secrets_of(again) != {second_secret}


def test_a_token_from_the_store_is_accepted_by_a_form(stack) -> None:
    proxy, _, _ = stack
    get(proxy, "/rules/")
    assert stored(proxy, "/rules/")
    _, headers, page = get(proxy, "/rules/")
    secret = csrf_cookie(headers)
    token = TOKEN.search(page).group(1)  # type: ignore[union-attr]
    status = post(
        proxy, "/i18n/setlang/", f"language=it&csrfmiddlewaretoken={token}", f"csrftoken={secret}"
    )
    assert status == 302
    # Another visitor's token is refused with this visitor's cookie.
    _, other_headers, _ = get(proxy, "/rules/")
    stranger = csrf_cookie(other_headers)
    refused = post(
        proxy, "/i18n/setlang/", f"language=it&csrfmiddlewaretoken={token}", f"csrftoken={stranger}"
    )
    assert refused == 403


def test_a_new_result_shows_on_the_next_visitor_page(stack, ada: User) -> None:
    proxy, _, _ = stack
    deal = services.deal_open_daily(day=timezone.now().date())
    path = f"/boards/daily/{deal.day.isoformat()}/"
    status, _, before = get(proxy, path)
    assert status == 200 and ada.username not in before
    assert stored(proxy, path)
    game = services.game_start_daily(user=ada)
    game_resign(user=ada, game_id=game.pk)
    result = result_verify(game_id=game.pk)  # the worker's step: the board, then the store
    assert result is not None and result.status == "verified"
    assert not stored(proxy, path)
    status, _, after = get(proxy, path)
    assert status == 200 and ada.username in after


async def socket_opens(proxy: Proxy) -> bool:
    day = timezone.now().date().isoformat()
    async with connect(
        f"{proxy.wss}/ws/boards/daily/{day}/",
        ssl=proxy.ssl_context(),
        origin=f"https://127.0.0.1:{proxy.port}",  # type: ignore[arg-type]
        open_timeout=10,
    ):
        return True


def test_sockets_go_to_daphne_and_pages_to_gunicorn_alone(stack) -> None:
    """Last: it stops the socket process."""
    import asyncio

    proxy, sockets, _ = stack
    assert asyncio.run(socket_opens(proxy))
    sockets.stop()
    status, _, page = get(proxy, "/rules/?fresh=1")  # rendered, not from the store
    assert status == 200 and "</html>" in page
    with pytest.raises(Exception):  # noqa: B017 - refused or 502: no socket process is left
        asyncio.run(socket_opens(proxy))
