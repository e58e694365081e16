"""The one permission check of leagues: who may see a league and who may manage it.

A league is private: to anyone who is not a member, signed in or not, every league URL
and socket answers as if the league did not exist (``NotFound``: 404, close code 4404),
so neither its existence nor its members leak. A member who asks to manage it without
owning it gets ``Forbidden`` (403): they already know it exists.
"""

from __future__ import annotations

from typing import Literal

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _

from games.errors import Forbidden, NotFound
from games.models import User
from leaderboards.leagues.models import League, Membership

Purpose = Literal["view", "manage"]


def access_league(
    *, user: User | AnonymousUser | None, league_id: object, purpose: Purpose
) -> League:
    """The league ``user`` may ``view`` (any member) or ``manage`` (its owner); else the
    refusal described above."""
    try:
        pk = int(str(league_id))
    except ValueError:
        raise NotFound(_("There is no such league.")) from None
    if user is None or not user.is_authenticated:
        raise NotFound(_("There is no such league (sign in if you are one of its members)."))
    league = League.objects.filter(pk=pk, memberships__user_id=user.pk).first()
    if league is None:
        raise NotFound(_("There is no such league, or you are not one of its members."))
    if purpose == "manage" and not may_manage(user=user, league=league):
        raise Forbidden(_("Only the league's owner may do that."))
    return league


def may_manage(*, user: User | AnonymousUser | None, league: League) -> bool:
    """Whether ``user`` may manage ``league`` (a member :func:`access_league` admitted):
    its owner only. Pages ask it to show the owner's controls."""
    return user is not None and user.is_authenticated and league.owner_id == user.pk


def is_member(*, league_id: int, user_id: int) -> bool:
    return Membership.objects.filter(league_id=league_id, user_id=user_id).exists()
