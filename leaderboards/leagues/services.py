"""Every write of leagues: create, join, leave, remove a member, rotate the invite, delete,
and make one of the league's own arenas (games' arena, kept with the league's id).

Each takes the acting user and refuses with a :mod:`leaderboards.leagues.errors` (or
:mod:`games.errors`) refusal, never a server error. Limits (``FT_LEAGUES_PER_PLAYER``,
``FT_LEAGUE_MEMBERS``) are checked under row locks (the player's row, the league's row),
so two joins at once cannot both take the last place. A change of membership changes
what the league's boards show: their pages are nudged after the commit.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import services as game_services
from games.arenas.models import Arena
from games.engine import VARIANTS
from games.errors import NotFound
from games.models import User
from games.throttles import throttle_check
from leaderboards.leagues.access import access_league
from leaderboards.leagues.broadcast import league_changed
from leaderboards.leagues.errors import (
    ArenaBounds,
    LeagueFull,
    LeagueNameInvalid,
    OwnerCannotLeave,
    TooManyArenas,
    TooManyLeagues,
)
from leaderboards.leagues.models import NAME_MAX, League, Membership
from leaderboards.leagues.selectors import invite_digest, invite_token_for, league_for_invite


def _new_invite() -> dict[str, str]:
    """A fresh nonce and the digest of the token it gives (see ``League.invite_nonce``)."""
    nonce = secrets.token_hex(16)
    return {"invite_nonce": nonce, "invite_digest": invite_digest(invite_token_for(nonce))}


def _clean_name(name: str) -> str:
    cleaned = " ".join((name or "").split())
    if not cleaned or len(cleaned) > NAME_MAX:
        raise LeagueNameInvalid(
            _("A league needs a name of 1 to %(max)d characters (this one has %(n)d).")
            % {"max": NAME_MAX, "n": len(cleaned)}
        )
    return cleaned


def _lock_player(user: User) -> None:
    """Serialise one player's creates and joins, then check their number of leagues."""
    User.objects.select_for_update().filter(pk=user.pk).first()
    count = Membership.objects.filter(user_id=user.pk).count()
    limit = settings.FT_LEAGUES_PER_PLAYER
    if count >= limit:
        raise TooManyLeagues(
            _(
                "You are already in %(count)d leagues, the most a player may be in"
                " (%(limit)d): leave one before you create or join another."
            )
            % {"count": count, "limit": limit}
        )


def league_create(*, user: User, name: str) -> League:
    """A new league owned (and joined) by ``user``."""
    cleaned = _clean_name(name)
    with transaction.atomic():
        _lock_player(user)
        league = League.objects.create(name=cleaned, owner=user, **_new_invite())
        Membership.objects.create(league=league, user=user)
    return league


def league_join(*, user: User, token: str) -> League:
    """Join the league the token opens; joining a league one is in already changes nothing."""
    with transaction.atomic():
        league = league_for_invite(token=token)
        if Membership.objects.filter(league=league, user_id=user.pk).exists():
            return league
        _lock_player(user)
        League.objects.select_for_update().filter(pk=league.pk).first()
        members = Membership.objects.filter(league=league).count()
        limit = settings.FT_LEAGUE_MEMBERS
        if members >= limit:
            raise LeagueFull(
                _(
                    "%(name)s is full: it has %(members)d members, the most a league may"
                    " have (%(limit)d)."
                )
                % {"name": league.name, "members": members, "limit": limit}
            )
        try:
            with transaction.atomic():
                Membership.objects.create(league=league, user=user)
        except IntegrityError:  # the same player joining twice at once: one row is enough
            return league
        league_id = league.pk
        transaction.on_commit(lambda: league_changed(league_id=league_id), robust=True)
    return league


def league_leave(*, user: User, league_id: object) -> League:
    """Leave a league. Its owner cannot leave it (they delete it instead), or it would be
    left without anyone who can manage it."""
    league = access_league(user=user, league_id=league_id, purpose="view")
    if league.owner_id == user.pk:
        raise OwnerCannotLeave(
            _("You own this league, so you cannot leave it: delete the league instead.")
        )
    _membership_delete(league, user.pk)
    return league


def league_member_remove(*, user: User, league_id: object, member_id: int) -> League:
    """The owner removes a member (not themselves: see :func:`league_leave`)."""
    league = access_league(user=user, league_id=league_id, purpose="manage")
    if member_id == user.pk:
        raise OwnerCannotLeave(_("You own this league: delete it instead of removing yourself."))
    if not Membership.objects.filter(league=league, user_id=member_id).exists():
        raise NotFound(_("That player is not a member of this league."))
    _membership_delete(league, member_id)
    return league


def _membership_delete(league: League, user_id: int) -> None:
    with transaction.atomic():
        Membership.objects.filter(league=league, user_id=user_id).delete()
        league_id = league.pk
        transaction.on_commit(lambda: league_changed(league_id=league_id), robust=True)


