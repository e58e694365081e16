"""daphne under cProfile, every thread profiled (the event loop's, the action threads',
the database thread's): where a move's time goes on a machine without py-spy (which is
not a project dependency). ``python -m load.cprofile_daphne OUT daphne-arguments...``;
when daphne stops (SIGTERM, as ``Server.stop`` sends), the profiles of all threads are
added up and written to OUT in pstats' format (``python -m pstats OUT``).

cProfile's own cost (a few microseconds a call) inflates the calls it counts: read the
shares of the time, not its absolute figures. Used by ``load.duels --cprofile``.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import threading
from typing import Any

_profiles: list[cProfile.Profile] = []
_lock = threading.Lock()
_run = threading.Thread.run


def _profiled_run(self: threading.Thread) -> None:
    profile = cProfile.Profile()
    with _lock:
        _profiles.append(profile)
    profile.enable()
    try:
        _run(self)
    finally:
        profile.disable()


class _Snapshot:
    """What pstats reads from a profile of a thread that may still be running: its
    figures so far (``create_stats`` would disable it from the wrong thread)."""

    def __init__(self, profile: cProfile.Profile) -> None:
        profile.snapshot_stats()
        self.stats: dict[Any, Any] = profile.stats  # type: ignore[attr-defined]

    def create_stats(self) -> None:
        pass


def main() -> None:
    out, sys.argv = sys.argv[1], [sys.argv[0], *sys.argv[2:]]
    threading.Thread.run = _profiled_run  # type: ignore[method-assign]
    from daphne.cli import CommandLineInterface

    loop = cProfile.Profile()
    loop.enable()
    try:
        CommandLineInterface.entrypoint()
    finally:
        loop.disable()
        stats = pstats.Stats(loop)
        with _lock:
            for profile in _profiles:
                stats.add(_Snapshot(profile))
        stats.dump_stats(out)


if __name__ == "__main__":
    main()
