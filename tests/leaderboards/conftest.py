"""Shared helpers for the leaderboards tests: real move logs, stuck logs, result factories.

Helpers are handed out as fixtures (the suite imports test modules with
``--import-mode=importlib``, so a conftest is not importable by name).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from games.engine import RESIGN, GameState, format_code, parse_code, parse_variant
from games.engine.audit import Claim, Logged
from tests.support.worker_redis import worker_redis_url

WON_GAMES_FILE = Path(__file__).resolve().parent.parent / "data" / "won_games.json"
RANKED_UNDO, PRACTICE_UNDO = 0, 100
CLASSIC = "forty-thieves"


@dataclass(frozen=True)
class WonGame:
    """One real winning move log from ``tests/data/won_games.json``."""

    code: str
    variant: str
    seed: int
    moves: list[str]
    score: int
    move_count: int


def load_won_games() -> list[WonGame]:
    games = json.loads(WON_GAMES_FILE.read_text())["games"]
    out = []
    for g in games:
        rules, seed = parse_code(g["code"])
        out.append(
            WonGame(
                code=g["code"],
                variant=rules.spec,
                seed=seed,
                moves=g["moves"].split(),
                score=int(g["score"]),
                move_count=int(g["move_count"]),
            )
        )
    return out


WON_GAMES = load_won_games()


@dataclass(frozen=True)
class Played:
    """A log replayed by the engine itself: the actions as the server records them."""

    log: list[Logged]
    engine: GameState
    status: str

    def claim(self, **changes: object) -> Claim:
        fields: dict[str, object] = {
            "seed": self.engine.seed,
            "variant": self.engine.variant,
            "undo_limit": self.undo_limit,
            "status": self.status,
            "score": self.engine.score,
            "moves": self.engine.moves,
        }
        fields.update(changes)
        return Claim(**fields)  # type: ignore[arg-type]

    @property
    def undo_limit(self) -> int:
        return self.engine.dump()["undo_limit"]


def play_log(seed: int, variant: str, moves: Sequence[str], *, undo_limit: int = 0) -> Played:
    """Play ``moves`` (``undo``/``resign`` included) and record each action with its score."""
    engine = GameState.from_seed(seed, variant, undo_limit=undo_limit)
    log: list[Logged] = []
    status = "active"
    for seq, move in enumerate(moves, start=1):
        if move == RESIGN:
            status = "resigned"
        else:
            engine.replay([move])
            if engine.is_won():
                status = "won"
            elif engine.is_stuck():
                status = "lost"
        log.append(Logged(seq, move, engine.score))
    return Played(log, engine, status)


def stuck_moves(seed: int, variant: str = CLASSIC, limit: int = 3000) -> list[str] | None:
    """A simple policy (foundation moves first, then any move reaching an unseen position,
    drawing last) played until the game is stuck; ``None`` if it cycles or wins instead."""
    engine = GameState.from_seed(seed, variant, undo_limit=0)

    def shape(game: GameState) -> str:
        dump = game.dump()
        return repr([dump[k] for k in ("columns", "down", "waste", "stock", "foundations")])

    seen = {shape(engine)}
    moves: list[str] = []
    while not engine.is_stuck() and not engine.is_won() and len(moves) < limit:
        legal = engine.legal_moves()
        home = [m for m in legal if "-f" in m]
        rest = [m for m in legal if m != "s" and m not in home]
        chosen = None
        for move in home + rest + (["s"] if "s" in legal else []):
            probe = engine.copy()
            probe.play(move)
            if shape(probe) not in seen:
                seen.add(shape(probe))
                chosen = move
                break
        if chosen is None:
            return None
        engine.play(chosen)
        moves.append(chosen)
    return moves if engine.is_stuck() else None


def first_stuck_deal(variant: str = CLASSIC) -> tuple[int, list[str]]:
    """The first seed whose simple-policy playout ends stuck, and its moves."""
    for seed in itertools.count(1):
        moves = stuck_moves(seed, variant)
        if moves is not None:
            return seed, moves
    raise AssertionError("unreachable")


@pytest.fixture(scope="session")
def won_games() -> list[WonGame]:
    return WON_GAMES


@pytest.fixture(scope="session")
def stuck_deal() -> tuple[int, list[str]]:
    """(seed, moves) of a forty-thieves deal played by the simple policy until stuck."""
    return first_stuck_deal()


@pytest.fixture(scope="session")
def stuck_code(stuck_deal: tuple[int, list[str]]) -> str:
    return format_code(parse_variant(CLASSIC), stuck_deal[0])


# Results for the boards ------------------------------------------------------------------


# Other test runs may share the Redis at the same time: a day of this process's own keeps
# their boards and ours apart (the board key is per day).
BOARD_DAY = date(2200, 1, 1) + timedelta(days=os.getpid() % 30_000)


@pytest.fixture
def board_day() -> date:
    return BOARD_DAY


PRACTICE_CODE = "FT1-N-0000007"


@pytest.fixture
def make_result(db: None) -> Callable[..., object]:
    """A Result row made directly, as the verifier leaves it (these tests are about reads).

    ``day`` set: a game of that day's daily deal (one ranked game per player and deal);
    ``day=None``: a practice game of a practice deal. With no ``player``, each call makes a
    fresh one, so any number of results can share a board. ``outcome`` defaults to "won"
    or "resigned" as ``won`` says, and ``won`` then follows it. ``mode`` defaults to ranked
    for a daily deal and practice otherwise, ``ranked`` to the mode being ranked.
    ``revealed`` reveals the day's deal (as at its close). ``deal``: a result of that
    competition deal instead (a weekly one's is on the week's board). Results finish one
    second apart in the order made unless ``finished_at`` is given.
    """
    from django.contrib.auth import get_user_model

    from games import services as game_services
    from games.models import Deal, Game
    from leaderboards.models import Result
    from leaderboards.standings.services import result_standings_refresh

    counter = itertools.count(1)
    base = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)

    def make(
        player: object | None = None,
        day: date | None = BOARD_DAY,
        *,
        won: bool = False,
        outcome: str | None = None,
        score: int = 0,
        moves: int = 100,
        duration_ms: int = 60_000,
        finished_at: datetime | None = None,
        status: str = Result.Status.VERIFIED,
        mode: str | None = None,
        ranked: bool | None = None,
        reason: str = "",
        revealed: bool = False,
        deal: Deal | None = None,
        review: str = Result.Review.NONE,
    ) -> Result:
        n = next(counter)
        if player is None:
            player = get_user_model().objects.create(username=f"player{n:04d}-{day}")
        if deal is not None:
            day = deal.day
        elif day is None:
            deal = game_services.deal_for_code(code=PRACTICE_CODE)
        else:
            deal = game_services.deal_open_daily(day=day)
            if revealed:
                Deal.objects.filter(pk=deal.pk).update(revealed_at=deal.closes_at)
                deal.refresh_from_db()
        mode = mode or (Game.Mode.RANKED if day is not None else Game.Mode.PRACTICE)
        outcome = outcome or ("won" if won else "resigned")
        game = Game.objects.create(player=player, deal=deal, mode=mode, status=outcome)
        result = Result.objects.create(
            game=game,
            player=player,
            deal=deal,
            day=deal.day,
            variant=deal.variant,
            weekly=deal.kind == Deal.Kind.WEEKLY,
            ranked=mode == Game.Mode.RANKED if ranked is None else ranked,
            status=status,
            outcome=outcome,
            won=outcome == "won",
            score=score,
            moves=moves,
            duration_ms=duration_ms,
            finished_at=finished_at or base + timedelta(seconds=n),
            reason=reason,
            review=review,
            verified_at=base if status != Result.Status.PENDING else None,
        )
        if result.on_board:  # as the placement would: the period boards' standings
            result_standings_refresh(result=result)
        return result

    return make


# Redis -------------------------------------------------------------------------------------

# Each xdist worker of the unit tier its own database (9, 10, ...): the tests clear and fill
# the same day's keys, and two workers on one database saw each other's boards.
REDIS_TEST_URL = worker_redis_url(
    "redis://127.0.0.1:6379/9", os.environ.get("PYTEST_XDIST_WORKER") or "gw0"
)


def _redis_reachable(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture(params=["database", "redis"])
def board_kind(request: pytest.FixtureRequest, settings) -> str:
    """Run the test on each kind of board: the database's, then the real Redis's."""
    if request.param == "redis":
        request.getfixturevalue("redis_boards")
    else:
        settings.REDIS_URL = None
    return request.param


@pytest.fixture
def redis_boards(settings, board_day: date) -> Iterator[None]:
    """Point the boards at the real Redis (this worker's database), with the test day's key cleared
    before and after; skipped if Redis is unreachable, except on CI."""
    from leaderboards import boards

    if not _redis_reachable(REDIS_TEST_URL):
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis is unreachable at {REDIS_TEST_URL} (CI=true)")
        pytest.skip(f"Redis is unreachable at {REDIS_TEST_URL}")
    settings.REDIS_URL = REDIS_TEST_URL
    boards.redis_client.cache_clear()
    days = [board_day + timedelta(days=d) for d in (-1, 0, 1)]
    keys = [f"ft:board:daily:{CLASSIC}:{d.isoformat()}" for d in days]
    client = boards.redis_client()
    client.delete(*keys)
    yield
    client.delete(*keys)
    boards.redis_client.cache_clear()