def league_invite_rotate(*, user: User, league_id: object) -> League:
    """A new invite link for the league; the old one stops working at once."""
    league = access_league(user=user, league_id=league_id, purpose="manage")
    invite = _new_invite()
    League.objects.filter(pk=league.pk).update(**invite, invite_rotated_at=timezone.now())
    league.invite_nonce, league.invite_digest = invite["invite_nonce"], invite["invite_digest"]
    return league


def league_delete(*, user: User, league_id: object) -> str:
    """The owner deletes the league and its memberships; returns its name."""
    league = access_league(user=user, league_id=league_id, purpose="manage")
    name = league.name
    league.delete()
    return name


#: A league's arena's bounds (docs/arenas.md, "A league's arenas"): its start from
#: ARENA_SOONEST minutes to ARENA_LATEST_DAYS days ahead (time for members to join; no
#: table of far-off arenas), its length and its rounds' in minutes, at least two rounds.
ARENA_SOONEST = 2
ARENA_LATEST_DAYS = 14
ARENA_MINUTES = (10, 180)
ARENA_ROUND_MINUTES = (3, 15)
ARENA_VARIANTS = tuple(rules.spec for rules in VARIANTS.values())


def arena_bounds_shown() -> dict[str, int]:
    """The bounds as the league page's form states them."""
    return {
        "soonest": ARENA_SOONEST,
        "days": ARENA_LATEST_DAYS,
        "low": ARENA_MINUTES[0],
        "high": ARENA_MINUTES[1],
        "round_low": ARENA_ROUND_MINUTES[0],
        "round_high": ARENA_ROUND_MINUTES[1],
        "open": settings.FT_LEAGUE_ARENAS_OPEN,
    }


def _arena_bounds(*, starts_at: datetime, minutes: int, round_minutes: int, now: datetime) -> None:
    """Refuse (``arena_bounds``) an arena outside the bounds, naming what is expected."""
    soonest = now + timedelta(minutes=ARENA_SOONEST)
    if starts_at < soonest or starts_at > now + timedelta(days=ARENA_LATEST_DAYS):
        raise ArenaBounds(
            _("An arena starts from %(soonest)d minutes to %(days)d days from now (in UTC).")
            % {"soonest": ARENA_SOONEST, "days": ARENA_LATEST_DAYS}
        )
    low, high = ARENA_ROUND_MINUTES
    if not low <= round_minutes <= high:
        raise ArenaBounds(
            _("A round lasts %(low)d to %(high)d minutes.") % {"low": low, "high": high}
        )
    shortest, longest = ARENA_MINUTES
    if not max(shortest, 2 * round_minutes) <= minutes <= longest:
        raise ArenaBounds(
            _(
                "An arena lasts %(low)d to %(high)d minutes, and at least two rounds"
                " (%(two)d minutes with rounds of %(round)d)."
            )
            % {"low": shortest, "high": longest, "two": 2 * round_minutes, "round": round_minutes}
        )


def league_arena_create(
    *,
    user: User,
    league_id: object,
    starts_at: datetime,
    minutes: int,
    round_minutes: int,
    variant: str,
    now: datetime | None = None,
) -> Arena:
    """The league's owner makes one of its arenas: only its members may see and enter it
    (games asks, ``games.signals.arena_league_wanted``). Refused: ``forbidden`` to a
    member who is not the owner, ``not_found`` to anyone else; ``arena_bounds`` outside
    the bounds above; ``rate_limited`` past ``FT_RATE_LEAGUE_ARENAS`` arenas made by the
    league; ``too_many_arenas`` while it has ``FT_LEAGUE_ARENAS_OPEN`` not yet finished."""
    now = now or timezone.now()
    league = access_league(user=user, league_id=league_id, purpose="manage")
    if variant not in ARENA_VARIANTS:
        raise ArenaBounds(
            _("Choose one of the variants offered (%(variants)s).")
            % {"variants": ", ".join(ARENA_VARIANTS)}
        )
    starts_at = starts_at.replace(second=0, microsecond=0)
    _arena_bounds(starts_at=starts_at, minutes=minutes, round_minutes=round_minutes, now=now)
    throttle_check(
        name="league_arenas",
        rate=settings.FT_RATE_LEAGUE_ARENAS,
        ident=f"league:{league.pk}",
        what=_("arenas made by this league"),
    )
    with transaction.atomic():
        League.objects.select_for_update().filter(pk=league.pk).first()  # one count at once
        open_now = Arena.objects.filter(league_id=league.pk, finished_at__isnull=True).count()
        limit = settings.FT_LEAGUE_ARENAS_OPEN
        if open_now >= limit:
            raise TooManyArenas(
                _(
                    "This league has %(count)d arenas not yet finished, the most it may have"
                    " (%(limit)d): make the next once one has finished."
                )
                % {"count": open_now, "limit": limit}
            )
        return game_services.arena_create(
            starts_at=starts_at,
            minutes=minutes,
            round_minutes=round_minutes,
            variant=variant,
            created_by=user,
            league_id=league.pk,
        )
