"""Rule sets: the classic game and its variants, as data.

A :class:`RuleSet` says everything that differs between members of the
family: the layout, the column (build) rule, whether runs move as a unit,
what may fill an empty column, the draw count, redeals, aces placed before
the deal and foundation take-back. The game code reads only this record, so a
new variant is a new entry in :data:`VARIANTS`.

A variant is named by a *spec*: its name, optionally followed by options
joined with ``+`` (``kings``: only kings fill a space; ``redeal1`` or
``redeal2``: that many redeals; ``takeback``: foundation take-back).

>>> rules = parse_variant("streets+kings+takeback")
>>> rules.build, rules.space, rules.takeback
('alternate-colour', 'kings', True)
>>> format_variant(rules)
'streets+kings+takeback'
>>> parse_variant("forty-thieves").deck_size
104
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from .cards import KING, is_red, make_card, rank_of, suit_of
from .errors import UnknownVariant

BUILD_RULES = ("same-suit", "other-suit", "alternate-colour")
SPACE_RULES = ("any", "kings")

#: The sentence a refusal gives for each column rule.
BUILD_REASONS = {
    "same-suit": "a card goes on a column only onto the next higher card of the same suit",
    "other-suit": "a card goes on a column only onto the next higher card of a different suit",
    "alternate-colour": (
        "a card goes on a column only onto the next higher card of the other colour"
    ),
}


@dataclass(frozen=True)
class RuleSet:
    """One member of the Forty Thieves family, with any options applied."""

    name: str
    letter: str
    title: str
    decks: int = 2
    columns: int = 10
    per_column: int = 4
    face_down: int = 0
    build: str = "same-suit"
    sequences: bool = False
    space: str = "any"
    draw: int = 1
    redeals: int = 0
    aces_out: bool = False
    takeback: bool = False

    @property
    def foundations(self) -> int:
        """Two-deck games have 8 foundations, three-deck games 12."""
        return 4 * self.decks

    @property
    def deck_size(self) -> int:
        return 52 * self.decks

    @property
    def spec(self) -> str:
        return format_variant(self)

    def foundation_suit(self, index: int) -> int:
        """Fixed suits left to right S H D C S H D C ... (``index`` 0-based)."""
        return index % 4

    def fits_on(self, card: int, onto: int) -> bool:
        """Whether ``card`` may go onto ``onto`` in a column under this rule.

        >>> from .cards import parse_card as c
        >>> CLASSIC.fits_on(c("7S"), c("8S")), CLASSIC.fits_on(c("7S"), c("8H"))
        (True, False)
        """
        if rank_of(onto) != rank_of(card) + 1:
            return False
        if self.build == "same-suit":
            return suit_of(card) == suit_of(onto)
        if self.build == "other-suit":
            return suit_of(card) != suit_of(onto)
        return is_red(card) != is_red(onto)

    @property
    def build_table(self) -> bytes:
        """``table[onto << 6 | card]`` is 1 where ``card`` may go onto ``onto``.

        The hot path of move validation is this one lookup. The table depends
        only on the build rule, so each is computed once per process.
        """
        return _build_table(self.build)


@cache
def _build_table(build: str) -> bytes:
    probe = RuleSet(name="", letter="", title="", build=build)
    table = bytearray(64 * 64)
    cards = [make_card(r, s) for r in range(1, KING + 1) for s in range(4)]
    for onto in cards:
        for card in cards:
            if probe.fits_on(card, onto):
                table[(onto << 6) | card] = 1
    return bytes(table)


CLASSIC = RuleSet(name="forty-thieves", letter="N", title="Forty Thieves")

#: Every variant by name. Where an entry is silent, the classic rules hold.
VARIANTS: dict[str, RuleSet] = {
    rules.name: rules
    for rules in (
        CLASSIC,
        replace(CLASSIC, name="josephine", letter="J", title="Josephine", sequences=True),
        replace(CLASSIC, name="limited", letter="L", title="Limited", columns=12, per_column=3),
        replace(
            CLASSIC,
            name="indian",
            letter="I",
            title="Indian",
            per_column=3,
            face_down=1,
            build="other-suit",
        ),
        replace(CLASSIC, name="streets", letter="S", title="Streets", build="alternate-colour"),
        replace(
            CLASSIC,
            name="sixty-thieves",
            letter="X",
            title="Sixty Thieves",
            decks=3,
            columns=12,
            per_column=5,
        ),
        replace(
            CLASSIC,
            name="lucas",
            letter="C",
            title="Lucas",
            columns=13,
            per_column=3,
            aces_out=True,
        ),
        replace(
            CLASSIC,
            name="maria",
            letter="M",
            title="Maria",
            columns=9,
            build="alternate-colour",
        ),
        replace(
            CLASSIC,
            name="number-ten",
            letter="T",
            title="Number Ten",
            face_down=2,
            build="alternate-colour",
            sequences=True,
        ),
        replace(
            CLASSIC,
            name="rank-and-file",
            letter="R",
            title="Rank and File",
            face_down=3,
            build="alternate-colour",
            sequences=True,
        ),
        replace(
            CLASSIC,
            name="little-forty",
            letter="F",
            title="Little Forty",
            build="other-suit",
            sequences=True,
            draw=3,
            redeals=3,
        ),
    )
}
VARIANTS_BY_LETTER = {rules.letter: rules for rules in VARIANTS.values()}

#: Options in their canonical order, with the letter a deal code uses for each.
OPTION_LETTERS = {"kings": "K", "redeal1": "1", "redeal2": "2", "takeback": "B"}


def parse_variant(spec: str) -> RuleSet:
    """The rule set for a spec such as ``"josephine+kings+redeal1"``.

    >>> parse_variant("maria").columns
    9
    >>> parse_variant("klondike")
    Traceback (most recent call last):
    ...
    games.engine.errors.UnknownVariant: 'klondike' is not a variant; known: forty-thieves, ...
    """
    if not isinstance(spec, str):
        raise UnknownVariant(f"a variant is named by text, not {type(spec).__name__}")
    name, *options = spec.strip().lower().split("+")
    base = VARIANTS.get(name)
    if base is None:
        raise UnknownVariant(f"{name!r} is not a variant; known: {', '.join(VARIANTS)}")
    return apply_options(base, options)


def apply_options(base: RuleSet, options: list[str]) -> RuleSet:
    """``base`` with options applied; each option at most once."""
    seen: set[str] = set()
    changes: dict[str, Any] = {}
    for option in options:
        key = "redeal" if option in ("redeal1", "redeal2") else option
        if option not in OPTION_LETTERS:
            raise UnknownVariant(
                f"{option!r} is not a variant option; known: {', '.join(OPTION_LETTERS)}"
            )
        if key in seen:
            raise UnknownVariant(f"the option {key!r} is given twice")
        seen.add(key)
        if option == "kings":
            changes["space"] = "kings"
        elif option == "takeback":
            changes["takeback"] = True
        else:
            changes["redeals"] = int(option[-1])
    return replace(base, **changes)


def variant_options(rules: RuleSet) -> list[str]:
    """The options that turn the base variant into ``rules``, canonical order."""
    base = VARIANTS[rules.name]
    options = []
    if rules.space != base.space:
        options.append("kings")
    if rules.redeals != base.redeals:
        if rules.redeals not in (1, 2):
            raise UnknownVariant(f"{rules.redeals} redeals cannot be written as an option")
        options.append(f"redeal{rules.redeals}")
    if rules.takeback != base.takeback:
        options.append("takeback")
    if replace(base, **_option_fields(rules)) != rules:
        raise UnknownVariant(f"this rule set is not {rules.name!r} with options")
    return options


def _option_fields(rules: RuleSet) -> dict[str, Any]:
    return {"space": rules.space, "redeals": rules.redeals, "takeback": rules.takeback}


def format_variant(rules: RuleSet) -> str:
    """The canonical spec of a rule set (the inverse of :func:`parse_variant`)."""
    return "+".join([rules.name, *variant_options(rules)])
