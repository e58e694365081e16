"""Every place the site patches a library or leans on its internals, in one module.

Each is a measured fix (the reasons below, with their figures), checked on the versions
its :class:`Guard` names: the locked version's minor series (requirements.lock), since a
library's internals may change in any release. ``tests/test_patches.py`` checks that the
upstream code each relies on is still shaped as assumed (so a lock bump that changes it
fails a test) and that each does what it says.

Outside its range a patch is not applied, and what happens then is chosen per patch:

* where the site works without it, only slower (autobahn's debug line, redis-py's
  version read, the cache's and the channel layer's Redis clients, Channels' dispatch),
  a warning is logged once and the library's public path runs instead;
* where the site cannot run without it (the SQL compiler's row plan: the session and game
  reads of every socket's connect are built on it, with no public path to fall back to;
  Django's lazy objects, the socket scope's user and session), start-up fails with
  :class:`~django.core.exceptions.ImproperlyConfigured`.

One reliance stays where it is, since it is a subclass's hook: ``ftsite.sessions``'s store
overrides Django's ``_get_session_from_db`` and keeps ``_session_cache`` and
``_session_key`` as Django's own ``load`` does. Its upstream shape is checked with the others
(tests/test_patches.py), under the :data:`DJANGO` guard that the SQL compiler's enforces.

Every ``apply_*`` is idempotent. The serving processes' two (autobahn, redis-py's version)
are applied by ``ftsite.serving.serving_tune``; the cache's, the channel layer's, the SQL
compiler's and the lazy objects' by ``games.apps.GamesConfig.ready``
(:func:`patches_apply_on_ready`), in every process; Channels' dispatch by
``games.socket.consumers`` on its consumer class.
"""

from __future__ import annotations

import logging
import pprint
import re
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from typing import Any

from django.core.exceptions import ImproperlyConfigured

logger = logging.getLogger(__name__)


# Version guards ------------------------------------------------------------------------


def _release(text: str) -> tuple[int, ...]:
    """The release numbers a version starts with (``"8.1.0rc1"`` -> ``(8, 1, 0)``)."""
    found = re.match(r"\d+(?:\.\d+)*", text)
    return tuple(int(part) for part in found.group(0).split(".")) if found else ()


@cache
def installed_version(package: str) -> str | None:
    """The installed distribution's version (read once: it parses a metadata file)."""
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


@dataclass(frozen=True)
class Guard:
    """The versions of ``package`` a patch was checked on: from ``low`` (inclusive) to
    ``below`` (exclusive)."""

    package: str
    low: str
    below: str

    def holds(self, version: str | None = None) -> bool:
        found = installed_version(self.package) if version is None else version
        return found is not None and _release(self.low) <= _release(found) < _release(self.below)

    def describe(self) -> str:
        return f"{self.package}>={self.low},<{self.below}"


AUTOBAHN = Guard("autobahn", "26.11", "26.12")
REDIS = Guard("redis", "8.1", "8.2")
DJANGO = Guard("django", "5.2", "5.3")
CHANNELS = Guard("channels", "4.3", "4.4")
CHANNELS_REDIS = Guard("channels-redis", "4.3", "4.4")

#: What each ``apply_*`` decided: True applied, False left out (outside its guard).
applied: dict[str, bool] = {}


def _decide(name: str, guard: Guard, *, without: str) -> bool:
    """Whether patch ``name`` applies; the first time it does not, a warning says what
    runs instead (``without``)."""
    if name in applied:
        return applied[name]
    holds = applied[name] = guard.holds()
    if not holds:
        logger.warning(
            "%s not applied: checked on %s, installed %s %s; %s",
            name,
            guard.describe(),
            guard.package,
            installed_version(guard.package),
            without,
        )
    return holds


# autobahn: its per-connection debug lines, formatted only when logged -------------------


class LazyText(str):
    """``render(obj)``, computed when formatted or turned into text, not before. A ``str``
    (empty underneath) so code that wants text gets text."""

    __slots__ = ("obj",)
    obj: Any
    render: Any = staticmethod(pprint.pformat)

    def __new__(cls, obj: Any) -> LazyText:
        made = super().__new__(cls, "")
        made.obj = obj
        return made

    def __str__(self) -> str:
        return str(self.render(self.obj))

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return repr(str(self))


class LazyPformat(LazyText):
    """``pprint.pformat(obj)``, lazily."""

    __slots__ = ()


