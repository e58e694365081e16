"""Writes: opening and closing daily deals, starting games and playing them.

Every change to a game goes through :func:`game_act`, which locks the game
row, lets the engine judge the action, appends it to the move log and bumps
the version in one transaction; watchers are told only after it commits.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import broadcast
from games.access import access_game
from games.daily import daily_seed, day_end, day_start, utc_today
from games.engine import (
    UNDO,
    EngineError,
    format_code,
    format_move,
    parse_code,
    parse_move,
    parse_variant,
)
from games.engine import Game as Engine
from games.engine.deal import SHORT_SEED_LIMIT, commitment
from games.engine.errors import InvalidMove
from games.engine.notation import EXPECTED as MOVE_EXPECTED
from games.errors import (
    BadRequest,
    DayClosed,
    Forbidden,
    GameOver,
    NotFound,
    Refused,
    StaleVersion,
)
from games.models import Action, Deal, Game, User
from games.payloads import board_changes

DAILY_VARIANT = "forty-thieves"
PRACTICE_UNDO = 100
RESIGN = "resign"


@dataclass(frozen=True)
class ActResult:
    """What an accepted action did, for the player's acknowledgement and the watchers."""

    game_id: str
    version: int
    action: str
    score: int
    moves: int
    status: str
    changes: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = False


# Deals ---------------------------------------------------------------------


def deal_open_daily(*, day: date, variant: str = DAILY_VARIANT) -> Deal:
    """Create the day's deal if it does not exist yet (idempotent).

    The seed comes from the server secret and the date; only the commitment to
    its code (with a random salt) is public until the day closes.
    """
    existing = Deal.objects.filter(kind=Deal.Kind.DAILY, day=day, variant=variant).first()
    if existing is not None:
        return existing
    rules = parse_variant(variant)
    seed = daily_seed(settings.FT_DAILY_SECRET, day, rules.spec)
    code = format_code(rules, seed)
    salt = secrets.token_hex(16)
    try:
        with transaction.atomic():
            return Deal.objects.create(
                kind=Deal.Kind.DAILY,
                variant=rules.spec,
                day=day,
                seed_hex=f"{seed:032x}",
                code=code,
                salt=salt,
                commitment=commitment(code, salt),
                opens_at=day_start(day),
                closes_at=day_end(day),
            )
    except IntegrityError:  # opened concurrently: the other one stands
        return Deal.objects.get(kind=Deal.Kind.DAILY, day=day, variant=variant)


def deal_close_daily(*, day: date, now: datetime | None = None) -> int:
    """Reveal the day's deals once the day is over and end their unfinished ranked
    games (as resigned: the day's competition is over). Returns how many deals
    were closed now; closing again changes nothing."""
    now = now or timezone.now()
    closed = 0
    for deal in Deal.objects.filter(kind=Deal.Kind.DAILY, day=day, revealed_at__isnull=True):
        if deal.closes_at and now < deal.closes_at:
            raise DayClosed(f"the deal of {day} closes at {deal.closes_at:%Y-%m-%d %H:%M} UTC")
        for game_id in deal.games.filter(
            mode=Game.Mode.RANKED, status=Game.Status.ACTIVE
        ).values_list("id", flat=True):
            _act(
                game_id=game_id,
                user=None,
                system=True,
                action=RESIGN,
                client_id="system:day-closed",
            )
        Deal.objects.filter(pk=deal.pk).update(revealed_at=now)
        closed += 1
    return closed


def deal_for_code(*, code: str) -> Deal:
    """The practice deal a code names (created on first use)."""
    try:
        rules, seed = parse_code(code)
    except EngineError as err:
        raise BadRequest(err.reason) from None
    canonical = format_code(rules, seed)
    deal = Deal.objects.filter(code=canonical).first()
    if deal is not None:
        return deal
    try:
        with transaction.atomic():
            return Deal.objects.create(
                kind=Deal.Kind.PRACTICE, variant=rules.spec, seed_hex=f"{seed:032x}", code=canonical
            )
    except IntegrityError:
        return Deal.objects.get(code=canonical)


def deal_random(*, variant: str) -> Deal:
    """A fresh practice deal of ``variant`` with a short (7-character) code."""
    try:
        rules = parse_variant(variant)
    except EngineError as err:
        raise BadRequest(err.reason) from None
    return deal_for_code(code=format_code(rules, secrets.randbelow(SHORT_SEED_LIMIT)))


# Games ---------------------------------------------------------------------


