"""The one funnel for permission checks on games: who may play, who may watch, and what
a guest (``User.is_guest``, games.services.guests) may not do: ranked play, leagues, API
tokens and the account pages need an account (:func:`account_required`); and who may see
and enter an arena (:func:`access_arena`: a league's, its members only)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, Literal
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from games.arenas.models import Arena
from games.arenas.selectors import arena_read
from games.errors import Forbidden, NotAuthenticated, NotFound
from games.models import Deal, Game, User
from games.prepared import RowByPk
from games.signals import ArenaLeague, arena_league

Purpose = Literal["play", "watch"]

# The game with its deal and player, as every check reads it (compiled once: a socket's
# connect reads it in every reconnect storm; games.prepared).
GAME_ROWS = Game.objects.select_related("deal", "player")
GAME_ROW = RowByPk(GAME_ROWS)
Role = Literal["player", "watcher"]


@dataclass(frozen=True)
class GameAccess:
    """What the funnel admitted: the game, as read then, and the visitor's role in it."""

    game: Game
    role: Role


def access_game_role(
    *, user: User | AnonymousUser | None, game_id: object, purpose: Purpose
) -> GameAccess:
    """:func:`access_game`, with the role the visitor was admitted in, so no caller asks
    the funnel twice."""
    game = access_game(user=user, game_id=game_id, purpose=purpose)
    return GameAccess(game=game, role=role_in(user=user, game=game))


def access_game_role_read(
    *, user: User | AnonymousUser | None, game: Game | None, purpose: Purpose
) -> GameAccess:
    """:func:`access_game_role` for a game the caller read itself as :data:`GAME_ROWS`
    reads it (``None``: no such game). A socket's connect reads it in the same query as
    its session (``games.socket.session_user``); the rules are the funnel's."""
    if game is None:
        raise NotFound("there is no such game")
    check_game_access(user=user, game=game, purpose=purpose)
    return GameAccess(game=game, role=role_in(user=user, game=game))


class AccountRequired(Forbidden):
    """Something only an account may do (ranked play, a league, an API token, the account
    pages), asked by a guest: sign up (the guest's games come along)."""

    code = "account_required"


def is_guest(user: User | AnonymousUser | None) -> bool:
    """Whether ``user`` is a signed-in guest (a session made by a guest start)."""
    return bool(user is not None and user.is_authenticated and getattr(user, "is_guest", False))


def account_required(*, user: User | AnonymousUser | None, what: str) -> None:
    """Refuse ``what`` (words for the reason, "ranked play") to a visitor without an account:
    :class:`NotAuthenticated` for an anonymous one, :class:`AccountRequired` for a guest."""
    if user is None or not user.is_authenticated:
        raise NotAuthenticated(f"sign in for {what}")
    if is_guest(user):
        raise AccountRequired(f"{what} needs an account: sign up, and your games come with you")


def access_game(
    *,
    user: User | AnonymousUser | None,
    game_id: object,
    purpose: Purpose,
    system: bool = False,
) -> Game:
    """The game ``user`` may ``play`` (its owner only) or ``watch``; else a refusal.

    ``system=True`` is the server itself (closing a day), which may play any
    game; it is never inferred from a missing user, so an interface that loses
    track of its visitor gets the anonymous visitor's rights, not the system's.
    Watching: the owner always; a game of a daily deal that has not closed,
    only players who have finished their own ranked attempt at it; any other
    game, anyone with its link (it is unguessable).
    """
    try:
        pk = uuid.UUID(str(game_id))
    except ValueError:
        raise NotFound(f"{game_id!r} is not a game id") from None
    game = GAME_ROW.get(pk)
    if game is None:
        raise NotFound("there is no such game")
    if system:
        return game
    return check_game_access(user=user, game=game, purpose=purpose)


