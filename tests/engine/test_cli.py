"""The command line a player uses to check a revealed deal and a published game."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from games.engine.cli import main

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out), out.getvalue()


def test_it_prints_a_deal_from_its_code() -> None:
    status, text = run("deal", "FT1-N-0000007")
    assert status == 0
    assert text.splitlines()[2] == "t1   6S 6H KS KC"
    assert "stock 64" in text


def test_it_prints_a_deal_from_a_seed_and_variant_with_hidden_cards_marked() -> None:
    status, text = run("deal", "--seed", "0x10", "--variant", "rank-and-file")
    assert status == 0
    assert text.splitlines()[2].startswith("t1   ?? ?? ?? ")


def test_it_replays_moves_and_prints_the_outcome() -> None:
    status, text = run("replay", "FT1-N-0000007", "s", "t3-t4")
    assert status == 0
    assert text.startswith("in play: 2 moves accepted, score 0")


def test_it_names_the_refused_move_and_its_rule(tmp_path: Path) -> None:
    log = tmp_path / "moves.txt"
    log.write_text("s\nt3-t4\nt1-f1\n")
    status, text = run("replay", "FT1-N-0000007", "--file", str(log))
    assert status == 1
    assert text.startswith("refused: move 3 ('t1-f1'): foundation f1 builds spades only")


def test_it_lists_legal_moves() -> None:
    status, text = run("legal", "FT1-N-0000007", "s")
    assert status == 0 and text.split()[0] == "s"


def test_it_explains_bad_input_with_exit_status_two(tmp_path: Path) -> None:
    assert run("deal", "FT1-N-00")[0] == 2
    assert run("deal")[1] == "error: give a deal code such as FT1-N-0000007, or --seed\n"
    assert "is not a whole number" in run("deal", "--seed", "seven")[1]
    assert "cannot read" in run("replay", "FT1-N-0000007", "--file", str(tmp_path / "no"))[1]


def test_it_runs_as_python_dash_m() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "games.engine", "deal", "FT1-N-0000007"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 0 and "code FT1-N-0000007" in result.stdout


def test_it_recomputes_a_daily_commitment_from_the_revealed_code_and_salt() -> None:
    import hashlib

    salt = "0123456789abcdef" * 2
    expected = hashlib.sha256(f"FT1-N-0000007:{salt}".encode()).hexdigest()
    assert run("commitment", "ft1-n-0000007", salt.upper()) == (0, expected + "\n")
    status, text = run("commitment", "FT1-N-0000007", "abc")
    assert status == 2 and "a salt is 32 hex digits" in text
