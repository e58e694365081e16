"""A player of each language the site offers, from sign-up to the reset mail, meets no English.

One browser per language (its locale sends Accept-Language, as a Dutch or Finnish browser
does): sign up with an e-mail address, read the rules, start today's ranked deal through the
home page's confirmation, make a move the rules refuse and read the reminder, resign and
read the result, open the scorecard, ask for a password reset and read the mail. At each
step the page's visible text (and what screen readers read: aria-label, title, alt,
placeholder) is searched for every English sentence the site's catalogs translate: one
found is English left. Screenshots of each step go to test-results/browser/walk-<lang>-*.png.
"""

from __future__ import annotations

import email
import re
import time
import uuid
from collections.abc import Callable
from email.header import decode_header, make_header
from gettext import GNUTranslations
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]
PASSWORD = "a long enough pass phrase"
CONNECTED = '[data-testid="connection"][data-state="connected"]'
# The game's names and the notation are the same in every language.
NAMES = ("Forty Thieves", "Napoleon at St. Helena", "Le Cadran", "Big Forty")
SUITS = {"S": 0, "H": 1, "D": 2, "C": 3}
RANKS = "A23456789TJQK"
OPEN_TODAY = (
    "from django.utils import timezone; from games.daily import utc_today; "
    "from games.services import deal_open_daily; deal_open_daily(day=utc_today(timezone.now()))"
)


def english_sentences(language: str) -> set[str]:
    """Every English stretch of four words or more that the language's catalogs translate
    (msgids cut at their placeholders and tags): what must not be left on its pages."""
    found: set[str] = set()
    for domain in ("django", "djangojs"):
        with (ROOT / f"locale/{language}/LC_MESSAGES/{domain}.mo").open("rb") as handle:
            catalog: dict[Any, str] = GNUTranslations(handle)._catalog  # type: ignore[attr-defined]
        for key, translated in catalog.items():
            msgid = key[0] if isinstance(key, tuple) else key
            if not msgid or translated == msgid:
                continue
            for part in re.split(r"%\(\w+\)[sd]|%[sd]|<[^>]*>|\{[^}]*\}|[.:;!?()\n•·—…]", msgid):
                words = part.split()
                if len(words) >= 4 and sum(len(w.strip(",'\"")) >= 3 for w in words) >= 3:
                    found.add(" ".join(words))
    return found


def page_text(page: Page) -> str:
    return page.evaluate(
        """() => [document.body.innerText,
                  ...Array.from(document.querySelectorAll('[aria-label],[title],[alt],[placeholder]'),
                    (el) => ['aria-label', 'title', 'alt', 'placeholder']
                      .map((a) => el.getAttribute(a) || '').join(' '))].join('\\n')"""
    )


def english_left(text: str, sentences: set[str]) -> list[str]:
    flat = " ".join(text.split())
    for name in NAMES:
        flat = flat.replace(name, " ")
    return sorted(s for s in sentences if s in flat)


class Walk:
    """One player's walk in one language, checking and photographing each step."""

    def __init__(self, page: Page, language: str, shots: Path) -> None:
        self.page, self.language, self.shots = page, language, shots
        self.sentences = english_sentences(language)
        self.step = 0

    def check(self, name: str, text: str | None = None) -> None:
        self.step += 1
        self.page.screenshot(
            path=str(self.shots / f"walk-{self.language}-{self.step:02d}-{name}.png"),
            full_page=True,
        )
        assert f'lang="{self.language}"' in self.page.content(), name
        left = english_left(page_text(self.page) if text is None else text, self.sentences)
        assert left == [], f"{self.language}, {name}: English left: {left}"


def an_illegal_column_move(piles: dict[str, list[str]]) -> tuple[str, str]:
    """Two columns whose top cards do not build (not the same suit one rank up)."""
    tops = {p: cards[-1] for p, cards in piles.items() if p.startswith("t") and cards}
    for src, card in tops.items():
        for dst, onto in tops.items():
            builds = card[1] == onto[1] and RANKS.index(onto[0]) == RANKS.index(card[0]) + 1
            if src != dst and not builds:
                return src, dst
    raise AssertionError("every column builds on every other")


