"""The rules page's pictures (games/rules_pictures.py): each example is a move the
classic rules allow, the position after it is the one the move leaves, and the page
embeds every position with a table for the board's renderer to draw it in."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import GameState
from games.engine.cards import parse_card, rank_of, suit_of
from games.engine.rules import CLASSIC
from games.rules_pictures import DEAL_CODE, EXAMPLES, example_positions, rules_pictures

SUITS = "SHDC"


def tops(board: dict) -> list[str | None]:
    return [c["cards"][-1] if c["cards"] else None for c in board["columns"]]


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_each_example_is_a_move_the_classic_rules_allow(name: str) -> None:
    example = EXAMPLES[name]
    before = example_positions(example)["before"]
    card = tops(before)[int(example.source[1:]) - 1]
    assert card is not None, "the move's source has an exposed card"
    if example.target.startswith("f"):
        top = before["foundations"][0]["top"]
        # A foundation takes the next card of its own suit (the engine's foundation rule).
        assert SUITS[suit_of(parse_card(card))] == before["foundations"][0]["suit"]
        assert rank_of(parse_card(card)) == (rank_of(parse_card(top)) if top else 0) + 1
    else:
        onto = tops(before)[int(example.target[1:]) - 1]
        if onto is None:
            # An empty column takes any card in the classic game (not only a king), but
            # not a column's last card: that move would change nothing (the engine's rule).
            assert CLASSIC.space != "kings"
            assert len(before["columns"][int(example.source[1:]) - 1]["cards"]) > 1
        else:
            assert CLASSIC.fits_on(parse_card(card), parse_card(onto)), (card, onto)


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_the_position_after_is_the_one_the_move_leaves(name: str) -> None:
    example = EXAMPLES[name]
    positions = example_positions(example)
    before, after = positions["before"], positions["after"]
    source = int(example.source[1:]) - 1
    card = before["columns"][source]["cards"][-1]
    assert after["columns"][source]["cards"] == before["columns"][source]["cards"][:-1]
    if example.target.startswith("f"):
        assert after["foundations"][0]["top"] == card
    else:
        target = int(example.target[1:]) - 1
        assert after["columns"][target]["cards"] == [*before["columns"][target]["cards"], card]
    moved = sum(len(c["cards"]) for c in before["columns"]) - sum(
        len(c["cards"]) for c in after["columns"]
    )
    assert moved == (1 if example.target.startswith("f") else 0)


def test_the_deal_is_the_engines_opening_of_its_code() -> None:
    deal = rules_pictures()["deal"]
    view = GameState.from_code(DEAL_CODE).view()
    assert deal["columns"] == view["columns"] and deal["stock"] == view["stock"] == 64
    assert [len(c["cards"]) for c in deal["columns"]] == [4] * 10


@pytest.mark.django_db
def test_the_rules_page_embeds_every_picture_with_a_table_to_draw_it_in(client: Client) -> None:
    html = client.get(reverse("rules")).content.decode()
    data = json.loads(re.search(r'id="rules-pictures"[^>]*>(.*?)</script>', html, re.S)[1])  # type: ignore[index]
    assert data == json.loads(json.dumps(rules_pictures()))
    boards = re.findall(r'data-rules-board="([^"]+)"', html)
    assert boards == ["deal"] + [f"{n}:{s}" for n in EXAMPLES for s in ("before", "after")]
    assert "js/rules-pictures.js" in html and "css/board.css" in html
    # No inline style: the page keeps to the Content-Security-Policy's style-src 'self'.
    assert " style=" not in html
