"""A ranked daily's result dialog tells the game's story (issue 36, item 7), on a phone and a
desktop, in English and in Dutch: won or not in plain words with the cards home out of 104,
the score, moves and time; the place among the players so far; a small chart of the day's
results with the player's bar marked; the streak; what to do next (the day's board, the
replay, practice) and the countdown to tomorrow's deal; and the share text, whose link is
never cut off, not even at 375 px. The Dutch player's system asks for the dark theme."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Board

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

SIZES = [(375, 812), (1366, 900)]
# Run in `manage.py shell` on the live server's database (Celery is eager there: each game
# is verified and ranked as it ends). Rivals who played today's deal further than the test's
# player: a simple policy (home moves first, then the waste to a column, then a draw) for
# `steps` moves each, then a resignation, so the day's results spread over a few bands.
# Their moves come in milliseconds, which the pace check would rightly hold: off here.
RIVALS = """
from django.conf import settings
from games import services
from games.models import User
from games.selectors import game_state
settings.FT_PACE_CHECK = False
for n, steps in enumerate({steps!r}):
    user = User.objects.create_user(username=f"{tag}r{{n}}", password="x" * 12)
    game = services.game_start_daily(user=user)
    legal, version = game_state(user=user, game_id=game.pk)["legal_moves"], 0
    for _ in range(steps):
        home = [m for m in legal if "-f" in m]
        waste = [m for m in legal if m.startswith("w-t")]
        chosen = (home or waste or [m for m in legal if m == "s"] or [None])[0]
        if chosen is None:
            break
        done = services.game_act(
            user=user, game_id=game.pk, kind="move", move=chosen, version=version
        )
        version, legal = done.version, done.changes["legal_moves"]
        if not legal:  # the game is over (no move left)
            break
    if legal:
        services.game_act(user=user, game_id=game.pk, kind="resign", version=version)
