"""Replaying a claim's move log with the engine (pure: no database)."""

from __future__ import annotations

import pytest

from games.engine import RESIGN, GameState
from games.engine.audit import Claim, Logged, Rejected, replay_claim

from .conftest import WON_GAMES, Played, WonGame, play_log  # noqa: TID252

won_ids = [g.code for g in WON_GAMES]


def won(game: WonGame, *, undo_limit: int = 0) -> Played:
    return play_log(game.seed, game.variant, game.moves, undo_limit=undo_limit)


def renumbered(log: list[Logged]) -> list[Logged]:
    return [a._replace(seq=i) for i, a in enumerate(log, start=1)]


def rejection(claim: Claim, log: list[Logged]) -> str:
    with pytest.raises(Rejected) as caught:
        replay_claim(claim, log)
    assert caught.value.reason == str(caught.value)
    return caught.value.reason


@pytest.fixture(params=WON_GAMES, ids=won_ids)
def won_game(request: pytest.FixtureRequest) -> WonGame:
    return request.param


@pytest.fixture
def played(won_game: WonGame) -> Played:
    return won(won_game)


# Accepted ---------------------------------------------------------------------------------


@pytest.mark.parametrize("undo_limit", [0, 100])
def test_each_real_winning_log_is_accepted_as_a_win(won_game: WonGame, undo_limit: int) -> None:
    played = won(won_game, undo_limit=undo_limit)
    claim = Claim(
        seed=won_game.seed,
        variant=won_game.variant,
        undo_limit=undo_limit,
        status="won",
        score=won_game.score,
        moves=won_game.move_count,
    )
    engine = replay_claim(claim, played.log)
    assert engine.is_won()
    assert (engine.score, engine.moves) == (won_game.score, won_game.move_count)


def test_a_resigned_log_is_accepted() -> None:
    played = play_log(7, "forty-thieves", ["s", "s", "s", RESIGN])
    assert played.status == "resigned"
    engine = replay_claim(played.claim(), played.log)
    assert engine.moves == 3 and not engine.is_won()


def test_resigning_before_any_move_is_accepted() -> None:
    played = play_log(7, "forty-thieves", [RESIGN])
    assert replay_claim(played.claim(), played.log).moves == 0


def test_a_lost_stuck_log_is_accepted(stuck_deal: tuple[int, list[str]]) -> None:
    seed, moves = stuck_deal
    played = play_log(seed, "forty-thieves", moves)
    assert played.status == "lost"
    engine = replay_claim(played.claim(), played.log)
    assert engine.is_stuck()


def test_a_practice_log_with_an_undo_is_accepted(won_game: WonGame) -> None:
    k = 10
    moves = [*won_game.moves[:k], "undo", won_game.moves[k - 1], *won_game.moves[k:]]
    played = play_log(won_game.seed, won_game.variant, moves, undo_limit=100)
    assert played.status == "won"
    engine = replay_claim(played.claim(), played.log)
    assert engine.moves == won_game.move_count + 2 and engine.score == won_game.score


# Rejected: the log itself -----------------------------------------------------------------


def test_an_illegal_action_inserted_is_refused_by_the_rules(played: Played) -> None:
    engine = GameState.from_seed(played.engine.seed, played.engine.variant, undo_limit=0)
    illegal = next(
        m
        for m in (f"t{a}-t{b}" for a in range(1, 11) for b in range(1, 11) if a != b)
        if m not in engine.legal_moves()
    )
    log = renumbered([Logged(0, illegal, 0), *played.log])
    reason = rejection(played.claim(), log)
    assert reason.startswith(f"action 1 ({illegal!r}) is refused by the rules: ")


def test_an_illegal_action_in_the_middle_is_refused_by_the_rules(played: Played) -> None:
    # Whether the rules refuse it or it scores, the inserted action is the one named.
    log = renumbered([*played.log[:5], Logged(0, "t1-f1", played.log[4].score), *played.log[5:]])
    reason = rejection(played.claim(), log)
    assert "action 6 ('t1-f1')" in reason


def test_a_skipped_action_number_is_named(played: Played) -> None:
    log = [*played.log[:3], *played.log[4:]]  # action 4 missing, numbers kept
    assert rejection(played.claim(), log) == ("the log skips or repeats: action 4 is numbered 5")


def test_a_repeated_action_number_is_named(played: Played) -> None:
    log = [*played.log[:3], played.log[3]._replace(seq=3), *played.log[4:]]
    assert rejection(played.claim(), log) == ("the log skips or repeats: action 4 is numbered 3")


