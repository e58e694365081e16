"""Parse/format pairs: cards, moves, variant specs and deal codes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import (
    VARIANTS,
    InvalidCard,
    InvalidCode,
    InvalidMove,
    UnknownVariant,
    format_card,
    format_code,
    format_move,
    format_variant,
    parse_card,
    parse_code,
    parse_move,
    parse_variant,
)
from games.engine.cards import RANKS, SUITS

ALL_CARDS = [r + s for r in RANKS for s in SUITS]
SPECS = [
    f"{name}{opts}"
    for name in VARIANTS
    for opts in ("", "+kings", "+redeal1", "+redeal2+takeback", "+kings+redeal1+takeback")
]


def test_every_card_round_trips_through_its_text() -> None:
    assert len({parse_card(c) for c in ALL_CARDS}) == 52
    assert [format_card(parse_card(c)) for c in ALL_CARDS] == ALL_CARDS


@pytest.mark.parametrize("text", ["", "1H", "TX", "T", "THH", "10H", None, 41])
def test_it_refuses_text_that_is_not_a_card(text: object) -> None:
    with pytest.raises(InvalidCard, match="rank A23456789TJQK then a suit SHDC"):
        parse_card(text)  # type: ignore[arg-type]


MOVES = ["s", "r", "w-t1", "w-f8", "t10-t1", "t3-f1", "t2-t7", "f4-t1", "t3-t5x3", "t12-t13x12"]


@pytest.mark.parametrize("text", MOVES)
def test_canonical_moves_round_trip(text: str) -> None:
    assert format_move(parse_move(text)) == text


def test_it_reads_moves_in_any_case_with_spaces_and_writes_them_canonically() -> None:
    assert format_move(parse_move("  W-T10 ")) == "w-t10"
    assert format_move(parse_move("t3-t5x1")) == "t3-t5"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("t0-t1", "is not a move"),
        ("t1-w", "is not a move"),
        ("f1", "is not a move"),
        ("t1-t2x0", "is not a move"),
        ("t1-t2x1000", "is not a move"),
        ("t1-f2x2", "a foundation takes one card at a time"),
        ("f1-t2x2", "a foundation gives up one card at a time"),
        ("draw", "is not a move"),
    ],
)
def test_it_refuses_moves_outside_the_notation_saying_what_is_expected(
    text: str, reason: str
) -> None:
    with pytest.raises(InvalidMove, match=reason):
        parse_move(text)


@given(st.text(max_size=12))
def test_any_text_either_parses_to_a_canonical_move_or_is_refused(text: str) -> None:
    try:
        move = parse_move(text)
    except InvalidMove as err:
        assert err.reason
    else:
        assert parse_move(format_move(move)) == move


@pytest.mark.parametrize("spec", SPECS)
def test_every_variant_spec_round_trips(spec: str) -> None:
    assert format_variant(parse_variant(spec)) == spec


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("klondike", "is not a variant"),
        ("josephine+jokers", "is not a variant option"),
        ("josephine+kings+kings", "given twice"),
        ("josephine+redeal1+redeal2", "given twice"),
    ],
)
def test_it_refuses_unknown_variants_and_options(spec: str, reason: str) -> None:
    with pytest.raises(UnknownVariant, match=reason):
        parse_variant(spec)


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("seed", [0, 1, 2**35 - 1, 2**35, 2**128 - 1])
def test_every_deal_code_round_trips(spec: str, seed: int) -> None:
    rules = parse_variant(spec)
    code = format_code(rules, seed)
    assert parse_code(code) == (rules, seed)
    assert len(code.rsplit("-", 1)[1]) == (7 if seed < 2**35 else 26)


def test_it_reads_codes_leniently_where_the_meaning_is_certain() -> None:
    rules, seed = parse_code("  ft1-i-OOOOOIL ")
    assert (rules.name, seed) == ("indian", 32 + 1)
    assert parse_code("FT1-N2K-0000007") == parse_code("FT1-NK2-0000007")
    assert parse_code("FT1-N-" + "0" * 25 + "7") == parse_code("FT1-N-0000007")


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("", "is not a deal code: it looks like FT1-N-7K3QX2M"),
        ("FT2-N-0000007", "is not a deal code"),
        ("FT1-N-000007", "has 6 characters"),
        ("FT1-Q-0000007", "'Q' is not a variant letter"),
        ("FT1-NZ-0000007", "'Z' is not an option letter"),
        ("FT1-NKK-0000007", "given twice"),
        ("FT1-N-000000U", "'U' cannot appear"),
        ("FT1-N-" + "8" + "0" * 25, "larger than 128 bits"),
        (None, "is text like FT1-N-7K3QX2M"),
    ],
)
def test_it_refuses_bad_codes_saying_what_a_code_looks_like(code: object, reason: str) -> None:
    with pytest.raises(InvalidCode, match=reason):
        parse_code(code)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 2**128, 1.5, True])
def test_it_refuses_seeds_outside_128_bits(seed: object) -> None:
    with pytest.raises(InvalidCode, match="from 0 to 2\\*\\*128 - 1"):
        format_code(parse_variant("forty-thieves"), seed)  # type: ignore[arg-type]
