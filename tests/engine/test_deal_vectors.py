"""Known answers: deals computed from docs/deals.md by an independent program.

``data/deal_vectors.json`` was written by ``data/deal_vectors.mjs``, a Node.js
implementation of the spec made without reading the engine. When both agree,
the spec is precise enough to reproduce every deal in another language.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from itertools import islice
from pathlib import Path

import pytest

from games.engine import GameState, format_code, parse_code, parse_variant
from games.engine.deal import random_words
from games.engine.rules import OPTION_LETTERS

DATA = Path(__file__).parent / "data"
VECTORS = json.loads((DATA / "deal_vectors.json").read_text())["vectors"]
DEALS = [v for v in VECTORS if "columns" in v]
CODES = [v for v in VECTORS if "options" in v]
OPTION_OF_LETTER = {letter: option for option, letter in OPTION_LETTERS.items()}


def test_the_vectors_cover_every_variant() -> None:
    from games.engine import VARIANTS

    assert {v["variant"] for v in DEALS} == set(VARIANTS)


@pytest.mark.parametrize("vector", DEALS, ids=lambda v: f"{v['variant']}-{v['seed']}")
def test_it_deals_what_the_independent_implementation_deals(vector: dict) -> None:
    seed = int(vector["seed"])
    game = GameState.from_seed(seed, vector["variant"])
    assert list(islice(random_words(seed), 4)) == vector["first_words"]
    dump = game.dump()
    assert dump["columns"] == vector["columns"]
    assert dump["stock"] == vector["stock"]
    assert dump["down"] == [vector["face_down"]] * len(vector["columns"])
    assert game.code == vector["code"]
    assert parse_code(vector["code"]) == (parse_variant(vector["variant"]), seed)


@pytest.mark.parametrize("vector", CODES, ids=lambda v: v["code"])
def test_it_writes_option_codes_as_the_spec_does(vector: dict) -> None:
    spec = "+".join([vector["variant"], *(OPTION_OF_LETTER[o] for o in vector["options"])])
    rules = parse_variant(spec)
    assert format_code(rules, int(vector["seed"])) == vector["code"]
    assert parse_code(vector["code"]) == (rules, int(vector["seed"]))


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_independent_program_still_writes_these_vectors() -> None:
    result = subprocess.run(
        ["node", str(DATA / "deal_vectors.mjs")], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["vectors"] == VECTORS


def _shuffle_by_the_spec(seed: int, rules: object) -> list[int]:
    """docs/deals.md's shuffle read word by word from ``random_words``."""
    from games.engine.cards import full_deck

    deck = full_deck(decks=rules.decks, aces=not rules.aces_out)  # type: ignore[attr-defined]
    words = random_words(seed)
    for i in range(len(deck) - 1, 0, -1):
        limit = (1 << 32) - (1 << 32) % (i + 1)
        word = next(words)
        while word >= limit:
            word = next(words)
        deck[i], deck[(word % (i + 1))] = deck[word % (i + 1)], deck[i]
    return deck


class _Rejecting:
    """A stand-in for SHA-256 whose blocks reject every third word (a real rejection
    is a chance of about one in a million a deal), the same for both readers."""

    def __init__(self, data: bytes) -> None:
        self.counter = int.from_bytes(data[-8:], "big")

    def digest(self) -> bytes:
        n = self.counter * 8
        words = [0xFFFFFFFF if (n + k) % 3 == 0 else (n + k) * 2654435761 % 2**31 for k in range(8)]
        return b"".join(w.to_bytes(4, "big") for w in words)


@pytest.mark.parametrize("variant", ["forty-thieves", "sixty-thieves", "lucas"])
def test_the_shuffle_takes_the_generators_words_in_order(variant: str, monkeypatch) -> None:
    from games.engine import deal

    rules = parse_variant(variant)
    for seed in (0, 1, 7, 2**35 - 1, 2**128 - 1):
        assert deal.shuffled_deck(seed, rules) == _shuffle_by_the_spec(seed, rules)
    monkeypatch.setattr(deal.hashlib, "sha256", _Rejecting)
    for seed in (0, 5):
        assert deal.shuffled_deck(seed, rules) == _shuffle_by_the_spec(seed, rules)
