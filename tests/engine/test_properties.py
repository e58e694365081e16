"""Properties of the rules engine over random playouts of every variant.

A playout deals a seed in a variant spec (options included), then takes the
first legal move ``rush`` times (draws and redeals come first, so this runs
through the stock), then follows ``steps``: each picks one of ``legal_moves()``
by index (or the one moving the longest run), or asks for an undo. Every
property is checked along the way.

The expected decks and layouts are written out here from ``docs/deals.md``
rather than read from the engine's rule sets, so the tests do not share the
engine's mistakes.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import UNDO_LIMIT, GameState, IllegalMove

RANKS = "A23456789TJQK"
SUITS = "SHDC"

#: name -> (packs, columns, foundations), from the table in docs/deals.md.
SHAPES: dict[str, tuple[int, int, int]] = {
    "forty-thieves": (2, 10, 8),
    "josephine": (2, 10, 8),
    "limited": (2, 12, 8),
    "indian": (2, 10, 8),
    "streets": (2, 10, 8),
    "sixty-thieves": (3, 12, 12),
    "lucas": (2, 13, 8),
    "maria": (2, 9, 8),
    "number-ten": (2, 10, 8),
    "rank-and-file": (2, 10, 8),
    "little-forty": (2, 10, 8),
}
#: Variants in which a run moves as a unit (``t3-t5x3``).
MOVES_RUNS = {"josephine", "number-ten", "rank-and-file", "little-forty"}

UNDO = -1
#: A step that plays the legal move carrying the most cards (a run, where one is listed).
LONGEST = -2
#: Settings for the properties that do little work per step, and for the heavy ones.
CHEAP = settings(max_examples=100, deadline=None)
HEAVY = settings(max_examples=40, deadline=None)


# Playouts ------------------------------------------------------------------


class Step(NamedTuple):
    """The game after ``action`` (``"deal"``, ``"undo"`` or a move); ``rushing``
    while the leading first-legal-move run lasts."""

    game: GameState
    action: str
    rushing: bool


@dataclass(frozen=True)
class Playout:
    spec: str
    seed: int
    rush: int
    steps: tuple[int, ...]

    @property
    def name(self) -> str:
        return self.spec.split("+")[0]

    def run(self) -> Iterator[Step]:
        """Yield the same game object after the deal and after every action."""
        game = GameState.from_seed(self.seed, self.spec)
        yield Step(game, "deal", self.rush > 0)
        plan = itertools.chain(
            ((0, True) for _ in range(self.rush)), ((s, False) for s in self.steps)
        )
        for index, rushing in plan:
            if index == UNDO:
                if game.can_undo:
                    game.undo()
                    yield Step(game, "undo", rushing)
                continue
            legal = game.legal_moves()
            if not legal:
                continue
            if index == LONGEST:
                move = max(legal, key=lambda m: int(m.partition("x")[2] or 1))
            else:
                move = legal[index % len(legal)]
            game.play(move)
            yield Step(game, move, rushing)


def _spec(name: str, kings: bool, redeal: str | None, takeback: bool) -> str:
    options = [o for o, on in (("kings", kings), (redeal, redeal), ("takeback", takeback)) if on]
    return "+".join([name, *options])  # type: ignore[list-item]


names = st.sampled_from(sorted(SHAPES))
specs = st.one_of(
    names,
    st.builds(
        _spec,
        names,
        st.booleans(),
        st.sampled_from([None, "redeal1", "redeal2"]),
        st.booleans(),
    ),
)
seeds = st.one_of(st.integers(0, 2**35 - 1), st.integers(0, 2**128 - 1))


def _step(kind: int, index: int) -> int:
    """A random legal move, the first one (the draw while the stock lasts),
    the longest run, or an undo; shrinks towards "a random index" then 0."""
    if kind <= 3:
        return index
    if kind <= 6:
        return 0
    return LONGEST if kind <= 8 else UNDO


steps = st.builds(_step, st.integers(0, 9), st.integers(0, 2**16))


def playouts(max_steps: int, max_rush: int = 140) -> st.SearchStrategy[Playout]:
    return st.builds(
        Playout,
        spec=specs,
        seed=seeds,
        rush=st.one_of(st.just(0), st.integers(0, max_rush)),
        steps=st.lists(steps, max_size=max_steps).map(tuple),
    )


# Helpers -------------------------------------------------------------------


def full_deck(name: str) -> Counter[str]:
    packs = SHAPES[name][0]
    return Counter(r + s for r in RANKS for s in SUITS for _ in range(packs))


def foundation_cards(ranks: list[int]) -> list[str]:
    """Every card on the foundations, from the ranks a dump gives."""
    return [RANKS[r] + SUITS[k % 4] for k, rank in enumerate(ranks) for r in range(rank)]


def foundation_tops(ranks: list[int]) -> list[str]:
    return [RANKS[rank - 1] + SUITS[k % 4] for k, rank in enumerate(ranks) if rank]


def cards_held(state: dict[str, Any]) -> Counter[str]:
    held = Counter(card for column in state["columns"] for card in column)
    held.update(state["waste"])
    held.update(state["stock"])
    held.update(foundation_cards(state["foundations"]))
    return held


def position(game: GameState) -> dict[str, Any]:
    """The dump without the move counter and the undo history."""
    state = game.dump()
    del state["moves"], state["history"]
    return state


def visible_cards(state: dict[str, Any]) -> Counter[str]:
    visible = Counter(
        card
        for column, down in zip(state["columns"], state["down"], strict=True)
        for card in column[down:]
    )
    visible.update(state["waste"])
    visible.update(foundation_tops(state["foundations"]))
    return visible


def strings_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings_in(item)


def is_card_text(text: str) -> bool:
    return len(text) == 2 and text[0] in RANKS and text[1] in SUITS


def candidate_moves(name: str, state: dict[str, Any]) -> set[str]:
    """Every move text naming piles of this layout: each source onto each
    destination, with run counts up to one past each column's length."""
    _, columns, foundations = SHAPES[name]
    tableau = [f"t{n}" for n in range(1, columns + 1)]
    homes = [f"f{k}" for k in range(1, foundations + 1)]
    candidates = {"s", "r"}
    for src in ["w", *tableau, *homes]:
        for dst in [*tableau, *homes]:
            candidates.add(f"{src}-{dst}")
    longest = max(len(column) for column in state["columns"]) + 1
    counts = range(2, longest + 1) if name in MOVES_RUNS else range(2, 3)
    for src in ["w", *tableau]:
        for dst in tableau:
            candidates.update(f"{src}-{dst}x{n}" for n in counts)
    return candidates


