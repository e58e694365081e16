"""The benchmark's players, made directly through Django in the benchmark's own process:
users, a real session each (its cookie, as a browser would send it) and a practice game
each, started through the project's services. Needs Django set up on the run's database.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.db.models import Sum

PREFIX = "load-"


@dataclass(frozen=True)
class Player:
    """What a client needs to play: the game to open and the session cookie to open it."""

    username: str
    game_id: str
    cookie: str


def session_cookie(user: Any) -> str:
    """A real session for ``user``, saved where the servers read sessions, as the ``Cookie``
    header value a signed-in browser sends. It holds what ``django.contrib.auth.login``
    writes; login() itself is not called, so a thousand players do not mean a thousand
    sign-in signals (axes logs each one)."""
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def make_players(count: int, *, variant: str = "forty-thieves") -> list[Player]:
    """``count`` players, each with a fresh session and a new practice game.

    The users are kept between runs (named ``load-00001`` ...); the games are new, so
    every run starts from full stocks."""
    from games import services
    from games.models import User

    players = []
    for n in range(1, count + 1):
        user, _ = User.objects.get_or_create(username=f"{PREFIX}{n:05d}")
        game = services.game_start_practice(user=user, variant=variant)
        players.append(Player(user.username, str(game.pk), session_cookie(user)))
    return players


def stock_turned(game_ids: list[str], turns: int) -> None:
    """Give each game of ``game_ids`` (new, at version 0) a log of ``turns`` stock turns, as
    if its player had turned them: the log's rows and the row's version and move count in
    bulk, so a storm's games have a log to read and replay, as players' games mid-play do
    after a deploy (a thousand games through the services one move at a time would take
    minutes). A stock turn is legal while the stock lasts (64 cards in the classic game)."""
    from django.db import transaction
    from django.utils import timezone

    from games.models import Action, Game

    if turns <= 0:
        return
    now = timezone.now()
    actions = [
        Action(game_id=pk, seq=seq, move="s", client_id=f"load-{seq}", score=0, created_at=now)
        for pk in game_ids
        for seq in range(1, turns + 1)
    ]
    with transaction.atomic():
        Action.objects.bulk_create(actions, batch_size=5000)
        Game.objects.filter(pk__in=game_ids, version=0).update(
            version=turns, moves=turns, first_action_at=now
        )


def versions(game_ids: list[str]) -> int:
    """The sum of the games' versions: each accepted action adds one, once committed, so
    the difference across a run is the number of actions that were made durable."""
    from games.models import Game

    total = Game.objects.filter(pk__in=game_ids).aggregate(total=Sum("version"))["total"]
    return int(total or 0)
