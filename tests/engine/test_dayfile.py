"""``python -m games.engine verify-day``: a day file re-checked with the engine alone (no
Django), and every kind of tampering caught with a message that says where."""

from __future__ import annotations

import copy
import gzip
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from games.engine import RESIGN, GameState
from games.engine.cli import main
from games.engine.dayfile import verify_day
from games.engine.deal import commitment
from games.engine.ranking import board_order
from games.engine.safe import play_safe_home

WON = json.loads((Path(__file__).parents[1] / "data" / "won_games.json").read_text())["games"][0]
CODE, SALT = WON["code"], "ab" * 16  # FT1-J-0000002, a josephine deal
OPENS = datetime(2026, 11, 23, tzinfo=UTC)
CLOSES = OPENS + timedelta(days=7)
STEP_MS = 1500


def iso(at: datetime) -> str:
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def game(
    result: int, player: str, moves: list[str], start: datetime, *, server_resign: bool = False
) -> dict[str, Any]:
    """One game as the site exports it, replayed here so its claim is true."""
    engine = GameState.from_code(CODE, undo_limit=0)
    engine.replay(moves)
    actions: list[list[Any]] = [[m, k * STEP_MS] for k, m in enumerate(moves)]
    if server_resign:
        actions.append([RESIGN, (CLOSES - start) // timedelta(milliseconds=1), "server"])
    elif not engine.is_won():
        actions.append([RESIGN, len(moves) * STEP_MS])
    status = "won" if engine.is_won() else "resigned"
    finish = start + timedelta(milliseconds=actions[-1][1])
    return {
        "rank": None,
        "result": result,
        "player": player,
        "status": status,
        "won": status == "won",
        "score": engine.score,
        "moves": engine.moves,
        "time_ms": actions[-1][1],
        "started_at": iso(start),
        "finished_at": iso(finish),
        "review": "",
        "actions": actions,
    }


def rank(games: list[dict[str, Any]]) -> None:
    ranked = [g for g in games if g["review"] != "disqualified"]
    ranked.sort(
        key=lambda g: board_order(
            won=g["won"],
            score=g["score"],
            moves=g["moves"],
            duration_ms=g["time_ms"],
            finished_ms=int(datetime.fromisoformat(g["finished_at"]).timestamp() * 1000),
            result_id=g["result"],
        )
    )
    for position, g in enumerate(ranked, start=1):
        g["rank"] = position
    games.sort(key=lambda g: (g["rank"] is None, g["rank"] or 0, g["result"]))


@pytest.fixture
def day() -> dict[str, Any]:
    """A weekly challenge's day file: a win, a give-up, a game the close resigned, and a
    disqualified give-up (unranked)."""
    noon = OPENS + timedelta(days=1, hours=12)
    games = [
        game(11, "ada", WON["moves"].split(), noon),
        game(12, "bob", ["s"] * 5, noon + timedelta(minutes=1)),
        game(13, "carol", ["s"] * 3, noon + timedelta(minutes=2), server_resign=True),
        game(14, "dan", ["s"] * 2, noon + timedelta(minutes=3)),
    ]
    games[3]["review"] = "disqualified"
    rank(games)
    return {
        "format": "forty-thieves-day",
        "version": 1,
        "kind": "weekly",
        "day": OPENS.date().isoformat(),
        "variant": "josephine",
        "code": CODE,
        "salt": SALT,
        "commitment": commitment(CODE, SALT),
        "opens_at": iso(OPENS),
        "closes_at": iso(CLOSES),
        "generated_at": iso(CLOSES + timedelta(minutes=1)),
        "order": "won first, then higher score, fewer moves, less time_ms, earlier"
        " finished_at, lower result",
        "games": games,
    }


def by_result(data: dict[str, Any], result: int) -> dict[str, Any]:
    return next(g for g in data["games"] if g["result"] == result)


def problems(data: dict[str, Any]) -> list[str]:
    return verify_day(data).problems


def test_a_true_file_checks_clean(day: dict[str, Any]) -> None:
    report = verify_day(day)
    assert report.clean, report.problems
    # The win first; the close's resign (3 moves) before the give-up (5 moves).
    assert [(g["result"], g["rank"]) for g in day["games"]] == [
        (11, 1),
        (13, 2),
        (12, 3),
        (14, None),
    ]


def test_equal_results_share_a_rank_and_the_next_takes_its_place(day: dict[str, Any]) -> None:
    # Eve's give-up equals Bob's (score, moves, time): both rank 3, none ranks 4.
    noon = OPENS + timedelta(days=1, hours=12)
    eve = game(15, "eve", ["s"] * 5, noon + timedelta(minutes=4))
    assert (eve["score"], eve["moves"], eve["time_ms"]) == tuple(
        by_result(day, 12)[k] for k in ("score", "moves", "time_ms")
    )
    eve["rank"] = 3
    day["games"].append(eve)
    assert verify_day(day).clean, verify_day(day).problems
    eve["rank"] = 4  # the rank of a board that numbers ties apart
    found = problems(day)
    assert found == [
        "game 5 (result 15, eve) is ranked 4; by the board's order (won, score, fewer moves,"
        " less time in whole seconds; equal results share a rank) it is 3"
    ]


def test_a_changed_move_is_caught_where_it_is(day: dict[str, Any]) -> None:
    by_result(day, 11)["actions"][0][0] = "t1-t2"
    found = problems(day)
    assert any(
        p.startswith("game 1 (result 11, ada): action 1 ('t1-t2') is refused by the rules")
        for p in found
    ), found


def test_a_changed_stamp_is_caught(day: dict[str, Any]) -> None:
    by_result(day, 12)["actions"][-1][1] += 4000
    found = problems(day)
    assert "game 3 (result 12, bob): the time is 7500 ms; the stamps give 11500 ms" in " ".join(
        found
    ), found
    assert any("finished_at is" in p and "the last action is at" in p for p in found)


def test_a_stamp_moved_past_the_close_is_caught(day: dict[str, Any]) -> None:
    by_result(day, 12)["actions"][2][1] = (CLOSES - OPENS) // timedelta(milliseconds=1)
    found = problems(day)
    assert any("action 3 ('s') was played at" in p and "after the deal closed" in p for p in found)


def test_a_changed_score_is_caught(day: dict[str, Any]) -> None:
    by_result(day, 11)["score"] += 50
    found = problems(day)
    assert any("the game claims score 1265; the replay gives 1215" in p for p in found), found


def test_a_changed_rank_order_is_caught(day: dict[str, Any]) -> None:
    by_result(day, 12)["rank"], by_result(day, 13)["rank"] = 2, 3
    found = problems(day)
    assert len(found) == 2, found
    assert any(p.startswith("game 3 (result 12, bob) is ranked 2;") for p in found)
    assert any("(result 13, carol) is ranked 3" in p and p.endswith("it is 2") for p in found)


def test_a_changed_salt_is_caught(day: dict[str, Any]) -> None:
    day["salt"] = "cd" * 16
    found = problems(day)
    assert found == [
        f"the commitment does not match: SHA-256 of code:salt is {commitment(CODE, 'cd' * 16)},"
        f" the file says {commitment(CODE, SALT)}"
    ]


def test_a_players_move_passed_off_as_the_servers_is_caught(day: dict[str, Any]) -> None:
    by_result(day, 12)["actions"][1].append("server")
    found = problems(day)
    assert any("action 2 ('s') is marked as the server's own" in p for p in found), found


def test_a_server_resign_not_at_the_close_is_caught(day: dict[str, Any]) -> None:
    resign = by_result(day, 13)["actions"][-1]
    resign[1] -= 60_000
    found = problems(day)
    assert any("marked as the server's close-of-day resign but stamped" in p for p in found)


def test_a_disqualified_game_with_a_rank_is_caught(day: dict[str, Any]) -> None:
    by_result(day, 14)["rank"] = 4
    assert "game 4 (result 14, dan) is disqualified but ranked 4" in problems(day)


def test_a_claimed_win_that_is_not_one_is_caught(day: dict[str, Any]) -> None:
    bob = by_result(day, 12)
    bob["status"], bob["won"] = "won", True
    found = problems(day)
    assert any("the game claims status won; the replay gives resigned" in p for p in found)


# The command line --------------------------------------------------------------------------


def run(tmp_path: Path, data: object, *, gz: bool = False) -> tuple[int, str]:
    raw = json.dumps(data).encode() if not isinstance(data, bytes) else data
    path = tmp_path / ("day.json.gz" if gz else "day.json")
    path.write_bytes(gzip.compress(raw) if gz else raw)
    out = io.StringIO()
    return main(["verify-day", str(path)], out=out), out.getvalue()


@pytest.mark.parametrize("gz", [False, True], ids=["json", "gzip"])
def test_the_command_says_ok_for_a_true_file(tmp_path: Path, day: dict, gz: bool) -> None:
    code, text = run(tmp_path, day, gz=gz)
    assert code == 0, text
    assert text.startswith("ok: weekly 2026-11-23 (josephine), 4 games: the commitment matches")


def test_the_command_lists_every_disagreement_and_fails(tmp_path: Path, day: dict) -> None:
    tampered = copy.deepcopy(day)
    tampered["salt"] = "cd" * 16
    by_result(tampered, 11)["score"] += 1
    code, text = run(tmp_path, tampered)
    lines = text.splitlines()
    assert code == 1
    assert lines[0].startswith("disagrees: the commitment does not match")
    assert any(line.startswith("disagrees: game 1 (result 11, ada)") for line in lines)
    assert lines[-1] == "FAILED: weekly 2026-11-23 (josephine), 4 games: 2 disagreements"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"version": 2}, "day file version 2; this checker reads version 1"),
        ({"format": "chess"}, "not a day file: 'format' is 'chess'"),
        ({"games": {}}, "'games' is missing or not a list"),
        ({"closes_at": "tomorrow"}, "'closes_at' is 'tomorrow'; expected an ISO 8601 time"),
    ],
)
def test_a_file_it_cannot_read_is_a_usage_error(
    tmp_path: Path, day: dict, change: dict, message: str
) -> None:
    code, text = run(tmp_path, {**day, **change})
    assert code == 2 and message in text, text


