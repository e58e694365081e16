"""Writes: opening and closing daily deals, starting games and playing them.

Every change to a game goes through :func:`game_act`, which locks the game
row, lets the engine judge the action, appends it to the move log and bumps
the version in one transaction; watchers are told only after it commits.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
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
    ServiceError,
    StaleVersion,
)
from games.models import Action, Deal, Game, User
from games.payloads import board_changes
from games.solver import SolveResult, hint, is_dead, solve

logger = logging.getLogger(__name__)

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


class DealNotCertified(ServiceError):
    """No daily seed candidate was won by the solver within the budget."""

    code, status = "deal_not_certified", 503


@dataclass(frozen=True)
class Certificate:
    """The candidate that became a daily deal and what the solver found for it."""

    candidate: int
    seed: int
    verdict: str = ""  # "" when certification is off
    line: tuple[str, ...] = ()
    nodes: int | None = None
    seconds: float | None = None


Solver = Callable[..., SolveResult]


def certify_daily_seed(
    *,
    day: date,
    variant: str,
    seconds: float,
    max_nodes: int | None = None,
    max_candidates: int = 50,
    solver: Solver = solve,
    secret: str | None = None,
) -> Certificate:
    """The first seed candidate of ``day`` the solver wins within the budget.

    Candidates ``0, 1, 2, ...`` are tried in order (each is HMAC-derived, so the choice
    is as secret as the seed); ``seconds == 0`` turns certification off (candidate 0,
    unsolved). Raises :class:`DealNotCertified` when none of ``max_candidates`` is won.
    ``solver`` is :func:`games.solver.solve` except in tests of the loop itself.
    """
    secret = settings.FT_DAILY_SECRET if secret is None else secret
    if seconds <= 0:
        return Certificate(candidate=0, seed=daily_seed(secret, day, variant, 0))
    for candidate in range(max_candidates):
        seed = daily_seed(secret, day, variant, candidate)
        engine = Engine.from_seed(seed, variant, undo_limit=0)
        result = solver(engine, max_seconds=seconds, max_nodes=max_nodes)
        logger.info(
            "daily %s %s candidate %d: %s in %d nodes, %.2f s",
            day,
            variant,
            candidate,
            result.verdict,
            result.nodes,
            result.seconds,
        )
        if result.verdict == "win":
            return Certificate(
                candidate=candidate,
                seed=seed,
                verdict="win",
                line=tuple(result.line),
                nodes=result.nodes,
                seconds=result.seconds,
            )
    raise DealNotCertified(
        f"no candidate of the {variant} deal of {day} was won by the solver within"
        f" {seconds:g} s each ({max_candidates} tried); the deal stays unopened"
    )


def difficulty_for(verdict: str, nodes: int | None) -> int:
    """Stars from the solver's effort: 1 (easy) to 5, or 0 when no winning line was found.

    >>> difficulty_for("win", 800), difficulty_for("win", 60_000), difficulty_for("lost", 9)
    (1, 4, 0)
    """
    if verdict != "win" or nodes is None:
        return 0
    for stars, limit in enumerate(DIFFICULTY_NODE_LIMITS, start=1):
        if nodes <= limit:
            return stars
    return len(DIFFICULTY_NODE_LIMITS) + 1


#: Upper bounds of solver nodes for 1, 2, 3 and 4 stars; more is 5 stars.
DIFFICULTY_NODE_LIMITS = (1_000, 5_000, 20_000, 100_000)


def deal_open_daily(
    *, day: date, variant: str = DAILY_VARIANT, seconds: float | None = None
) -> Deal:
    """Create the day's deal if it does not exist yet (idempotent).

    The seed comes from the server secret, the date and a candidate number: the first
    candidate the solver wins within ``seconds`` (``FT_DAILY_CERTIFY_SECONDS`` by default;
    0 = no certification). Only the commitment to its code (with a random salt) is public
    until the day closes; the winning line is as secret as the code. Certifying may take
    a while: beat opens each day ahead of time. Raises :class:`DealNotCertified` when no
    candidate is won (nothing is stored; the next run tries again).
    """
    existing = Deal.objects.filter(kind=Deal.Kind.DAILY, day=day, variant=variant).first()
    if existing is not None:
        return existing
    rules = parse_variant(variant)
    budget = settings.FT_DAILY_CERTIFY_SECONDS if seconds is None else seconds
    cert = certify_daily_seed(
        day=day,
        variant=rules.spec,
        seconds=budget,
        max_nodes=settings.FT_DAILY_CERTIFY_NODES or None,
        max_candidates=settings.FT_DAILY_MAX_CANDIDATES,
    )
    code = format_code(rules, cert.seed)
    salt = secrets.token_hex(16)
    try:
        with transaction.atomic():
            return Deal.objects.create(
                kind=Deal.Kind.DAILY,
                variant=rules.spec,
                day=day,
                seed_hex=f"{cert.seed:032x}",
                code=code,
                salt=salt,
                commitment=commitment(code, salt),
                opens_at=day_start(day),
                closes_at=day_end(day),
                candidate=cert.candidate,
                solver_verdict=cert.verdict,
                solution=" ".join(cert.line),
                solver_nodes=cert.nodes,
                solver_seconds=cert.seconds,
                difficulty=difficulty_for(cert.verdict, cert.nodes) if cert.verdict else None,
            )
    except IntegrityError:  # opened concurrently: the other one stands
        return Deal.objects.get(kind=Deal.Kind.DAILY, day=day, variant=variant)


def deal_rate(*, deal_id: int, seconds: float | None = None, force: bool = False) -> Deal:
    """Rate a deal's difficulty with the solver (once; ``force`` rates again).

    Used for practice deals (a certified daily deal is rated when it opens). The
    line found is stored too; it is shown only for a daily deal after its day closes.
    """
    deal = Deal.objects.filter(pk=deal_id).first()
    if deal is None:
        raise NotFound(f"there is no deal {deal_id}")
    if deal.is_rated and not force:
        return deal
    budget = settings.FT_RATE_SECONDS if seconds is None else seconds
    if budget <= 0:
        return deal
    engine = Engine.from_seed(deal.seed, deal.variant, undo_limit=0)
    result = solve(engine, max_seconds=budget)
    fields = {
        "solver_verdict": result.verdict,
        "solver_nodes": result.nodes,
        "solver_seconds": result.seconds,
        "difficulty": difficulty_for(result.verdict, result.nodes),
    }
    if result.verdict == "win":  # else any line found before stays
        fields["solution"] = " ".join(result.line)
    Deal.objects.filter(pk=deal.pk).update(**fields)
    deal.refresh_from_db()
    return deal


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
    game = _new_game(user=user, deal=deal, mode=Game.Mode.PRACTICE)
    if not deal.is_rated and settings.FT_RATE_PRACTICE_ON_START and settings.FT_RATE_SECONDS > 0:
        deal_id = deal.pk
        transaction.on_commit(lambda: _enqueue_rating(deal_id), robust=True)
    return game


def _enqueue_rating(deal_id: int) -> None:
    from games.tasks import rate_deal  # the tasks call the services, not the reverse

    rate_deal.delay(deal_id)


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
        game.dead_end = not game.is_finished and _is_dead_end(engine)
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
        # True only when the solver proved that no win is left (stock spent, no redeal).
        changes["dead_end"] = game.dead_end
        result = _result(game, action, changes)
        # After commit only, and robust: a broker or layer hiccup must not undo an accepted
        # move; the verification sweep re-enqueues anything that was lost.
        transaction.on_commit(lambda: broadcast.game_action(result), robust=True)
        if game.is_finished:
            finished_id = str(game.pk)
            transaction.on_commit(lambda: _enqueue_verification(finished_id), robust=True)
    return result


def _is_dead_end(engine: Engine) -> bool:
    """Whether no win is possible any more: decided exactly once the stock is spent and no
    redeal is left (``is_dead`` answers None before that, at once), within a small budget
    so a move never stalls; undecided counts as "no"."""
    verdict = is_dead(
        engine,
        max_seconds=settings.FT_DEAD_END_MS / 1000,
        max_nodes=settings.FT_DEAD_END_NODES or None,
    )
    return verdict is True


@dataclass(frozen=True)
class HintResult:
    """A hint: the move (``None`` when there is none), the hints taken so far, and the
    version of the game the hint was computed for."""

    game_id: str
    move: str | None
    hints: int
    version: int


def game_hint(*, user: User, game_id: object) -> HintResult:
    """A hint for the player's practice game: the next move of a winning line the solver
    finds in about ``FT_HINT_SECONDS``, else the best heuristic move (``None`` when there
    is no move). Each hint given is counted on the game.

    The search runs without the row lock (it takes up to a second); the count is then
    added atomically. Ranked and finished games get no hints.
    """
    game = access_game(user=user, game_id=game_id, purpose="play")
    if game.mode == Game.Mode.RANKED:
        raise Forbidden("ranked games have no hints")
    if game.is_finished:
        raise GameOver(f"this game is over ({game.status})")
    engine = Engine.load(game.state)
    move = hint(engine, max_seconds=settings.FT_HINT_SECONDS)
    if move is not None:
        Game.objects.filter(pk=game.pk).update(hints=F("hints") + 1)
        game.refresh_from_db(fields=["hints"])
    return HintResult(game_id=str(game.pk), move=move, hints=game.hints, version=game.version)


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
