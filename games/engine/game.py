"""The game: a position of a rule set, ``play``/``undo``, and what a player may see.

>>> game = GameState.from_seed(7)
>>> game.legal_moves()[:3]
['s', 't3-t4', 't5-t7']
>>> game.play("s"); game.moves, game.stock_count
(1, 63)
>>> game.undo(); game.stock_count, game.moves
(64, 2)
>>> game.play("t1-f1")
Traceback (most recent call last):
...
games.engine.errors.IllegalMove: foundation f1 builds spades only, and column 1 shows the king ...
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from . import moves as _moves
from .cards import KING, describe_card, format_card, parse_card
from .deal import deal_cards, format_code, parse_code
from .errors import EngineError, IllegalMove, InvalidLayout, InvalidMove
from .layout import check_layout, foundation_rank
from .notation import _CACHE as _PARSED
from .notation import (
    DRAW,
    FROM_FOUNDATION,
    REDEAL,
    TO_COLUMN,
    TO_FOUNDATION,
    WASTE,
    Move,
    format_move,
    parse_move,
)
from .rules import CLASSIC, RuleSet, parse_variant
from .view import SearchView

UNDO_LIMIT = 100
#: How a move log writes an undo (the notation itself has no undo).
UNDO = "undo"
#: How a move log writes a resignation (a player's decision, not a move of the rules).
RESIGN = "resign"


class GameState(SearchView):
    """A position and its history. Build one with :meth:`from_seed`,
    :meth:`from_code`, :meth:`from_layout` or :meth:`load`. The position's state
    (``piles``, ``stock``, ``found``...) is :class:`~.view.SearchView`'s: searchers
    read it there."""

    __slots__ = ("rules", "seed", "_table", "_moves", "_history")

    def __init__(
        self,
        rules: RuleSet,
        columns: Sequence[Sequence[int]],
        stock: Sequence[int],
        *,
        waste: Iterable[int] = (),
        foundations: list[int] | None = None,
        down: list[int] | None = None,
        undo_limit: int = UNDO_LIMIT,
        redeals_left: int | None = None,
        score: int = 0,
    ) -> None:
        """Prefer the ``from_*`` constructors: this one takes cards as ints,
        ``stock`` with its first-turned card first and ``foundations`` as ranks;
        ``redeals_left`` (all the rules' when not given) and ``score`` for a position
        met in play (the solver's private copies, a player's seen position)."""
        self.rules = rules
        self.seed: int | None = None
        # piles[0] is the waste, piles[1..N] the columns, each bottom to top.
        self.piles = [list(waste)] + [list(c) for c in columns]
        if down is None:
            down = [min(rules.face_down, max(len(c) - 1, 0)) for c in columns]
        self.down = [0, *down]
        self.stock = list(reversed(stock))  # top of the stock is the end
        if foundations is None:
            foundations = [1 if rules.aces_out else 0] * rules.foundations
        self.found = list(foundations)
        self.fsuit = tuple(rules.foundation_suit(k) for k in range(rules.foundations))
        self._table = rules.build_table
        self.home = sum(self.found)
        self.score = score
        self._moves = 0
        self.redeals_left = rules.redeals if redeals_left is None else redeals_left
        self._history: deque[_moves.Record] | None = (
            deque(maxlen=undo_limit) if undo_limit else None
        )
        check_layout(self)

    # Construction ----------------------------------------------------------

    @classmethod
    def from_seed(
        cls, seed: int, variant: str = "forty-thieves", *, undo_limit: int = UNDO_LIMIT
    ) -> GameState:
        """The deal a seed gives in a variant (see ``docs/deals.md``)."""
        rules = parse_variant(variant) if isinstance(variant, str) else variant
        return cls._dealt(rules, seed, undo_limit)

    @classmethod
    def from_code(cls, code: str, *, undo_limit: int = UNDO_LIMIT) -> GameState:
        """The deal a code such as ``FT1-N-0000007`` names.

        >>> GameState.from_code("FT1-N-0000007").code
        'FT1-N-0000007'
        """
        rules, seed = parse_code(code)
        return cls._dealt(rules, seed, undo_limit)

    @classmethod
    def _dealt(cls, rules: RuleSet, seed: int, undo_limit: int) -> GameState:
        columns, stock = _cached_deal(seed, rules)
        game = cls(rules, columns, stock, undo_limit=undo_limit)  # copies the cards
        game.seed = seed
        return game

    @classmethod
    def from_layout(
        cls,
        tableau: list[list[str]],
        stock: list[str],
        variant: str = "forty-thieves",
        *,
        waste: Sequence[str] = (),
        foundations: list[str | None] | None = None,
        undo_limit: int = UNDO_LIMIT,
    ) -> GameState:
        """A position given as text: columns bottom to top, ``stock[0]`` turned first.

        ``foundations`` lists the top card of each foundation (``None`` when
        empty); every card of the variant's deck must be somewhere, once per
        copy. The bottom cards of a column are face down as the variant says.

        >>> tops = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "JC"]
        >>> game = GameState.from_layout([["KC"], ["QC"]] + [[]] * 8, [], foundations=tops)
        >>> game.legal_moves()
        ['t2-f8', 't2-t1']
        >>> GameState.from_layout([["KC"], ["QC"]], [], foundations=tops)
        Traceback (most recent call last):
        ...
        games.engine.errors.InvalidLayout: the layout has 2 columns; forty-thieves has 10
        """
        rules = parse_variant(variant) if isinstance(variant, str) else variant
        if len(tableau) != rules.columns:
            raise InvalidLayout(
                f"the layout has {len(tableau)} columns; {rules.name} has {rules.columns}"
            )
        ranks = None
        if foundations is not None:
            ranks = [foundation_rank(rules, k, top) for k, top in enumerate(foundations)]
        return cls(
            rules,
            [[parse_card(c) for c in column] for column in tableau],
            [parse_card(c) for c in stock],
            waste=[parse_card(c) for c in waste],
            foundations=ranks,
            undo_limit=undo_limit,
        )

    # Reading the position ---------------------------------------------------

    @property
    def variant(self) -> str:
        return self.rules.spec

    @property
    def code(self) -> str | None:
        """The deal code, for games dealt from a seed."""
        return None if self.seed is None else format_code(self.rules, self.seed)

    @property
    def moves(self) -> int:
        """Actions taken, undos included; never decreases."""
        return self._moves

    @property
    def stock_count(self) -> int:
        return len(self.stock)

    @property
    def face_down(self) -> int:
        """How many cards in the columns are still face down."""
        return sum(self.down)

    @property
    def can_undo(self) -> bool:
        return bool(self._history)

    def is_won(self) -> bool:
        return self.home == self.rules.deck_size

    def is_stuck(self) -> bool:
        """Not won, the stock is empty, no useful redeal is left and no card can move."""
        return not self.is_won() and not _moves.any_legal(self)

    def finishing_moves(self) -> list[str]:
        """The foundation moves that win from here, once nothing is left to decide; else [].

        Nothing is left to decide when the stock is empty, no card is face down, and the
        cards can all go home by foundation moves alone (the waste from its top). Taking
        cards home only ever lets more follow, so playing any card that can go home, again
        and again, wins exactly when some order does: the moves are found greedily, in
        one pass per round over the piles. Cheap enough to ask after every move: the
        first two conditions end it at once for most of a game.

        >>> tops = ["KS", "KH", "KD", "KC", "KS", "KH", "KD", "JC"]
        >>> GameState.from_layout([["KC"], ["QC"]] + [[]] * 8, [], foundations=tops
        ...                       ).finishing_moves()
        ['t2-f8', 't1-f8']
        >>> GameState.from_layout([["QC", "KC"]] + [[]] * 9, [], foundations=tops
        ...                       ).finishing_moves()
        []
        >>> GameState.from_seed(7).finishing_moves()
        []
        """
        if self.stock or any(self.down) or self.is_won():
            return []
        piles = [list(pile) for pile in self.piles]
        found, fsuit = list(self.found), self.fsuit
        # The card each foundation takes next -> the foundations that take it (two decks:
        # two foundations of a suit may wait for the same card).
        wanted: dict[int, list[int]] = {}
        for k, rank in enumerate(found):
            if rank < KING:
                wanted.setdefault(((rank + 1) << 2) | fsuit[k], []).append(k)
        moves: list[str] = []
        progress = True
        while progress:
            progress = False
            for src, pile in enumerate(piles):
                while pile and pile[-1] in wanted:
                    card = pile.pop()
                    takers = wanted[card]
                    k = takers.pop(0)
                    if not takers:
                        del wanted[card]
                    moves.append(format_move(Move(TO_FOUNDATION, src, k, 1)))
                    found[k] += 1
                    if found[k] < KING:
                        wanted.setdefault(card + 4, []).append(k)  # the next rank, same suit
                    progress = True
        return moves if all(not pile for pile in piles) else []

    def legal_moves(self) -> list[str]:
        """Every distinct legal action in canonical notation, except moves that
        change nothing (a column's only cards onto an empty column)."""
        return [format_move(m) for m in _moves.legal(self)]

    def column(self, number: int) -> list[str]:
        """Column ``number`` (1-based), bottom to top, face-down cards as ``??``."""
        pile = self.piles[number]
        hidden = self.down[number]
        return ["??"] * hidden + [format_card(c) for c in pile[hidden:]]

    # Playing ----------------------------------------------------------------

    def play(self, move: str) -> None:
        """Play one move in the notation; on refusal the game is exactly as before."""
        self.play_move(parse_move(move))

    def play_move(self, move: Move) -> None:
        """Play an already parsed :class:`Move`."""
        try:
            record = _moves.apply(self, move)
        except IndexError:
            raise _out_of_range(self, move) from None
        self._moves += 1
        if self._history is not None:
            self._history.append(record)

    def replay(self, moves: Iterable[str]) -> None:
        """Play a whole log of moves (and ``undo`` entries, as practice logs hold);
        a refused entry raises its error with ``index`` set (0-based) and leaves
        the game as it was after the entries before it.

        This is the verifier's loop, so it avoids per-move work beyond the rules.

        >>> game = GameState.from_seed(7)
        >>> game.replay(["s", "s", UNDO, "t3-t4"])
        >>> game.moves, game.stock_count
        (4, 63)
        """
        apply = _moves.apply
        cached = _PARSED.get
        history = self._history
        record_to = history.append if history is not None else None
        index = 0
        done = 0  # moves applied here; undo() counts its own
        text: str = ""
        try:
            for index, text in enumerate(moves):  # noqa: B007 - index is read on refusal
                move = cached(text)
                if move is None:
                    if text == UNDO:
                        self.undo()
                        continue
                    move = parse_move(text)
                record = apply(self, move)
                done += 1
                if record_to is not None:
                    record_to(record)
        except IndexError:
            error = _out_of_range(self, parse_move(text))
            error.index = index
            raise error from None
        except TypeError:  # an unhashable entry in the log
            error = InvalidMove(f"{text!r} is not a move in the notation")
            error.index = index
            raise error from None
        except EngineError as err:
            err.index = index
            raise
        finally:
            self._moves += done

    def undo(self) -> None:
        """Take back the last action (up to the undo limit); the score returns to
        what it was and the move counter still goes up by one."""
        if not self._history:
            if self._history is None:
                raise IllegalMove("this game has no undo", "no_undo")
            raise IllegalMove("there is nothing to undo", "nothing_to_undo")
        _moves.revert(self, self._history.pop())
        self._moves += 1

    # Views and persistence --------------------------------------------------

    def view(self) -> dict[str, Any]:
        """The position as a player may see it, ready for JSON.

        The stock's order and face-down cards are left out: only their counts.
        """
        return {
            "variant": self.rules.spec,
            "columns": [
                {"down": self.down[i], "cards": [format_card(c) for c in pile[self.down[i] :]]}
                for i, pile in enumerate(self.piles[1:], start=1)
            ],
            "foundations": [
                {"suit": "SHDC"[self.fsuit[k]], "count": rank, "top": _top(self, k)}
                for k, rank in enumerate(self.found)
            ],
            "waste": [format_card(c) for c in self.piles[WASTE]],
            "stock": len(self.stock),
            "redeals_left": self.redeals_left,
            "score": self.score,
            "moves": self._moves,
            "won": self.is_won(),
            "stuck": self.is_stuck(),
            "can_undo": self.can_undo,
        }

    def describe(self) -> str:
        """The board in words, for screen readers.

        >>> GameState.from_seed(7).describe().splitlines()[1]
        'Column 1: 6 of spades, 6 of hearts, king of spades, king of clubs.'
        """
        lines = [f"Stock: {len(self.stock)} cards. Waste: {_words(self.piles[WASTE][-1:])}."]
        for i, pile in enumerate(self.piles[1:], start=1):
            hidden = self.down[i]
            shown = _words(pile[hidden:])
            prefix = f"{hidden} face down, " if hidden else ""
            lines.append(f"Column {i}: {prefix}{shown}.")
        tops = [_top(self, k) for k in range(len(self.found))]
        found = ", ".join(
            f"{k + 1} {describe_card(parse_card(t)) if t else 'empty'}" for k, t in enumerate(tops)
        )
        lines.append(f"Foundations: {found}.")
        return "\n".join(lines)

    def dump(self, *, history: bool = True) -> dict[str, Any]:
        """The whole state, hidden cards and undo history included, for storage;
        ``history=False`` leaves the take-backs out (a position for the solver, which
        never undoes: it loads as a game without undo).

        >>> game = GameState.from_seed(7)
        >>> game.play("s")
        >>> len(game.dump()["history"]), GameState.load(game.dump(history=False)).can_undo
        (1, False)
        """
        from .state import dump

        return dump(self, history=history)

    @classmethod
    def load(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a game from :meth:`dump`; refuses states that break conservation."""
        from .state import load

        return load(cls, data)

    def copy(self) -> GameState:
        """An independent copy, history included: what ``load(dump())`` gives, without the
        text round trip and the layout check (a live position is legal by construction).
        A game socket's hello copies its game's held engine, so this is on every connect."""
        from .state import copy

        return copy(self)

    def __repr__(self) -> str:
        return f"<GameState {self.rules.spec} score={self.score} moves={self._moves}>"


@lru_cache(maxsize=64)
def _cached_deal(seed: int, rules: RuleSet) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """A deal is a pure function of its seed and rules; the verifier deals the same
    daily deal for every result of the day, so the shuffle is done once per process.
    Tuples, so no caller can change the cached cards."""
    columns, stock = deal_cards(seed, rules)
    return tuple(tuple(c) for c in columns), tuple(stock)


def _words(cards: list[int]) -> str:
    return ", ".join(describe_card(c) for c in cards) if cards else "empty"


def _top(game: GameState, k: int) -> str | None:
    rank = game.found[k]
    return format_card((rank << 2) | game.fsuit[k]) if rank else None


def _out_of_range(game: GameState, move: Move) -> InvalidMove:
    text = format_move(move)
    columns, foundations = game.rules.columns, game.rules.foundations
    reason = (
        f"{text!r} names a pile this layout lacks: columns are t1 to t{columns},"
        f" foundations f1 to f{foundations}"
    )
    return InvalidMove(reason, "no_such_pile", text=text, columns=columns, foundations=foundations)


__all__ = [
    "CLASSIC",
    "GameState",
    "UNDO_LIMIT",
    "DRAW",
    "REDEAL",
    "TO_COLUMN",
    "TO_FOUNDATION",
    "FROM_FOUNDATION",
]