def test_a_log_numbered_from_zero_is_rejected(played: Played) -> None:
    log = [a._replace(seq=a.seq - 1) for a in played.log]
    assert "action 1 is numbered 0" in rejection(played.claim(), log)


def test_a_truncated_log_is_rejected(played: Played) -> None:
    reason = rejection(played.claim(), played.log[:-1])
    assert reason == "the log ends while the game could still go on (truncated?)"


def test_an_empty_log_is_rejected(played: Played) -> None:
    assert "truncated" in rejection(played.claim(), [])


def test_a_move_padded_after_the_win_is_rejected(played: Played) -> None:
    n = len(played.log)
    padding = Logged(n + 1, "s", played.engine.score)
    reason = rejection(played.claim(), [*played.log, padding])
    assert reason == f"action {n + 1} ('s') comes after the game ended (won)"


def test_a_resign_padded_after_the_win_is_rejected(played: Played) -> None:
    n = len(played.log)
    padding = Logged(n + 1, RESIGN, played.engine.score)
    reason = rejection(played.claim(status="resigned"), [*played.log, padding])
    assert reason == f"action {n + 1} ('resign') comes after the game ended (won)"


def test_a_move_padded_after_a_resign_is_rejected() -> None:
    played = play_log(7, "forty-thieves", ["s", "s", RESIGN, "s"])
    assert rejection(played.claim(), played.log) == (
        "action 4 ('s') comes after the game ended (resigned)"
    )


def test_a_move_padded_after_a_loss_is_rejected(stuck_deal: tuple[int, list[str]]) -> None:
    seed, moves = stuck_deal
    played = play_log(seed, "forty-thieves", moves)
    n = len(played.log)
    log = [*played.log, Logged(n + 1, RESIGN, played.engine.score)]
    assert rejection(played.claim(status="resigned"), log) == (
        f"action {n + 1} ('resign') comes after the game ended (lost)"
    )


def test_an_undo_in_a_ranked_game_is_refused() -> None:
    played = play_log(7, "forty-thieves", ["s", "s", "undo", "s", RESIGN], undo_limit=100)
    reason = rejection(played.claim(undo_limit=0), played.log)
    assert reason == "action 3 ('undo') is refused by the rules: this game has no undo"


def test_a_log_of_another_deal_is_rejected(won_game: WonGame) -> None:
    played = won(won_game)
    other = played.claim(seed=won_game.seed + 1)
    reason = rejection(other, played.log)
    assert reason.startswith("action ")
    assert "is refused by the rules" in reason or "records score" in reason


def test_a_log_of_another_variant_is_rejected(won_game: WonGame) -> None:
    played = won(won_game)
    other = "streets" if won_game.variant != "streets" else "josephine"
    reason = rejection(played.claim(variant=other), played.log)
    assert reason.startswith("action ")


# Rejected: the claim differs from the replay -------------------------------------------


def test_a_claimed_score_that_differs_is_named(played: Played) -> None:
    score = played.engine.score
    assert rejection(played.claim(score=score + 5), played.log) == (
        f"the game claims score {score + 5}; the replay gives {score}"
    )


def test_a_claimed_status_that_differs_is_named(played: Played) -> None:
    assert rejection(played.claim(status="lost"), played.log) == (
        "the game claims status lost; the replay gives won"
    )


def test_a_claimed_win_of_a_resigned_log_is_rejected() -> None:
    played = play_log(7, "forty-thieves", ["s", "s", RESIGN])
    assert rejection(played.claim(status="won"), played.log) == (
        "the game claims status won; the replay gives resigned"
    )


def test_a_claimed_move_count_that_differs_is_named(played: Played) -> None:
    moves = played.engine.moves
    assert rejection(played.claim(moves=moves - 1), played.log) == (
        f"the game claims move count {moves - 1}; the replay gives {moves}"
    )


def test_an_actions_recorded_score_that_differs_is_named(played: Played) -> None:
    k = next(i for i, a in enumerate(played.log) if a.score > 0)
    forged = played.log[k]._replace(score=played.log[k].score + 10)
    log = [*played.log[:k], forged, *played.log[k + 1 :]]
    reason = rejection(played.claim(), log)
    assert reason == (
        f"action {forged.seq} ({forged.move!r}) records score {forged.score};"
        f" the replay gives {played.log[k].score}"
    )
