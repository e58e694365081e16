"""Applying, reverting and listing moves: the rules on the game's compact state.

These functions are the engine's hot path (the verifier replays millions of
moves), so they work on the small-int state of :class:`~.game.GameState` directly
and build a readable refusal only once a move has failed. ``apply`` checks
everything before it changes anything, so a refused move leaves no trace.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .cards import KING, describe_card, format_card
from .errors import IllegalMove
from .notation import (
    DRAW,
    DRAW_MOVE,
    FROM_FOUNDATION,
    REDEAL,
    REDEAL_MOVE,
    TO_COLUMN,
    TO_FOUNDATION,
    WASTE,
    Move,
    pile_name,
)
from .rules import BUILD_REASONS

if TYPE_CHECKING:
    from .game import GameState

# A history record is (move, score before, detail): detail is whether a
# face-down card turned up (card moves) or how many cards were drawn (draws).
Record = tuple[Move, int, int]


def apply(game: GameState, move: Move) -> Record:
    """Play ``move`` on ``game`` or raise :class:`IllegalMove`; returns the undo record."""
    kind, src, dst, count = move
    piles = game.piles
    score = game.score
    if kind == TO_FOUNDATION:
        pile = piles[src]
        found = game.found
        rank = found[dst] + 1
        if not pile or count != 1 or pile[-1] != (rank << 2) | game.fsuit[dst]:
            raise _foundation_refusal(game, move)
        pile.pop()
        found[dst] = rank
        game.home += 1
        game.score = score + 10
    elif kind == TO_COLUMN:
        pile = piles[src]
        target = piles[dst]
        if count == 1 and pile and src != dst:
            card = pile[-1]
            if target:
                if not game._table[(target[-1] << 6) | card]:
                    raise _column_refusal(game, card, target[-1])
            elif (
                len(pile) == 1
                and src != WASTE
                or (game.rules.space == "kings" and card >> 2 != KING)
            ):
                raise _space_refusal(game, move)
            target.append(pile.pop())
        else:
            _check_run(game, move)
            target.extend(pile[-count:])
            del pile[-count:]
        if src == WASTE:
            game.score = score + 5
    elif kind == DRAW:
        stock = game.stock
        if not stock:
            raise _draw_refusal(game)
        waste = piles[WASTE]
        count = game.rules.draw
        if count == 1:
            waste.append(stock.pop())
        else:
            count = min(count, len(stock))
            for _ in range(count):
                waste.append(stock.pop())
        return (move, score, count)
    elif kind == FROM_FOUNDATION:
        _check_takeback(game, move)
        rank = game.found[src]
        piles[dst].append((rank << 2) | game.fsuit[src])
        game.found[src] = rank - 1
        game.home -= 1
        game.score = score - 15 if score > 15 else 0
        return (move, score, 0)
    elif kind == REDEAL:
        if game.stock or not game.redeals_left or not piles[WASTE]:
            raise _redeal_refusal(game)
        game.stock = piles[WASTE][::-1]
        piles[WASTE] = []
        game.redeals_left -= 1
        return (move, score, 0)
    else:
        game.found[src], game.found[dst]  # a foundation the layout lacks: IndexError
        raise IllegalMove(
            "a card taken back from a foundation may only go to a column", "takeback_to_column"
        )
    # A card left a pile: a face-down card that is now on top turns face up.
    down = game.down[src]
    if down and len(pile) == down:
        game.down[src] = down - 1
        return (move, score, 1)
    return (move, score, 0)


def revert(game: GameState, record: Record) -> None:
    """Undo the move ``record`` describes (it must be the last one played)."""
    move, score, detail = record
    kind, src, dst, count = move
    piles = game.piles
    if kind == DRAW:
        waste, stock = piles[WASTE], game.stock
        for _ in range(detail):
            stock.append(waste.pop())
    elif kind == REDEAL:
        piles[WASTE] = game.stock[::-1]
        game.stock = []
        game.redeals_left += 1
    elif kind == FROM_FOUNDATION:
        piles[dst].pop()
        game.found[src] += 1
        game.home += 1
    else:
        if detail:
            game.down[src] += 1
        if kind == TO_FOUNDATION:
            rank = game.found[dst]
            game.found[dst] = rank - 1
            game.home -= 1
            piles[src].append((rank << 2) | game.fsuit[dst])
        else:
            target = piles[dst]
            piles[src].extend(target[-count:])
            del target[-count:]
    game.score = score


def _check_run(game: GameState, move: Move) -> None:
    """Everything :func:`apply` checks for a column move, with the reason it fails."""
    _, src, dst, count = move
    pile, target = game.piles[src], game.piles[dst]
    if src == dst:
        raise IllegalMove("a card cannot move onto its own column", "own_column", pile=_pile(src))
    if count > 1:
        if src == WASTE:
            raise IllegalMove("only the top card of the waste may move", "waste_top_only")
        if not game.rules.sequences:
            raise IllegalMove(
                f"in {game.rules.title} cards move one at a time, never as a run",
                "no_runs",
                variant=game.rules.title,
            )
        face_up = len(pile) - game.down[src]
        if face_up < count:
            raise IllegalMove(
                f"column {src} has only {face_up} face-up cards to move, not {count}",
                "run_face_down",
                pile=_pile(src),
                face_up=face_up,
                count=count,
            )
        table = game._table
        for i in range(len(pile) - count, len(pile) - 1):
            if not table[(pile[i] << 6) | pile[i + 1]]:
                above, below = format_card(pile[i + 1]), format_card(pile[i])
                raise IllegalMove(
                    "only a run built down by the column rule moves as a unit;"
                    f" {above} does not follow {below}",
                    "run_broken",
                    card=above,
                    onto=below,
                )
    if not pile:
        raise IllegalMove(f"{pile_name(src)} is empty", "pile_empty", pile=_pile(src))
    card = pile[-count]
    if target:
        if not game._table[(target[-1] << 6) | card]:
            raise _column_refusal(game, card, target[-1])
    else:
        if game.rules.space == "kings" and card >> 2 != KING:
            raise _space_refusal(game, move)
        if src != WASTE and count == len(pile):
            raise _space_refusal(game, move)


def _check_takeback(game: GameState, move: Move) -> None:
    _, src, dst, _ = move
    rank = game.found[src]  # piles the layout lacks raise IndexError before any rule
    target = game.piles[dst]
    if not game.rules.takeback:
        raise IllegalMove(
            f"cards on a foundation stay there in {game.rules.title}",
            "no_takeback",
            variant=game.rules.title,
        )
    if not rank:
        raise IllegalMove(
            f"foundation f{src + 1} is empty", "foundation_empty", foundation=_foundation(game, src)
        )
    card = (rank << 2) | game.fsuit[src]
    if target:
        if not game._table[(target[-1] << 6) | card]:
            raise _column_refusal(game, card, target[-1])
    elif game.rules.space == "kings" and rank != KING:
        raise _space_refusal(game, move)


def _pile(index: int) -> dict[str, Any]:
    """A source pile as a refusal's parameter: the waste, or column ``n`` (1-based)."""
    return {"kind": "waste"} if index == WASTE else {"kind": "column", "n": index}


