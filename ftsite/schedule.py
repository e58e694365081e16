"""The Celery task routes and the beat schedule: static tables, read by ftsite/settings.py
as ``CELERY_TASK_ROUTES`` and ``CELERY_BEAT_SCHEDULE`` (kept apart from the env-driven
settings: nothing here depends on the environment; compose.yaml has a worker per queue)."""

from __future__ import annotations

from celery.schedules import crontab

# Queues by urgency, each with a worker of its own in compose.yaml, so slow work never
# delays a verification: "celery" (verification, ranking, the day's close, the
# sweep); "solver" (the day's and the week's open, which certify the seed; rating practice
# deals and certifying the next days' deals, seconds of solver work each, queued by anyone
# who starts a practice game: worker-solver); and
# "fairplay" (the foresight analysis of ranked wins, up to FT_FORESIGHT_SECONDS each:
# worker-fairplay); and "analysis" (the post-game analysis a player asks for on a replay, up
# to FT_ANALYSIS_SECONDS each: worker-analysis).
TASK_ROUTES: dict[str, dict[str, str]] = {
    "games.rate_deal": {"queue": "solver"},
    "games.rate_practice_deals": {"queue": "solver"},
    # The pool of proven-winnable practice deals (node-budgeted solves, seconds each).
    "games.fill_practice_pool": {"queue": "solver"},
    "games.certify_upcoming": {"queue": "solver"},
    # Opening a competition deal certifies its seed with the solver (minutes at worst):
    # never on the verification's queue.
    "games.open_upcoming_deals": {"queue": "solver"},
    "games.open_weekly_deals": {"queue": "solver"},
    # A deterministically certified deal's completions for the sequential test (a minute).
    "games.build_completions": {"queue": "solver"},
    "leaderboards.analyse_foresight": {"queue": "fairplay"},
    # Each verified ranked game steps its player's sequential test (docs/fairplay.md).
    "leaderboards.step_evidence": {"queue": "fairplay"},
    "games.analyse_game": {"queue": "analysis"},
    # The duels' reserve of fresh certified deals (a daily's certification per deal).
    "games.fill_duel_reserve": {"queue": "solver"},
    # A big closed day's file (seconds of reading the day's logs): never on verification's.
    "leaderboards.build_day_file": {"queue": "solver"},
    # A closed day's rating (seconds for a big day: 100,000 results): off verification's.
    "leaderboards.rate_deals": {"queue": "solver"},
    # Packing finished games' logs (seconds of reading and writing): off verification's.
    "leaderboards.compact_logs": {"queue": "solver"},
}


# Periodic tasks (``celery -A ftsite beat``), in UTC. Both tasks are idempotent, so a missed
# or doubled run is harmless: the hourly open (and the one at 23:30) make sure today's and
# tomorrow's deals exist before anyone needs them; the per-minute close reveals a day's deal
# and ends its unfinished ranked games within a minute of 00:00 UTC.
BEAT_SCHEDULE: dict[str, dict] = {
    "open-upcoming-deals-hourly": {
        "task": "games.open_upcoming_deals",
        "schedule": crontab(minute="5"),
    },
    "open-upcoming-deals-before-midnight": {
        "task": "games.open_upcoming_deals",
        "schedule": crontab(hour="23", minute="30"),
    },
    # The weekly challenge: this ISO week's and next week's, certified ahead.
    "open-weekly-deals-hourly": {
        "task": "games.open_weekly_deals",
        "schedule": crontab(minute="10"),
    },
    "close-due-deals": {
        "task": "games.close_due_deals",
        "schedule": crontab(minute="*"),
    },
    # The skill rating of each closed deal once its results are final (docs/ratings.md).
    "rate-closed-deals": {
        "task": "leaderboards.rate_deals",
        "schedule": crontab(minute="*"),
    },
    # Certify the next days' deals well ahead (each day's candidates may take minutes).
    "certify-upcoming-deals": {
        "task": "games.certify_upcoming",
        "schedule": crontab(hour="*/6", minute="15"),
        "kwargs": {"days": 3},
    },
    # Re-enqueue verifications and rankings a lost message or a crash left undone.
    "sweep-unverified-results": {
        "task": "leaderboards.sweep",
        "schedule": crontab(minute="*"),
    },
    # Delete fair-play sightings older than FT_SIGHTING_DAYS (the privacy page promises it).
    # Top up the pool of proven-winnable practice deals ("winnable deals only").
    "fill-practice-pool-hourly": {
        "task": "games.fill_practice_pool",
        "schedule": crontab(minute="25"),
    },
    # Delete guests idle for FT_GUEST_DAYS with their games (the privacy page says so).
    "purge-guests-daily": {
        "task": "games.purge_guests",
        "schedule": crontab(hour="3", minute="50"),
    },
    # Duels: flags, leavers past the grace period, lapsed challenges and queue entries
    # (the duel sockets' own timers do it on time; this catches what no socket saw).
    "duel-sweep": {
        "task": "games.duel_sweep",
        "schedule": 15.0,
    },
    # Arenas: the site's schedule, each round's open (ahead of its slot), close and
    # settling once its games are verified (docs/arenas.md).
    "arena-sweep": {
        "task": "games.arena_sweep",
        "schedule": 15.0,
    },
    # Keep FT_DUEL_RESERVE fresh certified deals ready, so a duel never waits on the solver.
    "fill-duel-reserve": {
        "task": "games.fill_duel_reserve",
        "schedule": crontab(minute="*/2"),
    },
    # Pack the move logs of verified games of closed deals (leaderboards.compaction).
    "compact-logs": {
        "task": "leaderboards.compact_logs",
        "schedule": crontab(minute="*/10"),
    },
    "prune-sightings-daily": {
        "task": "games.prune_sightings",
        "schedule": crontab(hour="3", minute="40"),
    },
}
