"""How the site writes a game's facts for people, the one way everywhere (pages, share
texts, scorecards, the admin): a variant's title and a game's time."""

from __future__ import annotations

from games.engine import EngineError, parse_variant


def variant_title(spec: str) -> str:
    """A variant as players read it ("Josephine"), from the engine's own list; a spec
    the engine does not know stays as it is."""
    try:
        return parse_variant(spec).title
    except EngineError:
        return spec


def format_duration(ms: int) -> str:
    """``M:SS`` under an hour, ``H:MM:SS`` from an hour on (rounded down to the second): the
    one format of a game's time, on boards, scorecards, share texts and the board's clock.

    >>> format_duration(1_122_999), format_duration(3_723_000), format_duration(0)
    ('18:42', '1:02:03', '0:00')
    """
    seconds = max(0, int(ms)) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"
