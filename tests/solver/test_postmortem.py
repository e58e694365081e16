"""The post-game analysis: the last winnable position of a lost game, the move that lost
it, a winning line from there, within its budget and honest about what it left undecided.

A real lost game (``tests/data/lost_game.json``) checks the whole analysis against the
true solver; the search itself is checked against a scripted solver whose answers are
set by each test (the position is told by its move counter: position ``i`` of the
effective line has made ``i`` moves), with a clock that only the scripted solver moves.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from games.engine import GameState, parse_code
from games.solver import SolveResult
from games.solver import postmortem as pm
from games.solver.key import make_table_key
from games.solver.postmortem import analyse, effective_line
from games.solver.prove import LostTable
from tests.support.clock import step_perf_counter

ROOT = Path(__file__).resolve().parents[2]
LOST = json.loads((ROOT / "tests" / "data" / "lost_game.json").read_text())
LOST_MOVES: list[str] = LOST["moves"].split()


def deal() -> GameState:
    rules, seed = parse_code(LOST["code"])
    return GameState.from_seed(seed, rules.spec, undo_limit=0)


def replays_to_win(start: GameState, moves: list[str]) -> bool:
    game = start.copy()
    game.replay(moves)
    return game.is_won()


# The moves in effect ----------------------------------------------------------------------


def test_it_keeps_only_the_moves_in_effect_at_the_end() -> None:
    log = ["s", "t1-t2", "undo", "s", "t3-t4", "undo", "undo", "w-t5", "resign"]
    assert [(p.seq, p.move) for p in effective_line(log)] == [(1, "s"), (8, "w-t5")]


def test_it_counts_a_move_taken_back_and_played_again_from_its_last_playing() -> None:
    assert [(p.seq, p.move) for p in effective_line(["s", "undo", "s", "t1-t2"])] == [
        (3, "s"),
        (4, "t1-t2"),
    ]


# A real lost game, the real solver --------------------------------------------------------


def test_it_finds_the_move_that_lost_a_real_game_and_a_winning_line_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the analysis and the real solver read one stepped clock (10 ms a look: slower than
    # this machine's), so the answer and its cost are the same however loaded it is
    clock = step_perf_counter(monkeypatch, tick=0.01)
    report = analyse(deal(), LOST_MOVES, position_seconds=3.0, total_seconds=30.0, clock=clock)
    result = report.to_dict()
    losing = LOST["losing_seq"]
    assert result["verdict"] == "exact"
    assert result["losing"] == {"seq": losing, "move": LOST["losing_move"]}
    assert result["win_step"] == losing - 1 and result["lost_step"] == losing
    assert result["undecided"] == 0
    before = deal()
    before.replay(LOST_MOVES[: losing - 1])
    assert result["line"] and replays_to_win(before, result["line"])
    assert result["line"][0] != LOST["losing_move"]
    # within its budget by the stepped clock (the budget's rules are checked against the
    # scripted solver below)
    assert result["seconds"] <= 30.0 and result["checked"] == len(result["probes"])


def test_a_game_resigned_with_a_win_left_says_so_with_a_line_from_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = step_perf_counter(monkeypatch, tick=0.01)  # as above: no slow day
    log = [*LOST_MOVES[:120], "resign"]
    report = analyse(deal(), log, position_seconds=3.0, total_seconds=20.0, clock=clock)
    result = report.to_dict()
    assert result["verdict"] == "at_end"
    assert result["win_step"] == len(log) and result["losing"] is None
    after = deal()
    after.replay(LOST_MOVES[:120])
    assert replays_to_win(after, result["line"])


# The search, against a scripted solver ----------------------------------------------------


class Scripted:
    """A solver whose verdict for position ``i`` is ``answer(i, seconds)``; a win's line
    is ``lines.get(i)`` (by default one that never follows the player). Each call moves
    the clock by the seconds the verdict took: all of them for "unknown"."""

    def __init__(
        self, answer: Callable[[int, float], str], lines: dict[int, list[str]] | None = None
    ):
        self.answer = answer
        self.lines = lines or {}
        self.now = 0.0
        self.asked: list[tuple[int, float]] = []
        self.modes: list[str] = []
        self.proves: dict[tuple[int, str], list[int]] = {}

    def solve(
        self,
        game: GameState,
        *,
        max_seconds: float,
        table: object = None,
        mode: str = "both",
        prover: object = None,
    ) -> SolveResult:
        index = game.moves
        self.asked.append((index, max_seconds))
        self.modes.append(mode)
        verdict = self.answer(index, max_seconds)
        for later in self.proves.get((index, mode), ()):  # proofs left in the table
            assert isinstance(table, LostTable)
            table.keys.add(make_table_key(game)(position_after(later)))
        spent = max_seconds if verdict == "unknown" else 0.01
        self.now += spent
        line = self.lines.get(index, ["not-the-players-move"]) if verdict == "win" else []
        return SolveResult(verdict, line, 100, spent)

    def clock(self) -> float:
        return self.now


@pytest.fixture
def scripted(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Scripted]:
    def make(answer: Callable[[int, float], str], **kwargs: object) -> Scripted:
        solver = Scripted(answer, **kwargs)  # type: ignore[arg-type]
        monkeypatch.setattr(pm, "decide", solver.solve)
        return solver

    return make


LOG = LOST_MOVES[:100]  # 100 moves: positions 0 to 100


def boundary(last_win: int, decided: Callable[[int], bool] = lambda i: True) -> Callable[..., str]:
    """Positions up to ``last_win`` winnable, the rest lost; undecided where not ``decided``."""
    return lambda i, seconds: ("win" if i <= last_win else "lost") if decided(i) else "unknown"


def run(solver: Scripted, log: list[str] = LOG, **kwargs: object) -> pm.Postmortem:
    options = {"position_seconds": 2.0, "total_seconds": 60.0, **kwargs}
    return analyse(deal(), log, clock=solver.clock, **options)  # type: ignore[arg-type]


def test_it_steps_back_from_the_end_to_the_exact_losing_move(scripted) -> None:
    # Each proof of loss reuses the table the later ones filled, so the analysis steps
    # back one position at a time: the end, then 99, 98, ... down to the win at 37.
    solver = scripted(boundary(37))
    report = run(solver)
    result = report.to_dict()
    assert result["verdict"] == "exact"
    assert result["losing"] == {"seq": 38, "move": LOG[37]}
    assert (result["win_step"], result["lost_step"]) == (37, 38)
    assert [i for i, _ in solver.asked] == list(range(100, 36, -1))  # none asked twice


def test_undecided_positions_leave_an_honest_range(scripted) -> None:
    solver = scripted(boundary(37, decided=lambda i: not 30 < i < 70))
    result = run(solver, total_seconds=30.0).to_dict()
    assert result["verdict"] == "between" and result["losing"] is None
    assert (result["win_step"], result["lost_step"]) == (30, 70)
    assert result["undecided"] == 39
    assert solver.now <= 30.0 + 1e-9  # the whole budget, never more


def test_time_left_asks_again_with_twice_the_budget_each_round(scripted) -> None:
    # Positions 31 to 69 are decided only with at least 4 seconds (twice the budget).
    solver = scripted(lambda i, s: boundary(37)(i, s) if s >= 4 or not 30 < i < 70 else "unknown")
    result = run(solver, total_seconds=120.0).to_dict()
    assert result["verdict"] == "exact" and result["losing"]["seq"] == 38
    assert max(seconds for _, seconds in solver.asked) == 4.0


def test_a_resigned_game_whose_end_is_undecided_is_asked_about_again(scripted) -> None:
    log = [*LOG, "resign"]
    solver = scripted(lambda i, s: "win" if i < 100 or s >= 4 else "unknown")
    result = run(solver, log=log, total_seconds=30.0).to_dict()
    assert result["verdict"] == "at_end" and result["win_step"] == len(log)


def test_a_win_line_the_player_followed_decides_the_positions_after_it(scripted) -> None:
    # From any position up to 29 the solver's line is the player's own moves to 29, then
    # leaves them: the first win found decides every position up to 29.
    lines = {i: [*LOG[i:29], "elsewhere"] for i in range(30)}
    solver = scripted(boundary(29), lines=lines)
    result = run(solver).to_dict()
    assert result["verdict"] == "exact" and result["win_step"] == 29
    assert result["line"] == ["elsewhere"]
    wins = [n for n, (i, _) in enumerate(solver.asked) if i <= 29]
    assert len(wins) == 1  # one win asked for; the rest followed from its line


def test_a_resigned_game_with_no_loss_proved_leaves_the_rest_undecided(scripted) -> None:
    solver = scripted(lambda i, s: "win" if i <= 50 else "unknown")
    result = run(solver, log=[*LOG, "resign"], total_seconds=10.0).to_dict()
    assert result["verdict"] == "between" and result["lost_step"] is None
    assert result["win_step"] == 50 and result["undecided"] == 50  # positions 51 to 100


def test_a_deal_with_no_win_is_nobodys_fault(scripted) -> None:
    result = run(scripted(lambda i, s: "lost")).to_dict()
    assert result["verdict"] == "never" and result["win_step"] is None
    assert result["lost_step"] == 0 and result["line"] == []


def test_no_win_found_anywhere_is_said_as_such(scripted) -> None:
    result = run(scripted(lambda i, s: "lost" if i > 80 else "unknown"), total_seconds=20.0)
    data = result.to_dict()
    assert data["verdict"] == "no_win_found" and data["win_step"] is None
    assert data["lost_step"] == 81


def test_a_known_line_from_the_deal_saves_solving_it(scripted) -> None:
    solver = scripted(boundary(60))
    known = [*LOG[:5], "from-the-rating"]
    result = run(solver, start_line=known).to_dict()
    assert 0 not in [i for i, _ in solver.asked]
    assert result["verdict"] == "exact" and result["win_step"] == 60


def test_a_line_from_the_deal_that_does_not_win_is_ignored(scripted) -> None:
    solver = scripted(lambda i, s: "lost" if i > 60 else "unknown")
    result = run(solver, start_line=["s", "s"], total_seconds=10.0).to_dict()
    assert result["verdict"] == "no_win_found" and result["line"] == []


def test_progress_counts_the_positions_decided_with_an_estimate_of_the_rest(scripted) -> None:
    seen: list[tuple[int, int]] = []
    run(scripted(boundary(37)), progress=lambda done, total: seen.append((done, total)))
    assert [done for done, _ in seen] == list(range(1, len(seen) + 1))
    assert all(total >= done for done, total in seen)
    assert seen[-1][0] == seen[-1][1]  # nothing left to estimate at the end


def test_steps_are_the_replays_even_with_undos_in_the_log(scripted) -> None:
    # Position i of the effective line is after the player's i-th move in effect.
    log = [*LOG[:10], "undo", "undo", *LOG[8:40]]
    solver = scripted(boundary(20))
    result = run(solver, log=log).to_dict()
    assert result["verdict"] == "exact"
    # Move 21 of the effective line (LOG[20]) was played as log entry 10 + 2 + 13 = 25.
    assert result["losing"] == {"seq": 25, "move": LOG[20]}
    assert result["win_step"] == 24 and result["lost_step"] == 25


def test_the_deal_is_never_changed() -> None:
    start = deal()
    before = start.dump()
    analyse(start, LOST_MOVES[:10], position_seconds=0.1, total_seconds=0.3)
    assert start.dump() == before


def position_after(moves: int) -> GameState:
    game = deal()
    game.replay(LOG[:moves])
    return game


def test_positions_an_exhaustive_search_proved_on_its_way_are_taken(scripted) -> None:
    # The search of position 80 is cut short but leaves position 30 proved lost in the
    # table (a position's space holds the later ones' only; the scripted table does not
    # care): the analysis reads it there and reports the loss proved from 30 on.
    solver = scripted(lambda i, s: "lost" if i > 80 else "unknown")
    solver.proves[(80, "prove")] = [30]
    result = run(solver, total_seconds=20.0).to_dict()
    assert result["verdict"] == "no_win_found" and result["lost_step"] == 30
