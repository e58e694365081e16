"""The rules page's variants table is the engine's rule sets, in English and Italian.

Each row is read back by its hooks (``data-variant`` on the row, ``data-fact`` on each
cell) and compared with the ``RuleSet`` it came from, so a variant added to
``games.engine.rules.VARIANTS`` shows up, with its facts, without touching the page.
"""

from __future__ import annotations

import html as htmllib
import re
from dataclasses import replace

import pytest
from django.test import Client
from django.urls import reverse

from games.engine import VARIANTS, GameState
from games.engine.rules import CLASSIC, OPTION_LETTERS

pytestmark = pytest.mark.django_db

BUILD_WORDS = {
    "same-suit": "Down by the same suit",
    "other-suit": "Down by any suit except the card’s own",
    "alternate-colour": "Down by alternating colour",
}
RUNS, ONE_CARD = "Runs move as a unit, in whole or in part", "One card at a time"


def rules_page(client: Client, language: str = "en") -> str:
    response = client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def variant_rows(html: str) -> dict[str, dict[str, str]]:
    """Each variant row's cells by their ``data-fact``, as text, in page order."""
    rows = {}
    for name, body in re.findall(r'<tr data-variant="([^"]+)">(.*?)</tr>', html, re.DOTALL):
        cells = re.findall(r'<t[hd][^>]*data-fact="([^"]+)"[^>]*>(.*?)</t[hd]>', body, re.DOTALL)
        rows[name] = {fact: htmllib.unescape(text).strip() for fact, text in cells}
    return rows


def test_every_variant_has_a_row_with_the_facts_of_its_rule_set(client: Client) -> None:
    rows = variant_rows(rules_page(client))
    assert list(rows) == list(VARIANTS)  # the engine's order, and nothing else
    for name, rules in VARIANTS.items():
        row = rows[name]
        assert row["cards"] == str(rules.deck_size), name
        assert row["columns"] == str(rules.columns), name
        assert row["per-column"] == str(rules.per_column), name
        assert row["face-down"] == str(rules.face_down), name
        assert row["stock"] == str(GameState.from_seed(1, name).view()["stock"]), name
        assert row["draw"] == str(rules.draw), name
        assert row["redeals"] == str(rules.redeals), name
        assert row["foundations"].split(";")[0] == str(rules.foundations), name
        assert ("aces" in row["foundations"]) == rules.aces_out, name
        assert row["build"] == BUILD_WORDS[rules.build], name
        assert row["moves"] == (RUNS if rules.sequences else ONE_CARD), name


def test_the_facts_read_as_the_rules_of_the_family(client: Client) -> None:
    """A few rows checked against the rules as written, not against the engine."""
    rows = variant_rows(rules_page(client))
    classic = rows["forty-thieves"]
    assert classic["title"] == "Forty Thieves (classic)"
    assert (classic["columns"], classic["per-column"], classic["stock"]) == ("10", "4", "64")
    assert rows["lucas"]["stock"] == "57" and rows["lucas"]["per-column"] == "3"
    assert rows["sixty-thieves"]["cards"] == "156" and rows["sixty-thieves"]["foundations"] == "12"
    assert rows["indian"]["face-down"] == "1" and rows["indian"]["stock"] == "74"
    little = rows["little-forty"]
    assert (little["draw"], little["redeals"]) == ("3", "3")


def test_each_variant_says_how_it_plays(client: Client) -> None:
    html = rules_page(client)
    plays = dict(re.findall(r'<dd data-variant-plays="([^"]+)">(.*?)</dd>', html, re.DOTALL))
    assert list(plays) == list(VARIANTS)
    assert plays["forty-thieves"].startswith("The yardstick")