def game_start_daily(*, user: User, now: datetime | None = None) -> Game:
    """The player's ranked game of today's deal: started on first open, resumed after."""
    now = now or timezone.now()
    deal = deal_open_daily(day=utc_today(now))
    game = Game.objects.filter(player=user, deal=deal, mode=Game.Mode.RANKED).first()
    if game is not None:
        return game
    if deal.revealed_at is not None:
        raise DayClosed("today's deal has closed; a new one opens at 00:00 UTC")
    try:
        with transaction.atomic():
            return _new_game(user=user, deal=deal, mode=Game.Mode.RANKED)
    except IntegrityError:  # a second tab opened it at the same moment
        return Game.objects.get(player=user, deal=deal, mode=Game.Mode.RANKED)


def game_start_practice(
    *,
    user: User,
    code: str | None = None,
    variant: str | None = None,
    deal_id: int | None = None,
) -> Game:
    """A new practice game: of a deal code, of a daily deal the player has finished
    (or that has closed), or of a random deal of ``variant``."""
    if sum(x is not None for x in (code, variant, deal_id)) > 1:
        raise BadRequest("give one of a deal code, a variant (for a random deal) or a deal id")
    if code is not None:
        deal = deal_for_code(code=code)
    elif deal_id is not None:
        deal = Deal.objects.filter(pk=deal_id).first()
        if deal is None:
            raise NotFound(f"there is no deal {deal_id}")
    else:
        deal = deal_random(variant=variant or DAILY_VARIANT)
    if deal.is_daily and not deal.is_revealed and not _has_finished_ranked(user, deal):
        raise Forbidden("practise a daily deal after your ranked attempt or once the day closes")
    return _new_game(user=user, deal=deal, mode=Game.Mode.PRACTICE)


def _has_finished_ranked(user: User, deal: Deal) -> bool:
    return (
        Game.objects.filter(player=user, deal=deal, mode=Game.Mode.RANKED)
        .exclude(status=Game.Status.ACTIVE)
        .exists()
    )


def _new_game(*, user: User, deal: Deal, mode: str) -> Game:
    undo = 0 if mode == Game.Mode.RANKED else PRACTICE_UNDO
    engine = Engine.from_seed(deal.seed, deal.variant, undo_limit=undo)
    return Game.objects.create(player=user, deal=deal, mode=mode, state=engine.dump())


def game_play(
    *, user: User, game_id: str, move: str, client_id: str = "", version: int | None = None
) -> ActResult:
    """Play one move in the engine's notation."""
    if not isinstance(move, str) or move.strip().lower() in ("", UNDO, RESIGN):
        # undo and resign are actions of their own, never moves in the notation.
        raise Refused(InvalidMove(f"{move!r} is not a move: {MOVE_EXPECTED}"))
    return _act(game_id=game_id, user=user, action=move, client_id=client_id, version=version)


def game_undo(
    *, user: User, game_id: str, client_id: str = "", version: int | None = None
) -> ActResult:
    """Take back the last action (practice games only)."""
    return _act(game_id=game_id, user=user, action=UNDO, client_id=client_id, version=version)


def game_resign(
    *, user: User, game_id: str, client_id: str = "", version: int | None = None
) -> ActResult:
    """End the game; it counts as a loss."""
    return _act(game_id=game_id, user=user, action=RESIGN, client_id=client_id, version=version)


