"""The board page: the playable board's HTML shell, its embedded state and what it never shows."""

from __future__ import annotations

import html as htmllib
import json
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import selectors, services
from games.models import Deal, Game, User
from games.runtime.live import engine_for
from tests.support.games import game_play, game_resign

pytestmark = pytest.mark.django_db

PRACTICE_CODE = "FT1-N-0000007"


def page(client: Client, game: Game) -> str:
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def embedded(html: str, element_id: str) -> dict:
    """The JSON of a ``json_script`` element."""
    match = re.search(
        rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.DOTALL
    )
    assert match is not None, f"no {element_id} script"
    return json.loads(match.group(1))


def data_cards(html: str) -> list[str]:
    return re.findall(r'data-card="([^"]*)"', html)


def test_the_player_gets_the_board_with_its_state_script_and_styles(
    client: Client, user: User
) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    html = page(client, game)
    assert "data-board" in html and 'data-status="active"' in html and 'data-version="0"' in html
    # One bundled script and stylesheet (make bundle; tests/test_bundle.py checks them).
    assert re.search(r'<script type="module" src="[^"]*dist/table\.js"></script>', html)
    assert re.search(r'<link rel="stylesheet" href="[^"]*dist/table\.css">', html)
    state = embedded(html, "game-state")
    assert state == json.loads(json.dumps(selectors.game_state(user=user, game_id=game.pk)))
    assert state["role"] == "player" and state["legal_moves"]
    config = embedded(html, "board-config")
    assert config["socket_path"] == f"/ws/games/{game.pk}/"
    assert config["story_url"] is None  # only ranked games have a story
    assert "strings" not in config  # the board's words come from /jsi18n/
    # The piles are there for the script (and tests): stock, waste, foundations, columns.
    board = state["board"]
    for pile in ["stock", "w"] + [f"f{k + 1}" for k in range(len(board["foundations"]))]:
        assert f'data-pile="{pile}"' in html
    for i in range(len(board["columns"])):
        assert f'data-pile="t{i + 1}"' in html
    assert f'data-pile="t{len(board["columns"]) + 1}"' not in html
    for testid in ("reminder", "connection", "result", "description"):
        assert f'data-testid="{testid}"' in html
    assert 'data-action="undo"' in html and 'data-action="resign"' in html


def test_foundations_show_their_fixed_suits(client: Client, user: User) -> None:
    game = services.game_start_practice(user=user, variant="sixty-thieves")
    client.force_login(user)
    html = page(client, game)
    suits = re.findall(r'data-pile="f\d+" data-suit="([SHDC])"', html)
    assert suits == list("SHDC" * 3)
    assert len(re.findall(r'data-pile="t\d+"', html)) == 12


def test_a_watcher_gets_the_same_board_read_only(client: Client, user: User, bob: User) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    for who in (bob, None):  # another player, and an anonymous visitor with the link
        client.logout()
        if who is not None:
            client.force_login(who)
        html = page(client, game)
        assert embedded(html, "game-state")["role"] == "watcher"
        assert 'data-role="watcher"' in html and "Watching ada" in html
        assert 'data-action="undo"' not in html and 'data-action="resign"' not in html
        assert reverse("game_act", args=[game.pk]) not in html
        assert "dist/table.js" in html


def test_ranked_games_have_no_undo_button_and_a_story_url(client: Client, user: User) -> None:
    game = services.game_start_daily(user=user)
    client.force_login(user)
    html = page(client, game)
    assert 'data-action="undo"' not in html and 'data-action="resign"' in html
    assert embedded(html, "board-config")["story_url"].endswith(f"/games/{game.pk}/story/")
    # The weekly challenge's ranked game tells its story too.
    weekly = services.game_start_weekly(user=user)
    config = embedded(page(client, weekly), "board-config")
    assert config["story_url"] == f"/games/{weekly.pk}/story/"


def test_the_ranked_table_says_one_attempt_and_when_it_closes_until_it_ends(
    client: Client, user: User
) -> None:
    game = services.game_start_daily(user=user)
    client.force_login(user)
    html = page(client, game)
    mark = re.search(r'<p class="ft-ranked" data-testid="ranked-mark">(.*?)</p>', html, re.DOTALL)
    assert mark is not None
    assert re.search(
        r"one attempt, no undo and no hints; it closes in <span[^>]*data-countdown>"
        r"\d\d:\d\d</span>",
        mark.group(1),
    )
    assert f'datetime="{game.deal.closes_at.isoformat()}"' in mark.group(1)
    # Not for practice, nor once the attempt is spent.
    assert "ranked-mark" not in page(
        client, services.game_start_practice(user=user, code=PRACTICE_CODE)
    )
    game_resign(user=user, game_id=game.pk)
    assert "ranked-mark" not in page(client, game)


