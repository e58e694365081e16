"""Deals: the documented shuffle, the dealing order, and deal codes.

The shuffle is specified in ``docs/deals.md`` precisely enough to be
reproduced in any language: Fisher-Yates driven by SHA-256 in counter mode
over a seed of up to 128 bits. Python's ``random`` is never used: a
predictable or invertible generator would let a player search for the seed
that matches the visible columns and read the whole stock.

>>> from games.engine.rules import CLASSIC
>>> columns, stock = deal_cards(7, CLASSIC)
>>> len(columns), [len(c) for c in columns][:3], len(stock)
(10, [4, 4, 4], 64)
>>> format_code(CLASSIC, 7)
'FT1-N-0000007'
>>> parse_code("ft1-n-0000007") == (CLASSIC, 7)
True
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator

from .cards import full_deck
from .errors import InvalidCode
from .rules import OPTION_LETTERS, VARIANTS_BY_LETTER, RuleSet, apply_options

MAX_SEED = 1 << 128
#: Seeds below this get the short 7-character code (35 bits, for practice).
SHORT_SEED_LIMIT = 1 << 35
SHORT_CODE_LENGTH = 7
LONG_CODE_LENGTH = 26
_DOMAIN = b"FT1"
_BLOCK = struct.Struct(">8I")  # a SHA-256 block's eight big-endian 32-bit words

# Crockford's base 32: no I, L, O or U, so codes read aloud or copied by hand
# survive; the look-alikes are read as the digits they resemble.
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_DECODE = {ch: i for i, ch in enumerate(CROCKFORD)}
_DECODE.update({"O": 0, "I": 1, "L": 1})
_LETTER_OF_OPTION = OPTION_LETTERS
_OPTION_OF_LETTER = {letter: option for option, letter in OPTION_LETTERS.items()}


def _check_seed(seed: int) -> None:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
        raise InvalidCode(f"a seed is a whole number from 0 to 2**128 - 1, not {seed!r}")


def random_words(seed: int) -> Iterator[int]:
    """The generator's output: 32-bit words from SHA-256 in counter mode.

    Block ``i`` is ``SHA-256(b"FT1" || seed as 16 bytes big-endian || i as 8
    bytes big-endian)``; each block gives eight words, big-endian, in order.

    >>> words = random_words(0)
    >>> hex(next(words))
    '0x9f664268'
    """
    prefix = _seed_prefix(seed)
    counter = 0
    while True:
        yield from _block_words(prefix, counter)
        counter += 1


def _seed_prefix(seed: int) -> bytes:
    """What every block of ``seed`` hashes before its counter (the seed checked first)."""
    _check_seed(seed)
    return _DOMAIN + seed.to_bytes(16, "big")


def _block_words(prefix: bytes, counter: int) -> tuple[int, ...]:
    """Block ``counter``'s eight words (:func:`random_words`' one definition of them)."""
    return _BLOCK.unpack(hashlib.sha256(prefix + counter.to_bytes(8, "big")).digest())


def shuffled_deck(seed: int, rules: RuleSet) -> list[int]:
    """The variant's deck in the order the seed gives (Durstenfeld's Fisher-Yates).

    For ``i`` from ``n - 1`` down to 1, draw ``j`` uniformly from ``0..i`` by
    rejection (discard a word ``w >= 2**32 - 2**32 % (i + 1)``, else
    ``j = w % (i + 1)``) and swap positions ``i`` and ``j``.
    """
    deck = full_deck(decks=rules.decks, aces=not rules.aces_out)
    # random_words' words, made a block of eight at a time and as many blocks at once as
    # the shuffle takes without a rejection (a rejection is rare: more are made then):
    # every socket's first hello after a start deals its game (docs/benchmarks.md).
    prefix = _seed_prefix(seed)
    words: list[int] = []
    blocks = 0

    def more(count: int) -> None:
        nonlocal blocks
        for counter in range(blocks, blocks + count):
            words.extend(_block_words(prefix, counter))
        blocks += count

    more((len(deck) + 6) // 8)  # len(deck) - 1 words
    taken = 0
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            if taken == len(words):
                more(1)
            word = words[taken]
            taken += 1
            if word < limit:
                break
        j = word % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_cards(seed: int, rules: RuleSet) -> tuple[list[list[int]], list[int]]:
    """Deal the shuffled deck: columns (bottom to top) and stock (first turned first).

    Cards are dealt row by row: the first card of the shuffled deck is the
    bottom card of column 1, the next the bottom card of column 2, and so on;
    the next row goes on top. What is left is the stock, its first card the
    first one turned.
    """
    deck = shuffled_deck(seed, rules)
    columns: list[list[int]] = [[] for _ in range(rules.columns)]
    position = 0
    for _row in range(rules.per_column):
        for column in columns:
            column.append(deck[position])
            position += 1
    return columns, deck[position:]


def encode_seed(seed: int) -> str:
    """The seed in Crockford base 32: 7 characters below 2**35, else 26.

    >>> encode_seed(31), len(encode_seed(2**127))
    ('000000Z', 26)
    """
    _check_seed(seed)
    length = SHORT_CODE_LENGTH if seed < SHORT_SEED_LIMIT else LONG_CODE_LENGTH
    chars = []
    for _ in range(length):
        seed, digit = divmod(seed, 32)
        chars.append(CROCKFORD[digit])
    return "".join(reversed(chars))


def decode_seed(text: str) -> int:
    """The seed a code's last part names (the inverse of :func:`encode_seed`)."""
    text = text.upper()
    if len(text) not in (SHORT_CODE_LENGTH, LONG_CODE_LENGTH):
        raise InvalidCode(
            f"the seed part {text!r} has {len(text)} characters; a code's seed has"
            f" {SHORT_CODE_LENGTH} (practice) or {LONG_CODE_LENGTH} (daily) characters"
        )
    value = 0
    for ch in text:
        digit = _DECODE.get(ch)
        if digit is None:
            raise InvalidCode(
                f"{ch!r} cannot appear in a deal code's seed; it uses 0-9 and A-Z without I L O U"
            )
        value = value * 32 + digit
    if value >= MAX_SEED:
        raise InvalidCode(f"the seed part {text!r} is larger than 128 bits")
    return value


