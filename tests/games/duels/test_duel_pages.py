"""The duel pages: the hub in the menu, a challenge link made, opened and accepted, the
queue's ask, the duel page with the player's own table and the panel (and only the panel
for a watcher), the rematch; refusals as pages or JSON with their codes."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.duels.models import Duel
from tests.games.duels.conftest import act, seat_game, start_duel

pytestmark = pytest.mark.django_db(transaction=True)


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_menu_leads_to_the_duels_hub(user) -> None:
    page = client_of(user).get(reverse("home"))
    assert 'data-testid="menu-duels"' in page.content.decode()
    hub = client_of(user).get(reverse("duels"))
    assert hub.status_code == 200 and 'data-testid="duel-challenge"' in hub.content.decode()


def test_a_guest_or_visitor_is_sent_to_sign_in(db) -> None:
    assert Client().get(reverse("duels")).status_code == 302


def test_a_challenge_link_is_shown_to_its_maker_and_accepted_by_a_friend(user, bob) -> None:
    ada = client_of(user)
    made = ada.post(reverse("duel_challenge"), {"minutes": "5"})
    assert made.status_code == 302
    page = ada.get(made["Location"])
    text = page.content.decode()
    assert 'data-testid="duel-link"' in text and "/duels/join/" in text
    link = text.split('data-testid="duel-link">')[1].split("<")[0]
    friend = client_of(bob)
    invite = friend.get(link)
    assert invite.status_code == 200 and "ada" in invite.content.decode()
    accepted = friend.post(link)
    assert accepted.status_code == 302
    duel = Duel.objects.get()
    assert duel.state == Duel.State.RUNNING and duel.time_control == 300
    table = friend.get(accepted["Location"])
    body = table.content.decode()
    assert 'data-testid="duel-panel"' in body and 'id="board"' in body
    assert "dist/duel.js" in body and "dist/table.js" in body


def test_accepting_your_own_link_is_refused_with_a_page(user) -> None:
    ada = client_of(user)
    made = ada.post(reverse("duel_challenge"), {"minutes": "10"})
    link = ada.get(made["Location"]).content.decode().split('data-testid="duel-link">')[1]
    refused = ada.post(link.split("<")[0])
    assert refused.status_code == 409


def test_a_watcher_sees_the_panel_and_no_board(user, bob, carol) -> None:
    duel = start_duel(user, bob)
    page = client_of(carol).get(reverse("duel", args=[duel.pk]))
    body = page.content.decode()
    assert page.status_code == 200 and 'data-testid="duel-panel"' in body
    assert 'id="board"' not in body and "game-state" not in body


def test_the_queue_pairs_two_players_over_http(user, bob) -> None:
    ada, friend = client_of(user), client_of(bob)
    assert ada.get(reverse("duel_queue")).status_code == 200
    assert ada.post(reverse("duel_queue_ask"), {"minutes": "10"}).json() == {"waiting": True}
    paired = friend.post(reverse("duel_queue_ask"), {"minutes": "10"}).json()
    assert paired["duel"].startswith("/duels/")
    assert ada.post(reverse("duel_queue_ask"), {"minutes": "10"}).json() == paired


def test_the_queue_refuses_a_visitor_with_a_code(db) -> None:
    answer = Client().post(reverse("duel_queue_ask"))
    assert answer.status_code == 401 and answer.json()["code"] == "not_authenticated"


def test_a_rematch_from_the_finished_duel_page(user, bob) -> None:
    duel = start_duel(user, bob)
    act(seat_game(duel, 0), kind="resign")
    act(seat_game(duel, 1), kind="resign")
    offered = client_of(bob).post(reverse("duel_rematch", args=[duel.pk]))
    started = client_of(user).post(reverse("duel_rematch", args=[duel.pk]))
    assert offered["Location"] == started["Location"]
    assert Duel.objects.get(rematch_of=duel).state == Duel.State.RUNNING


def test_no_such_duel_is_a_404(user) -> None:
    page = client_of(user).get("/duels/0b6f8a4e-4c51-4d55-9f0e-2d7a35f9a111/")
    assert page.status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "/duels/",
        "/duels/challenge/",
        "/duels/join/{odd}/",
        "/duels/queue/",
        "/duels/queue/ask/",
        "/duels/{duel}/",
        "/duels/{duel}/rematch/",
    ],
)
def test_no_duel_page_answers_a_server_error_to_odd_input(path, user, bob) -> None:
    duel = start_duel(user, bob)
    odd_values = ["9" * 30, "0001-01-01", "%C3%A9", "a" * 200]
    fields = [{}, {"minutes": "9" * 30}, {"minutes": "x", "leave": "1"}, {"token": "a" * 80}]
    for who in (Client(), client_of(user), client_of(bob)):
        for odd in odd_values:
            target = path.format(odd=odd, duel=duel.pk)
            for form in fields:
                for method in (who.get, who.post):
                    assert method(target, form).status_code < 500, (target, form)


def test_both_games_side_by_side_once_both_are_over(user, bob, carol) -> None:
    duel = start_duel(user, bob)
    url = f"/duels/{duel.pk}/replay/"
    act(seat_game(duel, 0), move="s")
    assert client_of(carol).get(url).status_code == 403  # a watcher could relay the stock
    act(seat_game(duel, 0), kind="resign")
    act(seat_game(duel, 1), kind="resign")
    page = client_of(carol).get(url)
    body = page.content.decode()
    assert page.status_code == 200
    assert body.count("data-replay ") + body.count("data-replay>") == 2
    assert 'id="replay-data-0"' in body and 'id="replay-data-1"' in body
    assert (
        'data-testid="duel-both-replays"'
        in client_of(user).get(f"/duels/{duel.pk}/").content.decode()
    )