def test_the_page_never_shows_the_stock_or_the_daily_code(client: Client, user: User) -> None:
    game = services.game_start_daily(user=user)
    for n in range(3):
        game_play(user=user, game_id=game.pk, move="s", version=n)
    game.refresh_from_db()
    client.force_login(user)
    html = page(client, game)
    raw = htmllib.unescape(html)
    # The deal's secrets, before the day closes.
    deal = game.deal
    dump = engine_for(game).dump()
    for secret in (deal.code, deal.seed_hex, deal.salt, str(dump["seed"])):
        assert secret and (len(secret) < 8 or secret not in raw)
    state = embedded(html, "game-state")
    assert state["deal"]["code"] is None and state["deal"]["salt"] is None
    # The embedded board is exactly the engine's player view: counts, not cards.
    view = engine_for(game).view()
    assert state["board"] == json.loads(json.dumps(view))
    assert state["board"]["stock"] == len(dump["stock"]) == 61
    # The stock's order appears nowhere: not as a list, not as a run of data-card.
    stock = dump["stock"]
    for start in range(0, len(stock) - 3, 3):
        run = stock[start : start + 4]
        assert json.dumps(run)[1:-1] not in raw
        assert ", ".join(f'"{c}"' for c in run) not in raw
    visible = {c for col in view["columns"] for c in col["cards"]} | set(view["waste"])
    visible |= {f["top"] for f in view["foundations"] if f["top"]}
    assert set(data_cards(html)) <= visible


def test_a_finished_game_opens_on_its_result(client: Client, user: User) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    game_resign(user=user, game_id=game.pk)
    client.force_login(user)
    html = page(client, game)
    assert 'data-status="resigned"' in html
    state = embedded(html, "game-state")
    assert state["legal_moves"] == [] and state["finished_at"]


def test_refusals_and_redirects_still_hold(client: Client, user: User, bob: User) -> None:
    game = services.game_start_daily(user=user)
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(bob)
    forbidden = client.get(reverse("game", args=[game.pk]))
    assert forbidden.status_code == 403 and "game-state" not in forbidden.content.decode()
    assert client.get(reverse("game", args=[uuid.uuid4()])).status_code == 404


def test_the_deal_code_is_shown_with_its_link_and_the_debug_details_only_to_staff(
    client: Client, user: User
) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    html = page(client, game)
    assert 'data-testid="deal-code"' in html and f'data-code="{PRACTICE_CODE}"' in html
    link = f"http://testserver{reverse('practice')}?code={PRACTICE_CODE}"
    assert f'data-link="{link}"' in html and f'href="{link}"' in html
    assert embedded(html, "board-config")["practice"] == {
        "code": PRACTICE_CODE,
        "link": link,
        "variant": "Forty Thieves",
    }
    # The raw state and the one-move form: out of the players' view (the form stays for
    # players without JavaScript, inside <noscript>).
    assert 'data-testid="dev-details"' not in html and 'class="game-state"' not in html
    noscripts = re.findall(r"<noscript>(.*?)</noscript>", html, re.S)
    assert sum("act-form" in block for block in noscripts) == 1 and html.count("act-form") == 1
    assert (
        'data-testid="dev-details"'
        in client.get(reverse("game", args=[game.pk]) + "?dev=1").content.decode()
    )
    user.is_staff = True
    user.save()
    assert 'class="game-state"' in page(client, game)


def test_a_daily_game_shows_no_deal_code_before_its_day_closes(client: Client, user: User) -> None:
    game = services.game_start_daily(user=user)
    client.force_login(user)
    html = page(client, game)
    assert 'data-testid="deal-code"' not in html
    assert embedded(html, "board-config")["practice"] is None
    # Once the day has closed, its code is no secret: shown, with its practice link.
    game_resign(user=user, game_id=game.pk)
    Deal.objects.filter(pk=game.deal_id).update(revealed_at=timezone.now())
    html = page(client, game)
    assert f'data-code="{game.deal.code}"' in html and "/practice/?code=" in html


def test_the_help_line_names_h_for_a_hint_only_where_hints_are_open(
    client: Client, user: User
) -> None:
    client.force_login(user)
    practice = services.game_start_practice(user=user, code=PRACTICE_CODE)
    ranked = services.game_start_daily(user=user)
    assert "h hint, Esc cancel" in page(client, practice)
    assert "h hint" not in page(client, ranked) and "u undo" not in page(client, ranked)