class LazyHltype(LazyText):
    """autobahn's ``hltype(obj)`` (a method's qualified name, coloured through click),
    lazily."""

    __slots__ = ()

    @staticmethod
    def render(obj: Any) -> str:
        from autobahn.util import hltype

        return str(hltype(obj))


def _timings_text(self: Any) -> str:
    return pprint.pformat(self._timings)


def apply_autobahn_lazy_debug() -> bool:
    """autobahn formats a debug line for every new connection eagerly,
    ``self.log.debug("\\n{attrs}", attrs=pformat(configAttrLog))`` in
    ``WebSocketProtocol._connectionMade`` (and one per handshake in ``startHandshake``): a
    ``pprint`` of some forty options, about 0.2 ms of the process's one core per socket
    whether or not debug logging is on, measured by py-spy in a reconnect storm
    (docs/benchmarks.md). Here ``pformat`` in that module returns text that is only
    formatted when a log observer actually formats the line; so is ``hltype(method)``, the
    coloured name of the method that a dozen of its per-connection debug lines carry
    (through ``click.style``, about 4 % of the event loop in a storm: docs/benchmarks.md,
    "Session 10").

    Outside its guard: not applied, a warning (the lines are only formatted eagerly)."""
    if not _decide("autobahn_lazy_debug", AUTOBAHN, without="debug lines formatted eagerly"):
        return False
    from autobahn.twisted import websocket
    from autobahn.websocket import protocol

    protocol.pformat = LazyPformat  # type: ignore[assignment]
    # The name of the method for the debug lines of every connect, close and handshake.
    protocol.hltype = LazyHltype
    websocket.hltype = LazyHltype
    # Timings.__str__ returned pformat(...) itself: keep it eager text.
    protocol.Timings.__str__ = _timings_text  # type: ignore[method-assign]
    return True


# redis-py: its own version, read once --------------------------------------------------


def apply_redis_version_once() -> bool:
    """redis-py (8.1) asks ``importlib.metadata`` for its own version, parsing its
    ``METADATA`` file, for every connection it opens (``DriverInfo``, for ``CLIENT
    SETINFO``): a few milliseconds of the one core each, and a storm opens hundreds (the
    channel layer's pool grows with the sockets connecting at once, the cache's with the
    threads). py-spy put it at 6 % of a reconnect storm and a third of the first second
    after a start. The version does not change while the process runs: read it once.

    Guarded to redis below 8.2, which caches the version itself: there it is neither
    applied nor needed (a warning says so, with the version found)."""
    without = "each connection reads the version (redis-py caches it itself from 8.2)"
    if not _decide("redis_version_once", REDIS, without=without):
        return False
    from redis import utils

    if getattr(utils.get_lib_version, "ft_once", False):
        return True
    version = utils.get_lib_version()

    def get_lib_version() -> str:
        return version

    get_lib_version.ft_once = True  # type: ignore[attr-defined]
    # driver_info imports it from redis.utils at each call.
    utils.get_lib_version = get_lib_version
    return True


# Django's Redis cache: its redis-py client ---------------------------------------------


def apply_redis_cache_client() -> bool:
    """The site's counters (``games.throttles._count_add``, ``games.socket.loop_throttle``)
    make a counter with its expiry and add to it in one atomic round trip (MULTI: SET NX
    EX, INCRBY) instead of Django's three (SET NX; EXISTS, INCRBY): every socket refills
    its allowance on its first message, so a process's first second after a start made 300
    sockets' worth of them at once. Django's ``RedisCache`` has no public way to its
    redis-py client: it is ``backend._cache.get_client(key, write=True)``, and the server
    URL the loop's own client writes to is ``backend._servers[0]``.

    Outside its guard: not applied, a warning; the counters take Django's public
    ``add`` and ``incr`` (three round trips, from a thread)."""
    return _decide("redis_cache_client", DJANGO, without="counters through cache.add/incr")


def redis_cache_client(backend: Any, key: str) -> Any | None:
    """The redis-py client ``backend`` (Django's ``RedisCache``) writes ``key`` (already
    made by ``make_and_validate_key``) with; None when the patch is not applied."""
    if not applied.get("redis_cache_client"):
        return None
    return backend._cache.get_client(key, write=True)


