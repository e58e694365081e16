"""Cards as small integers, and their two-character text form.

A card is ``rank << 2 | suit`` with rank 1 (ace) to 13 (king) and suit
0 to 3 for spades, hearts, diamonds, clubs. Small ints keep the game state
compact and make the column rule a table lookup. The two copies of a card in
a two-deck game are the same integer: they are indistinguishable.

>>> parse_card("TH")
41
>>> format_card(41)
'TH'
>>> [format_card(c) for c in full_deck(decks=1)][:3]
['AS', '2S', '3S']
>>> describe_card(parse_card("QD"))
'queen of diamonds'
"""

from __future__ import annotations

from functools import cache

from .errors import InvalidCard

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
ACE, KING = 1, 13

RANK_NAMES = (
    "",
    "ace",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "jack",
    "queen",
    "king",
)
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663"

_TEXT_TO_CARD = {
    r + s: (ri << 2) | si for ri, r in enumerate(RANKS, start=1) for si, s in enumerate(SUITS)
}
_CARD_TO_TEXT = {card: text for text, card in _TEXT_TO_CARD.items()}


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (1-13) and ``suit`` (0-3).

    >>> format_card(make_card(KING, CLUBS))
    'KC'
    """
    return (rank << 2) | suit


def rank_of(card: int) -> int:
    """Rank 1 (ace) to 13 (king).

    >>> rank_of(parse_card("9S"))
    9
    """
    return card >> 2


def suit_of(card: int) -> int:
    """Suit 0-3 in the order spades, hearts, diamonds, clubs.

    >>> suit_of(parse_card("9D")) == DIAMONDS
    True
    """
    return card & 3


def is_red(card: int) -> bool:
    """Hearts and diamonds are red; spades and clubs are black.

    >>> is_red(parse_card("AH")), is_red(parse_card("AC"))
    (True, False)
    """
    return (card & 3) in (HEARTS, DIAMONDS)


def parse_card(text: str) -> int:
    """Read a card such as ``TH``; ranks ``A23456789TJQK``, suits ``SHDC``.

    Lower case is accepted; anything else is refused with the expected form:

    >>> parse_card("as") == parse_card("AS")
    True
    >>> parse_card("10H")
    Traceback (most recent call last):
    ...
    games.engine.errors.InvalidCard: '10H' is not a card: write a rank A23456789TJQK then a suit ...
    """
    card = _TEXT_TO_CARD.get(text) if isinstance(text, str) else None
    if card is None and isinstance(text, str):
        card = _TEXT_TO_CARD.get(text.strip().upper())
    if card is None:
        raise InvalidCard(
            f"{text!r} is not a card: write a rank {RANKS} then a suit {SUITS},"
            " e.g. TH for the ten of hearts"
        )
    return card


def format_card(card: int) -> str:
    """The two-character text of a card (the inverse of :func:`parse_card`)."""
    return _CARD_TO_TEXT[card]


def describe_card(card: int) -> str:
    """The card in words, for screen readers and messages.

    >>> describe_card(parse_card("AS")), describe_card(parse_card("7H"))
    ('ace of spades', '7 of hearts')
    """
    return f"{RANK_NAMES[card >> 2]} of {SUIT_NAMES[card & 3]}"


def full_deck(*, decks: int, aces: bool = True) -> list[int]:
    """The unshuffled cards of ``decks`` packs, in the order the deal spec fixes.

    Pack by pack, suit by suit (S H D C), ace to king. With ``aces=False`` the
    aces are left out (variants that place them on the foundations first).

    >>> len(full_deck(decks=2)), len(full_deck(decks=2, aces=False))
    (104, 96)
    """
    return list(_deck(decks, aces))


@cache
def _deck(decks: int, aces: bool) -> tuple[int, ...]:
    # Made once a deck: every deal and every layout check starts from it.
    first_rank = ACE if aces else ACE + 1
    return tuple(
        make_card(rank, suit)
        for _ in range(decks)
        for suit in range(4)
        for rank in range(first_rank, KING + 1)
    )