def _foundation(game: GameState, k: int) -> dict[str, Any]:
    """Foundation ``k`` (0-based) as a refusal's parameter: players know it by its suit."""
    return {"kind": "foundation", "n": k + 1, "suit": "SHDC"[game.fsuit[k]]}


def _column_refusal(game: GameState, card: int, onto: int) -> IllegalMove:
    shown = {"card": format_card(card), "onto": format_card(onto)}
    if onto >> 2 == 1:
        return IllegalMove("nothing goes onto an ace", "onto_ace", **shown)
    reason = BUILD_REASONS[game.rules.build]
    return IllegalMove(
        f"{reason}; {describe_card(card)} cannot go on {describe_card(onto)}",
        "build",
        build=game.rules.build,
        **shown,
    )


def _space_refusal(game: GameState, move: Move) -> IllegalMove:
    _, src, _, count = move
    if game.rules.space == "kings" and (move.kind == FROM_FOUNDATION or count == 1):
        return IllegalMove("only a king may fill an empty column in this game", "space_kings")
    if game.rules.space == "kings":
        return IllegalMove(
            "only a run led by a king may fill an empty column in this game", "space_kings_run"
        )
    return IllegalMove(
        f"moving all of column {src} to an empty column changes nothing",
        "space_whole_column",
        pile=_pile(src),
    )


