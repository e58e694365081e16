"""Writes that start games: the ranked attempt at the daily deal and the weekly
challenge (one per player and deal, resumed after), practice of any deal, and the
archive's replays of closed days. Each start is throttled per player."""

from __future__ import annotations

from datetime import date, datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.access import access_game, account_required
from games.daily import utc_today
from games.errors import (
    BadRequest,
    Conflict,
    DayClosed,
    DayNotClosed,
    Forbidden,
    NoDeal,
    NotFound,
)
from games.models import Deal, Game, User
from games.privacy.identity import ranked_attempt_check
from games.services.deals import (
    DAILY_VARIANT,
    deal_for_code,
    deal_open_daily,
    deal_open_weekly,
    deal_random,
)
from games.services.practice_pool import practice_pool_draw
from games.table_settings import settings_of
from games.throttles import throttle_check, who
from games.weekly import week_monday


def game_start_daily(*, user: User, now: datetime | None = None) -> Game:
    """The player's ranked game of today's deal: started on first open, resumed after."""
    now = now or timezone.now()
    account_required(user=user, what="the daily deal (ranked play)")
    _count_start(user)
    deal = deal_open_daily(day=utc_today(now))
    return _ranked_game(
        user=user,
        deal=deal,
        # By the clock, as the weekly's and as every action: the reveal may run late.
        closed=deal.has_closed(now),
        closed_reason=f"{deal.competition_label} has closed; a new one opens at 00:00 UTC",
    )


def game_start_weekly(*, user: User, now: datetime | None = None) -> Game:
    """The player's ranked game of this ISO week's challenge: started on first open,
    resumed after (one attempt per player and deal, as for the daily)."""
    now = now or timezone.now()
    account_required(user=user, what="the weekly challenge (ranked play)")
    _count_start(user)
    deal = deal_open_weekly(monday=week_monday(utc_today(now)))
    return _ranked_game(
        user=user,
        deal=deal,
        closed=deal.has_closed(now),
        closed_reason=f"{deal.competition_label} has closed; a new one opens at 00:00 UTC"
        " on Monday",
    )


def _ranked_game(*, user: User, deal: Deal, closed: bool, closed_reason: str) -> Game:
    """The player's one ranked game of a competition deal: resumed if it exists, else
    started unless the competition has ``closed`` (refused with ``closed_reason``)."""
    game = Game.objects.filter(player=user, deal=deal, mode=Game.Mode.RANKED).first()
    if game is not None:
        return game
    if closed:
        raise DayClosed(closed_reason)
    ranked_attempt_check(user=user, deal=deal)
    try:
        with transaction.atomic():
            return game_create(user=user, deal=deal, mode=Game.Mode.RANKED)
    except IntegrityError:  # a second tab opened it at the same moment
        return Game.objects.get(player=user, deal=deal, mode=Game.Mode.RANKED)


def _count_start(user: User) -> None:
    """A ranked start or resume, limited as practice starts are (``FT_RATE_PRACTICE_STARTS``,
    counted apart): each may open (and certify) the day's or week's deal if beat has not,
    and a loop of them is no player."""
    throttle_check(
        name="ranked_start",
        rate=settings.FT_RATE_PRACTICE_STARTS,
        ident=who(user_id=user.pk),
        what="ranked games started or resumed",
    )


def game_start_practice(
    *,
    user: User,
    code: str | None = None,
    variant: str | None = None,
    deal_id: int | None = None,
    winnable: bool = False,
    stars: int | None = None,
) -> Game:
    """A new practice game: of a deal code, of a daily deal the player has finished
    (or that has closed), or of a random deal of ``variant`` — with ``winnable`` (and
    ``stars``, 1 to 5), one the solver proved winnable (``practice_pool_draw``; refused
    ``pool_empty`` when none is ready)."""
    if sum(x is not None for x in (code, variant, deal_id)) > 1:
        raise BadRequest("give one of a deal code, a variant (for a random deal) or a deal id")
    # Each start may queue a solver rating: a flood of them would starve the workers.
    throttle_check(
        name="practice",
        rate=settings.FT_RATE_PRACTICE_STARTS,
        ident=who(user_id=user.pk),
        what="practice games started",
    )
    if code is not None:
        deal = deal_for_code(code=code)
    elif deal_id is not None:
        found = Deal.objects.filter(pk=deal_id).first()
        if found is None:
            raise NotFound(f"there is no deal {deal_id}")
        deal = found
    elif winnable or stars is not None:
        deal = practice_pool_draw(user=user, variant=variant or DAILY_VARIANT, stars=stars)
    else:
        deal = deal_random(variant=variant or DAILY_VARIANT)
    if deal.is_duel and not deal.is_revealed:
        raise Forbidden("a duel's deal is secret until its duel ends")
    if deal.is_competition and not deal.is_revealed and not _has_finished_ranked(user, deal):
        raise Forbidden(
            f"practise {deal.competition_label} after your ranked attempt or once it closes"
        )
    game = game_create(user=user, deal=deal, mode=Game.Mode.PRACTICE)
    if not deal.is_rated and settings.FT_RATE_PRACTICE_ON_START and settings.FT_RATE_SECONDS > 0:
        deal_id = deal.pk
        transaction.on_commit(lambda: _enqueue_rating(deal_id), robust=True)
    return game


