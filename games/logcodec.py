"""A finished game's move log packed into one blob (issue 37): what its ``Action`` rows
said, at a few bytes an action instead of a row's 271.

Pure Python, no Django: ``games.services.compaction`` writes these and the log's readers
(``games.selectors.game_log``) read them back. What is kept is every field a reader of a
finished game's log uses: each action's seq, move, ``by_system`` flag, score after it and
server stamp to the microsecond. The client message id is not kept: it only answers a
message sent again to a game still being played (``games.services.play``), and only
finished games whose deal has closed are packed.

The layout (version 1)::

    b"FTL1"  crc32(body) as 4 bytes big-endian  zlib(body)

    body: n, first stamp (us since the Unix epoch), the distinct moves (count, then each
    as length + UTF-8), then per action: move index * 2 + by_system, score change, stamp
    change (us). Every number a varint; the changes zigzag-encoded (an undo lowers the
    score; a clock stepped back may lower a stamp).

Seqs are 1..n (a log is written one seq after another, ``games.services.log``): they are
implied, and a log that is not so is refused at packing rather than stored wrong. A blob
that does not read back whole (wrong magic, checksum, truncation, trailing bytes, an index
out of range) raises :class:`LogCorrupt`: never a shorter or different log.
"""

from __future__ import annotations

import zlib
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

MAGIC = b"FTL1"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_US = timedelta(microseconds=1)


class LogEntry(NamedTuple):
    """One action of a log, as its row held it (less the client message id)."""

    seq: int
    move: str
    by_system: bool
    score: int
    created_at: datetime


class LogCorrupt(ValueError):
    """A blob that is not a whole log of this format."""


def log_pack(entries: list[LogEntry]) -> bytes:
    """The blob of ``entries`` (seq 1..n in order, aware stamps). Raises ``ValueError``
    for a log this format cannot hold exactly."""
    if not entries:
        raise ValueError("an empty log is not packed")
    moves: dict[str, int] = {}
    out = bytearray()
    _varint(out, len(entries))
    first = _micros(entries[0].created_at)
    _varint(out, _zigzag(first))
    body = bytearray()
    score, stamp = 0, first
    for expected, entry in enumerate(entries, start=1):
        if entry.seq != expected:
            raise ValueError(f"seq {entry.seq} where {expected} was expected")
        if entry.score < 0:
            raise ValueError(f"a negative score at seq {entry.seq}")
        index = moves.setdefault(entry.move, len(moves))
        at = _micros(entry.created_at)
        _varint(body, index * 2 + bool(entry.by_system))
        _varint(body, _zigzag(entry.score - score))
        _varint(body, _zigzag(at - stamp))
        score, stamp = entry.score, at
    _varint(out, len(moves))
    for move in moves:  # insertion order is index order
        raw = move.encode()
        _varint(out, len(raw))
        out += raw
    out += body
    packed = zlib.compress(bytes(out), 9)
    return MAGIC + zlib.crc32(out).to_bytes(4, "big") + packed


def log_unpack(blob: bytes | memoryview) -> list[LogEntry]:
    """The log ``blob`` holds, exactly as packed; :class:`LogCorrupt` if it is not one."""
    blob = bytes(blob)  # a database may hand back a memoryview
    if len(blob) < 8 or blob[:4] != MAGIC:
        raise LogCorrupt("not a packed move log (bad magic)")
    try:
        body = zlib.decompress(blob[8:])
    except zlib.error as error:
        raise LogCorrupt(f"packed move log does not decompress: {error}") from None
    if zlib.crc32(body).to_bytes(4, "big") != blob[4:8]:
        raise LogCorrupt("packed move log fails its checksum")
    reader = _Reader(body)
    try:
        return _entries(reader)
    except (IndexError, UnicodeDecodeError, OverflowError, ValueError) as error:
        raise LogCorrupt(f"packed move log is malformed: {error}") from None


def _entries(reader: _Reader) -> list[LogEntry]:
    count = reader.varint()
    stamp = _unzigzag(reader.varint())
    moves = [reader.text() for _ in range(reader.varint())]
    entries, score = [], 0
    for seq in range(1, count + 1):
        code = reader.varint()
        score += _unzigzag(reader.varint())
        stamp += _unzigzag(reader.varint())
        if score < 0:
            raise ValueError(f"a negative score at seq {seq}")
        entries.append(LogEntry(seq, moves[code >> 1], bool(code & 1), score, _at(stamp)))
    if reader.at != len(reader.data):
        raise ValueError("bytes after the last action")
    if count == 0:
        raise ValueError("an empty log")
    return entries


class _Reader:
    __slots__ = ("at", "data")

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def varint(self) -> int:
        value, shift = 0, 0
        while True:
            byte = self.data[self.at]  # IndexError past the end: truncated
            self.at += 1
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
            shift += 7
            if shift > 70:
                raise ValueError("a varint too long")

    def text(self) -> str:
        size = self.varint()
        raw = self.data[self.at : self.at + size]
        if len(raw) != size:
            raise IndexError("a move cut short")
        self.at += size
        return raw.decode()


def _varint(out: bytearray, value: int) -> None:
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)


def _zigzag(value: int) -> int:
    return value * 2 if value >= 0 else -value * 2 - 1


def _unzigzag(value: int) -> int:
    return value >> 1 if not value & 1 else -(value >> 1) - 1


def _micros(at: datetime) -> int:
    if at.tzinfo is None:
        raise ValueError("a naive stamp: the log's stamps are aware")
    return (at - _EPOCH) // _US


def _at(micros: int) -> datetime:
    return _EPOCH + timedelta(microseconds=micros)
