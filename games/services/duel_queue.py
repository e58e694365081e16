"""\"Play someone now\": the queue of players waiting for a duel (docs/duels.md, "The
queue"). A player's page joins and then asks every 2 s (each ask is a join: it keeps the
entry alive and tries a pairing); who is paired with whom is ``games.duels.pairing``'s,
near ratings first, the window widening with the wait, never two linked accounts. A
pair is taken out of the queue by one delete of both entries: a second pairing of either
player in another process deletes fewer than two and gives up, so nobody is in two duels.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.access import account_required
from games.duels.models import DEFAULT_TIME_CONTROL, Duel, DuelQueueEntry, DuelSeat
from games.duels.pairing import Waiting, partner_for
from games.models import User
from games.selectors import accounts_linked_to
from games.services.deals import DAILY_VARIANT
from games.services.duels import LINK_KINDS, duel_settings_check, duel_start
from games.signals import duel_ratings
from games.throttles import throttle_check, who

#: How many waiting players one pairing looks at (the nearest ratings first).
CANDIDATES = 200


class _Lost(Exception):
    """Another pairing took one of the two entries first."""


def duel_queue_join(
    *,
    user: User,
    variant: str = DAILY_VARIANT,
    time_control: int = DEFAULT_TIME_CONTROL,
    now: datetime | None = None,
) -> Duel | None:
    """Join the queue, or ask again: the player's running duel when there is one (paired
    meanwhile), else a new duel with the best partner waiting now, else ``None`` (still
    waiting). Limited per player by ``FT_RATE_DUEL_QUEUE``; an account only."""
    now = now or timezone.now()
    account_required(user=user, what="duels")
    throttle_check(
        name="duel_queue",
        rate=settings.FT_RATE_DUEL_QUEUE,
        ident=who(user_id=user.pk),
        what="asks to the duel queue",
    )
    spec = duel_settings_check(variant=variant, time_control=time_control)
    running = (
        DuelSeat.objects.filter(player=user, duel__state=Duel.State.RUNNING)
        .select_related("duel")
        .first()
    )
    if running is not None:
        DuelQueueEntry.objects.filter(player=user).delete()
        return running.duel
    entry = DuelQueueEntry.objects.filter(player=user).first()
    if entry is None or (entry.variant, entry.time_control) != (spec, time_control):
        DuelQueueEntry.objects.filter(player=user).delete()
        rating = duel_ratings([user.pk])[user.pk]
        try:
            with transaction.atomic():
                entry = DuelQueueEntry.objects.create(
                    player=user,
                    rating=rating,
                    variant=spec,
                    time_control=time_control,
                    joined_at=now,
                    seen_at=now,
                )
        except IntegrityError:  # the same player's other ask at the same moment
            return None
    else:
        DuelQueueEntry.objects.filter(pk=entry.pk).update(seen_at=now)
    return _pair(entry, now=now)


def duel_queue_leave(*, user: User) -> None:
    """Leave the queue (the page closed its search); nothing if not in it."""
    DuelQueueEntry.objects.filter(player=user).delete()


def _pair(entry: DuelQueueEntry, *, now: datetime) -> Duel | None:
    cutoff = now - timedelta(seconds=settings.FT_DUEL_QUEUE_SECONDS)
    others = [
        Waiting(player_id=o.player_id, rating=o.rating, joined_at=o.joined_at)
        for o in DuelQueueEntry.objects.filter(
            variant=entry.variant, time_control=entry.time_control, seen_at__gte=cutoff
        )
        .exclude(player_id=entry.player_id)
        .order_by("joined_at")[:CANDIDATES]
    ]
    if not others:
        return None
    linked = {
        other
        for other, kinds in accounts_linked_to(user_id=entry.player_id).items()
        if kinds & LINK_KINDS
    }
    me = Waiting(player_id=entry.player_id, rating=entry.rating, joined_at=entry.joined_at)
    partner = partner_for(me, others, now=now, linked=linked)
    if partner is None:
        return None
    try:
        with transaction.atomic():
            taken, _ = DuelQueueEntry.objects.filter(
                player_id__in=[me.player_id, partner.player_id]
            ).delete()
            if taken != 2:
                raise _Lost
            duel = Duel.objects.create(
                time_control=entry.time_control, variant=entry.variant, created_at=now
            )
            # Seat 0 to the one who waited longer.
            DuelSeat.objects.create(duel=duel, seat=0, player_id=partner.player_id)
            DuelSeat.objects.create(duel=duel, seat=1, player_id=me.player_id)
            return duel_start(duel=duel, now=now)
    except _Lost:
        return None
