"""ftsite.pagecache.fragment_cached: what every viewer sees alike, computed once per
generation of the page store, again once a result lands; every time with the store off or
its cache down. And a signed-in player's home page reads its shared part from it."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ftsite import pagecache
from ftsite.pagecache import fragment_cached
from games.models import User


@pytest.fixture(autouse=True)
def store_on(settings) -> None:
    settings.FT_PAGE_CACHE_SECONDS = 30
    cache.clear()


def counting() -> tuple[list[int], object]:
    calls: list[int] = []

    def compute() -> int:
        calls.append(1)
        return len(calls)

    return calls, compute


def test_it_computes_once_for_every_viewer_until_a_result_lands() -> None:
    calls, compute = counting()
    assert [fragment_cached(key="k", compute=compute) for _ in range(3)] == [1, 1, 1]
    pagecache.pages_stale()
    assert fragment_cached(key="k", compute=compute) == 2
    assert fragment_cached(key="other", compute=compute) == 3  # each key its own
    assert len(calls) == 3


def test_a_result_landing_while_it_computes_leaves_it_stale(settings) -> None:
    def compute() -> str:
        pagecache.pages_stale()  # a result lands between the read and the write
        return "before the result"

    assert fragment_cached(key="k", compute=compute) == "before the result"
    assert fragment_cached(key="k", compute=lambda: "after") == "after"


def test_with_the_store_off_it_computes_every_time(settings) -> None:
    settings.FT_PAGE_CACHE_SECONDS = 0
    calls, compute = counting()
    fragment_cached(key="k", compute=compute)
    fragment_cached(key="k", compute=compute)
    assert len(calls) == 2


def test_a_cache_that_does_not_answer_costs_only_the_computing() -> None:
    calls, compute = counting()
    with mock.patch.object(pagecache, "store_read", side_effect=ConnectionError("down")):
        assert fragment_cached(key="k", compute=compute) == 1
    with mock.patch.object(pagecache, "store_write", side_effect=ConnectionError("down")):
        assert fragment_cached(key="k", compute=compute) == 2
    assert len(calls) == 2


@pytest.mark.django_db
def test_a_signed_in_home_page_reads_todays_top_once_for_all_players(client: Client) -> None:
    def home_queries(user: User) -> int:
        client.force_login(user)
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/").status_code == 200
        return len(queries)

    ada, bea = (
        User.objects.create_user(username=n, password="pw-long-enough") for n in ("ada", "bea")
    )
    first = home_queries(ada)
    second = home_queries(bea)
    assert second < first  # the top five and the counts came from the fragment
    pagecache.pages_stale()
    assert home_queries(ada) == first
