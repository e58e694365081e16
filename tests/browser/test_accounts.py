"""Accounts a person manages, through the pages: a password reset through the link the
console e-mail backend prints to the server's log, and deleting the account, after which
its result is gone from the day's board."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import PASSWORD, _sign_up

pytestmark = pytest.mark.browser

NEW_PASSWORD = "another long pass phrase 7"

# A ranked game of today's deal, one move then resigned, verified and ranked (the eager
# Celery of the embedded defaults would do it on commit; verifying again is harmless). The
# browser's sightings go first: every test account shares this machine's address and
# browser, and fair play would hold a result linked to another account that played today.
RANKED_RESULT = """
from games import services
from games.models import Sighting, User
from leaderboards.models import Result
from leaderboards.services import result_verify
user = User.objects.get(username="{username}")
Sighting.objects.filter(user=user).delete()
game = services.game_start_daily(user=user)
services.game_act(user=user, game_id=game.pk, kind="move", move="s", client_id="b1")
services.game_act(user=user, game_id=str(game.pk), kind="resign", client_id="b2")
result_verify(game_id=game.pk)
print(Result.objects.get(game=game).on_board)
"""


def _reset_link(site_env: dict[str, str], email: str, *, within: float = 10) -> str:
    """The reset link of the latest mail to ``email`` in the server's log (the console
    e-mail backend prints each mail there)."""
    logs = Path(site_env["FT_TEST_WORKDIR"]).glob("daphne-*.log")
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        for log in logs:
            text = log.read_text(errors="replace")
            mails = [m for m in text.split("Subject: ") if f"To: {email}" in m]
            links = (
                re.findall(r"https?://\S+/accounts/password/reset/\S+/\S+/", mails[-1])
                if mails
                else []
            )
            if links:
                return links[-1]
        time.sleep(0.2)
        logs = Path(site_env["FT_TEST_WORKDIR"]).glob("daphne-*.log")
    raise AssertionError(f"no reset mail to {email} in the server's log")


def _submit(page: Page, action: str) -> None:
    page.locator(f'form[action$="{action}"] button[type=submit]').click()


def test_a_password_reset_through_the_emailed_link_then_deleting_the_account(
    browser: Browser,
    page: Page,
    live_url: str,
    site_env: dict[str, str],
    on_site,
    shots: Path,
) -> None:
    username = _sign_up(page, live_url)
    email = f"{username}@example.org"
    page.goto(live_url + "/accounts/profile/")
    page.fill("input[name=email]", email)
    _submit(page, "/accounts/profile/")
    expect(page.locator("body")).to_contain_text("Your profile is saved.")
    assert on_site(RANKED_RESULT.format(username=username)).split()[-1] == "True"
    page.goto(live_url + "/boards/daily/")
    expect(page.locator("main")).to_contain_text(username)

    # Forgotten password, from a browser that is not signed in.
    context = browser.new_context(locale="en-GB")
    other = context.new_page()
    other.set_default_timeout(10_000)
    try:
        other.goto(live_url + "/accounts/login/")
        other.get_by_role("link", name="Forgot your password?").click()
        other.fill("input[name=email]", email)
        _submit(other, "/accounts/password/reset/")
        expect(other.locator("h1")).to_have_text("Check your e-mail")
        other.goto(_reset_link(site_env, email))
        other.fill("input[name=new_password1]", NEW_PASSWORD)
        other.fill("input[name=new_password2]", NEW_PASSWORD)
        other.locator("main form button[type=submit]").click()
        expect(other.locator("h1")).to_have_text("Password changed")
        other.goto(live_url + "/accounts/login/")
        other.fill("input[name=username]", username)
        other.fill("input[name=password]", NEW_PASSWORD)
        _submit(other, "/accounts/login/")
        other.wait_for_url(lambda url: "/accounts/login/" not in url)
        other.screenshot(path=str(shots / "accounts-after-reset.png"))

        # Delete the account: a wrong password first, then the right one.
        other.goto(live_url + "/accounts/delete/")
        other.fill("input[name=password]", PASSWORD)  # the old one, no longer right
        _submit(other, "/accounts/delete/")
        expect(other.locator("main")).to_contain_text("The password is not right")
        other.fill("input[name=password]", NEW_PASSWORD)
        _submit(other, "/accounts/delete/")
        expect(other.locator("body")).to_contain_text("Your account and everything")
        other.goto(live_url + "/boards/daily/")
        expect(other.locator("main")).not_to_contain_text(username)
        other.screenshot(path=str(shots / "accounts-deleted-board.png"))
    finally:
        context.close()
