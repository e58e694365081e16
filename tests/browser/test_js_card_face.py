"""The card faces as drawn (static/js/board/card-art.js) in Chromium: every 2-10 draws as
many pips as its rank; a court card draws a figure, mirrored, and no pips. The layouts
themselves (inside the card, clear of each other, the lower half turned) are pure:
tests/js/card-face.test.js, run by node --test and in Chromium (test_js_cases.py)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

UNITS_PATH = "/__js_card_face__/"
PAGE = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>faces</title></head>'
    "<body></body></html>"
)
FACES = """async () => {
  const face = await import("/static/js/board/card-face.js");
  const art = await import("/static/js/board/card-art.js");
  const out = {};
  for (const rank of "A23456789TJQK") {
    const svg = art.drawFace(rank + "S");
    out[rank] = {
      pips: face.pipLayout(rank), size: face.pipSize(rank), court: face.isCourt(rank),
      drawnPips: svg.querySelectorAll(".ft-face__pip").length,
      drawnParts: svg.querySelectorAll(".ft-face__court path").length,
      width: face.CARD_W, height: face.CARD_H,
    };
  }
  return out;
}"""
VALUES = {"A": 1, "T": 10, **{str(n): n for n in range(2, 10)}}


@pytest.fixture
def faces(page: Any, live_url: str) -> dict[str, Any]:
    url = live_url + UNITS_PATH
    page.route(url, lambda route: route.fulfill(content_type="text/html", body=PAGE))
    page.goto(url)
    return page.evaluate(FACES)


def test_every_pip_card_draws_as_many_pips_as_its_rank(faces: dict[str, Any]) -> None:
    for rank, value in VALUES.items():
        assert faces[rank]["drawnPips"] == value, rank


def test_a_court_card_draws_a_mirrored_figure_and_no_pips(faces: dict[str, Any]) -> None:
    for rank in "JQK":
        face = faces[rank]
        assert face["court"] and face["pips"] == []
        # The upper figure and its mirror, each with its parts.
        assert face["drawnParts"] >= 10, rank
        # The small suit beside each of the two heads.
        assert face["drawnPips"] == 2, rank
