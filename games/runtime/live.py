"""The games being played in this process, each with its engine, rebuilt from its move log.

The move log is the game: a position is its deal replayed through its actions (the engine
replays millions of moves a second, so even a long practice game rebuilds in a
millisecond or two), and nothing else about a position is stored. A process keeps the
engines of the games it serves here between actions, so an action costs the engine's few
microseconds and one guarded write (``games.services.log``) instead of a locked read, a
whole-state load and dump and a full save.

Any process may act on any game (two tabs on two servers, the API, the close of a day):
every write names the version it expects, so an entry that lost a race to another process
fails its write, is dropped here and is rebuilt from the log. An entry is only ever
trusted together with that guard; reads for pages use it only when its version is the
row's.
"""

from __future__ import annotations

import copy
import functools
import logging
import threading
import time
import uuid
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Field
from django.utils import timezone

from games.access import GAME_ROW
from games.engine import RESIGN, GameState
from games.errors import NotFound
from games.logs import compact_log
from games.models import Action, Game
from games.prepared import statement_rows_many

logger = logging.getLogger(__name__)


@dataclass
class LiveGame:
    """One game as this process holds it: the row (deal and player loaded, summary fields
    kept current by each write), its engine, and the client message ids in its log."""

    game: Game
    engine: GameState
    client_ids: set[str]
    # Held while an action is judged and written: the sockets of one process share an
    # entry, and the API's threads may act on it too.
    lock: threading.Lock = field(default_factory=threading.Lock)
    # The engine's player view after the last action (what the next one changes), made once.
    view: dict[str, Any] | None = None
    # Set (under the lock) when the entry was dropped after a failed or lost write: a
    # thread that waited for the lock must take a fresh entry instead.
    stale: bool = False
    # The hello's position (``games.payloads``) and the (version, status) it is of: every
    # socket of a reconnect storm reads it; made once a version (live_position_keep).
    position: tuple[tuple[int, str], dict[str, Any]] | None = None
    # When an action or a read last used it (time.monotonic): what live_evict_idle judges.
    used: float = field(default_factory=time.monotonic)


_entries: OrderedDict[uuid.UUID, LiveGame] = OrderedDict()
_entries_lock = threading.Lock()
# This process's sockets open on each game (live_attach, live_detach): a game with one is
# never dropped for being idle, however long its player thinks.
_sockets: Counter[uuid.UUID] = Counter()
_sweeper: threading.Thread | None = None


def game_pk(game_id: object) -> uuid.UUID:
    """The game id as a UUID; a refusal that names the bad id otherwise."""
    try:
        return uuid.UUID(str(game_id))
    except ValueError:
        raise NotFound(f"{game_id!r} is not a game id") from None


def live_game(*, game_id: object) -> LiveGame:
    """The game's live entry: the one this process holds, else rebuilt from the log.

    The entry may be behind another process's write; the caller's write is guarded by
    the version, and on a failed write it calls :func:`live_forget` and asks again.
    """
    pk = game_pk(game_id)
    with _entries_lock:
        entry = _entries.get(pk)
        if entry is not None:
            _entries.move_to_end(pk)
            entry.used = time.monotonic()
    if entry is not None:
        _catch_up_on_the_close(entry.game)
        return entry
    entry = _load(pk)
    with _entries_lock:
        # Another thread may have loaded it meanwhile: one entry per game, or two locks.
        entry = _entries.setdefault(pk, entry)
        _entries.move_to_end(pk)
        while len(_entries) > settings.FT_LIVE_GAMES:
            _entries.popitem(last=False)
    return entry


def _catch_up_on_the_close(game: Game) -> None:
    """A daily deal held since before its close may have been revealed since (by another
    process): the reveal opens the solver's help on its practice games. Read once the
    close has passed, until the reveal is seen."""
    deal = game.deal
    if deal.is_competition and deal.revealed_at is None and deal.has_closed(timezone.now()):
        deal.refresh_from_db(fields=["revealed_at"])


def live_forget_deal(*, deal_id: int) -> None:
    """Drop the entries of a deal's games (its close changed the deal under them)."""
    with _entries_lock:
        for pk in [pk for pk, e in _entries.items() if e.game.deal_id == deal_id]:
            del _entries[pk]


def live_forget(*, game_id: object) -> None:
    """Drop the game's entry (after a lost race, or when its game changed elsewhere)."""
    with _entries_lock:
        _entries.pop(game_pk(game_id), None)


