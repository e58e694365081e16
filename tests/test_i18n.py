"""English, Italian, Dutch, Finnish: the pages, the board's words, the picker, the catalogs.

The browser's Accept-Language picks the language (LocaleMiddleware); the picker in the
footer posts to ``set_language``, whose cookie then wins over the browser. Each language
but English has its catalogs in ``locale/<lang>/LC_MESSAGES``; their compiled ``.mo`` files
are committed, so these tests also check that they match the ``.po`` sources and that
nothing is left untranslated.
"""

from __future__ import annotations

import ast
import gettext
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games import services
from games.models import User
from tests.support.games import game_play

ROOT = Path(__file__).resolve().parent.parent
LOCALE_ROOT = ROOT / "locale"
CATALOGS = ["django", "djangojs"]
# Every language but English (the source) has its catalogs: a new one is a line in
# settings.LANGUAGES, its two .po files and its glossary, and these tests check it as is.
TRANSLATED = [code for code, _name in settings.LANGUAGES if code != "en"]
CATALOG_FILES = [(lang, domain) for lang in TRANSLATED for domain in CATALOGS]
PRACTICE_CODE = "FT1-N-0000007"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|%%")


# Reading a .po file (polib is not a dependency) ------------------------------------------


def _unquote(text: str) -> str:
    return ast.literal_eval(text)