def check_game_access(*, user: User | AnonymousUser | None, game: Game, purpose: Purpose) -> Game:
    """The rules of :func:`access_game` for a game already read (the move path holds its
    games in memory, ``games.runtime.live``); returns ``game`` or raises the refusal."""
    if user is None:
        user = AnonymousUser()
    if purpose == "play":
        if not user.is_authenticated:
            raise NotAuthenticated("sign in to play")
        if game.player_id != user.pk:
            raise Forbidden("only the game's player may play it")
        return game
    if (user.is_authenticated and game.player_id == user.pk) or may_watch_deal(user, game.deal):
        return game
    if not user.is_authenticated:
        raise NotAuthenticated("sign in: a daily game can be watched once you have played it")
    raise Forbidden("a daily game can be watched once you have finished your own attempt")


def signed_in(user: User | AnonymousUser | None) -> User:
    """The account behind an interface that requires signing in (``login_required``, a
    staff page, an API token): the one narrowing of a request's user to a ``User``;
    :class:`NotAuthenticated` if there is none."""
    if isinstance(user, User) and user.is_authenticated:
        return user
    raise NotAuthenticated("sign in first")


def is_self(*, viewer: User | AnonymousUser | None, user_id: int | None) -> bool:
    """Whether ``viewer`` is the signed-in user ``user_id`` (the owner of a game, a
    scorecard, a result)."""
    return viewer is not None and viewer.is_authenticated and viewer.pk == user_id


def role_in(*, user: User | AnonymousUser | None, game: Game) -> Role:
    """The role of someone ``access_game`` admitted: the game's player, or a watcher."""
    return "player" if is_self(viewer=user, user_id=game.player_id) else "watcher"


def access_replay(*, user: User | AnonymousUser | None, game_id: object) -> Game:
    """A finished game ``user`` may replay move by move: whoever may watch it, except that
    a daily game is replayed by anyone but its player only once its day has closed (a
    finished rival may watch it live, but a replay would be a study aid for the day)."""
    game = access_game(user=user, game_id=game_id, purpose="watch")
    if not game.is_finished:
        raise NotFound("this game is still being played; its replay comes once it ends")
    deal = game.deal
    if (
        deal.is_competition
        and not deal.is_revealed
        and not is_self(viewer=user, user_id=game.player_id)
    ):
        raise Forbidden(f"a game of {deal.competition_label} can be replayed once it closes")
    return game


def may_watch_deal(user: User | AnonymousUser, deal: Deal) -> bool:
    """Whether ``user`` may see other players' games of ``deal`` as they happen."""
    if deal.is_revealed:
        return True
    if not user.is_authenticated:
        return False
    return (
        Game.objects.filter(player=user, deal=deal, mode=Game.Mode.RANKED)
        .exclude(status=Game.Status.ACTIVE)
        .exists()
    )


def account_view(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """``login_required`` for pages only an account may use (the account pages, leagues):
    an anonymous visitor goes to sign in, a guest to sign up (with a word why), both
    coming back here after."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if is_guest(request.user):
            messages.info(request, _("This needs an account. Sign up: your games come with you."))
            return redirect(f"{reverse('signup')}?{urlencode({'next': request.get_full_path()})}")
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return checked


@dataclass(frozen=True)
class ArenaAccess:
    """An arena a visitor may see, and its league (``None``: the site's arena)."""

    arena: Arena
    league: ArenaLeague | None


def access_arena(*, user: User | AnonymousUser | None, arena_id: object) -> ArenaAccess:
    """The arena ``arena_id`` names, if ``user`` may see it (and so enter it): anyone may
    see the site's; a league's only its members (games asks leaderboards,
    ``games.signals.arena_league_wanted``). Anyone else gets ``NotFound``, as a league's
    own pages answer, so neither the league nor its members leak."""
    arena = arena_read(arena_id=arena_id)
    if arena.league_id is None:
        return ArenaAccess(arena=arena, league=None)
    user_id = user.pk if user is not None and user.is_authenticated else None
    league = arena_league(arena.league_id, [user_id] if user_id is not None else [])
    if league is None or user_id not in league.members:
        raise NotFound(_("There is no such arena, or it is a league's and you are not a member."))
    return ArenaAccess(arena=arena, league=league)
