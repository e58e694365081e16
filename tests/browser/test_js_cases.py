"""The board's pure modules' unit tests (tests/js/*.test.js) run in Chromium, on the modules
as the site serves them: the same files ``node --test`` runs (make test-js), so one set of
cases has two runners, Node's and the browser the board really runs in.

Each file runs on a blank page of the live server's origin (Playwright's router serves it,
and the test files from disk under ``/tests/js/``): an import map sends the files'
``node:test`` and ``node:assert/strict`` to the small stand-ins in tests/js/browser/, whose
``run()`` reports every case. A file's imports of ``../../static/js/...`` then resolve to the
live server's static files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "js"
FILES = sorted(path.name for path in CASES.glob("*.test.js"))
IMPORT_MAP = {
    "imports": {
        "node:test": "/tests/js/browser/test.js",
        "node:assert/strict": "/tests/js/browser/assert.js",
    }
}
PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>JS cases</title>'
    f'<script type="importmap">{json.dumps(IMPORT_MAP)}</script></head><body></body></html>'
)
RUN = """async (file) => {
  const runner = await import("node:test");
  await import(`/tests/js/${file}`);
  return runner.run();
}"""


def _serve_file(route: Any) -> None:
    name = route.request.url.split("/tests/js/", 1)[1].split("?", 1)[0]
    path = (CASES / name).resolve()
    if CASES not in path.parents or not path.is_file():
        route.fulfill(status=404, body="")
        return
    route.fulfill(content_type="text/javascript", body=path.read_text())


def test_every_pure_module_has_its_cases_here() -> None:
    expected = {"changes", "finish", "frames", "gestures", "moves", "queue", "settings"}
    expected |= {"state", "storage", "words", "card-face", "story", "place", "callout"}
    assert {name.removesuffix(".test.js") for name in FILES} >= expected


@pytest.mark.parametrize("file", FILES)
def test_the_cases_pass_in_chromium(page: Any, live_url: str, file: str) -> None:
    page.route(live_url + "/tests/js/**", _serve_file)
    page.route(
        live_url + "/__js_cases__/",
        lambda route: route.fulfill(content_type="text/html", body=PAGE),
    )
    page.goto(live_url + "/__js_cases__/")
    results = page.evaluate(RUN, file)
    # Every case of the file ran (node --test finds the same ones: test("...") at the top).
    written = re.findall(r'^test\("([^"]+)"', (CASES / file).read_text(), re.M)
    assert written and [r["name"] for r in results] == written
    failed = [f"{r['name']}: {r['error']}" for r in results if r["error"] is not None]
    assert not failed, "\n\n".join(failed)
