"""The arena pages: the list reached from the duels page, an arena with its standings and
Join/Leave (POSTs with CSRF), a round's game on its table, and the refusals as pages with
their status, in the visitor's language."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import services
from games.arenas.models import ArenaEntry
from tests.games.arenas.conftest import game_of

pytestmark = pytest.mark.django_db(transaction=True)


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_duels_page_leads_to_the_arenas(user, arena) -> None:
    hub = client_of(user).get(reverse("duels")).content.decode()
    assert 'data-testid="duels-arenas"' in hub and reverse("arenas") in hub
    page = Client().get(reverse("arenas"))
    assert page.status_code == 200
    running = page.content.decode().split('data-testid="arenas-running-list"')[1]
    assert reverse("arena", args=[arena.pk]) in running.split("</ul>")[0]


def test_the_list_keeps_upcoming_running_and_finished_apart(db, wall_clock) -> None:
    later = services.arena_create(
        starts_at=timezone.now() + timedelta(hours=1), minutes=45, round_minutes=5
    )
    page = Client().get(reverse("arenas")).content.decode()
    upcoming = page.split('data-testid="arenas-upcoming-list"')[1].split("</ul>")[0]
    assert reverse("arena", args=[later.pk]) in upcoming
    assert 'data-testid="arenas-running-list"' not in page


def test_a_player_joins_sees_the_table_plays_the_round_and_leaves(user, bob, arena) -> None:
    ada = client_of(user)
    page = ada.get(reverse("arena", args=[arena.pk])).content.decode()
    assert 'data-testid="arena-join"' in page and "csrfmiddlewaretoken" in page
    joined = ada.post(reverse("arena_join", args=[arena.pk]))
    assert joined.status_code == 302
    services.arena_join(user=bob, arena_id=arena.pk)
    services.arena_round_open(arena=arena, number=1)
    page = ada.get(reverse("arena", args=[arena.pk])).content.decode()
    assert 'data-testid="arena-entered"' in page and 'data-testid="arena-leave"' in page
    standings = page.split('data-testid="arena-standings"')[1].split("</table>")[0]
    assert "ada" in standings and "bob" in standings and "board-me" in standings
    game = game_of(arena, 1, user)
    assert reverse("game", args=[game.pk]) in page
    table = ada.get(reverse("game", args=[game.pk]))
    assert table.status_code == 200 and "Arena" in table.content.decode()
    left = ada.post(reverse("arena_leave", args=[arena.pk]))
    assert left.status_code == 302
    assert ArenaEntry.objects.get(player=user).left_at is not None


def test_joining_twice_is_refused_with_a_page(user, arena) -> None:
    ada = client_of(user)
    ada.post(reverse("arena_join", args=[arena.pk]))
    refused = ada.post(reverse("arena_join", args=[arena.pk]))
    assert refused.status_code == 409
    assert "You are in this arena already." in refused.content.decode()


def test_an_entry_past_the_close_is_refused_in_the_visitors_language(
    user, arena, wall_clock
) -> None:
    wall_clock.shift(timedelta(minutes=16))
    ada = client_of(user)
    refused = ada.post(reverse("arena_join", args=[arena.pk]), HTTP_ACCEPT_LANGUAGE="nl")
    assert refused.status_code == 409
    assert "This arena takes no more entries" not in refused.content.decode()
    assert not ArenaEntry.objects.exists()


def test_a_join_names_only_the_signed_in_player(user, bob, arena) -> None:
    client_of(user).post(reverse("arena_join", args=[arena.pk]), {"player": bob.pk})
    assert list(ArenaEntry.objects.values_list("player", flat=True)) == [user.pk]


def test_a_join_without_the_csrf_token_is_refused(user, arena) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post(reverse("arena_join", args=[arena.pk])).status_code == 403
    assert not ArenaEntry.objects.exists()


def test_a_visitor_is_sent_to_sign_in_and_a_join_by_get_is_refused(user, arena) -> None:
    assert Client().post(reverse("arena_join", args=[arena.pk])).status_code == 302
    assert client_of(user).get(reverse("arena_join", args=[arena.pk])).status_code == 405
    assert not ArenaEntry.objects.exists()


def test_flooding_join_and_leave_is_refused_with_a_retry_hint(user, arena, settings) -> None:
    from ftsite.rates import Rate

    settings.FT_RATE_ARENA_ACTIONS = Rate(2, 600)
    ada = client_of(user)
    ada.post(reverse("arena_join", args=[arena.pk]))
    ada.post(reverse("arena_leave", args=[arena.pk]))
    refused = ada.post(reverse("arena_join", args=[arena.pk]))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0


def test_an_unknown_arena_is_not_found(db) -> None:
    assert Client().get(reverse("arena", args=[999999])).status_code == 404


def test_the_api_shows_an_arena_game_to_its_player(user, arena) -> None:
    _, token = services.api_token_create(user=user, name="mine")
    services.arena_join(user=user, arena_id=arena.pk)
    services.arena_round_open(arena=arena, number=1)
    game = game_of(arena, 1, user)
    answer = Client().get(f"/api/v1/games/{game.pk}", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert answer.status_code == 200
    body = answer.json()
    assert body["mode"] == "arena" and body["deal"]["code"] is None


def test_a_rounds_table_is_offered_from_its_open_not_before(user, arena) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    early = arena.starts_at + timedelta(minutes=5) - timedelta(seconds=30)
    services.arena_round_open(arena=arena, number=2, now=early)
    game = game_of(arena, 2, user)
    page = client_of(user).get(reverse("arena", args=[arena.pk])).content.decode()
    assert 'data-testid="arena-next"' in page and reverse("game", args=[game.pk]) not in page


def test_the_arena_page_listens_to_its_live_table(user, arena) -> None:
    services.arena_join(user=user, arena_id=arena.pk)
    entry = ArenaEntry.objects.get(player=user)
    page = client_of(user).get(reverse("arena", args=[arena.pk])).content.decode()
    assert f'data-arena-socket="/ws/arenas/{arena.pk}/"' in page
    assert f'data-arena-entry="{entry.pk}"' in page
    assert 'id="arena-row"' in page and "dist/duel.js" in page


def test_an_arena_number_past_the_keys_range_is_not_found(user) -> None:
    huge = "9" * 30
    assert Client().get(f"/arenas/{huge}/").status_code == 404
    assert client_of(user).post(f"/arenas/{huge}/join/").status_code == 404