def read_po(path: Path) -> list[dict]:
    """The entries of a .po file: ``{msgid, msgid_plural?, msgstr | msgstr[n], flags,
    obsolete}``. An entry ends at a blank line or where a new one starts after a msgstr."""
    entries: list[dict] = []
    entry: dict = {}
    key: str | None = None

    def close() -> None:
        nonlocal entry, key
        if "msgid" in entry or entry.get("obsolete"):
            entries.append(entry)
        entry, key = {}, None

    for line in path.read_text(encoding="utf-8").splitlines():
        starts_entry = line.startswith(("#", "msgid ", "msgctxt "))
        if not line.strip() or (starts_entry and any(k.startswith("msgstr") for k in entry)):
            close()
            if not line.strip():
                continue
        if line.startswith("#~"):
            entry["obsolete"] = True
        elif line.startswith("#,"):
            entry.setdefault("flags", set()).update(f.strip() for f in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif match := re.match(r"^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?) (\".*\")$", line):
            key = match.group(1)
            entry[key] = _unquote(match.group(2))
        elif line.startswith('"') and key:
            entry[key] += _unquote(line)
    close()
    return entries


def catalog_dir(lang: str) -> Path:
    return LOCALE_ROOT / lang / "LC_MESSAGES"


def po_entries(domain: str, lang: str = "it") -> list[dict]:
    return [e for e in read_po(catalog_dir(lang) / f"{domain}.po") if e.get("msgid")]


def translations(entry: dict) -> list[str]:
    if "msgid_plural" in entry:
        return [v for k, v in sorted(entry.items()) if k.startswith("msgstr[")]
    return [entry.get("msgstr", "")]


def load_mo(path: Path) -> dict:
    with path.open("rb") as handle:
        return gettext.GNUTranslations(handle)._catalog  # type: ignore[attr-defined]


def italian(client: Client, url: str, **extra: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="it", **extra)
    assert response.status_code == 200, url
    return response.content.decode()


def board_config(html: str) -> dict:
    match = re.search(
        r'<script id="board-config" type="application/json">(.*?)</script>', html, re.DOTALL
    )
    assert match is not None, "no board-config script"
    return json.loads(match.group(1))


def english(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


# The catalogs ----------------------------------------------------------------------------


def test_the_site_offers_english_italian_dutch_and_finnish() -> None:
    assert [code for code, _name in settings.LANGUAGES] == ["en", "it", "nl", "fi"]
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE
    assert ROOT / "locale" in [Path(p) for p in settings.LOCALE_PATHS]


@pytest.mark.parametrize(("lang", "domain"), CATALOG_FILES)
def test_every_entry_is_translated_and_none_is_fuzzy_or_obsolete(lang: str, domain: str) -> None:
    entries = read_po(catalog_dir(lang) / f"{domain}.po")
    header = next(e for e in entries if e.get("msgid") == "")
    assert f"Language: {lang}\n" in header["msgstr"]
    assert "nplurals=2; plural=(n != 1);" in header["msgstr"]
    assert not [e for e in entries if e.get("obsolete")], "obsolete (#~) entries left over"
    fuzzy = [e.get("msgid") for e in entries if "fuzzy" in e.get("flags", set())]
    assert not fuzzy, f"fuzzy entries: {fuzzy}"
    real = [e for e in entries if e.get("msgid")]
    assert real
    empty = [e["msgid"] for e in real if not all(t.strip() for t in translations(e))]
    assert not empty, f"untranslated entries: {empty}"
    for e in real:
        if "msgid_plural" in e:
            assert len(translations(e)) == 2, e["msgid"]


@pytest.mark.skipif(
    shutil.which("xgettext") is None and not os.environ.get("CI"),
    reason="GNU gettext (xgettext) not installed",
)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_string_in_the_sources_has_its_translation(
    lang: str, tmp_path: Path, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``make messages`` would extract now (Python and templates) is in the committed
    catalog, translated: a string added or reworded in the code without its Italian fails
    here, where the catalog-only checks above cannot see it.

    makemessages writes into the ``locale`` directory beside the files it reads, so it runs
    in a scratch directory holding a copy of the catalogs and links to the sources: the
    committed files are never touched."""
    shutil.copytree(ROOT / "locale", tmp_path / "locale")
    skip = {"locale", "static", "staticfiles", "node_modules", "test-results"}
    for source in ROOT.iterdir():
        if source.is_dir() and not source.name.startswith(".") and source.name not in skip:
            (tmp_path / source.name).symlink_to(source)
    settings.LOCALE_PATHS = [str(tmp_path / "locale")]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=[lang], symlinks=True, verbosity=0)
    extracted = read_po(tmp_path / "locale" / lang / "LC_MESSAGES" / "django.po")
    missing = [
        e["msgid"]
        for e in extracted
        if e.get("msgid")
        and not e.get("obsolete")
        and ("fuzzy" in e.get("flags", set()) or not all(t.strip() for t in translations(e)))
    ]
    assert extracted and not missing, f"strings with no {lang} translation: {missing}"


@pytest.mark.parametrize(("lang", "domain"), CATALOG_FILES)
def test_translations_keep_every_placeholder(lang: str, domain: str) -> None:
    for e in po_entries(domain, lang):
        sources = [e["msgid"], e["msgid_plural"]] if "msgid_plural" in e else [e["msgid"]]
        for index, text in enumerate(translations(e)):
            source = sources[min(index, len(sources) - 1)]
            assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(source)), (
                e["msgid"],
                text,
            )
        # Markup (the rules page's <strong> and <code>) survives translation.
        for text in translations(e):
            tags = re.findall(r"</?\w+>", text)
            assert set(tags) == set(re.findall(r"</?\w+>", e["msgid"])), text
            assert tags.count("<code>") == tags.count("</code>"), text
            assert tags.count("<strong>") == tags.count("</strong>") <= 1, text


@pytest.mark.parametrize(("lang", "domain"), CATALOG_FILES)
def test_the_committed_mo_file_matches_its_po_file(lang: str, domain: str) -> None:
    """A fresh clone needs no gettext: the .mo files are committed, and must be current."""
    mo = catalog_dir(lang) / f"{domain}.mo"
    assert mo.exists(), f"{mo} is missing: run `make messages`"
    compiled = load_mo(mo)
    # Without msgfmt, compare with the .po as read here.
    expected: dict = {}
    for e in po_entries(domain, lang):
        # gettext keys an entry with a context as "context\x04msgid".
        msgid = f"{e['msgctxt']}\x04{e['msgid']}" if "msgctxt" in e else e["msgid"]
        if "msgid_plural" in e:
            for index, text in enumerate(translations(e)):
                expected[(msgid, index)] = text
        else:
            expected[msgid] = e["msgstr"]
    actual = {k: v for k, v in compiled.items() if k != ""}
    assert actual == expected, f"{mo.name} is stale: run `make messages`"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext (msgfmt) not installed")
@pytest.mark.parametrize(("lang", "domain"), CATALOG_FILES)
def test_msgfmt_compiles_the_po_file_to_the_committed_catalog(
    lang: str, domain: str, tmp_path: Path
) -> None:
    po, mo = catalog_dir(lang) / f"{domain}.po", catalog_dir(lang) / f"{domain}.mo"
    fresh = tmp_path / f"{domain}.mo"
    # --check also validates the python-format placeholders and the header.
    subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(po)], check=True)
    assert load_mo(fresh) == load_mo(mo), f"{mo.name} is stale: run `make messages`"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_javascript_catalog_covers_every_string_of_the_board_scripts(lang: str) -> None:
    """Every ``t("...")`` in static/js is in djangojs.po (makemessages runs with
    --keyword=t), every ``tn("one", "many", n)`` is there with its plural (--keyword=tn:1,2),
    and both are only ever called with literals: a string looked up by a variable would
    never reach the catalog. The board's words come from nowhere else."""
    entries = po_entries("djangojs", lang)
    js_ids = {e["msgid"] for e in entries}
    plurals = {(e["msgid"], e["msgid_plural"]) for e in entries if "msgid_plural" in e}
    literal, plural, variable = set(), set(), []
    quoted = r'"((?:[^"\\]|\\.)*)"'
    for path in (ROOT / "static" / "js").rglob("*.js"):
        # Comments may name t() itself; whole-line comments are dropped first.
        text = re.sub(r"^\s*//.*$", "", path.read_text(encoding="utf-8"), flags=re.M)
        for match in re.finditer(rf"\bt\({quoted}", text):
            literal.add(match.group(1))
        for match in re.finditer(rf"\btn\(\s*{quoted},\s*{quoted}", text):
            plural.add((match.group(1), match.group(2)))
        variable += [f"{path.name}: {m.group(0)}" for m in re.finditer(r"\bt\((?!\")[^)]*", text)]
        variable += [
            f"{path.name}: {m.group(0)}" for m in re.finditer(r"\btn\((?!\s*\")[^)]*", text)
        ]
    assert literal and plural, "no t(...) or tn(...) calls found"
    assert literal <= js_ids, f"not in djangojs.po: {sorted(literal - js_ids)}"
    assert plural <= plurals, f"plurals not in djangojs.po: {sorted(plural - plurals)}"
    # The exceptions are t's and tn's own definitions.
    assert variable == [
        "i18n.js: t(msgid, vars",
        "i18n.js: tn(singular, plural, count, vars",
    ], f"t() or tn() called without a literal: {variable}"
    catalog = {e["msgid"]: translations(e)[0] for e in po_entries("djangojs", lang)}
    if lang == "it":
        for word, italian_word in [("spades", "picche"), ("Stock", "Tallone"), ("king", "re")]:
            assert catalog[word] == italian_word
    for word in ("Connecting…", "Connected", "Reconnecting…", "Offline"):
        assert catalog[word] and catalog[word] != word


# Pages in Italian and in English -----------------------------------------------------------


@pytest.mark.django_db
def test_the_home_page_follows_the_browser_language(client: Client) -> None:
    html = italian(client, reverse("home"))
    assert '<html lang="it">' in html
    assert "Smazzata del giorno" in html
    assert "Leggi le regole" in html
    assert "Classifiche" in html and "Allenamento" in html and "Regole" in html

    html = english(client, reverse("home"))
    assert '<html lang="en">' in html
    assert "Today&#x27;s deal" in html or "Today's deal" in html
    assert "Read the rules" in html
    assert "Smazzata" not in html


@pytest.mark.django_db
def test_a_regional_italian_browser_gets_italian(client: Client) -> None:
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="it-IT,it;q=0.9,en;q=0.5")
    assert '<html lang="it">' in response.content.decode()
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")
    assert '<html lang="en">' in response.content.decode()  # neither: the default


@pytest.mark.django_db
def test_the_rules_page_in_italian(client: Client) -> None:
    html = italian(client, reverse("rules"))
    assert '<html lang="it">' in html
    assert "Forty Thieves: le regole" in html
    assert "tallone" in html and "fondazione" in html and "pila degli scarti" in html
    assert "Glossario" in html and "Consigli di strategia" in html
    assert "The layout" not in html and "Strategy tips" not in html

    html = english(client, reverse("rules"))
    assert "Forty Thieves: the rules" in html and "Glossary" in html


@pytest.mark.django_db
def test_the_practice_page_and_its_form_in_italian(client: Client) -> None:
    html = italian(client, reverse("practice"))
    assert '<html lang="it">' in html
    assert "Codice partita" in html  # the form's label
    assert "Per esempio FT1-N-0000007" in html  # its help text
    assert "Smazzata casuale" in html
    assert "Practice games are unranked" not in html
    assert "Deal code" in english(client, reverse("practice"))


@pytest.mark.django_db
def test_the_sign_up_page_in_italian(client: Client) -> None:
    html = italian(client, reverse("signup"))
    assert '<html lang="it">' in html
    assert "Crea un account" in html and "Registrati" in html
    assert "Nome visualizzato" in html  # the model field's label, capitalised
    assert "Create an account" in english(client, reverse("signup"))


@pytest.mark.django_db
def test_the_leaderboards_in_italian(client: Client) -> None:
    html = italian(client, reverse("leaderboards:daily_today"))
    assert '<html lang="it">' in html
    assert "Classifica di oggi" in html and "Posizione" in html and "Giocatore" in html
    html = italian(client, reverse("leaderboards:week"))
    assert "Percentuale di vittorie" in html and "Serie migliore" in html
    assert "Today's board" in english(client, reverse("leaderboards:daily_today"))


@pytest.mark.django_db
def test_the_board_page_in_italian(client: Client, user: User) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    url = reverse("game", args=[game.pk])
    html = italian(client, url)
    assert '<html lang="it">' in html
    assert "Tavolo di gioco" in html and "Abbandona" in html and "Annulla" in html
    assert 'aria-label="Tallone"' in html and 'aria-label="Scarti"' in html
    assert "Codice partita" in html and "Copia il codice" in html and "Concludi" in html
    # The raw details are for staff and developers only (?dev=1), translated too.
    assert "Dettagli della partita" not in html
    dev = italian(client, url + "?dev=1")
    assert "Dettagli della partita" in dev and "in corso" in dev  # the status, translated
    # The board script's words come from the JavaScript catalog, which loads before
    # the board's module; the page hands it no list of its own.
    assert "strings" not in board_config(html)
    catalog = html.index(f'src="{reverse("javascript-catalog")}"')
    assert catalog < html.index("dist/table.js")

    html = english(client, url)
    assert "Game board" in html


@pytest.mark.django_db
def test_the_plain_move_form_reports_in_italian(client: Client, user: User) -> None:
    game = services.game_start_practice(user=user, code=PRACTICE_CODE)
    client.force_login(user)
    response = client.post(
        reverse("game_act", args=[game.pk]),
        {"type": "move", "move": "s", "version": "0", "client_id": "c1"},
        HTTP_ACCEPT_LANGUAGE="it",
        follow=True,
    )
    html = response.content.decode()
    assert "Azione s accettata: punteggio 0," in html and "partita in corso." in html


@pytest.mark.django_db
def test_my_games_and_the_scorecard_in_italian(client: Client, user: User) -> None:
    played = services.game_start_practice(user=user, code=PRACTICE_CODE)
    game_play(user=user, game_id=played.pk, move="s")
    services.game_start_practice(user=user, code=PRACTICE_CODE)  # no move: not started
    client.force_login(user)
    html = italian(client, reverse("my_games"))
    assert "Le mie partite" in html
    assert "<td>allenamento</td>" in html and "<td>in corso</td>" in html
    assert "non iniziata" in html and "Scarta" in html
    html = italian(client, reverse("leaderboards:scorecard", args=[user.get_username()]))
    assert "Statistiche di ada" in html and "Partite giornaliere" in html


# The picker and the JavaScript catalog -----------------------------------------------------


@pytest.mark.django_db
def test_every_page_has_a_language_picker_that_keeps_the_page(client: Client) -> None:
    html = english(client, reverse("rules") + "?x=1")
    form = re.search(r'<form class="lang-form"[^>]*>(.*?)</form>', html, re.DOTALL)
    assert form is not None, "no language picker"
    assert f'action="{reverse("set_language")}"' in form.group(0)
    assert 'method="post"' in form.group(0)
    body = form.group(1)
    assert 'name="csrfmiddlewaretoken"' in body
    assert f'name="next" value="{reverse("rules")}?x=1"' in body
    assert '<label for="lang-select">Language</label>' in body
    assert '<select name="language" id="lang-select">' in body
    assert re.search(r'<option value="en" lang="en" selected>English</option>', body)
    assert re.search(r'<option value="it" lang="it">Italiano</option>', body)
    assert 'type="submit"' in body  # works without JavaScript

    body = italian(client, reverse("rules"))
    assert re.search(r'<option value="it" lang="it" selected>Italiano</option>', body)
    assert '<label for="lang-select">Lingua</label>' in body


@pytest.mark.django_db
def test_set_language_switches_and_the_choice_persists(client: Client) -> None:
    response = client.post(reverse("set_language"), {"language": "it", "next": reverse("rules")})
    assert response.status_code == 302
    assert response["Location"] == reverse("rules")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "it"
    # The cookie now wins over the browser's preference, page after page.
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="it">' in response.content.decode()
    assert '<html lang="it">' in client.get(reverse("practice")).content.decode()

    client.post(reverse("set_language"), {"language": "en", "next": reverse("home")})
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="it")
    assert '<html lang="en">' in response.content.decode()


@pytest.mark.django_db
def test_set_language_does_not_redirect_off_site(client: Client) -> None:
    response = client.post(
        reverse("set_language"), {"language": "it", "next": "https://evil.example/"}
    )
    assert response.status_code == 302
    assert "evil.example" not in response["Location"]


def test_the_javascript_catalog_answers_in_the_page_language(client: Client) -> None:
    url = reverse("javascript-catalog")
    assert url == "/jsi18n/"
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="it")
    assert response.status_code == 200
    assert "javascript" in response["Content-Type"]
    text = response.content.decode()
    assert '"You won!": "Hai vinto!"' in text
    assert '"Stock": "Tallone"' in text
    assert '"Ranked games have no undo.": "Nelle partite classificate non si annulla."' in text
    assert '"spades": "picche"' in text and '"Reconnecting\\u2026": "Riconnessione' in text
    assert "django.gettext" in text or "globals.gettext" in text

    text = client.get(url).content.decode()
    assert "Hai vinto!" not in text


def test_the_fair_play_page_explains_the_evidence_over_days_in_both_languages(
    client: Client,
) -> None:
    page = english(client, reverse("leaderboards:fairplay"))
    assert "5. Evidence over days" in page and "at most 1 in 100" in page
    page = italian(client, reverse("leaderboards:fairplay"))
    assert "5. Indizi nel corso dei giorni" in page and "al massimo di 1 su 100" in page
