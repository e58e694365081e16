"""A refusal in the player's language, for pages without JavaScript.

The board's script words a refused move from its ``rule`` and ``params``
(static/js/board/reminders.js, docs/protocol.md "The rule"). The plain move form, for players
without JavaScript, shows the same refusal as a message on the next page: this says it in the
same words, from the same catalog. The sentences are the JavaScript catalog's own msgids
(``djangojs``), read here through Django's translation of that domain, so each language
translates a reminder once; ``tests/games/test_refusal_words.py`` checks that this table
and the script's hold the same sentences. Refusals that name no rule (a stale page, a game
that is over...) are worded by their code from the site's catalog.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import DjangoTranslation

from games.errors import ServiceError


@cache
def _catalog(language: str) -> DjangoTranslation:
    return DjangoTranslation(language, domain="djangojs")


def js_text(msgid: str, values: Mapping[str, Any] | None = None) -> str:
    """``msgid`` of the JavaScript catalog in the active language, formatted like the
    script's ``t()`` (``%(name)s`` from ``values``). Not named gettext on purpose: these
    msgids belong to the ``djangojs`` domain, and makemessages must not copy them into the
    site's catalog."""
    language = translation.get_language() or "en"
    text = _catalog(language).gettext(msgid)
    return text % dict(values) if values else text


# Literal js_text() calls, one per name, as the script's cards.js has them.
_SUITS: dict[str, Callable[[], str]] = {
    "S": lambda: js_text("spades"),
    "H": lambda: js_text("hearts"),
    "D": lambda: js_text("diamonds"),
    "C": lambda: js_text("clubs"),
}


def the_card(card: str) -> str:
    """A card with its article for the middle of a sentence ("the 7 of hearts"): each kind of
    rank is its own msgid, as in reminders.js, because articles differ by rank."""
    suit = _SUITS[card[1]]()
    match card[0]:
        case "A":
            return js_text("the ace of %(suit)s", {"suit": suit})
        case "8":
            return js_text("the 8 of %(suit)s", {"suit": suit})
        case "J":
            return js_text("the jack of %(suit)s", {"suit": suit})
        case "Q":
            return js_text("the queen of %(suit)s", {"suit": suit})
        case "K":
            return js_text("the king of %(suit)s", {"suit": suit})
    rank = "10" if card[0] == "T" else card[0]
    return js_text("the %(rank)s of %(suit)s", {"rank": rank, "suit": suit})


def _build(p: dict[str, Any]) -> str | None:
    vars_ = {"card": p["card"], "onto": p["onto"]}
    match p["build"]:
        case "same-suit":
            return js_text(
                "%(card)s cannot go on %(onto)s: a column builds down in the same suit.", vars_
            )
        case "other-suit":
            return js_text(
                "%(card)s cannot go on %(onto)s: a column builds down in a different suit.", vars_
            )
        case "alternate-colour":
            return js_text(
                "%(card)s cannot go on %(onto)s: a column builds down in the other colour.", vars_
            )
    return None


def _pile_empty(p: dict[str, Any]) -> str:
    if p["pileKind"] == "waste":
        return js_text("The waste is empty.")
    return js_text("Column %(n)s is empty.", p)