def format_code(rules: RuleSet, seed: int) -> str:
    """The deal code of a seed in a variant: ``FT1-<variant letter + options>-<seed>``.

    >>> from .rules import parse_variant
    >>> format_code(parse_variant("josephine+kings+redeal2"), 12345)
    'FT1-JK2-0000C1S'
    """
    from .rules import variant_options

    letters = rules.letter + "".join(_LETTER_OF_OPTION[o] for o in variant_options(rules))
    return f"FT1-{letters}-{encode_seed(seed)}"


def parse_code(code: str) -> tuple[RuleSet, int]:
    """The rule set and seed of a deal code; case and surrounding spaces are ignored.

    >>> parse_code("FT1-Q-0000001")
    Traceback (most recent call last):
    ...
    games.engine.errors.InvalidCode: 'Q' is not a variant letter; known: N, J, L, I, S, X, ...
    """
    example = "FT1-N-7K3QX2M"
    if not isinstance(code, str):
        raise InvalidCode(f"a deal code is text like {example}, not {type(code).__name__}")
    parts = code.strip().upper().split("-")
    if len(parts) != 3 or parts[0] != "FT1" or not parts[1]:
        raise InvalidCode(
            f"{code!r} is not a deal code: it looks like {example} (FT1, a variant"
            " letter with any option letters, then 7 or 26 characters of seed)"
        )
    letters = parts[1]
    base = VARIANTS_BY_LETTER.get(letters[0])
    if base is None:
        known = ", ".join(VARIANTS_BY_LETTER)
        raise InvalidCode(f"{letters[0]!r} is not a variant letter; known: {known}")
    options = []
    for letter in letters[1:]:
        option = _OPTION_OF_LETTER.get(letter)
        if option is None:
            known = ", ".join(f"{v} ({k})" for k, v in _LETTER_OF_OPTION.items())
            raise InvalidCode(f"{letter!r} is not an option letter; known: {known}")
        options.append(option)
    try:
        rules = apply_options(base, options)
    except ValueError as err:
        raise InvalidCode(f"{code!r}: {err}") from None
    return rules, decode_seed(parts[2])


def commitment(code: str, salt: str) -> str:
    """The published commitment to a daily deal: SHA-256 of ``<code>:<salt>``, in hex.

    ``code`` is the canonical deal code and ``salt`` 32 lowercase hex digits
    (128 random bits, so nobody can search the commitment for the code). Both
    are revealed when the day closes, and anyone can recompute this.

    >>> commitment("FT1-N-0000007", "00" * 16)[:16]
    '6bf6bed8d1a24b7a'
    """
    rules, seed = parse_code(code)
    salt = salt.strip().lower()
    if len(salt) != 32 or any(ch not in "0123456789abcdef" for ch in salt):
        raise InvalidCode(f"a salt is 32 hex digits (128 bits), not {salt!r}")
    message = f"{format_code(rules, seed)}:{salt}".encode("ascii")
    return hashlib.sha256(message).hexdigest()
