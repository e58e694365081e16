"""The audit of the server's automatic moves (safe cards sent home): a log the server
writes is accepted; every forged automatic action is refused, naming what is wrong."""

from __future__ import annotations

import random

import pytest

from games.engine import RESIGN, UNDO, GameState, format_move
from games.engine import moves as engine_moves
from games.engine.audit import Claim, Logged, Rejected, close_violation, replay_claim
from games.engine.safe import automatic_on_top, play_safe_home, undo_with_automatic

CODE_SEED = GameState.from_code("FT1-N-0000063").seed  # column 7 ends AH, AH
VARIANT = "forty-thieves"


def server_log(seed: int, *, actions: int, undo_every: int = 0, rng_seed: int = 1) -> list:
    """A practice game as the play service writes it with the option on: each player's
    move followed by the safe home moves; each undo preceded by their take-back."""
    rng = random.Random(rng_seed)
    game = GameState.from_seed(seed, VARIANT)
    log: list[tuple[str, bool]] = []
    for i in range(1, actions + 1):
        brought = bool(log) and log[-1][1] and log[-1][0] != UNDO  # safe moves came last
        if undo_every and (i % undo_every == 0 or brought) and game.can_undo:
            on_top = automatic_on_top(log, undo_limit=100)
            for automatic in undo_with_automatic(game, on_top):
                log.append((UNDO, automatic))
            continue
        legal = engine_moves.legal(game)
        if not legal or game.is_won():
            break
        move = rng.choice(legal)
        game.play_move(move)
        log.append((format_move(move), False))
        log.extend((m, True) for m in play_safe_home(game))
    log.append((RESIGN, False))
    return [Logged(seq, m, None, a) for seq, (m, a) in enumerate(log, start=1)], game


def claim_for(game: GameState, *, auto_home: bool = True) -> Claim:
    return Claim(
        seed=CODE_SEED,
        variant=VARIANT,
        undo_limit=100,
        status="resigned",
        score=game.score,
        moves=game.moves,
        auto_home=auto_home,
    )


def rejection(claim: Claim, log: list[Logged]) -> str:
    with pytest.raises(Rejected) as caught:
        replay_claim(claim, log)
    return caught.value.reason


@pytest.mark.parametrize("undo_every", [0, 3, 7])
def test_a_log_the_server_wrote_with_the_option_is_accepted(undo_every: int) -> None:
    log, game = server_log(CODE_SEED, actions=120, undo_every=undo_every)
    assert any(a.by_system and a.move != UNDO for a in log)  # the aces at least
    if undo_every:
        assert any(a.by_system and a.move == UNDO for a in log)
    replay_claim(claim_for(game), log)


def test_it_refuses_automatic_moves_in_a_game_without_the_option() -> None:
    log, game = server_log(CODE_SEED, actions=10)
    reason = rejection(claim_for(game, auto_home=False), log)
    assert "not started with safe cards sent home" in reason


def test_it_refuses_a_player_move_flagged_automatic() -> None:
    log = [Logged(1, "s", None, False), Logged(2, "t1-t8", None, True)]
    assert "the next safe home move there is 't7-f2'" in rejection(
        claim_for(GameState.from_seed(CODE_SEED)), log
    )


def test_it_refuses_a_safe_move_out_of_the_engines_order() -> None:
    log = [Logged(1, "s", None, False), Logged(2, "t7-f6", None, True)]  # f2 comes first
    assert "next safe home move" in rejection(claim_for(GameState.from_seed(CODE_SEED)), log)


def test_it_refuses_an_automatic_move_before_any_move_of_the_player() -> None:
    log = [Logged(1, "t7-f2", None, True)]
    assert "after the deal" in rejection(claim_for(GameState.from_seed(CODE_SEED)), log)


def test_it_refuses_an_automatic_move_after_an_undo() -> None:
    log = [
        Logged(1, "s", None, False),
        Logged(2, UNDO, None, False),
        Logged(3, "t7-f2", None, True),
    ]
    assert "after 'undo'" in rejection(claim_for(GameState.from_seed(CODE_SEED)), log)


def test_it_refuses_an_automatic_undo_of_the_players_move() -> None:
    log = [Logged(1, "s", None, False), Logged(2, UNDO, None, True), Logged(3, UNDO, None, False)]
    assert "automatic undo of a player's action" in rejection(
        claim_for(GameState.from_seed(CODE_SEED)), log
    )


def test_it_refuses_a_players_undo_of_an_automatic_move() -> None:
    log = [
        Logged(1, "s", None, False),
        Logged(2, "t7-f2", None, True),
        Logged(3, UNDO, None, False),
    ]
    assert "the player's undo of an automatic move" in rejection(
        claim_for(GameState.from_seed(CODE_SEED)), log
    )


def test_it_refuses_an_automatic_undo_not_followed_by_the_players() -> None:
    log = [
        Logged(1, "s", None, False),
        Logged(2, "t7-f2", None, True),
        Logged(3, UNDO, None, True),
        Logged(4, "s", None, False),
    ]
    assert "not followed by the undo" in rejection(claim_for(GameState.from_seed(CODE_SEED)), log)


def test_it_refuses_a_log_ending_with_an_automatic_undo() -> None:
    log = [Logged(1, "s", None, False), Logged(2, "t7-f2", None, True), Logged(3, UNDO, None, True)]
    assert "ends with an automatic undo" in rejection(
        claim_for(GameState.from_seed(CODE_SEED)), log
    )


def test_the_close_rules_let_automatic_moves_through_only_with_the_option() -> None:
    from datetime import UTC, datetime, timedelta

    from games.engine.audit import Stamped

    close = datetime(2026, 1, 2, tzinfo=UTC)
    at = close - timedelta(hours=1)
    log = [Stamped(1, "s", at, False), Stamped(2, "t7-f2", at, True)]
    assert close_violation(log, closes_at=close, auto_home=True) is None
    assert "only ever writes the resign" in close_violation(log, closes_at=close)
    late = [Stamped(1, "s", at, False), Stamped(2, "t7-f2", close, True)]
    assert "after the deal closed" in close_violation(late, closes_at=close, auto_home=True)