def _act(
    *,
    game_id: str,
    user: User | None,
    action: str,
    client_id: str = "",
    version: int | None = None,
    system: bool = False,
) -> ActResult:
    """Apply one action under the game's row lock; ``system`` is the server itself."""
    client_id = _check_client_id(client_id)
    with transaction.atomic():
        game = access_game(user=user, game_id=game_id, purpose="play", lock=True, system=system)
        if client_id:
            done = game.actions.filter(client_id=client_id).first()
            if done is not None:
                return _result(game, done.move, {}, version=done.seq, duplicate=True)
        if game.is_finished:
            raise GameOver(f"this game is over ({game.status})")
        if version is not None and version != game.version:
            raise StaleVersion(
                f"the game is at version {game.version}, not {version}; resync first",
                version=game.version,
            )
        engine = Engine.load(game.state)
        before = engine.view()
        try:
            if action == RESIGN:
                game.status = Game.Status.RESIGNED
            elif action == UNDO:
                if game.mode == Game.Mode.RANKED:
                    raise Forbidden("ranked games have no undo")
                engine.undo()
            else:
                engine.play(action)
                action = format_move(parse_move(action))
        except EngineError as err:
            raise Refused(err) from None
        # Whole milliseconds: the boards keep finish times to the millisecond, and the
        # result must carry the game's own time.
        now = timezone.now()
        now = now.replace(microsecond=now.microsecond // 1000 * 1000)
        if engine.is_won():
            game.status = Game.Status.WON
        elif engine.is_stuck():
            game.status = Game.Status.LOST
        game.version += 1
        game.state = engine.dump()
        game.score, game.moves = engine.score, engine.moves
        game.first_action_at = game.first_action_at or now
        if game.is_finished:
            game.finished_at = now
        Action.objects.create(
            game=game,
            seq=game.version,
            move=action,
            client_id=client_id,
            score=game.score,
            created_at=now,
        )
        game.save()
        changes = board_changes(before, engine.view())
        # The new legal moves let the board highlight targets without knowing a rule.
        changes["legal_moves"] = [] if game.is_finished else engine.legal_moves()
        result = _result(game, action, changes)
        # After commit only, and robust: a broker or layer hiccup must not undo an accepted
        # move; the verification sweep re-enqueues anything that was lost.
        transaction.on_commit(lambda: broadcast.game_action(result), robust=True)
        if game.is_finished:
            finished_id = str(game.pk)
            transaction.on_commit(lambda: _enqueue_verification(finished_id), robust=True)
    return result


def _enqueue_verification(game_id: str) -> None:
    from leaderboards.tasks import verify_game  # leaderboards builds on games, not the reverse

    verify_game.delay(game_id)


def _check_client_id(client_id: object) -> str:
    if client_id is None:
        return ""
    if not isinstance(client_id, str) or len(client_id) > 64:
        raise BadRequest("a client message id is text of at most 64 characters")
    return client_id


def _result(
    game: Game,
    action: str,
    changes: dict[str, Any],
    *,
    version: int | None = None,
    duplicate: bool = False,
) -> ActResult:
    return ActResult(
        game_id=str(game.pk),
        version=game.version if version is None else version,
        action=action,
        score=game.score,
        moves=game.moves,
        status=game.status,
        changes=changes,
        duplicate=duplicate,
    )


# API tokens ----------------------------------------------------------------
# Appended as its own section (imports included) so it merges cleanly with work on the
# services above.

import hashlib  # noqa: E402
from datetime import timedelta  # noqa: E402

from django.db.models import Q  # noqa: E402

from games.errors import Conflict  # noqa: E402
from games.models import ApiToken  # noqa: E402

API_TOKEN_PREFIX = "ft_"
API_TOKENS_PER_USER = 20
# Writing last_used_at on every request would turn each API read into a write.
API_TOKEN_TOUCH_EVERY = timedelta(minutes=1)
_API_TOKEN_MAX_LENGTH = 200  # a real token is 46 characters; longer is junk


def _api_token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def api_token_create(*, user: User, name: str = "") -> tuple[ApiToken, str]:
    """A new API token for ``user``: the row and the raw token, which is shown only now.

    Only the token's SHA-256 is stored (the raw token has 256 random bits, so a plain
    hash is enough: there is nothing to brute-force), plus its first characters so the
    owner can tell tokens apart.
    """
    name = (name or "").strip()
    if len(name) > ApiToken._meta.get_field("name").max_length:
        raise BadRequest("a token name is at most 60 characters")
    if ApiToken.objects.filter(user=user).count() >= API_TOKENS_PER_USER:
        raise Conflict(f"you have {API_TOKENS_PER_USER} tokens already; revoke one first")
    raw = API_TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=raw[:8], digest=_api_token_digest(raw)
    )
    return token, raw


def api_token_revoke(*, user: User, token_id: int) -> None:
    """Delete one of ``user``'s tokens; someone else's token is "not found", not "forbidden",
    so token ids reveal nothing."""
    deleted, _ = ApiToken.objects.filter(user=user, pk=token_id).delete()
    if not deleted:
        raise NotFound(f"you have no token {token_id}")


def api_token_authenticate(*, raw: str, now: datetime | None = None) -> User | None:
    """The active user a raw token belongs to, else ``None``; notes when it was last used."""
    if not isinstance(raw, str) or not raw.startswith(API_TOKEN_PREFIX):
        return None
    if len(raw) > _API_TOKEN_MAX_LENGTH:
        return None
    token = ApiToken.objects.select_related("user").filter(digest=_api_token_digest(raw)).first()
    if token is None or not token.user.is_active:
        return None
    now = now or timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= API_TOKEN_TOUCH_EVERY:
        # A conditional UPDATE: concurrent requests do not write the same minute twice.
        ApiToken.objects.filter(pk=token.pk).filter(
            Q(last_used_at__isnull=True) | Q(last_used_at__lte=now - API_TOKEN_TOUCH_EVERY)
        ).update(last_used_at=now)
    return token.user
