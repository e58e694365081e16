"""The plain pages: home with today's deal, practice, the game page and my games."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ftsite.rates import Rate
from games import services
from games.daily import utc_today
from games.engine import VARIANTS
from games.errors import BadRequest
from games.models import Action, Deal, Game, User
from games.runtime.live import engine_for
from tests.support.games import game_play, game_resign

pytestmark = pytest.mark.django_db

PRACTICE_CODE = "FT1-N-0000007"


def today_deal() -> Deal:
    return services.deal_open_daily(day=utc_today(timezone.now()))


def assert_no_secret(html: str, deal: Deal) -> None:
    assert deal.code not in html
    assert deal.seed_hex not in html
    assert deal.salt not in html


# Home ------------------------------------------------------------------------


def test_home_shows_the_commitment_and_never_the_code_before_close(client: Client) -> None:
    deal = today_deal()
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert deal.commitment in html
    assert deal.day.isoformat() in html
    assert_no_secret(html, deal)


def test_home_hides_the_code_from_a_player_who_has_started(client: Client, user: User) -> None:
    deal = today_deal()
    game = services.game_start_daily(user=user)
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert deal.commitment in html
    assert reverse("game", args=[game.pk]) in html and "Continue today's deal" in html
    assert_no_secret(html, deal)


def test_home_counts_down_to_midnight_utc(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    match = re.search(
        r'<time datetime="([^"]+)">closes in <span class="countdown" data-countdown>'
        r"(\d\d):(\d\d)</span></time>",
        html,
    )
    assert match is not None
    tomorrow = utc_today(timezone.now()).toordinal() + 1
    assert match.group(1).startswith(
        f"{timezone.datetime.fromordinal(tomorrow).date().isoformat()}T00:00:00"
    )
    assert 0 <= int(match.group(2)) <= 24 and 0 <= int(match.group(3)) < 60
    assert "js/countdown.js" in html  # ticks it to the second in the browser


def test_home_offers_a_visitor_to_log_in_and_a_player_to_play(client: Client, user: User) -> None:
    html = client.get(reverse("home")).content.decode()
    assert reverse("login") in html and reverse("practice") in html
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert f'action="{reverse("play_daily")}"' in html and "Play today's deal" in html


def test_home_links_to_the_result_once_the_daily_game_is_over(client: Client, user: User) -> None:
    game = services.game_start_daily(user=user)
    game_resign(user=user, game_id=game.pk)
    client.force_login(user)
    html = client.get(reverse("home")).content.decode()
    assert "See your result" in html and reverse("game", args=[game.pk]) in html


def test_play_daily_redirects_to_the_game_page(client: Client, user: User) -> None:
    client.force_login(user)
    response = client.post(reverse("play_daily"))
    game = Game.objects.get(player=user)
    assert game.mode == "ranked" and game.deal.kind == "daily"
    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[game.pk])
    # Pressing it again resumes the same game.
    assert client.post(reverse("play_daily"))["Location"] == response["Location"]
    assert Game.objects.count() == 1


def test_play_daily_asks_a_visitor_to_log_in(client: Client) -> None:
    response = client.post(reverse("play_daily"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert Game.objects.count() == 0


# Practice --------------------------------------------------------------------


def test_the_practice_page_lists_every_variant(client: Client) -> None:
    response = client.get(reverse("practice"))
    assert response.status_code == 200
    html = response.content.decode()
    assert len(VARIANTS) == 11
    for name, rules in VARIANTS.items():
        assert f'value="{name}"' in html and rules.title in html
    assert 'name="code"' in html


def test_practice_with_a_code_starts_that_deal(client: Client, user: User) -> None:
    client.force_login(user)
    response = client.post(reverse("practice"), {"code": PRACTICE_CODE, "action": "code"})
    game = Game.objects.get(player=user)
    assert response["Location"] == reverse("game", args=[game.pk])
    assert (game.mode, game.deal.code) == ("practice", PRACTICE_CODE)


def test_practice_with_a_random_deal_of_a_variant(client: Client, user: User) -> None:
    client.force_login(user)
    response = client.post(reverse("practice"), {"variant": "josephine", "action": "random"})
    game = Game.objects.get(player=user)
    assert response.status_code == 302 and game.deal.variant == "josephine"


def test_practice_with_a_bad_code_is_400_with_the_reason(client: Client, user: User) -> None:
    client.force_login(user)
    with pytest.raises(BadRequest) as caught:
        services.deal_for_code(code="FT1-Q-nonsense")
    response = client.post(reverse("practice"), {"code": "FT1-Q-nonsense", "action": "code"})
    assert response.status_code == 400
    assert response.context["form"].errors["code"] == [caught.value.reason]
    assert Game.objects.count() == 0


def test_practice_without_a_code_asks_for_one(client: Client, user: User) -> None:
    client.force_login(user)
    response = client.post(reverse("practice"), {"code": " ", "action": "code"})
    assert response.status_code == 400 and "code" in response.context["form"].errors


# The game page ---------------------------------------------------------------


def test_the_game_page_shows_the_state_and_a_move_form_to_its_player(
    client: Client, user: User
) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert PRACTICE_CODE in html  # practice codes are public
    assert f'action="{reverse("game_act", args=[game.pk])}"' in html  # in <noscript>
    # The raw state is a developer's view (?dev=1, or staff).
    assert 'class="game-state"' not in html
    html = client.get(reverse("game", args=[game.pk]) + "?dev=1").content.decode()
    assert "<pre" in html and "&quot;legal_moves&quot;" in html


def test_the_daily_game_page_keeps_the_deal_secret(client: Client, user: User) -> None:
    game = services.game_start_daily(user=user)
    client.force_login(user)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'data-testid="deal-code"' not in html
    assert_no_secret(html, game.deal)
    html = client.get(reverse("game", args=[game.pk]) + "?dev=1").content.decode()
    assert "secret until the day closes" in html
    assert_no_secret(html, game.deal)


def test_the_game_page_of_another_users_daily_game_is_403(
    client: Client, user: User, bob: User
) -> None:
    game = services.game_start_daily(user=user)
    client.force_login(bob)
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 403
    assert_no_secret(response.content.decode(), game.deal)
    client.logout()
    # An anonymous visitor is asked to sign in first (the game may be watchable then).
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))


def test_a_watcher_sees_a_practice_game_without_the_move_form(
    client: Client, user: User, bob: User
) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(bob)
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    assert reverse("game_act", args=[game.pk]) not in response.content.decode()


def test_an_unknown_game_is_404(client: Client, user: User) -> None:
    client.force_login(user)
    assert client.get(reverse("game", args=[uuid.uuid4()])).status_code == 404
    assert client.get("/games/not-a-uuid/").status_code == 404


def _act(client: Client, game: Game, **data: object) -> list[str]:
    response = client.post(reverse("game_act", args=[game.pk]), data, follow=True)
    assert response.redirect_chain == [(reverse("game", args=[game.pk]), 302)]
    return [str(m) for m in response.context["messages"]]


def test_acting_on_a_game_via_the_plain_form_works(client: Client, user: User) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    messages = _act(client, game, type="move", move="s", version=0, client_id="f1")
    assert messages and messages[0].startswith("Accepted s")
    game.refresh_from_db()
    assert game.version == 1 and Action.objects.get(game=game).move == "s"
    # The same form sent twice (a reload) applies once.
    messages = _act(client, game, type="move", move="s", version=0, client_id="f1")
    assert messages == ["That action was already applied."]
    assert _act(client, game, type="undo", version=1)[0].startswith("Accepted undo")
    assert _act(client, game, type="resign")[0].startswith("Accepted resign")
    game.refresh_from_db()
    assert game.status == "resigned" and game.version == 3


def test_a_refused_move_shows_the_engines_reason(client: Client, user: User) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    messages = _act(client, game, type="move", move="t1-f1")
    # In the board's words (games/refusal_words.py), not the engine's English reason.
    assert messages == ["The spades foundation takes only spades, not the king of clubs."]
    game.refresh_from_db()
    assert game.version == 0


def test_a_stale_form_and_undo_in_a_ranked_game_are_refused(client: Client, user: User) -> None:
    game = services.game_start_daily(user=user)
    client.force_login(user)
    assert _act(client, game, type="undo") == ["Ranked games have no undo."]
    _act(client, game, type="move", move="s", version=0)
    messages = _act(client, game, type="move", move="s", version=0)
    assert messages[0].startswith("The table changed since this page was shown")
    game.refresh_from_db()
    assert game.version == 1 and engine_for(game).stock_count == 63


def test_a_move_form_without_a_move_is_refused(client: Client, user: User) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    assert _act(client, game, type="move", move="") == ["Enter a move, such as s or t3-f1."]


def test_another_player_cannot_act(client: Client, user: User, bob: User) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(bob)
    assert _act(client, game, type="resign") == ["only the game's player may play it"]
    game.refresh_from_db()
    assert game.status == "active"
    unknown = client.post(reverse("game_act", args=[uuid.uuid4()]), {"type": "resign"})
    assert unknown.status_code == 404


# My games --------------------------------------------------------------------


def test_my_games_lists_only_mine_paginated(client: Client, user: User, bob: User) -> None:
    services.game_start_practice(user=bob, code=PRACTICE_CODE)
    mine = [services.game_start_practice(user=user, code=PRACTICE_CODE) for _ in range(21)]
    client.force_login(user)
    first = client.get(reverse("my_games"))
    assert first.status_code == 200
    assert first.context["listing"]["count"] == 21 and first.context["listing"]["pages"] == 2
    assert reverse("game", args=[mine[-1].pk]) in first.content.decode()
    second = client.get(reverse("my_games"), {"page": "2"})
    assert reverse("game", args=[mine[0].pk]) in second.content.decode()
    assert client.get(reverse("my_games"), {"page": "x"}).status_code == 200


def test_my_games_shows_an_abandoned_practice_start_as_not_started(
    client: Client, user: User
) -> None:
    idle = services.game_start_practice(user=user, code=PRACTICE_CODE)
    played = services.game_start_practice(user=user, code=PRACTICE_CODE)
    game_play(user=user, game_id=played.pk, move="s")
    client.force_login(user)
    rows = {g["id"]: g for g in client.get(reverse("my_games")).context["listing"]["games"]}
    assert rows[str(idle.pk)]["not_started"] is True
    assert rows[str(played.pk)]["not_started"] is False
    page = client.get(reverse("my_games")).content.decode()
    assert page.count('data-testid="not-started"') == 1
    assert reverse("game_discard", args=[idle.pk]) in page
    assert reverse("game_discard", args=[played.pk]) not in page


def test_a_player_discards_an_abandoned_practice_start(client: Client, user: User) -> None:
    idle = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    response = client.post(reverse("game_discard", args=[idle.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("my_games")
    assert "The practice game was discarded." in response.content.decode()
    assert not Game.objects.filter(pk=idle.pk).exists()


def test_it_refuses_to_discard_a_game_with_a_move_or_another_players(
    client: Client, user: User, bob: User
) -> None:
    played = services.game_start_practice(user=user, code=PRACTICE_CODE)
    game_play(user=user, game_id=played.pk, move="s")
    theirs = services.game_start_practice(user=bob, code=PRACTICE_CODE)
    ranked = services.game_start_daily(user=user)
    client.force_login(user)
    for game, words in (
        (played, "only a practice game with no move yet can be discarded"),
        (theirs, ""),
        (ranked, "only a practice game can be discarded"),
    ):
        response = client.post(reverse("game_discard", args=[game.pk]), follow=True)
        assert response.status_code == 200  # back to "My games", with the reason
        assert words in response.content.decode()
        assert Game.objects.filter(pk=game.pk).exists()
    assert client.get(reverse("game_discard", args=[played.pk])).status_code == 405


def test_discarding_is_limited_as_practice_starts_are(client: Client, user: User, settings) -> None:
    settings.FT_RATE_PRACTICE_STARTS = Rate.parse("2/min")
    first = services.game_start_practice(user=user, code=PRACTICE_CODE)
    second = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    response = client.post(reverse("game_discard", args=[first.pk]), follow=True)
    assert "too many practice games started or discarded: at most 2" in response.content.decode()
    assert Game.objects.filter(pk__in=[first.pk, second.pk]).count() == 2


def test_my_games_needs_a_login(client: Client) -> None:
    response = client.get(reverse("my_games"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_healthz_is_ok(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200 and response.content == b"ok"