def test_a_malformed_action_is_named(tmp_path: Path, day: dict) -> None:
    by_result(day, 12)["actions"][0] = ["s", "soon"]
    code, text = run(tmp_path, day)
    assert code == 2
    assert (
        "game 3 (result 12, bob): action 1 is ['s', 'soon']; expected [move, milliseconds]" in text
    )


def test_not_json_is_a_usage_error(tmp_path: Path) -> None:
    code, text = run(tmp_path, b"<html>")
    assert code == 2 and "is not JSON" in text
    missing = io.StringIO()
    assert main(["verify-day", str(tmp_path / "nope.json")], out=missing) == 2
    assert "cannot read" in missing.getvalue()


def auto_home_game(result: int, player: str, start: datetime) -> dict[str, Any]:
    """A game played with safe cards sent home: draws, each followed by the server's safe
    home moves (marked "server"), until some came; then the player resigns."""
    engine = GameState.from_code(CODE, undo_limit=0)
    actions: list[list[Any]] = []
    while not any(len(a) == 3 for a in actions):
        engine.play("s")
        at = len(actions) * STEP_MS
        actions.append(["s", at])
        actions.extend([m, at, "server"] for m in play_safe_home(engine))
    actions.append([RESIGN, actions[-1][1] + STEP_MS])
    return {
        **game(result, player, ["s"], start),
        "score": engine.score,
        "moves": engine.moves,
        "time_ms": actions[-1][1],
        "finished_at": iso(start + timedelta(milliseconds=actions[-1][1])),
        "auto_home": True,
        "actions": actions,
    }


def with_auto_home_game(day: dict[str, Any]) -> dict[str, Any]:
    day["games"].append(auto_home_game(15, "erin", OPENS + timedelta(days=2)))
    rank(day["games"])
    return day


def test_a_game_with_safe_cards_sent_home_checks_clean(day: dict[str, Any]) -> None:
    assert problems(with_auto_home_game(day)) == []


def test_server_moves_in_a_game_without_the_option_are_caught(day: dict[str, Any]) -> None:
    with_auto_home_game(day)
    del by_result(day, 15)["auto_home"]
    found = problems(day)
    assert any("is marked as the server's own" in p for p in found), found


def test_a_forged_safe_move_is_caught(day: dict[str, Any]) -> None:
    with_auto_home_game(day)
    actions = by_result(day, 15)["actions"]
    first = next(i for i, a in enumerate(actions) if len(a) == 3)
    actions[first - 1].append("server")  # the player's draw passed off as automatic
    found = problems(day)
    assert any("next safe home move" in p or "after the deal" in p for p in found), found
