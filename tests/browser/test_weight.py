"""The play table's weight as a player's browser sees it (issue 36): the requests the page
makes until the board is connected, and their bytes as a proxy compresses them (gzip -6,
as nginx's gzip_comp_level defaults; the socket is not a request). Timings (first paint,
"Connected") are measured in benchmarks/page_weight.py, never asserted here."""

from __future__ import annotations

import gzip
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, Request

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

CONNECTED = '[data-testid="connection"][data-state="connected"]'
MAX_REQUESTS = 6
MAX_KB = 90


def table_requests(page: Page, url: str) -> list[tuple[str, int, int]]:
    """(url, bytes, gzip bytes) of every HTTP request of the page until it is connected."""
    seen: list[Request] = []
    page.on("requestfinished", lambda request: seen.append(request))
    page.goto(url)
    page.locator(CONNECTED).wait_for()
    page.wait_for_load_state("load")
    rows = []
    for request in seen:
        response = request.response()
        body = response.body() if response is not None else b""
        rows.append((request.url, len(body), len(gzip.compress(body, compresslevel=6))))
    return rows


@pytest.mark.parametrize("language", ["en", "fi"])
def test_the_table_loads_in_six_requests_and_under_90_kb(
    new_page: Callable[..., Page],
    start_practice: Callable[[Page, str], str],
    sign_up: Callable[[Page], str],
    language: str,
) -> None:
    page = new_page(size=(1366, 900), locale=language)
    sign_up(page)
    url = start_practice(page, "FT1-N-0000007")
    fresh = new_page(size=(1366, 900), locale=language, storage_state=page.context.storage_state())
    rows = table_requests(fresh, url)
    report = "\n".join(f"{gz:>7} {raw:>7} {u}" for u, raw, gz in rows)
    print(f"\n{language}: {len(rows)} requests, {sum(gz for _, _, gz in rows)} B gzip\n{report}")
    assert len(rows) <= MAX_REQUESTS, f"{len(rows)} requests:\n{report}"
    assert sum(gz for _, _, gz in rows) <= MAX_KB * 1024, report
    kinds: Any = {u.rsplit("/", 1)[-1] for u, _, _ in rows}
    assert {"table.js", "table.css"} <= kinds, report