def live_mark_dead_end(*, game_id: object, version: int) -> None:
    """Note the solver's proof that no win is left on the held copy of the game's row, if
    it is still at ``version`` (the database row was marked by the caller)."""
    with _entries_lock:
        entry = _entries.get(game_pk(game_id))
    if entry is not None and entry.game.version == version:
        entry.game.dead_end = True


def live_attach(*, game_id: object) -> None:
    """A socket of this process opened on the game: its entry is kept however idle."""
    pk = game_pk(game_id)
    with _entries_lock:
        _sockets[pk] += 1
    _sweeper_start()


def live_detach(*, game_id: object) -> None:
    """A socket :func:`live_attach` counted closed; its entry may be dropped once idle."""
    pk = game_pk(game_id)
    with _entries_lock:
        _sockets[pk] -= 1
        if _sockets[pk] <= 0:
            del _sockets[pk]
        entry = _entries.get(pk)
        if entry is not None:  # idle from now: a socket held it however long it waited
            entry.used = time.monotonic()


def live_evict_idle(*, now: float | None = None) -> int:
    """Drop the entries idle for ``FT_LIVE_IDLE_SECONDS`` (no socket here, no action or
    read): how many. Only a cache goes: the log is the game, every acknowledged action is
    in it, and the next connection rebuilds the entry from it. An entry an action holds
    (its lock taken) is left for the next sweep; one dropped is marked stale under its
    lock, so a thread that waited for it takes a fresh one (as after a lost race)."""
    cutoff = (time.monotonic() if now is None else now) - settings.FT_LIVE_IDLE_SECONDS
    dropped = 0
    with _entries_lock:
        # All of them (at most FT_LIVE_GAMES, a few times a timeout): the order is by the
        # last action, and a read or a socket's close marks an entry used without moving it.
        for pk, entry in list(_entries.items()):
            if pk in _sockets or entry.used > cutoff or not entry.lock.acquire(blocking=False):
                continue
            try:
                entry.stale = True
                del _entries[pk]
                dropped += 1
            finally:
                entry.lock.release()
    return dropped


def _sweeper_start() -> None:
    """One daemon thread a process, sweeping idle entries a few times a timeout."""
    global _sweeper
    with _entries_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return
        _sweeper = threading.Thread(target=_sweep_forever, name="live-idle-sweep", daemon=True)
        _sweeper.start()


def _sweep_forever() -> None:
    while True:
        time.sleep(max(1.0, settings.FT_LIVE_IDLE_SECONDS / 4))
        try:
            live_evict_idle()
        except Exception:  # noqa: BLE001 - a sweep that fails leaves a cache a while longer
            logger.exception("sweeping idle live games failed")


def live_clear() -> None:
    """Forget every entry (tests, and a process that changed games behind the entries)."""
    with _entries_lock:
        _entries.clear()
        _sockets.clear()


def engine_for(game: Game) -> GameState:
    """The position of ``game`` (its row already read), the caller's own: a copy of this
    process's live engine when it is at the row's version, else replayed from the log.

    Copied under the entry's lock: an action thread may be playing on the held engine
    while a page or a sync reads it. A game still being played that this process does not
    hold yet is kept from the replay (its socket's hello reads it here): its first action
    then finds it loaded instead of paying for the load while its player waits."""
    with _entries_lock:
        entry = _entries.get(game.pk)
    if entry is not None:
        entry.used = time.monotonic()
        with entry.lock:
            if not entry.stale and entry.game.version == game.version:
                return entry.engine.copy()
    log = _log_of(game.pk, upto=game.version)
    engine = replay_log(game, [move for move, _ in log])
    # Kept only when the log read is the row's (an action committed in between would make
    # it longer): the entry must be the position at its row's version.
    if entry is None and not game.is_finished and len(log) == game.version:
        _keep(game, engine.copy(), log)
    return engine


def live_hold_many(games: list[Game]) -> None:
    """Hold the games of ``games`` (rows just read, each by its player's socket) that this
    process does not hold and whose log :func:`engine_for` would read: all their logs in
    one round trip (``games.prepared.statement_rows_many``), each replayed and kept as
    ``engine_for`` keeps it. A reconnect storm's connects, taken together by a connect
    thread (``games.socket.connect_threads``), then find their games held instead of
    reading their logs one round trip each."""
    with _entries_lock:
        wanted = [
            game
            for game in games
            if game.pk not in _entries and not game.is_finished and game.version > 0
        ]
    if len(wanted) < 2:  # one is read by engine_for as well
        return
    logs = statement_rows_many(_log_sql(), [_log_params(g.pk, g.version) for g in wanted])
    for game, rows in zip(wanted, logs, strict=True):
        log = [(move, client_id) for move, client_id in rows]
        if len(log) == game.version:  # as engine_for: only the position at the row's version
            _keep(game, replay_log(game, [move for move, _ in log]), log)


