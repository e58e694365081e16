"""A site with something on every page, for the design checks and the screenshots.

``seed_site`` opens today's deal, writes three weeks of closed daily deals with a few dozen
players' verified results (leaderboards.scale, as the read-path benchmark seeds them), and
gives the named player a result on most of those days, so the scorecard has its charts,
the boards a marked row and the archive its days. ``PAGES`` are the main pages, by a short
name (the screenshots' file names) and a path; ``{username}``, ``{yesterday}``,
``{league}`` and ``{game}`` (the player's latest game) are filled in once the site is seeded.
"""

from __future__ import annotations

from collections.abc import Callable

SEED = """
import random
from datetime import timedelta
from django.utils import timezone
from games.daily import utc_today
from games.models import Deal, Game, User
from games.services import deal_open_daily
from leaderboards.leagues.models import Membership
from leaderboards.leagues.services import league_create
from leaderboards.scale import _one, scale_seed

today = utc_today(timezone.now())
deal_open_daily(day=today)
scale_seed(players=40, days=21, results=320, force=True, seed=36)
me = User.objects.get(username={username!r})
me.is_staff = True
me.save(update_fields=["is_staff"])
rng = random.Random(36)
for deal in Deal.objects.filter(kind=Deal.Kind.DAILY, day__lt=today).order_by("-day")[:18]:
    if rng.random() < 0.85:
        game, result = _one(me, deal, rng)
        game.save()
        result.save()
league = league_create(user=me, name="Thursday Club")
for other in User.objects.filter(username__startswith="scale36_")[:3]:
    Membership.objects.create(league=league, user=other)
game = Game.objects.filter(player=me).order_by("-finished_at").first()
print(today - timedelta(days=1), league.pk, game.pk)
"""

# (name, path): the pages a player reads, the board's table apart (table36 and result36).
PAGES: list[tuple[str, str]] = [
    ("home", "/"),
    ("rules", "/rules/"),
    ("practice", "/practice/"),
    ("board", "/boards/daily/{yesterday}/"),
    ("weekly", "/boards/weekly/"),
    ("period", "/boards/month/"),
    ("scorecard", "/players/{username}/"),
    ("archive", "/archive/"),
    ("my-games", "/games/"),
    ("leagues", "/leagues/"),
    ("duels", "/duels/"),
    ("duel-queue", "/duels/queue/?minutes=5"),
    ("league", "/leagues/{league}/"),
    ("profile", "/accounts/profile/"),
    ("fair-play", "/fair-play/"),
    ("privacy", "/privacy/"),
    ("replay", "/games/{game}/replay/"),
    ("reviews", "/staff/reviews/"),
]

# Pages a visitor sees signed out (the menu's other half).
VISITOR_PAGES: list[tuple[str, str]] = [
    ("signup", "/accounts/signup/"),
    ("login", "/accounts/login/"),
]


def seed_site(on_site: Callable[[str], str], *, username: str) -> dict[str, str]:
    """Fill the site for ``username`` (a staff member, for the review pages); returns the
    values the page paths name."""
    yesterday, league, game = on_site(SEED.format(username=username)).split()[-3:]
    return {"username": username, "yesterday": yesterday, "league": league, "game": game}