def game_start_archive(*, user: User, day: date, now: datetime | None = None) -> Game:
    """An archive game of ``day``'s closed daily deal: unranked, with undo and hints (the
    deal is revealed), never on a board. Resumes the player's unfinished archive game of
    that day, else starts a new one. Refuses a day without a deal (``no_deal``) and one
    whose deal has not closed yet (``day_not_closed``: it is still the ranked deal).
    Counted against the practice starts' limit (``FT_RATE_PRACTICE_STARTS``)."""
    now = now or timezone.now()
    deal = Deal.objects.filter(kind=Deal.Kind.DAILY, day=day, variant=DAILY_VARIANT).first()
    if deal is None:
        raise NoDeal(f"there was no daily deal on {day.isoformat()}")
    if not deal.has_closed(now):
        raise DayNotClosed(
            f"the deal of {day.isoformat()} has not closed yet; it joins the archive at"
            " 00:00 UTC after its day"
        )
    game = (
        Game.objects.filter(
            player=user, deal=deal, mode=Game.Mode.ARCHIVE, status=Game.Status.ACTIVE
        )
        .order_by("-created_at")
        .first()
    )
    if game is not None:
        return game
    throttle_check(
        name="practice",
        rate=settings.FT_RATE_PRACTICE_STARTS,
        ident=who(user_id=user.pk),
        what="practice and archive games started",
    )
    return game_create(user=user, deal=deal, mode=Game.Mode.ARCHIVE)


def _enqueue_rating(deal_id: int) -> None:
    from games.tasks import rate_deal  # here: games.tasks imports the services

    rate_deal.delay(deal_id)


def _has_finished_ranked(user: User, deal: Deal) -> bool:
    return (
        Game.objects.filter(player=user, deal=deal, mode=Game.Mode.RANKED)
        .exclude(status=Game.Status.ACTIVE)
        .exists()
    )


def game_create(*, user: User, deal: Deal, mode: str) -> Game:
    """A new game of ``deal`` in ``mode`` for ``user``, unchecked: the callers (the starts
    here, New game and Restart in ``games.services.table``) have checked the limits and the
    player's right to it."""
    game = game_build(user=user, deal=deal, mode=mode)
    game.save(force_insert=True)
    return game


def game_build(*, user: User, deal: Deal, mode: str) -> Game:
    """``game_create``'s game, unsaved: for a caller that inserts many at once (an arena
    round's open, ``games.services.arenas``)."""
    # The log is the game: a new one is its deal and no actions (``games.runtime.live``). The
    # player's "send safe cards home" is fixed on the game now, for all its moves.
    auto_home = settings_of(getattr(user, "table_settings", None))["auto_home"]
    return Game(player=user, deal=deal, mode=mode, auto_home=auto_home)


def game_discard_unstarted(*, user: User, game_id: object) -> None:
    """Delete the player's own practice game that has no action yet (an abandoned start,
    which "My games" would otherwise list as active for ever). Anything else is refused:
    a game with a move is the player's record, a ranked or archive start is not the
    player's to unmake. Limited as practice starts are (``FT_RATE_PRACTICE_STARTS``)."""
    throttle_check(
        name="practice",
        rate=settings.FT_RATE_PRACTICE_STARTS,
        ident=who(user_id=user.pk),
        what="practice games started or discarded",
    )
    game = access_game(user=user, game_id=game_id, purpose="play")  # its owner only
    if game.mode != Game.Mode.PRACTICE:
        raise Forbidden("only a practice game can be discarded")
    if game.version or game.status != Game.Status.ACTIVE:
        raise Conflict("only a practice game with no move yet can be discarded")
    game.delete()