def _keep(game: Game, engine: GameState, log: list[tuple[str, str]]) -> None:
    """Hold a game read elsewhere (a copy of its row: the caller goes on using its own,
    and the entry's is changed by each action), unless another thread got there first."""
    held = LiveGame(game=copy.copy(game), engine=engine, client_ids={c for _, c in log if c})
    with _entries_lock:
        if game.pk not in _entries:
            _entries[game.pk] = held
            while len(_entries) > settings.FT_LIVE_GAMES:
                _entries.popitem(last=False)


def live_position(game: Game) -> dict[str, Any] | None:
    """The position kept for ``game`` (its row as just read) by
    :func:`live_position_keep`, if this process holds the game at the row's version and
    status; else ``None``. Keyed by the version: an action (which makes a new version)
    can never leave an older position to be served. Shared: read-only."""
    with _entries_lock:
        entry = _entries.get(game.pk)
    if entry is None:
        return None
    with entry.lock:
        held = entry.position
        if held is None or entry.stale or entry.game.version != game.version:
            return None
        return held[1] if held[0] == (game.version, game.status) else None


def live_position_keep(game: Game, position: dict[str, Any]) -> None:
    """Keep ``position``, made from ``game``'s row and its engine at that row's version,
    for :func:`live_position`: only on an entry still at that version (an action that
    came meanwhile leaves it unkept)."""
    with _entries_lock:
        entry = _entries.get(game.pk)
    if entry is None:
        return
    with entry.lock:
        if not entry.stale and entry.game.version == game.version:
            entry.position = ((game.version, game.status), position)


def replay_log(game: Game, moves: list[str]) -> GameState:
    """The position after ``moves`` (the log, resign included) from the game's deal."""
    deal = game.deal
    engine = GameState.from_seed(deal.seed, deal.variant, undo_limit=game.undo_limit)
    # A resign ends the game without changing the board: the engine has no move for it.
    engine.replay([m for m in moves if m != RESIGN])
    return engine


def _load(pk: uuid.UUID) -> LiveGame:
    game = GAME_ROW.get(pk)
    if game is None:
        raise NotFound("there is no such game")
    # The row and then its log, as two statements: another process may append between
    # them (two tabs, the API's threads), so the log is read up to the row's version only:
    # one snapshot of the game as the row has it. A write from this entry then fails its
    # version guard and the caller rebuilds, as after any lost race.
    log = _log_of(pk, upto=game.version)
    if len(log) != game.version:
        # The row and its log are written by one statement, and the log only grows: fewer
        # lines than the version is a bug or a hand edit, and acting on it would break the
        # (game, seq) sequence.
        raise RuntimeError(f"game {pk} is at version {game.version} with {len(log)} actions")
    engine = replay_log(game, [move for move, _ in log])
    return LiveGame(game=game, engine=engine, client_ids={c for _, c in log if c})


def _log_of(pk: uuid.UUID, *, upto: int) -> list[tuple[str, str]]:
    """The game's log up to version ``upto`` (seq is the version an action made): one
    statement written once, not a queryset compiled at every socket's hello. Up to version
    0 there is nothing to read (an action's seq is the version it made, from 1): no query."""
    if upto <= 0:
        return []
    with connection.cursor() as cursor:
        cursor.execute(_log_sql(), _log_params(pk, upto))
        rows = [(move, client_id) for move, client_id in cursor.fetchall()]
    if rows:
        return rows
    # No rows at a version past 0: packed by compact_logs (a finished game; games.logs
    # reads the rows first for the reason it gives). Its client ids are not kept.
    return [(entry.move, "") for entry in compact_log(game_id=pk) if entry.seq <= upto]


def _log_params(pk: uuid.UUID, upto: int) -> list[Any]:
    """The parameters of :func:`_log_sql` for game ``pk``'s log up to version ``upto``."""
    field = Action._meta.get_field("game")
    return [field.get_db_prep_value(pk, connection), upto]


@functools.cache
def _log_sql() -> str:
    q = connection.ops.quote_name
    meta = Action._meta
    column = {}
    for name in ("game", "seq", "move", "client_id"):
        field = meta.get_field(name)
        assert isinstance(field, Field) and field.column is not None
        column[name] = q(field.column)
    return (
        f"SELECT {column['move']}, {column['client_id']} FROM {q(meta.db_table)}"
        f" WHERE {column['game']} = %s AND {column['seq']} <= %s ORDER BY {column['seq']}"
    )
