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
