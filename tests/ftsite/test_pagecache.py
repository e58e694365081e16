"""The visitors' page store (ftsite.pagecache): a signed-out visitor's page is served from
the cache with that visitor's own CSRF token; a signed-in page, a page with a message or a
session, and a query string are never stored; a result landing makes every page stale."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ftsite import pagecache
from games.models import User
from tests.support.fresh_settings import setting_in_new_process

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([A-Za-z0-9]{64})"')


@pytest.fixture(autouse=True)
def store_on(settings) -> None:
    settings.FT_PAGE_CACHE_SECONDS = 30
    cache.clear()


def visit(client: Client, path: str = "/") -> tuple[str, int]:
    """The page's HTML and how many queries serving it took."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def tokens(html: str) -> set[str]:
    found = set(TOKEN.findall(html))
    assert found, "the page has no form token"
    return found


def test_the_second_visitor_is_served_from_the_store_without_a_query() -> None:
    first, rendered = visit(Client())
    second, served = visit(Client())
    assert rendered > 0 and served == 0
    assert TOKEN.sub("", first) == TOKEN.sub("", second)


def test_each_visitor_gets_a_token_of_their_own_secret_never_another_s() -> None:
    ada, bob = Client(), Client()
    ada_page, _ = visit(ada)
    bob_page, served = visit(bob)
    assert served == 0
    ada_secret = ada.cookies["csrftoken"].value
    bob_secret = bob.cookies["csrftoken"].value
    assert ada_secret != bob_secret
    assert {_unmask_cipher_token(t) for t in tokens(bob_page)} == {bob_secret}
    assert {_unmask_cipher_token(t) for t in tokens(ada_page)} == {ada_secret}
    assert ada_secret not in bob_page and pagecache.TOKEN_HOLE not in bob_page


def test_a_token_from_the_store_is_accepted_by_a_form() -> None:
    visit(Client())
    bob = Client(enforce_csrf_checks=True)
    page, served = visit(bob)
    assert served == 0
    token = next(iter(tokens(page)))
    answer = bob.post(reverse("set_language"), {"language": "it", "csrfmiddlewaretoken": token})
    assert answer.status_code == 302


def test_a_visitor_with_a_cookie_token_keeps_it() -> None:
    visit(Client())
    carol = Client()
    carol.cookies["csrftoken"] = "a" * 32
    page, served = visit(carol)
    assert served == 0
    assert {_unmask_cipher_token(t) for t in tokens(page)} == {"a" * 32}


def test_a_signed_in_page_is_never_stored_nor_served_from_the_store() -> None:
    user = User.objects.create_user(username="ada-signed-in", password="x" * 12)
    signed_in = Client()
    signed_in.force_login(user)
    page, _ = visit(signed_in)
    assert "ada-signed-in" in page
    visitor_page, queries = visit(Client())
    assert queries > 0 and "ada-signed-in" not in visitor_page
    again, queries = visit(signed_in)
    assert queries > 0 and "ada-signed-in" in again


def test_a_request_with_a_session_or_messages_cookie_is_rendered() -> None:
    visit(Client())
    with_session = Client()
    with_session.cookies["sessionid"] = "whatever"
    assert visit(with_session)[1] > 0
    with_messages = Client()
    with_messages.cookies["messages"] = "whatever"
    assert visit(with_messages)[1] > 0


def test_an_answer_that_sets_a_cookie_or_is_private_is_not_stored(rf) -> None:
    from django.http import HttpResponse

    request = rf.get("/")
    plain = HttpResponse("<p>page</p>")
    assert pagecache.response_storable(request, plain)
    with_cookie = HttpResponse("<p>page</p>")
    with_cookie.set_cookie("messages", "a message for this visitor")
    assert not pagecache.response_storable(request, with_cookie)
    private = HttpResponse("<p>page</p>")
    private["Cache-Control"] = "max-age=0, no-cache, no-store, must-revalidate, private"
    assert not pagecache.response_storable(request, private)
    json = HttpResponse("{}", content_type="application/json")
    assert not pagecache.response_storable(request, json)


def test_a_query_string_is_never_stored() -> None:
    visit(Client(), "/?x=1")
    assert visit(Client(), "/?x=1")[1] > 0


def test_a_result_landing_makes_every_page_stale() -> None:
    visit(Client())
    assert visit(Client())[1] == 0
    pagecache.pages_stale()
    assert visit(Client())[1] > 0
    assert visit(Client())[1] == 0


def test_the_language_is_part_of_the_key() -> None:
    visit(Client())
    page, queries = visit(Client(HTTP_ACCEPT_LANGUAGE="it"))
    assert queries > 0 and 'lang="it"' in page


def test_it_stores_nothing_when_turned_off(settings) -> None:
    settings.FT_PAGE_CACHE_SECONDS = 0
    visit(Client())
    assert visit(Client())[1] > 0
    pagecache.pages_stale()
    assert cache.get(pagecache.GENERATION_KEY) is None


def test_it_reads_a_token_s_secret_as_django_does() -> None:
    from django.middleware.csrf import _get_new_csrf_string, _mask_cipher_secret

    for _ in range(20):
        secret = _get_new_csrf_string()
        token = _mask_cipher_secret(secret)
        assert pagecache.token_secret(token) == _unmask_cipher_token(token) == secret


def test_a_page_that_shows_the_secret_itself_is_not_stored() -> None:
    secret = "b" * 32
    assert pagecache.page_holed(f"<p>{secret}</p>", secret) is None
    assert pagecache.page_holed("<p>nothing</p>", secret) == "<p>nothing</p>"


def test_the_store_is_off_on_the_embedded_defaults_and_refuses_a_bad_value() -> None:
    assert setting_in_new_process("FT_PAGE_CACHE_SECONDS") == "0"
    assert (
        setting_in_new_process("FT_PAGE_CACHE_SECONDS", REDIS_URL="redis://127.0.0.1:6379/5")
        == "30"
    )
    with pytest.raises(AssertionError, match="FT_PAGE_CACHE_SECONDS"):
        setting_in_new_process("FT_PAGE_CACHE_SECONDS", FT_PAGE_CACHE_SECONDS="soon")