def redis_cache_server(backend: Any) -> str | None:
    """The URL of the server ``backend`` writes to (its first); None when not applied."""
    if not applied.get("redis_cache_client"):
        return None
    return str(backend._servers[0])


# channels_redis: a group's key, for the batched joins and leaves -----------------------


def apply_channels_redis_group_key() -> bool:
    """A socket's join and leave of its game's group go in one Redis round trip for all
    the sockets of a moment, and a join learns in the same step whether anyone else is
    there (``games.socket.groups``: in a storm one round trip per socket meant as many
    Redis connections as sockets in flight, most of what a close cost the event loop,
    py-spy, docs/benchmarks.md "Session 9"). That writes the layer's own sorted set as
    ``group_add`` and ``group_discard`` do: its key (``layer._group_key``), its shard
    (``consistent_hash``, ``connection``) and ``group_expiry``.

    Outside its guard: not applied, a warning; joins and leaves go through the layer's
    ``group_add`` and ``group_discard``, and every joiner announces itself."""
    return _decide("channels_redis_group_key", CHANNELS_REDIS, without="group_add/discard")


def channel_layer_batched(layer: Any) -> bool:
    """Whether ``layer``'s groups may be written directly (a ``RedisChannelLayer``, the
    patch applied)."""
    from channels_redis.core import RedisChannelLayer

    return bool(applied.get("channels_redis_group_key")) and isinstance(layer, RedisChannelLayer)


def channel_layer_group_key(layer: Any, group: str) -> bytes:
    """The Redis key of ``group``'s members in ``layer`` (channels_redis's own)."""
    return bytes(layer._group_key(group))


# Channels: the consumer's dispatch, without a hop per message --------------------------


async def _direct_dispatch(self: Any, message: dict[str, Any]) -> None:
    from channels.consumer import get_handler_name

    handler = getattr(self, get_handler_name(message), None)
    if handler is None:
        raise ValueError(f"No handler for message type {message['type']}")
    await handler(message)


async def _direct_websocket_disconnect(self: Any, message: dict[str, Any]) -> None:
    from channels.exceptions import StopConsumer

    await self.disconnect(message["code"])
    raise StopConsumer()


def apply_channels_direct_dispatch(consumer: type) -> bool:
    """Channels' ``AsyncConsumer.dispatch`` hops before every handler to the one thread
    every socket's ``database_sync_to_async`` calls share, to close that thread's stale
    database connections (``aclose_old_connections``), and ``websocket_disconnect`` once
    more: three hops a connect and one a move, each a wait in line on that thread and most
    of a millisecond of the event loop (py-spy, docs/benchmarks.md "Session 9"). The game
    consumer never uses that thread's connection but through ``DatabaseSyncToAsync`` (its
    ``sync``), which closes stale connections before and after itself; the connect and
    action threads keep their own (connect_threads, move_threads). ``consumer`` gets
    Channels' dispatch and ``websocket_disconnect`` without the hop; it must have no
    ``groups`` (the disconnect here leaves none: the game consumer leaves its game's group
    in its own ``disconnect``).

    Outside its guard: not applied, a warning; Channels' own run (a hop a message)."""
    if getattr(consumer, "groups", None):
        raise ValueError(f"{consumer.__name__} has groups: its disconnect must leave them")
    if not _decide("channels_direct_dispatch", CHANNELS, without="Channels' own dispatch"):
        return False
    consumer.dispatch = _direct_dispatch  # type: ignore[attr-defined]
    consumer.websocket_disconnect = _direct_websocket_disconnect  # type: ignore[attr-defined]
    return True


# Django's SQL compiler: the row plan of a queryset compiled once -----------------------


@dataclass(frozen=True)
class RowPlan:
    """How ``QuerySet`` (``ModelIterable``) builds an instance from a compiled query's row:
    where the model's own columns are, their attribute names, the select_related
    populators, the annotations' columns, and each column's converters (which
    ``get_converters`` works out anew for every row set: about 80 us for a game row's 48
    columns)."""

    fields: tuple[int, int]
    init_list: list[str]
    populators: list[Any]
    annotations: dict[str, int]
    converters: list[tuple[int, list[Any], Any]]


