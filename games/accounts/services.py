"""Accounts people manage themselves: making one, deleting one, and gathering its data to
download.

Deleting removes the person's rows (games and their move logs, fair-play sightings, API
tokens; leaderboards' results by cascade) and never a deal: ``Game.deal`` is PROTECT, and
other players' games of the same deal stay as they are. What lives outside the database
(the Redis boards) is undone by the apps listening to ``games.signals.account_deleting``.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.errors import BadRequest, Conflict
from games.logcodec import LogEntry
from games.logs import compact_logs
from games.models import Action, Deal, Game, User
from games.privacy.identity import deleted_account_keep, deletion_keeps
from games.runtime.live import live_forget
from games.signals import account_deleting, account_exporting

EXPORT_FORMAT = 1


class WrongPassword(BadRequest):
    code = "wrong_password"


class UsernameTaken(Conflict):
    """A sign-up whose username another sign-up took after the form checked it (people
    racing for one new name, on any process): answered with the form's own "name taken"."""

    code = "username_taken"


def username_taken_message() -> str:
    """What the sign-up form says of a taken name (the model field's ``unique`` message,
    in Django's own translations), so a lost race reads as the form's check does."""
    return str(User._meta.get_field("username").error_messages["unique"])


def account_create(*, username: str, display_name: str, email: str, password: str) -> User:
    """A new account from the sign-up form's cleaned data (as ``SignUpForm.save`` makes
    it). The form's check of the name ran before this; the unique index decides a race:
    :class:`UsernameTaken` for the sign-ups that lost it, never a server error."""
    user = User(username=username, display_name=display_name, email=email)
    user.set_password(password)
    try:
        with transaction.atomic():  # a savepoint: the caller's transaction stays usable
            user.save()
    except IntegrityError:
        raise UsernameTaken(username_taken_message(), field="username") from None
    return user


def account_delete(*, user: User, password: str) -> None:
    """Delete ``user`` and everything that is theirs, once ``password`` is theirs."""
    if not password or not user.check_password(password):
        raise WrongPassword(_("The password is not right: the account was not deleted."))
    with transaction.atomic():
        game_ids = list(Game.objects.filter(player=user).values_list("pk", flat=True))
        account_deleting.send(sender=User, user_id=user.pk)
        # Fair play keeps keyed hashes while an open competition deal needs them (identity).
        deleted_account_keep(user=user)
        user.delete()
        # This process's engines of those games go too (games.runtime.live).
        transaction.on_commit(lambda: _forget(game_ids), robust=True)


def _forget(game_ids: list[Any]) -> None:
    for game_id in game_ids:
        live_forget(game_id=game_id)


def account_export(*, user: User) -> dict[str, Any]:
    """Everything kept about ``user`` that is theirs to take away, as JSON-ready data:
    the profile, every game with its move log, and what other apps add (their results)."""
    data: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now().isoformat(),
        "profile": {
            "username": user.get_username(),
            "display_name": user.display_name,
            "email": user.email,
            "language": user.language,
            "date_joined": user.date_joined.isoformat(),
            "last_login": user.last_login.isoformat() if user.last_login else None,
        },
        "games": _games(user),
        # What a deletion now would keep for fair play, and for how long (issue 19).
        "fair_play_after_deletion": deletion_keeps(user=user),
    }
    for _receiver, sections in account_exporting.send(sender=User, user_id=user.pk):
        # Each listener answers a dict of sections (or nothing).
        if isinstance(sections, dict):
            data.update(sections)
    return data


def _games(user: User) -> list[dict[str, Any]]:
    games = Game.objects.filter(player=user).select_related("deal").order_by("created_at")
    moves: dict[Any, list[dict[str, Any]]] = {}
    actions = Action.objects.filter(game__player=user).order_by("game_id", "seq")
    for action in actions:
        moves.setdefault(action.game_id, []).append(_exported(action))
    # Games whose logs compact_logs packed have no rows (games.logs: read after the rows).
    unpacked = [pk for pk in games.values_list("pk", flat=True) if pk not in moves]
    for game_id, entries in compact_logs(game_ids=unpacked).items():
        moves[game_id] = [_exported(entry) for entry in entries]
    return [
        {
            "id": str(game.pk),
            "mode": game.mode,
            "status": game.status,
            "variant": game.deal.variant,
            "deal_kind": game.deal.kind,
            "deal_day": game.deal.day.isoformat() if game.deal.day else None,
            # A daily deal's code is secret until its day closes.
            "deal_code": game.deal.code if _deal_public(game.deal) else None,
            "score": game.score,
            "moves": game.moves,
            "hints": game.hints,
            "created_at": game.created_at.isoformat(),
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
            "actions": moves.get(game.pk, []),
        }
        for game in games
    ]


def _exported(action: Action | LogEntry) -> dict[str, Any]:
    return {
        "seq": action.seq,
        "move": action.move,
        "score": action.score,
        "by_system": action.by_system,
        "at": action.created_at.isoformat(),
    }


def _deal_public(deal: Deal) -> bool:
    return deal.is_revealed


def account_password_reset_mail(*, email: str, domain: str, use_https: bool, language: str) -> None:
    """Mail a password-reset link to each active account with ``email`` (none: nothing).

    Run by the ``games.password_reset_mail`` task, never in the request: whether an account
    has the address decides whether a mail is rendered and sent, and the request's time
    would tell (52-83 ms against 9-20 ms when measured in the request). The page answers
    the same at once either way."""
    form = PasswordResetForm(data={"email": email})
    if not form.is_valid():
        return
    # The mail says how long the link works, in whole hours rounded up (the setting is in
    # seconds; never "0 hours").
    # (Typed Any: the stubs want str values, the template's plural needs the number.)
    extra: dict[str, Any] = {"hours": max(1, math.ceil(settings.PASSWORD_RESET_TIMEOUT / 3600))}
    with translation.override(language):
        form.save(domain_override=domain, use_https=use_https, extra_email_context=extra)


def account_language_save(*, user: User, language: str) -> bool:
    """Keep ``language`` (a code of settings.LANGUAGES) as the account's language, the one
    it is shown in on every browser it signs in on. An unknown code changes nothing;
    whether it was kept is the answer."""
    if language not in dict(settings.LANGUAGES) or user.language == language:
        return language == user.language
    user.language = language
    user.save(update_fields=["language"])
    return True
