"""Template filters for the games' pages: a variant by its name, an outcome in the one way
players are shown it."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from games.display import variant_title

register = template.Library()


# A variant as players read it ("Josephine"); games.display is its one home.
register.filter("variant_title", variant_title)


@register.filter
def outcome(status: str) -> str:
    """A game's status in words. A resignation is named as such (Restart, New game and
    Resign all ask "resign?" first, so the list must not say "lost" after it), though the
    boards, the streaks and the scorecard's numbers count it as a loss."""
    words = {"active": _("active"), "won": _("won"), "lost": _("lost"), "resigned": _("resigned")}
    return words.get(status, status)