print("seeded")
"""
DAILY_GAME = """
from games import services
from games.models import User
print(services.game_start_daily(user=User.objects.get(username="{username}")).pk)
"""

WORDS = {
    "en": {
        "locale": "en-GB",
        "title": "You resigned",
        "line": re.compile(r"^0 of 104 cards home when you resigned\.$"),
        "place": re.compile(r"^\d+(st|nd|rd|th) of \d+ players so far$"),
        "spread": "Today's results so far",
        "caption": re.compile(r"^\d+ players, by score$"),
        "won_bar": "Won",
        "you": "you",
        "streak": "0 days",
        "note": "Win tomorrow's deal to start a new streak.",
        "board": "See the day's board",
        "replay": "Replay your game",
        "practice": "Practise a Forty Thieves deal",
        "countdown": re.compile(r"^Tomorrow's deal in \d\d:\d\d:\d\d$"),
        "replay_heading": "Replay of your game",
    },
    "nl": {
        "locale": "nl-NL",
        "title": "Je hebt opgegeven",
        "line": re.compile(r"^0 van de 104 kaarten thuis toen je opgaf\.$"),
        "place": re.compile(r"^\d+e van \d+ spelers tot nu toe$"),
        "spread": "De uitslagen van vandaag tot nu toe",
        "caption": re.compile(r"^\d+ spelers, naar score$"),
        "won_bar": "Gewonnen",
        "you": "jij",
        "streak": "0 dagen",
        "note": "Win de deling van morgen om een nieuwe reeks te beginnen.",
        "board": "Bekijk de ranglijst van de dag",
        "replay": "Bekijk je partij terug",
        "practice": "Oefen een deling van Forty Thieves",
        "countdown": re.compile(r"^Deling van morgen over \d\d:\d\d:\d\d$"),
        "replay_heading": "Herhaling van je partij",
    },
}

# Every element of the dialog inside it, side to side (nothing cut off or spilling), and
# the share text's box no wider than it shows (its long link wraps).
FITS = """(dialog) => {
  const box = dialog.getBoundingClientRect();
  const out = [];
  for (const el of dialog.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (!r.width || el.closest(".ft-confetti")) continue;
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(el.outerHTML.slice(0, 80));
  }
  const pre = dialog.querySelector('[data-result="share-text"]');
  return {
    out,
    dialogInView: box.left >= 0 && box.right <= window.innerWidth,
    dialogScrollsSideways: dialog.scrollWidth > dialog.clientWidth + 1,
    shareScrollsSideways: pre.scrollWidth > pre.clientWidth + 1,
    shareRight: pre.getBoundingClientRect().right,
    dialogRight: box.right,
  };
}"""


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("size", SIZES, ids=["375", "1366"])
def test_a_resigned_ranked_daily_tells_its_story(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    on_site: Callable[[str], str],
    live_url: str,
    shots: Path,
    size: tuple[int, int],
    lang: str,
) -> None:
    words = WORDS[lang]
    tag = f"s{uuid.uuid4().hex[:6]}"
    on_site(RIVALS.format(steps=[12, 40, 90], tag=tag))
    # A browser of its own: fair play links players who share one, and would hold this
    # result (off the board: no place).
    # The Dutch player's system asks for a dark theme: the chart follows it.
    page = new_page(
        size=size,
        locale=words["locale"],
        color_scheme="dark" if lang == "nl" else "light",
        user_agent=f"Mozilla/5.0 (X11; Linux) ft-story-test/{uuid.uuid4().hex}",
    )
    username = sign_up(page)
    game_id = on_site(DAILY_GAME.format(username=username)).split()[-1]
    page.goto(f"{live_url}/games/{game_id}/")
    table = Board(page)
    table.wait_connected()
    table.pile("stock").click()
    table.wait_for_version(1)
    page.locator('[data-action="resign"]').click()
    page.locator('[data-testid="confirm-resign"] button[value="resign"]').click()
    result = page.locator('[data-testid="result"]')
    expect(result).to_be_visible()

    # Won or not, in plain words, with the cards home out of the deck's 104.
    expect(result.locator('[data-result="title"]')).to_have_text(words["title"])
    expect(result.locator('[data-testid="result-line"]')).to_have_text(words["line"])
    expect(result.locator('[data-testid="result-cards"]')).to_have_text("0/104")
    expect(result.locator('[data-result="score"]')).to_have_text("0")
    expect(result.locator('[data-result="moves"]')).to_have_text("1")  # the draw
    expect(result.locator('[data-result="time"]')).to_have_text(re.compile(r"^\d+:\d\d$"))

    # The place among the players so far, once the result is verified and ranked.
    expect(result.locator('[data-testid="result-rank"]')).to_have_text(
        words["place"], timeout=15_000
    )
    # The day's spread: the wins' bar and the lost results' bands, the player's marked.
    spread = result.locator('[data-testid="story-spread"]')
    expect(spread).to_be_visible()
    expect(spread.locator("figcaption strong")).to_have_text(words["spread"])
    expect(spread.locator(".ft-spread__caption")).to_have_text(words["caption"])
    bars = spread.locator(".ft-spread__bar")
    assert bars.count() >= 3  # the rivals spread over more than one band
    expect(bars.first.locator(".ft-spread__label")).to_have_text(words["won_bar"])
    mine = spread.locator(".ft-spread__bar.is-mine")
    expect(mine).to_have_count(1)
    # A score of 0 is in the last band, the one that starts at 0.
    expect(mine.locator(".ft-spread__label")).to_have_text(re.compile(r"^0–\d+$"))
    expect(mine.locator(".ft-spread__you")).to_have_text(words["you"])
    counts = [int(c) for c in bars.evaluate_all("(bars) => bars.map((b) => b.dataset.count)")]
    place = result.locator('[data-testid="result-rank"]').inner_text()
    assert sum(counts) == int(re.findall(r"\d+", place)[1])  # the players the place counts
    # The streak: this first game is lost, so none yet.
    streak = result.locator('[data-testid="story-streak"]')
    expect(streak.locator('[data-story="streak-current"]')).to_have_text(words["streak"])
    expect(streak.locator('[data-story="streak-best"]')).to_have_text(words["streak"])
    expect(streak.locator('[data-story="streak-note"]')).to_have_text(words["note"])

    # What next: the day's board, the replay, practice, and tomorrow's deal's countdown.
    day = datetime.now(UTC).date().isoformat()
    steps = result.locator('[data-testid="story-next"]')
    board_link = steps.locator('[data-testid="story-board"]')
    expect(board_link).to_have_text(words["board"])
    assert board_link.get_attribute("href") == f"/boards/daily/{day}/"
    replay = steps.locator('[data-testid="story-replay"]')
    expect(replay).to_have_text(words["replay"])
    assert replay.get_attribute("href") == f"/games/{game_id}/replay/"
    expect(steps.locator('[data-testid="story-practice"]')).to_have_text(words["practice"])
    countdown = steps.locator('[data-testid="story-countdown"]')
    expect(countdown).to_have_text(words["countdown"])
    before = countdown.inner_text()
    expect(countdown).not_to_have_text(before, timeout=3_000)  # it ticks
    expect(result.locator('[data-result="links"]')).to_be_hidden()  # the story's steps instead

    # The share text, its link whole inside the dialog at every width.
    share = result.locator('[data-result="share-text"]')
    expect(share).to_contain_text(f"{live_url}/boards/daily/{day}/")
    # One time everywhere: the verified one, as the share text and the board say it.
    shown = result.locator('[data-result="time"]').inner_text()
    assert share.inner_text().split("\n")[0].endswith(f" · {shown}"), (shown, share.inner_text())
    fits = result.evaluate(FITS)
    assert fits["dialogInView"], fits
    assert not fits["out"], fits
    assert not fits["dialogScrollsSideways"] and not fits["shareScrollsSideways"], fits
    assert fits["shareRight"] <= fits["dialogRight"], fits
    width = size[0]
    page.screenshot(path=str(shots / f"result-story-{lang}-{width}.png"))
    result.screenshot(path=str(shots / f"result-story-dialog-{lang}-{width}.png"))

    # The replay is the player's own, at once, and says so.
    replay.click()
    page.wait_for_url(re.compile(rf"/games/{game_id}/replay/$"))
    expect(page.locator("h1")).to_have_text(words["replay_heading"])


def test_the_practice_step_starts_a_deal_of_the_variant_in_one_click(
    new_page: Callable[..., Page],
    sign_up: Callable[[Page], str],
    on_site: Callable[[str], str],
    live_url: str,
) -> None:
    page = new_page(
        size=(375, 812),
        user_agent=f"Mozilla/5.0 (X11; Linux) ft-story-test/{uuid.uuid4().hex}",
    )
    username = sign_up(page)
    game_id = on_site(DAILY_GAME.format(username=username)).split()[-1]
    page.goto(f"{live_url}/games/{game_id}/")
    Board(page).wait_connected()
    page.locator('[data-action="resign"]').click()
    page.locator('[data-testid="confirm-resign"] button[value="resign"]').click()
    practice = page.locator('[data-testid="result"] [data-testid="story-practice"]')
    expect(practice).to_be_visible(timeout=15_000)
    practice.click()
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}/$"))
    assert game_id not in page.url
    expect(page.locator("[data-board]")).to_have_attribute("data-mode", "practice")
    expect(page.locator(".ft-variant")).to_have_text("Forty Thieves")
