"""Writes about duels (docs/duels.md): a challenge by link, its acceptance, the start
(both games on one fresh deal at one instant), presence, the clock's flag, a leaver's
forfeit, the result and the rematch. "Play someone now" is :mod:`.duel_queue`.

Each player's game is an ordinary game of mode ``duel`` played through ``game_act`` like
any other (the clock is checked there: ``duel_not_started``, ``time_up``); after each of
its committed actions :func:`duel_game_acted` tells the duel's sockets its counts and
settles the duel when it is over. The server's own resigns (the flag, a forfeit) go
through ``game_resign_at_close``, stamped at the latest at the flag.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games.access import account_required
from games.duels.messages import (
    DuelEndMessage,
    PresenceMessage,
    ProgressMessage,
    RematchMessage,
    StartedMessage,
)
from games.duels.models import DEFAULT_TIME_CONTROL, TIME_CONTROLS, Duel, DuelSeat
from games.duels.outcome import Standing, duel_places
from games.duels.selectors import duel_read, duel_seats, duel_time_ms
from games.engine import EngineError, parse_variant
from games.errors import (
    BadRequest,
    ChallengeExpired,
    ChallengeTaken,
    Forbidden,
    InDuel,
    NotFound,
    OwnChallenge,
)
from games.models import Deal, Game, User
from games.outcomes import ActOutcome
from games.runtime.broadcast import duel_event
from games.runtime.live import live_forget_deal
from games.selectors import accounts_linked_to
from games.services.deals import DAILY_VARIANT
from games.services.duel_deals import duel_deal_draw
from games.services.play import game_resign_at_close
from games.services.starts import game_create
from games.signals import announce_duel_finished
from games.throttles import throttle_check, who

logger = logging.getLogger(__name__)

#: How long past the grace period a seat whose sockets say nothing (no ping: a page's
#: socket pings every 25 s) counts as away, whatever its count of sockets says.
SILENCE_SECONDS = 30

#: The kinds of fair-play link that keep two accounts out of a rated duel: the same
#: browser, or the same network and browser (never the network alone: a household).
LINK_KINDS = frozenset({"device", "network"})


def challenge_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def duel_count(*, user: User, what: str) -> None:
    """A duel action (a challenge made or accepted, a rematch), limited per player by
    ``FT_RATE_DUELS``; a guest or a visitor is refused (duels need an account)."""
    account_required(user=user, what="duels")
    throttle_check(name="duel", rate=settings.FT_RATE_DUELS, ident=who(user_id=user.pk), what=what)


def duel_settings_check(*, variant: str, time_control: int) -> str:
    """The variant's spec, refusing an unknown variant or a time control not offered."""
    if time_control not in TIME_CONTROLS:
        offered = ", ".join(str(t // 60) for t in TIME_CONTROLS)
        raise BadRequest(f"a duel's time control is one of {offered} minutes")
    try:
        return parse_variant(variant).spec
    except EngineError as err:
        raise BadRequest(err.reason) from None


def duel_challenge_create(
    *,
    user: User,
    time_control: int = DEFAULT_TIME_CONTROL,
    variant: str = DAILY_VARIANT,
    now: datetime | None = None,
) -> tuple[Duel, str]:
    """A challenge by link: the duel waiting with the challenger in seat 0, and the link's
    token (shown once; only its SHA-256 is kept). It lapses after
    ``FT_DUEL_CHALLENGE_MINUTES``."""
    now = now or timezone.now()
    duel_count(user=user, what="duel challenges")
    spec = duel_settings_check(variant=variant, time_control=time_control)
    token = secrets.token_urlsafe(24)
    with transaction.atomic():
        duel = Duel.objects.create(
            time_control=time_control,
            variant=spec,
            challenge_digest=challenge_digest(token),
            challenge_expires_at=now + timedelta(minutes=settings.FT_DUEL_CHALLENGE_MINUTES),
            created_at=now,
        )
        DuelSeat.objects.create(duel=duel, seat=0, player=user)
    return duel, token


def duel_challenge_find(*, token: object) -> Duel:
    """The duel a challenge link names (``NotFound`` for any other text)."""
    if not isinstance(token, str) or not 0 < len(token) <= 64:
        raise NotFound("there is no such challenge")
    duel = Duel.objects.filter(challenge_digest=challenge_digest(token)).first()
    if duel is None:
        raise NotFound("there is no such challenge")
    return duel


def duel_challenge_accept(*, user: User, token: object, now: datetime | None = None) -> Duel:
    """The friend's acceptance: seat 1, and the duel starts. Refused to the challenger
    (``own_challenge``), once taken (``challenge_taken``: a duel has two seats), past its
    time (``challenge_expired``) and to a player in a running duel (``in_duel``). Linked
    accounts may play, but their duel is not rated."""
    now = now or timezone.now()
    duel_count(user=user, what="duel challenges accepted")
    duel = duel_challenge_find(token=token)
    return _take_seat(duel=duel, user=user, now=now)


def _take_seat(*, duel: Duel, user: User, now: datetime) -> Duel:
    """Seat 1 of a waiting duel for ``user``, and the start (the row locked on PostgreSQL;
    a second acceptance that raced it anyway meets the seats' unique constraint)."""
    try:
        return _take_seat_locked(duel=duel, user=user, now=now)
    except IntegrityError:
        raise ChallengeTaken("this duel already has its two players") from None


def _take_seat_locked(*, duel: Duel, user: User, now: datetime) -> Duel:
    with transaction.atomic():
        locked = Duel.objects.select_for_update().get(pk=duel.pk)
        seats = list(locked.seats.all())
        if any(s.player_id == user.pk for s in seats):
            if locked.state == Duel.State.WAITING:
                raise OwnChallenge("this is your own challenge: send its link to a friend")
            return locked
        expires = locked.challenge_expires_at
        if locked.state == Duel.State.CANCELLED or (expires is not None and now >= expires):
            raise ChallengeExpired("this challenge has expired: ask for a new link")
        if locked.state != Duel.State.WAITING or len(seats) != 1:
            raise ChallengeTaken("this duel already has its two players")
        duel_check_free(user=user)
        if DuelSeat.objects.filter(
            player_id=seats[0].player_id, duel__state=Duel.State.RUNNING
        ).exists():
            raise InDuel("the challenger is in another duel just now: try the link again soon")
        if are_linked(seats[0].player_id, user.pk):
            locked.rated = False
        DuelSeat.objects.create(duel=locked, seat=1, player=user)
        duel_start(duel=locked, now=now)
        assert locked.started_at is not None
        started = StartedMessage(type="started", started_at=locked.started_at.isoformat())
        key = str(locked.pk)
        transaction.on_commit(lambda: duel_event(key, started), robust=True)
    return locked


def are_linked(a: int, b: int) -> bool:
    """Whether two accounts share a device or a network and browser (fair play's links)."""
    return bool(accounts_linked_to(user_id=a).get(b, set()) & LINK_KINDS)


def duel_check_free(*, user: User) -> None:
    """Refuse a player who is in a running duel already (``in_duel``)."""
    if DuelSeat.objects.filter(player=user, duel__state=Duel.State.RUNNING).exists():
        raise InDuel("you are in a duel already: finish it first")


def duel_start(*, duel: Duel, now: datetime) -> Duel:
    """Start a duel whose two seats are taken (in the caller's transaction): one fresh
    deal, one game per seat, the clock from ``FT_DUEL_COUNTDOWN_SECONDS`` from now (the
    same instant for both) for the time control."""
    opens = _ms(now) + timedelta(seconds=settings.FT_DUEL_COUNTDOWN_SECONDS)
    closes = opens + timedelta(seconds=duel.time_control)
    deal = duel_deal_draw(variant=duel.variant, opens_at=opens, closes_at=closes)
    for seat in duel.seats.select_related("player"):
        seat.game = game_create(user=seat.player, deal=deal, mode=Game.Mode.DUEL)
        seat.away_since = opens  # not connected yet: the grace runs from the start
        seat.save(update_fields=["game", "away_since"])
    duel.deal, duel.state = deal, Duel.State.RUNNING
    duel.started_at, duel.ends_at = opens, closes
    duel.save(update_fields=["deal", "state", "started_at", "ends_at", "rated"])
    return duel


def duel_rematch(*, user: User, duel_id: object, now: datetime | None = None) -> Duel:
    """A rematch of a finished duel: the first of its players to ask makes the offer (a
    waiting duel, the same time control and variant), the other's asking accepts it and
    it starts; asking again returns it. One rematch per duel."""
    now = now or timezone.now()
    duel_count(user=user, what="rematches")
    old = duel_read(duel_id=duel_id)
    seats = {s.player_id: s for s in old.seats.all()}
    if user.pk not in seats:
        raise Forbidden("only the duel's players may ask for a rematch")
    if old.state != Duel.State.FINISHED:
        raise BadRequest("a rematch is asked for once the duel is over")
    offer = Duel.objects.filter(rematch_of=old).first()
    if offer is None:
        try:
            return _rematch_offer(old=old, user=user, now=now)
        except IntegrityError:  # the other player's offer at the same moment: accept it
            offer = Duel.objects.get(rematch_of=old)
    if offer.state != Duel.State.WAITING or offer.seats.filter(player=user).exists():
        return offer
    return _take_seat(duel=offer, user=user, now=now)


def _rematch_offer(*, old: Duel, user: User, now: datetime) -> Duel:
    with transaction.atomic():
        offer = Duel.objects.create(
            time_control=old.time_control,
            variant=old.variant,
            rated=old.rated,
            rematch_of=old,
            created_at=now,
            challenge_expires_at=now + timedelta(minutes=settings.FT_DUEL_CHALLENGE_MINUTES),
        )
        DuelSeat.objects.create(duel=offer, seat=0, player=user)
        told = RematchMessage(type="rematch", duel_id=str(offer.pk))
        key = str(old.pk)
        transaction.on_commit(lambda: duel_event(key, told), robust=True)
    return offer


def duel_presence(
    *, duel_id: object, user_id: int, delta: int, now: datetime | None = None
) -> int | None:
    """A player's duel socket opened (``delta`` 1) or closed (-1): the seat's count of
    sockets, and since when none is open (the grace period runs from then). Returns the
    seat, or ``None`` for someone who is not a player of the duel; its sockets are told
    after the commit."""
    now = now or timezone.now()
    seat = DuelSeat.objects.filter(duel_id=str(duel_id), player_id=user_id).first()
    if seat is None:
        return None
    DuelSeat.objects.filter(pk=seat.pk).update(sockets=F("sockets") + delta, seen_at=now)
    seat.refresh_from_db(fields=["sockets", "away_since"])
    connected = seat.sockets > 0
    if connected and seat.away_since is not None:
        DuelSeat.objects.filter(pk=seat.pk).update(away_since=None)
    elif not connected:
        DuelSeat.objects.filter(pk=seat.pk).update(sockets=0, away_since=now)
    message = PresenceMessage(type="presence", seat=seat.seat, connected=connected)
    key = str(seat.duel_id)
    transaction.on_commit(lambda: duel_event(key, message), robust=True)
    return seat.seat


def duel_heartbeat(*, duel_id: object, user_id: int, now: datetime | None = None) -> None:
    """A player's duel socket is alive (its ping): the seat was seen now."""
    DuelSeat.objects.filter(duel_id=str(duel_id), player_id=user_id).update(
        seen_at=now or timezone.now()
    )


def _gone(seat: DuelSeat, *, now: datetime) -> bool:
    """Whether a seat with an active game has been away past the grace period: no duel
    socket open since ``away_since``, or none heard from for the grace period and
    ``SILENCE_SECONDS`` more (a count left by a server process that died)."""
    grace = timedelta(seconds=settings.FT_DUEL_GRACE_SECONDS)
    if seat.sockets <= 0 and seat.away_since is not None and now - seat.away_since >= grace:
        return True
    silence = grace + timedelta(seconds=SILENCE_SECONDS)
    return seat.sockets > 0 and seat.seen_at is not None and now - seat.seen_at >= silence


#: Each duel game's seat and duel, read once a process: they never change once the duel
#: has started (the game is made with its seat), and reading them again after every move
#: (a query joining the duel and the game, ~2 ms of CPU compiling and loading it) was a
#: third of a duel move's cost (docs/benchmarks.md, "Duels under load"). Bounded: the
#: oldest entries go first (a process sees at most a few thousand duels at once).
_SEATS: dict[str, tuple[int, str]] = {}
_SEATS_MAX = 20_000


def _seat_of_game(game_id: object) -> tuple[int, str] | None:
    """The seat number and duel id of a duel's game (``None`` for any other game)."""
    key = str(game_id)
    found = _SEATS.get(key)
    if found is None:
        row = DuelSeat.objects.filter(game_id=key).values_list("seat", "duel_id").first()
        if row is None:
            return None
        if len(_SEATS) >= _SEATS_MAX:
            del _SEATS[next(iter(_SEATS))]  # dicts keep their order: the oldest first
        found = _SEATS[key] = (row[0], str(row[1]))
    return found


def duel_game_acted(*, result: ActOutcome) -> None:
    """After a committed action of a duel's game: its counts to the duel's sockets, and
    the duel settled if that ended it. Never a card: counts only."""
    found = None if result.progress is None else _seat_of_game(result.game_id)
    if found is None or result.progress is None:
        return
    seat, duel_id = found
    finished = result.status != Game.Status.ACTIVE
    time_ms = None  # an active game has no time yet; a finished one is read once, here
    if finished:
        row = DuelSeat.objects.select_related("duel", "game").get(duel_id=duel_id, seat=seat)
        time_ms = duel_time_ms(row.duel, row.game)
    message = ProgressMessage(
        type="progress",
        seat=seat,
        home=result.progress.home,
        stock=result.progress.stock,
        score=result.score,
        moves=result.moves,
        version=result.version,
        status=result.status,  # type: ignore[typeddict-item]
        time_ms=time_ms,
    )
    duel_event(duel_id, message)
    if finished:
        duel_settle(duel_id=duel_id)


def duel_tick(*, duel_id: object, now: datetime | None = None) -> Duel:
    """What the clock says of a duel now (its sockets' timers, each message, the sweep):
    at the flag every game still active is resigned by the server; a player with an
    active game and no duel socket open for ``FT_DUEL_GRACE_SECONDS`` forfeits (the
    game resigned); then the duel is settled. Idempotent."""
    now = now or timezone.now()
    duel = duel_read(duel_id=duel_id)
    if duel.state not in (Duel.State.RUNNING, Duel.State.FINISHED) or duel.ends_at is None:
        return duel
    seats = duel_seats(duel)
    active = [s for s in seats if s.game is not None and not s.game.is_finished]
    if now >= duel.ends_at:
        for seat in active:
            game_resign_at_close(game_id=seat.game_id)
    elif duel.state == Duel.State.RUNNING:
        gone = [s for s in active if _gone(s, now=now)]
        if gone:
            DuelSeat.objects.filter(pk__in=[s.pk for s in gone]).update(forfeited=True)
            for seat in gone:
                game_resign_at_close(game_id=seat.game_id)
    duel_settle(duel_id=duel.pk, now=now)
    duel.refresh_from_db()
    return duel


def duel_settle(*, duel_id: object, now: datetime | None = None) -> None:
    """Decide a running duel once it is over (a forfeit, or both games finished), and once
    every game is over reveal its deal and announce it (``duel_finished``: the rating
    waits for both verified results). Each happens once (conditional updates)."""
    now = now or timezone.now()
    duel = duel_read(duel_id=duel_id)
    seats = duel_seats(duel)
    over = all(s.game is not None and s.game.is_finished for s in seats)
    if duel.state == Duel.State.RUNNING and (over or any(s.forfeited for s in seats)):
        _decide(duel, seats, now=now)
        duel.refresh_from_db()
    if duel.state != Duel.State.FINISHED or not over or duel.deal_id is None:
        return
    if Deal.objects.filter(pk=duel.deal_id, revealed_at__isnull=True).update(revealed_at=now):
        live_forget_deal(deal_id=duel.deal_id)  # its games' copies read the reveal again
        key = str(duel.pk)
        transaction.on_commit(lambda: announce_duel_finished(key), robust=True)


def _decide(duel: Duel, seats: list[DuelSeat], *, now: datetime) -> None:
    standings = [
        Standing(
            forfeited=s.forfeited,
            won=s.game is not None and s.game.status == Game.Status.WON,
            score=s.game.score if s.game else 0,
            moves=s.game.moves if s.game else 0,
            duration_ms=duel_time_ms(duel, s.game) or duel.time_control * 1000,
        )
        for s in seats
    ]
    places = duel_places(standings)
    if places == [1, 1]:
        outcome, winner = Duel.Outcome.TIE, None
    else:
        outcome = Duel.Outcome.FORFEIT if any(s.forfeited for s in seats) else Duel.Outcome.ORDER
        winner = seats[places.index(1)].player_id
    with transaction.atomic():
        decided = Duel.objects.filter(pk=duel.pk, state=Duel.State.RUNNING).update(
            state=Duel.State.FINISHED, ended_at=now, outcome=outcome, winner_id=winner
        )
        if not decided:
            return
        for seat, place in zip(seats, places, strict=True):
            DuelSeat.objects.filter(pk=seat.pk).update(place=place)
        message = DuelEndMessage(type="duel_end", outcome=outcome, places=places)
        key = str(duel.pk)
        transaction.on_commit(lambda: duel_event(key, message), robust=True)


def duel_sweep(*, now: datetime | None = None) -> int:
    """The beat's pass (``games.duel_sweep``, every 15 s): every running duel past its
    flag or with a seat away, and every finished one whose games are not all over, ticked;
    challenges past their time cancelled; queue entries nobody asked about dropped.
    Returns how many duels it ticked."""
    from games.duels.models import DuelQueueEntry

    now = now or timezone.now()
    Duel.objects.filter(state=Duel.State.WAITING, challenge_expires_at__lte=now).update(
        state=Duel.State.CANCELLED
    )
    cutoff = now - timedelta(seconds=settings.FT_DUEL_QUEUE_SECONDS)
    DuelQueueEntry.objects.filter(seen_at__lt=cutoff).delete()
    silent = now - timedelta(seconds=settings.FT_DUEL_GRACE_SECONDS + SILENCE_SECONDS)
    due = (
        Duel.objects.filter(state=Duel.State.RUNNING, ends_at__lte=now)
        | Duel.objects.filter(state=Duel.State.RUNNING, seats__sockets__lte=0)
        | Duel.objects.filter(state=Duel.State.RUNNING, seats__seen_at__lt=silent)
        | Duel.objects.filter(
            state=Duel.State.FINISHED, ends_at__lte=now, seats__game__status=Game.Status.ACTIVE
        )
    )
    ticked = 0
    for duel_id in due.values_list("pk", flat=True).distinct()[:500]:
        try:
            duel_tick(duel_id=duel_id, now=now)
            ticked += 1
        except Exception:
            logger.exception("the sweep's tick of duel %s failed", duel_id)
    return ticked


def _ms(at: datetime) -> datetime:
    return at.replace(microsecond=at.microsecond // 1000 * 1000)
