"""Template filters for the games' pages: a variant by its name, an outcome in the one way
players are shown it."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from games.engine import EngineError, parse_variant

register = template.Library()


@register.filter
def variant_title(spec: str) -> str:
    """A variant as players read it ("Josephine"), from the engine's own list; a spec
    the engine does not know stays as it is."""
    try:
        return parse_variant(spec).title
    except EngineError:
        return spec


@register.filter
def outcome(status: str) -> str:
    """A game's status in words. A resignation is a loss, shown as one everywhere (the
    boards, the streaks and the scorecard count it so)."""
    words = {"active": _("active"), "won": _("won"), "lost": _("lost"), "resigned": _("lost")}
    return words.get(status, status)
