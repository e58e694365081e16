"""Forms for the plain play pages (the accounts' forms: ``games.accounts.forms``).

Forms only parse and validate input; deciding anything about a game is the
services' job (``games.services``), which may still refuse a well-formed request.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine import VARIANTS

# The daily deal's variant is what a player most likely wants to practise.
DEFAULT_VARIANT = "forty-thieves"


def variant_choices() -> list[tuple[str, str]]:
    """Every variant the engine knows, by name, labelled with its title."""
    return [(name, rules.title) for name, rules in VARIANTS.items()]


class PracticeForm(forms.Form):
    """Start a practice game: of a deal code, or of a random deal of a variant."""

    RANDOM = "random"
    CODE = "code"

    code = forms.CharField(
        label=_("Deal code"),
        max_length=48,
        required=False,
        help_text=_("For example FT1-N-0000007. The code fixes the variant."),
    )
    variant = forms.ChoiceField(
        label=_("Variant"), choices=variant_choices, initial=DEFAULT_VARIANT, required=False
    )
    winnable = forms.BooleanField(
        label=_("Winnable deals only"),
        required=False,
        help_text=_(
            "Only deals the solver has proved winnable: it found a winning line and the"
            " line was replayed to a win."
        ),
    )
    stars = forms.TypedChoiceField(
        label=_("Difficulty"),
        choices=[("", _("Any"))] + [(str(n), "★" * n + "☆" * (5 - n)) for n in range(1, 6)],
        coerce=int,
        empty_value=None,
        required=False,
        error_messages={"invalid_choice": _("Choose a difficulty of 1 to 5 stars, or any.")},
        help_text=_(
            "The solver's effort to find a win: 1 star up to 1,000 positions searched,"
            " 2 up to 5,000, 3 up to 20,000, 4 up to 100,000, 5 more. Winnable deals only."
        ),
    )
    # Which of the two submit buttons was pressed.
    action = forms.ChoiceField(
        choices=[(RANDOM, _("Random deal")), (CODE, _("Play this code"))],
        initial=RANDOM,
        required=False,
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["action"] = cleaned.get("action") or self.RANDOM
        cleaned["code"] = (cleaned.get("code") or "").strip()
        if cleaned["action"] == self.CODE and not cleaned["code"]:
            self.add_error("code", _("Enter a deal code, or choose a random deal."))
        cleaned["variant"] = cleaned.get("variant") or DEFAULT_VARIANT
        return cleaned


class ActForm(forms.Form):
    """One action on a game from the plain page: a move, an undo or a resignation."""

    type = forms.ChoiceField(
        label=_("Action"),
        choices=[("move", _("Move")), ("undo", _("Undo")), ("resign", _("Resign"))],
        initial="move",
    )
    move = forms.CharField(
        label=_("Move"),
        max_length=16,
        required=False,
        help_text=_("In the notation: s, r, w-t10, t3-f1, t3-t5x3, f4-t1."),
    )
    # The version the page showed: a form from a stale page is refused, not applied.
    version = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)
    # Makes a resubmitted form (reload, double click) apply at most once.
    client_id = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        cleaned["move"] = (cleaned.get("move") or "").strip()
        if cleaned.get("type") == "move" and not cleaned["move"]:
            self.add_error("move", _("Enter a move, such as s or t3-f1."))
        return cleaned