def _foundation_refusal(game: GameState, move: Move) -> IllegalMove:
    _, src, dst, count = move
    pile = game.piles[src]
    name = f"foundation f{dst + 1}"
    where: dict[str, Any] = {"foundation": _foundation(game, dst), "pile": _pile(src)}
    if not pile:
        return IllegalMove(f"{pile_name(src)} is empty", "pile_empty", pile=_pile(src))
    if count != 1:
        return IllegalMove(f"{name} takes one card at a time", "foundation_one_card", **where)
    card, suit, rank = pile[-1], game.fsuit[dst], game.found[dst]
    shown = f"{pile_name(src)} shows the {describe_card(card)}"
    where["card"] = format_card(card)
    if card & 3 != suit:
        suits = ("spades", "hearts", "diamonds", "clubs")
        return IllegalMove(
            f"{name} builds {suits[suit]} only, and {shown}", "foundation_suit", **where
        )
    if rank == KING:
        return IllegalMove(f"{name} is complete, from ace to king", "foundation_complete", **where)
    if rank == 0:
        return IllegalMove(f"{name} starts with an ace, and {shown}", "foundation_ace", **where)
    want = ((rank + 1) << 2) | suit
    return IllegalMove(
        f"a foundation builds up by one in its suit: {name} takes the {describe_card(want)} next",
        "foundation_next",
        want=format_card(want),
        **where,
    )


def _draw_refusal(game: GameState) -> IllegalMove:
    if game.redeals_left and game.piles[WASTE]:
        return IllegalMove(
            "the stock is empty: redeal with r to turn the waste over", "stock_empty_redeal"
        )
    if game.rules.redeals:
        return IllegalMove("the stock is empty and no redeals are left", "stock_empty_no_redeals")
    return IllegalMove("the stock is empty, and it is turned only once", "stock_empty")


def _redeal_refusal(game: GameState) -> IllegalMove:
    if not game.rules.redeals:
        return IllegalMove(
            f"{game.rules.title} allows no redeal: the stock is turned only once",
            "no_redeal",
            variant=game.rules.title,
        )
    if not game.redeals_left:
        return IllegalMove("no redeals are left", "redeals_used")
    if game.stock:
        return IllegalMove(
            "a redeal turns the waste over only once the stock is empty", "redeal_stock_left"
        )
    return IllegalMove("the waste is empty, so there is nothing to redeal", "redeal_waste_empty")


def legal(game: GameState) -> list[Move]:
    """Every distinct legal move, in a fixed order (draw or redeal first, then
    each source from the waste to the last column, then take-backs)."""
    return list(iter_legal(game))


def any_legal(game: GameState) -> bool:
    """Whether any move is legal: stops at the first one found."""
    if game.stock or (game.redeals_left and game.piles[WASTE]):
        return True
    return next(iter_legal(game), None) is not None


def iter_legal(game: GameState) -> Iterator[Move]:
    """The legal moves one at a time, in :func:`legal`'s order."""
    piles, found, fsuit, table = game.piles, game.found, game.fsuit, game._table
    kings_only = game.rules.space == "kings"
    columns = range(1, len(piles))
    if game.stock:
        yield DRAW_MOVE
    elif game.redeals_left and piles[WASTE]:
        yield REDEAL_MOVE
    for src, pile in enumerate(piles):
        if not pile:
            continue
        card = pile[-1]
        for k, rank in enumerate(found):
            if card == ((rank + 1) << 2) | fsuit[k]:
                yield Move(TO_FOUNDATION, src, k, 1)
        longest = _movable_run(game, src)
        for count in range(1, longest + 1):
            card = pile[-count]
            whole = src != WASTE and count == len(pile)
            for dst in columns:
                if dst == src:
                    continue
                target = piles[dst]
                if target:
                    if table[(target[-1] << 6) | card]:
                        yield Move(TO_COLUMN, src, dst, count)
                elif not whole and not (kings_only and card >> 2 != KING):
                    yield Move(TO_COLUMN, src, dst, count)
    if game.rules.takeback:
        for k, rank in enumerate(found):
            if not rank:
                continue
            card = (rank << 2) | fsuit[k]
            for dst in columns:
                target = piles[dst]
                if target:
                    if table[(target[-1] << 6) | card]:
                        yield Move(FROM_FOUNDATION, k, dst, 1)
                elif not (kings_only and rank != KING):
                    yield Move(FROM_FOUNDATION, k, dst, 1)


def _movable_run(game: GameState, src: int) -> int:
    """How many cards on top of pile ``src`` may move as one unit."""
    if src == WASTE or not game.rules.sequences:
        return 1
    pile, table = game.piles[src], game._table
    lowest = game.down[src]
    count = 1
    i = len(pile) - 1
    while i > lowest and table[(pile[i - 1] << 6) | pile[i]]:
        count += 1
        i -= 1
    return count
