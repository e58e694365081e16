"""The public pages answer, with the right titles, and errors stay errors."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.models import User

pytestmark = pytest.mark.django_db


def _title(html: str) -> str:
    match = re.search(r"<title>(.*?)</title>", html, re.DOTALL)
    assert match is not None, "page has no <title>"
    return match.group(1).strip()


def test_the_home_page_introduces_the_platform(client: Client) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert _title(html) == "Forty Thieves"
    assert reverse("rules") in html
    # One bundled sheet (issue 36): tokens, base, components and pages in one request.
    assert "dist/site.css" in html


def test_the_rules_page_renders(client: Client) -> None:
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "rules" in _title(html).lower()
    assert reverse("home") in html


def test_the_page_language_is_declared(client: Client) -> None:
    response = client.get(reverse("home"))
    assert '<html lang="en">' in response.content.decode()


def test_an_unknown_url_is_not_found_not_an_error(client: Client) -> None:
    response = client.get("/no-such-page/")
    assert response.status_code == 404


def test_the_admin_login_page_renders(client: Client) -> None:
    response = client.get(reverse("admin:login"))
    assert response.status_code == 200
    assert 'name="username"' in response.content.decode()


def test_a_player_is_shown_by_display_name_else_username(user: User) -> None:
    assert user.public_name == "ada"
    user.display_name = "Ada L."
    assert user.public_name == "Ada L."
    assert str(user) == "Ada L."


def test_every_page_links_the_site_icon_and_favicon_ico_finds_it(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert re.search(r'<link rel="icon" href="[^"]*favicon\.svg" type="image/svg\+xml">', html)
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("favicon.svg")


def test_variants_show_by_the_engines_names_and_a_resignation_by_its_name() -> None:
    from games.templatetags.games_tags import outcome, variant_title  # the filters

    assert variant_title("josephine") == "Josephine"
    assert variant_title("forty-thieves") == "Forty Thieves"
    assert variant_title("little-forty+redeal1") == "Little Forty"
    assert variant_title("no-such-variant") == "no-such-variant"
    # Restart, New game and Resign all confirm "resign?": the lists then say "resigned".
    assert outcome("resigned") == "resigned" and outcome("lost") == "lost"
    assert outcome("won") == "won" and outcome("active") == "active"


@pytest.mark.parametrize(
    ("url", "current"),
    [
        ("/leagues/", "Leagues"),
        ("/archive/", "Archive"),
        ("/players/ada/", "Scorecard"),
        ("/boards/daily/", "Leaderboards"),
    ],
)
def test_the_menu_marks_exactly_one_section_as_the_current_page(
    client: Client, user: User, url: str, current: str
) -> None:
    client.force_login(user)
    response = client.get(url, follow=True)
    assert response.status_code == 200
    menu = re.search(r'<nav class="site-nav".*?</nav>', response.content.decode(), re.DOTALL)
    assert menu is not None
    assert re.findall(r'aria-current="page">([^<]+)</a>', menu.group(0)) == [current]


@pytest.mark.parametrize(
    "url",
    [
        "/rules/",
        "/privacy/",
        "/fair-play/",
        "/practice/",
        "/boards/all/",
        "/archive/",
        "/accounts/login/",
        "/accounts/signup/",
    ],
)
def test_every_tab_is_titled_page_then_site(client: Client, url: str) -> None:
    # A tab says which page and which site (issue 36: "Rules", "Privacy" had no site name).
    response = client.get(url, follow=True)
    assert response.status_code == 200
    title = _title(response.content.decode())
    page, _, site = title.rpartition(" · ")
    assert page and site == "Forty Thieves", title
