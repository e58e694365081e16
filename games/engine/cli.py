"""The engine's command line: how anyone checks a deal or a published game.

    python -m games.engine deal FT1-N-0000007
    python -m games.engine deal --seed 7 --variant josephine
    python -m games.engine replay FT1-N-0000007 s t3-t4 w-f1
    python -m games.engine replay FT1-N-0000007 --file moves.txt
    python -m games.engine legal FT1-N-0000007 s
    python -m games.engine commitment FT1-N-... 0123456789abcdef0123456789abcdef
    python -m games.engine verify-day games.json

Exit status: 0 when everything asked for was done, 1 when a move was
refused (or a day file disagrees with its own replay), 2 when the input
itself was bad (a code, a seed, a file).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from .dayfile import DayFileError, verify_day
from .deal import commitment
from .errors import EngineError
from .game import GameState


def render(game: GameState) -> str:
    """The position as text, one line per pile; face-down cards as ``??``.

    >>> print(render(GameState.from_code("FT1-N-0000007")).splitlines()[2])
    t1   6S 6H KS KC
    """
    view = game.view()
    lines = [
        f"{game.rules.title} ({game.rules.spec})" + (f"  code {game.code}" if game.code else ""),
        "stock {stock}  waste {waste}  score {score}  moves {moves}".format(
            stock=view["stock"],
            waste=" ".join(view["waste"][-3:]) or "-",
            score=view["score"],
            moves=view["moves"],
        ),
    ]
    for number in range(1, game.rules.columns + 1):
        lines.append(f"t{number:<3} " + " ".join(game.column(number)))
    tops = [f"f{k + 1}:{f['top'] or '--'}" for k, f in enumerate(view["foundations"])]
    lines.append(" ".join(tops))
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="Print Forty Thieves deals and replay move lists against them.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("deal", "print the layout of a deal"),
        ("replay", "replay moves against a deal and print the outcome"),
        ("legal", "list the legal moves after the given moves"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("code", nargs="?", help="a deal code such as FT1-N-0000007")
        p.add_argument("--seed", help="a seed instead of a code (decimal or 0x hex)")
        p.add_argument("--variant", default="forty-thieves", help="variant spec with --seed")
        if name != "deal":
            p.add_argument("moves", nargs="*", help="moves in the notation, e.g. s t3-f1")
            p.add_argument("--file", help="read moves from a file (whitespace separated)")
    p = sub.add_parser("commitment", help="recompute a daily deal's published commitment")
    p.add_argument("code", help="the revealed deal code")
    p.add_argument("salt", help="the revealed salt (32 hex digits)")
    p = sub.add_parser(
        "verify-day",
        help="re-check a published day file: commitment, every game, the board's order",
    )
    p.add_argument("file", help="the day's games.json (gzip too), or - for standard input")
    return parser


def _game(args: argparse.Namespace) -> GameState:
    if args.seed is not None:
        if args.code:
            raise EngineError("give a deal code or --seed, not both")
        try:
            seed = int(args.seed, 0)
        except ValueError:
            raise EngineError(f"--seed {args.seed!r} is not a whole number") from None
        return GameState.from_seed(seed, args.variant)
    if not args.code:
        raise EngineError("give a deal code such as FT1-N-0000007, or --seed")
    return GameState.from_code(args.code)


def _moves(args: argparse.Namespace) -> list[str]:
    moves = list(args.moves)
    if args.file:
        try:
            with open(args.file, encoding="utf-8") as handle:
                moves.extend(handle.read().split())
        except OSError as err:
            raise EngineError(f"cannot read {args.file}: {err.strerror}") from None
    return moves


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "verify-day":
        return _verify_day(args.file, out)
    if args.command == "commitment":
        try:
            print(commitment(args.code, args.salt), file=out)
        except EngineError as err:
            print(f"error: {err}", file=out)
            return 2
        return 0
    try:
        game = _game(args)
        moves = [] if args.command == "deal" else _moves(args)
    except EngineError as err:
        print(f"error: {err}", file=out)
        return 2
    if args.command == "deal":
        print(render(game), file=out)
        return 0
    try:
        game.replay(moves)
    except EngineError as err:
        index = getattr(err, "index", 0)
        print(f"refused: move {index + 1} ({moves[index]!r}): {err}", file=out)
        print(render(game), file=out)
        return 1
    if args.command == "legal":
        print(" ".join(game.legal_moves()) or "(no legal move)", file=out)
        return 0
    outcome = "won" if game.is_won() else "stuck (lost)" if game.is_stuck() else "in play"
    print(f"{outcome}: {len(moves)} moves accepted, score {game.score}", file=out)
    print(render(game), file=out)
    return 0


def _verify_day(path: str, out: TextIO) -> int:
    """0: the file checks clean; 1: it disagrees with its replay (each place printed);
    2: it cannot be read as a day file."""
    try:
        report = verify_day(_read_json(path))
    except (DayFileError, EngineError) as err:
        print(f"error: {err}", file=out)
        return 2
    what = f"{report.kind} {report.day} ({report.variant}), {report.games} games"
    if report.clean:
        print(
            f"ok: {what}: the commitment matches; every game replays to its claimed result,"
            " time and finish; the ranks are the board's order",
            file=out,
        )
        return 0
    for problem in report.problems:
        print(f"disagrees: {problem}", file=out)
    count = len(report.problems)
    print(f"FAILED: {what}: {count} disagreement{'s' if count != 1 else ''}", file=out)
    return 1


def _read_json(path: str) -> object:
    try:
        if path == "-":
            raw = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                raw = handle.read()
    except OSError as err:
        raise DayFileError(f"cannot read {path}: {err.strerror}") from None
    if raw[:2] == b"\x1f\x8b":  # a gzip file, as the site serves it compressed
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as err:
            raise DayFileError(f"{path} is a broken gzip file: {err}") from None
    try:
        return json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise DayFileError(f"{path} is not JSON: {err}") from None
