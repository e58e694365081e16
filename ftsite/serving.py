"""What a serving process (daphne, ``ftsite.asgi``) sets up once it has loaded the site:
the garbage collector's settings, and the two library patches only a serving process needs
(autobahn's eager debug line, redis-py's version read per connection), which live with
every other library patch in ``ftsite.patches``.

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
"""

from __future__ import annotations

import gc

from ftsite.patches import apply_autobahn_lazy_debug, apply_redis_version_once

# (young, middle, old): collect the youngest generation every 10,000 allocations (700 by
# default), the middle one every 5th time (10), and everything every 200th of those (10).
GC_THRESHOLDS = (10_000, 5, 200)


def gc_settle() -> None:
    """Collect once and freeze what the started process holds (see the module)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - the views, imported now rather than at the first page
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serving_tune() -> None:
    """The library patches of a serving process, then the collector, once the site is
    loaded (``ftsite.asgi``)."""
    apply_autobahn_lazy_debug()
    apply_redis_version_once()
    gc_settle()