def reset_mail(site_env: dict[str, str], address: str, within: float = 15) -> email.message.Message:
    """The latest mail to ``address`` in the server's log (the console backend prints it)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for log in Path(site_env["FT_TEST_WORKDIR"]).glob("daphne-*.log"):
            chunks = log.read_text(errors="replace").split("-" * 79)
            mails = [c.strip() for c in chunks if f"To: {address}" in c]
            if mails:
                return email.message_from_string(mails[-1][mails[-1].index("Content-Type") :])
        time.sleep(0.2)
    raise AssertionError(f"no mail to {address} in the server's log")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_player_walks_the_site_in_their_language_and_meets_no_english(
    new_page: Callable[..., Page],
    live_url: str,
    site_env: dict[str, str],
    board: Any,
    shots: Path,
    language: str,
    on_site: Callable[[str], str],
) -> None:
    on_site(OPEN_TODAY)  # as the beat does at midnight: the first opening certifies the deal
    # A browser of its own (fair play would link players sharing one and hold the result).
    page = new_page(
        size=(1366, 900),
        locale=language,
        user_agent=f"Mozilla/5.0 (X11; Linux) ft-walk/{uuid.uuid4().hex}",
    )
    walk = Walk(page, language, shots)
    username = f"w{language}{uuid.uuid4().hex[:8]}"
    address = f"{username}@example.org"

    page.goto(live_url + "/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", address)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    walk.check("signup")
    page.locator('form[action$="/accounts/signup/"] button[type=submit]').click()
    page.wait_for_url(lambda url: "/accounts/signup/" not in url)
    walk.check("signed-up")

    page.goto(live_url + "/rules/")
    walk.check("rules")

    page.goto(live_url + "/")
    walk.check("home")
    page.locator('[data-testid="play-daily"]').click()
    dialog = page.locator("#daily-confirm")
    expect(dialog).to_be_visible()
    walk.check("daily-confirm")
    dialog.locator('[data-testid="daily-confirm"]').click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/$"))
    page.locator(CONNECTED).wait_for()
    walk.check("daily-table")

    table = board(page)
    src, dst = an_illegal_column_move(table.piles())
    card = table.card(src, -1)
    card.hover()
    page.mouse.down()
    box = table.pile(dst).bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 30, steps=4)
    page.mouse.up()
    reminder = page.locator('[data-testid="reminder"]')
    expect(reminder).to_be_visible()
    said = reminder.text_content() or ""
    assert said.strip()
    walk.check("refused", said)

    table.pile("stock").click()
    table.wait_for_version(1)
    page.locator('[data-action="resign"]').click()
    page.locator('[data-testid="confirm-resign"] button[value="resign"]').click()
    result = page.locator('[data-testid="result"]')
    expect(result).to_be_visible()
    expect(result.locator('[data-result="share-text"]')).to_contain_text(
        "/boards/daily/", timeout=15_000
    )
    walk.check("result")

    page.goto(f"{live_url}/players/{username}/")
    walk.check("scorecard")

    # Signed out, a forgotten password: the reset page and the mail, both in the language.
    page.context.clear_cookies()
    page.goto(live_url + "/accounts/password/reset/")
    page.fill("input[name=email]", address)
    walk.check("reset-form")
    page.locator('form[action$="/accounts/password/reset/"] button[type=submit]').click()
    page.wait_for_url(lambda url: url.endswith("/accounts/password/reset/sent/"))
    walk.check("reset-sent")
    mail = reset_mail(site_env, address)
    subject = str(make_header(decode_header(mail["Subject"])))
    # The log holds the mail as text: an 8-bit body is already text, others are encoded.
    if mail["Content-Transfer-Encoding"] in ("7bit", "8bit"):
        text = str(mail.get_payload())
    else:
        body = mail.get_payload(decode=True)
        assert isinstance(body, bytes)
        text = body.decode(mail.get_content_charset() or "utf-8")
    assert re.search(r"https?://\S+/accounts/password/reset/\S+/\S+/", text)
    left = english_left(subject + "\n" + re.sub(r"https?://\S+", " ", text), walk.sentences)
    assert left == [], f"{language}, the reset mail: English left: {left}"


def test_the_check_finds_the_english_of_an_english_page(
    new_page: Callable[..., Page], live_url: str
) -> None:
    """The search above can fail: on the English rules page it finds English sentences of
    every catalog (so an untranslated page would be caught)."""
    page = new_page(size=(1366, 900), locale="en-GB")
    page.goto(live_url + "/rules/")
    for language in LANGUAGES:
        assert len(english_left(page_text(page), english_sentences(language))) > 20