def test_a_new_variant_appears_on_the_page_by_itself(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    new = replace(
        CLASSIC,
        name="test-thieves",
        letter="Z",
        title="Test Thieves",
        columns=8,
        per_column=5,
        face_down=2,
        build="other-suit",
        sequences=True,
        space="kings",
        takeback=True,
    )
    monkeypatch.setitem(VARIANTS, new.name, new)
    html = rules_page(client)
    row = variant_rows(html)["test-thieves"]
    assert row["title"] == "Test Thieves"  # the engine's title until the page has a note
    assert (row["columns"], row["per-column"], row["face-down"]) == ("8", "5", "2")
    assert row["stock"] == str(104 - 8 * 5)
    assert row["build"] == BUILD_WORDS["other-suit"]
    assert row["moves"].startswith(RUNS)
    assert "only a king fills a space" in row["moves"] and "take-back" in row["moves"]
    assert 'data-variant-plays="test-thieves"' not in html  # no prose invented for it


def test_the_variants_table_in_italian(client: Client) -> None:
    html = rules_page(client, "it")
    rows = variant_rows(html)
    assert list(rows) == list(VARIANTS)
    assert rows["forty-thieves"]["title"] == "Forty Thieves (classico)"
    assert rows["forty-thieves"]["build"] == "In ordine decrescente, stesso seme"
    assert rows["streets"]["build"] == "In ordine decrescente, a colori alterni"
    assert rows["josephine"]["moves"] == "Le sequenze si spostano in blocco, tutte o in parte"
    assert rows["maria"]["moves"] == "Una carta alla volta"
    assert rows["lucas"]["foundations"].startswith("8; partono con i loro assi")
    for heading in (
        "Carte in gioco",
        "Carte per colonna",
        "Coperte per colonna",
        "Girate alla volta",
    ):
        assert f'<th scope="col">{heading}</th>' in html
    assert "Il punto di riferimento" in html  # how the classic game plays, translated
    for english in [*BUILD_WORDS.values(), RUNS, ONE_CARD, "Cards per column", "The yardstick"]:
        assert english not in html, english


def option_rows(html: str) -> dict[str, str]:
    """Each option row's name (its header cell), by ``data-option``, in page order."""
    found = re.findall(r'<tr data-option="([^"]+)">\s*<th scope="row">(.*?)</th>', html, re.DOTALL)
    return {option: htmllib.unescape(name).strip() for option, name in found}


def test_the_options_table_is_the_engines_options(client: Client) -> None:
    assert option_rows(rules_page(client)) == {
        "kings": "Kings only in spaces",
        "redeal": "Redeals",  # redeal1 and redeal2: one row
        "takeback": "Foundation take-back",
    }


def test_the_options_table_in_italian(client: Client) -> None:
    rows = option_rows(rules_page(client, "it"))
    assert rows["kings"] == "Solo re nelle colonne vuote"
    assert rows["redeal"] == "Ridistribuzioni"
    assert list(rows) == ["kings", "redeal", "takeback"]


def test_a_new_option_appears_on_the_page_by_itself(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(OPTION_LETTERS, "queens", "Q")
    rows = option_rows(rules_page(client))
    assert list(rows) == ["kings", "redeal", "takeback", "queens"]
    assert rows["queens"] == "queens"  # the engine's name until the page has words for it


@pytest.mark.parametrize(
    ("language", "rating", "arena"),
    [
        ("en", "A newcomer starts at 1000.", "45 minutes of 5-minute rounds"),
        ("it", "Chi arriva parte da 1000.", "45 minuti di round da 5 minuti"),
        ("nl", "Een nieuwkomer begint op 1000.", "45 minuten met rondes van 5 minuten"),
        ("fi", "Uusi pelaaja aloittaa luvusta 1000.", "45 minuuttia viiden minuutin kierroksia"),
    ],
)
def test_the_rules_explain_the_rating_and_the_arenas_in_every_language(
    client: Client, language: str, rating: str, arena: str
) -> None:
    html = htmllib.unescape(rules_page(client, language))
    assert 'href="#rating"' in html and 'href="#arenas"' in html  # in the contents
    rating_section = html.split('id="rating"', 1)[1].split("</section>", 1)[0]
    arena_section = html.split('id="arenas"', 1)[1].split("</section>", 1)[0]
    assert rating in rating_section and arena in arena_section


def test_fair_play_says_what_the_rating_and_the_arenas_count(client: Client) -> None:
    page = htmllib.unescape(client.get("/fair-play/").content.decode())
    section = page.split('id="ratings-and-arenas"', 1)[1].split("<h2", 1)[0]
    assert "a disqualified one never counts" in section and "secret until it opens" in section
