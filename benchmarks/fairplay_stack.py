"""The parts of the fair-play benchmark that go through the platform itself: the pace
check on server-style timestamps, and the scout pair of issue 10's attack 2 played
through the real services (verification, the fair-play screen) on a scratch SQLite
database. Imported by ``benchmarks/fairplay.py``; not run on its own.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from leaderboards.fairplay.timing import timing_of  # noqa: E402  (pure: no Django)

#: A person's think time between two moves: log-normal around a median, never under a
#: reaction time. "human" is an ordinary player, "fast" a quick one who knows the game.
PACES = {"human": (1100.0, 0.9), "fast": (450.0, 0.6)}
MACHINE_MS = (8, 25)  # a script's round trip per move on a local server
REACTION_MS = 120


def pace_stamps(moves: int, pace: str, rng: random.Random) -> list[int]:
    """Server timestamps (ms) of ``moves`` actions played at ``pace``: "human", "fast"
    or "machine" (each move sent as soon as the last one was answered)."""
    at, stamps = 0, []
    for _ in range(moves):
        if pace == "machine":
            at += rng.randint(*MACHINE_MS)
        else:
            median, sigma = PACES[pace]
            at += max(REACTION_MS, int(rng.lognormvariate(0, sigma) * median))
        stamps.append(at)
    return stamps


def pace_holds(moves: int, pace: str, seed: int) -> bool:
    """Whether the pace check holds a game of ``moves`` actions played at ``pace``."""
    return timing_of(pace_stamps(moves, pace, random.Random(seed))).machine


# The scout pair, through the platform's services ------------------------------------------


_READY: list[str] = []


def _django() -> None:
    """Django on a scratch SQLite file, once per process (it stays for the process)."""
    if _READY:
        return
    workdir = tempfile.mkdtemp(prefix="ft-bench-fairplay-")
    _READY.append(workdir)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="ftsite.settings",
        DATABASE_URL=f"sqlite:///{workdir}/bench.sqlite3",
        DJANGO_DEBUG="true",
        FT_DAILY_CERTIFY_SECONDS="0",
        FT_FORESIGHT_SECONDS="0",  # the foresight analysis is measured by the caller
        FT_RATE_PRACTICE_ON_START="false",
    )
    os.environ.pop("REDIS_URL", None)
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


class Clock:
    """``timezone.now`` for the services: advances by the pace's gaps, one per call."""

    def __init__(self, start: datetime, pace: str, rng: random.Random) -> None:
        self.now, self.pace, self.rng = start, pace, rng

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=pace_stamps(1, self.pace, self.rng)[0])
        return self.now


def scout_pairs(deals: list[dict], pace: str = "human", linked: bool = True) -> list[dict]:
    """For each deal: account B turns the whole stock of the day's ranked deal and resigns;
    account A (on B's browser when ``linked``, else on another browser and network) then
    plays the solver's line at ``pace``. Returns a row per pair with A's verdict."""
    _django()
    return [_pair(n, deal, pace, linked) for n, deal in enumerate(deals)]


def _pair(n: int, deal: dict, pace: str, linked: bool) -> dict:
    from django.utils import timezone

    from games import services
    from games.models import Deal, User
    from leaderboards.models import FairPlayCheck, Result

    day = date.fromisoformat(deal["day"])
    rng = random.Random(n)
    morning = datetime.combine(day, datetime.min.time(), tzinfo=UTC) + timedelta(hours=9)
    clock = Clock(morning, pace, rng)
    with mock.patch.object(timezone, "now", clock):
        opened = services.deal_open_daily(day=day)
        Deal.objects.filter(pk=opened.pk).update(seed_hex=deal["seed"])
        tag = f"{n}-{pace}-{'linked' if linked else 'apart'}-{rng.random():.6f}"
        scout = User.objects.create_user(username=f"scout{tag}")
        player = User.objects.create_user(username=f"player{tag}")
        services.sighting_record(
            user_id=scout.pk, device_token="S" * 32, address="198.51.100.4", user_agent="UA/1"
        )
        services.sighting_record(
            user_id=player.pk,
            device_token="S" * 32 if linked else "P" * 32,
            address="198.51.100.4" if linked else "203.0.113.9",
            user_agent="UA/1",
        )
        game = services.game_start_daily(user=scout, now=clock.now)
        for _ in range(63):
            services.game_act(kind="move", user=scout, game_id=game.pk, move="s")
        services.game_act(kind="resign", user=scout, game_id=game.pk)
        game = services.game_start_daily(user=player, now=clock.now)
        for move in deal["line"].split():
            services.game_act(kind="move", user=player, game_id=game.pk, move=move)
    result = Result.objects.get(game=game)
    check = FairPlayCheck.objects.get(result=result)
    return {
        "kind": f"scout-pair{'' if linked else '-unlinked'}",
        "day": deal["day"],
        "won": result.won,
        "verified": result.status == "verified",
        "held": result.review == "held",
        "reasons": check.reasons,
        "moves": result.moves,
    }
