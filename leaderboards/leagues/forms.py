"""The league page's form for making one of its arenas: it reads the fields (a start in
UTC, whole minutes, a variant offered) and says plainly what a field expects; the bounds
themselves are the service's (``league_arena_create``), whose refusal the form shows."""

from __future__ import annotations

from datetime import UTC, datetime

from django import forms
from django.utils.translation import gettext_lazy as _

from games.display import variant_title
from leaderboards.leagues.services import (
    ARENA_MINUTES,
    ARENA_ROUND_MINUTES,
    ARENA_VARIANTS,
)

START_FORMAT = "%Y-%m-%dT%H:%M"


class LeagueArenaForm(forms.Form):
    starts_at = forms.DateTimeField(
        label=_("Starts at (UTC)"),
        input_formats=[START_FORMAT],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format=START_FORMAT),
        error_messages={
            "required": _("Give the start, a UTC date and time."),
            "invalid": _("Give the start as a date and a time, such as 2026-12-24T18:00 (UTC)."),
        },
    )
    minutes = forms.IntegerField(
        label=_("Length (minutes)"),
        min_value=ARENA_MINUTES[0],
        max_value=ARENA_MINUTES[1],
        initial=45,
        error_messages={"required": _("Give the arena's length in minutes.")},
    )
    round_minutes = forms.IntegerField(
        label=_("Round length (minutes)"),
        min_value=ARENA_ROUND_MINUTES[0],
        max_value=ARENA_ROUND_MINUTES[1],
        initial=5,
        error_messages={"required": _("Give a round's length in minutes.")},
    )
    variant = forms.ChoiceField(
        label=_("Variant"),
        error_messages={"invalid_choice": _("Choose one of the variants offered.")},
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["variant"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(spec, variant_title(spec)) for spec in ARENA_VARIANTS]

    def clean_starts_at(self) -> datetime:
        """The start as typed is UTC (the site's clock and the arena's page say UTC)."""
        start: datetime = self.cleaned_data["starts_at"]
        return start.replace(tzinfo=UTC) if start.tzinfo is None else start.astimezone(UTC)