def score_after(score: int, move: str) -> int:
    """The scoring rules: +10 to a foundation, +5 waste to column, -15 for a
    take-back (never below 0), 0 otherwise."""
    if move in ("s", "r"):
        return score
    src, dst = move.split("-")
    if dst.startswith("f"):
        return score + 10
    if src == "w":
        return score + 5
    if src.startswith("f"):
        return max(0, score - 15)
    return score


# Properties ----------------------------------------------------------------


@CHEAP
@given(playouts(max_steps=80))
def test_it_conserves_every_card_through_any_playout(playout: Playout) -> None:
    packs, columns, foundations = SHAPES[playout.name]
    deck = full_deck(playout.name)
    assert sum(deck.values()) == 52 * packs
    for step in playout.run():
        state = step.game.dump()
        assert len(state["columns"]) == columns
        assert len(state["foundations"]) == foundations
        assert cards_held(state) == deck, step.action


@CHEAP
@given(playouts(max_steps=60))
def test_play_then_undo_restores_the_exact_position(playout: Playout) -> None:
    earlier: deque[dict[str, Any]] = deque(maxlen=UNDO_LIMIT)
    current: dict[str, Any] | None = None
    for step in playout.run():
        game = step.game
        if step.action == "undo":
            assert position(game) == earlier.pop()
        elif current is not None:
            earlier.append(current)
        current = position(game)
        if step.rushing:
            continue
        trial = GameState.load(game.dump())
        for move in trial.legal_moves():
            counted = trial.moves
            trial.play(move)
            trial.undo()
            assert position(trial) == current, move
            assert trial.moves == counted + 2, move


@CHEAP
@given(playouts(max_steps=30))
def test_it_refuses_an_undo_with_nothing_to_undo_and_changes_nothing(playout: Playout) -> None:
    *_, last = playout.run()
    game = last.game
    undone = 0
    while game.can_undo:
        game.undo()
        undone += 1
    assert undone <= UNDO_LIMIT
    before = game.dump()
    with pytest.raises(IllegalMove, match="there is nothing to undo"):
        game.undo()
    assert game.dump() == before