# One sentence per rule, as reminders.js's RULES; ``p`` holds the params in words.
RULES: dict[str, Callable[[dict[str, Any]], str | None]] = {
    "foundation_suit": lambda p: js_text("%(foundation)s takes only %(suit)s, not %(card)s.", p),
    "foundation_ace": lambda p: js_text("%(foundation)s starts with an ace, not %(card)s.", p),
    "foundation_next": lambda p: js_text(
        "%(card)s cannot go home yet: %(foundation)s takes %(want)s next.", p
    ),
    "foundation_complete": lambda p: js_text("%(foundation)s is complete.", p),
    "foundation_one_card": lambda p: js_text("A foundation takes one card at a time."),
    "foundation_empty": lambda p: js_text("%(foundation)s is empty.", p),
    "pile_empty": _pile_empty,
    "build": _build,
    "onto_ace": lambda p: js_text("Nothing goes on an ace."),
    "own_column": lambda p: js_text("A card cannot move onto its own column."),
    "space_kings": lambda p: js_text("Only a king may fill an empty column."),
    "space_kings_run": lambda p: js_text("Only a run led by a king may fill an empty column."),
    "space_whole_column": lambda p: js_text(
        "Moving a whole column to an empty one changes nothing."
    ),
    "waste_top_only": lambda p: js_text("Only the top card of the waste may move."),
    "no_runs": lambda p: js_text("In %(variant)s cards move one at a time.", p),
    "run_face_down": lambda p: js_text("Column %(n)s has only %(face_up)s face-up cards.", p),
    "run_broken": lambda p: js_text(
        "Only a run in order moves together: %(card)s does not follow %(onto)s.", p
    ),
    "no_takeback": lambda p: js_text("In %(variant)s cards on a foundation stay there.", p),
    "takeback_to_column": lambda p: js_text(
        "A card taken back from a foundation may only go to a column."
    ),
    "stock_empty": lambda p: js_text("The stock is empty, and it is turned only once."),
    "stock_empty_redeal": lambda p: js_text("The stock is empty: tap it to turn the waste over."),
    "stock_empty_no_redeals": lambda p: js_text("The stock is empty and no redeals are left."),
    "no_redeal": lambda p: js_text("%(variant)s has no redeal: the stock is turned only once.", p),
    "redeals_used": lambda p: js_text("No redeals are left."),
    "redeal_stock_left": lambda p: js_text(
        "The waste is turned over only once the stock is empty."
    ),
    "redeal_waste_empty": lambda p: js_text("The waste is empty: there is nothing to turn over."),
    "nothing_to_undo": lambda p: js_text("There is nothing to undo."),
    "no_undo": lambda p: js_text("This game has no undo."),
    "ranked_no_undo": lambda p: js_text("Ranked games have no undo."),
    "notation": lambda p: js_text(
        "“%(text)s” is not a move: write s to turn a card, r to redeal, or from-to such as"
        " t3-f1, w-t10 or t3-t5x3.",
        p,
    ),
    "no_such_pile": lambda p: js_text(
        "“%(text)s” names a pile this game lacks: columns are t1 to t%(columns)s,"
        " foundations f1 to f%(foundations)s.",
        p,
    ),
}

# The params each sentence needs; without them the server's reason stands (as in the script).
NEEDS: dict[str, tuple[str, ...]] = {
    "foundation_suit": ("foundation", "card"),
    "foundation_ace": ("foundation", "card"),
    "foundation_next": ("foundation", "card", "want"),
    "foundation_complete": ("foundation",),
    "foundation_empty": ("foundation",),
    "pile_empty": ("pile",),
    "build": ("build", "card", "onto"),
    "no_runs": ("variant",),
    "run_face_down": ("pile", "face_up"),
    "run_broken": ("card", "onto"),
    "no_takeback": ("variant",),
    "no_redeal": ("variant",),
    "notation": ("text",),
    "no_such_pile": ("text", "columns", "foundations"),
}

_CARD = re.compile(r"[A2-9TJQK][SHDC]")


def _in_words(rule: str, params: Mapping[str, Any]) -> dict[str, Any] | None:
    """The params with cards and piles in words; None when one the sentence needs is missing
    or not what it should be (then the reason stands)."""
    if any(params.get(key) is None for key in NEEDS.get(rule, ())):
        return None
    p = dict(params)
    for key in ("card", "onto", "want"):
        if key in params:
            if not isinstance(params[key], str) or not _CARD.fullmatch(params[key]):
                return None
            p[key] = the_card(params[key])
    if "foundation" in params:
        suit = params["foundation"].get("suit") if isinstance(params["foundation"], dict) else None
        if suit not in _SUITS:
            return None
        p["suit"] = _SUITS[suit]()
        p["foundation"] = js_text("the %(suit)s foundation", {"suit": p["suit"]})
    if "pile" in params:
        pile = params["pile"]
        if not isinstance(pile, dict) or (pile.get("kind") != "waste" and "n" not in pile):
            return None
        p["pileKind"], p["n"] = pile.get("kind"), pile.get("n")
    return p


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _by_code(code: str) -> str | None:
    match code:
        case "game_over":
            return _("This game is over: nothing more can be played in it.")
        case "stale_version":
            return _(
                "The table changed since this page was shown (another tab or device?). "
                "Here it is as it stands now: send your move again."
            )
        case "day_closed":
            return _("This deal's day has closed: the game stands as it was at the close.")
    return None


def refusal_sentence(*, err: ServiceError) -> str:
    """What to tell the player about ``err``: the rule in their language when one is named
    and its params are whole, else a sentence for the refusal's code, else the service's
    own reason (a refusal with no sentence here yet)."""
    rule = err.extra.get("rule")
    if isinstance(rule, str) and rule in RULES:
        given = err.extra.get("params")
        params = _in_words(rule, given if isinstance(given, dict) else {})
        text = RULES[rule](params) if params is not None else None
        if text:
            return _sentence(text)
    return _by_code(err.code) or err.reason
