"""Who "play someone now" pairs, pure (no Django): near ratings first, the window of
ratings a waiting player accepts widening with the wait (docs/duels.md, "The queue").

A player who has waited ``w`` seconds accepts an opponent whose duel rating (the shown
value, 1000 for a newcomer) is within :func:`window` of their own: ``BASE`` points at
once, ``GROWTH`` more each second, and every rating from ``ANYONE_AFTER`` seconds on. A
pair is made when the rating gap is within the window of either of the two (the longer
wait decides), so nobody waits longer than ``ANYONE_AFTER`` seconds while anyone they may
be paired with is queued. Among those allowed, the nearest rating wins, then the longer
wait. Linked accounts (same device, same network and browser) are never allowed.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime

#: The window at once (shown rating points), its growth per second of wait, and the wait
#: (seconds) from which any rating is accepted: the most a player waits for a partner.
BASE = 100
GROWTH = 10
ANYONE_AFTER = 60


@dataclass(frozen=True)
class Waiting:
    """A queued player as pairing sees them."""

    player_id: int
    rating: int
    joined_at: datetime


def window(wait_seconds: float) -> float:
    """The rating gap a player who has waited ``wait_seconds`` accepts.

    >>> window(0), window(10), window(59.9), window(60)
    (100, 200, 690, inf)
    """
    if wait_seconds >= ANYONE_AFTER:
        return math.inf
    return BASE + GROWTH * int(max(0.0, wait_seconds))


def may_pair(a: Waiting, b: Waiting, *, now: datetime) -> bool:
    """Whether ``a`` and ``b`` may be paired now: two players, their gap within the wider
    of their windows."""
    if a.player_id == b.player_id:
        return False
    gap = abs(a.rating - b.rating)
    wait_a = (now - a.joined_at).total_seconds()
    wait_b = (now - b.joined_at).total_seconds()
    return gap <= max(window(wait_a), window(wait_b))


def partner_for(
    me: Waiting,
    others: Iterable[Waiting],
    *,
    now: datetime,
    linked: Collection[int] = (),
) -> Waiting | None:
    """The best partner of ``me`` among ``others`` now, or ``None``: never ``me``, never an
    account in ``linked``; the nearest rating first, then the one waiting longest."""
    allowed = [
        other
        for other in others
        if other.player_id != me.player_id
        and other.player_id not in linked
        and may_pair(me, other, now=now)
    ]
    if not allowed:
        return None
    return min(allowed, key=lambda o: (abs(o.rating - me.rating), o.joined_at, o.player_id))