@CHEAP
@given(playouts(max_steps=60))
def test_dump_and_load_round_trip_at_any_point(playout: Playout) -> None:
    for step in playout.run():
        game = step.game
        state = game.dump()
        assert state["variant"] == playout.spec
        loaded = GameState.load(state)
        assert loaded.dump() == state
        assert loaded.legal_moves() == game.legal_moves()
        assert loaded.view() == game.view()
        through_json = GameState.load(json.loads(json.dumps(state)))
        assert through_json.dump() == state


@HEAVY
@given(playouts(max_steps=25))
def test_every_listed_move_is_accepted_and_every_other_is_refused(playout: Playout) -> None:
    for step in playout.run():
        if step.rushing:
            continue
        game = step.game
        state = game.dump()
        before = position(game)
        legal = game.legal_moves()
        assert len(set(legal)) == len(legal), "a move is listed twice"
        candidates = candidate_moves(playout.name, state)
        assert set(legal) <= candidates
        for move in legal:
            trial = GameState.load(state)
            trial.play(move)
            assert position(trial) != before, f"{move} changes nothing"
        refused = sorted(candidates - set(legal))
        for move in refused:
            with pytest.raises(IllegalMove):
                game.play(move)
        if game.dump() != state:  # find which refusal left a trace
            for move in refused:
                trial = GameState.load(state)
                with pytest.raises(IllegalMove):
                    trial.play(move)
                assert trial.dump() == state, f"refusing {move} changed the game"


@CHEAP
@given(playouts(max_steps=80))
def test_the_score_follows_the_scoring_rules_step_by_step(playout: Playout) -> None:
    expected = 0
    earlier: deque[int] = deque(maxlen=UNDO_LIMIT)
    for step in playout.run():
        if step.action == "undo":
            expected = earlier.pop()
        elif step.action != "deal":
            earlier.append(expected)
            expected = score_after(expected, step.action)
        assert step.game.score >= 0
        assert step.game.score == expected, step.action
        assert step.game.view()["score"] == expected


@CHEAP
@given(playouts(max_steps=80))
def test_the_move_counter_counts_every_action_and_never_decreases(playout: Playout) -> None:
    for count, step in enumerate(playout.run()):
        assert step.game.moves == count
        assert step.game.view()["moves"] == count


@CHEAP
@given(playouts(max_steps=60))
def test_the_view_shows_only_visible_cards(playout: Playout) -> None:
    for step in playout.run():
        state = step.game.dump()
        view = step.game.view()
        assert isinstance(view["stock"], int) and not isinstance(view["stock"], bool)
        assert view["stock"] == len(state["stock"])
        shown = Counter(text for text in strings_in(view) if is_card_text(text))
        assert not shown - visible_cards(state), "the view shows a hidden card"
        for column, down, seen in zip(
            state["columns"], state["down"], view["columns"], strict=True
        ):
            assert seen == {"down": down, "cards": column[down:]}
        assert view["waste"] == state["waste"]


@CHEAP
@given(playouts(max_steps=40), st.randoms(use_true_random=False))
def test_the_view_is_the_same_whatever_the_hidden_cards_are(
    playout: Playout, rnd: random.Random
) -> None:
    """Shuffling the stock and the face-down cards among themselves changes
    nothing a player sees, nor what they may play."""
    for step in playout.run():
        if step.rushing:
            continue
        game = step.game
        state = game.dump()
        state["history"] = []
        hidden = list(state["stock"])
        for column, down in zip(state["columns"], state["down"], strict=True):
            hidden.extend(column[:down])
        rnd.shuffle(hidden)
        state["stock"] = hidden[: len(state["stock"])]
        rest = iter(hidden[len(state["stock"]) :])
        for column, down in zip(state["columns"], state["down"], strict=True):
            column[:down] = [next(rest) for _ in range(down)]
        other = GameState.load(state)
        mine, theirs = game.view(), other.view()
        mine.pop("can_undo"), theirs.pop("can_undo")
        assert theirs == mine
        assert other.legal_moves() == game.legal_moves()


@CHEAP
@given(playouts(max_steps=80))
def test_it_is_stuck_exactly_when_not_won_and_without_legal_moves(playout: Playout) -> None:
    for step in playout.run():
        game = step.game
        stuck = not game.is_won() and not game.legal_moves()
        assert game.is_stuck() == stuck
        view = game.view()
        assert view["stuck"] == stuck
        assert view["won"] == game.is_won()
