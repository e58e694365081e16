"""Guests: practice and the archive without an account.

A guest is a real ``User`` row flagged ``is_guest``: a generated username (never shown:
``User.public_name`` says "Guest"), no usable password, no e-mail. It is made on a
visitor's first practice or archive start and logged into that browser's session, so
every game path (the socket, the API's session auth, ``games.access``) serves it like any
player. What a guest may not do is decided in one place, ``games.access.account_required``
(ranked starts, leagues, API tokens, the account pages). Signing up turns the same row
into an account (``guest_convert``), so its games stay with it; signing in to an existing
account instead brings the guest's games to that account (``guest_merge``); a guest idle
for ``FT_GUEST_DAYS`` is deleted with its games (``guests_purge``, daily on beat).
"""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.accounts.services import UsernameTaken, username_taken_message
from games.errors import Conflict
from games.models import Game, User
from games.runtime.live import live_forget
from games.throttles import throttle_check, who


class NotAGuest(Conflict):
    """A sign-up that would convert a guest, for a session whose user is not (or no
    longer) a guest."""

    code = "not_a_guest"


def guest_create(*, address: str | None, device: str | None) -> User:
    """A new guest. Counted per address (``FT_RATE_GUESTS_ADDRESS``) and, when the browser
    has a valid device cookie, per device (``FT_RATE_GUESTS_DEVICE``), as keyed hashes;
    :class:`games.throttles.RateLimited` (429 ``rate_limited`` with ``retry_after``) once
    either is used up. ``device`` is the cookie's keyed digest, never the cookie."""
    throttle_check(
        name="guest_address",
        rate=settings.FT_RATE_GUESTS_ADDRESS,
        ident=who(address=address),
        what="guest games from this network (sign up to keep playing)",
    )
    if device:
        throttle_check(
            name="guest_device",
            rate=settings.FT_RATE_GUESTS_DEVICE,
            ident=who(address=f"device:{device}"),
            what="guest games from this browser (sign up to keep playing)",
        )
    user = User(username=f"guest-{secrets.token_hex(8)}", is_guest=True)
    user.set_unusable_password()
    user.save()
    return user


def guest_convert(*, user: User, username: str, display_name: str, password: str) -> User:
    """Turn the guest ``user`` into an account with ``username``, ``display_name`` and
    ``password`` (already validated by the sign-up form): the same row, so its games stay
    its own. Under the row's lock, so two sign-up tabs convert it once; the second is
    refused ``not_a_guest``. :class:`UsernameTaken` when another sign-up took ``username``
    since the form checked it (the unique index decides; the guest stays a guest)."""
    with transaction.atomic():
        row = User.objects.select_for_update().filter(pk=user.pk, is_guest=True).first()
        if row is None:
            raise NotAGuest("this session's guest has already signed up")
        row.username = username
        row.display_name = display_name
        row.set_password(password)
        row.is_guest = False
        try:
            with transaction.atomic():  # a savepoint: the lost race leaves the lock usable
                row.save(update_fields=["username", "display_name", "password", "is_guest"])
        except IntegrityError:
            raise UsernameTaken(username_taken_message(), field="username") from None
    return row


def guest_merge(*, guest_id: int, into: User) -> int:
    """Give the guest ``guest_id``'s games to the account ``into`` it signed in to, then
        delete the guest: one player keeps one history. Nothing else is the guest's (no ranked
        game, result, league, token or sighting), so moving the games is all. Under the guest
        row's lock (two sign-in tabs merge once); how many games came. This process's live
        copies of them are dropped after the commit; another process's copy still names the
        guest, and its first refusal of the new owner reloads it (``services.play``); an action
    of the guest's there is never written (the log's write is guarded by the game's player,
    ``services.log``), and the guest's sockets are refused ``session_changed``. Nothing
        happens for a row that is not a guest."""
    if into.is_guest or into.pk == guest_id:
        return 0
    with transaction.atomic():
        guest = User.objects.select_for_update().filter(pk=guest_id, is_guest=True).first()
        if guest is None:
            return 0
        games = list(Game.objects.filter(player=guest).values_list("pk", flat=True))
        Game.objects.filter(pk__in=games).update(player=into)
        guest.delete()
        transaction.on_commit(lambda: _forget_all(games), robust=True)
    return len(games)


def _forget_all(games: list[uuid.UUID]) -> None:
    for pk in games:
        live_forget(game_id=pk)


def guests_purge(*, now: datetime | None = None) -> int:
    """Delete guests with no start, action or sign-in for ``FT_GUEST_DAYS`` days, with
    their games (cascade). Returns how many were deleted. A guest never played a ranked
    game, so nothing on a board or in fair play's records goes with it."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.FT_GUEST_DAYS)
    busy = Game.objects.filter(player__is_guest=True).filter(
        created_at__gte=cutoff
    ) | Game.objects.filter(player__is_guest=True, actions__created_at__gte=cutoff)
    # A packed log has no rows: its game's last action is its finish (games.logs).
    busy = busy | Game.objects.filter(player__is_guest=True, finished_at__gte=cutoff)
    idle = (
        User.objects.filter(is_guest=True, date_joined__lt=cutoff)
        .exclude(last_login__gte=cutoff)
        .exclude(pk__in=busy.values("player_id"))
    )
    deleted = 0
    for pk in idle.values_list("pk", flat=True).iterator():
        with transaction.atomic():
            # Asked again row by row: still a guest, still idle (not converted, no new
            # game since the list was read).
            deleted += idle.filter(pk=pk).delete()[1].get("games.User", 0)
    return deleted
