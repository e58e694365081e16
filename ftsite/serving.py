"""What a serving process (daphne, ``ftsite.asgi``) sets up once it has loaded the site:
the garbage collector's settings, and two fixes to libraries under it (autobahn's eager
debug line, redis-py's version read per connection).

**The collector.** A full collection walks every container object the process holds:
right after start about 140,000 (Django, the models, the URLs, every library), which took
0.1 to 0.3 s with every socket of the process stopped: the late acks of a 300-player
benchmark came in steps at each one, not only in the first second (docs/benchmarks.md).
Those objects live as long as the process: :func:`gc_settle` collects once and moves them
out of the collector's sight (``gc.freeze``), so a full collection walks only what came
after. What comes after is mostly the open sockets (daphne's, autobahn's and the consumer's
objects of each, several hundred a socket): with a thousand open, a full collection still
took 0.3-0.9 s, and with the default thresholds one ran every few hundred connects, 6.5 s of
a 50 s benchmark of reconnect storms. :data:`GC_THRESHOLDS` makes collections rarer (the
youngest objects mostly freed by their reference counts before one looks at them, a full
collection every ten million allocations or so): the price is cyclic garbage (a closed
socket's, a few kilobytes) kept a little longer. The middle generation is collected at
every fifth young collection, not every twentieth (session 11): a middle collection walks
up to (young x middle) objects, and at 200,000 one during a storm of 1,000 sockets took
100-160 ms of the process's CPU, every socket stopped; at 50,000 each took 14-54 ms, three
to four times as many, for the same collector CPU in all. The oldest threshold rose
fourfold with it, so a full collection still comes every ten million allocations or so
(docs/benchmarks.md, "Session 11").

**autobahn** formats a debug line for every new connection eagerly,
``self.log.debug("\\n{attrs}", attrs=pformat(configAttrLog))`` in
``WebSocketProtocol._connectionMade`` (and one per handshake in ``startHandshake``): a
``pprint`` of some forty options, about 0.2 ms of the process's one core per socket
whether or not debug logging is on, measured by py-spy in a reconnect storm
(docs/benchmarks.md). Here ``pformat`` in that module returns text that is only formatted
when a log observer actually formats the line; so is ``hltype(method)``, the coloured name
of the method that a dozen of its per-connection debug lines carry (through
``click.style``, about 4 % of the event loop in a storm: docs/benchmarks.md, "Session 10").
"""

from __future__ import annotations

import gc
import pprint
from typing import Any

# (young, middle, old): collect the youngest generation every 10,000 allocations (700 by
# default), the middle one every 5th time (10), and everything every 200th of those (10).
GC_THRESHOLDS = (10_000, 5, 200)


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


def autobahn_lazy_debug() -> None:
    """Make autobahn's per-connection debug formatting lazy (idempotent)."""
    from autobahn.twisted import websocket
    from autobahn.websocket import protocol

    protocol.pformat = LazyPformat  # type: ignore[assignment]
    # The name of the method for the debug lines of every connect, close and handshake.
    protocol.hltype = LazyHltype
    websocket.hltype = LazyHltype
    # Timings.__str__ returned pformat(...) itself: keep it eager text.
    protocol.Timings.__str__ = _timings_text  # type: ignore[method-assign]


def gc_settle() -> None:
    """Collect once and freeze what the started process holds (see the module)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - the views, imported now rather than at the first page
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def redis_version_once() -> None:
    """redis-py (8.1) asks ``importlib.metadata`` for its own version, parsing its
    ``METADATA`` file, for every connection it opens (``DriverInfo``, for ``CLIENT
    SETINFO``): a few milliseconds of the one core each, and a storm opens hundreds (the
    channel layer's pool grows with the sockets connecting at once, the cache's with the
    threads). py-spy put it at 6 % of a reconnect storm and a third of the first second
    after a start. The version does not change while the process runs: read it once."""
    from redis import utils

    version = utils.get_lib_version()
    # driver_info imports it from redis.utils at each call.
    utils.get_lib_version = lambda: version


def serving_tune() -> None:
    """Everything above, once the site is loaded (``ftsite.asgi``)."""
    autobahn_lazy_debug()
    redis_version_once()
    gc_settle()