def apply_sql_compiler_plan() -> bool:
    """``games.prepared`` compiles the hottest reads' SQL once (a game socket's connect: its
    game, deal, player and session; py-spy put the ORM's SQL compiler at about a quarter of
    a connect's work in a reconnect storm, docs/benchmarks.md) and builds the instances
    from the rows as ``ModelIterable`` does, through the compiler's ``klass_info``,
    ``select``, ``annotation_col_map``, ``col_count``, ``get_converters`` and
    ``get_related_populators(klass_info, select, db)`` (:func:`sql_row_plan`).

    Outside its guard start-up fails: every socket's connect and the session engine
    (``ftsite.sessions``) read through it, and a read whose sentinels are compiled into a
    subquery has no public query to fall back to."""
    if applied.get("sql_compiler_plan"):
        return True
    if not DJANGO.holds():
        raise ImproperlyConfigured(
            f"games.prepared builds rows through Django's SQL compiler internals, checked on"
            f" {DJANGO.describe()}; installed django {installed_version('django')}. Check"
            " ftsite.patches.sql_row_plan against it (tests/test_patches.py) and widen"
            " ftsite.patches.DJANGO."
        )
    applied["sql_compiler_plan"] = True
    return True


def sql_row_plan(compiler: Any, using: str) -> RowPlan:
    """The :class:`RowPlan` of ``compiler`` (its ``as_sql`` already called)."""
    from django.db.models.query import get_related_populators

    klass_info = compiler.klass_info
    assert klass_info is not None
    select_fields = klass_info["select_fields"]
    start, end = select_fields[0], select_fields[-1] + 1
    return RowPlan(
        fields=(start, end),
        init_list=[f[0].target.attname for f in compiler.select[start:end]],
        # Django 5.2's signature (the stubs already have a later one's).
        populators=get_related_populators(  # type: ignore[call-arg]
            klass_info, compiler.select, using
        ),
        annotations=dict(compiler.annotation_col_map or {}),
        converters=[
            (index, converters, expression)
            for index, (converters, expression) in compiler.get_converters(
                [column[0] for column in compiler.select[: compiler.col_count]]
            ).items()
        ],
    )


# Django's lazy objects: a socket scope's user and session, read or filled in place ----


def apply_django_lazy_objects() -> bool:
    """A game socket's scope carries its session and user as Django ``LazyObject``s (what
    Channels' ``SessionMiddleware`` and ``AuthMiddleware`` make, filling ``_wrapped``
    themselves). The connect threads read a storm's sessions, users and games together in
    one round trip (``games.socket.connect_threads``, docs/benchmarks.md "Session 13"):
    for that they look whether a scope's user is still unread (``_wrapped is empty``),
    take the session store out of its wrapper, and fill the user in place
    (:func:`lazy_unread`, :func:`lazy_wrapped`, :func:`lazy_fill`, :func:`lazy_value`).

    Outside its guard start-up fails: a lazy object has no public way to say whether it
    was read or to be filled, and every socket's connect goes through these."""
    if applied.get("django_lazy_objects"):
        return True
    if not DJANGO.holds():
        raise ImproperlyConfigured(
            f"games.socket.connect_threads reads Django's LazyObject internals, checked on"
            f" {DJANGO.describe()}; installed django {installed_version('django')}. Check"
            " ftsite.patches.lazy_* against it (tests/test_patches.py) and widen"
            " ftsite.patches.DJANGO."
        )
    applied["django_lazy_objects"] = True
    return True


def lazy_unread(obj: Any) -> bool:
    """Whether ``obj`` is a lazy object not yet read."""
    from django.utils.functional import LazyObject, empty

    return isinstance(obj, LazyObject) and obj._wrapped is empty


def lazy_wrapped(obj: Any) -> Any:
    """What lazy ``obj`` wraps (``None`` for anything else, or one not read)."""
    from django.utils.functional import empty

    found = getattr(obj, "_wrapped", None)
    return None if found is empty else found


def lazy_fill(obj: Any, value: Any) -> Any:
    """Make lazy ``obj`` stand for ``value`` (as if it had read it); return ``value``."""
    obj._wrapped = value
    return value


def lazy_value(obj: Any) -> Any:
    """What lazy ``obj`` stands for, reading it now if it was not yet."""
    from django.utils.functional import empty

    if obj._wrapped is empty:
        obj._setup()
    return obj._wrapped


def patches_apply_on_ready() -> None:
    """The patches every process needs, once the apps are loaded (``GamesConfig.ready``)."""
    apply_sql_compiler_plan()
    apply_django_lazy_objects()
    apply_redis_cache_client()
    apply_channels_redis_group_key()
