"""The C allocator a process runs on, and how it hands its free pages back (issue 37).

After a reconnect storm a socket process's Python objects return to what they were before
(tracemalloc: within 1 MB), but its resident memory did not: the survivors of the storm
(a closed channel's name kept to drop its late messages, a sighting's marker, caches'
entries) lie scattered over the memory the storm's sockets used, and each one keeps its
surroundings resident. Python's own allocator keeps a 1 MiB arena while any object in it
lives; glibc's keeps any page with a chunk in use, and its ``malloc_trim`` cannot return
a free hole smaller than a page (15,600 holes of 3 KB on average after a storm of 1,000
sockets). jemalloc keeps objects of one size together on pages of their own and returns
every page that empties: docs/benchmarks.md, "A web process's memory after storms".

So compose.yaml runs the socket processes on jemalloc (Debian's ``libjemalloc2``, preloaded)
with Python's objects on it too (``PYTHONMALLOC=malloc``) and a thread of its own returning
free pages a second after they empty (``MALLOC_CONF``: what the live games' sweeper frees
later comes back too), and after a collection of closed sockets :data:`ALLOCATOR` hands the
free pages back at once: jemalloc's purge of every arena, or glibc's ``malloc_trim`` where
the process runs on glibc's allocator. Nothing else in the site depends on which one runs;
the metrics say it (``ft_allocator``).
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable
from dataclasses import dataclass

JEMALLOC = "jemalloc"
GLIBC = "glibc"
OTHER = "other"

# jemalloc's "every arena" index in arena.<i>.purge (MALLCTL_ARENAS_ALL, jemalloc 5).
_ALL_ARENAS = b"arena.4096.purge"


@dataclass(frozen=True)
class Allocator:
    """Which C allocator serves the process, where Python's objects come from (``pymalloc``
    or ``malloc``: ``PYTHONMALLOC``), and its call that returns free pages (None: none)."""

    name: str
    objects: str
    release: Callable[[], object] | None


def _objects() -> str:
    # Read once at start-up by the interpreter; "malloc" and "malloc_debug" bypass pymalloc.
    return "malloc" if os.environ.get("PYTHONMALLOC", "").startswith("malloc") else "pymalloc"


def allocator_detect() -> Allocator:
    """The process's allocator, from the symbols its C library and preloads export."""
    try:
        process = ctypes.CDLL(None)
    except OSError:
        return Allocator(OTHER, _objects(), None)
    mallctl = getattr(process, "mallctl", None)
    if mallctl is not None:
        mallctl.argtypes = [ctypes.c_char_p, ctypes.c_void_p, ctypes.c_void_p]
        mallctl.argtypes += [ctypes.c_void_p, ctypes.c_size_t]
        mallctl.restype = ctypes.c_int
        return Allocator(JEMALLOC, _objects(), lambda: mallctl(_ALL_ARENAS, None, None, None, 0))
    trim = getattr(process, "malloc_trim", None)
    if trim is not None:
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
        return Allocator(GLIBC, _objects(), lambda: trim(0))
    return Allocator(OTHER, _objects(), None)  # musl, macOS: nothing to call


ALLOCATOR = allocator_detect()
