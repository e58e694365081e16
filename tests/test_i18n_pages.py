"""Every main page in every language the site offers leaves no English sentence: each is
rendered in English and in the other language, and no run of four words of the English page's
text may appear in the translated page (names of the game and its variants, codes and notation
are the same in every language)."""

from __future__ import annotations

import html as html_lib
import re
from gettext import GNUTranslations
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import services
from games.models import User
from tests.support.games import game_play

PRACTICE_CODE = "FT1-N-0000007"
RUN = 4
# Names that are not translated: the game, its other names, the variants.
NAMES = [
    "Forty Thieves",
    "Napoleon at St. Helena",
    "Big Forty",
    "Le Cadran",
    "Sixty Thieves",
    "Rank and File",
    "Number Ten",
    "Little Forty",
]


def visible_text(page: str) -> str:
    # Scripts and styles, and code and notation (t3-f1, FT1-N-...), the same in every language.
    page = re.sub(r"<(script|style|code|pre)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<!--.*?-->", " ", page, flags=re.S)
    # Attributes people read (aria-label, title, placeholder, alt) count as text too.
    attributes = re.findall(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"', page)
    text = " ".join([re.sub(r"<[^>]*>", " ", page), *attributes])
    text = html_lib.unescape(text)
    for name in NAMES:
        text = text.replace(name, " ")
    return text


def runs(text: str) -> set[tuple[str, ...]]:
    """Every run of RUN consecutive words (letters only), lower-cased, of which at least
    two are words of three letters or more (notation such as "s, r, w-t10" is not)."""
    found: set[tuple[str, ...]] = set()
    for sentence in re.split(r"[.:;!?()\n•·—]", text):
        words = re.findall(r"[A-Za-z][A-Za-z'’]*", sentence)
        for i in range(len(words) - RUN + 1):
            run = tuple(w.lower() for w in words[i : i + RUN])
            if sum(len(w) >= 3 for w in run) >= 2:
                found.add(run)
    return found


# Every language but English, from the settings: a new language is tested by being offered.
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]


def english_left(client: Client, url: str, language: str) -> list[str]:
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    other = client.get(url, HTTP_ACCEPT_LANGUAGE=language, follow=True)
    assert english.status_code == other.status_code == 200, url
    assert f'<html lang="{language}">' in other.content.decode()
    same = runs(visible_text(english.content.decode())) & runs(visible_text(other.content.decode()))
    return sorted(" ".join(run) for run in same)


PUBLIC_PAGES = [
    ("home", []),
    ("rules", []),
    ("leaderboards:fairplay", []),
    ("privacy", []),
    ("practice", []),
    ("signup", []),
    ("login", []),
    ("leaderboards:daily_today", []),
    ("leaderboards:week", []),
    ("leaderboards:month", []),
    ("leaderboards:all", []),
    ("leaderboards:weekly_current", []),
    ("password_reset", []),
]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "args"), PUBLIC_PAGES, ids=[n for n, _ in PUBLIC_PAGES])
def test_the_page_has_no_english_sentence_left(
    client: Client, name: str, args: list[str], language: str
) -> None:
    assert english_left(client, reverse(name, args=args), language) == []


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_my_games_and_the_scorecard_are_translated(
    client: Client, user: User, language: str
) -> None:
    played = services.game_start_practice(user=user, code=PRACTICE_CODE)
    game_play(user=user, game_id=played.pk, move="s")
    client.force_login(user)
    for url in (
        reverse("game", args=[played.pk]),
        reverse("game", args=[played.pk]) + "?dev=1",
        reverse("my_games"),
        reverse("profile"),
        reverse("leaderboards:scorecard", args=[user.get_username()]),
        reverse("leaderboards:archive"),
    ):
        assert english_left(client, url, language) == [], url


def test_the_check_finds_an_english_sentence() -> None:
    english = "<p>Read the rules before you play.</p>"
    assert runs(visible_text(english)) & runs(visible_text("<p>Read the rules before</p>"))
    assert not runs(visible_text("<p>Forty Thieves is fun</p>"))


def test_the_board_words_come_in_dutch(client: Client) -> None:
    text = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '"Stock": "Trekstapel"' in text and '"Waste": "Aflegstapel"' in text
    assert '"You won!": "Je hebt gewonnen!"' in text
    assert '"Ranked games have no undo."' in text and '"spades": "schoppen"' in text


def test_card_names_come_whole_from_the_dutch_catalog() -> None:
    """A card with its article is one compound in Dutch ("de schoppenaas"): the catalog's
    formats glue the suit to the rank, so no code inflects a card name (glossary-nl.md)."""
    # (Not named gettext: makemessages would take these msgids for the Python catalog.)
    mo = Path(__file__).resolve().parent.parent / "locale/nl/LC_MESSAGES/djangojs.mo"
    with mo.open("rb") as handle:
        lookup = GNUTranslations(handle).gettext
    suit = {s: lookup(s) for s in ("spades", "hearts", "diamonds", "clubs")}
    assert lookup("the ace of %(suit)s") % {"suit": suit["spades"]} == "de schoppenaas"
    assert lookup("the queen of %(suit)s") % {"suit": suit["hearts"]} == "de hartenvrouw"
    assert lookup("the jack of %(suit)s") % {"suit": suit["diamonds"]} == "de ruitenboer"
    assert lookup("the king of %(suit)s") % {"suit": suit["clubs"]} == "de klaverenheer"
    assert lookup("the %(rank)s of %(suit)s") % {"rank": "7", "suit": suit["hearts"]} == (
        "de harten 7"
    )
    assert lookup("the %(suit)s foundation") % {"suit": suit["spades"]} == ("de schoppenfundering")


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_password_reset_mail_is_translated(user: User, language: str) -> None:
    """The reset mail is rendered in the language the request was in (the task carries it):
    its subject and body leave no English sentence, and the link is whole."""
    from django.core import mail

    from games.accounts.services import account_password_reset_mail

    for code in ("en", language):
        account_password_reset_mail(
            email=user.email, domain="forty.example", use_https=True, language=code
        )
    english, other = mail.outbox
    assert "https://forty.example/accounts/password/reset/" in other.body
    assert "Forty Thieves" in other.body and user.get_username() in other.body

    def words(message: Any) -> set[tuple[str, ...]]:
        return runs(re.sub(r"https?://\S+", " ", message.subject + "\n" + message.body))

    assert sorted(" ".join(run) for run in words(english) & words(other)) == []
